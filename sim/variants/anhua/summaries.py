"""What the generic analysis, figures and sweeps need to know of Anhua: where its points come from
besides the pattern (birds 抓鸟, the dealer bonus 庄闲分), the colour of each tier, the labels of
its figures and the metrics a sweep draws.

Pure numpy: no kernels run here (``sim.analysis`` calls :func:`point_sources` on stored runs).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from . import TIER_NAMES

if TYPE_CHECKING:
    import pandas as pd

TIER_COLORS = dict(
    zip(TIER_NAMES, ("#4C72B0", "#55A868", "#DD8452", "#C44E52", "#8172B3", "#937860"), strict=True)
)
"""Tier -> its colour in figures, in tier order (小胡 ... 双大豪华胡)."""

METRIC_LABELS = {
    "points_birds": "bird points 抓鸟",
    "points_dealer_bonus": "dealer bonus 庄闲分",
}
"""Figure labels of the point sources :func:`point_sources` adds."""

FIGURE_METRICS = ("points_birds",)
"""Columns of the sweep table a sweep draws besides the generic ones."""


def _payments_with_dealer(seat, payer, dealer, n_players) -> np.ndarray:
    """Per win, the payments the dealer makes or receives: with a payer, one if the dealer is
    the winner or the payer; on a self-draw, every other seat pays, all of them the dealer when
    he won, else one of them is the dealer."""
    return np.where(
        payer < 0,
        np.where(seat == dealer, n_players - 1, 1),
        ((seat == dealer) | (payer == dealer)).astype(int),
    )


def point_sources(
    games: pd.DataFrame,
    wins: pd.DataFrame,
    rows: np.ndarray,
    options: dict,
    n_players: int,
    explained: np.ndarray,
) -> dict[str, np.ndarray]:
    """Points per hand from the birds and, when the run's ``options`` enable it, the dealer
    bonus (§anhua-payments), which the records do not carry as ``points_from_*`` columns.

    The points moved in a hand (the sum of the positive score changes) are the pattern points and
    other recorded sources (``explained``), plus the dealer bonus (one point per payment the
    dealer makes or receives), plus the birds' doubling: the birds are the rest.
    ``rows``: each win's row in ``games``."""
    if "bird_hits" not in wins or "points_from_birds" in games:
        return {}
    hands = len(games)
    deltas = games[[f"delta_{seat}" for seat in range(n_players)]].to_numpy(dtype=float)
    moved = np.where(deltas > 0, deltas, 0).sum(axis=1)
    sources = {}
    bonus = np.zeros(hands)
    if options.get("dealer_bonus"):
        dealer = games["dealer"].to_numpy()[rows]
        seat, payer = wins["seat"].to_numpy(), wins["payer"].to_numpy()
        involving = _payments_with_dealer(seat, payer, dealer, n_players)
        bonus = np.bincount(rows, weights=involving.astype(float), minlength=hands)
        sources["dealer_bonus"] = bonus
    sources["birds"] = moved - explained - bonus
    return sources
