"""Independent checks of played Anhua hands (numba): a tile ledger over the event log.

``check_hand`` reads one hand's event log (``state.log``, ``EVENT_*`` of ``sim.kernels.state``) and
replays it on its own books, starting from the wall: per location (the wall, the flipped tiles, the
revealed kong tiles, the claimed winning tile, each seat's concealed hand, melds and discard pile)
a count by kind, plus each seat's melds and discard pile in order. It shares no code with the game
loop: only the event, meld, option (``P_*``), win-kind (``HOW_*``), feature and record-slot
(``R_*``) numbers, the key powers of ``sim.kernels.hand`` to recompute the state's suit keys, and
the Anhua scorer ``anhua.best_win`` (checked on its own against the slow reference) to verify that
every konger is ready once the kong is made (K1) and blooms on his best revealed tile with the
right points (杠上花). Every event must be a legal move of the rules (rules-spec Part A) from the
ledger's position; after every event every seat's hand size is checked, and every kind the event
moved is counted over all locations (all kinds after the deal, so by induction every physical tile
is accounted for after every event). At the end the ledger must equal the engine's final state
arrays and the hand's record. The first violation is returned as ``(error code, event index)``;
``ERROR_NAMES`` names the codes, ``OK`` (0) means the hand passed.

Hand size (``concealed + 3 x melds``, a kong counted as 3 like any meld): 13 for every seat,
except 14 for the seat between its draw (or claim, or the dealer's deal) and its discard, and for
a winner (on a discard won by several players the one physical tile is in each winner's hand).
An open kong leaves the konger at 13: 14 - 4 + 3 for a 暗杠, 14 - 1 for a 明杠, 13 - 3 + 3 for a
直杠; a konger who blooms on a revealed tile is a winner at 14.

``check_anhua_hands`` plays hands like ``engine.play_hands`` (sessions, the dealer carried
from hand to hand) with the log on, checks each, and copies every winner's final hand out for
re-scoring by the slow reference (tests).
"""

from __future__ import annotations

import numpy as np

from ...kernels._jit import inline_kernel, kernel
from ...kernels.engine import (
    OUTCOME_DRAW,
    OUTCOME_WIN,
    R_BIRD,
    R_DEAL_INSTANT,
    R_DEALER,
    R_DELTA,
    R_FEATURES,
    R_INDICATOR,
    R_N_BIRDS,
    R_N_WINNERS,
    R_NEXT_DEALER,
    R_OUTCOME,
    R_PAYER,
    R_POINTS,
    R_TILES_LEFT,
    R_TURNS,
    R_WIN_KIND,
    R_WINNER,
    R_WINNING_TILE,
)
from ...kernels.hand import KIND_POWER, KIND_SUIT
from ...kernels.state import (
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
    HEAD,
    LOG_COUNT,
    MAX_DISCARDS,
    MAX_MELDS,
    MELD_ADDED_KONG,
    MELD_CHI,
    MELD_CONCEALED_KONG,
    MELD_DISCARD_KONG,
    MELD_PONG,
    N_PLAYERS,
    N_TILES,
    TAIL,
    TURNS,
)
from . import scoring as anhua
from .engine import play_hand
from .hooks import ST_PASSED_WINS

# Error codes (the first violation found), 0 = the hand passed
OK = 0
ERR_LOG_FULL = 1  # the log filled its capacity: events may be missing
ERR_EVENT = 2  # unknown event, or an event out of place (before the kings, after the end)
ERR_DEAL = 3  # the deal events do not describe 13 tiles each, 14 for the dealer
ERR_WALL = 4  # a tile taken from the wall is not the next tile of the wall (or it is empty)
ERR_KINGS = 5  # the kings announced are not those of the indicator and the king mode
ERR_TURN = 6  # a seat acts out of turn
ERR_TILE_MISSING = 7  # a seat plays or melds a tile it does not hold
ERR_CLAIM = 8  # a chi, pong or 直杠 not of the last discard, or a chi not by the next player
ERR_KING_CLAIM = 9  # a chi, pong or kong of a king, or a meld holding a king (王不能碰杠吃)
ERR_HAND_SIZE = 10  # a hand size other than 13 / 14 after an event
ERR_CONSERVATION = 11  # the locations do not hold every tile of the wall exactly once
ERR_KONG = 12  # kong conditions: type, pong to add to, tiles left in the wall
ERR_REVEAL = 13  # tiles revealed by an open kong: wrong seat or number
ERR_LOCK = 14  # a konger's locked hand moved (开杠 后手牌不能动)
ERR_WIN = 15  # a win event that does not fit the position
ERR_KING_WIN = 16  # a win on a discarded or revealed king
ERR_PASSED_WIN = 17  # a win on a kind passed since the last draw (漏胡)
ERR_MULTI_WIN = 18  # several winners where only one may win (一炮多响 off, 杠上炮, self-draw)
ERR_ROB = 19  # a rob when robbing is off, of a 暗杠, of a 直杠 when that is off or by its discarder
ERR_BIRDS = 20  # bird tiles: number, or the seat they land on
ERR_PAY = 21  # a malformed payment, or payments without a win
ERR_ZERO_SUM = 22  # the record's score changes do not sum to zero
ERR_END = 23  # the hand does not end with a win or an exhausted wall
ERR_KING_CLASS = 24  # a win its king class forbids (A4.3), by features or physical kings
ERR_CAPACITY = 25  # more melds or discards than the state arrays hold
ERR_STATE_WALL = 26  # the state's wall pointers and scalars differ from the ledger
ERR_STATE_HANDS = 27
ERR_STATE_MELDS = 28
ERR_STATE_DISCARDS = 29
ERR_STATE_WILD = 30  # wild flags, suit keys or wild counts inconsistent with the hands
ERR_STATE_VISIBLE = 31
ERR_STATE_PASSED = 32
ERR_RECORD = 33  # a record slot differs from what the log shows
ERR_DELTA = 34  # the record's score changes differ from the logged payments
ERR_KONG_NOT_READY = 35  # the konger is not ready once the kong is made (A3.3 K1)
ERR_BLOOM = 36  # 杠上花 not on the best revealed tile, or its recorded features or points differ

ERROR_NAMES = (
    "ok",
    "log full",
    "event out of place",
    "deal",
    "not the next wall tile",
    "kings",
    "out of turn",
    "tile not held",
    "illegal claim",
    "king claimed or melded",
    "hand size",
    "tiles not conserved",
    "kong conditions",
    "kong reveal",
    "locked hand moved",
    "win does not fit",
    "win on a king",
    "win on a passed kind (漏胡)",
    "several winners",
    "rob not allowed",
    "birds",
    "payment",
    "not zero-sum",
    "no end",
    "win forbidden by king class",
    "state capacity",
    "state wall",
    "state hands",
    "state melds",
    "state discards",
    "state wild / keys",
    "state visible",
    "state passed wins",
    "record",
    "record deltas",
    "konger not ready (K1)",
    "kong bloom tile or points",
)

# Ledger locations: rows of the count table
L_WALL = 0  # still in the wall (head .. tail)
L_OUT = 1  # the indicator and the birds: flipped, out of play
L_REVEALED = 2  # turned up by an open kong, not yet the konger's or his discards
L_CLAIMED = 3  # a claimed winning tile (one physical tile for all winners of it)
L_HAND = 4  # + seat: concealed hands
L_MELD = 8  # + seat: melds
L_DISCARD = 12  # + seat: discard piles
N_LOCATIONS = 16
TOUCHED = N_LOCATIONS  # touched[TOUCHED] counts the kinds moved by the current event

LEDGER_DISCARDS = 128  # ledger pile capacity (the state's is MAX_DISCARDS)
LEDGER_MELDS = 8


@inline_kernel
def _move(counts, totals, touched, source, target, kind):
    """Move one tile of ``kind`` between locations; False if ``source`` has none."""
    if kind < 0 or kind >= counts.shape[1] or counts[source, kind] <= 0:
        return False
    counts[source, kind] -= 1
    counts[target, kind] += 1
    totals[source] -= 1
    totals[target] += 1
    n = touched[TOUCHED]
    if n < TOUCHED:
        touched[n] = kind
        touched[TOUCHED] = n + 1
    return True


@inline_kernel
def _conserved(counts, wall_count, kind):
    total = 0
    for location in range(N_LOCATIONS):
        total += counts[location, kind]
    return total == wall_count[kind]


@inline_kernel
def _tier_weight(x_kings, y_kings, tier_mode):
    """King tier weight (rules-spec A4.4): 0 none/单王, else 三王 四王 六王 七王 (>= 1)."""
    if tier_mode == anhua.TIER_MODE_COUNT:
        return 1 if x_kings + y_kings >= 3 else 0
    if x_kings == 3 or y_kings >= 3:
        return 1
    return 0


@inline_kernel
def _append_meld(melds, n_melds, seat, meld_type, first, source):
    """Add a meld (type, first tile, the seat its claimed tile came from) to ``seat``'s books;
    the caller has checked the capacity."""
    melds[seat, n_melds[seat], 0] = meld_type
    melds[seat, n_melds[seat], 1] = first
    melds[seat, n_melds[seat], 2] = source
    n_melds[seat] += 1


@inline_kernel
def _pop_discard(disc, n_disc, seat, tile, counts, totals, touched, target):
    """Take ``tile`` off the top of ``seat``'s pile into ``target``; False if it is not there."""
    n = n_disc[seat]
    if n == 0 or disc[seat, n - 1] != tile:
        return False
    n_disc[seat] = n - 1
    return _move(counts, totals, touched, L_DISCARD + seat, target, tile)


@inline_kernel
def _push_discard(disc, n_disc, seat, tile, counts, totals, touched, source):
    n = n_disc[seat]
    if n >= disc.shape[1] or not _move(counts, totals, touched, source, L_DISCARD + seat, tile):
        return False
    disc[seat, n] = tile
    n_disc[seat] = n + 1
    return True


@kernel
def _ready_after_kong(concealed, melds, n_melds, x_kind, y_kind, params, tables):
    """K1 (rules-spec A3.3): with the kong made, some tile would complete a legal hand, scored
    as a self-drawn win by ``anhua.best_win`` (the scorer, itself checked against the slow
    reference); never a fifth copy of a kind held four times (rules-spec 0.3)."""
    meld_suits = 0
    for m in range(n_melds):
        meld_suits |= 1 << (melds[m, 1] // 9)
    hand = concealed.copy()
    for kind in range(27):
        if hand[kind] >= 4:
            continue
        hand[kind] += 1
        won = anhua.best_win(
            hand, meld_suits, n_melds, x_kind, y_kind, anhua.HOW_SELF_DRAW, -1, params, tables
        )
        hand[kind] -= 1
        if won != anhua.NO_WIN:
            return True
    return False


@kernel
def _best_bloom(
    concealed,
    tile,
    revealed,
    n_revealed,
    melds,
    n_melds,
    x_kind,
    y_kind,
    params,
    tables,
    features,
    points,
):
    """杠上花 (rules-spec A3.4 step 3): the konger, holding ``concealed`` with the revealed
    ``tile`` he won on, took a revealed tile with the most bigs, and the record shows its
    ``features`` and ``points``: its base points, doubled with ``kong_multi_tile_win = double``
    when several revealed tiles win. Every agent takes a self-drawn win, so every revealed tile
    that completes the hand counts. Scored by ``anhua.best_win``."""
    meld_suits = 0
    for m in range(n_melds):
        meld_suits |= 1 << (melds[m, 1] // 9)
    hand = concealed.copy()
    hand[tile] -= 1
    best_bigs = -1
    winning_tiles = 0
    for j in range(n_revealed):
        hand[revealed[j]] += 1
        won = anhua.best_win(
            hand, meld_suits, n_melds, x_kind, y_kind, anhua.HOW_KONG_BLOOM, -1, params, tables
        )
        hand[revealed[j]] -= 1
        if won != anhua.NO_WIN:
            winning_tiles += 1
            best_bigs = max(best_bigs, anhua.bigs_of(won))
    hand[tile] += 1
    chosen = anhua.best_win(
        hand, meld_suits, n_melds, x_kind, y_kind, anhua.HOW_KONG_BLOOM, -1, params, tables
    )
    if chosen == anhua.NO_WIN or anhua.bigs_of(chosen) != best_bigs or features != chosen:
        return False
    double = winning_tiles >= 2 and params[anhua.P_KONG_MULTI_TILE_WIN] == 1
    return points == anhua.base_points(chosen) * (2 if double else 1)


@kernel
def _instant_kings_held(hand, dealt_hand, x_kind, y_kind, params):
    """起手四王/七王 (rules-spec A3.6): the kings of ``hand`` (only those also in the dealt hand,
    unless instant_king_win_counts_draw) are 四王 or 七王 by the tier mode."""
    x_held = hand[x_kind] if x_kind >= 0 else 0
    y_held = hand[y_kind]
    if params[anhua.P_INSTANT_COUNTS_DRAW] == 0:
        x_held = min(x_held, dealt_hand[x_kind]) if x_kind >= 0 else 0
        y_held = min(y_held, dealt_hand[y_kind])
    if params[anhua.P_KING_TIER_MODE] == anhua.TIER_MODE_COUNT:
        return x_held + y_held >= 4
    tier = anhua.king_tier(x_held, y_held, anhua.TIER_MODE_IDENTICAL_SETS)
    return tier == anhua.TIER_FOUR or tier == anhua.TIER_SEVEN


@kernel
def check_hand(state, log, n_events, wall, n_players, dealer, params, tables, record):
    """Check one played hand: ``log[:n_events]`` its events, ``state`` the engine's arrays after
    it, ``record`` its record row. Returns ``(code, event index)``: ``(OK, n_events)`` when every
    check passes; the index is ``n_events`` for a failure found at the end."""
    n_tiles = wall.shape[0]
    tail = n_tiles
    # the state's log has one sink row past its capacity (sim.kernels.state.log_event): a count
    # that reached the capacity may have lost events to it
    if n_events >= log.shape[0] - 1:
        return ERR_LOG_FULL, n_events
    wall_count = np.zeros(34, np.int64)
    for position in range(n_tiles):
        wall_count[wall[position]] += 1
    counts = np.zeros((N_LOCATIONS, 34), np.int64)
    counts[L_WALL] = wall_count
    totals = np.zeros(N_LOCATIONS, np.int64)
    totals[L_WALL] = n_tiles
    touched = np.zeros(TOUCHED + 1, np.int64)
    melds = np.zeros((4, LEDGER_MELDS, 3), np.int64)
    n_melds = np.zeros(4, np.int64)
    disc = np.zeros((4, LEDGER_DISCARDS), np.int64)
    n_disc = np.zeros(4, np.int64)
    king = np.zeros(34, np.bool_)
    passed = np.zeros(4, np.int64)
    locked = np.zeros(4, np.bool_)
    claimed = np.zeros(4, np.bool_)  # made a chi, pong or kong this hand
    draws_by = np.zeros(4, np.int64)
    drawn = np.full(4, -1, np.int64)  # the tile drawn this turn by the seat in turn
    dealt_hands = np.zeros((4, 34), np.int64)  # each seat's dealt hand (起手)
    holds_claim = np.zeros(4, np.bool_)  # holds a winning tile claimed from another seat
    winners = np.full(4, -1, np.int64)
    revealed = np.full(4, -1, np.int64)
    delta = np.zeros(4, np.int64)
    birds = np.full(8, -1, np.int64)
    indicator = -1
    x_kind = -1
    y_kind = -1
    n_wild_events = 0
    n_kings_expected = 0
    head = 0
    dealt = False
    ended = False
    exhausted = False
    holder = -1  # the seat at 14 tiles, between its draw or claim and its discard
    just_claimed = False  # the holder claimed a chi / pong: it must discard now
    next_drawer = -1  # who draws next (after a discard, or after an open kong)
    last_seat = -1  # the discard on top of a pile that may still be claimed: its seat, kind
    last_tile = -1
    n_draws = 0
    last_drawer = -1
    konger = -1  # the open kong whose tiles are revealed: konger, count, phase
    n_revealed = 0
    reveal_open = False  # KONG seen; the next non-REVEAL event resolves the revealed tiles
    bloom_ready = False  # the event after the reveals is a 杠上花 (revealed tile in hand)
    cannon_ready = False  # the revealed tiles went to the konger's pile: a 杠上炮 may follow
    rob_kind = -1
    rob_konger = -1
    rob_discarder = -1  # who discarded a robbed 直杠's tile: he may not rob it (A3.4 step 1)
    robbers = 0
    n_winners = 0
    how = -1
    win_tile = -1
    payer = -1
    left_at_win = -1
    n_birds = 0
    expected_drawer = -1
    n_reveal = params[anhua.P_KONG_REVEAL_COUNT]
    multi_ron = params[anhua.P_MULTI_RON] != 0
    king_claimable = params[anhua.P_DISCARDED_KING_CLAIMABLE] != 0

    for index in range(n_events):
        event = log[index, 0]
        seat = log[index, 1]
        tile = log[index, 2]
        detail = log[index, 3]
        touched[TOUCHED] = 0
        if event != EVENT_DEAL and not dealt:
            return ERR_DEAL, index
        if exhausted or (
            ended and event != EVENT_WIN and event != EVENT_BIRD and event != EVENT_PAY
        ):
            return ERR_END, index
        in_play = event >= EVENT_DRAW and event != EVENT_BIRD and event != EVENT_PAY
        if in_play and (indicator < 0 or n_wild_events != n_kings_expected):
            return ERR_KINGS, index
        if event >= EVENT_DRAW and (seat < 0 or seat >= n_players):
            return ERR_EVENT, index
        # the tiles an open kong revealed: the konger's bloom, else his discards (A3.4)
        if reveal_open and event != EVENT_REVEAL:
            if n_revealed != n_reveal:
                return ERR_REVEAL, index
            reveal_open = False
            bloom = event == EVENT_WIN and detail == anhua.HOW_KONG_BLOOM and seat == konger
            given = False
            for j in range(n_revealed):
                if bloom and not given and revealed[j] == tile:
                    if not _move(counts, totals, touched, L_REVEALED, L_HAND + konger, tile):
                        return ERR_CONSERVATION, index
                    given = True
                elif not _push_discard(
                    disc, n_disc, konger, revealed[j], counts, totals, touched, L_REVEALED
                ):
                    return ERR_CAPACITY, index
            if bloom and not given:
                return ERR_WIN, index
            bloom_ready = bloom
            cannon_ready = not bloom

        if event == EVENT_DEAL:
            if dealt or seat != index or seat >= n_players:
                return ERR_DEAL, index
            if detail != (14 if seat == dealer else 13):
                return ERR_DEAL, index
            if seat == n_players - 1:
                # 13 tiles to each seat in turn from the head, then the dealer's 14th
                for s in range(n_players):
                    for _ in range(13):
                        _move(counts, totals, touched, L_WALL, L_HAND + s, wall[head])
                        head += 1
                _move(counts, totals, touched, L_WALL, L_HAND + dealer, wall[head])
                head += 1
                dealt = True
                holder = dealer
                for s in range(n_players):
                    for kind in range(34):
                        dealt_hands[s, kind] = counts[L_HAND + s, kind]
                touched[TOUCHED] = 0
                for kind in range(34):
                    if not _conserved(counts, wall_count, kind):
                        return ERR_CONSERVATION, index
            else:
                continue  # hand sizes are checked once the whole deal is logged
        elif event == EVENT_INDICATOR:
            if indicator >= 0 or n_draws > 0:
                return ERR_EVENT, index
            if head >= tail or wall[head] != tile:
                return ERR_WALL, index
            if tile < 0 or tile >= 27:
                return ERR_KINGS, index
            _move(counts, totals, touched, L_WALL, L_OUT, tile)
            head += 1
            indicator = tile
            y_kind = tile - tile % 9 + (tile % 9 + 1) % 9
            if params[anhua.P_KING_MODE] == anhua.KING_MODE_SEVEN:
                x_kind = tile
                n_kings_expected = 2
            else:
                n_kings_expected = 1
            king[y_kind] = True
            if x_kind >= 0:
                king[x_kind] = True
        elif event == EVENT_WILD:
            if indicator < 0 or n_wild_events >= n_kings_expected:
                return ERR_KINGS, index
            expected = x_kind if (n_wild_events == 0 and x_kind >= 0) else y_kind
            if tile != expected:
                return ERR_KINGS, index
            n_wild_events += 1
        elif event == EVENT_DRAW:
            if head >= tail or wall[head] != tile:
                return ERR_WALL, index
            _move(counts, totals, touched, L_WALL, L_HAND + seat, tile)
            head += 1
            holder = seat
            just_claimed = False
            drawn[seat] = tile
            passed[seat] = 0  # 漏胡 ends with the next draw from the wall
            draws_by[seat] += 1
            n_draws += 1
            last_drawer = seat
            last_seat = -1
            cannon_ready = False
            bloom_ready = False
            expected_drawer = next_drawer  # checked after the hand sizes
            next_drawer = -1
        elif event == EVENT_DISCARD:
            if seat != holder:
                return ERR_TURN, index
            if locked[seat] and tile != drawn[seat]:
                return ERR_LOCK, index
            if not _push_discard(disc, n_disc, seat, tile, counts, totals, touched, L_HAND + seat):
                return ERR_TILE_MISSING, index
            holder = -1
            just_claimed = False
            drawn[seat] = -1
            last_seat = seat
            last_tile = tile
            next_drawer = (seat + 1) % n_players
        elif event == EVENT_PASS_WIN:
            if tile < 0 or tile >= 34:
                return ERR_EVENT, index
            passed[seat] |= np.int64(1) << tile
        elif event == EVENT_CHI or event == EVENT_PONG:
            first = tile
            size = 3 if event == EVENT_CHI else 1
            if first < 0 or first + size > 34:
                return ERR_CLAIM, index
            for member in range(first, first + size):
                if king[member]:
                    return ERR_KING_CLAIM, index  # 王不能碰杠吃
            source = detail
            if last_seat < 0 or source != last_seat or seat == source:
                return ERR_CLAIM, index
            if event == EVENT_CHI:
                if seat != (source + 1) % n_players or first >= 27 or first % 9 > 6:
                    return ERR_CLAIM, index
                if last_tile < first or last_tile > first + 2:
                    return ERR_CLAIM, index
            elif last_tile != first:
                return ERR_CLAIM, index
            if locked[seat]:
                return ERR_LOCK, index
            if n_melds[seat] >= LEDGER_MELDS:
                return ERR_CAPACITY, index
            if not _pop_discard(
                disc, n_disc, source, last_tile, counts, totals, touched, L_MELD + seat
            ):
                return ERR_CONSERVATION, index
            if event == EVENT_CHI:
                for member in range(first, first + 3):
                    if member != last_tile and not _move(
                        counts, totals, touched, L_HAND + seat, L_MELD + seat, member
                    ):
                        return ERR_TILE_MISSING, index
            else:
                for _ in range(2):
                    if not _move(counts, totals, touched, L_HAND + seat, L_MELD + seat, first):
                        return ERR_TILE_MISSING, index
            _append_meld(
                melds, n_melds, seat, MELD_CHI if event == EVENT_CHI else MELD_PONG, first, source
            )
            claimed[seat] = True
            holder = seat
            just_claimed = True
            drawn[seat] = -1
            last_seat = -1
            next_drawer = -1
        elif event == EVENT_KONG:
            kind = tile
            if kind < 0 or kind >= 34:
                return ERR_KONG, index
            if king[kind]:
                return ERR_KING_CLAIM, index  # 王不能碰杠吃
            if tail - head < params[anhua.P_KONG_MIN_WALL]:
                return ERR_KONG, index
            if detail == MELD_CONCEALED_KONG or detail == MELD_ADDED_KONG:
                if seat != holder or just_claimed:
                    return ERR_TURN, index
                if locked[seat] and kind != drawn[seat]:
                    return ERR_LOCK, index
                if detail == MELD_CONCEALED_KONG:
                    if n_melds[seat] >= LEDGER_MELDS:
                        return ERR_CAPACITY, index
                    for _ in range(4):
                        if not _move(counts, totals, touched, L_HAND + seat, L_MELD + seat, kind):
                            return ERR_TILE_MISSING, index
                    _append_meld(melds, n_melds, seat, MELD_CONCEALED_KONG, kind, seat)
                else:
                    pong = -1
                    for m in range(n_melds[seat]):
                        if melds[seat, m, 0] == MELD_PONG and melds[seat, m, 1] == kind:
                            pong = m
                    if pong < 0:
                        return ERR_KONG, index
                    if not _move(counts, totals, touched, L_HAND + seat, L_MELD + seat, kind):
                        return ERR_TILE_MISSING, index
                    melds[seat, pong, 0] = MELD_ADDED_KONG
            elif detail == MELD_DISCARD_KONG:
                if last_seat < 0 or last_tile != kind or seat == last_seat:
                    return ERR_CLAIM, index
                if locked[seat]:
                    return ERR_LOCK, index  # 直杠不能杠 with a locked hand
                if n_melds[seat] >= LEDGER_MELDS:
                    return ERR_CAPACITY, index
                if not _pop_discard(
                    disc, n_disc, last_seat, kind, counts, totals, touched, L_MELD + seat
                ):
                    return ERR_CONSERVATION, index
                for _ in range(3):
                    if not _move(counts, totals, touched, L_HAND + seat, L_MELD + seat, kind):
                        return ERR_TILE_MISSING, index
                _append_meld(melds, n_melds, seat, MELD_DISCARD_KONG, kind, last_seat)
            else:
                return ERR_KONG, index
            if not _ready_after_kong(
                counts[L_HAND + seat], melds[seat], n_melds[seat], x_kind, y_kind, params, tables
            ):
                return ERR_KONG_NOT_READY, index
            claimed[seat] = True
            locked[seat] = True  # 选择杠开后手牌不能动 (the hand ends if the kong wins)
            holder = -1
            just_claimed = False
            drawn[seat] = -1
            last_seat = -1
            konger = seat
            n_revealed = 0
            reveal_open = True
            next_drawer = (seat + 1) % n_players
        elif event == EVENT_REVEAL:
            if not reveal_open or seat != konger or n_revealed >= n_reveal:
                return ERR_REVEAL, index
            if head >= tail or wall[head] != tile:
                return ERR_WALL, index
            _move(counts, totals, touched, L_WALL, L_REVEALED, tile)
            head += 1
            revealed[n_revealed] = tile
            n_revealed += 1
        elif event == EVENT_ROBBED:
            # 抢杠胡 (A3.4 step 1): the kong is not made; the tile goes to the robber(s)
            kind = tile
            if kind < 0 or kind >= 34:
                return ERR_ROB, index
            if params[anhua.P_ALLOW_ROB_KONG] == 0:
                return ERR_ROB, index
            if detail < 0 or detail >= n_players or seat == detail:
                return ERR_ROB, index
            if (passed[seat] >> kind) & 1:
                return ERR_PASSED_WIN, index
            if rob_kind < 0:
                if tail - head < params[anhua.P_KONG_MIN_WALL]:
                    return ERR_KONG, index
                robbed_konger = detail
                pong = -1
                for m in range(n_melds[robbed_konger]):
                    if (
                        melds[robbed_konger, m, 0] == MELD_PONG
                        and melds[robbed_konger, m, 1] == kind
                    ):
                        pong = m
                if robbed_konger == holder and not just_claimed and pong >= 0:
                    # 明杠: the fourth tile leaves the konger's hand
                    if locked[robbed_konger] and kind != drawn[robbed_konger]:
                        return ERR_LOCK, index
                    if not _move(counts, totals, touched, L_HAND + robbed_konger, L_CLAIMED, kind):
                        return ERR_TILE_MISSING, index
                    holder = -1
                elif (
                    holder < 0
                    and last_seat >= 0
                    and last_tile == kind
                    and last_seat != robbed_konger
                    and counts[L_HAND + robbed_konger, kind] == 3
                ):
                    # 直杠 on the discard: the discard leaves the discarder's pile
                    if params[anhua.P_ALLOW_ROB_DIRECT_KONG] == 0 or seat == last_seat:
                        return ERR_ROB, index
                    rob_discarder = last_seat
                    if locked[robbed_konger]:
                        return ERR_LOCK, index
                    if not _pop_discard(
                        disc, n_disc, last_seat, kind, counts, totals, touched, L_CLAIMED
                    ):
                        return ERR_CONSERVATION, index
                else:
                    return ERR_ROB, index  # a 暗杠 cannot be robbed, or no kong was possible
                rob_kind = kind
                rob_konger = robbed_konger
                last_seat = -1
            elif (
                kind != rob_kind
                or detail != rob_konger
                or (robbers >> seat) & 1
                or seat == rob_discarder
            ):
                return ERR_ROB, index
            elif not multi_ron:
                return ERR_MULTI_WIN, index
            robbers |= 1 << seat
            holds_claim[seat] = True
        elif event == EVENT_WIN:
            if n_winners > 0:
                if detail != how or tile != win_tile:
                    return ERR_MULTI_WIN, index
                if not (detail == anhua.HOW_DISCARD or detail == anhua.HOW_ROB_KONG):
                    return ERR_MULTI_WIN, index
                if not multi_ron:
                    return ERR_MULTI_WIN, index
                for w in range(n_winners):
                    if winners[w] == seat:
                        return ERR_MULTI_WIN, index
            if detail == anhua.HOW_SELF_DRAW or detail == anhua.HOW_INSTANT:
                if seat != holder or just_claimed:
                    return ERR_WIN, index
                if detail == anhua.HOW_INSTANT:
                    if tile != -1 or claimed[seat]:
                        return ERR_WIN, index
                    first_turn = draws_by[seat] == (0 if seat == dealer else 1)
                    if params[anhua.P_INSTANT_WIN_WINDOW] == 0 and not first_turn:
                        return ERR_WIN, index
                    if not _instant_kings_held(
                        counts[L_HAND + seat], dealt_hands[seat], x_kind, y_kind, params
                    ):
                        return ERR_WIN, index
                elif tile == -1:
                    # the dealer complete on his dealt tiles, before any draw
                    if seat != dealer or n_draws > 0 or claimed[seat]:
                        return ERR_WIN, index
                elif tile != drawn[seat]:
                    return ERR_WIN, index
                payer = -1
            elif detail == anhua.HOW_DISCARD:
                if last_seat < 0 or tile != last_tile or seat == last_seat:
                    return ERR_WIN, index
                if king[tile] and not king_claimable:
                    return ERR_KING_WIN, index
                if (passed[seat] >> tile) & 1:
                    return ERR_PASSED_WIN, index
                if n_winners == 0 and not _pop_discard(
                    disc, n_disc, last_seat, tile, counts, totals, touched, L_CLAIMED
                ):
                    return ERR_CONSERVATION, index
                holds_claim[seat] = True
                payer = last_seat
            elif detail == anhua.HOW_ROB_KONG:
                if rob_kind < 0 or tile != rob_kind or not (robbers >> seat) & 1:
                    return ERR_WIN, index
                payer = rob_konger
            elif detail == anhua.HOW_KONG_BLOOM:
                if not bloom_ready or seat != konger:
                    return ERR_WIN, index
                if not _best_bloom(
                    counts[L_HAND + seat],
                    tile,
                    revealed,
                    n_revealed,
                    melds[seat],
                    n_melds[seat],
                    x_kind,
                    y_kind,
                    params,
                    tables,
                    record[R_FEATURES],
                    record[R_POINTS],
                ):
                    return ERR_BLOOM, index
                holder = seat
                payer = -1
            elif detail == anhua.HOW_KONG_CANNON:
                if not cannon_ready or seat == konger or tile < 0 or tile >= 34:
                    return ERR_WIN, index
                if king[tile] and not king_claimable:
                    return ERR_KING_WIN, index
                if (passed[seat] >> tile) & 1:
                    return ERR_PASSED_WIN, index
                # the last copy in the konger's pile, which must be one he just revealed
                position = -1
                for j in range(n_disc[konger]):
                    if disc[konger, j] == tile:
                        position = j
                if position < n_disc[konger] - n_revealed:
                    return ERR_WIN, index
                for j in range(position, n_disc[konger] - 1):
                    disc[konger, j] = disc[konger, j + 1]
                n_disc[konger] -= 1
                if not _move(counts, totals, touched, L_DISCARD + konger, L_CLAIMED, tile):
                    return ERR_CONSERVATION, index
                holds_claim[seat] = True
                payer = konger
            else:
                return ERR_WIN, index
            if n_winners == 0:
                left_at_win = tail - head
            winners[n_winners] = seat
            n_winners += 1
            how = detail
            win_tile = tile
            ended = True
        elif event == EVENT_BIRD:
            if n_winners == 0 or n_birds >= params[anhua.P_BIRD_COUNT]:
                return ERR_BIRDS, index
            if head >= tail or wall[head] != tile:
                return ERR_WALL, index
            if seat != (winners[0] + tile % 9) % n_players:
                return ERR_BIRDS, index
            _move(counts, totals, touched, L_WALL, L_OUT, tile)
            head += 1
            birds[n_birds] = tile
            n_birds += 1
        elif event == EVENT_PAY:
            receiver = tile
            if n_winners == 0 or receiver < 0 or receiver >= n_players or receiver == seat:
                return ERR_PAY, index
            if detail <= 0:
                return ERR_PAY, index
            delta[seat] -= detail
            delta[receiver] += detail
        elif event == EVENT_EXHAUSTED:
            if head != tail or seat != last_drawer or n_winners > 0 or holder >= 0:
                return ERR_END, index
            exhausted = True
            ended = True
        else:
            return ERR_EVENT, index

        # after every action: the moved kinds are all accounted for, and every hand size is legal
        for j in range(touched[TOUCHED]):
            if not _conserved(counts, wall_count, touched[j]):
                return ERR_CONSERVATION, index
        for s in range(n_players):
            size = totals[L_HAND + s] + 3 * n_melds[s] + (1 if holds_claim[s] else 0)
            winner = False
            for w in range(n_winners):
                if winners[w] == s:
                    winner = True
            expected = 14 if (s == holder or holds_claim[s] or winner) else 13
            if size != expected:
                return ERR_HAND_SIZE, index
        # play passes to the next seat after a discard or an open kong (A3.1)
        if event == EVENT_DRAW and seat != expected_drawer:
            return ERR_TURN, index

    end = n_events
    if not ended:
        return ERR_END, end
    for kind in range(34):
        if not _conserved(counts, wall_count, kind):
            return ERR_CONSERVATION, end
    # birds: as many as the option says and the wall holds; none on 海底 (the last tile)
    if n_winners > 0:
        expected_birds = min(params[anhua.P_BIRD_COUNT], left_at_win)
        if how == anhua.HOW_SELF_DRAW and left_at_win == 0:
            expected_birds = 0
        if n_birds != expected_birds:
            return ERR_BIRDS, end
        if how == anhua.HOW_KONG_CANNON and n_winners != 1:
            return ERR_MULTI_WIN, end
    elif delta[0] != 0 or delta[1] != 0 or delta[2] != 0 or delta[3] != 0:
        return ERR_PAY, end

    # no meld holds a king (A2.3.4), in the ledger and in the state
    for s in range(n_players):
        for m in range(n_melds[s]):
            first = melds[s, m, 1]
            size = 3 if melds[s, m, 0] == MELD_CHI else 1
            for member in range(first, first + size):
                if king[member]:
                    return ERR_KING_CLAIM, end
        for m in range(min(state.n_melds[s], MAX_MELDS)):
            first = np.int64(state.melds[s, m, 1])
            size = 3 if state.melds[s, m, 0] == MELD_CHI else 1
            for member in range(first, first + size):
                if 0 <= member < 34 and king[member]:
                    return ERR_KING_CLAIM, end

    # who may win how by king class (A4.3): from the features (effective kings) and, where
    # the physical kings decide, from the kings in the winner's hand
    by_effective = params[anhua.P_KING_AS_ITSELF_AFFECTS_ELIGIBILITY] != 0
    physical_decides = params[anhua.P_KING_AS_ITSELF_IS_HARD] == 0 or not by_effective
    tiers = (
        anhua.FEATURE_THREE_KINGS
        | anhua.FEATURE_FOUR_KINGS
        | anhua.FEATURE_SIX_KINGS
        | anhua.FEATURE_SEVEN_KINGS
    )
    for w in range(n_winners):
        s = winners[w]
        features = record[R_FEATURES + w]
        # the winning tile claimed from another seat is not in the hand's count here; a claimed
        # king is a natural tile of its face for the claimer (rules-spec A2.3.5), so it is not
        # counted either
        x_held = counts[L_HAND + s, x_kind] if x_kind >= 0 else 0
        y_held = counts[L_HAND + s, y_kind]
        weight = _tier_weight(x_held, y_held, params[anhua.P_KING_TIER_MODE])
        if how == anhua.HOW_DISCARD:
            if by_effective and (features & anhua.FEATURE_HARD) == 0:
                return ERR_KING_CLASS, end
            if physical_decides and x_held + y_held > 0:
                return ERR_KING_CLASS, end
        elif how == anhua.HOW_ROB_KONG or how == anhua.HOW_KONG_CANNON:
            if by_effective and (features & tiers) != 0:
                return ERR_KING_CLASS, end
            if physical_decides and weight > 0:
                return ERR_KING_CLASS, end

    # the engine's final state equals the ledger
    if (
        state.scalars[HEAD] != head
        or state.scalars[TAIL] != tail
        or state.scalars[N_TILES] != n_tiles
        or state.scalars[N_PLAYERS] != n_players
        or state.scalars[DEALER] != dealer
        or state.scalars[TURNS] != n_draws
    ):
        return ERR_STATE_WALL, end
    for s in range(4):
        for kind in range(34):
            expected = counts[L_HAND + s, kind] if s < n_players else 0
            if s < n_players and holds_claim[s] and kind == win_tile:
                expected += 1
            if state.hands[s, kind] != expected:
                return ERR_STATE_HANDS, end
    for s in range(4):
        expected_melds = n_melds[s] if s < n_players else 0
        if expected_melds > MAX_MELDS:
            return ERR_CAPACITY, end
        if state.n_melds[s] != expected_melds:
            return ERR_STATE_MELDS, end
        for m in range(expected_melds):
            for j in range(3):
                if state.melds[s, m, j] != melds[s, m, j]:
                    return ERR_STATE_MELDS, end
        expected_discards = n_disc[s] if s < n_players else 0
        if expected_discards > MAX_DISCARDS:
            return ERR_CAPACITY, end
        if state.n_discards[s] != expected_discards:
            return ERR_STATE_DISCARDS, end
        for j in range(expected_discards):
            if state.discards[s, j] != disc[s, j]:
                return ERR_STATE_DISCARDS, end
        if state.status[s, ST_PASSED_WINS] != (passed[s] if s < n_players else 0):
            return ERR_STATE_PASSED, end
    for kind in range(34):
        if state.wild[kind] != king[kind]:
            return ERR_STATE_WILD, end
    for s in range(4):
        keys = np.zeros(4, np.int64)
        wilds = 0
        for kind in range(34):
            held = np.int64(state.hands[s, kind])
            if king[kind]:
                wilds += held
            else:
                keys[KIND_SUIT[kind]] += held * KIND_POWER[kind]
        if state.wild_count[s] != wilds:
            return ERR_STATE_WILD, end
        for suit in range(4):
            if state.keys[s, suit] != keys[suit]:
                return ERR_STATE_WILD, end
    for kind in range(34):
        seen = 1 if kind == indicator else 0
        for s in range(n_players):
            seen += counts[L_DISCARD + s, kind] + counts[L_MELD + s, kind]
        if state.visible[kind] != seen:
            return ERR_STATE_VISIBLE, end

    # the record tells the same story as the log
    total = 0
    for s in range(n_players):
        total += record[R_DELTA + s]
    if total != 0:
        return ERR_ZERO_SUM, end
    for s in range(n_players):
        if record[R_DELTA + s] != delta[s]:
            return ERR_DELTA, end
    if (
        record[R_DEALER] != dealer
        or record[R_INDICATOR] != indicator
        or record[R_TURNS] != n_draws
        or record[R_TILES_LEFT] != tail - head
        or record[R_N_WINNERS] != n_winners
    ):
        return ERR_RECORD, end
    # 起手四王/七王 is a deal event: the seats whose dealt hand holds 四王 or 七王
    dealt_bits = 0
    for s in range(n_players):
        if _instant_kings_held(dealt_hands[s], dealt_hands[s], x_kind, y_kind, params):
            dealt_bits |= 1 << s
    if record[R_DEAL_INSTANT] != dealt_bits:
        return ERR_RECORD, end
    if n_winners == 0:
        if record[R_OUTCOME] != OUTCOME_DRAW or record[R_NEXT_DEALER] != last_drawer:
            return ERR_RECORD, end
        return OK, end
    next_dealer = winners[0] if n_winners == 1 else payer
    if (
        record[R_OUTCOME] != OUTCOME_WIN
        or record[R_WIN_KIND] != how
        or record[R_PAYER] != payer
        or record[R_WINNING_TILE] != win_tile
        or record[R_NEXT_DEALER] != next_dealer
        or record[R_N_BIRDS] != n_birds
    ):
        return ERR_RECORD, end
    for w in range(n_winners):
        if record[R_WINNER + w] != winners[w]:
            return ERR_RECORD, end
        features = record[R_FEATURES + w]
        if (how == anhua.HOW_INSTANT) != ((features & anhua.FEATURE_INSTANT) != 0):
            return ERR_RECORD, end
    for b in range(n_birds):
        if record[R_BIRD + b] != birds[b]:
            return ERR_RECORD, end
    return OK, end


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
    ``hands_per_session`` hands, session ``k`` first dealt by ``first_dealers[k]``) with the
    event log of ``state`` on, and check each with ``check_hand``.

    Fills ``records`` (n, N_RECORD), ``errors`` int64 (n, 2) (code, event index), and per hand
    and winner (in record order) the final concealed hand ``win_hands`` uint8 (n, 4, 34) and the
    melds ``win_melds`` int64 (n, 4, 4, 2) (meld type, first tile; -1 where there is none). The
    events of the first hand that fails are copied to ``failure_log`` (the log's shape) and its
    index and event count to ``failure_info`` (2,) (-1 when every hand passes): agents that draw
    random numbers would not replay it. Returns the number of hands that failed."""
    dealer = 0
    failed = 0
    win_melds[:] = -1
    failure_info[:] = -1
    for index in range(walls.shape[0]):
        if index % hands_per_session == 0:
            dealer = first_dealers[index // hands_per_session]
        play_hand(state, walls[index], n_players, dealer, 0, params, tables, records[index])
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
        dealer = records[index, R_NEXT_DEALER]
    return failed
