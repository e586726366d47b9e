"""Anqing 安庆麻将: its hooks of the variant interface (numba).

Each hook of ``sim.kernels.variant_type.HOOK_NAMES`` is a kernel taking Anqing's marker first;
``sim.variants.anqing.engine`` makes them the methods of that marker, so the generic loop
(``sim.kernels.engine``) plays Anqing through them: 136 tiles, four players; the flip after the deal
chooses the 钻 (wild, its successor), 红中 stands for the 钻's face, two dragons are 杠牌
(kong-only, never discarded, konged singly with a replacement from the tail); a 钻 is konged singly
only when the rest is ready (直叫); chi (the next player) and pong, never of a 钻; no win on a
discard and no robbing; every win self-drawn, scored by ``scoring.best_score`` (the 钻 conditions of
§anqing-zuan-conditions decide whether it is legal); payments with the dealer extra, 连庄 and 包
(``scoring.payments``); the dealer keeps the deal on his win and on 荒庄.

Rules: docs/rules/anqing.md (§anqing-rules); this project's
decisions in docs/rules/anqing.md.
"""

from __future__ import annotations

import numpy as np

from ...kernels._jit import inline_kernel, kernel
from ...kernels.hand import (
    FORM_SEVEN_PAIRS,
    FORM_STANDARD,
    FORM_THIRTEEN,
    KIND_POWER,
    KIND_SUIT,
    OPTION_QUADS,
    is_complete,
)
from ...kernels.moves import (
    A_VALUE,
    ACT_CHI,
    ACT_KONG,
    ACT_PONG,
    ACT_WIN,
    HOW_DISCARD,
    HOW_KONG_BLOOM,
    HOW_SELF_DRAW,
    KONG_REPLACEMENT,
    NO_WIN,
    O_HOW,
    O_TILE,
    O_WINNER,
    add_action,
    flip,
    meld_index,
)
from ...kernels.record import R_INDICATOR, R_POINTS
from ...kernels.state import (
    DEALER,
    DEALER_STREAK,
    DRAW_HEAD,
    DRAW_REPLACEMENT,
    DRAW_SOURCE,
    EVENT_CHI,
    EVENT_DISCARD,
    EVENT_DRAW,
    EVENT_KONG,
    EVENT_PAY,
    EVENT_PONG,
    EVENT_WILD,
    FIRST_VARIANT_EVENT,
    HAND_ROW,
    HAND_STAND_IN,
    HAND_STAND_IN_FACE,
    HAND_STEER_FORMS,
    MAX_SEATS,
    MELD_ADDED_KONG,
    MELD_CHI,
    MELD_CONCEALED_KONG,
    MELD_DISCARD_KONG,
    MELD_PONG,
    MELD_SINGLE_KONG,
    N_PLAYERS,
    ST_OWN_TURN_EXTRA,
    chi_member_tile,
    log_event,
    set_wild,
    stand_in_code,
    tiles_left,
)
from ...kernels.status import StatusColumn, status_slots
from . import agent, scoring
from .options import NEXT_DEALER_ROTATE, P_NEXT_DEALER_RULE
from .record_slots import (
    RA_AMOUNT,
    RA_BAO_FACTOR,
    RA_BAO_KIND,
    RA_CARRY,
    RA_DISCARDED_ZUAN,
    RA_FORM,
    RA_ITEMS,
    RA_NEXT_STREAK,
    RA_SINGLE_KONGS,
    RA_STREAK,
    RA_ZUAN,
    RA_ZUAN_KONGS,
)

# Anqing's own events (after the engine's), logged by ``settle_win`` for replays: every item
# that scored, then each payer's 包 factor
EVENT_ITEM = FIRST_VARIANT_EVENT  # seat: the winner, tile: the item id (scoring.I_*), detail
EVENT_BAO = FIRST_VARIANT_EVENT + 1  # seat: the payer, tile: the winner, detail: the factor
N_EVENTS = 2

# Feature bits of a win (R_FEATURES, A_FEATURES): the items that scored (bit i: item i,
# scoring.I_*) and the facts beside them
FEATURE_ZHI_JIAO = 1 << 24  # 直叫: 杠开 and 跑风 together (§anqing-zhi-jiao-win)

# The forms every legal win is complete in with every 钻 counted wild (the pre-check); a hand
# holding a 红中 for the 钻's face is pre-checked with it read as that face (``identity_keys``)
WIN_FORMS = FORM_STANDARD | FORM_SEVEN_PAIRS | OPTION_QUADS | FORM_THIRTEEN
CLASS_ONE_FORMS = FORM_STANDARD | FORM_SEVEN_PAIRS | OPTION_QUADS

SEAT_STATUS = (
    StatusColumn(
        "discarded_zuan",
        "1 once the seat discarded a 钻 this hand (D, §anqing-zuan-conditions)",
        "flag",
        phrase="discarded a 钻",
    ),
    StatusColumn(
        "gang_kongs",
        "single-tile kongs of 杠牌 the seat made (§anqing-gang-tile-kong)",
        "count",
        phrase="{value} single-tile kong{s} of 杠牌",
    ),
    StatusColumn(
        "zuan_kongs",
        "单张钻杠: 钻 the seat konged singly (直叫, §anqing-zuan-kong-needs-zhi-jiao)",
        "count",
        phrase="{value} single-tile kong{s} of the 钻 (单张钻杠)",
    ),
    StatusColumn(
        "kong_chain",
        "kongs the seat made in a row this turn (杠开's chain, §anqing-gang-kai)",
        "hidden",
    ),
    StatusColumn(
        "first_turn",
        "1 until the seat's first discard, chi, pong or 4-tile kong (天胡 / 地胡)",
        "hidden",
    ),
    StatusColumn(
        "mouths_from",
        "4 bits per seat f: the chis and pongs the seat made of f's discards (口, the agents' "
        "包 cue)",
        "hidden",
    ),
)
(
    ST_DISCARDED_ZUAN,
    ST_GANG_KONGS,
    ST_ZUAN_KONGS,
    ST_KONG_CHAIN,
    ST_FIRST_TURN,
    ST_MOUTHS_FROM,
) = status_slots(SEAT_STATUS)
HAND_STATUS = (
    StatusColumn(
        "zuan",
        "the 钻 (wild) kind: the flipped tile's successor (§anqing-zuan)",
        "tile",
        "hand",
        phrase="the 钻 (wild) is {value}",
    ),
    StatusColumn(
        "melded",
        "1 once anyone made a chi, pong or 4-tile kong (天胡 / 地胡 over)",
        "hidden",
        "hand",
    ),
    StatusColumn(
        "dealt_last", "the dealer's last tile dealt (天胡's winning tile)", "hidden", "hand"
    ),
)
HAND_ZUAN, HAND_MELDED, HAND_DEALT_LAST = status_slots(HAND_STATUS)


# ---------------------------------------------------------------------------------------------
# Setup


@kernel
def setup(variant, state, params, record):
    """钻牌的出现 (§anqing-zuan): flip the tile after the deal (out of play); its successor is the
    钻, whose four tiles are wild. A seat dealt a tile that may make an own-turn action the engine's
    pre-checks do not see (``special_held``) is flagged for the own-turn hook."""
    indicator = flip(variant, state, params)
    zuan = scoring.zuan_of(np.int64(indicator))
    set_wild(state, zuan)
    log_event(state, EVENT_WILD, -1, zuan, 0)
    status = state.status
    status[HAND_ROW, HAND_ZUAN] = zuan
    status[HAND_ROW, HAND_STEER_FORMS] = CLASS_ONE_FORMS
    if zuan < scoring.RED:  # 红中 plays the 钻's face, in chis too (§anqing-red-dragon)
        status[HAND_ROW, HAND_STAND_IN] = scoring.RED + 1
        status[HAND_ROW, HAND_STAND_IN_FACE] = zuan
    # the forms the agents steer by, and what Anqing pays for (agent.steer_hints)
    status[HAND_ROW, HAND_STEER_FORMS] = CLASS_ONE_FORMS | agent.steer_hints(params)
    n_players = state.scalars[N_PLAYERS]
    status[HAND_ROW, HAND_DEALT_LAST] = state.wall[13 * n_players]
    for seat in range(n_players):
        status[seat, ST_OWN_TURN_EXTRA] = np.int64(special_held(state.hands[seat], zuan))
        status[seat, ST_FIRST_TURN] = 1
    record[R_INDICATOR] = indicator
    record[RA_ZUAN] = zuan
    record[RA_STREAK] = state.scalars[DEALER_STREAK]


@inline_kernel
def is_special(kind, zuan):
    """Whether a tile of ``kind`` may make an own-turn action the engine's pre-checks (a plausible
    win with its natural keys, a kong shape) do not see: a 杠牌 or a 钻 (single-tile kongs,
    §anqing-zuan-kong-needs-zhi-jiao, §anqing-gang-tile-kong) or a 红中 playing the 钻's face (a win
    reading it so, §anqing-red-dragon)."""
    first, second = gang_kinds(zuan)
    red_plays_face = kind == scoring.RED and zuan < scoring.RED
    return kind == first or kind == second or kind == zuan or red_plays_face


@kernel
def special_held(hand, zuan):
    """Whether ``hand`` holds a tile ``is_special`` names."""
    first, second = gang_kinds(zuan)
    held = hand[first] + hand[second] + hand[zuan]
    if zuan < scoring.RED:
        held += hand[scoring.RED]
    return held > 0


@kernel
def plan_actions(variant, state, seat, params, actions):
    """No plan to offer at the deal: 0 rows."""
    return 0


@kernel
def win_forms(variant):
    """The forms every legal win is complete in with all 钻 wild (the pre-check's)."""
    return WIN_FORMS


@kernel
def lists_chi(variant):
    """The next player may chi a discard (``claim_actions``)."""
    return True


# ---------------------------------------------------------------------------------------------
# Wins


@inline_kernel
def gang_kinds(zuan):
    """The two 杠牌 kinds (§anqing-red-dragon): 发财 and 白板, or the dragons other than a dragon
    钻."""
    if zuan < scoring.RED:
        return scoring.GREEN, scoring.WHITE
    first = scoring.RED if zuan != scoring.RED else scoring.GREEN
    second = scoring.WHITE if zuan != scoring.WHITE else scoring.GREEN
    return first, second


@kernel
def identity_keys(hand, zuan, keys, out):
    """The seat's suit keys with each 红中 read as the 钻's face (§anqing-red-dragon), for the
    pre-checks of a class-1 hand; the 钻 stay out of the keys (wild)."""
    for suit in range(4):
        out[suit] = keys[suit]
    red = np.int64(hand[scoring.RED])
    if zuan < scoring.RED and red > 0:
        out[3] -= red * KIND_POWER[scoring.RED]
        out[KIND_SUIT[zuan]] += red * KIND_POWER[zuan]


@kernel
def seat_score(state, seat, tile, how, params, items):
    """S of ``seat``'s best legal win with its concealed hand as it is (the winning ``tile``
    in it; -1: the dealer's dealt 14, whose last tile dealt is W), or scoring.NO_LEGAL_WIN;
    ``items`` as ``scoring.best_score`` fills it."""
    status = state.status
    zuan = status[HAND_ROW, HAND_ZUAN]
    hand = np.zeros(scoring.N_KINDS, np.int64)
    for kind in range(scoring.N_KINDS):
        hand[kind] = state.hands[seat, kind]
    win_tile = tile if tile >= 0 else status[HAND_ROW, HAND_DEALT_LAST]
    if hand[win_tile] == 0:
        return np.int64(scoring.NO_LEGAL_WIN)
    heavenly = status[seat, ST_FIRST_TURN] != 0 and status[HAND_ROW, HAND_MELDED] == 0
    chain = status[seat, ST_KONG_CHAIN] if how == HOW_KONG_BLOOM else 0
    melds = np.empty((4, 3), np.int64)
    for index in range(state.n_melds[seat]):
        for column in range(3):
            melds[index, column] = state.melds[seat, index, column]
    return scoring.best_score(
        hand,
        zuan,
        win_tile,
        melds,
        state.n_melds[seat],
        status[seat, ST_GANG_KONGS],
        status[seat, ST_ZUAN_KONGS],
        status[seat, ST_DISCARDED_ZUAN],
        chain,
        np.int64(heavenly),
        params,
        items,
    )


@inline_kernel
def features_of(items):
    """A win's feature bits: its items, and 直叫."""
    features = items[scoring.S_BITS]
    if items[scoring.S_ZHI_JIAO] != 0:
        features |= FEATURE_ZHI_JIAO
    return features


@kernel
def win(variant, state, seat, how, tile, params, tables):
    """The features of ``seat``'s self-drawn win (``how``: HOW_SELF_DRAW or HOW_KONG_BLOOM;
    ``tile``: the winning tile, -1 for the dealer's dealt 14), or NO_WIN: every win is
    self-drawn (§anqing-self-draw-only), so any other ``how`` is none."""
    if how != HOW_SELF_DRAW and how != HOW_KONG_BLOOM:
        return NO_WIN
    items = np.zeros(scoring.N_ITEM_SLOTS, np.int64)
    if seat_score(state, seat, tile, how, params, items) == scoring.NO_LEGAL_WIN:
        return NO_WIN
    return features_of(items)


# ---------------------------------------------------------------------------------------------
# Own turn: a self-drawn win, single-tile kongs, ordinary kongs


@kernel
def held_copies(state, seat, out):
    """``out[kind]``: the physical tiles of ``kind`` the seat holds, concealed and in its melds
    (a chi through the 钻's face holds a 红中 for it): a ready hand never waits on a fifth copy
    (§anqing-vocabulary, §anqing-zuan-kong-needs-zhi-jiao)."""
    for kind in range(scoring.N_KINDS):
        out[kind] = state.hands[seat, kind]
    for index in range(state.n_melds[seat]):
        meld_type = state.melds[seat, index, 0]
        first = state.melds[seat, index, 1]
        if meld_type == MELD_CHI:
            for offset in range(3):
                out[chi_member_tile(first, offset, state.melds[seat, index, 3])] += 1
        elif meld_type == MELD_PONG:
            out[first] += 3
        else:  # a 4-tile kong (a single-tile kong has no meld row)
            out[first] += 4


@kernel
def is_ready(hand, zuan, keys, wilds, held, params, tables):
    """Whether a 13-tile hand (``hand`` counts, natural ``keys``, ``wilds`` 钻) is ready in shape
    (§anqing-reading-scorer-details: some natural tile completes it, the 钻 conditions aside): class
    1 with 红中 as the face when no 杠牌 is held, or 十三烂. No wait on a kind of which ``held``
    (concealed and melded, ``held_copies``) counts four; four of a kind are two pairs only with
    ``seven_pairs_allow_quad``, as in win scoring."""
    first, second = gang_kinds(zuan)
    class_one = hand[first] == 0 and hand[second] == 0
    literal = params[scoring.P_SHISANLAN_HONOURS_LITERAL] != 0
    forms = FORM_STANDARD | FORM_SEVEN_PAIRS
    if params[scoring.P_SEVEN_PAIRS_ALLOW_QUAD] != 0:
        forms |= OPTION_QUADS
    adjusted = np.empty(4, np.int64)
    identity_keys(hand, zuan, keys, adjusted)
    red_as_face = held[scoring.RED] if zuan < scoring.RED else 0
    for kind in range(scoring.N_KINDS):
        power = KIND_POWER[kind]
        suit = KIND_SUIT[kind]
        # the 钻's face is waited on as a natural: a 红中 standing for it
        identity_held = red_as_face if kind == zuan else held[kind]
        if class_one and scoring.may_stand_for(kind, zuan) and identity_held < 4:
            adjusted[suit] += power
            ready = is_complete(
                adjusted[0], adjusted[1], adjusted[2], adjusted[3], wilds, forms, tables
            )
            adjusted[suit] -= power
            if ready:
                return True
        source = keys if literal else adjusted
        if (literal or class_one) and hand[kind] == 0 and kind != zuan:  # no kind twice
            key = source[suit] + power
            thirteen = is_complete(
                key if suit == 0 else source[0],
                key if suit == 1 else source[1],
                key if suit == 2 else source[2],
                key if suit == 3 else source[3],
                wilds,
                FORM_THIRTEEN,
                tables,
            )
            if thirteen:
                return True
    return False


@kernel
def zhi_jiao_allowed(state, seat, params, tables):
    """直叫 (§anqing-zuan-kong-needs-zhi-jiao): the seat may kong one 钻 when the 13 tiles left are
    ready (``ready``), and with ``pao_feng_wait`` one of its winning kinds, drawn as a natural tile,
    wins as 跑风 (the best reading of that win, 杠开 making it legal, has 跑风)."""
    zuan = state.status[HAND_ROW, HAND_ZUAN]
    hand = state.hands[seat]
    held = np.empty(scoring.N_KINDS, np.int64)
    held_copies(state, seat, held)
    hand[zuan] -= 1
    held[zuan] -= 1
    keys = state.keys[seat]
    wilds = state.wild_count[seat] - 1
    ready = is_ready(hand, zuan, keys, wilds, held, params, tables)
    if ready and params[scoring.P_ZHI_JIAO_REQUIRES] == scoring.ZHI_JIAO_PAO_FENG_WAIT:
        ready = pao_feng_wait(state, seat, zuan, held, params)
    hand[zuan] += 1
    return ready


@kernel
def pao_feng_wait(state, seat, zuan, held, params):
    """Whether some natural kind drawn into ``seat``'s hand (one 钻 already out of it) wins as 跑风
    after the 钻 kong (§anqing-zuan-kong-needs-zhi-jiao ``pao_feng_wait``); never a fifth copy of a
    kind ``held`` counts four of."""
    items = np.zeros(scoring.N_ITEM_SLOTS, np.int64)
    hand = np.zeros(scoring.N_KINDS, np.int64)
    for kind in range(scoring.N_KINDS):
        hand[kind] = state.hands[seat, kind]
    melds = np.empty((4, 3), np.int64)
    n_melds = state.n_melds[seat]
    for index in range(n_melds):
        for column in range(3):
            melds[index, column] = state.melds[seat, index, column]
    status = state.status
    for kind in range(scoring.N_KINDS):
        if kind == zuan or held[kind] >= 4:
            continue
        hand[kind] += 1
        total = scoring.best_score(
            hand, zuan, np.int64(kind), melds, n_melds, status[seat, ST_GANG_KONGS],
            status[seat, ST_ZUAN_KONGS] + 1, status[seat, ST_DISCARDED_ZUAN], np.int64(1),
            np.int64(0), params, items,
        )  # fmt: skip
        hand[kind] -= 1
        if total != scoring.NO_LEGAL_WIN and (items[scoring.S_BITS] >> scoring.I_PAO_FENG) & 1:
            return True
    return False


@kernel
def own_turn_actions(variant, state, seat, drawn, params, tables, actions):
    """The legal actions of ``seat`` on its own turn (``drawn``: the tile it drew, -1 for the
    dealer's first turn): the self-drawn win (杠开 after a replacement; 天胡 / 地胡) when the best
    reading is legal (A_VALUE: its S); while a tile is left, a single-tile kong of each 杠牌 held
    (§anqing-gang-tile-kong), of a 钻 when 直叫 allows it (§anqing-zuan-kong-needs-zhi-jiao), a 暗杠
    of four held and a 加杠 onto a pong (never of a 钻 or a 杠牌, §anqing-kongs)."""
    status = state.status
    zuan = status[HAND_ROW, HAND_ZUAN]
    hand = state.hands[seat]
    # the flag asks the engine for this listing on the seat's next turns: kept while it holds
    # a special tile (``observe`` sets it again when one is drawn)
    status[seat, ST_OWN_TURN_EXTRA] = np.int64(special_held(hand, zuan))
    n_actions = 0
    keys = np.empty(4, np.int64)
    identity_keys(hand, zuan, state.keys[seat], keys)
    wilds = state.wild_count[seat]
    plausible = is_complete(keys[0], keys[1], keys[2], keys[3], wilds, CLASS_ONE_FORMS, tables)
    if not plausible:
        own = state.keys[seat]
        plausible = is_complete(own[0], own[1], own[2], own[3], wilds, FORM_THIRTEEN, tables)
    if plausible:
        bloom = drawn >= 0 and state.scalars[DRAW_SOURCE] == DRAW_REPLACEMENT
        how = np.int64(HOW_KONG_BLOOM) if bloom else np.int64(HOW_SELF_DRAW)
        items = np.zeros(scoring.N_ITEM_SLOTS, np.int64)
        total = seat_score(state, seat, drawn, how, params, items)
        if total != scoring.NO_LEGAL_WIN:
            features = features_of(items)
            n_actions = add_action(actions, n_actions, ACT_WIN, drawn, how, features, total)
    if tiles_left(state) < 1:
        return n_actions
    first, second = gang_kinds(zuan)
    single = np.int64(MELD_SINGLE_KONG)
    # A_VALUE 1 on every kong: nobody may win on what it reveals (no robbing, no win on a
    # discard), so even a cautious agent makes it (agents.choose_own_turn)
    if hand[first] > 0:
        n_actions = add_action(actions, n_actions, ACT_KONG, first, single, 0, 1)
    if hand[second] > 0:
        n_actions = add_action(actions, n_actions, ACT_KONG, second, single, 0, 1)
    if hand[zuan] > 0 and zhi_jiao_allowed(state, seat, params, tables):
        n_actions = add_action(actions, n_actions, ACT_KONG, zuan, single, 0, 1)
    for kind in range(scoring.N_KINDS):
        if kind == zuan or kind == first or kind == second or hand[kind] == 0:
            continue
        if hand[kind] == 4:
            n_actions = add_action(actions, n_actions, ACT_KONG, kind, MELD_CONCEALED_KONG, 0, 1)
        elif meld_index(state, seat, np.int64(MELD_PONG), kind) >= 0:
            n_actions = add_action(actions, n_actions, ACT_KONG, kind, MELD_ADDED_KONG, 0, 1)
    return n_actions


# ---------------------------------------------------------------------------------------------
# Claims


@kernel
def chi_actions(hand, tile, zuan, actions, n_actions):
    """The next player's chis of the discarded ``tile`` (§anqing-claims), rows appended to
    ``actions`` (A_TILE the sequence's first tile, A_DETAIL its stand-in code): sequences of natural
    tiles without the 钻 kind (钻不可以吃碰, §anqing-zuan-kong-needs-zhi-jiao), and, when 红中 plays
    the 钻's suited face (§anqing-red-dragon "红中…可以吃，可以碰"), sequences through that face in
    which a 红中 plays it: a held 红中 beside a discarded neighbour, or the discarded 红中 itself
    between held neighbours (§anqing-reading-chi-through-red)."""
    red_plays_face = zuan < scoring.RED
    played = zuan if tile == scoring.RED and red_plays_face else tile
    if played >= 27:
        return n_actions
    rank = played % 9
    for start in range(max(0, rank - 2), min(rank, 6) + 1):
        low = played - rank + start
        fits = True
        code = 0
        for member in range(low, low + 3):
            if member == played:
                if tile == scoring.RED:
                    code = stand_in_code(member - low, scoring.RED)
            elif member == zuan:  # the face: only a 红中 plays it (a natural one is a 钻)
                if red_plays_face and hand[scoring.RED] > 0:
                    code = stand_in_code(member - low, scoring.RED)
                else:
                    fits = False
            elif hand[member] == 0:
                fits = False
        if fits:
            n_actions = add_action(actions, n_actions, ACT_CHI, low, code, 0, 0)
    return n_actions


@kernel
def claim_actions(
    variant, state, offerer, tile, how, kong_type, kong_from, params, tables, claims, n_claims
):
    """Each other seat's legal claims on ``tile`` discarded by ``offerer``: no win
    (§anqing-self-draw-only, only self-draw) and nothing of a 钻 (§anqing-zuan-kong-needs-zhi-jiao
    "钻不可以吃碰") or a 杠牌 (kong-only, §anqing-gang-tile-kong); a 直杠 of three held while a tile
    is left, a pong of two, and for the next player each chi (``chi_actions``: natural tiles, or a
    红中 playing the 钻's face). Nothing when a kong is offered for robbing (no robbing)."""
    n_players = state.scalars[N_PLAYERS]
    zuan = state.status[HAND_ROW, HAND_ZUAN]
    first_gang, second_gang = gang_kinds(zuan)
    for offset in range(1, n_players):
        n_claims[(offerer + offset) % n_players] = 0
    if how != HOW_DISCARD or tile == zuan or tile == first_gang or tile == second_gang:
        return 0
    hands = state.hands
    listed = 0
    for offset in range(1, n_players):
        seat = (offerer + offset) % n_players
        n_actions = 0
        held = hands[seat, tile]
        if held == 3 and tiles_left(state) >= 1:
            n_actions = add_action(claims[seat], n_actions, ACT_KONG, tile, MELD_DISCARD_KONG, 0, 0)
        melds_before = n_actions
        if held >= 2:
            n_actions = add_action(claims[seat], n_actions, ACT_PONG, tile, 0, 0, 0)
        if offset == 1:
            n_actions = chi_actions(hands[seat], tile, zuan, claims[seat], n_actions)
        # a pong's or chi's worth to the agents (A_VALUE): the 口 of the offerer's discards the
        # claimer then holds (3 or more: 包, the offerer pays his win three times or more,
        # §anqing-bao)
        mouths = (state.status[seat, ST_MOUTHS_FROM] >> (4 * offerer)) & 15
        for row in range(melds_before, n_actions):
            claims[seat, row, A_VALUE] = mouths + 1
        n_claims[seat] = n_actions
        listed += n_actions
    return listed


@kernel
def discard_mask(variant, hand, status, seat, drawn, params, allowed):
    """杠牌 are never discarded (§anqing-gang-tile-kong; ``gang_tile_discardable`` allows it),
    unless the hand holds nothing else (its kongs were declined); anything else may be (a 钻 too:
    the discarder then has D, §anqing-zuan-conditions). Never forced."""
    if params[scoring.P_GANG_TILE_DISCARDABLE] != 0:
        return -1
    first, second = gang_kinds(status[HAND_ROW, HAND_ZUAN])
    others = 0
    for kind in range(scoring.N_KINDS):
        if kind != first and kind != second:
            others += hand[kind]
    if others == 0:  # nothing but 杠牌 left (their kongs declined): one of them must go
        return -1
    allowed[first] = False
    allowed[second] = False
    return -1


@kernel
def max_winners(variant, how, kong_type, params):
    """No win on a discard and no robbing a kong ("没有点炮，也没有抢杠。只能自摸胡牌")."""
    return 0


@kernel
def kong(variant, state, konger, kind, kong_type, from_seat, params, tables, outcome):
    """Every kong, single-tile ones included, is followed by a replacement from the tail
    (§anqing-gang-tile-kong, §anqing-kongs); a win on it is 杠开 (the chain is counted by
    ``observe``)."""
    return KONG_REPLACEMENT


@kernel
def observe(variant, status, event, seat, tile, detail, params):
    """Anqing's per-seat state from the events: D (a 钻 discarded), the single-tile kongs of
    杠牌 and 钻, the chain of kongs this turn (杠开), each seat's first turn, whether anyone
    made a chi, pong or 4-tile kong (天胡 / 地胡), and the own-turn flag of a seat that draws a
    special tile (``is_special``)."""
    if event == EVENT_DRAW:
        if detail == DRAW_HEAD:
            status[seat, ST_KONG_CHAIN] = 0
        if is_special(tile, status[HAND_ROW, HAND_ZUAN]):
            status[seat, ST_OWN_TURN_EXTRA] = 1
        agent.mark_danger(status, seat, ST_MOUTHS_FROM)
    elif event == EVENT_DISCARD:
        status[seat, ST_KONG_CHAIN] = 0
        status[seat, ST_FIRST_TURN] = 0
        if tile == status[HAND_ROW, HAND_ZUAN]:
            status[seat, ST_DISCARDED_ZUAN] = 1
    elif event == EVENT_CHI or event == EVENT_PONG:
        status[seat, ST_FIRST_TURN] = 0
        status[HAND_ROW, HAND_MELDED] = 1
        fed = detail % MAX_SEATS  # a chi's detail also holds its stand-in code (chi_detail)
        status[seat, ST_MOUTHS_FROM] += np.int64(1) << (4 * fed)
        agent.mark_danger(status, seat, ST_MOUTHS_FROM)
    elif event == EVENT_KONG:
        status[seat, ST_KONG_CHAIN] += 1
        if detail == MELD_SINGLE_KONG:
            if tile == status[HAND_ROW, HAND_ZUAN]:
                status[seat, ST_ZUAN_KONGS] += 1
            else:
                status[seat, ST_GANG_KONGS] += 1
        else:
            status[seat, ST_FIRST_TURN] = 0
            status[HAND_ROW, HAND_MELDED] = 1


# ---------------------------------------------------------------------------------------------
# Settlement


@kernel
def fill_seat_slots(state, record):
    """The record slots every hand has: D per seat, single-tile kongs per seat, 钻 kongs."""
    status = state.status
    discarded = 0
    zuan_kongs = 0
    for seat in range(4):
        discarded |= status[seat, ST_DISCARDED_ZUAN] << seat
        record[RA_SINGLE_KONGS + seat] = status[seat, ST_GANG_KONGS] + status[seat, ST_ZUAN_KONGS]
        zuan_kongs += status[seat, ST_ZUAN_KONGS]
        record[RA_BAO_FACTOR + seat] = 0
        record[RA_AMOUNT + seat] = 0
        record[RA_CARRY + seat] = 0
        record[RA_BAO_KIND + seat] = scoring.BAO_NONE
    record[RA_DISCARDED_ZUAN] = discarded
    record[RA_ZUAN_KONGS] = zuan_kongs


@kernel
def settle_win(variant, state, outcome, params, tables, record, delta):
    """The winner's best legal reading (§anqing-score-table) and the payments (§anqing-payments:
    dealer extra, 连庄, 包), each logged (the items and 包 factors as Anqing's events, the payments
    as EVENT_PAY); the record; the next dealer: the dealer keeps the deal on his win, else it passes
    to his next player (``next_dealer_rule = rotate``) or to the winner (§anqing-next-dealer). The
    累加 carry of ``lian_zhuang_cumulative`` is added across the session by
    ``engine.play_hands``."""
    winner = outcome[O_WINNER]
    how = outcome[O_HOW]
    tile = outcome[O_TILE]
    items = np.zeros(scoring.N_ITEM_SLOTS, np.int64)
    total = seat_score(state, winner, tile, how, params, items)
    dealer = state.scalars[DEALER]
    streak = state.scalars[DEALER_STREAK]
    amounts = np.zeros(4, np.int64)
    factors = np.zeros(4, np.int64)
    melds = np.zeros((4, 4, 3), np.int64)
    n_melds = np.zeros(4, np.int64)
    for seat in range(4):
        n_melds[seat] = state.n_melds[seat]
        for index in range(state.n_melds[seat]):
            for column in range(3):
                melds[seat, index, column] = state.melds[seat, index, column]
    scoring.payments(total, winner, dealer, streak, melds, n_melds, params, amounts, factors)
    fill_seat_slots(state, record)
    for item in range(scoring.N_ITEMS):
        record[RA_ITEMS + item] = items[item]
        if (items[scoring.S_BITS] >> item) & 1:
            log_event(state, EVENT_ITEM, winner, item, items[item])
    record[RA_FORM] = items[scoring.S_FORM]
    record[R_POINTS] = total
    for payer in range(4):
        if payer == winner:
            continue
        log_event(state, EVENT_BAO, payer, winner, factors[payer])
        log_event(state, EVENT_PAY, payer, winner, amounts[payer])
        record[RA_BAO_FACTOR + payer] = factors[payer]
        record[RA_BAO_KIND + payer] = scoring.bao_kind(payer, winner, melds, n_melds, params)
        record[RA_AMOUNT + payer] = amounts[payer]
        delta[payer] -= amounts[payer]
        delta[winner] += amounts[payer]
    if winner == dealer:
        record[RA_NEXT_STREAK] = streak + 1
        return dealer
    record[RA_NEXT_STREAK] = 0
    if params[P_NEXT_DEALER_RULE] == NEXT_DEALER_ROTATE:
        return (dealer + 1) % 4
    return winner


@kernel
def settle_draw(variant, state, last_drawer, params, tables, record, delta):
    """荒庄 (§anqing-exhaustive-draw): no payment; the dealer keeps the deal and his streak grows
    ("黄庄也算连庄")."""
    fill_seat_slots(state, record)
    for item in range(scoring.N_ITEMS):
        record[RA_ITEMS + item] = 0
    record[RA_FORM] = -1
    record[RA_NEXT_STREAK] = state.scalars[DEALER_STREAK] + 1
    return state.scalars[DEALER]
