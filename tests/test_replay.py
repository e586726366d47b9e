"""Replays: the same wall, options and dealer give the same hand, logged move by move."""

from __future__ import annotations

import numpy as np

from sim import replay
from sim.kernels import engine as E
from sim.kernels import state as S
from sim.tables import load_tables
from sim.variants.anhua import AnhuaOptions
from sim.variants.anhua import engine as AE
from sim.wall import shuffled_walls


def test_replay_reproduces_the_bulk_records_and_logs_every_move():
    options = AnhuaOptions()
    walls = shuffled_walls(40, 108, 77)
    records = np.zeros((40, E.N_RECORD), np.int64)
    AE.play_hands(
        S.new_state(),
        walls,
        4,
        np.zeros(5, np.int64),
        8,
        options.params(),
        load_tables(),
        records,
    )
    kinds_seen = set()
    for game in range(40):
        record, events = replay.replay_anhua(walls, game, options)
        np.testing.assert_array_equal(record, records[game])
        draws = (events[:, 0] == S.EVENT_DRAW).sum()
        assert draws + record[E.R_TILES_LEFT] + 53 + 1 + record[E.R_N_BIRDS] <= 108
        assert draws == record[E.R_TURNS]
        paid = np.zeros(4, np.int64)
        for _, seat, receiver, amount in events[events[:, 0] == S.EVENT_PAY]:
            paid[seat] -= amount
            paid[receiver] += amount
        np.testing.assert_array_equal(paid, record[E.R_DELTA : E.R_DELTA + 4])
        lines = replay.describe(events, record, 4)
        assert lines[-1].startswith("result:")
        kinds_seen.update(int(e) for e in events[:, 0])
    assert {S.EVENT_DRAW, S.EVENT_DISCARD, S.EVENT_WIN, S.EVENT_PAY} <= kinds_seen


def test_replay_names_the_game_range():
    walls = shuffled_walls(3, 108, 1)
    try:
        replay.replay_anhua(walls, 3)
    except ValueError as error:
        assert "game must be 0-2" in str(error)
    else:
        raise AssertionError("no error for a game out of range")
