"""Anqing 安庆麻将: the most one hand can move, from its options.

:func:`hand_score_bound` bounds every number a hand settles (§anqing-payment-rules): each seat's
score change, each payment and carry, and the winner's score S. The maxima of the numeric options
(``options.py``) are chosen with it: ``tests/test_options.py`` checks that it times the longest
run a config allows stays below 2**62, so that the sums ``sim.analysis`` makes over a run cannot
overflow int64, and plays hands under random options to see that it holds. Pure Python.
"""

from __future__ import annotations

from .options import N_PLAYERS, AnqingOptions

FIXED_ITEMS = {
    "base": 3,  # 基本胡 (§anqing-base)
    "menqing": 3,  # 门清（普通） (§anqing-menqing)
    "menqing_ying": 3,  # 门清（硬） (§anqing-menqing-ying)
    "pao_feng": 6,  # 跑风 (§anqing-pao-feng-points)
    "si_zuan": 30,  # 四个钻牌 (§anqing-four-zuan)
    "tian_hu": 30,  # 天胡 / 地胡 (§anqing-heavenly)
    "qi_dui_tian_hu": 30,  # 七对天胡 (§anqing-hard-seven-pairs)
    "qi_dui_you_zuan": 9,  # 七对有钻 (§anqing-soft-seven-pairs)
    "peng_peng_hu": 3,  # 碰碰胡 (§anqing-pong-pong)
    "da_diao_che": 30,  # 大吊车(无钻) (§anqing-big-crane)
    "da_diao_che_zuan": 3,  # 大吊车(有钻)
    "qi_xing": 3,  # 七星归位 (§anqing-seven-stars)
    "tie_lan": 9,  # 铁烂 (§anqing-shisanlan-grades)
    "ying_lan": 6,  # 硬烂
    "ruan_lan": 3,  # 软烂
    "feng": 4,  # 风: one per wind triplet or kong, at most four (§anqing-wind-sets)
}
"""The items of §anqing-score-table whose points no option sets, each at its largest."""
SET_KONGS = 4
"""Kongs that are sets (暗杠, 明杠, 加杠): a hand has four sets (§anqing-class-one)."""
SINGLE_KONGS = 2 * 4 + 4
"""Single-tile kongs: the four tiles of each of the two 杠牌 kinds and the four 钻
(§anqing-gang-tile-kong, §anqing-zuan-kong-needs-zhi-jiao)."""
MOST_SET_KONG_POINTS = 2 + 2
"""An 暗杠 of a wind, the largest kong of §anqing-kong-points."""
MOST_ONE_WAY_BAO = 3 * 2 * 1
"""f(A -> B) of §anqing-bao without the option: ×6 for four 口 with a chi, or three all pongs."""


def most_points(options: AnqingOptions) -> int:
    """An upper bound of the winner's score S (§anqing-score-sum): every item of
    §anqing-score-table at its largest, those that exclude each other included. 杠开 counts at
    most every kong of the winner, k ≤ 4 + 12 (§anqing-gang-kai,
    §anqing-reading-gang-kai-beyond-four); the kongs score ≤ 4 each as sets and
    ``single_kong_points`` each as single tiles (§anqing-kong-points); 双天胡 scores
    ``shuang_tian_hu_points`` (§anqing-shuang-tian-hu)."""
    kongs = SET_KONGS + SINGLE_KONGS
    gang_kai = 3 * kongs * (kongs + 1) // 2 if options.gang_kai_cumulative else 3 * kongs
    kong_points = SET_KONGS * MOST_SET_KONG_POINTS + SINGLE_KONGS * options.single_kong_points
    return sum(FIXED_ITEMS.values()) + gang_kai + kong_points + options.shuang_tian_hu_points


def hand_score_bound(options: AnqingOptions, hands_per_session: int) -> int:
    """An upper bound of |score change| of any seat in one hand played under ``options`` in
    sessions of ``hands_per_session`` hands (and of every payment, carry and S of it).

    Derivation (docs/rules/anqing.md): every win is self-drawn and only the three other players
    pay the winner; a 荒庄 pays nothing (§anqing-payments, §anqing-exhaustive-draw). Payer p pays
    (S + dealer extra + L(k)) × 包 factor (§anqing-payments):

    * S ≤ :func:`most_points`; the dealer extra is ``dealer_extra`` (§anqing-dealer-extra); L(k) is
      an entry of ``lian_zhuang_table`` (§anqing-lian-zhuang);
    * the 包 factor (§anqing-bao, §anqing-mutual-bao) is at most f(p→W) + 2·f(W→p) with ``sum``,
      the larger of the two with ``max``, where one way f ≤ max(``bao_all_pong_4_factor``, 6);
    * with ``lian_zhuang_cumulative`` a dealer's win also collects from each payer what he paid
      in the dealer's earlier wins of his spell (§anqing-lian-zhuang-cumulative): at most k
      amounts, where the spell starts anew with each session (§anqing-reading-session-streak), so
      k ≤ ``hands_per_session`` − 1.

    The winner's change is the sum of the three payments and carries; a payer's is his own.
    """
    one_way = max(options.bao_all_pong_4_factor, MOST_ONE_WAY_BAO)
    bao = 3 * one_way if options.mutual_bao_mode == "sum" else 2 * one_way
    points = most_points(options) + options.dealer_extra + max(options.lian_zhuang_table)
    payments = hands_per_session if options.lian_zhuang_cumulative else 1
    return (N_PLAYERS - 1) * points * bao * payments
