"""Intervals: Wilson's for proportions, Student's t for means (the t distribution computed here:
regularised incomplete beta, no scipy)."""

from __future__ import annotations

import functools
import math
from statistics import NormalDist
from typing import Any, NamedTuple

import numpy as np


def _z(confidence: float) -> float:
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1, not {confidence}")
    return NormalDist().inv_cdf(0.5 + confidence / 2)


def wilson_interval(successes, trials, confidence: float = 0.95):
    """Wilson score interval ``(lo, hi)`` of a proportion; arrays in, arrays out.

    Unlike the Wald interval it stays inside [0, 1] and keeps its coverage for rare events
    (a pattern seen 0 or 3 times in 10,000 hands). ``trials == 0`` gives NaN.

    >>> lo, hi = wilson_interval(0, 100)
    >>> round(float(lo), 4), round(float(hi), 4)
    (0.0, 0.037)
    >>> [round(float(x), 4) for x in wilson_interval(50, 100)[0:2]]
    [0.4038, 0.5962]
    """
    z = _z(confidence)
    x = np.asarray(successes, dtype=float)
    n = np.asarray(trials, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = x / n
        denominator = 1 + z * z / n
        center = (p + z * z / (2 * n)) / denominator
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
        lo = np.where(x <= 0, 0.0, np.clip(center - half, 0, 1))
        hi = np.where(x >= n, 1.0, np.clip(center + half, 0, 1))
    lo = np.where(n > 0, lo, np.nan)
    hi = np.where(n > 0, hi, np.nan)
    if lo.ndim == 0:
        return float(lo), float(hi)
    return lo, hi


def _beta_continued_fraction(a: float, b: float, x: float) -> float:
    # Lentz's method for the continued fraction of the incomplete beta function.
    tiny, eps = 1e-300, 1e-15
    qab, qap, qam = a + b, a + 1, a - 1
    c, d = 1.0, 1 - qab * x / qap
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 500):
        m2 = 2 * m
        for numerator in (m * (b - m) * x / ((qam + m2) * (a + m2)),
                          -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))):  # fmt: skip
            d = 1 + numerator * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + numerator / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1) < eps:
            break
    return h


def _regularized_beta(a: float, b: float, x: float) -> float:
    """I_x(a, b)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    log_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    if x < (a + 1) / (a + b + 2):
        return math.exp(log_front) * _beta_continued_fraction(a, b, x) / a
    return 1 - math.exp(log_front) * _beta_continued_fraction(b, a, 1 - x) / b


def _normal_two_sided_p(z: float) -> float:
    # erfc keeps tiny p-values (|z| > 8) that 1 - cdf rounds to 0.
    return math.erfc(abs(z) / math.sqrt(2))


def t_two_sided_p(statistic: float, df: float) -> float:
    """Two-sided p-value of Student's t with ``df`` (not necessarily whole) degrees of freedom.

    >>> round(t_two_sided_p(2.228138852, 10), 6)
    0.05
    """
    if math.isnan(statistic) or math.isnan(df):
        return math.nan
    if math.isinf(df) or df > 1e7:
        return _normal_two_sided_p(statistic)
    return _regularized_beta(df / 2, 0.5, df / (df + statistic * statistic))


@functools.lru_cache(maxsize=4096)
def t_quantile(probability: float, df: float) -> float:
    """The ``probability`` quantile of Student's t (bisection on :func:`t_two_sided_p`; remembered,
    since a summary asks for the same few quantiles many times).

    >>> round(t_quantile(0.975, 10), 6), round(t_quantile(0.975, 1), 4)
    (2.228139, 12.7062)
    """
    if not 0 < probability < 1:
        raise ValueError(f"probability must be between 0 and 1, not {probability}")
    if math.isnan(df) or df <= 0:
        return math.nan
    if math.isinf(df) or df > 1e7:
        return NormalDist().inv_cdf(probability)
    if probability == 0.5:
        return 0.0
    target = 2 * min(probability, 1 - probability)
    low, high = 0.0, max(1.0, NormalDist().inv_cdf(1 - target / 2))
    while t_two_sided_p(high, df) > target:
        low, high = high, high * 2
    for _ in range(200):
        middle = (low + high) / 2
        if t_two_sided_p(middle, df) > target:
            low = middle
        else:
            high = middle
        if high - low < 1e-12 * max(1.0, high):
            break
    value = (low + high) / 2
    return value if probability > 0.5 else -value


class MeanInterval(NamedTuple):
    n: int
    mean: float
    std: float
    lo: float
    hi: float


def mean_interval(values, confidence: float = 0.95) -> MeanInterval:
    """Mean of independent observations with its Student t interval.

    >>> round(mean_interval([1, 2, 3, 4, 5]).lo, 4)
    1.0368
    """
    values = np.asarray(values, dtype=float)
    n = len(values)
    if n == 0:
        return MeanInterval(0, math.nan, math.nan, math.nan, math.nan)
    mean = float(values.mean())
    if n == 1:
        return MeanInterval(1, mean, math.nan, math.nan, math.nan)
    std = float(values.std(ddof=1))
    half = t_quantile(0.5 + confidence / 2, n - 1) * std / math.sqrt(n)
    return MeanInterval(n, mean, std, mean - half, mean + half)


def _interval_columns(successes, trials, confidence) -> dict[str, Any]:
    successes = np.asarray(successes)
    trials = np.asarray(trials)
    lo, hi = wilson_interval(successes, trials, confidence)
    with np.errstate(divide="ignore", invalid="ignore"):
        rate = successes / trials
    return {"rate": rate, "lo": lo, "hi": hi}
