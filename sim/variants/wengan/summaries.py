"""What the generic analysis, figures and sweeps need to know of Weng'an: no tier colours
(Weng'an has no tiers), the labels of its figures and the metrics a sweep draws.

Where its points come from is recorded: ``frames`` gives the games frame a
``points_from_<source>`` column per source of ``record_slots.POINT_SOURCES`` (牌型分, 连庄 /
一口二, 热炮, 杀听, chickens, dou, 包, 查叫, 原缺: the seats' net gains from it; every settlement
item has one), which ``sim.analysis.points_per_hand`` reads (the recorded ``pattern`` replacing
the generic T × payers), so no source is derived here (the entry's ``point_sources`` is None).
"""

from __future__ import annotations

from .record_slots import POINT_SOURCES

TIER_COLORS: dict[str, str] = {}
"""Weng'an has no tiers (the pattern table §wengan-pattern-score is flat)."""

METRIC_LABELS = {f"points_{source.name}": f"{source.label} points" for source in POINT_SOURCES}
"""Figure labels of the recorded point sources (``points_<source>``), from their declared labels."""

FIGURE_METRICS = ("points_chicken", "points_bao", "points_dou", "points_cha_jiao")
"""Columns of the sweep table a sweep draws besides the generic ones."""
