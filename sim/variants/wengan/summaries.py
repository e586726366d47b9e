"""What the generic analysis, figures and sweeps need to know of Weng'an: no tier colours
(Weng'an has no tiers), the labels of its figures and the metrics a sweep draws.

Where its points come from besides the pattern is recorded: ``frames`` gives the games frame a
``points_from_<source>`` column per settlement source (chickens, dou, 包, 查叫, 原缺: the seats'
net gains from it), which ``sim.analysis.points_per_hand`` reads, so no source is derived here
(the entry's ``point_sources`` is None). The win's bonuses (连庄 / 一口二, 热炮, 杀听) are not a
source of their own: a seat's net of several sources cannot be split back into items from the
frames, and "the rest of the points moved" would mix them with that netting.
"""

from __future__ import annotations

TIER_COLORS: dict[str, str] = {}
"""Weng'an has no tiers (the pattern table B5.1 is flat)."""

METRIC_LABELS = {
    "points_chicken": "chicken points 鸡分",
    "points_dou": "dou points 豆分",
    "points_bao": "包鸡 / 包杠 points",
    "points_cha_jiao": "查叫 points",
    "points_yuan_que": "原缺 points",
}
"""Figure labels of the recorded point sources (``points_<source>``)."""

FIGURE_METRICS = ("points_chicken", "points_bao", "points_dou", "points_cha_jiao")
"""Columns of the sweep table a sweep draws besides the generic ones."""
