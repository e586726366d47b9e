"""Anhua's engine: the generic game loop compiled with Anhua's hooks, and nothing else.

``ANHUA`` is the variant marker (``sim.kernels.variant_type``) whose methods are the hooks of
``hooks``; the cached entry points below call the generic loop (``sim.kernels.engine``) with it,
so numba compiles and caches one engine for Anhua, in Anhua's cache folder. Besides the two
that play hands, the single steps (a kong, a claim search, a win's settlement) are entry points
too, for tests and tools that set up an exact position.
"""

from __future__ import annotations

from ...kernels import engine as generic
from ...kernels._jit import kernel
from ...kernels.variant_type import HOOK_NAMES, define_variant
from ...running.compile_ahead import (
    AheadKernel,
    Samples,
    agent_kernels,
    dealing_kernels,
    own_turn_kernels,
)
from . import hooks, scoring

ANHUA = define_variant("anhua", {name: getattr(hooks, name) for name in HOOK_NAMES})


@kernel
def play_hands(
    state, walls, n_players, first_dealers, hands_per_session, params, tables, records,
    valued_agents=True,
):  # fmt: skip
    """``sim.kernels.engine.play_hands`` under Anhua's rules. ``valued_agents``: ``None``
    compiles and plays the loop without the valued agents' searches (no seat plays one)."""
    generic.play_hands(
        ANHUA, state, walls, n_players, first_dealers, hands_per_session, params, tables,
        records, valued_agents,
    )  # fmt: skip


@kernel
def play_hand(state, wall, n_players, dealer, streak, params, tables, record, valued_agents=True):
    """``sim.kernels.engine.play_hand`` under Anhua's rules: the next dealer. ``valued_agents``
    as in ``play_hands``."""
    return generic.play_hand(
        ANHUA, state, wall, n_players, dealer, streak, params, tables, record, valued_agents
    )


@kernel
def make_kong(state, konger, kind, kong_type, from_seat, params, tables, outcome):
    """``sim.kernels.engine.make_kong`` under Anhua's rules."""
    return generic.make_kong(
        ANHUA, state, konger, kind, kong_type, from_seat, params, tables, outcome
    )


@kernel
def claim_winners(
    state, tile, offerer, how, kong_type, kong_from, max_winners, params, tables, outcome
):
    """``sim.kernels.engine.claim_winners`` under Anhua's rules."""
    return generic.claim_winners(
        ANHUA, state, tile, offerer, how, kong_type, kong_from, max_winners, params, tables, outcome
    )


@kernel
def own_turn_actions(state, seat, drawn, params, tables, actions):
    """Anhua's ``own_turn_actions`` hook as an entry point: the legal own-turn actions."""
    return ANHUA.own_turn_actions(state, seat, drawn, params, tables, actions)


@kernel
def claim_actions(
    state, offerer, tile, how, kong_type, kong_from, params, tables, claims, n_claims
):
    """Anhua's ``claim_actions`` hook as an entry point: every seat's legal claims."""
    ANHUA.claim_actions(
        state, offerer, tile, how, kong_type, kong_from, params, tables, claims, n_claims
    )


@kernel
def finish_win(state, outcome, params, tables, record):
    """``sim.kernels.engine.finish_win`` under Anhua's rules."""
    generic.finish_win(ANHUA, state, outcome, params, tables, record)


def compile_ahead() -> tuple[AheadKernel, ...]:
    """The big cached kernels Anhua's loop calls, in the order its compile reaches them, for the
    helper process of a cold compile (``sim.running.compile_ahead``)."""
    # The agents' questions without the valued agents' searches are about 20 s of the helper's
    # time (37 s with them), which leaves it room for the scorer and the kong check too, which
    # this process reaches in turn (a cold compile of about 51 s instead of 60 s)
    i = Samples.integer
    return (
        *dealing_kernels(),
        # best_win(concealed, meld_suits, n_melds, x_kind, y_kind, how, natural_king, params,
        #          tables): the scorer
        AheadKernel(scoring.best_win, lambda s: (s.hand, i, i, i, i, i, i, s.params, s.tables)),
        # instant_win(hand, status, seat, params): 起手四王/七王
        AheadKernel(hooks.instant_win, lambda s: (s.hand, s.state.status, i, s.params)),
        # kong_allowed(variant, state, seat, kind, kong_type, params, tables): the kong check
        AheadKernel(hooks.kong_allowed, lambda s: (ANHUA, s.state, i, i, i, s.params, s.tables)),
        *own_turn_kernels(),
        *agent_kernels(),
    )
