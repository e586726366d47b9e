"""Weng'an 贵州瓮安麻将: its hooks of the variant interface (numba).

Each hook of ``sim.kernels.variant_type.HOOK_NAMES`` is a kernel taking Weng'an's marker first;
``sim.variants.wengan.engine`` makes them the methods of that marker, so the generic loop
(``sim.kernels.engine``) plays Weng'an through them. Patterns, waits and chicken values are in
``scoring``, the settlement in ``settle``; this module applies them to the game state: 108 tiles,
no wilds, no chi; claims win, pong and 点豆; kongs by dou kind with replacement draws from the
tail (immediacy: 闷豆 / 爬坡豆 only in the turn the fourth tile came, else 憨包豆); robbing a
爬坡豆 only, by several players; 热炮; 报听 (an own-turn declaration, then a frozen hand); 过胡 /
过碰 locks; 定缺 (composition, or a suit each seat names at the deal) and 原缺; the 通行证 of a
平胡 on a discard and its exceptions; 天胡 / 地胡 / 杠开; the chicken flip(s) after a win; the
settlement (``settle.settle``) with every item logged; the dealer and his 连庄 count.

Rules: docs/rules/wengan.md (§wengan-rules); this project's
decisions in docs/rules/wengan.md.
"""

from __future__ import annotations

import numpy as np

from ...kernels._jit import inline_kernel, kernel
from ...kernels.agents import choose_declaration
from ...kernels.hand import FORM_SEVEN_PAIRS, FORM_STANDARD, OPTION_QUADS
from ...kernels.moves import (
    A_TILE,
    ACT_DECLARE,
    ACT_KONG,
    ACT_PLAN,
    ACT_PONG,
    ACT_WIN,
    HOW_DISCARD,
    HOW_KONG_BLOOM,
    HOW_ROB_KONG,
    HOW_SELF_DRAW,
    KONG_REPLACEMENT,
    N_ACTION_FIELDS,
    NO_WIN,
    O_FEATURES,
    O_HOW,
    O_N_WINNERS,
    O_PAYER,
    O_TILE,
    O_WINNER,
    add_action,
    emit,
    flip,
    flip_tail,
    meld_index,
    plausible_win,
)
from ...kernels.record import R_POINTS
from ...kernels.state import (
    DEALER,
    DEALER_STREAK,
    DRAW_REPLACEMENT,
    DRAW_SOURCE,
    EVENT_DECLARE,
    EVENT_DISCARD,
    EVENT_DRAW,
    EVENT_KONG,
    EVENT_PASS_CLAIM,
    EVENT_PASS_WIN,
    EVENT_PONG,
    FIRST_VARIANT_EVENT,
    HAND_ROW,
    HAND_STEER_FORMS,
    LAST_DISCARDER,
    MELD_ADDED_KONG,
    MELD_CONCEALED_KONG,
    MELD_DISCARD_KONG,
    MELD_PONG,
    N_HISTORY,
    N_PLAYERS,
    NEXT_STREAK,
    ST_ACTED,
    ST_CLAIMED,
    ST_LOCKED,
    ST_OWN_TURN_EXTRA,
    give_tile,
    log_event,
    take_tile,
    tiles_left,
)
from ...kernels.status import StatusColumn, status_slots
from . import agent, scoring
from . import settle as accounts
from .options import (
    DING_QUE_DECLARE,
    OPTION,
    P_DI_HU_WINDOW,
    P_DING_QUE,
    P_DING_QUE_MODE,
    P_GUO_HU_LIMIT,
    P_GUO_HU_SCOPE,
    P_GUO_PENG_LIMIT,
    P_LIAN_ZHUANG_COUNTS_DRAWS,
    P_MULTI_RON,
    P_PLAYERS,
)
from .patterns import PATTERN_NONE
from .record_slots import (
    POINT_SOURCES,
    RW_BAO_TING,
    RW_DEALT_LACKING,
    RW_FLIP,
    RW_HOT_CANNON,
    RW_KONGS,
    RW_NEXT_STREAK,
    RW_PATTERN,
    RW_QUE_SUIT,
    RW_READY,
    RW_STREAK,
    SLOT,
    source_of_items,
)

# Each settlement item kind's point source (an index of POINT_SOURCES, -1 none) after a win and
# after a 荒庄, and each source's first record slot: constants of the kernels
_ITEM_IDS = tuple(english for english, _ in accounts.ITEM_KINDS)
SOURCE_ON_WIN = np.array(source_of_items(_ITEM_IDS, on_draw=False), np.int64)
SOURCE_ON_DRAW = np.array(source_of_items(_ITEM_IDS, on_draw=True), np.int64)
SOURCE_SLOTS = np.array([SLOT[source.slot] for source in POINT_SOURCES], np.int64)

# Weng'an's own events (after the engine's, ``sim.kernels.state.EVENT_*``), logged by the
# settle hooks: each owned chicken tile, each kong's dou kind, then every settlement item
EVENT_CHICKEN = FIRST_VARIANT_EVENT  # seat: owner, tile: kind, detail: value + 256 x where
EVENT_DOU = FIRST_VARIANT_EVENT + 1  # seat: konger, tile: kind, detail: settle.DOU_* kind
EVENT_ITEM = FIRST_VARIANT_EVENT + 2  # + settle.ITEM_* kind; seat: payer, tile: payee, detail
N_EVENTS = 2 + len(accounts.ITEM_KINDS)

# Declarations (EVENT_DECLARE's detail): 报听 on one's first turn, 定缺's suit at the deal
DECLARE_BAO_TING = 0
DECLARE_QUE = 1  # tile: the first kind of the suit named (1m, 1p or 1s)
DECLARATION_NAMES = {DECLARE_BAO_TING: "报听", DECLARE_QUE: "定缺"}

# Feature bits of a win (R_FEATURES, A_FEATURES): the pattern code, then the 名堂 and facts
FEATURE_PATTERN = 15  # the §wengan-pattern-score pattern code (patterns.py) in the low four bits
FEATURE_HEAVENLY = 16  # 天胡
FEATURE_EARTHLY = 32  # 地胡
FEATURE_ROB_KONG = 64  # 抢杠
FEATURE_BAO_TING = 128  # 报听: the winner had declared
FEATURE_SHA_TING = 256  # 杀听: a 报听 discarder, or a self-draw while another declared
FEATURE_KONG_BLOOM = 512  # 杠开
FEATURE_HOT_CANNON = 1024  # 热炮
FEATURE_PASSPORT = 2048  # the winner held a 通行证 (§wengan-passport) when he won

# Every hand scoring accepts is complete in one of these forms (a quad counts as two pairs)
WIN_FORMS = FORM_STANDARD | FORM_SEVEN_PAIRS | OPTION_QUADS
ALL_SUITED = (1 << 27) - 1
_DI_HU_FIRST_GO_AROUND = OPTION["di_hu_window"].code("first_go_around")
_GUO_HU_ANY_TILE = OPTION["guo_hu_scope"].code("any_tile")

# Weng'an's status columns (``sim.kernels.status``), from FIRST_VARIANT_SLOT: each seat's ...
SEAT_STATUS = (
    StatusColumn(
        "bao_ting",
        "1 once the seat declared 报听 (its hand is then frozen)",
        "flag",
        phrase="declared 报听",
    ),
    StatusColumn(
        "que_suit",
        "the 定缺 suit the seat named: 1 m, 2 p, 3 s; 0 none",
        "number",
        phrase="定缺: lacks suit {suit}",
    ),
    StatusColumn(
        "dealt_lacking",
        "1 when the seat's dealt hand lacked a suit (原缺)",
        "flag",
        phrase="dealt hand lacked a suit (原缺)",
    ),
    # ``observe`` keeps the two locks: a declined win / pong sets the kind's bit, the seat's
    # draw, pong or kong clears them (its hand changed)
    StatusColumn(
        "passed_wins",
        "kinds the seat declined a legal win on since its hand last changed (过胡: no win on "
        "them from others until then)",
        "tiles",
        phrase="passed wins on {value}",
    ),
    StatusColumn(
        "passed_pongs",
        "kinds the seat declined a pong (or 点豆) of since its hand last changed (过碰)",
        "tiles",
        phrase="passed pongs on {value}",
    ),
    StatusColumn(
        "late_kongs",
        "bit i: the seat's meld i is a 憨包豆 (a kong made late, no dou)",
        "number",
        phrase="憨包豆 (a kong made late, no dou): meld {bits}",
    ),
    StatusColumn(
        "fresh",
        "kinds whose fourth tile the seat obtained this turn (a dealt quad: first turn)",
        "hidden",
    ),
    StatusColumn(
        "ready_discards",
        "the discards that leave the seat ready, while it may declare 报听",
        "hidden",
    ),
    StatusColumn("after_kong", "1 from the seat's kong to its next discard (热炮)", "hidden"),
    StatusColumn(
        "melds_made", "the seat's pongs and kongs so far (the agents' danger cue)", "hidden"
    ),
)
(
    ST_BAO_TING,
    ST_QUE,
    ST_DEALT_LACKING,
    ST_PASSED_WINS,
    ST_PASSED_PONGS,
    ST_LATE_KONGS,
    ST_FRESH,
    ST_READY_DISCARDS,
    ST_AFTER_KONG,
    ST_MELDS_MADE,
) = status_slots(SEAT_STATUS)
# ... and the hand row's
HAND_STATUS = (
    StatusColumn(
        "melded", "1 once anyone ponged or konged this hand (地胡 is over)", "hidden", "hand"
    ),
    StatusColumn("hot_discard", "1 while the last discard is a 热炮 candidate", "hidden", "hand"),
)
HAND_MELDED, HAND_HOT_DISCARD = status_slots(HAND_STATUS)


# ---------------------------------------------------------------------------------------------
# Setup: 定缺 and 原缺


@inline_kernel
def que_in_force(params):
    """定缺 applies: 2 or 3 players with ``ding_que`` on (§wengan-ding-que)."""
    return params[P_PLAYERS] != 4 and params[P_DING_QUE] != 0


@inline_kernel
def que_suit(status, seat):
    """The seat's named 定缺 suit (0 m, 1 p, 2 s), -1 none."""
    return status[seat, ST_QUE] - 1


@kernel
def name_que_suit(variant, state, seat, params):
    """定缺 by declaration (``ding_que_mode = declare``): the seat names a suit after the deal;
    its agent chooses among the three (``agents.choose_declaration``, forced), each valued by
    minus the tiles of the suit held, so the default agent drops its weakest suit."""
    actions = np.zeros((3, N_ACTION_FIELDS), np.int64)
    for suit in range(3):
        held = 0
        for kind in range(9 * suit, 9 * suit + 9):
            held += np.int64(state.hands[seat, kind])
        add_action(actions, suit, ACT_DECLARE, 9 * suit, DECLARE_QUE, 0, -held)
    row = choose_declaration(state.agents[seat], actions, np.int64(3), np.bool_(True))
    emit(variant, state, EVENT_DECLARE, seat, actions[row, A_TILE], np.int64(DECLARE_QUE), params)


@kernel
def setup(variant, state, params, record):
    """No flip and no wilds at the deal (§wengan-deal). Each seat's first turn may list 报听; a quad
    dealt is fresh for the seat's first turn (§wengan-reading-dealt-quad); 原缺 is judged on the
    dealt tiles (§wengan-ding-que, §wengan-reading-scorer-details); under ``ding_que_mode =
    declare`` each seat names its 定缺 suit."""
    status = state.status
    # the forms the agents steer by, and what Weng'an pays for (agent.steer_hints)
    status[HAND_ROW, HAND_STEER_FORMS] = WIN_FORMS | agent.steer_hints(params)
    n_players = state.scalars[N_PLAYERS]
    declare = que_in_force(params) and params[P_DING_QUE_MODE] == DING_QUE_DECLARE
    lacking_bits = 0
    for seat in range(n_players):
        status[seat, ST_OWN_TURN_EXTRA] = 1  # the 报听 window of the first turn
        suits = 0
        for kind in range(27):
            if state.hands[seat, kind] == 4:
                status[seat, ST_FRESH] |= np.int64(1) << kind
            if state.hands[seat, kind] > 0:
                suits |= 1 << (kind // 9)
        if que_in_force(params) and suits != 7:
            status[seat, ST_DEALT_LACKING] = 1
            lacking_bits |= 1 << seat
        if declare:
            name_que_suit(variant, state, seat, params)
    record[RW_DEALT_LACKING] = lacking_bits
    record[RW_STREAK] = state.scalars[DEALER_STREAK]


@kernel
def plan_actions(variant, state, seat, params, actions):
    """The plans ``seat``'s agent may make at the deal while 定缺 applies (§wengan-ding-que),
    binding nothing: each suit to play without (``ACT_PLAN``: A_DETAIL the suit's kinds, A_TILE its
    first kind), or under ``ding_que_mode = declare`` the suit the seat named in ``setup``. A hand
    must lack a suit to be ready or win, which the agents' shanten does not see: the plan tells them
    (``agents.choose_plan``). None with 4 players or 定缺 off."""
    if not que_in_force(params):
        return 0
    named = que_suit(state.status, seat)
    n_actions = 0
    for suit in range(3):
        if named < 0 or suit == named:
            kinds = np.int64(511) << (9 * suit)
            n_actions = add_action(actions, n_actions, ACT_PLAN, 9 * suit, kinds, 0, 0)
    return n_actions


@kernel
def win_forms(variant):
    """The forms every Weng'an win is complete in (a quad as two pairs for 龙七对)."""
    return WIN_FORMS


@kernel
def lists_chi(variant):
    """No chi in Weng'an (§wengan-claims): the engine's claim pre-check skips the chi shape."""
    return False


# ---------------------------------------------------------------------------------------------
# Wins


@kernel
def earthly(state, seat, how, params):
    """地胡 (§wengan-mingtang, §wengan-reading-earthly-window, §wengan-reading-scorer-details): a
    non-dealer, nobody has ponged or konged; a self-draw on his first draw (before his first
    discard); a discard before his first discard, or with ``di_hu_window = first_go_around`` among
    the first round of discards."""
    if seat == state.scalars[DEALER] or state.status[HAND_ROW, HAND_MELDED] != 0:
        return False
    if how == HOW_SELF_DRAW:
        return state.status[seat, ST_ACTED] == 0
    if how != HOW_DISCARD:
        return False
    if state.status[seat, ST_ACTED] == 0:
        return True
    first_round = state.scalars[N_HISTORY] <= state.scalars[N_PLAYERS]
    return params[P_DI_HU_WINDOW] == _DI_HU_FIRST_GO_AROUND and first_round


@kernel
def win(variant, state, seat, how, tile, params, tables):
    """The features of ``seat``'s win with its concealed hand as it is (the winning ``tile`` already
    in it; -1: the dealer's dealt 14, a 天胡), or NO_WIN. The pattern with 定缺
    (``scoring.best_pattern``); on a discard a 平胡 needs a 通行证 or an exception: 地胡, 热炮, the
    winner's 报听, the discarder's 报听 (杀听) (``scoring.discard_win_allowed``,
    §wengan-how-to-win); a robbed 爬坡豆 needs none (抢杠)."""
    status = state.status
    hand = state.hands[seat]
    counts = np.zeros(27, np.int64)
    for kind in range(27):
        counts[kind] = hand[kind]
    heavenly = tile < 0 and seat == state.scalars[DEALER] and status[seat, ST_ACTED] == 0
    code = scoring.best_pattern(
        counts,
        state.melds[seat],
        state.n_melds[seat],
        max(tile, 0),
        heavenly,
        que_suit(status, seat),
        params,
        tables,
    )
    if code == PATTERN_NONE:
        return NO_WIN
    features = np.int64(code)
    if tile >= 0:
        counts[tile] -= 1
    passport = scoring.has_passport(
        counts, state.melds[seat], state.n_melds[seat], status[seat, ST_LATE_KONGS], params
    )
    if passport:
        features |= FEATURE_PASSPORT
    if heavenly:
        features |= FEATURE_HEAVENLY
    if earthly(state, seat, how, params):
        features |= FEATURE_EARTHLY
    if status[seat, ST_BAO_TING] != 0:
        features |= FEATURE_BAO_TING
    if how == HOW_ROB_KONG:
        return features | FEATURE_ROB_KONG
    if how == HOW_KONG_BLOOM:
        features |= FEATURE_KONG_BLOOM
    n_players = state.scalars[N_PLAYERS]
    if how == HOW_DISCARD:
        if status[HAND_ROW, HAND_HOT_DISCARD] != 0:
            features |= FEATURE_HOT_CANNON
        if status[state.scalars[LAST_DISCARDER], ST_BAO_TING] != 0:
            features |= FEATURE_SHA_TING
        exception = (features & (FEATURE_EARTHLY | FEATURE_HOT_CANNON | FEATURE_BAO_TING)) != 0
        exception = exception or (features & FEATURE_SHA_TING) != 0
        if not scoring.discard_win_allowed(code, passport, exception, params):
            return NO_WIN
        return features
    for other in range(n_players):  # a self-draw while another has declared: 杀听
        if other != seat and status[other, ST_BAO_TING] != 0:
            features |= FEATURE_SHA_TING
    return features


@inline_kernel
def win_value(features, params):
    """What the agents compare wins by: the winner's T from one payer (§wengan-hand-payments) and
    the 热炮 / 杀听 on top."""
    code = features & FEATURE_PATTERN
    named = 0
    for bit in (FEATURE_HEAVENLY, FEATURE_EARTHLY, FEATURE_ROB_KONG, FEATURE_BAO_TING):
        named += (features & bit) != 0
    value = scoring.pattern_points(code) + named * accounts.mingtang_value(code, params)
    value += 3 if features & FEATURE_KONG_BLOOM else 0
    value += 1 if features & FEATURE_HOT_CANNON else 0
    sha_ting = accounts.mingtang_value(code, params) if features & FEATURE_SHA_TING else 0
    return value + sha_ting


# ---------------------------------------------------------------------------------------------
# Own turn: a self-drawn win, kongs, 报听


@kernel
def ready_discards(state, seat, params, tables):
    """The discards (bit k: kind k) that leave ``seat``'s 14 concealed tiles ready (报听)."""
    counts = np.zeros(27, np.int64)
    for kind in range(27):
        counts[kind] = state.hands[seat, kind]
    mask = np.int64(0)
    if not scoring.within_one_tile(counts, state.n_melds[seat], tables):
        return mask  # no discard leaves the hand one tile from complete
    que = que_suit(state.status, seat)
    for kind in range(27):
        if counts[kind] == 0:
            continue
        counts[kind] -= 1
        if scoring.is_ready(counts, state.melds[seat], state.n_melds[seat], que, params, tables):
            mask |= np.int64(1) << kind
        counts[kind] += 1
    return mask


@kernel
def own_turn_actions(variant, state, seat, drawn, params, tables, actions):
    """The legal actions of ``seat`` on its own turn (``drawn``: the tile it drew, -1 for the
    dealer's first turn): the self-drawn win (杠开 after a replacement draw; 天胡 on the dealt
    14); unless the hand is frozen by 报听 and while a tile is left, every kong: a 闷豆 of four
    held, a 爬坡豆 onto a pong (their dou kind is settled by ``kong``); on the first turn, with
    no pong or kong made, 报听 when some discard leaves the hand ready (§wengan-declared-ready)."""
    status = state.status
    hand = state.hands[seat]
    n_actions = 0
    if plausible_win(state.keys[seat], state.wild_count[seat], -1, state.wild, WIN_FORMS, tables):
        bloom = drawn >= 0 and state.scalars[DRAW_SOURCE] == DRAW_REPLACEMENT
        how = np.int64(HOW_KONG_BLOOM) if bloom else np.int64(HOW_SELF_DRAW)
        won = variant.win(state, seat, how, drawn, params, tables)
        if won != NO_WIN:
            value = win_value(won, params)
            n_actions = add_action(actions, n_actions, ACT_WIN, drawn, how, won, value)
    if status[seat, ST_BAO_TING] == 0 and tiles_left(state) >= 1:
        # A_VALUE 1: a kong nobody may rob (all but a 爬坡豆), which even a cautious agent makes
        for kind in range(27):
            if hand[kind] == 4:
                n_actions = add_action(
                    actions, n_actions, ACT_KONG, kind, MELD_CONCEALED_KONG, 0, 1
                )
            elif hand[kind] >= 1 and meld_index(state, seat, np.int64(MELD_PONG), kind) >= 0:
                safe = 1 - ((status[seat, ST_FRESH] >> kind) & 1)
                n_actions = add_action(actions, n_actions, ACT_KONG, kind, MELD_ADDED_KONG, 0, safe)
    if (
        status[seat, ST_OWN_TURN_EXTRA] != 0
        and status[seat, ST_ACTED] == 0
        and status[seat, ST_CLAIMED] == 0
        and status[seat, ST_BAO_TING] == 0
    ):
        mask = ready_discards(state, seat, params, tables)
        status[seat, ST_READY_DISCARDS] = mask
        if mask != 0:
            n_actions = add_action(actions, n_actions, ACT_DECLARE, -1, DECLARE_BAO_TING, 0, 1)
    return n_actions


# ---------------------------------------------------------------------------------------------
# Claims


@kernel
def robbable(state, konger, kind, how, kong_type):
    """Whether a kong being made may be robbed: only a 爬坡豆 (an added kong whose fourth tile
    came this turn; §wengan-robbing-a-kong), never a 憨包豆, 闷豆 or 点豆."""
    if how != HOW_ROB_KONG:
        return True
    fresh = (state.status[konger, ST_FRESH] >> kind) & 1
    return kong_type == MELD_ADDED_KONG and fresh != 0


@kernel
def claim_actions(
    variant, state, offerer, tile, how, kong_type, kong_from, params, tables, claims, n_claims
):
    """Each other seat's legal claims on ``tile`` offered by ``offerer`` (``how``: HOW_DISCARD, or
    HOW_ROB_KONG for the tile of a kong being made), written to ``claims[seat]`` with their number
    in ``n_claims[seat]``; returns the number listed in all. A win (``win``), unless the seat
    declined a legal win on the kind since its hand last changed (过胡, §wengan-guo-hu), or the kong
    robbed is no 爬坡豆; on a discard also, for a hand not frozen by 报听: a 点豆 of three held
    while a tile is left, and a pong of two, unless the seat declined a pong of the kind since its
    hand last changed (过碰). No chi (§wengan-claims)."""
    n_players = state.scalars[N_PLAYERS]
    status = state.status
    hands = state.hands
    listed = 0
    may_rob = robbable(state, offerer, tile, how, kong_type)
    for offset in range(1, n_players):
        seat = (offerer + offset) % n_players
        n_actions = 0
        if (
            may_rob
            and not (status[seat, ST_PASSED_WINS] >> tile) & 1
            and plausible_win(
                state.keys[seat], state.wild_count[seat], tile, state.wild, WIN_FORMS, tables
            )
        ):
            give_tile(state, seat, tile)
            won = variant.win(state, seat, how, tile, params, tables)
            take_tile(state, seat, tile)
            if won != NO_WIN:
                value = win_value(won, params)
                n_actions = add_action(claims[seat], n_actions, ACT_WIN, tile, how, won, value)
        if (
            how == HOW_DISCARD
            and status[seat, ST_BAO_TING] == 0
            and not (status[seat, ST_PASSED_PONGS] >> tile) & 1
        ):
            held = hands[seat, tile]
            if held == 3 and tiles_left(state) >= 1:
                n_actions = add_action(
                    claims[seat], n_actions, ACT_KONG, tile, MELD_DISCARD_KONG, 0, 0
                )
            if held >= 2:
                n_actions = add_action(claims[seat], n_actions, ACT_PONG, tile, 0, 0, 0)
        n_claims[seat] = n_actions
        listed += n_actions
    return listed


@kernel
def discard_mask(variant, hand, status, seat, drawn, params, allowed):
    """What ``seat`` may discard: in the turn it declares 报听, only a tile that leaves it ready;
    afterwards the tile it drew, returned as the forced discard (§wengan-declared-ready); otherwise
    anything."""
    if status[seat, ST_BAO_TING] == 0:
        return -1
    mask = status[seat, ST_READY_DISCARDS]
    if mask == 0:
        return drawn
    for kind in range(27):
        allowed[kind] = ((mask >> kind) & 1) != 0
    for kind in range(27, allowed.shape[0]):
        allowed[kind] = False
    return -1


@kernel
def observe(variant, status, event, seat, tile, detail, params):
    """Weng'an's per-seat state from the events: the 过胡 / 过碰 locks (set by a declined win or
    pong, cleared when the seat's hand changes: a draw, pong or kong), the fresh fourth tiles
    (immediacy of 闷豆 / 爬坡豆), the 报听 window and declaration, the 定缺 suit named, 热炮 (a
    seat's first discard after its kong) and whether anyone has ponged or konged (地胡)."""
    if event == EVENT_DRAW:
        status[seat, ST_PASSED_WINS] = 0
        status[seat, ST_PASSED_PONGS] = 0
        bit = np.int64(1) << tile
        first_turn = status[seat, ST_ACTED] == 0
        # a replacement keeps the turn's fresh tiles; a dealt quad stays fresh in the first turn
        if detail == DRAW_REPLACEMENT or first_turn:
            status[seat, ST_FRESH] |= bit
        else:
            status[seat, ST_FRESH] = bit
        agent.mark_danger(status, seat, ST_BAO_TING, ST_MELDS_MADE)
    elif event == EVENT_DISCARD:
        status[HAND_ROW, HAND_HOT_DISCARD] = status[seat, ST_AFTER_KONG]
        status[seat, ST_AFTER_KONG] = 0
        status[seat, ST_FRESH] = 0
        status[seat, ST_OWN_TURN_EXTRA] = 0
        status[seat, ST_READY_DISCARDS] = 0
    elif event == EVENT_PONG or event == EVENT_KONG:
        status[seat, ST_PASSED_WINS] = 0
        status[seat, ST_PASSED_PONGS] = 0
        status[seat, ST_OWN_TURN_EXTRA] = 0
        status[HAND_ROW, HAND_MELDED] = 1
        status[seat, ST_MELDS_MADE] += 1
        if event == EVENT_PONG:
            status[seat, ST_FRESH] = 0
            agent.mark_danger(status, seat, ST_BAO_TING, ST_MELDS_MADE)
        else:
            status[seat, ST_AFTER_KONG] = 1
    elif event == EVENT_PASS_WIN:
        if params[P_GUO_HU_LIMIT] != 0:
            every = params[P_GUO_HU_SCOPE] == _GUO_HU_ANY_TILE
            status[seat, ST_PASSED_WINS] |= ALL_SUITED if every else np.int64(1) << tile
    elif event == EVENT_PASS_CLAIM:
        if params[P_GUO_PENG_LIMIT] != 0:
            status[seat, ST_PASSED_PONGS] |= np.int64(1) << tile
    elif event == EVENT_DECLARE:
        if detail == DECLARE_BAO_TING:
            status[seat, ST_BAO_TING] = 1
            status[seat, ST_LOCKED] = 1
        elif detail == DECLARE_QUE:
            status[seat, ST_QUE] = tile // 9 + 1


@kernel
def max_winners(variant, how, kong_type, params):
    """How many may win on one tile: on a discard all who can with 一炮多响, else the first in turn
    order (§wengan-claims); robbing an added kong, any number (§wengan-robbing-a-kong;
    ``claim_actions`` lists wins only on a 爬坡豆); no other kong is robbed."""
    if how == HOW_DISCARD:
        return 4 if params[P_MULTI_RON] != 0 else 1
    if how == HOW_ROB_KONG and kong_type == MELD_ADDED_KONG:
        return 4
    return 0


@kernel
def kong(variant, state, konger, kind, kong_type, from_seat, params, tables, outcome):
    """After the engine made the kong: its dou kind (§wengan-kongs): a 点豆 on a discard; a 闷豆 or
    爬坡豆 when the fourth tile came this turn (a dealt quad: the first turn), else a 憨包豆,
    kept as a bit of ``late_kongs``; then the replacement from the tail."""
    fresh = (state.status[konger, ST_FRESH] >> kind) & 1
    if kong_type != MELD_DISCARD_KONG and fresh == 0:
        meld_type = np.int64(MELD_ADDED_KONG if kong_type == MELD_ADDED_KONG else kong_type)
        index = meld_index(state, konger, meld_type, kind)
        state.status[konger, ST_LATE_KONGS] |= np.int64(1) << index
    return KONG_REPLACEMENT


# ---------------------------------------------------------------------------------------------
# Settlement


@kernel
def dou_kind(meld_type, late):
    """The settle encoding's dou kind of a meld (settle.DOU_*)."""
    if meld_type == MELD_PONG:
        return accounts.DOU_NONE
    if late:
        return accounts.DOU_HAN_BAO
    if meld_type == MELD_CONCEALED_KONG:
        return accounts.DOU_MEN
    if meld_type == MELD_ADDED_KONG:
        return accounts.DOU_PA_PO
    return accounts.DOU_DIAN


@kernel
def encode_seats(state, winners, n_winners, win_tile, features, seats, concealed, melds):
    """settle's ``seats``, ``concealed`` (a winner's without his winning tile) and ``melds``
    from the state; ``features`` per winner (R_FEATURES order)."""
    status = state.status
    for seat in range(seats.shape[0]):
        seats[seat, accounts.S_SHOWN] = 1
        seats[seat, accounts.S_BAO_TING] = status[seat, ST_BAO_TING]
        seats[seat, accounts.S_DEALT_LACKING] = status[seat, ST_DEALT_LACKING]
        seats[seat, accounts.S_QUE_SUIT] = que_suit(status, seat)
        seats[seat, accounts.S_N_MELDS] = state.n_melds[seat]
        for kind in range(27):
            concealed[seat, kind] = state.hands[seat, kind]
        late = status[seat, ST_LATE_KONGS]
        for index in range(state.n_melds[seat]):
            meld_type = state.melds[seat, index, 0]
            melds[seat, index, 0] = meld_type
            melds[seat, index, 1] = state.melds[seat, index, 1]
            melds[seat, index, 2] = state.melds[seat, index, 2]
            melds[seat, index, 3] = dou_kind(meld_type, (late >> index) & 1)
    for w in range(n_winners):
        seat = winners[w]
        seats[seat, accounts.S_WINNER] = 1
        seats[seat, accounts.S_KONG_BLOOM] = (features[w] & FEATURE_KONG_BLOOM) != 0
        seats[seat, accounts.S_HEAVENLY] = (features[w] & FEATURE_HEAVENLY) != 0
        seats[seat, accounts.S_EARTHLY] = (features[w] & FEATURE_EARTHLY) != 0
        concealed[seat, win_tile] -= 1


@kernel
def log_details(state, hand, seats, concealed, melds, discards, n_discards, params):
    """For replays only (the log on): each owned chicken tile (owner, kind, value and where)
    and each kong's dou kind, before the items."""
    n_players = seats.shape[0]
    hits = np.zeros(27, np.int64)
    if hand[accounts.H_N_WINS] != 0:
        flips = np.empty(2, np.int64)
        flips[0] = hand[accounts.H_WALL_HEAD]
        flips[1] = hand[accounts.H_WALL_TAIL]
        n_flips = scoring.flip_count(hand[accounts.H_TILES_LEFT], params)
        scoring.flip_hits(flips, n_flips, params, hits)
    marks = np.zeros((max(n_discards, 1), 2), np.int64)
    accounts.discard_marks(discards, n_discards, params, marks[:, 0], marks[:, 1])
    owned = np.empty((14 + 16 + n_discards, 3), np.int64)
    for seat in range(n_players):
        n = accounts.owned_chickens(
            seat, hand, seats, concealed, melds, discards, n_discards, marks, hits, params, owned
        )
        for row in range(n):
            log_event(
                state, EVENT_CHICKEN, seat, owned[row, 0], owned[row, 2] + 256 * owned[row, 1]
            )
        for index in range(seats[seat, accounts.S_N_MELDS]):
            if melds[seat, index, 0] != MELD_PONG:
                log_event(state, EVENT_DOU, seat, melds[seat, index, 1], melds[seat, index, 3])


@kernel
def settle_hand(variant, state, hand, winners, n_winners, features, params, tables, record, delta):
    """Encode the hand's end (``hand``: its H_* slots filled), run ``settle.settle``, log every
    item (EVENT_ITEM + its kind; the chickens and dou before them when the log is on), fill
    ``delta`` and Weng'an's record slots."""
    n_players = state.scalars[N_PLAYERS]
    seats = np.zeros((n_players, accounts.N_SEAT), np.int64)
    concealed = np.zeros((n_players, 27), np.int64)
    # int8 as the state's melds, so that the scoring kernels compile once for both
    melds = np.zeros((n_players, 4, 4), np.int8)
    encode_seats(
        state, winners, n_winners, hand[accounts.H_WIN_TILE], features, seats, concealed, melds
    )
    n_discards = state.scalars[N_HISTORY]
    if n_winners > 0 and hand[accounts.H_HOW] == accounts.HOW_DISCARD:
        n_discards -= 1  # the discard won on belongs to the winners' hands (§wengan-chicken-value)
    discards = np.zeros((max(n_discards, 1), 3), np.int64)
    for index in range(n_discards):
        for column in range(3):
            discards[index, column] = state.history[index, column]
    items = np.zeros((accounts.MAX_ITEMS, 4), np.int64)
    n_items = accounts.settle(
        hand, seats, concealed, melds, discards, n_discards, params, tables,
        items, delta,
    )  # fmt: skip
    if state.log.shape[0] > 1:
        log_details(state, hand, seats, concealed, melds, discards, n_discards, params)
    for row in range(n_items):
        kind = EVENT_ITEM + items[row, 0]
        log_event(state, kind, items[row, 1], items[row, 2], items[row, 3])
    collecting = np.zeros(n_players, np.int64)
    accounts.collecting_seats(hand, seats, concealed, melds, params, tables, collecting)
    fill_record(items, n_items, collecting, seats, melds, n_winners == 0, record)
    return n_items


@kernel
def fill_record(items, n_items, collecting, seats, melds, draw_game, record):
    """Weng'an's record slots (``record_slots``) from the settlement's items and the seats: each
    item netted into its point source (``record_slots.POINT_SOURCES``; on a 荒庄, ``draw_game``,
    a dealer bonus is part of 查叫)."""
    n_players = seats.shape[0]
    for seat in range(n_players):
        for base in SOURCE_SLOTS:
            record[base + seat] = 0
        record[RW_QUE_SUIT + seat] = seats[seat, accounts.S_QUE_SUIT]
    for row in range(n_items):
        kind = items[row, 0]
        source = SOURCE_ON_DRAW[kind] if draw_game else SOURCE_ON_WIN[kind]
        if source < 0:
            continue
        base = SOURCE_SLOTS[source]
        record[base + items[row, 1]] -= items[row, 3]
        record[base + items[row, 2]] += items[row, 3]
    ready = 0
    bao_ting = 0
    for seat in range(n_players):
        ready |= collecting[seat] << seat
        bao_ting |= seats[seat, accounts.S_BAO_TING] << seat
    record[RW_READY] = ready
    record[RW_BAO_TING] = bao_ting
    for dou in range(4):
        record[RW_KONGS + dou] = 0
    for seat in range(n_players):
        for index in range(seats[seat, accounts.S_N_MELDS]):
            dou = melds[seat, index, 3]
            if dou != accounts.DOU_NONE:
                record[RW_KONGS + dou - 1] += 1


@kernel
def settle_win(variant, state, outcome, params, tables, record, delta):
    """The chicken flip(s) after the win (``moves.flip``, and ``moves.flip_tail`` with 前后翻鸡;
    none with 翻牌鸡 off or the wall empty, §wengan-chicken-flip), the settlement
    (§wengan-settlement-order) into ``delta`` with every item logged, the record, and the next
    dealer (§wengan-next-dealer): a single winner; on 一炮全响 (every other player won one discard
    or robbed one kong; with 2 players never) the discarder, his 连庄 count restarting at 0
    (§wengan-dealer-bonus); on 一炮双响 the first winner in turn order from the discarder."""
    n_players = state.scalars[N_PLAYERS]
    n_winners = outcome[O_N_WINNERS]
    how = outcome[O_HOW]
    win_tile = outcome[O_TILE]
    winners = outcome[O_WINNER : O_WINNER + 4]
    features = outcome[O_FEATURES : O_FEATURES + 4]
    hand = np.zeros(accounts.N_HAND, np.int64)
    hand[accounts.H_N_WINS] = n_winners
    if how == HOW_DISCARD:
        hand[accounts.H_HOW] = accounts.HOW_DISCARD
    elif how == HOW_ROB_KONG:
        hand[accounts.H_HOW] = accounts.HOW_ROB_KONG
    else:
        hand[accounts.H_HOW] = accounts.HOW_SELF_DRAW
    if win_tile < 0:  # 天胡: any tile of the dealt 14 stands for the winning tile
        for kind in range(26, -1, -1):
            if state.hands[winners[0], kind] > 0:
                win_tile = kind
    hand[accounts.H_WIN_TILE] = win_tile
    hand[accounts.H_FROM] = outcome[O_PAYER] if how == HOW_DISCARD or how == HOW_ROB_KONG else -1
    hand[accounts.H_DEALER] = state.scalars[DEALER]
    hand[accounts.H_STREAK] = state.scalars[DEALER_STREAK]
    hot = how == HOW_DISCARD and state.status[HAND_ROW, HAND_HOT_DISCARD] != 0
    hand[accounts.H_HOT_CANNON] = 1 if hot else 0
    left = tiles_left(state)
    hand[accounts.H_TILES_LEFT] = left
    n_flips = scoring.flip_count(left, params)
    hand[accounts.H_WALL_HEAD] = flip(variant, state, params) if n_flips >= 1 else -1
    hand[accounts.H_WALL_TAIL] = flip_tail(variant, state, params) if n_flips == 2 else -1
    record[RW_FLIP] = hand[accounts.H_WALL_HEAD]
    record[RW_FLIP + 1] = hand[accounts.H_WALL_TAIL]
    record[RW_HOT_CANNON] = hand[accounts.H_HOT_CANNON]
    settle_hand(variant, state, hand, winners, n_winners, features, params, tables, record, delta)
    for w in range(n_winners):
        record[RW_PATTERN + w] = features[w] & FEATURE_PATTERN
        record[R_POINTS + w] = win_total(features[w], params)
    dealer = state.scalars[DEALER]
    source = outcome[O_PAYER]
    if n_winners == 1:
        next_dealer = winners[0]
    elif n_players > 2 and n_winners == n_players - 1:
        next_dealer = source  # 一炮全响: the discarder deals, having lost the hand
        state.scalars[NEXT_STREAK] = 0
    else:
        next_dealer = winners[0]  # the first winner in turn order from the discarder
    told = state.scalars[NEXT_STREAK]
    kept = state.scalars[DEALER_STREAK] + 1 if next_dealer == dealer else 0
    record[RW_NEXT_STREAK] = told if told >= 0 else kept
    return next_dealer


@inline_kernel
def win_total(features, params):
    """T (§wengan-hand-payments): pattern + 名堂 (天胡, 地胡, 抢杠, 报听) + 杠开 3; without 热炮 and
    杀听."""
    code = features & FEATURE_PATTERN
    named = 0
    for bit in (FEATURE_HEAVENLY, FEATURE_EARTHLY, FEATURE_ROB_KONG, FEATURE_BAO_TING):
        named += (features & bit) != 0
    bloom = 3 if features & FEATURE_KONG_BLOOM else 0
    return scoring.pattern_points(code) + named * accounts.mingtang_value(code, params) + bloom


@kernel
def settle_draw(variant, state, last_drawer, params, tables, record, delta):
    """荒庄 (§wengan-exhaustive-draw): 查叫, chickens and dou as the 荒庄 options say, 原缺; no
    flip. The dealer keeps the deal; his 连庄 count stays (one more with
    ``lian_zhuang_counts_draws``, §wengan-dealer-bonus)."""
    hand = np.zeros(accounts.N_HAND, np.int64)
    hand[accounts.H_WIN_TILE] = -1
    hand[accounts.H_FROM] = -1
    hand[accounts.H_DEALER] = state.scalars[DEALER]
    streak = state.scalars[DEALER_STREAK]
    hand[accounts.H_STREAK] = streak
    hand[accounts.H_WALL_HEAD] = -1
    hand[accounts.H_WALL_TAIL] = -1
    winners = np.full(4, -1, np.int64)
    features = np.zeros(4, np.int64)
    record[RW_HOT_CANNON] = 0
    settle_hand(variant, state, hand, winners, np.int64(0), features, params, tables, record, delta)
    next_streak = streak + (1 if params[P_LIAN_ZHUANG_COUNTS_DRAWS] != 0 else 0)
    state.scalars[NEXT_STREAK] = next_streak
    record[RW_NEXT_STREAK] = next_streak
    return state.scalars[DEALER]
