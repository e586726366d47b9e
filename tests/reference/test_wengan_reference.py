"""The Weng'an reference settlement against every worked example of the rules reference
(§wengan-example-1 to §wengan-example-8) and the variants they state, plus properties.

Rules: docs/rules/wengan.md (贵州瓮安麻将); each test names the rule it checks.
Default options unless a test says otherwise: 4 players, dealer seat 0, streak 0.
"""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from sim.core.tiles import parse_tiles
from sim.variants.wengan import WenganOptions

from .wengan import (
    EIGHT_P,
    KONG_KINDS,
    ONE_P,
    ONE_S,
    Discard,
    HandEnd,
    Meld,
    Seat,
    Win,
    best_pattern,
    charging_discards,
    check,
    chicken_value,
    discard_win_allowed,
    hits,
    is_ready,
    next_deal,
    responsibilities,
    settle,
)

NOBODY = Seat()  # tiles not shown, not ready, no chicken tiles


def opts(**values) -> WenganOptions:
    return WenganOptions(**values)


def deltas(end: HandEnd, **options) -> list[int]:
    if options:
        end = dataclasses.replace(end, options=opts(**options))
    return list(settle(end).deltas)


def kind(text: str) -> int:
    return parse_tiles(text)[0]


# ------------------------------------------------------------------------------ §wengan-example-1

WA1_NO_DOU = Seat("234m 567p 345s 78m 55s")
WA1_WITH_DOU = Seat("234m 345s 78m 55s", (Meld("men_dou", "6p"),))


def test_wa1a_ping_hu_without_passport_may_not_win_a_discard():
    """§wengan-example-1, 平胡点炮胡需要通行证 (source:
    平胡点炮胡需要通行证（还有特殊情况下，去掉这个限制）): a 平胡 with no dou may not win seat 3's
    9m; it may in the exceptions 热炮 and 杀听, and by self-draw; having had no legal win, nothing
    locks (过胡限制 needs 能胡，选择了过)."""
    assert not discard_win_allowed(WA1_NO_DOU, "平胡", opts())
    assert discard_win_allowed(WA1_NO_DOU, "平胡", opts(), hot_cannon=True)
    assert discard_win_allowed(WA1_NO_DOU, "平胡", opts(), discarder_bao_ting=True)
    assert discard_win_allowed(WA1_NO_DOU, "平胡", opts(ping_hu_ron_needs_passport=False))
    seats = (NOBODY, WA1_NO_DOU, NOBODY, NOBODY)
    with pytest.raises(ValueError, match="通行证"):
        settle(HandEnd(seats, (Win(1, "9m", "discard", 3),), wall="2p"))
    self_draw = settle(HandEnd(seats, (Win(1, "9m", "self_draw"),), wall="2p"))
    assert list(self_draw.deltas) == [-1, 3, -1, -1]


def test_wa1b_a_dou_is_the_passport():
    """§wengan-example-1, 通行证 read as a dou (source: 地胡 ... 此时可以无豆平胡) and 闷豆 (source:
    闷豆 ... 其他玩家每人付2分): seat 3 pays the 平胡 1, the 闷豆 earns 2 from each."""
    seats = (NOBODY, WA1_WITH_DOU, NOBODY, NOBODY)
    end = HandEnd(seats, (Win(1, "9m", "discard", 3),), wall="2p")
    assert deltas(end) == [-2, 7, -2, -3]


# ------------------------------------------------------------------------------ §wengan-example-2

WA2 = HandEnd(
    (NOBODY, NOBODY, Seat("555p 11s 33m 77m 99p 22s"), NOBODY),
    (Win(2, "5p", "self_draw"),),
    wall="9s",
)
WA2_ON_2S = dataclasses.replace(
    WA2,
    seats=(NOBODY, NOBODY, Seat("5555p 11s 33m 77m 99p 2s"), NOBODY),
    wins=(Win(2, "2s", "self_draw"),),
)


def test_wa2_long_qi_dui_with_two_gold_chickens():
    """§wengan-example-2, 龙七对 20分 (source: 七对中必有一对是刻子) and 金鸡 (source:
    翻牌鸡翻中幺鸡 ... 每只鸡+2分): the flip 9s designates 1s (9 wraps) and 9s (本鸡); each 1s is
    worth 3."""
    assert deltas(WA2) == [-26, -26, 78, -26]


def test_wa2_won_on_another_tile_is_seven_pairs_unless_the_option_is_off():
    """§wengan-example-2 variant, 龙七对 (source: 七对中必有一对是刻子;
    §wengan-reading-long-qi-dui-winning-tile): won on 2s with the four 5p held, it is 七对 5; with
    long_qi_dui_win_on_quad off it is 龙七对 20 again."""
    assert deltas(WA2_ON_2S) == [-11, -11, 33, -11]
    assert deltas(WA2_ON_2S, long_qi_dui_win_on_quad=False) == [-26, -26, 78, -26]


def test_wa2_flush_dragon_seven_pairs():
    """§wengan-example-2 variant, 青龙背 30分 (source: 龙七对+清一色叠加): all dots, no chicken
    held."""
    end = dataclasses.replace(WA2, seats=(NOBODY, NOBODY, Seat("555p 11p 33p 77p 99p 22p"), NOBODY))
    assert deltas(end) == [-30, -30, 90, -30]


def test_wa2_without_the_flip_the_flip_options_do_nothing():
    """§wengan-chicken-flip test, 本鸡 (source: 翻出来的那张也是鸡牌) presupposes the flip: with
    翻牌鸡 off (本鸡 and 金鸡 still on) the two 1s are worth 1 each."""
    assert deltas(WA2, fan_pai_ji=False) == [-22, -22, 66, -22]


# ------------------------------------------------------------------------------ §wengan-example-3

WA3_MELDS = (
    Meld("pong", "3m", 1),
    Meld("pong", "7p", 0),
    Meld("pong", "9s", 1),
    Meld("dian_dou", "4s", 3),
)
WA3 = HandEnd(
    (NOBODY, NOBODY, Seat("6m", WA3_MELDS), NOBODY),
    (Win(2, "6m", "discard", 0),),
    wall="5s",
)


def test_wa3_dan_diao_four_melds():
    """§wengan-example-3, 单吊 10分 (source: 单吊 单吊将牌; §wengan-reading-dan-diao-four-melds four
    melds) and 点豆 (source: 点豆者向 接豆者付1分): seat 0 pays 10, seat 3 pays the 点豆 1."""
    assert deltas(WA3) == [-10, 0, 11, -1]


def test_wa3_flush_dan_diao_with_flip_chickens():
    """§wengan-example-3 variant, 清单吊 20分 (source: 清一色+单吊): the flip 5s makes the two 6s
    chickens."""
    melds = (
        Meld("pong", "3s", 1),
        Meld("pong", "7s", 0),
        Meld("pong", "9s", 1),
        Meld("dian_dou", "4s", 3),
    )
    end = HandEnd(
        (NOBODY, NOBODY, Seat("6s", melds), NOBODY), (Win(2, "6s", "discard", 0),), wall="5s"
    )
    assert deltas(end) == [-22, -2, 27, -3]


def test_dan_diao_any_pair_wait():
    """§wengan-hand-forms test, 单吊 (source: 单吊 单吊将牌): with any_pair_wait a self-drawn 9p
    pairing the single 9p is 单吊 10 (平胡 1 by default); seven pairs stay 七对 5."""
    seat = Seat("234m 567p 345s 678m 9p")
    win = Win(0, "9p", "self_draw")
    assert best_pattern(seat, win, 4, opts()) == "平胡"
    assert best_pattern(seat, win, 4, opts(dan_diao_definition="any_pair_wait")) == "单吊"
    pairs = Seat("11m 33m 55p 77p 99p 22s 4s")
    on_4s = Win(0, "4s", "self_draw")
    assert best_pattern(pairs, on_4s, 4, opts(dan_diao_definition="any_pair_wait")) == "七对"


# ------------------------------------------------------------------------------ §wengan-example-4

WA4_SEAT1 = Seat("123p 567s 789m 2s", (Meld("pong", "1s", 3),), ready=True)
WA4_SEAT2 = Seat("1m 9m 1p 9p 9s 2m 5m 8m 2p 6p 8p 3s 6s", ready=False)
WA4_SEAT3 = Seat("123m 456m 789p 22s 33s", ready=True)
WA4 = HandEnd(
    (Seat("234m 678p 345s 678m 9p"), WA4_SEAT1, WA4_SEAT2, WA4_SEAT3),
    (Win(0, "9p", "self_draw"),),
    wall="4p",
    discards=(Discard(3, "1s", claimed_by=1), Discard(2, "1s")),
)


def test_wa4_responsibility_and_bao_ji():
    """§wengan-example-4, 责任鸡 (source:
    冲锋鸡被碰走后，按普通幺鸡计算，且被碰的玩家要给碰鸡玩家鸡分) and 包鸡 (source:
    当玩家没有听牌，需对打出或者碰触的幺鸡或者乌骨鸡进行包鸡): seat 1's pong earns 3 from each and 1
    from seat 3; non-ready seat 2 pays its discarded 1s to each, the winner too."""
    settlement = settle(WA4)
    assert list(settlement.deltas) == [1, 10, -7, -4]
    assert settlement.total("responsibility") == 1
    assert settlement.total("bao_ji") == 3


def test_wa4_unclaimed_first_1s_is_the_charging_chicken():
    """§wengan-example-4 variant, 冲锋鸡 (source: 第一只打出的幺鸡没有被碰杠 2分): nobody pongs seat
    3's 1s, so it is worth 2 to ready seat 3 from each player (seat 1 holds other tiles, no 1s).
    Derived: seat 0 +3 - 2 + 1 = +2; seat 1 -1 - 2 + 1 = -2; seat 2 -1 - 2 - 3 = -6; seat 3 -1 + 6 +
    1."""
    seat1 = Seat("123p 567s 789m 777s 2s", ready=True)
    end = dataclasses.replace(
        WA4,
        seats=(WA4.seats[0], seat1, WA4_SEAT2, WA4_SEAT3),
        discards=(Discard(3, "1s"), Discard(2, "1s")),
    )
    settlement = settle(end)
    assert [i.amount for i in settlement.items if i.kind == "chicken" and i.payee == 3] == [2] * 3
    assert list(settlement.deltas) == [2, -2, -6, 6]


@pytest.mark.parametrize(
    ("counts_claimed", "expected"), [(False, [4, 13, -16, -1]), (True, [3, 12, -13, -2])]
)
def test_wa4_charging_4321(counts_claimed, expected):
    """§wengan-example-4 variant, 冲锋鸡4321 (source:
    所有且打出未被碰杠的幺鸡，按幺鸡出现牌桌的先后顺序 4-3-2-1分;
    也只有第一只冲锋鸡被碰才产生责任鸡): seat 2's 1s is the 1st unclaimed (4), or with
    chongfeng_ordinal_counts_claimed the 2nd 1s discarded (3); 包鸡 pays that value."""
    options = {"chong_feng_mode": "4321", "chongfeng_ordinal_counts_claimed": counts_claimed}
    assert deltas(WA4, **options) == expected


def test_wa4_bao_reaches_non_ready_players_unless_bao_requires_ready():
    """§wengan-example-4 last variant, 包鸡 (source: 如果是收所有玩家的鸡分，则反给所有玩家;
    §wengan-reading-bao-recipients): seat 3 not ready still receives seat 2's 包鸡, except with
    bao_requires_ready."""
    seat3 = Seat("123m 456m 789p 2s 3s 5s 7s", ready=False)
    end = dataclasses.replace(WA4, seats=(*WA4.seats[:3], seat3))
    assert deltas(end) == [1, 10, -7, -4]
    assert deltas(end, bao_requires_ready=True) == [1, 10, -6, -5]


# ------------------------------------------------------------------------------ §wengan-example-5

WA5_READY = Seat("123p 456s 567p 1m", (Meld("dian_dou", "6m", 1),), ready=True)
WA5_NOT_READY = Seat("123p 456s 57p 1m 9m", (Meld("dian_dou", "6m", 1),), ready=False)
WA5 = HandEnd(
    (Seat("34p 789p 234s 789s 99m"), NOBODY, NOBODY, WA5_READY),
    (Win(0, "2p", "discard", 3),),
    wall="3m",
    hot_cannon=True,
)


def test_wa5_hot_cannon_burns_the_dou():
    """§wengan-example-5, 热炮 (source: 杠后打出的第一张牌给其他玩家点炮 ...
    放热炮玩家另外再给接炮玩家1分) and 热炮烧豆 (source: 被热炮的玩家得分的豆分都不算): seat 3 pays
    1 + 1; his 点豆 earns nothing."""
    assert deltas(WA5) == [2, 0, 0, -2]


def test_wa5_without_the_burn_the_dou_counts():
    """§wengan-example-5 variant, 热炮烧豆 off: seat 1 pays seat 3 the 点豆's 1."""
    assert deltas(WA5, re_pao_shao_dou=False) == [2, -1, 0, -1]


def test_wa5_a_burned_player_not_ready_still_pays_bao_gang():
    """§wengan-example-5 variant, 热炮烧豆 (source: 但是输的依然算分) and 包杠 (source:
    不听牌的玩家需要包自己手中本来 算分的杠分 ... 如果是针对某一个的，则只给某一个): seat 3 pays
    seat 1 the 1."""
    end = dataclasses.replace(WA5, seats=(*WA5.seats[:3], WA5_NOT_READY))
    assert deltas(end) == [2, 1, 0, -3]


# ------------------------------------------------------------------------------ §wengan-example-6

WA6 = HandEnd(
    (
        Seat("123456789p 22p 56p", ready=True),
        Seat("234567m 34567s 99m", ready=True),
        Seat("11m 88m 99s 1p 9p 2s 8s 4p 7p 3m", ready=False),
        Seat("5m 9m 1p 4p 8p 3p 7p 2s 5s 8s 6s 9s 7m", ready=False),
    ),
    dealer=2,
)


def test_wa6_cha_jiao():
    """§wengan-example-6, 荒庄查叫 (source: 未听牌玩家要分别包听牌玩家最大可胡番数的牌型分数): seats
    2 and 3 pay seat 0 its 清一色 10 and seat 1 its 平胡 1."""
    assert deltas(WA6) == [20, 2, -11, -11]


@pytest.mark.parametrize("mode", ["lian_zhuang", "yi_kou_er"])
def test_wa6_dealer_bonus_in_cha_jiao(mode):
    """§wengan-example-6 variant, 连庄 / 一口二 (source: 在查叫过程中连庄也生效): the dealer, seat
    2, with n = 1 pays 1 more on each 查叫 payment; 一口二 gives the same."""
    end = dataclasses.replace(WA6, streak=1, options=opts(dealer_bonus_mode=mode))
    assert deltas(end) == [21, 3, -13, -11]


WA6_CHARGING_AT_3 = dataclasses.replace(WA6, discards=(Discard(3, "1s"),))
WA6_CHARGING_AT_1 = dataclasses.replace(WA6, discards=(Discard(1, "1s"),))


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"huang_zhuang_burn": False},
        {"huang_zhuang_burn_scope": "non_ready_only"},
    ],
)
def test_wa6_a_charging_chicken_of_a_non_ready_player_counts_for_nothing(options):
    """§wengan-example-6 variant, 荒庄烧鸡烧豆 / 荒庄不包鸡包豆 (source: 荒庄 (2)(3)): seat 3's
    charging 1s is burned, or not collected and not 包'd."""
    assert deltas(WA6_CHARGING_AT_3, **options) == [20, 2, -11, -11]


def test_wa6_bao_on_exhaustive_draw_when_both_rules_are_off():
    """§wengan-example-6 variant, 荒庄不包鸡包豆 off (source: 荒庄 (3)) with the burn off: seat 3
    包s its charging 1s, 2 to each (to the ready seats only with bao_requires_ready)."""
    options = {"huang_zhuang_burn": False, "huang_zhuang_no_bao": False}
    assert deltas(WA6_CHARGING_AT_3, **options) == [22, 4, -9, -17]
    assert deltas(WA6_CHARGING_AT_3, bao_requires_ready=True, **options) == [22, 4, -11, -15]


@pytest.mark.parametrize(
    "options", [{"huang_zhuang_burn": False}, {"huang_zhuang_burn_scope": "non_ready_only"}]
)
def test_wa6_a_ready_player_collects_on_exhaustive_draw_without_the_full_burn(options):
    """§wengan-example-6 variant, 荒庄查叫 (source: 未听牌玩家的"鸡”、”豆”都不计分): ready seat 1's
    charging 1s earns 2 from each other player (no flip on 荒庄)."""
    assert deltas(WA6_CHARGING_AT_1, **options) == [18, 8, -13, -13]
    assert deltas(WA6_CHARGING_AT_1) == [20, 2, -11, -11]  # burned by default


# ------------------------------------------------------------------------------ §wengan-example-7

WA7_SEAT1 = Seat("345m 678p 234p 567s 8m", bao_ting=True)
WA7_SEAT3 = Seat("234m 567p 23s 678s 55p")
WA7 = HandEnd((NOBODY, WA7_SEAT1, NOBODY, WA7_SEAT3), (Win(3, "4s", "discard", 1),), wall="9m")


def test_wa7_sha_ting_on_a_discard():
    """§wengan-example-7, 杀听 (source:
    当报听者点炮(其他玩家不需要通行证也能接炮平胡报听玩家打出的牌) ... 平胡9分): seat 3's 平胡
    without dou wins seat 1's 4s; seat 1 pays 1 + 9."""
    assert deltas(WA7) == [0, -10, 0, 10]


def test_wa7_bao_ting_self_draw():
    """§wengan-example-7 variant, 报听 (source: 报听 ... 平胡9分 大胡10分): seat 1 self-draws 8m: 1
    + 9 from each."""
    end = dataclasses.replace(WA7, wins=(Win(1, "8m", "self_draw"),))
    assert deltas(end) == [-10, 30, -10, -10]


def test_sha_ting_on_a_self_draw_paid_by_the_declarer_or_every_payer():
    """杀听 on a self-draw (source: 或其他玩家自摸时，则称为“杀听”; §wengan-reading-sha-ting-payer):
    seat 3 self-draws while seat 1 has declared: seat 1 pays the 9, or every payer with
    all_payers."""
    end = dataclasses.replace(WA7, wins=(Win(3, "4s", "self_draw"),))
    assert deltas(end) == [-1, -10, -1, 12]
    assert deltas(end, sha_ting_payer="all_payers") == [-10, -10, -10, 30]


# ------------------------------------------------------------------------------ §wengan-example-8

S = ONE_S


@pytest.mark.parametrize(
    ("tile", "hit", "options", "charging", "value"),
    [
        (S, 0, {}, False, 1),
        (S, 1, {}, False, 3),
        (S, 2, {"qian_hou_fan_ji": True}, False, 5),
        (S, 0, {}, True, 2),
        (S, 1, {}, True, 6),
        (EIGHT_P, 0, {"wu_gu_ji": True}, False, 2),
        (EIGHT_P, 0, {"wu_gu_ji": True}, True, 4),
        (EIGHT_P, 1, {"wu_gu_ji": True}, False, 4),
        (EIGHT_P, 2, {"wu_gu_ji": True}, False, 6),
        (EIGHT_P, 1, {"wu_gu_ji": True}, True, 8),
        (EIGHT_P, 2, {"wu_gu_ji": True}, True, 12),
        (ONE_P, 1, {"quan_qing_yao": True}, False, 2),
        (kind("4m"), 1, {}, False, 1),
        (kind("4m"), 2, {"qian_hou_fan_ji": True}, False, 2),
        (kind("3m"), 0, {"xing_qi_ji": True}, False, 1),
    ],
)
def test_wa8_single_chicken_values(tile, hit, options, charging, value):
    """§wengan-example-8, the text's own numbers (source: 乌骨鸡 ... 普通乌骨鸡2分 冲锋乌骨鸡4分 ...
    金乌骨鸡4分 （翻中两次6分） 冲锋金乌骨鸡8分 （翻中2次12分）; 金鸡 每只鸡+2分，翻中两次+4分;
    全清幺 翻中1次+2分; 欢乐鸡 每一张1分)."""
    assert chicken_value(tile, hit, opts(**options), charging=charging) == value


def test_wa8_responsibility_for_8p_is_2():
    """§wengan-example-8, 责任乌骨鸡2分 (source: 乌骨鸡): a ponged first 8p makes its discarder pay
    2."""
    claimer = Seat(None, (Meld("pong", "8p", 2),))
    end = HandEnd(
        (NOBODY, claimer, NOBODY, NOBODY),
        discards=(Discard(2, "8p", claimed_by=1),),
        options=opts(wu_gu_ji=True),
    )
    assert responsibilities(end) == [(2, 1, 2)]


# Seat 1 pongs the hand's first 1s (from seat 3) and its first 8p (from seat 2), 乌骨鸡 on.
BOTH_CLAIMED_MELDS = (Meld("pong", "1s", 3), Meld("pong", "8p", 2))
BOTH_CLAIMED_SEAT2 = Seat("1m 9m 1p 9p 9s 2m 5m 8m 2p 4p 6p 3s 6s", ready=False)
BOTH_CLAIMED = HandEnd(
    (Seat("234m 567p 345s 678m 9p"), Seat(None, BOTH_CLAIMED_MELDS), BOTH_CLAIMED_SEAT2, WA4_SEAT3),
    (Win(0, "9p", "self_draw"),),
    wall="4p",
    discards=(Discard(3, "1s", claimed_by=1), Discard(2, "8p", claimed_by=1), Discard(2, "1s")),
    options=opts(wu_gu_ji=True),
)


def test_one_claimer_of_both_charging_chickens_collects_both_responsibilities():
    """责任鸡 and 责任乌骨鸡2分 (rules: 责任鸡, 冲锋鸡（乌骨鸡也算）): a seat that pongs the
    hand's first 1s and its first 8p collects 1 from the 1s's discarder and 2 from the 8p's."""
    end = dataclasses.replace(
        BOTH_CLAIMED,
        seats=(
            BOTH_CLAIMED.seats[0],
            Seat(None, BOTH_CLAIMED_MELDS, ready=True),
            *BOTH_CLAIMED.seats[2:],
        ),
    )
    check(end)
    items = settle(end).items
    paid = sorted((i.payer, i.payee, i.amount) for i in items if i.kind == "responsibility")
    assert paid == [(2, 1, 2), (3, 1, 1)]


def test_bao_ji_returns_both_responsibilities():
    """包鸡 (rules: 包鸡, 责任鸡): non-ready seat 1 pays each other seat its melds' chickens,
    3 × 1 for the 1s and 3 × 2 for the 8p (9), and returns each 责任鸡 to its discarder: 1 more
    to seat 3, 2 more to seat 2."""
    check(BOTH_CLAIMED)
    paid_back = Counter()
    for item in settle(BOTH_CLAIMED).items:
        if item.kind == "bao_ji" and item.payer == 1:
            paid_back[item.payee] += item.amount
    assert paid_back == {0: 9, 2: 11, 3: 10}


@pytest.mark.parametrize(("mode", "values"), [("4321", [4, 3, 2, 1]), ("3211", [3, 2, 1, 1])])
def test_wa8_ordinal_charging_values(mode, values):
    """§wengan-example-8, 冲锋鸡4321 / 3211 (source: 按幺鸡出现牌桌的先后顺序 4-3-2-1分 /
    3-2-1-1分)."""
    end = HandEnd(
        (NOBODY,) * 4,
        discards=tuple(Discard(seat, "1s") for seat in range(4)),
        options=opts(chong_feng_mode=mode),
    )
    marks = charging_discards(end)
    assert [chicken_value(S, 0, end.options, **marks[i]) for i in range(4)] == values


# ------------------------------------------------------------------------------ other stated tests


def test_yuan_que_is_fixed_and_not_multiplied():
    """§wengan-ding-que test, 原缺 (source: 若起手就缺门，成为原缺，分数不受影响，固定收每人3分): 3
    players, 底分 2, seat 1 dealt no m: seats 0 and 2 pay it 3 each; nothing with the bonus 0
    or with 4 players."""
    lacking = Seat(dealt_lacking_a_suit=True)
    end = HandEnd((NOBODY, lacking, NOBODY), options=opts(player_count=3, base_stake=2))
    assert deltas(end) == [-3, 6, -3]
    assert deltas(end, player_count=3, base_stake=2, yuan_que_bonus=0) == [0, 0, 0]
    four = HandEnd((NOBODY, lacking, NOBODY, NOBODY))
    assert deltas(four) == [0, 0, 0, 0]


def test_base_stake_multiplies_all_but_yuan_que():
    """底分 (source: 总分=（胡牌牌型分 +杠上花+鸡分+豆分+连庄）*底分): §wengan-example-2 with 底分
    3."""
    assert deltas(WA2, base_stake=3) == [-78, -78, 234, -78]


def test_flip_2s_designates_3s_and_2s_only():
    """§wengan-reading-double-flip-example test, 翻牌鸡 (source: 第一张翻出9条 … 1条为金鸡): under
    the defaults a flip of 2s designates 3s and 2s, so a held 1s is worth 1, not 3 (摇摆鸡 adds
    1s)."""
    end = dataclasses.replace(WA2, wall="2s")
    assert set(hits(end)) == {kind("3s"), kind("2s")}
    assert chicken_value(S, hits(end)[S], end.options) == 1
    swing = dataclasses.replace(end, options=opts(yao_bai_ji=True))
    assert chicken_value(S, hits(swing)[S], swing.options) == 3


def test_8p_without_wu_gu_ji_is_an_ordinary_flip_chicken():
    """§wengan-reading-8p-gold-needs-wu-gu-ji test, 金鸡 (source:
    翻中幺鸡或者8筒，则幺鸡或者八筒为金鸡): 乌骨鸡 off, flip 7p: a held 8p is worth 1 (gold only
    with 乌骨鸡)."""
    end = dataclasses.replace(WA2, wall="7p")
    assert chicken_value(EIGHT_P, hits(end)[EIGHT_P], end.options) == 1
    with_wu_gu = opts(wu_gu_ji=True)
    assert chicken_value(EIGHT_P, 1, with_wu_gu) == 4


def test_rob_kong_the_robbed_player_pays_one_share():
    """§wengan-reading-robbed-player-pays-one-share test, 抢杠 (source:
    小胡9分，大胡10分（不包其他玩家的输分）): a 平胡 robs seat 2's 爬坡豆 (left a pong): seat 2 pays
    1 + 9, the others nothing."""
    robbed = Seat(None, (Meld("pong", "5m", 1),))
    end = HandEnd(
        (Seat("34m 678p 234s 789s 99p"), NOBODY, robbed, NOBODY),
        (Win(0, "5m", "rob_kong", 2),),
        wall="1m",
    )
    assert deltas(end) == [10, 0, -10, 0]


def test_next_deal_streak():
    """§wengan-dealer-bonus test, 连庄 (source: 庄家每连续胡牌): a dealer who won one hand (n 0 ->
    1) then had a 荒庄 plays on with n = 1, or 2 with lian_zhuang_counts_draws."""
    won = dataclasses.replace(WA2, dealer=2)
    assert next_deal(won) == (2, 1)
    draw = dataclasses.replace(WA6, dealer=2, streak=1)
    assert next_deal(draw) == (2, 1)
    assert next_deal(dataclasses.replace(draw, options=opts(lian_zhuang_counts_draws=True))) == (
        2,
        2,
    )
    assert next_deal(WA3) == (2, 0)


def test_next_deal_after_one_discard_won_by_several():
    """定庄 (source: ②一炮双响情况，从点炮玩家起逆时针第一位胡牌玩家坐庄 ...
    ④一炮全响情况，点炮者坐庄 （优先级最高）): two winners -> the first after the discarder; all
    three -> the discarder, his streak back to 0."""
    winner = Seat("234m 567p 345s 678m 9p")
    seats = (winner, Seat("234m 567p 345s 678m 9p"), NOBODY, Seat("234s 567m 345p 678s 9p"))
    two = HandEnd(seats, tuple(Win(s, "9p", "discard", 2) for s in (0, 1)), wall="1m")
    two = dataclasses.replace(two, options=opts(ping_hu_ron_needs_passport=False))
    assert next_deal(two) == (0, 1)
    three = dataclasses.replace(
        two, wins=tuple(Win(s, "9p", "discard", 2) for s in (0, 1, 3)), dealer=2, streak=2
    )
    assert next_deal(three) == (2, 0)


# ------------------------------------------------------------------------------ properties

OPTION_CHOICES = {
    "player_count": [4, 3, 2],
    "base_stake": [1, 2],
    "fan_pai_ji": [True, False],
    "ben_ji": [True, False],
    "chong_feng_mode": ["none", "plain", "4321", "3211"],
    "jin_ji": [True, False],
    "wu_gu_ji": [True, False],
    "ze_ren_ji": [True, False],
    "bao_ji": [True, False],
    "yao_bai_ji": [True, False],
    "man_tang_ji": [True, False],
    "quan_qing_yao": [True, False],
    "qian_hou_fan_ji": [True, False],
    "xing_qi_ji": [True, False],
    "dealer_bonus_mode": ["none", "lian_zhuang", "yi_kou_er"],
    "ding_que": [True, False],
    "bao_gang": [True, False],
    "huang_zhuang_burn": [True, False],
    "huang_zhuang_no_bao": [True, False],
    "huang_zhuang_burn_scope": ["all", "non_ready_only"],
    "ping_hu_ron_needs_passport": [True, False],
    "gold_model": ["additive", "multiplicative"],
    "bao_ji_scope": ["exposed_fixed", "all_fixed", "all"],
    "bao_requires_ready": [True, False],
    "sha_ting_payer": ["bao_ting_player", "all_payers"],
    "mingtang_bonus_mode": ["bonus_9_10", "total_9_plus_10"],
}


class Pool:
    """The tiles not yet placed: groups are drawn only while copies remain."""

    def __init__(self, rnd):
        self.rnd = rnd
        self.left = dict.fromkeys(range(27), 4)

    def take(self, kinds: list[int]) -> bool:
        need = Counter(kinds)
        if any(self.left[k] < n for k, n in need.items()):
            return False
        for k, n in need.items():
            self.left[k] -= n
        return True

    def group(self, size: int) -> list[int]:
        """A random sequence or triplet (size 3), or a pair (size 2)."""
        for _ in range(50):
            k = self.rnd.randrange(27)
            sequence = size == 3 and k % 9 < 7 and self.rnd.random() < 0.5
            kinds = [k, k + 1, k + 2] if sequence else [k] * size
            if self.take(kinds):
                return kinds
        raise LookupError

    def tiles(self, n: int) -> list[int]:
        kinds = []
        while len(kinds) < n:
            k = self.rnd.randrange(27)
            if self.take([k]):
                kinds.append(k)
        return kinds


def name(kinds) -> str:
    return " ".join(f"{k % 9 + 1}{'mps'[k // 9]}" for k in kinds)


def random_melds(pool: Pool, seat: int, players: int, most: int) -> tuple[Meld, ...]:
    melds = []
    for _ in range(pool.rnd.randint(0, most)):
        meld_kind = pool.rnd.choice(["pong", "pong", *KONG_KINDS])
        k = ONE_S if pool.rnd.random() < 0.3 else pool.rnd.randrange(27)  # chickens often
        if pool.take([k] * (3 if meld_kind == "pong" else 4)):
            source = (seat + pool.rnd.randrange(1, players)) % players
            claimed = meld_kind in ("pong", "dian_dou")
            melds.append(Meld(meld_kind, name([k]), source if claimed else None))
    return tuple(melds)


def complete_concealed(pool: Pool, melds) -> list[int]:
    if not melds and pool.rnd.random() < 0.2:
        return [k for _ in range(7) for k in pool.group(2)]
    return [k for _ in range(4 - len(melds)) for k in pool.group(3)] + pool.group(2)


def random_seat(pool: Pool, seat: int, players: int, winner: bool) -> tuple[Seat, int | None]:
    """A seat, and for a winner its winning tile (taken out of the concealed tiles)."""
    melds = random_melds(pool, seat, players, 3 if winner else 2)
    if winner or pool.rnd.random() < 0.5:
        concealed = complete_concealed(pool, melds)
        pool.rnd.shuffle(concealed)
        last = concealed.pop()
        if not winner:
            pool.left[last] += 1
        bao_ting = not melds and pool.rnd.random() < 0.2
        seat = Seat(name(concealed), melds, bao_ting=bao_ting)
    else:
        seat = Seat(name(pool.tiles(13 - 3 * len(melds))), melds)
    seat = dataclasses.replace(seat, dealt_lacking_a_suit=pool.rnd.random() < 0.2)
    return seat, last if winner else None


def random_discards(pool: Pool, seats, players: int) -> tuple[Discard, ...]:
    discards = [Discard(pool.rnd.randrange(players), name([k])) for k in pool.tiles(6)]
    for seat_index, seat in enumerate(seats):
        for meld in seat.melds:
            if meld.from_seat is not None and meld.tile in ("1s", "8p"):
                position = pool.rnd.randrange(len(discards) + 1)
                discards.insert(position, Discard(meld.from_seat, meld.tile, seat_index))
    return tuple(discards)


@st.composite
def hand_ends(draw):
    options = opts(**{key: draw(st.sampled_from(values)) for key, values in OPTION_CHOICES.items()})
    players = options.player_count
    pool = Pool(draw(st.randoms(use_true_random=False)))
    winner = draw(st.sampled_from([None, *range(players)]))
    how = draw(st.sampled_from(["self_draw", "discard", "rob_kong"]))
    try:
        built = [random_seat(pool, s, players, s == winner) for s in range(players)]
    except LookupError:
        assume(False)
    seats = tuple(seat for seat, _ in built)
    wins = ()
    if winner is not None:
        source = (
            None if how == "self_draw" else (winner + draw(st.integers(1, players - 1))) % players
        )
        wins = (Win(winner, name([built[winner][1]]), how, source),)
    end = HandEnd(
        seats,
        wins,
        dealer=draw(st.integers(0, players - 1)),
        streak=draw(st.integers(0, 3)),
        wall=name(pool.tiles(draw(st.integers(0, 3)))),
        discards=random_discards(pool, seats, players),
        hot_cannon=how == "discard" and draw(st.booleans()),
        options=options,
    )
    try:
        check(end)
    except ValueError:
        assume(False)
    return end


def with_options(end: HandEnd, **values) -> HandEnd:
    return dataclasses.replace(end, options=dataclasses.replace(end.options, **values))


SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(hand_ends())
def test_zero_sum_and_items_add_up(end):
    """算分 (source: 总分=...): every payment goes from one seat to another, so the hand is
    zero-sum, and each seat's delta is the sum of its items."""
    settlement = settle(end)
    assert sum(settlement.deltas) == 0
    recomputed = [0] * end.players
    for item in settlement.items:
        assert item.amount > 0 and item.payer != item.payee
        recomputed[item.payer] -= item.amount
        recomputed[item.payee] += item.amount
    assert recomputed == list(settlement.deltas)


@SETTINGS
@given(hand_ends())
def test_base_stake_multiplies_everything_but_yuan_que(end):
    """底分 (source: 总分=（胡牌牌型分 +杠上花+鸡分+豆分+连庄）*底分; 原缺 分数不受影响)."""
    one = settle(with_options(end, base_stake=1))
    three = settle(with_options(end, base_stake=3))
    fixed = [0] * end.players
    for item in one.items:
        if item.kind == "yuan_que":
            fixed[item.payer] -= item.amount
            fixed[item.payee] += item.amount
    expected = [3 * (d - f) + f for d, f in zip(one.deltas, fixed, strict=True)]
    assert list(three.deltas) == expected


@SETTINGS
@given(hand_ends(), st.sampled_from([("bao_ji", "bao_ji"), ("bao_gang", "bao_gang")]))
def test_bao_off_removes_exactly_the_bao_payments(end, option_and_kind):
    """包鸡 / 包杠 (source: 不听牌的玩家需要包自己手中本来算分的鸡分 / 杠分): turned off, the 包
    payments go and nothing else changes."""
    option, kind = option_and_kind
    on = settle(with_options(end, **{option: True}))
    off = settle(with_options(end, **{option: False}))
    assert off.items == tuple(item for item in on.items if item.kind != kind)


@SETTINGS
@given(hand_ends())
def test_bao_requires_ready_pays_no_non_ready_player(end):
    """包鸡/包杠 只包给听牌玩家 (§wengan-reading-bao-recipients): with the option no 包 reaches a
    player who neither won nor is ready, and the 包 total never grows."""
    loose = settle(with_options(end, bao_requires_ready=False))
    strict = settle(with_options(end, bao_requires_ready=True))
    collecting = {s for s in range(end.players) if is_ready(end.seats[s], end.players, end.options)}
    collecting |= set(end.winners)
    bao = ("bao_ji", "bao_gang")
    assert all(i.payee in collecting for i in strict.items if i.kind in bao)
    assert sum(i.amount for i in strict.items if i.kind in bao) <= sum(
        i.amount for i in loose.items if i.kind in bao
    )


@SETTINGS
@given(hand_ends())
def test_gold_chickens_never_lower_chicken_income(end):
    """金鸡 (source: 翻中幺鸡 ... 每只鸡+2分): with it on, no seat's chicken income is lower."""

    def income(settlement, seat):
        return sum(i.amount for i in settlement.items if i.kind == "chicken" and i.payee == seat)

    on = settle(with_options(end, jin_ji=True))
    off = settle(with_options(end, jin_ji=False))
    assert all(income(on, s) >= income(off, s) for s in range(end.players))


@SETTINGS
@given(hand_ends())
def test_burns_only_ever_cost_the_burned_player(end):
    """抢杠烧鸡/豆, 热炮烧鸡/豆 (source: 被抢杠/热炮的玩家得分的鸡分/豆分都不算，但是输的依然算分):
    with the burns off the robbed or hot-cannon player ends no lower, and every other player no
    higher."""
    burns = ("qiang_gang_shao_dou", "qiang_gang_shao_ji", "re_pao_shao_dou", "re_pao_shao_ji")
    on = settle(with_options(end, **dict.fromkeys(burns, True))).deltas
    off = settle(with_options(end, **dict.fromkeys(burns, False))).deltas
    burned = {w.from_seat for w in end.wins if w.how == "rob_kong" or end.hot_cannon}
    for seat in range(end.players):
        if seat in burned:
            assert off[seat] >= on[seat]
        else:
            assert off[seat] <= on[seat]


@SETTINGS
@given(hand_ends())
def test_exhaustive_draw_burn_leaves_only_cha_jiao_and_yuan_que(end):
    """荒庄烧鸡烧豆 (source: 在荒庄情况下，所有鸡、豆都不算分): burned, a 荒庄 pays only 查叫 (with
    the dealer bonus) and 原缺."""
    end = dataclasses.replace(end, wins=(), hot_cannon=False)
    burned = settle(with_options(end, huang_zhuang_burn=True, huang_zhuang_burn_scope="all"))
    assert {i.kind for i in burned.items} <= {"cha_jiao", "dealer_bonus", "yuan_que"}


@SETTINGS
@given(hand_ends())
def test_without_the_flip_the_wall_does_not_matter(end):
    """翻牌鸡 (source: 通过翻牌确认; §wengan-chicken-flip): off, there is no flip, so the undrawn
    tiles change nothing."""
    off = with_options(end, fan_pai_ji=False)
    assert settle(off).deltas == settle(dataclasses.replace(off, wall="")).deltas
