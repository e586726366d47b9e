"""Comparing runs: the observations behind a metric, tests of each run against a baseline, and
one row per cell of a sweep."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import NamedTuple

import numpy as np
import pandas as pd

from .intervals import _z, mean_interval, wilson_interval
from .patterns import _pattern_tally
from .points import points_per_hand
from .runs import (  # noqa: F401 (demo_run: examples)
    Run,
    StoredRun,
    Sweep,
    _as_parts,
    _deltas,
    _game_rows,
    batches,
    demo_run,
)
from .scores import _per_hand_role_scores, _role_numerators, dealer_advantage
from .significance import adjust_p_values, paired_test, two_proportion_test, welch_test
from .tallies import Moments


class Proportion(NamedTuple):
    """A metric that counts hands: ``successes`` out of ``trials``; ``per_hand`` (0/1 per hand,
    optional) allows a paired comparison."""

    successes: int
    trials: int
    per_hand: np.ndarray | None = None


def _count(per_hand: np.ndarray) -> Proportion:
    per_hand = np.asarray(per_hand, dtype=bool)
    return Proportion(int(per_hand.sum()), len(per_hand), per_hand.astype(float))


def _hands_where(run: Run, wins_mask: pd.Series) -> Proportion:
    indicator = np.zeros(len(run.games), dtype=bool)
    indicator[_game_rows(run, run.wins.loc[wins_mask, "game"])] = True
    return _count(indicator)


def metric_values(run: Run, metric: str | Callable) -> Proportion | np.ndarray:
    """The observations behind a metric of :func:`compare_runs`: a :class:`Proportion` or an
    array of one value per hand. Metric names:

    * proportions of hands: ``draw_rate``, ``dealer_win_rate`` (hands the dealer won),
      ``win_kind:<kind>``, ``pattern:<name>``, ``tier:<name>``;
    * means per hand: ``mean_abs_score`` (mean |score| of the seats), ``dealer_score``,
      ``dealer_advantage`` (dealer minus non-dealer mean), ``score:<seat>``,
      ``tail:<x>`` (share of seats with |score| ≥ x), ``points:<source>``
      (:func:`points_per_hand`), ``mean:<column>`` (any numeric games column, e.g. ``turns``).

    A callable takes the run and returns either kind. A :class:`StoredRun` is read batch by
    batch (a callable gets each batch); the result holds one value per hand.
    """
    if isinstance(run, StoredRun):
        return _joined([metric_values(part, metric) for part in run.batches()])
    if callable(metric):
        result = metric(run)
        return result if isinstance(result, Proportion) else np.asarray(result, dtype=float)
    name, _, argument = metric.partition(":")
    games = run.games
    if name == "draw_rate":
        return _count(games["outcome"].astype(str) == "draw")
    if name == "dealer_win_rate":
        dealer = games["dealer"].to_numpy()[_game_rows(run, run.wins["game"])]
        return _hands_where(run, pd.Series(run.wins["seat"].to_numpy() == dealer, run.wins.index))
    if name == "win_kind":
        return _count(games["win_kind"].astype(str) == argument)
    if name in ("pattern", "tier"):
        return _hands_where(run, run.wins[name].astype(str) == argument)
    if name == "mean_abs_score":
        return np.abs(_deltas(run)).mean(axis=1)
    if name in ("dealer_score", "dealer_advantage"):
        scores = _per_hand_role_scores(run)
        if name == "dealer_score":
            return scores["dealer"]
        return scores["dealer"] - scores["non_dealer"]
    if name == "score":
        return games[f"delta_{int(argument)}"].to_numpy(dtype=float)
    if name == "tail":
        return (np.abs(_deltas(run)) >= float(argument)).mean(axis=1)
    if name == "points":
        per_hand = points_per_hand(run)
        if argument not in per_hand:
            raise KeyError(f"no point source {argument!r}: {list(per_hand.columns)}")
        return per_hand[argument].to_numpy()
    if name == "mean":
        return games[argument].to_numpy(dtype=float)
    raise KeyError(f"unknown metric {metric!r} (see sim.analysis.metric_values)")


def metric_estimate(run, metric: str, confidence: float = 0.95) -> dict:
    """A metric of :func:`metric_values` estimated over the whole run: ``kind`` (``proportion``
    or ``mean``), ``n``, ``estimate``, ``lo``, ``hi`` (Wilson, or Student t over hands). Summed
    batch by batch (counts, exact sums of the values' whole-number numerators), so a
    :class:`StoredRun` gives the figures of the run in memory without a value per hand held.

    >>> metric_estimate(demo_run(), "draw_rate")["estimate"]
    0.25
    """
    successes = trials = 0
    moments = None
    generic = metric in _SCALED
    for part in batches(run, *(([], []) if generic else (None, None))):
        values, scale = _scaled_values(part, metric)
        if isinstance(values, Proportion):
            successes, trials = successes + values.successes, trials + values.trials
            continue
        moments = moments if moments is not None else Moments(scale)
        moments.add(values)
    if moments is None:
        lo, hi = wilson_interval(successes, trials, confidence)
        estimate = successes / trials if trials else math.nan
        return {"kind": "proportion", "n": trials, "estimate": estimate, "lo": lo, "hi": hi}
    interval = moments.interval(confidence)
    return {"kind": "mean", "n": interval.n, "estimate": interval.mean, "lo": interval.lo,
            "hi": interval.hi}  # fmt: skip


_SCALED = ("mean_abs_score", "dealer_score", "dealer_advantage")
"""Metrics of one value per hand that :func:`_scaled_values` gives as whole-number numerators
over a denominator (a mean over seats), read from the games' required columns alone."""


def _scaled_values(part: Run, metric: str) -> tuple[Proportion | np.ndarray, int]:
    """A part's values of ``metric`` as numerators over a denominator (the scores are whole
    points: a mean over k seats is a whole number over k, summed exactly by :class:`Moments`);
    other metrics are :func:`metric_values` over 1."""
    if metric == "mean_abs_score":
        columns = [part.games[f"delta_{s}"].to_numpy() for s in range(part.n_players)]
        return sum(np.abs(column) for column in columns), part.n_players
    if metric in ("dealer_score", "dealer_advantage"):
        numerators = _role_numerators(part)
        if metric == "dealer_score":
            return numerators["dealer"], 1
        return numerators["difference"], part.n_players - 1
    return metric_values(part, metric), 1


def _joined(values: list) -> Proportion | np.ndarray:
    """The observations of consecutive parts of a run as those of the whole run."""
    if not isinstance(values[0], Proportion):
        return np.concatenate(values)
    per_hand = [v.per_hand for v in values]
    return Proportion(
        sum(v.successes for v in values),
        sum(v.trials for v in values),
        None if any(p is None for p in per_hand) else np.concatenate(per_hand),
    )


def _hand_numbers(run) -> np.ndarray:
    """The ``game`` column of a run (read alone from a stored run)."""
    if isinstance(run, StoredRun):
        return np.concatenate([p.games["game"].to_numpy() for p in run.batches([], [])])
    return run.games["game"].to_numpy()


def _changed_options(options: dict, baseline: dict) -> str:
    keys = [k for k in {**baseline, **options} if options.get(k) != baseline.get(k)]
    return ", ".join(f"{k}={options.get(k)}" for k in keys)


def _estimate(values, confidence) -> tuple[str, int, float, float, float]:
    if isinstance(values, Proportion):
        lo, hi = wilson_interval(values.successes, values.trials, confidence)
        return "proportion", values.trials, values.successes / values.trials, lo, hi
    interval = mean_interval(values, confidence)
    return "mean", interval.n, interval.mean, interval.lo, interval.hi


def compare_runs(
    runs,
    metric: str | Callable | Sequence[str | Callable],
    baseline: str | int = 0,
    alpha: float = 0.05,
    correction: str = "holm",
    all_pairs: bool = False,
    paired: bool = False,
) -> pd.DataFrame:
    """Compare runs (e.g. one per option value) on one or more metrics (:func:`metric_values`).

    Each run is compared with the ``baseline`` run (a label or a position), or every pair with
    ``all_pairs``. Proportions: two-proportion z-test (pooled) and Newcombe's interval of the
    difference; means per hand: Welch's t-test and interval. ``p_adjusted`` controls the
    family-wise error over all rows returned (``holm``, ``bonferroni`` or ``none``);
    ``significant`` is ``p_adjusted < alpha``; intervals are at 1 - ``alpha`` (not adjusted).

    The tests treat the runs as independent samples. Runs played on the same walls (sweep cells
    with one seed and the same hand numbers) are positively correlated, which makes those tests
    conservative; ``paired=True`` compares them hand by hand instead (:func:`paired_test`, on
    0/1 per hand for proportions), which is valid only for such runs and much sharper there.

    Columns ``metric, run, baseline, changed`` (options that differ from the baseline's),
    ``kind, n, estimate, lo, hi, baseline_n, baseline_estimate, baseline_lo, baseline_hi,
    difference, diff_lo, diff_hi, test, statistic, df, p_value, p_adjusted, significant``.

    >>> a, b = demo_run(), demo_run()
    >>> compare_runs({"a": a, "b": b}, "draw_rate")[["run", "baseline", "difference", "p_value"]]
      run baseline  difference  p_value
    0   b        a         0.0      1.0
    """
    parts = _as_parts(runs)
    labels = list(parts)
    if len(labels) < 2:
        raise ValueError("compare_runs needs at least two runs")
    if isinstance(baseline, int):
        baseline = labels[baseline]
    if baseline not in parts:
        raise KeyError(f"no run labelled {baseline!r}: {labels}")
    if all_pairs:
        pairs = [(a, b) for i, b in enumerate(labels) for a in labels[i + 1 :]]
    else:
        pairs = [(label, baseline) for label in labels if label != baseline]
    metrics = [metric] if isinstance(metric, str) or callable(metric) else list(metric)
    if paired:
        for label, reference in pairs:
            a, b = _hand_numbers(parts[label]), _hand_numbers(parts[reference])
            if len(a) != len(b) or (a != b).any():
                raise ValueError(
                    f"paired comparison of {label!r} and {reference!r} needs the same hands "
                    "(same seed and hand numbers)"
                )
    confidence = 1 - alpha
    rows = []
    for each in metrics:
        values = {label: metric_values(parts[label], each) for label in labels}
        for label, reference in pairs:
            kind, n, estimate, lo, hi = _estimate(values[label], confidence)
            _, base_n, base_estimate, base_lo, base_hi = _estimate(values[reference], confidence)
            if paired:
                test = "paired t"
                observed = [
                    v.per_hand if isinstance(v, Proportion) else v
                    for v in (values[label], values[reference])
                ]
                if any(v is None for v in observed):
                    raise ValueError(f"metric {each!r} has no per-hand values to pair")
                result = paired_test(*observed, confidence)
            elif kind == "proportion":
                test = "two-proportion z"
                result = two_proportion_test(
                    *values[label][:2], *values[reference][:2], confidence=confidence
                )
            else:
                test = "Welch t"
                result = welch_test(values[label], values[reference], confidence)
            rows.append(
                {
                    "metric": each if isinstance(each, str) else getattr(each, "__name__", "f"),
                    "run": label,
                    "baseline": reference,
                    "changed": _changed_options(parts[label].options, parts[reference].options),
                    "kind": kind,
                    "n": n,
                    "estimate": estimate,
                    "lo": lo,
                    "hi": hi,
                    "baseline_n": base_n,
                    "baseline_estimate": base_estimate,
                    "baseline_lo": base_lo,
                    "baseline_hi": base_hi,
                    "difference": result.difference,
                    "diff_lo": result.lo,
                    "diff_hi": result.hi,
                    "test": test,
                    "statistic": result.statistic,
                    "df": result.df,
                    "p_value": result.p_value,
                }
            )
    frame = pd.DataFrame(rows)
    frame["p_adjusted"] = adjust_p_values(frame["p_value"], correction)
    frame["significant"] = frame["p_adjusted"] < alpha
    return frame


def _metric_columns(name: str, values, confidence: float) -> dict[str, float]:
    _, _, estimate, lo, hi = _estimate(values, confidence)
    return {name: estimate, f"{name}_lo": lo, f"{name}_hi": hi}


def sweep_table(sweep, top_patterns: int = 3, confidence: float = 0.95) -> pd.DataFrame:
    """One row per sweep cell, for a designer's comparison of rule options.

    Columns: ``cell``, one column per swept option, ``hands``; then, each with ``_lo`` and
    ``_hi`` columns (Wilson for rates, t for means): ``draw_rate``, ``dealer_win_rate``,
    ``mean_abs_score`` (mean |score| per seat-hand: how swingy the game is),
    ``dealer_advantage`` (with ``dealer_advantage_p``, the paired t-test's p-value),
    ``points_<source>`` (points per hand of each :func:`points_per_hand` source) and
    ``pattern_<name>`` (share of hands) for the ``top_patterns`` most frequent patterns over
    the whole sweep. Accepts a :class:`Sweep`, a mapping label -> run or a list of runs (then
    the option columns are the options that differ between runs).

    >>> table = sweep_table({"x": demo_run(), "y": demo_run()}, top_patterns=1)
    >>> table[["cell", "hands", "draw_rate", "pattern_小七对"]]
      cell  hands  draw_rate  pattern_小七对
    0    x      4       0.25         0.25
    1    y      4       0.25         0.25
    """
    parts = _as_parts(sweep)
    if isinstance(sweep, Sweep):
        options = sweep.cell_options().set_index("cell")
    else:
        options = pd.DataFrame({label: run.options for label, run in parts.items()}).T
        varying = [c for c in options.columns if options[c].astype(str).nunique() > 1]
        options = options[varying]
    counts = pd.Series(dtype=np.int64)
    for run in parts.values():
        counts = counts.add(_pattern_tally(run)[0]["count"], fill_value=0)
    counts = counts.rename("count").rename_axis("pattern").reset_index()
    counts = counts.sort_values(["count", "pattern"], ascending=[False, True], kind="stable")
    top = counts["pattern"].head(top_patterns).tolist()
    rows = []
    for label, run in parts.items():
        row = {"cell": label}
        row.update(options.loc[label].to_dict() if label in options.index else {})
        row["hands"] = run.hands if isinstance(run, StoredRun) else len(run.games)
        for name in ("draw_rate", "dealer_win_rate", "mean_abs_score"):
            row.update(_metric_columns(name, metric_values(run, name), confidence))
        advantage = dealer_advantage(run, confidence)
        difference = advantage.set_index("role").loc["difference"]
        row.update(
            {
                "dealer_advantage": difference["mean"],
                "dealer_advantage_lo": difference["lo"],
                "dealer_advantage_hi": difference["hi"],
                "dealer_advantage_p": difference["p_value"],
            }
        )
        for source, values in points_per_hand(run).items():
            row.update(_metric_columns(f"points_{source}", values.to_numpy(), confidence))
        for pattern in top:
            values = metric_values(run, f"pattern:{pattern}")
            row.update(_metric_columns(f"pattern_{pattern}", values, confidence))
        rows.append(row)
    return pd.DataFrame(rows)


def _per_hand(run: Run, metric: str | Callable) -> np.ndarray:
    values = metric_values(run, metric)
    if isinstance(values, Proportion):
        if values.per_hand is None:
            raise ValueError(f"metric {metric!r} has no per-hand values")
        return values.per_hand
    return values


def _pooled(values: list[np.ndarray], paired: bool, confidence: float) -> tuple:
    """Mean over cells of each cell's mean, with its interval: per hand over the cells first
    (t over hands) when the cells share their hands, else from each cell's standard error."""
    if paired:
        interval = mean_interval(np.mean(values, axis=0), confidence)
        return interval.mean, interval.lo, interval.hi
    estimate = float(np.mean([v.mean() for v in values]))
    error = math.sqrt(sum(v.var(ddof=1) / len(v) for v in values)) / len(values)
    half = _z(confidence) * error
    return estimate, estimate - half, estimate + half


def option_effects(
    sweep, metrics: str | Callable | Sequence[str | Callable], confidence: float = 0.95
) -> pd.DataFrame:
    """Main effect of each swept option on each metric (:func:`metric_values`, per hand).

    For every axis of the sweep and each of its values: the metric averaged over all the cells
    with that value (so over every setting of the other options), and its difference
    ``effect`` from the axis' first value (the base value of the sweep file). Cells played on
    the same hands (one seed, the same hand numbers) are averaged hand by hand, so intervals are
    t intervals over hands and the effect's is a paired one; otherwise they come from each
    cell's standard error (normal approximation).

    Columns ``axis, value, metric, cells, estimate, lo, hi, effect, effect_lo, effect_hi``
    (the first value's effect is 0).
    """
    parts = _as_parts(sweep)
    options = sweep.cell_options() if isinstance(sweep, Sweep) else None
    if options is None or options.empty:
        raise ValueError("option_effects needs a sweep with at least one axis")
    options = options.set_index("cell").loc[[c for c in parts if c in set(options["cell"])]]
    hands = [_hand_numbers(parts[c]) for c in options.index]
    paired = all(len(h) == len(hands[0]) and (h == hands[0]).all() for h in hands[1:])
    metrics = [metrics] if isinstance(metrics, str) or callable(metrics) else list(metrics)
    rows = []
    for metric in metrics:
        name = metric if isinstance(metric, str) else getattr(metric, "__name__", "f")
        values = {cell: _per_hand(parts[cell], metric) for cell in options.index}
        for axis in options.columns:
            groups = []
            for value in sweep.axes[axis]:
                chosen = [c for c in options.index if _same_value(options.at[c, axis], value)]
                if chosen:  # a value whose cells are all missing (a partial sweep) is left out
                    groups.append((value, [values[c] for c in chosen]))
            first = groups[0][1]
            for value, group in groups:
                estimate, lo, hi = _pooled(group, paired, confidence)
                difference = _effect(group, first, paired, confidence)
                rows.append(
                    {"axis": axis, "value": value, "metric": name, "cells": len(group),
                     "estimate": estimate, "lo": lo, "hi": hi, "effect": difference[0],
                     "effect_lo": difference[1], "effect_hi": difference[2]}
                )  # fmt: skip
    return pd.DataFrame(rows)


def _same_value(a, b) -> bool:
    # true is not 1; a frame's cell holds a numpy scalar (np.True_), the axis a Python value
    a, b = (x.item() if isinstance(x, np.generic) else x for x in (a, b))
    return type(a) is type(b) and a == b if isinstance(a, bool) or isinstance(b, bool) else a == b


def _effect(group: list[np.ndarray], first: list[np.ndarray], paired: bool, confidence) -> tuple:
    if group is first:
        return 0.0, 0.0, 0.0
    if paired:
        difference = np.mean(group, axis=0) - np.mean(first, axis=0)
        interval = mean_interval(difference, confidence)
        return interval.mean, interval.lo, interval.hi
    a, a_lo, _ = _pooled(group, False, confidence)
    b, b_lo, _ = _pooled(first, False, confidence)
    half = math.hypot(a - a_lo, b - b_lo)
    return a - b, a - b - half, a - b + half


def unchanged_metrics(table: pd.DataFrame) -> list[str]:
    """The metrics of a :func:`sweep_table` (columns with ``_lo`` and ``_hi`` beside them) whose
    estimate and interval are the same in every cell: the swept options do not move them (in
    cells on the same walls, an option that only changes the payments leaves play as it is)."""
    return [
        column
        for column in table.columns
        if f"{column}_lo" in table.columns
        and f"{column}_hi" in table.columns
        and all(
            table[c].nunique(dropna=False) == 1 for c in (column, f"{column}_lo", f"{column}_hi")
        )
    ]
