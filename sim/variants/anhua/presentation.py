"""What ``mjsim report`` says of Anhua Seven Kings 安化七王麻将 beyond its options.

The report's labels for the win kind and the points sources only this game has (起手胡, 抓鸟,
庄闲分), the named patterns of §anhua-named-patterns (to list those a run never won), and one
sentence each on the tiers, on what a score change holds and on how the points moved in a hand are
split (:func:`sim.analysis.points_sources` counts the birds as the rest of the points moved)."""

from __future__ import annotations

from ..report_text import ReportText
from . import NAMED_PATTERNS

REPORT = ReportText(
    win_kind_labels={"instant": "instant kings 起手胡"},
    points_source_labels={"birds": "birds 抓鸟", "dealer_bonus": "dealer bonus 庄闲分"},
    named_patterns=tuple(NAMED_PATTERNS.values()),
    tier_note="Tiers by the number of big features (大胡) of the winning hand.",
    score_includes="birds and bonuses",
    points_note="Pattern points = base points × payers; birds (and the dealer bonus when "
    "enabled) = the rest of the points moved in the hand.",
)
