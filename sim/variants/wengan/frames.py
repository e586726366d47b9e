"""Weng'an's columns of the games and wins frames, declared once, and how the records give them.

:mod:`sim.running.records` builds the generic columns and inserts these where they declare
(``after``); :func:`games_values` and :func:`wins_values` compute them from Weng'an's record slots
(``record_slots``: the settlement's net points per seat by source, as its ``POINT_SOURCES``
declares them; readiness, 报听, 原缺, the flips, 热炮, the 连庄 count, the kongs by dou kind) and
each winner's feature bits
(``hooks.FEATURE_*``: the pattern code and the 名堂). Pure numpy and pandas: no kernels run here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ...core.tiles import kind_name
from ...kernels.moves import HOW_DISCARD, HOW_KONG_BLOOM, HOW_ROB_KONG, HOW_SELF_DRAW
from ...running.records import categorical, strings
from ..columns import Column
from .patterns import PATTERN_NAMES, PATTERN_POINTS
from .record_slots import (
    POINT_SOURCES,
    RW_BAO_TING,
    RW_DEALT_LACKING,
    RW_FLIP,
    RW_HOT_CANNON,
    RW_KONGS,
    RW_QUE_SUIT,
    RW_READY,
    RW_STREAK,
    SLOT,
)

if TYPE_CHECKING:
    from ...running.records import Winners

WIN_KINDS = {
    HOW_SELF_DRAW: "self_draw",
    HOW_DISCARD: "discard",
    HOW_ROB_KONG: "rob_kong",
    HOW_KONG_BLOOM: "kong_bloom",
}
"""Win kind code (``sim.kernels.moves.HOW_*``) -> name: 自摸, 点炮, 抢杠, 杠开 (the draw after
one's own kong; settled as a self-draw with its 名堂, §wengan-hand-payments)."""

# 名堂 and facts of a win, as the feature bits of hooks.FEATURE_* (pure Python copies: the
# hooks module compiles kernels on import; tests check these against it)
FEATURE_PATTERN = 15
MINGTANG = (
    (16, "tian_hu", "天胡"),
    (32, "di_hu", "地胡"),
    (64, "qiang_gang", "抢杠"),
    (128, "bao_ting", "报听"),
    (256, "sha_ting", "杀听"),
    (512, "gang_kai", "杠开"),
    (1024, "re_pao", "热炮"),
    (2048, "passport", "通行证"),
)
"""(feature bit, English id, Chinese name) of every 名堂 and fact a win's features carry."""

QUE_SUITS = {0: "m", 1: "p", 2: "s"}
DOU_COLUMNS = (
    ("men_dou", "闷豆 (concealed kongs)"),
    ("pa_po_dou", "爬坡豆 (added kongs)"),
    ("dian_dou", "点豆 (kongs on a discard)"),
    ("han_bao_dou", "憨包豆 (kongs made late: no dou)"),
)
"""The kongs' dou kinds in the order of the ``kongs`` record slots."""

SOURCES = tuple((source.name, SLOT[source.slot], source.words) for source in POINT_SOURCES)
"""(source, first record slot, what it is) of the settlement's net points per seat, from the
declaration ``record_slots.POINT_SOURCES``: every item has one, so a seat's sources sum to its
score change."""

GAMES_COLUMNS = (
    Column(
        "flip",
        "the tile flipped for chickens after a win (翻牌鸡); empty when none",
        "category",
        shown_as="tile",
        after="tiles_left",
    ),
    Column(
        "flip_tail",
        "the last undrawn tile flipped too (前后翻鸡); empty when none",
        "category",
        shown_as="tile",
    ),
    Column("hot_cannon", "the discard won on was a 热炮 (after the discarder's kong)", "bool",
           shown_as="flag"),
    Column(
        "lian_zhuang",
        "the dealer's 连庄 count n this hand was played with",
        "int64",
        shown_as="count",
        unit="hands",
    ),
    *(
        Column(f"kongs_{name}", f"kongs of the hand that are {words}", "int64", shown_as="count")
        for name, words in DOU_COLUMNS
    ),
    *(
        Column(
            f"{name}_{{seat}}",
            f"seat {{seat}}'s net points from {words}, × 底分",
            "int64",
            shown_as="points",
            unit="points",
            per_seat=True,
            after="dealer_complete_dealt" if name == "chicken" else None,
        )
        for name, _, words in SOURCES
    ),
    *(
        Column(f"points_from_{name}", f"points moved by {words}: the sum of the seats' gains",
               "int64", shown_as="points", unit="points")
        for name, _, words in SOURCES
    ),
    Column("ready_{seat}", "seat {seat} won or was ready (叫) at the end: it collected",
           "bool", shown_as="flag", per_seat=True),
    Column("bao_ting_{seat}", "seat {seat} declared 报听", "bool", shown_as="flag",
           per_seat=True),
    Column("yuan_que_dealt_{seat}", "seat {seat} was dealt a hand lacking a suit (原缺)",
           "bool", shown_as="flag", per_seat=True),
    Column("que_suit_{seat}", "the suit seat {seat} lacks by 定缺 (m, p, s; empty: none)",
           "category", shown_as="name", per_seat=True),
)  # fmt: skip
"""Weng'an's columns of the games frame."""

WINS_COLUMNS = (
    Column(
        "pattern",
        "the pattern's name as the rules text gives it (牌型分: 平胡 ... 清单吊)",
        "category",
        shown_as="name",
        after="win_kind",
    ),
    Column("pattern_points", "the pattern's points (§wengan-pattern-score)", "int64",
           shown_as="points"),
    Column("mingtang", "the win's 名堂 and facts in Chinese, joined by +", "text",
           shown_as="text", after="points"),
    *(
        Column(name, f"the win has {chinese}", "bool", shown_as="flag")
        for _, name, chinese in MINGTANG
    ),
)  # fmt: skip
"""Weng'an's columns of the wins frame (no tiers: Weng'an has none)."""


def _tile_or_empty(kinds: np.ndarray):
    return categorical(kinds, lambda k: kind_name(k) if k >= 0 else "")


def games_values(records: np.ndarray, n_players: int, options) -> dict:
    """The values of :data:`GAMES_COLUMNS` for a block of records."""
    kongs = {f"kongs_{name}": records[:, RW_KONGS + i] for i, (name, _) in enumerate(DOU_COLUMNS)}
    values = {
        "flip": _tile_or_empty(records[:, RW_FLIP]),
        "flip_tail": _tile_or_empty(records[:, RW_FLIP + 1]),
        "hot_cannon": records[:, RW_HOT_CANNON] == 1,
        "lian_zhuang": records[:, RW_STREAK],
        **kongs,
    }
    for name, slot, _ in SOURCES:
        net = records[:, slot : slot + n_players]
        values |= {f"{name}_{seat}": net[:, seat] for seat in range(n_players)}
        values[f"points_from_{name}"] = np.where(net > 0, net, 0).sum(axis=1)
    for seat in range(n_players):
        values[f"ready_{seat}"] = ((records[:, RW_READY] >> seat) & 1) == 1
        values[f"bao_ting_{seat}"] = ((records[:, RW_BAO_TING] >> seat) & 1) == 1
        values[f"yuan_que_dealt_{seat}"] = ((records[:, RW_DEALT_LACKING] >> seat) & 1) == 1
        values[f"que_suit_{seat}"] = categorical(
            records[:, RW_QUE_SUIT + seat], lambda s: QUE_SUITS.get(s, ""), ["", "m", "p", "s"]
        )
    return values


def mingtang_names(features: int) -> str:
    """The 名堂 and facts of a win's features in Chinese, joined by + (empty: none)."""
    return "+".join(chinese for bit, _, chinese in MINGTANG if features & bit)


def wins_values(winners: Winners, n_players: int, options) -> dict:
    """The values of :data:`WINS_COLUMNS` for every winner of a block of records."""
    features = winners.features
    codes = features & FEATURE_PATTERN
    return {
        "pattern": categorical(codes, PATTERN_NAMES.__getitem__, list(PATTERN_NAMES.values())),
        "pattern_points": np.array([PATTERN_POINTS[int(c)] for c in codes], np.int64),
        "mingtang": strings(features, mingtang_names),
        **{name: (features & bit) != 0 for bit, name, _ in MINGTANG},
    }
