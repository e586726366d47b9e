"""Weng'an 贵州瓮安麻将 (Guizhou): options, scoring, settlement, hooks and engine.

Source: ``002_065383326e4e38d7.txt``; English reading: ``rules-spec.md`` Part B, and the
project's further decisions in ``docs/rules-wengan.md``. Every option of rules-spec B6 is declared
once in ``options`` (:data:`WENGAN_OPTIONS`); :class:`WenganOptions` comes from there. The pattern
table of B5.1 is declared once in ``patterns``, Weng'an's record slots in ``record_slots``;
``scoring`` holds the numba kernels (patterns, waits, chicken values), ``settle`` the settlement
of a finished hand (B5.12), ``hooks`` the variant interface and ``engine`` the generic loop
compiled with those hooks, all imported here inside :func:`sim.kernels.variant_cache_folder` so
that they cache in Weng'an's own folder. :func:`play_records` and :func:`replay_hand` play
hands. Its registry entry is ``entry`` (with ``frames``, ``replay``, ``presentation`` and
``summaries``); ``checks`` holds its rule checks over the tile ledger.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ...kernels import state as game_state
from ...kernels import variant_cache_folder
from ...kernels.agents import seed_agents
from ...kernels.record import R_NEXT_DEALER
from ...options import Options
from ...tables import load_tables
from .options import N_TILES, OPTION_NAMES, OPTION_TITLES, WENGAN_OPTIONS
from .patterns import PATTERNS
from .record_slots import N_WENGAN_RECORD, RECORD_SLOTS, RW_NEXT_STREAK

with variant_cache_folder("wengan", Path(__file__).parent):
    from . import engine, hooks, settle
    from . import scoring as kernels

__all__ = [
    "N_TILES",
    "N_WENGAN_RECORD",
    "OPTION_NAMES",
    "OPTION_TITLES",
    "PATTERNS",
    "RECORD_SLOTS",
    "WENGAN_OPTIONS",
    "WenganOptions",
    "engine",
    "hooks",
    "kernels",
    "play_records",
    "replay_hand",
    "settle",
]


class WenganOptions(Options, declarations=WENGAN_OPTIONS):
    """Every option of rules-spec B6, with its default (:data:`WENGAN_OPTIONS`)."""


def session_first_dealers(n_sessions: int, options: WenganOptions, seed) -> np.ndarray:
    """The first dealer of each session (rules-spec B2.1, option ``first_dealer``): seat 0, the
    room owner, or a uniformly random seat from ``seed`` (an int or a SeedSequence)."""
    if options.first_dealer == "seat0":
        return np.zeros(n_sessions, np.int64)
    return np.random.default_rng(seed).integers(0, options.player_count, n_sessions)


def _seat_agents(agent_kinds: tuple[int, ...]) -> tuple[int, ...]:
    """One agent id per state seat (four): the unused seats of a smaller table get agent 0."""
    return tuple(agent_kinds) + (0,) * (4 - len(agent_kinds))


def play_records(
    options: WenganOptions,
    walls: np.ndarray,
    first_dealers: np.ndarray,
    hands_per_session: int,
    agent_kinds: tuple[int, ...],
    agent_seed: int,
) -> np.ndarray:
    """Play one hand per wall, in sessions, into int64 records of ``N_WENGAN_RECORD`` slots:
    the engine's (``sim.kernels.record.R_*``), then Weng'an's (``record_slots``).

    ``agent_kinds``: one agent id per seat (``sim.agents``); ``agent_seed`` seeds the generator
    the random agent draws from (numba's, one per process)."""
    records = np.zeros((len(walls), N_WENGAN_RECORD), np.int64)
    seed_agents(agent_seed)
    engine.play_hands(
        game_state.new_state(agents=_seat_agents(agent_kinds)),
        walls,
        options.player_count,
        np.asarray(first_dealers, np.int64),
        hands_per_session,
        options.params(),
        load_tables(),
        records,
    )
    return records


def replay_hand(
    options: WenganOptions,
    walls: np.ndarray,
    first_dealers: np.ndarray,
    hands_per_session: int,
    agent_kinds: tuple[int, ...],
    agent_seed: int,
    index: int,
    log_capacity: int = 1024,
) -> tuple[np.ndarray, np.ndarray, game_state.FinalPosition]:
    """Hand ``index`` of a block of walls played as ``play_records`` plays it, with the event
    log on: the hands before it are played first, with the same agent seed, so the dealer, his
    连庄 count and the random agent's generator are where they were. Returns (record, events,
    the final position). The hand itself is played by the single-hand entry, which takes the
    dealer's count (a session of one hand would start it at 0)."""
    before = play_records(
        options, walls[:index], first_dealers, hands_per_session, agent_kinds, agent_seed
    )
    if index % hands_per_session == 0:
        dealer, streak = int(first_dealers[index // hands_per_session]), 0
    else:
        dealer = int(before[index - 1, R_NEXT_DEALER])
        streak = int(before[index - 1, RW_NEXT_STREAK])
    record = np.zeros(N_WENGAN_RECORD, np.int64)
    state = game_state.new_state(log_capacity, agents=_seat_agents(agent_kinds))
    engine.play_hand(
        state,
        walls[index],
        options.player_count,
        dealer,
        streak,
        options.params(),
        load_tables(),
        record,
    )
    events = state.log[: state.scalars[game_state.LOG_COUNT]].copy()
    return record, events, game_state.final_position(state)
