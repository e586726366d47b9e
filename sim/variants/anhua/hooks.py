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

Rules: docs/rules/anhua.md (§anhua-rules); this project's
decisions in docs/rules/anhua.md.
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
    ACT_CHI,
    ACT_KONG,
    ACT_PONG,
    ACT_WIN,
    KONG_CONTINUE,
    KONG_HAND_OVER,
    NO_WIN,
    O_FACTOR,
    O_FEATURES,
    O_HOW,
    O_N_WINNERS,
    O_PAYER,
    O_WINNER,
    add_action,
    emit,
    flip,
    meld_index,
    meld_suits,
    plausible_win,
    set_single_win,
)
from ...kernels.record import R_DEAL_INSTANT, R_INDICATOR, R_POINTS
from ...kernels.state import (
    DEALER,
    EVENT_DRAW,
    EVENT_PASS_WIN,
    EVENT_PAY,
    EVENT_WILD,
    FIRST_VARIANT_EVENT,
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
    ST_OWN_TURN_EXTRA,
    add_discard,
    add_meld,
    claim_from_pile,
    give_tile,
    log_event,
    pop_front,
    set_wild,
    take_tile,
    tiles_left,
)
from ...kernels.status import StatusColumn, status_slots
from . import scoring as anhua
from .record_slots import RH_BIRD, RH_N_BIRDS

# Anhua's own events (after the engine's, ``sim.kernels.state.EVENT_*``)
EVENT_REVEAL = FIRST_VARIANT_EVENT  # a tile revealed by an open kong (开杠翻牌)
EVENT_BIRD = FIRST_VARIANT_EVENT + 1  # a bird (抓鸟); seat = where it landed for the first winner

# Anhua's status columns (``sim.kernels.status``), from FIRST_VARIANT_SLOT: each seat's ...
SEAT_STATUS = (
    StatusColumn(
        "dealt_x_kings",
        "X kings in the seat's dealt hand (起手), for the instant win",
        "count",
        phrase="dealt {value} king{s} of X",
    ),
    StatusColumn(
        "dealt_y_kings",
        "Y kings in the seat's dealt hand (起手)",
        "count",
        phrase="dealt {value} king{s} of Y",
    ),
    # ``observe`` keeps it: a passed win sets the kind's bit, a draw from the wall clears them
    StatusColumn(
        "passed_wins",
        "kinds the seat passed a win on, offered by another player, since its last draw from "
        "the wall (漏胡: it may not win on them from others until it draws)",
        "tiles",
        phrase="passed wins on {value}",
    ),
)
ST_DEALT_X, ST_DEALT_Y, ST_PASSED_WINS = status_slots(SEAT_STATUS)
# ... and the hand row's
HAND_STATUS = (
    StatusColumn(
        "king_x",
        "king kind X (the flipped kind), none with four kings",
        "tile",
        "hand",
        phrase="king X is {value}",
    ),
    StatusColumn(
        "king_y", "king kind Y (the next rank)", "tile", "hand", phrase="king Y is {value}"
    ),
)
HAND_X_KIND, HAND_Y_KIND = status_slots(HAND_STATUS)

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
    """王的确定 (§anhua-kings): flip the tile after the deal; X is its kind (seven kings
    only), Y the next rank of its suit (9 wraps to 1). Every other copy of X and Y is a king."""
    indicator = flip(variant, state, params)
    y_kind = anhua.king_y_kind(indicator)
    x_kind = indicator if params[anhua.P_KING_MODE] == anhua.KING_MODE_SEVEN else -1
    set_kings(state, x_kind, y_kind)
    # what the agents steer by: 2-5-8 standard hands and seven pairs
    steer = FORM_STANDARD | OPTION_PAIR_258 | FORM_SEVEN_PAIRS
    if params[anhua.P_SEVEN_PAIRS_ALLOW_QUAD] != 0:
        steer |= OPTION_QUADS
    state.status[HAND_ROW, HAND_STEER_FORMS] = steer
    counts_draw = params[anhua.P_INSTANT_COUNTS_DRAW] != 0
    record[R_DEAL_INSTANT] = 0
    for seat in range(state.scalars[N_PLAYERS]):
        dealt_x = np.int64(state.hands[seat, x_kind]) if x_kind >= 0 else np.int64(0)
        dealt_y = np.int64(state.hands[seat, y_kind])
        state.status[seat, ST_DEALT_X] = dealt_x
        state.status[seat, ST_DEALT_Y] = dealt_y
        # the instant win is an own-turn action the engine would not ask for otherwise: flag
        # the seats that may come to hold it (own_turn_actions clears the flag once the window
        # has closed)
        dealt_instant = holds_instant_kings(dealt_x, dealt_y, params)
        if counts_draw or dealt_instant:
            state.status[seat, ST_OWN_TURN_EXTRA] = 1
        # the deal event 起手四王/七王 (a seat dealt them may win at once), whatever then happens
        record[R_DEAL_INSTANT] |= np.int64(dealt_instant) << seat
    record[R_INDICATOR] = indicator


@kernel
def plan_actions(variant, state, seat, params, actions):
    """No plan to offer at the deal (every suit may make a win): no rows."""
    return 0


@kernel
def win_forms(variant):
    """The forms every win of ``win`` is complete in with all kings wild (the pre-check's)."""
    return WIN_FORMS


@kernel
def lists_chi(variant):
    """The next player may chi a discard (``claim_actions``)."""
    return True


@kernel
def win(variant, state, seat, how, tile, params, tables):
    """anhua.best_win for ``seat``'s concealed hand as it is (the winning ``tile`` already in it,
    -1 when none was drawn). A king won on from another player (only with
    discarded_king_claimable_for_win) is a natural tile of its face (§anhua-discarded-kings)."""
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
    """起手四王/七王 (§anhua-instant-king-win, §anhua-reading-instant-win-dealt-hand): ``x_held`` X
    and ``y_held`` Y kings are 四王 or 七王 by the tier mode: all four Y, or all seven kings; with
    ``count`` any four or more."""
    if params[anhua.P_KING_TIER_MODE] == anhua.TIER_MODE_COUNT:
        return x_held + y_held >= 4
    tier = anhua.king_tier(x_held, y_held, anhua.TIER_MODE_IDENTICAL_SETS)
    return tier == anhua.TIER_FOUR or tier == anhua.TIER_SEVEN


@kernel
def instant_win(hand, status, seat, params):
    """起手四王/七王: on the seat's first own turn, or (option instant_win_window) on any own turn
    before its first claim, a dealt hand (起手) holding 四王/七王 may win at once as 小胡. The kings
    counted are those dealt and still held: a king drawn since, the first draw included, counts only
    with ``instant_king_win_counts_draw`` (§anhua-instant-king-win). ``hand``: the seat's concealed
    counts; ``status``: the state's status array. Returns 1 when the instant win is there, 0 when
    not, -1 when the window has closed for this hand."""
    window_open = status[seat, ST_ACTED] == 0 or (
        params[anhua.P_INSTANT_WIN_WINDOW] == 1 and status[seat, ST_CLAIMED] == 0
    )
    if not window_open:
        return -1
    x_kind = status[HAND_ROW, HAND_X_KIND]
    x_held = np.int64(hand[x_kind]) if x_kind >= 0 else np.int64(0)
    y_held = np.int64(hand[status[HAND_ROW, HAND_Y_KIND]])
    if params[anhua.P_INSTANT_COUNTS_DRAW] == 0:
        x_held = min(x_held, status[seat, ST_DEALT_X])
        y_held = min(y_held, status[seat, ST_DEALT_Y])
    return 1 if holds_instant_kings(x_held, y_held, params) else 0


@kernel
def own_turn_actions(variant, state, seat, drawn, params, tables, actions):
    """The legal actions of ``seat`` on its own turn (``drawn``: the tile it drew, -1 for the
    dealer's first turn), written to ``actions``; returns their number. In order: the instant
    win 起手四王/七王 (``instant_win``), the self-drawn win (``win``: 自摸, its best scoring), then
    every kong the K1-K3 conditions allow (``kong_allowed``; §anhua-kongs), by kind: a 暗杠
    of four held tiles or a 明杠 of a pong's fourth; a locked hand (after its open kong) only
    with the tile it drew. Both wins are listed where both are there: the agent takes the one
    that pays more (a dealt 四王 that is also a complete hand is a 四王平胡, P = 8, not 小胡;
    §anhua-instant-king-win)."""
    status = state.status
    hand = state.hands[seat]
    n_actions = 0
    if status[seat, ST_OWN_TURN_EXTRA] != 0:
        instant = instant_win(hand, status, seat, params)
        if instant < 0:
            status[seat, ST_OWN_TURN_EXTRA] = 0  # the window never opens again
        elif instant > 0:
            n_actions = add_action(
                actions,
                n_actions,
                ACT_WIN,
                -1,
                anhua.HOW_INSTANT,
                anhua.FEATURE_INSTANT,
                anhua.base_points(np.int64(anhua.FEATURE_INSTANT)),
            )
    if plausible_win(state.keys[seat], state.wild_count[seat], -1, state.wild, WIN_FORMS, tables):
        won = variant.win(state, seat, np.int64(anhua.HOW_SELF_DRAW), drawn, params, tables)
        if won != NO_WIN:
            n_actions = add_action(
                actions,
                n_actions,
                ACT_WIN,
                drawn,
                anhua.HOW_SELF_DRAW,
                won,
                anhua.base_points(won),
            )
    locked = status[seat, ST_LOCKED] != 0
    # the kinds of the seat's pongs, read here: a kernel given the state for each held kind
    # would count a reference per state array each time
    ponged = np.zeros(27, np.bool_)
    for index in range(state.n_melds[seat]):
        if state.melds[seat, index, 0] == MELD_PONG:
            ponged[state.melds[seat, index, 1]] = True
    for kind in range(27):
        if locked and kind != drawn:
            continue
        if hand[kind] == 4:
            kong_type = np.int64(MELD_CONCEALED_KONG)
        elif hand[kind] >= 1 and ponged[kind]:
            kong_type = np.int64(MELD_ADDED_KONG)
        else:
            continue
        if kong_allowed(variant, state, seat, kind, kong_type, params, tables):
            n_actions = add_action(actions, n_actions, ACT_KONG, kind, kong_type, 0, 0)
    return n_actions


@kernel
def tile_winnable(wild, tile, params):
    """Whether anyone may win on ``tile`` offered by another player (``wild``: the state's wild
    mask): never on a king unless the option discarded_king_claimable_for_win says so
    (§anhua-discarded-kings)."""
    return not (wild[tile] and params[anhua.P_DISCARDED_KING_CLAIMABLE] == 0)


@kernel
def claim_actions(
    variant, state, offerer, tile, how, kong_type, kong_from, params, tables, claims, n_claims
):
    """Each other seat's legal claims on ``tile`` offered by ``offerer``, written to
    ``claims[seat]`` with their number in ``n_claims[seat]``. ``how``: HOW_DISCARD for a
    discard, HOW_ROB_KONG for the tile of a kong being made (``kong_type``; ``kong_from``: whose
    discard a 直杠 took).

    A win (``win``: its best scoring), unless the tile is a king (``tile_winnable``), the seat
    passed a win on this kind since its last draw (漏胡) or, when robbing a 直杠, the seat discarded
    the tile (nobody wins on his own discard; §anhua-open-kong step 1). On a discard also, for a
    hand that is not locked and never on a king (§anhua-king-power): a 直杠 of three held tiles
    (``kong_allowed``), a pong of two, and a chi, only by the discarder's next player, each sequence
    in order of its first tile, with natural tiles only. Returns the number of actions listed in
    all."""
    # the arrays bound once and no kernel given the state in the common path: this runs on
    # every discard, and each call that passes the state counts a reference per array in it
    n_players = state.scalars[N_PLAYERS]
    status = state.status
    wild = state.wild
    hands = state.hands
    keys = state.keys
    wild_count = state.wild_count
    winnable = tile_winnable(wild, tile, params)
    robbing = how == anhua.HOW_ROB_KONG
    listed = 0
    for offset in range(1, n_players):
        seat = (offerer + offset) % n_players
        n_actions = 0
        barred = robbing and kong_type == MELD_DISCARD_KONG and seat == kong_from
        if (
            winnable
            and not barred
            and not (status[seat, ST_PASSED_WINS] >> tile) & 1
            and plausible_win(keys[seat], wild_count[seat], tile, wild, WIN_FORMS, tables)
        ):
            give_tile(state, seat, tile)
            won = variant.win(state, seat, how, tile, params, tables)
            take_tile(state, seat, tile)
            if won != NO_WIN:
                n_actions = add_action(
                    claims[seat], n_actions, ACT_WIN, tile, how, won, anhua.base_points(won)
                )
        if not robbing and status[seat, ST_LOCKED] == 0 and not wild[tile]:
            held = hands[seat, tile]
            if held == 3 and kong_allowed(
                variant, state, seat, tile, np.int64(MELD_DISCARD_KONG), params, tables
            ):
                n_actions = add_action(
                    claims[seat], n_actions, ACT_KONG, tile, MELD_DISCARD_KONG, 0, 0
                )
            if held >= 2:
                n_actions = add_action(claims[seat], n_actions, ACT_PONG, tile, 0, 0, 0)
            if offset == 1 and tile < 27:
                n_actions = list_chis(hands[seat], wild, tile, claims[seat], n_actions)
        n_claims[seat] = n_actions
        listed += n_actions
    return listed


@kernel
def list_chis(hand, wild, tile, actions, n_actions):
    """Append a chi of ``tile`` for each sequence the concealed ``hand`` completes with natural
    tiles (kings are never claimed with), in order of the sequence's first tile."""
    rank = tile % 9
    for first_rank in range(max(0, rank - 2), min(rank, 6) + 1):
        first = tile - rank + first_rank
        usable = True
        for member in range(first, first + 3):
            if member != tile and (hand[member] == 0 or wild[member]):
                usable = False
        if usable:
            n_actions = add_action(actions, n_actions, ACT_CHI, first, 0, 0, 0)
    return n_actions


@kernel
def discard_mask(variant, hand, status, seat, drawn, params, allowed):
    """What ``seat`` may discard: a locked hand (after its open kong) discards the tile it
    drew, returned as the forced discard (选择杠开后手牌不能动, §anhua-open-kong step 6); any
    other hand may discard any tile it holds (``allowed`` stays as it is: -1)."""
    if status[seat, ST_LOCKED] != 0:
        return drawn
    return -1


@kernel
def observe(variant, status, event, seat, tile, detail, params):
    """漏胡: a seat that passes a win on a kind offered by another player may not win on that
    kind from others until its next draw from the wall (§anhua-missed-win); kept as bits in the
    seat's ``ST_PASSED_WINS``."""
    if event == EVENT_DRAW:
        status[seat, ST_PASSED_WINS] = 0
    elif event == EVENT_PASS_WIN:
        status[seat, ST_PASSED_WINS] |= np.int64(1) << tile


@kernel
def max_winners(variant, how, kong_type, params):
    """How many players may win on one tile: on a discard all who can with 一炮多响, else the
    first in turn order; robbing 明杠 (and 直杠 with allow_rob_direct_kong) likewise; none for a
    暗杠 or when robbing is off (§anhua-claims, §anhua-kongs)."""
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
    """听牌 under Anhua's rules: some tile would complete a legal hand (§anhua-hand-vocabulary:
    never a fifth copy of a kind held four times; a wait counts even if every copy is visible)."""
    for kind in range(27):
        if state.hands[seat, kind] < 4 and (
            win_with(variant, state, seat, kind, np.int64(anhua.HOW_SELF_DRAW), params, tables)
            != NO_WIN
        ):
            return True
    return False


@kernel
def kong_allowed(variant, state, seat, kind, kong_type, params, tables):
    """Conditions of an open kong 开杠 (§anhua-kongs): K3 no king among the four, K2 enough
    wall, K1 ready once the four tiles are set aside."""
    if state.wild[kind] or tiles_left(state) < params[anhua.P_KONG_MIN_WALL]:
        return False
    from_hand = 4 if kong_type == MELD_CONCEALED_KONG else 1 if kong_type == MELD_ADDED_KONG else 3
    if state.hands[seat, kind] < from_hand:
        return False
    if kong_type == MELD_ADDED_KONG and meld_index(state, seat, np.int64(MELD_PONG), kind) < 0:
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
    """The open kong 开杠 of §anhua-open-kong after the engine has made the kong (robbing is
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
            if tile < 0 or not tile_winnable(state.wild, tile, params):
                continue
            if (state.status[other, ST_PASSED_WINS] >> tile) & 1:
                continue  # 漏胡
            won = win_with(
                variant, state, other, tile, np.int64(anhua.HOW_KONG_CANNON), params, tables
            )
            if won != NO_WIN and anhua.bigs_of(won) > seat_rank:
                seat_rank = anhua.bigs_of(won)
                seat_best = won
                seat_tile = tile
        if seat_best == NO_WIN:
            continue
        if accepts_win(state.agents[other], seat_best, seat_tile):
            claim_from_pile(state, konger, seat_tile, other)
            give_tile(state, other, seat_tile)
            set_single_win(outcome, other, seat_best, anhua.HOW_KONG_CANNON, konger, seat_tile, 1)
            return KONG_HAND_OVER
        emit(variant, state, EVENT_PASS_WIN, other, seat_tile, 0, params)
    state.status[konger, ST_LOCKED] = 1  # 选择杠开后手牌不能动 (§anhua-open-kong step 6)
    return KONG_CONTINUE


@kernel
def settle_win(variant, state, outcome, params, tables, record, delta):
    """Points P = 2^(B+1) times the outcome's factor, birds 抓鸟 (none when the winning tile was the
    last of the wall, 海底), the payments into ``delta`` and the event log, and the next dealer: the
    winner, or the discarder when several won on one discard (§anhua-dealer, §anhua-exhaustive-draw,
    §anhua-scoring). Fills the record's points, birds and instant-win slots."""
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
            record[RH_BIRD + n_birds] = tile
            log_event(state, EVENT_BIRD, anhua.bird_seat(tile, winners[0], n_players), tile, 0)
            n_birds += 1
    record[RH_N_BIRDS] = n_birds
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
    return winners[0] if n_winners == 1 else payer


@kernel
def settle_draw(variant, state, last_drawer, params, tables, record, delta):
    """荒庄: no payments; whoever drew the last tile deals next (§anhua-exhaustive-draw)."""
    return last_drawer
