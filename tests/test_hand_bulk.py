"""Bulk agreement of sim.hand with the slow reference: over 55,000 hands with 0-8 wilds (sized
to keep the full suite within its 15 minutes on 2 cores; random hands by seed, so every run checks
the same hands).

Random deals and near-complete hands (complete, ready, one and two away), of 14 tiles (win check
and shanten) and 13 tiles (shanten and waits), under two rule sets: Anhua-like (2-5-8 pair, seven
pairs with quads) and Anqing-like (any pair, seven pairs of distinct kinds, 十三烂). The reference
runs in two worker processes.
"""

from __future__ import annotations

import multiprocessing

import numpy as np
import pytest
import strategies as S
from reference import bulk

from sim import hand

RULES = {
    "anhua": ({"pair": "258", "quads": True}, {"pair": "258", "quads": True}),
    "anqing": (
        {"quads": False, "thirteen": True},
        {"quads": False, "thirteen": True},
    ),
}
CHUNK = 2_500


def _reference(pool, query, counts, wilds, options):
    chunks = [
        (query, counts[i : i + CHUNK], wilds[i : i + CHUNK], options)
        for i in range(0, len(counts), CHUNK)
    ]
    return [value for part in pool.starmap(bulk.answers, chunks) for value in part]


@pytest.fixture(scope="module")
def pool():
    with multiprocessing.get_context("fork").Pool(2) as workers:
        yield workers


def _hands(seed: int, n_tiles: int, n_random: int, n_near: int):
    rng = np.random.default_rng(seed)
    random_counts, random_wilds = S.random_hands(rng, n_random, n_tiles)
    near_counts, near_wilds = S.near_complete_batch(rng, n_near, n_tiles)
    return (
        np.concatenate([random_counts, near_counts]),
        np.concatenate([random_wilds, near_wilds]),
    )


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULES)
def test_win_check_and_shanten_of_14_tile_hands(pool, rules):
    fast_options, reference_options = RULES[rules]
    counts, wilds = _hands(1000 + len(rules), 14, 8_000, 8_000)
    assert set(np.unique(wilds)) == set(range(9))
    complete = hand.is_complete_batch(counts, wilds, **fast_options)
    expected = _reference(pool, "is_complete", counts, wilds, reference_options)
    np.testing.assert_array_equal(complete, expected)
    assert 0.1 < complete.mean() < 0.9
    shanten = hand.shanten_batch(counts, wilds, **fast_options)
    expected = _reference(pool, "shanten", counts, wilds, reference_options)
    np.testing.assert_array_equal(shanten, expected)


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULES)
def test_shanten_of_13_tile_hands(pool, rules):
    fast_options, reference_options = RULES[rules]
    counts, wilds = _hands(2000 + len(rules), 13, 5_000, 5_000)
    shanten = hand.shanten_batch(counts, wilds, **fast_options)
    expected = _reference(pool, "shanten", counts, wilds, reference_options)
    np.testing.assert_array_equal(shanten, expected)
    assert (shanten == 0).mean() > 0.2


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULES)
def test_waits_of_ready_and_near_hands(pool, rules):
    fast_options, reference_options = RULES[rules]
    counts, wilds = _hands(3000 + len(rules), 13, 300, 1_500)
    fast = [hand.waits(c, int(w), **fast_options) for c, w in zip(counts, wilds, strict=True)]
    expected = _reference(pool, "waits", counts, wilds, reference_options)
    assert fast == [list(w) for w in expected]
    assert sum(1 for w in fast if w) > 500


@pytest.mark.slow
@pytest.mark.parametrize("pair", ["any", "258"])
def test_decompositions_of_complete_hands(pool, pair):
    rng = np.random.default_rng(4000 + len(pair))
    counts, wilds = S.near_complete_batch(
        rng, 1_500, 14, pair=pair, forms=("standard",), max_changes=0
    )
    chunks = [(counts[i : i + 500], wilds[i : i + 500], pair) for i in range(0, 1_500, 500)]
    expected = [s for part in pool.starmap(bulk.decomposition_sets, chunks) for s in part]
    for row, w, reference_set in zip(counts, wilds, expected, strict=True):
        keys = [d.key() for d in hand.decompositions(row, int(w), pair=pair)]
        assert len(keys) == len(set(keys))
        assert set(keys) == reference_set
