"""Anhua's rule checks of played hands (numba), over the generic tile ledger.

``check_hand`` replays one hand's event log on the ledger's books (``sim.kernels.ledger``: every
tile accounted for after every event, hand sizes, moves legal in shape, claim priority, the final
state and the record) and checks Anhua's own rules (§anhua-rules) beside it: the kings 王 from the
flipped indicator and the king mode; 王不能碰杠吃 (no chi, pong, kong or meld of a king); chi only
by the discarder's next player; the open kong 开杠's conditions (K2 enough wall, K3 no king, K1
ready once the kong is made, scored by ``anhua.best_win``, itself checked against the slow
reference), its revealed tiles, the bloom 杠上花 on the best of them with the right points, the
cannon 杠上炮 and the hand lock after it; robbing 抢杠胡 as the options allow; no win on a discarded
or revealed king, none on a kind passed since the last draw (漏胡); several winners only with
一炮多响; the instant win 起手四王/七王; no win its king class forbids (§anhua-who-may-win); birds
抓鸟 and payments; and Anhua's state columns and record slots. The ledger learns from these checks
which seats could win on each discard (``anhua.best_win`` of their books, kings, 漏胡), for its
claim priority. Anhua's own events (``EVENT_WILD``, ``EVENT_REVEAL``, ``EVENT_BIRD``, ``EVENT_PAY``)
and win kinds (杠上花, 杠上炮, the instant win) are booked here with the ledger's tile moves:
revealed tiles and birds sit in the ledger's ``L_ASIDE`` until the kong resolves them.

The first violation is returned as ``(error code, event index)``: the ledger's codes and Anhua's
own below (``ERROR_NAMES`` names both), ``OK`` (0) when the hand passed.

``check_anhua_hands`` plays hands like ``engine.play_hands`` (sessions, the dealer and its streak
carried from hand to hand) with the log on, checks each, and copies every winner's final hand
out for re-scoring by the slow reference (tests); ``check_games`` is its Python face, the one the
variant contract test (``tests/test_variant_contract.py``) calls for every variant.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from ...kernels import ledger as L
from ...kernels._jit import inline_kernel, kernel
from ...kernels.hand import KIND_POWER, KIND_SUIT, is_complete
from ...kernels.ledger import (  # noqa: F401 (the ledger's codes are this module's too)
    B_DEALER,
    B_ENDED,
    B_HEAD,
    B_HOLDER,
    B_HOW,
    B_INDICATOR,
    B_JUST_CLAIMED,
    B_LAST_DRAWER,
    B_LEFT_AT_WIN,
    B_N_DRAWS,
    B_N_PLAYERS,
    B_N_WINNERS,
    B_PAYER,
    B_ROB_DISCARDER,
    B_ROB_KONGER,
    B_ROBBERS,
    B_TAIL,
    B_WINNER,
    DEALT,
    DRAW_HEAD,
    ERR_CAPACITY,
    ERR_CLAIM,
    ERR_CONSERVATION,
    ERR_DEAL,
    ERR_END,
    ERR_EVENT,
    ERR_HAND_SIZE,
    ERR_KONG,
    ERR_LOG_FULL,
    ERR_MULTI_WIN,
    ERR_NOT_WINNING,
    ERR_PRIORITY,
    ERR_RECORD,
    ERR_ROB,
    ERR_STATE_DISCARDS,
    ERR_STATE_HANDS,
    ERR_STATE_KEYS,
    ERR_STATE_MELDS,
    ERR_STATE_VISIBLE,
    ERR_STATE_WALL,
    ERR_TILE_MISSING,
    ERR_TURN,
    ERR_WALL,
    ERR_WIN,
    ERR_ZERO_SUM,
    FIRST_VARIANT_ERROR,
    L_ASIDE,
    L_CLAIMED,
    L_HAND,
    M_FIRST,
    M_TYPE,
    MELDS,
    OK,
    PILE,
    S_CLAIMED,
    S_DRAWN,
    S_DRAWS,
    S_HOLDS_CLAIM,
    S_N_DISCARDS,
    S_N_MELDS,
    SCALARS,
    SEATS,
    VARIANT_EVENT,
)
from ...kernels.record import (
    N_RECORD,
    R_DEAL_INSTANT,
    R_DELTA,
    R_FEATURES,
    R_N_WINNERS,
    R_NEXT_DEALER,
    R_POINTS,
    R_WINNER,
)
from ...kernels.state import (
    EVENT_CHI,
    EVENT_DISCARD,
    EVENT_DRAW,
    EVENT_INDICATOR,
    EVENT_KONG,
    EVENT_PASS_WIN,
    EVENT_PAY,
    EVENT_PONG,
    EVENT_ROBBED,
    EVENT_WILD,
    EVENT_WIN,
    LOG_COUNT,
    MAX_MELDS,
    MELD_CHI,
    MELD_DISCARD_KONG,
)
from .. import session
from ..session import LOG_CAPACITY  # noqa: F401 (the capacity the checked logs have)
from . import scoring as anhua
from .engine import play_hand
from .hooks import EVENT_BIRD, EVENT_REVEAL, ST_PASSED_WINS, WIN_FORMS
from .record_slots import RH_BIRD, RH_N_BIRDS

# Anhua's own error codes, after the ledger's
ERR_KINGS = FIRST_VARIANT_ERROR  # the kings announced are not those of the indicator and mode
ERR_KING_CLAIM = FIRST_VARIANT_ERROR + 1  # a chi, pong, kong or meld of a king (王不能碰杠吃)
ERR_CHI_SEAT = FIRST_VARIANT_ERROR + 2  # a chi not by the discarder's next player
ERR_KONG_WALL = FIRST_VARIANT_ERROR + 3  # a kong with fewer tiles left than kong_min_wall (K2)
ERR_KONG_NOT_READY = FIRST_VARIANT_ERROR + 4  # the konger is not ready once the kong is made (K1)
ERR_REVEAL = FIRST_VARIANT_ERROR + 5  # tiles revealed by an open kong: wrong seat or number
ERR_LOCK = FIRST_VARIANT_ERROR + 6  # a konger's locked hand moved (开杠 后手牌不能动)
ERR_KING_WIN = FIRST_VARIANT_ERROR + 7  # a win on a discarded or revealed king
ERR_PASSED_WIN = FIRST_VARIANT_ERROR + 8  # a win on a kind passed since the last draw (漏胡)
ERR_BIRDS = FIRST_VARIANT_ERROR + 9  # bird tiles: number, or the seat they land on
ERR_PAY = FIRST_VARIANT_ERROR + 10  # a malformed payment, or payments without a win
ERR_DELTA = FIRST_VARIANT_ERROR + 11  # the record's score changes differ from the payments
ERR_KING_CLASS = FIRST_VARIANT_ERROR + 12  # a win its king class forbids (§anhua-who-may-win)
ERR_BLOOM = FIRST_VARIANT_ERROR + 13  # 杠上花 not on the best revealed tile, or its points
ERR_STATE_WILD = FIRST_VARIANT_ERROR + 14  # the state's wild flags are not the kings
ERR_STATE_PASSED = FIRST_VARIANT_ERROR + 15  # the state's 漏胡 column differs from the log

ERROR_NAMES = (
    *L.ERROR_NAMES,
    "kings",
    "king claimed or melded",
    "chi not by the next player",
    "kong with too little wall (K2)",
    "konger not ready (K1)",
    "kong reveal",
    "locked hand moved",
    "win on a king",
    "win on a passed kind (漏胡)",
    "birds",
    "payment",
    "record deltas",
    "win forbidden by king class",
    "kong bloom tile or points",
    "state wild",
    "state passed wins",
)

INVARIANT_GRID = [
    {
        "king_mode": king_mode,
        "player_count": players,
        "bird_count": birds,
        "multi_ron": multi_ron,
        "allow_rob_kong": rob,
        "king_as_itself_is_hard": as_itself,
    }
    for king_mode, players, birds, multi_ron, rob, as_itself in itertools.product(
        ("seven_kings", "four_kings"),
        (4, 3),
        (1, 2, 4),
        (True, False),
        (True, False),
        (True, False),
    )
]
"""Anhua's invariant grid (七王/四王 x players x 抓鸟 x 一炮多响 x 可抢杠胡 x 王代硬, 96
cells): the options the checks run over at 10,000 hands a cell (the slow tests)."""

# Anhua's books beside the ledger's: one int64 array (one reference to count per call, as the
# ledger's books), with these slots
F_X_KIND = 0  # king kind X (the flipped kind, seven kings only), -1 none
F_Y_KIND = 1  # king kind Y (the next rank), -1 before the flip
F_N_KINGS = 2  # EVENT_WILD events the king mode calls for
F_N_WILD = 3  # EVENT_WILD events seen
F_KONGER = 4  # the last open kong: its konger, revealed tiles, phase
F_N_REVEALED = 5
F_REVEAL_OPEN = 6  # EVENT_KONG seen; the next non-REVEAL event resolves the revealed tiles
F_BLOOM_READY = 7  # the reveals resolved into a 杠上花 (the tile in the konger's hand)
F_CANNON_READY = 8  # the revealed tiles went to the konger's pile: a 杠上炮 may follow
F_N_BIRDS = 9
F_KING = 10  # + kind: 1 when the kind is a king
F_PASSED = 44  # + seat: bit k when the seat passed a win on kind k since its draw (漏胡)
F_LOCKED = 48  # + seat: 1 while the hand is locked after an open kong
F_REVEALED = 52  # + j: the last open kong's revealed tiles
F_BIRDS = 56  # + j: the birds
F_DELTA = 64  # + seat: the logged payments
N_FACTS = 68


@kernel
def _new_facts():
    facts = np.zeros(N_FACTS, np.int64)
    facts[F_X_KIND] = -1
    facts[F_Y_KIND] = -1
    facts[F_KONGER] = -1
    return facts


# ------------------------------------------------------------------------------ scoring checks


@inline_kernel
def _tier_weight(x_kings, y_kings, tier_mode):
    """King tier weight (§anhua-king-tiers): 0 none/单王, else 三王 四王 六王 七王 (>= 1)."""
    if tier_mode == anhua.TIER_MODE_COUNT:
        return 1 if x_kings + y_kings >= 3 else 0
    if x_kings == 3 or y_kings >= 3:
        return 1
    return 0


# np.int64: a literal argument would compile the scorer once more for each value
SELF_DRAW = np.int64(anhua.HOW_SELF_DRAW)
BLOOM = np.int64(anhua.HOW_KONG_BLOOM)
NO_KING = np.int64(-1)


@kernel
def _ready_after_kong(concealed, meld_suits, n_melds, x_kind, y_kind, params, tables):
    """K1 (§anhua-kongs): with the kong made, some tile would complete a legal hand, scored
    as a self-drawn win by ``anhua.best_win`` (the scorer, itself checked against the slow
    reference); never a fifth copy of a kind held four times (§anhua-hand-vocabulary)."""
    hand = concealed.copy()
    for kind in range(27):
        if hand[kind] >= 4:
            continue
        hand[kind] += 1
        won = anhua.best_win(
            hand, meld_suits, n_melds, x_kind, y_kind, SELF_DRAW, NO_KING, params, tables
        )
        hand[kind] -= 1
        if won != anhua.NO_WIN:
            return True
    return False


@kernel
def _best_bloom(
    concealed, tile, revealed, meld_suits, n_melds, x_kind, y_kind, params, tables, record
):
    """杠上花 (§anhua-open-kong step 3): the konger, holding ``concealed`` with the revealed
    ``tile`` he won on, took a revealed tile (``revealed``) with the most bigs, and the record
    shows its features and points: its base points, doubled with ``kong_multi_tile_win =
    double`` when several revealed tiles win. Every agent takes a self-drawn win, so every
    revealed tile that completes the hand counts. Scored by ``anhua.best_win``."""
    hand = concealed.copy()
    hand[tile] -= 1
    best_bigs = -1
    winning_tiles = 0
    for j in range(revealed.shape[0]):
        hand[revealed[j]] += 1
        won = anhua.best_win(
            hand, meld_suits, n_melds, x_kind, y_kind, BLOOM, NO_KING, params, tables
        )
        hand[revealed[j]] -= 1
        if won != anhua.NO_WIN:
            winning_tiles += 1
            best_bigs = max(best_bigs, anhua.bigs_of(won))
    hand[tile] += 1
    chosen = anhua.best_win(
        hand, meld_suits, n_melds, x_kind, y_kind, BLOOM, NO_KING, params, tables
    )
    if chosen == anhua.NO_WIN or anhua.bigs_of(chosen) != best_bigs:
        return False
    if record[R_FEATURES] != chosen:
        return False
    double = winning_tiles >= 2 and params[anhua.P_KONG_MULTI_TILE_WIN] == 1
    return record[R_POINTS] == anhua.base_points(chosen) * (2 if double else 1)


@kernel
def _instant_kings_held(hand, dealt_hand, x_kind, y_kind, params):
    """起手四王/七王 (§anhua-instant-king-win): the kings of ``hand`` (only those also in the dealt
    hand, unless instant_king_win_counts_draw) are 四王 or 七王 by the tier mode."""
    x_held = hand[x_kind] if x_kind >= 0 else 0
    y_held = hand[y_kind]
    if params[anhua.P_INSTANT_COUNTS_DRAW] == 0:
        x_held = min(x_held, dealt_hand[x_kind]) if x_kind >= 0 else 0
        y_held = min(y_held, dealt_hand[y_kind])
    if params[anhua.P_KING_TIER_MODE] == anhua.TIER_MODE_COUNT:
        return x_held + y_held >= 4
    tier = anhua.king_tier(x_held, y_held, anhua.TIER_MODE_IDENTICAL_SETS)
    return tier == anhua.TIER_FOUR or tier == anhua.TIER_SEVEN


@inline_kernel
def _complete_with_kings_wild(books, facts, seat, tile, tables):
    """Whether ``seat``'s hand plus ``tile`` is complete in a form of ``WIN_FORMS`` with every
    king wild: what every win of ``anhua.best_win`` is (the evaluator's four lookups, to spare
    the scorer the hands that cannot win)."""
    key_m = np.int64(0)
    key_p = np.int64(0)
    key_s = np.int64(0)
    wilds = np.int64(0)
    for kind in range(27):
        count = books[L_HAND + seat, kind] + (1 if kind == tile else 0)
        if facts[F_KING + kind] != 0:
            wilds += count
        else:
            key = count * KIND_POWER[kind]
            suit = KIND_SUIT[kind]
            key_m += key if suit == 0 else 0
            key_p += key if suit == 1 else 0
            key_s += key if suit == 2 else 0
    return is_complete(key_m, key_p, key_s, np.int64(0), wilds, WIN_FORMS, tables)


@inline_kernel
def _discard_winners(books, facts, discarder, tile, params, tables):
    """The seats that could win on ``discarder``'s discard ``tile`` (bit per seat): not on a king
    (unless discarded_king_claimable_for_win, and then a natural tile of its face,
    §anhua-discarded-kings), not after passing a win on the kind since the last draw (漏胡), and
    ``anhua.best_win`` of the seat's books plus the tile is a win on a discard."""
    king = facts[F_KING + tile] != 0
    if king and params[anhua.P_DISCARDED_KING_CLAIMABLE] == 0:
        return 0
    n_players = books[SCALARS, B_N_PLAYERS]
    mask = 0
    for offset in range(1, n_players):
        seat = (discarder + offset) % n_players
        if (facts[F_PASSED + seat] >> tile) & 1:
            continue
        if not _complete_with_kings_wild(books, facts, seat, tile, tables):
            continue
        hand = books[L_HAND + seat, :34].copy()
        hand[tile] += 1
        won = anhua.best_win(
            hand,
            L.meld_suits(books, seat),
            books[SEATS + seat, S_N_MELDS],
            facts[F_X_KIND],
            facts[F_Y_KIND],
            np.int64(anhua.HOW_DISCARD),
            tile if king else NO_KING,
            params,
            tables,
        )
        if won != anhua.NO_WIN:
            mask |= 1 << seat
    return mask


# ------------------------------------------------------------------------------ per event


@inline_kernel
def _indicator(books, facts, tile, params):
    """王的确定 (§anhua-kings): one flip, after the deal and before any draw; Y the next rank of its
    suit (9 wraps to 1), X the flipped kind with seven kings."""
    if books[SCALARS, B_INDICATOR] >= 0 or books[SCALARS, B_N_DRAWS] > 0:
        return ERR_EVENT
    if tile < 0 or tile >= 27:
        return ERR_KINGS
    y_kind = tile - tile % 9 + (tile % 9 + 1) % 9
    facts[F_Y_KIND] = y_kind
    facts[F_KING + y_kind] = 1
    facts[F_N_KINGS] = 1
    if params[anhua.P_KING_MODE] == anhua.KING_MODE_SEVEN:
        facts[F_X_KIND] = tile
        facts[F_KING + tile] = 1
        facts[F_N_KINGS] = 2
    return OK


@inline_kernel
def _wild(books, facts, tile):
    """The kings announced after the flip: X first (seven kings), then Y."""
    n_wild = facts[F_N_WILD]
    if books[SCALARS, B_INDICATOR] < 0 or n_wild >= facts[F_N_KINGS]:
        return ERR_KINGS
    x_kind = facts[F_X_KIND]
    expected = x_kind if (n_wild == 0 and x_kind >= 0) else facts[F_Y_KIND]
    if tile != expected:
        return ERR_KINGS
    facts[F_N_WILD] = n_wild + 1
    return OK


@inline_kernel
def _claim(books, facts, event, seat, first, source):
    """王不能碰杠吃 (§anhua-king-power); chi only by the discarder's next player (§anhua-claims);
    nothing claimed by a locked hand (§anhua-open-kong step 6)."""
    size = 3 if event == EVENT_CHI else 1
    for member in range(max(first, 0), min(first + size, 34)):
        if facts[F_KING + member] != 0:
            return ERR_KING_CLAIM
    n_players = books[SCALARS, B_N_PLAYERS]
    if event == EVENT_CHI and 0 <= source < n_players and seat != (source + 1) % n_players:
        return ERR_CHI_SEAT
    if facts[F_LOCKED + seat] != 0:
        return ERR_LOCK
    return OK


@inline_kernel
def _kong_allowed(books, facts, seat, kind, kong_type, params):
    """开杠 (§anhua-kongs): K3 no king, K2 enough wall left; a locked hand konged only with the tile
    it drew, and never on a discard."""
    if kind < 0 or kind >= 34:
        return OK  # the ledger reports the shape
    if facts[F_KING + kind] != 0:
        return ERR_KING_CLAIM
    if books[SCALARS, B_TAIL] - books[SCALARS, B_HEAD] < params[anhua.P_KONG_MIN_WALL]:
        return ERR_KONG_WALL
    drawn_only = kong_type != MELD_DISCARD_KONG and kind == books[SEATS + seat, S_DRAWN]
    if facts[F_LOCKED + seat] != 0 and not drawn_only:
        return ERR_LOCK
    return OK


@inline_kernel
def _kong_made(books, facts, seat, params, tables):
    """K1: the konger is ready with the kong made; then the next tiles are revealed and his
    hand is locked (选择杠开后手牌不能动; the hand ends if the kong wins)."""
    if not _ready_after_kong(
        books[L_HAND + seat, :34],
        L.meld_suits(books, seat),
        books[SEATS + seat, S_N_MELDS],
        facts[F_X_KIND],
        facts[F_Y_KIND],
        params,
        tables,
    ):
        return ERR_KONG_NOT_READY
    facts[F_LOCKED + seat] = 1
    facts[F_KONGER] = seat
    facts[F_N_REVEALED] = 0
    facts[F_REVEAL_OPEN] = 1
    return OK


@inline_kernel
def _reveal(books, facts, seat, tile, params):
    """A tile the open kong reveals from the head of the wall (§anhua-open-kong step 2), set
    aside."""
    n_revealed = facts[F_N_REVEALED]
    if facts[F_REVEAL_OPEN] == 0 or seat != facts[F_KONGER]:
        return ERR_REVEAL
    if n_revealed >= params[anhua.P_KONG_REVEAL_COUNT]:
        return ERR_REVEAL
    code = L.take_from_wall(books, tile, np.int64(L_ASIDE))
    if code != OK:
        return code
    facts[F_REVEALED + n_revealed] = tile
    facts[F_N_REVEALED] = n_revealed + 1
    return OK


@inline_kernel
def _resolve_reveals(books, facts, event, seat, tile, detail, params):
    """The event after an open kong's reveals: the konger's bloom on one revealed tile (to his
    hand), the rest (or all) to his discards (§anhua-open-kong steps 3-5)."""
    facts[F_REVEAL_OPEN] = 0
    n_revealed = facts[F_N_REVEALED]
    if n_revealed != params[anhua.P_KONG_REVEAL_COUNT]:
        return ERR_REVEAL
    konger = facts[F_KONGER]
    bloom = event == EVENT_WIN and detail == anhua.HOW_KONG_BLOOM and seat == konger
    given = False
    for j in range(n_revealed):
        revealed = facts[F_REVEALED + j]
        if bloom and not given and revealed == tile:
            if not L.move_tile(books, np.int64(L_ASIDE), L_HAND + konger, tile):
                return ERR_CONSERVATION
            given = True
            continue
        code = L.push_discard(books, konger, revealed, np.int64(L_ASIDE))
        if code != OK:
            return code
    if bloom and not given:
        return ERR_WIN
    facts[F_BLOOM_READY] = 1 if bloom else 0
    facts[F_CANNON_READY] = 0 if bloom else 1
    return OK


@inline_kernel
def _robbed(books, facts, seat, kind, params):
    """抢杠胡 (§anhua-open-kong step 1), once the ledger booked the rob: robbing allowed, a 直杠
    only with allow_rob_direct_kong and not by its discarder, K2 for the kong, a locked konger only
    with his drawn tile, several robbers only with 一炮多响, not on a kind passed (漏胡)."""
    if params[anhua.P_ALLOW_ROB_KONG] == 0:
        return ERR_ROB
    if facts[F_KING + kind] != 0:
        return ERR_KING_CLAIM
    if (facts[F_PASSED + seat] >> kind) & 1:
        return ERR_PASSED_WIN
    discarder = books[SCALARS, B_ROB_DISCARDER]
    konger = books[SCALARS, B_ROB_KONGER]
    if seat == discarder:
        return ERR_ROB
    if books[SCALARS, B_ROBBERS] != (1 << seat):  # a later robber
        return OK if params[anhua.P_MULTI_RON] != 0 else ERR_MULTI_WIN
    if books[SCALARS, B_TAIL] - books[SCALARS, B_HEAD] < params[anhua.P_KONG_MIN_WALL]:
        return ERR_KONG_WALL
    locked = facts[F_LOCKED + konger] != 0
    if discarder >= 0:
        if params[anhua.P_ALLOW_ROB_DIRECT_KONG] == 0:
            return ERR_ROB
        return ERR_LOCK if locked else OK
    if locked and kind != books[SEATS + konger, S_DRAWN]:
        return ERR_LOCK
    return OK


@inline_kernel
def _claimed_win(facts, seat, tile, params):
    """A win on a tile another seat gave up: not a king (unless the option), not a kind the
    seat passed since its last draw (漏胡)."""
    if tile < 0 or tile >= 34:
        return OK  # the ledger reports the position
    if facts[F_KING + tile] != 0 and params[anhua.P_DISCARDED_KING_CLAIMABLE] == 0:
        return ERR_KING_WIN
    if (facts[F_PASSED + seat] >> tile) & 1:
        return ERR_PASSED_WIN
    return OK


@inline_kernel
def _instant_win(books, facts, seat, tile, params):
    """起手四王/七王 (§anhua-instant-king-win): on the seat's own turn, no tile, no claim yet, in
    its window, with the kings its dealt hand holds (or, counting the draw, its hand)."""
    if seat != books[SCALARS, B_HOLDER] or books[SCALARS, B_JUST_CLAIMED] != 0:
        return ERR_WIN
    if tile != -1 or books[SEATS + seat, S_CLAIMED] != 0:
        return ERR_WIN
    dealer = books[SCALARS, B_DEALER]
    first_turn = books[SEATS + seat, S_DRAWS] == (0 if seat == dealer else 1)
    if params[anhua.P_INSTANT_WIN_WINDOW] == 0 and not first_turn:
        return ERR_WIN
    if not _instant_kings_held(
        books[L_HAND + seat, :34],
        books[DEALT + seat, :34],
        facts[F_X_KIND],
        facts[F_Y_KIND],
        params,
    ):
        return ERR_WIN
    return L.add_winner(books, seat, tile, np.int64(anhua.HOW_INSTANT), NO_KING)


@inline_kernel
def _bloom(books, facts, seat, tile, params, tables, record):
    """杠上花: the konger on the best revealed tile, with the record's features and points."""
    if facts[F_BLOOM_READY] == 0 or seat != facts[F_KONGER]:
        return ERR_WIN
    if not _best_bloom(
        books[L_HAND + seat, :34],
        tile,
        facts[F_REVEALED : F_REVEALED + facts[F_N_REVEALED]],
        L.meld_suits(books, seat),
        books[SEATS + seat, S_N_MELDS],
        facts[F_X_KIND],
        facts[F_Y_KIND],
        params,
        tables,
        record,
    ):
        return ERR_BLOOM
    books[SCALARS, B_HOLDER] = seat
    return L.add_winner(books, seat, tile, BLOOM, NO_KING)


@inline_kernel
def _cannon(books, facts, seat, tile, params):
    """杠上炮: another seat wins on a tile the konger just revealed into his pile; he pays."""
    konger = facts[F_KONGER]
    if facts[F_CANNON_READY] == 0 or seat == konger or tile < 0 or tile >= 34:
        return ERR_WIN
    code = _claimed_win(facts, seat, tile, params)
    if code != OK:
        return code
    # the last copy in the konger's pile, which must be one he just revealed
    n_discards = books[SEATS + konger, S_N_DISCARDS]
    position = np.int64(-1)
    for j in range(n_discards):
        if books[PILE + konger, j] == tile:
            position = j
    if position < n_discards - facts[F_N_REVEALED]:
        return ERR_WIN
    if not L.take_discard(books, konger, position, np.int64(L_CLAIMED)):
        return ERR_CONSERVATION
    books[SEATS + seat, S_HOLDS_CLAIM] = 1
    return L.add_winner(books, seat, tile, np.int64(anhua.HOW_KONG_CANNON), konger)


@inline_kernel
def _bird(books, facts, seat, tile, params):
    """抓鸟 (§anhua-payments): after a win, up to bird_count tiles from the head; each lands on the
    seat its rank counts to from the first winner."""
    n_birds = facts[F_N_BIRDS]
    if books[SCALARS, B_N_WINNERS] == 0 or n_birds >= params[anhua.P_BIRD_COUNT]:
        return ERR_BIRDS
    code = L.take_from_wall(books, tile, np.int64(L_ASIDE))
    if code != OK:
        return code
    if seat != (books[SCALARS, B_WINNER] + tile % 9) % books[SCALARS, B_N_PLAYERS]:
        return ERR_BIRDS
    facts[F_BIRDS + n_birds] = tile
    facts[F_N_BIRDS] = n_birds + 1
    return OK


@inline_kernel
def _pay(books, facts, payer, receiver, amount):
    """A payment after a win: ``payer`` pays ``amount`` > 0 to another seat."""
    n_players = books[SCALARS, B_N_PLAYERS]
    if books[SCALARS, B_N_WINNERS] == 0 or receiver < 0 or receiver >= n_players:
        return ERR_PAY
    if receiver == payer or amount <= 0:
        return ERR_PAY
    facts[F_DELTA + payer] -= amount
    facts[F_DELTA + receiver] += amount
    return OK


@inline_kernel
def _before(books, facts, event, seat, tile, detail, params):
    """Anhua's checks of an event before the ledger books it (the position it is made from)."""
    if event >= EVENT_DRAW and (seat < 0 or seat >= books[SCALARS, B_N_PLAYERS]):
        return ERR_EVENT  # every event from the first draw on names a seat, Anhua's too
    in_play = event >= EVENT_DRAW and event != EVENT_BIRD and event != EVENT_PAY
    kings_told = facts[F_N_WILD] == facts[F_N_KINGS]
    if in_play and (books[SCALARS, B_INDICATOR] < 0 or not kings_told):
        return ERR_KINGS
    if facts[F_REVEAL_OPEN] != 0 and event != EVENT_REVEAL:
        code = _resolve_reveals(books, facts, event, seat, tile, detail, params)
        if code != OK:
            return code
    if event == EVENT_INDICATOR:
        return _indicator(books, facts, tile, params)
    if event == EVENT_DRAW and detail != DRAW_HEAD:
        return ERR_EVENT  # Anhua's kongs draw no replacement
    locked = event == EVENT_DISCARD and facts[F_LOCKED + seat] != 0
    if locked and tile != books[SEATS + seat, S_DRAWN]:
        return ERR_LOCK
    if event == EVENT_CHI or event == EVENT_PONG:
        return _claim(books, facts, event, seat, tile, detail)
    if event == EVENT_KONG:
        return _kong_allowed(books, facts, seat, tile, detail, params)
    if event == EVENT_WIN and detail == anhua.HOW_DISCARD:
        return _claimed_win(facts, seat, tile, params)
    return OK


@inline_kernel
def _variant_event(books, facts, event, seat, tile, detail, params, tables, record):
    """Anhua's own events and win kinds, which the ledger leaves to it."""
    if books[SCALARS, B_ENDED] != 0 and (event == EVENT_WILD or event == EVENT_REVEAL):
        return ERR_END
    if event == EVENT_WILD:
        return _wild(books, facts, tile)
    if event == EVENT_REVEAL:
        return _reveal(books, facts, seat, tile, params)
    if event == EVENT_BIRD:
        return _bird(books, facts, seat, tile, params)
    if event == EVENT_PAY:
        return _pay(books, facts, seat, tile, detail)
    if event != EVENT_WIN:
        return ERR_EVENT
    if detail == anhua.HOW_INSTANT:
        return _instant_win(books, facts, seat, tile, params)
    if detail == anhua.HOW_KONG_BLOOM:
        return _bloom(books, facts, seat, tile, params, tables, record)
    if detail == anhua.HOW_KONG_CANNON:
        return _cannon(books, facts, seat, tile, params)
    return ERR_WIN


@inline_kernel
def _after(books, facts, event, seat, tile, params):
    """Anhua's checks and books once the ledger booked an event of the engine's (but for the
    scorer's: ``check_event``)."""
    if event == EVENT_DRAW:
        facts[F_PASSED + seat] = 0  # 漏胡 ends with the next draw from the wall
        facts[F_BLOOM_READY] = 0
        facts[F_CANNON_READY] = 0
    elif event == EVENT_PASS_WIN:
        facts[F_PASSED + seat] |= np.int64(1) << tile
    elif event == EVENT_ROBBED:
        return _robbed(books, facts, seat, tile, params)
    return OK


# ------------------------------------------------------------------------------ the end


@inline_kernel
def _end_birds(books, facts, params):
    """Birds: as many as the option says and the wall held at the win, none on 海底 (a self-draw
    of the last tile); 杠上炮 has one winner; no payment without a win."""
    n_winners = books[SCALARS, B_N_WINNERS]
    how = books[SCALARS, B_HOW]
    if n_winners == 0:
        for s in range(4):
            if facts[F_DELTA + s] != 0:
                return ERR_PAY
        return OK
    left_at_win = books[SCALARS, B_LEFT_AT_WIN]
    expected = min(params[anhua.P_BIRD_COUNT], left_at_win)
    if how == anhua.HOW_SELF_DRAW and left_at_win == 0:
        expected = 0
    if facts[F_N_BIRDS] != expected:
        return ERR_BIRDS
    if how == anhua.HOW_KONG_CANNON and n_winners != 1:
        return ERR_MULTI_WIN
    return OK


@inline_kernel
def _holds_king(facts, meld_type, first):
    size = 3 if meld_type == MELD_CHI else 1
    for member in range(max(first, 0), min(first + size, 34)):
        if facts[F_KING + member] != 0:
            return True
    return False


@inline_kernel
def _end_melds(books, facts, state):
    """No meld holds a king (§anhua-king-power), in the books and in the state."""
    melds = state.melds
    for s in range(books[SCALARS, B_N_PLAYERS]):
        for m in range(books[SEATS + s, S_N_MELDS]):
            meld = books[MELDS + s, 3 * m + M_TYPE]
            if _holds_king(facts, meld, books[MELDS + s, 3 * m + M_FIRST]):
                return ERR_KING_CLAIM
        for m in range(min(state.n_melds[s], MAX_MELDS)):
            if _holds_king(facts, np.int64(melds[s, m, 0]), np.int64(melds[s, m, 1])):
                return ERR_KING_CLAIM
    return OK


@inline_kernel
def _end_king_class(books, facts, params, record):
    """Who may win how by king class (§anhua-who-may-win): from the features (effective kings) and,
    where the physical kings decide, from the kings in the winner's hand. A winning tile claimed
    from another seat is not in the hand's count here; a claimed king is a natural tile of its face
    for the claimer (§anhua-discarded-kings), so it is not counted either."""
    by_effective = params[anhua.P_KING_AS_ITSELF_AFFECTS_ELIGIBILITY] != 0
    physical_decides = params[anhua.P_KING_AS_ITSELF_IS_HARD] == 0 or not by_effective
    tiers = (
        anhua.FEATURE_THREE_KINGS
        | anhua.FEATURE_FOUR_KINGS
        | anhua.FEATURE_SIX_KINGS
        | anhua.FEATURE_SEVEN_KINGS
    )
    how = books[SCALARS, B_HOW]
    x_kind = facts[F_X_KIND]
    y_kind = facts[F_Y_KIND]
    for w in range(books[SCALARS, B_N_WINNERS]):
        s = books[SCALARS, B_WINNER + w]
        features = record[R_FEATURES + w]
        x_held = books[L_HAND + s, x_kind] if x_kind >= 0 else 0
        y_held = books[L_HAND + s, y_kind]
        weight = _tier_weight(x_held, y_held, params[anhua.P_KING_TIER_MODE])
        if how == anhua.HOW_DISCARD:
            if by_effective and (features & anhua.FEATURE_HARD) == 0:
                return ERR_KING_CLASS
            if physical_decides and x_held + y_held > 0:
                return ERR_KING_CLASS
        elif how == anhua.HOW_ROB_KONG or how == anhua.HOW_KONG_CANNON:
            if by_effective and (features & tiers) != 0:
                return ERR_KING_CLASS
            if physical_decides and weight > 0:
                return ERR_KING_CLASS
    return OK


@inline_kernel
def _end_state(books, facts, state):
    """The state's kings (its wild flags) and 漏胡 column."""
    wild = state.wild
    for kind in range(34):
        if wild[kind] != (facts[F_KING + kind] != 0):
            return ERR_STATE_WILD
    n_players = books[SCALARS, B_N_PLAYERS]
    status = state.status
    for s in range(4):
        if status[s, ST_PASSED_WINS] != (facts[F_PASSED + s] if s < n_players else 0):
            return ERR_STATE_PASSED
    return OK


@inline_kernel
def _end_record(books, facts, params, record):
    """Anhua's record: the score changes are the payments, the next dealer is the winner (the
    discarder after 一炮多响; the last drawer after 荒庄), the birds, the instant win and the
    deal event 起手四王/七王."""
    for s in range(books[SCALARS, B_N_PLAYERS]):
        if record[R_DELTA + s] != facts[F_DELTA + s]:
            return ERR_DELTA
    # 起手四王/七王 is a deal event: the seats whose dealt hand holds 四王 or 七王
    dealt_bits = 0
    for s in range(books[SCALARS, B_N_PLAYERS]):
        dealt = books[DEALT + s, :34]
        if _instant_kings_held(dealt, dealt, facts[F_X_KIND], facts[F_Y_KIND], params):
            dealt_bits |= 1 << s
    if record[R_DEAL_INSTANT] != dealt_bits:
        return ERR_RECORD
    n_winners = books[SCALARS, B_N_WINNERS]
    if n_winners == 0:
        last_drawer = books[SCALARS, B_LAST_DRAWER]
        return OK if record[R_NEXT_DEALER] == last_drawer else ERR_RECORD
    how = books[SCALARS, B_HOW]
    first = books[SCALARS, B_WINNER]
    next_dealer = first if n_winners == 1 else books[SCALARS, B_PAYER]
    n_birds = facts[F_N_BIRDS]
    if record[R_NEXT_DEALER] != next_dealer or record[RH_N_BIRDS] != n_birds:
        return ERR_RECORD
    for w in range(n_winners):
        features = record[R_FEATURES + w]
        if (how == anhua.HOW_INSTANT) != ((features & anhua.FEATURE_INSTANT) != 0):
            return ERR_RECORD
    for b in range(n_birds):
        if record[RH_BIRD + b] != facts[F_BIRDS + b]:
            return ERR_RECORD
    return OK


@kernel
def check_end(books, facts, state, params, record):
    """After the last event: Anhua's end checks, the ledger's (``ledger.finish``), then
    Anhua's state columns and record slots."""
    code = OK
    if books[SCALARS, B_ENDED] != 0:
        code = _end_birds(books, facts, params)
        if code == OK:
            code = _end_melds(books, facts, state)
        if code == OK:
            code = _end_king_class(books, facts, params, record)
    if code == OK:
        code = L.finish(books, state, record)
    if code == OK:
        code = _end_state(books, facts, state)
    if code == OK:
        code = _end_record(books, facts, params, record)
    return code


@kernel
def check_hand(state, log, n_events, wall, n_players, dealer, params, tables, record):
    """Check one played hand: ``log[:n_events]`` its events, ``state`` the engine's arrays after
    it, ``record`` its record row. Returns ``(code, event index)``: ``(OK, n_events)`` when every
    check passes; the index is ``n_events`` for a failure found at the end.

    Per event: the ledger's checks and books, and Anhua's around them. The steps are written out
    here, not in a function of their own: each inlined level that passes ``tables`` (a tuple of
    arrays) on counts a reference per array, which doubled the time of the checks."""
    if not L.log_complete(log, n_events):
        return ERR_LOG_FULL, n_events
    books = L.new_books(wall, n_players, dealer)
    facts = _new_facts()
    several = 4 if params[anhua.P_MULTI_RON] != 0 else 1  # may win on one discard (一炮多响)
    for index in range(n_events):
        event, seat, tile, detail = log[index, 0], log[index, 1], log[index, 2], log[index, 3]
        code = L.begin_event(books, event, seat)
        if code == OK:
            code = _before(books, facts, event, seat, tile, detail, params)
        if code == OK:
            code = L.ledger_step(books, event, seat, tile, detail)
        if code == VARIANT_EVENT:
            code = _variant_event(books, facts, event, seat, tile, detail, params, tables, record)
        elif code == OK:
            code = _after(books, facts, event, seat, tile, params)
        # the scorer's checks: who could win on a discard (the ledger's claim priority), K1
        if code == OK and event == EVENT_DISCARD:
            L.open_offer(books, _discard_winners(books, facts, seat, tile, params, tables), several)
        elif code == OK and event == EVENT_KONG:
            code = _kong_made(books, facts, seat, params, tables)
        if code == OK:
            code = L.end_event(books, event, seat)
        if code != OK:
            return code, index
    return check_end(books, facts, state, params, record), n_events


@kernel
def check_anhua_hands(
    state,
    walls,
    n_players,
    first_dealers,
    hands_per_session,
    params,
    tables,
    records,
    errors,
    win_hands,
    win_melds,
    failure_log,
    failure_info,
):
    """Play one hand per wall as ``engine.play_hands`` does (sessions of
    ``hands_per_session`` hands, session ``k`` first dealt by ``first_dealers[k]``, the dealer's
    streak counted) with the event log of ``state`` on, and check each with ``check_hand``.

    Fills ``records`` (n, N_RECORD), ``errors`` int64 (n, 2) (code, event index), and per hand
    and winner (in record order) the final concealed hand ``win_hands`` uint8 (n, 4, 34) and the
    melds ``win_melds`` int64 (n, 4, 4, 2) (meld type, first tile; -1 where there is none). The
    events of the first hand that fails are copied to ``failure_log`` (the log's shape) and its
    index and event count to ``failure_info`` (2,) (-1 when every hand passes): agents that draw
    random numbers would not replay it. Returns the number of hands that failed."""
    dealer = 0
    streak = 0
    failed = 0
    win_melds[:] = -1
    failure_info[:] = -1
    for index in range(walls.shape[0]):
        if index % hands_per_session == 0:
            dealer = first_dealers[index // hands_per_session]
            streak = 0
        next_dealer = play_hand(
            state, walls[index], n_players, dealer, streak, params, tables, records[index]
        )
        code, at = check_hand(
            state,
            state.log,
            state.scalars[LOG_COUNT],
            walls[index],
            n_players,
            dealer,
            params,
            tables,
            records[index],
        )
        errors[index, 0] = code
        errors[index, 1] = at
        if code != OK:
            if failed == 0:
                failure_log[:] = state.log
                failure_info[0] = index
                failure_info[1] = state.scalars[LOG_COUNT]
            failed += 1
        for w in range(min(records[index, R_N_WINNERS], 4)):
            seat = records[index, R_WINNER + w]
            win_hands[index, w] = state.hands[seat]
            for m in range(min(state.n_melds[seat], MAX_MELDS)):
                win_melds[index, w, m, 0] = state.melds[seat, m, 0]
                win_melds[index, w, m, 1] = state.melds[seat, m, 1]
        streak = streak + 1 if next_dealer == dealer else 0
        dealer = next_dealer
    return failed


# ------------------------------------------------------------------------------ Python face


@dataclass
class CheckedGames(session.CheckedGames):
    """``session.CheckedGames`` with, per hand and winner (in record order), the final concealed
    hand ``win_hands`` uint8 (n, 4, 34) and the melds ``win_melds`` int64 (n, 4, 4, 2), for
    re-scoring by the slow reference (tests)."""

    win_hands: np.ndarray
    win_melds: np.ndarray


CHECKS = session.GameChecks(
    check_anhua_hands,
    N_RECORD,
    ERROR_NAMES,
    outputs={"win_hands": ((4, 34), np.uint8), "win_melds": ((4, 4, 2), np.int64)},
    result=CheckedGames,
)
check_games = CHECKS.check_games
