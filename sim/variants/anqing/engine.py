"""Anqing's engine: the generic game loop compiled with Anqing's hooks, and nothing else.

``ANQING`` is the variant marker (``sim.kernels.variant_type``) whose methods are the hooks of
``hooks``; the cached entry points below call the generic loop (``sim.kernels.engine``) with it,
so numba compiles and caches one engine for Anqing, in Anqing's cache folder. Besides the two
that play hands, the single steps (a kong, a win's settlement, the own-turn and claim listings)
are entry points too, for tests and tools that set up an exact position.

``play_hands`` adds the 连庄累加 carry (``lian_zhuang_cumulative``, §anqing-lian-zhuang) after the
hands are played: it depends on the amounts of the dealer's earlier wins in the session, which
one hand's settlement does not see, and changes no move of play.
"""

from __future__ import annotations

import numpy as np
from numba.core import types

from ...kernels import engine as generic
from ...kernels._jit import kernel
from ...kernels.moves import emit
from ...kernels.record import (
    OUTCOME_WIN,
    R_DEALER,
    R_DELTA,
    R_OUTCOME,
    R_WINNER,
)
from ...kernels.variant_type import HOOK_NAMES, define_variant
from ...running.compile_ahead import (
    AheadKernel,
    Samples,
    agent_kernels,
    dealing_kernels,
    own_turn_kernels,
)
from . import agent, hooks, scoring
from .options import P_LIAN_ZHUANG_CUMULATIVE
from .record_slots import RA_AMOUNT, RA_CARRY

ANQING = define_variant("anqing", {name: getattr(hooks, name) for name in HOOK_NAMES})


@kernel
def add_carry(records, hands_per_session, start, carry):
    """连庄累加 (§anqing-lian-zhuang, ``lian_zhuang_cumulative``): in a hand the dealer wins, each
    payer also pays what he paid the dealer in the dealer's earlier wins of his spell (the hands
    since he last became dealer; a 荒庄 adds nothing), without their own carries. ``carry`` (4,)
    holds the spell's sums on entry (hand ``start`` of a block continuing a session) and on exit."""
    dealer = np.int64(-1)
    for index in range(records.shape[0]):
        record = records[index]
        if (start + index) % hands_per_session == 0 or record[R_DEALER] != dealer:
            dealer = record[R_DEALER]
            for seat in range(4):
                carry[seat] = 0
        if record[R_OUTCOME] != OUTCOME_WIN or record[R_WINNER] != dealer:
            continue
        for payer in range(4):
            if payer == dealer:
                record[RA_CARRY + payer] = 0
                continue
            record[RA_CARRY + payer] = carry[payer]
            record[R_DELTA + payer] -= carry[payer]
            record[R_DELTA + dealer] += carry[payer]
            carry[payer] += record[RA_AMOUNT + payer]


@kernel
def session_carry(records, hands_per_session, params):
    """The 累加 carry over a block of records played from a session's start, when
    ``lian_zhuang_cumulative`` is on (``add_carry``)."""
    if params[P_LIAN_ZHUANG_CUMULATIVE] != 0:
        add_carry(records, hands_per_session, np.int64(0), np.zeros(4, np.int64))


@kernel
def play_hands(
    state, walls, n_players, first_dealers, hands_per_session, params, tables, records,
    valued_agents=True,
):  # fmt: skip
    """``sim.kernels.engine.play_hands`` under Anqing's rules, with the 累加 carry.
    ``valued_agents``: ``None`` compiles and plays the loop without the valued agents' searches
    (no seat plays one)."""
    generic.play_hands(
        ANQING, state, walls, n_players, first_dealers, hands_per_session, params, tables,
        records, valued_agents,
    )  # fmt: skip
    session_carry(records, hands_per_session, params)


@kernel
def play_hand(state, wall, n_players, dealer, streak, params, tables, record, valued_agents=True):
    """``sim.kernels.engine.play_hand`` under Anqing's rules: the next dealer. ``valued_agents``
    as in ``play_hands``."""
    return generic.play_hand(
        ANQING, state, wall, n_players, dealer, streak, params, tables, record, valued_agents
    )


@kernel
def make_kong(state, konger, kind, kong_type, from_seat, params, tables, outcome):
    """``sim.kernels.engine.make_kong`` under Anqing's rules."""
    return generic.make_kong(
        ANQING, state, konger, kind, kong_type, from_seat, params, tables, outcome
    )


@kernel
def own_turn_actions(state, seat, drawn, params, tables, actions):
    """Anqing's ``own_turn_actions`` hook as an entry point: the legal own-turn actions."""
    return ANQING.own_turn_actions(state, seat, drawn, params, tables, actions)


@kernel
def claim_actions(
    state, offerer, tile, how, kong_type, kong_from, params, tables, claims, n_claims
):
    """Anqing's ``claim_actions`` hook as an entry point: every seat's legal claims."""
    return ANQING.claim_actions(
        state, offerer, tile, how, kong_type, kong_from, params, tables, claims, n_claims
    )


@kernel
def win(state, seat, how, tile, params, tables):
    """Anqing's ``win`` hook as an entry point: a win's features, or NO_WIN."""
    return ANQING.win(state, seat, how, tile, params, tables)


@kernel
def finish_win(state, outcome, params, tables, record):
    """``sim.kernels.engine.finish_win`` under Anqing's rules."""
    generic.finish_win(ANQING, state, outcome, params, tables, record)


@kernel
def settle_exhausted(state, last_drawer, params, tables, record):
    """``sim.kernels.engine.settle_exhausted`` under Anqing's rules (荒庄)."""
    generic.settle_exhausted(ANQING, state, last_drawer, params, tables, record)


@kernel
def observe(state, event, seat, tile, detail, params):
    """Tell Anqing's ``observe`` hook an event (and log it), as the engine's ``emit`` does."""
    emit(ANQING, state, event, seat, tile, detail, params)


@kernel
def setup(state, params, record):
    """Anqing's ``setup`` hook as an entry point (the flip, the 钻, the seats' flags)."""
    ANQING.setup(state, params, record)


def compile_ahead() -> tuple[AheadKernel, ...]:
    """The big cached kernels Anqing's loop calls, in the order its compile reaches them, for
    the helper process of a cold compile (``sim.running.compile_ahead``)."""
    i = Samples.integer
    yes = np.bool_(True)
    # The win hook's scorer, seat_score (scoring.best_score), is reached about 5 s into this
    # process's compile, before the helper could finish it: the helper compiles best_score's
    # readings, which this process reaches after compiling the wait search (_standard_waits)
    # itself (docs/engine.md, "Compile time"). 直叫's question, zhi_jiao_allowed, is this
    # process's too: the helper, with it, made this process wait for the agents' questions (4 s
    # more for their discard question than it saved). With those lighter (no valued
    # agent's search in a plain table's engine) it also compiles the state's first kernels.
    return (
        *dealing_kernels(),
        # mark_danger(status, seat, ST_MOUTHS_FROM): the column constant literal
        AheadKernel(
            agent.mark_danger,
            lambda s: (s.state.status, i, types.literal(hooks.ST_MOUTHS_FROM)),
        ),
        # _best_standard(naturals, win, ctx, melded_winds, params): the standard readings
        AheadKernel(
            scoring._best_standard,
            lambda s: (s.seat_values, s.seat_values, s.seat_values, i, s.params),
        ),
        # _best_seven_pairs(naturals, win, ctx, all_zuan, params)
        AheadKernel(
            scoring._best_seven_pairs,
            lambda s: (s.seat_values, s.seat_values, s.seat_values, yes, s.params),
        ),
        # _best_shisanlan(hand, zuan, all_zuan, params): 十三烂
        AheadKernel(scoring._best_shisanlan, lambda s: (s.seat_values, i, yes, s.params)),
        *own_turn_kernels(),
        *agent_kernels(),
    )
