"""What ``mjsim report`` says of Weng'an 贵州瓮安麻将 beyond its options.

The report's labels for the win kind and the points sources only this game has (杠开, and the
sources ``record_slots.POINT_SOURCES`` declares), the pattern table of §wengan-pattern-score (to
list those a run never won), and one sentence each on tiers (none), on what a score change holds and
on how the points moved in a hand are split (the sources ``frames`` records)."""

from __future__ import annotations

from ..report_text import ReportText
from .patterns import PATTERN_NAMES
from .record_slots import POINT_SOURCES

REPORT = ReportText(
    win_kind_labels={"kong_bloom": "杠开 (win on a kong's replacement)"},
    points_source_labels={source.name: source.label for source in POINT_SOURCES},
    named_patterns=tuple(PATTERN_NAMES.values()),
    tier_note="Weng'an has no tiers: each win scores one row of the pattern table (牌型分).",
    score_includes="chickens 鸡, dou 豆, 包, 查叫, 原缺 and the win's bonuses",
    points_note="Each source = the seats' net gains from its payments (× 底分, 原缺 not): "
    "牌型分 the hand payments T (pattern + 名堂 + 杠开), the dealer bonus 连庄 / 一口二 on "
    "them, 热炮, 杀听, chickens, dou, 包, 查叫 (with its dealer bonus) and 原缺; together they "
    "are every point a hand moves.",
)
