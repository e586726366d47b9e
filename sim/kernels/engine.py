"""The self-play game loop (numba), Anhua Seven Kings so far.

Plays one hand (局) from a shuffled wall: deal, kings, turns of draw and discard, claims on each
discard (win, with 一炮多响; 直杠 and pong; chi by the next player only), own-turn kongs, every
kong an open kong 开杠 (robbing, three revealed tiles, 杠上花, 杠上炮, the hand lock), the instant
4/7-king win, 漏胡 after a passed win, the exhaustive draw, birds and settlement; then the next
dealer. Still to come: the variant dispatch for Weng'an and Anqing (docs/engine.md). Records
are int64 rows with the ``R_*`` slots below.

After a hand the state shows every winner's hand *with* the winning tile: on 一炮多响 the one
physical discard appears in each winner's hand.
"""

from __future__ import annotations

import numpy as np

from . import anhua
from ._jit import inline_kernel, kernel
from .agents import (
    CLAIM_CHI,
    CLAIM_NONE,
    CLAIM_PONG,
    accepts_kong,
    accepts_win,
    choose_claim,
    choose_discard,
)
from .hand import (
    FORM_SEVEN_PAIRS,
    FORM_STANDARD,
    KIND_POWER,
    KIND_SUIT,
    N_KINDS,
    OPTION_PAIR_258,
    OPTION_QUADS,
    is_complete,
)
from .state import (
    DEALER,
    EVENT_BIRD,
    EVENT_CHI,
    EVENT_DEAL,
    EVENT_DISCARD,
    EVENT_DRAW,
    EVENT_EXHAUSTED,
    EVENT_INDICATOR,
    EVENT_KONG,
    EVENT_PASS_WIN,
    EVENT_PAY,
    EVENT_PONG,
    EVENT_REVEAL,
    EVENT_ROBBED,
    EVENT_WILD,
    EVENT_WIN,
    MELD_ADDED_KONG,
    MELD_CHI,
    MELD_CONCEALED_KONG,
    MELD_DISCARD_KONG,
    MELD_PONG,
    N_PLAYERS,
    N_TILES,
    TURNS,
    add_discard,
    add_meld,
    deal,
    give_tile,
    log_event,
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
# Deal events (fixed at the deal, whatever the agents then do; sim.exact gives their exact odds)
R_DEALER_COMPLETE = 32  # 1 when the dealer's 14 dealt tiles are a legal self-drawn win
R_KINGS_DEALT = 33  # 4 slots: king tiles each seat was dealt (13, the dealer 14); -1 unused
N_RECORD = 37

OUTCOME_DRAW = 0  # 荒庄
OUTCOME_WIN = 1

# Every hand anhua.best_win accepts is complete in one of these forms with all kings wild (a
# king counted as its own face, 王代硬, is one of the things a wild may stand for).
_ANY_FORM = FORM_STANDARD | FORM_SEVEN_PAIRS | OPTION_QUADS


@kernel
def _meld_suits(state, seat):
    suits = 0
    for index in range(state.n_melds[seat]):
        suits |= 1 << (state.melds[seat, index, 1] // 9)
    return suits


@inline_kernel
def _plausible_win(keys, wilds, tile, wild, tables):
    """Whether the concealed hand with suit keys ``keys`` (naturals) and ``wilds`` kings, plus
    ``tile`` (-1: none), is complete in some form with every king wild. Every hand
    anhua.best_win accepts passes (a king counted as its own face, 王代硬, is one of the things a
    wild may stand for), and most hands the loop asks about fail: four table lookups answer
    them without the calls and tile moves of the full check."""
    # no branches: numba can then drop the reference counts of the tables it binds per call
    kind = max(tile, 0)
    present = np.int64(tile >= 0)
    as_wild = present * np.int64(wild[kind])
    power = KIND_POWER[kind] * (present - as_wild)
    suit = KIND_SUIT[kind]
    key_m = keys[0] + power * (suit == 0)
    key_p = keys[1] + power * (suit == 1)
    key_s = keys[2] + power * (suit == 2)
    key_z = keys[3] + power * (suit == 3)
    wilds = wilds + as_wild
    return is_complete(key_m, key_p, key_s, key_z, wilds, _ANY_FORM, tables)


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


@inline_kernel
def _may_claim(hand, wild, is_next, kind):
    """Whether a seat with concealed ``hand`` has a legal pong or chi of the discarded ``kind``
    (chi only when it is the discarder's next player, ``is_next``): agents are asked only then.
    Kings are never claimed (rules-spec A2.3.4)."""
    if wild[kind]:
        return False
    if hand[kind] >= 2:
        return True
    if kind >= 27 or not is_next:
        return False
    rank = kind % 9
    for first_rank in range(max(0, rank - 2), min(rank, 6) + 1):
        usable = True
        for member_rank in range(first_rank, first_rank + 3):
            member = kind - rank + member_rank
            if member != kind and (hand[member] == 0 or wild[member]):
                usable = False
        if usable:
            return True
    return False


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
def _finish_win(
    state, record, winners, features, n_winners, how, payer, winning_tile, point_factor, params
):
    """Points (times ``point_factor``), birds and payments of a win; fills the record."""
    n_players = state.scalars[N_PLAYERS]
    points = np.zeros(4, np.int64)
    for w in range(n_winners):
        points[w] = anhua.base_points(features[w]) * point_factor
        log_event(state, EVENT_WIN, winners[w], winning_tile, how)
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
            log_event(state, EVENT_BIRD, anhua.bird_seat(tile, winners[0], n_players), tile, 0)
            n_birds += 1
    delta = np.zeros(n_players, np.int64)
    payments = np.zeros((12, 3), np.int64)
    n_payments = anhua.settle(
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
        payments,
    )
    for index in range(min(n_payments, payments.shape[0])):
        log_event(state, EVENT_PAY, payments[index, 0], payments[index, 1], payments[index, 2])
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


KONG_CONTINUE = 0  # nobody won: the konger's next player draws
KONG_HAND_OVER = 1  # robbed, bloomed or a kong cannon: the record is filled


@kernel
def _takes_claimed_win(state, seat, features, tile):
    """Ask ``seat`` whether it wins on ``tile`` offered by another player; a pass is 漏胡."""
    if accepts_win(state.agents[seat], features, tile):
        return True
    state.passed_wins[seat] |= np.int64(1) << tile
    log_event(state, EVENT_PASS_WIN, seat, tile, 0)
    return False


@kernel
def _claim_winners(
    state, tile, from_seat, how, x_kind, y_kind, params, tables, winners, features, single
):
    """Seats that may win on ``tile`` offered by ``from_seat`` (a discard, a robbed kong tile),
    in turn order from its next player; only the first when ``single``. Returns their number."""
    if state.wild[tile] and params[anhua.P_DISCARDED_KING_CLAIMABLE] == 0:
        return 0  # kings are never won on (rules-spec A2.3.5)
    n_players = state.scalars[N_PLAYERS]
    n_winners = 0
    for offset in range(1, n_players):
        other = (from_seat + offset) % n_players
        if (state.passed_wins[other] >> tile) & 1:
            continue  # 漏胡: passed a win on this kind since its last draw (rules-spec A3.7)
        if not _plausible_win(state.keys[other], state.wild_count[other], tile, state.wild, tables):
            continue
        give_tile(state, other, tile)
        won = _win_features(state, other, how, x_kind, y_kind, params, tables)
        take_tile(state, other, tile)
        if won != anhua.NO_WIN and not _takes_claimed_win(state, other, won, tile):
            continue
        if won != anhua.NO_WIN:
            winners[n_winners] = other
            features[n_winners] = won
            n_winners += 1
            if single:
                break
    return n_winners


@kernel
def _is_ready(state, seat, x_kind, y_kind, params, tables):
    """听牌 under Anhua's rules: some tile would complete a legal hand (rules-spec 0.3: never a
    fifth copy of a kind held four times; a wait counts even if every copy is visible)."""
    keys = state.keys[seat]
    wilds = state.wild_count[seat]
    for kind in range(27):
        if state.hands[seat, kind] >= 4 or not _plausible_win(
            keys, wilds, kind, state.wild, tables
        ):
            continue
        give_tile(state, seat, kind)
        won = _win_features(state, seat, anhua.HOW_SELF_DRAW, x_kind, y_kind, params, tables)
        take_tile(state, seat, kind)
        if won != anhua.NO_WIN:
            return True
    return False


@kernel
def _meld_index(state, seat, meld_type, kind):
    for index in range(state.n_melds[seat]):
        if state.melds[seat, index, 0] == meld_type and state.melds[seat, index, 1] == kind:
            return index
    return -1


@kernel
def _kong_allowed(state, seat, kind, kong_type, x_kind, y_kind, params, tables):
    """Conditions of an open kong 开杠 (rules-spec A3.3): K3 no king among the four, K2 enough
    wall, K1 ready once the four tiles are set aside."""
    if state.wild[kind] or tiles_left(state) < params[anhua.P_KONG_MIN_WALL]:
        return False
    from_hand = 4 if kong_type == MELD_CONCEALED_KONG else 1 if kong_type == MELD_ADDED_KONG else 3
    if state.hands[seat, kind] < from_hand:
        return False
    if kong_type == MELD_ADDED_KONG and _meld_index(state, seat, MELD_PONG, kind) < 0:
        return False
    for _ in range(from_hand):
        take_tile(state, seat, kind)
    if kong_type != MELD_ADDED_KONG:
        add_meld(state, seat, kong_type, kind, seat)
    ready = _is_ready(state, seat, x_kind, y_kind, params, tables)
    if kong_type != MELD_ADDED_KONG:
        state.n_melds[seat] -= 1
    for _ in range(from_hand):
        give_tile(state, seat, kind)
    return ready


@kernel
def _remove_discard(state, seat, tile):
    """Take the last ``tile`` out of ``seat``'s discard pile (a revealed tile won on)."""
    for index in range(state.n_discards[seat] - 1, -1, -1):
        if state.discards[seat, index] == tile:
            for later in range(index, state.n_discards[seat] - 1):
                state.discards[seat, later] = state.discards[seat, later + 1]
            state.n_discards[seat] -= 1
            state.visible[tile] -= 1
            return


@kernel
def open_kong(
    state, konger, kind, kong_type, from_seat, x_kind, y_kind, params, tables, record, locked
):
    """The open kong 开杠 of rules-spec A3.4, for a kong the caller has found allowed.

    kong_type: MELD_CONCEALED_KONG (暗杠), MELD_ADDED_KONG (明杠: the fourth tile from the hand
    onto a pong) or MELD_DISCARD_KONG (直杠 on ``from_seat``'s last discard). In order: robbing
    (抢杠胡, not of a 暗杠; konger pays), the kong and the reveal of the next tiles of the wall,
    the konger's bloom (杠上花: the best revealed tile; with ``kong_multi_tile_win = double``
    twice the points when several would win), else the revealed tiles are his discards and the
    first eligible player from his next seat may win on one (杠上炮, single winner, the konger
    pays); else the konger's hand is locked. Returns KONG_HAND_OVER or KONG_CONTINUE.
    """
    n_players = state.scalars[N_PLAYERS]
    winners = np.full(4, -1, np.int64)
    features = np.zeros(4, np.int64)
    robbable = kong_type == MELD_ADDED_KONG or (
        kong_type == MELD_DISCARD_KONG and params[anhua.P_ALLOW_ROB_DIRECT_KONG] != 0
    )
    if robbable and params[anhua.P_ALLOW_ROB_KONG] != 0:
        single = params[anhua.P_MULTI_RON] == 0
        n_winners = _claim_winners(
            state,
            kind,
            konger,
            anhua.HOW_ROB_KONG,
            x_kind,
            y_kind,
            params,
            tables,
            winners,
            features,
            single,
        )
        if n_winners > 0:
            if kong_type == MELD_ADDED_KONG:
                take_tile(state, konger, kind)
            else:  # the discard the konger wanted leaves the discarder's pile
                state.n_discards[from_seat] -= 1
                state.visible[kind] -= 1
            for w in range(n_winners):
                give_tile(state, winners[w], kind)
                log_event(state, EVENT_ROBBED, winners[w], kind, konger)
            _finish_win(
                state,
                record,
                winners,
                features,
                n_winners,
                anhua.HOW_ROB_KONG,
                konger,
                kind,
                1,
                params,
            )
            return KONG_HAND_OVER
    # make the kong
    if kong_type == MELD_CONCEALED_KONG:
        for _ in range(4):
            take_tile(state, konger, kind)
        add_meld(state, konger, kong_type, kind, konger)
        state.visible[kind] += 4
    elif kong_type == MELD_ADDED_KONG:
        take_tile(state, konger, kind)
        state.melds[konger, _meld_index(state, konger, MELD_PONG, kind), 0] = MELD_ADDED_KONG
        state.visible[kind] += 1
    else:
        for _ in range(3):
            take_tile(state, konger, kind)
        state.n_discards[from_seat] -= 1
        add_meld(state, konger, kong_type, kind, from_seat)
        state.visible[kind] += 3
    log_event(state, EVENT_KONG, konger, kind, kong_type)
    # reveal the next tiles of the wall (rules-spec A3.4 step 2)
    n_reveal = params[anhua.P_KONG_REVEAL_COUNT]
    revealed = np.full(3, -1, np.int64)
    for j in range(n_reveal):
        revealed[j] = pop_front(state)
        if revealed[j] >= 0:
            state.visible[revealed[j]] += 1
            log_event(state, EVENT_REVEAL, konger, revealed[j], 0)
    # 杠上花: the konger's best revealed tile (a revealed king is his wild)
    best = anhua.NO_WIN
    best_rank = -1
    best_tile = -1
    winning_tiles = 0
    for j in range(n_reveal):
        tile = revealed[j]
        if tile < 0:
            continue
        if not _plausible_win(
            state.keys[konger], state.wild_count[konger], tile, state.wild, tables
        ):
            continue
        give_tile(state, konger, tile)
        won = _win_features(state, konger, anhua.HOW_KONG_BLOOM, x_kind, y_kind, params, tables)
        take_tile(state, konger, tile)
        if won != anhua.NO_WIN and accepts_win(state.agents[konger], won, -1):
            winning_tiles += 1
            if anhua.bigs_of(won) > best_rank:
                best_rank = anhua.bigs_of(won)
                best = won
                best_tile = tile
    if best != anhua.NO_WIN:
        given = False
        for j in range(n_reveal):
            tile = revealed[j]
            if tile < 0:
                continue
            state.visible[tile] -= 1
            if tile == best_tile and not given:
                give_tile(state, konger, tile)
                given = True
            else:
                add_discard(state, konger, tile)  # the other revealed tiles
        factor = 2 if (winning_tiles >= 2 and params[anhua.P_KONG_MULTI_TILE_WIN] == 1) else 1
        winners[0] = konger
        features[0] = best
        _finish_win(
            state, record, winners, features, 1, anhua.HOW_KONG_BLOOM, -1, best_tile, factor, params
        )
        return KONG_HAND_OVER
    # no bloom: the revealed tiles are the konger's discards; 杠上炮 for the first eligible seat
    for j in range(n_reveal):
        if revealed[j] >= 0:
            state.visible[revealed[j]] -= 1
            add_discard(state, konger, revealed[j])
    for offset in range(1, n_players):
        other = (konger + offset) % n_players
        seat_best = anhua.NO_WIN
        seat_rank = -1
        seat_tile = -1
        for j in range(n_reveal):
            tile = revealed[j]
            if tile < 0 or (state.wild[tile] and params[anhua.P_DISCARDED_KING_CLAIMABLE] == 0):
                continue
            if (state.passed_wins[other] >> tile) & 1:
                continue  # 漏胡
            if not _plausible_win(
                state.keys[other], state.wild_count[other], tile, state.wild, tables
            ):
                continue
            give_tile(state, other, tile)
            won = _win_features(state, other, anhua.HOW_KONG_CANNON, x_kind, y_kind, params, tables)
            take_tile(state, other, tile)
            if won != anhua.NO_WIN and anhua.bigs_of(won) > seat_rank:
                seat_rank = anhua.bigs_of(won)
                seat_best = won
                seat_tile = tile
        if seat_best != anhua.NO_WIN and _takes_claimed_win(state, other, seat_best, seat_tile):
            _remove_discard(state, konger, seat_tile)
            give_tile(state, other, seat_tile)
            winners[0] = other
            features[0] = seat_best
            _finish_win(
                state,
                record,
                winners,
                features,
                1,
                anhua.HOW_KONG_CANNON,
                konger,
                seat_tile,
                1,
                params,
            )
            return KONG_HAND_OVER
    locked[konger] = True  # 选择杠开后手牌不能动 (rules-spec A3.4 step 6)
    return KONG_CONTINUE


@kernel
def play_anhua_hand(state, wall, n_players, dealer, params, tables, record):
    """Play one Anhua hand on ``wall`` (int8 (108,)) with the efficiency agent in every seat.

    Fills ``record`` (int64 (N_RECORD,)). No validation.
    """
    record[:] = -1
    record[R_DEAL_INSTANT] = 0
    reset(state, wall, n_players, dealer)
    deal(state, 13, 1)
    for seat in range(n_players):
        log_event(state, EVENT_DEAL, seat, -1, 14 if seat == dealer else 13)
    # kings 王 (rules-spec A2.3): flip the next tile; X its kind, Y the next rank
    indicator = pop_front(state)
    state.visible[indicator] += 1
    y_kind = indicator - indicator % 9 + (indicator % 9 + 1) % 9
    x_kind = indicator if params[anhua.P_KING_MODE] == anhua.KING_MODE_SEVEN else -1
    log_event(state, EVENT_INDICATOR, -1, indicator, 0)
    if x_kind >= 0:
        set_wild(state, x_kind)
        log_event(state, EVENT_WILD, -1, x_kind, 0)
    set_wild(state, y_kind)
    log_event(state, EVENT_WILD, -1, y_kind, 0)
    record[R_DEALER] = dealer
    record[R_INDICATOR] = indicator
    for seat in range(n_players):
        record[R_KINGS_DEALT + seat] = state.wild_count[seat]
    record[R_DEALER_COMPLETE] = (
        _win_features(state, dealer, anhua.HOW_SELF_DRAW, x_kind, y_kind, params, tables)
        != anhua.NO_WIN
    )
    # what the agents steer by: 2-5-8 standard hands and seven pairs
    forms = FORM_STANDARD | OPTION_PAIR_258 | FORM_SEVEN_PAIRS
    if params[anhua.P_SEVEN_PAIRS_ALLOW_QUAD] != 0:
        forms |= OPTION_QUADS
    allowed = np.ones(N_KINDS, np.bool_)
    first_turn = np.ones(n_players, np.bool_)
    locked = np.zeros(n_players, np.bool_)  # hand lock after an open kong
    claimed = np.zeros(n_players, np.bool_)  # made a chi, pong or kong this hand
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
                log_event(state, EVENT_EXHAUSTED, last_drawer, -1, 0)
                for s in range(n_players):
                    record[R_DELTA + s] = 0
                break
            give_tile(state, seat, tile)
            state.passed_wins[seat] = 0  # 漏胡 ends with the next draw from the wall
            log_event(state, EVENT_DRAW, seat, tile, 0)
            state.scalars[TURNS] += 1
            drawn = tile
            last_drawer = seat
        else:
            drawn = -1
        if not just_claimed:
            # 起手四王/七王: on the first own turn, or (option) any own turn before a claim
            window_open = first_turn[seat] or (
                params[anhua.P_INSTANT_WIN_WINDOW] == 1 and not claimed[seat]
            )
            if (
                window_open
                and _holds_instant_kings(state, seat, x_kind, y_kind, params)
                and accepts_win(state.agents[seat], anhua.FEATURE_INSTANT, -1)
            ):
                record[R_DEAL_INSTANT] |= 1 << seat
                winners[0] = seat
                features[0] = anhua.FEATURE_INSTANT
                _finish_win(
                    state, record, winners, features, 1, anhua.HOW_INSTANT, -1, -1, 1, params
                )
                break
            won = anhua.NO_WIN
            if _plausible_win(state.keys[seat], state.wild_count[seat], -1, state.wild, tables):
                won = _win_features(
                    state, seat, anhua.HOW_SELF_DRAW, x_kind, y_kind, params, tables
                )
            if won != anhua.NO_WIN and accepts_win(state.agents[seat], won, -1):
                winners[0] = seat
                features[0] = won
                _finish_win(
                    state, record, winners, features, 1, anhua.HOW_SELF_DRAW, -1, drawn, 1, params
                )
                break
            # an own-turn kong (暗杠 / 明杠); the efficiency agent kongs whenever allowed. A
            # locked konger may only kong with the tile just drawn (自己摸到的杠可以继续杠).
            kong_kind = -1
            kong_type = -1
            # kinds this seat has a pong of, once: the loop below may not call out per kind
            ponged = np.zeros(27, np.bool_)
            for index in range(state.n_melds[seat]):
                if state.melds[seat, index, 0] == MELD_PONG:
                    ponged[state.melds[seat, index, 1]] = True
            for candidate in range(27):
                if locked[seat] and candidate != drawn:
                    continue
                if state.hands[seat, candidate] == 4 and _kong_allowed(
                    state, seat, candidate, MELD_CONCEALED_KONG, x_kind, y_kind, params, tables
                ):
                    kong_kind = candidate
                    kong_type = MELD_CONCEALED_KONG
                    break
                if (
                    ponged[candidate]
                    and state.hands[seat, candidate] >= 1
                    and _kong_allowed(
                        state, seat, candidate, MELD_ADDED_KONG, x_kind, y_kind, params, tables
                    )
                ):
                    kong_kind = candidate
                    kong_type = MELD_ADDED_KONG
                    break
            if kong_kind >= 0 and accepts_kong(state.agents[seat], kong_kind):
                first_turn[seat] = False
                claimed[seat] = True
                result = open_kong(
                    state,
                    seat,
                    kong_kind,
                    kong_type,
                    seat,
                    x_kind,
                    y_kind,
                    params,
                    tables,
                    record,
                    locked,
                )
                if result == KONG_HAND_OVER:
                    break
                seat = (seat + 1) % n_players
                must_draw = True
                continue
        first_turn[seat] = False
        just_claimed = False
        # a locked hand discards what it drew (rules-spec A3.4 step 6)
        if locked[seat]:
            kind = drawn
        else:
            kind = choose_discard(
                state.agents[seat],
                state.hands[seat],
                state.keys[seat],
                state.wild_count[seat],
                state.wild,
                state.visible,
                N_KINDS if state.scalars[N_TILES] == 136 else 27,
                forms,
                allowed,
                tables,
            )
        take_tile(state, seat, kind)
        add_discard(state, seat, kind)
        log_event(state, EVENT_DISCARD, seat, kind, 0)
        # claims on the discard: wins first, in turn order from the next player. Most discards
        # complete no hand even with every king wild: then the claim search is not entered.
        single = params[anhua.P_MULTI_RON] == 0
        plausible = False
        for other in range(n_players):
            if other != seat and _plausible_win(
                state.keys[other], state.wild_count[other], kind, state.wild, tables
            ):
                plausible = True
        n_winners = 0
        if plausible:
            n_winners = _claim_winners(
                state,
                kind,
                seat,
                anhua.HOW_DISCARD,
                x_kind,
                y_kind,
                params,
                tables,
                winners,
                features,
                single,
            )
        if n_winners > 0:
            for w in range(n_winners):
                give_tile(state, winners[w], kind)
            # the claimed tile leaves the discard pile
            state.n_discards[seat] -= 1
            state.visible[kind] -= 1
            _finish_win(
                state,
                record,
                winners,
                features,
                n_winners,
                anhua.HOW_DISCARD,
                seat,
                kind,
                1,
                params,
            )
            break
        # a 直杠 on the discard ranks with a pong, before chi; locked hands make no claims
        direct_konger = -1
        for offset in range(1, n_players):
            other = (seat + offset) % n_players
            if (
                not locked[other]
                and state.hands[other, kind] == 3
                and _kong_allowed(
                    state, other, kind, MELD_DISCARD_KONG, x_kind, y_kind, params, tables
                )
                and accepts_kong(state.agents[other], kind)
            ):
                direct_konger = other
                break
        if direct_konger >= 0:
            first_turn[direct_konger] = False
            claimed[direct_konger] = True
            result = open_kong(
                state,
                direct_konger,
                kind,
                MELD_DISCARD_KONG,
                seat,
                x_kind,
                y_kind,
                params,
                tables,
                record,
                locked,
            )
            if result == KONG_HAND_OVER:
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
            if locked[other] or not _may_claim(state.hands[other], state.wild, offset == 1, kind):
                continue
            choice, first = choose_claim(
                state.agents[other],
                state.hands[other],
                state.keys[other],
                state.wild_count[other],
                state.wild,
                kind,
                offset == 1,
                forms,
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
            state.n_discards[seat] -= 1  # the tile moves into the meld
            state.visible[kind] -= 1
            if claim == CLAIM_PONG:
                take_tile(state, claimer, kind)
                take_tile(state, claimer, kind)
                add_meld(state, claimer, MELD_PONG, kind, seat)
                log_event(state, EVENT_PONG, claimer, kind, seat)
                state.visible[kind] += 3
            else:
                for member in range(chi_first, chi_first + 3):
                    if member != kind:
                        take_tile(state, claimer, member)
                    state.visible[member] += 1
                add_meld(state, claimer, MELD_CHI, chi_first, seat)
                log_event(state, EVENT_CHI, claimer, chi_first, seat)
            first_turn[claimer] = False
            claimed[claimer] = True
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
def play_anhua_hands(
    state, walls, n_players, first_dealers, hands_per_session, params, tables, records
):
    """Play one hand per wall (walls int8 (n, 108)) into ``records`` (int64 (n, N_RECORD)), in
    sessions of ``hands_per_session`` hands. Session ``k`` starts with dealer
    ``first_dealers[k]``; within a session each hand's dealer is the one the previous hand
    chose (rules-spec A2.1). No validation."""
    dealer = 0
    for index in range(walls.shape[0]):
        if index % hands_per_session == 0:
            dealer = first_dealers[index // hands_per_session]
        dealer = play_anhua_hand(
            state, walls[index], n_players, dealer, params, tables, records[index]
        )
