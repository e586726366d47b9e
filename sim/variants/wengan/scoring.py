"""Weng'an 贵州瓮安麻将: hand patterns, waits and chicken values (numba kernels).

Rules: docs/rules/wengan.md (§wengan-rules) (§wengan-hand-forms hand forms,
§wengan-pattern-score pattern scores, §wengan-chicken-flip chicken values), further decisions in
`docs/rules/wengan.md`. The slow reference these kernels are checked against is
``tests/reference/wengan.py``.

No decomposition is enumerated. 108 tiles, no wilds and no chi, so every meld is a pong or a kong
and every pattern follows from the concealed counts and a table lookup or two:

* 平胡: the concealed tiles split into sets and a pair (``is_complete``);
* 大对子: the concealed counts are all 3 but one 2 (that split is then the only one);
* 单吊 (``four_melds``): four melds, the concealed pair the winning tile's; (``any_pair_wait``):
  the concealed tiles without two of the winning kind split into sets alone (the sets-only half
  of the standard table);
* 七对 / 龙七对: no melds, every count even (a quad is two pairs); 龙七对 has a quad, by default
  the winning kind's (``long_qi_dui_win_on_quad``);
* 清一色 rows: every concealed and meld tile of one suit.

Also here: waits and readiness (查叫, 报听), the 通行证 a 平胡 needs to win on a discard, and the
chicken value of one physical tile (the flip's hits, §wengan-chicken-flip); ownership and 包 come
later.

Hands are counts by kind (the 27 suited kinds of a (27,) or (34,) array; honours are ignored), the
concealed hand of a winner *with* the winning tile. Melds are rows ``(meld type, tile, from seat)``
of the engine's (``sim.kernels.state``); only whether a meld is a pong (3 tiles) or a kong (4) is
read here. ``params`` is ``WenganOptions.params()``, indexed by the ``P_*`` constants of
``options.py``. Pattern codes, names and points: ``patterns.py``.
"""

from __future__ import annotations

import numpy as np

from ...kernels._jit import inline_kernel, kernel
from ...kernels.hand import (
    FORM_STANDARD,
    KIND_POWER,
    is_complete,
    seven_pairs_tiles_to_add,
    standard_tiles_to_add,
    standard_wilds_needed,
)
from ...kernels.state import MELD_PONG
from ...kernels.tables import BYTES_STANDARD_ANY
from .options import (  # noqa: F401 (read by later kernels as scoring.P_*)
    CHONG_FENG_3211,
    CHONG_FENG_4321,
    DAN_DIAO_ANY_PAIR_WAIT,
    DING_QUE_DECLARE,
    GOLD_MULTIPLICATIVE,
    N_PARAMS,
    P_BEN_JI,
    P_CHONG_FENG_MODE,
    P_DAN_DIAO_DEFINITION,
    P_DING_QUE,
    P_DING_QUE_MODE,
    P_FAN_PAI_JI,
    P_GOLD_MODEL,
    P_JIN_JI,
    P_LONG_QI_DUI_WIN_ON_QUAD,
    P_PASSPORT_KINDS,
    P_PING_HU_RON_NEEDS_PASSPORT,
    P_PLAYERS,
    P_QIAN_HOU_FAN_JI,
    P_QUAN_QING_YAO,
    P_WU_GU_JI,
    P_XING_QI_JI,
    P_XING_QI_JI_WEEKDAY,
    P_YAO_BAI_JI,
    PASSPORT_KONG_OR_CHICKEN,
    PASSPORT_NONE,
    PASSPORT_SCORING_KONG,
)
from .patterns import (
    DA_DUI_ZI,
    DAN_DIAO,
    FLUSH_OF,
    LONG_QI_DUI,
    N_PATTERNS,
    PATTERN_NONE,
    PATTERN_POINTS,
    PING_HU,
    QI_DUI,
)

N_SUITED = 27
"""Kinds 0-26: 1m-9m, 1p-9p, 1s-9s (§wengan-tiles)."""
ONE_M = 0
ONE_P = 9
EIGHT_P = 16  # 乌骨鸡
ONE_S = 18  # 幺鸡

POINTS = np.zeros(N_PATTERNS, np.int64)
"""Pattern code -> its §wengan-pattern-score points (0: no win)."""
FLUSH = np.arange(N_PATTERNS, dtype=np.int64)
"""Pattern code -> the row the same shape scores when the hand is one suit."""
for _code, _points in PATTERN_POINTS.items():
    POINTS[_code] = _points
for _code, _flush in FLUSH_OF.items():
    FLUSH[_code] = _flush


# ---------------------------------------------------------------------------------------------
# Hand shapes


@inline_kernel
def pattern_points(code):
    """The §wengan-pattern-score points of a pattern code (0: no win)."""
    return POINTS[code]


@inline_kernel
def meld_size(meld_type):
    """Tiles a meld holds: a pong 3, any kong (闷豆, 爬坡豆, 点豆, 憨包豆) 4."""
    return 3 if meld_type == MELD_PONG else 4


@inline_kernel
def meld_suits(melds, n_melds):
    """Bit s set when a meld of suit s (m, p, s) exists."""
    suits = 0
    for index in range(n_melds):
        suits |= 1 << (np.int64(melds[index, 1]) // 9)
    return suits


@inline_kernel
def concealed_suits(counts):
    suits = 0
    for kind in range(N_SUITED):
        if counts[kind] > 0:
            suits |= 1 << (kind // 9)
    return suits


@inline_kernel
def suited_keys(counts):
    """The characters, dots and bamboo keys of ``sim.kernels.hand`` (base-5 counts by rank)."""
    key_m = np.int64(0)
    key_p = np.int64(0)
    key_s = np.int64(0)
    for rank in range(8, -1, -1):
        key_m = key_m * 5 + np.int64(counts[rank])
        key_p = key_p * 5 + np.int64(counts[9 + rank])
        key_s = key_s * 5 + np.int64(counts[18 + rank])
    return key_m, key_p, key_s


@inline_kernel
def _sets_only(key_m, key_p, key_s, tables):
    """The tiles split into sets with no pair: each suit needs no wild for sets alone (the low
    half of the standard table, ``sim.core.tables``)."""
    sets = tables.suit_bytes
    return (
        (np.int64(sets[BYTES_STANDARD_ANY, key_m]) & 15) == 0
        and (np.int64(sets[BYTES_STANDARD_ANY, key_p]) & 15) == 0
        and (np.int64(sets[BYTES_STANDARD_ANY, key_s]) & 15) == 0
    )


@inline_kernel
def _higher(current, candidate):
    """The better of two pattern codes by points (§wengan-pattern-score: the highest row that fits
    applies)."""
    return candidate if POINTS[candidate] > POINTS[current] else current


@inline_kernel
def _dan_diao(counts, n_melds, win, key_m, key_p, key_s, params, tables):
    """单吊 on a complete standard hand (§wengan-hand-forms, §wengan-reading-dan-diao-four-melds):
    four melds and the winning tile pairing the last concealed tile; with ``any_pair_wait`` the
    winning kind is the pair of some split, i.e. the concealed tiles less two of it split into sets
    alone."""
    if params[P_DAN_DIAO_DEFINITION] != DAN_DIAO_ANY_PAIR_WAIT:
        return n_melds == 4
    if counts[win] < 2:
        return False
    pair = 2 * KIND_POWER[win]
    suit = win // 9
    return _sets_only(
        key_m - (pair if suit == 0 else 0),
        key_p - (pair if suit == 1 else 0),
        key_s - (pair if suit == 2 else 0),
        tables,
    )


@inline_kernel
def hand_pattern(counts, melds, n_melds, win, params, tables):
    """The pattern code of a complete hand (§wengan-hand-forms, §wengan-pattern-score),
    ``PATTERN_NONE`` if it is not complete: the highest row it fits, flush rows replacing their
    plain ones.

    counts: the concealed tiles *with* the winning tile ``win`` (kind); melds (k, 3) rows
    (meld type, tile, from seat), the first ``n_melds`` read. 定缺 is not checked here
    (``winning_pattern``).
    """
    size = np.int64(0)
    pairs = 0
    only_triplets_and_pairs = True
    all_even = True
    has_quad = False
    for kind in range(N_SUITED):
        count = np.int64(counts[kind])
        if count == 0:
            continue
        size += count
        if count == 2:
            pairs += 1
        elif count != 3:
            only_triplets_and_pairs = False
        if count % 2 == 1:
            all_even = False
        if count == 4:
            has_quad = True
    if size + 3 * n_melds != 14:
        return PATTERN_NONE
    key_m, key_p, key_s = suited_keys(counts)
    best = PATTERN_NONE
    if is_complete(key_m, key_p, key_s, 0, 0, FORM_STANDARD, tables):
        best = PING_HU
        if only_triplets_and_pairs and pairs == 1:
            best = DA_DUI_ZI
        if _dan_diao(counts, n_melds, win, key_m, key_p, key_s, params, tables):
            best = DAN_DIAO
    if n_melds == 0 and all_even:
        # 龙七对: by default the winning tile makes the four
        # (§wengan-reading-long-qi-dui-winning-tile), else any quad
        on_quad = params[P_LONG_QI_DUI_WIN_ON_QUAD] != 0
        dragon = counts[win] == 4 if on_quad else has_quad
        best = _higher(best, LONG_QI_DUI if dragon else QI_DUI)
    suits = concealed_suits(counts) | meld_suits(melds, n_melds)
    if best != PATTERN_NONE and (suits == 1 or suits == 2 or suits == 4):
        best = FLUSH[best]
    return best


@inline_kernel
def que_allows(counts, melds, n_melds, que_suit, params):
    """定缺 (§wengan-ding-que): with 2 or 3 players and ``ding_que``, a hand is ready or wins only
    with at most two suits (``composition``), or none of the named suit ``que_suit`` (0 m, 1 p,
    2 s; ``declare``; -1: none named yet, nothing forbidden)."""
    if params[P_PLAYERS] == 4 or params[P_DING_QUE] == 0:
        return True
    suits = concealed_suits(counts) | meld_suits(melds, n_melds)
    if params[P_DING_QUE_MODE] == DING_QUE_DECLARE:
        return que_suit < 0 or ((suits >> que_suit) & 1) == 0
    return suits != 7


@inline_kernel
def winning_pattern(counts, melds, n_melds, win, que_suit, params, tables):
    """``hand_pattern`` of a hand that also meets 定缺, else ``PATTERN_NONE``."""
    if not que_allows(counts, melds, n_melds, que_suit, params):
        return PATTERN_NONE
    return hand_pattern(counts, melds, n_melds, win, params, tables)


@kernel
def best_pattern(counts, melds, n_melds, win, heavenly, que_suit, params, tables):
    """The winner's pattern code; a 天胡 (``heavenly``) scores the best choice of winning tile among
    the dealer's 14 (§wengan-reading-scorer-details). counts: the concealed tiles with the winning
    tile."""
    best = PATTERN_NONE
    # one call site of the inlined pattern check (numba inlines it once: half the compile)
    for kind in range(N_SUITED if heavenly else 1):
        tile = kind if heavenly else win
        if not heavenly or counts[tile] > 0:
            code = winning_pattern(counts, melds, n_melds, tile, que_suit, params, tables)
            best = _higher(best, code)
    return best


# ---------------------------------------------------------------------------------------------
# Waits, readiness 叫 and 查叫


@inline_kernel
def within_one_tile(counts, n_melds, tables):
    """Whether the concealed ``counts`` (13 or 14 tiles with ``n_melds`` melds) lie within one
    tile of a complete hand by the evaluator's tables: the standard form with any pair, or
    without melds seven pairs counting a quad as two (龙七对). Every Weng'an pattern is one of
    these (``hand_pattern``), so a 13-tile hand with a wait, and a 14-tile hand with a discard
    that leaves it ready, pass; the few hands that pass without (a wait on a fifth copy, 定缺)
    are then checked in full. Four table lookups, where the full check is a pattern per kind.
    Branch-free, so that numba pairs up the reference counts of the tables it inlines."""
    key_m, key_p, key_s = suited_keys(counts)
    standard = standard_tiles_to_add(key_m, key_p, key_s, 0, 4 - n_melds, False, tables)
    pairs = seven_pairs_tiles_to_add(key_m, key_p, key_s, 0, True, tables)
    return (standard <= 1) | ((n_melds == 0) & (pairs <= 1))


@inline_kernel
def _completes(key_m, key_p, key_s, n_melds, tables):
    """Whether the suited keys (14 tiles with ``n_melds`` melds) are complete in a form some
    pattern has (``hand_pattern``): the standard form with any pair, or without melds seven
    pairs counting a quad as two. Every winning hand passes; four table lookups per form,
    branch-free as ``within_one_tile``."""
    standard = standard_wilds_needed(key_m, key_p, key_s, 0, False, tables)
    pairs = seven_pairs_tiles_to_add(key_m, key_p, key_s, 0, True, tables)
    return (standard == 0) | ((n_melds == 0) & (pairs == 0))


@kernel
def waits(counts, melds, n_melds, que_suit, params, tables, patterns_out):
    """The kinds a 13-tile hand waits on, as a bit mask (bit k: kind k), and each wait's pattern
    code in ``patterns_out`` (27,) (``PATTERN_NONE`` where none).

    counts: the concealed tiles (without a winning tile). A kind of which the seat holds all four
    (concealed and melds) is no wait: there is no fifth copy. 定缺 applies (§wengan-ding-que).
    The full pattern check runs only for the kinds that complete a form (``_completes``): in
    a loop over kinds it counts references to the tables at every call, the table test not.
    """
    hand = np.zeros(N_SUITED, np.int64)
    held = np.zeros(N_SUITED, np.int64)
    for kind in range(N_SUITED):
        hand[kind] = counts[kind]
        held[kind] = counts[kind]
    for index in range(n_melds):
        held[melds[index, 1]] += meld_size(melds[index, 0])
    mask = np.int64(0)
    for kind in range(N_SUITED):
        patterns_out[kind] = PATTERN_NONE
    if not within_one_tile(hand, n_melds, tables):
        return mask
    key_m, key_p, key_s = suited_keys(hand)
    for kind in range(N_SUITED):
        if held[kind] >= 4:
            continue
        power = KIND_POWER[kind]
        suit = kind // 9
        if not _completes(
            key_m + (power if suit == 0 else 0),
            key_p + (power if suit == 1 else 0),
            key_s + (power if suit == 2 else 0),
            n_melds,
            tables,
        ):
            continue  # no pattern's form: the full check below would find none
        hand[kind] += 1
        # the cached win check, not the pattern check inlined a second time (half the Weng'an
        # compile, docs/engine.md "Compile time")
        code = best_pattern(hand, melds, n_melds, kind, np.bool_(False), que_suit, params, tables)
        hand[kind] -= 1
        if code != PATTERN_NONE:
            patterns_out[kind] = code
            mask |= np.int64(1) << kind
    return mask


@kernel
def max_wait_points(counts, melds, n_melds, que_suit, params, tables):
    """荒庄查叫's 最大牌型分 (§wengan-exhaustive-draw, §wengan-reading-cha-jiao-pattern-only): the
    best §wengan-pattern-score points over every wait of the 13-tile hand, no 名堂; 0 when the hand
    is not ready."""
    patterns = np.empty(N_SUITED, np.int64)
    waits(counts, melds, n_melds, que_suit, params, tables, patterns)
    best = np.int64(0)
    for kind in range(N_SUITED):
        best = max(best, pattern_points(patterns[kind]))
    return best


@kernel
def is_ready(counts, melds, n_melds, que_suit, params, tables):
    """叫 / 听牌 (§wengan-chicken-collection, §wengan-exhaustive-draw): the 13-tile hand has a
    wait."""
    patterns = np.empty(N_SUITED, np.int64)
    return waits(counts, melds, n_melds, que_suit, params, tables, patterns) != 0


# ---------------------------------------------------------------------------------------------
# Who may win on a discard: the 通行证


@inline_kernel
def has_passport(counts, melds, n_melds, late_kongs, params):
    """通行证 (§wengan-passport, §wengan-reading-passport-is-a-kong, §wengan-reading-scorer-details;
    option ``passport_kinds``): what lets a 平胡 win on a discard. ``any_kong``: a kong of any kind
    among the melds; ``scoring_kong``: a kong that is no 憨包豆 (bit i of ``late_kongs`` set: meld i
    is a 憨包豆); ``kong_or_chicken``: any kong, or a 1s (an 8p with 乌骨鸡) among the concealed
    tiles ``counts`` (without the winning tile) or the melds; ``none``: always. The five exceptions
    of §wengan-how-to-win are the caller's."""
    kinds = params[P_PASSPORT_KINDS]
    if kinds == PASSPORT_NONE:
        return True
    wu_gu_ji = params[P_WU_GU_JI] != 0
    chicken = counts[ONE_S] > 0 or (wu_gu_ji and counts[EIGHT_P] > 0)
    for index in range(n_melds):
        tile = melds[index, 1]
        if tile == ONE_S or (wu_gu_ji and tile == EIGHT_P):
            chicken = True
        if melds[index, 0] == MELD_PONG:
            continue
        if kinds != PASSPORT_SCORING_KONG or ((late_kongs >> index) & 1) == 0:
            return True
    return kinds == PASSPORT_KONG_OR_CHICKEN and chicken


@inline_kernel
def discard_win_allowed(code, passport, exception, params):
    """平胡点炮需要通行证 (§wengan-how-to-win): a big hand may always win a discard; a 平胡 only
    with a 通行证 (``has_passport``), in an exception (``exception``: 地胡, 抢杠, 热炮, the winner's
    报听, the discarder's 报听 = 杀听), or with ``ping_hu_ron_needs_passport`` off. A 过胡 lock
    arises only where this is true (§wengan-guo-hu)."""
    return code != PING_HU or params[P_PING_HU_RON_NEEDS_PASSPORT] == 0 or exception or passport


# ---------------------------------------------------------------------------------------------
# Chickens 鸡: the flip and the value of one physical tile (ownership and 包: later)


@inline_kernel
def flip_count(tiles_left, params):
    """Tiles flipped after a win (§wengan-chicken-flip): none without 翻牌鸡 or with an empty wall;
    two (the first and the last undrawn) with 前后翻鸡 when two or more remain; else one."""
    if params[P_FAN_PAI_JI] == 0 or tiles_left <= 0:
        return 0
    if params[P_QIAN_HOU_FAN_JI] != 0 and tiles_left >= 2:
        return 2
    return 1


@inline_kernel
def next_rank(kind):
    """Same suit, rank + 1, 9 wrapping to 1 (翻牌鸡)."""
    return kind - kind % 9 + (kind % 9 + 1) % 9


@inline_kernel
def previous_rank(kind):
    """Same suit, rank - 1, 1 wrapping to 9 (摇摆鸡)."""
    return kind - kind % 9 + (kind % 9 + 8) % 9


@kernel
def flip_hits(flips, n_flips, params, hits_out):
    """H(t) (§wengan-chicken-flip): ``hits_out`` (27,) = how many of the first ``n_flips`` flipped
    kinds designate kind t: rank + 1, the flip itself with 本鸡, rank - 1 with 摇摆鸡 (three
    distinct kinds, so a flip designates each at most once). All zero without 翻牌鸡."""
    for kind in range(N_SUITED):
        hits_out[kind] = 0
    if params[P_FAN_PAI_JI] == 0:
        return
    for index in range(n_flips):
        flip = np.int64(flips[index])
        hits_out[next_rank(flip)] += 1
        if params[P_BEN_JI] != 0:
            hits_out[flip] += 1
        if params[P_YAO_BAI_JI] != 0:
            hits_out[previous_rank(flip)] += 1


@inline_kernel
def is_weekday_chicken(kind, params):
    """星期鸡: the weekday's rank in every suit (§wengan-chicken-value,
    §wengan-reading-weekday-numbering)."""
    return params[P_XING_QI_JI] != 0 and kind % 9 + 1 == params[P_XING_QI_JI_WEEKDAY]


@inline_kernel
def is_fixed_chicken(kind, params):
    """幺鸡, 乌骨鸡 and 星期鸡: chickens wherever they lie, discard piles included
    (§wengan-chicken-collection)."""
    return (
        kind == ONE_S
        or (kind == EIGHT_P and params[P_WU_GU_JI] != 0)
        or is_weekday_chicken(kind, params)
    )


@inline_kernel
def base_value(kind, params):
    """幺鸡 1, 乌骨鸡 2 (with ``wu_gu_ji``), else 0 (§wengan-chickens)."""
    if kind == ONE_S:
        return 1
    return 2 if kind == EIGHT_P and params[P_WU_GU_JI] != 0 else 0


@inline_kernel
def is_gold(kind, params):
    """金鸡 (1s; 8p with 乌骨鸡) and 全清幺 (1p, 1m) earn 2 per hit (§wengan-chicken-value,
    §wengan-reading-8p-gold-needs-wu-gu-ji)."""
    fixed = kind == ONE_S or (kind == EIGHT_P and params[P_WU_GU_JI] != 0)
    return (params[P_JIN_JI] != 0 and fixed) or (
        params[P_QUAN_QING_YAO] != 0 and (kind == ONE_P or kind == ONE_M)
    )


ORDINAL_VALUES = np.zeros((4, 4), np.int64)
"""By ``chong_feng_mode`` code: the values of the 1st-4th counted discarded 1s (冲锋鸡4321 /
冲锋鸡3211, §wengan-chicken-value); none in the other modes."""
ORDINAL_VALUES[CHONG_FENG_4321] = (4, 3, 2, 1)
ORDINAL_VALUES[CHONG_FENG_3211] = (3, 2, 1, 1)


@inline_kernel
def ordinal_value(position, params):
    """The base of the ``position``-th (1-based) discarded 1s counted by 冲锋鸡4321 / 3211 (a 5th
    and later: the last value); 0 in the other modes (§wengan-chicken-value,
    §wengan-reading-charging-ordinals)."""
    return ORDINAL_VALUES[params[P_CHONG_FENG_MODE], min(position, 4) - 1]


@inline_kernel
def chicken_value(kind, hit_count, charging, ordinal, params):
    """One physical tile's value (§wengan-chicken-value, §wengan-reading-chicken-arithmetic,
    §wengan-reading-scorer-details): base + flip bonus (2 per hit for gold, 1 else) + 星期鸡 1.
    ``hit_count``: H(kind); ``charging``: the plain 冲锋鸡 doubles base and bonus; ``ordinal`` > 0:
    the 4321 / 3211 value (``ordinal_value``) replacing the base of a discarded 1s (0: none). With
    ``gold_model = multiplicative`` a gold tile with a base is worth base x (1 + H)."""
    base = np.int64(ordinal) if ordinal > 0 else np.int64(base_value(kind, params))
    hits = np.int64(hit_count)
    gold = is_gold(kind, params)
    if gold and params[P_GOLD_MODEL] == GOLD_MULTIPLICATIVE and base != 0:
        core = base * (1 + hits)
    else:
        core = base + hits * (2 if gold else 1)
    if charging:
        core *= 2
    return core + (1 if is_weekday_chicken(kind, params) else 0)
