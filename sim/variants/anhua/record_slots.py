"""Anhua 安化七王麻将: its own record slots, inside the engine's ``R_VARIANT`` block of
``sim.kernels.record`` (the 5 slots a variant's settle hook fills).

The engine clears the whole row (``record[:] = -1``); Anhua's settle hook fills these with the
birds 抓鸟 it flipped (§anhua-birds). Pure Python."""

from __future__ import annotations

from ...kernels.record import R_VARIANT

RH_N_BIRDS = R_VARIANT
"""The number of bird tiles flipped 抓鸟 (0 to 4)."""
RH_BIRD = R_VARIANT + 1
"""4 slots: the bird tiles flipped, in order; -1 unused."""
