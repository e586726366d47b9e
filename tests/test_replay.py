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
        record, events, final = replay.replay_anhua(walls, game, options)
        np.testing.assert_array_equal(record, records[game])
        draws = (events[:, 0] == S.EVENT_DRAW).sum()
        assert draws + record[E.R_TILES_LEFT] + 53 + 1 + record[E.R_N_BIRDS] <= 108
        assert draws == record[E.R_TURNS]
        paid = np.zeros(4, np.int64)
        for _, seat, receiver, amount in events[events[:, 0] == S.EVENT_PAY]:
            paid[seat] -= amount
            paid[receiver] += amount
        np.testing.assert_array_equal(paid, record[E.R_DELTA : E.R_DELTA + 4])
        lines = replay.describe(events, record, 4, final)
        assert lines[-1].startswith("result:")
        held = [line for line in lines if " holds " in line]
        assert [line.split()[1] for line in held] == ["0", "1", "2", "3"]
        for seat in range(4):  # 13 tiles a seat, a meld counting 3; a winner holds 14
            size = final.hands[seat].sum() + 3 * final.n_melds[seat]
            winner = seat in record[E.R_WINNER : E.R_WINNER + record[E.R_N_WINNERS]]
            assert size == (14 if winner else 13)
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


def test_replay_shows_passed_wins_robbed_kongs_and_final_hands():
    """漏胡 and 抢杠胡 (000_256f49c87fe6e891.txt: 可抢杠胡) in the replay text: a passed win is a
    line of its own, a robbed kong shows the kong declared before the rob, and every seat's
    final tiles and melds follow the events. Random agents pass wins; hands of one each."""
    from sim.kernels.agents import AGENT_EFFICIENCY, AGENT_RANDOM
    from sim.variants.anhua import replay_hand

    options = AnhuaOptions()
    agents = (AGENT_RANDOM, AGENT_EFFICIENCY, AGENT_RANDOM, AGENT_EFFICIENCY)
    walls = shuffled_walls(4000, 108, 91)
    seen = {"pass": False, "rob": False}
    for game in range(len(walls)):
        dealer = np.array([game % 4], np.int64)
        record, events, final = replay_hand(
            options, walls[game : game + 1], dealer, 1, agents, game, 0, 1024
        )
        kinds = set(events[:, 0].tolist())
        if not ({S.EVENT_PASS_WIN, S.EVENT_ROBBED} & kinds):
            continue
        lines = replay.describe(events, record, 4, final)
        assert sum(" holds " in line for line in lines) == 4
        if S.EVENT_PASS_WIN in kinds:
            seat = int(events[events[:, 0] == S.EVENT_PASS_WIN][0, 1])
            assert any(line.startswith(f"seat {seat} passes a win on ") for line in lines)
            seen["pass"] = True
        if S.EVENT_ROBBED in kinds:
            at = next(i for i, line in enumerate(lines) if " robs the kong of " in line)
            assert " declares a " in lines[at - 1] and "kong" in lines[at - 1]
            seen["rob"] = True
        if all(seen.values()):
            break
    assert all(seen.values()), seen
