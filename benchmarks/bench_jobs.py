"""Speed-up of ``--jobs 2`` over ``--jobs 1``: the same ``mjsim run`` played with one
job and with two, in alternating rounds (1, 2, 1, 2, ...: a machine whose load changes during the
benchmark changes both alike), each timed from the run's manifest (``timings.play_seconds``:
playing the chunks, the compile or cache load and the summary left out) and by the wall clock of
the whole command.

    python benchmarks/bench_jobs.py                          # 200,000 hands, 3 rounds
    python benchmarks/bench_jobs.py --games 20000 --rounds 1 # a quick check that it works
    python benchmarks/bench_jobs.py --games 40000 --backends threads,processes  # on a busy host

The target is that on an otherwise idle 2-core machine ``--jobs 2`` plays a 200,000-hand run at
least 1.8 times as fast as ``--jobs 1``; the script prints each round, the median ratio of
playing times and that figure against 1.8. Run it on an idle machine only. ``--record`` appends
the result to benchmarks/RESULTS.md. Every run directory goes to a temporary folder.

``--backends`` plays ``--jobs 2`` on each local backend named (``threads``, the default, and
``processes``) in every round, after the round's ``--jobs 1``. Each run also prints what does not
depend on the machine's other load: the CPU seconds of the whole command (every process and
thread) per 1,000 hands, and the share of the playing time the main thread was busy (tables,
files, the pool; ``timings.main_thread_cpu_seconds``). On a shared machine compare those, not the
ratio.
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
from dataclasses import dataclass
from pathlib import Path

from _common import print_header

RESULTS = Path(__file__).resolve().parent / "RESULTS.md"
ASKED = 1.8
LOCAL_BACKENDS = ("threads", "processes")


@dataclass(frozen=True)
class Timed:
    play: float  # the manifest's playing seconds
    wall: float  # the whole command, wall clock
    cpu: float  # the whole command's CPU seconds, every process and thread
    main_thread_cpu: float  # the main thread's CPU seconds while playing

    def line(self, games: int) -> str:
        return (
            f"{self.play:.1f} s ({self.wall:.1f} s wall, {1000 * self.cpu / games:.3f} CPU s "
            f"per 1,000 hands, main thread busy {self.main_thread_cpu / self.play:.0%})"
        )


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _run(args, jobs: int, backend: str, out: Path) -> Timed:
    """Play ``args.games`` hands of ``args.config`` with ``jobs`` jobs on ``backend`` into
    ``out``, timed."""
    command = [
        sys.executable, "-m", "sim.cli", "run", args.config, "--games", str(args.games),
        "--jobs", str(jobs), "--backend", backend, "--seed", str(args.seed), "--out", str(out),
        "--quiet", "--yes",
    ]  # fmt: skip
    cpu = _children_cpu()  # the command and the workers it waited for
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    cpu = _children_cpu() - cpu
    timings = json.loads((out / "manifest.json").read_text(encoding="utf-8"))["timings"]
    return Timed(
        float(timings["play_seconds"]), wall, cpu, float(timings["main_thread_cpu_seconds"])
    )


def _same_tables(one: Path, other: Path) -> None:
    for name in ("games.parquet", "wins.parquet"):
        if (one / name).read_bytes() != (other / name).read_bytes():
            sys.exit(f"{one.name} and {other.name} wrote different {name}")


def _parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Speed-up of --jobs 2 over --jobs 1.")
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--rounds", type=int, default=3, help="pairs of runs (default 3)")
    parser.add_argument("--config", default="configs/anhua-seven-kings.toml")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--backends",
        default="threads",
        help="local backends to play --jobs 2 on, comma-separated (default threads)",
    )
    parser.add_argument("--record", action="store_true", help="append a row to RESULTS.md")
    args = parser.parse_args()
    args.backends = tuple(name.strip() for name in args.backends.split(","))
    if args.games < 1 or args.rounds < 1:
        sys.exit("--games and --rounds must be positive")
    if not args.backends or not set(args.backends) <= set(LOCAL_BACKENDS):
        sys.exit(f"--backends: allowed: {', '.join(LOCAL_BACKENDS)}")
    return args


def main() -> None:
    args = _parse()
    print_header()
    ratios: dict[str, list[tuple[float, float]]] = {backend: [] for backend in args.backends}
    with tempfile.TemporaryDirectory() as folder:
        # compile or load numba's cache once, so that neither side of the first round pays it
        _run(argparse.Namespace(**{**vars(args), "games": 100}), 1, "threads", Path(folder) / "w")
        for round_number in range(1, args.rounds + 1):
            one_out = Path(folder) / f"round-{round_number}-jobs-1"
            one = _run(args, 1, "threads", one_out)
            print(f"round {round_number}: --jobs 1 plays in {one.line(args.games)}")
            for backend in args.backends:
                out = Path(folder) / f"round-{round_number}-jobs-2-{backend}"
                two = _run(args, 2, backend, out)
                _same_tables(one_out, out)  # both played the same hands (a check, not a timing)
                ratios[backend].append((one.play / two.play, one.wall / two.wall))
                print(
                    f"  --jobs 2 ({backend}) in {two.line(args.games)}: {one.play / two.play:.2f}x"
                )
    for backend, rows in ratios.items():
        median = statistics.median(play for play, _ in rows)
        wall = statistics.median(whole for _, whole in rows)
        verdict = "meets" if median >= ASKED else "falls short of"
        line = (
            f"{args.games:,} hands of {Path(args.config).stem}, {args.rounds} alternating "
            f"rounds: --jobs 2 ({backend}) plays {median:.2f}x as fast as --jobs 1 (median; "
            f"whole command {wall:.2f}x), which {verdict} the {ASKED}x asked"
        )
        print(line)
        if args.record:
            commit = subprocess.run(
                ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True
            ).stdout.strip()
            stamp = f"{time.strftime('%Y-%m-%d')}, commit {commit or '?'}, {os.cpu_count()} cores"
            with RESULTS.open("a", encoding="utf-8") as results:
                results.write(f"\n- bench_jobs ({stamp}): {line}\n")


if __name__ == "__main__":
    main()
