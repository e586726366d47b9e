"""``mjsim run``: the summary reports what the tables hold; bad input exits 2 with no output."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from cli_in_process import mjsim

from sim.cli import COMMAND_MODULES, build_parser, main


def _wilson_text(hits: int, trials: int) -> str:
    from sim.analysis import wilson_interval

    low, high = wilson_interval(hits, trials)
    return f"{100 * hits / trials:.2f}% [{100 * float(low):.2f}, {100 * float(high):.2f}]"


@pytest.mark.engine
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


@pytest.mark.engine
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


@pytest.mark.engine
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


@pytest.mark.engine
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


# --------------------------------------------------------------------------- large work


class _Terminal(io.StringIO):
    """A standard input that is a terminal, with the user's answer in it."""

    def isatty(self) -> bool:
        return True


RUN = ["run", "configs/anhua-seven-kings.toml", "--games", "400", "--quiet"]


@pytest.fixture
def small_threshold(monkeypatch):
    """Work of more than 100 hands counts as large (the threshold is declared once, in
    sim.cli.estimate), so that large work plays in a test's time."""
    from sim.cli import estimate

    monkeypatch.setattr(estimate, "ASK_ABOVE_HANDS", 100)
    monkeypatch.setattr(estimate, "SAMPLE_HANDS", 200)


@pytest.mark.parametrize(
    ("argv", "what"),
    [
        (RUN, "this run plays 400 hands"),
        (
            ["sweep", "configs/sweeps/anhua-kings-birds.toml", "--games", "40", "--quiet"],
            "this sweep plays 240 hands",
        ),
        (
            [
                "compare",
                "configs/anhua-seven-kings.toml",
                "--agents",
                "efficiency,random",
                "--deals",
                "40",
                "--quiet",
            ],
            "this comparison plays 160 hands",
        ),
        (
            [
                "tune",
                "configs/anhua-seven-kings.toml",
                "--agent",
                "value",
                "--field",
                "efficiency",
                "--trials",
                "2",
                "--deals",
                "20",
                "--quiet",
            ],
            "this study plays 480 hands",  # 2 trials x 20 walls x 4 seats + 80 held out x 4
        ),
    ],
)
def test_large_work_without_a_terminal_stops_saying_to_add_yes(
    small_threshold, argv, what, tmp_path, capsys, monkeypatch
):
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))  # a script's: no terminal
    result = mjsim(capsys, *argv, "--out", str(tmp_path / "out"))
    assert result.returncode == 2 and result.stdout == "", result.stdout
    assert result.stderr.count("\n") == 1, result.stderr
    assert what in result.stderr and "more than 100" in result.stderr
    assert "add --yes" in result.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.engine
def test_large_work_is_estimated_and_asked_about(small_threshold, tmp_path, capsys, monkeypatch):
    """The estimate (here from a sample measured as 0.1 ms and 30 bytes a hand) and the
    question; an answer other than yes stops with nothing played or written."""
    from sim.cli import estimate

    measured = estimate.Sample(seconds=1e-4, table_bytes=30.0, part_bytes=60.0)
    monkeypatch.setattr(estimate, "sample", lambda config: measured)
    out = tmp_path / "out"
    for answer in ("n\n", "", "whatever\n"):  # no, end of input, anything but yes
        monkeypatch.setattr(sys, "stdin", _Terminal(answer))
        declined = mjsim(capsys, *RUN, "--out", str(out))
        assert declined.returncode == 1 and declined.stdout == ""
        assert "this run: 400 hands, about 12 kB on disk (up to 36 kB while it plays)" in (
            declined.stderr
        )
        assert "about 0 s" in declined.stderr  # 400 hands at 10,000 a second
        assert "(10,000 hands/s in 200 hands played here, times 1 job at once)" in (declined.stderr)
        assert declined.stderr.rstrip().endswith("go on? [y/N] mjsim: stopped; nothing was played")
        assert list(tmp_path.iterdir()) == []
    # a resume finishes what was agreed to: not asked again (here: nothing to resume)
    resumed = mjsim(capsys, "run", "--resume", str(tmp_path / "none"), "--quiet")
    assert "no interrupted run to resume" in resumed.stderr and "go on?" not in resumed.stderr


@pytest.mark.engine
def test_large_work_agreed_to_plays(small_threshold, tmp_path, capsys, monkeypatch):
    out = tmp_path / "out"
    monkeypatch.setattr(sys, "stdin", _Terminal("y\n"))
    agreed = mjsim(capsys, *RUN, "--out", str(out))
    assert agreed.returncode == 0 and "go on? [y/N]" in agreed.stderr
    assert "this run: 400 hands, about" in agreed.stderr
    assert (out / "games.parquet").is_file() and agreed.stdout.startswith("anhua-seven-kings")
    # --yes: the estimate, and no question, also with no terminal
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    scripted = mjsim(capsys, *RUN, "--out", str(tmp_path / "scripted"), "--yes")
    assert scripted.returncode == 0 and "this run: 400 hands" in scripted.stderr
    assert "go on?" not in scripted.stderr


@pytest.mark.engine
def test_small_work_is_not_asked_about(tmp_path, capsys, monkeypatch):
    from sim.cli import estimate

    monkeypatch.setattr(estimate, "ASK_ABOVE_HANDS", 400)  # 400 hands: not more than it
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    result = mjsim(capsys, *RUN, "--out", str(tmp_path / "out"))
    assert result.returncode == 0 and result.stderr == ""


@pytest.mark.engine
def test_the_estimate_is_the_sample_s_speed_and_bytes_per_hand(tmp_path):
    """The disk of the estimate: the sample's tables per hand, close to a longer run's; its
    time: the sample's seconds per hand over the workers playing at once."""
    from sim.cli import estimate
    from sim.running.config import load_config
    from sim.running.runner import run

    config = load_config("configs/anhua-seven-kings.toml", ["run.games=10000"])
    measured = estimate.sample(config, 1000)
    out = run(config, tmp_path / "run", progress=False)
    per_hand = sum((out / name).stat().st_size for name in ("games.parquet", "wins.parquet"))
    assert 0.8 < measured.table_bytes / (per_hand / 10000) < 1.25
    assert measured.part_bytes > measured.table_bytes  # LZ4 parts: larger than Parquet
    assert 1e-6 < measured.seconds < 1e-2  # 100 to a million hands a second

    work = [estimate.Work(config, 10**8, parallel=2)]
    lines = estimate.estimate_lines(work, "this run")
    assert lines[0].startswith("mjsim: this run: 100,000,000 hands, about ")
    assert "times 2 jobs at once" in lines[1]


def test_nothing_in_the_repository_plays_large_work_unasked():
    """Commands in the README, the docs, notebooks, scripts, benchmarks and CI play at most
    ASK_ABOVE_HANDS hands, or say --yes; a benchmark that passes its own --games on says it."""
    from sim.cli.estimate import ASK_ABOVE_HANDS

    root = Path(__file__).resolve().parent.parent
    files = [root / "README.md", root / ".ci" / "run", *sorted((root / "docs").rglob("*.md"))]
    files += sorted((root / "notebooks").glob("*.ipynb"))
    files += sorted((root / "scripts").glob("*.py")) + sorted((root / "benchmarks").glob("*.py"))
    for path in files:
        for line in path.read_text(encoding="utf-8").splitlines():
            for number in re.findall(r"(?:--games|--deals|run\.games=)\s*([\d_]+)", line):
                if int(number.replace("_", "")) > ASK_ABOVE_HANDS:
                    assert "--yes" in line, f"{path.name}: {line.strip()}"
    for path in sorted((root / "benchmarks").glob("*.py")):
        text = path.read_text(encoding="utf-8")
        if '"sim.cli", "run"' in text and '"--games", str(args.games)' in text:
            assert '"--yes"' in text, path.name
    for page in ("README.md", "docs/analysis.md"):  # the threshold the docs say is the one
        assert f"more than {ASK_ABOVE_HANDS:,} hands" in (root / page).read_text(encoding="utf-8")


@pytest.mark.parametrize("command", ["run", "sweep"])
def test_the_help_examples_name_files_that_exist_and_run_as_written(command, capsys):
    """Every example of ``mjsim run --help`` and ``mjsim sweep --help``: its files exist, and
    its arguments pass every check a command makes before it plays (config or sweep file,
    --set, --games, ...)."""
    import shlex

    import sim.cli.run
    import sim.cli.sweep

    root = Path(__file__).resolve().parent.parent
    with pytest.raises(SystemExit):
        main([command, "--help"])
    examples = [
        shlex.split(line.partition("#")[0])
        for line in capsys.readouterr().out.splitlines()
        if line.startswith(f"  mjsim {command} ")
    ]
    assert len(examples) >= 5
    checked = {"run": sim.cli.run._checked, "sweep": sim.cli.sweep._checked}[command]
    for words in examples:
        for word in words:
            if word.startswith("configs/"):
                assert (root / word).is_file(), word
        args = build_parser(command).parse_args(words[1:])
        if args.resume is None:
            checked(args)
