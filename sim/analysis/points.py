"""Where the points of a hand come from: the pattern, each recorded source, and the sources the
run's variant derives."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from .intervals import _interval_columns
from .runs import (  # noqa: F401 (demo_run: examples)
    Run,
    StoredRun,
    _as_parts,
    _game_rows,
    batches,
    demo_run,
    is_single,
    per_run,
    run_variant,
)
from .tallies import Histogram, Moments, _linear_quantile

POINTS_FROM = "points_from_"


def _payer_count(run: Run, wins: pd.DataFrame) -> np.ndarray:
    # payer -1 (a self-draw and the like): every other seat pays the winner.
    return np.where(wins["payer"].to_numpy() < 0, run.n_players - 1, 1)


def points_per_hand(run: Run) -> pd.DataFrame:
    """Per hand, the points moved by each source (one column per source, one row per hand).

    ``pattern``: base points times the number of payers. Every ``points_from_<source>`` column
    of the games frame becomes ``<source>``. Then the sources the run's variant derives from the
    frames (``point_sources`` of :class:`sim.variants.Variant`, found by the manifest's
    ``variant``; e.g. a doubling the records do not carry, as the rest of the points moved).

    >>> points_per_hand(demo_run())
       pattern  doubling
    0      6.0       0.0
    1      4.0       4.0
    2      0.0       0.0
    3     12.0      12.0
    """
    if run.is_combined:
        raise ValueError("points_per_hand takes a single run; use run.parts()")
    if isinstance(run, StoredRun):  # a frame of one row per hand, made batch by batch
        return pd.concat([points_per_hand(part) for part in run.batches()], ignore_index=True)
    wins = run.wins
    rows = _game_rows(run, wins["game"])
    hands = len(run.games)
    base = np.bincount(
        rows, weights=wins["points"].to_numpy(dtype=float) * _payer_count(run, wins),
        minlength=hands,
    )  # fmt: skip
    frame = pd.DataFrame({"pattern": base})
    for column in run.games.columns:
        if column.startswith(POINTS_FROM):
            frame[column.removeprefix(POINTS_FROM)] = run.games[column].to_numpy(dtype=float)
    variant = run_variant(run)
    if variant is not None and variant.point_sources is not None:
        explained = frame.to_numpy().sum(axis=1)
        derived = variant.point_sources(
            run.games, wins, rows, run.options, run.n_players, explained
        )
        for source, values in derived.items():
            frame[source] = values
    return frame


@per_run
def points_sources(run: Run, confidence: float = 0.95) -> pd.DataFrame:
    """Where the points come from (see :func:`points_per_hand` for the sources).

    Columns ``source, points`` (total over the run), ``per_hand, lo, hi`` (mean per hand, t
    interval), ``share`` (of all sources' points).

    >>> points_sources(demo_run())[["source", "points", "per_hand", "share"]]
         source  points  per_hand     share
    0   pattern    22.0       5.5  0.578947
    1  doubling    16.0       4.0  0.421053
    """
    sources: dict[str, Moments] = {}
    hands = 0
    for part in batches(run):  # every column: the variant's sources may read any
        for source, values in points_per_hand(part).items():
            if source not in sources:  # a source no earlier part had: 0 in those hands
                sources[source] = Moments().add_zeros(hands)
            sources[source].add(values.to_numpy())
        hands += len(part.games)
    total = sum(moments.sum for moments in sources.values())
    rows = []
    for source, moments in sources.items():
        interval = moments.interval(confidence)
        points = float(moments.sum)
        rows.append(
            {
                "source": source,
                "points": points,
                "per_hand": interval.mean,
                "lo": interval.lo,
                "hi": interval.hi,
                "share": points / total if total else math.nan,
            }
        )
    return pd.DataFrame(rows)


def seat_net_sources(run: Run) -> list[str]:
    """The sources of :func:`points_per_hand` whose net per seat the games frame records: a
    column ``<source>_<seat>`` for every seat (the pattern and derived sources have none)."""
    columns = set(run.games.columns)
    return [
        column.removeprefix(POINTS_FROM)
        for column in run.games.columns
        if column.startswith(POINTS_FROM)
        and all(f"{column.removeprefix(POINTS_FROM)}_{s}" in columns for s in range(run.n_players))
    ]


def seat_source_nets(run: Run) -> pd.DataFrame:
    """Long frame of each seat's net points per hand from each source that has them
    (:func:`seat_net_sources`): ``source, game, seat, dealer`` (bool), ``net``; with ``run``
    first for several runs. Empty (with those columns) when no source records seats.

    >>> seat_source_nets(demo_run()).empty
    True
    """
    blocks = []
    single = is_single(run)
    for label, whole in ({None: run} if single else _as_parts(run)).items():
        for part in batches(whole, wins=[]):
            blocks += _seat_net_blocks(part, None if single else label)
    columns = ["source", "game", "seat", "dealer", "net"]
    if not blocks:
        return pd.DataFrame(columns=columns if single else ["run", *columns])
    return pd.concat(blocks, ignore_index=True)


def _seat_net_blocks(part: Run, label: str | None) -> list[pd.DataFrame]:
    blocks = []
    games = part.games
    for source in seat_net_sources(part):
        for seat in range(part.n_players):
            block = pd.DataFrame(
                {
                    "source": source,
                    "game": games["game"].to_numpy(),
                    "seat": seat,
                    "dealer": games["dealer"].to_numpy() == seat,
                    "net": games[f"{source}_{seat}"].to_numpy(dtype=float),
                }
            )
            if label is not None:
                block.insert(0, "run", label)
            blocks.append(block)
    return blocks


@per_run
def seat_source_net_counts(run: Run) -> pd.DataFrame:
    """:func:`seat_source_nets` counted: one row per source, seat and net value, ``source,
    seat, net, count`` (a value no seat-hand had has no row). Summed batch by batch, so it takes
    a run larger than memory: its size is the number of distinct nets.

    >>> seat_source_net_counts(demo_run()).empty
    True
    """
    tallies: dict[str, list[Histogram]] = {}
    for part in batches(run, wins=[]):  # every games column: the per-seat nets
        for source in seat_net_sources(part):
            counted = tallies.setdefault(source, [Histogram() for _ in range(part.n_players)])
            for seat, histogram in enumerate(counted):
                histogram.add(part.games[f"{source}_{seat}"].to_numpy())
    blocks = [
        pd.DataFrame({"source": source, "seat": seat, "net": h.values.astype(float),
                      "count": h.counts})
        for source, counted in tallies.items()
        for seat, h in enumerate(counted)
    ]  # fmt: skip
    columns = ["source", "seat", "net", "count"]
    return pd.concat(blocks, ignore_index=True) if blocks else pd.DataFrame(columns=columns)


@per_run
def source_net_summary(run: Run, confidence: float = 0.95) -> pd.DataFrame:
    """How far each source (:func:`seat_net_sources`) swings a seat's score: one row per source.

    Columns ``source, seat_hands``, ``mean_abs, lo, hi`` (mean |net| of a seat per hand; the t
    interval is over hands, a hand's seats averaged first), ``std`` (of a seat's net over
    seat-hands), ``nonzero`` (share of seat-hands the source moves), ``q05, q95, min, max``.

    >>> source_net_summary(demo_run()).empty
    True
    """
    tallies: dict[str, tuple[Moments, Histogram]] = {}
    for part in batches(run, wins=[]):  # every games column: the per-seat nets
        for source in seat_net_sources(part):
            moments, counted = tallies.setdefault(source, (Moments(part.n_players), Histogram()))
            columns = [part.games[f"{source}_{s}"].to_numpy() for s in range(part.n_players)]
            moments.add(sum(np.abs(column) for column in columns))  # a hand's mean: over n
            for column in columns:
                counted.add(column)
    rows = []
    for source, (moments, counted) in tallies.items():
        interval = moments.interval(confidence)
        rows.append(
            {"source": source, "seat_hands": counted.n, "mean_abs": interval.mean,
             "lo": interval.lo, "hi": interval.hi, **_net_spread(counted)}
        )  # fmt: skip
    columns = ["source", "seat_hands", "mean_abs", "lo", "hi", "std", "nonzero", "q05", "q95"]
    return pd.DataFrame(rows, columns=[*columns, "min", "max"])


def counted_rows(run: Run, section, confidence: float = 0.95) -> pd.DataFrame:
    """How often each row of a variant's ``section`` (:class:`sim.variants.CountedSection`:
    things that happen in some rows of the wins or games frame, as its columns record them)
    is set, and its values where set.

    Columns ``label, count`` (frame rows where set), ``rows`` (all rows of the frame: winners
    or hands), ``rate, lo, hi`` (count / rows, Wilson interval), ``mean`` (of the value where
    set), ``per_hand`` (the value summed over the run / hands), ``second`` (mean of the second
    value where set; NaN without one). A row whose columns the frame lacks is left out. A
    :class:`StoredRun` is read batch by batch (the sums are of integers: the same figures)."""
    parts = run.batches() if isinstance(run, StoredRun) else [run]
    totals: dict[str, list[float]] = {}  # label -> count, rows, sum where set, sum, second sum
    hands = 0
    for part in parts:
        frame = part.wins if section.frame == "wins" else part.games
        hands += len(part.games)
        for row in section.rows:
            flag_column = row.flag[0] if row.flag else None
            needed = [c for c in (row.value, flag_column, row.second) if c]
            if any(column not in frame for column in needed):
                continue
            values = frame[row.value].to_numpy(dtype=float)
            if row.flag:
                set_rows = ((frame[row.flag[0]].to_numpy(dtype=np.int64) >> row.flag[1]) & 1) == 1
            else:
                set_rows = values != 0
            found = totals.setdefault(row.label, [0, 0, 0.0, 0.0, 0.0])
            found[0] += int(set_rows.sum())
            found[1] += len(frame)
            found[2] += float(values[set_rows].sum())
            found[3] += float(values.sum())
            if row.second:
                found[4] += float(frame[row.second].to_numpy(dtype=float)[set_rows].sum())
    rows = []
    for row in section.rows:
        if row.label not in totals:
            continue
        count, n_rows, set_sum, total, second_sum = totals[row.label]
        rows.append(
            {
                "label": row.label,
                "count": count,
                "rows": n_rows,
                "mean": set_sum / count if count else math.nan,
                "per_hand": total / hands if hands else math.nan,
                "second": second_sum / count if row.second and count else math.nan,
            }
        )
    columns = ["label", "count", "rows", "mean", "per_hand", "second"]
    result = pd.DataFrame(rows, columns=columns)
    intervals = _interval_columns(result["count"], result["rows"], confidence)
    result.insert(3, "rate", intervals["rate"])
    result.insert(4, "lo", intervals["lo"])
    result.insert(5, "hi", intervals["hi"])
    return result


def _net_spread(counted: Histogram) -> dict[str, float]:
    """Spread of a source's nets over seat-hands, from its counts per value: ``std`` (ddof 1),
    ``nonzero`` (share of seat-hands it moves), numpy's linear ``q05`` and ``q95``, extremes."""
    n = counted.n
    if n == 0:
        return dict.fromkeys(("std", "nonzero", "q05", "q95", "min", "max"), math.nan)
    x, counts = counted.values.astype(float), counted.counts
    mean = float((x * counts).sum() / n)
    variance = float((counts * (x - mean) ** 2).sum() / (n - 1)) if n > 1 else math.nan
    ends = np.cumsum(counts)
    return {
        "std": math.sqrt(variance) if n > 1 else math.nan,
        "nonzero": float(counts[x != 0].sum() / n),
        "q05": _linear_quantile(x, ends, n, 0.05),
        "q95": _linear_quantile(x, ends, n, 0.95),
        "min": float(x[0]),
        "max": float(x[-1]),
    }
