"""Anqing's rule checks of played hands (numba), over the generic tile ledger.

``check_hand`` replays one hand's event log on the ledger's books (``sim.kernels.ledger``: every
tile accounted for after every event, hand sizes, moves legal in shape, claim order, the final state
and the record) and checks Anqing's own rules (§anqing-rules, docs/rules/anqing.md) beside it: the
钻 is the flipped tile's successor (§anqing-zuan); no win on a discard and no robbing (只能自摸胡牌,
§anqing-self-draw-only); 杠开 only on a replacement; every win legal under the 钻 conditions (the
winner's hand, D, the kong chain and his single-tile kongs as the log shows them, scored again by
``scoring.best_score``: §anqing-zuan-conditions); no class-1 win while holding an un-konged 杠牌
(the winning form must then be 十三烂, §anqing-gang-tile-kong); no 钻 in a chi, pong or kong and no
claim of a 钻 or a 杠牌 (钻不可以吃碰, §anqing-zuan-kong-needs-zhi-jiao); a chi only by the
discarder's next player (§anqing-claims); a 杠牌 never discarded unless ``gang_tile_discardable``; a
single-tile kong only of a 杠牌 or of a 钻, and of a 钻 only when the rest is ready, with a 跑风
wait under ``zhi_jiao_requires = pao_feng_wait`` (直叫, §anqing-zuan-kong-needs-zhi-jiao); the
settlement: the items sum to the winner's S, every payment is one seat paying the winner, each 包
factor and amount is derived again from the books (S, the melds and whose discards they took, the
dealer, the 连庄 count: §anqing-payments), the score changes are the payments' (so zero-sum).

``check_anqing_hands`` plays hands like ``engine.play_hands`` with the log on and checks each;
``check_games`` is its Python face, the one the variant contract test
(``tests/test_variant_contract.py``) calls for every variant.

Rules: docs/rules/anqing.md (安庆麻将).
"""

from __future__ import annotations

import itertools

import numpy as np

from ...kernels import ledger as L
from ...kernels._jit import inline_kernel, kernel
from ...kernels.hand import decompositions
from ...kernels.ledger import (
    B_DEALER,
    B_ENDED,
    B_HOLDER,
    B_INDICATOR,
    B_LAST_SEAT,
    B_N_PLAYERS,
    B_N_WINNERS,
    B_WINNER,
    FIRST_VARIANT_ERROR,
    L_HAND,
    M_FIRST,
    M_FROM,
    M_TYPE,
    MELDS,
    OK,
    S_DRAWN,
    S_N_MELDS,
    SCALARS,
    SEATS,
    VARIANT_EVENT,
)
from ...kernels.moves import HOW_KONG_BLOOM, HOW_SELF_DRAW
from ...kernels.record import R_DELTA, R_POINTS
from ...kernels.state import (
    DRAW_HEAD,
    DRAW_REPLACEMENT,
    EVENT_CHI,
    EVENT_DISCARD,
    EVENT_DRAW,
    EVENT_KONG,
    EVENT_PAY,
    EVENT_PONG,
    EVENT_ROBBED,
    EVENT_WILD,
    EVENT_WIN,
    LOG_COUNT,
    MAX_SEATS,
    MELD_CHI,
    MELD_PONG,
    MELD_SINGLE_KONG,
    stand_in_code,
)
from .. import session
from ..session import LOG_CAPACITY, CheckedGames  # noqa: F401 (check_games' result, log size)
from . import scoring
from .engine import play_hand
from .hooks import EVENT_BAO, EVENT_ITEM, gang_kinds
from .options import (
    P_GANG_TILE_DISCARDABLE,
    P_SEVEN_PAIRS_ALLOW_QUAD,
    P_ZHI_JIAO_REQUIRES,
    ZHI_JIAO_PAO_FENG_WAIT,
)
from .record_slots import N_ANQING_RECORD, RA_FORM, RA_NEXT_STREAK, RA_STREAK

ERR_ZUAN_KIND = FIRST_VARIANT_ERROR  # the 钻 told is not the flipped tile's successor
ERR_DISCARD_WIN = FIRST_VARIANT_ERROR + 1  # a win on a discard or a robbed kong (只能自摸)
ERR_BLOOM = FIRST_VARIANT_ERROR + 2  # 杠开 not on a replacement draw
ERR_ZUAN_CONDITIONS = FIRST_VARIANT_ERROR + 3  # a win no legal reading allows (钻 conditions)
ERR_GANG_HELD = FIRST_VARIANT_ERROR + 4  # a class-1 win while holding an un-konged 杠牌
ERR_CLAIM = FIRST_VARIANT_ERROR + 5  # a 钻 or 杠牌 claimed or melded, or a chi out of turn
ERR_GANG_DISCARD = FIRST_VARIANT_ERROR + 6  # a 杠牌 discarded (gang_tile_discardable off)
ERR_SINGLE_KONG = FIRST_VARIANT_ERROR + 7  # a single kong of another tile, or 直叫 not ready
ERR_SETTLEMENT = FIRST_VARIANT_ERROR + 8  # items not summing to S, a bad payment or delta

ERROR_NAMES = (
    *L.ERROR_NAMES,
    "钻 not the flip's successor",
    "win on a discard or a robbed kong (只能自摸)",
    "杠开 not on a replacement",
    "win breaking the 钻 conditions",
    "class-1 win holding an un-konged 杠牌",
    "钻 or 杠牌 claimed or melded, or chi out of turn",
    "杠牌 discarded",
    "single-tile kong of another tile, or 直叫 not ready",
    "settlement",
)

INVARIANT_GRID = [
    {
        "jian_zi_hu_definition": jian_zi_hu,
        "pao_feng_definition": pao_feng,
        "zhi_jiao_requires": zhi_jiao,
        "gang_tile_discardable": discardable,
        "lian_zhuang_cumulative": cumulative,
    }
    for jian_zi_hu, pao_feng, (zhi_jiao, discardable, cumulative) in itertools.product(
        ("suited_natural", "zuan_diao"),
        ("decomposition", "unique_wait"),
        (("ready", False, False), ("pao_feng_wait", True, True)),
    )
]
"""Anqing's invariant grid: both 见字胡 readings x both 跑风 definitions x two settings of
直叫, the 杠牌 discard and 累加: 8 cells, run at 10,000 hands a cell by the slow test. Each
other option value is checked on its own by the variant contract test."""

# Anqing's books beside the ledger's: one int64 array, with these slots
F_ZUAN = 0  # the 钻 kind told (EVENT_WILD), -1 before
F_REPLACEMENT = 1  # 1 when the last draw was a kong's replacement
F_MELDED = 2  # 1 once anyone made a chi, pong or 4-tile kong
F_DISCARDED_ZUAN = 4  # + seat: D
F_GANG_KONGS = 8  # + seat
F_ZUAN_KONGS = 12  # + seat
F_CHAIN = 16  # + seat: kongs in a row this turn
F_FIRST_TURN = 20  # + seat: 1 until the seat's first discard, chi, pong or 4-tile kong
F_DELTA = 24  # + seat: the payments' sums
F_ITEMS = 28  # the items' sum
F_FORM = 29  # the legal win's best form, recomputed at the win
F_STREAK = 30  # the dealer's 连庄 count k the hand was dealt with
F_DERIVED = 31  # 1 once the payments were derived from the books (at the first 包 event)
F_AMOUNT = 32  # + seat: each payer's amount, derived (§anqing-payments)
F_FACTOR = 36  # + seat: each payer's 包 factor, derived (§anqing-bao)
N_FACTS = 40


@inline_kernel
def _hand_of(books, seat, hand):
    for kind in range(scoring.N_KINDS):
        hand[kind] = books[L_HAND + seat, kind]


@kernel
def _melds_of(books, seat, melds):
    n = books[SEATS + seat, S_N_MELDS]
    for m in range(n):
        melds[m, 0] = books[MELDS + seat, 3 * m + M_TYPE]
        melds[m, 1] = books[MELDS + seat, 3 * m + M_FIRST]
        melds[m, 2] = books[MELDS + seat, 3 * m + M_FROM]
    return n


@kernel
def _win_legal(books, facts, seat, tile, how, wall, params):
    """The win's best legal reading as the log shows the hand (§anqing-winning,
    §anqing-score-table): its form, or -1."""
    zuan = facts[F_ZUAN]
    hand = np.zeros(scoring.N_KINDS, np.int64)
    _hand_of(books, seat, hand)
    if tile < 0:
        tile = np.int64(wall[13 * books[SCALARS, B_N_PLAYERS]])
    melds = np.zeros((4, 3), np.int64)
    n_melds = _melds_of(books, seat, melds)
    chain = facts[F_CHAIN + seat] if how == HOW_KONG_BLOOM else 0
    heavenly = facts[F_FIRST_TURN + seat] != 0 and facts[F_MELDED] == 0
    items = np.zeros(scoring.N_ITEM_SLOTS, np.int64)
    total = scoring.best_score(
        hand, zuan, tile, melds, n_melds, facts[F_GANG_KONGS + seat], facts[F_ZUAN_KONGS + seat],
        facts[F_DISCARDED_ZUAN + seat], chain, np.int64(heavenly), params, items,
    )  # fmt: skip
    if total == scoring.NO_LEGAL_WIN:
        return np.int64(-1)
    return items[scoring.S_FORM]


@kernel
def _zhi_jiao_allowed(books, facts, seat, params, tables):
    """直叫 (§anqing-zuan-kong-needs-zhi-jiao): the seat's 13 tiles left after konging a 钻 are
    ready in shape (``_ready_in_shape``), and with ``zhi_jiao_requires = pao_feng_wait`` some
    natural kind drawn next (the replacement, so 杠开) wins with 跑风 in its best reading; never a
    fifth copy of a kind held four of. Written from the books, apart from the hooks' readiness
    test."""
    zuan = facts[F_ZUAN]
    hand = np.zeros(scoring.N_KINDS, np.int64)
    _hand_of(books, seat, hand)
    if hand[zuan] == 0:
        return False
    hand[zuan] -= 1
    melds = np.zeros((4, 3), np.int64)
    n_melds = _melds_of(books, seat, melds)
    held = hand.copy()
    for m in range(n_melds):
        first = melds[m, 1]
        if melds[m, 0] == MELD_CHI:
            for member in range(first, first + 3):
                # a chi through the 钻's face holds a 红中 for it (§anqing-red-dragon)
                held[scoring.RED if member == zuan else member] += 1
        else:
            held[first] += 3 if melds[m, 0] == MELD_PONG else 4
    if not _ready_in_shape(hand, zuan, held, params):
        return False
    if params[P_ZHI_JIAO_REQUIRES] != ZHI_JIAO_PAO_FENG_WAIT:
        return True
    items = np.zeros(scoring.N_ITEM_SLOTS, np.int64)
    for kind in range(scoring.N_KINDS):
        if kind == zuan or held[kind] >= 4:
            continue
        hand[kind] += 1
        total = scoring.best_score(
            hand, zuan, np.int64(kind), melds, n_melds, facts[F_GANG_KONGS + seat],
            facts[F_ZUAN_KONGS + seat] + 1, facts[F_DISCARDED_ZUAN + seat], np.int64(1),
            np.int64(0), params, items,
        )  # fmt: skip
        hand[kind] -= 1
        if total != scoring.NO_LEGAL_WIN and (items[scoring.S_BITS] >> scoring.I_PAO_FENG) & 1:
            return True
    return False


@kernel
def _ready_in_shape(hand, zuan, held, params):
    """直叫's "ready" (§anqing-reading-scorer-details), derived by the scorer's own decompositions
    rather than the hooks' key tables: some physical kind other than the 钻, not one ``held``
    (concealed and melded) counts four of, completes the 13 tiles (``hand``, its 钻 as wilds) as a
    class-1 hand (``_class_one_shape``) or, with no meld, a 十三烂."""
    concealed = hand.sum() == 13  # no melds: a 十三烂 may be
    for kind in range(scoring.N_KINDS):
        if kind == zuan or held[kind] >= 4:
            continue
        hand[kind] += 1
        complete = _class_one_shape(hand, zuan, params)
        if not complete and concealed:
            points, _ = scoring._best_shisanlan(hand, zuan, False, params)
            complete = points >= 0
        hand[kind] -= 1
        if complete:
            return True
    return False


@kernel
def _class_one_shape(hand, zuan, params):
    """14 tiles as a class-1 hand in shape (§anqing-class-one): no 杠牌; the naturals at their
    class-1 identities (红中 as the 钻's face) and the 钻 as wilds make its sets and a pair, or (14
    concealed tiles) seven pairs: four of a kind as two pairs only with ``seven_pairs_allow_quad``;
    a pair of 钻 is a pair of a kind not otherwise held."""
    naturals = np.zeros(scoring.N_KINDS, np.int64)
    for kind in range(scoring.N_KINDS):
        if kind == zuan or hand[kind] == 0:
            continue
        if scoring.is_gang_tile(kind, zuan):
            return False
        naturals[scoring.class_one_kind(kind, zuan)] += hand[kind]
    wilds = np.int64(hand[zuan])
    scratch = np.empty((1, 5, 3), np.int8)
    if decompositions(naturals, wilds, False, scratch) > 0:
        return True
    quads = params[P_SEVEN_PAIRS_ALLOW_QUAD] != 0
    singles = 0
    size = wilds
    for kind in range(scoring.N_KINDS):
        count = naturals[kind]
        if count > 4 or (count >= 3 and not quads):
            return False
        singles += count % 2
        size += count
    return size == 14 and singles <= wilds


@inline_kernel
def _before(books, facts, event, seat, tile, detail, wall, params, tables):
    """Anqing's checks of an event before the ledger books it."""
    zuan = facts[F_ZUAN]
    first, second = gang_kinds(zuan)
    if event == EVENT_CHI:
        last = books[SCALARS, B_LAST_SEAT]
        if last < 0 or seat != (last + 1) % books[SCALARS, B_N_PLAYERS]:
            return ERR_CLAIM
        # a chi through the 钻's face holds a 红中 playing it (§anqing-red-dragon), never a 钻
        # (§anqing-zuan-kong-needs-zhi-jiao)
        code = detail // MAX_SEATS
        through_face = tile <= zuan <= tile + 2
        if code != 0 and (
            zuan >= scoring.RED
            or not through_face
            or code != stand_in_code(zuan - tile, np.int64(scoring.RED))
        ):
            return ERR_CLAIM
        if code == 0 and through_face:
            return ERR_CLAIM
    if event == EVENT_PONG and (tile == zuan or tile == first or tile == second):
        return ERR_CLAIM
    if event == EVENT_KONG:
        single = detail == MELD_SINGLE_KONG
        special = tile == zuan or tile == first or tile == second
        if single != special:
            return ERR_SINGLE_KONG if single else ERR_CLAIM
        zhi_jiao = single and tile == zuan
        if zhi_jiao and not _zhi_jiao_allowed(books, facts, seat, params, tables):
            return ERR_SINGLE_KONG
    discardable = params[P_GANG_TILE_DISCARDABLE] != 0
    if event == EVENT_DISCARD and (tile == first or tile == second) and not discardable:
        others = 0
        for kind in range(scoring.N_KINDS):
            if kind != first and kind != second:
                others += books[L_HAND + seat, kind]
        if others > 0:  # only a hand of nothing but 杠牌 may let one go
            return ERR_GANG_DISCARD
    if event == EVENT_ROBBED:
        return ERR_DISCARD_WIN
    if event == EVENT_WIN:
        if detail != HOW_SELF_DRAW and detail != HOW_KONG_BLOOM:
            return ERR_DISCARD_WIN
        form = _win_legal(books, facts, seat, tile, detail, wall, params)
        held = books[L_HAND + seat, first] + books[L_HAND + seat, second]
        if held > 0 and form != scoring.FORM_SHISANLAN:
            return ERR_GANG_HELD
        if form < 0:
            return ERR_ZUAN_CONDITIONS
        facts[F_FORM] = form
    return OK


@inline_kernel
def _after(books, facts, event, seat, tile, detail):
    """Anqing's books once the ledger booked an event of the engine's."""
    if event == EVENT_DRAW:
        facts[F_REPLACEMENT] = 1 if detail == DRAW_REPLACEMENT else 0
        if detail == DRAW_HEAD:
            facts[F_CHAIN + seat] = 0
    elif event == EVENT_DISCARD:
        facts[F_REPLACEMENT] = 0
        facts[F_CHAIN + seat] = 0
        facts[F_FIRST_TURN + seat] = 0
        if tile == facts[F_ZUAN]:
            facts[F_DISCARDED_ZUAN + seat] = 1
    elif event == EVENT_CHI or event == EVENT_PONG:
        facts[F_FIRST_TURN + seat] = 0
        facts[F_MELDED] = 1
    elif event == EVENT_KONG:
        facts[F_CHAIN + seat] += 1
        if detail == MELD_SINGLE_KONG:
            if tile == facts[F_ZUAN]:
                facts[F_ZUAN_KONGS + seat] += 1
            else:
                facts[F_GANG_KONGS + seat] += 1
        else:
            facts[F_FIRST_TURN + seat] = 0
            facts[F_MELDED] = 1
    return OK


@inline_kernel
def _variant_event(books, facts, event, seat, tile, detail, params):
    """Anqing's own events (the 钻, the items, the 包 factors, the payments: each derived again
    from the books, ``_derive_payments``) and 杠开."""
    if event == EVENT_WILD:
        if facts[F_ZUAN] >= 0 or tile != scoring.zuan_of(books[SCALARS, B_INDICATOR]):
            return ERR_ZUAN_KIND
        facts[F_ZUAN] = tile
        return OK
    if event == EVENT_WIN:
        if detail != HOW_KONG_BLOOM or seat != books[SCALARS, B_HOLDER]:
            return L.ERR_WIN
        if facts[F_REPLACEMENT] == 0 or tile != books[SEATS + seat, S_DRAWN]:
            return ERR_BLOOM
        return L.add_winner(books, seat, tile, np.int64(HOW_KONG_BLOOM), np.int64(-1))
    if books[SCALARS, B_ENDED] == 0 or books[SCALARS, B_N_WINNERS] == 0:
        return L.ERR_EVENT  # the settlement's events come after a win
    winner = books[SCALARS, B_WINNER]
    if event == EVENT_ITEM:
        if seat != winner or tile < 0 or tile >= scoring.N_ITEMS:
            return ERR_SETTLEMENT
        facts[F_ITEMS] += detail
        return OK
    if event == EVENT_BAO or event == EVENT_PAY:
        if tile != winner or seat == winner or seat < 0 or seat >= 4 or detail < 0:
            return ERR_SETTLEMENT
        if facts[F_DERIVED] == 0:
            _derive_payments(books, facts, winner, params)
        if event == EVENT_BAO and detail != facts[F_FACTOR + seat]:
            return ERR_SETTLEMENT
        if event == EVENT_PAY:
            if detail != facts[F_AMOUNT + seat]:
                return ERR_SETTLEMENT
            facts[F_DELTA + seat] -= detail
            facts[F_DELTA + winner] += detail
        return OK
    return L.ERR_EVENT


@kernel
def _derive_payments(books, facts, winner, params):
    """Each payer's 包 factor and amount (§anqing-payments) from the books: S the items logged so
    far (the items come first), the melds and whose discards they took as the ledger booked them,
    the dealer, and the 连庄 count the hand was dealt with."""
    melds = np.zeros((4, 4, 3), np.int64)
    n_melds = np.zeros(4, np.int64)
    for seat in range(books[SCALARS, B_N_PLAYERS]):
        n_melds[seat] = _melds_of(books, seat, melds[seat])
    amounts = np.zeros(4, np.int64)
    factors = np.zeros(4, np.int64)
    dealer = books[SCALARS, B_DEALER]
    scoring.payments(
        facts[F_ITEMS], winner, dealer, facts[F_STREAK], melds, n_melds, params, amounts, factors
    )
    for seat in range(4):
        facts[F_AMOUNT + seat] = amounts[seat]
        facts[F_FACTOR + seat] = factors[seat]
    facts[F_DERIVED] = 1


@kernel
def check_end(books, facts, state, params, record):
    """After the last event: the ledger's end checks (``ledger.finish``), then Anqing's: the
    winner holding a 杠牌 won a 十三烂; the items sum to S; the score changes are the
    payments'."""
    code = L.finish(books, state, record)
    if code != OK:
        return code
    zuan = facts[F_ZUAN]
    first, second = gang_kinds(zuan)
    if books[SCALARS, B_N_WINNERS] > 0:
        winner = books[SCALARS, B_WINNER]
        held = books[L_HAND + winner, first] + books[L_HAND + winner, second]
        if held > 0 and (record[RA_FORM] != scoring.FORM_SHISANLAN or facts[F_FORM] != 2):
            return ERR_GANG_HELD
        if facts[F_ITEMS] != record[R_POINTS]:
            return ERR_SETTLEMENT
    for seat in range(books[SCALARS, B_N_PLAYERS]):
        if record[R_DELTA + seat] != facts[F_DELTA + seat]:
            return ERR_SETTLEMENT
    return OK


@kernel
def check_hand(state, log, n_events, wall, n_players, dealer, params, tables, record):
    """Check one played hand: ``log[:n_events]`` its events, ``state`` the engine's arrays after
    it, ``record`` its record row. Returns ``(code, event index)``: ``(OK, n_events)`` when every
    check passes; the index is ``n_events`` for a failure found at the end."""
    if not L.log_complete(log, n_events):
        return L.ERR_LOG_FULL, n_events
    books = L.new_books(wall, n_players, dealer)
    facts = np.zeros(N_FACTS, np.int64)
    facts[F_ZUAN] = -1
    facts[F_STREAK] = record[RA_STREAK]  # an input of the hand (engine.play_hands), not a result
    for seat in range(4):
        facts[F_FIRST_TURN + seat] = 1
    for index in range(n_events):
        event, seat, tile, detail = log[index, 0], log[index, 1], log[index, 2], log[index, 3]
        code = L.begin_event(books, event, seat)
        if code == OK and event >= EVENT_DRAW and facts[F_ZUAN] < 0 and event != EVENT_WILD:
            code = ERR_ZUAN_KIND  # play before the 钻 was told
        if code == OK:
            code = _before(books, facts, event, seat, tile, detail, wall, params, tables)
        if code == OK:
            code = L.ledger_step(books, event, seat, tile, detail)
        if code == VARIANT_EVENT:
            code = _variant_event(books, facts, event, seat, tile, detail, params)
        elif code == OK:
            code = _after(books, facts, event, seat, tile, detail)
        if code == OK and event == EVENT_DISCARD:
            L.open_offer(books, np.int64(0), np.int64(0))
        if code == OK:
            code = L.end_event(books, event, seat)
        if code != OK:
            return code, index
    return check_end(books, facts, state, params, record), n_events


@kernel
def check_anqing_hands(
    state, walls, n_players, first_dealers, hands_per_session, params, tables, records, errors,
    failure_log, failure_info,
):  # fmt: skip
    """Play one hand per wall as ``engine.play_hands`` does (sessions, the dealer and his 连庄
    count carried from hand to hand; the 累加 carry, added after play, is not checked here)
    with the event log of ``state`` on, and check each with ``check_hand``. Fills ``records``
    and ``errors`` int64 (n, 2) (code, event index); the events of the first hand that fails go
    to ``failure_log`` and its index and event count to ``failure_info`` (-1 when every hand
    passes). Returns the number of hands that failed."""
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
        streak = records[index, RA_NEXT_STREAK]
        dealer = next_dealer
    return failed


# ------------------------------------------------------------------------------ Python face


CHECKS = session.GameChecks(check_anqing_hands, N_ANQING_RECORD, ERROR_NAMES)
check_games = CHECKS.check_games
