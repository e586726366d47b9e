"""Anqing's chi through 红中: 红中 plays the 钻's face (§anqing-red-dragon
"比如7万为钻牌，红中在这一盘 就可以当7万用，可以吃，可以碰。也可以打出去"), so a chi through that
face holds a 红中 for it (a natural tile of the face is a 钻, which no chi may hold:
"钻不可以吃碰"). Checked on positions set up exactly (``anqing_steps``: the claim listing, the score
of a hand holding such a chi, 包) and on a whole hand played by the engine on a constructed wall
(the chi made, its tiles booked, the rule checks and the replay).

Rules: docs/rules/anqing.md (安庆麻将), 钻牌的出现 / 红中 (§anqing-red-dragon), 碰牌和吃牌
(§anqing-claims, §anqing-bao). Indicator ``4p`` unless stated: the 钻 is ``5p``, 红中 plays 5p,
发财/白板 are 杠牌."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from anqing_steps import TABLES, Table
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.core.tiles import kind_id, kind_name, parse_tiles
from sim.kernels import moves as M
from sim.kernels import state as S
from sim.kernels.record import R_DELTA
from sim.variants.anqing import N_ANQING_RECORD, AnqingOptions
from sim.variants.anqing import checks as C
from sim.variants.anqing import engine as AE
from sim.variants.anqing.replay import WORDS
from sim.variants.replay import event_lines, event_objects, final_objects, wild_kinds

pytestmark = pytest.mark.engine  # Anqing's engine and rule checks

CHI, PONG = S.MELD_CHI, S.MELD_PONG
RED = kind_id("RD")


def _code(offset):
    """The stand-in code of a chi whose member ``offset`` is played by a 红中."""
    return S.stand_in_code.py_func(offset, RED)


def _chis(table, offerer, tile, seat):
    """(first tile, stand-in code) of each chi ``seat`` may make on ``offerer``'s ``tile``."""
    rows = table.claims(offerer, tile)[seat]
    return sorted((int(r[M.A_TILE]), int(r[M.A_DETAIL])) for r in rows if r[M.A_TYPE] == M.ACT_CHI)


def test_a_held_red_plays_the_face_in_a_chi_of_a_discarded_neighbour():
    """红中 "可以吃": holding 4p + 红中, the next player may chi a discarded 6p as 4p 5p 6p (the
    红中 the 5p); holding 6p 7p + 红中 too, also 5p 6p 7p; a 钻 (a natural 5p) never serves."""
    table = Table({1: "4p RD 1m 1m"})
    assert _chis(table, 0, "6p", 1) == [(kind_id("4p"), _code(1))]
    table = Table({1: "4p 7p RD 1m"})
    assert _chis(table, 0, "6p", 1) == [
        (kind_id("4p"), _code(1)),
        (kind_id("5p"), _code(0)),
    ]
    table = Table({1: "4p 5p 1m 1m"})  # the 5p is the 钻
    assert _chis(table, 0, "6p", 1) == []
    assert _chis(table, 1, "6p", 2) == []  # only the discarder's next player chis


def test_a_discarded_red_is_chied_as_the_face():
    """A discarded 红中 is the 钻's face for the next player: 3p 4p, 4p 6p and 6p 7p each chi
    it (as 5p, the sequence's last, middle and first member); a pong of two 红中 stays a pong of
    红中."""
    table = Table({1: "3p 4p 6p 7p", 2: "RD RD 1m"})
    assert _chis(table, 0, "RD", 1) == [
        (kind_id("3p"), _code(2)),
        (kind_id("4p"), _code(1)),
        (kind_id("5p"), _code(0)),
    ]
    pongs = [r for r in table.claims(0, "RD")[2] if r[M.A_TYPE] == M.ACT_PONG]
    assert [int(r[M.A_TILE]) for r in pongs] == [RED]


def test_no_red_chi_when_the_zuan_is_a_dragon_or_a_wind():
    """With a dragon 钻 (flip 发财 -> 白板) 红中 is a 杠牌 (§anqing-red-dragon,
    §anqing-reading-dragon-zuan-gang-tiles): no chi holds it, and a discarded one is never claimed;
    with a wind 钻 红中 plays a wind, which no chi holds."""
    table = Table({1: "4p 6p RD RD"}, indicator="GD")
    assert _chis(table, 0, "RD", 1) == []
    assert _chis(table, 0, "5p", 1) == [(kind_id("4p"), 0)]
    table = Table({1: "4p 6p 3p RD"}, indicator="E")  # the 钻 is S, 红中 plays S
    assert _chis(table, 0, "RD", 1) == []
    assert _chis(table, 0, "5p", 1) == [(kind_id("3p"), 0), (kind_id("4p"), 0)]


def test_a_chi_holding_a_red_scores_as_the_face_aq1():
    """§anqing-example-1 with its chi made of 4p 红中 6p (红中 the 5p) instead of 1m 2m 3m: the same
    屁胡, S = 4 (base 3, 风 1; no 门清: a chi), dealer 7, the others 4 -> seat 1 +15. The 红中 in
    the meld is no 钻: it spoils nothing a 钻 would."""
    table = Table({1: "45s 789p E E E 22m"})
    table.meld(1, CHI, "4p", 0, red_at=1)
    table.self_draw(1, "6s")
    assert table.items() == {"基本胡": 3, "风": 1, "屁胡": 0}
    assert table.nets() == [-7, 15, -4, -4]


def test_a_red_chi_is_a_mouth_for_bao_aq5():
    """§anqing-example-5 (包, 顺包 of three mixed 口 from the dealer seat 1) with the chi made of 4p
    红中 6p: it is one 口 like any chi, so seat 1 pays (10 + 3) x 3 = 39, seats 0 and 3 pay 10 ->
    +59."""
    table = Table({2: "2m 3m 4m 7p"}, dealer=1)
    table.meld(2, CHI, "4p", 1, red_at=1)
    table.meld(2, PONG, "9m", 1)
    table.meld(2, PONG, "W", 1)
    table.self_draw(2, "7p")
    assert table.total() == 10
    assert table.nets() == [-10, -39, 59, -10]
    assert table.bao_factors()[1] == 3


# --------------------------------------------------------------------------- a whole hand

# Dealt from the head (seat 0 deals): seat 0 gets 13 and the 14th, the flip is 4p (钻 5p).
# Seat 0's one tile that keeps it ready to go is 6p; seat 1 holds 4p and a 红中 beside a
# ready hand, so its agent chis 4p 红中 6p at once.
HANDS = (
    "1m 2m 3m 4m 5m 6m 7s 8s 9s S S 2s 3s",
    "7m 8m 9m 7p 8p 9p E E E N N 4p RD",
    "1m 4m 7m 1p 3p 9p 1s 4s 6s 9s W E 8m",
    "2m 5m 8m 2p 6p 8p 3s 5s 8s W S 9m 3m",
)
HEAD = " ".join(HANDS) + " 6p 4p W 7p 1p N"  # the 14th, the flip, the first draws


def _constructed_wall():
    head = parse_tiles(HEAD)
    used = Counter(head)
    rest = [kind for kind in range(34) for _ in range(4 - used[kind])]
    return np.array(head + rest, np.int8)


def test_the_engine_plays_a_red_chi_and_the_checks_book_it():
    """Played by the engine (default agents) on a constructed wall: seat 0 discards 6p, seat 1
    chis it with 4p and a 红中 (logged with the 红中 as the 5p), the meld keeps it, every tile
    is accounted for after every event and the whole hand passes Anqing's rule checks; the
    replay names the 红中 in the chi, in text and JSON."""
    wall = _constructed_wall()
    state = S.new_state(C.LOG_CAPACITY)
    params = AnqingOptions().params()
    record = np.zeros(N_ANQING_RECORD, np.int64)
    AE.play_hand(state, wall, 4, 0, 0, params, TABLES, record)
    events = state.log[: state.scalars[S.LOG_COUNT]].copy()
    chi = np.flatnonzero(events[:, 0] == S.EVENT_CHI)[0]
    assert events[chi - 1].tolist() == [S.EVENT_DISCARD, 0, kind_id("6p"), 0]
    assert events[chi].tolist() == [S.EVENT_CHI, 1, kind_id("4p"), S.MAX_SEATS * _code(1)]
    assert state.melds[1, 0].tolist() == [CHI, kind_id("4p"), 0, _code(1)]
    code, at = C.check_hand(state, state.log, len(events), wall, 4, 0, params, TABLES, record)
    assert (int(code), int(at)) == (0, len(events)), C.ERROR_NAMES[int(code)]
    assert "seat 1 chi 456p (RD as 5p) from seat 0" in event_lines(events, WORDS)
    objects = event_objects(events, wall, record, WORDS)
    chi_object = next(obj for obj in objects if obj["event"] == "chi")
    assert chi_object["stand_in"] == "RD" and chi_object["plays"] == "5p"
    final = S.final_position(state)
    melds = final_objects(final, wild_kinds(events), WORDS)[1]["melds"]
    assert melds[0]["stand_in"] == "RD" and melds[0]["from_seat"] == 0
    assert int(record[R_DELTA : R_DELTA + 4].sum()) == 0


def test_a_chi_through_the_face_without_a_red_is_reported():
    """钻不可以吃碰: the checks reject the played chi once its log says its 5p is no 红中 (a 钻
    then) and a stand-in code on a chi not through the face."""
    wall = _constructed_wall()
    state = S.new_state(C.LOG_CAPACITY)
    params = AnqingOptions().params()
    record = np.zeros(N_ANQING_RECORD, np.int64)
    AE.play_hand(state, wall, 4, 0, 0, params, TABLES, record)
    n_events = int(state.scalars[S.LOG_COUNT])
    chi = int(np.flatnonzero(state.log[:n_events, 0] == S.EVENT_CHI)[0])
    for detail in (0, S.MAX_SEATS * _code(0)):
        log = state.log.copy()
        log[chi, 3] = detail
        code, at = C.check_hand(state, log, n_events, wall, 4, 0, params, TABLES, record)
        assert (int(code), int(at)) == (C.ERR_CLAIM, chi)


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    size=st.sampled_from([4, 7, 10, 13]),
    indicator=st.sampled_from(["4p", "8m", "9s", "N", "WD", "GD"]),
)
def test_the_engine_precheck_sees_every_red_chi(seed, size, indicator):
    """The engine asks for claims only when ``moves.claim_shape_held`` holds: with 红中 playing
    the face (the hand status the setup hook fills) it must hold whenever Anqing lists a claim,
    红中 chis included (hands rich in 红中 and the face's neighbours)."""
    rng = np.random.default_rng(seed)
    table = Table({}, indicator=indicator)
    zuan = table.zuan
    pool = [kind for kind in range(34) for _ in range(4)]
    rng.shuffle(pool)
    near = [k for k in range(max(0, zuan - 2), zuan + 3) if k < 27 and k // 9 == zuan // 9]
    for seat in range(4):
        dealt = pool[seat * size : seat * size + size - 3]
        hand = [RED, *rng.choice(near or [0], 2), *dealt]
        for kind in hand:
            if table.state.hands[seat, kind] < 4:
                S.give_tile(table.state, seat, kind)
    stand_in = table.status[S.HAND_ROW, S.HAND_STAND_IN] - 1
    face = table.status[S.HAND_ROW, S.HAND_STAND_IN_FACE]
    for offerer in range(4):
        for tile in range(34):
            listed = sum(len(rows) for rows in table.claims(offerer, kind_name(tile)).values())
            held = M.claim_shape_held(
                table.state.hands, table.state.keys, table.state.wild_count, table.state.wild,
                0, 4, offerer, tile, stand_in, face, TABLES,
            )  # fmt: skip
            assert held or listed == 0, (offerer, tile, listed)
