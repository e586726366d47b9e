"""Anqing 安庆: what the value agent is told about the game (numba).

The generic agents (``sim.kernels.agents``) read hints of what a variant pays for in the bits of
the steer word above its forms (``STEER_*``); this module makes Anqing's (docs/strategies.md,
"Anqing"): a concealed hand pays (门清 3, and 3 more when hard, C5.1), and every win is
self-drawn (C4.1), so a claim buys speed only; the value agent is told ``STEER_CONCEALED`` and
claims only what makes its hand ready. The 钻 is a wild, kept by every agent but the random one.

Source: ``004_4a131f7ccc7583f8.txt``; rules-spec Part C.
"""

from __future__ import annotations

import numpy as np

from ...kernels._jit import kernel
from ...kernels.agents import STEER_CONCEALED

CONCEALED = True
"""Whether the value agent is told that a concealed hand pays (docs/strategies.md)."""


@kernel
def steer_hints(params):
    """The steer word's hint bits for Anqing under ``params``: a concealed hand pays (门清)."""
    hints = np.int64(0)
    if CONCEALED:
        hints |= np.int64(STEER_CONCEALED)
    return hints
