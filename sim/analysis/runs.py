"""Loading runs and sweeps: :class:`Run`, :class:`Sweep`, :func:`load_run`, :func:`load_runs`,
:func:`load_sweep`, :func:`combine`; :class:`StoredRun` and :func:`open_run`, a run read batch by
batch (:func:`batches`); :func:`per_run`, which lets a function of one run take several; and
:func:`demo_run`, a run made by hand for the examples."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ..running.run_checks import check_run, read_json
from ..variants import VARIANT_NAMES, get_variant

GAME_COLUMNS = ("game", "dealer", "outcome", "win_kind", "n_winners")
WIN_COLUMNS = ("game", "seat", "win_kind", "pattern", "tier", "points", "payer", "gain")


@dataclass
class Run:
    """One simulated run: its manifest and its two frames (see :mod:`sim.running.records`).

    A run made by :func:`load_runs` holds several runs: its frames carry a ``run`` column (the
    label) and ``manifest["runs"]`` maps each label to its manifest; :meth:`parts` splits it.
    """

    manifest: dict
    games: pd.DataFrame
    wins: pd.DataFrame
    path: Path | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if "game" not in self.wins.columns:
            # A run without a single win stores a frame without columns.
            self.wins = pd.DataFrame({column: pd.Series(dtype=object) for column in WIN_COLUMNS})
        where = f" in {self.path}" if self.path else ""
        missing = [c for c in GAME_COLUMNS if c not in self.games.columns]
        if missing or not any(c.startswith("delta_") for c in self.games.columns):
            raise ValueError(f"games frame{where} lacks columns {missing or ['delta_0']}")
        missing = [c for c in ("game", "seat", "pattern", "points") if c not in self.wins.columns]
        if missing:
            raise ValueError(f"wins frame{where} lacks columns {missing}")
        keys = ["run", "game"] if "run" in self.games.columns else ["game"]
        if self.games.duplicated(keys).any():
            raise ValueError(f"games frame{where}: the column 'game' repeats a hand number")

    @classmethod
    def from_frames(
        cls,
        games: pd.DataFrame,
        wins: pd.DataFrame,
        manifest: dict | None = None,
        label: str | None = None,
    ) -> Run:
        """A run from frames in memory, e.g. ``Run.from_frames(*play(name, 2000, seed=3),
        {"variant": name, "options": {...}})`` (:func:`sim.play.play`): the manifest's
        ``variant`` and ``options`` give the point sources the variant derives
        (:func:`sim.analysis.points_per_hand`)."""
        manifest = dict(manifest or {})
        if label is not None:
            manifest["label"] = label
        return cls(manifest, games.reset_index(drop=True), wins.reset_index(drop=True))

    @property
    def label(self) -> str:
        if self.manifest.get("label"):
            return str(self.manifest["label"])
        return self.path.name if self.path else "run"

    @property
    def n_players(self) -> int:
        if "n_players" in self.manifest:
            return int(self.manifest["n_players"])
        return sum(1 for c in self.games.columns if c.startswith("delta_"))

    @property
    def variant(self) -> str | None:
        """The name of the variant the run played (its manifest's ``variant``), if known."""
        return self.manifest.get("variant")

    @property
    def options(self) -> dict:
        return dict(self.manifest.get("options", {}))

    @property
    def is_combined(self) -> bool:
        return "run" in self.games.columns

    def parts(self) -> dict[str, Run]:
        """label -> single run (a single run returns itself under its label)."""
        if not self.is_combined:
            return {self.label: self}
        manifests = self.manifest.get("runs", {})
        wins_by_run = dict(iter(self.wins.groupby("run", sort=False, observed=True)))
        parts = {}
        for label, games in self.games.groupby("run", sort=False, observed=True):
            wins = wins_by_run.get(label, self.wins.iloc[:0])
            parts[str(label)] = Run(
                dict(manifests.get(label, {"label": label})),
                games.drop(columns="run").reset_index(drop=True),
                wins.drop(columns="run").reset_index(drop=True),
            )
        return parts


@dataclass
class Sweep:
    """A sweep: its specification (``sweep.json``) and one run per cell, in the file's order."""

    spec: dict
    runs: dict[str, Run]
    path: Path | None = None

    @property
    def axes(self) -> dict[str, list]:
        return dict(self.spec.get("axes", {}))

    def cell_options(self) -> pd.DataFrame:
        """One row per cell: ``cell`` and the value of every swept option."""
        rows = []
        for cell in self.spec.get("cells", []):
            if cell["name"] in self.runs:
                options = cell.get("options", {})
                rows.append({"cell": cell["name"], **{a: options.get(a) for a in self.axes}})
        return pd.DataFrame(rows, columns=["cell", *self.axes])

    def one_change_cells(self, baseline: str) -> list[str]:
        """The cells that differ from ``baseline`` in exactly one swept option, in the file's
        order: the comparisons that read as "this option alone"."""
        options = {cell["name"]: cell.get("options", {}) for cell in self.spec.get("cells", [])}
        base = options.get(baseline, {})
        return [
            name
            for name in self.runs
            if name != baseline
            and sum(repr(options.get(name, {}).get(a)) != repr(base.get(a)) for a in self.axes) == 1
        ]


def load_run(path: str | Path, columns: Mapping[str, Iterable[str]] | None = None) -> Run:
    """Load a run directory (``manifest.json``, ``games.parquet``, ``wins.parquet``), once it
    passes every check of a run folder (:func:`sim.running.run_checks.check_run`: the
    manifest's shape and config hash, the tables' columns, rows, checksums, hands and winners;
    a mismatch is a one-line ValueError naming the file).

    ``columns``: frame name (``games``, ``wins``) -> the columns to read, names or prefixes
    ending in ``*`` (``delta_*``); the columns every :class:`Run` needs are always read, and a
    frame left out is read whole. Only those columns are read from disk (a pyarrow dataset,
    column by column), so an analysis that needs a few columns of a long run holds only those
    in memory: :data:`SUMMARY_COLUMNS` are what ``mjsim run``'s summary reads.
    """
    path = Path(path)
    manifest = check_run(path).manifest
    columns = dict(columns or {})
    frames = {}
    for name in ("games", "wins"):
        file = path / f"{name}.parquet"
        if not file.exists():
            raise FileNotFoundError(f"{path} is not a complete run: no {file.name}")
        wanted = columns.get(name)
        if wanted is not None:
            wanted = [*REQUIRED_COLUMNS[name], *wanted]
        try:
            frames[name] = read_columns(file, wanted)
        except Exception as error:  # pyarrow raises several unrelated types for a bad file
            raise ValueError(f"{file}: cannot read parquet ({error})") from None
    return Run(manifest, frames["games"], frames["wins"], path)


REQUIRED_COLUMNS = {
    "games": (*GAME_COLUMNS, "delta_*"),
    "wins": ("game", "seat", "pattern", "points"),
}
"""The columns every :class:`Run` has (its checks read them)."""

SUMMARY_COLUMNS = {
    "games": ("points_from_*",),
    "wins": ("win_kind", "tier", "gain"),
}
"""The columns ``mjsim run``'s summary (draws, win kinds, seats, dealer advantage, patterns,
scores) reads besides :data:`REQUIRED_COLUMNS`."""


def read_columns(file: Path, wanted: Iterable[str] | None = None) -> pd.DataFrame:
    """The columns ``wanted`` of a parquet file or folder (names, or prefixes ending in ``*``;
    those the file lacks are left out), all of them when None, as a pandas frame. The arrow
    table is released column by column as pandas takes it, so the peak is about one copy."""
    import pyarrow.dataset as ds

    dataset = ds.dataset(file, format="parquet")
    names = _chosen_columns(dataset.schema.names, wanted)
    table = dataset.to_table(columns=names)
    return table.to_pandas(self_destruct=True, split_blocks=True)


BATCH_ROWS = 262_144
"""Hands a :class:`StoredRun` reads at a time by default: about 100 MB of frames with every
column of the widest variant's tables, whatever the length of the run."""


class StoredRun:
    """A run directory read batch by batch: for runs whose tables do not fit in memory.

    Every per-run summary of :mod:`sim.analysis` takes one as it takes a :class:`Run` and gives
    the same figures, aggregated over :meth:`batches` (counts per value, exact integer sums);
    it never holds more than one batch of rows. A :class:`StoredRun` has no ``games`` or
    ``wins`` frame: functions that return a row per hand (:func:`points_per_hand`,
    :func:`seat_scores`, :func:`seat_source_nets`) take each batch instead::

        run = open_run("runs/ten-million")
        for part in run.batches(games=["points_from_*"]):
            points_per_hand(part)                     # this batch's hands
    """

    is_combined = False

    def __init__(self, path: Path, manifest: dict, batch_rows: int = BATCH_ROWS) -> None:
        if batch_rows < 1:
            raise ValueError(f"batch_rows: {batch_rows}; expected a positive number of hands")
        self.path, self.manifest, self.batch_rows = path, manifest, batch_rows
        self._schema = {}
        for name in ("games", "wins"):
            file = path / f"{name}.parquet"
            if not file.exists():
                raise FileNotFoundError(f"{path} is not a complete run: no {file.name}")
            try:
                self._schema[name] = _dataset(file).schema.names
            except Exception as error:  # pyarrow raises several unrelated types for a bad file
                raise ValueError(f"{file}: cannot read parquet ({error})") from None

    label = Run.label
    variant = Run.variant
    options = Run.options

    @property
    def n_players(self) -> int:
        if "n_players" in self.manifest:
            return int(self.manifest["n_players"])
        return sum(1 for c in self._schema["games"] if c.startswith("delta_"))

    @property
    def hands(self) -> int:
        """Rows of the games table (from the files' metadata: nothing is read)."""
        return _dataset(self.path / "games.parquet").count_rows()

    def columns(self, name: str) -> list[str]:
        """The columns of the ``games`` or ``wins`` table, in order."""
        return list(self._schema[name])

    def parts(self) -> dict[str, StoredRun]:
        return {self.label: self}

    def batches(
        self,
        games: Iterable[str] | None = None,
        wins: Iterable[str] | None = None,
        batch_rows: int | None = None,
    ) -> Iterator[Run]:
        """The run as consecutive :class:`Run` parts of at most ``batch_rows`` hands (default:
        the run's), each with every win of its hands: ``games`` and ``wins`` name the columns
        read besides those every :class:`Run` has (names or ``prefix*``; None: all)."""
        rows = batch_rows or self.batch_rows
        wanted = {"games": games, "wins": wins}
        files, columns = {}, {}
        for name in ("games", "wins"):
            files[name] = self.path / f"{name}.parquet"
            extra = wanted[name]
            chosen = None if extra is None else [*REQUIRED_COLUMNS[name], *extra]
            columns[name] = _chosen_columns(self._schema[name], chosen)
        try:
            yield from _aligned_batches(self, files, columns, rows)
        except OSError as error:
            raise ValueError(f"{self.path}: cannot read parquet ({error})") from None


def _dataset(file: Path):
    import pyarrow.dataset as ds

    return ds.dataset(file, format="parquet")


def _frame(batches) -> pd.DataFrame:
    import pyarrow as pa

    return pa.Table.from_batches(batches).to_pandas(split_blocks=True)


def _aligned_batches(run: StoredRun, files: dict, columns: dict, rows: int) -> Iterator[Run]:
    """Games read ``rows`` at a time, each part with the wins of its hands (both tables are in
    game order: the wins are read alongside, never more than one batch ahead)."""
    wins_batches = _file_batches(files["wins"], columns["wins"], rows)
    waiting: list = []  # wins batches read but not yet handed out
    last_game = None
    empty_wins = _dataset(files["wins"]).schema.empty_table().select(columns["wins"])
    for games_batch in _file_batches(files["games"], columns["games"], rows):
        if games_batch.num_rows == 0:
            continue
        games = _frame([games_batch])
        played = games["game"].to_numpy()
        if (last_game is not None and played[0] <= last_game) or (played[1:] <= played[:-1]).any():
            raise ValueError(
                f"{files['games']}: the hands are not in game order; load the run whole with "
                "load_run"
            )
        last_game = int(played[-1])
        while not waiting or _last_game(waiting[-1]) <= last_game:
            batch = next(wins_batches, None)
            if batch is None:
                break
            if batch.num_rows:
                waiting.append(batch)
        mine, waiting = _split_wins(waiting, last_game)
        wins = _frame(mine) if mine else empty_wins.to_pandas()
        yield Run(run.manifest, games, wins, run.path)
    if last_game is None:  # a run of no hands is one empty part
        empty_games = _dataset(files["games"]).schema.empty_table().select(columns["games"])
        yield Run(run.manifest, empty_games.to_pandas(), empty_wins.to_pandas(), run.path)
    if any(batch.num_rows for batch in waiting) or next(wins_batches, None) is not None:
        raise ValueError(f"{files['wins']}: wins of hands that are not in the games table")


def _file_batches(file: Path, columns: list[str], rows: int):
    """Record batches of at most ``rows`` rows of a parquet file (or of each file of a folder,
    in the dataset's order), read one row group at a time: arrow's dataset scanner would decode
    row groups ahead of the reader, up to the whole table when the reader is slower, and one
    ``iter_batches`` over a whole file grows arrow's memory pool with the file (0.3 GiB more at
    10,000,000 hands, benchmarks/RESULTS.md): one reader per row group, each at most
    ``rows`` rows at a time."""
    import pyarrow.parquet as pq

    for path in _dataset(file).files:
        with pq.ParquetFile(path) as parquet:
            for group in range(parquet.num_row_groups):  # a reader per row group (above)
                yield from parquet.iter_batches(
                    batch_size=rows, row_groups=[group], columns=columns, use_threads=False
                )


def _last_game(batch) -> int:
    return int(batch.column(batch.schema.get_field_index("game"))[-1].as_py())


def _split_wins(waiting: list, last_game: int) -> tuple[list, list]:
    """The wins batches up to hand ``last_game``, and those after it (a batch cut in two)."""
    mine = []
    for index, batch in enumerate(waiting):
        games = batch.column(batch.schema.get_field_index("game")).to_numpy()
        cut = int(np.searchsorted(games, last_game, side="right"))
        if cut < batch.num_rows:
            mine.append(batch.slice(0, cut))
            return mine, [batch.slice(cut), *waiting[index + 1 :]]
        mine.append(batch)
    return mine, []


def open_run(path: str | Path, batch_rows: int = BATCH_ROWS) -> StoredRun:
    """Open a run directory to be read batch by batch (:class:`StoredRun`): for a run whose
    tables do not fit in memory. The folder is checked first, as by :func:`load_run`
    (:func:`sim.running.run_checks.check_run`: its files hashed and a few columns scanned in
    bounded memory, about a second for 10,000,000 hands); nothing else is read here."""
    path = Path(path)
    return StoredRun(path, check_run(path).manifest, batch_rows)


def batches(run, games: Iterable[str] | None = None, wins: Iterable[str] | None = None):
    """The parts a summary aggregates over: a :class:`Run` in memory is one part (itself); a
    :class:`StoredRun` is read :meth:`StoredRun.batches` at a time, only ``games`` and ``wins``
    columns besides those every run has (None: all)."""
    if isinstance(run, StoredRun):
        return run.batches(games, wins)
    return iter([run])


def _chosen_columns(names: list[str], wanted: Iterable[str] | None) -> list[str]:
    """The columns of ``names`` that ``wanted`` (names, or prefixes ending in ``*``) picks, in
    the file's order; all of them when ``wanted`` is None."""
    if wanted is None:
        return list(names)
    chosen = set()
    for pattern in wanted:
        if pattern.endswith("*"):
            chosen.update(n for n in names if n.startswith(pattern[:-1]))
        elif pattern in names:
            chosen.add(pattern)
    return [n for n in names if n in chosen]


def _unique_labels(runs: Sequence[Run]) -> list[str]:
    labels, seen = [], set()
    for index, run in enumerate(runs):
        label = run.label
        if label in seen:
            label = f"{label} ({run.path.name if run.path else index})"
        seen.add(label)
        labels.append(label)
    return labels


def combine(runs: Mapping[str, Run] | Sequence[Run]) -> Run:
    """Several runs as one, with a leading ``run`` column; analyses then report per run."""
    if isinstance(runs, Mapping):
        labels, runs = list(runs), list(runs.values())
    else:
        runs = list(runs)
        labels = _unique_labels(runs)
    if not runs:
        raise ValueError("no runs to combine")
    games = pd.concat([r.games.assign(run=label) for label, r in zip(labels, runs, strict=True)])
    wins = pd.concat([r.wins.assign(run=label) for label, r in zip(labels, runs, strict=True)])
    order = pd.CategoricalDtype(labels, ordered=True)
    games["run"], wins["run"] = games["run"].astype(order), wins["run"].astype(order)
    games = games[["run", *games.columns.drop("run")]].reset_index(drop=True)
    wins = wins[["run", *wins.columns.drop("run")]].reset_index(drop=True)
    manifests = {label: r.manifest for label, r in zip(labels, runs, strict=True)}
    return Run({"label": "+".join(labels), "runs": manifests}, games, wins)


def load_runs(paths: Iterable[str | Path]) -> Run:
    """Load several run directories into one :class:`Run` with a ``run`` column (the label:
    the manifest's ``label``, else the directory name)."""
    return combine([load_run(p) for p in paths])


def load_sweep(path: str | Path, skip_missing: bool = False, lazy: bool = False) -> Sweep:
    """Load a sweep directory (``sweep.json`` and the run directory of every cell).

    ``skip_missing``: leave out cells whose directory is absent (a sweep still running).
    ``lazy``: open every cell with :func:`open_run` (read batch by batch, for cells larger than
    memory) instead of loading it.
    """
    path = Path(path)
    if not path.is_dir():
        raise FileNotFoundError(f"no sweep directory at {path}")
    spec = read_json(path / "sweep.json", "sweep")
    if not isinstance(spec, dict) or not isinstance(spec.get("cells"), list):
        raise ValueError(f"{path / 'sweep.json'}: no list of cells")
    runs = {}
    for cell in spec["cells"]:
        _check_cell(cell, path / "sweep.json")
        cell_dir = path / cell.get("dir", Path("cells") / cell["name"])
        if skip_missing and not cell_dir.is_dir():
            continue
        run = open_run(cell_dir) if lazy else load_run(cell_dir)
        run.manifest.setdefault("label", cell["name"])
        runs[cell["name"]] = run
    return Sweep(spec, runs, path)


def _check_cell(cell, file: Path) -> None:
    """A cell of ``sweep.json``: an object with a ``name`` and perhaps a ``dir`` (its folder
    within the sweep's) and ``options``."""
    if not isinstance(cell, dict) or not isinstance(cell.get("name"), str):
        raise ValueError(
            f"{file}: a cell is {json.dumps(cell)[:40]}, expected an object with a name"
        )
    folder = cell.get("dir", "cells")
    if not isinstance(folder, str) or Path(folder).is_absolute() or ".." in Path(folder).parts:
        raise ValueError(
            f"{file}: cell {cell['name']}: dir {folder!r} is not a folder in the sweep's"
        )
    if not isinstance(cell.get("options", {}), dict):
        raise ValueError(f"{file}: cell {cell['name']}: options is not an object")


def demo_run() -> Run:
    """A four-hand, four-seat run made by hand, with answers that can be checked by eye.

    Hand 0: dealer 0 wins 平胡 (2) by self-draw: +6, everyone else -2.
    Hand 1: seat 2 wins 硬庄 (4) on seat 1's discard, the payment doubled: +8 / -8.
    Hand 2: exhaustive draw. Hand 3: seat 3 wins 小七对 (4) by self-draw, every payment
    doubled: +24, everyone else -8. The doubling is recorded as its own source of points
    (``points_from_doubling``); the run names no variant.
    """
    games = pd.DataFrame(
        {
            "game": [0, 1, 2, 3],
            "session": [0, 0, 0, 0],
            "hand": [0, 1, 2, 3],
            "dealer": [0, 0, 2, 2],
            "outcome": pd.Categorical(["win", "win", "draw", "win"], ["win", "draw"]),
            "win_kind": pd.Categorical(
                ["self_draw", "discard", "none", "self_draw"], ["self_draw", "discard", "none"]
            ),
            "n_winners": [1, 1, 0, 1],
            "payer": [-1, 1, -1, -1],
            "delta_0": [6, 0, 0, -8],
            "delta_1": [-2, -8, 0, -8],
            "delta_2": [-2, 8, 0, -8],
            "delta_3": [-2, 0, 0, 24],
            "points_from_doubling": [0, 4, 0, 12],
        }
    )
    wins = pd.DataFrame(
        {
            "game": [0, 1, 3],
            "seat": [0, 2, 3],
            "win_kind": ["self_draw", "discard", "self_draw"],
            "pattern": ["平胡", "硬庄", "小七对"],
            "tier": pd.Categorical(["小胡", "大胡", "大胡"], ["小胡", "大胡", "双大胡"]),
            "points": [2, 4, 4],
            "payer": [-1, 1, -1],
            "gain": [6.0, 8.0, 24.0],
        }
    )
    manifest = {"n_players": 4, "label": "demo", "options": {}}
    return Run(manifest, games, wins)


def run_variant(run: Run):
    """The registered variant (:class:`sim.variants.Variant`) ``run`` played, or None when its
    manifest names none or a variant this version does not know (a run made by a newer mjsim):
    such a run is analysed by its generic columns alone."""
    if not run.variant or run.variant not in VARIANT_NAMES:
        return None
    return get_variant(run.variant)


def _as_parts(runs) -> dict[str, Run]:
    if isinstance(runs, (Run, StoredRun)):
        return runs.parts()
    if isinstance(runs, Sweep):
        return dict(runs.runs)
    if isinstance(runs, Mapping):
        return dict(runs)
    runs = list(runs)
    return dict(zip(_unique_labels(runs), runs, strict=True))


def is_single(run) -> bool:
    """Whether ``run`` is one run (in memory or stored), not several."""
    return isinstance(run, StoredRun) or (isinstance(run, Run) and not run.is_combined)


def per_run(function: Callable[..., pd.DataFrame]) -> Callable[..., pd.DataFrame]:
    """Let ``function(run, ...)`` take several runs too: one block per run under ``run``."""

    @functools.wraps(function)
    def wrapper(run, *args, **kwargs):
        if is_single(run):
            return function(run, *args, **kwargs)
        blocks = []
        for label, part in _as_parts(run).items():
            block = function(part, *args, **kwargs)
            block.insert(0, "run", label)
            blocks.append(block)
        return pd.concat(blocks, ignore_index=True)

    return wrapper


def _deltas(run: Run) -> np.ndarray:
    """(hands, seats) score changes."""
    columns = [f"delta_{seat}" for seat in range(run.n_players)]
    return run.games[columns].to_numpy(dtype=float)


def _game_rows(run: Run, games: pd.Series) -> np.ndarray:
    """The rows of the games frame that hold the hands ``games``. A run's games are numbered
    0, 1, 2, ... in order: then the row is the number less the first (no index of millions of
    hands built: memory for long runs); otherwise they are looked up."""
    played = run.games["game"].to_numpy()
    wanted = np.asarray(games)
    consecutive = (
        len(played) > 0
        and played.dtype.kind in "iu"
        and played[-1] - played[0] == len(played) - 1
        and bool((played[1:] > played[:-1]).all())
    )
    if consecutive and wanted.dtype.kind in "iu":
        rows = (wanted - played[0]).astype(np.intp)
        if len(rows) and (rows.min() < 0 or rows.max() >= len(played)):
            raise ValueError("wins frame names games that are not in the games frame")
        return rows
    rows = pd.Index(run.games["game"]).get_indexer(games)
    if (rows < 0).any():
        raise ValueError("wins frame names games that are not in the games frame")
    return rows


def scored_wins(run: Run) -> pd.DataFrame:
    """The wins frame with ``score``, the winner's score change in that hand, and ``row``, the
    hand's row in the games frame. ``score`` is the wins frame's ``gain``; where that is empty
    (as older records left it when several seats won one hand) the winner's delta, the same
    figure when winners pay nobody."""
    wins = run.wins.copy(deep=False)  # copy-on-write: the new columns stay in this copy
    rows = _game_rows(run, wins["game"])
    gain = wins["gain"] if "gain" in wins else pd.Series(np.nan, index=wins.index)
    score = pd.to_numeric(gain, errors="coerce").to_numpy(dtype=float, copy=True)
    missing = np.flatnonzero(np.isnan(score))
    if len(missing):  # only these need the deltas (a long run's deltas are large)
        seats = wins["seat"].to_numpy(dtype=int)[missing]
        score[missing] = _deltas(run)[rows[missing], seats]
    wins["score"] = score
    wins["row"] = rows
    return wins
