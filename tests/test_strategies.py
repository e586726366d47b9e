"""The hand generators respect their constraints (and build what they promise)."""

from __future__ import annotations

import numpy as np
import pytest
import reference as R
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import (
    HAND_SIZES,
    TILES_258,
    complete_hands,
    edge_hands,
    empty_suit_hands,
    hand_from_string,
    hands,
    honour_heavy_hands,
    near_complete_batch,
    near_complete_hands,
    quad_hands,
    random_hands,
    seven_pairs_hands,
    thirteen_unrelated_hands,
    wild_258_pair_hands,
    wild_group_hands,
)

SETTINGS = settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


def check_hand(hand, max_wilds=8, honours=True):
    counts, wilds = hand
    assert isinstance(counts, tuple) and len(counts) == 34
    assert all(isinstance(c, int) and 0 <= c <= 4 for c in counts)
    assert isinstance(wilds, int) and 0 <= wilds <= max_wilds
    if not honours:
        assert not any(counts[27:])
    return sum(counts) + wilds


def test_hand_from_string():
    counts, wilds = hand_from_string("123m 55p 9s 7z", 3)
    assert wilds == 3 and sum(counts) == 7
    assert counts[0] == counts[1] == counts[2] == 1
    assert counts[13] == 2 and counts[26] == 1 and counts[33] == 1
    for bad in ("8z", "12", "1x", "0m"):
        with pytest.raises(ValueError):
            hand_from_string(bad)


@given(st.data(), st.integers(0, 8), st.booleans())
@SETTINGS
def test_hands(data, max_wilds, honours):
    size = data.draw(st.sampled_from(HAND_SIZES))
    hand = data.draw(hands(size=size, max_wilds=max_wilds, honours=honours))
    assert check_hand(hand, max_wilds, honours) == size


@given(hands(min_wilds=3, max_wilds=5))
@SETTINGS
def test_hands_min_wilds(hand):
    assert 3 <= hand[1] <= 5
    assert check_hand(hand) in HAND_SIZES


@given(st.data(), st.sampled_from(["any", "258"]), st.integers(0, 8), st.booleans())
@SETTINGS
def test_complete_hands(data, pair, max_wilds, honours):
    size = data.draw(st.sampled_from([2, 5, 8, 11, 14]))
    hand = data.draw(complete_hands(size=size, pair=pair, max_wilds=max_wilds, honours=honours))
    assert check_hand(hand, max_wilds, honours) == size
    assert R.is_standard(*hand, pair=pair)


@given(complete_hands(pair_mode="free"))
@SETTINGS
def test_complete_hands_free_pair(hand):
    check_hand(hand)
    assert hand[1] >= 2 and R.is_standard(*hand)


@given(st.data(), st.booleans(), st.integers(0, 8))
@SETTINGS
def test_seven_pairs_hands(data, quads, max_wilds):
    hand = data.draw(seven_pairs_hands(quads=quads, max_wilds=max_wilds))
    assert check_hand(hand, max_wilds) == 14
    assert R.is_seven_pairs(*hand, quads=quads)


@given(st.data(), st.integers(0, 8))
@SETTINGS
def test_thirteen_unrelated_hands(data, max_wilds):
    hand = data.draw(thirteen_unrelated_hands(max_wilds=max_wilds))
    assert check_hand(hand, max_wilds) == 14
    assert R.is_thirteen_unrelated(*hand)


@given(thirteen_unrelated_hands(honours=False))
@SETTINGS
def test_thirteen_unrelated_hands_without_honours(hand):
    assert check_hand(hand, honours=False) == 14
    assert hand[1] >= 5 and R.is_thirteen_unrelated(*hand)


@given(
    st.data(),
    st.sampled_from(HAND_SIZES),
    st.integers(0, 2),
    st.sampled_from([("standard",), ("seven_pairs",), ("thirteen",), ("standard", "thirteen")]),
    st.sampled_from(["any", "258"]),
)
@SETTINGS
def test_near_complete_hands(data, size, max_changes, forms, pair):
    if size < 13 and "standard" not in forms:
        return
    hand = data.draw(
        near_complete_hands(size=size, max_changes=max_changes, forms=forms, pair=pair)
    )
    assert check_hand(hand) == size
    s = R.shanten(
        *hand,
        pair=pair,
        seven_pairs="seven_pairs" in forms,
        thirteen="thirteen" in forms,
    )
    assert s <= (max_changes - 1 if size % 3 == 2 else max_changes)


@given(quad_hands())
@SETTINGS
def test_quad_hands(hand):
    check_hand(hand)
    assert max(hand[0]) == 4


@given(wild_group_hands(), st.sampled_from(["any", "258"]))
@SETTINGS
def test_wild_group_hands(hand, pair):
    n = check_hand(hand)
    assert n % 3 == 2 and R.is_standard(*hand)
    decs = R.decompositions(*hand)
    assert any(g[0].startswith("free") for dec in decs for g in dec)


@given(empty_suit_hands())
@SETTINGS
def test_empty_suit_hands(hand):
    check_hand(hand)
    counts = hand[0]
    assert any(not any(counts[9 * s : 9 * s + 9]) for s in range(3))


@given(empty_suit_hands(complete=True))
@SETTINGS
def test_empty_suit_hands_complete(hand):
    check_hand(hand)
    assert R.is_standard(*hand)


@given(wild_258_pair_hands())
@SETTINGS
def test_wild_258_pair_hands(hand):
    check_hand(hand)
    assert hand[1] >= 1 and R.is_standard(*hand, pair="258")
    # the 258 decomposition has a free pair or a concrete 2/5/8 pair
    for dec in R.decompositions(*hand, pair="258"):
        (pair_group,) = [g for g in dec if g[0] in ("pair", "free_pair")]
        assert pair_group[0] == "free_pair" or pair_group[1] in TILES_258


@given(honour_heavy_hands())
@SETTINGS
def test_honour_heavy_hands(hand):
    check_hand(hand)


def test_honour_heavy_hands_are_honour_heavy():
    honours = suited = 0

    @given(honour_heavy_hands())
    @settings(SETTINGS, database=None)
    def collect(hand):
        nonlocal honours, suited
        honours += sum(hand[0][27:])
        suited += sum(hand[0][:27])

    collect()
    assert honours > suited


@given(edge_hands())
@SETTINGS
def test_edge_hands(hand):
    assert check_hand(hand) in HAND_SIZES


@given(edge_hands(size=14))
@SETTINGS
def test_edge_hands_size(hand):
    assert check_hand(hand) == 14


@pytest.mark.parametrize("n_tiles", [1, 2, 5, 13, 14])
@pytest.mark.parametrize("honours", [True, False])
def test_random_hands(n_tiles, honours):
    rng = np.random.default_rng(n_tiles)
    counts, wilds = random_hands(rng, 20_000, n_tiles, max_wilds=8, honours=honours)
    assert counts.shape == (20_000, 34) and counts.dtype == np.uint8
    assert wilds.shape == (20_000,) and wilds.dtype == np.uint8
    assert counts.max() <= 4
    assert (counts.sum(axis=1, dtype=np.int64) + wilds == n_tiles).all()
    assert wilds.max() <= min(8, n_tiles)
    assert set(np.unique(wilds)) == set(range(min(8, n_tiles) + 1))
    if not honours:
        assert not counts[:, 27:].any()
    else:
        # without replacement from the wall: every kind equally likely
        per_kind = counts.sum(axis=0)
        assert per_kind.min() > 0.8 * per_kind.mean()


def test_random_hands_no_wilds_and_quads():
    rng = np.random.default_rng(0)
    counts, wilds = random_hands(rng, 50_000, 14, max_wilds=0)
    assert not wilds.any() and (counts.sum(axis=1) == 14).all()
    assert counts.max() == 4  # quads occur (about 1 hand in 60)


def test_random_hands_min_wilds():
    rng = np.random.default_rng(1)
    _, wilds = random_hands(rng, 1000, 14, max_wilds=6, min_wilds=4)
    assert wilds.min() == 4 and wilds.max() == 6


@pytest.mark.parametrize("n_tiles", [14, 13, 11, 8, 4, 2])
def test_near_complete_batch(n_tiles):
    rng = np.random.default_rng(n_tiles)
    counts, wilds = near_complete_batch(rng, 600, n_tiles, max_wilds=8)
    assert counts.shape == (600, 34) and counts.dtype == np.uint8 and wilds.dtype == np.uint8
    assert counts.max() <= 4 and wilds.max() <= 8
    assert (counts.sum(axis=1, dtype=np.int64) + wilds == n_tiles).all()
    shanten = np.array(
        [R.shanten(c, int(w), thirteen=True) for c, w in zip(counts, wilds, strict=True)]
    )
    if n_tiles % 3 == 2:
        assert set(np.unique(shanten)) <= {-1, 0, 1, 2}
        assert {-1, 0, 1} <= set(np.unique(shanten)) or n_tiles == 2
    else:
        assert set(np.unique(shanten)) <= {0, 1, 2}
        assert 0 in shanten
    assert len(np.unique(wilds)) == min(8, n_tiles) + 1


def test_near_complete_batch_options():
    rng = np.random.default_rng(5)
    counts, wilds = near_complete_batch(
        rng, 300, 14, max_wilds=0, honours=False, pair="258", forms=("standard",), max_changes=0
    )
    assert not wilds.any() and not counts[:, 27:].any()
    assert all(R.is_standard(c, 0, pair="258") for c in counts)
    counts, wilds = near_complete_batch(rng, 300, 14, max_wilds=2, forms=("thirteen",))
    assert wilds.max() <= 2
    assert all(R.shanten_thirteen(c, int(w)) <= 2 for c, w in zip(counts, wilds, strict=True))
    with pytest.raises(ValueError):
        near_complete_batch(rng, 10, 12)
