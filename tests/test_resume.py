"""Resume: a run killed at any moment, SIGKILL included, leaves only complete chunk
files and a manifest saying the run is incomplete, in ``.NAME.partial`` beside its folder;
``mjsim run --resume`` finishes it, and the tables equal those of an uninterrupted run byte for
byte. Ctrl-C says how to resume; a fresh run refuses to throw the kept chunks away."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_in_process import mjsim

from sim.cli import main
from sim.running import runner
from sim.running.config import load_config
from sim.running.outdir import partial_path

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "configs" / "anhua-seven-kings.toml"
# 100 chunks of 200 hands: long enough (a few seconds) to be killed in the middle
SETTINGS = ["--games", "20000", "--seed", "3", "--set", "run.chunk_hands=200", "--quiet"]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
TABLES = (runner.GAMES, runner.WINS)


def _mjsim(*argv: str, cwd: Path, **kwargs):
    return subprocess.run(
        [sys.executable, "-m", "sim.cli", *argv],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=ENV,
        timeout=300,
        **kwargs,
    )


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory) -> Path:
    """The run played whole, by ``main`` in this process (the runs killed below are real
    processes; this one need not pay for another Python start)."""
    whole = tmp_path_factory.mktemp("whole") / "whole"
    assert main(["run", str(CONFIG), *SETTINGS, "--out", str(whole)]) == 0
    return whole


def _start(folder: Path, *extra: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "sim.cli", "run", str(CONFIG), *SETTINGS, "--out", "x", *extra],
        cwd=folder,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
        start_new_session=True,
    )


def _wait_for_chunks(process: subprocess.Popen, parts: Path, count: int) -> None:
    deadline = time.monotonic() + 240
    while len(list(parts.glob("chunk-*.json"))) < count:
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "the run never played its chunks"
        time.sleep(0.01)


def _assert_same_tables(a: Path, b: Path) -> None:
    for name in TABLES:
        assert (a / name).read_bytes() == (b / name).read_bytes(), name


@pytest.mark.parametrize(
    ("jobs", "backend"),
    [("1", "threads"), ("2", "threads"), pytest.param("2", "processes", marks=pytest.mark.slow)],
)
def test_a_sigkilled_run_resumes_to_the_same_bytes(
    tmp_path, uninterrupted, jobs, backend, capsys, monkeypatch
):
    """Killed while its engine threads, or its worker processes, play chunks."""
    process = _start(tmp_path, "--jobs", jobs, "--backend", backend)
    partial = partial_path(tmp_path / "x")
    try:
        _wait_for_chunks(process, partial / runner.PARTS, 3)
        process.kill()
        process.wait(timeout=30)
    finally:
        process.kill()
        process.communicate()
    # what the kill left: no run folder, an incomplete manifest, only whole chunk files
    assert not (tmp_path / "x").exists()
    manifest = json.loads((partial / runner.MANIFEST).read_text())
    assert manifest["complete"] is False and manifest["chunks"] == 100
    kept = runner.kept_chunks(partial / runner.PARTS)
    assert 3 <= len(kept) < 100, "the kill came too late to test a resume"
    for index in kept:
        for name in ("games", "wins"):
            runner._read_part(runner._part(partial / runner.PARTS, name, index))  # whole
    assert not list(partial.glob("*.parquet"))  # the tables are written whole, at the end

    # a fresh run refuses to throw the kept chunks away, and says how to go on (the commands
    # after the kill run in this process: the killed run was the real one)
    monkeypatch.chdir(tmp_path)
    fresh = mjsim(capsys, "run", str(CONFIG), "--games", "40", "--quiet", "--out", "x")
    assert fresh.returncode == 2 and fresh.stderr.count("\n") == 1, fresh.stderr
    assert "mjsim run --resume x" in fresh.stderr and partial.is_dir()

    resumed = mjsim(capsys, "run", "--resume", "x", "--jobs", jobs, "--quiet")
    assert resumed.returncode == 0, resumed.stderr
    _assert_same_tables(tmp_path / "x", uninterrupted)
    assert not partial.exists()
    finished = json.loads((tmp_path / "x" / runner.MANIFEST).read_text())
    assert finished["complete"] is True and finished["resumed_chunks"] == len(kept)
    assert finished["counts"] == json.loads((uninterrupted / runner.MANIFEST).read_text())["counts"]
    assert sorted(p.name for p in (tmp_path / "x").iterdir()) == sorted(
        [runner.GAMES, runner.WINS, runner.MANIFEST]
    )


@pytest.mark.parametrize("backend", ["threads", pytest.param("processes", marks=pytest.mark.slow)])
def test_ctrl_c_keeps_the_finished_chunks_and_says_how_to_resume(tmp_path, uninterrupted, backend):
    """Interrupted while two engine threads (which do not wait for the chunks they are in), or
    two worker processes, play chunks."""
    process = _start(tmp_path, "--jobs", "2", "--backend", backend)
    try:
        _wait_for_chunks(process, partial_path(tmp_path / "x") / runner.PARTS, 2)
        os.killpg(process.pid, signal.SIGINT)
        _, stderr = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == 130, stderr
    assert stderr.count("\n") == 1, stderr
    assert stderr.startswith("mjsim: interrupted (Ctrl-C); ")
    assert stderr.rstrip().endswith("finish the run with: mjsim run --resume x")
    # the hidden folder's own path is accepted too (a real process: the resumes above run in
    # the test's)
    resumed = _mjsim("run", "--resume", ".x.partial", "--quiet", cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    _assert_same_tables(tmp_path / "x", uninterrupted)


@pytest.fixture(scope="module")
def small():
    return load_config(CONFIG, ["run.games=300", "run.chunk_hands=48", "run.seed=9"])


def test_a_kill_after_the_last_manifest_only_needs_the_rename(small, tmp_path):
    """Killed between the finished manifest and the rename into place: resuming plays nothing
    and moves the folder into place."""
    whole = runner.run(small, tmp_path / "whole")
    os.replace(whole, partial_path(tmp_path / "x"))
    before = (partial_path(tmp_path / "x") / runner.GAMES).read_bytes()
    done = runner.run(None, tmp_path / "x", resume=True)
    assert (done / runner.GAMES).read_bytes() == before


def test_a_resume_checks_what_it_resumes(small, tmp_path, capsys):
    with pytest.raises(ValueError, match="no interrupted run to resume"):
        runner.run(None, tmp_path / "nothing", resume=True)
    assert not (tmp_path / "nothing").exists()
    partial = partial_path(tmp_path / "x")
    partial.mkdir()
    runner._write_json_atomic(
        runner._manifest(small, None, 0, runner.plan_chunks(small), []) | {"complete": False},
        partial / runner.MANIFEST,
    )
    other = small.with_overrides(["run.seed=10"])
    with pytest.raises(ValueError, match="started with another config"):
        runner.run(other, tmp_path / "x", resume=True)
    assert partial.is_dir()  # an error while resuming keeps what was there
    # stopped between making its building directory and writing the manifest
    begun = partial_path(tmp_path / "y")
    begun.mkdir()
    assert not runner.was_begun(tmp_path / "y") and runner.was_begun(tmp_path / "x")
    with pytest.raises(ValueError, match=r"nothing of that run was played.*afresh without"):
        runner.run(None, tmp_path / "y", resume=True)
    runner.run(small, tmp_path / "y")  # which a fresh run then clears
    assert not begun.exists() and (tmp_path / "y" / runner.GAMES).is_file()


def _interrupted_after(config, folder: Path, chunks: int) -> Path:
    """``config`` run into ``folder``, interrupted (as by Ctrl-C) once ``chunks`` are kept."""

    def interrupt(result: dict) -> None:
        if result["index"] + 1 == chunks:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        runner.run(config, folder, on_chunk=interrupt)
    return partial_path(folder)


def test_a_resume_of_chunks_with_other_columns_is_one_line(small, tmp_path, capsys, monkeypatch):
    """Kept chunks from a version of the code that made other columns: refused before anything
    is played, with the differing column named, and the kept chunks left as they were."""
    import pyarrow.compute as pc

    partial = _interrupted_after(small, tmp_path / "x", 2)
    part = runner._part(partial / runner.PARTS, "wins", 0)
    table = runner._read_part(part)
    table = table.append_column("old_column", pc.multiply(table["points"], 2))
    part.write_bytes(runner._part_bytes(table).to_pybytes())
    before = sorted(path.name for path in (partial / runner.PARTS).iterdir())
    monkeypatch.chdir(tmp_path)
    assert main(["run", "--resume", "x", "--quiet"]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1, error
    assert "kept chunks' wins table has other columns" in error and "old_column" in error, error
    assert sorted(path.name for path in (partial / runner.PARTS).iterdir()) == before
    assert not (tmp_path / "x").exists()
    # the same kept chunks, untouched, resume to the uninterrupted run's tables
    untouched = _interrupted_after(small, tmp_path / "y", 2)
    assert len(runner.kept_chunks(untouched / runner.PARTS)) == 2
    done = runner.run(None, tmp_path / "y", resume=True)
    _assert_same_tables(done, runner.run(small, tmp_path / "whole"))


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--resume", "x", "--games", "5"], "--resume x: --games is not allowed with it"),
        (["--resume", "x", "--set", "bird_count=4"], "--resume x: --set is not allowed with it"),
        ([str(CONFIG), "--resume", "x"], f"--resume x: CONFIG {CONFIG} is not allowed with it"),
        (["--resume", "x"], "--resume x: no interrupted run to resume"),
        ([], "CONFIG: missing; expected a config file"),
    ],
)
def test_bad_resume_arguments_are_one_line_and_exit_2(argv, message, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["run", *argv, "--quiet"]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and message in error, error
    assert list(tmp_path.iterdir()) == []


# --------------------------------------------------------------------------- sweeps

SWEEP = f"""\
base = "{CONFIG.as_posix()}"
[run]
games = 6000
chunk_hands = 200
seed = 4
[axes]
king_mode = ["seven_kings", "four_kings"]
bird_count = [2, 4]
"""
SWEEP_CELLS = ["seven_kings-2", "seven_kings-4", "four_kings-2", "four_kings-4"]


def _finished_cells(cells: Path) -> list[Path]:
    return [cell for cell in cells.glob("*") if (cell / runner.MANIFEST).is_file()]


@pytest.mark.slow  # two sweeps each, one SIGKILLed: 20 s a case
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_sigkilled_sweep_resumes_to_the_same_tables(tmp_path, jobs, capsys, monkeypatch):
    """Killed in the middle: with one job, in the second cell (the first finished, the second
    with some chunks); with two, cells of one chunk play side by side in workers, killed once
    one of them is finished."""
    grid = SWEEP if jobs == "1" else SWEEP.replace("chunk_hands = 200", "chunk_hands = 8000")
    (tmp_path / "grid.toml").write_text(grid, encoding="utf-8")
    monkeypatch.chdir(tmp_path)  # the uninterrupted sweep and the resume run in this process
    assert mjsim(capsys, "sweep", "grid.toml", "--out", "whole", "--quiet").returncode == 0
    command = ["sweep", "grid.toml", "--out", "x", "--quiet", "--jobs", jobs]
    process = subprocess.Popen(
        [sys.executable, "-m", "sim.cli", *command],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
        start_new_session=True,
    )
    partial = partial_path(tmp_path / "x")
    try:
        if jobs == "1":
            _wait_for_chunks(process, partial / "cells" / ".seven_kings-4.partial" / "parts", 2)
        else:
            deadline = time.monotonic() + 240
            while not _finished_cells(partial / "cells"):
                assert process.poll() is None, process.communicate()
                assert time.monotonic() < deadline, "no cell ever finished"
                time.sleep(0.01)
        process.kill()
        process.wait(timeout=30)
    finally:
        process.kill()
        process.communicate()
    assert 1 <= len(_finished_cells(partial / "cells")) < 4
    assert json.loads((partial / "sweep.json").read_text())["complete"] is False
    assert not (tmp_path / "x").exists()
    # a cell killed between making its building directory and writing its manifest (a
    # window of milliseconds, as a worker starts it) is played afresh, not "resumed"
    unbegun = partial / "cells" / ".four_kings-4.partial"
    if not unbegun.exists():
        unbegun.mkdir()
    resumed = mjsim(capsys, "sweep", "--resume", "x", "--quiet", "--jobs", jobs)
    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stdout.startswith("grid: 4 cells × 6,000 hands")
    for cell in SWEEP_CELLS:
        _assert_same_tables(tmp_path / "x" / "cells" / cell, tmp_path / "whole" / "cells" / cell)
    for name in ("comparison.csv", "significance.csv"):
        assert (tmp_path / "x" / name).read_bytes() == (tmp_path / "whole" / name).read_bytes()
    assert json.loads((tmp_path / "x" / "sweep.json").read_text())["complete"] is True
    assert not partial.exists()


def test_ctrl_c_in_a_sweep_says_how_to_resume_it(tmp_path):
    (tmp_path / "grid.toml").write_text(SWEEP, encoding="utf-8")
    process = subprocess.Popen(
        [sys.executable, "-m", "sim.cli", "sweep", "grid.toml", "--out", "x", "--quiet"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
        start_new_session=True,
    )
    partial = partial_path(tmp_path / "x")
    try:
        _wait_for_chunks(process, partial / "cells" / ".seven_kings-4.partial" / "parts", 1)
        os.killpg(process.pid, signal.SIGINT)
        _, stderr = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == 130, stderr
    assert stderr.count("\n") == 1, stderr
    assert stderr.rstrip().endswith("finish the sweep with: mjsim sweep --resume x"), stderr
    assert (partial / "cells" / "seven_kings-2" / runner.MANIFEST).is_file()
    resumed = _mjsim("sweep", "--resume", "x", "--quiet", cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    assert sorted(p.name for p in (tmp_path / "x" / "cells").iterdir()) == sorted(SWEEP_CELLS)
