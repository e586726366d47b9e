"""What ``mjsim report`` says of Anqing 安庆麻将 beyond its options.

The report's labels for the win kind and the point sources only this game has (杠开, 庄家额外,
连庄, 包, 连庄累加), its patterns (to list those a run never won), one sentence each on tiers
(none), on what a score change holds and on how the points moved in a hand are split, and two
sections of its own: the score items that scored and the 包 factors (``CountedSection``).
"""

from __future__ import annotations

from ..report_text import CountedRow, CountedSection, ReportText
from .frames import BAO_KINDS, ITEM_IDS
from .scoring_names import ITEM_ENGLISH, ITEM_NAMES

ITEMS_SECTION = CountedSection(
    key="anqing-items",
    title="Score items 名堂 (§anqing-score-table)",
    intro="Which of the score items 1-22 scored, per winner (a win scores every item that "
    "applies, 所有都是累加的): how often each scored, with its 95% interval, and its mean points "
    "where it scored (屁胡 is a marker worth 0; 杠开's points follow its chain, 杠牌's the "
    "kongs). Items of the reading the win was scored by (the legal one with the highest S).",
    frame="wins",
    rows=tuple(
        CountedRow(f"{chinese} {english}", f"item_{name}", flag=("items_scored", bit))
        for bit, (name, chinese, english) in enumerate(
            zip(ITEM_IDS, ITEM_NAMES, ITEM_ENGLISH, strict=True)
        )
    ),
)
"""The report's section on the score items: the wins frame's ``item_<id>`` points and its
``items_scored`` bits."""

BAO_SECTION = CountedSection(
    key="anqing-bao",
    title="包 factors 顺包 / 反包 (§anqing-bao)",
    intro="包 per hand: 顺包 (a payer fed the winner three 口 or more, so pays × the factor), 反包 "
    "(the winner fed the payer: × twice the factor) and 互为顺包 (both ways: the factors added, "
    "or the larger with the option mutual_bao_mode). How often a hand has each, what the "
    "payers under it paid in all, and what the factors added above the plain amounts (the "
    "three sum to the 包 points source above).",
    frame="games",
    rows=tuple(
        CountedRow(chinese, f"bao_{kind}_paid", second=f"bao_{kind}_added")
        for kind, chinese in BAO_KINDS[1:]
    ),
    value_name="points paid",
    second_name="points the factor added",
)
"""The report's section on 包: the games frame's ``bao_<kind>_paid`` and ``_added``."""

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
    tier_note=(
        "Anqing has no tiers: a win scores the sum of its items (§anqing-score-table, "
        "所有都是累加的)."
    ),
    score_includes="the winner's items, 庄家额外, 连庄 and the 包 factors",
    points_note="Pattern points = the winner's S × payers; 庄家额外, 连庄, 包 and 连庄累加 = "
    "what each adds to the payments.",
    sections=(ITEMS_SECTION, BAO_SECTION),
)
