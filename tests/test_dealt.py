"""sim.analysis.dealt: dealt-hand Monte Carlo (definitions: docs/exact.md).

Event indicators on hands whose answer is known from the rules, the deal positions, the sampler,
the Wilson interval, ``simulate`` and the ``mjsim deal`` command. The statistical agreement with
sim.analysis.exact is in tests/test_exact.py (slow).
"""

from __future__ import annotations

import doctest
from math import sqrt

import numpy as np
import pytest

from sim.analysis import dealt
from sim.analysis.dealt import (
    DealtHands,
    Estimate,
    compare,
    count_kinds,
    dealt_hands,
    event_hits,
    sample_prefixes,
    simulate,
    wilson_interval,
)
from sim.analysis.exact import exact_events
from sim.cli import main
from sim.core.tiles import kind_id, parse_tiles
from sim.core.wall import shuffled_walls, tile_set

# ---------------------------------------------------------------------------------------------
# Wilson interval


@pytest.mark.parametrize(("hits", "trials"), [(1, 10), (81, 263), (500, 1000), (3, 2_000_000)])
@pytest.mark.parametrize("confidence", [0.95, 0.999])
def test_wilson_bounds_solve_the_score_equation(hits, trials, confidence):
    """Each bound p satisfies (p_hat - p)^2 = z^2 p (1 - p) / n, the bounds straddle p_hat."""
    from statistics import NormalDist

    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    share = hits / trials
    low, high = wilson_interval(hits, trials, confidence)
    assert low < share < high
    for bound in (low, high):
        assert (share - bound) ** 2 == pytest.approx(z * z * bound * (1 - bound) / trials)


def test_wilson_interval_edges():
    assert wilson_interval(0, 1000)[0] == 0.0
    assert wilson_interval(1000, 1000)[1] == 1.0
    assert wilson_interval(100, 100)[1] == 1.0
    assert wilson_interval(0, 0) == (0.0, 1.0)
    narrow, wide = wilson_interval(50, 100, 0.9), wilson_interval(50, 100, 0.999)
    assert wide[0] < narrow[0] < narrow[1] < wide[1]
    with pytest.raises(ValueError, match="confidence"):
        wilson_interval(1, 10, 1.0)


def test_docstring_examples():
    failures, tried = doctest.testmod(dealt, verbose=False)
    assert tried > 0 and failures == 0


# ---------------------------------------------------------------------------------------------
# Dealing and sampling


def test_dealt_hands_read_the_deal_positions():
    walls = shuffled_walls(40, 108, seed=3)
    hands = dealt_hands(walls, "anhua", 108)
    for i in range(walls.shape[0]):
        dealer = np.bincount(np.r_[walls[i, :13], walls[i, 52]], minlength=34)
        assert (hands.dealer[i] == dealer).all()
        assert (hands.non_dealer[i] == np.bincount(walls[i, 13:26], minlength=34)).all()
    assert (hands.indicator == walls[:, 53]).all()
    tables = dealt_hands(walls, "wengan", 108, (2, 3)).tables
    assert tables[3].sum(axis=2).tolist() == [[14, 13, 13]] * 40
    assert tables[2].shape == (40, 2, 34)


def test_sample_prefixes_draw_each_tile_once_and_repeat_with_the_seed():
    tiles = tile_set(136)
    prefixes = sample_prefixes(tiles, 20, 5_000, seed=4)
    counts = count_kinds(prefixes)
    assert counts.max() <= 4
    assert (counts.sum(axis=1) == 20).all()
    assert (prefixes == sample_prefixes(tiles, 20, 5_000, seed=4)).all()
    assert not (prefixes == sample_prefixes(tiles, 20, 5_000, seed=5)).all()
    with pytest.raises(ValueError, match="length"):
        sample_prefixes(tiles, 137, 1, seed=1)


def test_sample_prefixes_are_uniform_ordered_draws():
    """Every ordered pair of 6 distinct tiles is equally likely (30 outcomes), within 5 sigma."""
    prefixes = sample_prefixes(np.arange(6, dtype=np.int8), 2, 300_000, seed=6)
    outcomes = np.bincount(prefixes[:, 0] * 6 + prefixes[:, 1], minlength=36)
    assert (outcomes[::7] == 0).all()  # a tile is never drawn twice
    expected = 300_000 / 30
    observed = np.delete(outcomes, np.arange(0, 36, 7))
    assert np.abs(observed - expected).max() < 5 * sqrt(expected)


# ---------------------------------------------------------------------------------------------
# Events on known hands


def _hands(*texts: str, tile_count: int = 108, indicator: str | None = None, non_dealer=None):
    dealer = np.zeros((len(texts), 34), np.uint8)
    for row, text in enumerate(texts):
        np.add.at(dealer[row], parse_tiles(text), 1)
    flipped = None if indicator is None else np.full(len(texts), kind_id(indicator), np.int64)
    others = dealer[:, :] if non_dealer is None else non_dealer
    return DealtHands(tile_count, dealer, others, flipped, {})


def _hit(hits, key):
    hit, trials = hits[key]
    return hit.tolist() if trials is None else (hit & trials).tolist()


def test_anhua_pair_rule_and_flush():
    """docs/rules/anhua.md 二五八将 and 清一色 乱将 (§anhua-example-2 a and b); the
    flipped 9p makes 1p the kings, held by neither hand."""
    hands = _hands("123m 456p 678s 234s 99m", "123456789m 234m 99m", indicator="9p")
    hits = event_hits("anhua", hands)
    assert _hit(hits, "anhua/k7/dealer/complete_kings") == [False, True]
    assert _hit(hits, "anhua/k7/dealer/standard_258_kings") == [False, False]
    assert _hit(hits, "anhua/face/dealer/complete") == [False, True]
    assert _hit(hits, "anhua/k7/dealer/complete_kings/rank=9") == [False, True]
    assert _hit(hits, "anhua/k7/dealer/complete_kings/rank=1") == [False, False]


def test_anhua_king_stands_in():
    """docs/rules/anhua.md 王可以代替任何一张牌 (§anhua-example-1): the 1s king of a
    flipped 9s is the missing 8m; at face value the hand is not complete."""
    hands = _hands("234m 567p 345s 67m 1s 55m", indicator="9s")
    hits = event_hits("anhua", hands)
    assert _hit(hits, "anhua/k7/dealer/complete_kings") == [True]
    assert _hit(hits, "anhua/k7/dealer/standard_258_kings") == [True]
    assert _hit(hits, "anhua/face/dealer/complete") == [False]
    assert _hit(hits, "anhua/k7/dealer/kings=1") == [True]


def test_anhua_instant_win_needs_the_four_y_kings():
    """docs/rules/anhua.md 起手四王/七王 (§anhua-instant-king-win, §anhua-example-7): flipped 9s, Y
    = 1s."""
    hands = _hands("1111s 234m 5678p 345s", "111s 999s 234m 56789p", indicator="9s")
    hits = event_hits("anhua", hands)
    assert _hit(hits, "anhua/k7/dealer/instant") == [True, False]
    assert _hit(hits, "anhua/k7/dealer/seven_kings") == [False, False]
    assert _hit(hits, "anhua/k7/dealer/kings=6") == [False, True]
    counted = event_hits("anhua", hands, {"tiers": "count"})
    assert _hit(counted, "anhua/k7/dealer/instant") == [True, True]
    assert _hit(counted, "anhua/k4/dealer/instant") == [True, False]


def test_wengan_tian_hu_and_ding_que():
    """docs/rules/wengan.md 天胡, 定缺 (二、三人的玩法中，需要定缺才能叫胡牌), 原缺."""
    hands = _hands("11m 22m 33m 44p 55p 66p 77p", "11m 22m 33m 44p 55p 66s 77s")
    hits = event_hits("wengan", hands)
    assert _hit(hits, "wengan/dealer/tian_hu/p4") == [True, True]
    assert _hit(hits, "wengan/dealer/tian_hu/p3") == [True, False]
    assert _hit(hits, "wengan/dealer/tian_hu/p2") == [True, False]
    assert _hit(hits, "wengan/dealer/yuan_que") == [True, False]


def test_anqing_thirteen_unrelated_with_seven_stars():
    """docs/rules/anqing.md 十三烂, 七星归位 (§anqing-example-4); flipped 5p, 钻 6p."""
    hands = _hands("147m 39p 28s E S W N RD GD WD", tile_count=136, indicator="5p")
    hits = event_hits("anqing", hands)
    assert _hit(hits, "anqing/dealer/thirteen") == [True]
    assert _hit(hits, "anqing/dealer/seven_stars") == [True]
    assert _hit(hits, "anqing/dealer/class1") == [False]
    assert _hit(hits, "anqing/dealer/complete") == [True]


def test_anqing_seven_stars_and_a_wind_zuan():
    """七星归位: a 钻 may stand for its own honour face (没有顶替其他牌的钻), not for another.
    Flipped N makes E the 钻: the E tile stands for itself, the second E stands in for 7s."""
    stars = _hands("147m 39p 2s E E S W N RD GD WD", tile_count=136, indicator="N")
    hits = event_hits("anqing", stars)
    assert _hit(hits, "anqing/dealer/thirteen") == [True]
    assert _hit(hits, "anqing/dealer/seven_stars") == [True]
    missing_wd = _hands("147m 39p 28s E E S W N RD GD", tile_count=136, indicator="N")
    hits = event_hits("anqing", missing_wd)
    assert _hit(hits, "anqing/dealer/thirteen") == [True]  # the second E fills the WD slot
    assert _hit(hits, "anqing/dealer/seven_stars") == [False]


def test_anqing_class_one_reading():
    """docs/rules/anqing.md: 红中代替钻牌本身的那张牌 (flipped 6m, 钻 7m: 红中 is a 7m),
    发财/白板 are 杠牌 and block the win; a 钻 pairs a natural in 七小对 (§anqing-example-3)."""
    hands = _hands(
        "123m 456m 89m RD 234p 55s",  # 红中 is the 7m of 789m
        "11m 22m 33m 44p 55p 66s GD GD",  # a pair of 杠牌
        "11m 44p 77s E E N N 99m 3s 7m",  # the 7m 钻 pairs the 3s
        tile_count=136,
        indicator="6m",
    )
    hits = event_hits("anqing", hands)
    assert _hit(hits, "anqing/dealer/class1") == [True, False, True]
    assert _hit(hits, "anqing/dealer/class1_no_zuan") == [True, False, False]
    assert _hit(hits, "anqing/dealer/zuan=1") == [False, False, True]


def test_generic_one_suit():
    hands = _hands("111222333m 456m 99m", "111m 222p 333s 456m 99m", tile_count=136)
    hits = event_hits("generic", hands)
    assert _hit(hits, "t136/dealer/standard") == [True, True]
    assert _hit(hits, "t136/dealer/standard/one_suit") == [True, False]
    assert _hit(hits, "t136/dealer/standard_258/one_suit") == [False, False]


def test_only_limits_the_keys():
    hands = _hands("123m 456p 678s 234s 99m", indicator="9p")
    hits = event_hits("anhua", hands, only=("anhua/face",))
    assert hits and all(key.startswith("anhua/face") for key in hits)
    with pytest.raises(ValueError, match="unknown variant"):
        event_hits("riichi", hands)


# ---------------------------------------------------------------------------------------------
# simulate and compare


@pytest.mark.parametrize("variant", ["generic", "anhua", "wengan", "anqing"])
def test_simulate_estimates_every_exact_event(variant):
    estimates = simulate(variant, 1_500, seed=2, chunk_size=1_000)
    keys = {event.key for event in exact_events(variant)}
    assert set(estimates) == keys
    for key, estimate in estimates.items():
        if "rank=" not in key:
            assert estimate.trials == 1_500
    if variant == "anhua":
        ranks = [estimates[f"anhua/k7/dealer/complete_kings/rank={r}"].trials for r in range(1, 10)]
        assert sum(ranks) == 1_500 and min(ranks) > 0


def test_simulate_is_reproducible():
    first = simulate("wengan", 3_000, seed=5)
    assert first == simulate("wengan", 3_000, seed=5)
    assert first != simulate("wengan", 3_000, seed=6)
    with pytest.raises(ValueError, match="at least 1"):
        simulate("wengan", 0, seed=5)


def test_compare_needs_every_estimate():
    events = exact_events("wengan", {"players": "4"})
    estimates = {event.key: Estimate(event.key, 1, 10) for event in events}
    rows = compare(events, estimates)
    assert len(rows) == len(events)
    del estimates[events[0].key]
    with pytest.raises(ValueError, match="no estimate"):
        compare(events, estimates)


# ---------------------------------------------------------------------------------------------
# Command line


def test_deal_command_prints_estimates_beside_exact_values(capsys):
    assert main(["deal", "wengan", "--hands", "4000", "--seed", "1", "--set", "players=4"]) == 0
    out = capsys.readouterr().out
    assert "of 4 exact values inside their 0.95 intervals" in out
    exact_tian_hu = exact_events("wengan", {"players": "4"})[0].value
    assert f"{exact_tian_hu:.3e}" in out
    assert "/4000" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["deal", "wengan", "--hands", "0"], "--hands must be at least 1"),
        (["deal", "anqing", "--hands", "10", "--set", "kings=4"], "unknown key 'kings'"),
        (["deal", "anhua", "--hands", "10", "--seed", "-1"], "--seed must be 0 or more"),
        (["deal", "anhua", "--hands", "10", "--confidence", "2"], "confidence"),
    ],
)
def test_deal_command_errors_are_one_line(capsys, argv, message):
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert message in captured.err
    assert captured.err.count("\n") == 1


def test_deal_help_explains_the_flags(capsys):
    with pytest.raises(SystemExit):
        main(["deal", "--help"])
    out = capsys.readouterr().out
    for flag in ("--hands", "--seed", "--set", "--confidence"):
        assert flag in out
    assert "example" in out
