"""Run folders made by hand from frames (``sim.play``, or frames built in a test) that pass every
check of a run folder (``sim.running.run_checks``): the tables stored as the runner stores them,
a manifest of the runner's shape for the config they state, with their counts and checksums.
Nothing checks that the config plays those hands: a test's frames stand in for a run's."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from sim.running import runner
from sim.running.config import RunConfig, build_config
from sim.running.run_checks import table_digests

TIMINGS = {
    "warmup_seconds": 0.5,
    "play_seconds": 1.5,
    "chunk_seconds": 1.4,
    "engine_seconds": 1.0,
    "main_thread_cpu_seconds": 0.3,
    "total_seconds": 2.0,
}
"""The timings a hand-made run's manifest states."""


def run_config(variant: str, options: dict, games: int, seed: int, label: str, **run) -> RunConfig:
    """The config of a run of ``games`` hands of ``variant`` with ``options`` (8 hands per
    session unless ``run`` says otherwise)."""
    settings = {"games": games, "seed": seed, "hands_per_session": 8, **run}
    document = {"variant": variant, "label": label, "run": settings, "options": options}
    return build_config(document)


def write_run_folder(
    directory: Path,
    config: RunConfig,
    games: pd.DataFrame,
    wins: pd.DataFrame,
    command: str | None = None,
) -> Path:
    """``games`` and ``wins`` as the run folder ``directory`` of ``config`` (made here), with
    the manifest the runner would write; ``config.games`` must be the hands of ``games``."""
    import pyarrow as pa

    assert config.games == len(games), "the config's hands are the frame's"
    directory.mkdir(parents=True)
    tables = runner._Tables(directory)
    for name, frame in (("games", games), ("wins", wins)):
        tables.append(name, pa.Table.from_pandas(frame, preserve_index=False))
    tables.finish()
    counts = {
        "index": 0,
        "games": len(games),
        "wins": len(wins),
        "draws": int((games["outcome"] == "draw").sum()),
    }
    chunks = runner.plan_chunks(config)
    manifest = runner._manifest(config, command, 1, chunks, [counts])
    manifest |= {"backend": "threads", "tables": table_digests(directory)}
    manifest |= {"timings": dict(TIMINGS), "complete": True}
    (directory / runner.MANIFEST).write_text(json.dumps(manifest, indent=2), encoding="utf-8")
    return directory
