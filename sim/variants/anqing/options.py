"""Anqing 安庆麻将: every option of §anqing-options, declared once.

Source: docs/rules/anqing.md (items 1-22 and the introduction; the repeated items 23-76 add nothing,
§anqing-reading-items-once). The options class and its checks, the kernels' ``params`` array and its
``P_*`` indices, and the options table of `docs/rules/anqing.md` all come from
:data:`ANQING_OPTIONS` (see :mod:`sim.variants.options`). Pure Python: the kernels will import the
indices from here. Defaults are the spec's (§anqing-options; the text itself names no option, every
row exposes a decision of §anqing-readings). ``player_count`` is not a §anqing-options row: the text
says four players only (§anqing-players), and the generic layer reads ``options.player_count``; its
bounds reject any other count."""

from __future__ import annotations

from ..options import Options, by_name, choice, flag, int_list, integer, param_count, param_slots

N_TILES = 136
"""The tile set: 万, 筒, 条 and the honours 东南西北中发白, four of each (§anqing-tiles)."""

N_PLAYERS = 4
"""安庆麻将是一个四个人才能玩的游戏 (§anqing-players)."""

# The largest values allowed: with them no hand moves more than ``bounds.hand_score_bound``, and
# a run of the longest a config allows sums its scores well within int64 (tests/test_options.py)
MAX_DEALER_EXTRA = 1_000
MAX_LIAN_ZHUANG_POINTS = 1_000
MAX_SINGLE_KONG_POINTS = 100
MAX_SHUANG_TIAN_HU_POINTS = 1_000

_TABLE = (
    integer(
        "player_count",
        N_PLAYERS,
        "四个人才能玩",
        "players: four only",
        "§anqing-players",
        minimum=N_PLAYERS,
        maximum=N_PLAYERS,
        allowed_text="4 only (安庆麻将是一个四个人才能玩的游戏)",
    ),
    choice(
        "first_dealer",
        ("random", "seat0"),
        "random",
        "起庄",
        "first dealer of a session: rolled for (random) or seat 0",
        "§anqing-next-dealer, §anqing-option-first-dealer",
    ),
    choice(
        "next_dealer_rule",
        ("rotate", "winner"),
        "rotate",
        "定庄",
        "when a non-dealer wins the deal passes to the dealer's next player, or to the winner",
        "§anqing-next-dealer, §anqing-option-next-dealer-rule, §anqing-reading-dealer-rotation",
    ),
    integer(
        "dealer_extra",
        3,
        "庄家额外",
        "points added to every payment the dealer makes or receives",
        "§anqing-payments, §anqing-option-dealer-extra",
        minimum=0,
        maximum=MAX_DEALER_EXTRA,
    ),
    flag(
        "dealer_extra_symmetric",
        True,
        "庄家额外",
        "the dealer's extra also when he pays (off: only when he wins)",
        "§anqing-payments, §anqing-option-dealer-extra-symmetric, "
        "§anqing-reading-dealer-extra-symmetric",
    ),
    int_list(
        "lian_zhuang_table",
        (3, 6, 12, 15),
        "连庄",
        "streak points L(1), L(2), L(3), L(4 or more) on each payment with the dealer",
        "§anqing-lian-zhuang, §anqing-option-lian-zhuang-table, §anqing-reading-lian-zhuang-values",
        length=4,
        minimum=0,
        maximum=MAX_LIAN_ZHUANG_POINTS,
    ),
    flag(
        "lian_zhuang_cumulative",
        False,
        "连庄 是不是累加的",
        "a dealer's streak win also collects the amounts of his earlier streak wins",
        "§anqing-lian-zhuang, §anqing-option-lian-zhuang-cumulative, "
        "§anqing-reading-lian-zhuang-values",
    ),
    choice(
        "gang_kai_count_mode",
        ("chain", "total"),
        "chain",
        "杠开",
        "kongs counted for 杠开: the chain of this turn, or all the winner's kongs",
        "§anqing-score-table, §anqing-option-gang-kai-count-mode, §anqing-reading-gang-kai-values",
    ),
    flag(
        "gang_kai_cumulative",
        True,
        "杠开",
        "杠开 for 1-4 kongs is 3, 9, 18, 30 (off: 3, 6, 9, 12)",
        "§anqing-score-table, §anqing-option-gang-kai-cumulative, §anqing-reading-gang-kai-values",
    ),
    integer(
        "single_kong_points",
        1,
        "单张杠",
        "points of a single-tile 杠牌 or 钻 kong",
        "§anqing-score-table, §anqing-option-single-kong-points, §anqing-reading-kong-points",
        minimum=0,
        maximum=MAX_SINGLE_KONG_POINTS,
    ),
    flag(
        "single_kong_breaks_menqing",
        False,
        "单张杠 门清",
        "a single-tile kong breaks 门清",
        "§anqing-score-table, §anqing-option-single-kong-breaks-menqing, "
        "§anqing-reading-menqing-single-kongs",
    ),
    flag(
        "menqing_ying_additive",
        True,
        "门清（硬）",
        "门清（硬） adds 3 to 门清 (off: it replaces it)",
        "§anqing-score-table, §anqing-option-menqing-ying-additive, "
        "§anqing-reading-menqing-single-kongs",
    ),
    choice(
        "bao_all_pong_4_factor",
        (12, 24),
        12,
        "四口全碰 包",
        "包 factor for four 口 all pongs or kongs",
        "§anqing-bao, §anqing-option-bao-all-pong-4-factor, §anqing-reading-bao-four-pongs",
    ),
    choice(
        "mutual_bao_mode",
        ("sum", "max"),
        "sum",
        "互为顺包",
        "winner and payer fed each other three 口: add both factors, or take the larger",
        "§anqing-bao, §anqing-option-mutual-bao-mode, §anqing-reading-bao-four-pongs",
    ),
    choice(
        "pao_feng_definition",
        ("decomposition", "unique_wait"),
        "decomposition",
        "跑风",
        "the drawn tile is pair, middle or edge in some reading; or also a single wait",
        "§anqing-zuan-conditions, §anqing-option-pao-feng-definition, §anqing-reading-pao-feng",
    ),
    choice(
        "jian_zi_hu_definition",
        ("suited_natural", "zuan_diao"),
        "suited_natural",
        "见字胡",
        "the drawn tile is a suited tile at its face; or also paired with a 钻 (钻吊)",
        "§anqing-zuan-conditions, §anqing-option-jian-zi-hu-definition, §anqing-reading-jian-zi-hu",
    ),
    flag(
        "jian_zi_hu_red_counts",
        True,
        "见字胡 红中",
        "a drawn 红中 standing for a suited 钻 face counts for 见字胡",
        "§anqing-zuan-conditions, §anqing-option-jian-zi-hu-red-counts, §anqing-reading-jian-zi-hu",
    ),
    flag(
        "gang_tile_discardable",
        False,
        "杠牌",
        "the kong-only dragons may be discarded",
        "§anqing-gang-tile-kong, §anqing-option-gang-tile-discardable, "
        "§anqing-reading-gang-tile-use",
    ),
    flag(
        "shisanlan_honours_literal",
        True,
        "十三烂",
        "in 十三烂 红中 is 中 and 杠牌 are held as honours",
        "§anqing-shisanlan, §anqing-option-shisanlan-honours-literal, "
        "§anqing-reading-seven-stars-honours, §anqing-reading-literal-shisanlan-off",
    ),
    choice(
        "zhi_jiao_requires",
        ("ready", "pao_feng_wait"),
        "ready",
        "直叫",
        "a 钻 may be konged when the rest is ready, or waits as 跑风",
        "§anqing-zuan-kong-needs-zhi-jiao, §anqing-option-zhi-jiao-requires, "
        "§anqing-reading-zhi-jiao",
    ),
    flag(
        "seven_pairs_allow_quad",
        True,
        "七小对",
        "four identical tiles count as two pairs",
        "§anqing-class-one, §anqing-option-seven-pairs-allow-quad",
    ),
    integer(
        "shuang_tian_hu_points",
        60,
        "双天胡",
        "points of 双天胡, instead of 七对天胡 and 四个钻牌",
        "§anqing-score-table, §anqing-option-shuang-tian-hu-points, "
        "§anqing-reading-shuang-tian-hu-value",
        minimum=0,
        maximum=MAX_SHUANG_TIAN_HU_POINTS,
    ),
)

ANQING_OPTIONS = _TABLE
"""``player_count`` (§anqing-players), then every option of §anqing-options in its order (#1-21)."""

OPTION = by_name(ANQING_OPTIONS)
OPTION_NAMES = tuple(OPTION)
OPTION_TITLES = {name: option.title for name, option in OPTION.items()}
"""Option -> its Chinese rule name and meaning (configs, reports, ``--help``)."""

# Indices into ``params`` for the kernels: the slots come from the declarations
_SLOT = param_slots(ANQING_OPTIONS)
P_PLAYERS = _SLOT["player_count"]
P_FIRST_DEALER = _SLOT["first_dealer"]
P_NEXT_DEALER_RULE = _SLOT["next_dealer_rule"]
P_DEALER_EXTRA = _SLOT["dealer_extra"]
P_DEALER_EXTRA_SYMMETRIC = _SLOT["dealer_extra_symmetric"]
P_LIAN_ZHUANG_TABLE = _SLOT["lian_zhuang_table"]
"""First of four slots: L(1), L(2), L(3), L(4 or more)."""
P_LIAN_ZHUANG_CUMULATIVE = _SLOT["lian_zhuang_cumulative"]
P_GANG_KAI_COUNT_MODE = _SLOT["gang_kai_count_mode"]
P_GANG_KAI_CUMULATIVE = _SLOT["gang_kai_cumulative"]
P_SINGLE_KONG_POINTS = _SLOT["single_kong_points"]
P_SINGLE_KONG_BREAKS_MENQING = _SLOT["single_kong_breaks_menqing"]
P_MENQING_YING_ADDITIVE = _SLOT["menqing_ying_additive"]
P_BAO_ALL_PONG_4_FACTOR = _SLOT["bao_all_pong_4_factor"]
P_MUTUAL_BAO_MODE = _SLOT["mutual_bao_mode"]
P_PAO_FENG_DEFINITION = _SLOT["pao_feng_definition"]
P_JIAN_ZI_HU_DEFINITION = _SLOT["jian_zi_hu_definition"]
P_JIAN_ZI_HU_RED_COUNTS = _SLOT["jian_zi_hu_red_counts"]
P_GANG_TILE_DISCARDABLE = _SLOT["gang_tile_discardable"]
P_SHISANLAN_HONOURS_LITERAL = _SLOT["shisanlan_honours_literal"]
P_ZHI_JIAO_REQUIRES = _SLOT["zhi_jiao_requires"]
P_SEVEN_PAIRS_ALLOW_QUAD = _SLOT["seven_pairs_allow_quad"]
P_SHUANG_TIAN_HU_POINTS = _SLOT["shuang_tian_hu_points"]
N_PARAMS = param_count(ANQING_OPTIONS)

# How the kernels compare choice values (an int choice is stored as itself: 12 or 24)
FIRST_DEALER_RANDOM = OPTION["first_dealer"].code("random")
FIRST_DEALER_SEAT0 = OPTION["first_dealer"].code("seat0")
NEXT_DEALER_ROTATE = OPTION["next_dealer_rule"].code("rotate")
NEXT_DEALER_WINNER = OPTION["next_dealer_rule"].code("winner")
GANG_KAI_CHAIN = OPTION["gang_kai_count_mode"].code("chain")
GANG_KAI_TOTAL = OPTION["gang_kai_count_mode"].code("total")
MUTUAL_BAO_SUM = OPTION["mutual_bao_mode"].code("sum")
MUTUAL_BAO_MAX = OPTION["mutual_bao_mode"].code("max")
PAO_FENG_DECOMPOSITION = OPTION["pao_feng_definition"].code("decomposition")
PAO_FENG_UNIQUE_WAIT = OPTION["pao_feng_definition"].code("unique_wait")
JIAN_ZI_HU_SUITED_NATURAL = OPTION["jian_zi_hu_definition"].code("suited_natural")
JIAN_ZI_HU_ZUAN_DIAO = OPTION["jian_zi_hu_definition"].code("zuan_diao")
ZHI_JIAO_READY = OPTION["zhi_jiao_requires"].code("ready")
ZHI_JIAO_PAO_FENG_WAIT = OPTION["zhi_jiao_requires"].code("pao_feng_wait")


class AnqingOptions(Options, declarations=ANQING_OPTIONS):
    """Every option of §anqing-options, with its default, and the four-player rule
    (§anqing-players).

    No two §anqing-options options contradict each other: each combination is a playable rule set
    (some make another option moot, e.g. ``shuang_tian_hu_points`` without
    ``seven_pairs_allow_quad``, where 双天胡 cannot occur; docs/rules/anqing.md lists these). The
    one impossible setting, another player count, is rejected by ``player_count``'s bounds, one line
    naming the option."""

    def lian_zhuang_points(self, streak: int) -> int:
        """L(k) of §anqing-lian-zhuang: 0 for k = 0, then the table, capped at its fourth value."""
        if streak < 0:
            raise ValueError(f"streak: {streak} is below 0")
        return 0 if streak == 0 else self.lian_zhuang_table[min(streak, 4) - 1]
