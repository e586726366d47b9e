"""Weng'an's engine: the generic game loop compiled with Weng'an's hooks, and nothing else.

``WENGAN`` is the variant marker (``sim.kernels.variant_type``) whose methods are the hooks of
``hooks``; the cached entry points below call the generic loop (``sim.kernels.engine``) with it,
so numba compiles and caches one engine for Weng'an, in Weng'an's cache folder. Besides the two
that play hands, the single steps (a kong, a claim search, a win's settlement, the plan,
own-turn and claim listings) are entry points too, for tests and tools that set up an exact
position.
"""

from __future__ import annotations

import numpy as np
from numba.core import types

from ...kernels import engine as generic
from ...kernels._jit import kernel
from ...kernels.moves import emit
from ...kernels.variant_type import HOOK_NAMES, define_variant
from ...running.compile_ahead import (
    AheadKernel,
    Samples,
    agent_kernels,
    dealing_kernels,
    own_turn_kernels,
    plan_kernel,
)
from . import agent, hooks, scoring, settle

WENGAN = define_variant("wengan", {name: getattr(hooks, name) for name in HOOK_NAMES})


@kernel
def play_hands(
    state, walls, n_players, first_dealers, hands_per_session, params, tables, records,
    valued_agents=True,
):  # fmt: skip
    """``sim.kernels.engine.play_hands`` under Weng'an's rules. ``valued_agents``: ``None``
    compiles and plays the loop without the valued agents' searches (no seat plays one)."""
    generic.play_hands(
        WENGAN, state, walls, n_players, first_dealers, hands_per_session, params, tables,
        records, valued_agents,
    )  # fmt: skip


@kernel
def play_hand(state, wall, n_players, dealer, streak, params, tables, record, valued_agents=True):
    """``sim.kernels.engine.play_hand`` under Weng'an's rules: the next dealer. ``valued_agents``
    as in ``play_hands``."""
    return generic.play_hand(
        WENGAN, state, wall, n_players, dealer, streak, params, tables, record, valued_agents
    )


@kernel
def make_kong(state, konger, kind, kong_type, from_seat, params, tables, outcome):
    """``sim.kernels.engine.make_kong`` under Weng'an's rules."""
    return generic.make_kong(
        WENGAN, state, konger, kind, kong_type, from_seat, params, tables, outcome
    )


@kernel
def claim_winners(
    state, tile, offerer, how, kong_type, kong_from, max_winners, params, tables, outcome
):
    """``sim.kernels.engine.claim_winners`` under Weng'an's rules."""
    return generic.claim_winners(
        WENGAN,
        state,
        tile,
        offerer,
        how,
        kong_type,
        kong_from,
        max_winners,
        params,
        tables,
        outcome,
    )


@kernel
def own_turn_actions(state, seat, drawn, params, tables, actions):
    """Weng'an's ``own_turn_actions`` hook as an entry point: the legal own-turn actions."""
    return WENGAN.own_turn_actions(state, seat, drawn, params, tables, actions)


@kernel
def plan_actions(state, seat, params, actions):
    """Weng'an's ``plan_actions`` hook as an entry point: the plans offered at the deal."""
    return WENGAN.plan_actions(state, seat, params, actions)


@kernel
def claim_actions(
    state, offerer, tile, how, kong_type, kong_from, params, tables, claims, n_claims
):
    """Weng'an's ``claim_actions`` hook as an entry point: every seat's legal claims."""
    return WENGAN.claim_actions(
        state, offerer, tile, how, kong_type, kong_from, params, tables, claims, n_claims
    )


@kernel
def finish_win(state, outcome, params, tables, record):
    """``sim.kernels.engine.finish_win`` under Weng'an's rules."""
    generic.finish_win(WENGAN, state, outcome, params, tables, record)


@kernel
def settle_exhausted(state, last_drawer, params, tables, record):
    """``sim.kernels.engine.settle_exhausted`` under Weng'an's rules (荒庄)."""
    generic.settle_exhausted(WENGAN, state, last_drawer, params, tables, record)


@kernel
def observe(state, event, seat, tile, detail, params):
    """Tell Weng'an's ``observe`` hook an event (and log it), as the engine's ``emit`` does."""
    emit(WENGAN, state, event, seat, tile, detail, params)


@kernel
def setup(state, params, record):
    """Weng'an's ``setup`` hook as an entry point (定缺 named, 原缺, the first-turn flags)."""
    WENGAN.setup(state, params, record)


def compile_ahead() -> tuple[AheadKernel, ...]:
    """The big cached kernels Weng'an's loop calls, in the order its compile reaches them, for
    the helper process of a cold compile (``sim.running.compile_ahead``)."""
    i = Samples.integer
    # settle(hand, seats, concealed, melds, discards, n_discards, params, tables, items, deltas),
    # the whole settlement (§wengan-settlement-order), is reached 15-20 s into this process's
    # compile, before the helper could finish it: the helper compiles three of its big parts
    # instead, which this process reaches in turn, and this process compiles settle on top of them
    # (鸡分's, chicken_items, is reached too soon after them to be worth listing). The pattern
    # search, best_pattern, is listed before them: the win hook reaches it before win_items, which
    # calls it, would be done (docs/engine.md, "Two cores for a cold compile").
    return (
        *dealing_kernels(),
        # mark_danger(status, seat, ST_BAO_TING, ST_MELDS_MADE): the column constants literal
        AheadKernel(
            agent.mark_danger,
            lambda s: (s.state.status, i, types.literal(hooks.ST_BAO_TING),
                       types.literal(hooks.ST_MELDS_MADE)),
        ),
        # best_pattern(counts, melds, n_melds, win, heavenly, que_suit, params, tables): the
        # win hook's pattern search, reached early (win_items calls it too)
        AheadKernel(
            scoring.best_pattern,
            lambda s: (s.seat_values, s.state.melds[0], i, i, np.bool_(False), i, s.params,
                       s.tables),
        ),
        # earthly(state, seat, how, params): 地胡
        AheadKernel(hooks.earthly, lambda s: (s.state, i, i, s.params)),
        plan_kernel(),
        # encode_seats(state, winners, n_winners, win_tile, features, seats, concealed, melds)
        AheadKernel(
            hooks.encode_seats,
            lambda s: (s.state, s.seat_values, i, i, s.seat_values, s.grid, s.grid,
                       s.state.melds),
        ),
        # win_items(seat, hand, seats, concealed, melds, params, tables, items, n_items)
        AheadKernel(
            settle.win_items,
            lambda s: (i, s.seat_values, s.grid, s.grid, s.state.melds, s.params, s.tables,
                       s.grid, i),
        ),
        # collecting_seats(hand, seats, concealed, melds, params, tables, out)
        AheadKernel(
            settle.collecting_seats,
            lambda s: (s.seat_values, s.grid, s.grid, s.state.melds, s.params, s.tables,
                       s.seat_values),
        ),
        # cha_jiao_items(hand, seats, concealed, melds, collecting, params, tables, items,
        #                n_items): 荒庄查叫
        AheadKernel(
            settle.cha_jiao_items,
            lambda s: (s.seat_values, s.grid, s.grid, s.state.melds, s.seat_values, s.params,
                       s.tables, s.grid, i),
        ),
        # fill_record(items, n_items, collecting, seats, melds, draw_game, record)
        AheadKernel(
            hooks.fill_record,
            lambda s: (s.grid, i, s.seat_values, s.grid, s.state.melds, np.bool_(True),
                       s.record),
        ),
        # ready_discards(state, seat, params, tables): 报听's question
        AheadKernel(hooks.ready_discards, lambda s: (s.state, i, s.params, s.tables)),
        *own_turn_kernels(),
        *agent_kernels(),
    )  # fmt: skip
