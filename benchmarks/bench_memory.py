"""Peak memory of a long run: ``mjsim run`` of many hands, with the peak resident
memory of the main process and of each worker process, and of the whole tree, sampled from /proc
every 0.2 s (Linux); then the peak of the analysis of the finished run, in a process of its own:
``mjsim run``'s summary and every per-run summary of ``sim.analysis`` on the run opened with
``open_run`` (read batch by batch, the columns each needs).

    python benchmarks/bench_memory.py                       # 10,000,000 hands, --jobs 2
    python benchmarks/bench_memory.py --games 200000 --record

The target is 10,000,000 hands under 2 GB peak. ``--record`` appends the result as a table
row to benchmarks/RESULTS.md. The run directory goes to a temporary folder (``--keep DIR`` keeps
it there instead) and is deleted afterwards.
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
RESULTS = Path(__file__).resolve().parent / "RESULTS.md"
GIB = 2**30


def _children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):
            found += [int(c) for c in (task / "children").read_text().split()]
    return found


def _rss(pid: int) -> int:
    try:
        return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE
    except OSError:
        return 0


def _tree(pid: int) -> dict[int, int]:
    """Resident bytes of ``pid`` and of each of its descendants."""
    sizes, stack = {}, [pid]
    while stack:
        current = stack.pop()
        sizes[current] = _rss(current)
        stack += _children(current)
    return sizes


def _watch(
    command: list[str], env: dict[str, str] | None = None
) -> tuple[int, int, dict[int, int], int, float]:
    """Run ``command`` (in the environment ``env``, default this one's), sampling memory: exit
    status, the main process's peak, each descendant's peak, the whole tree's peak, seconds."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, env=env)
    parent_peak, tree_peak, children = 0, 0, {}
    while process.poll() is None:
        sizes = _tree(process.pid)
        tree_peak = max(tree_peak, sum(sizes.values()))
        parent_peak = max(parent_peak, sizes.pop(process.pid, 0))
        for pid, size in sizes.items():
            children[pid] = max(children.get(pid, 0), size)
        time.sleep(0.2)
    return process.returncode, parent_peak, children, tree_peak, time.perf_counter() - start


ANALYSIS = """
import sys
from pathlib import Path
from sim import analysis
from sim.cli.run import summary_lines
print("\\n".join(summary_lines(Path(sys.argv[1]))))
run = analysis.open_run(sys.argv[1])  # every per-run summary, batch by batch
for name in sys.argv[2].split(","):
    getattr(analysis, name)(run)
"""
SUMMARIES = (
    "draw_rate", "win_rate_by_seat", "win_kinds", "dealer_advantage", "pattern_frequency",
    "tier_summary", "score_distribution", "tail_probabilities", "points_sources",
    "source_net_summary",
)  # fmt: skip
"""The analyses run on the finished run besides the summary (``tier_summary`` only where the
wins have a tier)."""


def _has_tiers(run: Path) -> bool:
    import pyarrow.parquet as pq

    return "tier" in pq.read_schema(run / "wins.parquet").names


def main() -> None:
    parser = argparse.ArgumentParser(description="Peak memory of a long run and its analysis.")
    parser.add_argument("--games", type=int, default=10_000_000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--config", default="configs/anhua-seven-kings.toml")
    parser.add_argument("--keep", metavar="DIR", help="write the run to DIR and keep it")
    parser.add_argument("--record", action="store_true", help="append a row to RESULTS.md")
    args = parser.parse_args()
    print_header()
    with tempfile.TemporaryDirectory() as folder:
        out = Path(args.keep) if args.keep else Path(folder) / "run"
        run = [
            sys.executable, "-m", "sim.cli", "run", args.config, "--games", str(args.games),
            "--jobs", str(args.jobs), "--out", str(out), "--quiet", "--yes",
        ]  # fmt: skip
        status, parent, workers, tree, seconds = _watch(run)
        if status != 0:
            sys.exit(f"mjsim run failed with status {status}")
        size = sum(path.stat().st_size for path in out.iterdir())
        summaries = [n for n in SUMMARIES if n != "tier_summary" or _has_tiers(out)]
        analysis = [sys.executable, "-c", ANALYSIS, str(out), ",".join(summaries)]
        status, summary_peak, _, _, summary_seconds = _watch(analysis)
        if status != 0:
            sys.exit(f"the analysis of the run failed with status {status}")
    worker_peaks = sorted(workers.values(), reverse=True)
    shown = ", ".join(f"{peak / GIB:.2f}" for peak in worker_peaks[: max(args.jobs, 1)])
    # the default backend plays in engine threads of the main process: no worker processes
    workers_text = f"workers [{shown}] GiB" if shown else "no worker processes (engine threads)"
    line = (
        f"{args.games:,} hands, --jobs {args.jobs}: {seconds:.0f} s; peak memory: main process "
        f"{parent / GIB:.2f} GiB (the run and its summary), {workers_text}, whole tree "
        f"{tree / GIB:.2f} GiB; the analysis alone {summary_peak / GIB:.2f} GiB in "
        f"{summary_seconds:.0f} s; run directory {size / 2**20:.1f} MiB"
    )
    print(line)
    if args.record:
        with RESULTS.open("a", encoding="utf-8") as results:
            commit = subprocess.run(
                ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True
            ).stdout.strip()
            stamp = f"{time.strftime('%Y-%m-%d')}, commit {commit or '?'}, {os.cpu_count()} cores"
            results.write(f"\n- bench_memory ({stamp}): {line}\n")


if __name__ == "__main__":
    main()
