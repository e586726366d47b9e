"""Shared test set-up: ``tests/`` on the import path, so every test module (also in sub-folders)
imports the reference evaluator as ``reference`` and the hand generators as ``strategies``."""

from __future__ import annotations

import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent
if str(TESTS) not in sys.path:
    sys.path.insert(0, str(TESTS))
