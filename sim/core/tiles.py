"""Tile ids, hand notation (``"123m 456p 55s E E 5s*"``) and a glossary.

Tile kinds are the integers 0-33 , docs/evaluator.md)::

    0-8    1m-9m   万 wan   characters
    9-17   1p-9p   筒 tong  dots
    18-26  1s-9s   条 tiao  bamboo
    27-33  E S W N RD GD WD  东 南 西 北 红中 发财 白板 (also written 1z-7z)

so ``suit = kind // 9`` (3 for honours) and ``rank = kind % 9 + 1`` (1-9 suited, 1-7 honours).

A hand in this module is *concealed tiles only*: natural tiles counted per kind, plus wild tiles
(Anhua king 王, Anqing 钻) counted per physical face. The fast kernels only need the wild total;
the face is kept so that a hand can be printed, and so the "at most four physical copies of a
kind" check counts a wild ``5s*`` as one of the four ``5s``.

Notation (canonical form, produced by :func:`format_hand`)::

    123m 456p 55s E E RD 5s* 11m*     # naturals m, p, s, honours; then wilds, same order

>>> h = parse_hand("55s 123m E 5s*")
>>> str(h)
'123m 55s E 5s*'
>>> h.n_tiles, h.wilds
(7, 1)
>>> kind_id("RD"), kind_name(31), kind_id("5z")
(31, 'RD', 31)
"""

from __future__ import annotations

import html
import operator
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal, NamedTuple

import numpy as np

__all__ = [
    "GLOSSARY",
    "HONOUR_NAMES",
    "KIND_GLYPHS",
    "KIND_NAMES",
    "N_COPIES",
    "N_KINDS",
    "N_SUITED",
    "SUITS",
    "GlossaryRow",
    "Hand",
    "format_hand",
    "format_tiles",
    "hand_from_counts",
    "is_honour",
    "kind_id",
    "kind_name",
    "parse_hand",
    "parse_tiles",
    "rank_of",
    "suit_of",
]

N_KINDS = 34
N_SUITED = 27  # kinds 0-26 are suited; 27-33 honours
N_COPIES = 4  # physical copies of each kind
SUITS = "mps"
HONOUR_NAMES = ("E", "S", "W", "N", "RD", "GD", "WD")
HONOUR_SUIT = 3  # value of suit_of() for honours

KIND_NAMES: tuple[str, ...] = tuple(f"{r}{s}" for s in SUITS for r in range(1, 10)) + HONOUR_NAMES


def _glyph(kind: int) -> str:
    # Unicode "Mahjong Tiles" block orders honours, characters, *bamboo*, then dots,
    # so p and s swap relative to our ids.
    suit, rank = divmod(kind, 9)
    start = {0: 0x1F007, 1: 0x1F019, 2: 0x1F010, 3: 0x1F000}[suit]
    return chr(start + rank)


# One Unicode tile glyph per kind (U+1F000 block), for display only.
KIND_GLYPHS: tuple[str, ...] = tuple(_glyph(k) for k in range(N_KINDS))


class GlossaryRow(NamedTuple):
    """One glossary line: Chinese term, pinyin, the identifier used in code, and notation."""

    hanzi: str
    pinyin: str
    identifier: str
    notation: str


GLOSSARY: tuple[GlossaryRow, ...] = (
    # Suits: notation gives the range of kinds so every kind is covered.
    GlossaryRow("万", "wàn", "characters", "1m-9m"),
    GlossaryRow("筒", "tǒng", "dots", "1p-9p"),
    GlossaryRow("条", "tiáo", "bamboo", "1s-9s"),
    # Honours (Anqing only), in id order 27-33.
    GlossaryRow("东", "dōng", "east", "E"),
    GlossaryRow("南", "nán", "south", "S"),
    GlossaryRow("西", "xī", "west", "W"),
    GlossaryRow("北", "běi", "north", "N"),
    GlossaryRow("红中", "hóng zhōng", "red_dragon", "RD"),
    GlossaryRow("发财", "fā cái", "green_dragon", "GD"),
    GlossaryRow("白板", "bái bǎn", "white_dragon", "WD"),
    # Key terms.
    GlossaryRow("王", "wáng", "king", "5s* (wild, Anhua)"),
    GlossaryRow("钻", "zuàn", "zuan", "5s* (wild, Anqing)"),
    GlossaryRow("将", "jiàng", "pair", "55m"),
    GlossaryRow("顺子", "shùnzi", "sequence", "123m"),
    GlossaryRow("刻子", "kèzi", "triplet", "555p"),
    GlossaryRow("杠", "gàng", "kong", "5555s"),
    GlossaryRow("吃", "chī", "chi", "claim 123m from the previous player"),
    GlossaryRow("碰", "pèng", "pong", "claim 555p from any discard"),
    GlossaryRow("胡", "hú", "win", ""),
    GlossaryRow("自摸", "zìmō", "self_draw", ""),
    GlossaryRow("听牌", "tīngpái", "ready", "shanten 0"),
    GlossaryRow("向听", "xiàngtīng", "shanten", "-1 complete, 0 ready"),
)


# --------------------------------------------------------------------------------------------
# Kind helpers
# --------------------------------------------------------------------------------------------

# "1z"-"7z" and the honour letters both map to 27-33; only the canonical names are in KIND_NAMES.
_NAME_TO_KIND: dict[str, int] = {name: k for k, name in enumerate(KIND_NAMES)}
_NAME_TO_KIND.update({f"{r}z": N_SUITED + r - 1 for r in range(1, 8)})


def _check_kind(kind: int) -> int:
    # operator.index accepts numpy integers but rejects floats; bool is an int subclass, so
    # reject it explicitly (True would silently mean 1m).
    if isinstance(kind, bool | np.bool_):
        raise TypeError(f"tile kind must be an integer, got {kind!r}")
    k = operator.index(kind)
    if not 0 <= k < N_KINDS:
        raise ValueError(f"tile kind {k} out of range 0-{N_KINDS - 1}")
    return k


def kind_id(name: str) -> int:
    """Kind id of a single tile name (``"5m"``, ``"E"``, ``"1z"``).

    >>> kind_id("1m"), kind_id("9p"), kind_id("1s"), kind_id("E"), kind_id("7z")
    (0, 17, 18, 27, 33)
    """
    try:
        return _NAME_TO_KIND[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown tile name {name!r}") from None


def kind_name(kind: int) -> str:
    """Canonical name of a kind id.

    >>> kind_name(0), kind_name(26), kind_name(32)
    ('1m', '9s', 'GD')
    """
    return KIND_NAMES[_check_kind(kind)]


def suit_of(kind: int) -> int:
    """0 for m, 1 for p, 2 for s, 3 for honours.

    >>> suit_of(4), suit_of(13), suit_of(22), suit_of(30)
    (0, 1, 2, 3)
    """
    return _check_kind(kind) // 9


def rank_of(kind: int) -> int:
    """Rank 1-9 of a suited kind, 1-7 of an honour (E=1 ... WD=7, as in ``1z``-``7z``).

    >>> rank_of(4), rank_of(26), rank_of(27), rank_of(33)
    (5, 9, 1, 7)
    """
    # Honours start at 27 = 3 * 9, so the same formula gives 1-7 for them.
    return _check_kind(kind) % 9 + 1


def is_honour(kind: int) -> bool:
    """True for winds and dragons (kinds 27-33).

    >>> is_honour(26), is_honour(27)
    (False, True)
    """
    return _check_kind(kind) >= N_SUITED


# --------------------------------------------------------------------------------------------
# Parsing
# --------------------------------------------------------------------------------------------

_DIGITS_SUIT = re.compile(r"([0-9]+)(.)")  # body = digits + one suit character
_HONOUR_WORDS = {name: N_SUITED + i for i, name in enumerate(HONOUR_NAMES)}


def _parse_token(token: str) -> tuple[list[int], bool]:
    """Kinds in one token, in written order, and whether the token is wild (ends in ``*``)."""
    wild = token.endswith("*")
    body = token[:-1] if wild else token
    if body in _HONOUR_WORDS:
        return [_HONOUR_WORDS[body]], wild
    if not body:
        raise ValueError(f"token {token!r} has no tile before '*'")
    if "*" in body:
        raise ValueError(f"malformed token {token!r}: '*' may only end a token")
    if re.fullmatch(r"[0-9]+", body):
        raise ValueError(f"token {token!r} has no suit letter (m, p, s or z)")
    if body in ("m", "p", "s", "z"):
        raise ValueError(f"token {token!r} has no ranks before its suit letter")
    m = _DIGITS_SUIT.fullmatch(body)
    if m is None:
        if body.isalpha():
            raise ValueError(
                f"unknown honour {body!r} in token {token!r} (honours are {' '.join(HONOUR_NAMES)})"
            )
        raise ValueError(f"malformed token {token!r}")
    digits, suit = m.groups()
    if suit == "z":
        base, top = N_SUITED, 7
    elif suit in SUITS:
        base, top = 9 * SUITS.index(suit), 9
    else:
        raise ValueError(f"unknown suit letter {suit!r} in token {token!r} (expected m, p, s or z)")
    kinds = []
    for d in digits:
        r = int(d)
        if r == 0:
            raise ValueError(f"rank 0 in token {token!r} (ranks are 1-{top})")
        if r > top:
            raise ValueError(f"honour digit {r} in token {token!r} (honours are 1z-7z)")
        kinds.append(base + r - 1)
    return kinds, wild


def _parse(s: str) -> tuple[list[int], list[int]]:
    """(natural kinds, wild faces), each in written order; checks at most 4 copies per kind."""
    if not isinstance(s, str):
        raise TypeError(f"hand notation must be a str, got {type(s).__name__}")
    tokens = s.split()
    if not tokens:
        raise ValueError("empty hand")
    naturals: list[int] = []
    wilds: list[int] = []
    for token in tokens:
        kinds, wild = _parse_token(token)
        (wilds if wild else naturals).extend(kinds)
    physical = np.bincount(naturals + wilds, minlength=N_KINDS)
    _check_copies(physical)
    return naturals, wilds


def _check_copies(physical: np.ndarray) -> None:
    over = np.flatnonzero(physical > N_COPIES)
    if over.size:
        k = int(over[0])
        raise ValueError(
            f"{int(physical[k])} copies of {KIND_NAMES[k]} (naturals plus wild faces); "
            f"there are only {N_COPIES}"
        )


def parse_tiles(s: str) -> list[int]:
    """Kinds of the natural tiles in ``s``, in written order. Wild tokens are an error.

    >>> parse_tiles("321m E 1z")
    [2, 1, 0, 27, 27]
    """
    naturals, wilds = _parse(s)
    if wilds:
        raise ValueError(f"parse_tiles takes natural tiles only; {s!r} contains wild tiles ('*')")
    return naturals


def parse_hand(s: str) -> Hand:
    """Parse notation into a :class:`Hand` (token order and digit order do not matter).

    >>> h = parse_hand("99s* 5m 1z")
    >>> h.wilds, int(h.counts[4]), int(h.wild_faces[26])
    (2, 1, 2)
    """
    naturals, wilds = _parse(s)
    return Hand(
        np.bincount(naturals, minlength=N_KINDS).astype(np.uint8),
        np.bincount(wilds, minlength=N_KINDS).astype(np.uint8),
    )


# --------------------------------------------------------------------------------------------
# Hand
# --------------------------------------------------------------------------------------------


def _as_counts(values: object, what: str) -> np.ndarray:
    """Validate a per-kind count vector and return a read-only uint8 copy."""
    a = np.asarray(values)
    if a.shape != (N_KINDS,):
        raise ValueError(f"{what} must have shape ({N_KINDS},), got {a.shape}")
    # bool is not an np.integer subtype, so True/False vectors are rejected here too.
    if not np.issubdtype(a.dtype, np.integer):
        raise ValueError(f"{what} must have an integer dtype, got {a.dtype}")
    if a.size and (a.min() < 0 or a.max() > N_COPIES):
        bad = int(np.flatnonzero((a < 0) | (a > N_COPIES))[0])
        raise ValueError(
            f"{what}[{bad}] ({KIND_NAMES[bad]}) = {int(a[bad])}; counts must be 0-{N_COPIES}"
        )
    out = a.astype(np.uint8)  # always a copy, so the caller's array cannot change the hand
    out.setflags(write=False)
    return out


@dataclass(frozen=True, eq=False)
class Hand:
    """Concealed tiles: naturals per kind plus wild tiles per physical face.

    ``counts``: uint8 (34,), natural tiles per kind. ``wild_faces``: uint8 (34,), wild tiles
    (王 / 钻) by the face printed on them. Both arrays are read-only copies; the constructor
    validates them (0-4 each, at most 4 physical tiles of a kind, not empty).
    Equality and hashing are by value.

    >>> parse_hand("123m 5s*") == hand_from_counts(parse_hand("123m").counts,
    ...                                            parse_hand("5s*").wild_faces)
    True
    """

    counts: np.ndarray
    wild_faces: np.ndarray

    def __post_init__(self) -> None:
        counts = _as_counts(self.counts, "counts")
        wild_faces = _as_counts(self.wild_faces, "wild_faces")
        _check_copies(counts.astype(np.int64) + wild_faces)
        if not counts.any() and not wild_faces.any():
            raise ValueError("empty hand")
        # Frozen dataclass: bypass the frozen __setattr__ to store the validated copies.
        object.__setattr__(self, "counts", counts)
        object.__setattr__(self, "wild_faces", wild_faces)

    @property
    def wilds(self) -> int:
        """Total number of wild tiles (the ``W`` of docs/evaluator.md)."""
        return int(self.wild_faces.sum())

    @property
    def n_tiles(self) -> int:
        """Naturals plus wilds."""
        return int(self.counts.sum()) + self.wilds

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Hand):
            return NotImplemented
        return bool(
            np.array_equal(self.counts, other.counts)
            and np.array_equal(self.wild_faces, other.wild_faces)
        )

    def __hash__(self) -> int:
        return hash((self.counts.tobytes(), self.wild_faces.tobytes()))

    def __str__(self) -> str:
        return format_hand(self)

    def __repr__(self) -> str:
        return f"Hand({format_hand(self)!r})"

    def _repr_html_(self) -> str:
        """Tiles as Unicode glyphs (wilds highlighted), notation beside them, for Jupyter."""
        tile = '<span title="{title}" style="font-size:2em;line-height:1.2;{extra}">{glyph}</span>'
        parts = []
        for faces, wild in ((self.counts, False), (self.wild_faces, True)):
            for k in np.repeat(np.arange(N_KINDS), faces):
                parts.append(
                    tile.format(
                        title=html.escape(KIND_NAMES[k] + ("* wild" if wild else "")),
                        # A gold background marks wild tiles; the glyph shows the physical face.
                        extra="background:#f5d76e;border-radius:3px;" if wild else "",
                        glyph=KIND_GLYPHS[k],
                    )
                )
        return (
            '<div style="display:flex;align-items:center;gap:0.8em">'
            f"<span>{''.join(parts)}</span>"
            f"<code>{html.escape(format_hand(self))}</code></div>"
        )


def hand_from_counts(counts: object, wild_faces: object = None) -> Hand:
    """Build a :class:`Hand` from count vectors (shape (34,), integer dtype, values 0-4).

    >>> c = np.zeros(34, dtype=np.int64); c[[0, 1, 2]] = 1
    >>> str(hand_from_counts(c))
    '123m'
    """
    if wild_faces is None:
        wild_faces = np.zeros(N_KINDS, dtype=np.uint8)
    return Hand(counts, wild_faces)


# --------------------------------------------------------------------------------------------
# Formatting
# --------------------------------------------------------------------------------------------

HonourStyle = Literal["letters", "z"]


def _check_style(honours: str) -> None:
    if honours not in ("letters", "z"):
        raise ValueError(f"honours must be 'letters' or 'z', got {honours!r}")


def _tokens(kinds: Iterable[int], star: str, honours: HonourStyle) -> list[str]:
    """Tokens for kinds in the given order: runs of one suit share a token.

    Honours as letters are one token per tile (``E E RD``); as ``z`` they share a token (``115z``).
    """
    out: list[str] = []
    run_suit = -1
    run = ""
    for k in kinds:
        suit, rank = divmod(k, 9)
        if suit == HONOUR_SUIT and honours == "letters":
            if run:
                out.append(run + "mpsz"[run_suit] + star)
                run = ""
            out.append(HONOUR_NAMES[rank] + star)
            run_suit = -1
            continue
        if run and suit != run_suit:
            out.append(run + "mpsz"[run_suit] + star)
            run = ""
        run_suit = suit
        run += str(rank + 1)
    if run:
        out.append(run + "mpsz"[run_suit] + star)
    return out


def format_tiles(kinds: Sequence[int] | np.ndarray, honours: HonourStyle = "letters") -> str:
    """Notation for a list of natural tiles, keeping their order.

    Consecutive tiles of one suit share a token, so ``parse_tiles(format_tiles(x)) == list(x)``;
    sorted input gives the canonical form.

    >>> format_tiles([0, 1, 2, 9, 27, 27])
    '123m 1p E E'
    >>> format_tiles([2, 1, 0, 31], honours="z")
    '321m 5z'
    """
    _check_style(honours)
    ks = [_check_kind(k) for k in kinds]
    return " ".join(_tokens(ks, "", honours))


def format_hand(
    hand_or_counts: Hand | np.ndarray | Sequence[int],
    wilds: np.ndarray | Sequence[int] | int | None = None,
    honours: HonourStyle = "letters",
) -> str:
    """Canonical notation of a hand.

    Naturals by suit (m, p, s; one token per suit, ranks ascending), then honours, then the wild
    tiles the same way with ``*``. ``hand_or_counts`` is a :class:`Hand` or a (34,) counts vector;
    with a counts vector, ``wilds`` is the (34,) wild-faces vector (or None / 0 for none). An
    integer wild *count* cannot be printed, because every wild in the notation has a face.

    >>> format_hand(parse_hand("5s* E 55s 11m* 321m RD E"))
    '123m 55s E E RD 11m* 5s*'
    >>> format_hand(parse_hand("E E RD 1z*"), honours="z")
    '115z 1z*'
    """
    _check_style(honours)
    if isinstance(hand_or_counts, Hand):
        if wilds is not None:
            raise ValueError("wilds must be None when a Hand is given (it carries its wilds)")
        hand = hand_or_counts
    else:
        if isinstance(wilds, int | np.integer) and not isinstance(wilds, bool):
            if wilds != 0:
                raise ValueError(
                    "wilds must be a (34,) wild-faces vector; a wild count has no faces to print"
                )
            wilds = None
        hand = hand_from_counts(hand_or_counts, wilds)
    kinds = np.arange(N_KINDS)
    tokens = _tokens(np.repeat(kinds, hand.counts).tolist(), "", honours)
    tokens += _tokens(np.repeat(kinds, hand.wild_faces).tolist(), "*", honours)
    return " ".join(tokens)
