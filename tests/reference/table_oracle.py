"""Expected lookup-table entries computed from the slow reference, for the table tests.

Kept in a module of its own so that worker processes can import it by name.

The tiles-to-add columns and the wilds needed come from the reference evaluator
(``tiles_to_add_suit``, one memoised search per column over whole-hand count vectors, and
``wilds_needed_suit``) or, for the exhaustive check of every vector, from the suit search
(``suit_add_row``, ``suit_wilds_needed``): the same search written for one suit, every column
of a vector from one memoised search. It is checked against the reference on a sample and by
hypothesis (tests/kernels/test_tables.py), and is several times faster.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import cache

from .evaluator import clear_caches, tiles_to_add_suit, wilds_needed_suit

PAIRS = (None, "any", "258")
MAX_SETS = 4
CAP = 15  # the win table saturates its 4-bit fields here


def all_vectors(n_ranks: int, max_tiles: int) -> list[tuple[int, ...]]:
    """Every count vector of ``n_ranks`` ranks, 0-4 each, with at most ``max_tiles`` tiles.

    Rank 1 varies fastest: neighbours then share their high ranks, and so most of the reference's
    memoised sub-problems (it removes tiles from the lowest rank up), which makes a run over
    consecutive vectors several times faster.
    """
    return [
        vector[::-1]
        for vector in itertools.product(range(5), repeat=n_ranks)
        if sum(vector) <= max_tiles
    ]


def key_of(vector: Sequence[int]) -> int:
    """Base-5 key, rank 1 least significant (as sim.kernels.tables)."""
    return sum(count * 5**rank for rank, count in enumerate(vector))


@cache
def spread_sets(n_ranks: int, size: int) -> tuple[frozenset[int], ...]:
    """Every set of ``size`` ranks (0-based) of ``n_ranks`` pairwise at least 3 apart."""
    return tuple(
        frozenset(chosen)
        for chosen in itertools.combinations(range(n_ranks), size)
        if all(b - a >= 3 for a, b in itertools.pairwise(chosen))
    )


def spread_fit(vector: Sequence[int], size: int) -> int:
    """Most ranks held that fit in ``size`` ranks pairwise at least 3 apart (十三烂, one suit)."""
    held = {rank for rank, count in enumerate(vector) if count}
    return max((len(held & chosen) for chosen in spread_sets(len(vector), size)), default=0)


_NO_PAIR, _ANY_PAIR, _PAIR_258 = range(3)
_258_RANKS = frozenset({1, 4, 7})  # ranks 2, 5, 8 (0-based)


def suit_add_row(vector: tuple[int, ...], honours: bool) -> tuple[int, ...]:
    """The 15 tiles-to-add of one suit's vector, ``sets * 3 + pair`` as the add table (pair:
    none, any, 2-5-8; 99 where impossible): ``3 * sets + 2 * (pair wanted)`` less the most of
    its tiles that fit in ``sets`` partial sets and the partial pair (``_most_placed``)."""
    placed = _most_placed(tuple(vector), honours)
    row = []
    for sets in range(MAX_SETS + 1):
        for pair in (_NO_PAIR, _ANY_PAIR, _PAIR_258):
            if honours and pair == _PAIR_258:
                row.append(99)
            else:
                row.append(3 * sets + (2 if pair else 0) - placed[sets][pair])
    return tuple(row)


def suit_wilds_needed(vector: tuple[int, ...], honours: bool) -> tuple[int, ...]:
    """The win table's wilds needed (no pair, any pair, a 2-5-8 pair; ``CAP`` where none) from
    the suit search: the fewest empty slots of the splits into at most four sets (and the pair)
    that hold every tile. The reference's least number of wilds over any number of sets is the
    same whenever it needs at most four sets, and a split into more needs more tiles than
    any with fewer (which the tables cap)."""
    placed = _most_placed(tuple(vector), honours)
    tiles = sum(vector)
    needed = []
    for pair in (_NO_PAIR, _ANY_PAIR, _PAIR_258):
        best = CAP
        for sets in range(MAX_SETS + 1 if not (honours and pair == _PAIR_258) else 0):
            slots = 3 * sets + (2 if pair else 0)
            if placed[sets][pair] == tiles and slots >= tiles:
                best = min(best, slots - tiles)
        needed.append(best)
    return tuple(needed)


@cache
def _most_placed(counts: tuple[int, ...], honours: bool) -> tuple[tuple[int, ...], ...]:
    """most[sets][pair]: the most tiles of ``counts`` that fit in at most ``sets`` partial sets
    and, unless ``pair`` is none, a partial pair (of a 2-5-8 rank for ``_PAIR_258``); a partial
    group is any part of a real set or pair (added tiles fill the rest).

    The lowest held rank is left out, or is the lowest held tile of a partial group: a
    triplet or pair of its rank (one to three copies, one or two), or a sequence it starts,
    continues or ends (a run is never of honours) with any of the sequence's higher ranks
    that are held, one copy each."""
    if not any(counts):
        return tuple((0, 0, 0) for _ in range(MAX_SETS + 1))
    low = next(rank for rank, count in enumerate(counts) if count)

    def less(*ranks: int) -> tuple[int, ...]:
        left = list(counts)
        for rank in ranks:
            left[rank] -= 1
        return tuple(left)

    most = [list(row) for row in _most_placed(less(low), honours)]  # the lowest left out

    def group(taken: int, rest: tuple[int, ...], is_pair: bool) -> None:
        placed = _most_placed(rest, honours)
        for sets in range(MAX_SETS + 1):
            for pair in (_NO_PAIR, _ANY_PAIR, _PAIR_258):
                if is_pair:
                    if pair == _NO_PAIR or (
                        pair == _PAIR_258 and (honours or low not in _258_RANKS)
                    ):
                        continue
                    candidate = taken + placed[sets][_NO_PAIR]
                elif sets == 0:
                    continue
                else:
                    candidate = taken + placed[sets - 1][pair]
                most[sets][pair] = max(most[sets][pair], candidate)

    for copies in range(1, min(3, counts[low]) + 1):  # a partial triplet
        group(copies, less(*[low] * copies), is_pair=False)
    for copies in range(1, min(2, counts[low]) + 1):  # a partial pair
        group(copies, less(*[low] * copies), is_pair=True)
    if not honours:  # partial runs: the lowest held rank with held ranks above it in the run
        for start in (low - 2, low - 1, low):
            if start < 0 or start + 2 >= len(counts):
                continue
            above = [rank for rank in range(low + 1, start + 3) if counts[rank]]
            for size in range(len(above) + 1):
                for chosen in itertools.combinations(above, size):
                    group(1 + size, less(low, *chosen), is_pair=False)
    return tuple(tuple(row) for row in most)


def reference_add_row(vector: tuple[int, ...], honours: bool) -> tuple[int, ...]:
    """The 15 tiles-to-add of ``suit_add_row`` from the reference evaluator."""
    row = []
    for sets in range(MAX_SETS + 1):
        for pair in PAIRS:
            value = tiles_to_add_suit(vector, sets, pair, honours=honours)
            row.append(99 if value is None else value)
    return tuple(row)


def reference_needed(vector: tuple[int, ...], honours: bool) -> tuple[int, ...]:
    """The win table's wilds needed (no pair, any pair, a 2-5-8 pair), capped, from the
    reference evaluator."""
    needed = []
    for pair in PAIRS:
        value = wilds_needed_suit(vector, honours=honours, pair=pair)
        # The tables cover splits into at most four sets (and the pair): all that a hand of
        # at most 14 tiles can use. Beyond that they hold the cap.
        most_tiles = 3 * MAX_SETS + (0 if pair is None else 2)
        if value is None or sum(vector) + value > most_tiles:
            value = CAP
        needed.append(min(value, CAP))
    return tuple(needed)


def expected_entries(
    vectors: Sequence[tuple[int, ...]], honours: bool, suit_search: bool = False
) -> list[tuple]:
    """For each vector: (key, add row of 15, wilds needed (3, capped), tiles, spread fits);
    the add row and the wilds needed from the suit search with ``suit_search`` (whose memo is
    kept: the next vectors share most of its entries), else from the reference (whose memos
    are cleared)."""
    add_row, wilds_needed = (
        (suit_add_row, suit_wilds_needed) if suit_search else (reference_add_row, reference_needed)
    )
    rows = []
    for vector in vectors:
        add = add_row(vector, honours)
        needed = wilds_needed(vector, honours)
        fits = (
            tuple(spread_fit(vector, size) for size in (1, 2, 3))
            if not honours
            else (sum(1 for count in vector if count),)
        )
        rows.append((key_of(vector), add, needed, min(sum(vector), CAP), fits))
    clear_caches()
    return rows
