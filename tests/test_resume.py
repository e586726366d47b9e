"""Resume: a run killed at any moment, SIGKILL included, leaves only complete chunk
files and a manifest saying the run is incomplete, in ``.NAME.partial`` beside its folder;
``mjsim run --resume`` finishes it, and the tables equal those of an uninterrupted run byte for
byte. Ctrl-C says how to resume; a fresh run refuses to throw the kept chunks away."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_in_process import mjsim

from sim.cli import main
from sim.running import run_checks, runner
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


@pytest.mark.engine
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


@pytest.mark.engine
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
    given = "" if backend == "threads" else f" --backend {backend}"  # the run's own options
    assert stderr.rstrip().endswith(f"finish the run with: mjsim run --resume x --jobs 2{given}")
    # the hidden folder's own path is accepted too (a real process: the resumes above run in
    # the test's)
    resumed = _mjsim("run", "--resume", ".x.partial", "--quiet", cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    _assert_same_tables(tmp_path / "x", uninterrupted)


@pytest.fixture(scope="module")
def small():
    return load_config(CONFIG, ["run.games=300", "run.chunk_hands=48", "run.seed=9"])


@pytest.mark.engine
def test_a_kill_after_the_last_manifest_only_needs_the_rename(small, tmp_path):
    """Killed between the finished manifest and the rename into place: resuming plays nothing
    and moves the folder into place."""
    whole = runner.run(small, tmp_path / "whole")
    os.replace(whole, partial_path(tmp_path / "x"))
    before = (partial_path(tmp_path / "x") / runner.GAMES).read_bytes()
    done = runner.run(None, tmp_path / "x", resume=True)
    assert (done / runner.GAMES).read_bytes() == before


@pytest.mark.engine
def test_a_resume_checks_what_it_resumes(small, tmp_path, capsys):
    with pytest.raises(ValueError, match="no interrupted run to resume"):
        runner.run(None, tmp_path / "nothing", resume=True)
    assert not (tmp_path / "nothing").exists()
    partial = partial_path(tmp_path / "x")
    partial.mkdir()
    manifest = runner._manifest(small, None, 0, runner.plan_chunks(small), [])
    manifest |= {"complete": False, "resume": "mjsim run --resume x"}
    runner._write_json_atomic(manifest, partial / runner.MANIFEST)
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


@pytest.fixture(scope="module")
def small_whole(small, tmp_path_factory) -> Path:
    return runner.run(small, tmp_path_factory.mktemp("small") / "whole")


def _copy_of_chunk_0(parts: Path) -> None:
    """Chunk 1's games part replaced by chunk 0's: the same columns, other hands."""
    shutil.copy(runner._part(parts, "games", 0), runner._part(parts, "games", 1))


def _truncated(parts: Path) -> None:
    part = runner._part(parts, "wins", 1)
    part.write_bytes(part.read_bytes()[:100])


def _column_added(parts: Path) -> None:
    """A part with a column this mjsim does not make (as another version of the code might),
    its checksum made to agree."""
    import pyarrow.compute as pc

    part = runner._part(parts, "wins", 1)
    table = runner._read_part(part)
    data = runner._part_bytes(table.append_column("old", pc.multiply(table["points"], 2)))
    part.write_bytes(data.to_pybytes())
    marker = json.loads(runner._chunk_done(parts, 1).read_text())
    marker["parts"]["wins"] = run_checks.part_digest(data)
    runner._chunk_done(parts, 1).write_text(json.dumps(marker))


def _marker_edit(**changes):
    def edit(parts: Path) -> None:
        marker = json.loads(runner._chunk_done(parts, 1).read_text())
        for key, value in changes.items():
            if value is None:
                marker.pop(key)
            else:
                marker[key] = value
        runner._chunk_done(parts, 1).write_text(json.dumps(marker))

    return edit


def _marker_not_json(parts: Path) -> None:
    runner._chunk_done(parts, 1).write_text("{")


DAMAGED_PARTS = {
    "another chunk's copy": (_copy_of_chunk_0, "games-00001.arrow"),
    "truncated": (_truncated, "wins-00001.arrow"),
    "a column added": (_column_added, "wins-00001.arrow"),
    "no checksums": (_marker_edit(parts=None), "chunk-00001.json"),
    "another config's": (_marker_edit(config_hash="0" * 64), "chunk-00001.json"),
    "rows miscounted": (_marker_edit(wins=3), "wins-00001.arrow"),
    "not JSON": (_marker_not_json, "chunk-00001.json"),
}


@pytest.mark.parametrize("damage", list(DAMAGED_PARTS))
@pytest.mark.engine
def test_a_damaged_part_is_named_and_its_chunk_played_again(
    small, small_whole, damage, tmp_path, capsys, monkeypatch
):
    """Each kept chunk is checked against its chunk file (checksums, config hash, counts) and
    its chunk (columns, hands, winners) before the run goes on: a damaged one is named in one
    warning line and played again, and the run ends with the uninterrupted run's bytes."""
    partial = _interrupted_after(small, tmp_path / "x", 3)
    damage_parts, named = DAMAGED_PARTS[damage]
    damage_parts(partial / runner.PARTS)
    monkeypatch.chdir(tmp_path)
    resumed = mjsim(capsys, "run", "--resume", "x", "--quiet")
    assert resumed.returncode == 0, resumed.stderr
    warning = f"mjsim: warning: {partial.resolve() / runner.PARTS / named}: "
    assert resumed.stderr.startswith(warning), resumed.stderr
    assert resumed.stderr.count("\n") == 1, resumed.stderr
    assert resumed.stderr.rstrip().endswith("; chunk 1 is played again"), resumed.stderr
    _assert_same_tables(tmp_path / "x", small_whole)
    assert _manifest(tmp_path / "x")["resumed_chunks"] == 2
    assert not partial.exists()


def _manifest(folder: Path) -> dict:
    return json.loads((folder / runner.MANIFEST).read_text())


@pytest.mark.parametrize(
    "edit", [{"options": {"bird_count": 4}}, {"run": {"seed": 10}}, {"variant": "wengan"}]
)
@pytest.mark.engine
def test_a_partial_whose_manifest_was_edited_is_refused(small, edit, tmp_path, capsys, monkeypatch):
    """The partial's manifest states the config its chunks were played with: an edited one
    (its config_hash no longer its config's) is one line naming it, and nothing is played,
    written or removed."""
    partial = _interrupted_after(small, tmp_path / "x", 2)
    manifest = _manifest(partial)
    for key, value in edit.items():
        manifest[key] = {**manifest[key], **value} if isinstance(value, dict) else value
    (partial / runner.MANIFEST).write_text(json.dumps(manifest))
    before = {path: path.read_bytes() for path in partial.rglob("*") if path.is_file()}
    monkeypatch.chdir(tmp_path)
    resumed = mjsim(capsys, "run", "--resume", "x", "--quiet")
    assert resumed.returncode == 2 and resumed.stdout == ""
    assert resumed.stderr.startswith(f"mjsim: error: --resume {partial}: {partial}/manifest.json:")
    assert resumed.stderr.count("\n") == 1, resumed.stderr
    assert {path: path.read_bytes() for path in partial.rglob("*") if path.is_file()} == before
    assert not (tmp_path / "x").exists()


@pytest.mark.engine
def test_a_kept_chunk_file_holds_its_parts_checksums(small, tmp_path):
    partial = _interrupted_after(small, tmp_path / "x", 2)
    parts = partial / runner.PARTS
    for index in (0, 1):
        marker = json.loads(runner._chunk_done(parts, index).read_text())
        assert marker["config_hash"] == small.hash()
        for name in ("games", "wins"):
            found = run_checks.file_digest(runner._part(parts, name, index))
            assert marker["parts"][name] == found


@pytest.mark.engine
def test_nothing_is_moved_into_place_before_the_finished_run_passes_its_checks(
    small, small_whole, tmp_path, monkeypatch
):
    """The finished run is checked as every reader checks it before it takes the target's
    place: here its manifest keeps a wrong checksum, and the target keeps the run it had."""
    target = shutil.copytree(small_whole, tmp_path / "x")
    digests = run_checks.table_digests

    def wrong(folder: Path) -> dict:
        found = digests(folder)
        found["wins"]["sha256"] = "0" * 64
        return found

    monkeypatch.setattr(run_checks, "table_digests", wrong)
    other = small.with_overrides(["run.seed=10"])
    refused = r"wins\.parquet: sha256 \w+, the manifest keeps 0{16}: .* was not moved to "
    with pytest.raises(ValueError, match=refused):
        runner.run(other, target)
    _assert_same_tables(target, small_whole)
    assert _manifest(target)["config_hash"] == small.hash()
    assert not partial_path(target).exists()


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


@pytest.mark.engine
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


# --------------------------------------------------------------------------- what the CLI says


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (["--jobs", "-1"], "finish the run with: mjsim run --resume 'my run' --jobs -1"),
        (["--backend", "processes"], "finish the run with: mjsim run --resume 'my run' --backend "
         "processes"),
    ],
)  # fmt: skip
@pytest.mark.engine
def test_the_ctrl_c_hint_repeats_the_run_s_jobs_and_backend(
    options, said, tmp_path, capsys, monkeypatch
):
    """The command the hint gives after an interrupt plays as the interrupted one did: its
    --jobs and --backend as given, its folder quoted for the shell; and it runs as written."""
    import shlex

    import sim.cli.run

    class Interrupting(sim.cli.run.PlayedHere):
        def __call__(self, result: dict) -> None:
            raise KeyboardInterrupt  # as Ctrl-C once a chunk is kept

    monkeypatch.chdir(tmp_path)
    with monkeypatch.context() as patched:
        patched.setattr(sim.cli.run, "PlayedHere", Interrupting)
        argv = ["run", str(CONFIG), "--games", "96", "--set", "run.chunk_hands=48"]
        stopped = mjsim(capsys, *argv, "--quiet", "--out", "my run", *options)
    assert stopped.returncode == 130, stopped.stderr
    assert stopped.stderr.count("\n") == 1 and stopped.stderr.rstrip().endswith(said)
    command = shlex.split(stopped.stderr.rstrip().rpartition("finish the run with: ")[2])
    assert command[:3] == ["mjsim", "run", "--resume"]
    assert mjsim(capsys, *command[1:], "--quiet").returncode == 0
    assert (tmp_path / "my run" / runner.GAMES).is_file()


def _first_line_numbers(text: str) -> tuple[str, float]:
    import re

    first = text.splitlines()[0]
    return first, float(re.search(r"\(([\d,]+) hands/s", first).group(1).replace(",", ""))


@pytest.mark.engine
def test_a_resumed_run_s_speed_is_of_the_hands_played_in_it(small, tmp_path, capsys):
    """The hands a resume plays over its own playing time: the chunks kept from before count
    in the run's hands, not in its speed."""
    partial = _interrupted_after(small, tmp_path / "x", 2)  # 2 chunks of 48 hands kept
    resumed = mjsim(capsys, "run", "--resume", str(tmp_path / "x"), "--quiet")
    assert resumed.returncode == 0, resumed.stderr
    first, speed = _first_line_numbers(resumed.stdout)
    assert "300 hands, 96 of them kept from before: 204 played in" in first, first
    manifest = json.loads((tmp_path / "x" / runner.MANIFEST).read_text())
    assert manifest["resumed_games"] == 96 and not partial.exists()
    assert speed == round(204 / max(manifest["timings"]["play_seconds"], 1e-3))

    # killed after its last manifest: the resume plays nothing, and shows no speed
    whole = runner.run(small, tmp_path / "whole")
    os.replace(whole, partial_path(tmp_path / "y"))
    tidied = mjsim(capsys, "run", "--resume", str(tmp_path / "y"), "--quiet")
    assert tidied.returncode == 0, tidied.stderr
    first = tidied.stdout.splitlines()[0]
    assert "300 hands, all kept from before: none left to play" in first and "/s" not in first


@pytest.mark.engine
def test_a_resumed_sweep_s_hint_and_speed(tmp_path, capsys, monkeypatch):
    """Interrupted in its second cell: the hint repeats the sweep's --jobs; the resume, played
    as the hint says, counts the first cell's hands as kept, not in its speed."""
    import shlex

    grid = SWEEP.replace('king_mode = ["seven_kings", "four_kings"]\n', "")
    grid = grid.replace("games = 6000", "games = 48").replace("= 200", "= 8")  # 6 chunks
    (tmp_path / "grid.toml").write_text(grid, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    real_run = runner.run

    def second_cell_interrupted(config, target, **kwargs):
        if target.name == "bird_count=4":
            raise KeyboardInterrupt
        return real_run(config, target, **kwargs)

    with monkeypatch.context() as patched:
        patched.setattr(runner, "run", second_cell_interrupted)
        stopped = mjsim(capsys, "sweep", "grid.toml", "--out", "x", "--quiet", "--jobs", "2")
    assert stopped.returncode == 130, stopped.stderr
    said = stopped.stderr.rstrip()
    assert said.endswith("finish the sweep with: mjsim sweep --resume x --jobs 2"), said
    command = shlex.split(said.rpartition("finish the sweep with: ")[2])
    resumed = mjsim(capsys, *command[1:], "--quiet")
    assert resumed.returncode == 0, resumed.stderr
    first = resumed.stdout.splitlines()[0]
    assert first.startswith("grid: 2 cells × 48 hands, 48 hands of them kept from before: 48 "
                            "played in "), first  # fmt: skip
