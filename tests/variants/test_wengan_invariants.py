"""Weng'an 贵州瓮安麻将 played in bulk through the engine: 2,000 games per player count (2, 3, 4)
with the default (efficiency) agent and with the random agent, each checked after its end: every
tile in one place (wall, hands, discards, melds, the chicken flips), every settlement zero-sum
and 原缺 zero-sum on its own, the logged items summing to the deltas, no chi ever (不可以吃), no
平胡 won on a discard without a 通行证 or one of its exceptions (平胡点炮需要通行证), the dealer
and his 连庄 count as the records pass them on; and a replay giving the played record.

Rules: docs/rules/wengan.md (贵州瓮安麻将): 可胡、可杠、可碰、不可以吃;
平胡点炮需要通行证; 总分 (the settlement); 原缺.
"""

from __future__ import annotations

import numpy as np
import pytest

from sim.core.tables import load_tables
from sim.core.wall import shuffled_walls
from sim.kernels import record as R
from sim.kernels import state as S
from sim.kernels.agents import AGENT_EFFICIENCY, AGENT_RANDOM, seed_agents
from sim.kernels.moves import HOW_DISCARD, HOW_ROB_KONG
from sim.variants.wengan import (
    N_WENGAN_RECORD,
    WenganOptions,
    play_records,
    replay_hand,
)
from sim.variants.wengan import engine as WE
from sim.variants.wengan import hooks as H
from sim.variants.wengan import record_slots as RS
from sim.variants.wengan import settle as SE
from sim.variants.wengan.patterns import PING_HU

pytestmark = pytest.mark.engine  # Weng'an's engine over option sets

GAMES = 2000
EXCEPTIONS = (
    H.FEATURE_PASSPORT
    | H.FEATURE_EARTHLY
    | H.FEATURE_HOT_CANNON
    | H.FEATURE_BAO_TING
    | H.FEATURE_SHA_TING
)


def check_game(state, record, players):
    """Every invariant of one finished hand; returns its number of winners."""
    counts = S.tiles_accounted(state)[:27].copy()
    for flip in record[RS.RW_FLIP : RS.RW_FLIP + 2]:
        if flip >= 0:
            counts[flip] += 1
    n_winners = max(int(record[R.R_N_WINNERS]), 0)
    how = record[R.R_WIN_KIND]
    if n_winners > 1 and how in (HOW_DISCARD, HOW_ROB_KONG):
        counts[record[R.R_WINNING_TILE]] -= n_winners - 1  # one tile in every winner's hand
    assert (counts == 4).all()
    deltas = record[R.R_DELTA : R.R_DELTA + players]
    assert deltas.sum() == 0
    assert record[RS.RW_YUAN_QUE : RS.RW_YUAN_QUE + players].sum() == 0
    events = state.log[: state.scalars[S.LOG_COUNT]]
    assert len(events) < state.log.shape[0] - 1
    assert not (events[:, 0] == S.EVENT_CHI).any()
    for seat in range(players):
        for index in range(state.n_melds[seat]):
            assert state.melds[seat, index, 0] != S.MELD_CHI
    paid = np.zeros(players, np.int64)
    first, last = H.EVENT_ITEM, H.EVENT_ITEM + len(SE.ITEM_KINDS)
    for event, payer, payee, amount in events:
        if first <= event < last:
            paid[payer] -= amount
            paid[payee] += amount
    assert (paid == deltas).all()
    if how == HOW_DISCARD:
        for w in range(n_winners):
            features = record[R.R_FEATURES + w]
            if features & H.FEATURE_PATTERN == PING_HU:
                assert features & EXCEPTIONS, features
    return n_winners


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("agent", [AGENT_EFFICIENCY, AGENT_RANDOM])
def test_bulk_games_keep_every_invariant(players, agent):
    options = WenganOptions(player_count=players, dealer_bonus_mode="lian_zhuang")
    params = options.params()
    tables = load_tables()
    walls = shuffled_walls(GAMES, 108, 14 + players)
    state = S.new_state(log_capacity=1024, agents=(agent,) * 4)
    seed_agents(players)
    dealer, streak = 0, 0
    outcomes = {"wins": 0, "multi": 0, "kongs": 0, "bao_ting": 0}
    for index in range(GAMES):
        record = np.zeros(N_WENGAN_RECORD, np.int64)
        next_dealer = WE.play_hand(
            state, walls[index], players, dealer, streak, params, tables, record
        )
        assert record[RS.RW_STREAK] == streak
        n_winners = check_game(state, record, players)
        outcomes["wins"] += n_winners > 0
        outcomes["multi"] += n_winners > 1
        outcomes["kongs"] += int(record[RS.RW_KONGS : RS.RW_KONGS + 4].sum())
        outcomes["bao_ting"] += record[RS.RW_BAO_TING] != 0
        if n_winners == 0:  # 荒庄: the dealer keeps the deal and his count (§wengan-dealer-bonus)
            assert next_dealer == dealer and record[RS.RW_NEXT_STREAK] == streak
        dealer, streak = next_dealer, int(record[RS.RW_NEXT_STREAK])
    assert outcomes["wins"] > 0 and outcomes["kongs"] > 0
    if agent == AGENT_EFFICIENCY:
        assert outcomes["bao_ting"] > 0


def test_replay_gives_the_played_record():
    """A hand replayed with the log on (its dealer and 连庄 count from the hands before it) has
    the record play_records gave it."""
    options = WenganOptions(player_count=3, dealer_bonus_mode="lian_zhuang")
    walls = shuffled_walls(40, 108, 5)
    dealers = np.zeros(5, np.int64)
    records = play_records(options, walls, dealers, 8, (0, 1, 0), 3)
    for index in (0, 13, 39):
        record, events, _ = replay_hand(options, walls, dealers, 8, (0, 1, 0), 3, index)
        assert (record == records[index]).all()
        assert len(events) > 0


def test_the_engine_plays_each_hand_with_the_count_the_settle_hook_set():
    """连庄 (庄家每连续胡牌 +1n分; §wengan-dealer-bonus: a 荒庄 leaves n, the 一炮全响 discarder
    restarts at 0): within a session each hand is played with the count the previous hand's settle
    hook set (``NEXT_STREAK``), not the engine's count of kept deals."""
    options = WenganOptions(player_count=3, dealer_bonus_mode="lian_zhuang")
    walls = shuffled_walls(400, 108, 9)
    records = play_records(options, walls, np.zeros(20, np.int64), 20, (0, 0, 0), 1)
    differs = 0
    for index in range(1, 400):
        if index % 20 == 0:
            assert records[index, RS.RW_STREAK] == 0
            continue
        previous = records[index - 1]
        assert records[index, RS.RW_STREAK] == previous[RS.RW_NEXT_STREAK]
        kept = previous[R.R_DEALER] == previous[R.R_NEXT_DEALER]
        differs += kept and previous[RS.RW_NEXT_STREAK] != previous[RS.RW_STREAK] + 1
    assert differs > 0  # 荒庄 (or 全响) kept the deal without adding one
