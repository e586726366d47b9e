"""Weng'an options that no worked-example test varied, each shown to change the outcome as
§wengan-options says: the same position played through the engine's steps
(``tests/wengan_steps.py``) under two or more values of one option, every seat's net (or the claims
listed) asserted. ``test_wengan_option_coverage.py`` maps every declared option to the tests that
vary it.

Rules: docs/rules/wengan.md (贵州瓮安麻将); each test names the rule it checks (its id in the rules
reference and its Chinese name). The flip after a win is the wall's first tile
(§wengan-chicken-flip); seats holding ``JUNK`` are far from ready and hold no exposed chicken."""

from __future__ import annotations

import numpy as np
import pytest
from wengan_steps import JUNK, Table

from sim.core.tiles import kind_id
from sim.core.wall import shuffled_walls
from sim.kernels import moves as M
from sim.kernels import state as S
from sim.kernels.agents import AGENT_SELF_DRAW
from sim.kernels.record import R_DEALER
from sim.play import first_dealers
from sim.variants.wengan import WenganOptions, play_records
from sim.variants.wengan import engine as WE
from sim.variants.wengan import hooks as H
from sim.variants.wengan import record_slots as RS

pytestmark = pytest.mark.engine  # Weng'an's engine under its options

CONCEALED, ADDED, DISCARD_KONG, PONG = (
    S.MELD_CONCEALED_KONG,
    S.MELD_ADDED_KONG,
    S.MELD_DISCARD_KONG,
    S.MELD_PONG,
)
PING_HU_ON_4S = "2m 3m 4m 5p 6p 7p 7s 8s 9s 6m 7m 8m 4s"  # no kong: no 通行证


def wins_listed(table, offerer, tile, how=M.HOW_DISCARD, kong_type=-1):
    listed = table.claims(offerer, tile, how, kong_type)
    return sorted(s for s, rows in listed.items() if any(r[M.A_TYPE] == M.ACT_WIN for r in rows))


# ------------------------------------------------------------------------------ the flip and
# the value of a chicken tile (§wengan-chickens)

WA2 = "5p 5p 5p 1s 1s 3m 3m 7m 7m 9p 9p 2s 2s"


def wa2_nets(wall="9s 4m 4m", discard=None, **options):
    """§wengan-example-2: seat 2 self-draws the fourth 5p, 龙七对 20 from each; ``discard``: a tile
    seat 2 discarded (unclaimed) earlier in the hand."""
    table = Table({2: WA2, 0: JUNK[0], 1: JUNK[1]}, wall, **options)
    if discard:
        S.give_tile(table.state, 2, kind_id(discard))
        table.discard(2, discard)
    table.self_draw(2, "5p")
    return table.nets()


@pytest.mark.parametrize(
    ("options", "wall", "winner"),
    [
        ({}, "9s 4m 4m", 78),
        ({"fan_pai_ji": False}, "9s 4m 4m", 66),
        ({"jin_ji": False}, "9s 4m 4m", 72),
        ({"gold_model": "multiplicative"}, "9s 4m 4m", 72),
        ({"qian_hou_fan_ji": True}, "9s 4m 4m 9s", 90),
        ({}, "9s 4m 4m 9s", 78),
        ({"qian_hou_fan_ji": True, "gold_model": "multiplicative"}, "9s 4m 4m 9s", 78),
        ({}, "2s 4m 4m", 72),
        ({"yao_bai_ji": True}, "2s 4m 4m", 84),
    ],
)
def test_wa2_under_the_flip_options(options, wall, winner):
    """§wengan-example-2's two 1s (source: 翻牌 摸过翻牌确认, 金鸡 每只鸡+2分，翻中两次+4分,
    前后翻鸡 翻开未摸的第一张和最后一张, 摇摆鸡 翻牌顺位+1，-1翻鸡牌; §wengan-chicken-flip,
    §wengan-chicken-value, §wengan-reading-chicken-arithmetic, §wengan-reading-double-flip-example,
    §wengan-reading-flip-options-need-flip). Flip 9s hits 1s: gold 3 each (+78); without the flip 1
    each (+66, §wengan-chicken-flip's test); without 金鸡, or under the multiplicative gold model, 1
    + 1 = 1 x 2 = 2 (+72); with 前后翻鸡 the tail 9s hits again: 1 + 2 + 2 = 5 (+90),
    multiplicatively 1 x 3 = 3 (+78). Flip 2s designates 3s and 2s (the hand's 2s 2s: 1 each, +72)
    and with 摇摆鸡 also 1s, gold (+84; §wengan-reading-double-flip-example)."""
    assert wa2_nets(wall, **options) == [-winner // 3, -winner // 3, winner, -winner // 3]


@pytest.mark.parametrize(("man_tang_ji", "winner"), [(False, 78), (True, 81)])
def test_man_tang_ji_counts_flip_chickens_in_the_discards(man_tang_ji, winner):
    """满堂鸡 (source: 满堂鸡 打出去且未被杠碰的牌也是翻鸡牌; §wengan-chicken-collection): seat 2
    discarded a 9s, which the flip 9s designates (本鸡); it scores 1 from each only with
    man_tang_ji."""
    nets = wa2_nets(discard="9s", man_tang_ji=man_tang_ji)
    assert nets == [-winner // 3, -winner // 3, winner, -winner // 3]


def test_base_stake_multiplies_the_win_and_the_chickens():
    """底分 (source: 总分=（胡牌牌型分+杠上花+鸡分+豆分+连庄）*底分; §wengan-total):
    §wengan-example-2 at 底分 2 pays twice its numbers."""
    assert wa2_nets(base_stake=2) == [-52, -52, 156, -52]
    assert wa2_nets(base_stake=1) == [-26, -26, 78, -26]


def seven_pairs_chickens(tile, flip, **options):
    """Seat 0 self-draws a 七对 (5 from each) holding ``tile`` twice; ``flip`` is the wall's
    head. Returns seat 0's chicken income (from the three others)."""
    hand = f"{tile} {tile} 2m 2m 6m 6m 8m 8m 5s 5s 6s 6s 4s"
    table = Table({0: hand, 1: JUNK[0], 2: JUNK[1]}, f"{flip} 4p 4p", **options)
    table.self_draw(0, "4s")
    chickens = int(table.record[RS.RW_CHICKEN])
    assert table.nets() == [15 + chickens] + [-(15 + chickens) // 3] * 3
    return chickens


@pytest.mark.parametrize(
    ("tile", "flip", "options", "value"),
    [
        ("4m", "4m", {}, 1),
        ("4m", "4m", {"ben_ji": False}, 0),
        ("8p", "4p", {}, 0),
        ("8p", "4p", {"wu_gu_ji": True}, 2),
        ("8p", "7p", {}, 1),
        ("8p", "7p", {"wu_gu_ji": True}, 4),
        ("1p", "9p", {}, 1),
        ("1p", "9p", {"quan_qing_yao": True}, 2),
        ("1m", "9m", {"quan_qing_yao": True}, 2),
        ("3m", "4p", {}, 0),
        ("3m", "4p", {"xing_qi_ji": True}, 1),
        ("3m", "4p", {"xing_qi_ji": True, "xing_qi_ji_weekday": 3}, 1),
        ("3m", "4p", {"xing_qi_ji": True, "xing_qi_ji_weekday": 7}, 0),
        ("7m", "4p", {"xing_qi_ji": True, "xing_qi_ji_weekday": 7}, 1),
    ],
)
def test_each_chicken_option_changes_the_tiles_value(tile, flip, options, value):
    """One tile's value under each chicken option and without it (source: 本鸡 翻出来的那张也是鸡牌,
    乌骨鸡 2分, 翻中…8筒则…为金鸡, 全清幺 金幺鸡/金幺万, 欢乐鸡（星期鸡）; §wengan-chickens,
    §wengan-reading-quan-qing-yao-naming, §wengan-reading-weekday-numbering,
    §wengan-reading-8p-gold-needs-wu-gu-ji): the flip 4m designates 4m itself only with 本鸡; 8p is
    worth 2 with 乌骨鸡, and when a flip 7p hits it gold 2 + 2 (an ordinary flip chicken, 1,
    without, §wengan-reading-8p-gold-needs-wu-gu-ji); a flipped 1p / 1m is gold only with 全清幺;
    the weekday's rank (周三 by default) is a chicken only with 星期鸡, and the weekday option moves
    it."""
    assert seven_pairs_chickens(tile, flip, **options) == 3 * 2 * value


# ------------------------------------------------------------------------------ 冲锋鸡, 责任鸡,
# 包鸡 (§wengan-chicken-value, §wengan-chicken-collection)

WA4 = {
    0: "2m 3m 4m 6p 7p 8p 3s 4s 5s 6m 7m 8m 9p",
    1: "7s 8s 9s 5s 6s 7s 2m 2m 5m 6m",
    2: "1m 4m 7m 2p 6p 9p 3s 8s 9m 5m 8m 2s 6s 1s",
    3: "1p 2p 3p 4s 5s 6s 7p 8p 9p 3m 3m 9s 9s 1s",
}


def wa4_nets(hands=WA4, seat2_discards_1s=True, first_claim=PONG, **options):
    """§wengan-example-4: seat 3's first 1s is claimed by seat 1 (a pong, or a 点豆); seat 2
    discards the last 1s, unclaimed (or keeps it); seat 0 self-draws a 平胡 on 9p; flip 4p."""
    table = Table(hands, "4p 5m 5m", **options)
    table.meld(1, first_claim, "1s", 3)
    table.discard(3, "1s", claimed_by=1)
    if seat2_discards_1s:
        table.discard(2, "1s")
    table.self_draw(0, "9p")
    return table.nets()


@pytest.mark.parametrize(
    ("options", "nets"),
    [
        ({}, [1, 10, -7, -4]),
        ({"chong_feng_mode": "none"}, [1, 9, -7, -3]),
        ({"chong_feng_mode": "3211"}, [3, 12, -13, -2]),
        ({"ze_ren_ji": False}, [1, 9, -7, -3]),
        ({"bao_ji": False}, [0, 9, -4, -5]),
    ],
)
def test_wa4_under_the_chicken_payment_options(options, nets):
    """§wengan-example-4 (source: 责任鸡 冲锋鸡被碰走后…被碰的玩家要给碰鸡玩家鸡分, 冲锋鸡3211, 包鸡
    不听牌的 玩家…反给所有玩家; §wengan-chicken-value, §wengan-chicken-collection): by default +1,
    +10, -7, -4. Without 冲锋鸡 there is no 责任鸡 (seat 3 keeps the 1 it owed seat 1), nor with
    ze_ren_ji off; under 3211 seat 2's 1s is the first unclaimed one, worth 3, 包'd to each; without
    包鸡 seat 2 pays nothing back."""
    assert wa4_nets(**options) == nets


@pytest.mark.parametrize(
    ("ze_ren_on_kong", "nets"), [(True, [-1, 13, -5, -7]), (False, [-1, 12, -5, -6])]
)
def test_ze_ren_on_kong(ze_ren_on_kong, nets):
    """责任鸡 after a 点豆 (source: 冲锋鸡被碰走; §wengan-chicken-collection,
    §wengan-reading-responsibility-on-kong, option ze_ren_on_kong): seat 1 konged seat 3's first 1s.
    Seat 1 (ready) collects 4 x 1 from each and the 点豆's 1 from seat 3, and by default the 责任鸡
    1 from seat 3: -1, +13, -5, -7; with ze_ren_on_kong off no 责任鸡: -1, +12, -5, -6."""
    hands = dict(WA4)
    hands[2] = WA4[2].replace(" 1s", "")  # the fourth 1s is in the kong
    assert wa4_nets(hands, False, DISCARD_KONG, ze_ren_on_kong=ze_ren_on_kong) == nets


@pytest.mark.parametrize(
    ("scope", "nets"),
    [("exposed_fixed", [0, 9, -4, -5]), ("all_fixed", [1, 10, -7, -4]), ("all", [2, 11, -10, -3])],
)
def test_bao_ji_scope(scope, nets):
    """包鸡 scope (source: 打出或者碰触的幺鸡或者乌骨鸡, 自己手中本来算分的鸡分;
    §wengan-chicken-collection, §wengan-reading-bao-ji-scope): §wengan-example-4 with seat 2 (not
    ready) keeping its 1s concealed beside a 5p (flip 4p designates 5p). exposed_fixed: nothing
    exposed, nothing 包'd; all_fixed: the concealed 1s, 1 to each; all: the 5p flip chicken too, 2
    to each."""
    hands = dict(WA4)
    hands[2] = "1m 4m 7m 2p 5p 9p 3s 8s 9m 5m 8m 2s 1s"
    assert wa4_nets(hands, False, bao_ji_scope=scope) == nets


WA6 = {
    0: "1p 2p 3p 4p 5p 6p 7p 8p 9p 2p 2p 5p 6p",
    1: "2m 3m 4m 5m 6m 7m 3s 4s 5s 6s 7s 9m 9m",
    2: JUNK[0],
    3: JUNK[1],
}


def wa6_nets(first_1s_of=None, **options):
    """§wengan-example-6: a 荒庄 with dealer seat 2; seat 0 ready for 清一色 10, seat 1 for 平胡 1;
    ``first_1s_of`` discarded the hand's first 1s, unclaimed."""
    table = Table(WA6, "", dealer=2, **options)
    if first_1s_of is not None:
        S.give_tile(table.state, first_1s_of, kind_id("1s"))
        table.discard(first_1s_of, "1s")
    table.exhaust(1)
    return table.nets()


@pytest.mark.parametrize(
    ("mode", "nets"),
    [
        ("plain", [18, 8, -13, -13]),
        ("none", [19, 5, -12, -12]),
        ("4321", [16, 14, -15, -15]),
        ("3211", [17, 11, -14, -14]),
    ],
)
def test_chong_feng_mode_values_the_first_discarded_1s(mode, nets):
    """冲锋鸡 / 冲锋鸡4321 / 冲锋鸡3211 (source: 第一只打出的幺鸡没有被碰杠,
    所有且打出未被碰杠的幺鸡 按…先后顺序; §wengan-chickens, §wengan-chicken-value):
    §wengan-example-6 with the chickens counted on 荒庄 (huang_zhuang_burn off) and the hand's first
    1s, unclaimed, in ready seat 1's discards: worth 2 (plain), 1 (none), 4 (4321), 3 (3211) from
    each other player."""
    assert wa6_nets(1, huang_zhuang_burn=False, chong_feng_mode=mode) == nets


def test_huang_zhuang_cha_jiao():
    """荒庄查叫 (source: 荒庄查叫 没叫牌的玩家需要包听牌玩家的最大牌型分; §wengan-exhaustive-draw):
    §wengan-example-6's +20, +2, -11, -11; with the option off nobody pays."""
    assert wa6_nets() == [20, 2, -11, -11]
    assert wa6_nets(huang_zhuang_cha_jiao=False) == [0, 0, 0, 0]


# ------------------------------------------------------------------------------ 原缺, 定缺,
# 人数 (§wengan-ding-que)

LACKING_S = "1m 4m 7m 2p 5p 8p 3m 6m 9m 1p 4p 7p 9p"  # no 条, not ready


@pytest.mark.parametrize(
    ("player_count", "options", "nets"),
    [
        (3, {}, [6, -3, -3]),
        (3, {"yuan_que_bonus": 0}, [0, 0, 0]),
        (3, {"yuan_que_bonus": 5}, [10, -5, -5]),
        (3, {"base_stake": 2}, [6, -3, -3]),
        (3, {"ding_que": False}, [0, 0, 0]),
        (2, {}, [3, -3]),
        (4, {}, [0, 0, 0, 0]),
    ],
)
def test_yuan_que_is_fixed_and_only_with_ding_que(player_count, options, nets):
    """原缺 (source: 原缺 若起手就缺门…分数不受影响，固定收每人3分; §wengan-ding-que,
    §wengan-reading-ding-que-and-yuan-que): seat 0 was dealt no 条; on a 荒庄 with nobody ready it
    collects yuan_que_bonus from each other player, not multiplied by 底分 (base_stake), only with 2
    or 3 players and 定缺 on."""
    hands = {0: LACKING_S, 1: JUNK[0], 2: JUNK[1], 3: JUNK[0]}
    seats = {s: hands[s] for s in range(player_count)}
    table = Table(seats, "", players=player_count, **options)
    WE.setup(table.state, table.params, table.record)
    table.exhaust(1)
    assert table.nets() == nets


@pytest.mark.parametrize(
    ("mode", "named", "wins"),
    [("composition", None, True), ("declare", "s", True), ("declare", "p", False)],
)
def test_ding_que_mode(mode, named, wins):
    """定缺 (source: 定缺 二、三人的玩法钟，需要定缺才能叫胡牌; §wengan-ding-que,
    §wengan-reading-ding-que-and-yuan-que, option ding_que_mode): with 3 players a hand of 万 and 筒
    self-draws its 平胡 under composition (two suits); under declare it may not when the suit it
    named is 筒, and may when it named 条."""
    hand = "2m 3m 4m 5m 6m 7m 2p 3p 4p 6p 7p 8p 9p"
    table = Table({0: hand}, "4s 4s", players=3, ding_que_mode=mode)
    if named:
        table.tell(S.EVENT_DECLARE, 0, kind_id(f"1{named}"), H.DECLARE_QUE)
    table.draw(0, "9p")
    listed = any(r[M.A_TYPE] == M.ACT_WIN for r in table.own_turn(0, kind_id("9p")))
    assert listed == wins


# ------------------------------------------------------------------------------ 烧鸡 / 烧豆,
# 包杠 (§wengan-chicken-collection, §wengan-dou-settlement)

ROBBER = "2m 3m 4m 5p 6p 7p 6m 7m 8m 9p 9p 2s 3s"  # 平胡 on 1s / 4s, no 4s held
ROBBED = "1s 2m 3m 4m 6m 6m 6m"  # beside pong 4s and 闷豆 7p: ready on 1s


@pytest.mark.parametrize(
    ("options", "nets"),
    [
        ({}, [10, -10, 0, 0]),
        ({"qiang_gang_shao_ji": False}, [9, -7, -1, -1]),
        ({"qiang_gang_shao_dou": False}, [8, -4, -2, -2]),
        ({"qiang_gang_shao_ji": False, "qiang_gang_shao_dou": False}, [7, -1, -3, -3]),
    ],
)
def test_qiang_gang_burns(options, nets):
    """抢杠烧鸡 / 抢杠烧豆 (source: 被抢杠的玩家得分的鸡分 / 豆分都不算; §wengan-robbing-a-kong,
    §wengan-chicken-collection, §wengan-dou-settlement): seat 1 (ready, a 1s in hand, a 闷豆 of 7p)
    adds the drawn fourth 4s to his pong; seat 0 robs it: 平胡 1 + 抢杠 9 from seat 1. By default
    seat 1's chicken (1 from each) and dou (2 from each) are void; each burn turned off gives that
    income back."""
    table = Table({0: ROBBER, 1: ROBBED, 2: JUNK[0], 3: JUNK[1]}, "2p 2p 2p", **options)
    table.meld(1, PONG, "4s", 3)
    table.meld(1, CONCEALED, "7p")
    table.draw(1, "4s")
    assert table.kong(1, "4s", ADDED, 1) == M.KONG_HAND_OVER
    assert table.nets() == nets


WA5 = {
    0: "3p 4p 7p 8p 9p 2s 3s 4s 7s 8s 9s 9m 9m",
    1: "6m 5m 8m 3p 6p 9p 4s 7s 1p 1m 4p 8s 2m",
    3: "6m 6m 6m 5p 6p 7p 5s 6s 7s 8m 8m 2p 3s",
}


def wa5_nets(hands=WA5, replacement="4s", **options):
    """§wengan-example-5: seat 3 makes a 点豆 on seat 1's 6m, draws ``replacement`` and discards 2p;
    seat 0 wins the 热炮 (平胡 1 + 热炮 1); flip 3m."""
    table = Table(hands, f"3m 1p 1p {replacement}", **options)
    table.discard(1, "6m")
    assert table.kong(3, "6m", DISCARD_KONG, 1) == M.KONG_REPLACEMENT
    assert S.pop_back(table.state) == kind_id(replacement)
    table.draw(3, replacement, replacement=True)
    table.discard(3, "2p")
    assert table.win_on_discard(3, "2p") == 1
    return table.nets()


def test_re_pao_shao_ji():
    """热炮烧鸡 (source: 热炮烧鸡 被热炮的玩家得分的鸡分都不算，但是输的依然算分;
    §wengan-chicken-collection, §wengan-readings #16): §wengan-example-5 with seat 3 (the 热炮
    discarder, ready) holding three 1s: by default that income is void (+2, 0, 0, -2); with
    re_pao_shao_ji off he collects 3 from each (his 点豆 stays burned by 热炮烧豆): -1, -3, -3,
    +7."""
    hands = dict(WA5)
    hands[3] = "6m 6m 6m 5p 6p 7p 1s 1s 1s 8m 8m 2p 3s"
    assert wa5_nets(hands) == [2, 0, 0, -2]
    assert wa5_nets(hands, re_pao_shao_ji=False) == [-1, -3, -3, 7]


def test_bao_gang():
    """包杠 (source: 包杠 不听牌的玩家需要包自己手中本来算分的杠分; §wengan-dou-settlement):
    §wengan-example-5's variant with seat 3 not ready after his 点豆: with 包杠 he pays seat 1 the 1
    he would have collected (+2, +1, 0, -3); without it his dou is simply void (+2, 0, 0, -2)."""
    assert wa5_nets(replacement="9p") == [2, 1, 0, -3]
    assert wa5_nets(replacement="9p", bao_gang=False) == [2, 0, 0, -2]


# ------------------------------------------------------------------------------ who may win a
# discard (§wengan-claims, §wengan-guo-hu, §wengan-how-to-win, §wengan-passport, §wengan-mingtang)


def test_ping_hu_ron_needs_passport():
    """平胡点炮需要通行证 (source: 平胡点炮胡需要通行证; §wengan-how-to-win): seat 0's 平胡 on seat
    3's 4s, no dou and no exception, is not listed by default; with the option off it wins, seat 3
    paying 1."""
    for needs in (True, False):
        table = Table({0: PING_HU_ON_4S, 3: "4s 9m"}, "9p 9p", ping_hu_ron_needs_passport=needs)
        table.discard(3, "4s")
        assert wins_listed(table, 3, "4s") == ([] if needs else [0])
        assert table.win_on_discard(3, "4s") == (0 if needs else 1)
    assert table.nets() == [1, 0, 0, -1]  # the last table: the option off


@pytest.mark.parametrize(
    ("hand", "kinds", "listed"),
    [
        (PING_HU_ON_4S, "any_kong", False),
        (PING_HU_ON_4S, "none", True),
        ("2m 3m 4m 5p 6p 7p 1s 2s 3s 6m 7m 8m 4s", "any_kong", False),
        ("2m 3m 4m 5p 6p 7p 1s 2s 3s 6m 7m 8m 4s", "kong_or_chicken", True),
        ("2m 3m 4m 6p 7p 8p 7s 8s 9s 6m 7m 8m 4s", "kong_or_chicken", False),
    ],
)
def test_passport_kinds_chicken_and_none(hand, kinds, listed):
    """通行证 (source: 平胡点炮胡需要通行证; §wengan-passport, §wengan-reading-passport-is-a-kong,
    option passport_kinds; the any_kong / scoring_kong pair on a 憨包豆: test_wengan_engine): a 平胡
    holding a 1s but no kong may win seat 3's 4s only under kong_or_chicken (an 8p counts only with
    乌骨鸡, §wengan-readings #38: not here); with none anything may."""
    table = Table({0: hand, 3: "4s 9m"}, "9p 9p", passport_kinds=kinds)
    table.discard(3, "4s")
    assert wins_listed(table, 3, "4s") == ([0] if listed else [])


SEVEN_PAIRS_ON_4S = (
    "4s 2m 2m 6m 6m 8m 8m 5s 5s 6s 6s 9m 9m",
    "4s 3m 3m 7m 7m 1p 1p 2p 2p 3p 3p 9p 9p",
)


@pytest.mark.parametrize(("multi_ron", "nets"), [(True, [5, 0, 5, -10]), (False, [5, 0, 0, -5])])
def test_multi_ron(multi_ron, nets):
    """一炮多响 (source: 一炮多响 玩家打出一张牌，被多个玩家胡牌; §wengan-claims): seats 0 and 2
    both wait on 4s with a 七对; seat 3 discards it. With multi_ron both win, 5 each from seat
    3; without, only the first in turn order from the discarder (seat 0)."""
    hands = {0: SEVEN_PAIRS_ON_4S[0], 1: JUNK[1], 2: SEVEN_PAIRS_ON_4S[1], 3: "4s 9m"}
    table = Table(hands, "4p 4p", multi_ron=multi_ron)
    table.discard(3, "4s")
    assert table.win_on_discard(3, "4s") == (2 if multi_ron else 1)
    assert table.nets() == nets


TWO_WAITS = "2m 3m 4m 5p 6p 7p 9m 9m 2s 3s"  # beside a kong: 平胡 on 1s or 4s


@pytest.mark.parametrize(
    ("options", "after_4s", "after_1s"),
    [
        ({}, [], [0]),
        ({"guo_hu_scope": "any_tile"}, [], []),
        ({"guo_hu_limit": False}, [0], [0]),
    ],
)
def test_guo_hu_limit_and_scope(options, after_4s, after_1s):
    """过胡 (source: 过胡限制 同一轮内不能点炮同一张牌（能胡，选择了过）; §wengan-guo-hu,
    §wengan-reading-guo-hu-same-tile, #33): seat 0 (a 闷豆 as 通行证, waiting on 1s and 4s) declines
    seat 3's 4s. By default he may not win the next 4s but may win a 1s; with guo_hu_scope any_tile
    neither; with guo_hu_limit off both, as if he had not passed."""
    agents = (AGENT_SELF_DRAW, 0, 0, 0)  # passes every win on a discard
    table = Table({0: TWO_WAITS, 3: "4s 4s 1s 9m"}, "5m 5m", agents=agents, **options)
    table.meld(0, CONCEALED, "1p")
    table.discard(3, "4s")
    assert table.win_on_discard(3, "4s") == 0
    table.discard(3, "4s")
    assert wins_listed(table, 3, "4s") == after_4s
    table.discard(3, "1s")
    assert wins_listed(table, 3, "1s") == after_1s


def di_hu_table(di_hu_window, fourth):
    """Dealer seat 0, then seats 1 (no dou, 平胡 on 4s), 2 and 3 each discard once; seat 3's
    discard is ``fourth``."""
    hands = {0: "1m 4s", 1: PING_HU_ON_4S + " 1p", 2: "2m", 3: f"{fourth} 9m"}
    table = Table(hands, "9p 9p", di_hu_window=di_hu_window)
    for seat, tile in ((0, "1m"), (1, "1p"), (2, "2m"), (3, fourth)):
        table.discard(seat, tile)
    return table


@pytest.mark.parametrize(
    ("di_hu_window", "listed"), [("before_first_discard", []), ("first_go_around", [1])]
)
def test_di_hu_window(di_hu_window, listed):
    """地胡 window (source: 地胡 闲家起牌后第一轮接炮或自摸胡牌，此时可以无豆平胡; §wengan-mingtang,
    §wengan-readings #26, option di_hu_window): seat 1, no dou, has discarded once; seat 3's 4s, the
    hand's fourth discard, completes his 平胡. Only within the first go-around is it a 地胡: listed
    without 通行证, 1 + 9 from seat 3. A 4s as the fifth discard is outside either window."""
    table = di_hu_table(di_hu_window, "4s")
    assert wins_listed(table, 3, "4s") == listed
    if listed:
        assert table.win_on_discard(3, "4s") == 1
        assert table.nets() == [0, 10, 0, -10]
    later = di_hu_table(di_hu_window, "5m")
    later.discard(0, "4s")
    assert wins_listed(later, 0, "4s") == []


# ------------------------------------------------------------------------------ 名堂 and who
# pays them (§wengan-mingtang, §wengan-hand-payments)


@pytest.mark.parametrize(
    ("mode", "hand", "drawn", "nets"),
    [
        ("bonus_9_10", PING_HU_ON_4S, "4s", [-10, 30, -10, -10]),
        ("total_9_plus_10", PING_HU_ON_4S, "4s", [-9, 27, -9, -9]),
        ("bonus_9_10", SEVEN_PAIRS_ON_4S[0], "4s", [-15, 45, -15, -15]),
        ("total_9_plus_10", SEVEN_PAIRS_ON_4S[0], "4s", [-15, 45, -15, -15]),
    ],
)
def test_mingtang_bonus_mode(mode, hand, drawn, nets):
    """名堂 "平胡9分 大胡10分" (source: 报听 平胡9分 大胡10分; §wengan-mingtang,
    §wengan-reading-mingtang-is-a-bonus, §wengan-reading-scorer-details): a 报听 player self-draws.
    bonus_9_10: a 平胡 is 1 + 9 = 10 from each; total_9_plus_10: it totals 9. A 七对 is 5 + 10 = 15
    under both."""
    table = Table({1: hand, 0: JUNK[0], 2: JUNK[1]}, "9p 9p", mingtang_bonus_mode=mode)
    table.tell(S.EVENT_DECLARE, 1, -1, H.DECLARE_BAO_TING)
    table.self_draw(1, drawn)
    assert table.nets() == nets


@pytest.mark.parametrize(
    ("payer", "nets"),
    [("bao_ting_player", [-1, -10, -1, 12]), ("all_payers", [-10, -10, -10, 30])],
)
def test_sha_ting_payer(payer, nets):
    """杀听 on a self-draw (source: 杀听 当报听者点炮…或其他玩家自摸时 平胡9分;
    §wengan-hand-payments, §wengan-readings #6): seat 1 has declared 报听; seat 3 self-draws a 平胡
    (1 from each). The 杀听 9 is paid by seat 1 alone (bao_ting_player), or by every other player
    (all_payers)."""
    table = Table(
        {3: PING_HU_ON_4S, 0: JUNK[0], 1: JUNK[1], 2: JUNK[0]}, "9p 9p", sha_ting_payer=payer
    )
    table.tell(S.EVENT_DECLARE, 1, -1, H.DECLARE_BAO_TING)
    table.self_draw(3, "4s")
    assert table.nets() == nets


# ------------------------------------------------------------------------------ the first
# dealer (§wengan-next-dealer)


@pytest.mark.parametrize("player_count", [4, 3])
def test_first_dealer(player_count):
    """定庄 (source: 定庄 第一局房主坐庄，亲友圈第一个进房玩家坐庄; §wengan-next-dealer, option
    first_dealer): with seat0 every session starts with seat 0 dealing; with random the first
    dealers spread over every seat, reproducibly, and the played hands start with them."""
    seat0 = first_dealers(800, 8, WenganOptions(player_count=player_count), seed=1)
    assert len(seat0) == 100 and (seat0 == 0).all()
    options = WenganOptions(player_count=player_count, first_dealer="random")
    random = first_dealers(800, 8, options, seed=1)
    assert set(random.tolist()) == set(range(player_count))
    np.testing.assert_array_equal(random, first_dealers(800, 8, options, seed=1))
    walls = shuffled_walls(8, 108, 5)
    records = play_records(options, walls, random[:8], 1, (0,) * player_count, 5)
    np.testing.assert_array_equal(records[:, R_DEALER], random[:8])
