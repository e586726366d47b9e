"""The question before large work: how many hands, how much disk, how long, and whether to go on.

``mjsim run``, ``sweep``, ``compare`` and ``tune`` call :func:`confirm` once their arguments are
checked and before anything is played. Work of at most :data:`ASK_ABOVE_HANDS` hands goes ahead
without a word. Larger work is estimated first, from a sample played here: up to
:data:`SAMPLE_CONFIGS` of its configs play :data:`SAMPLE_HANDS` hands each, as a run of one job
into a temporary folder (after the engine's warm-up, which compiles it or loads it from numba's
cache as the work itself would), so the estimate is this machine's speed and this config's
bytes per hand. The time is the sample's hands per second times the workers that play at once
(``--jobs``, at most the chunks and, on a local backend, the cores); the disk is the sample's
Parquet tables per hand, and on top of them while it plays the part files a run keeps until it
ends (Arrow IPC, LZ4): those of its largest run (a sweep's cell, a comparison's seating).

Then the command asks on the terminal. ``--yes`` goes on without asking (the estimate is still
printed); with no terminal to ask on (a script, a pipe) and no ``--yes``, the command stops
before timing anything, with one line saying to add ``--yes`` (exit status 2). A resumed run or
sweep is not asked about again: it finishes what was agreed to when it started.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..running.config import RunConfig

ASK_ABOVE_HANDS = 10_000_000
"""Work of more hands than this is estimated and asked about before it plays: about ten
minutes of the engine on two cores (``benchmarks/RESULTS.md``: 10,000 hands/s a core for the
efficiency agent), longer with slower agents or one job."""
SAMPLE_HANDS = 4_000
"""Hands each sampled config plays for the estimate (whole sessions, at least two): enough that
a run's fixed seconds (its folder, files and threads) count for a few percent of them."""
SAMPLE_CONFIGS = 4
"""Configs of the work sampled at most (the first, the last and some between): a sweep's cells
or a comparison's seatings differ in speed by their options and agents."""


@dataclass(frozen=True)
class Work:
    """Part of a command's work: ``hands`` hands of ``config``, ``parallel`` of them playing
    at once; ``written``: whether their tables are written to disk (a tuning trial's are not)."""

    config: RunConfig
    hands: int
    parallel: int = 1
    written: bool = True


def add_argument(parser) -> None:
    """``--yes`` on a command's parser."""
    parser.add_argument(
        "--yes",
        action="store_true",
        help=f"go on without asking when the work is large (more than {ASK_ABOVE_HANDS:,} "
        "hands: the hands, disk and time are estimated and asked about first); needed to play "
        "such work from a script",
    )


def parallel(jobs: int, chunks: int, backend=None) -> int:
    """How many chunks play at once: ``jobs`` workers (-1: one per core), no more than
    ``chunks``, nor, on a local backend, than this machine's cores."""
    from ..running.runner import n_workers

    workers = min(n_workers(jobs), max(1, chunks))
    if backend is None or backend.is_local:
        workers = min(workers, os.cpu_count() or 1)
    return workers


def confirm(work: list[Work], what: str, yes: bool, stdin=None) -> bool:
    """Whether to play ``work`` (``what``: how the command names it, e.g. ``this run``):
    at once when it is small; else after the estimate, ``yes`` or the user's answer on the
    terminal (``stdin``, default ``sys.stdin``). A one-line ValueError when it is large and
    there is no terminal to ask on, nor ``yes``."""
    stdin = sys.stdin if stdin is None else stdin
    hands = sum(part.hands for part in work)
    if hands <= ASK_ABOVE_HANDS:
        return True
    if not yes and not _is_terminal(stdin):
        raise ValueError(
            f"{what} plays {hands:,} hands (more than {ASK_ABOVE_HANDS:,}) and there is no "
            "terminal to ask whether to go on; add --yes to play it"
        )
    print(
        f"mjsim: {what} plays {hands:,} hands; timing a sample of them for an estimate "
        "(a first run compiles the engine first: up to two minutes) ...",
        file=sys.stderr,
        flush=True,
    )
    print("\n".join(estimate_lines(work, what)), file=sys.stderr, flush=True)
    if yes:
        return True
    print("go on? [y/N] ", end="", file=sys.stderr, flush=True)
    answer = stdin.readline().strip().lower()
    if answer in ("y", "yes"):
        return True
    print("mjsim: stopped; nothing was played", file=sys.stderr)
    return False


def _is_terminal(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # closed, or no stream at all
        return False


@dataclass(frozen=True)
class Sample:
    """What a config's sample measured: seconds, and bytes of tables and of part files, each
    per hand."""

    seconds: float
    table_bytes: float
    part_bytes: float


def sample(config: RunConfig, hands: int = SAMPLE_HANDS) -> Sample:
    """Play ``hands`` hands of ``config`` (whole sessions) as a run of one job into a temporary
    folder: its seconds per hand, and the bytes per hand of its tables as the run's Parquet
    files and part files hold them. The bytes are those the second half of the hands adds to
    the first: a file's fixed part (its schema, ...) is paid once a run, not once a hand."""
    from ..running.runner import run, warm_up

    per_session = config.hands_per_session
    hands = max(2 * per_session, hands // per_session * per_session)
    sampled = config.with_overrides([f"run.games={hands}"])
    warm_up(sampled)  # compiled (or loaded) before the clock starts, as a run does
    tables: dict[str, list] = {"games": [], "wins": []}
    with tempfile.TemporaryDirectory(prefix="mjsim-estimate-") as folder:
        try:
            # a first run pays once what a long run pays once (pandas' and pyarrow's imports
            # and first calls): untimed
            first = sampled.with_overrides([f"run.games={2 * per_session}"])
            run(first, Path(folder) / "first", progress=False)
            start = time.perf_counter()
            run(
                sampled,
                Path(folder) / "sample",
                progress=False,
                on_table=lambda name, table: tables[name].append(table),
            )
            seconds = time.perf_counter() - start
        except KeyboardInterrupt as error:  # the sample is thrown away: nothing to resume
            error.__dict__.pop("what_next", None)
            raise
    table_bytes, part_bytes = _bytes_per_hand(tables, hands)
    return Sample(seconds / hands, table_bytes, part_bytes)


def _bytes_per_hand(tables: dict[str, list], hands: int) -> tuple[float, float]:
    """Bytes a hand adds to the Parquet tables and to the part files (Arrow IPC, LZ4): what
    the hands after the first half add, per hand."""
    import pyarrow as pa
    import pyarrow.compute as pc

    half = hands // 2
    whole = {name: pa.concat_tables(parts) for name, parts in tables.items()}
    first = {name: table.filter(pc.less(table["game"], half)) for name, table in whole.items()}
    added = []
    for encode in (_parquet_size, _part_size):
        sizes = [sum(encode(table) for table in halves.values()) for halves in (whole, first)]
        added.append(max(0, sizes[0] - sizes[1]) / (hands - half))
    return added[0], added[1]


def _parquet_size(table) -> int:
    import pyarrow as pa
    import pyarrow.parquet as pq

    sink = pa.BufferOutputStream()
    pq.write_table(table, sink)
    return sink.getvalue().size


def _part_size(table) -> int:
    import pyarrow as pa
    import pyarrow.ipc as ipc

    from ..running.runner import PART_COMPRESSION

    sink = pa.BufferOutputStream()
    with ipc.new_file(
        sink, table.schema, options=ipc.IpcWriteOptions(compression=PART_COMPRESSION)
    ) as writer:
        writer.write_table(table)
    return sink.getvalue().size


def _mean(samples: list[Sample]) -> Sample:
    count = len(samples)
    return Sample(
        sum(s.seconds for s in samples) / count,
        sum(s.table_bytes for s in samples) / count,
        sum(s.part_bytes for s in samples) / count,
    )


def sampled(work: list[Work]) -> list[int]:
    """Positions in ``work`` of the parts sampled: all, or :data:`SAMPLE_CONFIGS` spread from
    the first to the last."""
    count = len(work)
    if count <= SAMPLE_CONFIGS:
        return list(range(count))
    step = (count - 1) / (SAMPLE_CONFIGS - 1)
    return sorted({round(i * step) for i in range(SAMPLE_CONFIGS)})


def estimate_lines(work: list[Work], what: str) -> list[str]:
    """The estimate of ``work``: hands, disk and time, and how they were estimated."""
    chosen = sampled(work)
    samples = {index: sample(work[index].config) for index in chosen}
    mean = _mean(list(samples.values()))
    seconds = table_bytes = part_bytes = 0.0
    for index, part in enumerate(work):
        measured = samples.get(index, mean)
        seconds += part.hands * measured.seconds / part.parallel
        if part.written:
            table_bytes += part.hands * measured.table_bytes
            # a run keeps its part files until it ends: the largest one's at most at a time
            part_bytes = max(part_bytes, part.hands * measured.part_bytes)
    hands = sum(part.hands for part in work)
    workers = max(part.parallel for part in work)
    rate = 1 / mean.seconds
    which = f" of {len(chosen)} of its {len(work)} configs"
    if len(chosen) == len(work):
        which = "" if len(work) == 1 else f" of each of its {len(work)} configs"
    disk = (
        f"about {size_text(table_bytes)} on disk (up to {size_text(table_bytes + part_bytes)} "
        "while it plays)"
        if table_bytes
        else "nothing on disk but its results"
    )
    return [
        f"mjsim: {what}: {hands:,} hands, {disk}, about {duration_text(seconds)}",
        f"  ({rate:,.0f} hands/s in {SAMPLE_HANDS:,} hands{which} played here, times {workers} "
        f"job{'s' if workers > 1 else ''} at once)",
    ]


def size_text(size: float) -> str:
    """Bytes as ``820 MB`` or ``7.4 GB``."""
    for unit, scale in (("GB", 1e9), ("MB", 1e6)):
        if size >= scale:
            digits = 1 if size < 100 * scale else 0
            return f"{size / scale:.{digits}f} {unit}"
    return f"{size / 1e3:.0f} kB"


def duration_text(seconds: float) -> str:
    """Seconds as ``40 s``, ``14 min`` or ``2 h 21 min``."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    minutes = round(seconds / 60)
    if minutes < 90:
        return f"{minutes} min"
    return f"{minutes // 60} h {minutes % 60} min"
