"""``mjsim report DIR --out OUT``: the report goes to a folder of its own, made as every output
directory is (``sim.running.outdir.output_directory``: nothing half-made, a non-empty folder
that is not a report refused), and the run or sweep directory is only read, also on a read-only
file system; a bad ``--out`` is one line and exit status 2. The examples of ``--help`` run as
written."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from cli_in_process import mjsim
from report_pages import Page, write_run, write_sweep

from sim.variants.anhua import AnhuaOptions
from sim.variants.anhua.play import play_anhua

ROOT = Path(__file__).resolve().parent.parent


def _snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    """Every file under ``folder`` (hidden ones too): its bytes and modification time."""
    return {
        str(path.relative_to(folder)): (path.read_bytes(), path.stat().st_mtime_ns)
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


@pytest.fixture(scope="module")
def frames():
    options = AnhuaOptions(bird_count=4)
    return (*play_anhua(300, seed=3, options=options), options)


@pytest.fixture
def played(tmp_path, frames):
    """A run directory in a folder of its own, ``tmp_path/share/run``."""
    games, wins, options = frames
    directory = tmp_path / "share" / "run"
    write_run(directory, games, wins, options, 3, "out test")
    return directory


@pytest.fixture
def folder(tmp_path):
    """A folder named as a run, ``tmp_path/share/run``, whose files are no run's: what a refused
    ``--out`` or a damaged run needs, without playing an engine."""
    directory = tmp_path / "share" / "run"
    directory.mkdir(parents=True)
    (directory / "manifest.json").write_text('{"variant": "anhua"}')
    for name in ("games.parquet", "wins.parquet"):
        (directory / name).write_bytes(b"PAR1 not parquet")
    return directory


def _one_line_error(result) -> str:
    assert result.returncode == 2, result
    assert result.stdout == "" and result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith("mjsim: error: ")
    return result.stderr


@pytest.mark.engine
def test_out_writes_the_report_there_and_only_reads_the_run(played, tmp_path, capsys):
    before = _snapshot(played.parent)
    out = tmp_path / "reports" / "x"
    result = mjsim(capsys, "report", str(played), "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str(out / "report.html")
    assert _snapshot(played.parent) == before  # not a byte, not a lock file
    names = sorted(str(p.relative_to(out)) for p in out.rglob("*"))
    figures = [n for n in names if n.startswith("figures/")]
    assert names == ["figures", *figures, "report.html", "report.json"] and figures
    marker = json.loads((out / "report.json").read_text())
    assert marker["report"] == "report.html" and marker["of"] == str(played.resolve())
    assert sorted(p.name for p in out.parent.iterdir()) == ["x"]  # no debris, no lock left
    page = Page((out / "report.html").read_text(encoding="utf-8"))
    assert sorted(i["data-file"] for i in page.images) == figures
    # the page is the one written into the run directory, figures and all
    assert mjsim(capsys, "report", str(played)).returncode == 0
    assert (played / "report.html").read_bytes() == (out / "report.html").read_bytes()
    for name in figures:
        assert (played / name).read_bytes() == (out / name).read_bytes()


@pytest.mark.engine
def test_out_replaces_a_report_written_there_before(played, tmp_path, capsys):
    out = tmp_path / "report"
    assert mjsim(capsys, "report", str(played), "--out", str(out)).returncode == 0
    (out / "figures" / "stale.png").write_bytes(b"old")
    assert mjsim(capsys, "report", str(played), "--out", str(out)).returncode == 0
    assert not (out / "figures" / "stale.png").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report", "share"]


@pytest.fixture
def read_only_run(played, tmp_path):
    """The run on a read-only file system: a read-only bind mount of its folder where this
    process may mount (root ignores permissions), else the folders chmod'ed read-only."""
    share = played.parent
    view = tmp_path / "ro"
    view.mkdir()
    mounted = subprocess.run(["mount", "--bind", str(share), str(view)], capture_output=True)
    if mounted.returncode == 0:
        remounted = subprocess.run(
            ["mount", "-o", "remount,bind,ro", str(view)], capture_output=True
        )
        if remounted.returncode == 0:
            yield view / played.name
        subprocess.run(["umount", "-l", str(view)], check=False)
        if remounted.returncode != 0:
            pytest.skip("cannot remount read-only here")
        return
    if os.geteuid() == 0:
        pytest.skip("root ignores permissions and cannot mount here")
    for folder in (played, share):
        folder.chmod(0o555)
    yield played
    for folder in (share, played):
        folder.chmod(0o755)


@pytest.mark.engine
def test_a_read_only_run_gets_its_report_with_out(read_only_run, tmp_path, capsys):
    before = _snapshot(read_only_run.parent)
    refused = mjsim(capsys, "report", str(read_only_run))
    assert "Read-only file system" in _one_line_error(refused) or "denied" in refused.stderr
    out = tmp_path / "report"
    result = mjsim(capsys, "report", str(read_only_run), "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert (out / "report.html").is_file() and (out / "figures").is_dir()
    assert _snapshot(read_only_run.parent) == before


@pytest.mark.engine
@pytest.mark.parametrize(
    "kind", ["not a report", "a file", "the run itself", "the current folder", "empty"]
)
def test_a_bad_out_is_one_line_and_writes_nothing(folder, tmp_path, capsys, kind, monkeypatch):
    monkeypatch.chdir(tmp_path)
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    (tmp_path / "file").write_text("a file")
    out = {
        "not a report": str(other),
        "a file": str(tmp_path / "file"),
        "the run itself": str(folder),
        "the current folder": ".",
        "empty": "",
    }[kind]
    before = _snapshot(tmp_path)
    message = _one_line_error(mjsim(capsys, "report", str(folder), "--out", out))
    assert "--out" in message
    assert _snapshot(tmp_path) == before


@pytest.mark.engine
def test_a_failed_report_leaves_nothing_at_out(folder, tmp_path, capsys):
    out = tmp_path / "new" / "report"
    assert str(folder) in _one_line_error(mjsim(capsys, "report", str(folder), "--out", str(out)))
    assert not (tmp_path / "new").exists()
    assert sorted(p.name for p in folder.parent.iterdir()) == ["run"]  # no lock file left


@pytest.mark.engine
def test_an_out_that_cannot_be_written_is_one_line(played, tmp_path, capsys, read_only_run):
    message = _one_line_error(
        mjsim(capsys, "report", str(played), "--out", str(read_only_run.parent / "report"))
    )
    assert "Read-only file system" in message or "Permission denied" in message


@pytest.mark.engine
@pytest.mark.engine
def test_a_sweep_report_with_out_keeps_the_cells_paths(tmp_path, capsys):
    root = tmp_path / "birds"
    write_sweep(root, 150)
    before = _snapshot(root)
    out = tmp_path / "report"
    assert mjsim(capsys, "report", str(root), "--out", str(out)).returncode == 0
    assert _snapshot(root) == before
    page = Page((out / "report.html").read_text(encoding="utf-8"))
    cells = [link for link in page.links if link.startswith("cells/")]
    assert sorted(set(cells)) == ["cells/birds-1/report.html", "cells/birds-4/report.html"]
    for link in set(cells):
        cell = Page((out / link).read_text(encoding="utf-8"))
        assert "../../report.html" in cell.links
        assert all((out / link).parent.joinpath(i["data-file"]).is_file() for i in cell.images)


def _help_examples(capsys) -> list[list[str]]:
    help_text = mjsim(capsys, "report", "--help").stdout
    lines = help_text.split("examples", 1)[1].splitlines()[1:]
    return [line.split()[1:] for line in lines if line.startswith("  mjsim ")]


def test_help_names_out_with_examples(capsys):
    help_text = mjsim(capsys, "report", "--help").stdout
    assert "--out OUT" in help_text and "read-only" in help_text
    examples = _help_examples(capsys)
    assert any("--out" in example for example in examples)
    assert any("--baseline" in example for example in examples)
    for example in examples:  # every file an example names is in the repository
        for word in example:
            if word.endswith(".toml"):
                assert (ROOT / word).is_file(), word


@pytest.mark.engine
def test_the_examples_of_the_help_run_as_written(tmp_path, capsys, monkeypatch):
    """From a folder holding the repository's configs, the examples in their order."""
    shutil.copytree(ROOT / "configs", tmp_path / "configs")
    monkeypatch.chdir(tmp_path)
    examples = _help_examples(capsys)
    assert len(examples) >= 4
    for example in examples:
        result = mjsim(capsys, *example)
        assert result.returncode == 0, (example, result.stderr)
        if example[0] == "report":
            assert Path(result.stdout.strip()).is_file()
