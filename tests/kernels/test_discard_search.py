"""The efficiency agent's discard search (``shanten_after_discards``, ``useful_draws``) gives the
answers of the kernels it replaced: ``shanten_many`` on each hand after a discard, and for each
discard the unseen copies of the draws whose swap ``shanten_after_swaps`` puts below it.

Those two are checked against the slow reference (tests/kernels/test_hand_swaps.py,
tests/test_hand_bulk.py); a hypothesis test checks the search against the reference directly,
on hands with wilds, honours, melds (short hands) and every form it supports.
"""

from __future__ import annotations

import numpy as np
import strategies as S
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import evaluator as R

from sim.kernels import hand as K
from sim.tables import load_tables

RULES = {
    "anhua": (K.FORM_STANDARD | K.OPTION_PAIR_258 | K.FORM_SEVEN_PAIRS | K.OPTION_QUADS,
              {"pair": "258", "seven_pairs": True, "quads": True}),
    "wengan": (K.FORM_STANDARD | K.FORM_SEVEN_PAIRS | K.OPTION_QUADS,
               {"pair": "any", "seven_pairs": True, "quads": True}),
    "distinct pairs": (K.FORM_STANDARD | K.FORM_SEVEN_PAIRS,
                       {"pair": "any", "seven_pairs": True, "quads": False}),
    "standard only": (K.FORM_STANDARD, {"pair": "any", "seven_pairs": False}),
}  # fmt: skip
SEVEN_PAIRS_ONLY = K.FORM_SEVEN_PAIRS | K.OPTION_QUADS  # the value agent's forms for 七对
THIRTEEN = K.FORM_STANDARD | K.FORM_SEVEN_PAIRS | K.FORM_THIRTEEN


def _keys(counts) -> np.ndarray:
    keys = np.zeros(4, np.int64)
    K.keys_from_counts(np.asarray(counts, np.uint8), keys)
    return keys


def _search(counts, wilds, forms, weights, tables):
    """(shanten after each held natural's discard, useful weight of each, the held kinds)."""
    removed = np.array([k for k in range(34) if counts[k] > 0], np.int64)
    added = np.array([k for k in range(34) if counts[k] < 4], np.int64)
    keys = _keys(counts)
    rows, info = K.discard_search_space()
    after = np.empty(len(removed), np.int64)
    K.shanten_after_discards(keys, wilds, forms, removed, tables, rows, info, after)
    useful = np.full(len(removed), -1, np.int64)
    # the discards reaching each shanten together, as the agent asks for its tied discards
    for value in np.unique(after):
        group = np.flatnonzero(after == value)
        out = np.empty(len(group), np.int64)
        K.useful_draws(keys, wilds, forms, removed[group], added, weights[added], value,
                       tables, rows, info, out)  # fmt: skip
        useful[group] = out
    return removed, added, after, useful


def test_the_search_equals_shanten_many_and_the_swaps_in_bulk():
    tables = load_tables()
    rng = np.random.default_rng(11)
    compared = 0
    for trial in range(2500):
        wall = rng.permutation(np.repeat(np.arange(34 if trial % 2 else 27), 4))
        size = int(rng.choice([14, 14, 11, 8, 5, 2, 13]))  # 13: the pair-by-pair path
        wilds = min(int(rng.integers(0, 5)) if trial % 3 == 0 else 0, size - 1)
        counts = np.bincount(wall[: size - wilds], minlength=34)
        forms = [rule[0] for rule in RULES.values()] + [SEVEN_PAIRS_ONLY]
        forms = forms[trial % len(forms)]
        weights = rng.integers(1, 5, 34)
        removed, added, after, useful = _search(counts, wilds, forms, weights, tables)
        for index, gone in enumerate(removed):
            left = counts.copy()
            left[gone] -= 1
            expected = np.empty(1, np.int64)
            K.shanten_many(_keys(left)[None, :], np.array([wilds]), forms, tables, expected)
            assert after[index] == expected[0], (counts, wilds, forms, gone)
            swaps = np.empty((1, len(added)), np.int64)
            K.shanten_after_swaps(_keys(counts), wilds, forms, np.array([gone]), added, tables,
                                  swaps)  # fmt: skip
            legal = left[added] < 4
            expected_useful = weights[added][legal & (swaps[0] < after[index])].sum()
            assert useful[index] == expected_useful, (counts, wilds, forms, gone)
            compared += 1
    assert compared > 15_000


def test_the_first_step_counts_thirteen_unrelated_as_shanten_many_does():
    tables = load_tables()
    rng = np.random.default_rng(5)
    for _ in range(800):
        counts = np.bincount(rng.permutation(136)[:14] // 4, minlength=34)
        removed = np.flatnonzero(counts).astype(np.int64)
        rows, info = K.discard_search_space()
        after = np.empty(len(removed), np.int64)
        K.shanten_after_discards(_keys(counts), 0, THIRTEEN, removed, tables, rows, info, after)
        for index, gone in enumerate(removed):
            left = counts.copy()
            left[gone] -= 1
            expected = np.empty(1, np.int64)
            K.shanten_many(_keys(left)[None, :], np.array([0]), THIRTEEN, tables, expected)
            assert after[index] == expected[0]


@settings(max_examples=60, deadline=None)
@given(
    hand=S.search_hands(),
    rules=st.sampled_from(sorted(RULES)),
)
def test_the_search_agrees_with_the_reference(hand, rules):
    forms, options = RULES[rules]
    counts, wilds = [int(c) for c in hand[0]], int(hand[1])
    weights = np.arange(1, 35, dtype=np.int64)  # distinct: a wrong draw changes the sum
    removed, added, after, useful = _search(counts, wilds, forms, weights, load_tables())
    for index, gone in enumerate(removed):
        left = list(counts)
        left[gone] -= 1
        assert after[index] == R.shanten(left, wilds, **options)
        expected = 0
        for new in added:
            if left[new] < 4:
                swapped = list(left)
                swapped[new] += 1
                if R.shanten(swapped, wilds, **options) < after[index]:
                    expected += weights[new]
        assert useful[index] == expected, (rules, counts, wilds, gone)


def test_a_tile_lowers_each_split_by_at_most_one():
    """What useful_draws rests on: adding a tile to a suit lowers the tiles to add of each
    (sets, pair) column of the add table by 0 or 1, for every key with room for the tile."""
    tables = load_tables()
    for table, ranks in ((tables.suit_add, 9), (tables.honour_add, 7)):
        values = table.astype(np.int16)
        keys = np.arange(table.shape[0])
        for rank in range(ranks):
            room = keys // 5**rank % 5 < 4
            lowered = values[keys[room]] - values[keys[room] + 5**rank]
            assert lowered.min() == 0 and lowered.max() == 1, rank
