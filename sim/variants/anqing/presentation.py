"""What ``mjsim report`` says of Anqing 安庆麻将 beyond its options.

The report's labels for the win kind and the point sources only this game has (杠开, 庄家额外,
连庄, 包, 连庄累加), its patterns (to list those a run never won), and one sentence each on tiers
(none), on what a score change holds and on how the points moved in a hand are split.
"""

from __future__ import annotations

from ..report_text import ReportText

REPORT = ReportText(
    win_kind_labels={"kong_bloom": "杠开 (win on a kong's replacement)"},
    points_source_labels={
        "dealer_extra": "庄家额外",
        "lian_zhuang": "连庄",
        "bao": "包 (顺包 / 反包)",
        "carry": "连庄累加",
    },
    named_patterns=(
        "平胡",
        "碰碰胡",
        "大吊车(无钻)",
        "大吊车(有钻)",
        "七对天胡",
        "七对有钻",
        "双天胡",
        "七星归位+铁烂",
        "铁烂",
        "硬烂",
        "软烂",
    ),
    tier_note="Anqing has no tiers: a win scores the sum of its items (C5.1, 所有都是累加的).",
    score_includes="the winner's items, 庄家额外, 连庄 and the 包 factors",
    points_note="Pattern points = the winner's S × payers; 庄家额外, 连庄, 包 and 连庄累加 = "
    "what each adds to the payments.",
)
