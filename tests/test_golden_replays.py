"""Golden replays: a few committed hands per variant, chosen for their special moves, replayed
as text and JSON Lines and compared exactly with ``tests/golden/<variant>/``. A change of the
engine's behaviour shows here and, once the files are made again, as a diff in review."""

from __future__ import annotations

import difflib
import importlib.util
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "make_golden_replays.py"


def _script():
    spec = importlib.util.spec_from_file_location("make_golden_replays", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up while made
    spec.loader.exec_module(module)
    return module


MAKE = _script()
LISTED = [(variant, entry) for variant in MAKE.WANTED for entry in MAKE.hands_list(variant)]


def test_every_wanted_move_has_a_listed_hand():
    for variant, wanted in MAKE.WANTED.items():
        assert [entry["name"] for entry in MAKE.hands_list(variant)] == [w.name for w in wanted]


@pytest.mark.parametrize(
    ("variant", "entry"), LISTED, ids=[f"{variant}-{entry['name']}" for variant, entry in LISTED]
)
def test_golden_replay_is_unchanged(variant, entry):
    folder = MAKE.GOLDEN / variant
    for name, text in MAKE.golden_outputs(entry).items():
        stored = (folder / name).read_text(encoding="utf-8")
        if text != stored:
            diff = "".join(
                difflib.unified_diff(
                    stored.splitlines(keepends=True),
                    text.splitlines(keepends=True),
                    f"tests/golden/{variant}/{name} (committed)",
                    f"{name} (replayed now)",
                    n=2,
                )
            )
            pytest.fail(
                f"the replay of {entry['name']} ({entry['covers']}) changed:\n{diff}\n"
                "If the change is intended, run `python scripts/make_golden_replays.py` and review "
                "`git diff tests/golden` (with `--scan` when the hand no longer shows its move).",
                pytrace=False,
            )


@pytest.mark.parametrize(
    ("variant", "entry"), LISTED, ids=[f"{variant}-{entry['name']}" for variant, entry in LISTED]
)
def test_golden_hand_still_shows_its_move(variant, entry):
    """The stored JSON of each golden still shows the move it was chosen for."""
    shows = next(w.shows for w in MAKE.WANTED[variant] if w.name == entry["name"])
    stored = (MAKE.GOLDEN / variant / f"{entry['name']}.jsonl").read_text(encoding="utf-8")
    assert shows([json.loads(line) for line in stored.splitlines()]), entry["covers"]
