"""Anqing 安庆麻将 (Anhui): its options so far (``options``, rules-spec C6).

Source: ``004_4a131f7ccc7583f8.txt``; English reading: ``rules-spec.md`` Part C, the project's
further decisions in ``docs/rules-anqing.md``. Not registered as a variant (no ``entry.py``): the
engine hooks come later. The slow reference scorer is ``tests/reference/anqing.py``.
"""

from __future__ import annotations

from pathlib import Path

from ...kernels import variant_cache_folder
from .options import ANQING_OPTIONS, N_TILES, OPTION_NAMES, OPTION_TITLES, AnqingOptions

with variant_cache_folder("anqing", Path(__file__).parent):
    from . import scoring as kernels

__all__ = [
    "ANQING_OPTIONS",
    "N_TILES",
    "OPTION_NAMES",
    "OPTION_TITLES",
    "AnqingOptions",
    "kernels",
]
