"""Play hands from Python: the friendly face of the engine until the runner (issue 4) lands.

>>> hands, wins = play_anhua(16, seed=1)
>>> len(hands), int(hands[["delta_0", "delta_1", "delta_2", "delta_3"]].sum().sum())
(16, 0)
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .agents import agent_ids
from .records import hands_frame, wins_frame
from .variants.anhua import AnhuaOptions, play_records, session_first_dealers
from .wall import shuffled_walls


def first_dealers(n_hands: int, hands_per_session: int, options: AnhuaOptions, seed: int):
    """The first dealer of each session (rules-spec A2.1, option ``first_dealer``): seat 0, the
    room opener, or a random seat drawn from a stream of ``seed`` that the walls do not use."""
    n_sessions = -(-n_hands // hands_per_session)
    return session_first_dealers(n_sessions, options, np.random.SeedSequence(seed, spawn_key=(1,)))


def play_anhua(
    n_hands: int,
    seed: int = 0,
    options: AnhuaOptions | None = None,
    hands_per_session: int = 8,
    agents: tuple[str, ...] | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Play ``n_hands`` Anhua hands on walls from ``seed``; ``agents`` names one agent per seat
    (default: ``efficiency`` everywhere; see :mod:`sim.agents`).

    Returns ``(hands, wins)`` as described in :mod:`sim.records`. Same seed, same results.
    """
    options = options or AnhuaOptions()
    agents = agents or ("efficiency",) * options.player_count
    if len(agents) != options.player_count:
        raise ValueError(f"agents: {len(agents)} names for {options.player_count} players")
    kinds = agent_ids(agents)
    if n_hands < 1:
        raise ValueError(f"n_hands must be at least 1, not {n_hands}")
    if hands_per_session < 1:
        raise ValueError(f"hands_per_session must be at least 1, not {hands_per_session}")
    walls = shuffled_walls(n_hands, 108, seed)
    dealers = first_dealers(n_hands, hands_per_session, options, seed)
    records = play_records(options, walls, dealers, hands_per_session, kinds, seed)
    return (
        hands_frame(records, options.player_count, hands_per_session),
        wins_frame(records, options.player_count),
    )
