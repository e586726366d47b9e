"""The self-play game loop (numba), shared by every variant.

Plays one hand (局) from a shuffled wall: the deal, turns of draw and discard, claims on each
discard (wins first, several winners in turn order where the variant allows; then a kong or a
pong by any seat; then a chi), own-turn kongs with robbing, the exhaustive draw, settlement and
the next dealer. Whatever a rule set decides (wilds, who may win how and with what features,
which claims and kongs are legal, what a kong does next, payments) is asked of the variant's
hooks: ``variant`` is a marker whose methods are the hooks (``sim.kernels.variant_type``), and
these functions are compiled once per variant, inside that variant's cached entry points
(``sim/variants/<name>/engine.py``), never on their own. Every decision of a player is asked of
its agent
(``sim.kernels.agents``). Records are int64 rows with the ``R_*`` slots of
``sim.kernels.record``, re-exported here.

After a hand the state shows every winner's hand *with* the winning tile: on 一炮多响 the one
physical discard appears in each winner's hand.
"""

from __future__ import annotations

import numpy as np

from ._jit import generic_inline_kernel, generic_kernel
from .agents import (
    CLAIM_CHI,
    CLAIM_NONE,
    CLAIM_PONG,
    accepts_kong,
    accepts_win,
    choose_claim,
    choose_discard,
)
from .hand import N_KINDS
from .moves import (
    HOW_DISCARD,
    HOW_ROB_KONG,
    HOW_SELF_DRAW,
    KONG_CONTINUE,  # noqa: F401 (re-exported with the record slots)
    KONG_HAND_OVER,
    N_OUTCOME,
    NO_WIN,
    O_FACTOR,
    O_FEATURES,
    O_HOW,
    O_N_WINNERS,
    O_PAYER,
    O_TILE,
    O_WINNER,
    meld_index,
    plausible_win,
    set_single_win,
    takes_claimed_win,
)
from .record import *  # noqa: F403 (the record slots belong to the engine's interface)
from .record import (
    OUTCOME_DRAW,
    OUTCOME_WIN,
    R_DEALER,
    R_DEALER_COMPLETE,
    R_DELTA,
    R_FEATURES,
    R_KINGS_DEALT,
    R_N_WINNERS,
    R_NEXT_DEALER,
    R_OUTCOME,
    R_PAYER,
    R_TILES_LEFT,
    R_TURNS,
    R_WIN_KIND,
    R_WINNER,
    R_WINNING_TILE,
)
from .state import (
    EVENT_CHI,
    EVENT_DEAL,
    EVENT_DISCARD,
    EVENT_DRAW,
    EVENT_EXHAUSTED,
    EVENT_KONG,
    EVENT_PONG,
    EVENT_ROBBED,
    EVENT_WIN,
    HAND_ROW,
    HAND_STEER_FORMS,
    MELD_ADDED_KONG,
    MELD_CHI,
    MELD_CONCEALED_KONG,
    MELD_DISCARD_KONG,
    MELD_PONG,
    N_PLAYERS,
    N_TILES,
    ST_ACTED,
    ST_CLAIMED,
    ST_LOCKED,
    TURNS,
    add_discard,
    add_meld,
    deal,
    give_tile,
    log_event,
    pop_front,
    reset,
    take_tile,
    tiles_left,
)


@generic_kernel
def finish_win(variant, state, outcome, params, record):
    """Log and record the win described by ``outcome``, settle it through the variant's hook
    and record the payments and the next dealer."""
    n_winners = outcome[O_N_WINNERS]
    how = outcome[O_HOW]
    tile = outcome[O_TILE]
    for w in range(n_winners):
        log_event(state, EVENT_WIN, outcome[O_WINNER + w], tile, how)
        record[R_WINNER + w] = outcome[O_WINNER + w]
        record[R_FEATURES + w] = outcome[O_FEATURES + w]
    n_players = state.scalars[N_PLAYERS]
    delta = np.zeros(n_players, np.int64)
    next_dealer = variant.settle_win(state, outcome, params, record, delta)
    record[R_OUTCOME] = OUTCOME_WIN
    record[R_WIN_KIND] = how
    record[R_N_WINNERS] = n_winners
    record[R_PAYER] = outcome[O_PAYER]
    record[R_WINNING_TILE] = tile
    for seat in range(n_players):
        record[R_DELTA + seat] = delta[seat]
    record[R_NEXT_DEALER] = next_dealer


@generic_kernel
def claim_winners(
    variant, state, tile, from_seat, barred_seat, how, max_winners, params, tables, outcome
):
    """Seats that win on ``tile`` offered by ``from_seat`` (a discard, a robbed kong tile), in
    turn order from its next player, at most ``max_winners`` (0: nobody may win): written to the
    outcome's winners and features, with their number (also returned). ``barred_seat`` may not
    win on it (-1: none): the player who discarded the tile of a robbed 直杠, since nobody wins
    on his own discard (rules-spec A3.4 step 1). A seat that may win and passes is 漏胡."""
    outcome[O_N_WINNERS] = 0
    if max_winners <= 0 or not variant.tile_winnable(state, tile, params):
        return 0
    forms = variant.win_forms()
    n_players = state.scalars[N_PLAYERS]
    n_winners = 0
    for offset in range(1, n_players):
        other = (from_seat + offset) % n_players
        if other == barred_seat or (state.passed_wins[other] >> tile) & 1:
            continue  # 漏胡: passed a win on this kind since its last draw
        if not plausible_win(
            state.keys[other], state.wild_count[other], tile, state.wild, forms, tables
        ):
            continue
        give_tile(state, other, tile)
        won = variant.win(state, other, how, tile, params, tables)
        take_tile(state, other, tile)
        if won != NO_WIN and not takes_claimed_win(state, other, won, tile):
            continue
        if won != NO_WIN:
            outcome[O_WINNER + n_winners] = other
            outcome[O_FEATURES + n_winners] = won
            n_winners += 1
            if n_winners == max_winners:
                break
    outcome[O_N_WINNERS] = n_winners
    return n_winners


@generic_kernel
def make_kong(variant, state, konger, kind, kong_type, from_seat, params, tables, outcome):
    """A kong the variant allowed: robbing first (抢杠胡, where the variant allows it: the robbed
    tile goes to each robber, the konger pays), then the kong itself, then the variant's kong
    procedure. kong_type: MELD_CONCEALED_KONG (暗杠), MELD_ADDED_KONG (the fourth tile from the
    hand onto a pong) or MELD_DISCARD_KONG (three in hand and ``from_seat``'s last discard).
    Returns KONG_HAND_OVER with ``outcome`` filled, or KONG_CONTINUE."""
    robbers = variant.max_winners(HOW_ROB_KONG, kong_type, params)
    if robbers > 0:
        # the discarder of a 直杠's fourth tile may not rob it: it is his own discard
        discarder = from_seat if kong_type == MELD_DISCARD_KONG else -1
        n_winners = claim_winners(
            variant,
            state,
            kind,
            konger,
            discarder,
            np.int64(HOW_ROB_KONG),
            robbers,
            params,
            tables,
            outcome,
        )
        if n_winners > 0:
            if kong_type == MELD_ADDED_KONG:
                take_tile(state, konger, kind)
            else:  # the discard the konger wanted leaves the discarder's pile
                state.n_discards[from_seat] -= 1
                state.visible[kind] -= 1
            for w in range(n_winners):
                give_tile(state, outcome[O_WINNER + w], kind)
                log_event(state, EVENT_ROBBED, outcome[O_WINNER + w], kind, konger)
            outcome[O_HOW] = HOW_ROB_KONG
            outcome[O_PAYER] = konger
            outcome[O_TILE] = kind
            outcome[O_FACTOR] = 1
            return KONG_HAND_OVER
    if kong_type == MELD_CONCEALED_KONG:
        for _ in range(4):
            take_tile(state, konger, kind)
        add_meld(state, konger, kong_type, kind, konger)
        state.visible[kind] += 4
    elif kong_type == MELD_ADDED_KONG:
        take_tile(state, konger, kind)
        state.melds[konger, meld_index(state, konger, MELD_PONG, kind), 0] = MELD_ADDED_KONG
        state.visible[kind] += 1
    else:
        for _ in range(3):
            take_tile(state, konger, kind)
        state.n_discards[from_seat] -= 1
        add_meld(state, konger, kong_type, kind, from_seat)
        state.visible[kind] += 3
    log_event(state, EVENT_KONG, konger, kind, kong_type)
    return variant.kong(state, konger, kind, kong_type, from_seat, params, tables, outcome)


@generic_kernel
def play_hand(variant, state, wall, n_players, dealer, params, tables, record):
    """Play one hand of ``variant`` (a marker, ``sim.kernels.variant_type``) on ``wall``
    (int8, the variant's tile count) with ``dealer`` dealing; every seat plays its agent
    (``state.agents``).

    Fills ``record`` (int64 (N_RECORD,)) and returns the next dealer. No validation.
    """
    record[:] = -1
    reset(state, wall, n_players, dealer)
    # arrays read on every turn, bound once: taking one out of the state tuple counts a
    # reference each time
    status = state.status
    hands = state.hands
    keys = state.keys
    wild_count = state.wild_count
    wild = state.wild
    agents = state.agents
    visible = state.visible
    passed_wins = state.passed_wins
    n_discards = state.n_discards
    deal(state, 13, 1)
    for seat in range(n_players):
        log_event(state, EVENT_DEAL, seat, -1, 14 if seat == dealer else 13)
    record[R_DEALER] = dealer
    variant.setup(state, params, record)
    for seat in range(n_players):
        record[R_KINGS_DEALT + seat] = wild_count[seat]
    record[R_DEALER_COMPLETE] = (
        variant.win(state, dealer, np.int64(HOW_SELF_DRAW), np.int64(-1), params, tables) != NO_WIN
    )
    win_forms = variant.win_forms()
    steer_forms = status[HAND_ROW, HAND_STEER_FORMS]
    n_kinds = N_KINDS if state.scalars[N_TILES] == 136 else 27
    discard_winners = variant.max_winners(HOW_DISCARD, -1, params)
    allowed = np.ones(N_KINDS, np.bool_)
    outcome = np.zeros(N_OUTCOME, np.int64)
    seat = dealer
    last_drawer = dealer
    must_draw = False
    just_claimed = False
    while True:
        if must_draw:
            tile = pop_front(state)
            if tile < 0:
                # 荒庄: the exhaustive draw
                log_event(state, EVENT_EXHAUSTED, last_drawer, -1, 0)
                delta = np.zeros(n_players, np.int64)
                record[R_OUTCOME] = OUTCOME_DRAW
                record[R_N_WINNERS] = 0
                record[R_NEXT_DEALER] = variant.settle_draw(
                    state, last_drawer, params, record, delta
                )
                for s in range(n_players):
                    record[R_DELTA + s] = delta[s]
                break
            give_tile(state, seat, tile)
            passed_wins[seat] = 0  # 漏胡 ends with the next draw from the wall
            log_event(state, EVENT_DRAW, seat, tile, 0)
            state.scalars[TURNS] += 1
            drawn = tile
            last_drawer = seat
        else:
            drawn = -1
        if not just_claimed:
            special, special_how = variant.own_turn_win(hands[seat], status, seat, params)
            if special != NO_WIN and accepts_win(agents[seat], special, -1):
                set_single_win(outcome, seat, special, special_how, -1, -1, 1)
                finish_win(variant, state, outcome, params, record)
                break
            won = NO_WIN
            if plausible_win(keys[seat], wild_count[seat], -1, wild, win_forms, tables):
                won = variant.win(state, seat, np.int64(HOW_SELF_DRAW), drawn, params, tables)
            if won != NO_WIN and accepts_win(agents[seat], won, -1):
                set_single_win(outcome, seat, won, HOW_SELF_DRAW, -1, drawn, 1)
                finish_win(variant, state, outcome, params, record)
                break
            # an own-turn kong (暗杠 / 明杠), the first the variant allows. A locked hand may only
            # kong with the tile just drawn.
            kong_kind = -1
            kong_type = -1
            # kinds this seat has a pong of, once: the loop below may not call out per kind
            ponged = np.zeros(N_KINDS, np.bool_)
            for index in range(state.n_melds[seat]):
                if state.melds[seat, index, 0] == MELD_PONG:
                    ponged[state.melds[seat, index, 1]] = True
            locked = status[seat, ST_LOCKED] != 0
            for candidate in range(n_kinds):
                if locked and candidate != drawn:
                    continue
                if hands[seat, candidate] == 4 and variant.kong_allowed(
                    state, seat, candidate, np.int64(MELD_CONCEALED_KONG), params, tables
                ):
                    kong_kind = candidate
                    kong_type = MELD_CONCEALED_KONG
                    break
                if (
                    ponged[candidate]
                    and hands[seat, candidate] >= 1
                    and variant.kong_allowed(
                        state, seat, candidate, np.int64(MELD_ADDED_KONG), params, tables
                    )
                ):
                    kong_kind = candidate
                    kong_type = MELD_ADDED_KONG
                    break
            if kong_kind >= 0 and accepts_kong(agents[seat], kong_kind):
                status[seat, ST_ACTED] = 1
                status[seat, ST_CLAIMED] = 1
                result = make_kong(
                    variant, state, seat, kong_kind, kong_type, seat, params, tables, outcome
                )
                if result == KONG_HAND_OVER:
                    finish_win(variant, state, outcome, params, record)
                    break
                seat = (seat + 1) % n_players
                must_draw = True
                continue
        status[seat, ST_ACTED] = 1
        just_claimed = False
        # a locked hand discards what it drew
        if status[seat, ST_LOCKED] != 0:
            kind = drawn
        else:
            kind = choose_discard(
                agents[seat],
                hands[seat],
                keys[seat],
                wild_count[seat],
                wild,
                visible,
                n_kinds,
                steer_forms,
                allowed,
                tables,
            )
        take_tile(state, seat, kind)
        add_discard(state, seat, kind)
        log_event(state, EVENT_DISCARD, seat, kind, 0)
        # claims on the discard: wins first, in turn order from the next player. Most discards
        # complete no hand even with every wild counted: then the claim search is not entered.
        plausible = False
        for other in range(n_players):
            if other != seat and plausible_win(
                keys[other], wild_count[other], kind, wild, win_forms, tables
            ):
                plausible = True
        n_winners = 0
        if plausible:
            n_winners = claim_winners(
                variant,
                state,
                kind,
                seat,
                np.int64(-1),
                np.int64(HOW_DISCARD),
                discard_winners,
                params,
                tables,
                outcome,
            )
        if n_winners > 0:
            for w in range(n_winners):
                give_tile(state, outcome[O_WINNER + w], kind)
            # the claimed tile leaves the discard pile
            n_discards[seat] -= 1
            visible[kind] -= 1
            outcome[O_HOW] = HOW_DISCARD
            outcome[O_PAYER] = seat
            outcome[O_TILE] = kind
            outcome[O_FACTOR] = 1
            finish_win(variant, state, outcome, params, record)
            break
        # a kong on the discard (直杠) ranks with a pong, before chi; locked hands make no claims
        direct_konger = -1
        for offset in range(1, n_players):
            other = (seat + offset) % n_players
            if (
                status[other, ST_LOCKED] == 0
                and hands[other, kind] == 3
                and variant.kong_allowed(
                    state, other, kind, np.int64(MELD_DISCARD_KONG), params, tables
                )
                and accepts_kong(agents[other], kind)
            ):
                direct_konger = other
                break
        if direct_konger >= 0:
            status[direct_konger, ST_ACTED] = 1
            status[direct_konger, ST_CLAIMED] = 1
            result = make_kong(
                variant,
                state,
                direct_konger,
                kind,
                np.int64(MELD_DISCARD_KONG),
                seat,
                params,
                tables,
                outcome,
            )
            if result == KONG_HAND_OVER:
                finish_win(variant, state, outcome, params, record)
                break
            seat = (direct_konger + 1) % n_players
            must_draw = True
            continue
        # pong (any seat) before chi (the next seat only)
        claimer = -1
        claim = CLAIM_NONE
        chi_first = -1
        for offset in range(1, n_players):
            other = (seat + offset) % n_players
            if status[other, ST_LOCKED] != 0 or not variant.may_claim(
                hands[other], wild, offset == 1, kind, params
            ):
                continue
            choice, first = choose_claim(
                agents[other],
                hands[other],
                keys[other],
                wild_count[other],
                wild,
                kind,
                offset == 1,
                steer_forms,
                tables,
            )
            if choice == CLAIM_PONG:
                claimer = other
                claim = CLAIM_PONG
                break
            if choice == CLAIM_CHI and claim == CLAIM_NONE:
                claimer = other
                claim = CLAIM_CHI
                chi_first = first
        if claim != CLAIM_NONE:
            n_discards[seat] -= 1  # the tile moves into the meld
            visible[kind] -= 1
            if claim == CLAIM_PONG:
                take_tile(state, claimer, kind)
                take_tile(state, claimer, kind)
                add_meld(state, claimer, MELD_PONG, kind, seat)
                log_event(state, EVENT_PONG, claimer, kind, seat)
                visible[kind] += 3
            else:
                for member in range(chi_first, chi_first + 3):
                    if member != kind:
                        take_tile(state, claimer, member)
                    visible[member] += 1
                add_meld(state, claimer, MELD_CHI, chi_first, seat)
                log_event(state, EVENT_CHI, claimer, chi_first, seat)
            status[claimer, ST_ACTED] = 1
            status[claimer, ST_CLAIMED] = 1
            seat = claimer
            must_draw = False
            just_claimed = True
            continue
        seat = (seat + 1) % n_players
        must_draw = True
    record[R_TURNS] = state.scalars[TURNS]
    record[R_TILES_LEFT] = tiles_left(state)
    return record[R_NEXT_DEALER]


@generic_inline_kernel
def play_hands(
    variant, state, walls, n_players, first_dealers, hands_per_session, params, tables, records
):
    """Play one hand of ``variant`` per wall (walls int8 (n, n_tiles)) into ``records`` (int64
    (n, N_RECORD)), in sessions of ``hands_per_session`` hands. Session ``k`` starts with dealer
    ``first_dealers[k]``; within a session each hand's dealer is the one the previous hand
    chose (the variant's settle hooks). Nothing is validated."""
    dealer = 0
    for index in range(walls.shape[0]):
        if index % hands_per_session == 0:
            dealer = first_dealers[index // hands_per_session]
        dealer = play_hand(
            variant, state, walls[index], n_players, dealer, params, tables, records[index]
        )
