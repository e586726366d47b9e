"""The self-play game loop (numba). First version: Anhua Seven Kings without kongs.

Plays one hand (局) from a shuffled wall: deal, kings, turns of draw and discard, claims on each
discard (win, with 一炮多响; pong; chi by the next player only), the instant 4/7-king win, the
exhaustive draw, birds and settlement; then the next dealer. Kongs (the open kong 开杠 with its
reveal, robbing, bloom and cannon), 漏胡 and the hand lock are the next step (docs/engine.md
lists the plan). Records are int64 rows with the ``R_*`` slots below.

After a hand the state shows every winner's hand *with* the winning tile: on 一炮多响 the one
physical discard appears in each winner's hand.
"""

from __future__ import annotations

import numpy as np

from . import anhua
from ._jit import kernel
from .agents import best_shanten_after_discard, efficiency_discard, hand_shanten
from .hand import FORM_SEVEN_PAIRS, FORM_STANDARD, N_KINDS, OPTION_PAIR_258, OPTION_QUADS
from .state import (
    DEALER,
    MELD_CHI,
    MELD_PONG,
    N_PLAYERS,
    TURNS,
    add_discard,
    add_meld,
    deal,
    give_tile,
    pop_front,
    reset,
    set_wild,
    take_tile,
    tiles_left,
)

# Record slots (one int64 row per hand)
R_DEALER = 0
R_OUTCOME = 1  # OUTCOME_*
R_WIN_KIND = 2  # anhua.HOW_* of the winner(s), -1 on a draw
R_N_WINNERS = 3
R_WINNER = 4  # 4 slots: winner seats, -1 unused
R_FEATURES = 8  # 4 slots: feature bits per winner
R_POINTS = 12  # 4 slots: base points P per winner
R_PAYER = 16  # discarder / konger, -1 for a self-draw or a draw
R_N_BIRDS = 17
R_BIRD = 18  # 4 slots: bird tiles
R_DELTA = 22  # 4 slots: score change per seat
R_TURNS = 26  # tiles drawn from the wall in play (deal excluded)
R_TILES_LEFT = 27
R_INDICATOR = 28  # the flipped tile that chose the kings
R_NEXT_DEALER = 29
R_DEAL_INSTANT = 30  # bit s: seat s held 四王/七王 at its first turn (a deal event)
R_WINNING_TILE = 31  # -1 when the dealer wins on his dealt tiles (no tile drawn)
N_RECORD = 32

OUTCOME_DRAW = 0  # 荒庄
OUTCOME_WIN = 1

CLAIM_NONE = 0
CLAIM_PONG = 1
CLAIM_CHI = 2


@kernel
def _meld_suits(state, seat):
    suits = 0
    for index in range(state.n_melds[seat]):
        suits |= 1 << (state.melds[seat, index, 1] // 9)
    return suits


@kernel
def _win_features(state, seat, how, x_kind, y_kind, params, tables):
    """anhua.best_win for ``seat``'s concealed hand as it is (the winning tile already in it)."""
    return anhua.best_win(
        state.hands[seat],
        _meld_suits(state, seat),
        state.n_melds[seat],
        x_kind,
        y_kind,
        how,
        params,
        tables,
    )


@kernel
def _holds_instant_kings(state, seat, x_kind, y_kind, params):
    """起手四王/七王 (rules-spec A3.6, docs/rules-anhua.md #4): the concealed hand holds 四王 or
    七王 by the tier mode: all four Y, or all seven kings; with ``count`` any four or more."""
    x_held = np.int64(state.hands[seat, x_kind]) if x_kind >= 0 else 0
    y_held = np.int64(state.hands[seat, y_kind])
    if params[anhua.P_KING_TIER_MODE] == anhua.TIER_MODE_COUNT:
        return x_held + y_held >= 4
    tier = anhua.king_tier(x_held, y_held, anhua.TIER_MODE_IDENTICAL_SETS)
    return tier == anhua.TIER_FOUR or tier == anhua.TIER_SEVEN


@kernel
def _finish_win(state, record, winners, features, n_winners, how, payer, winning_tile, params):
    """Points, birds and payments of a win; fills the record."""
    n_players = state.scalars[N_PLAYERS]
    points = np.zeros(4, np.int64)
    for w in range(n_winners):
        points[w] = anhua.base_points(features[w])
        record[R_WINNER + w] = winners[w]
        record[R_FEATURES + w] = features[w]
        record[R_POINTS + w] = points[w]
    # 海底: no birds when the winning tile was the last wall tile (rules-spec A3.8)
    last_tile = tiles_left(state) == 0 and how == anhua.HOW_SELF_DRAW
    birds = np.zeros(4, np.int64)
    n_birds = 0
    if not last_tile:
        for _ in range(params[anhua.P_BIRD_COUNT]):
            tile = pop_front(state)
            if tile < 0:
                break
            birds[n_birds] = tile
            record[R_BIRD + n_birds] = tile
            n_birds += 1
    delta = np.zeros(n_players, np.int64)
    anhua.settle(
        n_players,
        state.scalars[DEALER],
        winners,
        points,
        n_winners,
        payer,
        birds,
        n_birds,
        params,
        delta,
    )
    record[R_OUTCOME] = OUTCOME_WIN
    record[R_WIN_KIND] = how
    record[R_N_WINNERS] = n_winners
    record[R_PAYER] = payer
    record[R_N_BIRDS] = n_birds
    record[R_WINNING_TILE] = winning_tile
    for seat in range(n_players):
        record[R_DELTA + seat] = delta[seat]
    # the winner deals next; one discard won by several: the discarder (rules-spec A2.1)
    record[R_NEXT_DEALER] = winners[0] if n_winners == 1 else payer


@kernel
def _claim_choice(state, seat, discarder, kind, n_players, forms, tables):
    """The efficiency agent's claim on a discard: pong (any seat holding two), chi (only the
    discarder's next player); taken when the hand after the claim and its best discard is no
    further from ready than now. Returns (claim, first tile of the chi)."""
    if state.wild[kind]:
        return CLAIM_NONE, -1  # kings are never claimed (rules-spec A2.3.4)
    now = hand_shanten(state, seat, forms, tables)
    if state.hands[seat, kind] >= 2:
        take_tile(state, seat, kind)
        take_tile(state, seat, kind)
        after = best_shanten_after_discard(state, seat, forms, tables)
        give_tile(state, seat, kind)
        give_tile(state, seat, kind)
        if after <= now:
            return CLAIM_PONG, kind
    if seat == (discarder + 1) % n_players and kind < 27:
        rank = kind % 9
        for first_rank in range(max(0, rank - 2), min(rank, 6) + 1):
            first = kind - (rank - first_rank)
            usable = True
            for member in range(first, first + 3):
                if member != kind and (state.hands[seat, member] == 0 or state.wild[member]):
                    usable = False
            if not usable:
                continue
            for member in range(first, first + 3):
                if member != kind:
                    take_tile(state, seat, member)
            after = best_shanten_after_discard(state, seat, forms, tables)
            for member in range(first, first + 3):
                if member != kind:
                    give_tile(state, seat, member)
            if after <= now:
                return CLAIM_CHI, first
    return CLAIM_NONE, -1


@kernel
def play_anhua_hand(state, wall, n_players, dealer, params, tables, record):
    """Play one Anhua hand on ``wall`` (int8 (108,)) with the efficiency agent in every seat.

    Fills ``record`` (int64 (N_RECORD,)). No validation.
    """
    record[:] = -1
    record[R_DEAL_INSTANT] = 0
    reset(state, wall, n_players, dealer)
    deal(state, 13, 1)
    # kings 王 (rules-spec A2.3): flip the next tile; X its kind, Y the next rank
    indicator = pop_front(state)
    state.visible[indicator] += 1
    y_kind = indicator - indicator % 9 + (indicator % 9 + 1) % 9
    x_kind = indicator if params[anhua.P_KING_MODE] == anhua.KING_MODE_SEVEN else -1
    if x_kind >= 0:
        set_wild(state, x_kind)
    set_wild(state, y_kind)
    record[R_DEALER] = dealer
    record[R_INDICATOR] = indicator
    # what the agents steer by: 2-5-8 standard hands and seven pairs
    forms = FORM_STANDARD | OPTION_PAIR_258 | FORM_SEVEN_PAIRS
    if params[anhua.P_SEVEN_PAIRS_ALLOW_QUAD] != 0:
        forms |= OPTION_QUADS
    allowed = np.ones(N_KINDS, np.bool_)
    first_turn = np.ones(n_players, np.bool_)
    seat = dealer
    last_drawer = dealer
    must_draw = False
    just_claimed = False
    winners = np.full(4, -1, np.int64)
    features = np.zeros(4, np.int64)
    while True:
        if must_draw:
            tile = pop_front(state)
            if tile < 0:
                # 荒庄: no payments; whoever drew the last tile deals (rules-spec A3.8)
                record[R_OUTCOME] = OUTCOME_DRAW
                record[R_N_WINNERS] = 0
                record[R_NEXT_DEALER] = last_drawer
                for s in range(n_players):
                    record[R_DELTA + s] = 0
                break
            give_tile(state, seat, tile)
            state.scalars[TURNS] += 1
            drawn = tile
            last_drawer = seat
        else:
            drawn = -1
        if not just_claimed:
            if first_turn[seat] and _holds_instant_kings(state, seat, x_kind, y_kind, params):
                record[R_DEAL_INSTANT] |= 1 << seat
                winners[0] = seat
                features[0] = anhua.FEATURE_INSTANT
                _finish_win(state, record, winners, features, 1, anhua.HOW_INSTANT, -1, -1, params)
                break
            won = _win_features(state, seat, anhua.HOW_SELF_DRAW, x_kind, y_kind, params, tables)
            if won != anhua.NO_WIN:
                winners[0] = seat
                features[0] = won
                _finish_win(
                    state, record, winners, features, 1, anhua.HOW_SELF_DRAW, -1, drawn, params
                )
                break
        first_turn[seat] = False
        just_claimed = False
        kind = efficiency_discard(state, seat, forms, allowed, tables)
        take_tile(state, seat, kind)
        add_discard(state, seat, kind)
        # claims on the discard: wins first, in turn order from the next player
        n_winners = 0
        king_discard = state.wild[kind] and params[anhua.P_DISCARDED_KING_CLAIMABLE] == 0
        if not king_discard:
            for offset in range(1, n_players):
                other = (seat + offset) % n_players
                give_tile(state, other, kind)
                won = _win_features(state, other, anhua.HOW_DISCARD, x_kind, y_kind, params, tables)
                take_tile(state, other, kind)
                if won != anhua.NO_WIN:
                    winners[n_winners] = other
                    features[n_winners] = won
                    n_winners += 1
                    if params[anhua.P_MULTI_RON] == 0:
                        break
        if n_winners > 0:
            for w in range(n_winners):
                give_tile(state, winners[w], kind)
            # the claimed tile leaves the discard pile
            state.n_discards[seat] -= 1
            state.visible[kind] -= 1
            _finish_win(
                state, record, winners, features, n_winners, anhua.HOW_DISCARD, seat, kind, params
            )
            break
        # pong (any seat) before chi (the next seat only)
        claimer = -1
        claim = CLAIM_NONE
        chi_first = -1
        for offset in range(1, n_players):
            other = (seat + offset) % n_players
            choice, first = _claim_choice(state, other, seat, kind, n_players, forms, tables)
            if choice == CLAIM_PONG:
                claimer = other
                claim = CLAIM_PONG
                break
            if choice == CLAIM_CHI and claim == CLAIM_NONE:
                claimer = other
                claim = CLAIM_CHI
                chi_first = first
        if claim != CLAIM_NONE:
            state.n_discards[seat] -= 1  # the tile moves into the meld
            state.visible[kind] -= 1
            if claim == CLAIM_PONG:
                take_tile(state, claimer, kind)
                take_tile(state, claimer, kind)
                add_meld(state, claimer, MELD_PONG, kind, seat)
                state.visible[kind] += 3
            else:
                for member in range(chi_first, chi_first + 3):
                    if member != kind:
                        take_tile(state, claimer, member)
                    state.visible[member] += 1
                add_meld(state, claimer, MELD_CHI, chi_first, seat)
            first_turn[claimer] = False
            seat = claimer
            must_draw = False
            just_claimed = True
            continue
        seat = (seat + 1) % n_players
        must_draw = True
    record[R_TURNS] = state.scalars[TURNS]
    record[R_TILES_LEFT] = tiles_left(state)
    return record[R_NEXT_DEALER]


@kernel
def play_anhua_hands(state, walls, n_players, first_dealer, hands_per_session, params, tables,
                     records):  # fmt: skip
    """Play one hand per wall (walls int8 (n, 108)) into ``records`` (int64 (n, N_RECORD)), in
    sessions of ``hands_per_session`` hands: within a session the dealer of each hand is the
    one the previous hand chose; each session starts with ``first_dealer``. No validation."""
    dealer = first_dealer
    for index in range(walls.shape[0]):
        if index % hands_per_session == 0:
            dealer = first_dealer
        dealer = play_anhua_hand(state, walls[index], n_players, dealer, params, tables,
                                 records[index])  # fmt: skip
