"""Patterns (牌型) and tiers: how often each is won and what it pays."""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np
import pandas as pd

from .intervals import _interval_columns, mean_interval
from .runs import Run, _as_parts, demo_run, per_run, scored_wins  # noqa: F401 (demo_run: examples)


def pattern_frequency(
    run, confidence: float = 0.95, patterns: Iterable[str] | None = None
) -> pd.DataFrame:
    """Per pattern (牌型): how often a hand produces it, what it pays.

    Columns ``pattern, tier, count`` (winners with that pattern), ``hands_with`` (hands with at
    least one such winner), ``rate, lo, hi`` (``hands_with`` / hands, Wilson), ``share_of_wins``
    (``count`` / all winners), ``mean_points`` (base points P) and ``mean_score`` (the winner's
    score change). Most frequent first. ``patterns``: also list these names, with zero counts
    (their ``hi`` bounds how rare an unseen pattern is); with several runs, every pattern seen
    in any run is listed for each run.

    >>> pattern_frequency(demo_run())[["pattern", "count", "rate", "mean_score"]]
      pattern  count  rate  mean_score
    0     小七对      1  0.25        24.0
    1      平胡      1  0.25         6.0
    2      硬庄      1  0.25         8.0
    """
    patterns = list(patterns or [])
    if not (isinstance(run, Run) and not run.is_combined):
        parts = _as_parts(run)
        seen = {p for part in parts.values() for p in part.wins["pattern"].astype(str)}
        patterns += sorted(seen - set(patterns))
        return per_run(_pattern_frequency)(parts, confidence, patterns)
    return _pattern_frequency(run, confidence, patterns)


def _pattern_frequency(run: Run, confidence: float, patterns: list[str]) -> pd.DataFrame:
    wins = scored_wins(run)
    wins["pattern"] = wins["pattern"].astype(str)
    groups = wins[["pattern", "points", "score"]].groupby("pattern", sort=True)
    frame = pd.DataFrame(
        {
            "count": groups.size(),
            "hands_with": _hands_with(wins["pattern"], wins["game"]),
            "mean_points": groups["points"].mean(),
            "mean_score": groups["score"].mean(),
        }
    )
    if "tier" in wins:
        frame["tier"] = _most_common(wins["pattern"], wins["tier"])
    else:
        frame["tier"] = pd.NA
    extra = [p for p in patterns if p not in frame.index]
    if extra:
        zeros = pd.DataFrame({"count": 0, "hands_with": 0}, index=pd.Index(extra))
        frame = pd.concat([frame, zeros])
    frame.index.name = "pattern"
    frame = frame.reset_index()
    frame[["count", "hands_with"]] = frame[["count", "hands_with"]].astype(int)
    frame = frame.assign(**_interval_columns(frame["hands_with"], len(run.games), confidence))
    frame["share_of_wins"] = frame["count"] / max(len(wins), 1)
    frame = frame.sort_values(["count", "pattern"], ascending=[False, True], kind="stable")
    columns = ["pattern", "tier", "count", "hands_with", "rate", "lo", "hi", "share_of_wins"]
    return frame[[*columns, "mean_points", "mean_score"]].reset_index(drop=True)


def _hands_with(patterns: pd.Series, games: pd.Series) -> pd.Series:
    """Per pattern (sorted), the number of distinct hands with a winner of it: what
    ``groupby("pattern")["game"].nunique()`` gives, with a third of its memory (one key per
    winner, sorted once)."""
    codes, names = pd.factorize(patterns, sort=True)
    if len(names) == 0:
        return pd.Series([], index=names, dtype=np.int64)
    keys = games.to_numpy(dtype=np.int64) * len(names) + codes
    distinct = np.unique(keys)
    return pd.Series(np.bincount(distinct % len(names), minlength=len(names)), index=names)


def _most_common(keys: pd.Series, values: pd.Series) -> pd.Series:
    """Per distinct key, its most common value; on a tie the first in sorted order, as
    ``Series.mode`` gives it. One count table, not a Python call per key: this runs in every
    ``mjsim run`` summary."""
    key_codes, key_names = pd.factorize(keys, sort=True)
    if isinstance(values.dtype, pd.CategoricalDtype) and not values.isna().any():
        # a categorical's codes ranked as its names sort: no string per row (a long run has
        # millions); categories no row has count 0 and never win
        names = np.asarray(values.cat.categories.astype(str), dtype=object)
        order = np.argsort(names, kind="stable")
        rank = np.empty(len(names), np.intp)
        rank[order] = np.arange(len(names))
        value_codes, value_names = rank[values.cat.codes.to_numpy()], names[order]
    else:
        value_codes, value_names = pd.factorize(values.astype(str), sort=True)
    if len(key_names) == 0:
        return pd.Series([], index=key_names, dtype=object)
    counts = np.zeros((len(key_names), len(value_names)), np.int64)
    np.add.at(counts, (key_codes, value_codes), 1)
    return pd.Series(np.asarray(value_names)[counts.argmax(axis=1)], index=key_names)


@per_run
def tier_summary(run: Run, confidence: float = 0.95) -> pd.DataFrame:
    """Per tier (小胡 ... 双大豪华胡): frequency, and score per hand it brings.

    Columns ``tier, winners, hands_with, rate, lo, hi`` (hands with such a winner, Wilson),
    ``mean_points``, ``mean_score`` (the winner's score change), ``score_per_hand`` with
    ``score_lo, score_hi`` (winners' score from this tier per hand played, t interval over
    hands; its lower end is cut at 0 when no winner lost points, since a tier seen a handful of
    times gives a t interval that can dip below 0) and ``share_of_score`` (of all winners' score).

    >>> tier_summary(demo_run())[["tier", "winners", "mean_score", "score_per_hand"]]
      tier  winners  mean_score  score_per_hand
    0   小胡        1         6.0             1.5
    1   大胡        2        16.0             8.0
    2  双大胡        0         NaN             0.0
    """
    wins = scored_wins(run)
    hands = len(run.games)
    tier = wins["tier"]
    tiers = (
        list(tier.cat.categories)
        if isinstance(tier.dtype, pd.CategoricalDtype)
        else list(wins.groupby(tier.astype(str))["points"].mean().sort_values().index)
    )
    total_score = wins["score"].sum()
    rows = []
    for name in tiers:
        chosen = wins[tier.astype(str) == str(name)]
        per_hand = np.bincount(chosen["row"], weights=chosen["score"], minlength=hands)
        interval = mean_interval(per_hand, confidence)
        if (per_hand >= 0).all():
            # A rare tier's t interval can dip below 0; a mean of gains cannot.
            interval = interval._replace(lo=max(interval.lo, 0.0))
        rows.append(
            {
                "tier": str(name),
                "winners": len(chosen),
                "hands_with": chosen["game"].nunique(),
                "mean_points": chosen["points"].mean() if len(chosen) else math.nan,
                "mean_score": chosen["score"].mean() if len(chosen) else math.nan,
                "score_per_hand": interval.mean,
                "score_lo": interval.lo,
                "score_hi": interval.hi,
                "share_of_score": chosen["score"].sum() / total_score if total_score else math.nan,
            }
        )
    columns = ["tier", "winners", "hands_with", "mean_points", "mean_score", "score_per_hand",
               "score_lo", "score_hi", "share_of_score"]  # fmt: skip
    frame = pd.DataFrame(rows, columns=columns)  # the columns also when no hand was won
    rates = pd.DataFrame(_interval_columns(frame["hands_with"], hands, confidence))
    frame = pd.concat([frame.iloc[:, :3], rates, frame.iloc[:, 3:]], axis=1)
    return frame
