"""Patterns (牌型) and tiers: how often each is won and what it pays."""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np
import pandas as pd

from .intervals import _interval_columns
from .runs import Run, _as_parts, batches, demo_run, is_single, per_run, scored_wins  # noqa: F401
from .tallies import Moments

WIN_COLUMNS = ["tier", "gain"]
"""The wins columns the pattern and tier summaries read besides those every run has."""


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
    if is_single(run):
        return _pattern_frame(_pattern_tally(run), confidence, patterns)
    tallies = {label: _pattern_tally(part) for label, part in _as_parts(run).items()}
    seen = {p for tally, _ in tallies.values() for p in tally.index}
    patterns += sorted(seen - set(patterns))
    return per_run(lambda tally, *args: _pattern_frame(tally, *args))(tallies, confidence, patterns)


def _pattern_tally(run) -> tuple[pd.DataFrame, int]:
    """Per pattern (sorted): winners, hands with one, sums of points and score, and how many
    of its winners had each tier (``tier:<name>`` columns); and the number of hands. Summed
    part by part: a hand's wins are all in one part, so hands with a pattern add up."""
    tally, hands = None, 0
    for part in batches(run, games=[], wins=WIN_COLUMNS):
        hands += len(part.games)
        wins = scored_wins(part)
        wins["pattern"] = wins["pattern"].astype(str)
        groups = wins[["pattern", "points", "score"]].groupby("pattern", sort=True)
        counted = pd.DataFrame(
            {
                "count": groups.size(),
                "hands_with": _hands_with(wins["pattern"], wins["game"]),
                "points": groups["points"].sum(),
                "score": groups["score"].sum(),
            }
        )
        if "tier" in wins:
            counted = counted.join(_value_counts(wins["pattern"], wins["tier"]))
        tally = counted if tally is None else tally.add(counted, fill_value=0)
    return tally.sort_index(), hands


def _pattern_frame(tally, confidence: float, patterns: list[str]) -> pd.DataFrame:
    tally, hands = tally
    frame = tally[["count", "hands_with"]].copy()
    frame["mean_points"] = tally["points"] / tally["count"]
    frame["mean_score"] = tally["score"] / tally["count"]
    if any(c.startswith("tier:") for c in tally.columns):
        frame["tier"] = _mode(tally)
    else:
        frame["tier"] = pd.NA
    extra = [p for p in patterns if p not in frame.index]
    if extra:
        zeros = pd.DataFrame({"count": 0, "hands_with": 0}, index=pd.Index(extra))
        frame = pd.concat([frame, zeros])
    frame.index.name = "pattern"
    frame = frame.reset_index()
    frame[["count", "hands_with"]] = frame[["count", "hands_with"]].astype(int)
    frame = frame.assign(**_interval_columns(frame["hands_with"], hands, confidence))
    frame["share_of_wins"] = frame["count"] / max(int(tally["count"].sum()), 1)
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


def _mode(counts: pd.DataFrame) -> pd.Series:
    """Per row of ``tier:<value>`` counts, the most common value; on a tie the first in sorted
    order, as ``Series.mode`` gives it."""
    names = sorted(c for c in counts.columns if c.startswith("tier:"))
    chosen = counts[names].fillna(0).to_numpy().argmax(axis=1)
    return pd.Series([names[i].removeprefix("tier:") for i in chosen], index=counts.index)


def _most_common(keys: pd.Series, values: pd.Series) -> pd.Series:
    """Per distinct key, its most common value (see :func:`_mode`)."""
    return _mode(_value_counts(keys, values)).rename_axis(None)


def _value_counts(keys: pd.Series, values: pd.Series) -> pd.DataFrame:
    """Per distinct key (sorted), how often each value comes with it: one column
    ``tier:<value>`` per value. One count table, not a Python call per key: this runs in
    every ``mjsim run`` summary."""
    key_codes, key_names = pd.factorize(keys, sort=True)
    if isinstance(values.dtype, pd.CategoricalDtype) and not values.isna().any():
        # a categorical's codes: no string per row (a long run has millions)
        value_codes = values.cat.codes.to_numpy()
        value_names = values.cat.categories.astype(str)
    else:
        value_codes, value_names = pd.factorize(values.astype(str), sort=True)
    counts = np.zeros((len(key_names), len(value_names)), np.int64)
    np.add.at(counts, (key_codes, value_codes), 1)
    columns = [f"tier:{name}" for name in value_names]
    frame = pd.DataFrame(counts, index=pd.Index(key_names, name="pattern"), columns=columns)
    return frame.loc[:, counts.sum(axis=0) > 0]  # categories no row has never win


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
    hands, total_score, tallies, categories = 0, 0.0, {}, None
    for part in batches(run, games=[], wins=WIN_COLUMNS):
        wins = scored_wins(part)
        tier = wins["tier"]
        if categories is None and isinstance(tier.dtype, pd.CategoricalDtype):
            categories = [str(name) for name in tier.cat.categories]
        names = tier.astype(str).to_numpy()
        for name in dict.fromkeys([*tallies, *pd.unique(names)]):
            if name not in tallies:  # the hands before: none of this tier
                tallies[name] = _TierTally(hands)
            tallies[name].add(wins[names == name], len(part.games))
        total_score += float(wins["score"].sum())
        hands += len(part.games)
    if categories is None:  # tiers by their mean points, lowest first
        categories = sorted(tallies, key=lambda name: tallies[name].points / tallies[name].winners)
    rows = []
    for name in categories:
        tally = tallies.get(name) or _TierTally(hands)
        interval = tally.per_hand.interval(confidence)
        if tally.per_hand.minimum >= 0:
            # A rare tier's t interval can dip below 0; a mean of gains cannot.
            interval = interval._replace(lo=max(interval.lo, 0.0))
        winners = tally.winners
        rows.append(
            {
                "tier": name,
                "winners": winners,
                "hands_with": tally.hands_with,
                "mean_points": tally.points / winners if winners else math.nan,
                "mean_score": tally.score / winners if winners else math.nan,
                "score_per_hand": interval.mean,
                "score_lo": interval.lo,
                "score_hi": interval.hi,
                "share_of_score": tally.score / total_score if total_score else math.nan,
            }
        )
    columns = ["tier", "winners", "hands_with", "mean_points", "mean_score", "score_per_hand",
               "score_lo", "score_hi", "share_of_score"]  # fmt: skip
    frame = pd.DataFrame(rows, columns=columns)  # the columns also when no hand was won
    rates = pd.DataFrame(_interval_columns(frame["hands_with"], hands, confidence))
    frame = pd.concat([frame.iloc[:, :3], rates, frame.iloc[:, 3:]], axis=1)
    return frame


class _TierTally:
    """One tier's figures summed part by part (see :func:`tier_summary`)."""

    def __init__(self, hands_before: int) -> None:
        self.winners = self.hands_with = 0
        self.points = self.score = 0.0
        self.per_hand = Moments().add_zeros(hands_before)

    def add(self, chosen: pd.DataFrame, hands: int) -> None:
        """The tier's winners ``chosen`` of a part of ``hands`` hands."""
        self.winners += len(chosen)
        self.hands_with += chosen["game"].nunique()
        self.points += float(chosen["points"].sum())
        self.score += float(chosen["score"].sum())
        self.per_hand.add(np.bincount(chosen["row"], weights=chosen["score"], minlength=hands))
