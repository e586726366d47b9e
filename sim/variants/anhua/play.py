"""``play_anhua``: :func:`sim.play.play` for Anhua, as the tests and the README call it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...play import play
from . import AnhuaOptions

if TYPE_CHECKING:
    import pandas as pd


def play_anhua(
    n_hands: int,
    seed: int = 0,
    options: AnhuaOptions | None = None,
    hands_per_session: int = 8,
    agents: tuple[str, ...] | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Play ``n_hands`` Anhua hands on walls from ``seed`` (:func:`sim.play.play`).

    >>> hands, wins = play_anhua(16, seed=1, options=AnhuaOptions(player_count=3))
    >>> len(hands), sorted(c for c in hands.columns if c.startswith("delta_"))
    (16, ['delta_0', 'delta_1', 'delta_2'])
    """
    return play("anhua", n_hands, seed, options, hands_per_session, agents)
