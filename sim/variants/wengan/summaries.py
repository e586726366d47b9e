"""What the generic analysis, figures and sweeps need to know of Weng'an: where its points come
from besides the pattern (the settlement's sources, recorded as ``points_from_*`` columns by
``frames``, and the win's bonuses derived here), no tier colours (Weng'an has no tiers), the
labels of its figures and the metrics a sweep draws.

Pure numpy: no kernels run here (``sim.analysis`` calls :func:`point_sources` on stored runs).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import pandas as pd

TIER_COLORS: dict[str, str] = {}
"""Weng'an has no tiers (the pattern table B5.1 is flat)."""

METRIC_LABELS = {
    "points_chicken": "chicken points 鸡分",
    "points_dou": "dou points 豆分",
    "points_bao": "包鸡 / 包杠 points",
    "points_cha_jiao": "查叫 points",
    "points_yuan_que": "原缺 points",
    "points_win_bonuses": "连庄 / 热炮 / 杀听 and 底分 (the rest)",
}
"""Figure labels of the point sources (the recorded ones and the one derived here)."""

FIGURE_METRICS = ("points_chicken", "points_dou", "points_cha_jiao")
"""Columns of the sweep table a sweep draws besides the generic ones."""


def point_sources(
    games: pd.DataFrame,
    wins: pd.DataFrame,
    rows: np.ndarray,
    options: dict,
    n_players: int,
    explained: np.ndarray,
) -> dict[str, np.ndarray]:
    """The rest of the points moved in a hand (the sum of the positive score changes) once the
    pattern points (T, with its 名堂, times the payers) and the recorded sources (chickens, dou,
    包, 查叫, 原缺: each the sum of the seats' net gains) are counted: the dealer bonus 连庄 /
    一口二, 热炮 and 杀听, and 底分 above 1. Netting (a seat paid chickens and collected dou, say)
    makes the recorded sources smaller than the items, so the rest may be negative on a hand;
    over a run it measures the win bonuses."""
    deltas = games[[f"delta_{seat}" for seat in range(n_players)]].to_numpy(dtype=float)
    moved = np.where(deltas > 0, deltas, 0).sum(axis=1)
    return {"win_bonuses": moved - explained}
