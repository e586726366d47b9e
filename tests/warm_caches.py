"""Compile a variant's engine, replay and rule checks into numba's disk cache, once.

    python tests/warm_caches.py NAME

``conftest.py`` runs this for every registered variant, one process each and side by side,
before pytest-xdist starts its workers. Without it, on a cold cache (a clean clone, or after an
edit to the kernels) every worker compiles every engine it meets itself: two workers compiling
the same variant at the same moment, each variant after the other. With it each engine is
compiled once, the variants in parallel, and the workers load the machine code from disk.
With a warm cache a run takes the few seconds of loading it.
"""

from __future__ import annotations

import importlib
import sys

import numpy as np

from sim.agents import agent_ids
from sim.variants import get_variant
from sim.wall import shuffled_walls

HANDS = 8


def warm(name: str) -> None:
    """Play, replay and check a few hands of variant ``name`` under its default options, with
    the random agent in every seat (so that the random agent's kernels compile too)."""
    variant = get_variant(name)
    options = variant.options_class()
    walls = shuffled_walls(HANDS, variant.n_tiles, 0)
    dealers = variant.first_dealers(1, options, 0)
    agents = agent_ids(("random",) * variant.player_count(options))
    variant.play(options, walls, dealers, HANDS, agents, 0)
    variant.replay(options, walls, dealers, HANDS, agents, 0, 1)
    checks = importlib.import_module(f"sim.variants.{name}.checks")
    checked = checks.check_games(options, walls, dealers, HANDS, agents, 0)
    assert np.all(checked.errors[:, 0] == 0), f"{name}: a warm-up hand fails its checks"


if __name__ == "__main__":
    warm(sys.argv[1])
