"""The tile ledger (numba): a played hand's event log replayed on books of its own, and the
checks every variant shares.

The ledger reads one hand's log (``state.log``, ``EVENT_*`` of ``sim.kernels.state``) event by
event and keeps its own books, starting from the wall: per location (the wall, the flipped tiles,
the tiles a variant's events set aside, the claimed winning tile, each seat's concealed hand,
melds and discard pile) a count by kind, plus each seat's melds and discard pile in order. It
shares no code with the game loop, only the numbers of events, melds, win kinds (``HOW_*``) and
record slots (``R_*``), and the key powers of ``sim.kernels.hand`` to recompute the state's suit
keys.

What it checks, for every variant: every physical tile is accounted for after every event (the
kinds an event moved are counted over all locations; all kinds after the deal, so by induction
every tile); hand sizes (below); moves legal in shape (the deal, draws in wall order from the head
or, a kong's replacement, from the tail, a discard from the hand by the seat in turn, a chi of
three consecutive tiles of one suit and a pong of two held tiles with the discard just made, a
kong of four, a win that fits the position, a rob of a kong being made); claim priority on a
discard (below); and at the end that the engine's final state arrays equal the books and the
record tells the log's story (winners, win kind, payer, winning tile, turns, tiles left, the
flipped indicator, score changes that sum to zero).

Hand size (``concealed + 3 x melds``, a kong counted as 3 like any meld): 13 for every seat,
except 14 for the seat between its draw (or claim, or the dealer's deal) and its discard, and for
a winner (on a discard won by several players the one physical tile is in each winner's hand). A
kong leaves the konger at 13 (14 - 4 + 3 for a 暗杠, 14 - 1 for a 明杠, 13 - 3 + 3 for a 直杠) until
a replacement draw, if the variant has one, brings him to 14.

Claim priority: after a discard the variant tells the ledger (``open_offer``) which seats could
win on it, by its own rules, and how many may. The engine asks those seats in turn order from the
discarder and logs each pass (``EVENT_PASS_WIN``) at once and the wins together once the asking
is over, so: passes in turn order, then winners in turn order; no chi, pong, kong or draw takes
the discard before every seat that could win passed; a winner has every seat before it in turn
order that could win answered; and unless as many won as may (the engine stops asking then, so
nobody after the last winner passed), every seat that could win answered. A pass or win on the
discard by a seat the variant says cannot win is an error too.

How a variant uses it (its ``checks.py``; docs/engine.md, "Ledger"): its checking kernel makes
the books (``new_books``: one int64 array, rows and slots named below) and, per event, calls
``begin_event``, its own checks of the event, then ``ledger_step`` for the engine's events (the
deal, the indicator flip, draws, discards, chi, pong, kongs, robs, passes, wins of the engine's
kinds, the exhaustive draw), which returns ``VARIANT_EVENT`` for an event or win kind the ledger
does not know (the variant handles it with ``move_tile``, ``take_from_wall``, ``push_discard``,
``take_discard``, ``add_winner``), then ``end_event``; after the log, ``finish``. No dispatcher
is passed to a cached kernel (docs/engine.md): the variant calls the ledger, not the other way
round. The steps return an error code (``OK`` = 0; ``ERROR_NAMES``), the first violation found;
a variant numbers its own codes from ``FIRST_VARIANT_ERROR``.
"""

from __future__ import annotations

import numpy as np

from . import state as S
from ._jit import inline_kernel, kernel
from .hand import KIND_POWER, KIND_SUIT
from .moves import HOW_DISCARD, HOW_ROB_KONG, HOW_SELF_DRAW
from .record import (
    OUTCOME_DRAW,
    OUTCOME_WIN,
    R_DEALER,
    R_DELTA,
    R_INDICATOR,
    R_N_WINNERS,
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
    EVENT_DECLARE,
    EVENT_DISCARD,
    EVENT_DRAW,
    EVENT_EXHAUSTED,
    EVENT_INDICATOR,
    EVENT_KONG,
    EVENT_PASS_CLAIM,
    EVENT_PASS_WIN,
    EVENT_PONG,
    EVENT_ROBBED,
    EVENT_WIN,
    FLIP_TAIL,
    MAX_DISCARDS,
    MAX_MELDS,
    MAX_SEATS,
    MELD_ADDED_KONG,
    MELD_CHI,
    MELD_CONCEALED_KONG,
    MELD_DISCARD_KONG,
    MELD_PONG,
    MELD_SINGLE_KONG,
    WALL_CAPACITY,
    pile,
)

# An EVENT_DRAW's detail: from the head of the wall, or a kong's replacement from its tail
DRAW_HEAD = S.DRAW_HEAD
DRAW_REPLACEMENT = S.DRAW_REPLACEMENT

# Error codes (the first violation found); a variant's own start at FIRST_VARIANT_ERROR
OK = 0
ERR_LOG_FULL = 1  # the log filled its capacity: events may be missing
ERR_EVENT = 2  # an event out of place: before the deal, a bad seat or detail
ERR_DEAL = 3  # the deal events do not describe 13 tiles each, 14 for the dealer
ERR_WALL = 4  # a tile taken from the wall is not the next one at its end (or it is empty)
ERR_TURN = 5  # a seat acts out of turn
ERR_TILE_MISSING = 6  # a seat plays or melds a tile it does not hold
ERR_CLAIM = 7  # a chi, pong or 直杠 not of the last discard, by its discarder, or of a bad shape
ERR_HAND_SIZE = 8  # a hand size other than 13 / 14 after an event
ERR_CONSERVATION = 9  # the locations do not hold every tile of the wall exactly once
ERR_KONG = 10  # a kong of no meld type, or a 明杠 without its pong
ERR_WIN = 11  # a win event that does not fit the position
ERR_MULTI_WIN = 12  # winners of different tiles or kinds, a seat twice, more than may win
ERR_ROB = 13  # a rob of no kong being made (a 暗杠, or nothing), or of another tile
ERR_PRIORITY = 14  # a seat that could win skipped, answered out of turn order, or claimed over
ERR_NOT_WINNING = 15  # a win or pass on a discard by a seat the variant says cannot win on it
ERR_END = 16  # an event after the end, or a hand that ends with neither a win nor an empty wall
ERR_CAPACITY = 17  # more melds or discards than the state arrays hold
ERR_STATE_WALL = 18  # the state's wall pointers and scalars differ from the ledger
ERR_STATE_HANDS = 19
ERR_STATE_MELDS = 20
ERR_STATE_DISCARDS = 21
ERR_STATE_KEYS = 22  # suit keys or wild counts inconsistent with the hands and wild flags
ERR_STATE_VISIBLE = 23
ERR_RECORD = 24  # a record slot differs from what the log shows
ERR_ZERO_SUM = 25  # the record's score changes do not sum to zero
FIRST_VARIANT_ERROR = 26

ERROR_NAMES = (
    "ok",
    "log full",
    "event out of place",
    "deal",
    "not the next wall tile",
    "out of turn",
    "tile not held",
    "illegal claim",
    "hand size",
    "tiles not conserved",
    "kong shape",
    "win does not fit",
    "several winners",
    "rob of no kong",
    "claim priority",
    "not a winning hand",
    "no end",
    "state capacity",
    "state wall",
    "state hands",
    "state melds",
    "state discards",
    "state keys / wild counts",
    "state visible",
    "record",
    "not zero-sum",
)

VARIANT_EVENT = -1  # ledger_step: an event or win kind the variant's checks must handle
LEDGER_EVENTS = sum(
    1 << event
    for event in (
        EVENT_DEAL,
        EVENT_INDICATOR,
        EVENT_DRAW,
        EVENT_DISCARD,
        EVENT_CHI,
        EVENT_PONG,
        EVENT_KONG,
        EVENT_WIN,
        EVENT_EXHAUSTED,
        EVENT_ROBBED,
        EVENT_PASS_WIN,
        EVENT_PASS_CLAIM,
        EVENT_DECLARE,
    )
)
"""Bit per event the ledger books: the engine's, and a tile flipped from the head or the tail;
the others are a variant's own."""

# The books of a hand are one int64 array (N_BOOK_ROWS, BOOK_WIDTH): a function that takes a
# tuple of arrays counts a reference per array at every call numba cannot prune (a tuple of 13
# cost the checks 8x the ledger's own work), one array counts one. Rows:
# - locations, one count per kind (columns 0-33): still in the wall (head .. tail); flipped by
#   EVENT_INDICATOR (out of play, visible); set aside by a variant's events (revealed tiles,
#   say; the variant tracks them); a claimed winning tile (one physical tile for all its
#   winners); each seat's concealed hand, melds and discard pile
L_WALL = 0
L_FLIPPED = 1
L_ASIDE = 2
L_CLAIMED = 3
L_HAND = 4  # + seat
L_MELD = 8  # + seat
L_DISCARD = 12  # + seat
N_LOCATIONS = 16
WALL_COUNT = 16  # tiles of each kind in the wall
DEALT = 17  # + seat: each seat's dealt hand (起手), by kind
PILE = 21  # + seat: the discard pile in order (LEDGER_DISCARDS columns)
MELDS = 25  # + seat: meld m in columns 3m (type), 3m + 1 (first tile), 3m + 2 (from seat)
WALL = 29  # the wall, tile by tile
SCALARS = 30  # the B_* slots
TOTALS = 31  # tiles per location (column = location)
TOUCHED = 32  # kinds the current event moved (columns 0..N_TOUCHED-1), their number at N_TOUCHED
SEATS = 33  # + seat: the S_* facts
N_BOOK_ROWS = 37
BOOK_WIDTH = S.WALL_CAPACITY
N_TOUCHED = N_LOCATIONS

LEDGER_DISCARDS = 128  # ledger pile capacity (the state's is MAX_DISCARDS)
LEDGER_MELDS = 8
M_TYPE = 0  # a meld's columns, from 3 x its index
M_FIRST = 1
M_FROM = 2

# books[SCALARS] slots
B_N_PLAYERS = 0
B_DEALER = 1
B_N_TILES = 2
B_HEAD = 3
B_TAIL = 4
B_DEALT = 5  # 1 once the deal is logged
B_ENDED = 6  # 1 after a win or the exhaustive draw
B_EXHAUSTED = 7
B_HOLDER = 8  # the seat at 14 tiles, between its draw or claim and its discard; -1 none
B_JUST_CLAIMED = 9  # 1 while the holder claimed a chi / pong and must discard
B_NEXT_DRAWER = 10  # who draws from the head next (after a discard or a kong); -1 nobody yet
B_DRAW_EXPECTED = 11  # who should have made the current draw (checked after the hand sizes)
B_KONGER = 12  # who made the kong just logged (may draw its replacement); -1 none
B_LAST_SEAT = 13  # the discard that may still be claimed: its seat and kind, -1 none
B_LAST_TILE = 14
B_N_DRAWS = 15
B_LAST_DRAWER = 16
B_ROB_KIND = 17  # the kong being robbed: its kind, konger, the discarder of a robbed 直杠
B_ROB_KONGER = 18
B_ROB_DISCARDER = 19
B_ROB_NEXT = 20  # the turn-order offset from the konger the next robber must have at least
B_ROBBERS = 21  # bit per robber
B_N_WINNERS = 22
B_WINNER = 23  # 4 slots: the winners in the order the log names them
B_HOW = 27
B_WIN_TILE = 28
B_PAYER = 29
B_LEFT_AT_WIN = 30  # tiles left in the wall at the first win
B_INDICATOR = 31  # the first tile flipped before the end, -1 none
B_OFFER_OPEN = 32  # a discard on offer: its seat, kind, the seats that could win on it (bits)
B_OFFER_SEAT = 33
B_OFFER_TILE = 34
B_OFFER_MASK = 35
B_OFFER_MAX = 36  # how many may win on it (the variant's)
B_OFFER_PASSED = 37  # bits of the seats that passed it, and the offset (turn order from the
B_OFFER_PASS_NEXT = 38  # discarder) the next pass must reach
B_OFFER_WON = 39  # the same for its winners
B_OFFER_WIN_NEXT = 40
B_OFFER_WINS = 41
B_DEALS = 42  # deal events read so far (one per seat, in seat order)

# books[SEATS + seat] slots
S_DRAWN = 0  # the tile drawn this turn, -1 none
S_DRAWS = 1  # draws made this hand
S_CLAIMED = 2  # 1 once the seat made a chi, pong or kong
S_HOLDS_CLAIM = 3  # 1 while it holds a winning tile claimed from another seat (L_CLAIMED)
S_N_MELDS = 4
S_N_DISCARDS = 5


@kernel
def new_books(wall, n_players, dealer):
    """The books of a hand on ``wall`` (any int dtype): every tile in the wall, nothing dealt."""
    books = np.zeros((N_BOOK_ROWS, BOOK_WIDTH), np.int64)
    n_tiles = wall.shape[0]
    for position in range(n_tiles):
        books[WALL, position] = wall[position]
        books[L_WALL, wall[position]] += 1
        books[WALL_COUNT, wall[position]] += 1
    books[TOTALS, L_WALL] = n_tiles
    for seat in range(4):
        books[SEATS + seat, S_DRAWN] = -1
        books[SCALARS, B_WINNER + seat] = -1
    # seats and kinds that are not there yet
    for slot in range(B_HOLDER, B_N_DRAWS):
        books[SCALARS, slot] = -1  # holder ... last tile
    books[SCALARS, B_JUST_CLAIMED] = 0
    books[SCALARS, B_LAST_DRAWER] = -1
    books[SCALARS, B_ROB_KIND] = -1
    books[SCALARS, B_ROB_KONGER] = -1
    books[SCALARS, B_ROB_DISCARDER] = -1
    for slot in range(B_HOW, B_OFFER_OPEN):
        books[SCALARS, slot] = -1  # how ... indicator
    books[SCALARS, B_OFFER_SEAT] = -1
    books[SCALARS, B_OFFER_TILE] = -1
    books[SCALARS, B_N_PLAYERS] = n_players
    books[SCALARS, B_DEALER] = dealer
    books[SCALARS, B_N_TILES] = n_tiles
    books[SCALARS, B_TAIL] = n_tiles
    return books


@kernel
def log_complete(log, n_events):
    """Whether ``log[:n_events]`` can be trusted: the state's log has one sink row past its
    capacity (``sim.kernels.state.log_event``), so a count that reached the capacity may have
    lost events to it."""
    return n_events < log.shape[0] - 1


# ------------------------------------------------------------------------------ tile moves


@kernel
def move_tile(books, source, target, kind):
    """Move one tile of ``kind`` from location ``source`` to ``target`` (``L_*``); False if
    ``source`` holds none. The kind is counted again after the event."""
    if kind < 0 or kind >= 34 or books[source, kind] <= 0:
        return False
    books[source, kind] -= 1
    books[target, kind] += 1
    books[TOTALS, source] -= 1
    books[TOTALS, target] += 1
    n = books[TOUCHED, N_TOUCHED]
    if n < N_TOUCHED:
        books[TOUCHED, n] = kind
        books[TOUCHED, N_TOUCHED] = n + 1
    return True


@kernel
def take_from_wall(books, tile, target):
    """The next tile of the wall's head, which the log says is ``tile``, to ``target``:
    ``ERR_WALL`` unless it is that tile."""
    head = books[SCALARS, B_HEAD]
    if head >= books[SCALARS, B_TAIL] or books[WALL, head] != tile:
        return ERR_WALL
    move_tile(books, np.int64(L_WALL), target, tile)
    books[SCALARS, B_HEAD] = head + 1
    return OK


@kernel
def push_discard(books, seat, tile, source):
    """Put ``tile`` from ``source`` on top of ``seat``'s pile: ``ERR_CAPACITY`` when the pile
    is full, ``ERR_TILE_MISSING`` when ``source`` has no such tile."""
    n = books[SEATS + seat, S_N_DISCARDS]
    if n >= LEDGER_DISCARDS:
        return ERR_CAPACITY
    if not move_tile(books, source, L_DISCARD + seat, tile):
        return ERR_TILE_MISSING
    books[PILE + seat, n] = tile
    books[SEATS + seat, S_N_DISCARDS] = n + 1
    return OK


@kernel
def take_discard(books, seat, position, target):
    """Take the tile at ``position`` of ``seat``'s pile (the later ones move down) to
    ``target``; False if there is none."""
    n = books[SEATS + seat, S_N_DISCARDS]
    if position < 0 or position >= n:
        return False
    tile = books[PILE + seat, position]
    for j in range(position, n - 1):
        books[PILE + seat, j] = books[PILE + seat, j + 1]
    books[SEATS + seat, S_N_DISCARDS] = n - 1
    return move_tile(books, L_DISCARD + seat, target, tile)


@inline_kernel
def _take_last_discard(books, seat, tile, target):
    """Take ``tile`` off the top of ``seat``'s pile; False if it is not there."""
    n = books[SEATS + seat, S_N_DISCARDS]
    if n == 0 or books[PILE + seat, n - 1] != tile:
        return False
    return take_discard(books, seat, n - 1, target)


@inline_kernel
def _append_meld(books, seat, meld_type, first, source):
    """Add a meld to ``seat``'s books (the caller has checked the capacity)."""
    m = books[SEATS + seat, S_N_MELDS]
    books[MELDS + seat, 3 * m + M_TYPE] = meld_type
    books[MELDS + seat, 3 * m + M_FIRST] = first
    books[MELDS + seat, 3 * m + M_FROM] = source
    books[SEATS + seat, S_N_MELDS] = m + 1


# ------------------------------------------------------------------------------ claim priority


@kernel
def open_offer(books, mask, max_winners):
    """The variant's answer to the discard just logged: bit s of ``mask`` set when seat s could
    win on it, and at most ``max_winners`` may."""
    books[SCALARS, B_OFFER_MASK] = mask
    books[SCALARS, B_OFFER_MAX] = max_winners


@inline_kernel
def _unanswered(books):
    """Bits of the seats that could win on the discard on offer and neither passed nor won."""
    if books[SCALARS, B_OFFER_OPEN] == 0:
        return 0
    answered = books[SCALARS, B_OFFER_PASSED] | books[SCALARS, B_OFFER_WON]
    return books[SCALARS, B_OFFER_MASK] & ~answered


@inline_kernel
def _close_offer(books):
    """A claim or a draw takes the discard on offer: every seat that could win on it must have
    passed (``ERR_PRIORITY``)."""
    unanswered = _unanswered(books)
    books[SCALARS, B_OFFER_OPEN] = 0
    return ERR_PRIORITY if unanswered != 0 else OK


@inline_kernel
def _answer_offer(books, seat, won):
    """``seat`` passes (``won`` False) or wins on the discard on offer: a seat that could, once,
    after the passes (or wins) of the seats before it in turn order; a winner also after every
    seat before it that could win answered."""
    n_players = books[SCALARS, B_N_PLAYERS]
    offerer = books[SCALARS, B_OFFER_SEAT]
    mask = books[SCALARS, B_OFFER_MASK]
    offset = (seat - offerer) % n_players
    if offset == 0 or not (mask >> seat) & 1:
        return ERR_NOT_WINNING
    answered = books[SCALARS, B_OFFER_PASSED] | books[SCALARS, B_OFFER_WON]
    next_slot = B_OFFER_WIN_NEXT if won else B_OFFER_PASS_NEXT
    if (answered >> seat) & 1 or offset < books[SCALARS, next_slot]:
        return ERR_PRIORITY  # twice, or out of turn order
    if won:
        for earlier in range(1, offset):
            other = (offerer + earlier) % n_players
            if (mask >> other) & 1 and not (answered >> other) & 1:
                return ERR_PRIORITY  # a seat before it could win and was not asked
    books[SCALARS, next_slot] = offset + 1
    books[SCALARS, B_OFFER_WON if won else B_OFFER_PASSED] |= 1 << seat
    return OK


@kernel
def offer_settled(books):
    """At the end of a hand won on a discard: unless as many won as may, every seat that could
    win answered; if as many did, nobody after the last winner was asked (passed)."""
    wins = books[SCALARS, B_OFFER_WINS]
    if wins == 0:
        return OK
    if wins < books[SCALARS, B_OFFER_MAX]:
        return ERR_PRIORITY if _unanswered(books) != 0 else OK
    last_winner = books[SCALARS, B_OFFER_WIN_NEXT] - 1
    return ERR_PRIORITY if books[SCALARS, B_OFFER_PASS_NEXT] - 1 > last_winner else OK


# ------------------------------------------------------------------------------ one event


@kernel
def begin_event(books, event, seat):
    """Before an event (``seat``: its seat): nothing but the deal before the deal is logged,
    nothing of the engine's after the exhaustive draw, nothing of the engine's but more winners
    and flipped tiles after a win, and a seat in range for the engine's events that name one."""
    books[TOUCHED, N_TOUCHED] = 0
    if event != EVENT_DEAL and books[SCALARS, B_DEALT] == 0:
        return ERR_DEAL
    engine_event = 0 <= event < 63 and ((LEDGER_EVENTS >> event) & 1) != 0
    if books[SCALARS, B_EXHAUSTED] != 0 and engine_event:
        return ERR_END  # after 荒庄 only the variant's own events (its settlement, say)
    # after a win: more winners, and tiles turned up after it (a flip for the settlement)
    after_win = event == EVENT_WIN or event == EVENT_INDICATOR
    if books[SCALARS, B_ENDED] != 0 and engine_event and not after_win:
        return ERR_END
    names_seat = engine_event and event != EVENT_DEAL and event != EVENT_INDICATOR
    if names_seat and (seat < 0 or seat >= books[SCALARS, B_N_PLAYERS]):
        return ERR_EVENT
    return OK


@inline_kernel
def _deal(books, seat, detail):
    """The deal: one event per seat in seat order, 13 tiles each from the head, then the
    dealer's 14th; the tiles move once the last seat's event is read."""
    n_players = books[SCALARS, B_N_PLAYERS]
    dealer = books[SCALARS, B_DEALER]
    if books[SCALARS, B_DEALT] != 0 or seat != books[SCALARS, B_DEALS] or seat >= n_players:
        return ERR_DEAL
    if detail != (14 if seat == dealer else 13):
        return ERR_DEAL
    books[SCALARS, B_DEALS] = seat + 1
    if seat != n_players - 1:
        return OK
    for s in range(n_players + 1):
        target = L_HAND + (s if s < n_players else dealer)
        for _ in range(13 if s < n_players else 1):
            take_from_wall(books, books[WALL, books[SCALARS, B_HEAD]], target)
    books[SCALARS, B_DEALT] = 1
    books[SCALARS, B_HOLDER] = dealer
    for s in range(n_players):
        for kind in range(34):
            books[DEALT + s, kind] = books[L_HAND + s, kind]
    books[TOUCHED, N_TOUCHED] = 0
    for kind in range(34):
        if not conserved(books, kind):
            return ERR_CONSERVATION
    return OK


@inline_kernel
def _indicator(books, tile, detail):
    """A tile flipped from the head of the wall (from its tail: ``detail`` FLIP_TAIL), out of
    play and visible (at any moment)."""
    if detail == FLIP_TAIL:
        tail = books[SCALARS, B_TAIL]
        if books[SCALARS, B_HEAD] >= tail or books[WALL, tail - 1] != tile:
            return ERR_WALL
        move_tile(books, np.int64(L_WALL), np.int64(L_FLIPPED), tile)
        books[SCALARS, B_TAIL] = tail - 1
        return OK
    code = take_from_wall(books, tile, np.int64(L_FLIPPED))
    # the record's indicator is the first flip in play (the wilds'); one after a win (for the
    # settlement: a chicken flip) is not
    in_play = books[SCALARS, B_ENDED] == 0
    if code == OK and books[SCALARS, B_INDICATOR] < 0 and in_play:
        books[SCALARS, B_INDICATOR] = tile
    return code


@inline_kernel
def _draw(books, seat, tile, detail):
    """A draw from the head by the next player, or a replacement from the tail by the seat
    that just konged; either closes the discard on offer."""
    if _close_offer(books) != OK:
        return ERR_PRIORITY
    head = books[SCALARS, B_HEAD]
    tail = books[SCALARS, B_TAIL]
    if detail == DRAW_REPLACEMENT:
        if head >= tail or books[WALL, tail - 1] != tile:
            return ERR_WALL
        move_tile(books, np.int64(L_WALL), L_HAND + seat, tile)
        books[SCALARS, B_TAIL] = tail - 1
        books[SCALARS, B_DRAW_EXPECTED] = books[SCALARS, B_KONGER]
    elif detail == DRAW_HEAD:
        code = take_from_wall(books, tile, L_HAND + seat)
        if code != OK:
            return code
        books[SCALARS, B_DRAW_EXPECTED] = books[SCALARS, B_NEXT_DRAWER]
    else:
        return ERR_EVENT
    books[SCALARS, B_HOLDER] = seat
    books[SCALARS, B_JUST_CLAIMED] = 0
    books[SEATS + seat, S_DRAWN] = tile
    books[SEATS + seat, S_DRAWS] += 1
    books[SCALARS, B_N_DRAWS] += 1
    books[SCALARS, B_LAST_DRAWER] = seat
    books[SCALARS, B_LAST_SEAT] = -1
    books[SCALARS, B_NEXT_DRAWER] = -1
    books[SCALARS, B_KONGER] = -1
    return OK


@inline_kernel
def _discard(books, seat, tile):
    """The holder discards a tile it holds; the discard is on offer until a claim or a draw."""
    if seat != books[SCALARS, B_HOLDER]:
        return ERR_TURN
    code = push_discard(books, seat, tile, L_HAND + seat)
    if code != OK:
        return code
    books[SEATS + seat, S_DRAWN] = -1
    books[SCALARS, B_HOLDER] = -1
    books[SCALARS, B_JUST_CLAIMED] = 0
    books[SCALARS, B_LAST_SEAT] = seat
    books[SCALARS, B_LAST_TILE] = tile
    books[SCALARS, B_NEXT_DRAWER] = (seat + 1) % books[SCALARS, B_N_PLAYERS]
    books[SCALARS, B_KONGER] = -1
    books[SCALARS, B_OFFER_OPEN] = 1
    books[SCALARS, B_OFFER_SEAT] = seat
    books[SCALARS, B_OFFER_TILE] = tile
    books[SCALARS, B_OFFER_MASK] = 0  # until the variant's open_offer
    books[SCALARS, B_OFFER_MAX] = 0
    books[SCALARS, B_OFFER_PASSED] = 0
    books[SCALARS, B_OFFER_PASS_NEXT] = 1
    books[SCALARS, B_OFFER_WON] = 0
    books[SCALARS, B_OFFER_WIN_NEXT] = 1
    books[SCALARS, B_OFFER_WINS] = 0
    return OK


@inline_kernel
def _pass_win(books, seat, tile):
    """A seat passes a win: on the discard on offer while seats that could win on it have not
    answered, it is one of them in turn order; otherwise (a rob, a variant's offer) it moves
    nothing."""
    if tile < 0 or tile >= 34:
        return ERR_EVENT
    if _unanswered(books) != 0 and tile == books[SCALARS, B_OFFER_TILE]:
        return _answer_offer(books, seat, False)
    return OK


@inline_kernel
def _pass_claim(books, seat, tile):
    """A seat declines a pong or kong of the last discard: another seat's, that it holds two
    of; nothing moves."""
    last_seat = books[SCALARS, B_LAST_SEAT]
    if last_seat < 0 or seat == last_seat or tile != books[SCALARS, B_LAST_TILE]:
        return ERR_CLAIM
    return OK if books[L_HAND + seat, tile] >= 2 else ERR_CLAIM


@inline_kernel
def _declare(books, seat):
    """A declaration: by the seat in turn, or by any seat at the deal (while the dealer holds
    his dealt hand, before any draw or discard: a suit named at the deal, say)."""
    if seat == books[SCALARS, B_HOLDER]:
        return OK
    dealer = books[SCALARS, B_DEALER]
    at_deal = books[SCALARS, B_N_DRAWS] == 0 and books[SCALARS, B_HOLDER] == dealer
    return OK if at_deal and books[SEATS + dealer, S_N_DISCARDS] == 0 else ERR_TURN


@inline_kernel
def _chi_tile(first, offset, code):
    """The physical kind of member ``offset`` of a chi from ``first`` whose stand-in code is
    ``code`` (0: its own tiles; else 1 + the member played + 3 x the stand-in's kind, as the
    engine logs it). Written here again: the ledger shares no code with the loop."""
    if code > 0 and (code - 1) % 3 == offset:
        return (code - 1) // 3
    return first + offset


@inline_kernel
def _chi_or_pong(books, event, seat, first, detail):
    """A chi (three consecutive tiles of one suit; a stand-in tile may play one member, its
    code in ``detail``, ``state.chi_detail``) or pong (three of a kind) of the last discard, by
    another seat, with tiles of its hand; it must then discard."""
    chi = event == EVENT_CHI
    source = detail % MAX_SEATS if chi else detail
    code = detail // MAX_SEATS if chi else 0
    if first < 0 or first + (3 if chi else 1) > 34 or code < 0 or code > 3 * 34:
        return ERR_CLAIM
    last_seat = books[SCALARS, B_LAST_SEAT]
    last_tile = books[SCALARS, B_LAST_TILE]
    if last_seat < 0 or source != last_seat or seat == source:
        return ERR_CLAIM
    claimed = -1  # the member the discard plays
    if chi:
        for offset in range(3):
            if _chi_tile(first, offset, code) == last_tile and claimed < 0:
                claimed = offset
    if chi and (first >= 27 or first % 9 > 6 or claimed < 0):
        return ERR_CLAIM
    if not chi and last_tile != first:
        return ERR_CLAIM
    if _close_offer(books) != OK:
        return ERR_PRIORITY
    if books[SEATS + seat, S_N_MELDS] >= LEDGER_MELDS:
        return ERR_CAPACITY
    if not _take_last_discard(books, source, last_tile, L_MELD + seat):
        return ERR_CONSERVATION
    for offset in range(3):
        # a chi's two other tiles, a pong's two more of the kind
        kind = _chi_tile(first, offset, code) if chi else first
        skip = offset == claimed if chi else offset == 2
        if not skip and not move_tile(books, L_HAND + seat, L_MELD + seat, kind):
            return ERR_TILE_MISSING
    _append_meld(books, seat, MELD_CHI if chi else MELD_PONG, first, source)
    books[SEATS + seat, S_CLAIMED] = 1
    books[SEATS + seat, S_DRAWN] = -1
    books[SCALARS, B_HOLDER] = seat
    books[SCALARS, B_JUST_CLAIMED] = 1
    books[SCALARS, B_LAST_SEAT] = -1
    books[SCALARS, B_NEXT_DRAWER] = -1
    return OK


@inline_kernel
def _own_kong(books, seat, kind, kong_type):
    """A 暗杠 of four held tiles or a 明杠 of a pong's fourth, on the seat's own turn."""
    if seat != books[SCALARS, B_HOLDER] or books[SCALARS, B_JUST_CLAIMED] != 0:
        return ERR_TURN
    if kong_type == MELD_CONCEALED_KONG:
        if books[SEATS + seat, S_N_MELDS] >= LEDGER_MELDS:
            return ERR_CAPACITY
        for _ in range(4):
            if not move_tile(books, L_HAND + seat, L_MELD + seat, kind):
                return ERR_TILE_MISSING
        _append_meld(books, seat, MELD_CONCEALED_KONG, kind, seat)
        return OK
    pong = pong_of(books, seat, kind)
    if pong < 0:
        return ERR_KONG
    if not move_tile(books, L_HAND + seat, L_MELD + seat, kind):
        return ERR_TILE_MISSING
    books[MELDS + seat, 3 * pong + M_TYPE] = MELD_ADDED_KONG
    return OK


@inline_kernel
def _discard_kong(books, seat, kind):
    """A 直杠: three held tiles and the last discard, by another seat."""
    last_seat = books[SCALARS, B_LAST_SEAT]
    if last_seat < 0 or books[SCALARS, B_LAST_TILE] != kind or seat == last_seat:
        return ERR_CLAIM
    if _close_offer(books) != OK:
        return ERR_PRIORITY
    if books[SEATS + seat, S_N_MELDS] >= LEDGER_MELDS:
        return ERR_CAPACITY
    if not _take_last_discard(books, last_seat, kind, L_MELD + seat):
        return ERR_CONSERVATION
    for _ in range(3):
        if not move_tile(books, L_HAND + seat, L_MELD + seat, kind):
            return ERR_TILE_MISSING
    _append_meld(books, seat, MELD_DISCARD_KONG, kind, last_seat)
    return OK


@inline_kernel
def _single_kong(books, seat, kind):
    """One held tile konged by itself on the seat's own turn (no meld row: no set)."""
    if seat != books[SCALARS, B_HOLDER] or books[SCALARS, B_JUST_CLAIMED] != 0:
        return ERR_TURN
    if not move_tile(books, L_HAND + seat, L_MELD + seat, kind):
        return ERR_TILE_MISSING
    return OK


@inline_kernel
def _kong(books, seat, kind, kong_type):
    """A kong (``kong_type``: the meld type); the next player draws, or the konger draws a
    replacement from the tail."""
    if kind < 0 or kind >= 34:
        return ERR_KONG
    if kong_type == MELD_CONCEALED_KONG or kong_type == MELD_ADDED_KONG:
        code = _own_kong(books, seat, kind, kong_type)
    elif kong_type == MELD_DISCARD_KONG:
        code = _discard_kong(books, seat, kind)
    elif kong_type == MELD_SINGLE_KONG:
        code = _single_kong(books, seat, kind)
    else:
        code = ERR_KONG
    if code != OK:
        return code
    books[SEATS + seat, S_CLAIMED] = 1
    books[SEATS + seat, S_DRAWN] = -1
    books[SCALARS, B_HOLDER] = -1
    books[SCALARS, B_JUST_CLAIMED] = 0
    books[SCALARS, B_LAST_SEAT] = -1
    books[SCALARS, B_KONGER] = seat
    books[SCALARS, B_NEXT_DRAWER] = (seat + 1) % books[SCALARS, B_N_PLAYERS]
    return OK


@inline_kernel
def _first_rob(books, kind, konger):
    """The kong being robbed (its EVENT_KONG is never logged): a 明杠 onto the konger's pong on
    his turn (the tile leaves his hand), or a 直杠 of the last discard (it leaves the pile)."""
    holder = books[SCALARS, B_HOLDER]
    last_seat = books[SCALARS, B_LAST_SEAT]
    own_turn = holder == konger and books[SCALARS, B_JUST_CLAIMED] == 0
    if own_turn and pong_of(books, konger, kind) >= 0:
        if not move_tile(books, L_HAND + konger, np.int64(L_CLAIMED), kind):
            return ERR_TILE_MISSING
        books[SCALARS, B_HOLDER] = -1
    elif (
        holder < 0
        and last_seat >= 0
        and last_seat != konger
        and books[SCALARS, B_LAST_TILE] == kind
        and books[L_HAND + konger, kind] == 3
    ):
        if _close_offer(books) != OK:
            return ERR_PRIORITY
        books[SCALARS, B_ROB_DISCARDER] = last_seat
        if not _take_last_discard(books, last_seat, kind, np.int64(L_CLAIMED)):
            return ERR_CONSERVATION
    else:
        return ERR_ROB  # a 暗杠 is never robbed; or no kong of this tile was possible
    books[SCALARS, B_ROB_KIND] = kind
    books[SCALARS, B_ROB_KONGER] = konger
    books[SCALARS, B_ROB_NEXT] = 1
    books[SCALARS, B_LAST_SEAT] = -1
    return OK


@inline_kernel
def _robbed(books, seat, kind, konger):
    """抢杠: ``seat`` robs ``konger``'s kong of ``kind``; robbers in turn order from the konger,
    each holding the one robbed tile."""
    n_players = books[SCALARS, B_N_PLAYERS]
    if kind < 0 or kind >= 34 or konger < 0 or konger >= n_players or seat == konger:
        return ERR_ROB
    if books[SCALARS, B_ROB_KIND] < 0:
        code = _first_rob(books, kind, konger)
        if code != OK:
            return code
    elif kind != books[SCALARS, B_ROB_KIND] or konger != books[SCALARS, B_ROB_KONGER]:
        return ERR_ROB
    offset = (seat - konger) % n_players
    if offset < books[SCALARS, B_ROB_NEXT]:
        return ERR_PRIORITY  # a robber twice, or out of turn order
    books[SCALARS, B_ROB_NEXT] = offset + 1
    books[SCALARS, B_ROBBERS] |= 1 << seat
    books[SEATS + seat, S_HOLDS_CLAIM] = 1
    return OK


@inline_kernel
def _win(books, seat, tile, how):
    """A win of the engine's kinds: a self-draw on the drawn tile (or the dealer on his dealt
    hand), a win on the discard on offer, a rob's win; ``VARIANT_EVENT`` for others."""
    if how == HOW_SELF_DRAW:
        if seat != books[SCALARS, B_HOLDER] or books[SCALARS, B_JUST_CLAIMED] != 0:
            return ERR_WIN
        if tile == -1:  # the dealer complete on his dealt tiles, before any draw
            dealt_hand = seat == books[SCALARS, B_DEALER] and books[SCALARS, B_N_DRAWS] == 0
            if not dealt_hand or books[SEATS + seat, S_CLAIMED] != 0:
                return ERR_WIN
        elif tile != books[SEATS + seat, S_DRAWN]:
            return ERR_WIN
        return add_winner(books, seat, tile, how, np.int64(-1))
    if how == HOW_DISCARD:
        last_seat = books[SCALARS, B_LAST_SEAT]
        if last_seat < 0 or tile != books[SCALARS, B_LAST_TILE] or seat == last_seat:
            return ERR_WIN
        if books[SCALARS, B_OFFER_OPEN] != 0:
            code = _answer_offer(books, seat, True)
            if code != OK:
                return code
            if books[SCALARS, B_OFFER_WINS] >= books[SCALARS, B_OFFER_MAX]:
                return ERR_MULTI_WIN
            books[SCALARS, B_OFFER_WINS] += 1
        first = books[SCALARS, B_N_WINNERS] == 0
        if first and not _take_last_discard(books, last_seat, tile, np.int64(L_CLAIMED)):
            return ERR_CONSERVATION
        books[SEATS + seat, S_HOLDS_CLAIM] = 1
        return add_winner(books, seat, tile, how, last_seat)
    if how == HOW_ROB_KONG:
        robbed = books[SCALARS, B_ROB_KIND]
        if robbed < 0 or tile != robbed or not (books[SCALARS, B_ROBBERS] >> seat) & 1:
            return ERR_WIN
        return add_winner(books, seat, tile, how, books[SCALARS, B_ROB_KONGER])
    return VARIANT_EVENT


@kernel
def add_winner(books, seat, tile, how, payer):
    """Book ``seat`` as a winner on ``tile`` (-1: none) of kind ``how``, paid by ``payer`` (-1:
    everyone): after the first, the same tile and kind, each seat once."""
    n_winners = books[SCALARS, B_N_WINNERS]
    if n_winners > 0:
        if how != books[SCALARS, B_HOW] or tile != books[SCALARS, B_WIN_TILE]:
            return ERR_MULTI_WIN
        if is_winner(books, seat):
            return ERR_MULTI_WIN
    else:
        books[SCALARS, B_LEFT_AT_WIN] = books[SCALARS, B_TAIL] - books[SCALARS, B_HEAD]
        books[SCALARS, B_HOW] = how
        books[SCALARS, B_WIN_TILE] = tile
        books[SCALARS, B_PAYER] = payer
    if n_winners >= 4:
        return ERR_MULTI_WIN
    books[SCALARS, B_WINNER + n_winners] = seat
    books[SCALARS, B_N_WINNERS] = n_winners + 1
    books[SCALARS, B_ENDED] = 1
    return OK


@inline_kernel
def _exhausted(books, seat):
    """荒庄: the wall is empty, the last drawer discarded, nobody won."""
    if _close_offer(books) != OK:
        return ERR_PRIORITY
    empty = books[SCALARS, B_HEAD] == books[SCALARS, B_TAIL]
    if not empty or seat != books[SCALARS, B_LAST_DRAWER]:
        return ERR_END
    if books[SCALARS, B_N_WINNERS] > 0 or books[SCALARS, B_HOLDER] >= 0:
        return ERR_END
    books[SCALARS, B_EXHAUSTED] = 1
    books[SCALARS, B_ENDED] = 1
    return OK


@kernel
def ledger_step(books, event, seat, tile, detail):
    """Apply one of the engine's events to the books; ``VARIANT_EVENT`` (nothing moved) for an
    event or a win kind the variant's checks handle."""
    if event == EVENT_DEAL:
        return _deal(books, seat, detail)
    if event == EVENT_INDICATOR:
        return _indicator(books, tile, detail)
    if event == EVENT_DRAW:
        return _draw(books, seat, tile, detail)
    if event == EVENT_DISCARD:
        return _discard(books, seat, tile)
    if event == EVENT_PASS_WIN:
        return _pass_win(books, seat, tile)
    if event == EVENT_PASS_CLAIM:
        return _pass_claim(books, seat, tile)
    if event == EVENT_DECLARE:
        return _declare(books, seat)
    if event == EVENT_CHI or event == EVENT_PONG:
        return _chi_or_pong(books, event, seat, tile, detail)
    if event == EVENT_KONG:
        return _kong(books, seat, tile, detail)
    if event == EVENT_ROBBED:
        return _robbed(books, seat, tile, detail)
    if event == EVENT_WIN:
        return _win(books, seat, tile, detail)
    if event == EVENT_EXHAUSTED:
        return _exhausted(books, seat)
    return VARIANT_EVENT


@kernel
def end_event(books, event, seat):
    """After an event: the kinds it moved are all accounted for, every hand size is legal, and
    a draw was made by the seat whose turn it was."""
    if event == EVENT_DEAL and books[SCALARS, B_DEALT] == 0:
        return OK  # hand sizes are checked once the whole deal is logged
    for j in range(books[TOUCHED, N_TOUCHED]):
        if not conserved(books, books[TOUCHED, j]):
            return ERR_CONSERVATION
    holder = books[SCALARS, B_HOLDER]
    for s in range(books[SCALARS, B_N_PLAYERS]):
        holds_claim = books[SEATS + s, S_HOLDS_CLAIM]
        size = books[TOTALS, L_HAND + s] + 3 * books[SEATS + s, S_N_MELDS] + holds_claim
        big = s == holder or holds_claim != 0 or is_winner(books, s)
        if size != (14 if big else 13):
            return ERR_HAND_SIZE
    if event == EVENT_DRAW and seat != books[SCALARS, B_DRAW_EXPECTED]:
        return ERR_TURN
    return OK


# ------------------------------------------------------------------------------ queries


@kernel
def conserved(books, kind):
    """Every tile of ``kind`` in the wall is in exactly one location."""
    total = 0
    for location in range(N_LOCATIONS):
        total += books[location, kind]
    return total == books[WALL_COUNT, kind]


@kernel
def is_winner(books, seat):
    found = False
    for w in range(books[SCALARS, B_N_WINNERS]):
        found = found or books[SCALARS, B_WINNER + w] == seat
    return found


@kernel
def pong_of(books, seat, kind):
    """The index of ``seat``'s pong of ``kind`` in the books, or -1."""
    for m in range(books[SEATS + seat, S_N_MELDS]):
        pong = books[MELDS + seat, 3 * m + M_TYPE] == MELD_PONG
        if pong and books[MELDS + seat, 3 * m + M_FIRST] == kind:
            return m
    return -1


@kernel
def meld_suits(books, seat):
    """Bit s set when ``seat`` has a meld of suit s."""
    suits = np.int64(0)
    for m in range(books[SEATS + seat, S_N_MELDS]):
        suits |= 1 << (books[MELDS + seat, 3 * m + M_FIRST] // 9)
    return suits


# ------------------------------------------------------------------------------ the end


@inline_kernel
def _state_wall(books, state):
    """The state's wall pointers and scalars; its hands (a winner's with the claimed tile)."""
    scalars = state.scalars
    hands = state.hands
    n_players = books[SCALARS, B_N_PLAYERS]
    if (
        scalars[S.HEAD] != books[SCALARS, B_HEAD]
        or scalars[S.TAIL] != books[SCALARS, B_TAIL]
        or scalars[S.N_TILES] != books[SCALARS, B_N_TILES]
        or scalars[S.N_PLAYERS] != n_players
        or scalars[S.DEALER] != books[SCALARS, B_DEALER]
        or scalars[S.TURNS] != books[SCALARS, B_N_DRAWS]
    ):
        return ERR_STATE_WALL
    for s in range(4):
        claimed = s < n_players and books[SEATS + s, S_HOLDS_CLAIM] != 0
        for kind in range(34):
            expected = books[L_HAND + s, kind] if s < n_players else 0
            if claimed and kind == books[SCALARS, B_WIN_TILE]:
                expected += 1
            if hands[s, kind] != expected:
                return ERR_STATE_HANDS
    return OK


@inline_kernel
def _state_tables(books, state):
    """The state's melds and discard piles."""
    melds = state.melds
    discards = np.empty(WALL_CAPACITY, np.int64)
    n_players = books[SCALARS, B_N_PLAYERS]
    for s in range(4):
        expected_melds = books[SEATS + s, S_N_MELDS] if s < n_players else 0
        if expected_melds > MAX_MELDS:
            return ERR_CAPACITY
        if state.n_melds[s] != expected_melds:
            return ERR_STATE_MELDS
        for m in range(expected_melds):
            for j in range(3):
                if melds[s, m, j] != books[MELDS + s, 3 * m + j]:
                    return ERR_STATE_MELDS
        expected_discards = books[SEATS + s, S_N_DISCARDS] if s < n_players else 0
        if expected_discards > MAX_DISCARDS:
            return ERR_CAPACITY
        if pile(state, s, discards) != expected_discards:
            return ERR_STATE_DISCARDS
        for j in range(expected_discards):
            if discards[j] != books[PILE + s, j]:
                return ERR_STATE_DISCARDS
    return OK


@inline_kernel
def _state_keys(books, state):
    """Suit keys and wild counts as the state's hands and wild flags give them; the visible
    tiles: flipped, discarded and melded."""
    hands = state.hands
    wild = state.wild
    keys = np.zeros(4, np.int64)
    for s in range(4):
        keys[:] = 0
        wilds = 0
        for kind in range(34):
            held = np.int64(hands[s, kind])
            if wild[kind]:
                wilds += held
            else:
                keys[KIND_SUIT[kind]] += held * KIND_POWER[kind]
        if state.wild_count[s] != wilds:
            return ERR_STATE_KEYS
        for suit in range(4):
            if state.keys[s, suit] != keys[suit]:
                return ERR_STATE_KEYS
    visible = state.visible
    for kind in range(34):
        seen = books[L_FLIPPED, kind]
        for s in range(books[SCALARS, B_N_PLAYERS]):
            seen += books[L_DISCARD + s, kind] + books[L_MELD + s, kind]
        if visible[kind] != seen:
            return ERR_STATE_VISIBLE
    return OK


@inline_kernel
def _record(books, record):
    """The record's shared slots against the log; its score changes sum to zero."""
    n_players = books[SCALARS, B_N_PLAYERS]
    total = 0
    for s in range(n_players):
        total += record[R_DELTA + s]
    if total != 0:
        return ERR_ZERO_SUM
    n_winners = books[SCALARS, B_N_WINNERS]
    if (
        record[R_DEALER] != books[SCALARS, B_DEALER]
        or record[R_INDICATOR] != books[SCALARS, B_INDICATOR]
        or record[R_TURNS] != books[SCALARS, B_N_DRAWS]
        or record[R_TILES_LEFT] != books[SCALARS, B_TAIL] - books[SCALARS, B_HEAD]
        or record[R_N_WINNERS] != n_winners
    ):
        return ERR_RECORD
    if n_winners == 0:
        return OK if record[R_OUTCOME] == OUTCOME_DRAW else ERR_RECORD
    if (
        record[R_OUTCOME] != OUTCOME_WIN
        or record[R_WIN_KIND] != books[SCALARS, B_HOW]
        or record[R_PAYER] != books[SCALARS, B_PAYER]
        or record[R_WINNING_TILE] != books[SCALARS, B_WIN_TILE]
    ):
        return ERR_RECORD
    for w in range(n_winners):
        if record[R_WINNER + w] != books[SCALARS, B_WINNER + w]:
            return ERR_RECORD
    return OK


@kernel
def finish(books, state, record):
    """After the last event: the hand ended; every tile is accounted for; a discard won by
    fewer than may win was offered to every seat that could win; the engine's final ``state``
    equals the books and ``record`` (the hand's row) tells the log's story."""
    if books[SCALARS, B_ENDED] == 0:
        return ERR_END
    for kind in range(34):
        if not conserved(books, kind):
            return ERR_CONSERVATION
    if offer_settled(books) != OK:
        return ERR_PRIORITY
    code = _state_wall(books, state)
    if code == OK:
        code = _state_tables(books, state)
    if code == OK:
        code = _state_keys(books, state)
    if code == OK:
        code = _record(books, record)
    return code
