"""Weng'an 贵州瓮安麻将 (Guizhou): options only, so far (the engine is not written yet).

Source: ``002_065383326e4e38d7.txt``; English reading: ``rules-spec.md`` Part B, and the
project's further decisions in ``docs/rules-wengan.md``. Every option of rules-spec B6 is declared
once in ``options`` (:data:`WENGAN_OPTIONS`); :class:`WenganOptions` comes from there. Not
registered in ``sim.variants`` until it can be played.
"""

from __future__ import annotations

from ...options import Options
from .options import N_TILES, OPTION_NAMES, OPTION_TITLES, WENGAN_OPTIONS

__all__ = ["N_TILES", "OPTION_NAMES", "OPTION_TITLES", "WENGAN_OPTIONS", "WenganOptions"]


class WenganOptions(Options, declarations=WENGAN_OPTIONS):
    """Every option of rules-spec B6, with its default (:data:`WENGAN_OPTIONS`)."""
