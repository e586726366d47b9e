"""Analysis of runs larger than memory: every summary of ``sim.analysis``
read batch by batch from the run directory (:func:`sim.analysis.open_run`) gives exactly the
figures it gives on the run loaded whole, with the batches forced small (many batches, wins of
one hand never split), and reads no table whole."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from sim import analysis
from sim.analysis import runs as analysis_runs
from sim.running import runner
from sim.running.config import load_config
from sim.running.run_checks import table_digests
from sim.studies.sweep import load_sweep_spec, run_sweep

ROOT = Path(__file__).resolve().parents[2]
ANHUA = ROOT / "configs" / "anhua-seven-kings.toml"
WENGAN = ROOT / "configs" / "wengan-4p.toml"
SMALL_BATCH = 37  # hands: a few dozen batches, cut anywhere in a chunk

SUMMARIES = {
    "draw_rate": analysis.draw_rate,
    "win_rate_by_seat": analysis.win_rate_by_seat,
    "win_kinds": analysis.win_kinds,
    "dealer_advantage": analysis.dealer_advantage,
    "pattern_frequency": analysis.pattern_frequency,
    "tier_summary": analysis.tier_summary,
    "score_distribution": analysis.score_distribution,
    "tail_probabilities": analysis.tail_probabilities,
    "points_sources": analysis.points_sources,
    "source_net_summary": analysis.source_net_summary,
}


@pytest.fixture(scope="module")
def anhua_run(tmp_path_factory) -> Path:
    # dealer_bonus on: the variant's derived sources (birds, dealer bonus) are summed too
    config = load_config(
        ANHUA, ["run.games=1500", "run.chunk_hands=200", "run.seed=4", "dealer_bonus=true"]
    )
    return runner.run(config, tmp_path_factory.mktemp("anhua") / "run", jobs=1, progress=False)


@pytest.fixture(scope="module")
def wengan_run(tmp_path_factory) -> Path:
    # Weng'an records each seat's net from several sources: source_net_summary has rows
    config = load_config(WENGAN, ["run.games=800", "run.chunk_hands=200", "run.seed=2"])
    return runner.run(config, tmp_path_factory.mktemp("wengan") / "run", jobs=1, progress=False)


@pytest.fixture(params=["anhua", "wengan"])
def run_dir(request) -> Path:
    return request.getfixturevalue(f"{request.param}_run")


@pytest.mark.engine
@pytest.mark.parametrize("name", SUMMARIES)
def test_every_summary_read_in_small_batches_equals_the_run_in_memory(run_dir, name):
    if name == "tier_summary" and "wengan" in str(run_dir):
        pytest.skip("Weng'an's wins have no tier column")
    whole = SUMMARIES[name](analysis.load_run(run_dir))
    batched = SUMMARIES[name](analysis.open_run(run_dir, batch_rows=SMALL_BATCH))
    pd.testing.assert_frame_equal(batched, whole, check_exact=True)
    if name != "source_net_summary" or "wengan" in str(run_dir):
        assert len(whole) > 0  # the comparison compared something


@pytest.mark.engine
def test_the_batches_are_the_run_cut_by_hands(anhua_run):
    whole = analysis.load_run(anhua_run)
    parts = list(analysis.open_run(anhua_run, batch_rows=SMALL_BATCH).batches())
    assert len(parts) >= 1500 // SMALL_BATCH
    assert all(len(part.games) <= SMALL_BATCH for part in parts)
    for part in parts:  # every win of a part is of one of its hands
        assert part.wins["game"].isin(part.games["game"]).all()
    games = pd.concat([part.games for part in parts], ignore_index=True)
    wins = pd.concat([part.wins for part in parts], ignore_index=True)
    pd.testing.assert_frame_equal(games, whole.games, check_categorical=False)
    pd.testing.assert_frame_equal(wins, whole.wins, check_categorical=False)


@pytest.mark.engine
def test_per_hand_frames_are_made_batch_by_batch(anhua_run, wengan_run):
    lazy = analysis.open_run(anhua_run, batch_rows=SMALL_BATCH)
    whole = analysis.load_run(anhua_run)
    pd.testing.assert_frame_equal(analysis.points_per_hand(lazy), analysis.points_per_hand(whole))
    keys = ["game", "seat"]
    pd.testing.assert_frame_equal(
        analysis.seat_scores(lazy).sort_values(keys, ignore_index=True),
        analysis.seat_scores(whole).sort_values(keys, ignore_index=True),
    )
    keys = ["source", "game", "seat"]
    lazy = analysis.open_run(wengan_run, batch_rows=SMALL_BATCH)
    whole = analysis.load_run(wengan_run)
    nets = analysis.seat_source_nets(whole)
    assert len(nets) > 0
    pd.testing.assert_frame_equal(
        analysis.seat_source_nets(lazy).sort_values(keys, ignore_index=True),
        nets.sort_values(keys, ignore_index=True),
    )


@pytest.fixture(scope="module")
def sweep_dir(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("sweep")
    file = folder / "s.toml"
    file.write_text(
        f'base = "{ANHUA.as_posix()}"\n[run]\ngames = 600\nchunk_hands = 200\n'
        "[axes]\nbird_count = [1, 4]\n",
        encoding="utf-8",
    )
    return run_sweep(load_sweep_spec(file), folder / "out", jobs=1, progress=False, figures=False)


@pytest.mark.engine
def test_comparisons_of_stored_runs_equal_those_in_memory(sweep_dir, monkeypatch):
    monkeypatch.setattr(analysis_runs, "BATCH_ROWS", SMALL_BATCH)
    whole, lazy = analysis.load_sweep(sweep_dir), analysis.load_sweep(sweep_dir, lazy=True)
    assert all(isinstance(run, analysis.StoredRun) for run in lazy.runs.values())
    for run in lazy.runs.values():
        run.batch_rows = SMALL_BATCH
    pd.testing.assert_frame_equal(analysis.sweep_table(lazy), analysis.sweep_table(whole))
    metrics = ["draw_rate", "mean_abs_score", "points:birds", "pattern:平胡", "dealer_advantage"]
    for paired in (False, True):
        pd.testing.assert_frame_equal(
            analysis.compare_runs(lazy, metrics, paired=paired),
            analysis.compare_runs(whole, metrics, paired=paired),
        )
    pd.testing.assert_frame_equal(
        analysis.option_effects(lazy, metrics), analysis.option_effects(whole, metrics)
    )
    pd.testing.assert_frame_equal(
        analysis.pattern_frequency(lazy), analysis.pattern_frequency(whole)
    )


@pytest.mark.engine
def test_no_table_is_read_whole(anhua_run, wengan_run, monkeypatch):
    """A stored run never reads a table whole: the datasets it opens cannot read a table, the
    whole-table readers fail, every record batch it reads has at most ``batch_rows`` rows, and
    every summary still answers."""

    class NoWholeReads:
        def __init__(self, dataset) -> None:
            self.files, self.schema = dataset.files, dataset.schema

    def refuse(*args, **kwargs):
        raise AssertionError("a whole table was read")

    opened, read = analysis_runs._dataset, analysis_runs._file_batches
    sizes = []

    def counted(*args):
        for batch in read(*args):
            sizes.append(batch.num_rows)
            yield batch

    monkeypatch.setattr(analysis_runs, "_dataset", lambda file: NoWholeReads(opened(file)))
    monkeypatch.setattr(analysis_runs, "_file_batches", counted)
    monkeypatch.setattr(analysis_runs, "read_columns", refuse)
    monkeypatch.setattr(pq, "read_table", refuse)
    for method in ("read", "read_row_group", "read_row_groups"):
        monkeypatch.setattr(pq.ParquetFile, method, refuse)
    for path in (anhua_run, wengan_run):
        run = analysis.open_run(path, batch_rows=SMALL_BATCH)
        for name, summary in SUMMARIES.items():
            if name != "tier_summary" or path == anhua_run:
                assert isinstance(summary(run), pd.DataFrame)
    assert sizes and max(sizes) <= SMALL_BATCH


def _tiled_run(source: Path, target: Path, copies: int) -> int:
    """A run of ``copies`` times the hands of ``source`` (renumbered), written as the runner
    writes (a row group per chunk: 10 copies, 15,000 hands, as a 10,000-hand chunk); returns
    the bytes its games table takes in memory."""
    target.mkdir()
    games, wins = (pq.read_table(source / name) for name in (runner.GAMES, runner.WINS))
    hands = games.num_rows
    for name, table in ((runner.GAMES, games), (runner.WINS, wins)):
        game = table.schema.get_field_index("game")
        with pq.ParquetWriter(target / name, table.schema) as writer:
            for first in range(0, copies, 10):
                group = []
                for copy in range(first, min(first + 10, copies)):
                    shifted = pa.compute.add(table.column(game), copy * hands)
                    group.append(table.set_column(game, "game", shifted.cast(pa.int64())))
                writer.write_table(pa.concat_tables(group))
    # the manifest of a run of that many hands, its tables' counts and checksums
    manifest = json.loads((source / runner.MANIFEST).read_text())
    config = runner.config_of_run(source).with_overrides([f"run.games={hands * copies}"])
    counts = {key: value * copies for key, value in manifest["counts"].items()}
    manifest |= {"run": config.resolved()["run"], "config_hash": config.hash(), "counts": counts}
    manifest |= {"chunks": len(runner.plan_chunks(config)), "tables": table_digests(target)}
    (target / runner.MANIFEST).write_text(json.dumps(manifest))
    return games.nbytes * copies


MEASURE = """
import json, sys, tracemalloc
import pyarrow as pa
from sim import analysis
small, big, batch_rows, names = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
tracemalloc.start()
for path in (small, big):  # the small run first: what importing and first calls allocate
    run = analysis.open_run(path, batch_rows=batch_rows)
    for name in names.split(","):
        getattr(analysis, name)(run)
    if path == small:  # what stays allocated (modules, caches) is not the big run's
        tracemalloc.reset_peak()
        held = tracemalloc.get_traced_memory()[0]
        arrow_before = pa.default_memory_pool().max_memory()
print(json.dumps({"python": tracemalloc.get_traced_memory()[1] - held,
                  "arrow": pa.default_memory_pool().max_memory(), "arrow_small": arrow_before}))
"""


@pytest.mark.slow  # every summary over 450,000 hands in a process of its own: about a minute
def test_memory_stays_far_below_the_tables(anhua_run, tmp_path):
    """Every summary over a 450,000-hand run read 2,000 hands at a time: the peak of what
    numpy and pandas allocate (tracemalloc sees it; beyond what stays allocated after a first
    run) and of arrow's memory pool is a small fraction of the games table's size in memory
    (about 70 MB). Found a tier first seen late in the run allocating zeros for every hand
    before it."""
    table_bytes = _tiled_run(anhua_run, tmp_path / "big", copies=300)
    argv = [str(anhua_run), str(tmp_path / "big"), "2000", ",".join(SUMMARIES)]
    result = subprocess.run(
        [sys.executable, "-c", MEASURE, *argv],
        capture_output=True,
        text=True,
        timeout=900,
        cwd=ROOT,
    )
    assert result.returncode == 0, result.stderr
    peaks = json.loads(result.stdout)
    # numpy and pandas: a few batches' worth; arrow decodes a row group (a chunk) at a time
    assert peaks["python"] < table_bytes / 20, (peaks, table_bytes)
    assert peaks["arrow"] < table_bytes / 5, (peaks, table_bytes)


def test_moments_do_not_depend_on_the_cut():
    """Exact sums: any cut of the values gives the same interval, bit for bit, and the
    figures of :func:`sim.analysis.mean_interval` up to rounding."""
    values = np.random.default_rng(3).integers(-500, 500, size=10_001)
    whole = analysis.Moments(3).add(values).interval()
    cut = analysis.Moments(3)
    for part in np.array_split(values, 97):
        cut.add(part)
    assert cut.interval() == whole
    reference = analysis.mean_interval(values / 3)
    np.testing.assert_allclose(whole, reference, rtol=1e-12)
