"""Anhua options that act on play, shown through the engine to change outcomes as the spec says.

Rules: docs/rules/anhua.md. (Options acting on the score alone are tested in
test_anhua_examples.py and test_anhua_scoring.py; the open-kong options in test_anhua_kong.py.)
"""

from __future__ import annotations

import numpy as np
import pytest

from sim.play import first_dealers
from sim.variants.anhua import AnhuaOptions
from sim.variants.anhua.play import play_anhua


@pytest.mark.engine
def test_instant_win_window_until_first_claim_allows_later_declarations():
    """起手四王/七王 (source: 发完牌后,玩家手牌有四王或七王 ... 即可胡牌): with the window open
    until the first claim and drawn kings counted, players who gather the kings on later turns may
    declare too, so the instant win is more frequent (§anhua-instant-king-win, options
    instant_king_win_window and instant_king_win_counts_draw). Counting only the dealt hand, the
    longer window changes nothing for agents that always declare at once."""
    options = {"king_mode": "four_kings", "instant_king_win_counts_draw": True}
    first, _ = play_anhua(6000, seed=3, options=AnhuaOptions(**options))
    later, _ = play_anhua(
        6000, seed=3, options=AnhuaOptions(instant_king_win_window="until_first_claim", **options)
    )
    first_count = (first["win_kind"] == "instant").sum()
    later_count = (later["win_kind"] == "instant").sum()
    assert later_count > first_count >= 1
    dealt_only = {"king_mode": "four_kings"}
    first, _ = play_anhua(6000, seed=3, options=AnhuaOptions(**dealt_only))
    later, _ = play_anhua(
        6000,
        seed=3,
        options=AnhuaOptions(instant_king_win_window="until_first_claim", **dealt_only),
    )
    assert (first["win_kind"] == "instant").sum() == (later["win_kind"] == "instant").sum() >= 1


@pytest.mark.engine
def test_first_dealer_random_spreads_the_first_deal():
    """开房玩家坐庄 or a random seat (source: 第一局开房玩家坐庄 ... 随机一人坐庄)."""
    seat0 = first_dealers(800, 8, AnhuaOptions(), seed=1)
    random = first_dealers(800, 8, AnhuaOptions(first_dealer="random"), seed=1)
    assert (seat0 == 0).all() and len(seat0) == 100
    assert set(random) == {0, 1, 2, 3}
    np.testing.assert_array_equal(
        random, first_dealers(800, 8, AnhuaOptions(first_dealer="random"), seed=1)
    )
    options = AnhuaOptions(first_dealer="random")
    hands, _ = play_anhua(64, seed=1, options=options)
    starts = hands[hands["hand"] == 0]["dealer"].to_numpy()
    np.testing.assert_array_equal(starts, first_dealers(64, 8, options, seed=1))


@pytest.mark.engine
def test_two_revealed_tiles_make_fewer_kong_wins():
    """kong_reveal_count (§anhua-reading-three-revealed-tiles: 3 by default, 2 the alternative):
    with two tiles revealed per kong, blooms and kong cannons are rarer."""
    three, _ = play_anhua(8000, seed=4)
    two, _ = play_anhua(8000, seed=4, options=AnhuaOptions(kong_reveal_count=2))
    kong_wins = ("kong_bloom", "kong_cannon")
    assert three["win_kind"].isin(kong_wins).sum() > two["win_kind"].isin(kong_wins).sum()


@pytest.mark.engine
def test_multi_ron_off_means_one_winner():
    """一炮多响 (source: 未勾选不能一炮多响按顺序接炮): off, a discard has at most one winner."""
    on, _ = play_anhua(6000, seed=5)
    off, _ = play_anhua(6000, seed=5, options=AnhuaOptions(multi_ron=False))
    assert off["n_winners"].max() == 1
    assert on["n_winners"].max() >= 2


@pytest.mark.engine
def test_rob_kong_off_means_no_robbing():
    """可抢杠胡 (source: 可抢杠胡): off, no kong is ever robbed."""
    off, _ = play_anhua(6000, seed=6, options=AnhuaOptions(allow_rob_kong=False))
    on, _ = play_anhua(6000, seed=6)
    assert (off["win_kind"] == "rob_kong").sum() == 0
    assert (on["win_kind"] == "rob_kong").sum() > 0
