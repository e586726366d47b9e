"""Score changes: the dealer's advantage, every seat's score distribution and its tails. Each is
summed part by part (:func:`sim.analysis.runs.batches`: exact integer sums, counts per value),
so it takes a run larger than memory too."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from .intervals import _interval_columns, t_two_sided_p
from .runs import Run, _as_parts, batches, demo_run, is_single, per_run  # noqa: F401
from .tallies import QUANTILES, Histogram, Moments, _linear_quantile

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


def _role_numerators(run: Run) -> dict[str, np.ndarray]:
    """Per hand of a part, whole-number numerators of the role scores (see
    :func:`_role_moments` for their denominators): the dealer's score, every seat's total, the
    non-dealers' total and (n - 1) x dealer - non-dealers' total."""
    dealer = run.games["dealer"].to_numpy(dtype=int)
    columns = _delta_columns(run)
    kind = np.int64 if all(c.dtype.kind in "iu" for c in columns) else float
    total = np.zeros(len(dealer), kind)
    dealer_score = np.zeros(len(dealer), kind)
    for seat, column in enumerate(columns):
        total += column
        np.copyto(dealer_score, column, where=dealer == seat, casting="unsafe")
    others = total - dealer_score
    difference = (run.n_players - 1) * dealer_score - others
    return {"all": total, "dealer": dealer_score, "non_dealer": others, "difference": difference}


def _role_moments(n_players: int) -> dict[str, Moments]:
    """The per-hand role scores' tallies, each with the denominator of its numerator: a seat's
    mean over all seats (n), the non-dealers' mean (n - 1), the dealer's advantage over it."""
    scales = {"all": n_players, "dealer": 1, "non_dealer": n_players - 1}
    return {role: Moments(scale) for role, scale in {**scales, "difference": n_players - 1}.items()}


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
    moments = _role_moments(run.n_players)
    for part in batches(run, games=[], wins=[]):
        for role, values in _role_numerators(part).items():
            moments[role].add(values)
    rows = []
    for role in ("dealer", "non_dealer", "difference"):
        interval = moments[role].interval(confidence)
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
    n = moments["difference"].n
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
    for label, whole in _as_parts(run).items():
        for part in batches(whole, games=[], wins=[]):
            blocks += _seat_score_blocks(part, None if is_single(run) else label)
    return pd.concat(blocks, ignore_index=True)


@per_run
def seat_score_counts(run: Run) -> pd.DataFrame:
    """:func:`seat_scores` counted: one row per seat and score, ``seat, score, count`` (seats in
    order, scores ascending; a score no hand of a seat had has no row). Summed batch by batch,
    so it takes a run larger than memory: its size is the number of distinct scores.

    >>> seat_score_counts(demo_run()).head(3)
       seat  score  count
    0     0     -8      1
    1     0      0      2
    2     0      6      1
    """
    counted = [Histogram() for _ in range(run.n_players)]
    for part in batches(run, games=[], wins=[]):
        for seat, column in enumerate(_delta_columns(part)):
            counted[seat].add(column)
    return pd.DataFrame(
        {
            "seat": np.repeat(np.arange(run.n_players), [len(h.values) for h in counted]),
            "score": np.concatenate([h.values for h in counted]),
            "count": np.concatenate([h.counts for h in counted]),
        }
    )


def _seat_score_blocks(part: Run, label: str | None) -> list[pd.DataFrame]:
    blocks = []
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
        if label is not None:
            block.insert(0, "run", label)
        blocks.append(block)
    return blocks


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
    # every figure from counts of each value and exact sums (a seat-hands copy of a long run's
    # scores, and its sorted copy for the quantiles, would not fit in memory)
    seats = [Histogram() for _ in range(run.n_players)]
    dealer = Histogram()
    per_seat = [Moments() for _ in range(run.n_players)]
    roles = _role_moments(run.n_players)
    for part in batches(run, games=[], wins=[]):
        for seat, column in enumerate(_delta_columns(part)):
            seats[seat].add(column)
            per_seat[seat].add(column)
        numerators = _role_numerators(part)
        dealer.add(numerators["dealer"])
        for role in ("all", "dealer", "non_dealer"):
            roles[role].add(numerators[role])
    everyone = Histogram()
    for histogram in seats:
        everyone.merge(histogram)
    non_dealer = everyone.copy().merge(dealer, minus=True)
    groups = [(seat, "all", seats[seat], per_seat[seat]) for seat in range(run.n_players)]
    groups += [
        (pd.NA, "all", everyone, roles["all"]),
        (pd.NA, "dealer", dealer, roles["dealer"]),
        (pd.NA, "non_dealer", non_dealer, roles["non_dealer"]),
    ]
    rows = []
    for seat, role, counted, moments in groups:
        interval = moments.interval(confidence)
        row = {"seat": seat, "role": role}
        row.update(_counted_summary(counted.values, counted.counts, thresholds))
        row.update(lo=interval.lo, hi=interval.hi)
        rows.append(row)
    frame = pd.DataFrame(rows)[_DISTRIBUTION_COLUMNS + [_tail_name(t) for t in thresholds]]
    frame["seat"] = frame["seat"].astype("Int64")
    return frame


_DISTRIBUTION_COLUMNS = [
    *("seat", "role", "observations", "mean", "lo", "hi", "std", "variance", "min"),
    *("q05", "q25", "median", "q75", "q95", "max", "mean_abs"),
]


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
    hands = 0
    counts = np.zeros((len(thresholds), run.n_players), np.int64)
    for part in batches(run, games=[], wins=[]):
        hands += len(part.games)
        for seat, column in enumerate(_delta_columns(part)):
            absolute = np.abs(column)
            counts[:, seat] += [int((absolute >= threshold).sum()) for threshold in thresholds]
    rows = []
    for index, threshold in enumerate(thresholds):
        for seat in [*range(run.n_players), pd.NA]:
            pooled = seat is pd.NA
            rows.append(
                {
                    "seat": seat,
                    "threshold": threshold,
                    "observations": hands * (run.n_players if pooled else 1),
                    "count": int(counts[index].sum() if pooled else counts[index, seat]),
                }
            )
    frame = pd.DataFrame(rows)
    frame["seat"] = frame["seat"].astype("Int64")
    columns = _interval_columns(frame["count"], frame["observations"], confidence)
    columns["probability"] = columns.pop("rate")
    return frame.assign(**{k: columns[k] for k in ("probability", "lo", "hi")})
