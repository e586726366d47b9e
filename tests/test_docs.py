"""The examples in the docstrings of the public modules run and print what they show."""

from __future__ import annotations

import doctest

import pytest

from sim import hand, play
from sim.core import tiles, wall


@pytest.mark.engine
@pytest.mark.parametrize("module", [tiles, wall, hand, play], ids=lambda m: m.__name__)
def test_docstring_examples(module):
    failures, tried = doctest.testmod(module, verbose=False)
    assert tried > 0, f"{module.__name__} shows no examples"
    assert failures == 0


ROOT = __import__("pathlib").Path(__file__).resolve().parents[1]


def test_readme_links_commands_and_paths_exist():
    """What the README points at is there: linked files, config paths, mjsim commands."""
    import re

    from sim.cli import build_parser

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    for link in re.findall(r"\]\(([^)#]+)\)", text):
        if not link.startswith("http"):
            assert (ROOT / link).exists(), link
    for path in re.findall(r"(configs/[\w./-]+\.toml)", text):
        assert (ROOT / path).exists(), path
    commands = build_parser()._subparsers._group_actions[0].choices
    for command in set(re.findall(r"^mjsim (\w+)", text, re.MULTILINE)):
        assert command in commands, command


def test_ci_runs_the_readme_test_command():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    setup = [line for line in text.splitlines() if line.startswith("python3 -m venv .venv")]
    assert len(setup) == 2  # one runs the main job, one the tests
    assert "mjsim run configs/" in setup[0]
    ci = (ROOT / ".ci" / "run").read_text()
    assert setup[1].split("&& ")[-1].strip() in ci
