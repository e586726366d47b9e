"""Weng'an 贵州瓮安麻将: the settlement of a finished hand (numba kernel).

Rules: docs/rules/wengan.md (§wengan-rules), §wengan-settlement-order (the
settlement algorithm) with §wengan-mingtang and §wengan-ding-que; decisions in
`docs/rules/wengan.md`. The slow reference it is checked against is ``tests/reference/wengan.py``
(``settle``).

The hand's end is plain int64 arrays:

* ``hand`` (``N_HAND``,): the ``H_*`` slots: winners' common how / tile / source, dealer, 连庄
  streak, 热炮, tiles left in the wall and its first and last tile (the flips,
  §wengan-chicken-flip);
* ``seats`` (players, ``N_SEAT``): the ``S_*`` slots per seat (tiles shown, stated readiness,
  报听, 原缺, 定缺 suit, meld count, winner, 杠开, 天胡, 地胡);
* ``concealed`` (players, 27): concealed counts, a winner's *without* the winning tile;
* ``melds`` (players, 4, 4): rows (engine meld type, tile, from seat, ``DOU_*`` kind);
* ``discards`` (n, 3): (seat, tile, claimed by or -1) in order of the hand: every discard the
  chicken rules look at (冲锋鸡, 责任鸡, chickens lying in the discards).

Out: ``items`` (``MAX_ITEMS``, 4) rows (``ITEM_*`` kind, payer, payee, amount), in the
reference's order (win items, 查叫, chickens, dou, 原缺), and ``deltas`` (players,).
"""

from __future__ import annotations

import numpy as np

from ...kernels._jit import inline_kernel, kernel
from .options import (
    CHONG_FENG_NONE,
    CHONG_FENG_PLAIN,
    OPTION,
    P_BAO_GANG,
    P_BAO_JI,
    P_BAO_JI_SCOPE,
    P_BAO_REQUIRES_READY,
    P_BASE_STAKE,
    P_CHONG_FENG_MODE,
    P_CHONGFENG_ORDINAL_COUNTS_CLAIMED,
    P_DEALER_BONUS_MODE,
    P_DING_QUE,
    P_HUANG_ZHUANG_BURN,
    P_HUANG_ZHUANG_BURN_SCOPE,
    P_HUANG_ZHUANG_CHA_JIAO,
    P_HUANG_ZHUANG_NO_BAO,
    P_MAN_TANG_JI,
    P_MINGTANG_BONUS_MODE,
    P_PLAYERS,
    P_QIANG_GANG_SHAO_DOU,
    P_QIANG_GANG_SHAO_JI,
    P_RE_PAO_SHAO_DOU,
    P_RE_PAO_SHAO_JI,
    P_SHA_TING_PAYER,
    P_WU_GU_JI,
    P_YUAN_QUE_BONUS,
    P_ZE_REN_JI,
    P_ZE_REN_ON_KONG,
)
from .patterns import PING_HU
from .scoring import (
    EIGHT_P,
    N_SUITED,
    ONE_S,
    base_value,
    best_pattern,
    chicken_value,
    flip_count,
    flip_hits,
    is_fixed_chicken,
    is_ready,
    max_wait_points,
    meld_size,
    ordinal_value,
    pattern_points,
)

# ---------------------------------------------------------------------------------------------
# The encoding of a hand's end

ITEM_KINDS = (
    ("pattern", "牌型分"),
    ("dealer_bonus", "连庄 / 一口二"),
    ("hot_cannon", "热炮"),
    ("sha_ting", "杀听"),
    ("cha_jiao", "荒庄查叫"),
    ("chicken", "鸡分"),
    ("responsibility", "责任鸡"),
    ("bao_ji", "包鸡"),
    ("dou", "豆分"),
    ("bao_gang", "包杠"),
    ("yuan_que", "原缺"),
)
"""Every kind of payment, (English id, Chinese name); an item's kind code is its position."""
ITEM_CODE = {english: code for code, (english, _) in enumerate(ITEM_KINDS)}
ITEM_PATTERN = ITEM_CODE["pattern"]
ITEM_DEALER_BONUS = ITEM_CODE["dealer_bonus"]
ITEM_HOT_CANNON = ITEM_CODE["hot_cannon"]
ITEM_SHA_TING = ITEM_CODE["sha_ting"]
ITEM_CHA_JIAO = ITEM_CODE["cha_jiao"]
ITEM_CHICKEN = ITEM_CODE["chicken"]
ITEM_RESPONSIBILITY = ITEM_CODE["responsibility"]
ITEM_BAO_JI = ITEM_CODE["bao_ji"]
ITEM_DOU = ITEM_CODE["dou"]
ITEM_BAO_GANG = ITEM_CODE["bao_gang"]
ITEM_YUAN_QUE = ITEM_CODE["yuan_que"]
MAX_ITEMS = 2048
"""Rows the caller allocates for ``items`` (a hand's items stay far below)."""

DOU_KINDS = ("none", "men_dou", "pa_po_dou", "dian_dou", "han_bao_dou")
"""Meld column 3 (§wengan-kongs): none (a pong), 闷豆 concealed, 爬坡豆 added, 点豆 on a discard,
憨包豆 late (no dou, no 通行证 under ``scoring_kong``)."""
DOU_NONE, DOU_MEN, DOU_PA_PO, DOU_DIAN, DOU_HAN_BAO = range(len(DOU_KINDS))
DOU_POINTS = np.array([0, 2, 3, 1, 0], np.int64)
"""By dou kind: 闷豆 2 and 爬坡豆 3 from each other player, 点豆 1 from the discarder
(§wengan-kongs)."""

WIN_HOWS = ("self_draw", "discard", "rob_kong")
HOW_SELF_DRAW, HOW_DISCARD, HOW_ROB_KONG = range(len(WIN_HOWS))

HAND_SLOTS = (
    "n_wins",  # 0: 荒庄
    "how",  # WIN_HOWS code, shared by every winner
    "win_tile",
    "from_seat",  # the discarder or robbed konger, -1 on a self-draw
    "dealer",
    "streak",  # 连庄 n
    "hot_cannon",  # 热炮
    "tiles_left",
    "wall_head",  # the first undrawn tile (flip), -1 when none
    "wall_tail",  # the last undrawn tile (前后翻鸡), -1 when none
)
H_N_WINS, H_HOW, H_WIN_TILE, H_FROM, H_DEALER, H_STREAK, H_HOT_CANNON = range(7)
H_TILES_LEFT, H_WALL_HEAD, H_WALL_TAIL = range(7, 10)
N_HAND = len(HAND_SLOTS)

SEAT_SLOTS = (
    "shown",  # concealed tiles known (else no chicken tile there, readiness stated)
    "ready",  # the stated readiness when not shown
    "bao_ting",  # 报听
    "dealt_lacking",  # 原缺
    "que_suit",  # 定缺 named suit, -1 none
    "n_melds",
    "winner",
    "kong_bloom",  # 杠开
    "heavenly",  # 天胡
    "earthly",  # 地胡
)
S_SHOWN, S_READY, S_BAO_TING, S_DEALT_LACKING, S_QUE_SUIT, S_N_MELDS = range(6)
S_WINNER, S_KONG_BLOOM, S_HEAVENLY, S_EARTHLY = range(6, 10)
N_SEAT = len(SEAT_SLOTS)

_MINGTANG_BONUS_9_10 = OPTION["mingtang_bonus_mode"].code("bonus_9_10")
_DEALER_LIAN_ZHUANG = OPTION["dealer_bonus_mode"].code("lian_zhuang")
_DEALER_YI_KOU_ER = OPTION["dealer_bonus_mode"].code("yi_kou_er")
_SHA_TING_ALL = OPTION["sha_ting_payer"].code("all_payers")
_BAO_SCOPE_ALL_FIXED = OPTION["bao_ji_scope"].code("all_fixed")
_BAO_SCOPE_ALL = OPTION["bao_ji_scope"].code("all")
_BURN_SCOPE_ALL = OPTION["huang_zhuang_burn_scope"].code("all")
WHERE_HAND, WHERE_MELD, WHERE_DISCARD = range(3)


# ---------------------------------------------------------------------------------------------
# Items


@inline_kernel
def _add(items, n_items, kind, payer, payee, amount):
    """Append one item (amounts of 0 are no payment and are dropped, as in the reference)."""
    if amount == 0:
        return n_items
    items[n_items, 0] = kind
    items[n_items, 1] = payer
    items[n_items, 2] = payee
    items[n_items, 3] = amount
    return n_items + 1


# ---------------------------------------------------------------------------------------------
# Step 1: the win's payments (§wengan-mingtang, §wengan-hand-payments, §wengan-dealer-bonus)


@inline_kernel
def mingtang_value(code, params):
    """One 名堂 (天胡, 地胡, 抢杠, 报听, 杀听): "平胡9分 大胡10分" (§wengan-mingtang,
    §wengan-reading-mingtang-is-a-bonus, §wengan-reading-scorer-details)."""
    if code != PING_HU:
        return 10
    return 9 if params[P_MINGTANG_BONUS_MODE] == _MINGTANG_BONUS_9_10 else 8


@inline_kernel
def dealer_bonus(hand, payer, payee, params):
    """连庄 +n / 一口二 +1 on a pattern or 查叫 payment with the dealer in it
    (§wengan-dealer-bonus)."""
    dealer = hand[H_DEALER]
    if payer != dealer and payee != dealer:
        return 0
    mode = params[P_DEALER_BONUS_MODE]
    if mode == _DEALER_LIAN_ZHUANG:
        return hand[H_STREAK]
    return 1 if mode == _DEALER_YI_KOU_ER else 0


@kernel
def win_pattern(seat, hand, seats, concealed, melds, params, tables):
    """The winner's pattern code (§wengan-pattern-score; a 天胡 its best tile,
    §wengan-reading-scorer-details)."""
    counts = np.zeros(N_SUITED, np.int64)
    for kind in range(N_SUITED):
        counts[kind] = concealed[seat, kind]
    counts[hand[H_WIN_TILE]] += 1
    return best_pattern(
        counts,
        melds[seat],
        seats[seat, S_N_MELDS],
        hand[H_WIN_TILE],
        seats[seat, S_HEAVENLY] != 0,
        seats[seat, S_QUE_SUIT],
        params,
        tables,
    )


@inline_kernel
def hand_total(seat, code, hand, seats, params):
    """T = pattern + 名堂 (天胡, 地胡, 抢杠, 报听) + 杠开 3 (§wengan-hand-payments); 杀听 and 热炮
    are apart."""
    named = (
        (seats[seat, S_HEAVENLY] != 0)
        + (seats[seat, S_EARTHLY] != 0)
        + (hand[H_HOW] == HOW_ROB_KONG)
        + (seats[seat, S_BAO_TING] != 0)
    )
    bloom = 3 if seats[seat, S_KONG_BLOOM] != 0 else 0
    return pattern_points(code) + named * mingtang_value(code, params) + bloom


@kernel
def win_items(seat, hand, seats, concealed, melds, params, tables, items, n_items):
    """One winner's items (§wengan-hand-payments): self-draw, every other player pays T; a discard
    or a robbed kong, the discarder or robbed player pays T
    (§wengan-reading-robbed-player-pays-one-share); the dealer bonus on each; 热炮 1 from the
    discarder; 杀听 a 名堂 from a 报听 discarder, or on a self-draw from the 报听 players
    (``sha_ting_payer = all_payers``: every other player while one has declared)."""
    players = params[P_PLAYERS]
    code = win_pattern(seat, hand, seats, concealed, melds, params, tables)
    total = hand_total(seat, code, hand, seats, params)
    how = hand[H_HOW]
    for payer in range(players):
        if payer == seat or (how != HOW_SELF_DRAW and payer != hand[H_FROM]):
            continue
        n_items = _add(items, n_items, ITEM_PATTERN, payer, seat, total)
        bonus = dealer_bonus(hand, payer, seat, params)
        n_items = _add(items, n_items, ITEM_DEALER_BONUS, payer, seat, bonus)
    if how == HOW_DISCARD and hand[H_HOT_CANNON] != 0:
        n_items = _add(items, n_items, ITEM_HOT_CANNON, hand[H_FROM], seat, 1)
    value = mingtang_value(code, params)
    if how == HOW_DISCARD:
        if seats[hand[H_FROM], S_BAO_TING] != 0:
            n_items = _add(items, n_items, ITEM_SHA_TING, hand[H_FROM], seat, value)
    elif how == HOW_SELF_DRAW:
        declared = False
        for other in range(players):
            if other != seat and seats[other, S_BAO_TING] != 0:
                declared = True
        every = declared and params[P_SHA_TING_PAYER] == _SHA_TING_ALL
        for other in range(players):
            if other != seat and (every or seats[other, S_BAO_TING] != 0):
                n_items = _add(items, n_items, ITEM_SHA_TING, other, seat, value)
    return n_items


# ---------------------------------------------------------------------------------------------
# Who collects (§wengan-chicken-collection, §wengan-exhaustive-draw, §wengan-dou-settlement)


@kernel
def collecting_seats(hand, seats, concealed, melds, params, tables, out):
    """``out[s]`` = 1 for a winner or a ready player (叫): those collect chickens and dou."""
    for seat in range(params[P_PLAYERS]):
        if seats[seat, S_WINNER] != 0:
            out[seat] = 1
        elif seats[seat, S_SHOWN] == 0:
            out[seat] = 1 if seats[seat, S_READY] != 0 else 0
        else:
            ready = is_ready(
                concealed[seat],
                melds[seat],
                seats[seat, S_N_MELDS],
                seats[seat, S_QUE_SUIT],
                params,
                tables,
            )
            out[seat] = 1 if ready else 0


@inline_kernel
def burned(seat, hand, dou, params):
    """烧鸡 / 烧豆 (§wengan-dou-settlement): the robbed player (抢杠烧鸡 / 抢杠烧豆) and the 热炮
    discarder (热炮烧鸡 / 热炮烧豆) collect no chickens (``dou`` False) or no dou (True)."""
    if hand[H_N_WINS] == 0 or seat != hand[H_FROM]:
        return False
    if hand[H_HOW] == HOW_ROB_KONG:
        return params[P_QIANG_GANG_SHAO_DOU if dou else P_QIANG_GANG_SHAO_JI] != 0
    if hand[H_HOW] == HOW_DISCARD and hand[H_HOT_CANNON] != 0:
        return params[P_RE_PAO_SHAO_DOU if dou else P_RE_PAO_SHAO_JI] != 0
    return False


@inline_kernel
def payments_collected(hand, params):
    """Chickens and dou are paid at all: not on a 荒庄 with 荒庄烧鸡烧豆 of scope all
    (§wengan-exhaustive-draw)."""
    if hand[H_N_WINS] != 0:
        return True
    return not (
        params[P_HUANG_ZHUANG_BURN] != 0 and params[P_HUANG_ZHUANG_BURN_SCOPE] == _BURN_SCOPE_ALL
    )


@inline_kernel
def bao_arises(hand, params):
    """包鸡 / 包杠 arise after a win, and on a 荒庄 only with neither 荒庄烧鸡烧豆 nor
    荒庄不包 (§wengan-exhaustive-draw)."""
    if hand[H_N_WINS] != 0:
        return True
    return params[P_HUANG_ZHUANG_BURN] == 0 and params[P_HUANG_ZHUANG_NO_BAO] == 0


@inline_kernel
def bao_reaches(other, collecting, params):
    """包 goes to every other player, with ``bao_requires_ready`` only to collecting ones."""
    return params[P_BAO_REQUIRES_READY] == 0 or collecting[other] != 0


# ---------------------------------------------------------------------------------------------
# Step 2: dou 豆 (§wengan-kongs, §wengan-dou-settlement)


@kernel
def dou_items(hand, seats, melds, collecting, params, items, n_items):
    """豆分: 闷豆 2 and 爬坡豆 3 from each other player, 点豆 1 from the discarder, 憨包豆 none;
    collected unless burned (烧豆); with 包杠 a non-ready player pays each amount back to the
    player it would have come from."""
    players = params[P_PLAYERS]
    bao = bao_arises(hand, params) and params[P_BAO_GANG] != 0
    for seat in range(players):
        for index in range(seats[seat, S_N_MELDS]):
            dou = melds[seat, index, 3]
            amount = DOU_POINTS[dou]
            if amount == 0:
                continue
            for payer in range(players):
                if payer == seat or (dou == DOU_DIAN and payer != melds[seat, index, 2]):
                    continue
                if collecting[seat] != 0:
                    if not burned(seat, hand, True, params):
                        n_items = _add(items, n_items, ITEM_DOU, payer, seat, amount)
                elif bao and bao_reaches(payer, collecting, params):
                    n_items = _add(items, n_items, ITEM_BAO_GANG, seat, payer, amount)
    return n_items


# ---------------------------------------------------------------------------------------------
# Step 3: chickens 鸡 (§wengan-chickens)


@kernel
def discard_marks(discards, n_discards, params, charging, ordinals):
    """冲锋鸡 (§wengan-chicken-value) per discard: ``charging[i]`` 1 for the plain mode's charging
    tile (the hand's first 1s, with 乌骨鸡 also the first 8p, when unclaimed); ``ordinals[i]`` the
    4321 / 3211 value of an unclaimed 1s by its order (claimed ones counted with
    ``chongfeng_ordinal_counts_claimed``)."""
    mode = params[P_CHONG_FENG_MODE]
    for index in range(n_discards):
        charging[index] = 0
        ordinals[index] = 0
    if mode == CHONG_FENG_PLAIN:
        for kind in (ONE_S, EIGHT_P):
            if kind == EIGHT_P and params[P_WU_GU_JI] == 0:
                continue
            first = first_discard(discards, n_discards, kind)
            if first >= 0 and discards[first, 2] < 0:
                charging[first] = 1
    elif mode != CHONG_FENG_NONE:
        seen = 0
        for index in range(n_discards):
            if discards[index, 1] != ONE_S:
                continue
            if discards[index, 2] < 0:
                ordinals[index] = ordinal_value(seen + 1, params)
                seen += 1
            elif params[P_CHONGFENG_ORDINAL_COUNTS_CLAIMED] != 0:
                seen += 1


@inline_kernel
def first_discard(discards, n_discards, kind):
    for index in range(n_discards):
        if discards[index, 1] == kind:
            return index
    return -1


@kernel
def responsibilities(discards, n_discards, seats, melds, params, out):
    """责任鸡 (§wengan-chicken-collection): one row (claimer, discarder, amount 1 or 2) in ``out``
    for the hand's first 1s (and in plain mode with 乌骨鸡 the first 8p) ponged, or konged with
    ``ze_ren_on_kong``. A seat that claims both collects both, each from its own discarder. Returns
    the row count; ``out`` (2, 3)."""
    n = 0
    if params[P_CHONG_FENG_MODE] == CHONG_FENG_NONE or params[P_ZE_REN_JI] == 0:
        return n
    for kind in (ONE_S, EIGHT_P):
        if kind == EIGHT_P and (
            params[P_WU_GU_JI] == 0 or params[P_CHONG_FENG_MODE] != CHONG_FENG_PLAIN
        ):
            continue
        first = first_discard(discards, n_discards, kind)
        if first < 0 or discards[first, 2] < 0:
            continue
        claimer = discards[first, 2]
        konged = False
        for index in range(seats[claimer, S_N_MELDS]):
            if melds[claimer, index, 3] == DOU_DIAN and melds[claimer, index, 1] == kind:
                konged = True
        if konged and params[P_ZE_REN_ON_KONG] == 0:
            continue
        out[n, 0] = claimer
        out[n, 1] = discards[first, 0]
        out[n, 2] = base_value(kind, params)
        n += 1
    return n


@inline_kernel
def in_bao_scope(kind, where, params):
    """包鸡 scope (§wengan-chicken-collection, option ``bao_ji_scope``): exposed fixed chickens
    (melds and discards), all fixed ones (hand too), or every chicken."""
    scope = params[P_BAO_JI_SCOPE]
    if scope == _BAO_SCOPE_ALL:
        return True
    fixed_kind = kind == ONE_S or (kind == EIGHT_P and params[P_WU_GU_JI] != 0)
    return fixed_kind and (scope == _BAO_SCOPE_ALL_FIXED or where != WHERE_HAND)


@kernel
def owned_chickens(
    seat, hand, seats, concealed, melds, discards, n_discards, marks, hits, params, out
):
    """The seat's scoring chicken tiles (§wengan-chicken-collection scope) as rows (kind, where,
    value) in ``out``: hand (with a winner's winning tile), melds, own unclaimed discards (flip
    chickens that are not fixed there only with 满堂鸡). Returns the row count. ``marks`` (n, 2):
    charging and ordinal per discard."""
    n = 0
    if seats[seat, S_SHOWN] != 0:
        for kind in range(N_SUITED):
            count = concealed[seat, kind]
            if seats[seat, S_WINNER] != 0 and kind == hand[H_WIN_TILE]:
                count += 1
            value = chicken_value(kind, hits[kind], False, 0, params)
            for _ in range(count):
                n = _owned(out, n, kind, WHERE_HAND, value)
    for index in range(seats[seat, S_N_MELDS]):
        kind = melds[seat, index, 1]
        value = chicken_value(kind, hits[kind], False, 0, params)
        for _ in range(meld_size(melds[seat, index, 0])):
            n = _owned(out, n, kind, WHERE_MELD, value)
    for index in range(n_discards):
        if discards[index, 0] != seat or discards[index, 2] >= 0:
            continue
        kind = discards[index, 1]
        if not is_fixed_chicken(kind, params) and params[P_MAN_TANG_JI] == 0:
            continue
        value = chicken_value(kind, hits[kind], marks[index, 0] != 0, marks[index, 1], params)
        n = _owned(out, n, kind, WHERE_DISCARD, value)
    return n


@inline_kernel
def _owned(out, n, kind, where, value):
    if value == 0:
        return n
    out[n, 0] = kind
    out[n, 1] = where
    out[n, 2] = value
    return n + 1


@kernel
def chicken_items(
    hand, seats, concealed, melds, discards, n_discards, collecting, params, items, n_items
):
    """鸡分 (§wengan-chicken-collection): collectors (unless 烧鸡) take each chicken's value from
    every other player, and their 责任鸡 from its discarder; a non-collector with 包鸡 pays his
    chickens in scope to each player 包 reaches, and returns a 责任鸡 he received."""
    players = params[P_PLAYERS]
    flips = np.empty(2, np.int64)
    n_flips = 0
    if hand[H_N_WINS] != 0:
        n_flips = flip_count(hand[H_TILES_LEFT], params)
        flips[0] = hand[H_WALL_HEAD]
        flips[1] = hand[H_WALL_TAIL]
    hits = np.zeros(N_SUITED, np.int64)
    flip_hits(flips, n_flips, params, hits)
    marks = np.zeros((max(n_discards, 1), 2), np.int64)
    discard_marks(discards, n_discards, params, marks[:, 0], marks[:, 1])
    received = np.empty((2, 3), np.int64)
    n_received = responsibilities(discards, n_discards, seats, melds, params, received)
    owned = np.empty((14 + 16 + n_discards, 3), np.int64)
    bao = bao_arises(hand, params) and params[P_BAO_JI] != 0
    for seat in range(players):
        n = owned_chickens(
            seat, hand, seats, concealed, melds, discards, n_discards, marks, hits, params, owned
        )
        if collecting[seat] != 0:
            if burned(seat, hand, False, params):
                continue
            for row in range(n):
                for other in range(players):
                    if other != seat:
                        n_items = _add(items, n_items, ITEM_CHICKEN, other, seat, owned[row, 2])
            for row in range(n_received):
                discarder, amount = received[row, 1], received[row, 2]
                if received[row, 0] == seat:
                    n_items = _add(items, n_items, ITEM_RESPONSIBILITY, discarder, seat, amount)
        elif bao:
            for row in range(n):
                if not in_bao_scope(owned[row, 0], owned[row, 1], params):
                    continue
                for other in range(players):
                    if other != seat and bao_reaches(other, collecting, params):
                        n_items = _add(items, n_items, ITEM_BAO_JI, seat, other, owned[row, 2])
            for row in range(n_received):
                source = received[row, 1]
                if received[row, 0] == seat and bao_reaches(source, collecting, params):
                    n_items = _add(items, n_items, ITEM_BAO_JI, seat, source, received[row, 2])
    return n_items


# ---------------------------------------------------------------------------------------------
# Step 4: 荒庄查叫 (§wengan-exhaustive-draw) and 原缺 (§wengan-ding-que)


@kernel
def cha_jiao_items(hand, seats, concealed, melds, collecting, params, tables, items, n_items):
    """荒庄查叫: each non-ready player pays each ready one his best wait's §wengan-pattern-score
    points (no 名堂, §wengan-reading-cha-jiao-pattern-only) and the dealer bonus; nothing when all
    or none are ready."""
    players = params[P_PLAYERS]
    ready = 0
    for seat in range(players):
        ready += collecting[seat]
    if params[P_HUANG_ZHUANG_CHA_JIAO] == 0 or ready == 0 or ready == players:
        return n_items
    for payer in range(players):
        if collecting[payer] != 0:
            continue
        for payee in range(players):
            if collecting[payee] == 0:
                continue
            points = max_wait_points(
                concealed[payee],
                melds[payee],
                seats[payee, S_N_MELDS],
                seats[payee, S_QUE_SUIT],
                params,
                tables,
            )
            n_items = _add(items, n_items, ITEM_CHA_JIAO, payer, payee, points)
            bonus = dealer_bonus(hand, payer, payee, params)
            n_items = _add(items, n_items, ITEM_DEALER_BONUS, payer, payee, bonus)
    return n_items


@kernel
def yuan_que_items(seats, params, items, n_items):
    """原缺 (§wengan-ding-que): with 2 or 3 players and 定缺, a seat dealt lacking a suit takes the
    fixed ``yuan_que_bonus`` from each other player, not × 底分."""
    players = params[P_PLAYERS]
    bonus = params[P_YUAN_QUE_BONUS]
    if players == 4 or params[P_DING_QUE] == 0 or bonus == 0:
        return n_items
    for seat in range(players):
        if seats[seat, S_DEALT_LACKING] == 0:
            continue
        for other in range(players):
            if other != seat:
                n_items = _add(items, n_items, ITEM_YUAN_QUE, other, seat, bonus)
    return n_items


# ---------------------------------------------------------------------------------------------
# The settlement (§wengan-settlement-order)


@kernel
def settle(hand, seats, concealed, melds, discards, n_discards, params, tables, items, deltas):
    """Every payment of the finished hand (§wengan-settlement-order), × 底分 except 原缺, into
    ``items`` (``MAX_ITEMS``, 4); each seat's delta into ``deltas``. Returns the item count."""
    players = params[P_PLAYERS]
    n_items = np.int64(0)  # not a literal 0: one compile of the item kernels, not two
    for seat in range(players):
        if seats[seat, S_WINNER] != 0:
            n_items = win_items(seat, hand, seats, concealed, melds, params, tables, items, n_items)
    collecting = np.zeros(players, np.int64)
    collecting_seats(hand, seats, concealed, melds, params, tables, collecting)
    if hand[H_N_WINS] == 0:
        n_items = cha_jiao_items(
            hand, seats, concealed, melds, collecting, params, tables, items, n_items
        )
    if payments_collected(hand, params):
        n_items = chicken_items(
            hand, seats, concealed, melds, discards, n_discards, collecting, params, items, n_items
        )
        n_items = dou_items(hand, seats, melds, collecting, params, items, n_items)
    for row in range(n_items):
        items[row, 3] *= params[P_BASE_STAKE]
    n_items = yuan_que_items(seats, params, items, n_items)
    for seat in range(players):
        deltas[seat] = 0
    for row in range(n_items):
        deltas[items[row, 1]] -= items[row, 3]
        deltas[items[row, 2]] += items[row, 3]
    return n_items
