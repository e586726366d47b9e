"""The JSON Lines of replays against their schema (``docs/replay.schema.json``, draft 2020-12):
every line of 300 hands of each shipped config (``configs/*.toml``, mixed agents, small chunks)
validates, each event kind allowing only the fields it declares; the header's 连庄 count is the
games table's ``lian_zhuang`` (Weng'an, Anqing; null for Anhua, which keeps none), the result's
next count the next hand's of the session, and the header's wall the one the hand was dealt."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import jsonschema
import pytest
from replay_runs import SHIPPED, logged_run

SCHEMA_PATH = Path(__file__).resolve().parents[1] / "docs" / "replay.schema.json"


@pytest.fixture(scope="module")
def validator():
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def test_the_schema_declares_every_event_kind_closed(validator):
    """Each event kind's object allows only its declared fields, so a new field must be
    declared; an object of an unknown kind, or with a field more, is rejected."""
    schema = validator.schema
    kinds = schema["properties"]["event"]["enum"]
    assert {branch["if"]["properties"]["event"]["const"] for branch in schema["allOf"]} == set(
        kinds
    )
    for kind in kinds:
        assert schema["$defs"][kind]["additionalProperties"] is False, kind
    draw = {"event": "draw", "seat": 0, "tile": "5s", "source": "wall"}
    assert validator.is_valid(draw)
    assert not validator.is_valid(draw | {"detail": 0})
    assert not validator.is_valid(draw | {"event": "shuffle"})
    assert not validator.is_valid({k: v for k, v in draw.items() if k != "source"})


@pytest.mark.engine
@pytest.mark.parametrize("name", SHIPPED)
def test_every_line_of_every_hand_validates(validator, name):
    config, games, hands = logged_run(name)
    seen = Counter()
    for game, objects in enumerate(hands):
        for obj in objects:
            errors = sorted(validator.iter_errors(obj), key=str)
            assert not errors, (game, obj["event"], errors[0].message)
            seen[obj["event"]] += 1
        header, result = objects[0], objects[-1]
        row = games.loc[game]
        if "lian_zhuang" in games.columns:
            assert header["streak"] == row["lian_zhuang"], game
            follows = game + 1 < len(hands) and games.loc[game + 1, "session"] == row["session"]
            if follows:
                assert result["next_streak"] == games.loc[game + 1, "lian_zhuang"], game
        else:
            assert header["streak"] is None and result["next_streak"] is None
        _check_wall(objects, config.n_players)
        assert result["tiles_left_after_flips"] == row["tiles_left"], game
        assert sum(obj["event"] == "draw" for obj in objects) == row["turns"], game
    assert seen["hand"] == len(hands) and seen["result"] == len(hands)


AFTER_PLAY = ("indicator", "bird")
"""Events that may take a tile from the wall once play has ended (Weng'an's flips, Anhua's
birds)."""


def _check_wall(objects: list[dict], n_players: int) -> None:
    """The header's wall is the one the hand was played from: the deal takes its first tiles,
    the draws from the wall, flips of the head, reveals and birds the next ones in order, the
    replacement draws and flips of the tail its last ones from the end; the result's two counts
    of the tiles left follow (the tiles taken after the win or 荒庄 between them)."""
    wall = objects[0]["wall"]
    dealt = 13 * n_players + 1
    dealt_tiles = Counter(t for o in objects if o["event"] == "deal" for t in _names(o["tiles"]))
    assert dealt_tiles == Counter(wall[:dealt])
    head, tail, after_play, ended = [], [], 0, False
    for obj in objects:
        event = obj["event"]
        if event in ("win", "draw_game"):
            ended = True
        from_tail = obj.get("source") == "replacement" or obj.get("flip") == "tail"
        if event in ("draw", "indicator", "reveal", "bird"):
            (tail if from_tail else head).append(obj["tile"])
            after_play += ended and event in AFTER_PLAY
    assert head == wall[dealt : dealt + len(head)]
    assert tail == wall[::-1][: len(tail)]
    result = objects[-1]
    left = len(wall) - dealt - len(head) - len(tail)
    assert result["tiles_left_after_flips"] == left
    assert result["tiles_left_at_end_of_play"] == left + after_play


def _names(notation: str) -> list[str]:
    """The tiles of hand notation, one name each (``"123m 5p"`` -> 1m 2m 3m 5p)."""
    from sim.core.tiles import kind_name, parse_tiles

    return [kind_name(kind) for kind in parse_tiles(notation)]
