"""The Dask backend (issue 17): ``--backend dask`` plays the chunks on a Dask cluster (a
``LocalCluster`` started for the run, or the scheduler ``--scheduler`` names) through joblib's
Dask backend, and writes the bytes ``--jobs 1`` writes; a missing extra or an unreachable
scheduler is one line, exit 2, and no directory."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from sim import backends, runner
from sim.backends import Backend
from sim.cli import main
from sim.config import load_config

distributed = pytest.importorskip("distributed")

CONFIG = str(Path(__file__).resolve().parent.parent / "configs" / "anhua-seven-kings.toml")
SETTINGS = ["run.games=600", "run.chunk_hands=96", "run.seed=21"]
TABLES = (runner.GAMES, runner.WINS)


@pytest.fixture(scope="module")
def cluster():
    """A real two-worker cluster, as a user's would be (processes, one thread each)."""
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as local:
        yield local


@pytest.fixture(scope="module")
def one_job(tmp_path_factory):
    config = load_config(CONFIG, SETTINGS)
    return runner.run(config, tmp_path_factory.mktemp("one") / "run", jobs=1)


def _same(a, b) -> None:
    for name in TABLES:
        assert (a / name).read_bytes() == (b / name).read_bytes(), name


def test_a_local_cluster_started_for_the_run_writes_the_same_bytes(tmp_path, one_job):
    config = load_config(CONFIG, SETTINGS)
    out = runner.run(config, tmp_path / "dask", jobs=2, backend=Backend("dask"))
    _same(out, one_job)
    assert runner.read_manifest(out)["backend"] == "dask"


def test_mjsim_run_on_an_existing_scheduler_writes_the_same_bytes(
    tmp_path, one_job, cluster, capsys
):
    argv = ["run", CONFIG, "--backend", "dask", "--scheduler", cluster.scheduler_address]
    argv += [f"--set={setting}" for setting in SETTINGS] + ["--out", str(tmp_path / "x")]
    assert main([*argv, "--quiet"]) == 0, capsys.readouterr().err
    _same(tmp_path / "x", one_job)
    assert len(cluster.scheduler_info["workers"]) == 2  # the cluster is still there, untouched


def test_mjsim_sweep_on_a_cluster_writes_the_tables_of_one_job(tmp_path, cluster, capsys):
    sweep = tmp_path / "s.toml"
    sweep.write_text(
        f'base = "{Path(CONFIG).as_posix()}"\n[run]\ngames = 300\n'
        "chunk_hands = 96\n[axes]\nbird_count = [1, 4]\n",
        encoding="utf-8",
    )
    base = ["sweep", str(sweep), "--quiet"]
    assert main([*base, "--out", str(tmp_path / "local")]) == 0
    dask = ["--backend", "dask", "--scheduler", cluster.scheduler_address]
    assert main([*base, *dask, "--out", str(tmp_path / "dask")]) == 0, capsys.readouterr().err
    for cell in ("bird_count=1", "bird_count=4"):
        _same(tmp_path / "dask" / "cells" / cell, tmp_path / "local" / "cells" / cell)
    for name in ("comparison.csv", "significance.csv"):
        assert (tmp_path / "dask" / name).read_bytes() == (tmp_path / "local" / name).read_bytes()


def test_without_the_extra_dask_is_one_line_and_exit_2(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if not installed
    monkeypatch.chdir(tmp_path)
    status = main(["run", CONFIG, "--backend", "dask"])
    assert status == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "pip install 'mjsim[dask]'" in error, error
    assert list(tmp_path.iterdir()) == []


def test_an_unreachable_scheduler_is_one_line_and_exit_2(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(backends, "CONNECT_SECONDS", 1)
    out = tmp_path / "x"
    argv = ["run", CONFIG, "--games", "50", "--backend", "dask"]
    status = main([*argv, "--scheduler", "tcp://127.0.0.1:9", "--out", str(out), "--quiet"])
    assert status == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1, error
    assert error.startswith("mjsim: error: --scheduler tcp://127.0.0.1:9: cannot reach a Dask")
    assert list(tmp_path.iterdir()) == []
