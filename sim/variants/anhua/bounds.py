"""Anhua Seven Kings 安化七王麻将: the most one hand can move, from its options.

:func:`hand_score_bound` bounds every number a hand settles (§anhua-payments): each seat's score
change, each payment and each winner's points. ``tests/test_options.py`` checks that it times the
longest run a config allows stays below 2**62, so that the sums ``sim.analysis`` makes over a run
cannot overflow int64, and plays hands under random options to see that it holds. Pure Python.
"""

from __future__ import annotations

from .options import AnhuaOptions

MOST_BIGS = 5
"""B, the bigs of a win (§anhua-features), is at most 5: a heavy hand (三王 ... 七王, at most 3
bigs) may win only by self-draw or 杠上花 (§anhua-who-may-win) and a bloom is never seven pairs,
so 七王 + 清一色 + 小七对 or + 杠上花; a hand without a tier has at most 硬庄 + 清一色 +
小七对 + one of 抢杠胡 / 杠上炮, B = 4."""


def hand_score_bound(options: AnhuaOptions, hands_per_session: int) -> int:
    """An upper bound of |score change| of any seat in one hand played under ``options`` (and of
    every payment and points value of it). ``hands_per_session`` is not read: no Anhua payment
    depends on the dealer's streak (§anhua-payers).

    Derivation (docs/rules/anhua.md):

    * points P = 2^(B+1) ≤ 2^6 = 64 (§anhua-base-points, :data:`MOST_BIGS`), doubled by
      ``kong_multi_tile_win = double`` (f = 2, §anhua-amount): P·f ≤ 128;
    * one payment is P·f·2^h, h ≤ ``bird_count`` hits (each bird lands on one seat, and a payment
      doubles for the birds on two seats, §anhua-bird-hits), plus 1 with 庄闲分; added before the
      birds it is (P·f + 1)·2^h, the larger (§anhua-dealer-bonus): at most (P·f + 1)·2^bird_count;
    * a hand has at most n − 1 payments: a self-draw's payers, or the winners of one discard or
      one kong (§anhua-payers), and nothing else is paid; a seat's change is at most their sum.
    """
    factor = 2 if options.kong_multi_tile_win == "double" else 1
    points = 2 ** (MOST_BIGS + 1) * factor
    payment = (points + (1 if options.dealer_bonus else 0)) * 2**options.bird_count
    return (options.player_count - 1) * payment
