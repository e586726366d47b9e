"""shanten_after_swaps (the efficiency agent's tie-break): every (removed, added) swap of a hand
gets the shanten the slow reference gives the swapped hand, and the one shanten_many gives.

The reference (tests/reference/evaluator.py) decomposes each swapped hand by brute force; the
bulk comparison with shanten_many covers many more hands, shanten_many being itself checked
against the reference exhaustively (tests/kernels/test_tables.py, tests/test_hand_bulk.py).
"""

from __future__ import annotations

import numpy as np
import strategies as S
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import evaluator as R

from sim.core.tables import load_tables
from sim.kernels import hand as K

RULES = {
    "anhua": (K.FORM_STANDARD | K.OPTION_PAIR_258 | K.FORM_SEVEN_PAIRS | K.OPTION_QUADS,
              {"pair": "258", "seven_pairs": True, "quads": True}),
    "distinct pairs": (K.FORM_STANDARD | K.FORM_SEVEN_PAIRS,
                       {"pair": "any", "seven_pairs": True, "quads": False}),
    "standard only": (K.FORM_STANDARD, {"pair": "any", "seven_pairs": False}),
}  # fmt: skip


def _keys(counts) -> np.ndarray:
    keys = np.zeros(4, np.int64)
    K.keys_from_counts(np.asarray(counts, np.uint8), keys)
    return keys


def _swaps(counts):
    """Every removable natural kind and every kind a tile can be added of (no fifth copy)."""
    removed = np.array([k for k in range(34) if counts[k] > 0], np.int64)
    added = np.array([k for k in range(34) if counts[k] < 4], np.int64)
    return removed, added


@settings(max_examples=60, deadline=None)
@given(
    hand=S.search_hands(),
    rules=st.sampled_from(sorted(RULES)),
)
def test_swaps_agree_with_the_reference(hand, rules):
    forms, options = RULES[rules]
    counts, wilds = [int(c) for c in hand[0]], int(hand[1])
    removed, added = _swaps(counts)
    out = np.empty((len(removed), len(added)), np.int64)
    K.shanten_after_swaps(_keys(counts), wilds, forms, removed, added, load_tables(), out)
    for i, gone in enumerate(removed):
        for j, new in enumerate(added):
            swapped = list(counts)
            swapped[gone] -= 1
            swapped[new] += 1
            if swapped[new] > 4:
                continue  # the agent never adds a fifth copy
            expected = R.shanten(swapped, wilds, **options)
            assert out[i, j] == expected, (rules, counts, wilds, gone, new)


def test_swaps_agree_with_shanten_many_in_bulk():
    tables = load_tables()
    rng = np.random.default_rng(7)
    compared = 0
    for trial in range(1500):
        wall = rng.permutation(np.repeat(np.arange(34 if trial % 2 else 27), 4))
        size = int(rng.choice([14, 11, 8, 5]))
        wilds = min(int(rng.integers(0, 5)), size - 1)
        counts = np.bincount(wall[: size - wilds], minlength=34)
        forms, _ = RULES[sorted(RULES)[trial % 3]]
        removed, added = _swaps(counts)
        out = np.empty((len(removed), len(added)), np.int64)
        K.shanten_after_swaps(_keys(counts), wilds, forms, removed, added, tables, out)
        for i, gone in enumerate(removed):
            swapped = np.repeat(counts[None, :], len(added), axis=0)
            swapped[:, gone] -= 1
            swapped[np.arange(len(added)), added] += 1
            keys = np.zeros((len(added), 4), np.int64)
            K.keys_batch(swapped.astype(np.uint8), keys)
            expected = np.empty(len(added), np.int64)
            K.shanten_many(keys, np.full(len(added), wilds), forms, tables, expected)
            legal = swapped[np.arange(len(added)), added] <= 4
            np.testing.assert_array_equal(out[i][legal], expected[legal])
            compared += legal.sum()
    assert compared > 100_000
