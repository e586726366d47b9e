"""The Anhua worked examples §anhua-example-1 to §anhua-example-7: patterns,
eligibility, payments.

Rules: docs/rules/anhua.md. In every example the indicator is 9s: the kings are
9s (X, three copies) and 1s (Y, four copies); winner seat 0 and dealer seat 2 unless stated.
These tests check scoring and settlement; the engine tests play the same states through the
engine once it lands.
"""

from __future__ import annotations

import numpy as np
import pytest

from sim.core.tiles import kind_id, parse_hand
from sim.variants import anhua as A

INDICATOR = kind_id("9s")


def concealed(text: str) -> np.ndarray:
    hand = parse_hand(text)
    return (hand.counts + hand.wild_faces).astype(np.int64)


def scored(text, how, **options):
    features = A.score(
        concealed(text), indicator=INDICATOR, how=how, options=A.AnhuaOptions(**options)
    )
    return features


def tiles(text: str) -> list[int]:
    return [kind_id(token) for token in text.split()]


AH1 = "234m 567p 345s 67m 1s* 55m"


def test_ah1_single_king_self_draw_birds():
    """§anhua-example-1: 单王平胡 自摸, 抓鸟 on the winner and on a payer (source: 平胡, 抓鸟)."""
    features = scored(AH1, "self_draw")
    assert A.pattern_name(features) == "平胡" and A.points(features) == 2
    delta = A.settle([(0, 2)], payer=None, birds=tiles("5p 3m"), dealer=2)
    assert delta == [16, -4, -8, -4]


def test_ah1_loose_king_cannot_win_on_a_discard():
    """§anhua-example-1: 手中有单王 ... 不能接炮 (source: 单王 may not win on an ordinary
    discard)."""
    assert scored(AH1, "discard") is None


def test_ah1_dealer_bonus():
    """§anhua-example-1 with 庄闲分 (source: 庄闲分, 涉及到庄家的算输赢都+1分)."""
    options = A.AnhuaOptions(dealer_bonus=True)
    delta = A.settle([(0, 2)], payer=None, birds=tiles("5p 3m"), dealer=2, options=options)
    assert delta == [17, -4, -9, -4]


def test_ah2a_non_258_pair_is_not_a_win():
    """§anhua-example-2: 二五八将 — a 9m pair, not flush, not seven pairs, does not win (source:
    二五八将)."""
    for how in ("self_draw", "discard"):
        assert scored("123m 456p 678s 234s 99m", how) is None


def test_ah2b_flush_allows_any_pair():
    """§anhua-example-2: 清一色 可乱将; 硬庄清一色 双大胡 on a discard (source: 乱将,
    硬庄清一色)."""
    features = scored("123m 456m 789m 234m 99m", "discard")
    assert A.pattern_name(features) == "硬庄清一色" and A.tier_name(features) == "双大胡"
    assert A.points(features) == 8
    assert A.settle([(0, 8)], payer=3, birds=tiles("2m 7p"), dealer=2) == [8, 0, 0, -8]


def test_ah3_seven_pairs_with_a_quad():
    """§anhua-example-3: 硬庄小七对 with four 3m as two pairs, won on seat 1's discard (source:
    小七对)."""
    hand = "3333m 55p 77p 22s 66s 88m"
    features = scored(hand, "discard")
    assert A.pattern_name(features) == "硬庄小七对" and A.points(features) == 8
    assert A.settle([(0, 8)], payer=1, birds=tiles("2s 4m"), dealer=2) == [16, -16, 0, 0]
    assert scored(hand, "discard", seven_pairs_allow_quad=False) is None


AH4 = "1s* 23s 456m 789p 345m 55s"


def test_ah4_king_as_itself_off():
    """§anhua-example-4: 王代硬 off — the 1s king is a king: 单王平胡, self-draw only (source:
    王代硬)."""
    features = scored(AH4, "self_draw")
    assert A.pattern_name(features) == "平胡" and A.points(features) == 2
    assert A.settle([(0, 2)], payer=None, birds=tiles("2p 3s"), dealer=2) == [10, -4, -4, -2]
    assert scored(AH4, "discard") is None


def test_ah4_king_as_itself_on():
    """§anhua-example-4: 王代硬 on — 一万为王,顺子一二三万中一万王仍然算硬张: 硬庄 大胡 (source:
    王代硬)."""
    features = scored(AH4, "self_draw", king_as_itself_is_hard=True)
    assert A.pattern_name(features) == "硬庄" and A.points(features) == 4
    assert A.settle([(0, 4)], payer=None, birds=tiles("2p 3s"), dealer=2) == [20, -8, -8, -4]
    on_discard = scored(AH4, "discard", king_as_itself_is_hard=True)
    assert A.points(on_discard) == 4
    assert A.settle([(0, 4)], payer=3, birds=tiles("2p 3s"), dealer=2) == [4, 0, 0, -4]


def test_ah4_king_as_itself_only_for_the_score():
    """王代硬 with king_as_itself_affects_eligibility off: the score is hard, but the physical
    king still bars a discard win (§anhua-king-as-itself option)."""
    options = {"king_as_itself_is_hard": True, "king_as_itself_affects_eligibility": False}
    assert A.points(scored(AH4, "self_draw", **options)) == 4
    assert scored(AH4, "discard", **options) is None


AH5A = "9s* 9s* 9s* 234m 567p 678s 22p"
AH5B = "9s* 1s* 1s* 234m 567p 678s 22p"


def test_ah5a_three_identical_kings():
    """§anhua-example-5: 三王 大胡; heavy hands may not rob or win a kong cannon (source: 三王)."""
    features = scored(AH5A, "self_draw")
    assert A.pattern_name(features) == "三王" and A.points(features) == 4
    assert A.settle([(0, 4)], payer=None, birds=tiles("9p 5m"), dealer=2) == [48, -16, -16, -16]
    for how in ("discard", "rob_kong", "kong_cannon"):
        assert scored(AH5A, how) is None


def test_ah5b_three_loose_kings():
    """§anhua-example-5: 9s* 1s* 1s* form no identical group: 单王 小胡; may rob (source: 单王,
    抢杠胡)."""
    features = scored(AH5B, "self_draw")
    assert A.pattern_name(features) == "平胡" and A.points(features) == 2
    assert A.settle([(0, 2)], payer=None, birds=tiles("9p 5m"), dealer=2) == [24, -8, -8, -8]
    assert scored(AH5B, "rob_kong") is not None


def test_ah5b_count_mode():
    """§anhua-example-5 with king_tier_mode = count: three kings are 三王 and may not rob."""
    features = scored(AH5B, "self_draw", king_tier_mode="count")
    assert A.pattern_name(features) == "三王" and A.points(features) == 4
    assert scored(AH5B, "rob_kong", king_tier_mode="count") is None


def test_ah6_kong_cannon_paid_by_the_konger():
    """§anhua-example-6: 硬庄杠上炮 双大胡, the konger pays, a bird on the konger hits (source:
    杠上炮)."""
    features = scored("22m 345p 678p 456m 78s 6s", "kong_cannon")
    assert A.pattern_name(features) == "硬庄杠上炮" and A.points(features) == 8
    assert A.settle([(0, 8)], payer=1, birds=tiles("6p 8m"), dealer=2) == [16, -16, 0, 0]


def test_ah7_instant_four_kings():
    """§anhua-example-7: 起手四王 — 小胡 self-draw (source: 四王七王直接胡牌, 为小胡自摸)."""
    features = A.score(
        concealed("1s* 1s* 1s* 1s* 2m 3m 7p 8p 9p 4s 4s 6m 6m 9m"),
        indicator=INDICATOR,
        how="instant",
    )
    assert A.points(features) == 2
    assert A.settle([(0, 2)], payer=None, birds=tiles("1m 6s"), dealer=0) == [16, -8, -4, -4]
    bonus = A.AnhuaOptions(dealer_bonus=True)
    delta = A.settle([(0, 2)], payer=None, birds=tiles("1m 6s"), dealer=0, options=bonus)
    assert delta == [19, -9, -5, -5]


def test_ah7_declined_four_kings_score_at_least_four_kings():
    """§anhua-example-7: holding all four 1s kings, a later legal win is at least 四王平胡 (B = 2, P
    = 8)."""
    features = scored("1s* 1s* 1s* 1s* 234m 567p 55m 78m", "self_draw")
    assert features is not None and A.bigs(features) >= 2


@pytest.mark.parametrize(
    ("bird_count", "birds", "expected"),
    [
        (1, "9m", [4, 0, 0, -4]),  # rank 9: offset 8 = the winner
        (4, "1m 5p 4s 8s", [32, 0, 0, -32]),  # 1/5 winner, 4/8 previous seat = the discarder
    ],
)
def test_bird_counts(bird_count, birds, expected):
    """抓鸟: each hit on the winner or the discarder doubles (source: 抓一只鸟/四只鸟)."""
    options = A.AnhuaOptions(bird_count=bird_count)
    assert A.settle([(0, 2)], payer=3, birds=tiles(birds), dealer=2, options=options) == expected


def test_three_players_bird_seats():
    """三人玩: 1/4/7 winner, 2/5/8 next, 3/6/9 previous (source: 抓鸟)."""
    options = A.AnhuaOptions(player_count=3)
    assert A.settle([(0, 2)], payer=None, birds=tiles("2m"), dealer=1, options=options) == [
        6,
        -4,
        -2,
    ]


def test_several_winners_each_count_the_birds():
    """一炮多响: the discarder pays each winner; the same birds count from each winner."""
    delta = A.settle([(0, 4), (2, 8)], payer=1, birds=tiles("1m"), dealer=3)
    # 1m lands on each winner himself: each payment doubles once
    assert delta == [8, -24, 16, 0]


def test_king_as_itself_is_a_choice_that_never_lowers_the_score():
    """王代硬 (source: 王代硬, 一万为王,顺子一二三万中一万王仍然算硬张): a king standing for its own
    face *may* count as hard. Three 2s kings (Y, four-kings mode) with 1s 3s need one of them as
    2s; counting it hard would leave two loose kings (平胡), keeping all three as kings is 三王
    (§anhua-reading-king-as-itself-is-a-choice)."""
    hand = concealed("11p 2p 3333p 1s 3s 88s 2s* 2s* 2s*")
    indicator = kind_id("1s")  # four kings: the 2s
    # without quads in seven pairs, so the hand is only a standard hand
    four = A.AnhuaOptions(king_mode="four_kings", seven_pairs_allow_quad=False)
    four_hard = A.AnhuaOptions(
        king_mode="four_kings", seven_pairs_allow_quad=False, king_as_itself_is_hard=True
    )
    off = A.score(hand, indicator=indicator, how="self_draw", options=four)
    on = A.score(hand, indicator=indicator, how="self_draw", options=four_hard)
    assert A.pattern_name(off) == "三王" and A.pattern_name(on) == "三王"


def test_king_as_itself_never_lowers_bigs_on_random_hands():
    """王代硬 on is never worth less than off, for any hand and way of winning."""
    rng = np.random.default_rng(12)
    import strategies as S

    counts, wilds = S.near_complete_batch(rng, 400, 14, max_wilds=4, honours=False)
    for row, w in zip(counts, wilds, strict=True):
        hand = row.astype(np.int64).copy()
        hand[A.kings_of(INDICATOR)[1]] = 0
        hand[INDICATOR] = 0
        hand[kind_id("1s")] = min(int(w), 4)
        if hand.sum() != 14:
            continue
        for how in ("self_draw", "discard", "rob_kong"):
            off = A.score(hand, indicator=INDICATOR, how=how)
            on = A.score(
                hand,
                indicator=INDICATOR,
                how=how,
                options=A.AnhuaOptions(king_as_itself_is_hard=True),
            )
            if off is not None:
                assert on is not None and A.bigs(on) >= A.bigs(off)
