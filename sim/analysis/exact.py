"""Exact probabilities of dealt-hand events 起手牌, by dynamic programming over suits.

Every probability here is a ratio of hand counts in which the four copies of a kind are told
apart: a hand of ``n`` tiles is an ``n``-subset of the physical tiles, all equally likely. "The
dealer's 14 tiles" are the first 14 tiles of a uniformly shuffled wall and "a non-dealer's 13" any
other 13 dealt positions, so each is a uniform subset of the tile set (§anqing-wall; the deal
order of :func:`sim.core.wall.deal` does not matter). Where a variant flips an indicator tile after
the deal (Anhua kings 王, Anqing 钻), the indicator is one more uniform tile, disjoint from the
hand: given its kind the hand is a uniform subset of the other 107 (135) tiles, and the figure
"averaged" over the indicator weighs each kind by its 4 copies. The precise definition of every
event, and each decision beyond the rules reference, are in docs/exact.md; the docstrings below
repeat them.

No hand is enumerated. A hand is a count vector over kinds; it is counted with weight
``prod C(available_k, c_k)`` (the ways to pick its copies), and the count vectors are summed
suit by suit on their evaluator *signature* (:mod:`sim.kernels.exact`): each suit's 405,350 count
vectors of at most 14 tiles (the honours' 43,130) fall into a few hundred signatures, read from
the evaluator tables of :mod:`sim.core.tables`. Wild tiles (王, 钻) are drawn from the wall like any
tile, so a hand's wild count is the hand size minus its naturals and weighs
``C(wild_copies, wilds)``.

Wilds follow docs/evaluator.md: a wild may stand for any kind, also for a fifth copy.

>>> count_complete([4] * 34, 14, forms=Forms(seven_pairs=False))   # 136 tiles: standard hands
11353128141498
>>> print(f"{float(probability_complete([4] * 27, forms=Forms(seven_pairs=False))):.4e}")  # 108
5.1099e-05
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from math import comb

import numpy as np

from ..core.tables import load_tables
from ..core.tiles import N_COPIES, N_KINDS, N_SUITED
from ..hand import MAX_WILDS, Forms
from ..kernels import exact as _kernels
from ..kernels import tables as builder
from ..variants.anhua import kings_of

__all__ = [
    "SETTINGS",
    "SETTING_NOTES",
    "VARIANTS",
    "Event",
    "Forms",
    "anhua_availability",
    "anqing_readings",
    "anqing_zuan_of",
    "count_complete",
    "count_hands",
    "count_seven_stars",
    "count_thirteen",
    "exact_events",
    "lacking_suit_at_table",
    "parse_settings",
    "probability_complete",
]

DEALER_TILES = 14
NON_DEALER_TILES = 13
SEATS = (("dealer", DEALER_TILES), ("non_dealer", NON_DEALER_TILES))

_OVER = MAX_WILDS + 1
"""Signature values above the most wilds a hand can hold are all stored as this one value."""
_SUIT_RANKS = 9
_HONOUR_KINDS = 7
_RED, _GREEN, _WHITE = 31, 32, 33  # 红中 发财 白板
_COMB = np.array([[comb(a, d) for d in range(5)] for a in range(5)], np.int64)


# ---------------------------------------------------------------------------------------------
# Group signatures


@dataclass(frozen=True)
class _Signatures:
    """Every count vector of one group (a suit or the honours) with at most 14 tiles, and its
    signature. ``digits`` (n_vectors, n_ranks) int8; ``inverse`` (n_vectors,) the index of its
    signature; the signature fields, one entry per distinct signature (int64 each):

    tiles, sets (wilds for sets only), pair_any and pair_258 (wilds for sets and the pair),
    half_quads and half_distinct (seven-pairs slots filled half; ``_OVER`` where a tile can fill
    no slot), fit_sizes (十三烂: bit j set when the tiles all fit a spread set of j ranks; for the
    honours bit 0 when no honour is repeated).
    """

    digits: np.ndarray
    inverse: np.ndarray
    tiles: np.ndarray
    sets: np.ndarray
    pair_any: np.ndarray
    pair_258: np.ndarray
    half_quads: np.ndarray
    half_distinct: np.ndarray
    fit_sizes: np.ndarray


_FIELDS = ("tiles", "sets", "pair_any", "pair_258", "half_quads", "half_distinct", "fit_sizes")
_RADIX = (15, _OVER + 1, _OVER + 1, _OVER + 1, _OVER + 1, _OVER + 1, 16)


@cache
def _signatures(n_ranks: int) -> _Signatures:
    tables = load_tables()
    prefix = "suit" if n_ranks == _SUIT_RANKS else "honour"
    rows = getattr(tables, f"{prefix}_bytes")  # the one-byte tables, rows BYTES_* (sim.core.tables)
    tiles_of_key = rows[builder.BYTES_TILES]
    keys = np.flatnonzero(tiles_of_key <= DEALER_TILES)
    digits = np.empty((keys.size, n_ranks), np.int8)
    rest = keys.copy()
    for rank in range(n_ranks):
        digits[:, rank] = rest % 5
        rest //= 5
    tiles = tiles_of_key[keys].astype(np.int64)
    standard_any = rows[builder.BYTES_STANDARD_ANY][keys].astype(np.int64)
    standard_258 = rows[builder.BYTES_STANDARD_258][keys].astype(np.int64)
    quads = rows[builder.BYTES_PAIRS_QUADS][keys].astype(np.int64)
    distinct = rows[builder.BYTES_PAIRS_DISTINCT][keys].astype(np.int64)
    unrelated = rows[builder.BYTES_UNRELATED][keys].astype(np.int64)
    # Seven pairs: a suit is usable when its whole and half slots hold every tile; with quads
    # that is always so, without them a kind held 3 or 4 times leaves tiles over.
    usable_quads = tiles == 2 * (quads & 15) + (quads >> 4)
    if not usable_quads.all():
        raise RuntimeError("seven-pairs table with quads leaves tiles unplaced")
    usable_distinct = tiles == 2 * (distinct & 15) + (distinct >> 4)
    if n_ranks == _SUIT_RANKS:
        fit_sizes = (tiles == 0).astype(np.int64)
        for size in range(1, 4):
            fits = (unrelated >> (2 * size - 2) & 3) == tiles
            fit_sizes |= fits.astype(np.int64) << size
    else:
        fit_sizes = (unrelated == tiles).astype(np.int64)
    fields = (
        tiles,
        np.minimum(standard_any & 15, _OVER),
        np.minimum(standard_any >> 4, _OVER),
        np.minimum(standard_258 >> 4, _OVER),
        np.minimum(quads >> 4, _OVER),
        np.where(usable_distinct, np.minimum(distinct >> 4, _OVER), _OVER),
        fit_sizes,
    )
    code = np.zeros(keys.size, np.int64)
    for field, radix in zip(reversed(fields), reversed(_RADIX), strict=True):
        code = code * radix + field
    unique, inverse = np.unique(code, return_inverse=True)
    decoded = {}
    rest = unique.copy()
    for name, radix in zip(_FIELDS, _RADIX, strict=True):
        decoded[name] = np.ascontiguousarray(rest % radix)
        rest //= radix
    return _Signatures(digits=digits, inverse=inverse.ravel(), **decoded)


@lru_cache(maxsize=256)
def _signature_counts(n_ranks: int, available: tuple[int, ...]) -> np.ndarray:
    """Hands of the group per signature: int64, sum over its count vectors of prod C(a, c)."""
    signatures = _signatures(n_ranks)
    weights = np.ones(signatures.digits.shape[0], np.int64)
    for rank, copies in enumerate(available):
        weights *= _COMB[copies][signatures.digits[:, rank]]
    # float64 sums are exact here: a group has at most 2**36 weighted hands, far below 2**53
    totals = np.bincount(signatures.inverse, weights=weights, minlength=signatures.tiles.size)
    return np.rint(totals).astype(np.int64)


def _groups(available: Sequence[int]) -> list[tuple[_Signatures, np.ndarray]]:
    out = []
    for start, n_ranks in ((0, 9), (9, 9), (18, 9), (27, 7)):
        copies = tuple(int(c) for c in available[start : start + n_ranks])
        out.append((_signatures(n_ranks), _signature_counts(n_ranks, copies)))
    return out


# ---------------------------------------------------------------------------------------------
# Validation


def _check_available(available: Sequence[int]) -> list[int]:
    values = [int(c) for c in available]
    if len(values) == N_SUITED:
        values += [0] * (N_KINDS - N_SUITED)
    if len(values) != N_KINDS:
        raise ValueError(f"available must give 27 or 34 kinds, not {len(values)}")
    if min(values) < 0 or max(values) > N_COPIES:
        raise ValueError(f"available copies must be 0-{N_COPIES}")
    return values


def _check_wilds(wild_copies: int) -> int:
    wild_copies = int(wild_copies)
    if not 0 <= wild_copies <= MAX_WILDS:
        raise ValueError(f"wild_copies is {wild_copies}; allowed 0-{MAX_WILDS}")
    return wild_copies


def _check_tiles(n_tiles: int, forms: Forms) -> int:
    n_tiles = int(n_tiles)
    if n_tiles > DEALER_TILES or n_tiles % 3 != 2:
        raise ValueError(f"a complete hand has 2, 5, 8, 11 or 14 tiles, not {n_tiles}")
    if (forms.seven_pairs or forms.thirteen) and n_tiles != DEALER_TILES:
        if forms.standard:
            forms_name = "seven pairs" if forms.seven_pairs else "十三烂"
            raise ValueError(f"{forms_name} needs 14 tiles; count the standard form alone")
        raise ValueError("seven pairs and 十三烂 need 14 tiles")
    return n_tiles


# ---------------------------------------------------------------------------------------------
# Counting hands


def count_hands(available: Sequence[int], n_tiles: int, wild_copies: int = 0) -> int:
    """All hands of ``n_tiles`` from the tiles described (copies distinguishable).

    >>> count_hands([4] * 34, 14) == comb(136, 14)
    True
    """
    values = _check_available(available)
    return comb(sum(values) + _check_wilds(wild_copies), int(n_tiles))


def _forms_state(groups, n_tiles: int, forms: Forms) -> np.ndarray:
    """Final DP state (n_tiles + 1, A, B, H) of the standard form (if ``forms.standard``) and of
    seven pairs (if ``forms.seven_pairs``) over ``groups``."""
    standard = forms.standard
    n_sets = _OVER + 1 if standard else 1
    n_half = _OVER + 1 if forms.seven_pairs else 1
    state = np.zeros((n_tiles + 1, n_sets, n_sets, n_half), np.int64)
    state[0, 0, n_sets - 1, 0] = 1  # no pair placed yet: "too many" wilds
    out = np.empty_like(state)
    for signatures, counts in groups:
        keep = (counts > 0) & (signatures.tiles <= n_tiles)
        zeros = np.zeros(int(keep.sum()), np.int64)
        pair = signatures.pair_258 if forms.pair == "258" else signatures.pair_any
        half = signatures.half_quads if forms.quads else signatures.half_distinct
        _kernels.convolve_forms(
            state,
            signatures.tiles[keep],
            signatures.sets[keep] if standard else zeros,
            pair[keep] if standard else zeros,
            half[keep] if forms.seven_pairs else zeros,
            counts[keep],
            out,
        )
        state, out = out, state
    return state


def _complete_mask(shape, n_tiles: int, forms: Forms) -> np.ndarray:
    """Which DP states are complete hands, given that a state's wilds are the tiles missing."""
    tiles, sets, pair, half = np.indices(shape)
    wilds = n_tiles - tiles
    complete = np.zeros(shape, bool)
    if forms.standard:
        complete |= np.minimum(sets + 2, pair) <= wilds
    if forms.seven_pairs:
        complete |= half <= wilds
    return complete


def _single_group_counts(signatures, counts, n_tiles, wild_copies, condition) -> int:
    """Hands whose naturals all lie in this one group, complete by ``condition`` (a boolean
    array over the group's signatures given the wilds each would have)."""
    wilds = n_tiles - signatures.tiles
    total = 0
    for index in np.flatnonzero(condition & (counts > 0) & (wilds >= 0)):
        total += int(counts[index]) * comb(wild_copies, int(wilds[index]))
    return total


def _group_conditions(signatures, n_tiles: int, forms: Forms, pair: str):
    """Per signature of a group holding every natural tile: standard (with ``pair``) complete,
    seven pairs complete."""
    wilds = n_tiles - signatures.tiles
    pair_wilds = signatures.pair_258 if pair == "258" else signatures.pair_any
    standard = forms.standard & (np.minimum(signatures.sets + 2, pair_wilds) <= wilds)
    half = signatures.half_quads if forms.quads else signatures.half_distinct
    pairs = forms.seven_pairs & (half <= wilds) & (n_tiles == DEALER_TILES)
    return standard, pairs


def count_complete(
    available: Sequence[int],
    n_tiles: int = DEALER_TILES,
    wild_copies: int = 0,
    *,
    forms: Forms | None = None,
    one_suit: bool = False,
    flush_any_pair: bool = False,
) -> int:
    """Hands of ``n_tiles`` that are complete in one of ``forms`` (docs/evaluator.md).

    The hand is drawn from ``available[k]`` natural copies of each kind (27 or 34 values, 0-4) plus
    ``wild_copies`` wild tiles (0-8); copies are told apart. ``one_suit``: also all natural tiles in
    one suit (m, p or s; honours are no suit). ``flush_any_pair`` (Anhua 乱将, §anhua-pair-rule): a
    hand whose naturals lie in one suit may also use any pair when ``forms.pair`` is ``"258"``.
    十三烂 (``forms.thirteen``) is counted by :func:`count_thirteen`, alone.

    >>> count_complete([4] * 34, forms=Forms(standard=False, quads=False))  # 7 distinct pairs
    1505948184576
    """
    forms = forms if forms is not None else Forms()
    if forms.thirteen:
        if forms.standard or forms.seven_pairs or one_suit or flush_any_pair:
            raise ValueError("十三烂 is counted alone: use count_thirteen")
        if n_tiles != DEALER_TILES:
            raise ValueError("十三烂 needs 14 tiles")
        return count_thirteen(available, wild_copies)
    values = _check_available(available)
    wild_copies = _check_wilds(wild_copies)
    n_tiles = _check_tiles(n_tiles, forms)
    groups = _groups(values)
    if one_suit:
        total = 0
        for signatures, counts in groups[:3]:
            pair = "any" if flush_any_pair else forms.pair
            standard, pairs = _group_conditions(signatures, n_tiles, forms, pair)
            total += _single_group_counts(
                signatures, counts, n_tiles, wild_copies, standard | pairs
            )
        return total
    state = _forms_state(groups, n_tiles, forms)
    complete = _complete_mask(state.shape, n_tiles, forms)
    total = 0
    grand_total = 0
    for tiles in range(n_tiles + 1):
        ways = comb(wild_copies, n_tiles - tiles)
        total += ways * int(state[tiles][complete[tiles]].sum())
        grand_total += ways * int(state[tiles].sum())
    if grand_total != comb(sum(values) + wild_copies, n_tiles):
        raise RuntimeError("hand counts do not add up to the binomial total (int64 overflow?)")
    if flush_any_pair and forms.pair == "258" and forms.standard:
        # Flush hands complete only with a non-2-5-8 pair: not counted above.
        for signatures, counts in groups[:3]:
            standard_any, _ = _group_conditions(signatures, n_tiles, forms, "any")
            standard_258, pairs = _group_conditions(signatures, n_tiles, forms, "258")
            extra = standard_any & ~standard_258 & ~pairs
            total += _single_group_counts(signatures, counts, n_tiles, wild_copies, extra)
    return total


def probability_complete(
    available: Sequence[int], n_tiles: int = DEALER_TILES, wild_copies: int = 0, **options
) -> Fraction:
    """:func:`count_complete` over :func:`count_hands`, as a reduced fraction."""
    favourable = count_complete(available, n_tiles, wild_copies, **options)
    return Fraction(favourable, count_hands(available, n_tiles, wild_copies))


def _suit_size_state(groups) -> np.ndarray:
    """十三烂 over the three suits: partial hands by (tiles, bitmask of achievable total
    spread sizes)."""
    n_masks = 1 << _kernels.N_SIZE_BITS
    state = np.zeros((DEALER_TILES + 1, n_masks), np.int64)
    state[0, 1] = 1  # no suit yet: total size 0
    out = np.empty_like(state)
    for signatures, counts in groups[:3]:
        keep = (counts > 0) & (signatures.fit_sizes > 0)
        _kernels.convolve_spread_sizes(
            state, signatures.tiles[keep], signatures.fit_sizes[keep], counts[keep], out
        )
        state, out = out, state
    return state


def count_thirteen(available: Sequence[int], wild_copies: int = 0) -> int:
    """14-tile hands that are 十三烂 (§anqing-shisanlan, docs/evaluator.md): within each suit any
    two natural tiles differ in rank by at least 3, no honour kind is held twice, and the wilds fill
    any slot (each suit holds at most 3 slots, the honours at most 7: 14 slots in all)."""
    values = _check_available(available)
    wild_copies = _check_wilds(wild_copies)
    groups = _groups(values)
    suits = _suit_size_state(groups)
    honours, honour_counts = groups[3]
    total = 0
    for honour_index in np.flatnonzero((honour_counts > 0) & (honours.fit_sizes == 1)):
        honour_tiles = int(honours.tiles[honour_index])
        # suit slots s with 7 <= s (the honours hold at most 7) and honour tiles <= 14 - s
        allowed = sum(1 << size for size in range(7, DEALER_TILES - honour_tiles + 1) if size < 10)
        for suit_tiles in range(DEALER_TILES + 1 - honour_tiles):
            wilds = DEALER_TILES - suit_tiles - honour_tiles
            ways = comb(wild_copies, wilds)
            if ways == 0:
                continue
            row = suits[suit_tiles]
            masks = np.flatnonzero(row)
            hands = int(row[masks[(masks & allowed) != 0]].sum())
            total += hands * int(honour_counts[honour_index]) * ways
    return total


def count_seven_stars(available: Sequence[int], wild_copies: int = 0, wild_face: int = -1) -> int:
    """14-tile hands that are 七星归位 (§anqing-shisanlan, §anqing-seven-stars): a 十三烂 whose
    seven honour slots E S W N RD GD WD each hold a tile of that face, none a wild standing in for
    another face (``004``: "东南西北中发白没有顶替其他牌的钻").

    ``wild_face`` is the kind printed on the wild tiles (-1: none). When it is an honour, the wild
    tiles are that face's only copies, and one of them standing for its own face fills its slot.
    The other seven slots are suited: a spread set in each suit, filled by naturals and wilds.
    """
    values = _check_available(available)
    wild_copies = _check_wilds(wild_copies)
    suits = _suit_size_state(_groups(values))
    honour_ways = 1
    natural_honours = 0
    for kind in range(N_SUITED, N_KINDS):
        if kind == wild_face:
            continue
        honour_ways *= values[kind]  # exactly one of its copies
        natural_honours += 1
    face_wild_needed = 1 if wild_face >= N_SUITED else 0
    total = 0
    for suit_tiles in range(DEALER_TILES + 1 - natural_honours):
        wilds = DEALER_TILES - suit_tiles - natural_honours
        if wilds < face_wild_needed:
            continue
        row = suits[suit_tiles]
        masks = np.flatnonzero(row)
        hands = int(row[masks[(masks >> 7 & 1) == 1]].sum())  # the suits take exactly 7 slots
        total += hands * honour_ways * comb(wild_copies, wilds)
    return total


# ---------------------------------------------------------------------------------------------
# Variant readings of the tiles


def anhua_availability(indicator: int, king_mode: str) -> tuple[list[int], int]:
    """(natural copies per kind, king tiles) given the flipped indicator (§anhua-kings).

    The indicator is out of play, so its kind has 3 copies left. ``seven_kings``: those 3 and the
    4 copies of Y are kings; ``four_kings``: the 4 of Y, X's 3 are naturals. ``"face"``: no
    kings, every tile at its face (the indicator still removed).
    """
    available = [N_COPIES] * N_SUITED
    available[indicator] -= 1
    if king_mode == "face":
        return available, 0
    x_kind, y_kind = kings_of(indicator, king_mode)
    kings = available[y_kind]
    available[y_kind] = 0
    if x_kind >= 0:
        kings += available[x_kind]
        available[x_kind] = 0
    return available, kings


def anqing_zuan_of(indicator: int) -> int:
    """The 钻 kind for a flipped indicator (§anqing-zuan, ``004`` "钻牌的出现"): the next rank of
    a suit (9 to 1), the next wind (E S W N E), the next dragon (RD GD WD RD).

    >>> from sim.core.tiles import kind_id, kind_name
    >>> [kind_name(anqing_zuan_of(kind_id(t))) for t in ("2p", "9s", "N", "RD", "WD")]
    ['3p', '1s', 'E', 'GD', 'RD']
    """
    if indicator < N_SUITED:
        return indicator - indicator % 9 + (indicator % 9 + 1) % 9
    if indicator < _RED:
        return N_SUITED + (indicator - N_SUITED + 1) % 4
    return _RED + (indicator - _RED + 1) % 3


def anqing_readings(indicator: int) -> tuple[int, list[int], list[int]]:
    """(钻 kind, literal copies, class-1 copies) for a flipped indicator; 4 钻 tiles are wild.

    Literal (十三烂, where 红中 is 中 and 发/白 are held as honours, §anqing-shisanlan): every tile
    at its face, the 钻 kind's tiles being the wilds. Class 1 (§anqing-red-dragon,
    §anqing-class-one): when the 钻 is a suited tile or a wind, the four 红中 are naturals of the
    钻's face and 发/白 are 杠牌; when the 钻 is a dragon the other two dragons are 杠牌. A class-1
    hand holding an un-konged 杠牌 cannot win (§anqing-gang-tile-kong), so for "complete at the
    deal" a 杠牌 has no copies to draw."""
    zuan = anqing_zuan_of(indicator)
    literal = [N_COPIES] * N_KINDS
    literal[indicator] -= 1
    literal[zuan] = 0
    class_one = list(literal)
    if zuan < _RED:
        class_one[zuan] = N_COPIES  # the four 红中
    for dragon in (_RED, _GREEN, _WHITE):
        class_one[dragon] = 0
    return zuan, literal, class_one


# ---------------------------------------------------------------------------------------------
# Events


@dataclass(frozen=True)
class Event:
    """One dealt-hand event and its exact probability.

    ``key`` is shared with the Monte Carlo of :mod:`sim.analysis.dealt`; ``section`` groups rows for
    printing; ``hand`` is ``"dealer"`` (14 tiles), ``"non_dealer"`` (13) or ``"table"``.
    """

    key: str
    section: str
    hand: str
    name: str
    probability: Fraction

    @property
    def value(self) -> float:
        return float(self.probability)


VARIANTS = ("generic", "anhua", "wengan", "anqing")

SETTINGS: dict[str, dict[str, tuple[str, ...]]] = {
    "generic": {"tiles": ("both", "108", "136")},
    "anhua": {
        "kings": ("both", "7", "4"),
        "tiers": ("identical_sets", "count"),
        "quads": ("yes", "no"),
    },
    "wengan": {"players": ("all", "2", "3", "4")},
    "anqing": {"quads": ("yes", "no")},
}
"""Per variant: the keys of ``--set KEY=VALUE`` and their values, the default first."""

SETTING_NOTES = {
    "tiles": "the tile sets shown (108 suited tiles, 136 with the honours)",
    "kings": "Anhua king mode: 7 七王 (3 X + 4 Y), 4 四王 (4 Y), or both",
    "tiers": "Anhua king tiers (§anhua-king-tiers) deciding the instant 4/7-king win",
    "quads": "seven pairs may count four of a kind as two pairs",
    "players": "the Weng'an player counts shown (with 2 or 3, 定缺 applies to 天胡)",
}
"""What each setting means (``mjsim exact --help``)."""


def parse_settings(variant: str, pairs: Sequence[str] = ()) -> dict[str, str]:
    """``["kings=4", ...]`` -> every setting of the variant (defaults filled in), validated.

    >>> parse_settings("anhua", ["kings=4"])
    {'kings': '4', 'tiers': 'identical_sets', 'quads': 'yes'}
    """
    if variant not in SETTINGS:
        raise ValueError(f"unknown variant {variant!r}; allowed: {', '.join(VARIANTS)}")
    allowed = SETTINGS[variant]
    settings = {key: values[0] for key, values in allowed.items()}
    for pair in pairs:
        key, equals, value = pair.partition("=")
        if not equals:
            raise ValueError(f"--set takes KEY=VALUE, not {pair!r}")
        if key not in allowed:
            raise ValueError(
                f"unknown key {key!r} for {variant}; allowed: {', '.join(allowed) or 'none'}"
            )
        if value not in allowed[key]:
            raise ValueError(f"{key} must be one of {'|'.join(allowed[key])}, not {value!r}")
        settings[key] = value
    return settings


def _generic_events(tile_count: int) -> list[Event]:
    """The dealer's 14 from the 108 or 136 tiles, no wilds: complete as standard (any pair; 2-5-8
    pair 二五八将), seven pairs 七对 (four of a kind as two pairs; seven distinct kinds), standard
    or seven pairs; each also with every tile in one suit (m, p or s) 清一色."""
    available = [N_COPIES] * (N_SUITED if tile_count == 108 else N_KINDS)
    section = f"{tile_count} tiles, dealer's 14 (no wilds)"
    total = count_hands(available, DEALER_TILES)
    forms = {
        "standard": (Forms(seven_pairs=False), "standard, any pair"),
        "standard_258": (Forms(pair="258", seven_pairs=False), "standard, 2-5-8 pair 二五八将"),
        "seven_pairs": (Forms(standard=False), "seven pairs 七对, four of a kind = two pairs"),
        "seven_pairs_distinct": (
            Forms(standard=False, quads=False),
            "seven pairs 七对 of seven distinct kinds",
        ),
        "complete": (Forms(), "standard (any pair) or seven pairs (quads)"),
    }
    events = []
    for name, (chosen, label) in forms.items():
        for one_suit in (False, True):
            favourable = count_complete(available, forms=chosen, one_suit=one_suit)
            events.append(
                Event(
                    key=f"t{tile_count}/dealer/{name}" + ("/one_suit" if one_suit else ""),
                    section=section,
                    hand="dealer",
                    name=label + (", all one suit 清一色" if one_suit else ""),
                    probability=Fraction(favourable, total),
                )
            )
    return events


def _hypergeometric(successes: int, population: int, drawn: int, hits: int) -> Fraction:
    return Fraction(
        comb(successes, hits) * comb(population - successes, drawn - hits),
        comb(population, drawn),
    )


def _anhua_events(king_modes: Sequence[str], tier_mode: str, quads: bool) -> list[Event]:
    """Anhua 安化七王 (docs/rules/anhua.md, §anhua-rules), 108 tiles less the indicator. Kings 王
    held by the dealer (14) and the non-dealer (13): exactly k, all four Y, all seven. The dealer's
    instant win 起手四王/七王 (§anhua-instant-king-win): all four Y (identical_sets) or 4+ kings
    (count). The dealer's 14 complete with the kings wild (any kind, a fifth copy included):
    standard with a 2-5-8 pair; a legal Anhua hand (2-5-8 pair, or any pair when the naturals are
    one suit 清一色 乱将, or 小七对); and legal at face value (no wilds). Per indicator rank and
    averaged over the indicator (each rank 1/9)."""
    events = []
    remaining = 107  # 108 tiles less the indicator
    anhua_forms = Forms(pair="258", quads=quads)
    ranks = range(9)  # indicator 1m-9m; the suits are symmetric
    for mode in king_modes:
        short = "k7" if mode == "seven_kings" else "k4"
        n_kings = 7 if mode == "seven_kings" else 4
        label = "七王 seven kings" if mode == "seven_kings" else "四王 four kings"
        for seat, n_tiles in SEATS:
            section = f"Anhua {label}: kings held by the {seat.replace('_', '-')} ({n_tiles})"
            for held in range(n_kings + 1):
                events.append(
                    Event(
                        f"anhua/{short}/{seat}/kings={held}",
                        section,
                        seat,
                        f"exactly {held} king{'s' if held != 1 else ''} 王",
                        _hypergeometric(n_kings, remaining, n_tiles, held),
                    )
                )
            events.append(
                Event(
                    f"anhua/{short}/{seat}/four_y_kings",
                    section,
                    seat,
                    "all four Y kings (四王 in identical_sets)",
                    _hypergeometric(4, remaining, n_tiles, 4),
                )
            )
            if mode == "seven_kings":
                events.append(
                    Event(
                        f"anhua/{short}/{seat}/seven_kings",
                        section,
                        seat,
                        "all seven kings 七王",
                        _hypergeometric(7, remaining, n_tiles, 7),
                    )
                )
        if tier_mode == "identical_sets":
            instant = _hypergeometric(4, remaining, DEALER_TILES, 4)  # 七王 holds the four Y too
            instant_name = "instant win 起手四王/七王: all four Y kings"
        else:
            instant = sum(
                (_hypergeometric(n_kings, remaining, DEALER_TILES, k) for k in range(4, 8)),
                Fraction(0),
            )
            instant_name = "instant win 起手四王/七王 (tiers=count): 4 or more kings"
        section = f"Anhua {label}: the dealer's 14 at his first turn"
        events.append(
            Event(f"anhua/{short}/dealer/instant", section, "dealer", instant_name, instant)
        )
        standard_258 = Forms(pair="258", seven_pairs=False)
        for key, name, chosen, flush in (
            ("standard_258_kings", "standard, 2-5-8 pair, kings wild", standard_258, False),
            ("complete_kings", "complete with kings (258, 清一色, 小七对)", anhua_forms, True),
        ):
            by_rank = []
            for rank in ranks:
                available, kings = anhua_availability(rank, mode)
                favourable = count_complete(
                    available, DEALER_TILES, kings, forms=chosen, flush_any_pair=flush
                )
                by_rank.append(Fraction(favourable, comb(remaining, DEALER_TILES)))
            for rank, probability in zip(ranks, by_rank, strict=True):
                events.append(
                    Event(
                        f"anhua/{short}/dealer/{key}/rank={rank + 1}",
                        section,
                        "dealer",
                        f"{name}, indicator rank {rank + 1}",
                        probability,
                    )
                )
            events.append(
                Event(
                    f"anhua/{short}/dealer/{key}",
                    section,
                    "dealer",
                    f"{name}, averaged",
                    sum(by_rank, Fraction(0)) / len(by_rank),
                )
            )
    section = "Anhua, kings at face value: the dealer's 14"
    by_rank = []
    for rank in ranks:
        available, _ = anhua_availability(rank, "face")
        favourable = count_complete(available, forms=anhua_forms, flush_any_pair=True)
        by_rank.append(Fraction(favourable, comb(remaining, DEALER_TILES)))
        events.append(
            Event(
                f"anhua/face/dealer/complete/rank={rank + 1}",
                section,
                "dealer",
                f"complete at face value, indicator rank {rank + 1}",
                by_rank[-1],
            )
        )
    events.append(
        Event(
            "anhua/face/dealer/complete",
            section,
            "dealer",
            "complete at face value, averaged",
            sum(by_rank, Fraction(0)) / len(by_rank),
        )
    )
    return events


def lacking_suit_at_table(n_players: int) -> Fraction:
    """Probability that at least one dealt hand lacks a suit (原缺), 108 tiles, the dealer 14 and
    ``n_players - 1`` others 13 each. Exact, by a DP over seats on the tiles left of each suit.
    """
    if n_players not in (2, 3, 4):
        raise ValueError(f"n_players must be 2, 3 or 4, not {n_players}")
    per_suit = 36
    sizes = [DEALER_TILES] + [NON_DEALER_TILES] * (n_players - 1)
    # state: tiles of each suit already dealt -> ways in which every hand so far has all suits
    state = {(0, 0, 0): 1}
    for size in sizes:
        following: dict[tuple[int, int, int], int] = {}
        for used, ways in state.items():
            for first in range(1, size - 1):
                for second in range(1, size - first):
                    third = size - first - second
                    taken = (first, second, third)
                    count = ways
                    for suit in range(3):
                        count *= comb(per_suit - used[suit], taken[suit])
                    if count:
                        key = tuple(u + t for u, t in zip(used, taken, strict=True))
                        following[key] = following.get(key, 0) + count
        state = following
    all_deals = 1
    dealt = 0
    for size in sizes:
        all_deals *= comb(3 * per_suit - dealt, size)
        dealt += size
    return 1 - Fraction(sum(state.values()), all_deals)


def _lacking_suit_hand(n_tiles: int) -> Fraction:
    # inclusion-exclusion over the suits missing: one (3 ways), two (3 ways)
    return Fraction(3 * comb(72, n_tiles) - 3 * comb(36, n_tiles), comb(108, n_tiles))


def _at_most_two_suits(available: list[int], n_tiles: int, forms: Forms) -> int:
    """Complete hands with naturals in at most two suits (定缺 composition, §wengan-ding-que)."""

    def restricted(suits):
        values = [c if k // 9 in suits else 0 for k, c in enumerate(available)]
        return count_complete(values, n_tiles, forms=forms)

    pairs = sum(restricted(pair) for pair in itertools.combinations(range(3), 2))
    singles = sum(restricted((suit,)) for suit in range(3))
    return pairs - singles  # a one-suit hand lies in two of the pairs


def _wengan_events(player_counts: Sequence[int]) -> list[Event]:
    """Weng'an 瓮安 (docs/rules/wengan.md, §wengan-rules), 108 tiles for every player count, no
    wilds. 天胡: the dealer's 14 are standard (any pair) or seven pairs with four of a kind as two
    pairs (龙七对), and with 2 or 3 players hold at most two suits (定缺, §wengan-ding-que). 原缺: a
    dealt hand (the dealer's 14, a non-dealer's 13) lacks a suit; at the table: at least one of the
    dealt hands lacks a suit."""
    available = [N_COPIES] * N_SUITED
    forms = Forms()  # 平胡/大对子 any pair, 七对 with 龙七对 (four of a kind as two pairs)
    total = count_hands(available, DEALER_TILES)
    events = []
    section = "Weng'an, 108 tiles: the dealer's 14"
    full = count_complete(available, forms=forms)
    for players in player_counts:
        if players == 4:
            favourable, note = full, "no 定缺"
        else:
            favourable, note = (
                _at_most_two_suits(available, DEALER_TILES, forms),
                "定缺: <= 2 suits",
            )
        events.append(
            Event(
                f"wengan/dealer/tian_hu/p{players}",
                section,
                "dealer",
                f"天胡 complete at the deal, {players} players ({note})",
                Fraction(favourable, total),
            )
        )
    for seat, n_tiles in SEATS:
        events.append(
            Event(
                f"wengan/{seat}/yuan_que",
                f"Weng'an, 108 tiles: the {seat.replace('_', '-')}'s {n_tiles}",
                seat,
                "原缺 the dealt hand lacks a suit",
                _lacking_suit_hand(n_tiles),
            )
        )
    for players in player_counts:
        events.append(
            Event(
                f"wengan/table/yuan_que/p{players}",
                "Weng'an, 108 tiles: the whole table",
                "table",
                f"原缺 at least one of {players} dealt hands lacks a suit",
                lacking_suit_at_table(players),
            )
        )
    return events


def _anqing_events(quads: bool) -> list[Event]:
    """Anqing 安庆 (docs/rules/anqing.md, §anqing-rules), 136 tiles less the
    indicator, averaged over the 34 indicator kinds. 钻 held (dealer 14, non-dealer 13). The
    dealer's 14: class 1 complete (standard any pair or 七小对, the 钻 wild, 红中 the 钻's face,
    no 杠牌 held, see :func:`anqing_readings`), the same holding no 钻, 十三烂, 七星归位 (see
    :func:`count_seven_stars`), and class 1 or 十三烂 (disjoint: a 十三烂 has at least 10
    naturals, no two of which share a set or the pair)."""
    remaining = 135
    events = []
    for seat, n_tiles in SEATS:
        section = f"Anqing, 136 tiles: 钻 held by the {seat.replace('_', '-')} ({n_tiles})"
        for held in range(5):
            events.append(
                Event(
                    f"anqing/{seat}/zuan={held}",
                    section,
                    seat,
                    f"exactly {held} 钻",
                    _hypergeometric(4, remaining, n_tiles, held),
                )
            )
    class_one_forms = Forms(quads=quads)
    sums = dict.fromkeys(("class1", "class1_no_zuan", "thirteen", "seven_stars"), 0)
    for indicator in range(N_KINDS):
        zuan, literal, class_one = anqing_readings(indicator)
        sums["class1"] += count_complete(class_one, DEALER_TILES, N_COPIES, forms=class_one_forms)
        sums["class1_no_zuan"] += count_complete(class_one, DEALER_TILES, 0, forms=class_one_forms)
        sums["thirteen"] += count_thirteen(literal, N_COPIES)
        sums["seven_stars"] += count_seven_stars(literal, N_COPIES, zuan)
    total = N_KINDS * comb(remaining, DEALER_TILES)  # every indicator kind equally likely
    section = "Anqing, 136 tiles: the dealer's 14 (averaged over the indicator)"
    names = {
        "class1": "class 1 complete (牌型1/碰碰胡/七小对), 钻 wild, no 杠牌",
        "class1_no_zuan": "class 1 complete holding no 钻",
        "thirteen": "十三烂 (class 2)",
        "seven_stars": "七星归位",
    }
    for key, name in names.items():
        events.append(
            Event(f"anqing/dealer/{key}", section, "dealer", name, Fraction(sums[key], total))
        )
    # class 1 and 十三烂 never meet: a 十三烂 has at least 10 naturals, no two of which share a set
    events.append(
        Event(
            "anqing/dealer/complete",
            section,
            "dealer",
            "complete at the deal: class 1 or 十三烂",
            Fraction(sums["class1"] + sums["thirteen"], total),
        )
    )
    return events


def exact_events(variant: str, settings: dict[str, str] | None = None) -> list[Event]:
    """Every exact event of a variant under ``settings`` (see :data:`SETTINGS`); the definitions
    are those of the builders ``_generic_events``, ``_anhua_events``, ``_wengan_events`` and
    ``_anqing_events`` and of docs/exact.md.

    >>> events = exact_events("wengan", {"players": "4"})
    >>> [e.key for e in events][:2]
    ['wengan/dealer/tian_hu/p4', 'wengan/dealer/yuan_que']
    """
    settings = parse_settings(variant, [f"{k}={v}" for k, v in (settings or {}).items()])
    if variant == "generic":
        tile_counts = (108, 136) if settings["tiles"] == "both" else (int(settings["tiles"]),)
        return [event for count in tile_counts for event in _generic_events(count)]
    if variant == "anhua":
        modes = {"both": ("seven_kings", "four_kings"), "7": ("seven_kings",), "4": ("four_kings",)}
        return _anhua_events(
            modes[settings["kings"]], settings["tiers"], settings["quads"] == "yes"
        )
    if variant == "wengan":
        players = (2, 3, 4) if settings["players"] == "all" else (int(settings["players"]),)
        return _wengan_events(players)
    return _anqing_events(settings["quads"] == "yes")
