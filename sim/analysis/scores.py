"""Score changes: the dealer's advantage, every seat's score distribution and its tails."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from .intervals import _interval_columns, mean_interval, t_two_sided_p
from .runs import Run, _as_parts, _deltas, demo_run, per_run  # noqa: F401 (demo_run: examples)

ROLES = ("all", "dealer", "non_dealer")


def _delta_columns(run: Run) -> list[np.ndarray]:
    """Each seat's score changes, one array per seat (the frame's own columns, not a copy)."""
    return [run.games[f"delta_{seat}"].to_numpy() for seat in range(run.n_players)]


def _per_hand_role_scores(run: Run) -> dict[str, np.ndarray]:
    """Per hand: the dealer's score, the non-dealers' mean score, every seat's mean score.
    Summed seat by seat (no hands x seats matrix: a long run's would be large); the sums of a
    few integers are exact, so the figures are those of the matrix."""
    dealer = run.games["dealer"].to_numpy(dtype=int)
    total = np.zeros(len(dealer))
    dealer_score = np.zeros(len(dealer))
    for seat, column in enumerate(_delta_columns(run)):
        total += column
        np.copyto(dealer_score, column, where=dealer == seat, casting="unsafe")
    non_dealer = (total - dealer_score) / (run.n_players - 1)
    return {"all": total / run.n_players, "dealer": dealer_score, "non_dealer": non_dealer}


@per_run
def dealer_advantage(run: Run, confidence: float = 0.95, alpha: float = 0.05) -> pd.DataFrame:
    """Mean score per hand as dealer (庄) and as non-dealer (闲), and their difference.

    Rows ``dealer``, ``non_dealer`` and ``difference``; columns ``role, hands, mean, std, lo,
    hi`` and, on the difference row, ``statistic`` (t), ``df``, ``p_value`` and ``significant``
    (p < ``alpha``). The non-dealer figure of a hand is the mean of the non-dealer seats; the
    difference is a paired t-test over hands of (dealer score - non-dealer mean).

    >>> dealer_advantage(demo_run())[["role", "hands", "mean"]]
             role  hands      mean
    0      dealer      4 -0.500000
    1  non_dealer      4  0.166667
    2  difference      4 -0.666667
    """
    scores = _per_hand_role_scores(run)
    rows = []
    difference = scores["dealer"] - scores["non_dealer"]
    for role, values in (
        ("dealer", scores["dealer"]),
        ("non_dealer", scores["non_dealer"]),
        ("difference", difference),
    ):
        interval = mean_interval(values, confidence)
        rows.append(
            {
                "role": role,
                "hands": interval.n,
                "mean": interval.mean,
                "std": interval.std,
                "lo": interval.lo,
                "hi": interval.hi,
            }
        )
    frame = pd.DataFrame(rows)
    n = len(difference)
    std = rows[2]["std"]
    if n > 1 and std > 0:
        statistic = rows[2]["mean"] / (std / math.sqrt(n))
        p_value = t_two_sided_p(statistic, n - 1)
    else:
        statistic, p_value = math.nan, (math.nan if n < 2 else float(rows[2]["mean"] == 0))
    frame["statistic"] = [math.nan, math.nan, statistic]
    frame["df"] = [math.nan, math.nan, n - 1]
    frame["p_value"] = [math.nan, math.nan, p_value]
    frame["significant"] = pd.array([pd.NA, pd.NA, p_value < alpha], dtype="boolean")
    return frame


def seat_scores(run: Run) -> pd.DataFrame:
    """Long frame of score changes: ``game, seat, dealer`` (bool: seat dealt this hand),
    ``score``; with ``run`` first for several runs.

    >>> seat_scores(demo_run()).head(3)
       game  seat  dealer  score
    0     0     0    True      6
    1     1     0    True      0
    2     2     0   False      0
    """
    blocks = []
    for label, part in _as_parts(run).items():
        deltas = part.games[[f"delta_{s}" for s in range(part.n_players)]]
        for seat in range(part.n_players):
            block = pd.DataFrame(
                {
                    "game": part.games["game"].to_numpy(),
                    "seat": seat,
                    "dealer": part.games["dealer"].to_numpy() == seat,
                    "score": deltas[f"delta_{seat}"].to_numpy(),
                }
            )
            if not (isinstance(run, Run) and not run.is_combined):
                block.insert(0, "run", label)
            blocks.append(block)
    return pd.concat(blocks, ignore_index=True)


def _tail_name(threshold) -> str:
    return f"p_abs_ge_{threshold:g}"


@per_run
def score_distribution(
    run: Run, thresholds: Sequence[float] = (8, 16, 32, 64), confidence: float = 0.95
) -> pd.DataFrame:
    """Distribution of a seat's score change per hand: per seat, then pooled over seats for
    ``all`` / ``dealer`` / ``non_dealer`` (``seat`` <NA>).

    Columns ``seat, role, observations`` (seat-hands), ``mean, lo, hi`` (t interval; pooled rows
    average a hand's seats first, so it is exact even though seats of a hand are dependent:
    ``all`` is 0 ± 0 in a zero-sum game), ``std, variance, min, q05, q25, median, q75, q95, max``
    (of the seat-hands), ``mean_abs`` and ``p_abs_ge_<x>`` = P(|score| ≥ x) for each threshold
    (intervals: :func:`tail_probabilities`).

    >>> score_distribution(demo_run(), thresholds=[8])[["seat", "role", "mean", "p_abs_ge_8"]]
       seat        role      mean  p_abs_ge_8
    0     0         all -0.500000    0.250000
    1     1         all -4.500000    0.500000
    2     2         all -0.500000    0.500000
    3     3         all  5.500000    0.250000
    4  <NA>         all  0.000000    0.375000
    5  <NA>      dealer -0.500000    0.250000
    6  <NA>  non_dealer  0.166667    0.416667
    """
    columns = _delta_columns(run)
    per_hand = _per_hand_role_scores(run)
    if not all(column.dtype.kind in "iu" for column in columns):
        return _score_distribution_of_values(run, thresholds, confidence, per_hand)
    # integer scores: every figure from counts of each value (a seat-hands copy of a long run's
    # scores, and its sorted copy for the quantiles, would not fit in memory)
    seats = [_histogram(column) for column in columns]
    everyone = _merged(seats)
    dealer = _histogram(per_hand["dealer"].astype(np.int64))
    groups = [(seat, "all", seats[seat], columns[seat]) for seat in range(run.n_players)]
    groups += [
        (pd.NA, "all", everyone, per_hand["all"]),
        (pd.NA, "dealer", dealer, per_hand["dealer"]),
        (pd.NA, "non_dealer", _merged([everyone], minus=dealer), per_hand["non_dealer"]),
    ]
    rows = []
    for seat, role, (values, counts), hand_values in groups:
        interval = mean_interval(hand_values, confidence)
        row = {"seat": seat, "role": role, **_counted_summary(values, counts, thresholds)}
        row.update(lo=interval.lo, hi=interval.hi)
        rows.append(row)
    frame = pd.DataFrame(rows)[_DISTRIBUTION_COLUMNS + [_tail_name(t) for t in thresholds]]
    frame["seat"] = frame["seat"].astype("Int64")
    return frame


_DISTRIBUTION_COLUMNS = [
    *("seat", "role", "observations", "mean", "lo", "hi", "std", "variance", "min"),
    *("q05", "q25", "median", "q75", "q95", "max", "mean_abs"),
]
QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)


def _histogram(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct values of an integer array, ascending, and how often each occurs."""
    if len(values) == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    low, high = int(values.min()), int(values.max())
    if high - low > 10_000_000:  # too wide a range for a count per value
        return np.unique(values, return_counts=True)
    counts = np.bincount((values - low).astype(np.intp), minlength=high - low + 1)
    present = np.flatnonzero(counts)
    return present.astype(np.int64) + low, counts[present].astype(np.int64)


def _merged(histograms, minus=None) -> tuple[np.ndarray, np.ndarray]:
    """Histograms added together (and ``minus`` taken away), as one."""
    values = np.concatenate([h[0] for h in histograms] + ([minus[0]] if minus else []))
    counts = np.concatenate([h[1] for h in histograms] + ([-minus[1]] if minus else []))
    distinct, where = np.unique(values, return_inverse=True)
    total = np.bincount(where, weights=counts, minlength=len(distinct)).astype(np.int64)
    keep = total > 0
    return distinct[keep], total[keep]


def _counted_summary(values: np.ndarray, counts: np.ndarray, thresholds) -> dict:
    """What :func:`score_distribution` says of one group, from its values' counts: the figures
    numpy gives on the values themselves (its ``linear`` quantiles, ddof=1 spread)."""
    n = int(counts.sum())
    nan = math.nan
    row = {"observations": n}
    if n == 0:
        row.update(dict.fromkeys(("mean", "std", "variance", "min", "max", "mean_abs"), nan))
        row.update({_tail_name(t): nan for t in thresholds})
        return row
    x = values.astype(float)
    mean = float((x * counts).sum() / n)
    variance = float((counts * (x - mean) ** 2).sum() / (n - 1)) if n > 1 else nan
    row.update(mean=mean, variance=variance, std=math.sqrt(variance) if n > 1 else nan)
    row.update(min=float(x[0]), max=float(x[-1]), mean_abs=float((np.abs(x) * counts).sum() / n))
    ends = np.cumsum(counts)  # ends[i]: how many values are <= values[i]
    for name, q in zip(("q05", "q25", "median", "q75", "q95"), QUANTILES, strict=True):
        row[name] = _linear_quantile(x, ends, n, q)
    for threshold in thresholds:
        row[_tail_name(threshold)] = float(counts[np.abs(x) >= threshold].sum() / n)
    return row


def _linear_quantile(x: np.ndarray, ends: np.ndarray, n: int, q: float) -> float:
    """numpy's ``linear`` quantile of the sorted values that ``x`` and ``ends`` describe,
    computed as numpy computes it (its virtual index and its two-sided interpolation)."""
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


def _score_distribution_of_values(run: Run, thresholds, confidence, per_hand) -> pd.DataFrame:
    """:func:`score_distribution` of scores that are not integers, from the values."""
    deltas = _deltas(run)
    dealer_mask = np.zeros(deltas.shape, dtype=bool)
    dealer_mask[np.arange(len(deltas)), run.games["dealer"].to_numpy(dtype=int)] = True
    groups = [(seat, "all", deltas[:, seat], deltas[:, seat]) for seat in range(run.n_players)]
    groups += [
        (pd.NA, "all", deltas.ravel(), per_hand["all"]),
        (pd.NA, "dealer", deltas[dealer_mask], per_hand["dealer"]),
        (pd.NA, "non_dealer", deltas[~dealer_mask], per_hand["non_dealer"]),
    ]
    rows = []
    for seat, role, values, hand_values in groups:
        interval = mean_interval(hand_values, confidence)
        quantiles = np.quantile(values, [0.05, 0.25, 0.5, 0.75, 0.95]) if len(values) else []
        row = {
            "seat": seat,
            "role": role,
            "observations": len(values),
            "mean": values.mean() if len(values) else math.nan,
            "lo": interval.lo,
            "hi": interval.hi,
            "std": values.std(ddof=1) if len(values) > 1 else math.nan,
            "variance": values.var(ddof=1) if len(values) > 1 else math.nan,
            "min": values.min() if len(values) else math.nan,
            **dict(zip(["q05", "q25", "median", "q75", "q95"], quantiles, strict=False)),
            "max": values.max() if len(values) else math.nan,
            "mean_abs": np.abs(values).mean() if len(values) else math.nan,
        }
        for threshold in thresholds:
            row[_tail_name(threshold)] = (np.abs(values) >= threshold).mean()
        rows.append(row)
    frame = pd.DataFrame(rows)
    frame["seat"] = frame["seat"].astype("Int64")
    return frame


@per_run
def tail_probabilities(
    run: Run, thresholds: Sequence[float] = (8, 16, 32, 64), confidence: float = 0.95
) -> pd.DataFrame:
    """P(|score| ≥ x) per seat and pooled (``seat`` <NA>), with Wilson intervals.

    Columns ``seat, threshold, observations, count, probability, lo, hi``. The pooled row counts
    every seat-hand as an observation; seats of one hand are dependent, so read its interval as
    approximate.

    >>> tail_probabilities(demo_run(), thresholds=[24])[["seat", "count", "probability"]]
       seat  count  probability
    0     0      0       0.0000
    1     1      0       0.0000
    2     2      0       0.0000
    3     3      1       0.2500
    4  <NA>      1       0.0625
    """
    absolute = np.abs(_deltas(run))
    rows = []
    for threshold in thresholds:
        hits = absolute >= threshold
        for seat in [*range(run.n_players), pd.NA]:
            chosen = hits.ravel() if seat is pd.NA else hits[:, seat]
            rows.append(
                {
                    "seat": seat,
                    "threshold": threshold,
                    "observations": chosen.size,
                    "count": int(chosen.sum()),
                }
            )
    frame = pd.DataFrame(rows)
    frame["seat"] = frame["seat"].astype("Int64")
    columns = _interval_columns(frame["count"], frame["observations"], confidence)
    columns["probability"] = columns.pop("rate")
    return frame.assign(**{k: columns[k] for k in ("probability", "lo", "hi")})
