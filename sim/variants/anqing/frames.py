"""Anqing's columns of the games and wins frames, declared once, and how the records give them.

:mod:`sim.running.records` builds the generic columns and inserts these where they declare
(``after``); :func:`games_values` and :func:`wins_values` compute them from Anqing's record slots
(``record_slots``: the 钻, the 连庄 count, D per seat, single-tile kongs, each payer's 包 factor,
amount and 累加 carry, the winner's points per §anqing-score-table item). Pure numpy and pandas: no
kernels run here."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ...core.tiles import kind_name
from ...kernels.moves import HOW_KONG_BLOOM, HOW_SELF_DRAW
from ...kernels.record import OUTCOME_WIN, R_DEALER, R_OUTCOME, R_POINTS, R_WINNER
from ...running.records import categorical
from ..columns import Column
from .record_slots import (
    RA_AMOUNT,
    RA_BAO_FACTOR,
    RA_BAO_KIND,
    RA_CARRY,
    RA_DISCARDED_ZUAN,
    RA_FORM,
    RA_ITEMS,
    RA_SINGLE_KONGS,
    RA_STREAK,
    RA_ZUAN,
    RA_ZUAN_KONGS,
)
from .scoring_names import ITEM_NAMES

if TYPE_CHECKING:
    from ...running.records import Winners

WIN_KINDS = {HOW_SELF_DRAW: "self_draw", HOW_KONG_BLOOM: "kong_bloom"}
"""Win kind code (``sim.kernels.moves.HOW_*``) -> name: 自摸 and 杠开 (a win on a kong's
replacement); Anqing has no win on a discard and no robbing (§anqing-self-draw-only)."""

ITEM_IDS = (
    "base",
    "men_qing",
    "men_qing_ying",
    "pao_feng",
    "si_zuan",
    "tian_hu",
    "qi_dui_tian_hu",
    "qi_dui_you_zuan",
    "shuang_tian_hu",
    "peng_peng_hu",
    "da_diao_che",
    "da_diao_che_zuan",
    "gang_kai",
    "qi_xing",
    "tie_lan",
    "ying_lan",
    "ruan_lan",
    "pi_hu",
    "gang_pai",
    "feng",
)
"""Column ids of the §anqing-score-table items, in the order of ``scoring_names.ITEM_NAMES``."""

FEATURE_ZHI_JIAO = 1 << 24
"""hooks.FEATURE_ZHI_JIAO (a pure Python copy: the hooks module compiles kernels on import)."""

FORMS = {0: "standard", 1: "seven_pairs", 2: "shisanlan"}
BAO_KINDS = (("none", "none"), ("shun", "顺包"), ("fan", "反包"), ("mutual", "互为顺包"))
"""包 kind code (record slot ``bao_kind``, ``scoring.BAO_*``) -> (column id, Chinese name)."""
SOURCES = (
    ("dealer_extra", "庄家额外 (the dealer's extra, × the 包 factor)"),
    ("lian_zhuang", "连庄 (the dealer's streak points, × the 包 factor)"),
    ("bao", "包 (what the 包 factors add above the plain amounts)"),
    ("carry", "连庄累加 (the carry of lian_zhuang_cumulative)"),
)
"""(source, what it is) of the points moved besides the winner's S per payer."""

GAMES_COLUMNS = (
    Column("zuan", "the 钻 (wild) kind: the flipped tile's successor", "category",
           shown_as="tile", after="tiles_left"),
    Column("lian_zhuang", "the dealer's 连庄 count k this hand was played with", "int64",
           shown_as="count", unit="hands"),
    Column("single_kongs", "single-tile kongs (杠牌 and 钻) made in the hand", "int64",
           shown_as="count"),
    Column("zuan_kongs", "钻 konged singly (直叫) in the hand", "int64", shown_as="count"),
    *(
        Column(f"points_from_{name}", f"points moved by {words}", "int64", shown_as="points",
               unit="points")
        for name, words in SOURCES
    ),
    Column("discarded_zuan_{seat}", "seat {seat} discarded a 钻 (D)", "bool", shown_as="flag",
           per_seat=True, after="dealer_complete_dealt"),
    Column("bao_factor_{seat}", "seat {seat}'s 包 factor as a payer (1: none; 0: not paying)",
           "int64", shown_as="number", per_seat=True),
    Column("carry_{seat}", "seat {seat}'s 连庄累加 carry paid to the dealer", "int64",
           shown_as="points", unit="points", per_seat=True),
    Column("bao_kind_{seat}", "seat {seat}'s 包 as a payer: none, 顺包, 反包 or 互为顺包 (both)",
           "category", shown_as="name", per_seat=True),
    *(
        Column(f"bao_{kind}_{what}", f"points {words} by the payers under {chinese}", "int64",
               shown_as="points", unit="points")
        for kind, chinese in BAO_KINDS[1:]
        for what, words in (("paid", "paid"), ("added", "the 包 factors added"))
    ),
    Column("dealt_in_{seat}", "seat {seat} paid the winner a 包 (factor above 1): Anqing's "
           "deal-in, as no win is on a discard", "bool", shown_as="flag", per_seat=True),
)  # fmt: skip
"""Anqing's columns of the games frame."""

WINS_COLUMNS = (
    Column("pattern", "the win's form and main pattern (平胡, 碰碰胡, 七对..., 十三烂)",
           "category", shown_as="name", after="win_kind"),
    Column("form", "the reading scored: standard, seven_pairs or shisanlan", "category",
           shown_as="name"),
    Column("zhi_jiao", "the win is a 直叫 (杠开 and 跑风 together)", "bool", shown_as="flag",
           after="points"),
    Column("items_scored", "bit i: §anqing-score-table item i scored (屁胡 too, worth 0)", "int64",
           shown_as="number"),
    *(
        Column(f"item_{name}", f"points of {chinese} (§anqing-score-table)", "int64",
               shown_as="points", unit="points")
        for name, chinese in zip(ITEM_IDS, ITEM_NAMES, strict=True)
    ),
)  # fmt: skip
"""Anqing's columns of the wins frame (no tiers: items add up)."""


def source_points(records: np.ndarray, options) -> dict[str, np.ndarray]:
    """Per hand, the points each source of :data:`SOURCES` moved (sum over the payers)."""
    n = len(records)
    out = {name: np.zeros(n, np.int64) for name, _ in SOURCES}
    won = records[:, R_OUTCOME] == OUTCOME_WIN
    winner = records[:, R_WINNER]
    dealer = records[:, R_DEALER]
    streak = records[:, RA_STREAK]
    table = np.array([0, *options.lian_zhuang_table], np.int64)
    streak_points = table[np.minimum(np.maximum(streak, 0), 4)]
    total = records[:, R_POINTS]
    for payer in range(4):
        paying = won & (winner != payer)
        with_dealer = (dealer == winner) | (dealer == payer)
        extra_applies = (dealer == winner) | ((dealer == payer) & options.dealer_extra_symmetric)
        extra = np.where(paying & extra_applies, options.dealer_extra, 0)
        lian = np.where(paying & with_dealer, streak_points, 0)
        factor = np.where(paying, records[:, RA_BAO_FACTOR + payer], 1)
        out["dealer_extra"] += extra * factor
        out["lian_zhuang"] += lian * factor
        out["bao"] += np.where(paying, (factor - 1) * (total + extra + lian), 0)
        out["carry"] += np.where(paying, records[:, RA_CARRY + payer], 0)
    return out


def games_values(records: np.ndarray, n_players: int, options) -> dict:
    """The values of :data:`GAMES_COLUMNS` for a block of records."""
    values = {
        "zuan": categorical(records[:, RA_ZUAN], kind_name),
        "lian_zhuang": records[:, RA_STREAK],
        "single_kongs": records[:, RA_SINGLE_KONGS : RA_SINGLE_KONGS + 4].sum(axis=1),
        "zuan_kongs": records[:, RA_ZUAN_KONGS],
    }
    values |= {f"points_from_{name}": v for name, v in source_points(records, options).items()}
    for seat in range(n_players):
        values[f"discarded_zuan_{seat}"] = ((records[:, RA_DISCARDED_ZUAN] >> seat) & 1) == 1
        values[f"bao_factor_{seat}"] = records[:, RA_BAO_FACTOR + seat]
        values[f"carry_{seat}"] = records[:, RA_CARRY + seat]
        values[f"bao_kind_{seat}"] = categorical(
            records[:, RA_BAO_KIND + seat], lambda code: BAO_KINDS[code][1]
        )
        values[f"dealt_in_{seat}"] = records[:, RA_BAO_FACTOR + seat] > 1
    return values | bao_points(records)


def bao_points(records: np.ndarray) -> dict[str, np.ndarray]:
    """Per hand and 包 kind (顺包, 反包, 互为顺包): what the payers under it paid
    (``bao_<kind>_paid``) and what their factors added above the plain amounts
    (``bao_<kind>_added``; the three sum to ``points_from_bao``)."""
    out = {}
    for code, (kind, _) in enumerate(BAO_KINDS):
        if code == 0:
            continue
        paid = np.zeros(len(records), np.int64)
        added = np.zeros(len(records), np.int64)
        for payer in range(4):
            under = records[:, RA_BAO_KIND + payer] == code
            amount = records[:, RA_AMOUNT + payer]
            factor = np.maximum(records[:, RA_BAO_FACTOR + payer], 1)
            paid += np.where(under, amount, 0)
            added += np.where(under, amount - amount // factor, 0)
        out[f"bao_{kind}_paid"] = paid
        out[f"bao_{kind}_added"] = added
    return out


def pattern_name(form: int, items: np.ndarray) -> str:
    """The win's main pattern: the 十三烂 grade (with 七星归位), the seven-pairs item, 碰碰胡,
    大吊车, or 平胡."""
    named = [ITEM_NAMES[i] for i in range(len(ITEM_NAMES)) if items[i] > 0]
    if form == 2:
        return "+".join(n for n in named if n in ("七星归位", "铁烂", "硬烂", "软烂"))
    if form == 1:
        return next(n for n in ("双天胡", "七对天胡", "七对有钻") if n in named)
    for name in ("碰碰胡", "大吊车(无钻)", "大吊车(有钻)"):
        if name in named:
            return name
    return "平胡"


def wins_values(winners: Winners, n_players: int, options) -> dict:
    """The values of :data:`WINS_COLUMNS` for every winner of a block of records."""
    rows = winners.rows
    items = rows[:, RA_ITEMS : RA_ITEMS + len(ITEM_NAMES)]
    forms = rows[:, RA_FORM]
    # the pattern depends on the form and on which items scored: named once per distinct pair
    n_items = len(ITEM_NAMES)
    scored = (items > 0).astype(np.int64) @ (np.int64(1) << np.arange(n_items, dtype=np.int64))
    keys = (forms.astype(np.int64) << n_items) | scored
    bits = np.arange(n_items)

    def name_of(key: int) -> str:
        return pattern_name(key >> n_items, (key >> bits) & 1)

    return {
        "pattern": categorical(keys, name_of),
        "form": categorical(forms, lambda f: FORMS.get(f, "")),
        "zhi_jiao": (winners.features & FEATURE_ZHI_JIAO) != 0,
        "items_scored": winners.features & ((1 << len(ITEM_NAMES)) - 1),
        **{f"item_{name}": items[:, i] for i, name in enumerate(ITEM_IDS)},
    }
