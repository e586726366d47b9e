"""Every example in ``mjsim COMMAND --help`` (the epilogs and the arguments' helps of
``sim/cli/*.py``) names paths that exist in the repository (``configs/``, ``results/``), parses
as written, and, where it is cheap, runs as written from the repository's folders.

An example is what follows "example:", "examples:" or "e.g." in a help text, up to the end of
the line, a ``;``, an "or" or the closing bracket: a whole command (``mjsim replay
configs/anqing.toml --game 17``), the flags of one (``--seed 7``: parsed after the command's
first example) or a path.
The examples of one command run in order in one folder (``configs/`` and ``results/`` linked
there), so a later example may use what an earlier one wrote (a run, then its replay)."""

from __future__ import annotations

import argparse
import re
import shlex
from pathlib import Path

import pytest

from sim.cli import build_parser
from tests.cli_in_process import mjsim

ROOT = Path(__file__).resolve().parents[1]

MARKER = re.compile(r"\b(?:examples?|e\.g\.)\s*:?", re.IGNORECASE)
REPOSITORY_PATH = re.compile(r"(?<![\w/.-])((?:configs|results)/[^\s;,)]*)")
"""A path in the repository an example names (``runs/``, where commands write, is not one)."""

RUNS = {"cache", "hand", "demo", "exact"}
"""Commands whose examples run in the quick run (each under a few seconds, no engine)."""
RUNS_SLOW = {"bench", "deal", "replay"}
"""Commands whose examples run in the whole suite only: they play a variant's engine, or take
about 10 s."""


def _commands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(commands.choices)


def _texts(parser: argparse.ArgumentParser) -> list[str]:
    """The epilog and every argument's help of a command (the description says what it does)."""
    helps = [action.help for action in parser._actions if action.help]
    return [text for text in (parser.epilog, *helps) if text]


def _segments(text: str) -> list[str]:
    """The example segments of one help text: from each marker to the next, split at line ends
    and ``;``, a marker inside brackets only up to the closing one; comments dropped."""
    markers = list(MARKER.finditer(text))
    segments = []
    for at, match in enumerate(markers):
        end = markers[at + 1].start() if at + 1 < len(markers) else len(text)
        rest = text[match.end() : end]
        if text[: match.start()].count("(") > text[: match.start()].count(")"):
            rest = rest.split(")")[0]
        for part in re.split(r";|\n| or ", rest):
            part = part.split("  #")[0].strip().rstrip(".")
            part = re.sub(r"\s*\([^)]*\)$", "", part)  # a remark: "(repeatable)"
            if part.startswith(("mjsim ", "--", "configs/", "results/")):
                segments.append(part)
    return segments


def _examples() -> list[tuple[str, str]]:
    """(command, example segment) of every command's help, in the help's order."""
    found = []
    for name, parser in _commands().items():
        for text in _texts(parser):
            found += [(name, segment) for segment in _segments(text)]
    return found


EXAMPLES = _examples()


def _case(command: str, segment: str):
    return pytest.param(command, segment, id=f"{command}: {segment}")


def _first_command(command: str) -> list[str]:
    """The first whole example of ``command``, as its arguments after ``mjsim``."""
    whole = [shlex.split(s)[1:] for c, s in EXAMPLES if c == command and s.startswith("mjsim ")]
    whole = [argv for argv in whole if argv[0] == command]
    assert whole, f"mjsim {command} --help shows no whole example to add {command}'s flags to"
    return whole[0]


def test_every_command_shows_an_example_of_itself():
    shown = {segment.split()[1] for _, segment in EXAMPLES if segment.startswith("mjsim ")}
    assert shown == set(_commands())


@pytest.mark.parametrize(("command", "segment"), [_case(*example) for example in EXAMPLES])
def test_an_example_names_paths_that_exist(command, segment):
    paths = REPOSITORY_PATH.findall(segment)
    missing = [path for path in paths if not (ROOT / path).exists()]
    assert not missing, f"{segment!r} names {missing}, not in the repository"


ARGUMENTS = [(c, s) for c, s in EXAMPLES if s.startswith(("mjsim ", "--"))]
"""The examples that are a command or its flags (not a path alone)."""


@pytest.mark.parametrize(("command", "segment"), [_case(*example) for example in ARGUMENTS])
def test_an_example_parses(command, segment):
    if segment.startswith("mjsim "):
        argv = shlex.split(segment)[1:]
        assert argv[0] in _commands(), segment
    else:  # flags of the command: after its first whole example
        argv = [*_first_command(command), *shlex.split(segment)]
    build_parser().parse_args(argv)  # a bad example: argparse's SystemExit(2)


def _run_examples(command: str, folder: Path, monkeypatch, capsys) -> None:
    """Run every whole example of ``command`` in order, in ``folder`` (with ``configs/`` and
    ``results/`` of the repository; ``mjsim cache`` on an empty cache root of its own, where
    ``--prune`` removes nothing anyone uses)."""
    for name in ("configs", "results"):
        (folder / name).symlink_to(ROOT / name)
    monkeypatch.chdir(folder)
    if command == "cache":  # only here: the other commands read the evaluator's tables there
        monkeypatch.setenv("MJSIM_CACHE_DIR", str(folder / "cache"))
        monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    whole = [s for c, s in EXAMPLES if c == command and s.startswith("mjsim ")]
    assert whole
    for segment in whole:
        done = mjsim(capsys, *shlex.split(segment)[1:])
        assert done.returncode == 0, (segment, done.stderr)
        assert done.stdout, segment


@pytest.mark.engine
@pytest.mark.parametrize("command", sorted(RUNS))
def test_the_examples_run_as_written(command, tmp_path, monkeypatch, capsys):
    _run_examples(command, tmp_path, monkeypatch, capsys)


@pytest.mark.engine
@pytest.mark.parametrize("command", sorted(RUNS_SLOW))
def test_the_slower_examples_run_as_written(command, tmp_path, monkeypatch, capsys):
    _run_examples(command, tmp_path, monkeypatch, capsys)
