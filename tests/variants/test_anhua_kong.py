"""The open kong 开杠 (§anhua-open-kong) played through the engine on exact states: §anhua-example-6
and the robbing, bloom and single-winner rules. Rules: docs/rules/anhua.md."""

from __future__ import annotations

import engine_steps as steps
import numpy as np
import pytest

from sim.core.tables import load_tables
from sim.core.tiles import kind_id, parse_tiles
from sim.kernels import engine as E
from sim.kernels import state as S
from sim.variants.anhua import AnhuaOptions
from sim.variants.anhua import engine as AE
from sim.variants.anhua import hooks as H
from sim.variants.anhua import scoring as K

pytestmark = pytest.mark.engine  # the engine's steps under Anhua's hooks

X, Y = kind_id("9s"), kind_id("1s")  # indicator 9s: kings 9s and 1s


def _state(hands: dict[int, str], wall_head: str, pong_4s_for: int | None = 1):
    """Seats' concealed hands, seat 1's pong of 4s, and the first tiles of the wall."""
    state = S.new_state()
    head = parse_tiles(wall_head)
    filler = [k for k in range(27) for _ in range(3)]  # never reached
    S.reset(state, np.array(head + filler, np.int8), 4, 2)
    H.set_kings(state, X, Y)
    for seat, text in hands.items():
        for kind in parse_tiles(text):
            S.give_tile(state, seat, kind)
    if pong_4s_for is not None:
        S.add_meld(state, pong_4s_for, S.MELD_PONG, kind_id("4s"), 3)
    return state


AH6 = {
    1: "2p 3p 5m 6m 7m 7p 8p 9p 5s 5s 4s",  # 10 concealed + the drawn 4s; pong of 4s
    0: "2m 2m 3p 4p 5p 6p 7p 8p 4m 5m 6m 7s 8s",
    2: "1m 4m 7m 2s 5s 8s 1p 4p 9p 3m 3s 6s 9m",  # nothing near a win
    3: "2m 5m 8m 3p 6p 9p 2s 7s 3m 6m 9m 8p 1p",
}


def _kong(state, konger, kind, kong_type, from_seat, **options):
    params = AnhuaOptions(**options).params()
    allowed = H.kong_allowed(AE.ANHUA, state, konger, kind, kong_type, params, load_tables())
    result, record, locked = steps.open_kong(
        state, konger, kind, kong_type, from_seat, params, load_tables()
    )
    return allowed, result, record, locked


def test_ah6_kong_cannon_paid_by_the_konger():
    """§anhua-example-6: 明杠 of 4s, reveals 7m 2p 6s, seat 0 wins 6s: 硬庄杠上炮 8, bird on the
    konger doubles: the konger pays 16 (source: 杠上炮, 开杠者给胡牌者分)."""
    state = _state(AH6, "7m 2p 6s 6p 8m")
    allowed, result, record, _ = _kong(state, 1, kind_id("4s"), S.MELD_ADDED_KONG, 1)
    assert allowed
    assert result == E.KONG_HAND_OVER
    assert record[E.R_WIN_KIND] == K.HOW_KONG_CANNON and record[E.R_N_WINNERS] == 1
    assert record[E.R_WINNER] == 0 and record[E.R_PAYER] == 1
    assert record[E.R_FEATURES] == K.FEATURE_HARD | K.FEATURE_KONG_CANNON
    assert record[E.R_POINTS] == 8
    assert list(record[E.R_DELTA : E.R_DELTA + 4]) == [16, -16, 0, 0]


def test_ah6_single_winner_first_in_order_from_the_konger():
    """§anhua-example-6: if seat 2 can also win (on 7m), seat 2 alone wins: 杠上炮 不能同时多人胡,
    按照位置先后顺序 (source: 杠上炮)."""
    hands = dict(AH6)
    hands[2] = "5p 5p 1p 2p 3p 4s 5s 6s 7s 8s 9s 5m 6m"  # waits 4m / 7m, no kings
    state = _state(hands, "7m 2p 6s 6p 8m")
    _, result, record, _ = _kong(state, 1, kind_id("4s"), S.MELD_ADDED_KONG, 1)
    assert result == E.KONG_HAND_OVER and record[E.R_N_WINNERS] == 1
    assert record[E.R_WINNER] == 2 and record[E.R_WINNING_TILE] == kind_id("7m")


def test_added_kong_is_robbed_and_the_konger_pays():
    """抢杠胡: seat 3 waits on 4s and robs the 明杠; the konger pays as for a discard; the kong
    is not made (source: 抢杠胡, 可抢杠胡)."""
    hands = dict(AH6)
    hands[3] = "2m 2m 3p 4p 5p 6p 7p 8p 4m 5m 6m 5s 6s"  # waits 4s / 7s
    state = _state(hands, "7m 2p 6s 6p 8m")
    _, result, record, _ = _kong(state, 1, kind_id("4s"), S.MELD_ADDED_KONG, 1)
    assert result == E.KONG_HAND_OVER
    assert record[E.R_WIN_KIND] == K.HOW_ROB_KONG and record[E.R_WINNER] == 3
    assert record[E.R_PAYER] == 1 and record[E.R_FEATURES] & K.FEATURE_ROB_KONG
    assert state.melds[1, 0, 0] == S.MELD_PONG  # the pong stays a pong
    state = _state(hands, "7m 2p 6s 6p 8m")
    _, result, record, _ = _kong(
        state, 1, kind_id("4s"), S.MELD_ADDED_KONG, 1, allow_rob_kong=False
    )
    assert record[E.R_WIN_KIND] != K.HOW_ROB_KONG


def test_bloom_takes_the_best_revealed_tile():
    """杠上花: the konger wins with a revealed tile; several would win: only the best counts
    (开杠出的三张牌同时可胡多张时,只计胡最大分数那一张)."""
    state = _state(AH6, "1p 4p 6s 6p 8m")  # both 1p and 4p complete seat 1
    _, result, record, _ = _kong(state, 1, kind_id("4s"), S.MELD_ADDED_KONG, 1)
    assert result == E.KONG_HAND_OVER
    assert record[E.R_WIN_KIND] == K.HOW_KONG_BLOOM and record[E.R_WINNER] == 1
    assert record[E.R_FEATURES] == K.FEATURE_HARD | K.FEATURE_KONG_BLOOM
    assert record[E.R_POINTS] == 8
    state = _state(AH6, "1p 4p 6s 6p 8m")
    _, _, doubled, _ = _kong(
        state, 1, kind_id("4s"), S.MELD_ADDED_KONG, 1, kong_multi_tile_win="double"
    )
    assert doubled[E.R_POINTS] == 16


def test_no_win_locks_the_konger():
    """Nobody wins on the revealed tiles: they are the konger's discards and his hand is locked
    (选择杠开后手牌不能动,只允许胡牌)."""
    state = _state(AH6, "9m 9p 1m 6p 8m")
    _, result, _, locked = _kong(state, 1, kind_id("4s"), S.MELD_ADDED_KONG, 1)
    assert result == E.KONG_CONTINUE
    assert locked == [False, True, False, False]
    pile = np.zeros(S.WALL_CAPACITY, np.int64)
    assert pile[: S.pile(state, 1, pile)].tolist() == parse_tiles("9m 9p 1m")
    assert state.melds[1, 0, 0] == S.MELD_ADDED_KONG


def test_kong_conditions():
    """K1 ready after the kong, K2 at least 4 tiles in the wall (source: 杠后必须听牌,
    余牌数大于等于4才允许杠开)."""
    tables = load_tables()
    params = AnhuaOptions().params()
    state = _state(AH6, "7m 2p 6s 6p 8m")
    assert H.kong_allowed(AE.ANHUA, state, 1, kind_id("4s"), S.MELD_ADDED_KONG, params, tables)
    not_ready = dict(AH6)
    not_ready[1] = "2p 9m 5m 6m 7m 7p 8p 9p 5s 1m 4s"
    state = _state(not_ready, "7m 2p 6s 6p 8m")
    assert not H.kong_allowed(AE.ANHUA, state, 1, kind_id("4s"), S.MELD_ADDED_KONG, params, tables)
    state = _state(AH6, "7m 2p 6s 6p 8m")
    state.scalars[S.HEAD] = state.scalars[S.TAIL] - 3  # three tiles left
    assert not H.kong_allowed(AE.ANHUA, state, 1, kind_id("4s"), S.MELD_ADDED_KONG, params, tables)
