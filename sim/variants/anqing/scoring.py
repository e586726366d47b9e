"""Anqing 安庆麻将: win legality, the best score of a win and the payments (numba kernels).

Rules: docs/rules/anqing.md (§anqing-winning winning, §anqing-scoring scoring and payments). The
slow reference these kernels are checked against is ``tests/reference/anqing.py``
(``tests/variants/test_anqing_scoring.py``).

How the best reading is found without listing every tile: tiles of one identity (the kind they
stand for) are interchangeable between the groups of a reading, so a reading is read at the
level of identities: which groups (``hand.decompositions`` over the naturals, the 钻 filling
the gaps), how many 钻 stand for each kind (``zuan_for``), and on which identity the winning
tile ``W`` sits. Every flag of §anqing-zuan-conditions follows from that:

* W natural, identity w: 跑风 when some group puts w as a pair tile, the middle of a sequence or
  the edge 3 / 7 (cases 1-3); 见字胡 when w is suited (a 红中 only with
  ``jian_zi_hu_red_counts``), with ``zuan_diao`` also a pair of w and a 钻 standing for w;
* W a 钻: at its own face when one 钻 stands for the face (then as a natural of the face), or
  standing for another kind (never 跑风 nor 见字胡);
* 硬对对胡 (case 4): no sequence, and every 钻 but the drawn one at its own face.

Groups made of 钻 only (``GROUP_FREE_*``) take the identities that can matter: a pair at the
face; a triplet at the face or of a wind (风 +1); a sequence holding the face in the middle or at
the edge (跑风 for a drawn 钻 at its face). Any other identity scores and wins no more.

Hands are counts by physical kind (34), the winner's concealed tiles with ``W``; the 钻 kind's
count is the 钻 held. Melds are the engine's rows ``(type, first tile, from seat)``;
single-tile kongs (杠牌 and 钻) are counts, not melds (they are no sets, §anqing-class-one 牌型5).
"""

from __future__ import annotations

import numpy as np

from ...kernels._jit import kernel
from ...kernels.hand import (
    GROUP_FREE_PAIR,
    GROUP_FREE_SET,
    GROUP_NONE,
    GROUP_PAIR,
    GROUP_SEQUENCE,
    GROUP_TRIPLET,
    MAX_GROUPS,
    decompositions,
)
from ...kernels.state import (
    MELD_ADDED_KONG,
    MELD_CHI,
    MELD_CONCEALED_KONG,
    MELD_PONG,
)
from .options import (  # noqa: F401 (read by the hooks as scoring.P_*)
    GANG_KAI_CHAIN,
    JIAN_ZI_HU_ZUAN_DIAO,
    MUTUAL_BAO_SUM,
    N_PARAMS,
    P_BAO_ALL_PONG_4_FACTOR,
    P_DEALER_EXTRA,
    P_DEALER_EXTRA_SYMMETRIC,
    P_FIRST_DEALER,
    P_GANG_KAI_COUNT_MODE,
    P_GANG_KAI_CUMULATIVE,
    P_GANG_TILE_DISCARDABLE,
    P_JIAN_ZI_HU_DEFINITION,
    P_JIAN_ZI_HU_RED_COUNTS,
    P_LIAN_ZHUANG_CUMULATIVE,
    P_LIAN_ZHUANG_TABLE,
    P_MENQING_YING_ADDITIVE,
    P_MUTUAL_BAO_MODE,
    P_NEXT_DEALER_RULE,
    P_PAO_FENG_DEFINITION,
    P_PLAYERS,
    P_SEVEN_PAIRS_ALLOW_QUAD,
    P_SHISANLAN_HONOURS_LITERAL,
    P_SHUANG_TIAN_HU_POINTS,
    P_SINGLE_KONG_BREAKS_MENQING,
    P_SINGLE_KONG_POINTS,
    P_ZHI_JIAO_REQUIRES,
    PAO_FENG_UNIQUE_WAIT,
    ZHI_JIAO_PAO_FENG_WAIT,
)
from .scoring_names import ITEM_NAMES

N_KINDS = 34
EAST, NORTH = 27, 30
RED, GREEN, WHITE = 31, 32, 33  # 红中 发财 白板

# ---------------------------------------------------------------------------------- score items
# Item ids (bits of a win's feature mask; bits never change meaning) and their Chinese names, in
# the order of C5.1. Points are the kernels'; 屁胡 is a marker worth 0.

(
    I_BASE,
    I_MENQING,
    I_MENQING_YING,
    I_PAO_FENG,
    I_SI_ZUAN,
    I_TIAN_HU,
    I_QI_DUI_TIAN_HU,
    I_QI_DUI_YOU_ZUAN,
    I_SHUANG_TIAN_HU,
    I_PENG_PENG_HU,
    I_DA_DIAO_CHE,
    I_DA_DIAO_CHE_ZUAN,
    I_GANG_KAI,
    I_QI_XING,
    I_TIE_LAN,
    I_YING_LAN,
    I_RUAN_LAN,
    I_PI_HU,
    I_GANG_PAI,
    I_FENG,
) = range(len(ITEM_NAMES))
N_ITEMS = len(ITEM_NAMES)
S_BITS = N_ITEMS  # slot of ``items`` holding the bit mask of the items that scored
S_FORM = N_ITEMS + 1  # slot holding the form of the best reading (FORM_*)
S_ZHI_JIAO = N_ITEMS + 2  # 1 when the win is a 直叫 (杠开 and 跑风 together, §anqing-zhi-jiao-win)
N_ITEM_SLOTS = N_ITEMS + 3

FORM_STANDARD = 0  # 牌型1 / 4 (and 5)
FORM_SEVEN_PAIRS = 1  # 牌型3
FORM_SHISANLAN = 2  # 十三烂

NO_LEGAL_WIN = -1

# 包 between a payer and the winner (§anqing-bao; ``bao_kind``, record slot ``bao_kind``)
BAO_NONE = 0
BAO_SHUN = 1  # 顺包: the payer fed the winner three 口 or more
BAO_FAN = 2  # 反包: the winner fed the payer three 口 or more
BAO_MUTUAL = 3  # both (互为顺包)

# Where W sits in its group, best first for 跑风 (§anqing-zuan-conditions cases 1-3)
_AT_PAIR = 2
_AT_MIDDLE_OR_EDGE = 1
_ELSEWHERE = 0

_DECOMPOSITION_CAPACITY = 4096


# ---------------------------------------------------------------------------------- tiles
# (§anqing-setup)


@kernel
def zuan_of(indicator):
    """钻牌的出现 (§anqing-zuan): the successor of the flipped tile: rank + 1 in its suit (9 -> 1),
    E -> S -> W -> N -> E, RD -> GD -> WD -> RD."""
    if indicator < 27:
        return indicator - indicator % 9 + (indicator % 9 + 1) % 9
    if indicator <= NORTH:
        return EAST + (indicator - EAST + 1) % 4
    return RED + (indicator - RED + 1) % 3


@kernel
def is_gang_tile(kind, zuan):
    """杠牌 (§anqing-red-dragon): 发财 and 白板, or with a dragon 钻 the two other dragons."""
    if zuan < RED:
        return kind == GREEN or kind == WHITE
    return kind >= RED and kind != zuan


@kernel
def class_one_kind(kind, zuan):
    """The identity a natural has in a class-1 hand: 红中 stands for the 钻's face when the 钻
    is not a dragon ("红中就代替钻牌本来的牌", §anqing-red-dragon)."""
    if kind == RED and zuan < RED:
        return zuan
    return kind


@kernel
def may_stand_for(kind, zuan):
    """What a 钻 may stand for in a class-1 hand: any kind but a 杠牌, and not 中 when 红中 is
    the 钻's face (§anqing-red-dragon)."""
    if is_gang_tile(kind, zuan):
        return False
    return not (kind == RED and zuan < RED)


# ---------------------------------------------------------------------------------- fixed items


@kernel
def _is_open(meld_type):
    """A chi, pong or 4-tile kong on a discard (明杠, 加杠): breaks 门清 (§anqing-score-table item
    2)."""
    return meld_type == MELD_CHI or meld_type == MELD_PONG or meld_type >= MELD_ADDED_KONG


@kernel
def gang_kai_points(chain, kongs, params):
    """杠开 (item 14): k kongs give 3 + 6 + ... + 3k, or 3k without ``gang_kai_cumulative``; k is
    this turn's chain, or every kong of the winner with ``gang_kai_count_mode = total``."""
    if chain == 0:
        return 0
    k = chain if params[P_GANG_KAI_COUNT_MODE] == GANG_KAI_CHAIN else kongs
    if params[P_GANG_KAI_CUMULATIVE]:
        return 3 * k * (k + 1) // 2
    return 3 * k


@kernel
def _fixed_items(
    hand, zuan, melds, n_melds, single_kongs, zuan_kongs, chain, heavenly, params, out
):
    """The items every reading of the hand shares (§anqing-score-table items 1, 2, 3, 7, 14, 20 and
    melded 风) -> ``out`` points; returns the number of wind sets among the melds."""
    n_zuan = hand[zuan]
    menqing = True
    set_kongs = 0
    kong_points = (single_kongs + zuan_kongs) * params[P_SINGLE_KONG_POINTS]
    melded_winds = 0
    for index in range(n_melds):
        meld_type = melds[index, 0]
        identity = class_one_kind(melds[index, 1], zuan)
        wind = EAST <= identity <= NORTH
        if _is_open(meld_type):
            menqing = False
        if meld_type >= MELD_CONCEALED_KONG:
            set_kongs += 1
        if meld_type == MELD_CONCEALED_KONG:
            kong_points += 2 + 2 * wind
        elif meld_type >= MELD_ADDED_KONG:
            kong_points += 1 + wind
        if meld_type != MELD_CHI and wind:
            melded_winds += 1
    if params[P_SINGLE_KONG_BREAKS_MENQING] and single_kongs + zuan_kongs > 0:
        menqing = False
    hard = menqing and n_zuan == 0 and zuan_kongs == 0
    out[I_BASE] = 3
    if menqing and (params[P_MENQING_YING_ADDITIVE] or not hard):
        out[I_MENQING] = 3
    if hard:
        out[I_MENQING_YING] = 3
    if n_zuan + zuan_kongs == 4:
        out[I_SI_ZUAN] = 30
    if heavenly:
        out[I_TIAN_HU] = 30
    out[I_GANG_KAI] = gang_kai_points(chain, set_kongs + single_kongs + zuan_kongs, params)
    out[I_GANG_PAI] = kong_points
    return melded_winds


# ----------------------------------------------------------------------------------
# §anqing-zuan-conditions


@kernel
def _conditions_met(hard_pong_pong, pao_feng, jian_zi_hu, has_zuan, discarded, bloom):
    """The table of §anqing-zuan-conditions; a 硬对对胡 (跑风 case 4) meets every row."""
    if hard_pong_pong or bloom or not (has_zuan or discarded):
        return True
    if not has_zuan:
        return pao_feng
    if not discarded:
        return jian_zi_hu
    return pao_feng and jian_zi_hu


@kernel
def _suited_win_counts(win_tile, identity, params):
    """见字胡's face test: W at its own face is suited; a 红中 standing for a suited face only
    with ``jian_zi_hu_red_counts``."""
    if identity >= 27:
        return False
    return not (win_tile == RED and not params[P_JIAN_ZI_HU_RED_COUNTS])


@kernel
def _standard_waits(counts, held, zuan, seven_pairs, params):
    """The number of kinds that complete ``counts`` (13 naturals, class-1 identities) as a
    standard hand or, with ``seven_pairs``, seven pairs; not a kind held four of (``held``,
    hand and melds; §anqing-vocabulary). For ``pao_feng_definition = unique_wait``."""
    scratch = np.empty((1, MAX_GROUPS, 3), np.int8)
    quads = params[P_SEVEN_PAIRS_ALLOW_QUAD] != 0
    waits = 0
    for kind in range(N_KINDS):
        if held[kind] >= 4 or not may_stand_for(kind, zuan):
            continue
        counts[kind] += 1
        standard = decompositions(counts, np.int64(0), False, scratch) > 0
        if standard or (seven_pairs and _seven_pairs_naturals(counts, quads)):
            waits += 1
        counts[kind] -= 1
    return waits


@kernel
def _seven_pairs_naturals(counts, quads):
    """Seven pairs of naturals: every count even, four of a kind only with ``quads``."""
    pairs = 0
    for kind in range(N_KINDS):
        count = counts[kind]
        if count % 2 or (count == 4 and not quads) or count > 4:
            return False
        pairs += count // 2
    return pairs == 7


# ---------------------------------------------------------------------------------- readings


@kernel
def _place(groups, n_groups, identity):
    """Where a tile of ``identity`` can sit among the groups, best for 跑风 first."""
    best = -1
    for g in range(n_groups):
        shape = groups[g, 0]
        first = groups[g, 1]
        if shape == GROUP_PAIR or shape == GROUP_TRIPLET:
            if first == identity:
                best = max(best, _AT_PAIR if shape == GROUP_PAIR else _ELSEWHERE)
        elif first <= identity <= first + 2:
            middle = identity == first + 1
            edge = (first % 9 == 0 and identity == first + 2) or (
                first % 9 == 6 and identity == first
            )
            best = max(best, _AT_MIDDLE_OR_EDGE if middle or edge else _ELSEWHERE)
    return best


@kernel
def _standard_reading(groups, n_groups, zuan_for, win, ctx, params):
    """The best (legal, 跑风) of one standard reading over where W may sit -> 0 no legal
    placement, 1 legal without 跑风, 2 legal with 跑风.

    ``groups`` rows (shape, first identity); ``zuan_for``: 钻 per identity. ``win``: (W physical,
    W identity or -1 for a drawn 钻, W is a 钻). ``ctx``: (钻 kind, 钻 held, D, 杠开, no chi,
    unique wait ok)."""
    zuan = ctx[0]
    has_zuan = ctx[1] > 0
    discarded = ctx[2] != 0
    bloom = ctx[3] != 0
    pong_pong = ctx[4] != 0
    unique_ok = ctx[5] != 0
    for g in range(n_groups):
        if groups[g, 0] == GROUP_SEQUENCE:
            pong_pong = False
    off_face = 0
    for kind in range(N_KINDS):
        if kind != zuan:
            off_face += zuan_for[kind]
    diao = params[P_JIAN_ZI_HU_DEFINITION] == JIAN_ZI_HU_ZUAN_DIAO
    best = 0
    if not win[2]:
        w = win[1]
        where = _place(groups, n_groups, w)
        hard = pong_pong and off_face == 0
        run = hard or (where >= _AT_MIDDLE_OR_EDGE and unique_ok)
        seen = _suited_win_counts(win[0], w, params)
        if diao:
            seen = seen and where == _AT_PAIR and zuan_for[w] >= 1
        if _conditions_met(hard, run, seen, has_zuan, discarded, bloom):
            best = 2 if run else 1
        return best
    # a drawn 钻: at its face (when one stands for it) or standing for another kind
    if zuan_for[zuan] >= 1:
        where = _place(groups, n_groups, zuan)
        hard = pong_pong and off_face == 0
        run = hard or where >= _AT_MIDDLE_OR_EDGE
        seen = zuan < 27
        if diao:
            seen = seen and where == _AT_PAIR and zuan_for[zuan] >= 2
        if _conditions_met(hard, run, seen, has_zuan, discarded, bloom):
            best = 2 if run else 1
    if off_face >= 1 and best < 2:
        hard = pong_pong and off_face == 1
        if _conditions_met(hard, hard, False, has_zuan, discarded, bloom):
            best = max(best, 2 if hard else 1)
    return best


@kernel
def _wind_triplets(groups, n_groups):
    count = 0
    for g in range(n_groups):
        if groups[g, 0] == GROUP_TRIPLET and EAST <= groups[g, 1] <= NORTH:
            count += 1
    return count


@kernel
def _has_sequence(groups, n_groups):
    for g in range(n_groups):  # noqa: SIM110 (numba compiles no generator)
        if groups[g, 0] == GROUP_SEQUENCE:
            return True
    return False


@kernel
def _free_set_options(zuan, options):
    """Identities a set of three 钻 may usefully take: a triplet at the face or of a wind (风), a
    sequence with the face in the middle or at the edge (跑风 for a drawn 钻 at its face)."""
    n = 0
    options[n, 0] = GROUP_TRIPLET
    options[n, 1] = zuan
    n += 1
    for wind in range(EAST, NORTH + 1):
        if wind != zuan:
            options[n, 0] = GROUP_TRIPLET
            options[n, 1] = wind
            n += 1
    if zuan < 27:
        rank = zuan % 9
        if 1 <= rank <= 7:
            options[n, 0] = GROUP_SEQUENCE
            options[n, 1] = zuan - 1
            n += 1
        if rank == 2:
            options[n, 0] = GROUP_SEQUENCE
            options[n, 1] = zuan - 2
            n += 1
        if rank == 6:
            options[n, 0] = GROUP_SEQUENCE
            options[n, 1] = zuan
            n += 1
    return n


@kernel
def _best_standard(naturals, win, ctx, melded_winds, params):
    """Best standard reading (牌型1/4) -> (points of 跑风 + 碰碰胡 + 风 + 大吊车, their item
    bits, the wind sets), points -1 when no reading is a legal win."""
    zuan = ctx[0]
    n_zuan = ctx[1]
    no_chi = ctx[4] != 0
    out = np.empty((_DECOMPOSITION_CAPACITY, MAX_GROUPS, 3), np.int8)
    found = decompositions(naturals, np.int64(n_zuan), False, out)
    if found > _DECOMPOSITION_CAPACITY:
        raise ValueError("anqing: more decompositions than the scorer holds")
    groups = np.empty((MAX_GROUPS, 2), np.int64)
    zuan_for = np.zeros(N_KINDS, np.int64)
    free_options = np.empty((8, 2), np.int64)
    n_free_options = _free_set_options(zuan, free_options)
    best = np.int64(-1)
    best_bits = np.int64(0)
    best_winds = np.int64(0)
    size = n_zuan
    for kind in range(N_KINDS):
        size += naturals[kind]
    crane = size == 2
    for d in range(min(found, _DECOMPOSITION_CAPACITY)):
        zuan_for[:] = 0
        n_groups = 0
        free_sets = 0
        for g in range(MAX_GROUPS):
            shape = out[d, g, 0]
            first = np.int64(out[d, g, 1])
            mask = np.int64(out[d, g, 2])
            if shape == GROUP_NONE:
                continue
            if shape == GROUP_FREE_SET:
                free_sets += 1
                continue
            if shape == GROUP_FREE_PAIR:
                groups[n_groups, 0] = GROUP_PAIR
                groups[n_groups, 1] = zuan
                zuan_for[zuan] += 2
                n_groups += 1
                continue
            groups[n_groups, 0] = shape
            groups[n_groups, 1] = first
            if shape == GROUP_SEQUENCE:
                for j in range(3):
                    if not (mask >> j) & 1:
                        zuan_for[first + j] += 1
            elif shape == GROUP_TRIPLET:
                zuan_for[first] += 3 - mask
            else:
                zuan_for[first] += 2 - mask
            n_groups += 1
        n_choices = n_free_options if free_sets == 1 else 1
        if free_sets > 1:
            raise ValueError("anqing: more than one set of 钻 alone")
        for choice in range(n_choices):
            used = n_groups
            if free_sets == 1:
                groups[used, 0] = free_options[choice, 0]
                groups[used, 1] = free_options[choice, 1]
                first = free_options[choice, 1]
                if free_options[choice, 0] == GROUP_TRIPLET:
                    zuan_for[first] += 3
                else:
                    for j in range(3):
                        zuan_for[first + j] += 1
                used += 1
            verdict = _standard_reading(groups, used, zuan_for, win, ctx, params)
            if verdict > 0:
                bits = np.int64(0)
                points = 0
                if verdict == 2:
                    points += 6
                    bits |= 1 << I_PAO_FENG
                if no_chi and not _has_sequence(groups, used):
                    points += 3
                    bits |= 1 << I_PENG_PENG_HU
                winds = _wind_triplets(groups, used) + melded_winds
                points += winds
                if winds:
                    bits |= 1 << I_FENG
                if crane:
                    points += 3 if n_zuan > 0 else 30
                    bits |= 1 << (I_DA_DIAO_CHE_ZUAN if n_zuan > 0 else I_DA_DIAO_CHE)
                if points > best:
                    best = points
                    best_bits = bits
                    best_winds = winds
            if free_sets == 1:
                first = free_options[choice, 1]
                if free_options[choice, 0] == GROUP_TRIPLET:
                    zuan_for[first] -= 3
                else:
                    for j in range(3):
                        zuan_for[first + j] -= 1
    return best, best_bits, best_winds


@kernel
def _best_seven_pairs(naturals, win, ctx, all_zuan, params):
    """Best seven-pairs reading (牌型3) -> (points of its seven-pairs item and 四个钻牌, bits),
    points -1 when none is a legal win. The 钻 a natural needs for its pair stand for its kind;
    each other pair of 钻 stands for the face, for W's kind or elsewhere (nothing else
    matters); a kind makes at most two pairs (one without ``seven_pairs_allow_quad``)."""
    zuan = ctx[0]
    n_zuan = ctx[1]
    has_zuan = n_zuan > 0
    discarded = ctx[2] != 0
    bloom = ctx[3] != 0
    unique_ok = ctx[5] != 0
    limit = 2 if params[P_SEVEN_PAIRS_ALLOW_QUAD] else 1
    diao = params[P_JIAN_ZI_HU_DEFINITION] == JIAN_ZI_HU_ZUAN_DIAO
    needed = 0
    pairs = 0
    for kind in range(N_KINDS):
        count = naturals[kind]
        if count == 0:
            continue
        if (count + 1) // 2 > limit:
            return np.int64(-1), np.int64(0)
        pairs += (count + 1) // 2
        needed += count % 2
    spare = n_zuan - needed
    if spare < 0 or spare % 2 or pairs + spare // 2 != 7:
        return np.int64(-1), np.int64(0)
    free = spare // 2
    w = win[1]
    w_natural = not win[2]
    face_room = limit - (naturals[zuan] + 1) // 2
    w_room = limit - (naturals[w] + 1) // 2 if w_natural and w != zuan else 0
    best = np.int64(-1)
    best_bits = np.int64(0)
    for at_face in range(min(free, face_room) + 1):
        for at_w in range(min(free - at_face, w_room) + 1):
            for_face = naturals[zuan] % 2 + 2 * at_face
            off_face = n_zuan - for_face
            own = off_face == 0
            legal = False
            if w_natural:
                seen = _suited_win_counts(win[0], w, params)
                if diao:
                    seen = (
                        seen and naturals[w] % 2 + 2 * at_w + (2 * at_face if w == zuan else 0) >= 1
                    )
                legal = _conditions_met(False, unique_ok, seen, has_zuan, discarded, bloom)
            else:
                if for_face >= 1:
                    seen = zuan < 27 and (not diao or for_face >= 2)
                    legal = _conditions_met(False, True, seen, has_zuan, discarded, bloom)
                if off_face >= 1:
                    legal = legal or _conditions_met(
                        False, False, False, has_zuan, discarded, bloom
                    )
            if not legal:
                continue
            if own and n_zuan == 4:
                points = params[P_SHUANG_TIAN_HU_POINTS]
                bits = np.int64(1) << I_SHUANG_TIAN_HU
            else:
                points = 30 if own else 9
                bits = np.int64(1) << (I_QI_DUI_TIAN_HU if own else I_QI_DUI_YOU_ZUAN)
                if all_zuan:
                    points += 30
                    bits |= np.int64(1) << I_SI_ZUAN
            if points > best:
                best = points
                best_bits = bits
    return best, best_bits


@kernel
def _rank_sets(out):
    """Rank masks (bit r-1 for rank r) of 0-3 ranks pairwise at least 3 apart ("序数牌间隔大于
    等于3", §anqing-shisanlan) -> ``out``; returns how many."""
    n = 0
    for mask in range(512):
        ranks = 0
        last = -9
        fits = True
        for r in range(9):
            if (mask >> r) & 1:
                ranks += 1
                if r - last < 3:
                    fits = False
                last = r
        if fits and ranks <= 3:
            out[n] = mask
            n += 1
    return n


@kernel
def _best_shisanlan(hand, zuan, all_zuan, params):
    """Best 十三烂 reading (§anqing-shisanlan) of 14 concealed tiles -> (points of 七星归位, 铁烂 /
    硬烂 / 软烂 and 四个钻牌, bits), points -1 when the tiles fit no 十三烂. With
    ``shisanlan_honours_literal`` every natural is at its face (红中 = 中, 杠牌 as honours) and a 钻
    may fill any slot; without it the tiles read as in class 1 and a held 杠牌 rules it out."""
    literal = params[P_SHISANLAN_HONOURS_LITERAL] != 0
    n_zuan = hand[zuan]
    held = np.zeros(N_KINDS, np.int64)
    for kind in range(N_KINDS):
        if kind == zuan or hand[kind] == 0:
            continue
        if not literal and is_gang_tile(kind, zuan):
            return np.int64(-1), np.int64(0)
        identity = kind if literal else class_one_kind(kind, zuan)
        held[identity] += hand[kind]
        if held[identity] > 1:
            return np.int64(-1), np.int64(0)
    rank_sets = np.empty(512, np.int64)
    n_sets = _rank_sets(rank_sets)
    candidates = np.zeros((3, 512), np.int64)
    n_candidates = np.zeros(3, np.int64)
    for suit in range(3):
        held_mask = 0
        barred = 0
        for r in range(9):
            kind = 9 * suit + r
            if held[kind]:
                held_mask |= 1 << r
            if not literal and not may_stand_for(kind, zuan):
                barred |= 1 << r
        for index in range(n_sets):
            mask = rank_sets[index]
            if mask & held_mask == held_mask and mask & barred == 0:
                candidates[suit, n_candidates[suit]] = mask
                n_candidates[suit] += 1
    held_honours = 0
    free_honours = 0
    face_free = False
    for kind in range(27, N_KINDS):
        if held[kind]:
            held_honours += 1
        elif literal or may_stand_for(kind, zuan):
            free_honours += 1
            if kind == zuan:
                face_free = True
    best = np.int64(-1)
    best_bits = np.int64(0)
    for im in range(n_candidates[0]):
        for ip in range(n_candidates[1]):
            for i_s in range(n_candidates[2]):
                masks = (candidates[0, im], candidates[1, ip], candidates[2, i_s])
                size = 0
                face_slot = False
                for suit in range(3):
                    for r in range(9):
                        if (masks[suit] >> r) & 1:
                            size += 1
                            if 9 * suit + r == zuan and not held[zuan]:
                                face_slot = True
                extra = 14 - size - held_honours
                if extra < 0 or extra > free_honours:
                    continue
                if zuan >= 27 and face_free and extra >= 1:
                    face_slot = True
                stars = size == 7 and (extra == 0 or (extra == 1 and face_free))
                points = np.int64(3) if stars else np.int64(0)
                bits = np.int64(1) << I_QI_XING if stars else np.int64(0)
                if n_zuan == 0:
                    points += 9
                    bits |= np.int64(1) << I_TIE_LAN
                elif n_zuan == 1 and face_slot:
                    points += 6
                    bits |= np.int64(1) << I_YING_LAN
                else:
                    points += 3
                    bits |= np.int64(1) << I_RUAN_LAN
                if all_zuan:
                    points += 30
                    bits |= np.int64(1) << I_SI_ZUAN
                if points > best:
                    best = points
                    best_bits = bits
    return best, best_bits


# ---------------------------------------------------------------------------------- the best score


@kernel
def best_score(
    hand,
    zuan,
    win_tile,
    melds,
    n_melds,
    single_kongs,
    zuan_kongs,
    discarded,
    chain,
    heavenly,
    params,
    items,
):
    """The score S of the best legal reading of a self-drawn win (§anqing-winning,
    §anqing-score-table), or NO_LEGAL_WIN.

    hand (34,) the winner's concealed tiles with W (the 钻 kind's count: 钻 held); win_tile the
    physical kind of W (the 钻 kind: a drawn 钻); melds (4, 3) the winner's rows, n_melds of them;
    single_kongs / zuan_kongs: single-tile kongs of 杠牌 / of 钻; discarded: D; chain: kongs in
    a row this turn before W (0: no 杠开); heavenly: 天胡/地胡's window held. ``items``
    (N_ITEM_SLOTS,) gets each item's points, the bits of the items scored (``S_BITS``), the form
    (``S_FORM``) and the 直叫 flag (``S_ZHI_JIAO``)."""
    for slot in range(N_ITEM_SLOTS):
        items[slot] = 0
    n_zuan = np.int64(hand[zuan])
    melded_winds = _fixed_items(
        hand, zuan, melds, n_melds, single_kongs, zuan_kongs, chain, heavenly, params, items
    )
    all_zuan = n_zuan + zuan_kongs == 4
    naturals = np.zeros(N_KINDS, np.int64)
    class_one = True
    size = n_zuan
    for kind in range(N_KINDS):
        if kind == zuan or hand[kind] == 0:
            continue
        if is_gang_tile(kind, zuan):
            class_one = False
        naturals[class_one_kind(kind, zuan)] += hand[kind]
        size += hand[kind]
    no_chi = True
    for index in range(n_melds):
        if melds[index, 0] == MELD_CHI:
            no_chi = False
    is_zuan = win_tile == zuan
    identity = -1 if is_zuan else class_one_kind(win_tile, zuan)
    win = np.array([win_tile, identity, np.int64(is_zuan)], np.int64)
    unique_ok = True
    if class_one and params[P_PAO_FENG_DEFINITION] == PAO_FENG_UNIQUE_WAIT and n_zuan == 0:
        held = naturals.copy()
        for index in range(n_melds):
            first = class_one_kind(melds[index, 1], zuan)
            if melds[index, 0] == MELD_CHI:
                for j in range(3):
                    held[first + j] += 1
            else:
                held[first] += 3 if melds[index, 0] == MELD_PONG else 4
        naturals[identity] -= 1
        held[identity] -= 1
        unique_ok = _standard_waits(naturals, held, zuan, size == 14, params) == 1
        naturals[identity] += 1
    ctx = np.array(
        [
            zuan,
            n_zuan,
            np.int64(discarded != 0),
            np.int64(chain > 0),
            np.int64(no_chi),
            np.int64(unique_ok),
        ],
        np.int64,
    )
    best = np.int64(-1)
    best_bits = np.int64(0)
    best_form = FORM_STANDARD
    best_winds = np.int64(0)
    if class_one:
        points, bits, winds = _best_standard(naturals, win, ctx, melded_winds, params)
        if points >= 0 and all_zuan:
            points += 30
            bits |= np.int64(1) << I_SI_ZUAN
        if points > best:
            best, best_bits, best_form, best_winds = points, bits, FORM_STANDARD, winds
        if size == 14 and n_melds == 0:
            points, bits = _best_seven_pairs(naturals, win, ctx, all_zuan, params)
            if points > best:
                best, best_bits, best_form, best_winds = points, bits, FORM_SEVEN_PAIRS, 0
    if size == 14 and n_melds == 0:
        points, bits = _best_shisanlan(hand, zuan, all_zuan, params)
        if points > best:
            best, best_bits, best_form, best_winds = points, bits, FORM_SHISANLAN, 0
    if best < 0:
        return np.int64(NO_LEGAL_WIN)
    return _fill_items(items, best_bits, best_form, best_winds, params)


@kernel
def _fill_items(items, reading_bits, form, winds, params):
    """Put the best reading's items beside the fixed ones -> S."""
    if not (reading_bits >> I_SI_ZUAN) & 1:
        items[I_SI_ZUAN] = 0
    for item in range(N_ITEMS):
        if not (reading_bits >> item) & 1:
            continue
        if item == I_PAO_FENG:
            items[item] = 6
        elif item == I_SI_ZUAN or item == I_QI_DUI_TIAN_HU or item == I_DA_DIAO_CHE:
            items[item] = 30
        elif item == I_SHUANG_TIAN_HU:
            items[item] = params[P_SHUANG_TIAN_HU_POINTS]
        elif item == I_QI_DUI_YOU_ZUAN or item == I_TIE_LAN:
            items[item] = 9
        elif item == I_YING_LAN:
            items[item] = 6
        elif item == I_FENG:
            items[item] = winds
        else:  # 碰碰胡, 大吊车(有钻), 七星归位, 软烂
            items[item] = 3
    bits = reading_bits
    for item in range(N_ITEMS):
        if items[item] > 0:
            bits |= np.int64(1) << item
    plain = True
    for item in range(N_ITEMS):
        if (bits >> item) & 1 and item != I_BASE and item != I_GANG_PAI and item != I_FENG:
            plain = False
    if plain:
        bits |= np.int64(1) << I_PI_HU
    total = np.int64(0)
    for item in range(N_ITEMS):
        total += items[item]
    items[S_BITS] = bits
    items[S_FORM] = form
    items[S_ZHI_JIAO] = np.int64(items[I_GANG_KAI] > 0 and (bits >> I_PAO_FENG) & 1)
    return total


# ---------------------------------------------------------------------------------- payments


@kernel
def bao_factor_one_way(mouths, all_pongs, params):
    """f(A -> B) of §anqing-bao for the 口 B took from A: 0 below three; 3, x2 for four, x2 when all
    are pongs or kongs (four all-pong: ``bao_all_pong_4_factor``)."""
    if mouths < 3:
        return 0
    if mouths >= 4 and all_pongs:
        return params[P_BAO_ALL_PONG_4_FACTOR]
    return 3 * (2 if mouths >= 4 else 1) * (2 if all_pongs else 1)


@kernel
def _feed(melds, n_melds, receiver, feeder, params):
    """f(feeder -> receiver) from the receiver's melds: chi, pong, 明杠 and 加杠 made from the
    feeder's discards are his 口 (a pong turned kong stays one; concealed kongs never count)."""
    mouths = 0
    all_pongs = True
    for index in range(n_melds[receiver]):
        meld_type = melds[receiver, index, 0]
        if meld_type == MELD_CONCEALED_KONG or melds[receiver, index, 2] != feeder:
            continue
        mouths += 1
        if meld_type == MELD_CHI:
            all_pongs = False
    return bao_factor_one_way(mouths, all_pongs, params)


@kernel
def bao_factor(payer, winner, melds, n_melds, params):
    """顺包 (the payer fed the winner three 口: f), 反包 (the winner fed the payer: 2f), both:
    their sum or the larger (``mutual_bao_mode``); 1 when neither (§anqing-bao)."""
    shun = _feed(melds, n_melds, winner, payer, params)
    fan = 2 * _feed(melds, n_melds, payer, winner, params)
    if shun == 0 and fan == 0:
        return 1
    if params[P_MUTUAL_BAO_MODE] == MUTUAL_BAO_SUM:
        return shun + fan
    return max(shun, fan)


@kernel
def bao_kind(payer, winner, melds, n_melds, params):
    """Which 包 binds ``payer`` to ``winner`` (§anqing-bao): BAO_NONE, BAO_SHUN (the payer fed the
    winner three 口), BAO_FAN (the winner fed the payer) or BAO_MUTUAL (both)."""
    shun = _feed(melds, n_melds, winner, payer, params) > 0
    fan = _feed(melds, n_melds, payer, winner, params) > 0
    return np.int64(shun) * BAO_SHUN + np.int64(fan) * BAO_FAN


@kernel
def lian_zhuang_points(streak, params):
    """L(k) of §anqing-lian-zhuang: 0 for k = 0, then the table, capped at its fourth value."""
    if streak <= 0:
        return 0
    return params[P_LIAN_ZHUANG_TABLE + min(streak, 4) - 1]


@kernel
def payments(total, winner, dealer, streak, melds, n_melds, params, amounts, factors):
    """§anqing-payments: each other seat pays (S + dealer extra + 连庄) x 包 factor -> ``amounts``
    (the winner's slot 0) and each payer's factor -> ``factors``."""
    for payer in range(4):
        amounts[payer] = 0
        factors[payer] = 0
        if payer == winner:
            continue
        extra = 0
        if winner == dealer or (payer == dealer and params[P_DEALER_EXTRA_SYMMETRIC]):
            extra = params[P_DEALER_EXTRA]
        streak_points = 0
        if winner == dealer or payer == dealer:
            streak_points = lian_zhuang_points(streak, params)
        factor = bao_factor(payer, winner, melds, n_melds, params)
        factors[payer] = factor
        amounts[payer] = (total + extra + streak_points) * factor
