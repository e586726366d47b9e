"""The mjsim command line: output that reflects the evaluator, one-line errors, exit codes."""

from __future__ import annotations

import subprocess
import sys

import pytest
from cli_in_process import mjsim

from sim.cli import main


def test_demo_prints_every_example(capsys):
    assert main(["demo"]) == 0
    out = capsys.readouterr().out
    assert out.count("complete: yes") == 4
    assert "complete: no" in out  # the 11s pair under the 2-5-8 rule
    assert "waits: 3p" in out
    assert "waits: 123456789m" in out
    assert "[1p 2p *=3p]" in out


def test_hand_reports_waits_and_decompositions(capsys):
    assert main(["hand", "123m 456m 789m 12p 55s 9s*", "--pair", "258"]) == 0
    out = capsys.readouterr().out
    assert "pair 258" in out
    assert "complete: yes" in out
    assert "standard decompositions: 1" in out


def test_thirteen_flag(capsys):
    assert main(["hand", "147m 258p 39s E S W N RD GD", "--thirteen"]) == 0
    assert "thirteen -1" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["hand", "123m 456m 789m 12p 55s", "123m 4x"], "token '4x'"),
        (["hand", "55555m"], "5 copies of 5m"),
        (["hand", ""], "empty hand"),
        (["hand", "123m 456m 789m 123p 456p 789s 11s"], "20 tiles; a hand has at most 14"),
        (["hand", "123m 456m 789m 12p 55s", "111122223333444m"], "'111122223333444m': 15 tiles"),
    ],
)
def test_bad_hand_is_one_line_error_and_no_output(capsys, argv, message):
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert message in captured.err
    assert captured.err.count("\n") == 1


def test_console_script_exit_status():
    result = subprocess.run(
        [sys.executable, "-m", "sim.cli", "hand", "12q"], capture_output=True, text=True
    )
    assert result.returncode == 2
    assert "unknown suit letter 'q'" in result.stderr


@pytest.mark.parametrize("command", ["hand", "demo"])
def test_negative_max_decompositions_is_refused(command, capsys):
    argv = [command, "123m 456m 789m 12p 55s"] if command == "hand" else [command]
    result = mjsim(capsys, *argv, "--max-decompositions", "-1")
    assert result.returncode == 2 and result.stdout == ""
    assert "--max-decompositions: expected a whole number >= 0, got -1" in result.stderr


def test_the_demo_process_refuses_a_negative_max_decompositions():
    """The refusal above made by ``python -m sim.cli demo`` itself (``hand``'s process is
    tested by ``test_console_script_exit_status``)."""
    result = subprocess.run(
        [sys.executable, "-m", "sim.cli", "demo", "--max-decompositions", "-1"],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2 and result.stdout == ""
    assert "--max-decompositions: expected a whole number >= 0, got -1" in result.stderr


ENDING = """
import atexit, os, sys, threading

end_now = os._exit
os._exit = lambda status: (os.write(1, b"ended at once\\n"), end_now(status))
atexit.register(lambda: print("exit handler ran"))  # buffered: shows only if flushed after it
release = threading.Event()
if sys.argv[1] == "with-thread":
    threading.Thread(target=release.wait, args=(60,)).start()  # not a daemon: exit waits for it
from sim.cli import main
sys.argv = ["mjsim", "hand", "12q"]
status = main()
release.set()  # main returned (the thread was running): let the interpreter's exit end it
sys.exit(status)
"""


def test_the_mjsim_process_ends_without_tearing_down_its_modules():
    """``sim.cli.main`` run as the process ends it (``os._exit``) with the command's status once
    the exit handlers have run and the output is flushed, skipping the interpreter's teardown
    (30-60 ms after a run); with a non-daemon thread still running it returns, and the
    interpreter ends the process as usual, waiting for the thread."""
    for case, at_once in (("plain", True), ("with-thread", False)):
        result = subprocess.run(
            [sys.executable, "-c", ENDING, case], capture_output=True, text=True, timeout=60
        )
        assert result.returncode == 2, result.stderr
        assert "unknown suit letter 'q'" in result.stderr
        assert "exit handler ran" in result.stdout
        assert ("ended at once" in result.stdout) == at_once, case
