"""End-to-end run: ``mjsim run`` on a config, timed, with the peak memory of the whole process
tree (the CLI and its joblib workers, summed), sampled from /proc every 0.1 s (Linux).

    python benchmarks/bench_run.py [--games 1000000] [--jobs 2] [--config configs/...toml]

The target is 1,000,000 Anhua hands with --jobs 2 in under 3 minutes with under 2 GB peak.
The run directory goes to a temporary folder and is deleted afterwards.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import print_header

PAGE = os.sysconf("SC_PAGE_SIZE")


def _children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):
            found += [int(c) for c in (task / "children").read_text().split()]
    return found


def _tree_rss(pid: int) -> int:
    """Resident bytes of ``pid`` and all its descendants."""
    total = 0
    stack = [pid]
    while stack:
        current = stack.pop()
        try:
            total += int(Path(f"/proc/{current}/statm").read_text().split()[1]) * PAGE
        except OSError:
            continue
        stack += _children(current)
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description="End-to-end mjsim run: time and peak memory.")
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--config", default="configs/anhua-seven-kings.toml")
    args = parser.parse_args()
    print_header()
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "run"
        command = [
            sys.executable, "-m", "sim.cli", "run", args.config, "--yes",
            "--games", str(args.games), "--jobs", str(args.jobs), "--out", str(out), "--quiet",
        ]  # fmt: skip
        start = time.perf_counter()
        process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
        peak = 0
        while process.poll() is None:
            peak = max(peak, _tree_rss(process.pid))
            time.sleep(0.1)
        seconds = time.perf_counter() - start
        output = process.stdout.read()
        if process.returncode != 0:
            sys.exit(f"mjsim run failed with status {process.returncode}")
        sizes = sum(path.stat().st_size for path in out.iterdir())
    print(output.splitlines()[0])
    print(
        f"{args.games:,} hands, --jobs {args.jobs}: {seconds:.1f} s end to end "
        f"({args.games / seconds:,.0f} hands/s), peak memory {peak / 2**30:.2f} GiB "
        f"(process tree), run directory {sizes / 2**20:.1f} MiB"
    )


if __name__ == "__main__":
    main()
