"""Peak memory of ``mjsim report`` against the length of the run: the peak resident memory of
the report's process (sampled from /proc every 0.2 s, Linux) on runs of 200,000, 2,000,000 and
10,000,000 hands of the default Anhua config, played with ``--jobs 2``.

    python benchmarks/bench_report.py --keep /tmp/report-runs    # plays the runs once, keeps them
    python benchmarks/bench_report.py --keep /tmp/report-runs --games 200000,2000000
    python benchmarks/bench_report.py --keep /tmp/report-runs --against /path/to/checkout

Playing 10,000,000 hands takes several minutes on two cores: ``--keep DIR`` plays each run into
``DIR/hands-N`` and reuses it there afterwards (without it, the runs go to a temporary folder
and are deleted). The report is written with ``--out`` to a temporary folder, so the runs stay
as they were played. ``--against`` also measures another checkout's ``mjsim report`` (its
``sim`` imported from that folder) on the same runs, written into the run folder itself as
versions without ``--out`` do. The target is under 1 GB peak whatever the length. ``--record``
appends the lines to benchmarks/RESULTS.md.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import print_header
from bench_memory import GIB, RESULTS, _watch

ROOT = Path(__file__).resolve().parent.parent


def _play(out: Path, games: int, jobs: int, config: str) -> None:
    """Play ``games`` hands into ``out`` unless a finished run of that length is there."""
    if (out / "manifest.json").is_file() and (out / "games.parquet").exists():
        return
    command = [
        sys.executable, "-m", "sim.cli", "run", config, "--games", str(games),
        "--jobs", str(jobs), "--out", str(out), "--quiet",
    ]  # fmt: skip
    subprocess.run(command, check=True, cwd=ROOT)


def _report(run: Path, out: Path | None, checkout: Path | None) -> tuple[int, float]:
    """Peak resident bytes and seconds of ``mjsim report`` on ``run`` (into ``out``)."""
    # -P: the checkout named, not the current folder, is first on the path
    command = [sys.executable, "-P", "-m", "sim.cli", "report", str(run)]
    command += ["--out", str(out)] if out is not None else []
    environment = {**os.environ, "PYTHONPATH": str(checkout or ROOT)}
    status, peak, _, tree, seconds = _watch(command, env=environment)
    if status != 0:
        sys.exit(f"mjsim report {run} failed with status {status}")
    return max(peak, tree), seconds


def main() -> None:
    parser = argparse.ArgumentParser(description="Peak memory of mjsim report by run length.")
    parser.add_argument("--games", default="200000,2000000,10000000", help="comma-separated")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--config", default="configs/anhua-seven-kings.toml")
    parser.add_argument("--keep", metavar="DIR", help="play the runs into DIR and keep them")
    parser.add_argument("--against", metavar="CHECKOUT", type=Path, help="another checkout")
    parser.add_argument("--record", action="store_true", help="append the lines to RESULTS.md")
    args = parser.parse_args()
    print_header()
    lines = []
    with tempfile.TemporaryDirectory() as folder:
        runs = Path(args.keep) if args.keep else Path(folder)
        for games in (int(text) for text in args.games.split(",")):
            run = runs / f"hands-{games}"
            _play(run, games, args.jobs, args.config)
            peak, seconds = _report(run, Path(folder) / f"report-{games}", None)
            size = (Path(folder) / f"report-{games}" / "report.html").stat().st_size
            line = (
                f"{games:,} hands: mjsim report peak {peak / GIB:.2f} GiB in {seconds:.0f} s "
                f"(report.html {size / 2**20:.1f} MiB)"
            )
            if args.against:
                other, other_seconds = _report(run, None, args.against.resolve())
                line += f"; {args.against} {other / GIB:.2f} GiB in {other_seconds:.0f} s"
            print(line, flush=True)
            lines.append(line)
    if args.record:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT
        ).stdout.strip()
        stamp = f"{time.strftime('%Y-%m-%d')}, commit {commit or '?'}, {os.cpu_count()} cores"
        with RESULTS.open("a", encoding="utf-8") as results:
            results.writelines(f"\n- bench_report ({stamp}): {line}\n" for line in lines)


if __name__ == "__main__":
    main()
