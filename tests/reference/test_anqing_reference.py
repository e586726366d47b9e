"""The Anqing reference against every worked example of the rules reference (§anqing-example-1 to
§anqing-example-9) and the variants the spec states, the rules the examples do not reach, and
properties.

Rules: docs/rules/anqing.md (安庆麻将); each test names the rule it checks.
Defaults unless a test says otherwise: indicator ``4p`` so the 钻 is ``5p`` (written ``5p*``),
红中 stands for ``5p``, 发财/白板 are 杠牌; dealer seat 0, streak 0.
"""

from __future__ import annotations

import dataclasses
import random

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from sim.analysis.exact import anqing_zuan_of
from sim.core.tiles import KIND_NAMES, kind_id
from sim.variants.anqing import AnqingOptions

from .anqing import (
    RED,
    AnqingWin,
    HandEnd,
    HandResult,
    Meld,
    class_one_identities,
    feeds_of,
    gang_tiles,
    items,
    legal,
    payments,
    readings,
    score,
    session,
    settle,
    zuan_of,
)

DEFAULT = AnqingOptions()


def total(win: AnqingWin, **options) -> int | None:
    result = score(win, AnqingOptions(**options))
    return None if result is None else result.total


def settled(winner: int, win: AnqingWin, dealer: int = 0, others=None, **options):
    return settle(HandEnd(winner, win, dealer, 0, others), AnqingOptions(**options))


# ------------------------------------------------------------------------------ tiles
# (§anqing-setup)


def test_zuan_is_the_successor_of_the_flipped_tile():
    """钻牌的出现 (§anqing-rules "翻的为筒2，则钻牌为筒3…翻的为9，则钻牌返回为1…翻的为北，则东为钻牌
    …翻的是红中，则钻牌为发财。翻发财是白板。翻白板为中"), and the same as the exact module's
    rule."""
    pairs = {"2p": "3p", "9s": "1s", "9m": "1m", "N": "E", "E": "S", "RD": "GD", "GD": "WD"}
    pairs["WD"] = "RD"
    for flipped, zuan in pairs.items():
        assert zuan_of(kind_id(flipped)) == kind_id(zuan)
    assert [zuan_of(k) for k in range(34)] == [anqing_zuan_of(k) for k in range(34)]


def test_gang_tiles_and_what_a_zuan_may_stand_for():
    """杠牌 (§anqing-rules "如果不是中发白的钻牌时候，发财和白板是杠牌…如果是中发白的钻牌…红中和白板
    就可以用来杠牌", §anqing-red-dragon, §anqing-reading-dragon-zuan-gang-tiles): 发/白, or the two
    other dragons; a 钻 never stands for a 杠牌, nor for 中 when 红中 is the 钻's face."""
    assert gang_tiles(kind_id("5p")) == {kind_id("GD"), kind_id("WD")}
    assert gang_tiles(kind_id("GD")) == {kind_id("RD"), kind_id("WD")}
    assert gang_tiles(kind_id("RD")) == {kind_id("GD"), kind_id("WD")}
    assert RED not in class_one_identities(kind_id("5p"))
    assert RED in class_one_identities(RED) and kind_id("GD") not in class_one_identities(RED)
    assert kind_id("GD") in class_one_identities(kind_id("GD"))


# ------------------------------------------------------------------------------ §anqing-example-1
# .. §anqing-example-4


def test_aq1_pi_hu_with_a_chi_and_a_wind_triplet():
    """§anqing-example-1, 屁胡 and 风 (§anqing-pi-hu "屁胡：除了上面牌型之外的基础牌型",
    §anqing-wind-sets "风：…只要有三个一 样的就 +1"): a two-sided wait is no 跑风, a chi breaks
    门清; S = 4; the dealer pays 4 + 3."""
    win = AnqingWin("456s 789p E E E 22m", "6s", (Meld("chi", "1m", 0),))
    result = settled(1, win)
    assert result.score.items == (("基本胡", 3), ("风", 1), ("屁胡", 0))
    assert result.paid == {0: 7, 2: 4, 3: 4} and result.deltas == (-7, 15, -4, -4)


def test_aq1_with_the_dealer_extra_only_on_his_wins():
    """庄家额外 (§anqing-base "所有的胡牌闲家都加+3个，庄家额外+3个", option
    dealer_extra_symmetric): off, a non-dealer's win costs the dealer no extra."""
    win = AnqingWin("456s 789p E E E 22m", "6s", (Meld("chi", "1m", 0),))
    assert settled(1, win, dealer_extra_symmetric=False).deltas == (-4, 12, -4, -4)


def test_aq2a_a_kept_zuan_as_the_single_wait():
    """§anqing-example-2a, 跑风 独吊 and 见字胡 (§anqing-pao-feng-points
    "必须打掉2筒，手上留钻，胡牌才能算跑风"; §anqing-rules
    "有钻牌，且没出过钻牌…见字胡：只能胡万，筒，条"): S = 12, +39."""
    win = AnqingWin("123m 456s 789m 234p 5p* 8s", "8s")
    result = settled(2, win)
    assert result.score.items == (("基本胡", 3), ("门清", 3), ("跑风", 6))
    assert result.paid == {0: 15, 1: 12, 3: 12} and result.deltas[2] == 39


def test_aq2b_a_drawn_zuan_for_another_tile_does_not_win():
    """§anqing-example-2b, 跑风 (§anqing-pao-feng-points "如果摸钻，不能算跑风";
    "摸钻不能平胡，必须要形成跑风"): the drawn 钻 can only be 9p: neither 跑风 nor 见字胡, no
    碰碰胡, no 杠开 -> no win, under both 见字胡 readings; a 杠开 would win."""
    win = AnqingWin("123m 456s 789m 234p 9p 5p*", "5p*")
    assert score(win) is None
    assert total(win, jian_zi_hu_definition="zuan_diao") is None
    assert total(dataclasses.replace(win, kong_chain=1)) == 3 + 3 + 3  # base, 门清, 杠开 3


def test_aq2c_a_drawn_zuan_pairs_the_kept_one():
    """§anqing-example-2c, a drawn 钻 at its own face (§anqing-pao-feng-points
    "打掉2筒后摸钻可以胡牌，算跑风"): 跑风 and 见字胡 under both definitions; S = 12, +39."""
    win = AnqingWin("123m 456s 789m 234p 5p* 5p*", "5p*")
    for definition in ("suited_natural", "zuan_diao"):
        result = settled(2, win, jian_zi_hu_definition=definition)
        assert result.score.total == 12 and result.deltas[2] == 39


def test_aq2d_jian_zi_hu_definitions():
    """§anqing-example-2d, 见字胡 (§anqing-rules "见字胡：只能胡万，筒，条", option
    jian_zi_hu_definition): a 钻 in a sequence, natural 9s drawn: wins as S = 6 (+21) under
    suited_natural, not under zuan_diao."""
    win = AnqingWin("123m 45s 5p* 789m 22p 78s 9s", "9s")
    result = settled(2, win)
    assert result.score.items == (("基本胡", 3), ("门清", 3))
    assert result.paid == {0: 9, 1: 6, 3: 6} and result.deltas[2] == 21
    assert total(win, jian_zi_hu_definition="zuan_diao") is None


def test_aq3a_seven_pairs_with_a_zuan():
    """§anqing-example-3a, 七对有钻 (§anqing-soft-seven-pairs
    "七对有钻：+9（跑风已经包含在+9里，不在显示和累加）"): S = 15, +48."""
    win = AnqingWin("11m 44p 77s E E N N 99m 3s 5p*", "3s")
    result = settled(3, win)
    assert result.score.items == (("基本胡", 3), ("门清", 3), ("七对有钻", 9))
    assert result.paid == {0: 18, 1: 15, 2: 15} and result.deltas[3] == 48


def test_aq3b_hard_seven_pairs():
    """§anqing-example-3b, 七对天胡 (§anqing-hard-seven-pairs "七对天胡：没有顶替其他牌的钻…+30")
    and 门清（硬） (§anqing-menqing-ying): S = 39, +120, no 跑风
    (§anqing-reading-seven-pairs-no-pao-feng); 36 when 门清（硬） replaces 门清."""
    win = AnqingWin("11m 44p 77s E E N N 99m 3s 3s", "3s")
    result = settled(3, win)
    assert result.score.items == (("基本胡", 3), ("门清", 3), ("门清（硬）", 3), ("七对天胡", 30))
    assert result.paid == {0: 42, 1: 39, 2: 39} and result.deltas[3] == 120
    assert total(win, menqing_ying_additive=False) == 36


def test_aq3c_shuang_tian_hu_and_its_value():
    """§anqing-example-3c, 双天胡 (§anqing-shuang-tian-hu
    "双天胡：七对+四钻，并且四个钻只表示自己本身"): 60 instead of 七 对天胡 + 四个钻牌, S = 66,
    +201; at 30 the best reading is 七对有钻 + 四个钻牌, S = 45, +138."""
    win = AnqingWin("5p* 5p* 5p* 11m 44p 77s E E N N 5p*", "5p*")
    result = settled(3, win)
    assert result.score.items == (("基本胡", 3), ("门清", 3), ("双天胡", 60))
    assert result.paid == {0: 69, 1: 66, 2: 66} and result.deltas[3] == 201
    lower = settled(3, win, shuang_tian_hu_points=30)
    assert sorted(lower.score.names) == sorted(["基本胡", "门清", "四个钻牌", "七对有钻"])
    assert lower.paid == {0: 48, 1: 45, 2: 45} and lower.deltas[3] == 138


def test_aq3c_without_quads_there_is_no_shuang_tian_hu():
    """七小对 with four of a kind (option seven_pairs_allow_quad, §anqing-class-one): off, the
    four 钻 cannot be two pairs of 5p, so the hand is 七对有钻 + 四个钻牌 = 45 whatever 双天胡
    is worth."""
    win = AnqingWin("5p* 5p* 5p* 11m 44p 77s E E N N 5p*", "5p*")
    assert total(win, seven_pairs_allow_quad=False) == 45
    assert total(win, seven_pairs_allow_quad=False, shuang_tian_hu_points=90) == 45


def test_aq4_shisanlan_with_seven_stars():
    """§anqing-example-4, 十三烂 / 七星归位 / 铁烂 (§anqing-rules
    "十三烂…如果手上有东南西北中发白，称为七星归位 "; §anqing-seven-stars,
    §anqing-shisanlan-grades): 杠牌 held as honours, 红中 as 中; S = 21, +66; no 钻 condition."""
    win = AnqingWin("147m 39p 28s E S W N RD GD WD", "N")
    result = settled(1, win)
    assert result.score.items == (
        ("基本胡", 3),
        ("门清", 3),
        ("门清（硬）", 3),
        ("七星归位", 3),
        ("铁烂", 9),
    )
    assert result.paid == {0: 24, 2: 21, 3: 21} and result.deltas[1] == 66
    assert total(dataclasses.replace(win, discarded_zuan=True)) == 21  # "13烂不受以下限制"
    assert total(win, shisanlan_honours_literal=False) is None  # 杠牌 held, 红中 = 5p


def test_shisanlan_grades_with_zuan():
    """硬烂 / 软烂 / 七星归位 (§anqing-shisanlan-grades "硬烂：有钻牌，但钻牌只顶替本身的牌+6", #18
    "软烂：…钻牌 之顶替其他的牌+3", #15 "东南西北中发白没有顶替其他牌的钻称为七星归位"): a 钻 in its
    own slot is 硬烂; a 钻 for another suited tile is 软烂 and keeps 七星归位; a 钻 for an honour is
    软烂 without it."""
    hard = AnqingWin("147m 2p 5p* 28s E S W N RD GD WD", "N")
    assert score(hard).items[-2:] == (("七星归位", 3), ("硬烂", 6))
    suited_slot = AnqingWin("147m 25p 3s E S W N RD GD WD 2s*", "N", indicator="1s")
    assert score(suited_slot).items[-2:] == (("七星归位", 3), ("软烂", 3))
    honour_slot = AnqingWin("147m 258p 369s E S W N 2s*", "N", indicator="1s")
    assert score(honour_slot).items[-1] == ("软烂", 3)
    assert "七星归位" not in score(honour_slot).names


# ------------------------------------------------------------------------------ §anqing-example-5
# 包


AQ5_MELDS = (Meld("chi", "3s", 1), Meld("pong", "9m", 1), Meld("pong", "W", 1))


def test_aq5_shun_bao_with_the_feeder_dealing():
    """§anqing-example-5, 顺包 (§anqing-rules
    "如果有A给B吃碰、杠混合达到三口，B胜利，称为顺包。A输的银子*3"): seat 1 (dealer, feeder) pays
    (10 + 3) x 3 = 39; +59."""
    win = AnqingWin("234m 77p", "7p", AQ5_MELDS)
    result = settled(2, win, dealer=1)
    assert result.score.items == (("基本胡", 3), ("跑风", 6), ("风", 1))
    assert result.paid == {0: 10, 1: 39, 3: 10} and result.deltas[2] == 59


def test_aq5_all_pongs_and_fan_bao():
    """§anqing-example-5 variants, 顺包 all pongs ("如果全部是碰和杠的，三口的话，再*2") and 反包
    ("A胜利，称 为反包。是在顺包的基础上*2"): x6 -> 78; the feeder winning S = 10 collects (10 + 3)
    x 6 = 78."""
    pongs = (Meld("pong", "3s", 1), Meld("pong", "9m", 1), Meld("pong", "W", 1))
    win = AnqingWin("234m 77p", "7p", pongs)
    assert settled(2, win, dealer=1).paid[1] == 78
    feeds = feeds_of({2: AQ5_MELDS})
    assert payments(10, 1, 1, 0, feeds, DEFAULT) == {0: 13, 2: 78, 3: 13}


def test_aq5_with_the_dealer_elsewhere():
    """§anqing-example-5 last variant ("所有三口胡牌都是跟庄家算得以后相乘",
    §anqing-reading-bao-multiplies-dealer-amount): the feeder pays 10 x 3 = 30 without a dealer
    extra, the dealer 13, seat 3 10; +53."""
    result = settled(2, AnqingWin("234m 77p", "7p", AQ5_MELDS), dealer=0)
    assert result.paid == {0: 13, 1: 30, 3: 10} and result.deltas[2] == 53


def test_bao_four_mouths_and_mutual_bao():
    """包 with four 口 ("吃碰杠混合加一起4口，再*2…四口，再*4") and 互为顺包 ("需要单独开分别进
    行计算，再进行总和"; options bao_all_pong_4_factor, mutual_bao_mode)."""
    four_mixed = {(1, 2): ["chi", "pong", "pong", "ming_gang"]}
    four_pongs = {(1, 2): ["pong", "pong", "jia_gang", "ming_gang"]}
    assert payments(10, 2, 0, 0, four_mixed, DEFAULT)[1] == 60
    assert payments(10, 2, 0, 0, four_pongs, DEFAULT)[1] == 120
    assert payments(10, 2, 0, 0, four_pongs, AnqingOptions(bao_all_pong_4_factor=24))[1] == 240
    mutual = {(1, 2): ["chi", "pong", "pong"], (2, 1): ["chi", "chi", "pong"]}
    assert payments(10, 2, 0, 0, mutual, DEFAULT) == {0: 13, 1: 10 * (3 + 2 * 3), 3: 10}
    assert payments(10, 2, 0, 0, mutual, AnqingOptions(mutual_bao_mode="max"))[1] == 60
    assert payments(10, 2, 0, 0, {(1, 2): ["pong", "pong"]}, DEFAULT)[1] == 10  # two 口: none


# ------------------------------------------------------------------------------ §anqing-example-6
# .. §anqing-example-8


def test_aq6_zhi_jiao_with_a_zuan_kong():
    """§anqing-example-6, 直叫 (§anqing-zhi-jiao-win
    "直叫：＝杠开+跑风，比如一杠开就是4（杠）+6（跑风），然后再加上基本胡 "): after konging his only
    钻 he has Z = no; 杠开 3 + kong 1 + 跑风 6 + 门清 3 + base 3 = 16, +51; 13 when a single kong
    breaks 门清."""
    win = AnqingWin("123m 456s 789m 234p 99p", "9p", (Meld("single", "5p*"),), kong_chain=1)
    result = settled(2, win)
    assert sorted(result.score.items) == sorted(
        [("基本胡", 3), ("门清", 3), ("跑风", 6), ("杠开", 3), ("杠牌", 1)]
    )
    assert result.paid == {0: 19, 1: 16, 3: 16} and result.deltas[2] == 51
    assert total(win, single_kong_breaks_menqing=True) == 13


def test_aq7_chained_gang_tile_kongs():
    """§anqing-example-7, 杠开 (§anqing-gang-kai "一杠3，二杠6…你杠2杠，则为3+6+2名堂=11"): two
    chained 杠牌 kongs then a 独吊: S = 27, +84; 24 with the 3k progression."""
    melds = (Meld("single", "GD"), Meld("single", "WD"))
    win = AnqingWin("123m 678s 234p S S S 99m", "9m", melds, kong_chain=2)
    result = settled(3, win)
    assert dict(result.score.items)["杠开"] + dict(result.score.items)["杠牌"] == 11
    assert result.score.total == 27 and result.paid == {0: 30, 1: 27, 2: 27}
    assert result.deltas[3] == 84
    assert total(win, gang_kai_cumulative=False) == 24
    earlier = AnqingWin("123m 678s S S S 99m", "9m", (Meld("an_gang", "2p"), *melds), kong_chain=2)
    assert dict(score(earlier, AnqingOptions(gang_kai_count_mode="total")).items)["杠开"] == 18


def test_aq8_hard_pong_pong_won_on_a_drawn_zuan():
    """§anqing-example-8, 硬对对胡 (§anqing-pao-feng-points
    "3)对对胡：胡出牌，都算跑风，不管摸钻还是摸什么，都算（硬对对胡才 能算跑风）"): a drawn 钻 for
    8p wins and is 跑风; S = 16, +51, even after discarding a 钻."""
    win = AnqingWin("222m 666s E E E 88p 33s 5p*", "5p*")
    result = settled(3, win)
    assert sorted(result.score.names) == sorted(["基本胡", "门清", "跑风", "碰碰胡", "风"])
    assert result.score.total == 16 and result.deltas[3] == 51
    assert total(dataclasses.replace(win, discarded_zuan=True)) == 16


def test_a_pong_pong_made_by_moving_kept_zuan_is_not_hard():
    """硬对对胡 (§anqing-zuan-conditions case 4): kept 钻 must keep their own face, so
    222m 666s EEE 5p*5p* 33s does not win on a drawn N (N is no 见字胡)."""
    assert score(AnqingWin("222m 666s E E E 5p* 5p* 33s N", "N")) is None


# ------------------------------------------------------------------------------ §anqing-example-9
# 连庄


AQ9 = [
    HandResult(0, 6),
    HandResult(0, 3),
    HandResult(None),
    HandResult(0, 3),
    HandResult(2, 4),
]


def net(hands) -> list[int]:
    return [sum(hand.deltas[seat] for hand in hands) for seat in range(4)]


def test_aq9_lian_zhuang_streak():
    """§anqing-example-9, 连庄 (§anqing-lian-zhuang
    "第一次连庄的时候庄家输赢各增加3个，第二次连庄增加6个，第三次12个，第 四次15个，黄庄也算连庄"):
    each pays 9, 9, -, 18; then the dealer pays 22: +86, -40, -6, -40."""
    hands = session(AQ9, 0)
    assert [hand.streak for hand in hands] == [0, 1, 2, 3, 4]
    assert [hand.paid.get(1) for hand in hands] == [9, 9, None, 18, 4]
    assert hands[4].paid == {0: 22, 1: 4, 3: 4}
    assert net(hands) == [86, -40, -6, -40]


def test_aq9_lian_zhuang_cumulative():
    """§anqing-example-9, 连庄 累加 (§anqing-lian-zhuang
    "二连庄就是9+名堂+牌番+第一庄胡的，三连庄就是1+2+3庄的总和"): 9, 18, -, 36, then 22 as before:
    +167, -67, -33, -67."""
    hands = session(AQ9, 0, AnqingOptions(lian_zhuang_cumulative=True))
    assert [hand.paid.get(2) for hand in hands] == [9, 18, None, 36, None]
    assert net(hands) == [167, -67, -33, -67]


def test_the_deal_passes_by_rule():
    """定庄 (§anqing-next-dealer, option next_dealer_rule): a non-dealer's win passes the deal to
    the dealer's next player, or to the winner; the streak restarts."""
    results = [HandResult(2, 3), HandResult(3, 3)]
    assert [hand.dealer for hand in session(results, 0)] == [0, 1]
    winner = session(results, 0, AnqingOptions(next_dealer_rule="winner"))
    assert [(hand.dealer, hand.streak) for hand in winner] == [(0, 0), (2, 0)]


# ------------------------------------------------------------------------------ other rules


def test_a_held_gang_tile_blocks_class_one():
    """杠牌 (§anqing-rules "发财和白板是杠牌，只能用来杠，（手上有切没形成杠），就不能胡牌"): a pair
    of 发财 held is no win, even with 杠开; konged singly they are 牌型5 kongs and the hand wins
    on 8s."""
    held = AnqingWin("123m 456s 789m 234p GD GD", "GD")
    assert score(held) is None and score(dataclasses.replace(held, kong_chain=1)) is None
    konged = AnqingWin(
        "123m 456s 789m 234p 8s 8s", "8s", (Meld("single", "GD"), Meld("single", "GD"))
    )
    assert total(konged) == 3 + 3 + 3 + 6 + 2  # base, 门清, 门清（硬）, 跑风, two single kongs


def test_discarded_zuan_needs_pao_feng_or_gang_kai():
    """出过钻牌 (§anqing-rules "无钻牌，打出过钻牌，若想胡牌必须符合以下两种情况1．跑风…2．杠开"):
    §anqing-example-1's two-sided win is barred after a discarded 钻, allowed as 杠开; a 独吊 still
    wins."""
    win = AnqingWin("456s 789p E E E 22m", "6s", (Meld("chi", "1m", 0),), discarded_zuan=True)
    assert score(win) is None
    assert score(dataclasses.replace(win, kong_chain=1)) is not None
    single = AnqingWin("456s 789p E E E 22m", "2m", (Meld("chi", "1m", 0),), discarded_zuan=True)
    assert total(single) == 3 + 6 + 1


def test_zuan_and_discarded_zuan_need_both():
    """有钻牌，且打出过钻牌 (§anqing-rules "1. 杠开 2. 同时满足跑风和见字胡"): §anqing-example-2a
    still wins (独吊 on 8s is both); §anqing-example-2d (见字胡 without 跑风) does not."""
    a = AnqingWin("123m 456s 789m 234p 5p* 8s", "8s", discarded_zuan=True)
    d = AnqingWin("123m 45s 5p* 789m 22p 78s 9s", "9s", discarded_zuan=True)
    assert total(a) == 12 and score(d) is None


def test_red_dragon_stands_for_the_zuan_face():
    """红中 (§anqing-rules "红中就代替代钻牌本来的牌。比如7万为钻牌，红中在这一盘就可以当7万用"):
    with 钻 5p, RD is 5p: a drawn RD pairing a kept 钻 is 跑风 and 见字胡, unless
    jian_zi_hu_red_counts is off."""
    win = AnqingWin("123m 456s 789m 234p 5p* RD", "RD")
    assert total(win) == 12
    assert total(win, jian_zi_hu_red_counts=False) is None
    seq = AnqingWin("123m 456s 789m 4p RD 6p 99p", "9p")
    assert total(seq) == 3 + 3 + 3 + 6  # no 钻 at all: 门清（硬）


def test_big_crane():
    """大吊车 (§anqing-big-crane "大吊车(无钻)：手把一张单吊+30", #13 "大吊车(有钻)：+3"): four
    melds, the pair drawn; stacks with 碰碰胡 and 跑风; with a 钻 kept as the single tile, 3."""
    melds = (
        Meld("pong", "1m", 1),
        Meld("pong", "9s", 2),
        Meld("pong", "E", 3),
        Meld("an_gang", "3p"),
    )
    natural = AnqingWin("9m 9m", "9m", melds)
    assert sorted(score(natural).items) == sorted(
        [("基本胡", 3), ("跑风", 6), ("碰碰胡", 3), ("大吊车(无钻)", 30), ("杠牌", 2), ("风", 1)]
    )
    with_zuan = AnqingWin("5p* 9m", "9m", melds)
    assert ("大吊车(有钻)", 3) in score(with_zuan).items


def test_unique_wait_pao_feng():
    """跑风 (§anqing-rules "抓的牌是一张可以凑够对子并形成胡牌牌型的牌", option
    pao_feng_definition): 1234m waits on 1m and 4m; 4m as the pair is 跑风 by decomposition, not
    as a single wait."""
    win = AnqingWin("1234m 4m 456s 789s 234p", "4m")
    assert total(win) == 3 + 3 + 3 + 6
    assert total(win, pao_feng_definition="unique_wait") == 3 + 3 + 3


def test_four_zuan_and_heavenly():
    """四个钻牌 (§anqing-four-zuan "四个钻牌：胡牌之后另+30") counts konged 钻; 天胡/地胡
    (§anqing-heavenly "+30")."""
    win = AnqingWin("123m 456s 789m 5p* 5p* 5p* 99p", "9p", (Meld("single", "5p*"),), kong_chain=1)
    assert "四个钻牌" in score(win).names
    heaven = AnqingWin("123m 456s 789m 234p 99p", "9p", heavenly=True)
    assert total(heaven) == 3 + 3 + 3 + 6 + 30


def test_wind_kongs_and_wind_sets():
    """杠牌 and 风 (§anqing-kong-points "明杠+1，暗杠+2，风的杠牌都要多加，明风杠再+1，暗风杠再+2",
    #21): a concealed wind kong is 2 + 2 and a 风 set; a 钻-made wind triplet counts for 风."""
    win = AnqingWin("123m 456s 789m 99p", "9p", (Meld("an_gang", "E"),))
    assert dict(score(win).items)["杠牌"] == 4 and dict(score(win).items)["风"] == 1
    made = AnqingWin("123m 456s 789m 99p N N 5p*", "9p")
    assert dict(score(made).items).get("风") == 1


# ------------------------------------------------------------------------------ properties


SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def winning_hands(draw, max_zuan: int = 3) -> AnqingWin:
    """A standard 14-tile concealed hand built from four sets and a pair of class-1 identities
    (the 钻 face written as 红中 or 钻), some tiles turned into 钻, and one of them drawn."""
    indicator = draw(st.sampled_from(range(34)))
    zuan = zuan_of(indicator)
    allowed = class_one_identities(zuan)
    kinds = []
    for _ in range(4):
        if draw(st.booleans()):
            start = draw(st.sampled_from([k for k in range(27) if k % 9 <= 6]))
            kinds += [start, start + 1, start + 2]
        else:
            kinds += [draw(st.sampled_from(allowed))] * 3
    kinds += [draw(st.sampled_from(allowed))] * 2
    tiles = [(kind, kind == zuan and zuan >= RED) for kind in kinds]
    tiles = [(RED if kind == zuan and not wild else kind, wild) for kind, wild in tiles]
    for index in draw(st.sets(st.integers(0, 13), max_size=max_zuan)):
        tiles[index] = (zuan, True)
    physical = [kind for kind, _ in tiles] + [indicator]
    assume(all(physical.count(kind) <= 4 for kind in physical))
    w_kind, w_zuan = tiles[draw(st.integers(0, 13))]
    names = [KIND_NAMES[kind] + ("*" if wild else "") for kind, wild in tiles]
    return AnqingWin(
        " ".join(names),
        KIND_NAMES[w_kind] + ("*" if w_zuan else ""),
        indicator=KIND_NAMES[indicator],
        discarded_zuan=draw(st.booleans()),
    )


@SETTINGS
@given(winning_hands(), st.randoms(use_true_random=False))
def test_the_order_of_the_concealed_tiles_does_not_matter(win, rng: random.Random):
    """A hand is a multiset (§anqing-vocabulary): the same tiles written in any order score
    alike."""
    tokens = win.concealed.split()
    rng.shuffle(tokens)
    shuffled = dataclasses.replace(win, concealed=" ".join(tokens))
    first, second = score(win), score(shuffled)
    assert (first is None) == (second is None)
    if first is not None:
        assert sorted(first.items) == sorted(second.items)


@SETTINGS
@given(winning_hands())
def test_every_built_hand_wins_as_kong_bloom(win):
    """杠开 (§anqing-rules: every row of the 钻 conditions accepts 杠开): a complete class-1 shape
    with a 杠开 draw is always a legal win, with 杠开 among its items."""
    gang = KIND_NAMES[min(gang_tiles(win.zuan))]
    bloom = dataclasses.replace(win, kong_chain=1, melds=(Meld("single", gang),))
    result = score(bloom)
    assert result is not None and "杠开" in result.names


@SETTINGS
@given(winning_hands())
def test_a_discarded_zuan_never_helps(win):
    """出过钻牌 (§anqing-rules): D only adds conditions, so a hand legal after a discarded 钻 is
    legal without one, and its best score is no higher."""
    with_d = score(dataclasses.replace(win, discarded_zuan=True))
    without = score(dataclasses.replace(win, discarded_zuan=False))
    if with_d is not None:
        assert without is not None and without.total >= with_d.total


@SETTINGS
@given(winning_hands())
def test_the_best_reading_is_at_least_every_legal_reading(win):
    """§anqing-score-table ("uses the one that satisfies §anqing-zuan-conditions and gives the
    highest S"): however the 钻 are assigned, no legal reading scores more than the chosen one, and
    a hand with a legal reading has a score."""
    totals = [
        sum(points for _, points in items(reading, win, DEFAULT))
        for reading in readings(win, DEFAULT)
        if legal(reading, win, DEFAULT)
    ]
    result = score(win)
    assert (result is None) == (not totals)
    if totals:
        assert result.total == max(totals)


@SETTINGS
@given(winning_hands(max_zuan=2))
def test_a_better_zuan_value_never_lowers_the_score(win):
    """钻 values (options shuang_tian_hu_points, single_kong_points): raising what a reading can
    earn never lowers the best score."""
    for option, low, high in (("shuang_tian_hu_points", 0, 90), ("single_kong_points", 0, 3)):
        a, b = total(win, **{option: low}), total(win, **{option: high})
        assert (a is None) == (b is None)
        assert a is None or b >= a


@st.composite
def payment_cases(draw):
    winner = draw(st.integers(0, 3))
    dealer = draw(st.integers(0, 3))
    streak = draw(st.integers(0, 6))
    feeds = {}
    for feeder in range(4):
        for receiver in range(4):
            if feeder != receiver and draw(st.booleans()):
                kinds = st.sampled_from(["chi", "pong", "ming_gang", "jia_gang"])
                feeds[(feeder, receiver)] = draw(st.lists(kinds, min_size=1, max_size=4))
    return draw(st.integers(3, 200)), winner, dealer, streak, feeds


@settings(max_examples=200, deadline=None)
@given(payment_cases(), st.sampled_from(["sum", "max"]), st.booleans())
def test_payments_are_zero_sum_and_at_least_the_score(case, mutual, cumulative):
    """§anqing-payments (every other player pays the self-drawer): deltas sum to zero; every payer
    pays at least S; a payer outside 包 and away from the dealer pays exactly S
    ("其余两家钱照给")."""
    s, winner, dealer, streak, feeds = case
    options = AnqingOptions(mutual_bao_mode=mutual, lian_zhuang_cumulative=cumulative)
    paid = payments(s, winner, dealer, streak, feeds, options)
    assert set(paid) == set(range(4)) - {winner}
    assert all(amount >= s for amount in paid.values())
    for payer, amount in paid.items():
        shun = len(feeds.get((payer, winner), ())) >= 3
        fan = len(feeds.get((winner, payer), ())) >= 3
        if dealer not in (payer, winner) and not (shun or fan):
            assert amount == s
    results = [HandResult(winner, s, feeds), HandResult(None), HandResult(dealer, s, feeds)]
    for hand in session(results, dealer, options):
        assert sum(hand.deltas) == 0
