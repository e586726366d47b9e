"""The hand evaluator's Python API: complete hands, shanten, waits and decompositions, with wilds.

Each function takes a hand as a notation string (``"123m 456p 55s 5s*"``, wild tiles marked
``*``), a :class:`sim.core.tiles.Hand`, or a 34-count array of natural tiles together with
``wilds``. The forms that count are chosen by keywords (a :class:`Forms` can be passed instead):

* ``pair``: ``"any"`` or ``"258"`` (二五八将: the standard hand's pair must be a 2, 5 or 8);
* ``seven_pairs`` (七对) and ``quads`` (four of a kind counts as two pairs);
* ``thirteen`` (十三烂, thirteen unrelated);
* ``standard`` (4 sets + a pair, fewer sets when melds are exposed).

The definitions, including what a wild may stand for, are in docs/evaluator.md.

>>> is_complete("123m 456m 789m 123p 55s")
True
>>> is_complete("123m 456m 789m 123p 11s", pair="258")
False
>>> is_complete("123m 456m 789m 123p 1s 5s*", pair="258")  # the wild can only pair the 1s
False
>>> shanten("123m 456m 789m 123p 5s")
0
>>> [kind_name(k) for k in waits("123m 456m 789m 12p 55s")]
['3p']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from .core import tiles as _tiles
from .core.tables import load_tables
from .core.tiles import kind_name
from .kernels import hand as _kernels

__all__ = [
    "MAX_HAND_TILES",
    "MAX_WILDS",
    "NOT_APPLICABLE",
    "Decomposition",
    "Forms",
    "Group",
    "decompositions",
    "is_complete",
    "is_complete_batch",
    "shanten",
    "shanten_batch",
    "waits",
]

MAX_WILDS = 8
MAX_HAND_TILES = 14
"""A concealed hand has at most 14 tiles (13 waiting plus the winning tile; 3 fewer per meld)."""
NOT_APPLICABLE = _kernels.NOT_APPLICABLE
_SUITED_KINDS_MASK = (1 << 27) - 1
_ALL_KINDS_MASK = (1 << 34) - 1


@dataclass(frozen=True)
class Forms:
    """Which hand forms count as complete, and their options."""

    standard: bool = True
    pair: Literal["any", "258"] = "any"
    seven_pairs: bool = True
    quads: bool = True
    thirteen: bool = False

    def __post_init__(self) -> None:
        if self.pair not in ("any", "258"):
            raise ValueError(f"pair must be 'any' or '258', not {self.pair!r}")
        if not (self.standard or self.seven_pairs or self.thirteen):
            raise ValueError("at least one of standard, seven_pairs, thirteen must be on")

    @property
    def mask(self) -> int:
        """The bitmask the kernels read (``FORM_*`` | ``OPTION_*``)."""
        mask = 0
        if self.standard:
            mask |= _kernels.FORM_STANDARD
        if self.seven_pairs:
            mask |= _kernels.FORM_SEVEN_PAIRS
        if self.thirteen:
            mask |= _kernels.FORM_THIRTEEN
        if self.pair == "258":
            mask |= _kernels.OPTION_PAIR_258
        if self.quads and self.seven_pairs:  # only then does it matter; keeps masks canonical
            mask |= _kernels.OPTION_QUADS
        return mask


def _forms(forms: Forms | None, options: dict) -> Forms:
    if forms is not None:
        if options:
            raise TypeError("pass either forms= or form keywords, not both")
        return forms
    return Forms(**options)


# ---------------------------------------------------------------------------------------------
# Input checking


def _as_counts_and_wilds(hand, wilds) -> tuple[np.ndarray, int]:
    if isinstance(hand, str):
        hand = _tiles.parse_hand(hand)
    if isinstance(hand, _tiles.Hand):
        if wilds is not None:
            raise TypeError("wilds is given by the hand's * tiles; do not pass wilds as well")
        counts, wilds = hand.counts, hand.wilds
    else:
        counts = np.asarray(hand)
        if counts.shape != (34,):
            raise ValueError(f"counts must have shape (34,), not {counts.shape}")
        if not np.issubdtype(counts.dtype, np.integer):
            raise ValueError(f"counts must be integers, not {counts.dtype}")
        if counts.min() < 0 or counts.max() > 4:
            bad = int(np.flatnonzero((counts < 0) | (counts > 4))[0])
            raise ValueError(f"count of {kind_name(bad)} is {counts[bad]}; allowed 0-4")
        if wilds is None:
            wilds = 0
    if isinstance(wilds, bool) or not isinstance(wilds, int | np.integer):
        raise ValueError(f"wilds must be an integer 0-{MAX_WILDS}, not {wilds!r}")
    wilds = int(wilds)
    if not 0 <= wilds <= MAX_WILDS:
        raise ValueError(f"wilds is {wilds}; allowed 0-{MAX_WILDS}")
    return counts, wilds


def _check_size(size: int, allowed_residues: tuple[int, ...], what: str) -> None:
    if size > MAX_HAND_TILES or size % 3 not in allowed_residues:
        sizes = sorted(n for n in range(1, MAX_HAND_TILES + 1) if n % 3 in allowed_residues)
        raise ValueError(
            f"a hand of {size} tiles cannot be {what}; sizes allowed: {', '.join(map(str, sizes))}"
        )


def _keys(counts: np.ndarray) -> np.ndarray:
    keys = np.empty(4, np.int64)
    _kernels.keys_from_counts(counts.astype(np.int64, copy=False), keys)
    return keys


# ---------------------------------------------------------------------------------------------
# One hand


def is_complete(hand, wilds: int | None = None, *, forms: Forms | None = None, **options) -> bool:
    """Whether the hand is complete (胡牌) in one of the forms asked for.

    The hand must have 2, 5, 8, 11 or 14 tiles, wilds included.

    >>> is_complete("11m 22m 33m 44p 55p 66s 7s 7s*")  # seven pairs, the wild pairs 7s
    True
    >>> is_complete("11m 22m 33m 44p 55p 66s 7s 7s*", seven_pairs=False)
    False
    """
    mask = _forms(forms, options).mask
    counts, wilds = _as_counts_and_wilds(hand, wilds)
    _check_size(int(counts.sum()) + wilds, (2,), "complete")
    keys = _keys(counts)
    return bool(
        _kernels.is_complete(keys[0], keys[1], keys[2], keys[3], wilds, mask, load_tables())
    )


def shanten(
    hand,
    wilds: int | None = None,
    *,
    form: Literal["standard", "seven_pairs", "thirteen"] | None = None,
    forms: Forms | None = None,
    **options,
) -> int:
    """Shanten 向听数: -1 complete, 0 ready, k tiles from ready (docs/evaluator.md).

    The least over the forms asked for, or of one ``form`` (with the options of the others kept).
    A form that cannot apply to the hand size gives ``NOT_APPLICABLE`` (99).

    >>> shanten("1m 4m 7m 2p 5p 8p 3s 6s 9s E S W N", seven_pairs=False)
    8
    >>> shanten("1m 4m 7m 2p 5p 8p 3s 6s 9s E S W N", thirteen=True)
    0
    """
    chosen = _forms(forms, options)
    counts, wilds = _as_counts_and_wilds(hand, wilds)
    _check_size(int(counts.sum()) + wilds, (1, 2), "measured by shanten")
    keys = _keys(counts)
    mask = chosen.mask
    if form is not None:
        form_bits = {
            "standard": _kernels.FORM_STANDARD,
            "seven_pairs": _kernels.FORM_SEVEN_PAIRS,
            "thirteen": _kernels.FORM_THIRTEEN,
        }
        if form not in form_bits:
            raise ValueError(f"form must be one of {', '.join(form_bits)}, not {form!r}")
        form_options = mask & (_kernels.OPTION_PAIR_258 | _kernels.OPTION_QUADS)
        mask = form_bits[form] | form_options
    out = np.empty(1, np.int64)
    _kernels.shanten_many(keys.reshape(1, 4), np.array([wilds]), mask, load_tables(), out)
    return int(out[0])


def waits(
    hand,
    wilds: int | None = None,
    *,
    honours: bool = True,
    forms: Forms | None = None,
    **options,
) -> list[int]:
    """Waits 听牌: the kinds that complete a hand of 1, 4, 7, 10 or 13 tiles, as kind ids.

    Never a kind the hand holds four of. ``honours=False`` leaves out honour kinds (a 108-tile
    game has none).

    >>> [kind_name(k) for k in waits("1112345678999m")]
    ['1m', '2m', '3m', '4m', '5m', '6m', '7m', '8m', '9m']
    """
    forms_mask = _forms(forms, options).mask
    counts, wilds = _as_counts_and_wilds(hand, wilds)
    _check_size(int(counts.sum()) + wilds, (1,), "waiting")
    keys = _keys(counts)
    allowed = _ALL_KINDS_MASK if honours else _SUITED_KINDS_MASK
    mask = int(_kernels.waits_mask(keys, wilds, forms_mask, allowed, load_tables()))
    return [kind for kind in range(34) if mask >> kind & 1]


# ---------------------------------------------------------------------------------------------
# Decompositions

_GROUP_NAMES = {
    _kernels.GROUP_SEQUENCE: "sequence",
    _kernels.GROUP_TRIPLET: "triplet",
    _kernels.GROUP_PAIR: "pair",
    _kernels.GROUP_FREE_SET: "free_set",
    _kernels.GROUP_FREE_PAIR: "free_pair",
}
_SHORT_NAMES = {
    "sequence": "seq",
    "triplet": "tri",
    "pair": "pair",
    "free_set": "free_set",
    "free_pair": "free_pair",
}


@dataclass(frozen=True)
class Group:
    """One set or the pair of a decomposition.

    ``tiles`` are the kinds the group stands for (empty for a free group, made of wilds only,
    which may be any set or pair); ``naturals`` the natural tiles placed in it; ``wilds_as`` the
    kinds its wilds stand for.
    """

    kind: Literal["sequence", "triplet", "pair", "free_set", "free_pair"]
    tiles: tuple[int, ...]
    naturals: tuple[int, ...]

    @property
    def wilds_as(self) -> tuple[int, ...]:
        rest = list(self.tiles)
        for tile in self.naturals:
            rest.remove(tile)
        return tuple(rest)

    @property
    def n_wilds(self) -> int:
        """Wild tiles in the group (3 or 2 for a free group)."""
        if self.kind == "free_set":
            return 3
        if self.kind == "free_pair":
            return 2
        return len(self.tiles) - len(self.naturals)

    @property
    def is_set(self) -> bool:
        return self.kind in ("sequence", "triplet", "free_set")

    def __str__(self) -> str:
        if self.kind in ("free_set", "free_pair"):
            return "***" if self.kind == "free_set" else "**"
        wild = list(self.wilds_as)
        parts = []
        for tile in self.tiles:
            if tile in wild:
                wild.remove(tile)
                parts.append(f"*={kind_name(tile)}")
            else:
                parts.append(kind_name(tile))
        return "[" + " ".join(parts) + "]"


@dataclass(frozen=True)
class Decomposition:
    """A standard decomposition: its sets (in canonical order) and its pair."""

    groups: tuple[Group, ...]

    @property
    def sets(self) -> tuple[Group, ...]:
        return tuple(group for group in self.groups if group.is_set)

    @property
    def pair(self) -> Group:
        return next(group for group in self.groups if not group.is_set)

    @property
    def wilds_as(self) -> np.ndarray:
        """Counts (34,) of the kinds the wilds of concrete groups stand for."""
        counts = np.zeros(34, np.int64)
        for group in self.groups:
            for tile in group.wilds_as:
                counts[tile] += 1
        return counts

    @property
    def free_sets(self) -> int:
        return sum(group.kind == "free_set" for group in self.groups)

    def key(self) -> tuple:
        """Canonical form: sorted ``(kind, first tile or -1, naturals)`` with short kind names
        (``seq tri pair free_set free_pair``); two decompositions are equal iff their keys are."""
        return tuple(
            sorted(
                (
                    _SHORT_NAMES[group.kind],
                    group.tiles[0] if group.tiles else -1,
                    tuple(sorted(group.naturals)),
                )
                for group in self.groups
            )
        )

    def __str__(self) -> str:
        return " ".join(str(group) for group in self.groups)


def _group_from_row(group_type: int, first: int, natural_code: int) -> Group:
    name = _GROUP_NAMES[group_type]
    if group_type == _kernels.GROUP_SEQUENCE:
        tiles = (first, first + 1, first + 2)
        naturals = tuple(first + j for j in range(3) if natural_code >> j & 1)
    elif group_type in (_kernels.GROUP_TRIPLET, _kernels.GROUP_PAIR):
        tiles = (first,) * (3 if group_type == _kernels.GROUP_TRIPLET else 2)
        naturals = (first,) * natural_code
    else:
        tiles, naturals = (), ()
    return Group(name, tiles, naturals)


def decompositions(
    hand, wilds: int | None = None, *, pair: Literal["any", "258"] = "any"
) -> list[Decomposition]:
    """Every standard decomposition of a complete hand (empty if it is not complete).

    >>> for d in decompositions("111222333m 789p 55s"):
    ...     print(d)
    [1m 1m 1m] [2m 2m 2m] [3m 3m 3m] [7p 8p 9p] [5s 5s]
    [1m 2m 3m] [1m 2m 3m] [1m 2m 3m] [7p 8p 9p] [5s 5s]
    >>> print(decompositions("123m 456m 789m 12p 55s 9s*")[0])  # the wild, a 9s king, is 3p
    [1m 2m 3m] [4m 5m 6m] [7m 8m 9m] [1p 2p *=3p] [5s 5s]
    """
    Forms(pair=pair)  # validates ``pair``
    counts, wilds = _as_counts_and_wilds(hand, wilds)
    _check_size(int(counts.sum()) + wilds, (2,), "complete")
    capacity = 256
    while True:
        out = np.empty((capacity, _kernels.MAX_GROUPS, 3), np.int8)
        found = _kernels.decompositions(counts.astype(np.int64), wilds, pair == "258", out)
        if found <= capacity:
            break
        capacity = int(found)
    result = []
    for row in out[:found]:
        groups = tuple(
            _group_from_row(int(t), int(first), int(code))
            for t, first, code in row
            if t != _kernels.GROUP_NONE
        )
        result.append(Decomposition(groups))
    return result


# ---------------------------------------------------------------------------------------------
# Batches


def _check_batch(counts, wilds, allowed_residues: tuple[int, ...], what: str):
    counts = np.asarray(counts)
    if counts.ndim != 2 or counts.shape[1] != 34:
        raise ValueError(f"counts must have shape (n, 34), not {counts.shape}")
    if not np.issubdtype(counts.dtype, np.integer):
        raise ValueError(f"counts must be integers, not {counts.dtype}")
    if counts.dtype != np.uint8:
        if counts.size and (counts.min() < 0 or counts.max() > 4):
            row = int(np.flatnonzero(((counts < 0) | (counts > 4)).any(axis=1))[0])
            raise ValueError(f"hand {row}: a count outside 0-4")
        counts = counts.astype(np.uint8)
    wilds = np.asarray(wilds)
    if not np.issubdtype(wilds.dtype, np.integer):
        raise ValueError(f"wilds must be integers, not {wilds.dtype}")
    if wilds.ndim == 0:
        wilds = np.full(counts.shape[0], wilds)
    if wilds.shape != (counts.shape[0],):
        raise ValueError(f"wilds must have shape ({counts.shape[0]},), not {wilds.shape}")
    if wilds.size and (wilds.min() < 0 or wilds.max() > MAX_WILDS):
        row = int(np.flatnonzero((wilds < 0) | (wilds > MAX_WILDS))[0])
        raise ValueError(f"hand {row}: wilds is {wilds[row]}; allowed 0-{MAX_WILDS}")
    wilds = wilds.astype(np.uint8, copy=False)
    counts = np.ascontiguousarray(counts)
    sizes = np.empty(counts.shape[0], np.int16)
    if _kernels.hand_sizes(counts, wilds, sizes) > 4:
        row = int(np.flatnonzero((counts > 4).any(axis=1))[0])
        raise ValueError(f"hand {row}: a count above 4")
    residue_allowed = np.zeros(3, np.bool_)
    residue_allowed[list(allowed_residues)] = True
    bad = (sizes > MAX_HAND_TILES) | ~residue_allowed[sizes % 3]
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        sizes_allowed = sorted(n for n in range(1, MAX_HAND_TILES + 1) if n % 3 in allowed_residues)
        raise ValueError(
            f"hand {row} has {sizes[row]} tiles and cannot be {what}; "
            f"sizes allowed: {', '.join(map(str, sizes_allowed))}"
        )
    return counts, wilds


def is_complete_batch(counts, wilds=0, *, forms: Forms | None = None, **options) -> np.ndarray:
    """``is_complete`` over a batch: counts (n, 34) and wilds (n,) or one int -> bool (n,).

    >>> c = np.zeros((2, 34), np.uint8); c[0, [0, 1, 2]] = 1; c[1, 0] = 3
    >>> is_complete_batch(c, [2, 2]).tolist()
    [True, True]
    """
    mask = _forms(forms, options).mask
    counts, wilds = _check_batch(counts, wilds, (2,), "complete")
    out = np.empty(counts.shape[0], np.bool_)
    _kernels.is_complete_counts_batch(counts, wilds, mask, load_tables(), out)
    return out


def shanten_batch(counts, wilds=0, *, forms: Forms | None = None, **options) -> np.ndarray:
    """``shanten`` (least over the forms) over a batch -> int8 (n,)."""
    mask = _forms(forms, options).mask
    counts, wilds = _check_batch(counts, wilds, (1, 2), "measured by shanten")
    out = np.empty(counts.shape[0], np.int8)
    _kernels.shanten_counts_batch(counts, wilds, mask, load_tables(), out)
    return out
