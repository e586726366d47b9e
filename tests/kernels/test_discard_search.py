"""The efficiency agent's discard search (``shanten_after_discards``, ``useful_draws``) gives the
answers of the kernels it replaced: ``shanten_many`` on each hand after a discard, and for each
discard the unseen copies of the draws whose swap ``shanten_after_swaps`` puts below it.

Those two are checked against the slow reference (tests/kernels/test_hand_swaps.py,
tests/test_hand_bulk.py); a hypothesis test checks the search against the reference directly,
on hands with wilds, honours, melds (short hands) and every form it supports.
"""

from __future__ import annotations

import numpy as np
import pytest
import strategies as S
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import evaluator as R

from sim.core.tables import load_tables
from sim.kernels import hand as K

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


def _efficiency_reference(counts, wilds, wild, visible, forms, allowed, tables):
    """The efficiency agent's discard, the slow way (agents.efficiency_discard's docstring):
    the least shanten after the discard by ``shanten_many`` on each hand; among equals the most
    unseen copies of the near draws (held, or within two ranks of a held tile of the suit; any
    kind with 十三烂) that lower it further, each (discard, draw) hand evaluated in full; then
    the lowest kind. Wilds go only when nothing else may. Returns (the kind, the number of
    tied discards)."""

    def shanten_of(hand_counts):
        out = np.empty(1, np.int64)
        K.shanten_many(_keys(hand_counts)[None, :], np.array([wilds]), forms, tables, out)
        return int(out[0])

    after = {}
    for kind in range(34):
        if counts[kind] > 0 and not wild[kind] and allowed[kind]:
            left = counts.copy()
            left[kind] -= 1
            after[kind] = shanten_of(left)
    if not after:
        return next((k for k in range(34) if counts[k] > 0 and allowed[k]), -1), 0
    best = min(after.values())
    tied = [k for k in sorted(after) if after[k] == best]
    if len(tied) == 1:
        return tied[0], 1
    draws = []
    for kind in range(34):
        left = 4 - int(visible[kind]) - int(counts[kind])
        near = (forms & K.FORM_THIRTEEN) != 0 or counts[kind] > 0
        if kind < 27:
            rank = kind % 9
            ranks = range(max(0, rank - 2), min(9, rank + 3))
            near = near or any(counts[kind - rank + other] > 0 for other in ranks)
        if not wild[kind] and left > 0 and near:
            draws.append((kind, left))
    best_kind, best_useful = -1, -1
    for kind in tied:
        useful = 0
        for draw, left in draws:
            swapped = counts.copy()
            swapped[kind] -= 1
            swapped[draw] += 1
            if shanten_of(swapped) < best:
                useful += left
        if useful > best_useful:
            best_kind, best_useful = kind, useful
    return best_kind, len(tied)


@pytest.mark.engine
def test_the_efficiency_discard_equals_the_slow_reference_in_a_reused_space():
    """efficiency_discard, and choose_discard with one work space for every decision (as the
    engine passes it for a whole hand), pick the reference's discard: hands of every size a
    seat discards from (14 tiles less the melds) and others (13, 10), with wilds, 十三烂 and
    the forms the variants use, so that the search, the ties weighed by the draws' search and
    the ties weighed pair by pair are all reached."""
    from sim.kernels import agents as AG
    from sim.kernels.agent_params import default_row

    tables = load_tables()
    rng = np.random.default_rng(28)
    space = AG.discard_space()
    params = default_row()
    form_choices = [rule[0] for rule in RULES.values()] + [THIRTEEN, SEVEN_PAIRS_ONLY]
    ties = {False: 0, True: 0}
    for trial in range(1500):
        wall = rng.permutation(np.repeat(np.arange(34 if trial % 2 else 27), 4))
        size = int(rng.choice([14, 14, 14, 11, 8, 5, 13, 10]))
        wild = np.zeros(34, np.bool_)
        if trial % 4 == 0:
            wild[int(rng.integers(0, 27))] = True
        counts = np.bincount(wall[:size], minlength=34).astype(np.uint8)
        naturals = counts.copy()
        naturals[wild] = 0
        wilds = int(counts[wild].sum())
        visible = np.zeros(34, np.uint8)
        seen = wall[size : size + int(rng.integers(0, 40))]
        np.add.at(visible, seen, 1)
        allowed = np.ones(34, np.bool_)
        if trial % 5 == 0:
            allowed[rng.choice(34, 3, replace=False)] = False
        forms = form_choices[trial % len(form_choices)]
        keys = _keys(naturals)
        n_kinds = 34 if trial % 2 else 27
        expected, n_tied = _efficiency_reference(
            naturals, wilds, wild, visible, forms, allowed, tables
        )
        chosen = AG.efficiency_discard(
            counts, keys, np.int64(wilds), wild, visible, n_kinds, forms, allowed, tables
        )
        asked = AG.choose_discard(
            AG.AGENT_EFFICIENCY, counts, keys, np.int64(wilds), wild, visible, n_kinds, forms,
            allowed, np.int64(0), params, tables, space,
        )  # fmt: skip
        assert chosen == expected == asked, (trial, counts, wilds, forms)
        if n_tied > 1:  # the ties weighed by the draws' search, or pair by pair
            in_full = (forms & K.FORM_THIRTEEN) != 0 or size % 3 != 2
            ties[in_full] += 1
    assert ties[False] > 500 and ties[True] > 100, ties
