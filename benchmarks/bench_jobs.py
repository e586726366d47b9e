"""Speed-up of ``--jobs 2`` over ``--jobs 1`` (issue 17): the same ``mjsim run`` played with one
job and with two, in alternating rounds (1, 2, 1, 2, ...: a machine whose load changes during the
benchmark changes both alike), each timed from the run's manifest (``timings.play_seconds``:
playing the chunks, the compile or cache load and the summary left out) and by the wall clock of
the whole command.

    python benchmarks/bench_jobs.py                          # 200,000 hands, 3 rounds
    python benchmarks/bench_jobs.py --games 20000 --rounds 1 # a quick check that it works

Issue 17 asks that on an otherwise idle 2-core machine ``--jobs 2`` plays a 200,000-hand run at
least 1.8 times as fast as ``--jobs 1``; the script prints each round, the median ratio of
playing times and that figure against 1.8. Run it on an idle machine only. ``--record`` appends
the result to benchmarks/RESULTS.md. Every run directory goes to a temporary folder.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import print_header

RESULTS = Path(__file__).resolve().parent / "RESULTS.md"
ASKED = 1.8


def _run(config: str, games: int, jobs: int, seed: int, out: Path) -> tuple[float, float]:
    """Play ``games`` hands of ``config`` with ``jobs`` jobs into ``out``: the manifest's playing
    seconds and the command's wall-clock seconds."""
    command = [
        sys.executable, "-m", "sim.cli", "run", config, "--games", str(games),
        "--jobs", str(jobs), "--seed", str(seed), "--out", str(out), "--quiet",
    ]  # fmt: skip
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    return float(manifest["timings"]["play_seconds"]), wall


def main() -> None:
    parser = argparse.ArgumentParser(description="Speed-up of --jobs 2 over --jobs 1.")
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--rounds", type=int, default=3, help="pairs of runs (default 3)")
    parser.add_argument("--config", default="configs/anhua-seven-kings.toml")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--record", action="store_true", help="append a row to RESULTS.md")
    args = parser.parse_args()
    if args.games < 1 or args.rounds < 1:
        sys.exit("--games and --rounds must be positive")
    print_header()
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        # compile or load numba's cache once, so that neither side of the first round pays it
        _run(args.config, 100, 1, args.seed, Path(folder) / "warm")
        for round_number in range(1, args.rounds + 1):
            times = {}
            for jobs in (1, 2):
                out = Path(folder) / f"round-{round_number}-jobs-{jobs}"
                times[jobs] = _run(args.config, args.games, jobs, args.seed, out)
                if jobs == 2:  # both played the same hands (a check, not a timing)
                    one = out.with_name(f"round-{round_number}-jobs-1")
                    for name in ("games.parquet", "wins.parquet"):
                        if (one / name).read_bytes() != (out / name).read_bytes():
                            sys.exit(f"--jobs 1 and --jobs 2 wrote different {name}")
            ratio = times[1][0] / times[2][0]
            rows.append((times[1], times[2], ratio))
            print(
                f"round {round_number}: --jobs 1 plays in {times[1][0]:.1f} s "
                f"({times[1][1]:.1f} s wall), --jobs 2 in {times[2][0]:.1f} s "
                f"({times[2][1]:.1f} s wall): {ratio:.2f}x"
            )
    median = statistics.median(ratio for _, _, ratio in rows)
    wall = statistics.median(one[1] / two[1] for one, two, _ in rows)
    verdict = "meets" if median >= ASKED else "falls short of"
    line = (
        f"{args.games:,} hands of {Path(args.config).stem}, {args.rounds} alternating rounds: "
        f"--jobs 2 plays {median:.2f}x as fast as --jobs 1 (median; whole command {wall:.2f}x), "
        f"which {verdict} the {ASKED}x asked"
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
