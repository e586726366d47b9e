"""Game state of one hand (局) as fixed-shape arrays, and the primitive tile moves.

Layout (docs/engine.md):

* ``wall`` int8 (136,): the shuffled wall; the first ``scalars[N_TILES]`` entries are used.
* ``hands`` uint8 (4, 34): concealed tiles of each seat by face, wild tiles included.
* ``wild`` bool (34,): kinds that are wild this hand. Every in-play copy of a wild kind is wild
  (Anhua's flipped indicator is out of play, so its remaining copies are all kings).
* ``keys`` int64 (4, 4): evaluator suit keys of each seat's concealed *natural* tiles.
* ``wild_count`` int64 (4,): wild tiles in each concealed hand.
* ``melds`` int8 (4, 4, 4): per seat up to four melds ``(type, first tile, from seat, stand-in)``;
  the stand-in code (``stand_in_code``) is 0 but for a chi in which a stand-in tile (Anqing's
  红中) plays one member.
* ``n_melds`` int64 (4,).
* ``visible`` uint8 (34,): tiles every player can see (discards, melds, flipped tiles).
* ``scalars`` int64 (16,): named slots ``N_TILES``, ``HEAD``, ``TAIL``, ``N_PLAYERS``, ...
* ``agents`` int64 (4,): the agent kind of each seat (``sim.kernels.agents.AGENT_*``).
* ``agent_params`` float64 (4, N_AGENT_PARAMS): each seat's agent parameters, one row per seat,
  a column per parameter declared in ``sim.kernels.agent_params`` (integers stored exactly);
  the engine passes a seat's row to its agent's questions.
* ``status`` int64 (5, 16): per-seat facts of this hand in rows 0-3 and the hand's own in row
  ``HAND_ROW`` (4). Columns below ``FIRST_VARIANT_SLOT`` belong to the engine (``ST_*`` per seat,
  ``HAND_*`` in the hand row); the rest are the variant's, declared in its hooks module. Every
  column is declared as a ``sim.kernels.status.StatusColumn`` and its slot derived from that
  (``ENGINE_SEAT_STATUS``, ``ENGINE_HAND_STATUS`` below; docs/engine.md). ``reset`` clears it.
* ``log`` int64 (capacity + 1, 4): an event log ``(event, seat, tile, detail)`` for replays. The
  last row is a sink that events past the capacity are written to (and not counted), so that
  ``log_event`` has no branch; bulk runs have capacity 0: every event goes to the sink.
* ``history`` int8 (WALL_CAPACITY, 3): every discard of the hand in order, ``(seat, tile,
  claimed by)`` (-1: nobody claimed it), ``scalars[N_HISTORY]`` rows. It is also the discard
  piles: a seat's pile is its unclaimed rows, in order (``pile``). ``add_discard``
  appends a row; the engine marks the claims it makes (a pong, a kong or a win on the discard,
  a robbed kong on it) with ``mark_claimed``; a hook that takes a tile out of a pile itself uses
  ``claim_from_pile``. (One array rather than per-seat piles beside a history: every array of
  the state costs a reference count at each non-inlined call that takes the state.)

Every tile move goes through ``give_tile`` / ``take_tile`` so ``keys`` and ``wild_count`` stay in
step with ``hands``: the evaluator then answers from four table lookups. No validation here.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ._jit import inline_kernel, kernel
from .agent_params import default_row
from .hand import KIND_POWER, KIND_SUIT, N_KINDS
from .status import FIRST_VARIANT_SLOT, N_STATUS, StatusColumn, status_slots

MAX_SEATS = 4
MAX_MELDS = 4
# A seat's pile holds what it discarded and the tiles its kongs revealed (its rows of
# ``history``; the ledger keeps piles of this capacity). Each discard follows a
# draw from the wall, a claim (at most MAX_MELDS) or the deal (the dealer's 14th tile), and
# revealed tiles come from the wall: at most the wall left after the deal and one flipped tile,
# plus 5. That is 87 for 136 tiles and 4 players, 81 for 108 tiles and 2 players (Weng'an):
# ``add_discard`` then needs no bounds check.
MAX_DISCARDS = 96
WALL_CAPACITY = 136

# scalars slots
N_TILES = 0
HEAD = 1  # next tile drawn from the front of the wall
TAIL = 2  # one past the last tile still in the wall (draws from the back take TAIL - 1)
N_PLAYERS = 3
DEALER = 4
TURN = 5  # seat whose turn it is
TURNS = 6  # draws made so far this hand
LAST_DISCARD = 7  # kind of the last discard, -1 none
LAST_DISCARDER = 8
LOG_COUNT = 9  # events written to ``log``
DEALER_STREAK = 10  # hands in a row the dealer has dealt before this one (连庄), from the engine
DRAW_SOURCE = 11  # where the seat's last drawn tile came from: DRAW_HEAD or DRAW_REPLACEMENT
N_HISTORY = 12  # rows of ``history`` written (discards made this hand)
# the dealer's streak for the next hand if a settle hook sets it (>= 0; the rule of
# ``engine.play_hands`` otherwise: one more when the dealer keeps the deal, else 0); -1 after
# ``reset``
NEXT_STREAK = 13
N_SCALARS = 16

# DRAW_SOURCE values (also the detail of EVENT_DRAW)
DRAW_HEAD = 0  # an ordinary draw from the head of the wall
DRAW_REPLACEMENT = 1  # a kong's replacement from the tail (the kong hook said KONG_REPLACEMENT)

# status columns (``sim.kernels.status``): the engine's per-seat facts (rows 0-3) ...
ENGINE_SEAT_STATUS = (
    StatusColumn(
        "acted",
        "1 once the seat discarded, claimed or konged this hand (its first turn is over)",
        "hidden",  # every seat but a dealer who won at once: nothing worth a line
    ),
    # hidden: the seat's melds show it
    StatusColumn("claimed", "1 once the seat made a chi, pong or kong this hand", "hidden"),
    StatusColumn(
        "locked",
        "1 while the hand is locked (the variant's notion: after an open kong, 报听): it "
        "discards what it draws and claims nothing but a win",
        "flag",
    ),
    # the engine asks for a seat's own-turn actions only when a win is plausible, the hand
    # holds a kong shape or this flag is set
    StatusColumn(
        "own_turn_extra",
        "1 while the variant may list own-turn actions other than a plausible win and a kong "
        "of held tiles (an instant win's window, say)",
        "hidden",
    ),
)
ST_ACTED, ST_CLAIMED, ST_LOCKED, ST_OWN_TURN_EXTRA = status_slots(
    ENGINE_SEAT_STATUS, first=0, end=FIRST_VARIANT_SLOT
)
# ... and the hand row's, which the variant's setup hook fills
HAND_ROW = 4
ENGINE_HAND_STATUS = (
    StatusColumn(
        "steer_forms",
        "the hand forms the agents steer their discards and claims by (bits)",
        "hidden",  # the agents' business, not the game's
        row="hand",
    ),
    # a tile kind that plays another kind's face this hand (Anqing's 红中 for the 钻's face):
    # chis may hold it for that face (``stand_in_code``); set by a variant's setup hook
    StatusColumn(
        "stand_in",
        "1 + the kind of the tile standing for another kind's face in chis (0: none)",
        "hidden",
        row="hand",
    ),
    StatusColumn("stand_in_face", "the kind the stand-in tile plays", "hidden", row="hand"),
)
HAND_STEER_FORMS, HAND_STAND_IN, HAND_STAND_IN_FACE = status_slots(
    ENGINE_HAND_STATUS, first=0, end=FIRST_VARIANT_SLOT
)

# Events of the replay log: (event, seat, tile, detail)
EVENT_DEAL = 0  # seat was dealt ``detail`` tiles
EVENT_INDICATOR = 1  # a tile the variant flipped (moves.flip): wilds, chickens, ...
EVENT_WILD = 2  # tile kind is wild this hand
EVENT_DRAW = 3  # detail = DRAW_HEAD, or DRAW_REPLACEMENT for a kong's replacement from the tail
EVENT_DISCARD = 4
EVENT_CHI = 5  # tile = first of the sequence, detail = from seat + MAX_SEATS x stand-in code
EVENT_PONG = 6  # detail = from seat
EVENT_KONG = 7  # detail = meld type
EVENT_DECLARE = 8  # seat declares (moves.ACT_DECLARE): detail = what (the variant's), tile a value
EVENT_WIN = 9  # detail = how (the variant's win kind), tile = winning tile
EVENT_PASS_CLAIM = 10  # seat declines the pong (detail ACT_PONG) or kong (ACT_KONG) of tile
EVENT_PAY = 11  # seat pays ``detail`` points to ``tile`` (the receiver's seat)
EVENT_EXHAUSTED = 12  # 荒庄
EVENT_ROBBED = 13  # seat robs the kong of ``tile``
EVENT_PASS_WIN = 14  # seat could win on ``tile`` offered by another player and passes (漏胡)
# A variant numbers the events its hooks log from here (its folder declares them, with their
# names for the replay: ``sim.variants.replay.ReplayWords.event_names``)
FIRST_VARIANT_EVENT = 16
# EVENT_INDICATOR's detail: where the flipped tile came from
FLIP_HEAD = 0
FLIP_TAIL = 1

# meld types
MELD_CHI = 0
MELD_PONG = 1
MELD_CONCEALED_KONG = 2  # 暗杠
MELD_ADDED_KONG = 3  # 4th tile added to one's own pong (Anhua 明杠)
MELD_DISCARD_KONG = 4  # 3 in hand + a discard (Anhua 直杠)
# one held tile konged by itself on the seat's own turn (Anqing's 杠牌 and 钻 kongs): no meld row
# (it is no set); the tile is set aside face up and the variant keeps count of them
MELD_SINGLE_KONG = 5


class GameState(NamedTuple):
    wall: np.ndarray
    hands: np.ndarray
    wild: np.ndarray
    keys: np.ndarray
    wild_count: np.ndarray
    melds: np.ndarray
    n_melds: np.ndarray
    visible: np.ndarray
    scalars: np.ndarray
    agents: np.ndarray
    agent_params: np.ndarray
    status: np.ndarray
    log: np.ndarray
    history: np.ndarray


class FinalPosition(NamedTuple):
    """Every seat's concealed tiles, melds and status when a hand ended (a winner's hand holds
    the winning tile), and the hand's status: what a replay shows after the events."""

    hands: np.ndarray  # (n_players, 34) concealed counts, wilds at their face
    melds: np.ndarray  # (n_players, MAX_MELDS, 4): type, first tile, from seat, stand-in code
    n_melds: np.ndarray  # (n_players,)
    status: np.ndarray  # (n_players, N_STATUS): each seat's row of ``status``
    hand_status: np.ndarray  # (N_STATUS,): the ``HAND_ROW`` of ``status``


def final_position(state: GameState) -> FinalPosition:
    """The state's hands, melds and status rows, copied, for its ``scalars[N_PLAYERS]``
    seats."""
    n_players = int(state.scalars[N_PLAYERS])
    return FinalPosition(
        state.hands[:n_players].copy(),
        state.melds[:n_players].copy(),
        state.n_melds[:n_players].copy(),
        state.status[:n_players].copy(),
        state.status[HAND_ROW].copy(),
    )


def new_state(log_capacity: int = 0, agents=(0, 0, 0, 0), agent_params=None) -> GameState:
    """Allocate the arrays of one game state (reused from hand to hand with ``reset``).

    ``agents``: the agent kind of each seat (default: the efficiency agent everywhere);
    ``agent_params``: each seat's parameters (rows for the first seats, float64 (seats,
    N_AGENT_PARAMS); default, and for the seats it lacks: every parameter's default); a
    ``log_capacity`` above 0 records up to that many events per hand (replays)."""
    params = np.tile(default_row(), (MAX_SEATS, 1))
    if agent_params is not None:
        given = np.asarray(agent_params, np.float64)
        params[: given.shape[0]] = given
    return GameState(
        wall=np.zeros(WALL_CAPACITY, np.int8),
        hands=np.zeros((MAX_SEATS, N_KINDS), np.uint8),
        wild=np.zeros(N_KINDS, np.bool_),
        keys=np.zeros((MAX_SEATS, 4), np.int64),
        wild_count=np.zeros(MAX_SEATS, np.int64),
        melds=np.zeros((MAX_SEATS, MAX_MELDS, 4), np.int8),
        n_melds=np.zeros(MAX_SEATS, np.int64),
        visible=np.zeros(N_KINDS, np.uint8),
        scalars=np.zeros(N_SCALARS, np.int64),
        agents=np.array(agents, np.int64),
        agent_params=params,
        status=np.zeros((MAX_SEATS + 1, N_STATUS), np.int64),
        log=np.zeros((log_capacity + 1, 4), np.int64),
        history=np.zeros((WALL_CAPACITY, 3), np.int8),
    )


@kernel
def reset(state, wall, n_players, dealer):
    """Start a hand on ``wall`` (int8 (n_tiles,)): empty hands, no wilds, full wall."""
    n_tiles = wall.shape[0]
    for index in range(n_tiles):
        state.wall[index] = wall[index]
    state.hands[:] = 0
    state.wild[:] = False
    state.keys[:] = 0
    state.wild_count[:] = 0
    state.melds[:] = 0
    state.n_melds[:] = 0
    state.visible[:] = 0
    state.scalars[:] = 0
    state.status[:] = 0
    state.scalars[N_TILES] = n_tiles
    state.scalars[HEAD] = 0
    state.scalars[TAIL] = n_tiles
    state.scalars[N_PLAYERS] = n_players
    state.scalars[DEALER] = dealer
    state.scalars[TURN] = dealer
    state.scalars[LAST_DISCARD] = -1
    state.scalars[LAST_DISCARDER] = -1
    state.scalars[NEXT_STREAK] = -1


# The helpers below take the whole state and are inlined into hot loops. They stay free of
# branches on purpose: numba binds the state tuple (one reference count per array in it) at each
# inlined call, and only in straight-line code can its reference-count pruning remove that
# again; with a branch, each call costs about 60 ns of atomic increments and decrements.


@inline_kernel
def log_event(state, event, seat, tile, detail):
    """Append an event to the replay log (past the capacity it goes to the sink row)."""
    count = state.scalars[LOG_COUNT]
    capacity = state.log.shape[0] - 1
    room = np.int64(count < capacity)
    row = min(count, capacity)
    state.log[row, 0] = event
    state.log[row, 1] = seat
    state.log[row, 2] = tile
    state.log[row, 3] = detail
    state.scalars[LOG_COUNT] = count + room


@inline_kernel
def give_tile(state, seat, kind):
    """Put a tile of ``kind`` into ``seat``'s concealed hand."""
    wild = np.int64(state.wild[kind])
    state.hands[seat, kind] += 1
    state.wild_count[seat] += wild
    state.keys[seat, KIND_SUIT[kind]] += KIND_POWER[kind] * (1 - wild)


@inline_kernel
def take_tile(state, seat, kind):
    """Take a tile of ``kind`` out of ``seat``'s concealed hand (the caller knows it is there)."""
    wild = np.int64(state.wild[kind])
    state.hands[seat, kind] -= 1
    state.wild_count[seat] -= wild
    state.keys[seat, KIND_SUIT[kind]] -= KIND_POWER[kind] * (1 - wild)


@kernel
def set_wild(state, kind):
    """Make ``kind`` wild for this hand and move the copies already held out of the keys."""
    if state.wild[kind]:
        return
    state.wild[kind] = True
    for seat in range(state.scalars[N_PLAYERS]):
        held = np.int64(state.hands[seat, kind])
        state.keys[seat, KIND_SUIT[kind]] -= held * KIND_POWER[kind]
        state.wild_count[seat] += held


@inline_kernel
def tiles_left(state):
    return state.scalars[TAIL] - state.scalars[HEAD]


@inline_kernel
def pop_front(state):
    """The next tile from the head of the wall, or -1 when the wall is empty."""
    head = state.scalars[HEAD]
    empty = np.int64(head >= state.scalars[TAIL])
    kind = np.int64(state.wall[min(head, state.wall.shape[0] - 1)])
    state.scalars[HEAD] = head + 1 - empty
    return kind - empty * (kind + 1)


@inline_kernel
def pop_back(state):
    """The last tile of the wall (kong replacements in some variants), or -1 when empty."""
    empty = np.int64(state.scalars[HEAD] >= state.scalars[TAIL])
    tail = state.scalars[TAIL] - 1 + empty
    state.scalars[TAIL] = tail
    kind = np.int64(state.wall[min(max(tail, 0), state.wall.shape[0] - 1)])
    return kind - empty * (kind + 1)


@kernel
def deal(state, hand_size, dealer_extra):
    """Deal ``hand_size`` tiles to every seat from the head, then ``dealer_extra`` more to the
    dealer (the order of a uniform wall does not matter for the distribution)."""
    n_players = state.scalars[N_PLAYERS]
    for seat in range(n_players):
        for _ in range(hand_size):
            give_tile(state, seat, pop_front(state))
    for _ in range(dealer_extra):
        give_tile(state, state.scalars[DEALER], pop_front(state))


@inline_kernel
def add_discard(state, seat, kind):
    """Record ``seat`` discarding ``kind`` (already taken from the hand): a row of ``history``."""
    state.visible[kind] += 1
    state.scalars[LAST_DISCARD] = kind
    state.scalars[LAST_DISCARDER] = seat
    # every tile is discarded at most once in a hand: the history never overflows
    row = state.scalars[N_HISTORY]
    state.history[row, 0] = seat
    state.history[row, 1] = kind
    state.history[row, 2] = -1
    state.scalars[N_HISTORY] = row + 1


@inline_kernel
def mark_claimed(state, claimer):
    """Mark the last discard of ``history`` as claimed by ``claimer`` (a pong, a kong or a win
    on it)."""
    state.history[state.scalars[N_HISTORY] - 1, 2] = claimer


@kernel
def claim_from_pile(state, seat, tile, claimer):
    """Take the last ``tile`` out of ``seat``'s discard pile for ``claimer`` (a hook's win on a
    tile of the pile, such as a revealed tile): its ``history`` row is marked claimed."""
    for row in range(state.scalars[N_HISTORY] - 1, -1, -1):
        unclaimed = state.history[row, 2] < 0
        if unclaimed and state.history[row, 0] == seat and state.history[row, 1] == tile:
            state.history[row, 2] = claimer
            state.visible[tile] -= 1
            return


@kernel
def pile(state, seat, out):
    """``seat``'s discard pile in order (its unclaimed ``history`` rows) into ``out``; returns
    its length."""
    length = 0
    for row in range(state.scalars[N_HISTORY]):
        if state.history[row, 0] == seat and state.history[row, 2] < 0:
            out[length] = state.history[row, 1]
            length += 1
    return length


@inline_kernel
def stand_in_code(offset, kind):
    """The code of a chi whose member ``offset`` (0-2 from its first tile) is played by a tile
    of ``kind`` (a stand-in, ``HAND_STAND_IN``): the melds' fourth column, and the multiple of
    MAX_SEATS in EVENT_CHI's detail. 0 is a chi of its own tiles."""
    return 1 + offset + 3 * kind


@inline_kernel
def chi_member_tile(first, offset, code):
    """The physical kind of member ``offset`` of a chi starting at ``first`` with stand-in
    ``code``."""
    if code > 0 and (code - 1) % 3 == offset:
        return (code - 1) // 3
    return first + offset


@inline_kernel
def chi_detail(from_seat, code):
    """EVENT_CHI's detail: the seat fed and the stand-in code."""
    return from_seat + MAX_SEATS * code


@inline_kernel
def add_meld(state, seat, meld_type, first, from_seat):
    state.melds[seat, state.n_melds[seat], 0] = meld_type
    state.melds[seat, state.n_melds[seat], 1] = first
    state.melds[seat, state.n_melds[seat], 2] = from_seat
    state.n_melds[seat] += 1


@kernel
def tiles_accounted(state):
    """Every physical tile in the wall, hands, melds and discards, by kind (for invariants).

    Discards claimed into a meld or a hand are not double counted: the engine marks a claimed
    discard in ``history``, which leaves it out of the pile.
    """
    counts = np.zeros(N_KINDS, np.int64)
    for position in range(state.scalars[HEAD], state.scalars[TAIL]):
        counts[state.wall[position]] += 1
    for row in range(state.scalars[N_HISTORY]):
        if state.history[row, 2] < 0:
            counts[state.history[row, 1]] += 1
    for seat in range(state.scalars[N_PLAYERS]):
        for kind in range(N_KINDS):
            counts[kind] += state.hands[seat, kind]
        for index in range(state.n_melds[seat]):
            meld_type = state.melds[seat, index, 0]
            first = state.melds[seat, index, 1]
            if meld_type == MELD_CHI:
                code = state.melds[seat, index, 3]
                for offset in range(3):
                    counts[chi_member_tile(first, offset, code)] += 1
            elif meld_type == MELD_PONG:
                counts[first] += 3
            else:
                counts[first] += 4
    return counts
