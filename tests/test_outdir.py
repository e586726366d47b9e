"""sim.running.outdir: output directories that delete only what the run made, one writer per
directory, nothing half-made; the dangerous labels and ``--out`` paths of the CLI refused with exit
2 while every file beside them stays."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_in_process import mjsim

from sim.running import outdir
from sim.running.outdir import RUN, SWEEP, TargetBusy, output_directory, plain_name, resolve_target

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "configs" / "anhua-seven-kings.toml"


def _tree(folder: Path) -> dict[str, bytes | None]:
    """Every path below ``folder`` with its bytes (None for folders), symlinks not followed."""
    found = {}
    for path in sorted(folder.rglob("*")):
        relative = str(path.relative_to(folder))
        found[relative] = path.read_bytes() if path.is_file() and not path.is_symlink() else None
    return found


@pytest.fixture
def home(tmp_path, monkeypatch):
    """A working directory like a user's project, inside a parent that holds files too:
    ``parent/precious.txt``, ``parent/work/{.git/HEAD, notes.txt, data/}``."""
    parent = tmp_path / "parent"
    work = parent / "work"
    (work / ".git").mkdir(parents=True)
    (work / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (work / "notes.txt").write_text("precious notes")
    (work / "data").mkdir()
    (work / "data" / "table.csv").write_text("a,b\n1,2\n")
    (parent / "precious.txt").write_text("do not delete")
    monkeypatch.chdir(work)
    return work


def _finished_run(folder: Path, marker: str = "manifest.json", text: str = "old") -> Path:
    folder.mkdir(parents=True)
    (folder / marker).write_text(json.dumps({"label": text}))
    (folder / "games.parquet").write_text(text)
    return folder


# --------------------------------------------------------------------------- names and targets


@pytest.mark.parametrize("label", [".", "..", "", "  ", "a/b", "/tmp/x", "a\\b", " x", "x\0"])
def test_a_label_must_be_a_plain_name(label):
    with pytest.raises(ValueError, match=r"^label: .* plain folder name"):
        plain_name(label)


@pytest.mark.parametrize("label", ["anhua-seven-kings", "four kings 4 birds", "v1.2", ".hidden"])
def test_plain_names_pass(label):
    assert plain_name(label) == label


DANGEROUS_OUTS = [
    (".", "is the current directory"),
    ("..", "is a parent of the current directory"),
    ("new/..", "is the current directory"),
    ("new/../..", "is a parent of the current directory"),
    ("data", "exists and is not a finished"),
]
"""``--out`` values the ``home`` fixture's folders make dangerous, with the refusal's words."""


@pytest.mark.parametrize(
    ("out", "message"),
    [
        *DANGEROUS_OUTS,
        ("runs", "is the runs folder itself"),
        ("notes.txt", "exists and is not a directory"),
        ("/", "is a parent of the current directory"),
    ],
)
def test_dangerous_targets_are_refused_before_anything_is_made(home, out, message):
    before = _tree(home.parent)
    with pytest.raises(ValueError, match=message), output_directory(out, RUN):
        raise AssertionError("never reached")
    assert _tree(home.parent) == before


def test_a_symlink_is_judged_by_what_it_points_to(home):
    (home / "link-to-data").symlink_to(home / "data")
    (home / "dangling").symlink_to(home / "nowhere")
    with pytest.raises(ValueError, match="exists and is not a finished run directory"):
        resolve_target("link-to-data", RUN)
    with pytest.raises(ValueError, match="symlink to nothing"):
        resolve_target("dangling", RUN)
    _finished_run(home / "real-run")
    (home / "link-to-run").symlink_to(home / "real-run")
    assert resolve_target("link-to-run", RUN) == home / "real-run"


def test_a_finished_run_of_another_kind_is_not_replaced(home):
    _finished_run(home / "a-run")
    with pytest.raises(ValueError, match="not a finished sweep directory"):
        resolve_target("a-run", SWEEP)
    with pytest.raises(ValueError, match="holds a finished run already"):
        resolve_target("a-run", RUN, replace=False)
    (home / "broken").mkdir()
    (home / "broken" / "manifest.json").write_text("not json")
    (home / "broken" / "games.parquet").write_text("x")
    with pytest.raises(ValueError, match="not a finished run directory"):
        resolve_target("broken", RUN)


def test_an_absolute_target_and_an_empty_folder_are_fine(home, tmp_path):
    elsewhere = tmp_path / "elsewhere" / "deep" / "run"
    with output_directory(elsewhere, RUN) as building:
        (building / "manifest.json").write_text("{}")
    assert (elsewhere / "manifest.json").exists()
    (home / "empty").mkdir()
    with output_directory("empty", RUN) as building:
        (building / "manifest.json").write_text("{}")
    assert (home / "empty" / "manifest.json").exists()


# --------------------------------------------------------------------------- replacing, errors


def test_an_earlier_run_is_replaced_only_once_the_new_one_is_in_place(home):
    old = _finished_run(home / "runs" / "x")
    with output_directory("runs/x", RUN) as building:
        assert (old / "games.parquet").read_text() == "old"  # untouched while building
        (building / "manifest.json").write_text("{}")
        (building / "games.parquet").write_text("new")
    assert (old / "games.parquet").read_text() == "new"
    assert sorted(p.name for p in (home / "runs").iterdir()) == ["x"]  # no lock, no debris


def test_an_error_or_interrupt_leaves_the_earlier_run_and_nothing_else(home):
    _finished_run(home / "runs" / "x")
    before = _tree(home.parent)
    for error in (RuntimeError("engine"), KeyboardInterrupt()):
        with pytest.raises(type(error)), output_directory("runs/x", RUN) as building:
            (building / "games.parquet").write_text("half")
            raise error
        assert _tree(home.parent) == before


def test_a_second_writer_of_one_target_refuses_at_once(home):
    busy = rf"is being written by another mjsim \(pid {os.getpid()}"
    with output_directory("runs/x", RUN):
        with pytest.raises(TargetBusy, match=busy), output_directory("runs/x", RUN):
            raise AssertionError("never reached")
        with output_directory("runs/y", RUN) as other:  # another target is free
            (other / "manifest.json").write_text("{}")
    with output_directory("runs/x", RUN) as building:  # free again once the first is done
        (building / "manifest.json").write_text("{}")


def test_the_next_writer_removes_what_a_killed_one_left(home, capsys):
    runs = home / "runs"
    for name in (".x.building-4242", ".x.old-77"):
        (runs / name / "parts").mkdir(parents=True)
        (runs / name / "parts" / "games-00000.parquet").write_text("half")
    (runs / ".xy.building-5").mkdir()  # debris of another target: not ours to remove
    (runs / ".x.building-1.building-5").mkdir()  # the target 'x.building-1', not 'x'
    with output_directory("runs/x", RUN) as building:
        (building / "manifest.json").write_text("{}")
    assert sorted(p.name for p in runs.iterdir()) == [
        ".x.building-1.building-5",
        ".xy.building-5",
        "x",
    ]
    assert capsys.readouterr().err.count("left by an interrupted run") == 2


def test_lock_files_of_a_finished_writer_are_gone_and_stale_ones_are_taken_over(home):
    target = home / "runs" / "x"
    target.parent.mkdir()
    (target.parent / ".x.lock").write_text("pid 1: a process that died\n")  # nobody holds it
    with output_directory(target, RUN) as building:
        (building / "manifest.json").write_text("{}")
    assert not (target.parent / ".x.lock").exists()


# --------------------------------------------------------------------------- the CLI


def _mjsim(*argv: str, cwd: Path, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "sim.cli", *argv],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=300,
        **kwargs,
    )


@pytest.mark.parametrize("label", [".", "..", "a/b", "/tmp/mjsim-label"])
def test_cli_refuses_dangerous_labels_and_keeps_every_file(home, label, capsys):
    before = _tree(home.parent)
    argv = ("run", str(CONFIG), "--games", "8", "--set", f"label={label}")
    result = mjsim(capsys, *argv)
    assert result.returncode == 2, result.stderr
    assert result.stdout == "" and result.stderr.count("\n") == 1
    assert "label:" in result.stderr and "plain folder name" in result.stderr
    assert _tree(home.parent) == before


def test_cli_refuses_a_dangerous_label_written_in_the_config(home, capsys):
    config = home / "mine.toml"
    config.write_text(
        CONFIG.read_text(encoding="utf-8").replace('label = "anhua-seven-kings"', 'label = ".."'),
        encoding="utf-8",
    )
    before = _tree(home.parent)
    result = mjsim(capsys, "run", str(config), "--games", "8")
    assert result.returncode == 2 and "label: '..' is not allowed" in result.stderr
    assert _tree(home.parent) == before


@pytest.mark.parametrize(
    ("out", "message"), [*DANGEROUS_OUTS, ("link-to-data", "exists and is not a finished")]
)
def test_cli_refuses_dangerous_outs_and_keeps_every_file(home, out, message, capsys):
    (home / "link-to-data").symlink_to(home / "data")
    sweep = _sweep(home)
    before = _tree(home.parent)
    for command in (["run", str(CONFIG), "--games", "8"], ["sweep", str(sweep)]):
        result = mjsim(capsys, *command, "--out", out)
        assert result.returncode == 2, result.stderr
        assert result.stdout == "" and result.stderr.count("\n") == 1
        assert f"--out {out}: {message}" in result.stderr
        assert _tree(home.parent) == before


def test_the_mjsim_process_refuses_a_dangerous_label_and_out(home):
    """The refusals above, made by ``python -m sim.cli`` itself: one line, exit status 2,
    nothing written, for ``run`` and for ``sweep``."""
    sweep = _sweep(home)
    before = _tree(home.parent)
    commands = [
        (["run", str(CONFIG), "--games", "8", "--set", "label=.."], "plain folder name"),
        (["sweep", str(sweep), "--out", ".."], "--out ..: is a parent of the current"),
    ]
    for command, message in commands:
        result = _mjsim(*command, cwd=home)
        assert result.returncode == 2, result.stderr
        assert result.stdout == "" and result.stderr.count("\n") == 1
        assert message in result.stderr, result.stderr
        assert _tree(home.parent) == before


def _sweep(home: Path) -> Path:
    sweep = home.parent / "tiny-sweep.toml"
    sweep.write_text(
        f'base = "{CONFIG}"\n[run]\ngames = 16\n[axes]\nbird_count = [1, 2]\n',
        encoding="utf-8",
    )
    return sweep


@pytest.mark.engine
def test_cli_run_to_a_new_absolute_folder_works(home, tmp_path):
    out = tmp_path / "results" / "first"
    result = _mjsim(
        "run",
        str(CONFIG),
        "--games",
        "40",
        "--set",
        "run.chunk_hands=20",
        "--quiet",
        "--out",
        str(out),
        cwd=home,
    )
    assert result.returncode == 0, result.stderr
    assert {p.name for p in out.iterdir()} == {"manifest.json", "games.parquet", "wins.parquet"}
    assert sorted(p.name for p in out.parent.iterdir()) == ["first"]  # no lock, no debris
    assert outdir.is_finished(out, RUN)


def test_a_report_is_never_written_into_a_run_being_replaced(home):
    """mjsim report takes the lock a run on that directory holds: a report written while the
    directory is being replaced would land in the old one and vanish with it."""
    from sim.report import write_report

    old = _finished_run(home / "runs" / "x")
    busy = r"^runs/x: is being written by another mjsim"
    with output_directory("runs/x", RUN):
        with pytest.raises(TargetBusy, match=busy):
            write_report("runs/x")
        assert sorted(p.name for p in old.iterdir()) == ["games.parquet", "manifest.json"]
