"""Single engine steps on built states, for tests that set up an exact position: the engine's
own kernels (``make_kong``, ``claim_winners``, ``finish_win``) with Anhua's hooks."""

from __future__ import annotations

import numpy as np

from sim.core.tables import load_tables
from sim.kernels import engine as E
from sim.kernels import moves as M
from sim.kernels import state as S
from sim.variants.anhua import engine as AE


def open_kong(state, konger, kind, kong_type, from_seat, params, tables):
    """Make a kong the hooks allowed (robbing, the kong, Anhua's open kong) and settle a win it
    ends in. Returns (KONG_* result, record, locked seats as a list of 4 bools)."""
    record = np.full(E.N_RECORD, -1, np.int64)
    outcome = np.zeros(M.N_OUTCOME, np.int64)
    result = AE.make_kong(state, konger, kind, kong_type, from_seat, params, tables, outcome)
    if result == M.KONG_HAND_OVER:
        AE.finish_win(state, outcome, params, tables, record)
    return result, record, (state.status[:4, S.ST_LOCKED] != 0).tolist()


def claim_winners(
    state, tile, from_seat, how, params, tables, max_winners=4, kong_type=-1, kong_from=-1
):
    """The engine's claim search on ``tile`` (the variant's listed wins, the agents' choice):
    (number of winners, outcome). ``kong_type`` and ``kong_from`` describe a kong being robbed."""
    outcome = np.zeros(M.N_OUTCOME, np.int64)
    n_winners = AE.claim_winners(
        state, tile, from_seat, how, kong_type, kong_from, max_winners, params, tables, outcome
    )
    return n_winners, outcome


def finish_win(state, outcome, how, payer, tile, params):
    """Settle the win in ``outcome`` (winners and features filled) as the engine does."""
    record = np.full(E.N_RECORD, -1, np.int64)
    outcome[M.O_HOW] = how
    outcome[M.O_PAYER] = payer
    outcome[M.O_TILE] = tile
    outcome[M.O_FACTOR] = 1
    AE.finish_win(state, outcome, params, load_tables(), record)
    return record
