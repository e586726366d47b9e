"""Weng'an's invariant grid: every hand of the Weng'an engine checked by the tile
ledger and Weng'an's rule checks (``sim.variants.wengan.checks``), over every cell of its option
grid (players 2/3/4 x 冲锋鸡 mode x 乌骨鸡 x 包杠 / 前后翻鸡), and the checks seen to fail on
tampered logs.

Per hand (``check_hand``: the generic ledger ``sim.kernels.ledger``, which shares no code with the
game loop, and Weng'an's checks over it): every event a legal move, hand sizes, every tile
accounted for after every event, the answers to each discard in turn order by complete hands;
no chi ever (不可以吃); no 平胡 won on a discard without a 通行证 or one of its exceptions
(平胡点炮需要通行证); a 报听 hand discards what it draws and makes no pong or kong (报听); only a
爬坡豆 robbed (抢杠); no win or pong on a passed kind (过胡, 过碰); the chicken flips (翻牌鸡); each
dou kind fitting its kong (闷豆, 爬坡豆, 点豆, 憨包豆); every settlement item between two seats, so
that every settlement is zero-sum (总分), the record's deltas and net sources equal to the items.

Rules: docs/rules/wengan.md (贵州瓮安麻将): 可胡、可杠、可碰、不可以吃; 平胡点炮需要
通行证; 报听; 抢杠; 翻牌鸡; 闷豆 / 爬坡豆 / 点豆 / 憨包豆; 总分.
"""

from __future__ import annotations

import numpy as np
import pytest
from joblib import Parallel, delayed

from sim.core.tables import load_tables
from sim.core.wall import shuffled_walls
from sim.kernels import record as R
from sim.kernels import state as S
from sim.kernels.agents import AGENT_EFFICIENCY, AGENT_RANDOM, AGENT_SELF_DRAW, seed_agents
from sim.kernels.moves import HOW_DISCARD
from sim.variants.wengan import N_WENGAN_RECORD, WenganOptions
from sim.variants.wengan import checks as C
from sim.variants.wengan import engine as E
from sim.variants.wengan import hooks as H
from sim.variants.wengan.record_slots import RW_BAO_TING, RW_FLIP, RW_KONGS

pytestmark = pytest.mark.engine  # Weng'an's engine and rule checks

GRID = C.INVARIANT_GRID
N_JOBS = 2  # the development machine and CI have two cores
EFFICIENT = (AGENT_EFFICIENCY,) * 4
MIXED = (AGENT_RANDOM, AGENT_EFFICIENCY, AGENT_SELF_DRAW, AGENT_RANDOM)


def _run_cell(cell: dict, n_games: int, seed: int, agents) -> dict:
    """Play and check ``n_games`` hands of one cell: failures, wins and what happened."""
    options = WenganOptions(**cell)
    players = options.player_count
    walls = shuffled_walls(n_games, 108, seed)
    dealers = np.random.default_rng(seed).integers(0, players, -(-n_games // 8))
    checked = C.check_games(options, walls, dealers, 8, agents[:players], seed)
    records = checked.records
    return {
        "cell": cell,
        "failed": int((checked.errors[:, 0] != 0).sum()),
        "first": checked.first_failure(),
        "won": int((records[:, R.R_N_WINNERS] > 0).sum()),
        "on_discard": int((records[:, R.R_WIN_KIND] == HOW_DISCARD).sum()),
        "bao_ting": int((records[:, RW_BAO_TING] != 0).sum()),
        "two_flips": int((records[:, RW_FLIP + 1] >= 0).sum()),
        "kongs": records[:, RW_KONGS : RW_KONGS + 4].sum(axis=0),
    }


def _check_reports(reports: list[dict], n_games: int, min_win_rate: float) -> None:
    failures = [f"{r['cell']}: {r['first']}" for r in reports if r["failed"]]
    assert not failures, "\n".join(failures[:5])
    assert len(reports) == len(GRID) == 24
    assert all(r["won"] >= min_win_rate * n_games for r in reports)
    # the checks saw the moves they check: wins on discards, 报听, both flips, every dou kind
    assert all(r["on_discard"] > 0 for r in reports)
    assert sum(r["bao_ting"] for r in reports) > 0
    front_back = [r for r in reports if r["cell"]["qian_hou_fan_ji"]]
    assert all(r["two_flips"] > 0 for r in front_back)
    assert not any(r["two_flips"] for r in reports if not r["cell"]["qian_hou_fan_ji"])
    assert (sum(r["kongs"] for r in reports) > 0).all()


def test_every_cell_passes_the_checks_with_mixed_agents():
    """200 hands a cell, random agents in two seats (they pass wins and throw anything)."""
    n_games = 200
    reports = [_run_cell(cell, n_games, 1400 + i, MIXED) for i, cell in enumerate(GRID)]
    _check_reports(reports, n_games, 0.15)  # two seats of three (one of two) play at random


@pytest.mark.slow
def test_every_cell_passes_the_checks_at_10000_hands():
    """10,000 hands a cell of the 24-cell grid (players x every 通行证
    kind x two settings of the chicken and 包 rules: 240,000 hands) with the default agents,
    every hand passing the checks (tiles conserved, hands legal, every settlement zero-sum,
    every win legal: 通行证 or an exception, chickens paid only where the rules say); about two
    minutes of wall time in two processes on a 2-core machine."""
    n_games = 10_000
    reports = Parallel(n_jobs=N_JOBS)(
        delayed(_run_cell)(cell, n_games, 140_000 + i, EFFICIENT) for i, cell in enumerate(GRID)
    )
    _check_reports(reports, n_games, 0.5)


# --------------------------------------------------------------------------------------------
# The checks fail on tampered hands


def _played(options: WenganOptions, want, seed: int = 3, tries: int = 400):
    """A hand played with the log on whose events satisfy ``want(events, record)``: (state, a
    copy of its whole log, event count, wall, dealer, record); events past the count are the
    log's unused rows (as 0, they are deals: the masks below look at the count's only)."""
    walls = shuffled_walls(tries, 108, seed)
    tables = load_tables()
    for index in range(tries):
        state = S.new_state(1024, agents=MIXED)
        seed_agents(seed + index)
        record = np.zeros(N_WENGAN_RECORD, np.int64)
        dealer = index % options.player_count
        E.play_hand(state, walls[index], options.player_count, dealer, 0, options.params(),
                    tables, record)  # fmt: skip
        n = int(state.scalars[S.LOG_COUNT])
        if want(state.log[:n], record):  # the whole log: the checks see its capacity
            return state, state.log.copy(), n, walls[index], dealer, record
    raise AssertionError("no such hand")


def _verdict(options, played, events=None, record=None) -> int:
    state, log, n, wall, dealer, played_record = played
    code, _ = C.check_hand(
        state, log if events is None else events, n, wall, options.player_count, dealer,
        options.params(), load_tables(), played_record if record is None else record,
    )  # fmt: skip
    return int(code)


def _first(events, event) -> int:
    return int(np.flatnonzero(events[:, 0] == event)[0])


def test_an_untouched_hand_passes():
    options = WenganOptions()
    played = _played(options, lambda ev, rec: rec[R.R_N_WINNERS] > 0)
    assert _verdict(options, played) == C.OK


def test_a_pong_turned_into_a_chi_fails():
    """不可以吃: a chi anywhere in the log is an error."""
    options = WenganOptions()
    played = _played(options, lambda ev, rec: (ev[:, 0] == S.EVENT_PONG).any())
    events = played[1].copy()
    events[_first(events, S.EVENT_PONG), 0] = S.EVENT_CHI
    assert _verdict(options, played, events) == C.ERR_CHI


def test_a_settlement_item_changed_fails():
    """总分: the items must add up to the record's score changes."""
    options = WenganOptions()
    is_item = lambda ev: ev[:, 0] >= H.EVENT_ITEM  # noqa: E731
    played = _played(options, lambda ev, rec: is_item(ev).any())
    events = played[1].copy()
    events[np.flatnonzero(is_item(events))[0], 3] += 1
    assert _verdict(options, played, events) == C.ERR_DELTA
    events = played[1].copy()
    row = np.flatnonzero(is_item(events))[0]
    events[row, 2] = events[row, 1]  # a seat paying itself
    assert _verdict(options, played, events) == C.ERR_ITEM


def test_a_flip_before_any_win_and_a_missing_flip_fail():
    """翻牌鸡: tiles are flipped after a win only, as many as the wall and options give."""
    options = WenganOptions()
    played = _played(options, lambda ev, rec: (ev[:, 0] == S.EVENT_INDICATOR).any())
    record = played[5].copy()
    record[RW_FLIP] = -1
    assert _verdict(options, played, record=record) == C.ERR_FLIP


def test_a_bao_ting_hand_discarding_another_tile_than_its_draw_fails():
    """报听: once declared and its first discard made, the hand discards what it draws."""
    options = WenganOptions()
    declared = lambda ev: (ev[:, 0] == S.EVENT_DECLARE) & (ev[:, 3] == H.DECLARE_BAO_TING)  # noqa: E731

    def frozen_discard(events, record):
        rows = np.flatnonzero(declared(events))
        if not len(rows):
            return False
        seat = events[rows[0], 1]
        draws = np.flatnonzero((events[:, 0] == S.EVENT_DRAW) & (events[:, 1] == seat))
        later = draws[draws > rows[0] + 1]
        return len(later) > 0 and events[later[0] + 1, 0] == S.EVENT_DISCARD

    played = _played(options, frozen_discard, tries=3000)
    events = played[1].copy()
    seat = events[np.flatnonzero(declared(events))[0], 1]
    draws = np.flatnonzero((events[:, 0] == S.EVENT_DRAW) & (events[:, 1] == seat))
    discard = draws[draws > np.flatnonzero(declared(events))[0] + 1][0] + 1
    assert events[discard, 2] == events[discard - 1, 2]  # as played: the drawn tile goes
    events[discard, 2] = (events[discard, 2] + 1) % 27
    assert _verdict(options, played, events) == C.ERR_BAO_TING
