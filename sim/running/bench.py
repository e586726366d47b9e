"""Throughput figures for ``mjsim bench``: the evaluator (evaluations/s) and the engine
(complete hands/s), one core each. The engine is measured on configs: a config file, or a
variant by its name (its default options and agents); by default every registered variant at
its defaults. The fuller benchmarks, with more hand mixes, are in ``benchmarks/`` (their figures
over time in ``benchmarks/RESULTS.md``).

The first engine call in a process compiles the kernels or loads them from numba's disk cache;
it is timed on its own and not counted in hands/s.
"""

from __future__ import annotations

import os
import platform
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

import numpy as np

from .. import __version__
from ..core.tables import load_tables
from ..core.wall import shuffled_walls, spawn_seeds
from ..kernels import engine
from ..kernels import hand as kernels
from ..variants import VARIANT_NAMES
from .agents import agent_ids
from .config import RunConfig, build_config, load_config


def bench_configs(targets: Iterable[str] = ()) -> list[RunConfig]:
    """The configs to measure: each target a variant's name (its default options and agents)
    or a config file; no target, every registered variant at its defaults. A target that is
    neither is a one-line error naming what is allowed."""
    configs = []
    for target in targets or VARIANT_NAMES:
        if target in VARIANT_NAMES:
            configs.append(build_config({"variant": target}))
        elif target.endswith(".toml") or Path(target).exists():
            configs.append(load_config(target))
        else:
            raise ValueError(
                f"{target!r} is neither a variant nor a config file; allowed: a variant "
                f"({', '.join(VARIANT_NAMES)}) or a config file such as configs/NAME.toml"
            )
    return configs


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


def engine_throughput(
    configs: Iterable[RunConfig] | None = None,
    n_hands: int = 10_000,
    repeat: int = 2,
    seed: int = 2026,
) -> Iterator[dict]:
    """Complete hands per second of each config (default: ``bench_configs()``), with its
    options, agents and hands per session; the walls and first dealers from ``seed``."""
    for config in bench_configs() if configs is None else configs:
        variant = config.spec
        walls_seed, dealers_seed = spawn_seeds(seed, 2)
        walls = shuffled_walls(n_hands, variant.n_tiles, walls_seed)
        per_session = config.hands_per_session
        dealers = variant.first_dealers(-(-n_hands // per_session), config.options, dealers_seed)
        play = variant.play
        arguments = (config.options, walls, dealers, per_session, agent_ids(config.agents), seed)
        first = (config.options, walls[:per_session], dealers[:1], *arguments[3:])
        start = time.perf_counter()
        play(*first, config.agent_params)
        first_call = time.perf_counter() - start
        seconds, records = _best_of(repeat, play, *arguments, config.agent_params)
        yield {
            "config": config.label,
            "variant": config.variant,
            "players": config.n_players,
            "agents": ", ".join(dict.fromkeys(config.agents)),
            "first_call_seconds": first_call,
            "hands_per_second": n_hands / seconds,
            "turns_per_hand": float(records[:, engine.R_TURNS].mean()),
        }
