"""The efficiency agent's decisions (sim.kernels.agents), checked with the public evaluator."""

from __future__ import annotations

import numpy as np
import strategies as S

from sim import hand
from sim.kernels import agents as AG
from sim.kernels import hand as H
from sim.kernels import state as ST
from sim.tables import load_tables
from sim.wall import shuffled_walls

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
        tables,
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
