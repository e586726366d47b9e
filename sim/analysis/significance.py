"""Significance tests: two proportions, paired and Welch t-tests, and the adjustment of several
p-values."""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from .intervals import (
    _normal_two_sided_p,
    mean_interval,
    t_quantile,
    t_two_sided_p,
    wilson_interval,
)


class TestResult(NamedTuple):
    difference: float
    lo: float
    hi: float
    statistic: float
    df: float
    p_value: float


def two_proportion_test(
    successes_a: int, trials_a: int, successes_b: int, trials_b: int, confidence: float = 0.95
) -> TestResult:
    """Difference ``p_a - p_b`` with Newcombe's hybrid score interval and the pooled z-test.

    >>> result = two_proportion_test(60, 100, 40, 100)
    >>> round(result.statistic, 4), round(result.p_value, 4)
    (2.8284, 0.0047)
    """
    p_a, p_b = successes_a / trials_a, successes_b / trials_b
    lo_a, hi_a = wilson_interval(successes_a, trials_a, confidence)
    lo_b, hi_b = wilson_interval(successes_b, trials_b, confidence)
    difference = p_a - p_b
    lo = difference - math.sqrt((p_a - lo_a) ** 2 + (hi_b - p_b) ** 2)
    hi = difference + math.sqrt((hi_a - p_a) ** 2 + (p_b - lo_b) ** 2)
    pooled = (successes_a + successes_b) / (trials_a + trials_b)
    se = math.sqrt(pooled * (1 - pooled) * (1 / trials_a + 1 / trials_b))
    if se == 0:  # both samples all successes or all failures: no evidence of a difference
        return TestResult(difference, lo, hi, 0.0, math.inf, 1.0)
    z = difference / se
    return TestResult(difference, lo, hi, z, math.inf, _normal_two_sided_p(z))


def paired_test(values_a, values_b, confidence: float = 0.95) -> TestResult:
    """Mean of the differences ``a_i - b_i`` of paired observations, with the paired t-test.

    For runs played on the same walls (same seed and hand numbers: common random numbers) the
    luck of the deal cancels in the difference, so this finds smaller effects than
    :func:`welch_test` on the same hands.

    >>> result = paired_test([5, 6, 7, 9], [4, 6, 5, 6])
    >>> round(result.difference, 2), round(result.statistic, 4), round(result.p_value, 4)
    (1.5, 2.3238, 0.1027)
    """
    a, b = np.asarray(values_a, dtype=float), np.asarray(values_b, dtype=float)
    if a.shape != b.shape:
        raise ValueError(f"paired observations must match: {a.shape} and {b.shape}")
    interval = mean_interval(a - b, confidence)
    n, difference = interval.n, interval.mean
    if n < 2:
        return TestResult(difference, math.nan, math.nan, math.nan, math.nan, math.nan)
    if interval.std == 0:
        p_value = 1.0 if difference == 0 else 0.0
        return TestResult(difference, difference, difference, math.nan, n - 1, p_value)
    statistic = difference / (interval.std / math.sqrt(n))
    return TestResult(
        difference, interval.lo, interval.hi, statistic, n - 1, t_two_sided_p(statistic, n - 1)
    )


def welch_test(values_a, values_b, confidence: float = 0.95) -> TestResult:
    """Difference of means ``mean_a - mean_b`` with Welch's t-test and interval.

    >>> result = welch_test([1, 2, 3, 4], [2, 4, 6, 8, 10])
    >>> round(result.statistic, 4), round(result.df, 3), round(result.p_value, 4)
    (-2.2514, 5.521, 0.0691)
    """
    a, b = np.asarray(values_a, dtype=float), np.asarray(values_b, dtype=float)
    n_a, n_b = len(a), len(b)
    if n_a < 2 or n_b < 2:
        return TestResult(math.nan, math.nan, math.nan, math.nan, math.nan, math.nan)
    difference = float(a.mean() - b.mean())
    share_a, share_b = float(a.var(ddof=1)) / n_a, float(b.var(ddof=1)) / n_b
    se = math.sqrt(share_a + share_b)
    if se == 0:
        p_value = 1.0 if difference == 0 else 0.0
        return TestResult(difference, difference, difference, math.nan, math.nan, p_value)
    df = float(se**4 / (share_a**2 / (n_a - 1) + share_b**2 / (n_b - 1)))
    statistic = difference / se
    half = t_quantile(0.5 + confidence / 2, df) * se
    return TestResult(
        difference, difference - half, difference + half, statistic, df,
        t_two_sided_p(statistic, df),
    )  # fmt: skip


def adjust_p_values(p_values, method: str = "holm") -> np.ndarray:
    """Adjusted p-values for several tests: ``holm`` (step-down, controls the family-wise error
    rate like Bonferroni but rejects more), ``bonferroni`` or ``none``. NaN stays NaN and does
    not count as a test.

    >>> adjust_p_values([0.01, 0.04, 0.03]).round(2).tolist()
    [0.03, 0.06, 0.06]
    """
    p = np.asarray(p_values, dtype=float)
    adjusted = np.full(p.shape, np.nan)
    valid = ~np.isnan(p)
    m = int(valid.sum())
    if method == "none":
        return p.copy()
    if method == "bonferroni":
        adjusted[valid] = np.minimum(1.0, p[valid] * m)
        return adjusted
    if method != "holm":
        raise ValueError(f"unknown correction {method!r}: use holm, bonferroni or none")
    index = np.flatnonzero(valid)[np.argsort(p[valid], kind="stable")]
    running = 0.0
    for rank, i in enumerate(index):
        running = max(running, min(1.0, (m - rank) * p[i]))
        adjusted[i] = running
    return adjusted
