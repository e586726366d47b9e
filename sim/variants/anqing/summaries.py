"""What the generic analysis, figures and sweeps need to know of Anqing: no tier colours (its
items add up, §anqing-score-table), the labels of its figures and the metrics a sweep draws.

Where its points come from besides the winner's S is recorded: ``frames`` gives the games frame
a ``points_from_<source>`` column per source (庄家额外, 连庄, 包, 连庄累加), which
``sim.analysis.points_per_hand`` reads, so no source is derived here (the entry's
``point_sources`` is None).
"""

from __future__ import annotations

TIER_COLORS: dict[str, str] = {}
"""Anqing has no tiers (every item of §anqing-score-table adds)."""

METRIC_LABELS = {
    "points_dealer_extra": "庄家额外 points",
    "points_lian_zhuang": "连庄 points",
    "points_bao": "包 points",
    "points_carry": "连庄累加 points",
}
"""Figure labels of the recorded point sources (``points_<source>``)."""

FIGURE_METRICS = ("points_bao", "points_lian_zhuang", "points_dealer_extra")
"""Columns of the sweep table a sweep draws besides the generic ones."""
