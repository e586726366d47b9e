"""Anqing's scoring kernels (``sim/variants/anqing/scoring.py``) against the slow reference
(``tests/reference/anqing.py``): every worked example §anqing-example-1 to §anqing-example-9 of
the rules reference and the variants it states, then random and adversarial hands and payments with
hypothesis.

Rules: docs/rules/anqing.md (安庆麻将); each test names the rule it checks.
Defaults unless a test says otherwise: indicator ``4p`` so the 钻 is ``5p`` (``5p*``), 红中
stands for ``5p``, 发财/白板 are 杠牌; dealer seat 0, streak 0.
"""

from __future__ import annotations

import dataclasses

from anqing_kernels import kernel_payments, kernel_score
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from reference.anqing import (
    RED,
    AnqingWin,
    Meld,
    class_one_identities,
    feeds_of,
    gang_tiles,
    payments,
    score,
    zuan_of,
)

from sim.core.tiles import KIND_NAMES
from sim.variants.anqing import AnqingOptions

AQ5_MELDS = (Meld("chi", "3s", 1), Meld("pong", "9m", 1), Meld("pong", "W", 1))


def total(win: AnqingWin, **options) -> int | None:
    return kernel_score(win, AnqingOptions(**options))[0]


def items(win: AnqingWin, **options) -> dict[str, int]:
    return kernel_score(win, AnqingOptions(**options))[1]


def paid(win: AnqingWin, winner: int, dealer: int = 0, others=None, **options) -> dict[int, int]:
    options_ = AnqingOptions(**options)
    melds = dict(others or {})
    melds[winner] = win.melds
    return kernel_payments(total(win, **options), winner, dealer, 0, melds, options_)


# ------------------------------------------------------------------------------ §anqing-example-1
# .. §anqing-example-4


def test_aq1_pi_hu_with_a_chi_and_a_wind_triplet():
    """§anqing-example-1, 屁胡 and 风 (§anqing-pi-hu "屁胡：除了上面牌型之外的基础牌型",
    §anqing-wind-sets "风：…只要有三个一 样的就 +1"): S = 4; the dealer pays 4 + 3; 庄家额外 off for
    his losses: 4."""
    win = AnqingWin("456s 789p E E E 22m", "6s", (Meld("chi", "1m", 0),))
    assert items(win) == {"基本胡": 3, "风": 1, "屁胡": 0}
    assert paid(win, 1) == {0: 7, 2: 4, 3: 4}
    assert paid(win, 1, dealer_extra_symmetric=False) == {0: 4, 2: 4, 3: 4}


def test_aq2a_a_kept_zuan_as_the_single_wait():
    """§anqing-example-2a, 跑风 独吊 and 见字胡 (§anqing-pao-feng-points
    "必须打掉2筒，手上留钻，胡牌才能算跑风"): S = 12; seat 0 pays 15, the others 12."""
    win = AnqingWin("123m 456s 789m 234p 5p* 8s", "8s")
    assert items(win) == {"基本胡": 3, "门清": 3, "跑风": 6}
    assert paid(win, 2) == {0: 15, 1: 12, 3: 12}


def test_aq2b_a_drawn_zuan_for_another_tile_does_not_win():
    """§anqing-example-2b (§anqing-pao-feng-points "如果摸钻，不能算跑风"): no win under both 见字胡
    readings; 杠开 wins."""
    win = AnqingWin("123m 456s 789m 234p 9p 5p*", "5p*")
    assert total(win) is None
    assert total(win, jian_zi_hu_definition="zuan_diao") is None
    assert total(dataclasses.replace(win, kong_chain=1)) == 9


def test_aq2c_a_drawn_zuan_pairs_the_kept_one():
    """§anqing-example-2c (§anqing-pao-feng-points "打掉2筒后摸钻可以胡牌，算跑风"): S = 12 under
    both 见字胡 readings."""
    win = AnqingWin("123m 456s 789m 234p 5p* 5p*", "5p*")
    for definition in ("suited_natural", "zuan_diao"):
        assert items(win, jian_zi_hu_definition=definition) == {"基本胡": 3, "门清": 3, "跑风": 6}
    assert paid(win, 2) == {0: 15, 1: 12, 3: 12}


def test_aq2d_jian_zi_hu_definitions():
    """§anqing-example-2d, 见字胡 (§anqing-rules "见字胡：只能胡万，筒，条"): S = 6 (seat 0 pays 9)
    under suited_natural, no win under zuan_diao."""
    win = AnqingWin("123m 45s 5p* 789m 22p 78s 9s", "9s")
    assert items(win) == {"基本胡": 3, "门清": 3}
    assert paid(win, 2) == {0: 9, 1: 6, 3: 6}
    assert total(win, jian_zi_hu_definition="zuan_diao") is None


def test_aq3_seven_pairs():
    """§anqing-example-3, 七对有钻 (§anqing-soft-seven-pairs "+9（跑风已经包含在+9里…）"), 七对天胡
    (§anqing-hard-seven-pairs), 双天胡 (§anqing-shuang-tian-hu
    "七对+四钻，并且四个钻只表示自己本身"): S = 15, 39 (36 with 门清（硬） replacing), 66; at
    shuang_tian_hu_points = 30 the best reading is 七对有钻 + 四个钻牌 = 45; without quads 45."""
    soft = AnqingWin("11m 44p 77s E E N N 99m 3s 5p*", "3s")
    assert items(soft) == {"基本胡": 3, "门清": 3, "七对有钻": 9}
    assert paid(soft, 3) == {0: 18, 1: 15, 2: 15}
    hard = AnqingWin("11m 44p 77s E E N N 99m 3s 3s", "3s")
    assert items(hard) == {"基本胡": 3, "门清": 3, "门清（硬）": 3, "七对天胡": 30}
    assert paid(hard, 3) == {0: 42, 1: 39, 2: 39}
    assert total(hard, menqing_ying_additive=False) == 36
    double = AnqingWin("5p* 5p* 5p* 11m 44p 77s E E N N 5p*", "5p*")
    assert items(double) == {"基本胡": 3, "门清": 3, "双天胡": 60}
    assert paid(double, 3) == {0: 69, 1: 66, 2: 66}
    assert items(double, shuang_tian_hu_points=30) == {
        "基本胡": 3,
        "门清": 3,
        "四个钻牌": 30,
        "七对有钻": 9,
    }
    assert total(double, seven_pairs_allow_quad=False, shuang_tian_hu_points=90) == 45


def test_aq4_shisanlan_with_seven_stars():
    """§anqing-example-4, 十三烂 / 七星归位 / 铁烂 (§anqing-rules
    "十三烂…如果手上有东南西北中发白，称为七星归位"): S = 21, seat 0 pays 24; free of the 钻
    conditions; not with shisanlan_honours_literal off."""
    win = AnqingWin("147m 39p 28s E S W N RD GD WD", "N")
    assert items(win) == {"基本胡": 3, "门清": 3, "门清（硬）": 3, "七星归位": 3, "铁烂": 9}
    assert paid(win, 1) == {0: 24, 2: 21, 3: 21}
    assert total(dataclasses.replace(win, discarded_zuan=True)) == 21
    assert total(win, shisanlan_honours_literal=False) is None


def test_shisanlan_grades_with_zuan():
    """硬烂 / 软烂 / 七星归位 (§anqing-seven-stars, §anqing-shisanlan-grades
    "硬烂：有钻牌，但钻牌只顶替本身的牌+6", #18)."""
    hard = AnqingWin("147m 2p 5p* 28s E S W N RD GD WD", "N")
    assert {"七星归位", "硬烂"} <= set(items(hard))
    suited_slot = AnqingWin("147m 25p 3s E S W N RD GD WD 2s*", "N", indicator="1s")
    assert {"七星归位", "软烂"} <= set(items(suited_slot))
    honour_slot = AnqingWin("147m 258p 369s E S W N 2s*", "N", indicator="1s")
    assert "软烂" in items(honour_slot) and "七星归位" not in items(honour_slot)


# ------------------------------------------------------------------------------ §anqing-example-5
# .. §anqing-example-9


def test_aq5_bao():
    """§anqing-example-5, 顺包 / 反包 (§anqing-rules
    "A给B吃碰、杠混合达到三口，B胜利，称为顺包。A输的银子*3…
    全部是碰和杠的…再*2…A胜利，称为反包。是在顺包的基础上*2"; "所有三口胡牌都是跟庄家算得以后
    相乘"): 39 from the dealer-feeder, 78 all pongs, 78 反包, 30 with the dealer elsewhere."""
    win = AnqingWin("234m 77p", "7p", AQ5_MELDS)
    assert items(win) == {"基本胡": 3, "跑风": 6, "风": 1}
    assert paid(win, 2, dealer=1) == {0: 10, 1: 39, 3: 10}
    pongs = (Meld("pong", "3s", 1), Meld("pong", "9m", 1), Meld("pong", "W", 1))
    assert paid(AnqingWin("234m 77p", "7p", pongs), 2, dealer=1)[1] == 78
    assert kernel_payments(10, 1, 1, 0, {2: AQ5_MELDS}) == {0: 13, 2: 78, 3: 13}
    assert paid(win, 2, dealer=0) == {0: 13, 1: 30, 3: 10}


def test_bao_four_mouths_and_mutual_bao():
    """包 with four 口 ("4口，再*2…四口，再*4"; bao_all_pong_4_factor) and 互为顺包 ("需要单独开
    分别进行计算，再进行总和"; mutual_bao_mode)."""
    mixed = (Meld("chi", "1m", 1), Meld("pong", "9m", 1), Meld("pong", "E", 1))
    four_mixed = (*mixed, Meld("ming_gang", "N", 1))
    four_pongs = (
        Meld("pong", "1p", 1),
        Meld("pong", "9m", 1),
        Meld("jia_gang", "E", 1),
        Meld("ming_gang", "N", 1),
    )
    assert kernel_payments(10, 2, 0, 0, {2: four_mixed})[1] == 60
    assert kernel_payments(10, 2, 0, 0, {2: four_pongs})[1] == 120
    options = AnqingOptions(bao_all_pong_4_factor=24)
    assert kernel_payments(10, 2, 0, 0, {2: four_pongs}, options)[1] == 240
    back = (Meld("chi", "1s", 2), Meld("chi", "4s", 2), Meld("pong", "S", 2))
    mutual = {2: mixed, 1: back}
    assert kernel_payments(10, 2, 0, 0, mutual) == {0: 13, 1: 90, 3: 10}
    assert kernel_payments(10, 2, 0, 0, mutual, AnqingOptions(mutual_bao_mode="max"))[1] == 60


def test_aq6_zhi_jiao_with_a_zuan_kong():
    """§anqing-example-6, 直叫 (§anqing-zhi-jiao-win
    "直叫：＝杠开+跑风，比如一杠开就是4（杠）+6（跑风），然后再加上基本胡"): S = 16 and marked 直叫;
    13 when a single kong breaks 门清."""
    win = AnqingWin("123m 456s 789m 234p 99p", "9p", (Meld("single", "5p*"),), kong_chain=1)
    _, named, _, zhi_jiao = kernel_score(win)
    assert named == {"基本胡": 3, "门清": 3, "跑风": 6, "杠开": 3, "杠牌": 1} and zhi_jiao
    assert paid(win, 2) == {0: 19, 1: 16, 3: 16}
    assert total(win, single_kong_breaks_menqing=True) == 13


def test_aq7_chained_gang_tile_kongs():
    """§anqing-example-7, 杠开 (§anqing-gang-kai "一杠3，二杠6…你杠2杠，则为3+6+2名堂=11"): S = 27;
    24 with the 3k progression; 18 for a 杠开 counting three kongs in all (gang_kai_count_mode =
    total)."""
    melds = (Meld("single", "GD"), Meld("single", "WD"))
    win = AnqingWin("123m 678s 234p S S S 99m", "9m", melds, kong_chain=2)
    named = items(win)
    assert named["杠开"] + named["杠牌"] == 11 and total(win) == 27
    assert paid(win, 3) == {0: 30, 1: 27, 2: 27}
    assert total(win, gang_kai_cumulative=False) == 24
    earlier = AnqingWin("123m 678s S S S 99m", "9m", (Meld("an_gang", "2p"), *melds), kong_chain=2)
    assert items(earlier, gang_kai_count_mode="total")["杠开"] == 18


def test_aq8_hard_pong_pong_won_on_a_drawn_zuan():
    """§anqing-example-8, 硬对对胡 (§anqing-pao-feng-points
    "3)对对胡：胡出牌，都算跑风，不管摸钻还是摸什么，都算（硬对对胡才 能算跑风）"): S = 16 even
    after discarding a 钻; moving kept 钻 does not make it hard."""
    win = AnqingWin("222m 666s E E E 88p 33s 5p*", "5p*")
    assert set(items(win)) == {"基本胡", "门清", "跑风", "碰碰胡", "风"} and total(win) == 16
    assert paid(win, 3) == {0: 19, 1: 16, 2: 16}
    assert total(dataclasses.replace(win, discarded_zuan=True)) == 16
    assert total(AnqingWin("222m 666s E E E 5p* 5p* 33s N", "N")) is None


def test_aq9_lian_zhuang_amounts():
    """§anqing-example-9, 连庄 (§anqing-lian-zhuang
    "第一次连庄的时候庄家输赢各增加3个，第二次连庄增加6个，第三次12个，第 四次15个"): the dealer's
    win at k = 1 costs each 9, at k = 3 18; the dealer losing at k = 4 pays 22, the others 4. (The
    session and its 累加 carry are the engine's: §anqing-example-9 there.)"""
    assert kernel_payments(6, 0, 0, 0, {}) == {1: 9, 2: 9, 3: 9}
    assert kernel_payments(3, 0, 0, 1, {}) == {1: 9, 2: 9, 3: 9}
    assert kernel_payments(3, 0, 0, 3, {}) == {1: 18, 2: 18, 3: 18}
    assert kernel_payments(4, 2, 0, 4, {}) == {0: 22, 1: 4, 3: 4}
    options = AnqingOptions(lian_zhuang_table=(1, 2, 3, 4))
    assert kernel_payments(4, 2, 0, 9, {}, options) == {0: 11, 1: 4, 3: 4}


# ------------------------------------------------------------------------------ properties

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))

OPTION_VALUES = {
    "pao_feng_definition": ("decomposition", "unique_wait"),
    "jian_zi_hu_definition": ("suited_natural", "zuan_diao"),
    "jian_zi_hu_red_counts": (True, False),
    "shisanlan_honours_literal": (True, False),
    "seven_pairs_allow_quad": (True, False),
    "menqing_ying_additive": (True, False),
    "single_kong_breaks_menqing": (True, False),
    "gang_kai_count_mode": ("chain", "total"),
    "gang_kai_cumulative": (True, False),
    "shuang_tian_hu_points": (60, 30, 0),
    "single_kong_points": (1, 0, 2),
}


@st.composite
def option_sets(draw) -> AnqingOptions:
    chosen = draw(st.sets(st.sampled_from(sorted(OPTION_VALUES)), max_size=4))
    return AnqingOptions(**{name: draw(st.sampled_from(OPTION_VALUES[name])) for name in chosen})


@st.composite
def anqing_wins(draw) -> AnqingWin:
    """A final hand: four sets (some melded, some concealed) and a pair, seven pairs, or 14
    unrelated or random tiles; 红中 for the 钻 face, some tiles turned into 钻 (adversarial:
    the 钻 moved off its face), sometimes one tile replaced at random (often no win), single
    kongs of 杠牌 and 钻, D, 杠开 chains and 天胡."""
    indicator = draw(st.integers(0, 33))
    zuan = zuan_of(indicator)
    allowed = class_one_identities(zuan)
    shape = draw(st.sampled_from(["standard", "standard", "seven_pairs", "loose"]))
    kinds, melds = [], []
    if shape == "standard":
        n_melds = draw(st.sampled_from([0, 0, 1, 2, 3, 4]))
        for index in range(4):
            if draw(st.booleans()):
                start = draw(st.sampled_from([k for k in range(27) if k % 9 <= 6]))
                group, meld_kind = [start, start + 1, start + 2], "chi"
            else:
                group = [draw(st.sampled_from(allowed))] * 3
                meld_kind = draw(st.sampled_from(["pong", "ming_gang", "jia_gang", "an_gang"]))
            if index < n_melds:
                assume(zuan not in group or zuan < RED)
                physical = RED if group[0] == zuan else group[0]
                from_seat = None if meld_kind == "an_gang" else draw(st.integers(1, 3))
                melds.append(Meld(meld_kind, KIND_NAMES[physical], from_seat))
            else:
                kinds += group
        kinds += [draw(st.sampled_from(allowed))] * 2
    elif shape == "seven_pairs":
        for _ in range(7):
            kinds += [draw(st.sampled_from(allowed))] * 2
    else:
        distinct = draw(st.booleans())
        kinds = draw(st.lists(st.integers(0, 33), min_size=14, max_size=14, unique=distinct))
    tiles = []
    for kind in kinds:
        wild = kind == zuan and (zuan >= RED or draw(st.booleans()))
        tiles.append((zuan, True) if wild else ((RED, False) if kind == zuan else (kind, False)))
    for index in draw(st.sets(st.integers(0, len(tiles) - 1), max_size=4)):
        tiles[index] = (zuan, True)
    if draw(st.integers(0, 4)) == 0:
        index = draw(st.integers(0, len(tiles) - 1))
        kind = draw(st.integers(0, 33))
        tiles[index] = (kind, kind == zuan)
    for _ in range(draw(st.integers(0, 2))):
        kind = draw(st.sampled_from([*sorted(gang_tiles(zuan)), zuan]))
        melds.append(Meld("single", KIND_NAMES[kind] + ("*" if kind == zuan else "")))
    w_kind, w_zuan = tiles[draw(st.integers(0, len(tiles) - 1))]
    win = AnqingWin(
        " ".join(KIND_NAMES[kind] + ("*" if wild else "") for kind, wild in tiles),
        KIND_NAMES[w_kind] + ("*" if w_zuan else ""),
        tuple(melds),
        indicator=KIND_NAMES[indicator],
        discarded_zuan=draw(st.booleans()),
        kong_chain=draw(st.sampled_from([0, 0, 0, 1, 2, 3])),
        heavenly=draw(st.integers(0, 9)) == 0,
    )
    try:
        win.check()
    except ValueError:
        assume(False)
    return win


@SETTINGS
@given(anqing_wins(), option_sets())
def test_the_kernels_score_every_hand_as_the_reference(win, options):
    """The kernels' best legal reading has the reference's S and items (§anqing-class-one,
    §anqing-score-table), and no legal win exactly when the reference finds none."""
    expected = score(win, options)
    got, named, _, _ = kernel_score(win, options)
    if expected is None:
        assert got is None
    else:
        assert got == expected.total
        assert named == dict(expected.items)


MELD_KINDS = ("chi", "pong", "ming_gang", "jia_gang", "an_gang")


@st.composite
def fed_melds(draw) -> dict[int, tuple[Meld, ...]]:
    """Every seat's melds, each fed by a random other seat (many 口 from one feeder)."""
    out = {}
    for seat in range(4):
        melds = []
        for _ in range(draw(st.integers(0, 4))):
            kind = draw(st.sampled_from(MELD_KINDS))
            feeder = None
            if kind != "an_gang":
                feeder = draw(st.sampled_from([s for s in range(4) if s != seat]))
            melds.append(Meld(kind, "1m", feeder))
        out[seat] = tuple(melds)
    return out


@settings(max_examples=300, deadline=None)
@given(
    st.integers(0, 80),
    st.integers(0, 3),
    st.integers(0, 3),
    st.integers(0, 6),
    fed_melds(),
    st.sampled_from(["sum", "max"]),
    st.sampled_from([12, 24]),
    st.booleans(),
)
def test_the_kernels_pay_as_the_reference(total_, winner, dealer, streak, melds, mutual, four, sym):
    """§anqing-payments: dealer extra, 连庄, 顺包 / 反包 factors and mutual 包 as the reference
    pays."""
    options = AnqingOptions(
        mutual_bao_mode=mutual, bao_all_pong_4_factor=four, dealer_extra_symmetric=sym
    )
    expected = payments(total_, winner, dealer, streak, feeds_of(melds), options)
    assert kernel_payments(total_, winner, dealer, streak, melds, options) == expected
