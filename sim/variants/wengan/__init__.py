"""Weng'an 贵州瓮安麻将 (Guizhou): options, scoring and settlement kernels, so far (no engine yet).

Source: ``002_065383326e4e38d7.txt``; English reading: ``rules-spec.md`` Part B, and the
project's further decisions in ``docs/rules-wengan.md``. Every option of rules-spec B6 is declared
once in ``options`` (:data:`WENGAN_OPTIONS`); :class:`WenganOptions` comes from there. The pattern
table of B5.1 is declared once in ``patterns``; ``scoring`` holds the numba kernels (patterns,
waits, chicken values) and ``settle`` the settlement of a finished hand (B5.12), both imported
here inside :func:`sim.kernels.variant_cache_folder` so that they cache in Weng'an's own folder.
Not registered in ``sim.variants`` until it can be played.
"""

from __future__ import annotations

from pathlib import Path

from ...kernels import variant_cache_folder
from ...options import Options
from .options import N_TILES, OPTION_NAMES, OPTION_TITLES, WENGAN_OPTIONS
from .patterns import PATTERNS

with variant_cache_folder("wengan", Path(__file__).parent):
    from . import scoring as kernels
    from . import settle

__all__ = [
    "N_TILES",
    "OPTION_NAMES",
    "OPTION_TITLES",
    "PATTERNS",
    "WENGAN_OPTIONS",
    "WenganOptions",
    "kernels",
    "settle",
]


class WenganOptions(Options, declarations=WENGAN_OPTIONS):
    """Every option of rules-spec B6, with its default (:data:`WENGAN_OPTIONS`)."""
