"""Weng'an 贵州瓮安麻将 played through the generic engine: the worked examples §wengan-example-1 to
§wengan-example-8 of §wengan-rules from exact positions through the engine's steps
(``tests/wengan_steps.py``), every seat's final score against the spec; the rules of play the hooks
decide (dou immediacy, robbing, 热炮, 报听, 过胡 / 过碰, 定缺, 通行证, 地胡, the dealer and 连庄).

Rules: docs/rules/wengan.md (贵州瓮安麻将); each test names its rule.
"""

from __future__ import annotations

import numpy as np
import pytest
from reference.wengan import settle as settle_reference
from reference.wengan_claims import Referee
from wengan_steps import JUNK, Table, play_dealt

from sim.core.tiles import kind_id, parse_tiles
from sim.core.wall import shuffled_walls
from sim.kernels import moves as M
from sim.kernels import state as S
from sim.kernels.agents import (
    AGENT_EFFICIENCY,
    AGENT_RANDOM,
    AGENT_SELF_DRAW,
    accepts_kong,
    choose_own_turn,
)
from sim.kernels.record import OUTCOME_WIN, R_DEALER, R_DELTA, R_NEXT_DEALER, R_OUTCOME, R_POINTS
from sim.running.config import load_config
from sim.running.replay import replay_config
from sim.variants.wengan import WenganOptions, play_records
from sim.variants.wengan import engine as WE
from sim.variants.wengan import hooks as H
from sim.variants.wengan import record_slots as RS
from sim.variants.wengan import settle as SE
from sim.variants.wengan.patterns import DAN_DIAO, LONG_QI_DUI, PING_HU, QING_DAN_DIAO

pytestmark = pytest.mark.engine  # Weng'an's engine

CONCEALED, ADDED, DISCARD_KONG, PONG = (
    S.MELD_CONCEALED_KONG,
    S.MELD_ADDED_KONG,
    S.MELD_DISCARD_KONG,
    S.MELD_PONG,
)


ROB_WAIT = "2m 3m 4m 5p 6p 7p 7s 8s 9s 6m 7m 8m 4s"  # 平胡 on 4s
PASS_WAIT = "2m 3m 4m 5p 6p 7p 6m 7m 8m 4s"  # the same beside a kong


def wins_listed(table, offerer, tile, how=M.HOW_DISCARD, kong_type=-1):
    listed = table.claims(offerer, tile, how, kong_type)
    return sorted(s for s, rows in listed.items() if any(r[M.A_TYPE] == M.ACT_WIN for r in rows))


# ------------------------------------------------------------------------------ §wengan-example-1


WA1_A = "2m 3m 4m 5p 6p 7p 3s 4s 5s 7m 8m 5s 5s"
WA1_B = "2m 3m 4m 3s 4s 5s 7m 8m 5s 5s"


def test_wa1a_ping_hu_without_passport_may_not_win_a_discard_and_locks_nothing():
    """§wengan-example-1, 平胡点炮需要通行证 and 过胡 (能胡，选择了过): seat 1's 平胡 on seat 3's 9m
    is not listed; declining nothing, he has no lock, so a later 热炮 9m is his."""
    table = Table({1: WA1_A, 3: "9m 9m " + JUNK[0][:-6]}, "2p 5m 6m", agents=(0, 2, 0, 0))
    table.discard(3, "9m")
    assert wins_listed(table, 3, "9m") == []
    assert table.win_on_discard(3, "9m") == 0
    assert table.status[1, H.ST_PASSED_WINS] == 0
    table.status[3, H.ST_AFTER_KONG] = 1  # seat 3 konged: its next discard is hot
    table.discard(3, "9m")
    assert wins_listed(table, 3, "9m") == [1]


def test_wa1b_men_dou_is_the_passport():
    """§wengan-example-1, 通行证 = a dou (此时可以无豆平胡) and 闷豆 (每家给2分): seat 3 pays 1, the
    闷豆 2 from each; flip 2p scores nothing: +7, -2, -2, -3."""
    table = Table({1: WA1_B, 3: "9m " + JUNK[0][:-3], 0: JUNK[1]}, "2p 5m 6m")
    table.meld(1, CONCEALED, "6p")
    table.discard(3, "9m")
    assert table.win_on_discard(3, "9m") == 1
    assert table.nets() == [-2, 7, -2, -3]
    assert table.record[RS.RW_PATTERN] == PING_HU
    assert table.record[RS.RW_FLIP] == kind_id("2p")
    assert table.record[RS.RW_DOU + 1] == 6


# ------------------------------------------------------------------------------ §wengan-example-2

WA2 = "5p 5p 5p 1s 1s 3m 3m 7m 7m 9p 9p 2s 2s"


def test_wa2_long_qi_dui_and_two_gold_chickens():
    """§wengan-example-2, 龙七对 (20) and 金鸡 (翻中幺鸡 每只鸡+2分): seat 2 self-draws the fourth
    5p; flip 9s makes 1s gold, 3 each: +78, the others -26."""
    table = Table({2: WA2, 0: JUNK[0], 1: JUNK[1]}, "9s 4m 4m")
    row = table.self_draw(2, "5p")
    assert row[M.A_FEATURES] & H.FEATURE_PATTERN == LONG_QI_DUI
    assert table.nets() == [-26, -26, 78, -26]
    assert table.record[R_POINTS] == 20
    assert table.record[RS.RW_CHICKEN + 2] == 18


def test_wa2_variant_seven_pairs_when_the_winning_tile_does_not_make_the_four():
    """§wengan-example-2 variant, 龙七对 (七对中必有一对是刻子): four 5p held, the second 2s drawn:
    七对 5, 11 from each; with long_qi_dui_win_on_quad off 龙七对 again."""
    hand = "5p 5p 5p 5p 1s 1s 3m 3m 7m 7m 9p 9p 2s"
    table = Table({2: hand, 0: JUNK[0], 1: JUNK[1]}, "9s 4m 4m")
    table.self_draw(2, "2s")
    assert table.nets() == [-11, -11, 33, -11]
    table = Table({2: hand, 0: JUNK[0], 1: JUNK[1]}, "9s 4m 4m", long_qi_dui_win_on_quad=False)
    table.self_draw(2, "2s")
    assert table.nets() == [-26, -26, 78, -26]


# ------------------------------------------------------------------------------ §wengan-example-3


def test_wa3_dan_diao_on_a_discard_and_dian_dou():
    """§wengan-example-3, 单吊 (10, no 通行证 needed) and 点豆 (点豆者给接豆者1分): seat 0 pays 10,
    seat 3 the 点豆's 1: +11, -10, -1."""
    table = Table({2: "6m", 0: "6m " + JUNK[1][3:], 3: JUNK[0]}, "5s 4m 4m")
    table.meld(2, PONG, "3m", 1)
    table.meld(2, PONG, "7p", 0)
    table.meld(2, PONG, "9s", 1)
    table.meld(2, DISCARD_KONG, "4s", 3)
    table.discard(0, "6m")
    assert table.win_on_discard(0, "6m") == 1
    assert table.record[RS.RW_PATTERN] == DAN_DIAO
    assert table.nets() == [-10, 0, 11, -1]


def test_wa3_variant_qing_dan_diao_with_flip_chickens():
    """§wengan-example-3 variant, 清单吊 (20) and 翻牌鸡: flip 5s makes the hand's 6s 6s chickens:
    +27, -22, -2, -3."""
    table = Table({2: "6s", 0: "6s " + JUNK[1][3:], 3: JUNK[0]}, "5s 4m 4m")
    for tile, source in (("3s", 1), ("7s", 1), ("9s", 1)):
        table.meld(2, PONG, tile, source)
    table.meld(2, DISCARD_KONG, "4s", 3)
    table.discard(0, "6s")
    assert table.win_on_discard(0, "6s") == 1
    assert table.record[RS.RW_PATTERN] == QING_DAN_DIAO
    assert table.nets() == [-22, -2, 27, -3]


# ------------------------------------------------------------------------------ §wengan-example-4

WA4 = {
    0: "2m 3m 4m 6p 7p 8p 3s 4s 5s 6m 7m 8m 9p",
    1: "7s 8s 9s 5s 6s 7s 2m 2m 5m 6m",
    2: "1m 4m 7m 2p 6p 9p 3s 8s 9m 5m 8m 2s 6s 1s",
    3: "1p 2p 3p 4s 5s 6s 7p 8p 9p 3m 3m 9s 9s 1s",
}


def wa4_table(**options):
    table = Table(WA4, "4p 5m 5m", **options)
    table.meld(1, PONG, "1s", 3)
    table.discard(3, "1s", claimed_by=1)  # the hand's first 1s, ponged by seat 1
    table.discard(2, "1s")  # the last 1s, unclaimed
    return table


def test_wa4_responsibility_chicken_and_bao_ji():
    """§wengan-example-4 (docs/rules/wengan.md), 责任鸡 (冲锋鸡被碰走后…被碰的玩家要给碰鸡玩家鸡分 …
    1分) and 包鸡 (不听牌的玩家需要包自己手中本来算分的鸡分 … 反给所有玩家): +1, +10, -7, -4."""
    table = wa4_table()
    table.self_draw(0, "9p")
    assert table.nets() == [1, 10, -7, -4]
    assert table.record[RS.RW_READY] == 0b1011


def test_wa4_ordinal_chickens():
    """§wengan-example-4 variants, 冲锋鸡4321: seat 2's 1s is the first unclaimed: 4 to each; with
    chongfeng_ordinal_counts_claimed the second: 3."""
    table = wa4_table(chong_feng_mode="4321")
    table.self_draw(0, "9p")
    assert table.nets() == [4, 13, -16, -1]
    table = wa4_table(chong_feng_mode="4321", chongfeng_ordinal_counts_claimed=True)
    table.self_draw(0, "9p")
    assert table.nets() == [3, 12, -13, -2]


def test_wa4_bao_requires_ready():
    """§wengan-example-4 last variant, 包鸡 recipients: seat 3 not ready; by default nets unchanged;
    with bao_requires_ready seat 2 pays only seats 0 and 1: +1, +10, -6, -5."""
    hands = dict(WA4)
    hands[3] = "1p 4p 7p 2s 5s 8s 3m 6m 9m 2p 5p 8p 9s 1s"  # not ready
    for options, nets in (({}, [1, 10, -7, -4]), ({"bao_requires_ready": True}, [1, 10, -6, -5])):
        table = Table(hands, "4p 5m 5m", **options)
        table.meld(1, PONG, "1s", 3)
        table.discard(3, "1s", claimed_by=1)
        table.discard(2, "1s")
        table.self_draw(0, "9p")
        assert table.nets() == nets


# ------------------------------------------------------------------------------ §wengan-example-5

WA5 = {
    0: "3p 4p 7p 8p 9p 2s 3s 4s 7s 8s 9s 9m 9m",
    1: "6m 5m 8m 3p 6p 9p 4s 7s 1p 1m 4p 8s 2m",
    3: "6m 6m 6m 5p 6p 7p 5s 6s 7s 8m 8m 2p 3s",
}


def wa5(replacement="4s", **options):
    """Seat 1 discards 6m; seat 3 makes a 点豆 through the engine, draws its replacement from
    the tail and discards 2p; seat 0 wins on it."""
    table = Table(WA5, f"3m 1p 1p {replacement}", **options)
    table.discard(1, "6m")
    assert [r[M.A_TYPE] for r in table.claims(1, "6m")[3]] == [M.ACT_KONG, M.ACT_PONG]
    assert table.kong(3, "6m", DISCARD_KONG, 1) == M.KONG_REPLACEMENT
    assert table.state.history[0, 2] == 3  # the discard is marked as claimed by seat 3
    assert S.pop_back(table.state) == kind_id(replacement)  # draw() gives it to seat 3
    table.draw(3, replacement, replacement=True)
    table.discard(3, "2p")
    assert table.win_on_discard(3, "2p") == 1
    return table


def test_wa5_hot_cannon_lets_a_ping_hu_win_and_burns_the_dou():
    """§wengan-example-5, 热炮 (杠后打出的第一张牌被胡; 平胡可胡) and 热炮烧豆: seat 3 pays 1 + 1;
    his 点豆 is burned: +2, 0, 0, -2."""
    table = wa5()
    assert table.record[RS.RW_HOT_CANNON] == 1
    assert table.nets() == [2, 0, 0, -2]
    assert table.record[RS.RW_KONGS + SE.DOU_DIAN - 1] == 1


def test_wa5_variants():
    """§wengan-example-5 variants, 热炮烧豆 off: seat 1 pays seat 3 1; seat 3 not ready: 包杠 even
    though burned (输的依然算分): +2, +1, 0, -3."""
    assert wa5(re_pao_shao_dou=False).nets() == [2, -1, 0, -1]
    assert wa5(replacement="9p").nets() == [2, 1, 0, -3]


# ------------------------------------------------------------------------------ §wengan-example-6

WA6 = {
    0: "1p 2p 3p 4p 5p 6p 7p 8p 9p 2p 2p 5p 6p",
    1: "2m 3m 4m 5m 6m 7m 3s 4s 5s 6s 7s 9m 9m",
    2: JUNK[0],
    3: JUNK[1],
}


def wa6(streak=0, first_1s_of=None, **options):
    table = Table(WA6, "", dealer=2, **options)
    table.state.scalars[S.DEALER_STREAK] = streak
    if first_1s_of is not None:
        S.give_tile(table.state, first_1s_of, kind_id("1s"))
        table.discard(first_1s_of, "1s")
    table.exhaust(1)
    return table


def test_wa6_cha_jiao():
    """§wengan-example-6, 荒庄查叫 (未听牌的玩家赔给听牌玩家最大牌型分): +20, +2, -11, -11; the
    dealer keeps the deal and his count."""
    table = wa6()
    assert table.nets() == [20, 2, -11, -11]
    assert table.record[R_NEXT_DEALER] == 2
    assert table.record[RS.RW_NEXT_STREAK] == 0
    assert table.record[RS.RW_CHA_JIAO : RS.RW_CHA_JIAO + 4].tolist() == [20, 2, -11, -11]


def test_wa6_lian_zhuang_and_yi_kou_er():
    """§wengan-example-6 variants, 连庄 (+1n分, 查叫中连庄也生效) n = 1, and 一口二: +21, +3, -13,
    -11; a 荒庄 leaves n, or adds 1 with lian_zhuang_counts_draws."""
    table = wa6(1, dealer_bonus_mode="lian_zhuang")
    assert table.nets() == [21, 3, -13, -11]
    assert table.record[RS.RW_NEXT_STREAK] == 1
    assert wa6(0, dealer_bonus_mode="yi_kou_er").nets() == [21, 3, -13, -11]
    counted = wa6(1, dealer_bonus_mode="lian_zhuang", lian_zhuang_counts_draws=True)
    assert counted.record[RS.RW_NEXT_STREAK] == 2


@pytest.mark.parametrize(
    ("seat", "options", "nets"),
    [
        (3, {}, [20, 2, -11, -11]),
        (3, {"huang_zhuang_burn": False}, [20, 2, -11, -11]),
        (3, {"huang_zhuang_burn_scope": "non_ready_only"}, [20, 2, -11, -11]),
        (3, {"huang_zhuang_burn": False, "huang_zhuang_no_bao": False}, [22, 4, -9, -17]),
        (
            3,
            {"huang_zhuang_burn": False, "huang_zhuang_no_bao": False, "bao_requires_ready": True},
            [22, 4, -11, -15],
        ),
        (1, {"huang_zhuang_burn": False}, [18, 8, -13, -13]),
        (1, {"huang_zhuang_burn_scope": "non_ready_only"}, [18, 8, -13, -13]),
    ],
)
def test_wa6_chicken_options(seat, options, nets):
    """§wengan-example-6 variants, 荒庄烧鸡烧豆 / 荒庄不包鸡包豆: the hand's first 1s (charging, 2)
    in a discard pile."""
    assert wa6(first_1s_of=seat, **options).nets() == nets


# ------------------------------------------------------------------------------ §wengan-example-7


def test_wa7_sha_ting_on_a_discard():
    """§wengan-example-7, 杀听 (报听玩家点炮…平胡9分): seat 1 (报听) discards 4s; seat 3's 平胡 on
    it needs no 通行证; seat 1 pays 1 + 9."""
    hands = {1: "4s " + JUNK[0][3:], 3: ROB_WAIT}
    table = Table(hands, "9p 9p")  # the flip 9p designates nothing held
    table.tell(S.EVENT_DECLARE, 1, -1, H.DECLARE_BAO_TING)
    table.discard(1, "4s")
    assert table.win_on_discard(1, "4s") == 1
    assert table.record[0 + RS.RW_PATTERN] == PING_HU
    assert table.nets() == [0, -10, 0, 10]


def test_wa7_bao_ting_self_draw():
    """§wengan-example-7, 报听 (报听胡牌 平胡9分): a 报听 player self-draws a 平胡: 10 from each."""
    table = Table({1: ROB_WAIT, 0: JUNK[0]}, "9p 9p")
    table.tell(S.EVENT_DECLARE, 1, -1, H.DECLARE_BAO_TING)
    row = table.self_draw(1, "4s")
    assert row[M.A_FEATURES] & H.FEATURE_BAO_TING
    assert table.nets() == [-10, 30, -10, -10]


# ------------------------------------------------------------------------------ §wengan-example-8


@pytest.mark.parametrize(
    ("tile", "flips", "options", "value"),
    [
        ("1s", "4p 4p", {}, 1),
        ("1s", "9s 4p", {}, 3),
        ("1s", "9s 9s", {"qian_hou_fan_ji": True}, 5),
        ("8p", "4p 4p", {"wu_gu_ji": True}, 2),
        ("8p", "7p 4p", {"wu_gu_ji": True}, 4),
        ("8p", "7p 7p", {"wu_gu_ji": True, "qian_hou_fan_ji": True}, 6),
        ("1p", "9p 4p", {"quan_qing_yao": True}, 2),
        ("4m", "3m 4p", {}, 1),
        ("4m", "3m 3m", {"qian_hou_fan_ji": True}, 2),
        ("3m", "4p 4p", {"xing_qi_ji": True, "xing_qi_ji_weekday": 3}, 1),
    ],
)
def test_wa8_chicken_values_through_the_flips(tile, flips, options, value):
    """§wengan-example-8 (鸡牌分值: 金鸡 翻中两次+4分, 乌骨鸡, 全清幺, 星期鸡, 前后翻鸡): a
    self-drawn 七对 holding the tile twice collects 2 x its value from each other player; the flips
    come off the head (and with 前后翻鸡 the tail) of the wall, logged."""
    hand = f"{tile} {tile} 2m 2m 6m 6m 8m 8m 5s 5s 6s 6s 9m"
    head, tail = flips.split()
    table = Table({0: hand, 1: JUNK[0], 2: JUNK[1]}, f"{head} 2s 5s {tail}", **options)
    table.self_draw(0, "9m")
    assert table.record[RS.RW_CHICKEN] == 3 * 2 * value
    flipped = [e for e in table.events() if e[0] == S.EVENT_INDICATOR]
    assert len(flipped) == (2 if options.get("qian_hou_fan_ji") else 1)


# ------------------------------------------------------------------------------ dou immediacy


def test_men_dou_only_when_the_fourth_tile_came_this_turn():
    """闷豆 (摸到4张一样的牌并立刻杠出) vs 憨包豆 (没有立刻杠): a kong of the drawn fourth tile
    scores; the same quad konged a turn later is a 憨包豆 (no dou, still a 通行证)."""
    for later, dou in ((False, SE.DOU_MEN), (True, SE.DOU_HAN_BAO)):
        table = Table({1: "7p 7p 7p " + JUNK[0][3:]}, "5m 5m 5m 5m")
        table.draw(1, "7p")
        if later:
            table.discard(1, "4m")
            table.draw(1, "5m")
        rows = table.own_turn(1, kind_id("5m" if later else "7p"))
        assert any(r[M.A_TYPE] == M.ACT_KONG and r[M.A_TILE] == kind_id("7p") for r in rows)
        table.kong(1, "7p", CONCEALED, 1)
        late = (table.status[1, H.ST_LATE_KONGS] & 1) != 0
        assert H.dou_kind.py_func(CONCEALED, late) == dou


def test_dealt_quad_scores_only_in_the_first_turn():
    """闷豆 of a dealt quad (§wengan-reading-dealt-quad): konged in the seat's first turn it
    scores."""
    table = Table({0: "7p 7p 7p 7p " + JUNK[0][3:]}, "5m 5m 5m")
    table.status[0, S.ST_ACTED] = 0
    WE.setup(table.state, table.params, table.record)
    table.kong(0, "7p", CONCEALED, 0)
    assert table.status[0, H.ST_LATE_KONGS] == 0


def test_pong_then_kong_later_is_han_bao_dou():
    """憨包豆 (手中三张先碰下一轮再杠变憨包豆): the kept third tile added in a later turn; the
    fourth drawn and added at once is a 爬坡豆."""
    for drawn_fourth, dou in ((False, SE.DOU_HAN_BAO), (True, SE.DOU_PA_PO)):
        table = Table({1: ("" if drawn_fourth else "7p ") + JUNK[0][3:]}, "5m 5m 5m")
        table.meld(1, PONG, "7p", 0)
        table.tell(S.EVENT_PONG, 1, kind_id("7p"), 0)
        table.discard(1, "4m")
        table.draw(1, "7p" if drawn_fourth else "5m")
        table.kong(1, "7p", ADDED, 1)
        late = (table.status[1, H.ST_LATE_KONGS] & 1) != 0
        assert H.dou_kind.py_func(ADDED, late) == dou


# ------------------------------------------------------------------------------ robbing


def test_two_players_rob_a_pa_po_dou():
    """抢杠 (只能抢爬坡豆, 可以多人抢杠胡): seats 0 and 2 rob seat 1's 爬坡豆 of 4s, each a 平胡
    without 通行证; seat 1 pays each 1 + 9 (不包其他玩家的输分); nobody may rob a 憨包豆."""
    hands = {0: ROB_WAIT, 2: ROB_WAIT.replace("2m 3m 4m", "2p 3p 4p"), 1: "4s " + JUNK[1][3:]}
    table = Table(hands, "9p 9p 9p")
    table.meld(1, PONG, "4s", 3)
    table.draw(1, "5m")
    table.status[1, H.ST_FRESH] |= 1 << kind_id("4s")  # the fourth 4s came this turn
    assert table.kong(1, "4s", ADDED, 1) == M.KONG_HAND_OVER
    assert table.record[RS.RW_PATTERN : RS.RW_PATTERN + 2].tolist() == [PING_HU, PING_HU]
    assert table.nets() == [10, -20, 10, 0]
    late = Table(hands, "9p 9p 9p")
    late.meld(1, PONG, "4s", 3)
    late.draw(1, "5m")  # the kept 4s came earlier: a 憨包豆
    assert wins_listed(late, 1, "4s", M.HOW_ROB_KONG, ADDED) == []
    assert late.kong(1, "4s", ADDED, 1) == M.KONG_REPLACEMENT


def test_men_dou_and_dian_dou_are_never_robbed():
    """抢杠 only on a 爬坡豆: no seat is listed to rob a 闷豆 or a 点豆."""
    table = Table({0: ROB_WAIT, 1: "4s 4s 4s 4s"}, "5m 5m")
    table.status[1, H.ST_FRESH] = 1 << kind_id("4s")
    for kong_type in (CONCEALED, DISCARD_KONG):
        assert H.max_winners.py_func(None, M.HOW_ROB_KONG, kong_type, table.params) == 0


# ------------------------------------------------------------------------------ 热炮


def test_only_the_first_discard_after_a_kong_is_hot():
    """热炮 (杠后打出的第一张牌): the discarder's next discard after that is not hot, so a 平胡
    without 通行证 may not win it."""
    table = Table({0: ROB_WAIT, 3: "4s 4s 1m 2m"}, "5m 5m")
    table.tell(S.EVENT_KONG, 3, kind_id("9m"), CONCEALED)
    table.discard(3, "1m")
    table.discard(3, "4s")
    assert wins_listed(table, 3, "4s") == []
    table.tell(S.EVENT_KONG, 3, kind_id("9m"), CONCEALED)
    table.discard(3, "4s")
    assert wins_listed(table, 3, "4s") == [0]


# ------------------------------------------------------------------------------ 报听


def test_bao_ting_declared_then_frozen():
    """报听 (庄家打出第一张牌时可报听…听牌后不可更改手牌): listed on the first turn when a
    discard leaves the hand ready; the declaring discard must leave it ready; afterwards the
    drawn tile is discarded, no pong, no kong."""
    hand = "2m 3m 4m 5p 6p 7p 7s 8s 9s 6m 7m 8m 4s 1p"
    table = Table({0: hand, 1: "1p 1p 9p 9p 9p " + JUNK[0][5:]}, "9p 5m 5m")
    table.status[0, S.ST_ACTED] = 0
    table.status[0, S.ST_OWN_TURN_EXTRA] = 1
    rows = table.own_turn(0, -1)
    assert [r[M.A_TYPE] for r in rows] == [M.ACT_DECLARE]
    table.tell(S.EVENT_DECLARE, 0, -1, H.DECLARE_BAO_TING)
    allowed = np.ones(34, np.bool_)
    forced = H.discard_mask.py_func(
        None, table.state.hands[0], table.status, 0, -1, table.params, allowed
    )
    assert forced == -1
    assert sorted(np.flatnonzero(allowed)) == sorted([kind_id("4s"), kind_id("1p")])
    table.discard(0, "1p")
    forced = H.discard_mask.py_func(
        None, table.state.hands[0], table.status, 0, kind_id("9p"), table.params, allowed
    )
    assert forced == kind_id("9p")
    table.discard(1, "1p")  # seat 0 could not pong it even holding two
    S.give_tile(table.state, 0, kind_id("1p"))
    S.give_tile(table.state, 0, kind_id("1p"))
    assert len(table.claims(1, "1p")[0]) == 0
    S.give_tile(table.state, 0, kind_id("9p"))
    S.give_tile(table.state, 0, kind_id("9p"))
    S.give_tile(table.state, 0, kind_id("9p"))
    table.draw(0, "9p")
    assert not any(r[M.A_TYPE] == M.ACT_KONG for r in table.own_turn(0, kind_id("9p")))


def test_no_bao_ting_after_a_pong():
    """报听 (DECISION §wengan-reading-bao-ting-timing): not after a pong or kong."""
    hand = "2m 3m 4m 5p 6p 7p 7s 8s 9s 6m 7m 8m 4s 1p"
    table = Table({0: hand}, "9p 5m")
    table.status[0, S.ST_ACTED] = 0
    table.status[0, S.ST_CLAIMED] = 1
    table.status[0, S.ST_OWN_TURN_EXTRA] = 1
    assert not any(r[M.A_TYPE] == M.ACT_DECLARE for r in table.own_turn(0, -1))


# ------------------------------------------------------------------------------ 过胡 / 过碰


def test_guo_hu_locks_the_kind_until_the_hand_changes():
    """过胡 (能胡，选择了过; 再未更换手牌之前): a declined legal win on 4s locks 4s (same_tile), or
    every kind (any_tile); the seat's draw releases it."""
    for scope in ("same_tile", "any_tile"):
        agents = (AGENT_SELF_DRAW, 0, 0, 0)  # passes every win on a discard
        table = Table({0: PASS_WAIT, 3: "4s 4s 9m 9m"}, "5m 5m", agents=agents, guo_hu_scope=scope)
        table.meld(0, CONCEALED, "1p")  # a 通行证
        table.discard(3, "4s")
        assert wins_listed(table, 3, "4s") == [0]
        assert table.win_on_discard(3, "4s") == 0
        locked = (1 << kind_id("4s")) if scope == "same_tile" else H.ALL_SUITED
        assert table.status[0, H.ST_PASSED_WINS] == locked
        table.discard(3, "4s")
        assert wins_listed(table, 3, "4s") == []
        table.draw(0, "5m")
        assert table.status[0, H.ST_PASSED_WINS] == 0


def test_guo_peng_locks_the_kind_until_the_hand_changes():
    """过碰 (能碰，选择了过): a declined pong of 9p (EVENT_PASS_CLAIM) locks pongs of 9p until
    the seat's hand changes; with guo_peng_limit off nothing is locked."""
    for limit in (True, False):
        table = Table({0: "9p 9p " + JUNK[0][6:], 3: "9p 9p"}, "5m 5m", guo_peng_limit=limit)

        def pong_listed(table=table):
            return any(r[M.A_TYPE] == M.ACT_PONG for r in table.claims(3, "9p")[0])

        table.discard(3, "9p")
        assert pong_listed()
        table.tell(S.EVENT_PASS_CLAIM, 0, kind_id("9p"), M.ACT_PONG)
        table.discard(3, "9p")
        assert pong_listed() == (not limit)
        table.draw(0, "5m")
        assert pong_listed()


# ------------------------------------------------------------------------------ 定缺


def test_ding_que_declare_names_the_weakest_suit_and_bars_it():
    """定缺 (二、三人的玩法中，需要定缺才能叫胡牌; declare mode): each seat names a suit at the
    deal, the default agent its weakest; a hand holding the named suit may not win."""
    hands = {
        0: "2m 3m 4m 5m 6m 7m 2s 3s 4s 6s 7s 8s 9p",
        1: "1p 2p 3p 4p 5p 6p 7p 8p 9p 1m 2m 3m 4s",
        2: "1s 2s 3s 4s 5s 6s 7s 8s 9s 5p 1m 2m 3m",
    }
    table = Table(hands, "5m 5m", players=3, ding_que_mode="declare")
    WE.setup(table.state, table.params, table.record)
    assert [H.que_suit.py_func(table.status, s) for s in range(3)] == [1, 2, 1]
    declared = [e for e in table.events() if e[0] == S.EVENT_DECLARE]
    assert len(declared) == 3
    # seat 0 completes its hand with a second 9p of its named suit: no win; without 定缺 a win
    table.draw(0, "9p")
    assert not any(r[M.A_TYPE] == M.ACT_WIN for r in table.own_turn(0, kind_id("9p")))
    four = Table({0: hands[0]}, "5m 5m", players=4)
    four.draw(0, "9p")
    assert any(r[M.A_TYPE] == M.ACT_WIN for r in four.own_turn(0, kind_id("9p")))


def test_plans_offered_at_the_deal_under_ding_que():
    """定缺 (二、三人的玩法中，需要定缺才能叫胡牌): with 2 or 3 players each seat is offered, at the
    deal, each suit to play without (composition), or the suit it named (declare); nothing with
    4 players or 定缺 off. A plan binds nothing: it only informs the agent."""

    def offered(players, **options):
        table = Table({0: JUNK[0]}, "5m", players=players, **options)
        WE.setup(table.state, table.params, table.record)
        actions = np.zeros((M.MAX_ACTIONS, M.N_ACTION_FIELDS), np.int64)
        n = WE.plan_actions(table.state, 0, table.params, actions)
        assert all(actions[:n, M.A_TYPE] == M.ACT_PLAN)
        return actions[:n, M.A_DETAIL].tolist()

    suits = [511, 511 << 9, 511 << 18]
    assert offered(3) == suits
    assert offered(2) == suits
    assert offered(3, ding_que_mode="declare") == [511 << 9]  # JUNK[0]: 4 p, 4 s, 5 m
    assert offered(4) == []
    assert offered(3, ding_que=False) == []


DROP_P = "1m 2m 3m 5m 6m 7m 5p 6p 7p 2s 3s 9s 9s 9m"  # the dealer's 14: p is its weakest suit


def test_the_default_agent_sheds_its_weakest_suit_under_ding_que():
    """定缺 (composition: a hand must lack a suit to be ready or win): the dealer, weakest in p,
    discards a p tile first, where without 定缺 it discards the lone 9m; and over played hands
    the default agent wins nearly every hand with 2 or 3 players (it won under half while it
    discarded by shanten alone, blind to the rule)."""
    first = {}
    for ding_que in (True, False):
        _, events = play_dealt({0: DROP_P}, players=3, agents=(0, 0, 0, 0), ding_que=ding_que)
        discards = events[events[:, 0] == S.EVENT_DISCARD]
        first[ding_que] = discards[0, 2]
        assert discards[0, 1] == 0
    assert first[True] == kind_id("5p")
    assert first[False] == kind_id("9m")
    for players in (2, 3):
        options = WenganOptions(player_count=players)
        n = 400
        walls = shuffled_walls(n, 108, 11 + players)
        records = play_records(options, walls, np.zeros(n // 8, np.int64), 8, (0,) * players, 1)
        won = (records[:, R_OUTCOME] == OUTCOME_WIN).mean()
        assert won > 0.9, (players, won)


def test_kong_now_or_later_is_the_agents_choice():
    """豆 (闷豆: 摸到4张一样的牌并立刻杠出; 憨包豆: 手中三张先碰下一轮再杠): holding three 7p
    when 7p is discarded, the seat is listed a 点豆 and a pong; the default agent kongs at
    once. Declining the kong for the pong keeps the kong open: next turn the added kong of the
    kept 7p is listed again, and made then it is a 憨包豆 (no dou). The own-turn kong of a
    drawn fourth tile is likewise the default agent's choice at once."""
    table = Table({1: "7p 7p 7p " + JUNK[0][9:]}, "5m 5m 5m")
    seven = kind_id("7p")
    table.discard(0, "7p")
    rows = table.claims(0, "7p")[1]
    assert sorted(r[M.A_TYPE] for r in rows) == [M.ACT_KONG, M.ACT_PONG]
    assert accepts_kong(AGENT_EFFICIENCY, seven, np.int64(0))
    # the pong instead (the random agent's choice half of the time)
    S.take_tile(table.state, 1, seven)
    S.take_tile(table.state, 1, seven)
    S.mark_claimed(table.state, 1)
    table.meld(1, PONG, "7p", 0)
    table.tell(S.EVENT_PONG, 1, seven, 0)
    table.discard(1, "4m")
    table.draw(1, "5m")
    rows = table.own_turn(1, kind_id("5m"))
    kongs = [r for r in rows if r[M.A_TYPE] == M.ACT_KONG]
    assert [(r[M.A_TILE], r[M.A_DETAIL]) for r in kongs] == [(seven, ADDED)]
    chosen = choose_own_turn(AGENT_EFFICIENCY, rows, len(rows), np.int64(0))
    assert chosen >= 0 and rows[chosen, M.A_TYPE] == M.ACT_KONG  # the default agent: at once
    table.kong(1, "7p", ADDED, 1)
    late = (table.status[1, H.ST_LATE_KONGS] & 1) != 0
    assert H.dou_kind.py_func(ADDED, late) == SE.DOU_HAN_BAO


def test_the_default_agent_kongs_at_once_the_random_agent_sometimes_later():
    """憨包豆 (没有立刻杠) comes only from a kong put off: over played hands with 3 players the
    default agent, which kongs as soon as a kong is listed, makes almost none; random agents,
    which put off half of their kongs, make many."""
    options = WenganOptions(player_count=3)
    n = 400
    walls = shuffled_walls(n, 108, 5)
    late_share = {}
    for agent in (AGENT_EFFICIENCY, AGENT_RANDOM):
        records = play_records(options, walls, np.zeros(n // 8, np.int64), 8, (agent,) * 3, 3)
        kongs = records[:, RS.RW_KONGS : RS.RW_KONGS + 4].sum(axis=0)
        late_share[agent] = kongs[SE.DOU_HAN_BAO - 1] / kongs.sum()
    assert late_share[AGENT_EFFICIENCY] < 0.01
    assert late_share[AGENT_RANDOM] > 0.1


READY_14 = "2m 3m 4m 5p 6p 7p 7s 8s 9s 6m 7m 8m 4s 1p"  # discarding 4s or 1p leaves it ready


def test_the_default_agent_declares_bao_ting_when_ready_on_its_first_discard():
    """报听 (庄家打出第一张牌时可报听): the dealer, whose 14 tiles a discard leaves ready, declares
    with its first discard (the default agent declares whenever it may), and that discard
    leaves it ready; a dealer not ready declares nothing."""
    record, events = play_dealt({0: READY_14}, players=4)
    own = events[(events[:, 1] == 0) & (events[:, 0] != S.EVENT_DEAL)]
    assert own[0, 0] == S.EVENT_DECLARE and own[0, 3] == H.DECLARE_BAO_TING
    assert own[1, 0] == S.EVENT_DISCARD and own[1, 2] in parse_tiles("4s 1p")
    assert record[RS.RW_BAO_TING] & 1
    _, events = play_dealt({0: JUNK[0] + " 1s"}, players=4)
    declared = events[(events[:, 0] == S.EVENT_DECLARE) & (events[:, 1] == 0)]
    assert len(declared) == 0


# ------------------------------------------------------------------------------ 通行证 exceptions


@pytest.mark.parametrize(
    "case", ["none", "earthly", "hot", "bao_ting", "sha_ting", "passport", "late_kong"]
)
def test_passport_and_its_exceptions(case):
    """平胡点炮需要通行证 and its exceptions (地胡 此时可以无豆平胡, 抢杠, 热炮, 报听, 杀听): a
    平胡 on a discard without a dou is listed only in an exception; a 憨包豆 is a 通行证 under
    any_kong, not under scoring_kong."""
    options = {"passport_kinds": "scoring_kong"} if case == "late_kong" else {}
    hand = PASS_WAIT if case in ("passport", "late_kong") else ROB_WAIT
    table = Table({0: hand, 3: "4s 4s 9m"}, "5m 5m", dealer=3, **options)
    if case == "earthly":
        table.status[0, S.ST_ACTED] = 0
    elif case == "hot":
        table.tell(S.EVENT_KONG, 3, kind_id("9m"), CONCEALED)
    elif case == "bao_ting":
        table.tell(S.EVENT_DECLARE, 0, -1, H.DECLARE_BAO_TING)
    elif case == "sha_ting":
        table.tell(S.EVENT_DECLARE, 3, -1, H.DECLARE_BAO_TING)
    elif case in ("passport", "late_kong"):
        table.meld(0, CONCEALED, "1p", late=case == "late_kong")
    table.discard(3, "4s")
    expected = [] if case in ("none", "late_kong") else [0]
    assert wins_listed(table, 3, "4s") == expected
    if case == "late_kong":
        any_kong = Table({0: PASS_WAIT, 3: "4s 4s 9m"}, "5m 5m", dealer=3)
        any_kong.meld(0, CONCEALED, "1p", late=True)
        any_kong.discard(3, "4s")
        assert wins_listed(any_kong, 3, "4s") == [0]


def test_heavenly_and_earthly_flags():
    """天胡 (庄家起手胡牌) and 地胡 (闲家第一轮): the dealer's dealt 14 complete; a non-dealer's
    self-draw on his first draw with nobody having ponged or konged."""
    hand = "2m 3m 4m 5p 6p 7p 7s 8s 9s 6m 7m 8m 4s 4s"
    table = Table({0: hand, 1: JUNK[0], 2: JUNK[1]}, "5m 5m")
    table.status[0, S.ST_ACTED] = 0
    rows = table.own_turn(0, -1)
    assert rows[0][M.A_TYPE] == M.ACT_WIN and rows[0][M.A_FEATURES] & H.FEATURE_HEAVENLY
    table = Table({1: hand[:-3], 0: JUNK[0]}, "9p 9p")
    table.status[1, S.ST_ACTED] = 0
    row = table.self_draw(1, "4s")
    assert row[M.A_FEATURES] & H.FEATURE_EARTHLY
    assert table.nets() == [-10, 30, -10, -10]


def test_one_seat_claiming_both_charging_chickens_collects_both_responsibilities():
    """责任鸡 and 责任乌骨鸡2分 (rules: 责任鸡, 冲锋鸡（乌骨鸡也算）): hand 86 of the 4-player
    config at seed 7 with 乌骨鸡 on, where seat 2 pongs the hand's first 1s and its first 8p,
    both discarded by seat 1, and collects 1 + 2 from him. The slow referee settles it alike."""
    config = load_config(
        "configs/wengan-4p.toml", ["run.seed=7", "options.wu_gu_ji=true", "run.chunk_hands=64"]
    )
    hand = replay_config(config, 86)
    assert list(hand.record[R_DELTA : R_DELTA + 4]) == [1, -10, 24, -15]
    referee = Referee(
        hand.events, hand.wall, config.options, *hand.record[[R_DEALER, RS.RW_STREAK]]
    )
    referee.run()
    settlement = settle_reference(referee.hand_end())
    assert sorted(
        (i.payer, i.payee, i.amount) for i in settlement.items if i.kind == "responsibility"
    ) == [(1, 2, 1), (1, 2, 2)]
    assert list(settlement.deltas) == [1, -10, 24, -15]
