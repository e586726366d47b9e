"""Weng'an 贵州瓮安麻将: the most one hand can move, from its options.

:func:`hand_score_bound` bounds every number a hand settles (§wengan-settlement-order): each
seat's score change, each payment, each winner's T and each point source. The maxima of
``base_stake`` and ``yuan_que_bonus`` (``options.py``) are chosen with it: ``tests/test_options.py``
checks that it times the longest run a config allows stays below 2**62, so that the sums
``sim.analysis`` makes over a run cannot overflow int64, and plays hands under random options to
see that it holds. Pure Python.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .options import N_TILES
from .patterns import PATTERN_POINTS

if TYPE_CHECKING:
    from . import WenganOptions

MOST_PATTERN = max(PATTERN_POINTS.values())
"""青龙背 30, the largest row of §wengan-pattern-score (exactly one row applies)."""
MOST_NAMED = 10
"""One 名堂 adds at most 10 (§wengan-mingtang: 9 or 8 to a 平胡, 10 to a big hand)."""
MOST_T = MOST_PATTERN + 4 * MOST_NAMED + 3
"""T = pattern + 天胡 + 地胡 + 抢杠 + 报听 + 杠开 3 (§wengan-hand-payments) ≤ 30 + 4·10 + 3 = 73."""
MOST_PAIR_EXTRAS = 1 + MOST_NAMED
"""Besides T and the dealer bonus a winner and one payer settle at most 热炮 1 and one 杀听
(§wengan-hot-cannon, §wengan-sha-ting)."""
MOST_CHICKEN_VALUE = 2 * 2 * (1 + 2) + 1
"""One chicken tile (§wengan-chicken-value) is worth at most 13: H ≤ 2 (two flips, each
designating a kind once, §wengan-chicken-flip, §wengan-chicken-double-flip); base + flip ≤
base·(1 + H) for the base of a gold tile (2 for 乌骨鸡, §wengan-chicken-wu-gu-ji), doubled on the
plain 冲锋鸡: 2·2·3 = 12; an ordinal 冲锋鸡4321 tile 4·(1 + H) = 12
(§wengan-chicken-charging-ordinal), a 全清幺 tile 2·H = 4; then 星期鸡 +1."""
MOST_RESPONSIBILITY = 1 + 2
"""责任鸡: the first 1s ponged pays 1, the first 8p 2 (§wengan-chicken-responsibility), paid or
paid back once each."""
MOST_KONGS = N_TILES // 4
"""A kong takes the four tiles of a kind: at most 27 in a hand."""
MOST_DOU = 3
"""爬坡豆 3, the largest dou of §wengan-kongs."""


def hand_score_bound(options: WenganOptions, hands_per_session: int) -> int:
    """An upper bound of |score change| of any seat in one hand played under ``options`` in
    sessions of ``hands_per_session`` hands (and of every payment, T and point source of it).

    A seat's change is what it receives less what it pays, so it is at most the sum of all the
    hand's payments, bounded here by kind, n = ``player_count`` (docs/rules/wengan.md):

    * pattern payments (§wengan-hand-payments, §wengan-cha-jiao): after a win at most n − 1
      payer-winner pairs (a self-draw's payers, or the winners of one discard or one robbed kong),
      each T ≤ :data:`MOST_T`, the dealer bonus D, 热炮 and 杀听 (:data:`MOST_PAIR_EXTRAS`); on a
      荒庄 k non-ready players pay n − k ready ones their best pattern ≤ 30 and D: at most ⌊n²/4⌋
      pairs, so ⌊n²/4⌋·(73 + D + 11) bounds both. D (§wengan-dealer-bonus) is 1 for 一口二, and
      the streak n for 连庄, which starts at 0 with each session and grows by at most one a hand
      (§wengan-dealer-streak): at most ``hands_per_session`` − 1;
    * chickens (§wengan-chicken-collection, §wengan-chicken-bao): each tile is owned once, save the
      winning tile of several winners of one discard or kong, counted by each (at most
      N_TILES + n − 1 tiles); each is worth ≤ :data:`MOST_CHICKEN_VALUE` and is collected from, or
      paid back to, at most n − 1 players; plus the 责任鸡 (:data:`MOST_RESPONSIBILITY`);
    * dou (§wengan-dou-settlement, §wengan-bao-gang): at most 27 kongs, each ≤ 3 from or to
      each of n − 1 players;
    * all the above times 底分 ``base_stake`` (§wengan-total); then 原缺, not multiplied, with 2
      or 3 players and 定缺: every seat may collect ``yuan_que_bonus`` from each other seat
      (§wengan-yuan-que).
    """
    players = options.player_count
    others = players - 1
    dealer_bonus = {
        "none": 0,
        "yi_kou_er": 1,
        "lian_zhuang": hands_per_session - 1,
    }[options.dealer_bonus_mode]
    patterns = players * players // 4 * (MOST_T + dealer_bonus + MOST_PAIR_EXTRAS)
    chickens = others * (N_TILES + others) * MOST_CHICKEN_VALUE + MOST_RESPONSIBILITY
    dou = others * MOST_KONGS * MOST_DOU
    yuan_que = 0
    if players < 4 and options.ding_que:
        yuan_que = players * others * options.yuan_que_bonus
    return options.base_stake * (patterns + chickens + dou) + yuan_que
