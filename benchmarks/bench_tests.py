"""The test suite as a newcomer meets it: a fresh clone, empty caches, the README's command.

    python benchmarks/bench_tests.py                      # the quick run: pytest -m "not slow"
    python benchmarks/bench_tests.py --full               # the whole suite (CI's)
    python benchmarks/bench_tests.py --record             # and append the figures to RESULTS.md

Clones the committed ``HEAD`` of this checkout into a temporary folder (no ``__pycache__``, no
results of earlier runs), points ``MJSIM_CACHE_DIR`` at a new empty folder (numba's compiled
kernels and the evaluator's tables are made again), and runs ``python -m pytest`` there with
this interpreter (the packages of this checkout's environment; the clone's ``sim`` first on the
path). Prints the wall time, the CPU time of the whole process tree, the test counts and the
slowest tests. The targets: the quick run under 3 minutes and the whole suite under 15 on an
idle 2-core machine. The machine must be idle: other work on the cores lengthens the wall time.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import print_header

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "RESULTS.md"


def _clone(folder: Path) -> Path:
    clone = folder / "clone"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
    return clone


def _run(clone: Path, cache: Path, full: bool) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds of the tree, pytest's output) of the suite in ``clone``."""
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--durations=50"]
    if not full:
        command += ["-m", "not slow"]
    environment = os.environ | {"MJSIM_CACHE_DIR": str(cache)}
    environment.pop("NUMBA_CACHE_DIR", None)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    result = subprocess.run(
        command, cwd=clone, env=environment, capture_output=True, text=True, check=False
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, result.stdout + result.stderr


def _counts(output: str) -> str:
    """pytest's last line: ``N passed, M skipped ... in S``."""
    lines = [line for line in output.splitlines() if re.search(r"\d+ passed", line)]
    return lines[-1].strip("= ") if lines else "no summary (see the output)"


def _machine() -> str:
    model = "?"
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            model = line.split(":", 1)[1].strip()
            break
    return f"{model}, {os.cpu_count()} cores"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="the whole suite, not the quick run")
    parser.add_argument("--record", action="store_true", help="append the figures to RESULTS.md")
    parser.add_argument("--log", type=Path, help="also write pytest's whole output there")
    args = parser.parse_args()
    print_header()
    with tempfile.TemporaryDirectory(prefix="mjsim-bench-tests-") as folder:
        clone = _clone(Path(folder))
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=clone, capture_output=True, text=True
        ).stdout.strip()
        wall, cpu, output = _run(clone, Path(folder) / "cache", args.full)
    what = "whole suite" if args.full else 'quick run (-m "not slow")'
    counts = _counts(output)
    if args.log:
        args.log.write_text(output, encoding="utf-8")
    print(output[-6000:])
    print(f"{what}: {wall:.0f} s wall, {cpu:.0f} s CPU; {counts}")
    if args.record:
        section = (
            f"\n## {time.strftime('%Y-%m-%d')}, commit {commit}, {_machine()}: the test suite "
            "from a fresh clone with empty caches (`benchmarks/bench_tests.py`)\n\n"
            "| run | wall | CPU (all processes) | tests |\n|---|---|---|---|\n"
            f"| {what} | {wall / 60:.1f} min | {cpu / 60:.1f} min | {counts} |\n"
        )
        with RESULTS.open("a", encoding="utf-8") as file:
            file.write(section)
    return 0


if __name__ == "__main__":
    sys.exit(main())
