"""A run folder is checked before it is believed: every reader of a run calls :func:`check_run`.

A run folder (``manifest.json``, ``games.parquet``, ``wins.parquet``; :mod:`sim.running.runner`)
passes when

* the manifest is a JSON object with the keys and types the runner writes (:data:`MANIFEST_KEYS`,
  :data:`FINISHED_KEYS`, :data:`OPTIONAL_KEYS` and the shapes of its parts), states a config
  that :func:`sim.running.config.build_config` accepts and whose hash is its ``config_hash``,
  with that config's players, chunks and hands;
* each table's columns are the ones the variant's frames declare
  (:func:`sim.running.records.frame_columns`), in order and of the declared types;
* each table has the rows the manifest counts, and the bytes and sha256 the manifest's
  ``tables`` entry holds (written when the run is finished: an edited or rotted table shows);
* the games are hands 0 .. n-1 in order, the draws are those counted, and the wins are, in
  order, each hand's winners: as many rows of a hand as its ``n_winners``.

A mismatch is a ``ValueError`` of one line that starts with the file and says what is wrong (a
missing folder or file: ``FileNotFoundError``); in the CLI that is ``mjsim: error: ...``, exit 2.

What it costs, for a run of N hands: the manifest and the two files' footers, nothing that
grows with N (:func:`check_manifest` alone: what :func:`sim.running.runner.config_of_run`
pays); the sha256 of both files, read in blocks of :data:`BLOCK_BYTES` (about 2 s per GB); and
the ``game``, ``outcome`` and ``n_winners`` columns of the games table and the ``game`` column
of the wins table, a few row groups at a time. A 10,000,000-hand Anhua run (240 MB of tables)
is checked in 1 to 3 s on 2 shared cores (``benchmarks/bench_run_checks.py``), holding a few MB
at a time.

Resume checks each kept chunk's part files the same way (:func:`part_problem`): their bytes
against the checksums its ``chunk-NNNNN.json`` holds, their columns, rows and hands against
the chunk. This module names no variant: the variant a manifest names gives the columns.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .config import RunConfig, build_config

MANIFEST_FILE = "manifest.json"
TABLE_FILES = {"games": "games.parquet", "wins": "wins.parquet"}
BLOCK_BYTES = 1 << 20
"""Bytes hashed at a time."""
SCAN_ROWS = 1 << 16
"""Rows of a table's checked columns read at a time (512 kB of int64 per column: a check
holds a few MB whatever the run's length)."""

READER_ROWS = 1 << 18
"""Rows of the row groups one arrow reader reads (:func:`_batches`)."""

INTEGER, NUMBER, TEXT, OBJECT, LIST, FLAG = "integer", "number", "text", "object", "list", "flag"
_TYPES = {
    INTEGER: lambda value: type(value) is int,
    NUMBER: lambda value: type(value) in (int, float),
    TEXT: lambda value: isinstance(value, str),
    OBJECT: lambda value: isinstance(value, dict),
    LIST: lambda value: isinstance(value, list),
    FLAG: lambda value: isinstance(value, bool),
}
CONFIG_KEYS = ("variant", "label", "run", "options", "seats")
"""The manifest's keys that state the config (:meth:`sim.running.config.RunConfig.resolved`)."""
MANIFEST_KEYS: dict[str, tuple[str, ...]] = {
    "variant": (TEXT,),
    "label": (TEXT,),
    "run": (OBJECT,),
    "options": (OBJECT,),
    "n_players": (INTEGER,),
    "config_hash": (TEXT,),
    "version": (TEXT,),
    "commit": (TEXT, None),
    "command": (TEXT, None),
    "jobs": (INTEGER,),
    "chunks": (INTEGER,),
    "counts": (OBJECT,),
    "created": (TEXT,),
    "platform": (OBJECT,),
    "complete": (FLAG,),
}
"""The keys of every manifest (an unfinished run's too) and the types of their values."""
FINISHED_KEYS: dict[str, tuple[str, ...]] = {
    "backend": (TEXT,),
    "timings": (OBJECT,),
    "tables": (OBJECT,),
}
"""The keys a finished run's manifest has besides :data:`MANIFEST_KEYS`."""
UNFINISHED_KEYS: dict[str, tuple[str, ...]] = {"resume": (TEXT,)}
"""The keys an unfinished run's manifest has besides :data:`MANIFEST_KEYS`."""
OPTIONAL_KEYS: dict[str, tuple[str, ...]] = {
    "seats": (OBJECT,),
    "resumed_chunks": (INTEGER,),
    "resumed_games": (INTEGER,),
}
"""Keys a manifest may have: seats' agent parameters, and what a resume kept."""
COUNTS_KEYS = {"games": (INTEGER,), "wins": (INTEGER,), "draws": (INTEGER,)}
PLATFORM_KEYS = {"python": (TEXT,), "numpy": (TEXT,), "machine": (TEXT,)}
TIMINGS_KEYS = {
    name: (NUMBER,)
    for name in (
        "warmup_seconds",
        "play_seconds",
        "chunk_seconds",
        "engine_seconds",
        "main_thread_cpu_seconds",
        "total_seconds",
    )
}
DIGEST_KEYS = {"rows": (INTEGER,), "bytes": (INTEGER,), "sha256": (TEXT,)}
"""A table's entry in the manifest's ``tables``: its rows, its file's size and sha256."""
ARROW_TYPES = {
    "int64": ("int64",),
    "float64": ("double",),
    "bool": ("bool",),
    "text": ("string", "large_string"),
}
"""The arrow types a stored column of each declared dtype may have (``category``: a
dictionary of strings)."""


@dataclass(frozen=True)
class CheckedRun:
    """A run folder that passed :func:`check_run`: its manifest and the config it states."""

    path: Path
    manifest: dict
    config: RunConfig


def read_json(file: Path, what: str = "run") -> Any:
    """The JSON document of ``file``; a missing file is a FileNotFoundError naming the folder,
    bad JSON a one-line ValueError naming the file."""
    try:
        return json.loads(file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise FileNotFoundError(
            f"{file.parent} is not a {what} directory: no {file.name}"
        ) from None
    except UnicodeDecodeError:
        raise ValueError(f"{file}: invalid JSON (not UTF-8 text)") from None
    except json.JSONDecodeError as error:
        raise ValueError(f"{file}: invalid JSON ({error})") from None


def _type_names(allowed: tuple) -> str:
    return " or ".join("null" if kind is None else kind for kind in allowed)


def _check_keys(document: Any, shape: Mapping, where: str, optional: Mapping = {}) -> None:
    """``document`` is an object with exactly the keys of ``shape`` (and any of ``optional``),
    each value of its allowed types."""
    if not isinstance(document, dict):
        raise ValueError(f"{where}: expected a JSON object, got {type(document).__name__}")
    missing = [key for key in shape if key not in document]
    if missing:
        raise ValueError(f"{where}: no {', '.join(map(repr, missing))} (a run's manifest has it)")
    unknown = [key for key in document if key not in shape and key not in optional]
    if unknown:
        allowed = ", ".join([*shape, *optional])
        raise ValueError(f"{where}: unknown key {unknown[0]!r}; allowed: {allowed}")
    for key, value in document.items():
        allowed = shape.get(key) or optional[key]
        if not any(value is None if kind is None else _TYPES[kind](value) for kind in allowed):
            raise ValueError(
                f"{where}: {key} is {json.dumps(value)[:40]}, expected {_type_names(allowed)}"
            )


def check_manifest(document: Any, file: Path) -> RunConfig:
    """The config a run's manifest (``document``, read from ``file``) states, once its shape
    and its ``config_hash`` are checked; an unfinished run's manifest (``"complete": false``)
    has its own keys. Costs nothing that grows with the run."""
    where = str(file)
    if not isinstance(document, dict):
        raise ValueError(f"{where}: expected a JSON object, got {type(document).__name__}")
    finished = document.get("complete") is not False
    _check_keys(
        document,
        {**MANIFEST_KEYS, **(FINISHED_KEYS if finished else UNFINISHED_KEYS)},
        where,
        OPTIONAL_KEYS,
    )
    _check_keys(document["counts"], COUNTS_KEYS, f"{where}: counts")
    _check_keys(document["platform"], PLATFORM_KEYS, f"{where}: platform")
    if finished:
        _check_keys(document["timings"], TIMINGS_KEYS, f"{where}: timings")
        _check_keys(document["tables"], dict.fromkeys(TABLE_FILES, (OBJECT,)), f"{where}: tables")
        for name in TABLE_FILES:
            _check_keys(document["tables"][name], DIGEST_KEYS, f"{where}: tables.{name}")
    try:
        config = build_config({key: document[key] for key in CONFIG_KEYS if key in document})
    except ValueError as error:
        raise ValueError(f"{where}: {error}") from None
    if document["config_hash"] != config.hash():
        raise ValueError(
            f"{where}: config_hash {document['config_hash'][:16]} is not the hash of the config "
            f"it states ({config.hash()[:16]}): the manifest was edited, or is another run's"
        )
    resolved = config.resolved()  # every setting stated, as the runner states it
    for key in CONFIG_KEYS:
        if document.get(key) != resolved.get(key):
            raise ValueError(
                f"{where}: {key} is not the config's in full (every setting stated, as the "
                f"runner writes it: {json.dumps(resolved.get(key))[:60]})"
            )
    _check_config_facts(document, config, where, finished)
    return config


def _check_config_facts(document: dict, config: RunConfig, where: str, finished: bool) -> None:
    """What the manifest says besides the config agrees with the config."""
    facts = {"n_players": config.n_players, "chunks": config.n_chunks}
    if finished:
        facts["counts.games"] = config.games
    for key, expected in facts.items():
        value = document["counts"]["games"] if key == "counts.games" else document[key]
        if value != expected:
            raise ValueError(f"{where}: {key} is {value}, its config gives {expected}")
    counts = document["counts"]
    if finished and not 0 <= counts["draws"] <= counts["games"]:
        raise ValueError(f"{where}: counts.draws is {counts['draws']} of {counts['games']} hands")


def file_digest(file: Path) -> dict:
    """``bytes`` and ``sha256`` of a file, read in blocks of :data:`BLOCK_BYTES`."""
    digest = hashlib.sha256()
    size = 0
    with open(file, "rb") as stream:
        while block := stream.read(BLOCK_BYTES):
            digest.update(block)
            size += len(block)
    return {"bytes": size, "sha256": digest.hexdigest()}


def table_digests(folder: Path) -> dict:
    """The manifest's ``tables`` entry of a run folder whose tables are written: each table's
    rows (from its footer), bytes and sha256."""
    digests = {}
    for name, file_name in TABLE_FILES.items():
        file = folder / file_name
        digests[name] = {"rows": _parquet(file).metadata.num_rows, **file_digest(file)}
    return digests


def _parquet(file: Path):
    """The parquet file ``file``, its footer read; a one-line ValueError if it is not one."""
    import pyarrow.parquet as pq

    try:
        return pq.ParquetFile(file)
    except Exception as error:  # pyarrow raises several unrelated types for a bad file
        raise ValueError(f"{file}: cannot read parquet ({_first_line(error)})") from None


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def expected_columns(config: RunConfig, name: str) -> list[tuple[str, str]]:
    """(column, declared dtype) of table ``name`` of a run of ``config``, in order."""
    from .records import frame_columns

    return [
        (column_name, column.dtype)
        for column in frame_columns(config.spec, name)
        for column_name in column.names(config.n_players)
    ]


def _arrow_type_matches(arrow_type, dtype: str) -> bool:
    import pyarrow as pa

    if dtype == "category":
        return (
            pa.types.is_dictionary(arrow_type) and str(arrow_type.value_type) in ARROW_TYPES["text"]
        )
    return str(arrow_type) in ARROW_TYPES[dtype]


def check_schema(schema, expected: list[tuple[str, str]], file: Path, what: str) -> None:
    """The columns of ``schema`` are ``expected`` (:func:`expected_columns`), in order, each of
    its declared type."""
    names = list(schema.names)
    wanted = [name for name, _ in expected]
    if names != wanted:
        missing = [name for name in wanted if name not in names]
        unexpected = [name for name in names if name not in wanted]
        if missing or unexpected:
            differ = "; ".join(
                f"{label} {', '.join(columns[:6])}{' ...' if len(columns) > 6 else ''}"
                for label, columns in (("missing", missing), ("unexpected", unexpected))
                if columns
            )
            raise ValueError(f"{file}: not the {what} columns its variant declares ({differ})")
        raise ValueError(f"{file}: the {what} columns are not in the declared order")
    for name, dtype in expected:
        arrow_type = schema.field(name).type
        if not _arrow_type_matches(arrow_type, dtype):
            raise ValueError(f"{file}: column {name} is {arrow_type}, declared {dtype}")


def _batches(file: Path, columns: list[str]) -> Iterator:
    """Record batches of ``columns`` of a parquet file, at most :data:`SCAN_ROWS` rows each,
    read by one arrow reader per run of row groups of about :data:`READER_ROWS` rows: a reader
    over the whole file holds more of it the longer the file (60 MB of arrow's pool for the
    games of 10,000,000 hands), one per row group (a chunk) is twice as slow."""
    with _parquet(file) as parquet:
        for groups in _row_group_runs(parquet.metadata):
            yield from parquet.iter_batches(
                batch_size=SCAN_ROWS, row_groups=groups, columns=columns, use_threads=False
            )


def _row_group_runs(metadata) -> Iterator[list[int]]:
    """Consecutive row groups, each run of them at least :data:`READER_ROWS` rows but the last
    (a single row group may be more)."""
    run, rows = [], 0
    for group in range(metadata.num_row_groups):
        run.append(group)
        rows += metadata.row_group(group).num_rows
        if rows >= READER_ROWS:
            yield run
            run, rows = [], 0
    if run:
        yield run


def _integers(batch, name: str, file: Path) -> np.ndarray:
    column = batch.column(batch.schema.get_field_index(name))
    if column.null_count:
        raise ValueError(f"{file}: column {name} has empty values")
    return column.to_numpy()


def _draws(batch, file: Path) -> int:
    column = batch.column(batch.schema.get_field_index("outcome"))
    if column.null_count:
        raise ValueError(f"{file}: column outcome has empty values")
    names = column.dictionary.to_pylist()
    if "draw" not in names:
        return 0
    return int((column.indices.to_numpy() == names.index("draw")).sum())


def hands_and_winners(
    batches, file: Path, first_game: int, draws: list[int]
) -> Iterator[tuple[int, np.ndarray]]:
    """(first hand, n_winners) of each batch of a games table, checking that its hands are
    ``first_game``, ``first_game + 1``, ... in order; ``draws[0]`` counts its draws."""
    expected = first_game
    for batch in batches:
        games = _integers(batch, "game", file)
        if len(games) and not np.array_equal(games, np.arange(expected, expected + len(games))):
            row = int(np.flatnonzero(games != np.arange(expected, expected + len(games)))[0])
            raise ValueError(
                f"{file}: row {expected - first_game + row} is hand {int(games[row])}, expected "
                f"{expected + row} (the hands are numbered {first_game}, {first_game + 1}, ... "
                "in order)"
            )
        draws[0] += _draws(batch, file)
        yield expected, _integers(batch, "n_winners", file)
        expected += len(games)


def check_winners(
    games: Iterator[tuple], wins: Iterator[np.ndarray], file: Path, seats: int
) -> int:
    """The wins' ``game`` values (``wins``: arrays in order) are each hand's winners, as many
    rows of a hand as its ``n_winners`` (``games``: (first hand, n_winners) per batch), which
    is 0 to ``seats``. The rows of wins checked."""
    waiting = np.empty(0, np.int64)
    row = 0
    for first, winners in games:
        if ((winners < 0) | (winners > seats)).any():
            raise ValueError(f"{file}: a hand's n_winners is not 0 to {seats}")
        expected = np.repeat(np.arange(first, first + len(winners)), winners)
        while len(waiting) < len(expected):
            more = next(wins, None)
            if more is None:
                break
            waiting = np.concatenate([waiting, more])
        got, waiting = waiting[: len(expected)], waiting[len(expected) :]
        if not np.array_equal(got, expected[: len(got)]) or len(got) < len(expected):
            _raise_winners(file, row, got, expected)
        row += len(got)
    extra = len(waiting) + sum(len(more) for more in wins)
    if extra:
        raise ValueError(
            f"{file}: {extra} rows after the last winner of the games table (rows from row {row})"
        )
    return row


def _raise_winners(file: Path, row: int, got: np.ndarray, expected: np.ndarray) -> None:
    differ = np.flatnonzero(got != expected[: len(got)])
    at = int(differ[0]) if len(differ) else len(got)
    hand = int(expected[at])
    found = f"hand {int(got[at])}" if at < len(got) else "the end of the table"
    raise ValueError(
        f"{file}: row {row + at} is {found}, expected a winner of hand {hand} (each hand has "
        "as many wins rows as its n_winners in the games table, in game order)"
    )


def _game_arrays(file: Path) -> Iterator[np.ndarray]:
    for batch in _batches(file, ["game"]):
        yield _integers(batch, "game", file)


def check_tables(folder: Path, manifest: dict, config: RunConfig) -> None:
    """The tables of a run folder against its checked manifest (``check_manifest``): their
    columns, rows, bytes and sha256, and their hands and winners."""
    files = {name: folder / file_name for name, file_name in TABLE_FILES.items()}
    for name, file in files.items():
        parquet = _parquet(file)
        check_schema(parquet.schema_arrow, expected_columns(config, name), file, name)
        rows, counted = parquet.metadata.num_rows, manifest["counts"][name]
        if rows != counted:
            raise ValueError(f"{file}: {rows} rows, the manifest counts {counted}")
        stored = manifest["tables"][name]
        found = {"rows": rows, **file_digest(file)}
        for key in ("rows", "bytes", "sha256"):
            if found[key] != stored[key]:
                raise ValueError(
                    f"{file}: {key} {str(found[key])[:16]}, the manifest keeps "
                    f"{str(stored[key])[:16]}: the file was changed after the run was written"
                )
    draws = [0]
    batches = _batches(files["games"], ["game", "outcome", "n_winners"])
    games = hands_and_winners(batches, files["games"], 0, draws)
    check_winners(games, _game_arrays(files["wins"]), files["wins"], config.n_players)
    if draws[0] != manifest["counts"]["draws"]:
        raise ValueError(
            f"{files['games']}: {draws[0]} draws, the manifest counts {manifest['counts']['draws']}"
        )


def check_run(path: str | Path) -> CheckedRun:
    """Check the run folder ``path`` (see the module docstring); its manifest and config."""
    folder = Path(path)
    if not folder.is_dir():
        raise FileNotFoundError(f"no run directory at {folder}")
    file = folder / MANIFEST_FILE
    document = read_json(file)
    for file_name in TABLE_FILES.values():
        if not (folder / file_name).is_file():
            raise FileNotFoundError(f"{folder} is not a complete run: no {file_name}")
    for file_name in TABLE_FILES.values():
        _parquet(folder / file_name)
    if isinstance(document, dict) and document.get("complete") is False:
        raise ValueError(
            f"{file}: an unfinished run (complete: false); finish it with mjsim run --resume"
        )
    if (
        isinstance(document, dict)
        and "tables" not in document
        and MANIFEST_KEYS.keys() <= set(document)
    ):
        raise ValueError(
            f"{file}: no 'tables' (the tables' checksums); a run folder written before mjsim "
            f"kept them gets them from scripts/add_run_checksums.py {folder}"
        )
    config = check_manifest(document, file)
    check_tables(folder, document, config)
    return CheckedRun(folder, document, config)


def add_checksums(path: str | Path) -> bool:
    """Give the run folder ``path`` the manifest's ``tables`` (its tables' checksums) when it
    has none, once every other check passes; whether it was added (False: it had them)."""
    folder = Path(path)
    file = folder / MANIFEST_FILE
    document = read_json(file)
    if isinstance(document, dict) and "tables" in document:
        check_run(folder)
        return False
    if not isinstance(document, dict):
        raise ValueError(f"{file}: expected a JSON object, got {type(document).__name__}")
    sealed = {**document, "tables": table_digests(folder)}
    config = check_manifest(sealed, file)
    check_tables(folder, sealed, config)
    temporary = file.with_name(file.name + ".tmp")
    temporary.write_text(json.dumps(sealed, indent=2, ensure_ascii=False), encoding="utf-8")
    temporary.replace(file)
    return True


# --------------------------------------------------------------------------- resume's parts


def part_digest(data) -> dict:
    """``bytes`` and ``sha256`` of a part file's bytes (any buffer)."""
    view = memoryview(data)
    return {"bytes": view.nbytes, "sha256": hashlib.sha256(view).hexdigest()}


def part_problem(
    files: Mapping[str, Path],
    marker_file: Path,
    marker: dict,
    hands: range,
    seats: int,
    schemas: Mapping,
    read,
) -> str | None:
    """What is wrong with a kept chunk's part files (``files``: table name -> path), None if
    nothing: their bytes against the checksums of its ``marker_file`` (``marker``: read), their
    schemas against ``schemas`` (name -> the arrow schema this mjsim makes), their rows against
    the marker's counts, the games' against the chunk's ``hands`` and the wins against each
    hand's winners (at most ``seats``). ``read(path)``: a part's arrow table. Costs a
    read and a hash of both parts (a 10,000-hand chunk: a few ms)."""
    kept = marker.get("parts")
    if not isinstance(kept, dict) or any(not isinstance(kept.get(n), dict) for n in files):
        return f"{marker_file}: keeps no checksums of the chunk's parts"
    tables = {}
    for name, file in files.items():
        try:
            found = file_digest(file)
        except OSError as error:
            return f"{file}: cannot read the part ({error.strerror or error})"
        if found != {key: kept[name].get(key) for key in found}:
            return f"{file}: its bytes differ from the checksum its chunk file keeps"
        try:
            tables[name] = read(file)
        except (OSError, ValueError) as error:
            return f"{file}: cannot read the part ({_first_line(error)})"
        columns = [(f.name, str(f.type)) for f in tables[name].schema]
        expected = [(f.name, str(f.type)) for f in schemas[name]]
        if columns != expected:
            differ = sorted(set(columns) ^ set(expected))[:4] or "their order"
            return f"{file}: other columns than this mjsim makes (differing: {differ})"
        if tables[name].num_rows != marker.get(name):
            return f"{file}: {tables[name].num_rows} rows, its chunk file counts {marker.get(name)}"
    if marker.get("games") != len(hands):
        return f"{marker_file}: counts {marker.get('games')} hands, the chunk has {len(hands)}"
    draws = [0]
    games = hands_and_winners(tables["games"].to_batches(), files["games"], hands.start, draws)
    wins = (_integers(batch, "game", files["wins"]) for batch in tables["wins"].to_batches())
    try:
        check_winners(games, wins, files["wins"], seats)
    except ValueError as error:
        return str(error)
    if draws[0] != marker.get("draws"):
        return f"{files['games']}: {draws[0]} draws, its chunk file counts {marker.get('draws')}"
    return None
