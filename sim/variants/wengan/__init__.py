"""Weng'an 贵州瓮安麻将 (Guizhou): options, scoring, settlement, hooks and engine.

Rules: docs/rules/wengan.md (§wengan-rules), and the project's further decisions in
`docs/rules/wengan.md`. Every option of §wengan-options is declared once in ``options``
(:data:`WENGAN_OPTIONS`); :class:`WenganOptions` comes from there. The pattern table of
§wengan-pattern-score is declared once in ``patterns``, Weng'an's record slots in ``record_slots``;
``scoring`` holds the numba kernels (patterns, waits, chicken values), ``settle`` the settlement of
a finished hand (§wengan-settlement-order), ``hooks`` the variant interface and ``engine`` the
generic loop compiled with those hooks, all imported here inside
:func:`sim.kernels.variant_cache_folder` so that they cache in Weng'an's own folder.
:func:`play_records` and :func:`replay_hand` play hands. Its registry entry is ``entry`` (with
``frames``, ``replay``, ``presentation`` and ``summaries``); ``checks`` holds its rule checks over
the tile ledger."""

from __future__ import annotations

from pathlib import Path

from ...kernels import variant_cache_folder
from ..options import Options
from ..session import SessionPlay, session_first_dealers
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
    "session_first_dealers",
    "settle",
]


class WenganOptions(Options, declarations=WENGAN_OPTIONS):
    """Every option of §wengan-options, with its default (:data:`WENGAN_OPTIONS`)."""


# Play and replay through the generic Python face (``sim.variants.session``): records of
# ``N_WENGAN_RECORD`` slots, the engine's then Weng'an's (``record_slots``); a replayed hand is
# dealt with the 连庄 count its session reached, from the hand before's ``RW_NEXT_STREAK``.
PLAY = SessionPlay(
    engine.play_hands,
    engine.play_hand,
    N_WENGAN_RECORD,
    RW_NEXT_STREAK,
    compile_ahead=engine.compile_ahead(),
)
play_records = PLAY.play_records
replay_hand = PLAY.replay_hand
