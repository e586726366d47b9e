"""The toy variant's hooks (see ``__init__``)."""

from __future__ import annotations

import numpy as np

from sim.kernels._jit import kernel
from sim.kernels.hand import FORM_STANDARD
from sim.kernels.moves import (
    ACT_KONG,
    ACT_PONG,
    ACT_WIN,
    HOW_DISCARD,
    HOW_KONG_BLOOM,
    HOW_ROB_KONG,
    HOW_SELF_DRAW,
    KONG_REPLACEMENT,
    NO_WIN,
    O_N_WINNERS,
    O_PAYER,
    O_WINNER,
    add_action,
    flip,
    meld_index,
    plausible_win,
)
from sim.kernels.record import R_INDICATOR, R_VARIANT
from sim.kernels.state import (
    DEALER,
    DEALER_STREAK,
    DRAW_REPLACEMENT,
    DRAW_SOURCE,
    HAND_ROW,
    HAND_STEER_FORMS,
    MELD_ADDED_KONG,
    MELD_CONCEALED_KONG,
    MELD_DISCARD_KONG,
    MELD_PONG,
    N_PLAYERS,
    give_tile,
    take_tile,
    tiles_left,
)
from sim.kernels.status import StatusColumn, status_slots

SEAT_STATUS = (StatusColumn("events", "events ``observe`` heard about this seat", "count"),)
(ST_EVENTS,) = status_slots(SEAT_STATUS)
R_STREAK = R_VARIANT  # the dealer's streak the settle hook was given
R_EVENTS = R_VARIANT + 1  # events observe heard in all


@kernel
def setup(variant, state, params, record):
    state.status[HAND_ROW, HAND_STEER_FORMS] = FORM_STANDARD


@kernel
def plan_actions(variant, state, seat, params, actions):
    return 0


@kernel
def win_forms(variant):
    return FORM_STANDARD


@kernel
def lists_chi(variant):
    return False


@kernel
def win(variant, state, seat, how, tile, params, tables):
    if plausible_win(
        state.keys[seat], state.wild_count[seat], -1, state.wild, FORM_STANDARD, tables
    ):
        return 0
    return NO_WIN


@kernel
def own_turn_actions(variant, state, seat, drawn, params, tables, actions):
    n_actions = 0
    if variant.win(state, seat, np.int64(HOW_SELF_DRAW), drawn, params, tables) != NO_WIN:
        replaced = drawn >= 0 and state.scalars[DRAW_SOURCE] == DRAW_REPLACEMENT
        how = HOW_KONG_BLOOM if replaced else HOW_SELF_DRAW
        n_actions = add_action(actions, n_actions, ACT_WIN, drawn, how, 0, 1)
    if tiles_left(state) == 0:
        return n_actions
    for kind in range(34):
        if state.hands[seat, kind] == 4:
            n_actions = add_action(actions, n_actions, ACT_KONG, kind, MELD_CONCEALED_KONG, 0, 0)
        elif state.hands[seat, kind] == 1 and meld_index(state, seat, MELD_PONG, kind) >= 0:
            n_actions = add_action(actions, n_actions, ACT_KONG, kind, MELD_ADDED_KONG, 0, 0)
    return n_actions


@kernel
def claim_actions(
    variant, state, offerer, tile, how, kong_type, kong_from, params, tables, claims, n_claims
):
    for offset in range(1, state.scalars[N_PLAYERS]):
        seat = (offerer + offset) % state.scalars[N_PLAYERS]
        n_actions = 0
        give_tile(state, seat, tile)
        won = variant.win(state, seat, how, tile, params, tables)
        take_tile(state, seat, tile)
        if won != NO_WIN:
            n_actions = add_action(claims[seat], n_actions, ACT_WIN, tile, how, won, 1)
        if how == HOW_DISCARD:
            held = state.hands[seat, tile]
            if held == 3 and tiles_left(state) > 0:
                n_actions = add_action(
                    claims[seat], n_actions, ACT_KONG, tile, MELD_DISCARD_KONG, 0, 0
                )
            if held >= 2:
                n_actions = add_action(claims[seat], n_actions, ACT_PONG, tile, 0, 0, 0)
        n_claims[seat] = n_actions


@kernel
def discard_mask(variant, hand, status, seat, drawn, params, allowed):
    return -1


@kernel
def max_winners(variant, how, kong_type, params):
    if how == HOW_DISCARD or (how == HOW_ROB_KONG and kong_type == MELD_ADDED_KONG):
        return 1
    return 0


@kernel
def kong(variant, state, konger, kind, kong_type, from_seat, params, tables, outcome):
    return KONG_REPLACEMENT


@kernel
def observe(variant, status, event, seat, tile, detail, params):
    if seat >= 0:
        status[seat, ST_EVENTS] += 1


@kernel
def _after_hand(variant, state, params, record):
    """The flip after the hand (Weng'an's chicken flip is one) and the engine's facts."""
    record[R_INDICATOR] = flip(variant, state, params)
    record[R_STREAK] = state.scalars[DEALER_STREAK]
    heard = 0
    for seat in range(state.scalars[N_PLAYERS]):
        heard += state.status[seat, ST_EVENTS]
    record[R_EVENTS] = heard


@kernel
def settle_win(variant, state, outcome, params, tables, record, delta):
    """The winner takes 1 from each other seat, or 3 from the discarder or konger who paid."""
    winner = outcome[O_WINNER]
    payer = outcome[O_PAYER]
    for seat in range(state.scalars[N_PLAYERS]):
        if seat == winner:
            continue
        if payer < 0:
            delta[seat] -= 1
            delta[winner] += 1
        elif seat == payer:
            delta[seat] -= 3
            delta[winner] += 3
    _after_hand(variant, state, params, record)
    return winner if outcome[O_N_WINNERS] == 1 else payer


@kernel
def settle_draw(variant, state, last_drawer, params, tables, record, delta):
    """荒庄: the dealer deals again (a streak)."""
    _after_hand(variant, state, params, record)
    return state.scalars[DEALER]
