"""The self-play game loop (numba), shared by every variant.

Plays one hand (局) from a shuffled wall: the deal, turns of draw and discard, claims on each
discard resolved by priority (wins first, several winners in turn order where the variant
allows; then a kong or a pong by any seat; then a chi), own-turn wins and kongs with robbing,
the exhaustive draw, settlement and the next dealer. What is legal is listed by the variant's
hooks (``own_turn_actions``, ``claim_actions``, ``discard_mask``: rows of ``sim.kernels.moves``
``ACT_*``) and chosen among by the seat's agent (``sim.kernels.agents``); the engine decides no
rule of its own. Whatever else a rule set decides (wilds, what a kong does next, payments) is
asked of the other hooks, and every event is told to the variant's ``observe`` hook, through
which it keeps its own per-seat state. ``variant`` is a marker whose methods are the hooks
(``sim.kernels.variant_type``); these functions are compiled once per variant, inside that
variant's cached entry points (``sim/variants/<name>/engine.py``), never on their own. Records
are int64 rows with the ``R_*`` slots of ``sim.kernels.record``, re-exported here.

After a hand the state shows every winner's hand *with* the winning tile: on 一炮多响 the one
physical discard appears in each winner's hand.
"""

from __future__ import annotations

import numpy as np

from ._jit import generic_inline_kernel, generic_kernel
from .agents import (
    accepts_kong,
    accepts_win,
    choose_claim,
    choose_discard,
    choose_own_turn,
    choose_plan,
    discard_space,
)
from .hand import KIND_POWER, KIND_SUIT, N_KINDS
from .moves import (
    A_DETAIL,
    A_FEATURES,
    A_TILE,
    A_TYPE,
    ACT_DECLARE,
    ACT_KONG,
    ACT_PONG,
    ACT_WIN,
    HOW_DISCARD,
    HOW_ROB_KONG,
    HOW_SELF_DRAW,
    KONG_CONTINUE,  # noqa: F401 (re-exported with the record slots)
    KONG_HAND_OVER,
    KONG_REPLACEMENT,
    MAX_ACTIONS,
    N_ACTION_FIELDS,
    N_OUTCOME,
    NO_WIN,
    O_FACTOR,
    O_FEATURES,
    O_HOW,
    O_N_WINNERS,
    O_PAYER,
    O_TILE,
    O_WINNER,
    claim_shape_held,
    count_listed,
    emit,
    find_action,
    holds_kong_shape,
    meld_index,
    plausible_win,
    set_single_win,
)
from .record import *  # noqa: F403 (the record slots belong to the engine's interface)
from .record import (
    OUTCOME_DRAW,
    OUTCOME_WIN,
    R_DEALER,
    R_DEALER_COMPLETE,
    R_DELTA,
    R_FEATURES,
    R_N_WINNERS,
    R_NEXT_DEALER,
    R_OUTCOME,
    R_PAYER,
    R_TILES_LEFT,
    R_TURNS,
    R_WILDS_DEALT,
    R_WIN_KIND,
    R_WINNER,
    R_WINNING_TILE,
)
from .state import (
    DEALER_STREAK,
    DRAW_HEAD,
    DRAW_REPLACEMENT,
    DRAW_SOURCE,
    EVENT_CHI,
    EVENT_DEAL,
    EVENT_DECLARE,
    EVENT_DISCARD,
    EVENT_DRAW,
    EVENT_EXHAUSTED,
    EVENT_KONG,
    EVENT_PASS_CLAIM,
    EVENT_PASS_WIN,
    EVENT_PONG,
    EVENT_ROBBED,
    EVENT_WIN,
    HAND_ROW,
    HAND_STAND_IN,
    HAND_STAND_IN_FACE,
    HAND_STEER_FORMS,
    MAX_SEATS,
    MELD_ADDED_KONG,
    MELD_CHI,
    MELD_CONCEALED_KONG,
    MELD_PONG,
    MELD_SINGLE_KONG,
    N_PLAYERS,
    N_TILES,
    NEXT_STREAK,
    ST_ACTED,
    ST_CLAIMED,
    ST_OWN_TURN_EXTRA,
    TURNS,
    add_discard,
    add_meld,
    chi_detail,
    chi_member_tile,
    deal,
    give_tile,
    mark_claimed,
    pop_back,
    pop_front,
    reset,
    take_tile,
    tiles_left,
)


@generic_kernel
def finish_win(variant, state, outcome, params, tables, record):
    """Log and record the win described by ``outcome``, settle it through the variant's hook
    and record the payments and the next dealer."""
    n_winners = outcome[O_N_WINNERS]
    how = outcome[O_HOW]
    tile = outcome[O_TILE]
    for w in range(n_winners):
        emit(variant, state, EVENT_WIN, outcome[O_WINNER + w], tile, how, params)
        record[R_WINNER + w] = outcome[O_WINNER + w]
        record[R_FEATURES + w] = outcome[O_FEATURES + w]
    n_players = state.scalars[N_PLAYERS]
    delta = np.zeros(n_players, np.int64)
    next_dealer = variant.settle_win(state, outcome, params, tables, record, delta)
    record[R_OUTCOME] = OUTCOME_WIN
    record[R_WIN_KIND] = how
    record[R_N_WINNERS] = n_winners
    record[R_PAYER] = outcome[O_PAYER]
    record[R_WINNING_TILE] = tile
    for seat in range(n_players):
        record[R_DELTA + seat] = delta[seat]
    record[R_NEXT_DEALER] = next_dealer


@generic_kernel
def resolve_wins(variant, state, offerer, tile, max_winners, claims, n_claims, params, outcome):
    """The wins on ``tile`` offered by ``offerer`` (a discard, a robbed kong's tile) that the
    variant listed (``claims[seat]``: ``n_claims[seat]`` rows) and the seats' agents take, in
    turn order from the offerer's next player, at most ``max_winners`` (0: nobody): written to
    the outcome's winners and features, with their number (also returned). A seat that passes
    its listed win is told to the variant (``EVENT_PASS_WIN``: 漏胡 where its rules have it)."""
    outcome[O_N_WINNERS] = 0
    if max_winners <= 0:
        return 0
    n_players = state.scalars[N_PLAYERS]
    n_winners = 0
    for offset in range(1, n_players):
        other = (offerer + offset) % n_players
        row = find_action(claims[other], n_claims[other], ACT_WIN)
        if row < 0:
            continue
        features = claims[other, row, A_FEATURES]
        if not accepts_win(state.agents[other], features, tile):
            emit(variant, state, EVENT_PASS_WIN, other, tile, 0, params)
            continue
        outcome[O_WINNER + n_winners] = other
        outcome[O_FEATURES + n_winners] = features
        n_winners += 1
        if n_winners == max_winners:
            break
    outcome[O_N_WINNERS] = n_winners
    return n_winners


@generic_kernel
def claim_winners(
    variant, state, tile, offerer, how, kong_type, kong_from, max_winners, params, tables, outcome
):
    """Who wins on ``tile`` offered by ``offerer``: the variant lists each seat's wins
    (``claim_actions`` with ``how``; for a robbed kong ``kong_type`` and the seat ``kong_from``
    whose discard a 直杠 took, else -1) and ``resolve_wins`` asks the agents. Returns the number
    of winners, written to ``outcome``."""
    outcome[O_N_WINNERS] = 0
    if max_winners <= 0:
        return 0
    claims = np.zeros((MAX_SEATS, MAX_ACTIONS, N_ACTION_FIELDS), np.int64)
    n_claims = np.zeros(MAX_SEATS, np.int64)
    variant.claim_actions(
        state, offerer, tile, how, kong_type, kong_from, params, tables, claims, n_claims
    )
    return resolve_wins(
        variant, state, offerer, tile, max_winners, claims, n_claims, params, outcome
    )


@generic_kernel
def make_kong(variant, state, konger, kind, kong_type, from_seat, params, tables, outcome):
    """A kong the variant listed and the agent chose: robbing first (抢杠胡, where the variant
    allows it: the robbed tile goes to each robber, the konger pays), then the kong itself, then
    the variant's kong procedure. kong_type: MELD_CONCEALED_KONG (暗杠), MELD_ADDED_KONG (the
    fourth tile from the hand onto a pong), MELD_DISCARD_KONG (three in hand and ``from_seat``'s
    last discard) or MELD_SINGLE_KONG (one held tile by itself, no meld row). Returns
    KONG_HAND_OVER with ``outcome`` filled, or the kong hook's result: KONG_CONTINUE (the
    konger's next player draws) or KONG_REPLACEMENT (the konger draws from the tail and plays
    on)."""
    robbers = variant.max_winners(HOW_ROB_KONG, kong_type, params)
    n_winners = claim_winners(
        variant,
        state,
        kind,
        konger,
        np.int64(HOW_ROB_KONG),
        kong_type,
        from_seat,
        robbers,
        params,
        tables,
        outcome,
    )
    if n_winners > 0:
        if kong_type == MELD_ADDED_KONG:
            take_tile(state, konger, kind)
        else:  # the discard the konger wanted leaves the discarder's pile
            state.visible[kind] -= 1
            mark_claimed(state, outcome[O_WINNER])
        for w in range(n_winners):
            give_tile(state, outcome[O_WINNER + w], kind)
            emit(variant, state, EVENT_ROBBED, outcome[O_WINNER + w], kind, konger, params)
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
        # np.int64: one compile of meld_index, not one more for the literal
        pong = meld_index(state, konger, np.int64(MELD_PONG), kind)
        state.melds[konger, pong, 0] = MELD_ADDED_KONG
        state.visible[kind] += 1
    elif kong_type == MELD_SINGLE_KONG:  # one tile set aside, no meld row
        take_tile(state, konger, kind)
        state.visible[kind] += 1
    else:
        for _ in range(3):
            take_tile(state, konger, kind)
        mark_claimed(state, konger)
        add_meld(state, konger, kong_type, kind, from_seat)
        state.visible[kind] += 3
    emit(variant, state, EVENT_KONG, konger, kind, kong_type, params)
    return variant.kong(state, konger, kind, kong_type, from_seat, params, tables, outcome)


@generic_kernel
def settle_exhausted(variant, state, last_drawer, params, tables, record):
    """荒庄, the exhaustive draw: log it, settle it through the variant's hook, record it."""
    n_players = state.scalars[N_PLAYERS]
    emit(variant, state, EVENT_EXHAUSTED, last_drawer, -1, 0, params)
    delta = np.zeros(n_players, np.int64)
    record[R_OUTCOME] = OUTCOME_DRAW
    record[R_N_WINNERS] = 0
    record[R_NEXT_DEALER] = variant.settle_draw(state, last_drawer, params, tables, record, delta)
    for s in range(n_players):
        record[R_DELTA + s] = delta[s]


@generic_inline_kernel
def claim_discard(
    agents, agent_params, hands, keys, wild_count, wild, steer_forms, plans, n_players, seat,
    kind, claims, n_claims, tables, declined, stand_in, face, view_hand, view_keys, valued_agents,
):  # fmt: skip
    """The kong (直杠) or pong by any seat, else the chi, that takes ``seat``'s discard ``kind``
    once no win did: (claimer, the chosen row of ``claims[claimer]``), or (-1, -1). A listed
    kong on the discard ranks with a pong and is asked first, in turn order; then each seat
    with a listed pong or chi chooses, in turn order, and a pong takes precedence over a chi
    chosen before it; ``plans[s]`` is seat s's plan (``agents.choose_plan``). ``declined[s]``
    is set to ACT_PONG for each seat asked that declined a listed pong (ACT_KONG: a listed kong
    and no pong), else left 0 (the caller clears it). With a stand-in kind (``stand_in`` >= 0,
    ``HAND_STAND_IN``) a seat holding one, or offered one, is shown to its agent with its
    stand-ins at ``face`` (``view_hand``, ``view_keys``: scratch) and a discarded stand-in as
    ``face``: the agent then weighs a chi or pong holding them by the tiles it takes. Takes the
    state's arrays, not the state: it runs on most discards."""
    for offset in range(1, n_players):
        other = (seat + offset) % n_players
        row = find_action(claims[other], n_claims[other], ACT_KONG)
        if row >= 0:
            if accepts_kong(agents[other], kind, plans[other]):
                return other, row
            declined[other] = ACT_KONG
    claimer = -1
    claim_row = -1
    for offset in range(1, n_players):
        other = (seat + offset) % n_players
        if n_claims[other] == 0:
            continue
        seen_hand = hands[other]
        seen_keys = keys[other]
        seen_kind = kind
        if stand_in >= 0 and (kind == stand_in or hands[other, stand_in] > 0):
            moved = hands[other, stand_in]
            # loops, not view_hand[:] = hands[other]: an array copy compiles numba's
            # shape-mismatch error formatting (seconds of every variant's compile)
            for k in range(N_KINDS):
                view_hand[k] = hands[other, k]
            view_hand[stand_in] = 0
            view_hand[face] += moved
            for suit in range(4):
                view_keys[suit] = keys[other, suit]
            view_keys[KIND_SUIT[stand_in]] -= moved * KIND_POWER[stand_in]
            view_keys[KIND_SUIT[face]] += moved * KIND_POWER[face]
            seen_hand = view_hand
            seen_keys = view_keys
            seen_kind = face if kind == stand_in else kind
        row = choose_claim(
            agents[other],
            seen_hand,
            seen_keys,
            wild_count[other],
            wild,
            seen_kind,
            claims[other],
            n_claims[other],
            steer_forms,
            plans[other],
            agent_params[other],
            tables,
            valued_agents,
        )
        if row >= 0 and claims[other, row, A_TYPE] == ACT_PONG:
            declined[other] = 0
            return other, row
        if find_action(claims[other], n_claims[other], ACT_PONG) >= 0:
            declined[other] = ACT_PONG
        if row < 0:
            continue
        if claimer < 0:
            claimer = other
            claim_row = row
    return claimer, claim_row


@generic_kernel  # not inlined: the replay's and the checks' entry (play_hand) share its compile
def play_hand(
    variant, state, wall, n_players, dealer, streak, params, tables, record, valued_agents
):
    """Play one hand of ``variant`` (a marker, ``sim.kernels.variant_type``) on ``wall``
    (int8, the variant's tile count) with ``dealer`` dealing for the ``streak``-th time in a row
    (0: a new dealer; ``state.scalars[DEALER_STREAK]``, 连庄, for the settle hooks); every seat
    plays its agent (``state.agents``). ``valued_agents``: ``None`` when no seat plays a valued
    agent (``agents.VALUED_AGENTS``): the loop is then compiled without their searches (a
    valued agent it meets plays as the efficiency agent); ``True`` otherwise.

    Fills ``record`` (int64 (N_RECORD,)) and returns the next dealer. No validation.
    """
    record[:] = -1
    reset(state, wall, n_players, dealer)
    state.scalars[DEALER_STREAK] = streak
    # arrays read on every turn, bound once: taking one out of the state tuple counts a
    # reference each time
    status = state.status
    hands = state.hands
    keys = state.keys
    wild_count = state.wild_count
    wild = state.wild
    agents = state.agents
    agent_params = state.agent_params
    visible = state.visible
    melds = state.melds
    n_melds = state.n_melds
    scalars = state.scalars
    deal(state, 13, 1)
    for seat in range(n_players):
        emit(variant, state, EVENT_DEAL, seat, -1, 14 if seat == dealer else 13, params)
    record[R_DEALER] = dealer
    variant.setup(state, params, record)
    for seat in range(n_players):
        record[R_WILDS_DEALT + seat] = wild_count[seat]
    record[R_DEALER_COMPLETE] = (
        variant.win(state, dealer, np.int64(HOW_SELF_DRAW), np.int64(-1), params, tables) != NO_WIN
    )
    own_actions = np.zeros((MAX_ACTIONS, N_ACTION_FIELDS), np.int64)
    # each seat's plan (kinds it means to be rid of), chosen at the deal among the variant's
    # offers and kept for the hand; a variant that offers none lists no rows, and this folds
    plans = np.zeros(MAX_SEATS, np.int64)
    for seat in range(n_players):
        n_plans = variant.plan_actions(state, seat, params, own_actions)
        if n_plans > 0:
            plans[seat] = choose_plan(agents[seat], hands[seat], own_actions, n_plans)
    win_forms = variant.win_forms()
    lists_chi = variant.lists_chi()
    steer_forms = status[HAND_ROW, HAND_STEER_FORMS]
    # a tile kind playing another kind's face in chis (-1: none), and that face
    stand_in = status[HAND_ROW, HAND_STAND_IN] - 1
    face = status[HAND_ROW, HAND_STAND_IN_FACE]
    view_hand = np.zeros(N_KINDS, np.uint8)
    view_keys = np.zeros(4, np.int64)
    search_space = discard_space()  # the agents' discard search, once per hand
    n_kinds = N_KINDS if state.scalars[N_TILES] == 136 else 27
    discard_winners = variant.max_winners(HOW_DISCARD, -1, params)
    allowed = np.ones(N_KINDS, np.bool_)
    outcome = np.zeros(N_OUTCOME, np.int64)
    claims = np.zeros((MAX_SEATS, MAX_ACTIONS, N_ACTION_FIELDS), np.int64)
    n_claims = np.zeros(MAX_SEATS, np.int64)
    declined = np.zeros(MAX_SEATS, np.int64)
    seat = dealer
    last_drawer = dealer
    must_draw = False
    just_claimed = False
    replacement = False  # the next draw is a kong's replacement
    while True:
        if must_draw:
            # a kong's replacement comes from the tail of the wall, any other draw from its head
            tile = pop_back(state) if replacement else pop_front(state)
            if tile < 0:
                settle_exhausted(variant, state, last_drawer, params, tables, record)
                break
            give_tile(state, seat, tile)
            source = DRAW_REPLACEMENT if replacement else DRAW_HEAD
            scalars[DRAW_SOURCE] = source
            emit(variant, state, EVENT_DRAW, seat, tile, source, params)
            scalars[TURNS] += 1
            replacement = False
            drawn = tile
            last_drawer = seat
        else:
            drawn = -1
        # own-turn actions (a win, a kong, a variant's declaration); none on a turn that began
        # with a claim. The variant is asked only when it may have something to list.
        if not just_claimed and (
            status[seat, ST_OWN_TURN_EXTRA] != 0
            or plausible_win(keys[seat], wild_count[seat], -1, wild, win_forms, tables)
            or holds_kong_shape(hands[seat], melds[seat], n_melds[seat])
        ):
            n_own = variant.own_turn_actions(state, seat, drawn, params, tables, own_actions)
            choice = choose_own_turn(agents[seat], own_actions, n_own, plans[seat])
            if choice >= 0 and own_actions[choice, A_TYPE] == ACT_WIN:
                set_single_win(
                    outcome,
                    seat,
                    own_actions[choice, A_FEATURES],
                    own_actions[choice, A_DETAIL],
                    -1,
                    own_actions[choice, A_TILE],
                    1,
                )
                finish_win(variant, state, outcome, params, tables, record)
                break
            if choice >= 0 and own_actions[choice, A_TYPE] == ACT_DECLARE:
                # the declaration is made; the seat goes on to its discard (the variant's
                # discard_mask may restrict it)
                emit(
                    variant,
                    state,
                    EVENT_DECLARE,
                    seat,
                    own_actions[choice, A_TILE],
                    own_actions[choice, A_DETAIL],
                    params,
                )
            if choice >= 0 and own_actions[choice, A_TYPE] == ACT_KONG:
                status[seat, ST_ACTED] = 1
                status[seat, ST_CLAIMED] = 1
                result = make_kong(
                    variant,
                    state,
                    seat,
                    own_actions[choice, A_TILE],
                    own_actions[choice, A_DETAIL],
                    seat,
                    params,
                    tables,
                    outcome,
                )
                if result == KONG_HAND_OVER:
                    finish_win(variant, state, outcome, params, tables, record)
                    break
                replacement = result == KONG_REPLACEMENT
                if not replacement:
                    seat = (seat + 1) % n_players
                must_draw = True
                continue
        status[seat, ST_ACTED] = 1
        just_claimed = False
        for k in range(N_KINDS):
            allowed[k] = True
        kind = variant.discard_mask(hands[seat], status, seat, drawn, params, allowed)
        if kind < 0:
            kind = choose_discard(
                agents[seat],
                hands[seat],
                keys[seat],
                wild_count[seat],
                wild,
                visible,
                n_kinds,
                status[HAND_ROW, HAND_STEER_FORMS],  # read now: a variant may update its hints
                allowed,
                plans[seat],
                agent_params[seat],
                tables,
                search_space,
                valued_agents,
            )
        take_tile(state, seat, kind)
        add_discard(state, seat, kind)
        emit(variant, state, EVENT_DISCARD, seat, kind, 0, params)
        # claims on the discard: the variant lists each seat's (asked only when some seat holds
        # a claim's shape); wins first
        if not claim_shape_held(
            hands, keys, wild_count, wild, win_forms, n_players, seat, kind, stand_in, face,
            tables, lists_chi,
        ):  # fmt: skip
            seat = (seat + 1) % n_players
            must_draw = True
            continue
        for other in range(MAX_SEATS):
            n_claims[other] = 0
        listed = variant.claim_actions(
            state,
            seat,
            kind,
            np.int64(HOW_DISCARD),
            np.int64(-1),
            np.int64(-1),
            params,
            tables,
            claims,
            n_claims,
        )
        if listed == 0:  # the common case: nobody may claim, and no call passes the state
            seat = (seat + 1) % n_players
            must_draw = True
            continue
        n_winners = 0
        if count_listed(claims, n_claims, ACT_WIN) > 0:
            n_winners = resolve_wins(
                variant, state, seat, kind, discard_winners, claims, n_claims, params, outcome
            )
        if n_winners > 0:
            for w in range(n_winners):
                give_tile(state, outcome[O_WINNER + w], kind)
            # the claimed tile leaves the discard pile
            visible[kind] -= 1
            mark_claimed(state, outcome[O_WINNER])
            outcome[O_HOW] = HOW_DISCARD
            outcome[O_PAYER] = seat
            outcome[O_TILE] = kind
            outcome[O_FACTOR] = 1
            finish_win(variant, state, outcome, params, tables, record)
            break
        for other in range(MAX_SEATS):
            declined[other] = 0
        claimer, row = claim_discard(
            agents, agent_params, hands, keys, wild_count, wild, steer_forms, plans, n_players,
            seat, kind, claims, n_claims, tables, declined, stand_in, face, view_hand, view_keys,
            valued_agents,
        )  # fmt: skip
        # told before the claim is made (过碰: a declined pong, not one another claim outranked)
        for other in range(n_players):
            if declined[other] != 0:
                emit(variant, state, EVENT_PASS_CLAIM, other, kind, declined[other], params)
        if claimer < 0:
            seat = (seat + 1) % n_players
            must_draw = True
            continue
        status[claimer, ST_ACTED] = 1
        status[claimer, ST_CLAIMED] = 1
        action = claims[claimer, row, A_TYPE]
        if action == ACT_KONG:
            result = make_kong(
                variant,
                state,
                claimer,
                kind,
                claims[claimer, row, A_DETAIL],
                seat,
                params,
                tables,
                outcome,
            )
            if result == KONG_HAND_OVER:
                finish_win(variant, state, outcome, params, tables, record)
                break
            replacement = result == KONG_REPLACEMENT
            seat = claimer if replacement else (claimer + 1) % n_players
            must_draw = True
            continue
        visible[kind] -= 1
        mark_claimed(state, claimer)
        if action == ACT_PONG:
            take_tile(state, claimer, kind)
            take_tile(state, claimer, kind)
            add_meld(state, claimer, MELD_PONG, kind, seat)
            emit(variant, state, EVENT_PONG, claimer, kind, seat, params)
            visible[kind] += 3
        else:
            first = claims[claimer, row, A_TILE]
            # A_DETAIL: the stand-in code (0, or a stand-in tile playing one member)
            code = claims[claimer, row, A_DETAIL]
            claimed = -1  # the member the discard plays
            for offset in range(3):
                if chi_member_tile(first, offset, code) == kind and claimed < 0:
                    claimed = offset
            for offset in range(3):
                member_tile = chi_member_tile(first, offset, code)
                if offset != claimed:
                    take_tile(state, claimer, member_tile)
                visible[member_tile] += 1
            add_meld(state, claimer, MELD_CHI, first, seat)
            state.melds[claimer, n_melds[claimer] - 1, 3] = code
            emit(variant, state, EVENT_CHI, claimer, first, chi_detail(seat, code), params)
        seat = claimer
        must_draw = False
        just_claimed = True
    record[R_TURNS] = state.scalars[TURNS]
    record[R_TILES_LEFT] = tiles_left(state)
    return record[R_NEXT_DEALER]


@generic_inline_kernel
def play_hands(
    variant, state, walls, n_players, first_dealers, hands_per_session, params, tables, records,
    valued_agents,
):  # fmt: skip
    """Play one hand of ``variant`` per wall (walls int8 (n, n_tiles)) into ``records`` (int64
    (n, N_RECORD)), in sessions of ``hands_per_session`` hands. Session ``k`` starts with dealer
    ``first_dealers[k]``; within a session each hand's dealer is the one the previous hand
    chose (the variant's settle hooks), and the engine counts the dealer's streak (连庄: hands
    in a row the same seat has dealt, 0 for the first) for the settle hooks, unless a settle
    hook set ``state.scalars[NEXT_STREAK]`` to the count the next hand is played with (a
    variant whose streak counts something else than kept deals). ``records`` may be wider than
    ``N_RECORD``: a variant's own slots follow the engine's. ``valued_agents``: as in
    ``play_hand``. Nothing is validated."""
    # np.int64, not 0: a literal argument would compile play_hand once more for it
    dealer = np.int64(0)
    streak = np.int64(0)
    for index in range(walls.shape[0]):
        if index % hands_per_session == 0:
            dealer = first_dealers[index // hands_per_session]
            streak = np.int64(0)
        next_dealer = play_hand(
            variant, state, walls[index], n_players, dealer, streak, params, tables,
            records[index], valued_agents,
        )  # fmt: skip
        told = state.scalars[NEXT_STREAK]  # a settle hook's own count, -1 if none
        kept = streak + 1 if next_dealer == dealer else 0
        streak = told if told >= 0 else kept
        dealer = next_dealer
