"""The Dask backend: ``--backend dask`` plays the chunks on a Dask cluster (a
``LocalCluster`` started for the run, or the scheduler ``--scheduler`` names) through joblib's
Dask backend, and writes the bytes ``--jobs 1`` writes; a missing extra or an unreachable
scheduler is one line, exit 2, and no directory."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sim.cli import main
from sim.running import backends, runner
from sim.running.backends import Backend
from sim.running.config import load_config
from sim.running.outdir import partial_path

distributed = pytest.importorskip("distributed")

ROOT = Path(__file__).resolve().parent.parent
CONFIG = str(ROOT / "configs" / "anhua-seven-kings.toml")
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


@pytest.mark.engine
def test_a_local_cluster_started_for_the_run_writes_the_same_bytes(tmp_path, one_job):
    config = load_config(CONFIG, SETTINGS)
    out = runner.run(config, tmp_path / "dask", jobs=2, backend=Backend("dask"))
    _same(out, one_job)
    assert runner.read_manifest(out)["backend"] == "dask"


@pytest.mark.engine
def test_mjsim_run_on_an_existing_scheduler_writes_the_same_bytes(
    tmp_path, one_job, cluster, capsys
):
    argv = ["run", CONFIG, "--backend", "dask", "--scheduler", cluster.scheduler_address]
    argv += [f"--set={setting}" for setting in SETTINGS] + ["--out", str(tmp_path / "x")]
    assert main([*argv, "--quiet"]) == 0, capsys.readouterr().err
    _same(tmp_path / "x", one_job)
    assert len(cluster.scheduler_info["workers"]) == 2  # the cluster is still there, untouched


@pytest.mark.slow  # a sweep on a cluster (the killed one below resumes there)
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


@pytest.mark.engine
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


@pytest.mark.engine
def test_mjsim_compare_on_a_cluster_writes_the_tables_of_one_job(tmp_path, cluster, capsys):
    """``mjsim compare --backend dask``: every rotation's tables and both comparison files are
    the bytes ``--jobs 1`` writes."""
    base = ["compare", CONFIG, "--agents", "efficiency,random", "--deals", "150", "--quiet"]
    base += ["--set", "run.chunk_hands=64"]
    assert main([*base, "--out", str(tmp_path / "local")]) == 0, capsys.readouterr().err
    dask = ["--backend", "dask", "--scheduler", cluster.scheduler_address]
    assert main([*base, *dask, "--out", str(tmp_path / "dask")]) == 0, capsys.readouterr().err
    for rotation in range(4):
        name = f"rotation-{rotation}"
        _same(tmp_path / "dask" / name, tmp_path / "local" / name)
        assert runner.read_manifest(tmp_path / "dask" / name)["backend"] == "dask"
    for name in ("comparison.csv", "pairs.csv"):
        assert (tmp_path / "dask" / name).read_bytes() == (tmp_path / "local" / name).read_bytes()


# Ctrl-C on the Dask backend, from the command line as a user types it: 60 chunks of 200
# hands, long enough to be interrupted in the middle; the LocalCluster the command starts is
# in the command's process group, so the terminal's SIGINT reaches its workers too.
CTRL_C_SETTINGS = ["--games", "12000", "--seed", "5", "--set", "run.chunk_hands=200", "--quiet"]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
DASK_TWO_WORKERS = ["--out", "x", "--backend", "dask", "--jobs", "2"]


def _mjsim(*argv: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "sim.cli", *argv],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=ENV,
        timeout=600,
    )


def _started(*argv: str, cwd: Path) -> subprocess.Popen:
    """``mjsim ARGV`` started in ``cwd`` in a process group of its own (to be signalled)."""
    return subprocess.Popen(
        [sys.executable, "-m", "sim.cli", *argv],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
        start_new_session=True,
    )


def _wait_for_chunks(process: subprocess.Popen, parts: Path, count: int, what: str) -> None:
    """Return once ``parts`` holds ``count`` kept chunks (the process still running)."""
    deadline = time.monotonic() + 300
    while len(list(parts.glob("chunk-*.json"))) < count:
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, what
        time.sleep(0.01)


def _interrupted_dask_run(folder: Path) -> tuple[int, str]:
    """Start ``mjsim run --backend dask --jobs 2`` in ``folder``, press Ctrl-C (SIGINT to its
    process group) once three chunks are kept, and return its exit status and standard error."""
    process = _started("run", CONFIG, *CTRL_C_SETTINGS, *DASK_TWO_WORKERS, cwd=folder)
    parts = partial_path(folder / "x") / runner.PARTS
    try:
        _wait_for_chunks(process, parts, 3, "the run never played its chunks")
        os.killpg(process.pid, signal.SIGINT)
        _, stderr = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
    return process.returncode, stderr


@pytest.mark.slow  # three runs of 12,000 hands, each starting a cluster: about a minute
def test_ctrl_c_on_dask_says_how_to_resume_and_the_resume_gives_the_same_bytes(tmp_path):
    returncode, stderr = _interrupted_dask_run(tmp_path)
    assert returncode == 130, stderr
    assert stderr.count("\n") == 1, stderr  # one line: no tracebacks from the cluster
    assert stderr.startswith("mjsim: interrupted (Ctrl-C); ")
    # the hint repeats the run's own --jobs and --backend
    assert stderr.rstrip().endswith(
        "finish the run with: mjsim run --resume x --jobs 2 --backend dask"
    )
    partial = partial_path(tmp_path / "x")
    assert not (tmp_path / "x").exists()
    manifest = json.loads((partial / runner.MANIFEST).read_text())
    assert manifest["complete"] is False and manifest["chunks"] == 60
    kept = runner.kept_chunks(partial / runner.PARTS)
    assert 3 <= len(kept) < 60, "the interrupt came too late to test a resume"
    assert f"{len(kept)} finished chunks are kept" in stderr

    resumed = _mjsim("run", "--resume", "x", "--backend", "dask", "--jobs", "2", "--quiet",
                     cwd=tmp_path)  # fmt: skip
    assert resumed.returncode == 0, resumed.stderr
    assert not partial.exists()
    whole = _mjsim("run", CONFIG, *CTRL_C_SETTINGS, "--out", "whole", cwd=tmp_path)
    assert whole.returncode == 0, whole.stderr
    _same(tmp_path / "x", tmp_path / "whole")
    finished = runner.read_manifest(tmp_path / "x")
    assert finished["complete"] is True and finished["resumed_chunks"] == len(kept)
    assert finished["backend"] == "dask"


@pytest.mark.slow  # a study and its resume on a cluster
def test_tune_on_a_cluster_gives_the_study_of_one_job_and_resumes_there(tmp_path, cluster):
    """``mjsim tune --backend dask``: the trials' batches played on the cluster make the study
    one job makes, trial for trial, and a study resumed on the cluster continues it."""
    import pandas as pd

    from sim.studies.tune import check_settings, run_study, trials_frame

    config = load_config(CONFIG, ["run.games=40", "run.seed=7"])
    settings = check_settings(config, "value", "efficiency", 4, 2, 40)
    on_cluster = Backend("dask", scheduler=cluster.scheduler_address)

    def study(out, trials, **how):
        chosen = check_settings(config, "value", "efficiency", trials, 2, 40)
        return trials_frame(run_study(chosen, tmp_path / out, say=lambda line: None, **how))

    one = trials_frame(run_study(settings, tmp_path / "one", jobs=1, say=lambda line: None))
    pd.testing.assert_frame_equal(one, study("dask", 4, jobs=2, backend=on_cluster))
    study("resumed", 2, jobs=2, backend=on_cluster)
    resumed = study("resumed", 4, jobs=2, backend=on_cluster, resume=True)
    pd.testing.assert_frame_equal(one, resumed)


RESUMED_SWEEP = f"""\
base = "{Path(CONFIG).as_posix()}"
[run]
games = 3000
chunk_hands = 200
seed = 4
[axes]
bird_count = [2, 4]
"""


@pytest.mark.slow  # three sweeps of 6,000 hands, one of them killed
def test_a_sweep_killed_on_a_cluster_resumes_there_to_the_tables_of_one_job(tmp_path, cluster):
    """``mjsim sweep --resume DIR --backend dask``: a sweep whose client was SIGKILLed in its
    second cell finishes on the cluster with the tables one job writes."""
    (tmp_path / "grid.toml").write_text(RESUMED_SWEEP, encoding="utf-8")
    dask = ["--backend", "dask", "--scheduler", cluster.scheduler_address, "--quiet"]
    process = _started("sweep", "grid.toml", "--out", "x", *dask, cwd=tmp_path)
    second = partial_path(tmp_path / "x") / "cells" / ".bird_count=4.partial" / runner.PARTS
    try:
        _wait_for_chunks(process, second, 2, "the sweep never reached its second cell")
        os.killpg(process.pid, signal.SIGKILL)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
    assert not (tmp_path / "x").exists()
    resumed = _mjsim("sweep", "--resume", "x", *dask, cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    whole = _mjsim("sweep", "grid.toml", "--out", "whole", "--quiet", cwd=tmp_path)
    assert whole.returncode == 0, whole.stderr
    for cell in ("bird_count=2", "bird_count=4"):
        _same(tmp_path / "x" / "cells" / cell, tmp_path / "whole" / "cells" / cell)
    for name in ("comparison.csv", "significance.csv"):
        assert (tmp_path / "x" / name).read_bytes() == (tmp_path / "whole" / name).read_bytes()


def test_after_a_stop_dask_errors_are_silent_and_others_are_not(monkeypatch, caplog):
    """``backends._silence_dask`` (a stopped run's cluster closing): Dask's and tornado's
    loggers (also those with levels of their own, as distributed's configuration sets) and the
    errors raised in a Dask object's ``__del__`` print nothing; an error of anything else still
    does."""
    import logging

    import distributed  # noqa: F401  (its configuration sets the levels of some loggers)

    seen = []
    monkeypatch.setattr(sys, "unraisablehook", seen.append)
    loggers = backends._dask_loggers()
    assert len({id(logger) for logger in loggers}) == len(loggers)  # each named once
    assert {"distributed", "tornado", "asyncio"} <= {logger.name for logger in loggers}
    levels = {logger: logger.level for logger in loggers}
    try:
        backends._silence_dask()
        logging.getLogger("distributed.worker").error("Failed to communicate with scheduler")
        logging.getLogger("tornado.application").error("Exception in callback")
        logging.getLogger("distributed.client").error("Couldn't gather keys")
    finally:
        for logger, level in levels.items():
            logger.setLevel(level)
    assert caplog.records == []

    class DaskClient:
        def __del__(self):
            raise RuntimeError("IOLoop is closed")

    DaskClient.__del__.__module__ = "distributed.client"  # as Client.__del__
    DaskClient()

    class Other:
        def __del__(self):
            raise RuntimeError("something else")

    Other()
    assert [str(u.exc_value) for u in seen] == ["something else"]
