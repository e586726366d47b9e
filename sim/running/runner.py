"""The runner: a config -> a run directory of Parquet tables and a manifest.

    run(load_config("configs/NAME.toml"), "runs/NAME", jobs=2)

N hands are split into chunks of whole sessions (``run.chunk_hands``). Chunk ``i`` plays on
seeds spawned from the root seed as child ``i`` (walls, first dealers and the random agent's
generator each from their own grandchild), so the hands do not depend on how many jobs play
them: same seed and config, bit-identical tables for any ``jobs`` or backend. The chunks depend
only on the number of hands, the hands per session and ``run.chunk_hands``. Chunks run in
parallel in engine threads of this process (the default backend, and any backend with one job:
the kernels release the GIL, and this thread makes each chunk's tables from its records), or
with joblib in worker processes or on a Dask cluster (:mod:`sim.running.backends`), each worker
sending its tables back. The main thread keeps each chunk's tables in ``parts/`` (Arrow IPC files,
each written under a temporary name, then renamed; ``chunk-NNNNN.json`` last, marking the chunk
complete) and appends them, in chunk order, to the final tables while later chunks still play.
Either way memory stays flat however many hands are played, and the tables are the same bytes.

**Resume.** The run is built in ``.NAME.partial`` beside its folder (:func:`sim.running.outdir.
resumable_directory`), whose ``manifest.json`` says ``"complete": false`` until the end. A run
stopped at any moment (Ctrl-C, SIGTERM, SIGKILL) leaves there only whole chunk files (a ``.tmp``
at most, removed on resume), and ``run(None, out, resume=True)`` (``mjsim run --resume``) plays
only the missing chunks, then writes the tables from all the parts: the same bytes as an
uninterrupted run. Each ``chunk-NNNNN.json`` keeps the chunk's counts, the config's hash and
each part's size and sha256; a resume checks the partial's manifest (its config hash) and every
kept chunk against them and against the chunk (columns, rows, hands, winners), and plays a
damaged one again, named in a warning (:func:`sim.running.run_checks.part_problem`). The tables
are written under temporary names and renamed, then the finished manifest with their checksums,
then the parts are removed: a kill between any two of these steps resumes too. The finished run
passes every check of a run folder (:func:`sim.running.run_checks.check_run`) before it is
moved into place.

A run directory::

    manifest.json    resolved config, its hash, seed, package version and commit, counts, timings
                     (warm-up, play, chunks summed, and of those the engine's own seconds),
                     each table's rows, bytes and sha256 (``tables``)
    games.parquet    one row per hand (局): sim.running.records.hands_frame columns
    wins.parquet     one row per winner: sim.running.records.wins_frame columns

The target is checked and locked before anything is written and renamed into place when
complete, so an error or an interrupt (Ctrl-C, SIGTERM) leaves no partial output at the target
and stops the workers; a previous run there is replaced only once the new one is in place.

pandas and pyarrow are imported where the tables are made, not at the top of this module or of
any module the first hand needs (``tests/test_lazy_imports.py``): with one job, the main
thread first makes tables while the engine plays the second chunk, so their third of a second
of importing runs beside the engine instead of before the first hand. With more jobs the engine
threads take every core from the first chunk on, so a thread imports them during the warm-up.
Likewise the evaluator tables load in a thread from the start of :func:`run`
(``sim.core.tables.load_tables_in_background``: their digest check runs without the GIL, beside
numba's cache load), and ``on_table`` hands the caller each table as written, so that ``mjsim
run``'s summary need not read the files back.
"""

from __future__ import annotations

import contextlib
import json
import os
import platform
import queue
import shutil
import subprocess
import sys
import threading
import time
import warnings
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from .. import __version__
from ..core.tables import load_tables_in_background
from ..core.wall import child_seed, shuffled_walls, spawn_seeds
from . import run_checks
from .agents import agent_ids
from .backends import Backend
from .config import RunConfig, chunk_size
from .outdir import RUN, is_finished, resumable_directory, target_of
from .stopping import stop_on_signals

if TYPE_CHECKING:
    import pyarrow as pa
    import pyarrow.parquet as pq

MANIFEST = RUN.marker  # "manifest.json": a finished run has it
COMPILING = (
    "mjsim: compiling the {title} engine, once after an install or upgrade (about a minute on "
    "2 cores; later runs load it in a second)"
)
"""Said when the engine's first hand takes a while: a cold compile (56-67 s measured for the
three variants on a 2-core AMD EPYC VM, benchmarks/RESULTS.md, ``bench_startup.py``)."""
GAMES = "games.parquet"
WINS = "wins.parquet"
PARTS = "parts"
PART_COMPRESSION = "lz4"  # of the part files (Arrow IPC): see _part_bytes
TEMPORARY = ".tmp"


@dataclass(frozen=True)
class Chunk:
    index: int
    first_game: int  # number of the chunk's first hand in the run
    n_games: int
    first_session: int


def plan_chunks(config: RunConfig) -> list[Chunk]:
    """Whole sessions per chunk (the last session and chunk may be short)."""
    per_session = config.hands_per_session
    hands_per_chunk = chunk_size(per_session, config.chunk_hands)
    chunks = []
    for index, first in enumerate(range(0, config.games, hands_per_chunk)):
        n_games = min(hands_per_chunk, config.games - first)
        chunks.append(Chunk(index, first, n_games, first // per_session))
    return chunks


def chunk_inputs(config: RunConfig, chunk: Chunk):
    """What chunk ``chunk`` plays with: its walls, the first dealer of each of its sessions, and
    the seed of the random agent's generator, all from the root seed's child ``chunk.index``."""
    variant = config.spec
    chunk_seed = child_seed(config.seed, chunk.index)
    walls_seed, dealers_seed, agents_seed = spawn_seeds(chunk_seed, 3)
    walls = shuffled_walls(chunk.n_games, variant.n_tiles, walls_seed)
    n_sessions = -(-chunk.n_games // config.hands_per_session)
    dealers = variant.first_dealers(n_sessions, config.options, dealers_seed)
    return walls, dealers, int(agents_seed.generate_state(1)[0])


def chunk_of(config: RunConfig, game: int) -> Chunk:
    """The chunk that plays hand ``game`` of the run."""
    if not 0 <= game < config.games:
        raise ValueError(f"--game: {game} is not a hand of this run; allowed: 0-{config.games - 1}")
    for chunk in plan_chunks(config):
        if chunk.first_game <= game < chunk.first_game + chunk.n_games:
            return chunk
    raise AssertionError("the chunks cover every hand")


def _chunk_records(
    config: RunConfig, chunk: Chunk, made: tuple[tuple, float] | None = None
) -> tuple[np.ndarray, float, float]:
    """Play one chunk: its records, the seconds the engine (the variant's ``play``) took, and
    the seconds with the walls made too. ``made``: the chunk's ``chunk_inputs`` made beforehand,
    with the seconds they took (``_EngineThreads.submit``); None: made here."""
    began = time.perf_counter()
    if made is None:
        made = chunk_inputs(config, chunk), 0.0
    (walls, dealers, agent_seed), made_seconds = made
    started = time.perf_counter()
    records = config.spec.play(
        config.options,
        walls,
        dealers,
        config.hands_per_session,
        agent_ids(config.agents),
        agent_seed,
        config.agent_params,
    )
    ended = time.perf_counter()
    return records, ended - started, ended - began + made_seconds


def _chunk_frames(config: RunConfig, chunk: Chunk, records: np.ndarray):
    """The games and wins frames of a chunk's records, numbered within the whole run."""
    variant = config.spec
    games = variant.games_frame(records, config.options, config.hands_per_session, 0)
    # session numbers count from the run's first session (chunks hold whole sessions)
    games["game"] += chunk.first_game
    games["session"] += chunk.first_session
    wins = variant.wins_frame(records, config.options, chunk.first_game)
    return games, wins


def warm_up(config: RunConfig) -> np.ndarray:
    """Play one hand on a throwaway wall: the first call in a process compiles the engine (about
    two minutes on 2 cores with a cold cache) or loads it from numba's disk cache (under a
    second). The hand's record."""
    variant = config.spec
    walls = shuffled_walls(1, variant.n_tiles, 0)
    dealers = np.zeros(1, np.int64)
    return variant.play(
        config.options, walls, dealers, 1, agent_ids(config.agents), 0, config.agent_params
    )


def _checked_kept_chunks(config: RunConfig, parts: Path, record: np.ndarray) -> dict[int, dict]:
    """The kept chunks of a resumed run that pass their checks (:func:`sim.running.run_checks.
    part_problem`: each part's checksum, columns, rows and hands against its chunk, and the
    config hash its chunk file names). A damaged chunk is named in one warning line on standard
    error and its files removed, so that it is played again. ``record``: the warm-up hand's,
    whose tables give the columns this engine makes."""
    kept = kept_chunks(parts, every=True)
    if not kept:
        return {}
    made = _arrow_tables(config, Chunk(0, 0, len(record), 0), record, 0.0)[:2]
    schemas = {name: table.schema for name, table in zip(("games", "wins"), made, strict=True)}
    chunks = plan_chunks(config)
    good = {}
    for index, marker in kept.items():
        files = {name: _part(parts, name, index) for name in ("games", "wins")}
        if not 0 <= index < len(chunks):
            problem = f"{_chunk_done(parts, index)}: this run has no chunk {index}"
        elif marker is None:
            problem = f"{_chunk_done(parts, index)}: does not hold chunk {index}'s counts"
        elif marker.get("config_hash") != config.hash():
            problem = f"{_chunk_done(parts, index)}: played with another config"
        else:
            chunk = chunks[index]
            hands = range(chunk.first_game, chunk.first_game + chunk.n_games)
            marker_file = _chunk_done(parts, index)
            problem = run_checks.part_problem(
                files, marker_file, marker, hands, config.n_players, schemas, _read_part
            )
        if problem is None:
            good[index] = marker
            continue
        print(f"mjsim: warning: {problem}; chunk {index} is played again", file=sys.stderr)
        for path in (_chunk_done(parts, index), *files.values()):
            path.unlink(missing_ok=True)  # the marker first: a kill here leaves no half chunk
    return good


@contextmanager
def _said_if_slow(message: str, enabled: bool, after_seconds: float = 2.0):
    """Print ``message`` on standard error if the block is still running ``after_seconds`` on
    (and ``enabled``: where the progress bar shows), with the seconds gone by, counted up each
    second on a terminal; and how long it took once it is done."""
    if not enabled:
        yield
        return
    started = time.perf_counter()
    said = threading.Event()
    done = threading.Event()
    ticking = sys.stderr.isatty()

    def say() -> None:
        if done.wait(after_seconds):
            return
        said.set()
        print(f"{message} ...", file=sys.stderr, end="" if ticking else "\n", flush=True)
        while ticking and not done.wait(1.0):
            elapsed = time.perf_counter() - started
            print(f"\r{message} ... {elapsed:.0f} s", file=sys.stderr, end="", flush=True)

    speaker = threading.Thread(target=say, daemon=True)
    speaker.start()
    try:
        yield
    finally:
        done.set()
        speaker.join()
    if said.is_set():
        took = f"done in {time.perf_counter() - started:.0f} s"
        print(f"\r{message}: {took}" if ticking else f"mjsim: {took}", file=sys.stderr, flush=True)


def n_workers(jobs: int) -> int:
    """Workers (engine threads or processes) for ``jobs`` (-1: one per core); a ValueError for
    anything else."""
    if type(jobs) is not int or jobs == 0 or jobs < -1:
        raise ValueError(f"--jobs: expected a positive integer or -1 (one per core), got {jobs!r}")
    return jobs if jobs > 0 else os.cpu_count() or 1


def worker_pool(n_jobs: int, backend: Backend | None = None):
    """joblib's process pool (a ``joblib.Parallel``), its results as they come: each worker
    starts with :func:`sim.running.stopping.start_worker` (Ctrl-C ignored, ended with its parent).
    With a started Dask ``backend``, a pool over its cluster instead."""
    return (backend or Backend()).pool(n_jobs)


def _write_json_atomic(document: dict, path: Path) -> None:
    temporary = path.with_name(path.name + TEMPORARY)
    temporary.write_text(json.dumps(document, indent=2, ensure_ascii=False), encoding="utf-8")
    os.replace(temporary, path)


def _arrow_tables(config: RunConfig, chunk: Chunk, records: np.ndarray, engine_seconds: float):
    """A played chunk's games and wins tables, and what the manifest counts of it."""
    import pyarrow as pa

    games, wins = _chunk_frames(config, chunk, records)
    counts = {
        "index": chunk.index,
        "games": len(games),
        "wins": len(wins),
        "draws": int((games["outcome"] == "draw").sum()),
        "engine_seconds": engine_seconds,
    }
    games, wins = (
        pa.Table.from_pandas(frame, preserve_index=False, nthreads=1) for frame in (games, wins)
    )
    return games, wins, counts


def _part(parts: Path, name: str, index: int) -> Path:
    return parts / f"{name}-{index:05d}.arrow"


def _chunk_done(parts: Path, index: int) -> Path:
    """The file that says chunk ``index`` is complete: its counts, written after its tables."""
    return parts / f"chunk-{index:05d}.json"


def _play_chunk(config: RunConfig, chunk: Chunk) -> tuple[dict, bytes, bytes]:
    """In a worker (a local process or a Dask worker): play one chunk; its counts and its two
    tables as part-file bytes (:func:`_part_bytes`), sent back to the main process, which alone
    writes files."""
    start = time.perf_counter()
    records, engine_seconds, _ = _chunk_records(config, chunk)
    games, wins, result = _arrow_tables(config, chunk, records, engine_seconds)
    encoded = [_part_bytes(table).to_pybytes() for table in (games, wins)]
    return result | {"seconds": time.perf_counter() - start}, *encoded


def _part_bytes(table: pa.Table) -> pa.Buffer:
    """A chunk's table as a part file holds it: the Arrow IPC file format, LZ4-compressed.

    Not Parquet, which the run's own tables are: a part is read back only by a resume, and
    Parquet's encoding of a 10,000-hand chunk of the default config takes about 6 ms of CPU,
    this one about 2.5 ms (0.4 ms uncompressed; LZ4 runs in arrow's pool), paid beside the
    engine threads on every chunk. LZ4 keeps a part at a quarter of its uncompressed size (60
    to 100 bytes a hand, about twice Parquet's), since a long run keeps all its parts until it
    ends."""
    import pyarrow as pa
    import pyarrow.ipc as ipc

    sink = pa.BufferOutputStream()
    options = ipc.IpcWriteOptions(compression=PART_COMPRESSION)
    with ipc.new_file(sink, table.schema, options=options) as writer:
        writer.write_table(table)
    return sink.getvalue()


def _read_part(source) -> pa.Table:
    """A part's table, from its file's path or its bytes (:func:`_part_bytes`); a file that
    is not one is a one-line ValueError naming it."""
    import pyarrow as pa
    import pyarrow.ipc as ipc

    if isinstance(source, bytes):
        return ipc.open_file(pa.BufferReader(source)).read_all()
    try:
        with pa.OSFile(str(source)) as file:  # read, not mapped: the table outlives the file
            return ipc.open_file(file).read_all()
    except (pa.ArrowException, OSError) as error:
        text = str(error).strip().splitlines()
        raise ValueError(f"{source}: cannot read the part ({text[0] if text else error})") from None


def _keep_chunk(parts: Path, result: dict, games, wins, config_hash: str) -> None:
    """Store a played chunk in ``parts``: its two tables (arrow tables, or a worker's part-file
    bytes), each under a temporary name then renamed, then the file that marks it done: its
    counts, each part's size and sha256 and the config's hash, which a resume checks."""
    index = result["index"]
    digests = {}
    for name, table in (("games", games), ("wins", wins)):
        path = _part(parts, name, index)
        temporary = path.with_name(path.name + TEMPORARY)
        data = table if isinstance(table, bytes) else _part_bytes(table)
        digests[name] = run_checks.part_digest(data)
        with open(temporary, "wb") as file:
            file.write(data)
        os.replace(temporary, path)
    marker = result | {"parts": digests, "config_hash": config_hash}
    _write_json_atomic(marker, _chunk_done(parts, index))


def _as_table(table) -> pa.Table:
    """An arrow table, from part-file bytes when a worker sent those."""
    return _read_part(table) if isinstance(table, bytes) else table


def kept_chunks(parts: Path, every: bool = False) -> dict[int, dict | None]:
    """Chunk index -> counts of the complete chunks in ``parts`` (a kill leaves only those and
    ``.tmp`` files, which are removed here). A chunk file that does not hold its own chunk's
    counts, or whose parts are missing, is left out; with ``every``, every chunk file is
    listed, the first kind as None (:func:`_checked_kept_chunks` names them)."""
    kept: dict[int, dict | None] = {}
    if not parts.is_dir():
        return kept
    for stale in parts.glob(f"*{TEMPORARY}"):
        stale.unlink()
    for marker in sorted(parts.glob("chunk-*.json")):
        number = marker.stem.removeprefix("chunk-")
        if not number.isdigit():
            continue
        index = int(number)
        try:
            result = json.loads(marker.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            result = None
        whole = isinstance(result, dict) and result.get("index") == index
        for name in ("games", "wins", "draws"):
            whole = whole and type(result.get(name)) is int
        if every or (whole and all(_part(parts, n, index).exists() for n in ("games", "wins"))):
            kept[index] = result if whole else None
    return kept


def _stored_schema(table: pa.Table) -> pa.Schema:
    """The schema ``table`` has once written to Parquet and read back (a categorical's values,
    ``large_string`` in pandas' tables, come back as ``string``): the schema of a table made in
    this process and of one read from a worker's part file alike, so that both give the same
    bytes."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    buffer = pa.BufferOutputStream()
    pq.write_table(table.slice(0, 0), buffer)
    return pq.read_schema(pa.BufferReader(buffer.getvalue()))


class _Tables:
    """``games.parquet`` and ``wins.parquet``, appended to chunk by chunk in chunk order (a row
    group per chunk), with the first chunk's schema as stored. ``on_table(name, table)`` is
    given each table as it is written (``run``'s argument)."""

    def __init__(self, folder: Path, on_table: Callable | None = None) -> None:
        self.on_table = on_table
        self.targets = {"games": folder / GAMES, "wins": folder / WINS}
        self.writing = {
            name: path.with_name(path.name + TEMPORARY) for name, path in self.targets.items()
        }
        self.writers: dict[str, pq.ParquetWriter] = {}

    def append(self, name: str, table: pa.Table) -> None:
        import pyarrow.parquet as pq

        writer = self.writers.get(name)
        if writer is None:
            schema = _stored_schema(table)
            writer = self.writers[name] = pq.ParquetWriter(self.writing[name], schema)
        if table.schema != writer.schema:
            # per-chunk categoricals (e.g. the indicator) may differ in their categories
            table = table.cast(writer.schema)
        writer.write_table(table)
        if self.on_table is not None:
            self.on_table(name, table)

    def close(self) -> None:
        for writer in self.writers.values():
            writer.close()

    def finish(self) -> None:
        """Close both tables and give them their names (each file whole, or not there)."""
        self.close()
        for name, path in self.writing.items():
            os.replace(path, self.targets[name])


@cache
def git_commit() -> str | None:
    """The commit of the source tree the package runs from, when it is a git checkout (asked
    once per process: a run's two manifests name the commit it started from)."""
    try:
        result = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            cwd=Path(__file__).resolve().parent,
            capture_output=True,
            text=True,
            timeout=5,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return result.stdout.strip() or None if result.returncode == 0 else None


def progress_bar(total: int, enabled: bool, description: str = "playing"):
    """A tqdm bar over hands on standard error, with rate and ETA (off when not ``enabled``)."""
    from tqdm import tqdm

    return tqdm(
        total=total,
        unit=" hands",
        unit_scale=True,
        disable=not enabled,
        dynamic_ncols=True,
        desc=description,
        file=sys.stderr,
    )


def run(
    config: RunConfig | None,
    out: str | Path,
    *,
    jobs: int = 1,
    progress: bool | None = None,
    replace: bool = True,
    command: str | None = None,
    on_chunk: Callable[[dict], None] | None = None,
    resume: bool = False,
    backend: Backend | None = None,
    on_table: Callable[[str, pa.Table], None] | None = None,
) -> Path:
    """Play ``config`` into the run directory ``out`` and return its path.

    ``jobs``: engine threads or worker processes (-1: one per core); results do not depend on
    it. ``progress``: a progress bar with rate and ETA on standard error (default: when it is a
    terminal).
    ``replace``: whether a previous run directory at ``out`` may be overwritten. ``out`` is
    checked and locked by :func:`sim.running.outdir.resumable_directory` before anything is written.
    ``resume``: finish the interrupted run of ``out`` (``config`` None: the one it was started
    with; else it must be that one). ``backend``: where the chunks play (default: engine
    threads here); the tables are the same bytes whatever it is. ``on_chunk(result)``: called
    with each chunk's counts once it is kept; ``on_table(name, table)``: with each chunk's
    ``games`` and ``wins`` arrow tables as they are written to the run's tables, in chunk order,
    with the schema the files store (a resumed run's kept chunks included): what the files hold,
    without reading them back.
    """
    n_workers(jobs)  # checked before anything is made
    backend = backend or Backend()
    backend.check_installed()
    if config is None and not resume:
        raise ValueError("run: a config is needed unless resuming")
    if progress is None:
        progress = sys.stderr.isatty()
    load_tables_in_background()  # the engine's first hand needs them; loaded beside the start
    target = target_of(out) if resume else Path(out)
    building = None
    try:
        with (
            stop_on_signals() as stop,
            resumable_directory(
                target,
                RUN,
                resume=resume,
                replace=replace,
                worth_keeping=_worth_keeping,
                option="--resume" if resume else "--out",
            ) as building,
        ):
            config = _begin(building, config, command, resume)
            if not is_finished(building, RUN):  # a kill after the manifest: only tidying left
                listeners = on_chunk, on_table
                _play_run(config, building, stop, jobs, progress, command, listeners, backend)
            _check_finished(building, target)
            shutil.rmtree(building / PARTS, ignore_errors=True)
    except KeyboardInterrupt as error:
        if building is not None and building.is_dir():
            kept = len(kept_chunks(building / PARTS))
            error.what_next = (
                f"{kept} finished chunks are kept in {building}; finish the run with: "
                f"mjsim run --resume {target}"
            )
        raise
    return target


def _check_finished(building: Path, target: Path) -> None:
    """The finished run in ``building`` passes every check of a run folder
    (:func:`sim.running.run_checks.check_run`) before it takes the place of ``target``: else a
    one-line error, and ``target`` keeps what it had (:func:`sim.running.outdir.
    resumable_directory` removes ``building``, or keeps it when resumed)."""
    try:
        run_checks.check_run(building)
    except (ValueError, OSError) as error:
        raise ValueError(f"{error}; the run was not moved to {target}") from None


def was_begun(target: str | Path) -> bool:
    """Whether ``target``'s run was begun and interrupted, so that ``run(..., resume=True)``
    finishes it: its building directory holds the manifest of an incomplete run. A process
    killed between making that directory and writing the manifest (a few milliseconds) leaves
    it empty, and a fresh run, which removes it, is the right way on."""
    from .outdir import partial_path

    return (partial_path(Path(target)) / MANIFEST).is_file()


def _worth_keeping(partial: Path) -> bool:
    """An interrupted run is kept when some chunk of it is complete."""
    return bool(kept_chunks(partial / PARTS)) or is_finished(partial, RUN)


def _begin(building: Path, config: RunConfig | None, command, resume: bool) -> RunConfig:
    """A fresh run: its manifest saying it is incomplete. A resumed one: the config it was
    started with (the same hands only from the same config and engine), checked."""
    if not resume:
        manifest = _manifest(config, command, 0, plan_chunks(config), [])
        manifest |= {"complete": False, "resume": f"mjsim run --resume {building}"}
        _write_json_atomic(manifest, building / MANIFEST)
        return config
    if not (building / MANIFEST).exists():
        if not kept_chunks(building / PARTS):
            raise ValueError(
                f"--resume {building}: nothing of that run was played (it was stopped as it "
                "began); start it afresh without --resume"
            )
        raise ValueError(f"--resume {building}: not an interrupted run (no {MANIFEST})")
    try:
        started = read_manifest(building)
        kept = config_of_run(building)
    except ValueError as error:
        raise ValueError(f"--resume {building}: {error}") from None
    if config is not None and config.hash() != kept.hash():
        raise ValueError(
            f"--resume {building}: the run there was started with another config (hash "
            f"{kept.hash()[:16]}, not {config.hash()[:16]}); resume it with its own"
        )
    if started.get("version") != __version__:
        raise ValueError(
            f"--resume {building}: started by mjsim {started.get('version')}, this is "
            f"{__version__}; the hands could differ, so start the run again"
        )
    commit = git_commit()
    if started.get("commit") != commit:
        print(
            f"mjsim: warning: {building} was started at commit {started.get('commit')}, this is "
            f"{commit}; its chunks are kept as they are",
            file=sys.stderr,
        )
    return kept


def _import_table_makers_in_background() -> threading.Thread:
    """Import pandas and pyarrow, and make a first small table, in a thread started before the
    engine's warm-up (numba's cache load or compile, which leaves the second core idle).

    With one job they load where the first chunk's tables are made, beside the engine thread
    (``tests/test_lazy_imports.py``). With more, the engine threads take every core as soon as
    they start, and the 0.3-0.4 CPU seconds of these imports and first calls would be taken
    from them: 2-3 % of a 200,000-hand run of the default config on two cores (``--jobs 2``
    playing at least 1.8 times as fast as ``--jobs 1``)."""

    def load() -> None:
        import pandas as pd
        import pyarrow as pa
        import pyarrow.ipc  # the part files
        import pyarrow.parquet as pq

        with contextlib.suppress(Exception):  # an error is raised where the tables are made
            frame = pd.DataFrame({"kind": pd.Categorical(["a"]), "count": [1]})
            table = pa.Table.from_pandas(frame, preserve_index=False)
            pq.write_table(table.cast(table.schema), pa.BufferOutputStream())

    thread = threading.Thread(target=load, name="mjsim-table-imports", daemon=True)
    thread.start()
    return thread


def _play_run(config, building, stop, jobs, progress, command, listeners, backend) -> None:
    """Play every chunk not kept yet (a kept one that fails its checks too), write both
    tables whole and the finished manifest, with the tables' checksums (``listeners``:
    ``run``'s ``on_chunk`` and ``on_table``)."""
    started = time.perf_counter()
    chunks = plan_chunks(config)
    workers = min(n_workers(jobs), len(chunks))
    threads = backend.plays_chunks_here(workers)
    # with one job, the table makers load beside the engine, on the core it leaves free
    importing = _import_table_makers_in_background() if workers > 1 else None
    with _said_if_slow(COMPILING.format(title=config.spec.title), progress):
        record = warm_up(config)  # compiles, or loads numba's cache, here, not in each worker
    if importing is not None:
        importing.join()  # done by now, unless the cache was warm and the disk slow
    stop.check()  # an interrupt during the compile may have been swallowed by a finaliser
    _checked_kept_chunks(config, building / PARTS, record)  # a damaged one is played again
    warmup_seconds = time.perf_counter() - started
    main_thread_cpu = time.thread_time()
    with backend.started(workers) as pool:
        results, resumed = _play_chunks(
            config, chunks, building, workers, progress, listeners, pool, threads
        )
    stop.check()
    play_seconds = time.perf_counter() - started - warmup_seconds
    main_thread_cpu = time.thread_time() - main_thread_cpu
    manifest = _manifest(config, command, workers, chunks, results)
    manifest["backend"] = backend.name
    if resumed:  # played before an interruption: not in this run's seconds
        manifest["resumed_chunks"] = len(resumed)
        manifest["resumed_games"] = sum(result["games"] for result in resumed.values())
    manifest["tables"] = run_checks.table_digests(building)
    manifest["timings"] = {
        "warmup_seconds": round(warmup_seconds, 3),
        "play_seconds": round(play_seconds, 3),
        "chunk_seconds": round(sum(r["seconds"] for r in results), 3),
        "engine_seconds": round(sum(r["engine_seconds"] for r in results), 3),
        # what this process's main thread spent beside the engine (tables, files, the pool)
        "main_thread_cpu_seconds": round(main_thread_cpu, 3),
        "total_seconds": round(time.perf_counter() - started, 3),
    }
    _write_json_atomic(manifest | {"complete": True}, building / MANIFEST)


def _play_chunks(config, chunks, building, workers, progress, listeners, pool, threads):
    """Play every chunk not yet kept in ``building/parts``, keep each there as it comes, and
    append all of them, in chunk order, to the two tables of ``building``. The chunk results in
    chunk order, and those of the chunks kept from before (index -> result)."""
    on_chunk, on_table = listeners
    parts = building / PARTS
    parts.mkdir(exist_ok=True)
    results = kept_chunks(parts)
    resumed = dict(results)
    tables = _Tables(building, on_table)
    appended = 0  # chunks appended so far: chunk indices 0 .. appended - 1

    def append_ready(index: int | None = None, games=None, wins=None) -> None:
        """Append every chunk whose turn has come: ``index``'s tables from memory, the others
        from their part files."""
        nonlocal appended
        while appended in results:
            for name, table in (("games", games), ("wins", wins)):
                if appended != index:
                    table = _read_part(_part(parts, name, appended))
                tables.append(name, _as_table(table))
            appended += 1

    to_play = [chunk for chunk in chunks if chunk.index not in results]
    if not to_play:
        played = iter(())
    elif threads:
        played = _play_in_threads(config, to_play, workers)
    else:
        played = _play_in_workers(config, to_play, pool, workers)
    try:
        with progress_bar(config.games, progress) as bar:
            bar.update(sum(result["games"] for result in results.values()))
            append_ready()
            for result, games, wins in played:
                _keep_chunk(parts, result, games, wins, config.hash())
                results[result["index"]] = result
                append_ready(result["index"], games, wins)
                bar.update(result["games"])
                if on_chunk is not None:
                    on_chunk(result)
    except BaseException:
        tables.close()
        raise
    finally:
        if hasattr(played, "close"):
            played.close()  # stopped early: the workers end now, not when the traceback goes
    tables.finish()
    return [results[index] for index in sorted(results)], resumed


class _EngineThreads:
    """``count`` daemon threads that play chunks (``_chunk_records``) in this process, each from
    the queue in turn; :meth:`submit` gives a future of the chunk's records.

    Daemon threads, not a ``ThreadPoolExecutor``: an interrupted run stops at once, the engine's
    kernels still running (they cannot be interrupted) are left to finish unseen, and nothing
    waits for them when the process exits (an executor's threads are joined at exit: a chunk of
    a million hands would hold up Ctrl-C for minutes). :meth:`stop` drops the chunks not begun."""

    def __init__(self, config: RunConfig, count: int) -> None:
        self.config = config
        self.waiting: queue.SimpleQueue = queue.SimpleQueue()
        self.stopped = threading.Event()
        self.count = count
        for number in range(count):
            thread = threading.Thread(target=self._work, name=f"mjsim-engine-{number}", daemon=True)
            thread.start()

    def submit(self, chunk: Chunk) -> Future:
        """The future of ``chunk``'s records. Its walls are made here, in the calling thread,
        which submits a chunk while the engine threads play the ones before (``threads + 1``
        ahead, ``_play_in_threads``): 30 ms a chunk of 10,000 hands less on the engine's path."""
        future: Future = Future()
        began = time.perf_counter()
        inputs = chunk_inputs(self.config, chunk)
        self.waiting.put((chunk, (inputs, time.perf_counter() - began), future))
        return future

    def stop(self) -> None:
        self.stopped.set()
        for _ in range(self.count):  # wakes each idle thread, to end it
            self.waiting.put(None)

    def _work(self) -> None:
        while not self.stopped.is_set():
            task = self.waiting.get()
            if task is None or self.stopped.is_set():
                return
            chunk, made, future = task
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(_chunk_records(self.config, chunk, made))
            except BaseException as error:  # the main thread raises it
                future.set_exception(error)


def _play_in_threads(config, chunks, threads: int):
    """Chunks played by ``threads`` engine threads in this process (the engine's kernels
    release the GIL, so they run side by side on as many cores), their results and tables in
    chunk order. This thread meanwhile turns each played chunk into tables, which the caller
    keeps and appends: the records are handed over without pickling, the engine is the one this
    process compiled or loaded (no worker starts or loads it again), and with one thread the
    frames and Parquet cost no time beside the engine's, only a little of another core.

    Each chunk seeds its thread's generator (numba's is per thread) when it starts (``play``),
    so the hands are those of one thread playing every chunk. ``threads + 1`` chunks are given
    to the engine ahead of the one this thread waits for: one more than the threads play, so no
    engine thread waits while this one makes tables, and no more, so that only a few chunks'
    records are in memory at once."""
    engine = _EngineThreads(config, min(threads, len(chunks)))
    ahead = min(len(chunks), threads + 1)
    pending = deque(engine.submit(chunk) for chunk in chunks[:ahead])
    try:
        for position, chunk in enumerate(chunks):
            records, engine_seconds, played_seconds = pending.popleft().result()
            if position + ahead < len(chunks):
                pending.append(engine.submit(chunks[position + ahead]))
            start = time.perf_counter()
            games, wins, result = _arrow_tables(config, chunk, records, engine_seconds)
            # the chunk's own work in both threads, as a worker's seconds count it
            yield result | {"seconds": played_seconds + time.perf_counter() - start}, games, wins
    finally:
        engine.stop()
        for future in pending:
            future.cancel()


def _play_in_workers(config, chunks, pool, workers):
    """Chunks played by ``workers`` worker processes (or a Dask cluster's workers), their
    results and tables as they come, in any order."""
    from joblib import delayed

    results = pool(workers)(delayed(_play_chunk)(config, chunk) for chunk in chunks)
    try:
        # not ``yield from``: that would close ``results`` before the warnings are silenced
        for result in results:  # noqa: UP028
            yield result
    finally:
        with warnings.catch_warnings():
            # stopped early (an error, Ctrl-C): joblib ends the workers and warns that their
            # tasks were cancelled, which the stop's own line already says
            warnings.simplefilter("ignore", UserWarning)
            if hasattr(results, "close"):
                results.close()


def _manifest(config: RunConfig, command, workers: int, chunks, results) -> dict:
    return {
        **config.resolved(),
        "n_players": config.n_players,
        "config_hash": config.hash(),
        "version": __version__,
        "commit": git_commit(),
        "command": command,
        "jobs": workers,
        "chunks": len(chunks),
        "counts": {
            "games": sum(r["games"] for r in results),
            "wins": sum(r["wins"] for r in results),
            "draws": sum(r["draws"] for r in results),
        },
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "platform": {
            "python": platform.python_version(),
            "numpy": np.__version__,
            "machine": platform.machine(),
        },
    }


def read_manifest(path: str | Path) -> dict:
    """The manifest of the run folder ``path`` as stored, unchecked (:func:`config_of_run`
    checks it)."""
    path = Path(path)
    try:
        return json.loads((path / MANIFEST).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ValueError(f"{path}: not a run directory (no {MANIFEST})") from None
    except json.JSONDecodeError:
        raise ValueError(f"{path / MANIFEST}: not valid JSON") from None


def config_of_run(path: str | Path) -> RunConfig:
    """The configuration a run directory was played with (from its manifest, whose shape and
    ``config_hash`` are checked: :func:`sim.running.run_checks.check_manifest`; its tables are
    not read)."""
    return run_checks.check_manifest(read_manifest(path), Path(path) / MANIFEST)
