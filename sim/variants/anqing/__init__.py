"""Anqing 安庆麻将 (Anhui): its options so far (``options``, rules-spec C6).

Source: ``004_4a131f7ccc7583f8.txt``; English reading: ``rules-spec.md`` Part C, the project's
further decisions in ``docs/rules-anqing.md``. Not registered as a variant (no ``entry.py``): the
engine hooks come later. The slow reference scorer is ``tests/reference/anqing.py``.
"""

from __future__ import annotations

from .options import ANQING_OPTIONS, N_TILES, OPTION_NAMES, OPTION_TITLES, AnqingOptions

__all__ = ["ANQING_OPTIONS", "N_TILES", "OPTION_NAMES", "OPTION_TITLES", "AnqingOptions"]
