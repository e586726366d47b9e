"""Anqing through its engine (``sim.variants.anqing``): every worked example §anqing-example-1 to
§anqing-example-9 and each variant it states, played on positions set up exactly
(``anqing_steps``), and the play rules the examples do not reach.

Rules: docs/rules/anqing.md (安庆麻将); each test names the rule it checks.
Indicator ``4p`` unless stated, so the 钻 is ``5p`` (every 5p is a 钻), 红中 stands for 5p and
发财/白板 are 杠牌; dealer seat 0, streak 0.
"""

from __future__ import annotations

import numpy as np
import pytest
from anqing_steps import Table

from sim.core.tiles import kind_id
from sim.kernels import moves as M
from sim.kernels import state as S
from sim.kernels.record import R_DEALER, R_DELTA, R_N_WINNERS, R_NEXT_DEALER, R_OUTCOME, R_WINNER
from sim.variants.anqing import N_ANQING_RECORD, AnqingOptions
from sim.variants.anqing import engine as AE
from sim.variants.anqing.record_slots import RA_AMOUNT, RA_CARRY

pytestmark = pytest.mark.engine  # Anqing's engine

CHI, PONG = S.MELD_CHI, S.MELD_PONG
SINGLE = S.MELD_SINGLE_KONG


def test_aq1_pi_hu_with_a_chi_and_a_wind_triplet():
    """§anqing-example-1, 屁胡 and 风 (§anqing-pi-hu, §anqing-wind-sets): S = 4; the dealer pays 7,
    the others 4 -> seat 1 +15."""
    table = Table({1: "45s 789p E E E 22m"})
    table.meld(1, CHI, "1m", 0)
    table.self_draw(1, "6s")
    assert table.items() == {"基本胡": 3, "风": 1, "屁胡": 0}
    assert table.nets() == [-7, 15, -4, -4]


def test_aq2a_and_c_a_kept_zuan_wins_on_a_natural_or_a_drawn_zuan():
    """§anqing-example-2a, (c) (§anqing-pao-feng-points "必须打掉2筒，手上留钻，胡牌才能算跑风";
    "打掉2筒后摸钻可以胡牌， 算跑风"): S = 12 either way, seat 2 +39."""
    for drawn in ("8s", "5p"):
        table = Table({2: "123m 456s 789m 234p 5p"})
        table.self_draw(2, drawn)
        assert table.items() == {"基本胡": 3, "门清": 3, "跑风": 6}
        assert table.nets() == [-15, -12, 39, -12]


def test_aq2b_and_aq6_a_drawn_zuan_for_another_tile_then_zhi_jiao():
    """§anqing-example-2b (§anqing-pao-feng-points "如果摸钻，不能算跑风") and §anqing-example-6,
    直叫 (§anqing-zhi-jiao-win "直叫：＝杠开+跑风… 4（杠）+6（跑风），然后再加上基本胡";
    "钻牌在形成直叫时才能用来杠"): the drawn 钻 is no win; the 钻 kong is listed (the rest waits on
    9p); its replacement 9p wins S = 16, +51."""
    table = Table({2: "123m 456s 789m 234p 9p"})
    table.draw(2, "5p")
    assert table.wins(2, kind_id("5p")) == []
    assert kind_id("5p") in table.listed(2, kind_id("5p"), M.ACT_KONG)
    assert table.kong(2, "5p", SINGLE) == M.KONG_REPLACEMENT
    row = table.self_draw(2, "9p", replacement=True)
    assert row[M.A_DETAIL] == M.HOW_KONG_BLOOM and row[M.A_FEATURES] & (1 << 24)
    assert table.items() == {"基本胡": 3, "门清": 3, "跑风": 6, "杠开": 3, "杠牌": 1}
    assert table.nets() == [-19, -16, 51, -16]


def test_aq2d_jian_zi_hu_definitions():
    """§anqing-example-2d, 见字胡 (§anqing-rules "见字胡：只能胡万，筒，条"; option
    jian_zi_hu_definition): S = 6 (+21) under suited_natural; no win listed under zuan_diao."""
    hand = {2: "123m 45s 5p 789m 22p 78s"}
    table = Table(hand)
    table.self_draw(2, "9s")
    assert table.items() == {"基本胡": 3, "门清": 3} and table.nets() == [-9, -6, 21, -6]
    strict = Table(hand, jian_zi_hu_definition="zuan_diao")
    assert strict.self_draw(2, "9s") is None


def test_aq3_seven_pairs():
    """§anqing-example-3 (§anqing-hard-seven-pairs 七对天胡, #9 七对有钻, #10 双天胡): +48, +120,
    +201; 双天胡 at 30 -> +138."""
    soft = Table({3: "11m 44p 77s E E N N 99m 5p"})
    soft.self_draw(3, "3s")
    assert soft.items() == {"基本胡": 3, "门清": 3, "七对有钻": 9} and soft.nets()[3] == 48
    hard = Table({3: "11m 44p 77s E E N N 99m 3s"})
    hard.self_draw(3, "3s")
    assert hard.total() == 39 and hard.nets() == [-42, -39, -39, 120]
    double = {3: "5p 5p 5p 11m 44p 77s E E N N"}
    table = Table(double)
    table.self_draw(3, "5p")
    assert table.items() == {"基本胡": 3, "门清": 3, "双天胡": 60} and table.nets()[3] == 201
    lower = Table(double, shuang_tian_hu_points=30)
    lower.self_draw(3, "5p")
    assert lower.total() == 45 and lower.nets() == [-48, -45, -45, 138]


def test_aq4_shisanlan_with_seven_stars():
    """§anqing-example-4, 十三烂 / 七星归位 / 铁烂 (§anqing-rules): 杠牌 held as honours, a class-1
    win is barred but 十三烂 is not: S = 21, +66; not with shisanlan_honours_literal off."""
    hand = {1: "147m 39p 28s E S W RD GD WD"}
    table = Table(hand)
    table.self_draw(1, "N")
    assert table.items() == {"基本胡": 3, "门清": 3, "门清（硬）": 3, "七星归位": 3, "铁烂": 9}
    assert table.nets() == [-24, 66, -21, -21]
    assert Table(hand, shisanlan_honours_literal=False).self_draw(1, "N") is None


def _aq5(dealer, pongs=False, **options):
    table = Table({2: "234m 7p"}, dealer=dealer, **options)
    table.meld(2, PONG if pongs else CHI, "3s", 1)
    table.meld(2, PONG, "9m", 1)
    table.meld(2, PONG, "W", 1)
    table.self_draw(2, "7p")
    return table


def test_aq5_shun_bao_and_its_variants():
    """§anqing-example-5, 顺包 / 反包 (§anqing-rules
    "A给B吃碰、杠混合达到三口，B胜利，称为顺包。A输的银子*3…全部是 碰和杠的…再*2";
    "所有三口胡牌都是跟庄家算得以后相乘"): the dealer-feeder pays 39 (x3), 78 for three pongs; with
    the dealer at seat 0 the feeder pays 30."""
    table = _aq5(dealer=1)
    assert table.items() == {"基本胡": 3, "跑风": 6, "风": 1}
    assert table.nets() == [-10, -39, 59, -10] and table.bao_factors() == [1, 3, 0, 1]
    assert _aq5(dealer=1, pongs=True).nets()[1] == -78
    assert _aq5(dealer=0).nets() == [-13, -30, 53, -10]


def test_aq5_fan_bao_the_feeder_wins():
    """§anqing-example-5 variant, 反包 ("A胜利，称为反包。是在顺包的基础上*2"): the feeder (seat 1,
    dealer) wins S = 10; seat 2, who took three 口 from him, pays (10 + 3) x 6 = 78."""
    table = Table({1: "123m 456s 789p E E E 7p"}, dealer=1)
    for meld_type, tile in ((CHI, "3s"), (PONG, "9m"), (PONG, "W")):
        table.meld(2, meld_type, tile, 1)
    table.self_draw(1, "7p")
    paid = {seat: -net for seat, net in enumerate(table.nets()) if seat != 1}
    assert paid[2] == (table.total() + 3) * 6
    assert paid[0] == paid[3] == table.total() + 3


def test_aq7_chained_gang_tile_kongs():
    """§anqing-example-7, 杠开 (§anqing-gang-kai "一杠3，二杠6…你杠2杠，则为3+6+2名堂=11"): GD
    konged, WD drawn and konged, 9m drawn: S = 27, +84."""
    table = Table({3: "123m 678s 234p S S S 9m"})
    table.draw(3, "GD")
    assert kind_id("GD") in table.listed(3, kind_id("GD"), M.ACT_KONG)
    assert table.kong(3, "GD", SINGLE) == M.KONG_REPLACEMENT
    table.draw(3, "WD", replacement=True)
    assert table.wins(3, kind_id("WD")) == []  # a 杠牌 held blocks the class-1 win
    table.kong(3, "WD", SINGLE)
    table.self_draw(3, "9m", replacement=True)
    items = table.items()
    assert items["杠开"] + items["杠牌"] == 11 and table.total() == 27
    assert table.nets() == [-30, -27, -27, 84]


def test_aq8_hard_pong_pong_won_on_a_drawn_zuan():
    """§anqing-example-8, 硬对对胡 (§anqing-pao-feng-points
    "3)对对胡：胡出牌，都算跑风，不管摸钻还是摸什么，都算"): S = 16, +51, even after discarding a
    钻."""
    hand = {3: "222m 666s E E E 88p 33s"}
    table = Table(hand)
    table.self_draw(3, "5p")
    assert set(table.items()) == {"基本胡", "门清", "跑风", "碰碰胡", "风"}
    assert table.nets() == [-19, -16, -16, 51]
    after = Table(hand)
    after.status[3, after_slot()] = 1
    after.self_draw(3, "5p")
    assert after.total() == 16


def after_slot():
    from sim.variants.anqing.hooks import ST_DISCARDED_ZUAN

    return ST_DISCARDED_ZUAN


def _aq9_records(options):
    """§anqing-example-9's five hands, each settled by the engine with the dealer's streak k, then
    the session's 累加 carry added by the engine's pass over the records."""
    records = np.zeros((5, N_ANQING_RECORD), np.int64)
    plays = [
        (0, 0, "123m 456s 789p 23m 1s 5p", "4m", ()),  # S = 6: base, 门清 (a 钻)
        (0, 1, "456s 789p 23m 11s", "4m", ((PONG, "9m", 2),)),  # S = 3 (屁胡)
        None,  # 荒庄
        (0, 3, "456s 789p 23m 11s", "4m", ((PONG, "9m", 2),)),
        (2, 4, "45s 789p E E E 22m", "6s", ((CHI, "1m", 1),)),  # S = 4 (风)
    ]
    for index, play in enumerate(plays):
        streak = (0, 1, 2, 3, 4)[index]
        table = Table({}, dealer=0, streak=streak)
        if play is None:
            table.exhaust(0)
        else:
            winner, _, hand, drawn, melds = play
            table = Table({winner: hand}, dealer=0, streak=streak)
            for meld_type, tile, source in melds:
                table.meld(winner, meld_type, tile, source)
            table.self_draw(winner, drawn)
        records[index] = table.record
        records[index, R_DEALER] = 0  # play_hand's slot
    AE.session_carry(records, np.int64(8), options.params())
    return records


def test_aq9_lian_zhuang_and_its_carry():
    """§anqing-example-9, 连庄 (§anqing-lian-zhuang
    "第一次连庄的时候庄家输赢各增加3个，第二次连庄增加6个，第三次12个，第 四次15个，黄庄也算连庄";
    "二连庄就是9+名堂+牌番+第一庄胡的，三连庄就是1+2+3庄的总和"): each pays 9, 9, -, 18, then the
    dealer pays 22: +86 / -40 / -6 / -40; with the carry 9, 18, -, 36: +167 / -67 / -33 / -67."""
    plain = _aq9_records(AnqingOptions())
    assert plain[:, R_DELTA : R_DELTA + 4].sum(axis=0).tolist() == [86, -40, -6, -40]
    carried = _aq9_records(AnqingOptions(lian_zhuang_cumulative=True))
    assert carried[:, R_DELTA : R_DELTA + 4].sum(axis=0).tolist() == [167, -67, -33, -67]
    assert carried[3, RA_CARRY + 1] == 18 and carried[3, RA_AMOUNT + 1] == 18


# ------------------------------------------------------------------------------ play rules


def test_no_win_on_a_discard_and_no_claim_of_a_zuan_or_gang_tile():
    """只能自摸胡牌, 钻不可以吃碰 (§anqing-rules "没有点炮，也没有抢杠。只能自摸胡牌";
    "钻不可以吃碰"; 杠牌 "只能用来杠"): a complete hand lists no win on a discard, only its pong; a
    discarded 钻 or 杠牌 lists nothing; no seat may win on a discard or rob (max_winners 0)."""
    table = Table({1: "123m 456s 789p E E 9s 9s", 2: "5p 5p GD GD 1s 2s"})
    claims = table.claims(0, "9s")
    assert [int(row[M.A_TYPE]) for row in claims[1]] == [M.ACT_PONG]
    assert all(len(rows) == 0 for rows in table.claims(0, "5p").values())
    assert all(len(rows) == 0 for rows in table.claims(3, "GD").values())


def test_chi_by_the_next_player_only_and_never_through_a_zuan():
    """Chi (§anqing-claims, §anqing-reading-chi-source: the discarder's next player) and
    钻不可以吃碰: 4p with a 5p (a 钻) and 6p in hand is no chi; 3p with 1p 2p is."""
    table = Table({1: "1p 2p 5p 6p", 2: "1p 2p"})
    claims = table.claims(0, "3p")
    assert [int(r[M.A_TILE]) for r in claims[1] if r[M.A_TYPE] == M.ACT_CHI] == [kind_id("1p")]
    assert len(claims[2]) == 0
    assert all(r[M.A_TYPE] != M.ACT_CHI for r in table.claims(0, "4p")[1])


def test_gang_tiles_are_never_discarded():
    """杠牌 "只能用来杠" (option gang_tile_discardable): the discard mask bars GD and WD."""
    from sim.variants.anqing import hooks as H

    for discardable, barred in ((False, True), (True, False)):
        table = Table({0: "GD 1m"}, gang_tile_discardable=discardable)
        allowed = np.ones(34, np.bool_)
        H.discard_mask.py_func(
            None, table.state.hands[0], table.status, 0, -1, table.params, allowed
        )
        assert (not allowed[kind_id("GD")]) == barred and allowed[kind_id("1m")]


def test_zuan_kong_only_when_ready():
    """直叫 (§anqing-pao-feng-points "钻牌在形成直叫时才能用来杠"; §anqing-zuan-kong-needs-zhi-jiao,
    option zhi_jiao_requires): far from ready, no 钻 kong; the spec's test hand (waits 3s/6s/9s,
    none 跑风) may kong with ``ready`` but not with ``pao_feng_wait``."""
    far = Table({0: "1m 2m 2m 6p 6p 9p 3s 3s 7s E E S W"})
    far.draw(0, "5p")
    assert kind_id("5p") not in far.listed(0, kind_id("5p"), M.ACT_KONG)
    hand = {0: "1m 2m 3m 4s 5s 6s 7m 8m 9m 2p 2p 7s 8s"}
    for requires, listed in (("ready", True), ("pao_feng_wait", False)):
        table = Table(hand, zhi_jiao_requires=requires)
        table.draw(0, "5p")
        assert (kind_id("5p") in table.listed(0, kind_id("5p"), M.ACT_KONG)) == listed


def test_a_held_gang_tile_blocks_a_class_one_win():
    """ "手上有且没形成杠，就不能胡牌" (§anqing-gang-tile-kong): holding GD, a complete standard
    hand lists no win until GD is konged."""
    table = Table({0: "123m 456s 789p 234m 1s GD"})
    table.draw(0, "1s")
    assert table.wins(0, kind_id("1s")) == []
    table.kong(0, "GD", SINGLE)
    assert table.self_draw(0, "3m", replacement=True) is None  # not complete: 3m no wait
    assert table.record[R_OUTCOME] == -1


def test_exhaustive_draw_keeps_the_deal():
    """黄庄也算连庄 (§anqing-lian-zhuang): no payment, the dealer deals again."""
    table = Table({}, dealer=2)
    table.exhaust(1)
    assert table.nets() == [0, 0, 0, 0]
    assert table.record[R_NEXT_DEALER] == 2
    assert table.record[R_N_WINNERS] == 0 and table.record[R_WINNER] == -1
