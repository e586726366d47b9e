"""Weng'an hands played with the log on and judged by the slow referee
(``reference/wengan_claims.py``) beside the rule checks: the driver of
``tests/variants/test_wengan_claims.py``, in a module of its own so that joblib's workers can
import it (test modules are imported under names the workers cannot import).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from reference.wengan_claims import referee_hand

from sim.core.tables import load_tables
from sim.core.wall import shuffled_walls
from sim.kernels import state as S
from sim.kernels.agents import AGENT_EFFICIENCY, AGENT_RANDOM, AGENT_SELF_DRAW, seed_agents
from sim.kernels.moves import HOW_DISCARD
from sim.variants.wengan import N_WENGAN_RECORD, WenganOptions
from sim.variants.wengan import checks as C
from sim.variants.wengan import engine as E
from sim.variants.wengan.record_slots import RW_NEXT_STREAK

MIXED = (AGENT_RANDOM, AGENT_EFFICIENCY, AGENT_SELF_DRAW, AGENT_RANDOM)
EFFICIENT = (AGENT_EFFICIENCY,) * 4
HANDS_PER_SESSION = 8


@dataclass
class Hand:
    """One hand played with the log on: its events, wall, dealer, 连庄 count and record."""

    events: np.ndarray
    wall: np.ndarray
    dealer: int
    streak: int
    record: np.ndarray
    checked: int  # the rule checks' verdict (C.OK: passed)


def play_logged(options: WenganOptions, n_hands: int, seed: int, agents=MIXED):
    """Play ``n_hands`` in sessions (the dealer and his 连庄 count carried from each record to
    the next hand) with the log on, each checked by ``checks.check_hand``."""
    players = options.player_count
    params, tables = options.params(), load_tables()
    walls = shuffled_walls(n_hands, 108, seed)
    first_dealers = np.random.default_rng(seed).integers(0, players, n_hands)
    state = S.new_state(1024, agents=agents[:players] + (0,) * (4 - players))
    seed_agents(seed)
    dealer = streak = 0
    for index in range(n_hands):
        if index % HANDS_PER_SESSION == 0:
            dealer, streak = int(first_dealers[index]), 0
        record = np.zeros(N_WENGAN_RECORD, np.int64)
        wall = walls[index]
        next_dealer = E.play_hand(state, wall, players, dealer, streak, params, tables, record)
        n = int(state.scalars[S.LOG_COUNT])
        code, _ = C.check_hand(state, state.log, n, wall, players, dealer, params, tables, record)
        yield Hand(state.log[:n].copy(), wall, dealer, streak, record, int(code))
        dealer, streak = int(next_dealer), int(record[RW_NEXT_STREAK])


def referee_cell(cell: dict, n_hands: int, seed: int, agents=MIXED) -> dict:
    """Play and referee ``n_hands`` of one cell: the failures of either checker, and what the
    hands held (passes, wins on discards, several winners)."""
    options = WenganOptions(**cell)
    seen = {"checks_failed": 0, "findings": [], "passes": 0, "discard_wins": 0, "multi": 0}
    for index, hand in enumerate(play_logged(options, n_hands, seed, agents)):
        seen["checks_failed"] += hand.checked != C.OK
        findings = referee_hand(
            hand.events, hand.wall, options, hand.dealer, hand.streak, hand.record
        )
        seen["findings"] += [(index, finding) for finding in findings]
        seen["passes"] += int((hand.events[:, 0] == S.EVENT_PASS_WIN).sum())
        discard_wins = (hand.events[:, 0] == S.EVENT_WIN) & (hand.events[:, 3] == HOW_DISCARD)
        seen["discard_wins"] += int(discard_wins.any())
        seen["multi"] += int(discard_wins.sum() > 1)
    return seen
