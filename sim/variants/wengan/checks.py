"""Weng'an's rule checks of played hands (numba), over the generic tile ledger.

``check_hand`` replays one hand's event log on the ledger's books (``sim.kernels.ledger``: every
tile accounted for after every event, hand sizes, moves legal in shape, claim order, the final
state and the record) and checks Weng'an's own rules (§wengan-rules, docs/rules/wengan.md)
beside it: no chi ever (不可以吃); a win's hand complete (with the winning tile) and holding no
tile of its 定缺 suit; no win on a kind passed since the hand last changed (过胡) and no pong of one
(过碰); a 平胡 wins on a discard only with a 通行证 or one of its exceptions (平胡点炮需要通行证:
地胡, 热炮, 报听, 杀听); 报听 only before the seat's first discard, and then the hand frozen: it
discards what it draws and makes no pong or kong; 定缺 named at the deal, once per seat, only
where it is in force; only a 爬坡豆 (an added kong) is robbed; 杠开 on a replacement draw; the
chicken flips (翻牌鸡, 前后翻鸡) only after a win, as many as the wall and options give; each kong's
dou kind (闷豆 / 爬坡豆 / 点豆 / 憨包豆) fitting its meld; every scoring chicken in its owner's
hand, melds or discards; every settlement item a payment between two seats, the kinds fitting
the end (no 查叫 after a win, no pattern payment after a 荒庄, 原缺 only with 2 or 3 players), so
that every settlement is zero-sum; and the record: the score changes equal the items, each
source's net points (``record_slots.POINT_SOURCES``: 牌型分, 连庄 / 一口二, 热炮, 杀听, chickens,
dou, 包, 查叫, 原缺) are the items', zero-sum, and sum to each seat's score change; the flips, 报听
and the kongs by dou kind are the log's.

Claim priority: the ledger is told (``open_offer``) the seats that answered the discard (passed
or won, read ahead in the log), and this module checks each of them holds a complete hand with
the tile. Who was *entitled* to win (通行证 with every ``passport_kinds`` and its exceptions,
过胡, 定缺, 报听, 一炮多响, robbing only a 爬坡豆) is re-derived apart, slowly and in plain Python,
by the referee ``tests/reference/wengan_claims.py`` over the reference patterns: it names a win
the rules forbid, an entitled seat the log shows neither winning nor passing, a pass by a seat
that could not win, and a wrong next dealer, 连庄 count or dealer bonus
(``tests/variants/test_wengan_claims.py`` runs it over the invariant grid; docs/engine.md,
"Ledger").

``check_wengan_hands`` plays hands like ``engine.play_hands`` with the log on and checks each;
``check_games`` is its Python face, the one the variant contract test
(``tests/test_variant_contract.py``) calls for every variant.

Rules: docs/rules/wengan.md (贵州瓮安麻将).
"""

from __future__ import annotations

import itertools

import numpy as np

from ...kernels import ledger as L
from ...kernels._jit import inline_kernel, kernel
from ...kernels.hand import KIND_POWER, KIND_SUIT, is_complete
from ...kernels.ledger import (
    B_ENDED,
    B_EXHAUSTED,
    B_HOLDER,
    B_HOW,
    B_LEFT_AT_WIN,
    B_N_PLAYERS,
    B_N_WINNERS,
    B_WINNER,
    FIRST_VARIANT_ERROR,
    L_HAND,
    M_FIRST,
    M_TYPE,
    MELDS,
    OK,
    S_DRAWN,
    S_N_MELDS,
    SCALARS,
    SEATS,
    VARIANT_EVENT,
)
from ...kernels.moves import FLIP_TAIL, HOW_DISCARD, HOW_KONG_BLOOM, HOW_ROB_KONG
from ...kernels.record import R_DELTA, R_FEATURES
from ...kernels.state import (
    DRAW_REPLACEMENT,
    EVENT_CHI,
    EVENT_DECLARE,
    EVENT_DISCARD,
    EVENT_DRAW,
    EVENT_INDICATOR,
    EVENT_KONG,
    EVENT_PASS_CLAIM,
    EVENT_PASS_WIN,
    EVENT_PONG,
    EVENT_ROBBED,
    EVENT_WIN,
    LOG_COUNT,
    MELD_ADDED_KONG,
    MELD_CONCEALED_KONG,
    MELD_DISCARD_KONG,
    MELD_PONG,
)
from .. import session
from ..session import LOG_CAPACITY, CheckedGames  # noqa: F401 (check_games' result, log size)
from . import settle as SE
from .engine import play_hand
from .hooks import (
    DECLARE_BAO_TING,
    DECLARE_QUE,
    EVENT_CHICKEN,
    EVENT_DOU,
    EVENT_ITEM,
    FEATURE_BAO_TING,
    FEATURE_EARTHLY,
    FEATURE_HOT_CANNON,
    FEATURE_PASSPORT,
    FEATURE_PATTERN,
    FEATURE_SHA_TING,
    WIN_FORMS,
)
from .options import (
    DING_QUE_DECLARE,
    OPTION,
    P_DING_QUE,
    P_DING_QUE_MODE,
    P_GUO_HU_LIMIT,
    P_GUO_HU_SCOPE,
    P_GUO_PENG_LIMIT,
    P_MULTI_RON,
    P_PING_HU_RON_NEEDS_PASSPORT,
    P_PLAYERS,
    P_QIAN_HOU_FAN_JI,
)
from .patterns import PING_HU
from .record_slots import (
    N_WENGAN_RECORD,
    POINT_SOURCES,
    RW_BAO_TING,
    RW_FLIP,
    RW_KONGS,
    RW_NEXT_STREAK,
    RW_QUE_SUIT,
    SLOT,
    source_of_items,
)
from .scoring import flip_count

ERR_CHI = FIRST_VARIANT_ERROR  # a chi (不可以吃)
ERR_INCOMPLETE = FIRST_VARIANT_ERROR + 1  # a win or an answered discard on an incomplete hand
ERR_QUE = FIRST_VARIANT_ERROR + 2  # a winner holding its 定缺 suit, or a bad 定缺 declaration
ERR_PASSED = FIRST_VARIANT_ERROR + 3  # a win or pong on a kind passed (过胡 / 过碰)
ERR_PASSPORT = FIRST_VARIANT_ERROR + 4  # a 平胡 on a discard without 通行证 or exception
ERR_BAO_TING = FIRST_VARIANT_ERROR + 5  # 报听 late or twice, or a frozen hand that moved
ERR_ROB_KIND = FIRST_VARIANT_ERROR + 6  # a robbed kong that is not a 爬坡豆
ERR_BLOOM = FIRST_VARIANT_ERROR + 7  # 杠开 not on a replacement draw
ERR_FLIP = FIRST_VARIANT_ERROR + 8  # chicken flips: before a win, or the wrong number or end
ERR_DOU = FIRST_VARIANT_ERROR + 9  # a dou kind that does not fit its kong, or a kong untold
ERR_CHICKEN = FIRST_VARIANT_ERROR + 10  # a chicken its owner does not hold where it says
ERR_ITEM = FIRST_VARIANT_ERROR + 11  # a malformed item, or one of a kind the end forbids
ERR_DELTA = FIRST_VARIANT_ERROR + 12  # the record's deltas or sources differ from the items

ERROR_NAMES = (
    *L.ERROR_NAMES,
    "chi (不可以吃)",
    "incomplete winning hand",
    "定缺 suit held by a winner, or a bad 定缺",
    "win or pong on a passed kind (过胡 / 过碰)",
    "平胡 on a discard without 通行证",
    "报听 broken",
    "robbed kong not a 爬坡豆",
    "杠开 not on a replacement",
    "chicken flips",
    "dou kind",
    "chicken not held",
    "settlement item",
    "record deltas or sources",
)

INVARIANT_GRID = [
    {
        "player_count": players,
        "passport_kinds": passport,
        "chong_feng_mode": chong_feng,
        "wu_gu_ji": wu_gu,
        "bao_gang": bao_gang,
        "bao_ji": bao_ji,
        "qian_hou_fan_ji": front_back,
    }
    for players, passport, (chong_feng, wu_gu, bao_gang, bao_ji, front_back) in itertools.product(
        (4, 3, 2),
        ("any_kong", "scoring_kong", "kong_or_chicken", "none"),
        (("plain", False, True, True, False), ("4321", True, False, False, True)),
    )
]
"""Weng'an's invariant grid: players 2/3/4 x every 通行证 kind x two settings of the chicken
and 包 rules (冲锋鸡 plain, no 乌骨鸡, 包杠 and 包鸡 on, one flip; or 冲锋鸡 4321, 乌骨鸡, 包杠 and
包鸡 off, 前后翻鸡's two flips): 24 cells, run at 10,000 hands a cell by the slow tests. Each
other option value is checked on its own by the variant contract test."""

EXCEPTIONS = FEATURE_PASSPORT | FEATURE_EARTHLY | FEATURE_HOT_CANNON | FEATURE_BAO_TING
EXCEPTIONS |= FEATURE_SHA_TING
"""What lets a 平胡 win on a discard (§wengan-passport): a 通行证, 地胡, 热炮, 报听 or 杀听."""
_GUO_HU_ANY_TILE = OPTION["guo_hu_scope"].code("any_tile")
ALL_SUITED = (1 << 27) - 1
N_SOURCES = len(POINT_SOURCES)
_ITEM_IDS = tuple(english for english, _ in SE.ITEM_KINDS)
SOURCE_ON_WIN = np.array(source_of_items(_ITEM_IDS, on_draw=False), np.int64)
SOURCE_ON_DRAW = np.array(source_of_items(_ITEM_IDS, on_draw=True), np.int64)
SOURCE_SLOTS = np.array([SLOT[source.slot] for source in POINT_SOURCES], np.int64)
"""Each item kind's point source after a win and after a 荒庄, each source's first record slot
(``record_slots.POINT_SOURCES``, the declaration ``hooks.fill_record`` also follows)."""

# Weng'an's books beside the ledger's: one int64 array, with these slots
F_BAO_TING = 0  # + seat: 1 once declared
F_FROZEN = 4  # + seat: 1 once the seat discarded after its 报听 (its hand is frozen)
F_QUE = 8  # + seat: the 定缺 suit named + 1, 0 none
F_DELTA = 12  # + seat: the items' sum
F_N_FLIPS = 16
F_FLIP = 17  # + j: the flips (head, tail)
F_REPLACEMENT = 19  # 1 when the last draw was a kong's replacement
F_PASSED = 20  # + seat: kinds passed for a win since the hand last changed (过胡)
F_PASSED_PONG = 24  # + seat: kinds passed for a pong (过碰)
F_DISCARDED = 28  # + seat: discards made
F_DOU = 32  # + dou kind (settle.DOU_*): EVENT_DOU told
F_SOURCE = 40  # + 4 x source + seat: the items' net points per record source
N_FACTS = F_SOURCE + 4 * N_SOURCES


@inline_kernel
def _complete(books, seat, tile, tables):
    """Whether ``seat``'s hand (plus ``tile`` when >= 0) is complete in Weng'an's forms."""
    key_m = np.int64(0)
    key_p = np.int64(0)
    key_s = np.int64(0)
    for kind in range(27):
        count = books[L_HAND + seat, kind] + (1 if kind == tile else 0)
        key = count * KIND_POWER[kind]
        suit = KIND_SUIT[kind]
        key_m += key if suit == 0 else 0
        key_p += key if suit == 1 else 0
        key_s += key if suit == 2 else 0
    return is_complete(key_m, key_p, key_s, np.int64(0), np.int64(0), WIN_FORMS, tables)


@inline_kernel
def _answered(log, index, n_events, tile):
    """Bits of the seats that answer the discard at ``index`` (pass or win on it): the events
    after it, up to the first that is no answer."""
    mask = np.int64(0)
    for j in range(index + 1, n_events):
        event = log[j, 0]
        passed = event == EVENT_PASS_WIN and log[j, 2] == tile
        if passed or (event == EVENT_WIN and log[j, 3] == HOW_DISCARD):
            mask |= np.int64(1) << log[j, 1]
        elif event != EVENT_PASS_CLAIM and event != EVENT_PASS_WIN:
            break
    return mask


@inline_kernel
def _declare(books, facts, seat, tile, detail, params):
    """报听 once, before the seat's first discard; 定缺 where in force (2 or 3 players, declare
    mode), at the deal, once per seat, naming a suit by its first kind."""
    if detail == DECLARE_BAO_TING:
        if facts[F_BAO_TING + seat] != 0 or facts[F_DISCARDED + seat] != 0:
            return ERR_BAO_TING
        facts[F_BAO_TING + seat] = 1
        return OK
    if detail != DECLARE_QUE:
        return L.ERR_EVENT
    in_force = params[P_PLAYERS] != 4 and params[P_DING_QUE] != 0
    if not in_force or params[P_DING_QUE_MODE] != DING_QUE_DECLARE:
        return ERR_QUE
    if facts[F_QUE + seat] != 0 or (tile != 0 and tile != 9 and tile != 18):
        return ERR_QUE
    facts[F_QUE + seat] = tile // 9 + 1
    return OK


@inline_kernel
def _before(books, facts, log, index, n_events, params, tables):
    """Weng'an's checks of an event before the ledger books it."""
    event, seat, tile, detail = log[index, 0], log[index, 1], log[index, 2], log[index, 3]
    if event == EVENT_CHI:
        return ERR_CHI
    if event == EVENT_DECLARE:
        return _declare(books, facts, seat, tile, detail, params)
    frozen = event >= EVENT_DRAW and seat >= 0 and seat < 4 and facts[F_BAO_TING + seat] != 0
    if event == EVENT_DISCARD and frozen:
        if facts[F_FROZEN + seat] != 0 and tile != books[SEATS + seat, S_DRAWN]:
            return ERR_BAO_TING
        facts[F_FROZEN + seat] = 1
    if (event == EVENT_PONG or event == EVENT_KONG) and frozen:
        return ERR_BAO_TING
    if event == EVENT_PONG and (facts[F_PASSED_PONG + seat] >> tile) & 1:
        return ERR_PASSED
    first_robber = event == EVENT_ROBBED and books[SCALARS, L.B_ROB_KIND] < 0
    if first_robber and (books[SCALARS, B_HOLDER] != detail or L.pong_of(books, detail, tile) < 0):
        return ERR_ROB_KIND
    if event == EVENT_WIN:
        claimed = detail == HOW_DISCARD or detail == HOW_ROB_KONG
        if not _complete(books, seat, tile if claimed else np.int64(-1), tables):
            return ERR_INCOMPLETE
        if detail == HOW_DISCARD and (facts[F_PASSED + seat] >> tile) & 1:
            return ERR_PASSED
    if event == EVENT_INDICATOR:
        return _flip(books, facts, tile, detail, params)
    return OK


@inline_kernel
def _flip(books, facts, tile, detail, params):
    """翻牌鸡: only after a win, the head first, the tail second (前后翻鸡)."""
    n = facts[F_N_FLIPS]
    if books[SCALARS, B_N_WINNERS] == 0 or n >= 2:
        return ERR_FLIP
    if (detail == FLIP_TAIL) != (n == 1) or (n == 1 and params[P_QIAN_HOU_FAN_JI] == 0):
        return ERR_FLIP
    facts[F_FLIP + n] = tile
    facts[F_N_FLIPS] = n + 1
    return OK


@inline_kernel
def _after(books, facts, event, seat, tile, detail, params):
    """Weng'an's books once the ledger booked an event of the engine's."""
    if event == EVENT_DRAW:
        facts[F_PASSED + seat] = 0
        facts[F_PASSED_PONG + seat] = 0
        facts[F_REPLACEMENT] = 1 if detail == DRAW_REPLACEMENT else 0
    elif event == EVENT_DISCARD:
        facts[F_DISCARDED + seat] += 1
        facts[F_REPLACEMENT] = 0
    elif event == EVENT_PONG or event == EVENT_KONG:
        facts[F_PASSED + seat] = 0
        facts[F_PASSED_PONG + seat] = 0
    elif event == EVENT_PASS_WIN and params[P_GUO_HU_LIMIT] != 0:
        every = params[P_GUO_HU_SCOPE] == _GUO_HU_ANY_TILE
        facts[F_PASSED + seat] |= ALL_SUITED if every else np.int64(1) << tile
    elif event == EVENT_PASS_CLAIM and params[P_GUO_PENG_LIMIT] != 0:
        facts[F_PASSED_PONG + seat] |= np.int64(1) << tile
    return OK


@inline_kernel
def _meld_type(books, seat, kind):
    """The type of ``seat``'s meld of ``kind`` in the books, -1 none."""
    for m in range(books[SEATS + seat, S_N_MELDS]):
        if books[MELDS + seat, 3 * m + M_FIRST] == kind:
            return books[MELDS + seat, 3 * m + M_TYPE]
    return -1


@inline_kernel
def _dou(books, facts, seat, kind, dou):
    """A kong's dou kind at the settlement (§wengan-kongs): 闷豆 a concealed kong, 爬坡豆 an added
    one, 点豆 one on a discard; 憨包豆 a concealed or added kong made late."""
    meld = _meld_type(books, seat, kind)
    if meld == MELD_CONCEALED_KONG:
        fits = dou == SE.DOU_MEN or dou == SE.DOU_HAN_BAO
    elif meld == MELD_ADDED_KONG:
        fits = dou == SE.DOU_PA_PO or dou == SE.DOU_HAN_BAO
    elif meld == MELD_DISCARD_KONG:
        fits = dou == SE.DOU_DIAN or dou == SE.DOU_HAN_BAO
    else:
        fits = False
    if not fits:
        return ERR_DOU
    facts[F_DOU + dou] += 1
    return OK


@inline_kernel
def _chicken(books, seat, kind, detail):
    """A scoring chicken: a positive value, held where it says (hand, melds, discards)."""
    value, where = detail % 256, detail // 256
    if value <= 0 or kind < 0 or kind >= 27:
        return ERR_CHICKEN
    if where == SE.WHERE_HAND:
        # a winner's tile won on another seat's discard or kong is held apart (L_CLAIMED)
        won_on = L.is_winner(books, seat) and kind == books[SCALARS, L.B_WIN_TILE]
        return OK if books[L_HAND + seat, kind] > 0 or won_on else ERR_CHICKEN
    if where == SE.WHERE_MELD:
        return OK if _meld_type(books, seat, kind) >= 0 else ERR_CHICKEN
    if where == SE.WHERE_DISCARD:
        return OK if books[L.L_DISCARD + seat, kind] > 0 else ERR_CHICKEN
    return ERR_CHICKEN


@inline_kernel
def _item(books, facts, kind, payer, payee, amount, params):
    """A settlement item: between two seats, a positive amount, of a kind the end allows."""
    n_players = books[SCALARS, B_N_PLAYERS]
    if payer < 0 or payer >= n_players or payee < 0 or payee >= n_players or payer == payee:
        return ERR_ITEM
    if amount <= 0:
        return ERR_ITEM
    draw_game = books[SCALARS, B_EXHAUSTED] != 0
    on_win = kind == SE.ITEM_PATTERN or kind == SE.ITEM_HOT_CANNON or kind == SE.ITEM_SHA_TING
    if (draw_game and on_win) or (not draw_game and kind == SE.ITEM_CHA_JIAO):
        return ERR_ITEM
    if kind == SE.ITEM_YUAN_QUE and params[P_PLAYERS] == 4:
        return ERR_ITEM
    facts[F_DELTA + payer] -= amount
    facts[F_DELTA + payee] += amount
    source = SOURCE_ON_DRAW[kind] if draw_game else SOURCE_ON_WIN[kind]
    if source >= 0:
        facts[F_SOURCE + 4 * source + payer] -= amount
        facts[F_SOURCE + 4 * source + payee] += amount
    return OK


@inline_kernel
def _variant_event(books, facts, event, seat, tile, detail, params):
    """Weng'an's own events (chickens, dou, settlement items) and 杠开."""
    if event == EVENT_WIN:
        if detail != HOW_KONG_BLOOM or seat != books[SCALARS, B_HOLDER]:
            return L.ERR_WIN
        if facts[F_REPLACEMENT] == 0 or tile != books[SEATS + seat, S_DRAWN]:
            return ERR_BLOOM
        return L.add_winner(books, seat, tile, np.int64(HOW_KONG_BLOOM), np.int64(-1))
    if books[SCALARS, B_ENDED] == 0:
        return L.ERR_EVENT  # the settlement's events come after the end
    if seat < 0 or seat >= books[SCALARS, B_N_PLAYERS]:
        return L.ERR_EVENT
    if event == EVENT_CHICKEN:
        return _chicken(books, seat, tile, detail)
    if event == EVENT_DOU:
        return _dou(books, facts, seat, tile, detail)
    if EVENT_ITEM <= event < EVENT_ITEM + len(SE.ITEM_KINDS):
        return _item(books, facts, event - EVENT_ITEM, seat, tile, detail, params)
    return L.ERR_EVENT


# ------------------------------------------------------------------------------ the end


@inline_kernel
def _end_wins(books, facts, params, record):
    """Each winner: no tile of its 定缺 suit (record), and a 平胡 on a discard only with a
    通行证 or an exception (§wengan-passport)."""
    how = books[SCALARS, B_HOW]
    for w in range(books[SCALARS, B_N_WINNERS]):
        seat = books[SCALARS, B_WINNER + w]
        que = record[RW_QUE_SUIT + seat]
        if que >= 0:
            held = 0
            for kind in range(9 * que, 9 * que + 9):
                held += books[L_HAND + seat, kind]
            if held > 0 or books[SCALARS, L.B_WIN_TILE] // 9 == que:
                return ERR_QUE
            for m in range(books[SEATS + seat, S_N_MELDS]):
                if books[MELDS + seat, 3 * m + M_FIRST] // 9 == que:
                    return ERR_QUE
        features = record[R_FEATURES + w]
        needs = params[P_PING_HU_RON_NEEDS_PASSPORT] != 0 and how == HOW_DISCARD
        if needs and (features & FEATURE_PATTERN) == PING_HU and (features & EXCEPTIONS) == 0:
            return ERR_PASSPORT
    return OK


@inline_kernel
def _end_flips_and_kongs(books, facts, params, record):
    """The flips: as many as ``flip_count`` gives for the wall at the win (none on a 荒庄), as
    the record says; every kong's dou told once, the record's counts by dou kind the log's."""
    expected = 0
    if books[SCALARS, B_N_WINNERS] > 0:
        expected = flip_count(books[SCALARS, B_LEFT_AT_WIN], params)
    if facts[F_N_FLIPS] != expected:
        return ERR_FLIP
    for j in range(2):
        flipped = facts[F_FLIP + j] if j < facts[F_N_FLIPS] else -1
        if record[RW_FLIP + j] != flipped:
            return ERR_FLIP
    kongs = 0
    for s in range(books[SCALARS, B_N_PLAYERS]):
        for m in range(books[SEATS + s, S_N_MELDS]):
            kongs += books[MELDS + s, 3 * m + M_TYPE] != MELD_PONG
    told = 0
    for dou in range(1, 5):
        told += facts[F_DOU + dou]
        if record[RW_KONGS + dou - 1] != facts[F_DOU + dou]:
            return ERR_DOU
    return OK if told == kongs else ERR_DOU


@inline_kernel
def _end_record(books, facts, record):
    """The score changes are the items' sums; each source's net points are the items' and
    zero-sum, and a seat's sources sum to its score change (every item has its source); the
    报听 bits are the log's."""
    n_players = books[SCALARS, B_N_PLAYERS]
    bao_ting = 0
    for s in range(n_players):
        if record[R_DELTA + s] != facts[F_DELTA + s]:
            return ERR_DELTA
        bao_ting |= facts[F_BAO_TING + s] << s
    if record[RW_BAO_TING] != bao_ting:
        return L.ERR_RECORD
    for source in range(N_SOURCES):
        total = 0
        for s in range(n_players):
            net = record[SOURCE_SLOTS[source] + s]
            total += net
            if net != facts[F_SOURCE + 4 * source + s]:
                return ERR_DELTA
        if total != 0:
            return L.ERR_ZERO_SUM
    for s in range(n_players):
        summed = 0
        for source in range(N_SOURCES):
            summed += record[SOURCE_SLOTS[source] + s]
        if summed != record[R_DELTA + s]:
            return ERR_DELTA
    return OK


@kernel
def check_end(books, facts, state, params, record):
    """After the last event: the ledger's end checks (``ledger.finish``), then Weng'an's."""
    code = L.finish(books, state, record)
    if code == OK:
        code = _end_wins(books, facts, params, record)
    if code == OK:
        code = _end_flips_and_kongs(books, facts, params, record)
    if code == OK:
        code = _end_record(books, facts, record)
    return code


@kernel
def check_hand(state, log, n_events, wall, n_players, dealer, params, tables, record):
    """Check one played hand: ``log[:n_events]`` its events, ``state`` the engine's arrays after
    it, ``record`` its record row. Returns ``(code, event index)``: ``(OK, n_events)`` when every
    check passes; the index is ``n_events`` for a failure found at the end. The steps are
    written out here (as Anhua's): each inlined level passing ``tables`` on costs references."""
    if not L.log_complete(log, n_events):
        return L.ERR_LOG_FULL, n_events
    books = L.new_books(wall, n_players, dealer)
    facts = np.zeros(N_FACTS, np.int64)
    several = 4 if params[P_MULTI_RON] != 0 else 1  # may win on one discard (一炮多响)
    for index in range(n_events):
        event, seat, tile, detail = log[index, 0], log[index, 1], log[index, 2], log[index, 3]
        code = L.begin_event(books, event, seat)
        if code == OK:
            code = _before(books, facts, log, index, n_events, params, tables)
        if code == OK:
            code = L.ledger_step(books, event, seat, tile, detail)
        if code == VARIANT_EVENT:
            code = _variant_event(books, facts, event, seat, tile, detail, params)
        elif code == OK:
            code = _after(books, facts, event, seat, tile, detail, params)
        if code == OK and event == EVENT_DISCARD:
            mask = _answered(log, index, n_events, tile)
            for other in range(n_players):
                if (mask >> other) & 1 and not _complete(books, other, tile, tables):
                    code = ERR_INCOMPLETE
            L.open_offer(books, mask, several)
        if code == OK:
            code = L.end_event(books, event, seat)
        if code != OK:
            return code, index
    return check_end(books, facts, state, params, record), n_events


@kernel
def check_wengan_hands(
    state, walls, n_players, first_dealers, hands_per_session, params, tables, records, errors,
    failure_log, failure_info,
):  # fmt: skip
    """Play one hand per wall as ``engine.play_hands`` does (sessions, the dealer and his 连庄
    count carried from hand to hand) with the event log of ``state`` on, and check each with
    ``check_hand``. Fills ``records`` and ``errors`` int64 (n, 2) (code, event index); the
    events of the first hand that fails go to ``failure_log`` and its index and event count to
    ``failure_info`` (-1 when every hand passes). Returns the number of hands that failed."""
    dealer = 0
    streak = 0
    failed = 0
    failure_info[:] = -1
    for index in range(walls.shape[0]):
        if index % hands_per_session == 0:
            dealer = first_dealers[index // hands_per_session]
            streak = 0
        next_dealer = play_hand(
            state, walls[index], n_players, dealer, streak, params, tables, records[index]
        )
        code, at = check_hand(
            state, state.log, state.scalars[LOG_COUNT], walls[index], n_players, dealer,
            params, tables, records[index],
        )  # fmt: skip
        errors[index, 0] = code
        errors[index, 1] = at
        if code != OK:
            if failed == 0:
                failure_log[:] = state.log
                failure_info[0] = index
                failure_info[1] = state.scalars[LOG_COUNT]
            failed += 1
        streak = records[index, RW_NEXT_STREAK]
        dealer = next_dealer
    return failed


# ------------------------------------------------------------------------------ Python face


CHECKS = session.GameChecks(check_wengan_hands, N_WENGAN_RECORD, ERROR_NAMES)
check_games = CHECKS.check_games
