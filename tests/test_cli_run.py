"""``mjsim run``: the summary reports what the tables hold; bad input exits 2 with no output."""

from __future__ import annotations

import re
import subprocess
import sys

import pandas as pd
import pytest
from cli_in_process import mjsim

from sim.cli import COMMAND_MODULES, build_parser, main


def _wilson_text(hits: int, trials: int) -> str:
    from sim.analysis import wilson_interval

    low, high = wilson_interval(hits, trials)
    return f"{100 * hits / trials:.2f}% [{100 * float(low):.2f}, {100 * float(high):.2f}]"


def test_run_writes_tables_and_a_summary_of_them(tmp_path, capsys):
    out = tmp_path / "run"
    status = main(
        [
            "run",
            "configs/anhua-four-kings.toml",
            "--games",
            "800",
            "--seed",
            "4",
            "--out",
            str(out),
            "--set",
            "run.chunk_hands=400",
            "--quiet",
        ]
    )
    assert status == 0
    text = capsys.readouterr().out
    games = pd.read_parquet(out / "games.parquet")
    wins = pd.read_parquet(out / "wins.parquet")
    assert len(games) == 800
    assert "anhua-four-kings: 800 hands" in text
    draws = int((games["outcome"] == "draw").sum())
    assert f"exhaustive draws (荒庄)  {_wilson_text(draws, 800)}" in text
    dealer_wins = int(
        sum(
            (wins["game"] == game) & (wins["seat"] == dealer)
            for game, dealer in zip(games["game"], games["dealer"], strict=True)
        ).sum()
    )
    assert f"dealer wins             {_wilson_text(dealer_wins, 800)}" in text
    top = wins["pattern"].value_counts().index[0]
    hands_with_top = wins.loc[wins["pattern"] == top, "game"].nunique()
    assert re.search(rf"{top}\s+{re.escape(_wilson_text(hands_with_top, 800))}", text)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["run", "configs/nope.toml"], "no such config file"),
        (["run", "configs/anhua-seven-kings.toml", "--set", "bird_count=3"], "bird_count"),
        (["run", "configs/anhua-seven-kings.toml", "--games", "0"], "run.games"),
        (["run", "configs/anhua-seven-kings.toml", "--jobs", "0"], "jobs"),
    ],
)
def test_bad_input_exits_2_with_one_line_and_no_output(tmp_path, argv, message, capsys):
    out = tmp_path / "out"
    result = mjsim(capsys, *argv, "--out", str(out))
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and message in result.stderr
    assert not out.exists() and list(tmp_path.iterdir()) == []


def _commands(parser) -> set[str]:
    return set(parser._subparsers._group_actions[0].choices)


def test_a_command_line_imports_only_the_command_it_runs():
    assert _commands(build_parser("run")) == {"run"}
    assert _commands(build_parser()) >= set(COMMAND_MODULES) | {"demo", "deal"}
    code = "import sys; from sim.cli import main; main(['run', '--help'])"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert "usage: mjsim run" in result.stdout
    commands = [f"sim.cli.{name}" for name in COMMAND_MODULES]
    code = (
        "import sys; from sim.cli import build_parser; build_parser('run'); "
        f"print(sorted(m for m in sys.modules if m in {commands!r}))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stdout.strip() == "['sim.cli.run']"  # a helper such as sim.cli.text may come


def test_the_command_line_process_prints_what_main_prints(tmp_path, capsys):
    """``python -m sim.cli`` (collector paused for the imports, objects frozen at the end) and
    ``main(argv)`` in this process: the same summary of the same tables."""
    argv = ["run", "configs/anhua-seven-kings.toml", "--games", "300", "--seed", "9", "--quiet"]
    result = subprocess.run(
        [sys.executable, "-m", "sim.cli", *argv, "--out", str(tmp_path / "a")],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    assert main([*argv, "--out", str(tmp_path / "b")]) == 0
    printed = capsys.readouterr().out

    def summary(text: str, out: str) -> list[str]:
        return text.replace(str(tmp_path / out), "OUT").splitlines()[1:]

    assert summary(result.stdout, "a") == summary(printed, "b")
    for name in ("games.parquet", "wins.parquet"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()


def test_jobs_1_and_jobs_2_write_the_same_bytes(tmp_path):
    """Determinism: the command line's --jobs changes who plays the chunks, never the
    tables."""
    written = {}
    for jobs in ("1", "2"):
        out = tmp_path / f"jobs{jobs}"
        argv = ["run", "configs/anhua-four-kings.toml", "--games", "300", "--seed", "5"]
        argv += ["--set", "run.chunk_hands=64", "--jobs", jobs, "--out", str(out), "--quiet"]
        assert main(argv) == 0
        written[jobs] = [(out / name).read_bytes() for name in ("games.parquet", "wins.parquet")]
    assert written["1"] == written["2"]


@pytest.mark.parametrize(
    "config", ["configs/anhua-seven-kings.toml", "configs/wengan-3p.toml", "configs/anqing.toml"]
)
def test_the_summary_from_the_tables_kept_equals_the_summary_of_the_files(
    config, tmp_path, capsys, monkeypatch
):
    """``mjsim run`` summarises the tables as it wrote them (``SummaryTables``), without
    reading the files back: the same lines as the summary of the run directory."""
    import sim.analysis
    from sim.cli.run import summary_lines

    out = tmp_path / "run"
    argv = ["run", config, "--games", "600", "--out", str(out), "--quiet"]
    argv += ["--set", "run.chunk_hands=200", "--set", "run.hands_per_session=4"]

    def not_read(*args, **kwargs):
        raise AssertionError("the summary read the files back")

    with monkeypatch.context() as patched:
        for name in ("load_run", "open_run"):
            patched.setattr(sim.analysis, name, not_read)
        result = mjsim(capsys, *argv)
    assert result.returncode == 0, result.stderr
    printed = result.stdout.splitlines()
    assert printed[2:-1] == summary_lines(out)  # between the header lines and the tables line
    assert "exhaustive draws" in printed[2] and "score per seat" in printed[-2]
