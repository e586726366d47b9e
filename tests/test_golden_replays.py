"""Golden replays: a few committed hands per variant, chosen for their special moves, replayed
as text and JSON Lines and compared exactly with ``tests/golden/<variant>/``. A change of the
engine's behaviour shows here and, once the files are made again, as a diff in review. Each
stored JSON also validates against ``docs/replay.schema.json`` and settles again, from its lines
alone, by the slow reference to its stored score changes."""

from __future__ import annotations

import difflib
import importlib.util
import json
import sys
from pathlib import Path

import jsonschema
import pytest
from reference import anhua as HA
from reference import anqing as QA
from reference import wengan as W
from reference.from_json import anhua_hand, anqing_hand, wengan_hand_end

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


@pytest.mark.engine
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


def _stored(variant: str, entry: dict) -> list[dict]:
    text = (MAKE.GOLDEN / variant / f"{entry['name']}.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines()]


@pytest.mark.parametrize(
    ("variant", "entry"), LISTED, ids=[f"{variant}-{entry['name']}" for variant, entry in LISTED]
)
def test_golden_json_validates_and_settles_again(variant, entry):
    """Every line of the stored JSON validates against the schema; the reference settlement of
    the hand read from it (``reference/from_json.py``) gives the stored score changes."""
    schema = json.loads((ROOT / "docs" / "replay.schema.json").read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    objects = _stored(variant, entry)
    for obj in objects:
        assert validator.is_valid(obj), (obj["event"], next(validator.iter_errors(obj)).message)
    changes = objects[-1]["score_changes"]
    if variant == "wengan":
        assert list(W.settle(wengan_hand_end(objects)).deltas) == changes
    elif variant == "anqing":
        hand = anqing_hand(objects)
        if hand.end is None:
            assert changes == [0, 0, 0, 0]
        else:
            assert list(QA.settle(hand.end, hand.options).deltas) == changes
    else:
        hand = anhua_hand(objects)
        winners = {o["seat"]: o for o in objects if o["event"] == "winner"}
        paid = [
            (seat, HA.score(won, hand.options).points * winners[seat]["factor"])
            for seat, won in hand.hands
        ]
        settled = (
            HA.settle(hand.n_players, hand.dealer, paid, hand.win_kind, hand.payer, hand.birds,
                      hand.options)
            if paid
            else [0] * hand.n_players
        )  # fmt: skip
        assert settled == changes
