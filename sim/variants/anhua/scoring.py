"""Anhua Seven Kings 安化七王麻将: win eligibility, features and payments (numba kernels).

Rules: docs/rules/anhua.md. Decisions where the
text is unclear follow §anhua-readings; those of this project are in docs/rules/anhua.md.

Scoring needs no enumeration of decompositions. A king 王 standing for its own face is simply a
natural tile of that face, so each way of counting some X-kings and Y-kings as naturals (王代硬,
at most 4 x 5 ways) is one table lookup; the kings left over are wilds, and they are the
*effective* kings that decide the king tier and class. A wild can take any suit, so a hand whose
naturals and melds lie in one suit is a flush 清一色 exactly when it is complete.

``params`` is an int64 array indexed by the ``P_*`` constants, which come with the array's layout
from the option declarations in ``options.py`` (``AnhuaOptions.params()`` fills it).
"""

from __future__ import annotations

import numpy as np

from ...kernels._jit import inline_kernel, kernel
from ...kernels.hand import (
    FORM_SEVEN_PAIRS,
    FORM_STANDARD,
    KIND_POWER,
    KIND_SUIT,
    OPTION_PAIR_258,
    OPTION_QUADS,
    is_complete,
)
from ...kernels.moves import FIRST_VARIANT_HOW
from ...kernels.moves import HOW_DISCARD as HOW_DISCARD
from ...kernels.moves import HOW_KONG_BLOOM as HOW_KONG_BLOOM
from ...kernels.moves import HOW_ROB_KONG as HOW_ROB_KONG
from ...kernels.moves import HOW_SELF_DRAW as HOW_SELF_DRAW
from ...kernels.moves import NO_WIN as NO_WIN

# Options (§anhua-options): indices into ``params`` and the codes of choices, from the declarations
from .options import (  # noqa: F401 (read by hooks and checks as scoring.P_*)
    KING_MODE_FOUR,
    KING_MODE_SEVEN,
    N_PARAMS,
    P_ALLOW_ROB_DIRECT_KONG,
    P_ALLOW_ROB_KONG,
    P_BIRD_COUNT,
    P_DEALER_BONUS,
    P_DEALER_BONUS_TIMING,
    P_DISCARDED_KING_CLAIMABLE,
    P_FIRST_DEALER,
    P_INSTANT_COUNTS_DRAW,
    P_INSTANT_WIN_WINDOW,
    P_KING_AS_ITSELF_AFFECTS_ELIGIBILITY,
    P_KING_AS_ITSELF_IS_HARD,
    P_KING_MODE,
    P_KING_TIER_MODE,
    P_KONG_MIN_WALL,
    P_KONG_MULTI_TILE_WIN,
    P_KONG_REVEAL_COUNT,
    P_MULTI_RON,
    P_PLAYERS,
    P_SEVEN_PAIRS_ALLOW_QUAD,
    TIER_MODE_COUNT,
    TIER_MODE_IDENTICAL_SETS,
)

# ---------------------------------------------------------------------------------------------
# How a hand is won, king classes, features

# HOW_SELF_DRAW 自摸, HOW_DISCARD 接炮, HOW_ROB_KONG 抢杠胡 and HOW_KONG_BLOOM 杠上花 (here: on a
# tile the open kong revealed) are the engine's (sim.kernels.moves)
HOW_KONG_CANNON = FIRST_VARIANT_HOW  # 杠上炮
HOW_INSTANT = FIRST_VARIANT_HOW + 1  # 起手四王/七王

CLASS_HARD = 0  # 硬: no effective kings
CLASS_LOOSE = 1  # 单王: kings, no tier
CLASS_HEAVY = 2  # 三王 四王 六王 七王

TIER_NONE = 0
TIER_THREE = 1  # 三王
TIER_FOUR = 2  # 四王
TIER_SIX = 3  # 六王
TIER_SEVEN = 4  # 七王
TIER_WEIGHT = np.array([0, 1, 2, 2, 3], np.int64)

# Feature bits of a scored win (§anhua-features); the pattern name is a function of these bits.
FEATURE_HARD = 1 << 0  # 硬庄
FEATURE_THREE_KINGS = 1 << 1  # 三王
FEATURE_FOUR_KINGS = 1 << 2  # 四王
FEATURE_SIX_KINGS = 1 << 3  # 六王
FEATURE_SEVEN_KINGS = 1 << 4  # 七王
FEATURE_FLUSH = 1 << 5  # 清一色
FEATURE_SEVEN_PAIRS = 1 << 6  # 小七对
FEATURE_KONG_BLOOM = 1 << 7  # 杠上花
FEATURE_ROB_KONG = 1 << 8  # 抢杠胡
FEATURE_KONG_CANNON = 1 << 9  # 杠上炮
FEATURE_INSTANT = 1 << 10  # 起手四王/七王 (scores as 小胡)
TIER_FEATURE = np.array(
    [0, FEATURE_THREE_KINGS, FEATURE_FOUR_KINGS, FEATURE_SIX_KINGS, FEATURE_SEVEN_KINGS], np.int64
)


@inline_kernel
def king_tier(x_kings, y_kings, tier_mode):
    """King tier 王 of the effective kings (§anhua-king-tiers): x of kind X, y of kind Y."""
    if tier_mode == TIER_MODE_COUNT:
        total = x_kings + y_kings
        if total >= 7:
            return TIER_SEVEN
        if total == 6:
            return TIER_SIX
        if total >= 4:
            return TIER_FOUR
        if total == 3:
            return TIER_THREE
        return TIER_NONE
    if x_kings == 3 and y_kings == 4:
        return TIER_SEVEN
    if x_kings == 3 and y_kings == 3:
        return TIER_SIX
    if y_kings == 4:
        return TIER_FOUR
    if x_kings == 3 or y_kings == 3:
        return TIER_THREE
    return TIER_NONE


@inline_kernel
def king_class(x_kings, y_kings, tier_mode):
    if x_kings + y_kings == 0:
        return CLASS_HARD
    if king_tier(x_kings, y_kings, tier_mode) == TIER_NONE:
        return CLASS_LOOSE
    return CLASS_HEAVY


@inline_kernel
def class_may_win(klass, how):
    """Who may win how by king class (§anhua-who-may-win table)."""
    if how == HOW_SELF_DRAW or how == HOW_KONG_BLOOM or how == HOW_INSTANT:
        return True
    if how == HOW_DISCARD:
        return klass == CLASS_HARD
    return klass != CLASS_HEAVY  # rob a kong, kong cannon


@inline_kernel
def _how_feature(how):
    if how == HOW_KONG_BLOOM:
        return FEATURE_KONG_BLOOM
    if how == HOW_ROB_KONG:
        return FEATURE_ROB_KONG
    if how == HOW_KONG_CANNON:
        return FEATURE_KONG_CANNON
    return 0


@inline_kernel
def bigs_of(features):
    """B, the number of bigs 大胡 (§anhua-features): each feature bit counts its weight."""
    bigs = 0
    if features & FEATURE_HARD:
        bigs += 1
    if features & FEATURE_THREE_KINGS:
        bigs += 1
    if features & (FEATURE_FOUR_KINGS | FEATURE_SIX_KINGS):
        bigs += 2
    if features & FEATURE_SEVEN_KINGS:
        bigs += 3
    for bit in (FEATURE_FLUSH, FEATURE_SEVEN_PAIRS, FEATURE_KONG_BLOOM):
        if features & bit:
            bigs += 1
    for bit in (FEATURE_ROB_KONG, FEATURE_KONG_CANNON):
        if features & bit:
            bigs += 1
    return bigs


@inline_kernel
def _add_naturals(key_m, key_p, key_s, suits, kind, count):
    """Suit keys and suit mask with ``count`` more natural tiles of ``kind`` (kings counted as
    their own face)."""
    if count == 0:
        return key_m, key_p, key_s, suits
    suit = KIND_SUIT[kind]
    added = count * KIND_POWER[kind]
    if suit == 0:
        key_m += added
    elif suit == 1:
        key_p += added
    else:
        key_s += added
    return key_m, key_p, key_s, suits | (1 << suit)


@kernel
def best_win(concealed, meld_suits, n_melds, x_kind, y_kind, how, natural_king, params, tables):
    """The best legal, eligible way to score a won hand, as feature bits; ``NO_WIN`` if none.

    concealed: (34,) counts of the concealed hand *including the winning tile*, kings at their
    face. meld_suits: bit s set when a meld of suit s exists. x_kind: kind X of the seven-kings
    mode (-1 in four-kings mode); y_kind: kind Y. natural_king: the kind of a king claimed from
    another player (a discarded or revealed king, only with discarded_king_claimable_for_win),
    one copy of which is a natural tile of its face for the claimer (§anhua-discarded-kings), or -1.
    Implements §anhua-hand-forms and §anhua-features: among every way of counting kings as their own
    face (only with 王代硬) the legal hand form with the most bigs that the king class allows
    for ``how``.
    """
    if how == HOW_INSTANT:
        return FEATURE_INSTANT
    tier_mode = params[P_KING_TIER_MODE]
    x_held = np.int64(concealed[x_kind]) if x_kind >= 0 else np.int64(0)
    y_held = np.int64(concealed[y_kind])
    if natural_king >= 0:  # the claimed king has lost its power: one natural of its face
        if natural_king == x_kind:
            x_held -= 1
        else:
            y_held -= 1
    as_itself = params[P_KING_AS_ITSELF_IS_HARD] != 0
    physical_class = king_class(x_held, y_held, tier_mode)
    eligibility_by_effective = params[P_KING_AS_ITSELF_AFFECTS_ELIGIBILITY] != 0
    if (not as_itself or not eligibility_by_effective) and not class_may_win(physical_class, how):
        return NO_WIN
    base_keys = np.zeros(4, np.int64)
    suits_present = meld_suits
    for kind in range(27):
        count = np.int64(concealed[kind])
        if kind == x_kind or kind == y_kind or count == 0:
            continue
        base_keys[KIND_SUIT[kind]] += count * KIND_POWER[kind]
        suits_present |= 1 << KIND_SUIT[kind]
    if natural_king >= 0:
        base_keys[KIND_SUIT[natural_king]] += KIND_POWER[natural_king]
        suits_present |= 1 << KIND_SUIT[natural_king]
    quads = params[P_SEVEN_PAIRS_ALLOW_QUAD] != 0
    seven_pairs_form = FORM_SEVEN_PAIRS | (OPTION_QUADS if quads else 0)
    best = NO_WIN
    best_rank = -1
    x_max = x_held if as_itself else 0
    y_max = y_held if as_itself else 0
    for x_natural in range(x_max + 1):
        for y_natural in range(y_max + 1):
            x_effective = x_held - x_natural
            y_effective = y_held - y_natural
            klass = king_class(x_effective, y_effective, tier_mode)
            if eligibility_by_effective and not class_may_win(klass, how):
                continue
            key_m, key_p, key_s, suits = _add_naturals(
                base_keys[0], base_keys[1], base_keys[2], suits_present, x_kind, x_natural
            )
            key_m, key_p, key_s, suits = _add_naturals(
                key_m, key_p, key_s, suits, y_kind, y_natural
            )
            wilds = x_effective + y_effective
            flush = suits == 1 or suits == 2 or suits == 4
            # 二五八将 unless 清一色 or 小七对 (乱将, §anhua-pair-rule)
            pair_form = FORM_STANDARD if flush else FORM_STANDARD | OPTION_PAIR_258
            standard = is_complete(key_m, key_p, key_s, 0, wilds, pair_form, tables)
            pairs = n_melds == 0 and is_complete(
                key_m, key_p, key_s, 0, wilds, seven_pairs_form, tables
            )
            if not (standard or pairs):
                continue
            tier = king_tier(x_effective, y_effective, tier_mode)
            features = _how_feature(how) | TIER_FEATURE[tier]
            if klass == CLASS_HARD:
                features |= FEATURE_HARD
            if flush:
                features |= FEATURE_FLUSH
            if pairs:
                features |= FEATURE_SEVEN_PAIRS
            # most bigs; on a tie the weakest king class (硬 before 单王 before heavy), so a
            # hand reports the same pattern however it is won (docs/rules/anhua.md)
            rank = 4 * bigs_of(features) + (CLASS_HEAVY - klass)
            if rank > best_rank:
                best_rank = rank
                best = features
    return best


@inline_kernel
def base_points(features):
    """P = 2^(B+1) (§anhua-base-points); the instant win is 小胡, P = 2."""
    if features & FEATURE_INSTANT:
        return 2
    return np.int64(1) << (bigs_of(features) + 1)


@inline_kernel
def king_y_kind(indicator):
    """王的确定 (§anhua-kings): the king kind Y of a flipped ``indicator``, the next rank of its
    suit, 9 wrapping to 1 (X, with seven kings, is the indicator's own kind). The one statement
    of the rule: the hooks call it, Python code its ``py_func`` (on an int or a numpy array);
    only the rule checker (``checks.py``) keeps its own, to check the engine independently."""
    return indicator - indicator % 9 + (indicator % 9 + 1) % 9


# ---------------------------------------------------------------------------------------------
# Birds 抓鸟 and payments (§anhua-payments)


@inline_kernel
def bird_seat(tile, winner, n_players):
    """The seat a bird tile lands on: rank r counts (r - 1) seats on from the winner."""
    rank = tile % 9 + 1
    return (winner + (rank - 1)) % n_players


@kernel
def settle(
    n_players, dealer, winners, points, n_winners, payer, birds, n_birds, params, delta, payments
):
    """Add the payments of a finished hand to ``delta`` (int64 (n_players,)). No validation.

    Each single payment is also written to ``payments`` (int64 (k, 3): payer, receiver, amount)
    while it has rows; the number of payments is returned.

    winners/points: the first ``n_winners`` entries; payer: the discarder or konger, or -1 for a
    self-draw (every other player pays). birds: the ``n_birds`` bird tiles flipped (none on a win
    with the last tile). Each winner counts the same birds from his own seat.
    """
    bonus = params[P_DEALER_BONUS] != 0
    bonus_before = params[P_DEALER_BONUS_TIMING] == 1
    n_payments = 0
    for w in range(n_winners):
        winner = winners[w]
        base = points[w]
        hits = np.zeros(n_players, np.int64)
        for b in range(n_birds):
            hits[bird_seat(birds[b], winner, n_players)] += 1
        for seat in range(n_players):
            if seat == winner:
                continue
            if payer >= 0 and seat != payer:
                continue
            # a discard-like win doubles on birds at the winner or the one payer; a self-draw on
            # birds at the winner (every payer) or at this payer
            charged = payer if payer >= 0 else seat
            doublings = hits[winner] + hits[charged]
            amount = base
            dealer_involved = bonus and (seat == dealer or winner == dealer)
            if dealer_involved and bonus_before:
                amount += 1
            amount = amount << doublings
            if dealer_involved and not bonus_before:
                amount += 1
            delta[seat] -= amount
            delta[winner] += amount
            if n_payments < payments.shape[0]:
                payments[n_payments, 0] = seat
                payments[n_payments, 1] = winner
                payments[n_payments, 2] = amount
            n_payments += 1
    return n_payments


@kernel
def anhua_legal_batch(counts, x_kinds, y_kinds, params, tables, out):
    """out[i] = hand i is a legal Anhua win by self-draw (§anhua-hand-forms, kings wild).

    counts: (n, 34) uint8 concealed hands with kings at their face; x_kinds, y_kinds: (n,) int64
    king kinds of each hand's deal (x -1 in four-kings mode). Uses the engine's own scorer
    ``best_win``; a self-draw is allowed to every king class, so this is "complete".
    """
    for i in range(counts.shape[0]):
        features = best_win(
            counts[i], 0, 0, x_kinds[i], y_kinds[i], HOW_SELF_DRAW, -1, params, tables
        )
        out[i] = features != NO_WIN
