"""Anhua Seven Kings 安化七王麻将: its hooks of the variant interface (numba).

Each hook of ``sim.kernels.variant_type.HOOK_NAMES`` is a kernel taking Anhua's marker first;
``sim.variants.anhua.engine`` makes them the methods of that marker, so the generic game loop
(``sim.kernels.engine``) plays Anhua through them and knows nothing below. One hook calls
another as a method (``variant.win(...)``), not as a kernel: the kernel would be a second
compiled copy of the same body. Scoring (king
classes, features, points, birds and payments) is in ``scoring``; this module applies it to the
game state: the kings 王
from the flip, the instant king win, claims without kings and chi only from the previous
player, the open kong 开杠 and its three revealed tiles, and settlement with birds.

Source: ``000_256f49c87fe6e891.txt``; English reading ``rules-spec.md`` Part A; this project's
decisions in docs/rules-anhua.md.
"""

from __future__ import annotations

import numpy as np

from ...kernels._jit import inline_kernel, kernel
from ...kernels.agents import accepts_win
from ...kernels.hand import (
    FORM_SEVEN_PAIRS,
    FORM_STANDARD,
    OPTION_PAIR_258,
    OPTION_QUADS,
)
from ...kernels.moves import (
    KONG_CONTINUE,
    KONG_HAND_OVER,
    NO_WIN,
    O_FACTOR,
    O_FEATURES,
    O_HOW,
    O_N_WINNERS,
    O_PAYER,
    O_WINNER,
    meld_index,
    meld_suits,
    plausible_win,
    remove_discard,
    set_single_win,
    takes_claimed_win,
)
from ...kernels.record import R_BIRD, R_DEAL_INSTANT, R_INDICATOR, R_N_BIRDS, R_POINTS
from ...kernels.state import (
    DEALER,
    EVENT_BIRD,
    EVENT_INDICATOR,
    EVENT_PAY,
    EVENT_REVEAL,
    EVENT_WILD,
    FIRST_VARIANT_SLOT,
    HAND_ROW,
    HAND_STEER_FORMS,
    MELD_ADDED_KONG,
    MELD_CONCEALED_KONG,
    MELD_DISCARD_KONG,
    MELD_PONG,
    N_PLAYERS,
    ST_ACTED,
    ST_CLAIMED,
    ST_LOCKED,
    add_discard,
    add_meld,
    give_tile,
    log_event,
    pop_front,
    set_wild,
    take_tile,
    tiles_left,
)
from . import scoring as anhua

# the hand row's variant slots
HAND_X_KIND = FIRST_VARIANT_SLOT  # king kind X (the flipped kind), -1 with four kings
HAND_Y_KIND = FIRST_VARIANT_SLOT + 1  # king kind Y (the next rank)
# each seat's variant slots
ST_DEALT_X = FIRST_VARIANT_SLOT  # X kings in the seat's dealt hand (起手), for the instant win
ST_DEALT_Y = FIRST_VARIANT_SLOT + 1  # Y kings in the seat's dealt hand

# Every hand anhua.best_win accepts is complete in one of these forms with all kings wild (a
# king counted as its own face, 王代硬, is one of the things a wild may stand for).
WIN_FORMS = FORM_STANDARD | FORM_SEVEN_PAIRS | OPTION_QUADS


@kernel
def set_kings(state, x_kind, y_kind):
    """Make kinds X (-1: none, four kings) and Y the kings 王 of this hand."""
    if x_kind >= 0:
        set_wild(state, x_kind)
        log_event(state, EVENT_WILD, -1, x_kind, 0)
    set_wild(state, y_kind)
    log_event(state, EVENT_WILD, -1, y_kind, 0)
    state.status[HAND_ROW, HAND_X_KIND] = x_kind
    state.status[HAND_ROW, HAND_Y_KIND] = y_kind


@kernel
def setup(variant, state, params, record):
    """王的确定 (rules-spec A2.3): flip the tile after the deal; X is its kind (seven kings
    only), Y the next rank of its suit (9 wraps to 1). Every other copy of X and Y is a king."""
    indicator = pop_front(state)
    state.visible[indicator] += 1
    y_kind = indicator - indicator % 9 + (indicator % 9 + 1) % 9
    x_kind = indicator if params[anhua.P_KING_MODE] == anhua.KING_MODE_SEVEN else -1
    log_event(state, EVENT_INDICATOR, -1, indicator, 0)
    set_kings(state, x_kind, y_kind)
    # what the agents steer by: 2-5-8 standard hands and seven pairs
    steer = FORM_STANDARD | OPTION_PAIR_258 | FORM_SEVEN_PAIRS
    if params[anhua.P_SEVEN_PAIRS_ALLOW_QUAD] != 0:
        steer |= OPTION_QUADS
    state.status[HAND_ROW, HAND_STEER_FORMS] = steer
    for seat in range(state.scalars[N_PLAYERS]):
        state.status[seat, ST_DEALT_X] = state.hands[seat, x_kind] if x_kind >= 0 else 0
        state.status[seat, ST_DEALT_Y] = state.hands[seat, y_kind]
    record[R_INDICATOR] = indicator
    record[R_DEAL_INSTANT] = 0


@kernel
def win_forms(variant):
    """The forms every win of ``win`` is complete in with all kings wild (the pre-check's)."""
    return WIN_FORMS


@kernel
def win(variant, state, seat, how, tile, params, tables):
    """anhua.best_win for ``seat``'s concealed hand as it is (the winning ``tile`` already in it,
    -1 when none was drawn). A king won on from another player (only with
    discarded_king_claimable_for_win) is a natural tile of its face (rules-spec A2.3.5)."""
    claimed = how == anhua.HOW_DISCARD or how == anhua.HOW_ROB_KONG or how == anhua.HOW_KONG_CANNON
    natural_king = tile if claimed and tile >= 0 and state.wild[tile] else -1
    return anhua.best_win(
        state.hands[seat],
        meld_suits(state, seat),
        state.n_melds[seat],
        state.status[HAND_ROW, HAND_X_KIND],
        state.status[HAND_ROW, HAND_Y_KIND],
        how,
        natural_king,
        params,
        tables,
    )


@kernel
def win_with(variant, state, seat, tile, how, params, tables):
    """``win`` for ``seat``'s concealed hand plus ``tile`` (put back afterwards); the
    four-lookup pre-check first."""
    if not plausible_win(
        state.keys[seat], state.wild_count[seat], tile, state.wild, WIN_FORMS, tables
    ):
        return NO_WIN
    give_tile(state, seat, tile)
    won = variant.win(state, seat, how, tile, params, tables)
    take_tile(state, seat, tile)
    return won


@inline_kernel
def holds_instant_kings(x_held, y_held, params):
    """起手四王/七王 (rules-spec A3.6, docs/rules-anhua.md #4): ``x_held`` X and ``y_held`` Y
    kings are 四王 or 七王 by the tier mode: all four Y, or all seven kings; with ``count`` any
    four or more."""
    if params[anhua.P_KING_TIER_MODE] == anhua.TIER_MODE_COUNT:
        return x_held + y_held >= 4
    tier = anhua.king_tier(x_held, y_held, anhua.TIER_MODE_IDENTICAL_SETS)
    return tier == anhua.TIER_FOUR or tier == anhua.TIER_SEVEN


@kernel
def own_turn_win(variant, hand, status, seat, params):
    """起手四王/七王: on the seat's first own turn, or (option instant_win_window) on any own turn
    before its first claim, a dealt hand (起手) holding 四王/七王 may win at once as 小胡. The
    kings counted are those dealt and still held: a king drawn since, the first draw included,
    counts only with ``instant_king_win_counts_draw`` (rules-spec A3.6). ``hand``: the seat's
    concealed counts; ``status``: the state's status array. Returns (features, how):
    FEATURE_INSTANT and HOW_INSTANT, or NO_WIN."""
    window_open = status[seat, ST_ACTED] == 0 or (
        params[anhua.P_INSTANT_WIN_WINDOW] == 1 and status[seat, ST_CLAIMED] == 0
    )
    if not window_open:
        return NO_WIN, anhua.HOW_INSTANT
    x_kind = status[HAND_ROW, HAND_X_KIND]
    x_held = np.int64(hand[x_kind]) if x_kind >= 0 else np.int64(0)
    y_held = np.int64(hand[status[HAND_ROW, HAND_Y_KIND]])
    if params[anhua.P_INSTANT_COUNTS_DRAW] == 0:
        x_held = min(x_held, status[seat, ST_DEALT_X])
        y_held = min(y_held, status[seat, ST_DEALT_Y])
    if holds_instant_kings(x_held, y_held, params):
        return anhua.FEATURE_INSTANT, anhua.HOW_INSTANT
    return NO_WIN, anhua.HOW_INSTANT


@kernel
def tile_winnable(variant, state, tile, params):
    """Whether anyone may win on ``tile`` offered by another player: never on a king unless the
    option discarded_king_claimable_for_win says so (rules-spec A2.3.5)."""
    return not (state.wild[tile] and params[anhua.P_DISCARDED_KING_CLAIMABLE] == 0)


@kernel
def may_claim(variant, hand, wild, is_next, kind, params):
    """Whether a seat with concealed ``hand`` has a legal pong or chi of the discarded ``kind``
    (chi only when it is the discarder's next player, ``is_next``). Kings are never claimed
    (rules-spec A2.3.4)."""
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
def max_winners(variant, how, kong_type, params):
    """How many players may win on one tile: on a discard all who can with 一炮多响, else the
    first in turn order; robbing 明杠 (and 直杠 with allow_rob_direct_kong) likewise; none for a
    暗杠 or when robbing is off (rules-spec A3.5)."""
    several = 4 if params[anhua.P_MULTI_RON] != 0 else 1
    if how == anhua.HOW_DISCARD:
        return several
    robbable = kong_type == MELD_ADDED_KONG or (
        kong_type == MELD_DISCARD_KONG and params[anhua.P_ALLOW_ROB_DIRECT_KONG] != 0
    )
    if how == anhua.HOW_ROB_KONG and robbable and params[anhua.P_ALLOW_ROB_KONG] != 0:
        return several
    return 0


@kernel
def is_ready(variant, state, seat, params, tables):
    """听牌 under Anhua's rules: some tile would complete a legal hand (rules-spec 0.3: never a
    fifth copy of a kind held four times; a wait counts even if every copy is visible)."""
    for kind in range(27):
        if state.hands[seat, kind] < 4 and (
            win_with(variant, state, seat, kind, np.int64(anhua.HOW_SELF_DRAW), params, tables)
            != NO_WIN
        ):
            return True
    return False


@kernel
def kong_allowed(variant, state, seat, kind, kong_type, params, tables):
    """Conditions of an open kong 开杠 (rules-spec A3.3): K3 no king among the four, K2 enough
    wall, K1 ready once the four tiles are set aside."""
    if state.wild[kind] or tiles_left(state) < params[anhua.P_KONG_MIN_WALL]:
        return False
    from_hand = 4 if kong_type == MELD_CONCEALED_KONG else 1 if kong_type == MELD_ADDED_KONG else 3
    if state.hands[seat, kind] < from_hand:
        return False
    if kong_type == MELD_ADDED_KONG and meld_index(state, seat, MELD_PONG, kind) < 0:
        return False
    for _ in range(from_hand):
        take_tile(state, seat, kind)
    if kong_type != MELD_ADDED_KONG:
        add_meld(state, seat, kong_type, kind, seat)
    ready = is_ready(variant, state, seat, params, tables)
    if kong_type != MELD_ADDED_KONG:
        state.n_melds[seat] -= 1
    for _ in range(from_hand):
        give_tile(state, seat, kind)
    return ready


@kernel
def kong(variant, state, konger, kind, kong_type, from_seat, params, tables, outcome):
    """The open kong 开杠 of rules-spec A3.4 after the engine has made the kong (robbing is
    over): the next tiles of the wall are revealed; the konger blooms on the best of them
    (杠上花; with ``kong_multi_tile_win = double`` twice the points when several would win);
    else they are his discards, and the first eligible player from his next seat may win on
    one (杠上炮, a single winner, the konger pays); else the konger's hand is locked. The kind
    and type of the kong and whom a 直杠 took from do not change the procedure.
    Returns KONG_HAND_OVER with ``outcome`` filled, or KONG_CONTINUE."""
    n_players = state.scalars[N_PLAYERS]
    n_reveal = params[anhua.P_KONG_REVEAL_COUNT]
    revealed = np.full(3, -1, np.int64)
    for j in range(n_reveal):
        revealed[j] = pop_front(state)
        if revealed[j] >= 0:
            state.visible[revealed[j]] += 1
            log_event(state, EVENT_REVEAL, konger, revealed[j], 0)
    # 杠上花: the konger's best revealed tile (a revealed king is his wild)
    best = NO_WIN
    best_rank = -1
    best_tile = -1
    winning_tiles = 0
    for j in range(n_reveal):
        tile = revealed[j]
        if tile < 0:
            continue
        won = win_with(variant, state, konger, tile, np.int64(anhua.HOW_KONG_BLOOM), params, tables)
        if won != NO_WIN and accepts_win(state.agents[konger], won, -1):
            winning_tiles += 1
            if anhua.bigs_of(won) > best_rank:
                best_rank = anhua.bigs_of(won)
                best = won
                best_tile = tile
    if best != NO_WIN:
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
        set_single_win(outcome, konger, best, anhua.HOW_KONG_BLOOM, -1, best_tile, factor)
        return KONG_HAND_OVER
    # no bloom: the revealed tiles are the konger's discards; 杠上炮 for the first eligible seat
    for j in range(n_reveal):
        if revealed[j] >= 0:
            state.visible[revealed[j]] -= 1
            add_discard(state, konger, revealed[j])
    for offset in range(1, n_players):
        other = (konger + offset) % n_players
        seat_best = np.int64(NO_WIN)
        seat_rank = -1
        seat_tile = np.int64(-1)
        for j in range(n_reveal):
            tile = revealed[j]
            if tile < 0 or not variant.tile_winnable(state, tile, params):
                continue
            if (state.passed_wins[other] >> tile) & 1:
                continue  # 漏胡
            won = win_with(
                variant, state, other, tile, np.int64(anhua.HOW_KONG_CANNON), params, tables
            )
            if won != NO_WIN and anhua.bigs_of(won) > seat_rank:
                seat_rank = anhua.bigs_of(won)
                seat_best = won
                seat_tile = tile
        if seat_best != NO_WIN and takes_claimed_win(state, other, seat_best, seat_tile):
            remove_discard(state, konger, seat_tile)
            give_tile(state, other, seat_tile)
            set_single_win(outcome, other, seat_best, anhua.HOW_KONG_CANNON, konger, seat_tile, 1)
            return KONG_HAND_OVER
    state.status[konger, ST_LOCKED] = 1  # 选择杠开后手牌不能动 (rules-spec A3.4 step 6)
    return KONG_CONTINUE


@kernel
def settle_win(variant, state, outcome, params, record, delta):
    """Points P = 2^(B+1) times the outcome's factor, birds 抓鸟 (none when the winning tile was
    the last of the wall, 海底), the payments into ``delta`` and the event log, and the next
    dealer: the winner, or the discarder when several won on one discard (rules-spec A2.1,
    A3.8, A5). Fills the record's points, birds and instant-win slots."""
    n_players = state.scalars[N_PLAYERS]
    n_winners = outcome[O_N_WINNERS]
    how = outcome[O_HOW]
    payer = outcome[O_PAYER]
    winners = outcome[O_WINNER : O_WINNER + 4]
    points = np.zeros(4, np.int64)
    for w in range(n_winners):
        points[w] = anhua.base_points(outcome[O_FEATURES + w]) * outcome[O_FACTOR]
        record[R_POINTS + w] = points[w]
    last_tile = tiles_left(state) == 0 and how == anhua.HOW_SELF_DRAW
    birds = np.zeros(4, np.int64)
    n_birds = np.int64(0)
    if not last_tile:
        for _ in range(params[anhua.P_BIRD_COUNT]):
            tile = pop_front(state)
            if tile < 0:
                break
            birds[n_birds] = tile
            record[R_BIRD + n_birds] = tile
            log_event(state, EVENT_BIRD, anhua.bird_seat(tile, winners[0], n_players), tile, 0)
            n_birds += 1
    record[R_N_BIRDS] = n_birds
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
    if how == anhua.HOW_INSTANT:
        record[R_DEAL_INSTANT] |= 1 << winners[0]
    return winners[0] if n_winners == 1 else payer


@kernel
def settle_draw(variant, state, last_drawer, params, record, delta):
    """荒庄: no payments; whoever drew the last tile deals next (rules-spec A3.8)."""
    return last_drawer
