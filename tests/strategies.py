"""Hand generators for the evaluator tests: hypothesis strategies and plain numpy generators.

A hand is ``(counts, wilds)``: ``counts`` 34 natural-tile counts (each 0..4), ``wilds`` the number
of wild tiles (not in ``counts``). Hypothesis strategies return ``counts`` as a tuple of ints
(immutable, hashable; wrap with ``np.array(counts, dtype=np.uint8)`` for the fast code). The
numpy generators return ``(counts (n, 34) uint8, wilds (n,) uint8)``.

All hand-building logic is written once against a tiny random *source* interface, so the
hypothesis strategies (which draw, and shrink) and the numpy batch generators (which are fast)
build hands the same way.

Tile ids: 0-8 ``1m-9m``, 9-17 ``1p-9p``, 18-26 ``1s-9s``, 27-33 ``E S W N RD GD WD``.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np
from hypothesis import reject
from hypothesis import strategies as st

__all__ = [
    "ALL_KINDS",
    "HAND_SIZES",
    "SUITED_KINDS",
    "TILES_258",
    "complete_hands",
    "edge_hands",
    "empty_suit_hands",
    "hand_from_string",
    "hands",
    "honour_heavy_hands",
    "near_complete_batch",
    "near_complete_hands",
    "quad_hands",
    "random_hands",
    "search_hands",
    "seven_pairs_hands",
    "thirteen_unrelated_hands",
    "wild_258_pair_hands",
    "wild_group_hands",
]

N_KINDS = 34
HONOUR_START = 27
MAX_WILDS = 8
ALL_KINDS = tuple(range(N_KINDS))
SUITED_KINDS = tuple(range(HONOUR_START))
HONOUR_KINDS = tuple(range(HONOUR_START, N_KINDS))
TILES_258 = tuple(9 * s + r - 1 for s in range(3) for r in (2, 5, 8))
#: hand sizes for which shanten is defined (n % 3 in (1, 2), n <= 14)
HAND_SIZES = (1, 2, 4, 5, 7, 8, 10, 11, 13, 14)
#: complete standard hand sizes (n % 3 == 2)
COMPLETE_SIZES = (2, 5, 8, 11, 14)
FORMS = ("standard", "seven_pairs", "thirteen")

Hand = tuple[tuple[int, ...], int]


def hand_from_string(text: str, wilds: int = 0) -> Hand:
    """``"123m 456p 11z"`` -> (counts, wilds); ``z`` digits 1-7 are E S W N RD GD WD."""
    offsets = {"m": 0, "p": 9, "s": 18, "z": 27}
    counts = [0] * N_KINDS
    digits: list[int] = []
    for ch in text:
        if ch.isdigit():
            digits.append(int(ch))
        elif ch in offsets:
            for d in digits:
                if not 1 <= d <= (7 if ch == "z" else 9):
                    raise ValueError(f"bad tile {d}{ch}")
                counts[offsets[ch] + d - 1] += 1
            digits = []
        elif not ch.isspace():
            raise ValueError(f"bad character {ch!r} in {text!r}")
    if digits:
        raise ValueError(f"digits without suit in {text!r}")
    return tuple(counts), wilds


def _is_suited(tile: int) -> bool:
    return tile < HONOUR_START


def _rank(tile: int) -> int:
    return tile % 9 + 1


# --------------------------------------------------------------------------------------------
# Random sources
# --------------------------------------------------------------------------------------------


class _DrawSource:
    """Random choices taken with a hypothesis ``draw`` (so examples shrink)."""

    def __init__(self, draw):
        self._draw = draw

    def integer(self, lo: int, hi: int) -> int:
        return self._draw(st.integers(lo, hi))

    def choice(self, seq: Sequence):
        return self._draw(st.sampled_from(list(seq)))

    def sample(self, seq: Sequence, k: int) -> list:
        if k == 0:
            return []
        return list(self._draw(st.permutations(list(seq))))[:k]

    def fail(self):
        reject()


class _Unmeetable(Exception):
    pass


class _RngSource:
    """Random choices from a numpy Generator, buffered (plain per-call rng use is slow)."""

    def __init__(self, rng: np.random.Generator, buffer: int = 1 << 16):
        self._rng = rng
        self._size = buffer
        self._buf = rng.random(buffer)
        self._i = 0

    def _u(self) -> float:
        if self._i == self._size:
            self._buf = self._rng.random(self._size)
            self._i = 0
        self._i += 1
        return float(self._buf[self._i - 1])

    def integer(self, lo: int, hi: int) -> int:
        return lo + min(int(self._u() * (hi - lo + 1)), hi - lo)

    def choice(self, seq: Sequence):
        return seq[self.integer(0, len(seq) - 1)]

    def sample(self, seq: Sequence, k: int) -> list:
        pool = list(seq)
        out = []
        for _ in range(k):
            out.append(pool.pop(self.integer(0, len(pool) - 1)))
        return out

    def fail(self):
        raise _Unmeetable


# --------------------------------------------------------------------------------------------
# Source-independent builders
# --------------------------------------------------------------------------------------------


def _set_options(kinds: Sequence[int]) -> list[tuple[int, ...]]:
    """All concrete sets (triplets, sequences) made of the given kinds only."""
    allowed = set(kinds)
    out = [(k, k, k) for k in sorted(allowed)]
    for s in sorted(allowed):
        if _is_suited(s) and _rank(s) <= 7 and s + 1 in allowed and s + 2 in allowed:
            out.append((s, s + 1, s + 2))
    return out


def _finish(
    src,
    tiles: list[int],
    forced_wild: list[bool],
    min_wilds: int,
    max_wilds: int,
    kinds: Sequence[int],
) -> Hand:
    """Turn a multiset of concrete tiles into (counts, wilds).

    Tiles flagged in ``forced_wild``, tiles of kinds outside ``kinds`` and copies beyond the
    fourth of a kind become wilds; then more random tiles become wilds so that the number of
    wilds lies in ``[min_wilds, max_wilds]`` (uniformly among the feasible values).
    """
    allowed = set(kinds)
    forced = list(forced_wild)
    seen = [0] * N_KINDS
    for i, t in enumerate(tiles):
        if forced[i]:
            continue
        if t not in allowed or seen[t] == 4:
            forced[i] = True
        else:
            seen[t] += 1
    n_forced = sum(forced)
    lo, hi = max(n_forced, min_wilds), min(max_wilds, len(tiles))
    if lo > hi:
        src.fail()
    w = src.integer(lo, hi)
    free_positions = [i for i in range(len(tiles)) if not forced[i]]
    for i in src.sample(free_positions, w - n_forced):
        forced[i] = True
    counts = [0] * N_KINDS
    for i, t in enumerate(tiles):
        if not forced[i]:
            counts[t] += 1
    assert sum(forced) == w and max(counts) <= 4
    return tuple(counts), w


def _build_standard(
    src,
    n_sets: int,
    pair: str,
    min_wilds: int,
    max_wilds: int,
    kinds: Sequence[int],
    pair_mode: str | None = None,
    free_sets: int = 0,
    quad: bool = False,
    honour_weight: float = 0.0,
) -> Hand:
    """A complete standard hand: ``n_sets`` random sets + a pair, then some tiles made wild.

    ``pair_mode``: "natural" (pair of naturals, possibly later made wild at random),
    "one_wild" (one tile of the pair forced wild), "free" (both forced wild; its kind is then
    arbitrary, e.g. not 2/5/8). ``free_sets``: number of sets forced to be all wilds.
    ``quad``: start with a triplet and a sequence of the same suited kind (four copies).
    ``honour_weight``: probability of taking an honour triplet for each set, when possible.
    """
    options = _set_options(kinds)
    honour_sets = [g for g in options if not _is_suited(g[0])]
    if not options:
        src.fail()
    groups: list[tuple[int, ...]] = []
    wild_flags: list[bool] = []
    if quad:
        starts = [g[0] for g in options if g[0] != g[1]]
        if not starts or n_sets < 2:
            src.fail()
        k = src.choice(starts)
        groups += [(k, k, k), (k, k + 1, k + 2)]
    while len(groups) < n_sets:
        if honour_sets and honour_weight and src.integer(0, 999) < 1000 * honour_weight:
            groups.append(src.choice(honour_sets))
        else:
            groups.append(src.choice(options))
    for i in range(len(groups)):
        wild_flags += [i < free_sets] * 3
    # the pair
    pair_kinds = [k for k in kinds if pair == "any" or k in TILES_258]
    if pair_mode is None:
        pair_mode = src.choice(("natural", "natural", "natural", "one_wild", "free"))
    if not pair_kinds:
        pair_mode = "free"
    if pair_mode == "free":
        pair_kind = src.choice(ALL_KINDS)  # any identity: it becomes two wilds
        pair_flags = [True, True]
    else:
        pair_kind = src.choice(pair_kinds)
        pair_flags = [False, pair_mode == "one_wild"]
    tiles = [t for g in groups for t in g] + [pair_kind, pair_kind]
    return _finish(src, tiles, wild_flags + pair_flags, min_wilds, max_wilds, kinds)


def _build_seven_pairs(
    src, quads: bool, min_wilds: int, max_wilds: int, kinds: Sequence[int]
) -> Hand:
    """Seven pairs: distinct kinds unless ``quads`` (then kinds may repeat)."""
    pair_kinds = [src.choice(kinds) for _ in range(7)] if quads else src.sample(kinds, 7)
    tiles = [k for k in pair_kinds for _ in range(2)]
    return _finish(src, tiles, [False] * 14, min_wilds, max_wilds, kinds)


_UNRELATED_BY_SIZE: dict[int, list[tuple[int, ...]]] = {
    size: [
        ranks
        for ranks in itertools.combinations(range(1, 10), size)
        if all(b - a >= 3 for a, b in itertools.pairwise(ranks))
    ]
    for size in range(4)
}


#: (tiles in 1m-9m, in 1p-9p, in 1s-9s, honours) of a 14-tile thirteen-unrelated hand
_THIRTEEN_SHAPES = [
    (a, b, c, 14 - a - b - c)
    for a, b, c in itertools.product(range(4), repeat=3)
    if 0 <= 14 - a - b - c <= 7
]


def _build_thirteen(src, min_wilds: int, max_wilds: int, kinds: Sequence[int]) -> Hand:
    """Thirteen unrelated: per suit 0-3 ranks pairwise >= 3 apart, distinct honours, 14 tiles."""
    *sizes, n_honours = src.choice(_THIRTEEN_SHAPES)
    tiles: list[int] = []
    for suit, size in enumerate(sizes):
        tiles += [9 * suit + r - 1 for r in src.choice(_UNRELATED_BY_SIZE[size])]
    tiles += src.sample(HONOUR_KINDS, n_honours)
    return _finish(src, tiles, [False] * 14, min_wilds, max_wilds, kinds)


def _build_complete(
    src,
    n_tiles: int,
    form: str,
    pair: str,
    quads: bool,
    min_wilds: int,
    max_wilds: int,
    kinds: Sequence[int],
) -> Hand:
    if form == "standard":
        return _build_standard(src, n_tiles // 3, pair, min_wilds, max_wilds, kinds)
    if n_tiles != 14:
        src.fail()
    if form == "seven_pairs":
        return _build_seven_pairs(src, quads, min_wilds, max_wilds, kinds)
    if form == "thirteen":
        return _build_thirteen(src, min_wilds, max_wilds, kinds)
    raise ValueError(f"unknown form {form!r}")


def _remove_random_tile(src, counts: list[int], wilds: int) -> int:
    """Remove one tile chosen uniformly among the hand's tiles; returns the new wild count."""
    i = src.integer(0, sum(counts) + wilds - 1)
    if i < wilds:
        return wilds - 1
    i -= wilds
    for k, c in enumerate(counts):
        if i < c:
            counts[k] -= 1
            return wilds
        i -= c
    raise AssertionError("unreachable")


def _add_random_tile(
    src, counts: list[int], wilds: int, max_wilds: int, kinds: Sequence[int], wild_permille: int
) -> int:
    """Add a natural of a kind held < 4 times, or (sometimes) a wild; returns the wild count."""
    if wilds < max_wilds and src.integer(0, 999) < wild_permille:
        return wilds + 1
    k = src.choice([k for k in kinds if counts[k] < 4])
    counts[k] += 1
    return wilds


def _build_near_complete(
    src,
    n_tiles: int,
    changes: int,
    forms: Sequence[str],
    pair: str,
    quads: bool,
    min_wilds: int,
    max_wilds: int,
    kinds: Sequence[int],
    wild_permille: int = 100,
) -> Hand:
    """A complete hand of ``n_tiles`` (or ``n_tiles + 1``, minus one random tile, when
    ``n_tiles % 3 == 1``) followed by ``changes`` random swaps (remove a tile, add a tile)."""
    if n_tiles % 3 == 0 or not 1 <= n_tiles <= 14:
        raise ValueError(f"n_tiles must be in {HAND_SIZES}, got {n_tiles}")
    size = n_tiles if n_tiles % 3 == 2 else n_tiles + 1
    usable = [f for f in forms if f == "standard" or size == 14]
    if not usable:
        src.fail()
    form = src.choice(usable)
    counts_t, wilds = _build_complete(src, size, form, pair, quads, 0, max_wilds, kinds)
    counts = list(counts_t)
    if size != n_tiles:
        wilds = _remove_random_tile(src, counts, wilds)
    for _ in range(changes):
        wilds = _remove_random_tile(src, counts, wilds)
        wilds = _add_random_tile(src, counts, wilds, max_wilds, kinds, wild_permille)
    if wilds < min_wilds:
        src.fail()
    return tuple(counts), wilds


def _build_random(
    src,
    n_tiles: int,
    min_wilds: int,
    max_wilds: int,
    kinds: Sequence[int],
    quad: bool = False,
    honour_weight: float = 0.0,
) -> Hand:
    """A random hand of ``n_tiles``: some wilds, naturals drawn one by one (<= 4 per kind)."""
    lo, hi = min_wilds, min(max_wilds, n_tiles)
    if lo > hi:
        src.fail()
    wilds = src.integer(lo, hi)
    counts = [0] * N_KINDS
    n_naturals = n_tiles - wilds
    if quad:
        if n_naturals < 4:
            src.fail()
        counts[src.choice(kinds)] = 4
    honours = [k for k in kinds if not _is_suited(k)]
    while sum(counts) < n_naturals:
        pool = kinds
        if honours and honour_weight and src.integer(0, 999) < 1000 * honour_weight:
            pool = honours
        available = [k for k in pool if counts[k] < 4]
        if not available:
            available = [k for k in kinds if counts[k] < 4]
        counts[src.choice(available)] += 1
    return tuple(counts), wilds


def _kinds(honours: bool) -> tuple[int, ...]:
    return ALL_KINDS if honours else SUITED_KINDS


def _check_max_wilds(max_wilds: int, min_wilds: int = 0) -> None:
    if not 0 <= min_wilds <= max_wilds <= MAX_WILDS:
        raise ValueError(f"need 0 <= min_wilds <= max_wilds <= 8, got {min_wilds}, {max_wilds}")


def _sizes(size: int | Sequence[int] | None, default: Sequence[int]) -> tuple[int, ...]:
    if size is None:
        return tuple(default)
    if isinstance(size, int):
        return (size,)
    return tuple(size)


# --------------------------------------------------------------------------------------------
# Hypothesis strategies
# --------------------------------------------------------------------------------------------


@st.composite
def hands(
    draw,
    size: int | Sequence[int] | None = None,
    max_wilds: int = MAX_WILDS,
    honours: bool = True,
    min_wilds: int = 0,
) -> Hand:
    """Random hands of ``size`` tiles (an int, a choice of ints, or None = any of HAND_SIZES):
    ``wilds`` in [min_wilds, max_wilds], naturals <= 4 per kind (no honours unless
    ``honours``)."""
    _check_max_wilds(max_wilds, min_wilds)
    src = _DrawSource(draw)
    n = src.choice(_sizes(size, HAND_SIZES))
    return _build_random(src, n, min_wilds, max_wilds, _kinds(honours))


@st.composite
def complete_hands(
    draw,
    size: int | Sequence[int] | None = None,
    pair: str = "any",
    max_wilds: int = MAX_WILDS,
    honours: bool = True,
    min_wilds: int = 0,
    pair_mode: str | None = None,
) -> Hand:
    """Complete standard hands built from random sets + a pair (``size`` in 2, 5, 8, 11, 14;
    None = any), then random tiles replaced by wilds (also every copy beyond the fourth, so a
    wild may stand for a fifth copy). With ``pair="258"`` the pair is a 2/5/8 kind, or made of
    wilds. ``pair_mode``: None (mixed), "natural", "one_wild" or "free" (two wilds)."""
    _check_max_wilds(max_wilds, min_wilds)
    src = _DrawSource(draw)
    n = src.choice(_sizes(size, COMPLETE_SIZES))
    if n % 3 != 2:
        raise ValueError(f"complete standard hands have n % 3 == 2, got {n}")
    return _build_standard(
        src, n // 3, pair, min_wilds, max_wilds, _kinds(honours), pair_mode=pair_mode
    )


@st.composite
def seven_pairs_hands(
    draw,
    quads: bool = True,
    max_wilds: int = MAX_WILDS,
    honours: bool = True,
    min_wilds: int = 0,
) -> Hand:
    """Complete seven-pairs hands (14 tiles); with ``quads`` kinds may repeat (four of a kind,
    a fifth or sixth copy becomes a wild)."""
    _check_max_wilds(max_wilds, min_wilds)
    return _build_seven_pairs(_DrawSource(draw), quads, min_wilds, max_wilds, _kinds(honours))


@st.composite
def thirteen_unrelated_hands(
    draw, max_wilds: int = MAX_WILDS, honours: bool = True, min_wilds: int = 0
) -> Hand:
    """Complete thirteen-unrelated hands (14 tiles). Without ``honours`` the honour slots (at
    least 5) are wilds, so ``max_wilds`` must allow that."""
    _check_max_wilds(max_wilds, min_wilds)
    return _build_thirteen(_DrawSource(draw), min_wilds, max_wilds, _kinds(honours))


@st.composite
def near_complete_hands(
    draw,
    size: int | Sequence[int] | None = None,
    max_changes: int = 2,
    forms: Sequence[str] = ("standard",),
    pair: str = "any",
    quads: bool = True,
    max_wilds: int = MAX_WILDS,
    honours: bool = True,
    min_wilds: int = 0,
) -> Hand:
    """Hands close to complete: a complete hand of one of ``forms`` (seven pairs and thirteen
    only at 13/14 tiles), minus one tile when ``size % 3 == 1`` (a ready hand), then 0 to
    ``max_changes`` random swaps (remove a tile, add a natural held < 4 times or a wild).
    Shanten <= changes - 1 (size % 3 == 2) or <= changes (size % 3 == 1)."""
    _check_max_wilds(max_wilds, min_wilds)
    src = _DrawSource(draw)
    n = src.choice(_sizes(size, HAND_SIZES))
    changes = src.integer(0, max_changes)
    return _build_near_complete(
        src, n, changes, forms, pair, quads, min_wilds, max_wilds, _kinds(honours)
    )


@st.composite
def quad_hands(draw, size: int | Sequence[int] | None = None, max_wilds: int = MAX_WILDS) -> Hand:
    """Hands holding four natural copies of some kind: random hands with a quad, or complete
    standard hands with a triplet and a sequence of the same kind (size >= 5; None = any)."""
    _check_max_wilds(max_wilds)
    src = _DrawSource(draw)
    if src.integer(0, 1):
        n = src.choice(_sizes(size, (4, 5, 7, 8, 10, 11, 13, 14)))
        return _build_random(src, n, 0, max_wilds, ALL_KINDS, quad=True)
    n = src.choice(_sizes(size, (8, 11, 14)))
    if n % 3 != 2:
        reject()
    # the quad must survive the random wild replacement; keep wilds few
    counts, wilds = _build_standard(src, n // 3, "any", 0, min(max_wilds, 2), ALL_KINDS, quad=True)
    if max(counts) < 4:
        reject()
    return counts, wilds


@st.composite
def wild_group_hands(
    draw,
    size: int | Sequence[int] | None = None,
    pair: str = "any",
    max_wilds: int = MAX_WILDS,
) -> Hand:
    """Complete standard hands in which wilds form whole groups of their own: a free pair
    and/or 1-2 free sets (all-wild triplets or sequences)."""
    _check_max_wilds(max_wilds)
    src = _DrawSource(draw)
    n = src.choice(_sizes(size, (5, 8, 11, 14)))
    n_sets = n // 3
    free_sets = src.integer(0, min(2, n_sets, max_wilds // 3))
    pair_mode = "free" if free_sets == 0 or src.integer(0, 1) else "natural"
    return _build_standard(
        src, n_sets, pair, 0, max_wilds, ALL_KINDS, pair_mode=pair_mode, free_sets=free_sets
    )


@st.composite
def empty_suit_hands(
    draw,
    size: int | Sequence[int] | None = None,
    max_wilds: int = MAX_WILDS,
    complete: bool | None = None,
) -> Hand:
    """Hands using only one or two suits (possibly plus honours): random or complete."""
    _check_max_wilds(max_wilds)
    src = _DrawSource(draw)
    suits = src.sample((0, 1, 2), src.integer(1, 2))
    kinds = [9 * s + r for s in sorted(suits) for r in range(9)]
    if src.integer(0, 1):
        kinds += list(HONOUR_KINDS)
    if complete is None:
        complete = bool(src.integer(0, 1))
    if complete:
        n = src.choice(_sizes(size, COMPLETE_SIZES))
        return _build_standard(src, n // 3, "any", 0, max_wilds, kinds)
    n = src.choice(_sizes(size, HAND_SIZES))
    return _build_random(src, n, 0, max_wilds, kinds)


@st.composite
def wild_258_pair_hands(
    draw, size: int | Sequence[int] | None = None, max_wilds: int = MAX_WILDS
) -> Hand:
    """Complete 258-rule hands whose pair holds a wild: two wilds (any identity) or a wild with
    a natural 2, 5 or 8."""
    _check_max_wilds(max_wilds, 1)
    src = _DrawSource(draw)
    n = src.choice(_sizes(size, COMPLETE_SIZES))
    mode = src.choice(("one_wild", "free") if max_wilds >= 2 else ("one_wild",))
    return _build_standard(src, n // 3, "258", 0, max_wilds, ALL_KINDS, pair_mode=mode)


@st.composite
def honour_heavy_hands(
    draw, size: int | Sequence[int] | None = None, max_wilds: int = MAX_WILDS
) -> Hand:
    """Hands dominated by honours: random (about 70 % honours) or complete (honour triplets)."""
    _check_max_wilds(max_wilds)
    src = _DrawSource(draw)
    if src.integer(0, 1):
        n = src.choice(_sizes(size, HAND_SIZES))
        return _build_random(src, n, 0, max_wilds, ALL_KINDS, honour_weight=0.7)
    n = src.choice(_sizes(size, COMPLETE_SIZES))
    return _build_standard(src, n // 3, "any", 0, max_wilds, ALL_KINDS, honour_weight=0.75)


def edge_hands(size: int | Sequence[int] | None = None, max_wilds: int = MAX_WILDS):
    """One of the edge-aimed strategies above (sizes restricted to what each can build)."""
    return st.one_of(
        quad_hands(max_wilds=max_wilds),
        wild_group_hands(max_wilds=max_wilds),
        empty_suit_hands(max_wilds=max_wilds),
        wild_258_pair_hands(max_wilds=max(1, max_wilds)),
        honour_heavy_hands(max_wilds=max_wilds),
    ).filter(lambda h: size is None or sum(h[0]) + h[1] in _sizes(size, HAND_SIZES))


# --------------------------------------------------------------------------------------------
# Numpy batch generators
# --------------------------------------------------------------------------------------------


def random_hands(
    rng: np.random.Generator,
    n_hands: int,
    n_tiles: int,
    max_wilds: int = MAX_WILDS,
    honours: bool = True,
    min_wilds: int = 0,
) -> tuple[np.ndarray, np.ndarray]:
    """``n_hands`` random hands of ``n_tiles`` tiles: wilds uniform in
    [min_wilds, min(max_wilds, n_tiles)], the naturals drawn without replacement from a wall of
    four copies of each kind (136 tiles, or 108 without honours).

    Returns ``counts`` (n_hands, 34) uint8 and ``wilds`` (n_hands,) uint8.
    """
    _check_max_wilds(max_wilds, min_wilds)
    kinds = np.array(_kinds(honours))
    hi = min(max_wilds, n_tiles)
    if min_wilds > hi or n_tiles < 0:
        raise ValueError("no hand satisfies these limits")
    wilds = rng.integers(min_wilds, hi + 1, size=n_hands)
    n_naturals = n_tiles - wilds
    counts = np.zeros((n_hands, N_KINDS), dtype=np.int64)
    rows = np.arange(n_hands)
    for step in range(n_tiles - min_wilds):
        # draw the next tile from the remaining wall: each kind has 4 - count copies left
        left = 4 - counts[:, kinds]
        cum = np.cumsum(left, axis=1)
        u = rng.random(n_hands) * cum[:, -1]
        pick = (cum <= u[:, None]).sum(axis=1)
        active = n_naturals > step
        counts[rows[active], kinds[pick[active]]] += 1
    return counts.astype(np.uint8), wilds.astype(np.uint8)


def near_complete_batch(
    rng: np.random.Generator,
    n_hands: int,
    n_tiles: int = 14,
    max_wilds: int = MAX_WILDS,
    honours: bool = True,
    pair: str = "any",
    forms: Sequence[str] = FORMS,
    quads: bool = True,
    max_changes: int | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """A mix of complete, ready and 1-2-shanten hands of ``n_tiles`` tiles with 0..max_wilds
    wilds (naturals <= 4 per kind; wilds separate).

    Each hand is a complete hand of one of ``forms`` (seven pairs and thirteen only when the
    complete size is 14) with random wilds, minus one tile if ``n_tiles % 3 == 1``, then 0 to
    ``max_changes`` random swaps (default 3 for n % 3 == 2, giving shanten -1..2, and 2 for
    n % 3 == 1, giving 0..2). Returns ``counts`` (n, 34) uint8 and ``wilds`` (n,) uint8.
    """
    _check_max_wilds(max_wilds)
    if max_changes is None:
        max_changes = 3 if n_tiles % 3 == 2 else 2
    src = _RngSource(rng)
    kinds = _kinds(honours)
    counts = np.zeros((n_hands, N_KINDS), dtype=np.uint8)
    wilds = np.zeros(n_hands, dtype=np.uint8)
    i = 0
    failures = 0
    while i < n_hands:
        changes = src.integer(0, max_changes)
        try:
            c, w = _build_near_complete(
                src, n_tiles, changes, forms, pair, quads, 0, max_wilds, kinds
            )
        except _Unmeetable:
            failures += 1
            if failures > 100 * (i + 10):
                raise ValueError("cannot build hands with these parameters") from None
            continue
        counts[i] = c
        wilds[i] = w
        i += 1
    return counts, wilds


def search_hands() -> st.SearchStrategy[Hand]:
    """Hands a discard search starts from (14, 11 or 8 tiles, up to 4 wilds): random ones, and
    near-complete ones (standard or seven pairs) where the search's shanten and useful draws
    matter most."""
    return st.one_of(
        hands(size=[14, 11, 8], max_wilds=4),
        near_complete_hands(size=[14, 11], forms=("standard", "seven_pairs"), max_wilds=4),
    )
