"""Figures summed part by part, exactly: what lets every summary read a run larger than memory
batch by batch (:class:`sim.analysis.StoredRun`) and give the figures it gives on the run in
memory, whatever the batches.

* :class:`Moments`: count, sum and sum of squares of one value per hand, as Python integers
  (the project's scores and points are whole numbers; a hand's mean over k seats is a whole
  number over k, kept as its numerator with ``scale`` k). The mean and variance are then one
  division each, correctly rounded, the same for any cut of the hands.
* :class:`Histogram`: how often each distinct value occurs (a count per value, merged by
  adding counts): quantiles, extremes, spread and tails of a distribution, exact; its size is
  the number of distinct values (a few hundred for scores), not the number of hands.
"""

from __future__ import annotations

import math

import numpy as np

from .intervals import MeanInterval, t_quantile


class Moments:
    """Count, exact sum and sum of squares of per-hand values ``numerator / scale``.

    Values that are not whole numbers (none of the recorded columns; a frame made by hand
    might have them) are summed as floats with :func:`math.fsum` instead: then the last digits
    of the figures may depend on how the hands were cut into parts.
    """

    def __init__(self, scale: int = 1) -> None:
        self.scale = scale
        self.n = 0
        self.total: int | float = 0
        self.squares: int | float = 0
        self.minimum = math.inf
        self.exact = True

    def add(self, values) -> Moments:
        """Add one part's values (an array of numerators)."""
        values = np.asarray(values)
        if values.size == 0:
            return self
        self.n += values.size
        self.minimum = min(self.minimum, float(values.min()))
        if values.dtype.kind in "iu" or np.array_equal(values, np.rint(values)):
            total, squares = _integer_sums(values.astype(np.int64))
        else:
            self.exact = False
            floats = values.astype(float)
            total, squares = math.fsum(floats), math.fsum(floats * floats)
        if not self.exact:
            self.total = math.fsum([self.total, total])
            self.squares = math.fsum([self.squares, squares])
        else:
            self.total += total
            self.squares += squares
        return self

    def add_zeros(self, count: int) -> Moments:
        """Add ``count`` values of 0 (hands a part did not have a source or a tier in)."""
        if count > 0:
            self.n += count
            self.minimum = min(self.minimum, 0.0)
        return self

    @property
    def sum(self) -> float:
        """The sum of the values (numerators over ``scale``)."""
        return self.total / self.scale

    @property
    def mean(self) -> float:
        return self.total / (self.scale * self.n) if self.n else math.nan

    def interval(self, confidence: float = 0.95) -> MeanInterval:
        """Mean and Student t interval, as :func:`sim.analysis.mean_interval` of the values."""
        n = self.n
        if n == 0:
            return MeanInterval(0, math.nan, math.nan, math.nan, math.nan)
        if n == 1:
            return MeanInterval(1, self.mean, math.nan, math.nan, math.nan)
        spread = n * self.squares - self.total * self.total  # n^2 (n-1)/n times the variance
        variance = max(spread, 0) / (self.scale * self.scale * n * (n - 1))
        std = math.sqrt(variance)
        half = t_quantile(0.5 + confidence / 2, n - 1) * std / math.sqrt(n)
        return MeanInterval(n, self.mean, std, self.mean - half, self.mean + half)


def _integer_sums(values: np.ndarray) -> tuple[int, int]:
    """Sum and sum of squares of int64 values as Python integers, summed in slices short
    enough that no int64 partial sum overflows."""
    largest = int(np.abs(values).max()) if values.size else 0
    step = max(1, (1 << 62) // max(1, largest * largest))
    total = squares = 0
    for start in range(0, values.size, step):
        part = values[start : start + step]
        total += int(part.sum(dtype=np.int64))
        squares += int(np.dot(part, part))
    return total, squares


class Histogram:
    """How often each distinct value occurs, over every part added."""

    def __init__(self) -> None:
        self.values = np.zeros(0, np.int64)
        self.counts = np.zeros(0, np.int64)

    def add(self, values) -> Histogram:
        return self.merge(_histogram(np.asarray(values)))

    def merge(self, other: tuple[np.ndarray, np.ndarray] | Histogram, minus: bool = False):
        """Add (or with ``minus`` take away) another histogram's counts."""
        values, counts = (other.values, other.counts) if isinstance(other, Histogram) else other
        mine = (self.values, self.counts)
        if minus:
            self.values, self.counts = _merged_histograms([mine], (values, counts))
        else:
            self.values, self.counts = _merged_histograms([mine, (values, counts)])
        return self

    def copy(self) -> Histogram:
        copy = Histogram()
        copy.values, copy.counts = self.values.copy(), self.counts.copy()
        return copy

    @property
    def n(self) -> int:
        return int(self.counts.sum())


def _histogram(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct values of an array, ascending, and how often each occurs (integers through
    a count per value in their range, anything else through a sort)."""
    if len(values) == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    if values.dtype.kind not in "iub":
        distinct, counts = np.unique(values, return_counts=True)
        return distinct, counts.astype(np.int64)
    low, high = int(values.min()), int(values.max())
    if high - low > 10_000_000:  # too wide a range for a count per value
        distinct, counts = np.unique(values, return_counts=True)
        return distinct.astype(np.int64), counts.astype(np.int64)
    counts = np.bincount((values.astype(np.int64) - low).astype(np.intp), minlength=high - low + 1)
    present = np.flatnonzero(counts)
    return present.astype(np.int64) + low, counts[present].astype(np.int64)


def _merged_histograms(histograms, minus=None) -> tuple[np.ndarray, np.ndarray]:
    """Histograms added together (and ``minus`` taken away), as one."""
    values = np.concatenate([h[0] for h in histograms] + ([minus[0]] if minus else []))
    counts = np.concatenate([h[1] for h in histograms] + ([-minus[1]] if minus else []))
    distinct, where = np.unique(values, return_inverse=True)
    total = np.zeros(len(distinct), np.int64)
    np.add.at(total, where, counts)
    keep = total > 0
    return distinct[keep], total[keep]


QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)


def _linear_quantile(x: np.ndarray, ends: np.ndarray, n: int, q: float) -> float:
    """numpy's ``linear`` quantile of the sorted values that ``x`` (distinct values, ascending)
    and ``ends`` (``ends[i]``: how many values are <= ``x[i]``) describe, computed as numpy
    computes it (its virtual index and its two-sided interpolation)."""
    virtual = n * q + (1 + q * (1 - 1 - 1)) - 1
    below = math.floor(virtual)
    gamma = virtual - below
    below = min(max(below, 0), n - 1)
    above = min(below + 1, n - 1)
    a = x[np.searchsorted(ends, below, side="right")]
    b = x[np.searchsorted(ends, above, side="right")]
    difference = b - a
    if gamma >= 0.5:
        return float(b - difference * (1 - gamma))
    return float(a + difference * gamma)
