"""Slow, plainly written reference hand evaluator (the oracle for ``sim.hand``).

Every function here follows ``docs/evaluator.md`` literally and is written for clarity, not speed:
plain recursion over the lowest remaining natural tile, memoised on tuples. Nothing is imported
from ``sim``; the point is an independent second implementation.

Tile ids: 0-8 ``1m-9m``, 9-17 ``1p-9p``, 18-26 ``1s-9s``, 27-33 honours ``E S W N RD GD WD``
(honours have no sequences). A hand is ``counts`` (34 ints 0..4, natural tiles) and ``wilds``
(0..8 wild tiles, not in ``counts``; a wild may stand for any kind, also a fifth copy).

Vocabulary used below:

* a *group* is a set (sequence or triplet) or a pair, with a concrete identity;
* a *placement* puts some natural tiles into a group; the other slots of the group are filled
  by wilds (completeness) or by tiles still to be drawn (shanten);
* a *free* group holds no natural tile at all.
"""

from __future__ import annotations

import itertools
import operator
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache

__all__ = [
    "HONOUR_START",
    "NOT_APPLICABLE",
    "N_KINDS",
    "clear_caches",
    "decompositions",
    "is_complete",
    "is_seven_pairs",
    "is_standard",
    "is_thirteen_unrelated",
    "shanten",
    "shanten_seven_pairs",
    "shanten_standard",
    "shanten_thirteen",
    "tiles_to_add_suit",
    "waits",
    "wilds_needed_suit",
]

N_KINDS = 34
HONOUR_START = 27
NOT_APPLICABLE = 99
MAX_WILDS = 8
PAIR_RULES = ("any", "258")

# whole-hand memos mostly help within one hand; per-suit memos are shared by many hands
_HAND_CACHE_SIZE = 1 << 16
_SUIT_CACHE_SIZE = 1 << 20


# --------------------------------------------------------------------------------------------
# Tiles and input checking
# --------------------------------------------------------------------------------------------


def is_honour(tile: int) -> bool:
    return tile >= HONOUR_START


def suit_of(tile: int) -> int:
    """0 = characters (m), 1 = dots (p), 2 = bamboo (s), 3 = honours."""
    return tile // 9


def rank_of(tile: int) -> int:
    """Rank 1..9 of a suited tile (honours: 1..7, meaningless for sequences)."""
    return tile % 9 + 1


def is_258(tile: int) -> bool:
    return not is_honour(tile) and rank_of(tile) in (2, 5, 8)


def _check_counts(counts: Sequence[int], length: int = N_KINDS) -> tuple[int, ...]:
    try:
        values = tuple(operator.index(c) for c in counts)
    except TypeError as exc:
        raise ValueError(f"counts must be a sequence of integers: {counts!r}") from exc
    if len(values) != length:
        raise ValueError(f"counts must have {length} entries, got {len(values)}")
    for c in values:
        if not 0 <= c <= 4:
            raise ValueError(f"tile counts must be 0..4, got {c}")
    return values


def _check_wilds(wilds: int) -> int:
    try:
        w = operator.index(wilds)
    except TypeError as exc:
        raise ValueError(f"wilds must be an integer: {wilds!r}") from exc
    if not 0 <= w <= MAX_WILDS:
        raise ValueError(f"wilds must be 0..{MAX_WILDS}, got {w}")
    return w


def _check_hand(counts: Sequence[int], wilds: int) -> tuple[tuple[int, ...], int]:
    return _check_counts(counts), _check_wilds(wilds)


def _check_pair(pair: str) -> str:
    if pair not in PAIR_RULES:
        raise ValueError(f"pair must be one of {PAIR_RULES}, got {pair!r}")
    return pair


def _check_shanten_size(n: int) -> None:
    if n % 3 == 0 or n > 14:
        raise ValueError(f"shanten needs n % 3 in (1, 2) and n <= 14, got n = {n}")


def _lowest(counts: tuple[int, ...]) -> int | None:
    for tile, c in enumerate(counts):
        if c:
            return tile
    return None


def _remove(counts: tuple[int, ...], tiles: Sequence[int]) -> tuple[int, ...]:
    out = list(counts)
    for t in tiles:
        out[t] -= 1
        assert out[t] >= 0
    return tuple(out)


# --------------------------------------------------------------------------------------------
# Groups and placements (shared by completeness, shanten and decompositions)
# --------------------------------------------------------------------------------------------


def _groups_containing(tile: int) -> list[tuple[str, int, tuple[int, ...]]]:
    """All concrete groups ``(kind, first_tile, tiles)`` that contain ``tile``."""
    groups = [("tri", tile, (tile, tile, tile)), ("pair", tile, (tile, tile))]
    if not is_honour(tile):
        for start in (tile - 2, tile - 1, tile):
            # a sequence start..start+2 lies in one suit and starts at rank 1..7
            if start >= 0 and suit_of(start) == suit_of(tile) and rank_of(start) <= 7:
                groups.append(("seq", start, (start, start + 1, start + 2)))
    return groups


def _sub_multisets_with(group_tiles: tuple[int, ...], tile: int, counts: tuple[int, ...]):
    """Sub-multisets of ``group_tiles`` that contain ``tile`` and are available in ``counts``."""
    mult = Counter(group_tiles)
    kinds = sorted(mult)
    ranges = [range(min(mult[k], counts[k]) + 1) for k in kinds]
    for choice in itertools.product(*ranges):
        chosen = dict(zip(kinds, choice, strict=True))
        if chosen.get(tile, 0) >= 1:
            yield tuple(k for k in kinds for _ in range(chosen[k]))


@lru_cache(maxsize=_HAND_CACHE_SIZE)
def _placements(
    counts: tuple[int, ...], tile: int, allow_pair: bool, rule: str
) -> tuple[tuple[str, int, tuple[int, ...]], ...]:
    """Every way to put ``tile`` (the lowest remaining natural) into a concrete group.

    Returns ``(kind, first_tile, naturals)``: the group's identity and the sorted natural tiles
    placed in it (``tile`` and possibly higher tiles still in ``counts``). A pair is offered only
    when ``allow_pair``; with ``rule == "258"`` a pair holding a natural must be a 2/5/8 suited
    kind. Each (group identity, natural sub-multiset) appears once; the same naturals in
    different groups (``{t}`` in a sequence starting at t-2, t-1 or t, or in a triplet of t) are
    different placements, which matters for decompositions.
    """
    out = set()
    for kind, first, tiles in _groups_containing(tile):
        if kind == "pair" and (not allow_pair or (rule == "258" and not is_258(tile))):
            continue
        for naturals in _sub_multisets_with(tiles, tile, counts):
            out.add((kind, first, naturals))
    return tuple(sorted(out))


def _group_size(kind: str) -> int:
    return 2 if kind in ("pair", "free_pair") else 3


# --------------------------------------------------------------------------------------------
# Completeness
# --------------------------------------------------------------------------------------------


@lru_cache(maxsize=_HAND_CACHE_SIZE)
def _standard_ok(counts: tuple[int, ...], wilds: int, need_pair: bool, rule: str) -> bool:
    """Can the naturals ``counts`` plus exactly ``wilds`` wilds split into sets (+ one pair)?

    ``need_pair``: the pair has not been formed yet and must be formed. The number of sets is
    whatever the tile count gives (the caller checks ``n % 3 == 2``).
    """
    tile = _lowest(counts)
    if tile is None:
        # only wilds remain: they form free sets, and the free pair if still needed
        # (a free pair of two wilds satisfies the 258 rule).
        if need_pair:
            return wilds >= 2 and (wilds - 2) % 3 == 0
        return wilds % 3 == 0
    for kind, _first, naturals in _placements(counts, tile, need_pair, rule):
        used_wilds = _group_size(kind) - len(naturals)
        if used_wilds > wilds:
            continue
        still_need_pair = need_pair and kind != "pair"
        if _standard_ok(_remove(counts, naturals), wilds - used_wilds, still_need_pair, rule):
            return True
    return False


def is_standard(counts: Sequence[int], wilds: int, pair: str = "any") -> bool:
    """True iff the hand splits into ``n // 3`` sets and one pair (``n = sum(counts) + wilds``).

    Needs ``n % 3 == 2`` (else False). With ``pair="258"`` the pair's kind must be rank 2, 5 or 8
    of a suit: two wilds, or a wild with a natural 2/5/8, qualify.
    """
    counts, wilds = _check_hand(counts, wilds)
    rule = _check_pair(pair)
    n = sum(counts) + wilds
    if n % 3 != 2:
        return False
    return _standard_ok(counts, wilds, True, rule)


def is_seven_pairs(counts: Sequence[int], wilds: int, quads: bool = True) -> bool:
    """True iff the 14-tile hand is seven pairs (七对).

    With ``quads=True`` four of a kind counts as two pairs; with ``quads=False`` the pairs are of
    seven distinct kinds. Wilds pair a natural or each other.
    """
    counts, wilds = _check_hand(counts, wilds)
    if sum(counts) + wilds != 14:
        return False
    wilds_left = wilds
    for c in counts:
        if c == 0:
            continue
        if not quads and c > 2:
            # c == 3 would need a wild to make two pairs of one kind; c == 4 is two pairs
            return False
        if c % 2 == 1:
            # the odd tile needs a wild partner
            if wilds_left == 0:
                return False
            wilds_left -= 1
    # the remaining wilds pair each other (any kinds not used yet: there are always enough);
    # n == 14 makes their number even.
    assert wilds_left % 2 == 0
    return True


def _unrelated_rank_sets() -> list[frozenset[int]]:
    """All sets of ranks 1..9 in which any two ranks differ by at least 3."""
    out = []
    for size in range(4):
        for ranks in itertools.combinations(range(1, 10), size):
            if all(b - a >= 3 for a, b in itertools.pairwise(ranks)):
                out.append(frozenset(ranks))
    return out


_UNRELATED_RANK_SETS = _unrelated_rank_sets()


@lru_cache(maxsize=_HAND_CACHE_SIZE)
def _thirteen_best_overlap(counts: tuple[int, ...]) -> int:
    """Most natural tiles that fit into one 14-tile thirteen-unrelated hand.

    A thirteen-unrelated hand is, per suit, a set of ranks pairwise >= 3 apart (0-3 tiles), plus
    distinct honours (0-7), 14 tiles in all. A natural fits if its kind is in the chosen set;
    each kind holds one tile, so duplicates beyond one never fit.
    """
    # best[k] = most naturals placed using exactly k target tiles in the parts seen so far
    best = {0: 0}
    for suit in range(3):
        held = {r for r in range(1, 10) if counts[9 * suit + r - 1] > 0}
        suit_best: dict[int, int] = {}
        for ranks in _UNRELATED_RANK_SETS:
            size = len(ranks)
            suit_best[size] = max(suit_best.get(size, 0), len(ranks & held))
        best = _max_plus(best, suit_best)
    honours_held = sum(1 for t in range(HONOUR_START, N_KINDS) if counts[t] > 0)
    honour_best = {k: min(k, honours_held) for k in range(8)}
    best = _max_plus(best, honour_best)
    return best[14]


def _max_plus(a: dict[int, int], b: dict[int, int]) -> dict[int, int]:
    out: dict[int, int] = {}
    for ka, va in a.items():
        for kb, vb in b.items():
            out[ka + kb] = max(out.get(ka + kb, -1), va + vb)
    return out


def is_thirteen_unrelated(counts: Sequence[int], wilds: int) -> bool:
    """True iff the 14-tile hand is thirteen unrelated (十三烂).

    Within each suit any two tiles differ in rank by at least 3 and no honour kind appears twice;
    wilds may fill any slot.
    """
    counts, wilds = _check_hand(counts, wilds)
    n_naturals = sum(counts)
    if n_naturals + wilds != 14:
        return False
    # every natural must sit in one unrelated 14-tile target; the wilds fill the other slots
    return _thirteen_best_overlap(counts) == n_naturals


def is_complete(
    counts: Sequence[int],
    wilds: int,
    pair: str = "any",
    seven_pairs: bool = True,
    quads: bool = True,
    thirteen: bool = False,
) -> bool:
    """True iff the hand is complete in one of the forms asked for (standard always)."""
    if is_standard(counts, wilds, pair):
        return True
    if seven_pairs and is_seven_pairs(counts, wilds, quads):
        return True
    return bool(thirteen and is_thirteen_unrelated(counts, wilds))


# --------------------------------------------------------------------------------------------
# Shanten
# --------------------------------------------------------------------------------------------


@lru_cache(maxsize=_SUIT_CACHE_SIZE)
def _max_placed(counts: tuple[int, ...], sets_left: int, pair_left: bool, rule: str) -> int:
    """Most naturals that fit into at most ``sets_left`` partial sets and one partial pair.

    A partial group is any sub-multiset of a concrete set or pair (its other slots are filled by
    tiles drawn later). Recursion on the lowest remaining natural: it is either left unused or
    starts a partial group together with some higher naturals.
    """
    tile = _lowest(counts)
    if tile is None:
        return 0
    best = _max_placed(_remove(counts, (tile,)), sets_left, pair_left, rule)  # tile unused
    for kind, _first, naturals in _placements(counts, tile, pair_left, rule):
        if kind == "pair":
            rest = _max_placed(_remove(counts, naturals), sets_left, False, rule)
        elif sets_left > 0:
            rest = _max_placed(_remove(counts, naturals), sets_left - 1, pair_left, rule)
        else:
            continue
        best = max(best, len(naturals) + rest)
    return best


def _suit_part(counts: tuple[int, ...], suit: int) -> tuple[int, ...]:
    """The hand restricted to one suit (other kinds zeroed), still a 34-tuple."""
    return tuple(c if suit_of(t) == suit else 0 for t, c in enumerate(counts))


def _max_placed_by_suit(counts: tuple[int, ...], n_sets: int, rule: str) -> int:
    """Same value as ``_max_placed(counts, n_sets, True, rule)``, computed suit by suit.

    Groups never span two suits, so the whole-hand optimum is the best split of the set budget
    (and of the single pair) among the four suits. Per-suit results are memoised, which makes
    this much faster than the whole-hand recursion on many random hands.
    """
    # best[(s, p)] = most naturals placed in the suits seen so far with s sets, p pairs
    best = {(0, 0): 0}
    for suit in range(4):
        part = _suit_part(counts, suit)
        if not any(part):
            continue  # a suit with no naturals places nothing
        new: dict[tuple[int, int], int] = {}
        for (s, p), placed in best.items():
            for s_here in range(n_sets - s + 1):
                for p_here in range(2 - p):
                    here = _max_placed(part, s_here, bool(p_here), rule)
                    key = (s + s_here, p + p_here)
                    new[key] = max(new.get(key, 0), placed + here)
        best = new
    return max(best.values())


def _standard_tiles_to_add(counts: tuple[int, ...], n: int, rule: str) -> int:
    n_sets = n // 3
    return 3 * n_sets + 2 - _max_placed_by_suit(counts, n_sets, rule)


def _shanten_from_t(t: int, wilds: int) -> int:
    return max(0, t - wilds) - 1


def shanten_standard(counts: Sequence[int], wilds: int, pair: str = "any") -> int:
    """Standard-form shanten: ``max(0, T - W) - 1``.

    ``T`` = least number of slots, over all complete standard targets with ``n // 3`` sets and a
    pair (fifth copies allowed), that no natural tile of the hand fills. Needs ``n % 3`` in
    (1, 2) and ``n <= 14`` (else ValueError).
    """
    counts, wilds = _check_hand(counts, wilds)
    rule = _check_pair(pair)
    n = sum(counts) + wilds
    _check_shanten_size(n)
    return _shanten_from_t(_standard_tiles_to_add(counts, n, rule), wilds)


def _seven_pairs_max_placed(counts: tuple[int, ...], quads: bool) -> int:
    """Most naturals that fit into seven pairs (distinct kinds unless ``quads``)."""
    max_pairs_per_kind = 2 if quads else 1
    # best[k] = most naturals placed using k pairs on the kinds seen so far
    best = {0: 0}
    for c in counts:
        if c == 0:
            continue  # a kind not held places nothing, whatever pairs it gets
        options = {p: min(c, 2 * p) for p in range(max_pairs_per_kind + 1)}
        best = {k: v for k, v in _max_plus(best, options).items() if k <= 7}
    return max(best.values())


def shanten_seven_pairs(counts: Sequence[int], wilds: int, quads: bool = True) -> int:
    """Seven-pairs shanten; ``NOT_APPLICABLE`` (99) unless n is 13 or 14."""
    counts, wilds = _check_hand(counts, wilds)
    n = sum(counts) + wilds
    _check_shanten_size(n)
    if n not in (13, 14):
        return NOT_APPLICABLE
    return _shanten_from_t(14 - _seven_pairs_max_placed(counts, quads), wilds)


def shanten_thirteen(counts: Sequence[int], wilds: int) -> int:
    """Thirteen-unrelated shanten; ``NOT_APPLICABLE`` (99) unless n is 13 or 14."""
    counts, wilds = _check_hand(counts, wilds)
    n = sum(counts) + wilds
    _check_shanten_size(n)
    if n not in (13, 14):
        return NOT_APPLICABLE
    return _shanten_from_t(14 - _thirteen_best_overlap(counts), wilds)


def shanten(
    counts: Sequence[int],
    wilds: int,
    pair: str = "any",
    seven_pairs: bool = True,
    quads: bool = True,
    thirteen: bool = False,
) -> int:
    """Least shanten over the forms asked for (standard always)."""
    values = [shanten_standard(counts, wilds, pair)]
    if seven_pairs:
        values.append(shanten_seven_pairs(counts, wilds, quads))
    if thirteen:
        values.append(shanten_thirteen(counts, wilds))
    return min(values)


# --------------------------------------------------------------------------------------------
# Waits
# --------------------------------------------------------------------------------------------


def waits(
    counts: Sequence[int],
    wilds: int,
    pair: str = "any",
    seven_pairs: bool = True,
    quads: bool = True,
    thirteen: bool = False,
) -> list[int]:
    """Sorted kinds ``k`` with ``counts[k] < 4`` such that ``counts + e_k`` is complete.

    Needs ``n % 3 == 1`` (else ValueError). A fifth copy is never a wait.
    """
    counts, wilds = _check_hand(counts, wilds)
    _check_pair(pair)
    n = sum(counts) + wilds
    if n % 3 != 1:
        raise ValueError(f"waits need n % 3 == 1, got n = {n}")
    out = []
    for k in range(N_KINDS):
        if counts[k] >= 4:
            continue
        drawn = list(counts)
        drawn[k] += 1
        if is_complete(drawn, wilds, pair, seven_pairs, quads, thirteen):
            out.append(k)
    return out


# --------------------------------------------------------------------------------------------
# Decompositions
# --------------------------------------------------------------------------------------------

Group = tuple[str, int, tuple[int, ...]]
Decomposition = tuple[Group, ...]


@lru_cache(maxsize=_HAND_CACHE_SIZE)
def _decompositions(
    counts: tuple[int, ...], wilds: int, sets_left: int, pair_left: bool, rule: str
) -> frozenset[Decomposition]:
    """All ways to finish: naturals ``counts`` + ``wilds`` into exactly ``sets_left`` sets and
    (if ``pair_left``) one pair. Each result is a sorted tuple of groups."""
    tile = _lowest(counts)
    if tile is None:
        # only wilds remain: they must make exactly the missing free groups
        if wilds != 3 * sets_left + 2 * pair_left:
            return frozenset()
        free = [("free_set", -1, ())] * sets_left + [("free_pair", -1, ())] * pair_left
        return frozenset({tuple(sorted(free))})
    out = set()
    for kind, first, naturals in _placements(counts, tile, pair_left, rule):
        used_wilds = _group_size(kind) - len(naturals)
        if used_wilds > wilds:
            continue
        if kind == "pair":
            new_sets, new_pair = sets_left, False
        elif sets_left > 0:
            new_sets, new_pair = sets_left - 1, pair_left
        else:
            continue
        group = (kind, first, naturals)
        rest = _decompositions(
            _remove(counts, naturals), wilds - used_wilds, new_sets, new_pair, rule
        )
        for dec in rest:
            out.add(tuple(sorted((*dec, group))))
    return frozenset(out)


def decompositions(counts: Sequence[int], wilds: int, pair: str = "any") -> set[Decomposition]:
    """Every standard decomposition of the hand (empty set if it is not standard-complete).

    A decomposition is a sorted tuple of groups ``(kind, tile, naturals)``: ``kind`` is ``"seq"``,
    ``"tri"``, ``"pair"`` (concrete groups, ``tile`` = the sequence start or the kind, at least
    one natural) or ``"free_set"``, ``"free_pair"`` (only wilds, ``tile = -1``, ``naturals =
    ()``); ``naturals`` is the sorted tuple of natural tile ids in the group. Each decomposition
    has exactly ``n // 3`` sets and one pair. With ``pair="258"`` the pair is free or a concrete
    pair of a 2/5/8 suited kind.
    """
    counts, wilds = _check_hand(counts, wilds)
    rule = _check_pair(pair)
    n = sum(counts) + wilds
    if n % 3 != 2:
        return set()
    return set(_decompositions(counts, wilds, n // 3, True, rule))


# --------------------------------------------------------------------------------------------
# Per-suit oracles (for checking per-suit tables of the fast evaluator)
# --------------------------------------------------------------------------------------------


def _embed_suit(suit_counts: Sequence[int], honours: bool) -> tuple[int, ...]:
    """Place one suit's counts into a 34-tuple: at 1m..9m, or at the honours for honours."""
    length = 7 if honours else 9
    values = _check_counts(suit_counts, length)
    start = HONOUR_START if honours else 0
    out = [0] * N_KINDS
    out[start : start + length] = values
    return tuple(out)


def wilds_needed_suit(
    suit_counts: Sequence[int], honours: bool = False, pair: str | None = None
) -> int | None:
    """Least number of wilds ``w`` such that the suit's tiles plus ``w`` wilds split exactly into
    sets (``pair=None``), sets and one pair (``"any"``) or sets and one 2/5/8 pair (``"258"``).

    ``suit_counts``: 9 counts (ranks 1-9), or 7 counts with ``honours=True`` (no sequences).
    Always possible, except a 2/5/8 pair in honours: ``None``.
    """
    if pair is not None:
        _check_pair(pair)
    counts = _embed_suit(suit_counts, honours)
    if honours and pair == "258":
        return None
    rule = pair or "any"
    n_naturals = sum(counts)
    # every natural in its own triplet plus a free pair is always enough
    for w in range(2 * n_naturals + 3):
        if (n_naturals + w) % 3 != (0 if pair is None else 2):
            continue
        if _standard_ok(counts, w, pair is not None, rule):
            return w
    raise AssertionError("unreachable: triplets of every natural always work")


def tiles_to_add_suit(
    suit_counts: Sequence[int], sets: int, pair: str | None, honours: bool = False
) -> int | None:
    """Least number of tiles to add so that some sub-multiset of the suit's naturals plus the
    added tiles forms exactly ``sets`` sets (0..4) plus no pair (``None``), one pair (``"any"``)
    or one 2/5/8 pair (``"258"``). Added tiles are unlimited (fifth copies allowed).

    Equals ``3 * sets + 2 * (pair is not None)`` minus the most naturals placed. A 2/5/8 pair in
    honours is impossible: ``None``.
    """
    if pair is not None:
        _check_pair(pair)
    counts = _embed_suit(suit_counts, honours)
    if operator.index(sets) != sets or not 0 <= sets <= 4:
        raise ValueError(f"sets must be 0..4, got {sets!r}")
    if honours and pair == "258":
        return None
    placed = _max_placed(counts, sets, pair is not None, pair or "any")
    return 3 * sets + 2 * (pair is not None) - placed


def clear_caches() -> None:
    """Drop all memoised results (to bound memory in long runs)."""
    for fn in (
        _placements,
        _standard_ok,
        _thirteen_best_overlap,
        _max_placed,
        _decompositions,
    ):
        fn.cache_clear()
