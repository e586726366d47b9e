"""Throughput figures for ``mjsim bench``: the evaluator (evaluations/s) and the engine
(complete hands/s), one core each. The fuller benchmarks, with more hand mixes, are in
``benchmarks/`` (their figures over time in ``benchmarks/RESULTS.md``).

The first engine call in a process compiles the kernels or loads them from numba's disk cache;
it is timed on its own and not counted in hands/s.
"""

from __future__ import annotations

import os
import platform
import time
from collections.abc import Iterator

import numpy as np

from .. import __version__
from ..core.tables import load_tables
from ..core.wall import shuffled_walls, spawn_seeds
from ..kernels import engine
from ..kernels import hand as kernels
from ..variants.anhua import AnhuaOptions, play_records, session_first_dealers

ENGINE_PRESETS = {
    "anhua 4p seven kings": AnhuaOptions(),
    "anhua 4p four kings": AnhuaOptions(king_mode="four_kings"),
    "anhua 3p seven kings": AnhuaOptions(player_count=3),
}


def header() -> str:
    return (
        f"mjsim {__version__} on {platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}, {time.strftime('%Y-%m-%d %H:%M')}"
    )


def _best_of(repeat: int, function, *args) -> tuple[float, object]:
    """The least time of ``repeat`` calls of ``function(*args)``, and the last result."""
    best = float("inf")
    result = None
    for _ in range(repeat):
        start = time.perf_counter()
        result = function(*args)
        best = min(best, time.perf_counter() - start)
    return best, result


def evaluator_throughput(n_hands: int = 200_000, repeat: int = 3, seed: int = 1) -> list[dict]:
    """Win checks (14 tiles) and shanten (13 tiles) per second on dealt 108-tile hands with
    0-3 of their tiles made wild, from precomputed suit keys (the engine's path)."""
    tables = load_tables()
    walls = shuffled_walls(n_hands, 108, seed)
    rows = []
    for size, query in ((14, "win check"), (13, "shanten")):
        counts = np.zeros((n_hands, 34), np.uint8)
        np.add.at(counts, (np.arange(n_hands)[:, None], walls[:, :size].astype(np.int64)), 1)
        wilds = np.random.default_rng(seed).integers(0, 4, n_hands)
        # the first ``wilds`` tiles of each deal become wilds: take them out of the naturals
        for step in range(3):
            taking = wilds > step
            np.subtract.at(counts, (np.flatnonzero(taking), walls[taking, step]), 1)
        keys = np.zeros((n_hands, 4), np.int64)
        kernels.keys_batch(counts, keys)
        forms = kernels.FORM_STANDARD | kernels.OPTION_PAIR_258 | kernels.FORM_SEVEN_PAIRS
        if query == "win check":
            out = np.zeros(n_hands, np.bool_)
            kernels.is_complete_keys_batch(keys[:8], wilds[:8], forms, tables, out[:8])
            seconds, _ = _best_of(
                repeat, kernels.is_complete_keys_batch, keys, wilds, forms, tables, out
            )
        else:
            out = np.zeros(n_hands, np.int8)
            kernels.shanten_keys_batch(keys[:8], wilds[:8], forms, tables, out[:8])
            seconds, _ = _best_of(
                repeat, kernels.shanten_keys_batch, keys, wilds, forms, tables, out
            )
        rows.append({"query": query, "hands": n_hands, "per_second": n_hands / seconds})
    return rows


def engine_throughput(n_hands: int = 10_000, repeat: int = 2, seed: int = 2026) -> Iterator[dict]:
    """Complete hands per second for each preset, the efficiency agent in every seat."""
    for label, options in ENGINE_PRESETS.items():
        walls_seed, dealers_seed = spawn_seeds(seed, 2)
        walls = shuffled_walls(n_hands, 108, walls_seed)
        dealers = session_first_dealers(-(-n_hands // 8), options, dealers_seed)
        agents = (0,) * options.player_count
        start = time.perf_counter()
        play_records(options, walls[:8], dealers[:1], 8, agents, seed)
        first_call = time.perf_counter() - start
        seconds, records = _best_of(repeat, play_records, options, walls, dealers, 8, agents, seed)

        yield {
            "rule set": label,
            "first_call_seconds": first_call,
            "hands_per_second": n_hands / seconds,
            "turns_per_hand": float(records[:, engine.R_TURNS].mean()),
        }
