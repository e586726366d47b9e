"""What a user waits for before the first hand, and how close a whole run comes to the engine.

    python benchmarks/bench_startup.py [--config configs/anhua-seven-kings.toml] [--games 40000]
        [--rounds N] [--warm-only] [--against OTHER_CHECKOUT]

1. **Cold first run**: ``mjsim run CONFIG --jobs 1`` in a fresh process with empty caches
   (``MJSIM_CACHE_DIR`` a new temporary folder): the manifest's ``warmup_seconds`` is the engine
   compile (the target is at most 60 s on 2 cores), beside the whole command's wall time.
2. **Warm start**: the same command again, caches kept: time to the first hand (the cache load
   plus one hand; at most 3 s), and the whole command.
3. **End to end against the engine**: a warm ``mjsim run`` of ``--games`` hands on one job,
   hands per second of the whole command (start-up, tables, records, Parquet, the summary)
   against the engine's own hands per second on the same walls, measured in a fresh process of
   the same checkout (the target is at least 80 %). Beside it, the same ratio by CPU time,
   and the engine's own seconds in the run (the manifest's ``engine_seconds``, from a checkout
   that records them) as a share of the command's wall time: measured in one process at one
   time, it moves far less than the others when other work shares the cores.

``--warm-only`` skips the cold run (minutes of compiling) and uses the usual cache (warmed
first). ``--against DIR`` times another checkout (say a worktree of the commit before a
change) in the same rounds, alternating the order, since this machine's speed drifts by 15 %
within minutes: compare rounds, not figures from different hours. Each checkout runs from its
own folder with its own ``sim`` first on the path.

Python writes its bytecode caches (``__pycache__``, git-ignored) as it does for an installed
package, even where ``PYTHONDONTWRITEBYTECODE`` is set, so that a run is not timed compiling
the package's source. Each run directory goes to a temporary folder and is deleted afterwards.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import print_header

HERE = Path(__file__).resolve().parents[1]
TARGET = 0.80  # a warm run reaches at least 80 % of the engine's hands per second

ENGINE = """
import sys, time
from sim.running.agents import agent_ids
from sim.running.config import load_config
from sim.running.runner import chunk_inputs, plan_chunks, warm_up

config_path, games, repeat = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
config = load_config(config_path, overrides=[f"run.games={games}"])
warm_up(config)
agents = agent_ids(config.agents)
inputs = [chunk_inputs(config, chunk) for chunk in plan_chunks(config)]
wall = cpu = float("inf")
for _ in range(repeat):
    started, started_cpu = time.perf_counter(), time.process_time()
    for walls, dealers, agent_seed in inputs:
        config.spec.play(
            config.options, walls, dealers, config.hands_per_session, agents, agent_seed
        )
    wall = min(wall, time.perf_counter() - started)
    cpu = min(cpu, time.process_time() - started_cpu)
print(games / wall, games / cpu)
"""
"""The engine alone, in a fresh process of a checkout: its hands per second on the run's walls
(made beforehand, as the run makes them) by wall time and by CPU time, best of ``repeat``
passes each."""


def _environment(tree: Path, cache: Path | None) -> dict[str, str]:
    environment = {**os.environ, "PYTHONPATH": str(tree)}
    environment.pop("PYTHONDONTWRITEBYTECODE", None)
    if cache is not None:
        environment["MJSIM_CACHE_DIR"] = str(cache)
        environment.pop("NUMBA_CACHE_DIR", None)
    return environment


def _mjsim_run(
    tree: Path, config: str, games: int, cache: Path | None, folder: Path
) -> tuple[float, float, dict]:
    """Wall time and CPU time (user and system) of ``mjsim run`` in a new process of checkout
    ``tree``, and its manifest."""
    out = folder / f"run-{time.monotonic_ns()}"
    command = [
        sys.executable, "-m", "sim.cli", "run", config,
        "--games", str(games), "--jobs", "1", "--out", str(out), "--quiet",
    ]  # fmt: skip
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(
        command, check=True, cwd=tree, env=_environment(tree, cache), stdout=subprocess.DEVNULL
    )
    seconds = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return seconds, cpu, json.loads((out / "manifest.json").read_text())


def _engine_rates(
    tree: Path, config: str, games: int, cache: Path | None, repeat: int
) -> tuple[float, float]:
    """:data:`ENGINE` in a new process of checkout ``tree``: hands/s by wall and CPU time."""
    result = subprocess.run(
        [sys.executable, "-c", ENGINE, config, str(games), str(repeat)],
        check=True,
        cwd=tree,
        env=_environment(tree, cache),
        capture_output=True,
        text=True,
    )
    wall, cpu = (float(word) for word in result.stdout.split()[-2:])
    return wall, cpu


def _label(tree: Path) -> str:
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=tree, capture_output=True, text=True
    ).stdout.strip()
    dirty = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=no"],
        cwd=tree,
        capture_output=True,
        text=True,
    ).stdout.strip()
    return f"{tree.name}@{commit or '?'}{'+changes' if dirty else ''}"


def _cold_and_warm(config: str, folder: Path) -> Path:
    """Sections 1 and 2 in this checkout; the (now warm) cache folder they used."""
    cache = folder / "cache"
    total, _, manifest = _mjsim_run(HERE, config, 200, cache, folder)
    print(
        f"cold first run:  compile {manifest['timings']['warmup_seconds']:6.1f} s, "
        f"whole command {total:6.1f} s (200 hands, empty caches)"
    )
    total, _, manifest = _mjsim_run(HERE, config, 200, cache, folder)
    print(
        f"warm start:      first hand after {manifest['timings']['warmup_seconds']:5.2f} s "
        f"of warm-up, whole command {total:5.2f} s (200 hands)"
    )
    return cache


def _end_to_end(trees: list[Path], args, cache: Path | None, folder: Path) -> None:
    """Section 3: ``args.rounds`` rounds over ``trees``, alternating their order. The ratio by
    CPU time (the command's CPU against the engine's) barely moves when other work shares the
    cores, which the ratio by wall time does."""
    ratios: dict[Path, list[tuple[float, float]]] = {tree: [] for tree in trees}
    for round_number in range(1, args.rounds + 1):
        order = trees if round_number % 2 else trees[::-1]
        for tree in order:
            total, cpu, manifest = _mjsim_run(tree, args.config, args.games, cache, folder)
            engine, engine_cpu = _engine_rates(
                tree, args.config, args.games, cache, args.engine_repeat
            )
            rate, rate_cpu = args.games / total, args.games / cpu
            in_run = manifest["timings"].get("engine_seconds", float("nan")) / total
            ratios[tree].append((rate / engine, rate_cpu / engine_cpu, in_run))
            print(
                f"end to end, round {round_number}, {_label(tree)}: whole command "
                f"{total:5.2f} s wall, {cpu:5.2f} s CPU ({rate:,.0f} hands/s); engine alone "
                f"{args.games / engine:5.2f} s wall, {args.games / engine_cpu:5.2f} s CPU "
                f"({engine:,.0f} hands/s): {rate / engine:.0%} of the engine by wall time, "
                f"{rate_cpu / engine_cpu:.0%} by CPU time; in the run, the engine's "
                f"{manifest['timings'].get('engine_seconds', float('nan')):5.2f} s are "
                f"{in_run:.0%} of the command",
                flush=True,
            )
    for tree, found in ratios.items():
        wall, cpu, in_run = (statistics.median(column) for column in zip(*found, strict=True))
        verdict = "meets" if wall >= TARGET else "misses"
        print(
            f"end to end, {_label(tree)}, median of {len(found)} rounds: {wall:.0%} of the "
            f"engine's hands/s by wall time ({_percents(found, 0)}), {verdict} the target "
            f"{TARGET:.0%}; {cpu:.0%} by CPU time ({_percents(found, 1)}); the engine's time "
            f"in the run {in_run:.0%} of the command ({_percents(found, 2)})"
        )


def _percents(rows: list[tuple[float, ...]], column: int) -> str:
    return ", ".join(f"{row[column]:.0%}" for row in rows)


def main() -> None:
    parser = argparse.ArgumentParser(description="Cold compile, warm start, end to end.")
    parser.add_argument("--config", default="configs/anhua-seven-kings.toml")
    parser.add_argument("--games", type=int, default=40_000, help="hands of the end-to-end run")
    parser.add_argument("--rounds", type=int, default=1, help="end-to-end rounds")
    parser.add_argument(
        "--engine-repeat", type=int, default=3, help="passes of the engine-alone timing (best)"
    )
    parser.add_argument(
        "--warm-only",
        action="store_true",
        help="skip the cold first run; time with the usual (warmed) cache",
    )
    parser.add_argument(
        "--against", type=Path, metavar="DIR", help="another checkout to time in the same rounds"
    )
    args = parser.parse_args()
    print_header()
    trees = [HERE] + ([args.against.resolve()] if args.against else [])
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        cache = None if args.warm_only else _cold_and_warm(args.config, folder)
        for tree in trees if args.warm_only else trees[1:]:
            _mjsim_run(tree, args.config, 200, cache, folder)  # compiles or loads, untimed
        _end_to_end(trees, args, cache, folder)


if __name__ == "__main__":
    main()
