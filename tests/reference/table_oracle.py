"""Expected lookup-table entries computed from the slow reference, for the table tests.

Kept in a module of its own so that worker processes can import it by name.
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


def expected_entries(vectors: Sequence[tuple[int, ...]], honours: bool) -> list[tuple]:
    """For each vector: (key, add row of 15, wilds needed (3, capped), tiles, spread fits)."""
    rows = []
    for vector in vectors:
        add = []
        for sets in range(MAX_SETS + 1):
            for pair in PAIRS:
                value = tiles_to_add_suit(vector, sets, pair, honours=honours)
                add.append(99 if value is None else value)
        needed = []
        for pair in PAIRS:
            value = wilds_needed_suit(vector, honours=honours, pair=pair)
            # The tables cover splits into at most four sets (and the pair): all that a hand of
            # at most 14 tiles can use. Beyond that they hold the cap.
            most_tiles = 3 * MAX_SETS + (0 if pair is None else 2)
            if value is None or sum(vector) + value > most_tiles:
                value = CAP
            needed.append(min(value, CAP))
        fits = (
            tuple(spread_fit(vector, size) for size in (1, 2, 3))
            if not honours
            else (sum(1 for count in vector if count),)
        )
        rows.append((key_of(vector), tuple(add), tuple(needed), min(sum(vector), CAP), fits))
    clear_caches()
    return rows
