"""``mjsim ARGV`` run by ``sim.cli.main`` in the test's own process, its result shaped like
``subprocess.run``'s: for tests of what a command does (its output, its refusals, the files it
leaves), where a process of its own would only add the seconds of starting Python and loading
numba's cache. Each command keeps at least one test that starts a real ``python -m sim.cli``."""

from __future__ import annotations

import subprocess

from sim.cli import main


def mjsim(capsys, *argv: str) -> subprocess.CompletedProcess:
    """Run ``mjsim ARGV`` from the current folder; argparse's exit (a bad flag) gives its
    status as the process's would. ``capsys`` is pytest's fixture; what was printed before
    is dropped."""
    capsys.readouterr()
    try:
        returncode = main(list(argv))
    except SystemExit as stop:  # argparse: --help, or a bad flag (one line, status 2)
        returncode = stop.code if isinstance(stop.code, int) else 1
    printed = capsys.readouterr()
    return subprocess.CompletedProcess(list(argv), returncode, printed.out, printed.err)
