"""Anqing's rule checks over the tile ledger (``sim.variants.anqing.checks``), each of its own
errors seen failing: played hands are tampered with (an event changed, a wall tile swapped, an
option changed under the log) and the checks must report the named error at the right event.
The ledger's own errors are seen failing by Anhua's and the ledger's tests.

Rules: docs/rules/anqing.md (§anqing-rules); the tampered moves are named in each
case.
"""

from __future__ import annotations

import numpy as np
import pytest

from sim.core.tables import load_tables
from sim.core.wall import shuffled_walls
from sim.kernels import state as S
from sim.kernels.agents import AGENT_EFFICIENCY, AGENT_RANDOM, seed_agents
from sim.kernels.moves import HOW_DISCARD, HOW_KONG_BLOOM, HOW_SELF_DRAW
from sim.kernels.record import R_FEATURES, R_OUTCOME, R_WIN_KIND, R_WINNER
from sim.variants.anqing import AnqingOptions
from sim.variants.anqing import checks as C
from sim.variants.anqing import engine as AE
from sim.variants.anqing import kernels as K
from sim.variants.anqing.hooks import EVENT_BAO, EVENT_ITEM, HAND_ZUAN, gang_kinds
from sim.variants.anqing.options import JIAN_ZI_HU_ZUAN_DIAO, P_JIAN_ZI_HU_DEFINITION
from sim.variants.anqing.record_slots import N_ANQING_RECORD

pytestmark = pytest.mark.engine  # Anqing's rule checks over played hands

DEFAULT = AnqingOptions()
MIXED = (AGENT_RANDOM, AGENT_EFFICIENCY, AGENT_RANDOM, AGENT_EFFICIENCY)
TABLES = load_tables()


def _hands(n_hands, seed, agents=MIXED):
    """(wall, dealer, state, record, events) of hands played with the log on."""
    seed_agents(seed)
    state = S.new_state(1024, agents=agents)
    params = DEFAULT.params()
    for index, wall in enumerate(shuffled_walls(n_hands, 136, seed)):
        record = np.zeros(N_ANQING_RECORD, np.int64)
        dealer = index % 4
        AE.play_hand(state, wall, 4, dealer, 0, params, TABLES, record)
        events = state.log[: state.scalars[S.LOG_COUNT]].copy()
        yield wall.copy(), dealer, state, record, events


def _find(predicate, seed=5, n_hands=400):
    for wall, dealer, state, record, events in _hands(n_hands, seed):
        if predicate(events, record, state):
            return wall, dealer, state, record, events
    raise AssertionError("no played hand fits")


def _check(wall, dealer, state, record, events, params):
    log = np.zeros((C.LOG_CAPACITY + 1, 4), np.int64)  # room past the events: not a full log
    log[: len(events)] = events
    code, at = C.check_hand(state, log, len(events), wall, 4, dealer, params, TABLES, record)
    return int(code), int(at)


def _first(events, event, detail=None):
    rows = events[:, 0] == event
    if detail is not None:
        rows &= events[:, 3] == detail
    return int(np.flatnonzero(rows)[0])


def _has(event, detail=None):
    def predicate(events, record, state):
        rows = events[:, 0] == event
        if detail is not None:
            rows &= events[:, 3] == detail
        return bool(rows.any())

    return predicate


def _self_drawn(events, record, state):
    return record[R_OUTCOME] == 1 and record[R_WIN_KIND] == HOW_SELF_DRAW


def _self_drawn_no_zuan_kong(events, record, state):
    """A self-draw whose winner konged no 钻 (his readiness for 直叫 is not in question)."""
    if not _self_drawn(events, record, state):
        return False
    zuan = state.status[S.HAND_ROW, HAND_ZUAN]
    kongs = (events[:, 0] == S.EVENT_KONG) & (events[:, 2] == zuan)
    return not (kongs & (events[:, 1] == record[R_WINNER])).any()


def _zuan_held_without_pao_feng(events, record, state):
    """A plain self-draw holding a 钻, not 跑风: under 钻吊 it would be no win
    (§anqing-zuan-conditions)."""
    if not _self_drawn(events, record, state):
        return False
    winner = int(record[R_WINNER])
    zuan = int(state.status[S.HAND_ROW, HAND_ZUAN])
    no_run = not (int(record[R_FEATURES]) >> K.I_PAO_FENG) & 1
    return no_run and state.hands[winner, zuan] > 0


def _wrong_zuan(events, record, state, params, wall):
    at = _first(events, S.EVENT_WILD)
    events[at, 2] = (events[at, 2] + 1) % 34
    return at


def _win_on_a_discard(events, record, state, params, wall):
    at = _first(events, S.EVENT_WIN)
    events[at, 3] = HOW_DISCARD
    return at


def _bloom_without_a_kong(events, record, state, params, wall):
    at = _first(events, S.EVENT_WIN)
    events[at, 3] = HOW_KONG_BLOOM
    return at


def _zuan_diao_under_the_log(events, record, state, params, wall):
    params[P_JIAN_ZI_HU_DEFINITION] = JIAN_ZI_HU_ZUAN_DIAO
    return _first(events, S.EVENT_WIN)


def _gang_tile_dealt_to_the_winner(events, record, state, params, wall):
    """A tile the winner was dealt and still holds becomes a 杠牌 (in the wall itself)."""
    winner = int(record[R_WINNER])
    zuan = int(state.status[S.HAND_ROW, HAND_ZUAN])
    gang = gang_kinds.py_func(zuan)[0]
    dealt = list(wall[13 * winner : 13 * winner + 13])
    at_win = _first(events, S.EVENT_WIN)
    moved = {int(t) for e, s, t, _ in events[:at_win] if s == winner and e >= S.EVENT_DISCARD}
    for offset, kind in enumerate(dealt):
        if int(kind) not in moved and int(kind) != zuan and int(kind) != events[at_win, 2]:
            wall[13 * winner + offset] = gang
            return at_win
    raise AssertionError("no untouched dealt tile")


def _pong_of_the_zuan(events, record, state, params, wall):
    at = _first(events, S.EVENT_PONG)
    events[at, 2] = state.status[S.HAND_ROW, HAND_ZUAN]
    return at


def _chi_by_another_seat(events, record, state, params, wall):
    at = _first(events, S.EVENT_CHI)
    events[at, 1] = (events[at, 1] + 1) % 4
    return at


def _gang_tile_discarded(events, record, state, params, wall):
    at = _first(events, S.EVENT_DISCARD)
    events[at, 2] = gang_kinds.py_func(int(state.status[S.HAND_ROW, HAND_ZUAN]))[0]
    return at


def _single_kong_of_a_plain_tile(events, record, state, params, wall):
    at = _first(events, S.EVENT_KONG, S.MELD_SINGLE_KONG)
    events[at, 2] = (events[at, 2] + 9) % 27
    return at


def _item_changed(events, record, state, params, wall):
    """An item's points changed: S no longer gives the first payment (derived from the items
    logged before it)."""
    events[_first(events, EVENT_ITEM), 3] += 1
    return _first(events, S.EVENT_PAY)


def _payment_changed(events, record, state, params, wall):
    """A payment other than (S + 庄家额外 + 连庄) x the 包 factor (§anqing-payments): caught at the
    payment, derived again from the books."""
    at = _first(events, S.EVENT_PAY)
    events[at, 3] += 1
    return at


def _bao_factor_changed(events, record, state, params, wall):
    """A 包 factor the melds do not give (§anqing-bao: 1 without three 口)."""
    at = _first(events, EVENT_BAO)
    events[at, 3] += 3
    return at


def _red_chi_without_the_red(events, record, state, params, wall):
    """A chi through the 钻's face logged without its 红中: the face is then a 钻, which no chi
    holds (钻不可以吃碰)."""
    at = int(np.flatnonzero((events[:, 0] == S.EVENT_CHI) & (events[:, 3] >= S.MAX_SEATS))[0])
    events[at, 3] %= S.MAX_SEATS
    return at


def _red_chi(events, record, state):
    return bool(((events[:, 0] == S.EVENT_CHI) & (events[:, 3] >= S.MAX_SEATS)).any())


MUTATIONS = [
    ("钻 not the successor", _has(S.EVENT_WILD), _wrong_zuan, C.ERR_ZUAN_KIND),
    ("win on a discard", _self_drawn, _win_on_a_discard, C.ERR_DISCARD_WIN),
    ("杠开 without a kong", _self_drawn, _bloom_without_a_kong, C.ERR_BLOOM),
    ("钻 conditions", _zuan_held_without_pao_feng, _zuan_diao_under_the_log,
     C.ERR_ZUAN_CONDITIONS),
    ("杠牌 held at a win", _self_drawn_no_zuan_kong, _gang_tile_dealt_to_the_winner,
     C.ERR_GANG_HELD),
    ("pong of a 钻", _has(S.EVENT_PONG), _pong_of_the_zuan, C.ERR_CLAIM),
    ("chi not by the next player", _has(S.EVENT_CHI), _chi_by_another_seat, C.ERR_CLAIM),
    ("杠牌 discarded", _has(S.EVENT_DISCARD), _gang_tile_discarded, C.ERR_GANG_DISCARD),
    ("single kong of a plain tile", _has(S.EVENT_KONG, S.MELD_SINGLE_KONG),
     _single_kong_of_a_plain_tile, C.ERR_SINGLE_KONG),
    ("item points", _has(EVENT_ITEM), _item_changed, C.ERR_SETTLEMENT),
    ("payment not derived", _has(S.EVENT_PAY), _payment_changed, C.ERR_SETTLEMENT),
    ("包 factor not derived", _has(EVENT_BAO), _bao_factor_changed, C.ERR_SETTLEMENT),
    ("chi through the face without 红中", _red_chi, _red_chi_without_the_red, C.ERR_CLAIM),
]  # fmt: skip


def test_untouched_hands_pass():
    """The hands the mutations start from pass every check as played."""
    params = DEFAULT.params()
    for wall, dealer, state, record, events in _hands(60, 5):
        assert _check(wall, dealer, state, record, events, params) == (0, len(events))


@pytest.mark.parametrize(
    ("predicate", "mutate", "expected"),
    [pytest.param(*row[1:], id=row[0]) for row in MUTATIONS],
)
def test_mutation_is_reported_by_name(predicate, mutate, expected):
    """Each of Anqing's checks seen failing on a played hand: the named error at the tampered
    event, or at the end for a tampered settlement."""
    wall, dealer, state, record, events = _find(predicate)
    params = DEFAULT.params()
    at = mutate(events, record, state, params, wall)
    assert _check(wall, dealer, state, record, events, params) == (expected, at), C.ERROR_NAMES[
        expected
    ]


def test_every_anqing_error_is_seen_failing():
    """Every error Anqing's checks add to the ledger's is reported by a tampered hand."""
    seen = {row[-1] for row in MUTATIONS}
    assert seen == set(range(C.FIRST_VARIANT_ERROR, len(C.ERROR_NAMES)))
