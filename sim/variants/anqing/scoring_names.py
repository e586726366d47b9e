"""Anqing 安庆麻将: the score items of §anqing-score-table (items 1-22 of docs/rules/anqing.md)
by their Chinese names, in the order of their ids (``scoring.I_*``, the bits of a win's
features). Pure Python: records, frames and replays read them without the kernels."""

from __future__ import annotations

ITEM_NAMES = (
    "基本胡",
    "门清",
    "门清（硬）",
    "跑风",
    "四个钻牌",
    "天胡/地胡",
    "七对天胡",
    "七对有钻",
    "双天胡",
    "碰碰胡",
    "大吊车(无钻)",
    "大吊车(有钻)",
    "杠开",
    "七星归位",
    "铁烂",
    "硬烂",
    "软烂",
    "屁胡",
    "杠牌",
    "风",
)
"""Item id -> Chinese name; 屁胡 (item 19) is a marker worth 0."""

ITEM_ENGLISH = (
    "base",
    "concealed",
    "hard concealed",
    "run-wind",
    "four zuan",
    "heavenly / earthly",
    "hard seven pairs",
    "soft seven pairs",
    "double heavenly",
    "all triplets",
    "big crane, no zuan",
    "big crane, with zuan",
    "kong bloom",
    "seven stars",
    "iron lan",
    "hard lan",
    "soft lan",
    "plain",
    "kongs",
    "wind sets",
)
"""Item id -> English words (report and replay)."""
