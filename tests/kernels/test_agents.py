"""The efficiency agent's decisions (sim.kernels.agents), checked with the public evaluator,
and its answers on exact hands when a plan (kinds to be rid of) is given."""

from __future__ import annotations

import numpy as np
import pytest
import strategies as S

from sim import hand
from sim.core.tables import load_tables
from sim.core.tiles import kind_id, parse_tiles
from sim.core.wall import shuffled_walls
from sim.kernels import agents as AG
from sim.kernels import hand as H
from sim.kernels import moves as M
from sim.kernels import state as ST
from sim.kernels.agent_params import default_row

pytestmark = pytest.mark.engine  # the agents' questions, the engines' largest compile

DEFAULT_PARAMS = default_row()
"""Every agent parameter at its default (a seat's row of ``GameState.agent_params``)."""

FORMS = H.FORM_STANDARD | H.OPTION_PAIR_258 | H.FORM_SEVEN_PAIRS | H.OPTION_QUADS


def _dealt_states(n, seed, wild_kinds=()):
    state = ST.new_state()
    for wall in shuffled_walls(n, 108, seed):
        ST.reset(state, wall, 4, 0)
        ST.deal(state, 13, 1)
        for kind in wild_kinds:
            ST.set_wild(state, kind)
        yield state


def _shanten_after(state, seat, kind):
    naturals = state.hands[seat].astype(np.int64).copy()
    naturals[state.wild] = 0
    naturals[kind] -= 1
    return hand.shanten(naturals, int(state.wild_count[seat]), pair="258", seven_pairs=True)


def _discard(state, allowed, tables):
    """The efficiency agent's discard for seat 0, asked as the engine asks it."""
    return AG.choose_discard(
        AG.AGENT_EFFICIENCY,
        state.hands[0],
        state.keys[0],
        state.wild_count[0],
        state.wild,
        state.visible,
        27,
        FORMS,
        allowed,
        np.int64(0),
        DEFAULT_PARAMS,
        tables,
        AG.discard_space(),
    )


def test_discard_reaches_the_least_shanten():
    tables = load_tables()
    allowed = np.ones(34, np.bool_)
    for state in _dealt_states(300, 1, wild_kinds=(18, 19)):
        choice = _discard(state, allowed, tables)
        held = [k for k in range(34) if state.hands[0, k] and not state.wild[k]]
        assert choice in held
        assert _shanten_after(state, 0, choice) == min(_shanten_after(state, 0, k) for k in held)


def test_wilds_are_kept_and_the_allowed_mask_is_respected():
    tables = load_tables()
    for state in _dealt_states(100, 2, wild_kinds=(4,)):
        allowed = np.ones(34, np.bool_)
        allowed[np.flatnonzero(state.hands[0])[:2]] = False
        choice = _discard(state, allowed, tables)
        assert allowed[choice] and state.hands[0, choice] > 0 and not state.wild[choice]
        only_wild = np.zeros(34, np.bool_)
        only_wild[4] = True
        if state.hands[0, 4]:
            assert _discard(state, only_wild, tables) == 4


def test_shanten_many_equals_the_batch_kernel():
    rng = np.random.default_rng(4)
    counts, wilds = S.near_complete_batch(rng, 3000, 13)
    keys = np.empty((3000, 4), np.int64)
    H.keys_batch(counts, keys)
    tables = load_tables()
    for forms in (FORMS, H.FORM_STANDARD, H.FORM_STANDARD | H.FORM_THIRTEEN):
        many = np.empty(3000, np.int64)
        batch = np.empty(3000, np.int8)
        H.shanten_many(keys, wilds.astype(np.int64), forms, tables, many)
        H.shanten_keys_batch(keys, wilds, forms, tables, batch)
        np.testing.assert_array_equal(many, batch)


# --------------------------------------------------------------------------------------------
# Plans: kinds a seat means to be rid of (a suit to play without), chosen at the deal

_TABLES = load_tables()


def _seat(text):
    """Counts (uint8 (34,)), natural suit keys and the other arrays of a seat holding ``text``,
    no wilds, nothing visible."""
    counts = np.zeros(H.N_KINDS, np.uint8)
    for kind in parse_tiles(text):
        counts[kind] += 1
    keys = np.zeros(4, np.int64)
    H.keys_from_counts(counts.astype(np.int64), keys)
    return counts, keys, np.zeros(H.N_KINDS, np.bool_), np.zeros(H.N_KINDS, np.uint8)


def _suit_plans(*suits):
    """ACT_PLAN rows, one per suit (0 m, 1 p, 2 s): its nine kinds."""
    actions = np.zeros((M.MAX_ACTIONS, M.N_ACTION_FIELDS), np.int64)
    n = 0
    for suit in suits:
        n = M.add_action(actions, n, M.ACT_PLAN, 9 * suit, 511 << (9 * suit), 0, 0)
    return actions, n


def _plan_discard(agent, text, plan, forms=H.FORM_STANDARD):
    counts, keys, wild, visible = _seat(text)
    allowed = np.ones(H.N_KINDS, np.bool_)
    return AG.choose_discard(
        agent,
        counts,
        keys,
        0,
        wild,
        visible,
        27,
        forms,
        allowed,
        np.int64(plan),
        DEFAULT_PARAMS,
        _TABLES,
        AG.discard_space(),
    )


def test_the_default_agent_plans_to_drop_its_weakest_suit():
    """Offered each suit to play without, the efficiency and self-draw agents take the suit they
    hold fewest tiles of (the first listed among equals); the random agent makes no plan."""
    counts, _, _, _ = _seat("1m 2m 3m 4m 5p 6p 1s 2s 3s 4s 5s 9s 9s")
    actions, n = _suit_plans(0, 1, 2)
    for agent in (AG.AGENT_EFFICIENCY, AG.AGENT_SELF_DRAW):
        assert AG.choose_plan(agent, counts, actions, n) == 511 << 9  # p: two tiles
    assert AG.choose_plan(AG.AGENT_RANDOM, counts, actions, n) == 0
    even, _, _, _ = _seat("1m 2m 3m 4m 1p 2p 3p 4p 1s 2s 3s 4s 5s")
    assert AG.choose_plan(AG.AGENT_EFFICIENCY, even, actions, n) == 511  # m: first of the equals
    only_s, n_s = _suit_plans(2)
    assert AG.choose_plan(AG.AGENT_EFFICIENCY, counts, only_s, n_s) == 511 << 18


def test_a_planned_suit_is_discarded_first_the_most_isolated_tile_first():
    """With a plan the efficiency agent sheds the plan's kinds while it holds any, the one with
    the fewest neighbours first (ties: the lowest kind), though its shanten would rather lose
    the lone 9m; without a plan it discards by shanten, and a plan it holds nothing of changes
    nothing."""
    hand = "1m 2m 3m 5m 6m 7m 5p 6p 7p 2s 3s 9s 9s 9m"
    p_suit = 511 << 9
    efficient = AG.AGENT_EFFICIENCY
    assert _plan_discard(efficient, hand, 0) == kind_id("9m")
    assert _plan_discard(efficient, hand, p_suit) == kind_id("5p")  # 5p and 7p score alike
    assert _plan_discard(efficient, hand.replace("7p", "9p"), p_suit) == kind_id("9p")
    assert _plan_discard(AG.AGENT_SELF_DRAW, hand.replace("7p", "9p"), p_suit) == kind_id("9p")
    no_p = "1m 2m 3m 5m 6m 7m 2s 3s 4s 9s 9s 4m 8m 1s"
    assert _plan_discard(efficient, no_p, p_suit) == _plan_discard(efficient, no_p, 0)


def test_no_claim_and_no_kong_of_a_planned_kind():
    """A pong, a kong on a discard or an own-turn kong would keep the kind for good: the
    efficiency agent declines them for a kind its plan is to be rid of, and takes them without
    the plan."""
    counts, keys, wild, _ = _seat("5p 5p 5p 1m 2m 3m 4m 5m 6m 7s 8s 9s 9s")
    kind = kind_id("5p")
    actions = np.zeros((M.MAX_ACTIONS, M.N_ACTION_FIELDS), np.int64)
    n = M.add_action(actions, 0, M.ACT_PONG, kind, 0, 0, 0)

    def claim(plan):
        return AG.choose_claim(
            AG.AGENT_EFFICIENCY, counts, keys, 0, wild, kind, actions, n, H.FORM_STANDARD,
            np.int64(plan), DEFAULT_PARAMS, _TABLES,
        )  # fmt: skip

    assert claim(0) == 0
    assert claim(511 << 9) == -1
    assert AG.accepts_kong(AG.AGENT_EFFICIENCY, kind, np.int64(0))
    assert not AG.accepts_kong(AG.AGENT_EFFICIENCY, kind, np.int64(511 << 9))
    own = np.zeros((M.MAX_ACTIONS, M.N_ACTION_FIELDS), np.int64)
    n_own = M.add_action(own, 0, M.ACT_KONG, kind, ST.MELD_CONCEALED_KONG, 0, 0)
    n_own = M.add_action(own, n_own, M.ACT_KONG, kind_id("9s"), ST.MELD_CONCEALED_KONG, 0, 0)
    assert AG.choose_own_turn(AG.AGENT_EFFICIENCY, own, n_own, np.int64(0)) == 0
    assert AG.choose_own_turn(AG.AGENT_EFFICIENCY, own, n_own, np.int64(511 << 9)) == 1
    assert AG.choose_own_turn(AG.AGENT_EFFICIENCY, own, 1, np.int64(511 << 9)) == -1
