"""Reference answers for many hands at once, for the bulk agreement test.

Kept in a module of its own so that worker processes can import it by name.
"""

from __future__ import annotations

from .evaluator import clear_caches, decompositions, is_complete, shanten, waits

QUERIES = {"is_complete": is_complete, "shanten": shanten, "waits": waits}


def answers(query: str, counts, wilds, options: dict) -> list:
    """``query`` of the reference for each hand (counts rows, wilds) with ``options``."""
    function = QUERIES[query]
    out = [
        function(tuple(int(x) for x in row), int(w), **options)
        for row, w in zip(counts, wilds, strict=True)
    ]
    clear_caches()
    return out


def decomposition_sets(counts, wilds, pair: str) -> list[set]:
    out = [
        decompositions(tuple(int(x) for x in row), int(w), pair=pair)
        for row, w in zip(counts, wilds, strict=True)
    ]
    clear_caches()
    return out
