"""What ``mjsim report`` says of Weng'an 贵州瓮安麻将 beyond its options.

The report's labels for the win kind and the points sources only this game has (杠开, the
chickens 鸡, the dou 豆, 包鸡 / 包杠, 荒庄查叫, 原缺), the pattern table of rules-spec B5.1 (to list
those a run never won), and one sentence each on tiers (none), on what a score change holds and
on how the points moved in a hand are split (the sources ``frames`` records).
"""

from __future__ import annotations

from ..report_text import ReportText
from .patterns import PATTERN_NAMES

REPORT = ReportText(
    win_kind_labels={"kong_bloom": "杠开 (win on a kong's replacement)"},
    points_source_labels={
        "chicken": "chickens 鸡分 / 责任鸡",
        "dou": "dou 豆分",
        "bao": "包鸡 / 包杠",
        "cha_jiao": "荒庄查叫",
        "yuan_que": "原缺",
    },
    named_patterns=tuple(PATTERN_NAMES.values()),
    tier_note="Weng'an has no tiers: each win scores one row of the pattern table (牌型分).",
    score_includes="chickens 鸡, dou 豆, 包, 查叫, 原缺 and the win's bonuses",
    points_note="Pattern points = the winner's T (pattern + 名堂 + 杠开) × payers; chickens, "
    "dou, 包, 查叫 and 原缺 = the seats' net gains from each (× 底分); the dealer bonus "
    "连庄 / 一口二, 热炮 and 杀听 are in the score changes but not listed here.",
)
