"""Weng'an 贵州瓮安麻将: every option of §wengan-options, declared once.

The options class and its checks, the kernels' ``params`` array and its ``P_*`` indices, and the
options table of `docs/rules/wengan.md` all come from :data:`WENGAN_OPTIONS` (see
:mod:`sim.variants.options`). Pure Python: the kernels import the indices from here. Defaults are
the spec's (§wengan-options: rows 1-30 from the text, rows 31-46 added by §wengan-readings).
"""

from __future__ import annotations

from ..options import by_name, choice, flag, integer, param_count, param_slots

N_TILES = 108
"""The tile set: 万, 筒 and 条, four of each (no winds or dragons; §wengan-tiles)."""

# The largest values allowed: with them no hand moves more than ``bounds.hand_score_bound``, and
# a run of the longest a config allows sums its scores well within int64 (tests/test_options.py)
MAX_BASE_STAKE = 10_000
MAX_YUAN_QUE_BONUS = 10_000

_RULE_OPTIONS = (
    choice("player_count", (4, 3, 2), 4, "人数", "players: 4, 3 or 2", "§wengan-players"),
    integer(
        "base_stake",
        1,
        "底分",
        "every payment is multiplied by it (原缺 excepted)",
        "§wengan-total",
        minimum=1,
        maximum=MAX_BASE_STAKE,
    ),
    flag(
        "fan_pai_ji",
        True,
        "翻牌鸡",
        "flip a tile after a win: rank + 1 is a chicken",
        "§wengan-chicken-flip",
    ),
    flag(
        "ben_ji",
        True,
        "本鸡",
        "the flipped tile itself is a chicken too",
        "§wengan-chickens, §wengan-chicken-flip",
    ),
    choice(
        "chong_feng_mode",
        ("none", "plain", "4321", "3211"),
        "plain",
        "冲锋鸡 / 冲锋鸡4321 / 冲锋鸡3211",
        "charging chicken: first unclaimed 1s doubles, or unclaimed 1s by order 4-3-2-1 / 3-2-1-1",
        "§wengan-chickens, §wengan-chicken-value, §wengan-chicken-charging",
    ),
    flag(
        "jin_ji",
        True,
        "金鸡",
        "a flipped 1s (8p with 乌骨鸡) earns +2 per hit",
        "§wengan-chicken-value, §wengan-chicken-gold",
    ),
    flag(
        "wu_gu_ji",
        False,
        "乌骨鸡",
        "8p is a fixed chicken worth 2",
        "§wengan-chickens, §wengan-chicken-wu-gu-ji, §wengan-reading-wu-gu-ji-default",
    ),
    flag(
        "ze_ren_ji",
        True,
        "责任鸡",
        "the discarder of a claimed charging chicken pays the claimer",
        "§wengan-chicken-collection, §wengan-chicken-responsibility",
    ),
    flag(
        "bao_ji",
        True,
        "包鸡",
        "a non-ready player pays back his chickens",
        "§wengan-chicken-collection, §wengan-chicken-bao",
    ),
    flag(
        "yao_bai_ji",
        False,
        "摇摆鸡",
        "the flipped rank - 1 is a chicken too",
        "§wengan-chicken-flip",
    ),
    flag(
        "man_tang_ji",
        False,
        "满堂鸡",
        "flip chickens also count in discard piles",
        "§wengan-chicken-collection, §wengan-chicken-man-tang",
    ),
    flag(
        "quan_qing_yao",
        False,
        "全清幺",
        "a flipped 1p or 1m is a gold chicken (+2 per hit)",
        "§wengan-chicken-value, §wengan-chicken-gold, §wengan-reading-quan-qing-yao-naming",
    ),
    flag(
        "qian_hou_fan_ji",
        False,
        "前后翻鸡",
        "flip the first and the last undrawn tile; hits add up",
        "§wengan-chicken-flip, §wengan-chicken-double-flip",
    ),
    flag(
        "xing_qi_ji",
        False,
        "欢乐鸡（星期鸡）",
        "the weekday's rank in every suit is a chicken worth 1",
        "§wengan-chicken-value, §wengan-chicken-weekday, §wengan-reading-weekday-numbering",
    ),
    integer(
        "xing_qi_ji_weekday",
        3,
        "星期几",
        "the weekday of 星期鸡: Monday 1 ... Sunday 7",
        "§wengan-chicken-value, §wengan-chicken-weekday, §wengan-reading-weekday-numbering",
        minimum=1,
        maximum=7,
    ),
    choice(
        "dealer_bonus_mode",
        ("none", "lian_zhuang", "yi_kou_er"),
        "none",
        "连庄 / 一口二",
        "dealer's extra on pattern payments: none, the streak n, or 1",
        "§wengan-dealer-bonus, §wengan-reading-lian-zhuang-streak, "
        "§wengan-reading-yi-kou-er-one-choice",
    ),
    flag(
        "ding_que",
        True,
        "定缺",
        "with 2 or 3 players a hand must lack a suit to be ready or win",
        "§wengan-ding-que",
    ),
    integer(
        "yuan_que_bonus",
        3,
        "原缺",
        "fixed points from each player for a dealt hand lacking a suit (2/3 players, 0 = off)",
        "§wengan-ding-que, §wengan-yuan-que, §wengan-reading-ding-que-and-yuan-que",
        minimum=0,
        maximum=MAX_YUAN_QUE_BONUS,
    ),
    flag(
        "qiang_gang_shao_dou",
        True,
        "抢杠烧豆",
        "the robbed konger's dou income is void",
        "§wengan-dou-settlement, §wengan-dou-burn",
    ),
    flag(
        "qiang_gang_shao_ji",
        True,
        "抢杠烧鸡",
        "the robbed konger's chicken income is void",
        "§wengan-chicken-collection, §wengan-chicken-burn",
    ),
    flag(
        "re_pao_shao_dou",
        True,
        "热炮烧豆",
        "the hot-cannon discarder's dou income is void",
        "§wengan-dou-settlement, §wengan-dou-burn, §wengan-reading-hot-cannon-burned-player",
    ),
    flag(
        "re_pao_shao_ji",
        True,
        "热炮烧鸡",
        "the hot-cannon discarder's chicken income is void",
        "§wengan-chicken-collection, §wengan-chicken-burn, "
        "§wengan-reading-hot-cannon-burned-player",
    ),
    flag(
        "bao_gang",
        True,
        "包杠",
        "a non-ready player pays back his dou",
        "§wengan-dou-settlement, §wengan-bao-gang",
    ),
    flag(
        "multi_ron",
        True,
        "一炮多响",
        "several players may win on one discard",
        "§wengan-claims, §wengan-multi-ron",
    ),
    flag(
        "guo_hu_limit",
        True,
        "过胡限制",
        "a declined legal discard win locks that tile until the hand changes",
        "§wengan-guo-hu, §wengan-reading-guo-hu-needs-legal-win",
    ),
    flag(
        "guo_peng_limit",
        True,
        "过碰限制",
        "a declined pong locks that tile until the hand changes",
        "§wengan-guo-hu, §wengan-guo-peng",
    ),
    flag(
        "huang_zhuang_cha_jiao",
        True,
        "荒庄查叫",
        "on an exhaustive draw non-ready players pay ready ones their best pattern",
        "§wengan-exhaustive-draw, §wengan-cha-jiao, §wengan-reading-cha-jiao-pattern-only",
    ),
    flag(
        "huang_zhuang_burn",
        True,
        "荒庄烧鸡烧豆",
        "on an exhaustive draw chickens and dou are burned",
        "§wengan-exhaustive-draw-burn, §wengan-reading-exhaustive-draw-burn",
    ),
    flag(
        "huang_zhuang_no_bao",
        True,
        "荒庄不包鸡包豆",
        "no 包鸡/包杠 on an exhaustive draw (read only when the burn is off)",
        "§wengan-exhaustive-draw-burn, §wengan-reading-exhaustive-draw-burn",
    ),
    flag(
        "ping_hu_ron_needs_passport",
        True,
        "平胡点炮需要通行证",
        "a 平胡 may win on a discard only with a 通行证 or an exception",
        "§wengan-how-to-win",
    ),
)

_SPEC_OPTIONS = (
    choice(
        "passport_kinds",
        ("any_kong", "scoring_kong", "kong_or_chicken", "none"),
        "any_kong",
        "通行证",
        "what lets a 平胡 win on a discard",
        "§wengan-passport, §wengan-reading-passport-is-a-kong",
    ),
    choice(
        "dan_diao_definition",
        ("four_melds", "any_pair_wait"),
        "four_melds",
        "单吊",
        "four melds and a single-tile wait, or any wait on the pair",
        "§wengan-hand-forms, §wengan-dan-diao, §wengan-reading-dan-diao-four-melds",
    ),
    choice(
        "mingtang_bonus_mode",
        ("bonus_9_10", "total_9_plus_10"),
        "bonus_9_10",
        "名堂 平胡9分 大胡10分",
        "a 名堂 adds 9 to a 平胡 and 10 to a big hand, or makes a 平胡 total 9",
        "§wengan-mingtang, §wengan-reading-mingtang-is-a-bonus, §wengan-reading-scorer-details",
    ),
    choice(
        "sha_ting_payer",
        ("bao_ting_player", "all_payers"),
        "bao_ting_player",
        "杀听",
        "who pays the 杀听 bonus: the 报听 player(s), or every payer",
        "§wengan-hand-payments, §wengan-sha-ting, §wengan-reading-sha-ting-payer",
    ),
    choice(
        "gold_model",
        ("additive", "multiplicative"),
        "additive",
        "金鸡",
        "gold chicken arithmetic: +2 per hit, or base x (1 + hits)",
        "§wengan-chicken-value, §wengan-chicken-gold, §wengan-reading-chicken-arithmetic",
    ),
    flag(
        "chongfeng_ordinal_counts_claimed",
        False,
        "冲锋鸡4321/3211",
        "the order of a discarded 1s also counts claimed ones",
        "§wengan-chicken-value, §wengan-chicken-charging-ordinal, "
        "§wengan-reading-charging-ordinals",
    ),
    choice(
        "bao_ji_scope",
        ("exposed_fixed", "all_fixed", "all"),
        "exposed_fixed",
        "包鸡",
        "chickens paid back: 1s/8p in melds and discards, also concealed, or every chicken",
        "§wengan-chicken-collection, §wengan-chicken-bao, §wengan-reading-bao-ji-scope",
    ),
    flag(
        "ze_ren_on_kong",
        True,
        "责任鸡",
        "a charging chicken konged (点豆) also makes a responsibility payment",
        "§wengan-chicken-collection, §wengan-chicken-responsibility, "
        "§wengan-reading-responsibility-on-kong",
    ),
    flag(
        "lian_zhuang_counts_draws",
        False,
        "连庄",
        "an exhaustive draw also adds one to the dealer's streak",
        "§wengan-dealer-bonus, §wengan-dealer-streak, §wengan-reading-lian-zhuang-streak",
    ),
    choice(
        "ding_que_mode",
        ("composition", "declare"),
        "composition",
        "定缺",
        "at most two suits held, or a suit named after the deal",
        "§wengan-ding-que, §wengan-reading-ding-que-and-yuan-que",
    ),
    choice(
        "guo_hu_scope",
        ("same_tile", "any_tile"),
        "same_tile",
        "过胡 同一张牌",
        "a declined win locks the same tile only, or every tile",
        "§wengan-guo-hu, §wengan-reading-guo-hu-same-tile",
    ),
    choice(
        "di_hu_window",
        ("before_first_discard", "first_go_around"),
        "before_first_discard",
        "地胡",
        "earthly win: before the non-dealer's first discard, or within the first go-around",
        "§wengan-mingtang, §wengan-earthly-win, §wengan-reading-earthly-window",
    ),
    choice(
        "huang_zhuang_burn_scope",
        ("all", "non_ready_only"),
        "all",
        "荒庄烧鸡烧豆",
        "burned on an exhaustive draw: everyone's, or non-ready players' only",
        "§wengan-exhaustive-draw-burn, §wengan-reading-exhaustive-draw-burn",
    ),
    choice(
        "first_dealer",
        ("seat0", "random"),
        "seat0",
        "定庄",
        "first dealer of a session: seat 0 (room owner) or random",
        "§wengan-next-dealer, §wengan-first-dealer",
    ),
    flag(
        "long_qi_dui_win_on_quad",
        True,
        "龙七对",
        "the winning tile must make the four of a kind",
        "§wengan-hand-forms, §wengan-long-qi-dui, §wengan-reading-long-qi-dui-winning-tile",
    ),
    flag(
        "bao_requires_ready",
        False,
        "包鸡/包杠",
        "包 payments go only to winners and ready players",
        "§wengan-chicken-collection, §wengan-bao-recipients, §wengan-reading-bao-recipients",
    ),
)

WENGAN_OPTIONS = _RULE_OPTIONS + _SPEC_OPTIONS
"""Every option of §wengan-options, in its order: the text's (#1-30), then the spec's (#31-46)."""

OPTION = by_name(WENGAN_OPTIONS)
OPTION_NAMES = tuple(OPTION)
OPTION_TITLES = {name: option.title for name, option in OPTION.items()}
"""Option -> its Chinese rule name and meaning (configs, reports, ``--help``)."""

# Indices into ``params`` for the kernels (``scoring.P_*``): the slots come from the declarations
_SLOT = param_slots(WENGAN_OPTIONS)
P_PLAYERS = _SLOT["player_count"]
P_BASE_STAKE = _SLOT["base_stake"]
P_FAN_PAI_JI = _SLOT["fan_pai_ji"]
P_BEN_JI = _SLOT["ben_ji"]
P_CHONG_FENG_MODE = _SLOT["chong_feng_mode"]
P_JIN_JI = _SLOT["jin_ji"]
P_WU_GU_JI = _SLOT["wu_gu_ji"]
P_ZE_REN_JI = _SLOT["ze_ren_ji"]
P_BAO_JI = _SLOT["bao_ji"]
P_YAO_BAI_JI = _SLOT["yao_bai_ji"]
P_MAN_TANG_JI = _SLOT["man_tang_ji"]
P_QUAN_QING_YAO = _SLOT["quan_qing_yao"]
P_QIAN_HOU_FAN_JI = _SLOT["qian_hou_fan_ji"]
P_XING_QI_JI = _SLOT["xing_qi_ji"]
P_XING_QI_JI_WEEKDAY = _SLOT["xing_qi_ji_weekday"]
P_DEALER_BONUS_MODE = _SLOT["dealer_bonus_mode"]
P_DING_QUE = _SLOT["ding_que"]
P_YUAN_QUE_BONUS = _SLOT["yuan_que_bonus"]
P_QIANG_GANG_SHAO_DOU = _SLOT["qiang_gang_shao_dou"]
P_QIANG_GANG_SHAO_JI = _SLOT["qiang_gang_shao_ji"]
P_RE_PAO_SHAO_DOU = _SLOT["re_pao_shao_dou"]
P_RE_PAO_SHAO_JI = _SLOT["re_pao_shao_ji"]
P_BAO_GANG = _SLOT["bao_gang"]
P_MULTI_RON = _SLOT["multi_ron"]
P_GUO_HU_LIMIT = _SLOT["guo_hu_limit"]
P_GUO_PENG_LIMIT = _SLOT["guo_peng_limit"]
P_HUANG_ZHUANG_CHA_JIAO = _SLOT["huang_zhuang_cha_jiao"]
P_HUANG_ZHUANG_BURN = _SLOT["huang_zhuang_burn"]
P_HUANG_ZHUANG_NO_BAO = _SLOT["huang_zhuang_no_bao"]
P_PING_HU_RON_NEEDS_PASSPORT = _SLOT["ping_hu_ron_needs_passport"]
P_PASSPORT_KINDS = _SLOT["passport_kinds"]
P_DAN_DIAO_DEFINITION = _SLOT["dan_diao_definition"]
P_MINGTANG_BONUS_MODE = _SLOT["mingtang_bonus_mode"]
P_SHA_TING_PAYER = _SLOT["sha_ting_payer"]
P_GOLD_MODEL = _SLOT["gold_model"]
P_CHONGFENG_ORDINAL_COUNTS_CLAIMED = _SLOT["chongfeng_ordinal_counts_claimed"]
P_BAO_JI_SCOPE = _SLOT["bao_ji_scope"]
P_ZE_REN_ON_KONG = _SLOT["ze_ren_on_kong"]
P_LIAN_ZHUANG_COUNTS_DRAWS = _SLOT["lian_zhuang_counts_draws"]
P_DING_QUE_MODE = _SLOT["ding_que_mode"]
P_GUO_HU_SCOPE = _SLOT["guo_hu_scope"]
P_DI_HU_WINDOW = _SLOT["di_hu_window"]
P_HUANG_ZHUANG_BURN_SCOPE = _SLOT["huang_zhuang_burn_scope"]
P_FIRST_DEALER = _SLOT["first_dealer"]
P_LONG_QI_DUI_WIN_ON_QUAD = _SLOT["long_qi_dui_win_on_quad"]
P_BAO_REQUIRES_READY = _SLOT["bao_requires_ready"]
N_PARAMS = param_count(WENGAN_OPTIONS)

# How the kernels compare choice values
DAN_DIAO_FOUR_MELDS = OPTION["dan_diao_definition"].code("four_melds")
DAN_DIAO_ANY_PAIR_WAIT = OPTION["dan_diao_definition"].code("any_pair_wait")
GOLD_ADDITIVE = OPTION["gold_model"].code("additive")
GOLD_MULTIPLICATIVE = OPTION["gold_model"].code("multiplicative")
DING_QUE_COMPOSITION = OPTION["ding_que_mode"].code("composition")
DING_QUE_DECLARE = OPTION["ding_que_mode"].code("declare")
PASSPORT_ANY_KONG = OPTION["passport_kinds"].code("any_kong")
PASSPORT_SCORING_KONG = OPTION["passport_kinds"].code("scoring_kong")
PASSPORT_KONG_OR_CHICKEN = OPTION["passport_kinds"].code("kong_or_chicken")
PASSPORT_NONE = OPTION["passport_kinds"].code("none")
CHONG_FENG_NONE = OPTION["chong_feng_mode"].code("none")
CHONG_FENG_PLAIN = OPTION["chong_feng_mode"].code("plain")
CHONG_FENG_4321 = OPTION["chong_feng_mode"].code("4321")
CHONG_FENG_3211 = OPTION["chong_feng_mode"].code("3211")
