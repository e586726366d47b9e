"""Anqing 安庆麻将 (Anhui): options, scoring, hooks and engine.

Rules: docs/rules/anqing.md (§anqing-rules), the project's
further decisions in `docs/rules/anqing.md`. Every option of §anqing-options is declared once in
``options`` (:data:`ANQING_OPTIONS`); ``scoring`` holds the numba kernels (win legality under
the 钻 conditions, the best reading's items, the payments), ``hooks`` the variant interface and
``engine`` the generic loop compiled with those hooks, all imported here inside
:func:`sim.kernels.variant_cache_folder` so that they cache in Anqing's own folder.
:func:`play_records` and :func:`replay_hand` play hands. Its registry entry is ``entry`` (with
``frames``, ``replay``, ``presentation`` and ``summaries``); ``checks`` holds its rule checks
over the tile ledger. The slow reference scorer is ``tests/reference/anqing.py``.
"""

from __future__ import annotations

from pathlib import Path

from ...kernels import variant_cache_folder
from ...kernels.record import R_DELTA
from ..session import LOG_CAPACITY, SessionPlay, session_first_dealers
from .options import ANQING_OPTIONS, N_TILES, OPTION_NAMES, OPTION_TITLES, AnqingOptions
from .record_slots import N_ANQING_RECORD, RA_CARRY, RA_NEXT_STREAK, RECORD_SLOTS
from .scoring_names import ITEM_NAMES

with variant_cache_folder("anqing", Path(__file__).parent):
    from . import engine, hooks
    from . import scoring as kernels

__all__ = [
    "ANQING_OPTIONS",
    "ITEM_NAMES",
    "N_ANQING_RECORD",
    "N_TILES",
    "OPTION_NAMES",
    "OPTION_TITLES",
    "RECORD_SLOTS",
    "AnqingOptions",
    "engine",
    "hooks",
    "kernels",
    "play_records",
    "replay_hand",
    "session_first_dealers",
]


class AnqingPlay(SessionPlay):
    """Anqing's play and replay: a replayed hand gets the 连庄累加 carry its session gave it
    (``engine.add_carry``), read from the hands played up to it, so that its record is the
    stored one."""

    def replay_hand(
        self,
        options,
        walls,
        first_dealers,
        hands_per_session,
        agent_kinds,
        agent_seed,
        index,
        log_capacity=LOG_CAPACITY,
        agent_params=None,
    ):
        record, events, final = super().replay_hand(
            options,
            walls,
            first_dealers,
            hands_per_session,
            agent_kinds,
            agent_seed,
            index,
            log_capacity,
            agent_params,
        )
        if options.lian_zhuang_cumulative:
            played = self.play_records(
                options, walls[: index + 1], first_dealers, hands_per_session, agent_kinds,
                agent_seed, agent_params,
            )  # fmt: skip
            for slot in (*range(RA_CARRY, RA_CARRY + 4), *range(R_DELTA, R_DELTA + 4)):
                record[slot] = played[index, slot]
        return record, events, final


# Play and replay through the generic Python face (``sim.variants.session``): records of
# ``N_ANQING_RECORD`` slots, the engine's then Anqing's (``record_slots``); a replayed hand is
# dealt with the 连庄 count its session reached, from the hand before's ``RA_NEXT_STREAK``.
PLAY = AnqingPlay(
    engine.play_hands,
    engine.play_hand,
    N_ANQING_RECORD,
    RA_NEXT_STREAK,
    compile_ahead=engine.compile_ahead(),
)
play_records = PLAY.play_records
replay_hand = PLAY.replay_hand
