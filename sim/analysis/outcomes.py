"""How hands end: exhaustive draws, wins per seat and per win kind. Each is summed part by
part (:func:`sim.analysis.runs.batches`), so it takes a run larger than memory too."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .intervals import _interval_columns
from .runs import Run, _game_rows, batches, demo_run, per_run, scored_wins  # noqa: F401


@per_run
def draw_rate(run: Run, confidence: float = 0.95) -> pd.DataFrame:
    """Exhaustive draws (荒庄): one row ``hands, draws, rate, lo, hi``.

    >>> draw_rate(demo_run()).round(3).to_dict("records")
    [{'hands': 4, 'draws': 1, 'rate': 0.25, 'lo': 0.046, 'hi': 0.699}]
    """
    hands = draws = 0
    for part in batches(run, games=[], wins=[]):
        hands += len(part.games)
        draws += int((part.games["outcome"] == "draw").sum())  # a categorical compares as is
    return pd.DataFrame({"hands": [hands], "draws": [draws]}).assign(
        **_interval_columns([draws], [hands], confidence)
    )


@per_run
def win_rate_by_seat(run: Run, confidence: float = 0.95) -> pd.DataFrame:
    """How often each seat wins a hand, and the dealer (庄家) against the others (闲家).

    Rows: one per seat (``role`` ``all``), then all seats pooled as ``dealer`` and as
    ``non_dealer`` (``seat`` <NA>). Columns ``seat, role, hands, wins, rate, lo, hi``: ``hands``
    counts seat-hands, ``wins`` the hands that seat won (every winner of a multiple win counts).
    Wilson intervals; the non-dealer rows pool three seats of the same hand, whose wins exclude
    each other, which makes their interval slightly conservative.

    >>> win_rate_by_seat(demo_run())[["seat", "role", "hands", "wins", "rate"]]
       seat        role  hands  wins      rate
    0     0         all      4     1  0.250000
    1     1         all      4     0  0.000000
    2     2         all      4     1  0.250000
    3     3         all      4     1  0.250000
    4  <NA>      dealer      4     1  0.250000
    5  <NA>  non_dealer     12     2  0.166667
    """
    seats = range(run.n_players)
    hands = dealer_wins = all_wins = 0
    per_seat = np.zeros(run.n_players, np.int64)
    for part in batches(run, games=[], wins=[]):  # a hand's wins are all in its part
        hands += len(part.games)
        winners = part.wins.drop_duplicates(["game", "seat"])
        per_seat += np.bincount(winners["seat"].to_numpy(dtype=np.intp), minlength=len(seats))
        dealer_of_win = part.games["dealer"].to_numpy()[_game_rows(part, winners["game"])]
        dealer_wins += int((winners["seat"].to_numpy() == dealer_of_win).sum())
        all_wins += len(winners)
    frame = pd.DataFrame(
        {
            "seat": pd.array([*seats, pd.NA, pd.NA], dtype="Int64"),
            "role": ["all"] * len(seats) + ["dealer", "non_dealer"],
            "hands": [hands] * len(seats) + [hands, hands * (run.n_players - 1)],
            "wins": [*per_seat.tolist(), dealer_wins, all_wins - dealer_wins],
        }
    )
    return frame.assign(**_interval_columns(frame["wins"], frame["hands"], confidence))


@per_run
def win_kinds(run: Run, confidence: float = 0.95) -> pd.DataFrame:
    """How hands end: per ``win_kind`` of the games frame (``none`` = exhaustive draw).

    Columns ``win_kind, hands, rate, lo, hi`` (share of hands, Wilson), ``winners`` (rows of
    the wins frame of that kind), ``mean_points`` (base points) and ``mean_score`` (the
    winner's score change, every payment included).

    >>> win_kinds(demo_run())[["win_kind", "hands", "rate", "winners", "mean_score"]]
        win_kind  hands  rate  winners  mean_score
    0  self_draw      2  0.50        2        15.0
    1    discard      1  0.25        1         8.0
    2       none      1  0.25        0         NaN
    """
    hands, counts, by_kind = 0, None, None
    for part in batches(run, games=["win_kind"], wins=["win_kind", "gain"]):
        hands += len(part.games)
        counts = _added(counts, _kind_counts(part.games["win_kind"]))
        wins = scored_wins(part)
        kind = wins["win_kind"]
        # a categorical groups by its codes: no string per winner (a long run has millions)
        keys = kind if isinstance(kind.dtype, pd.CategoricalDtype) else kind.astype(str)
        sums = wins[["points", "score"]].groupby(keys, observed=True).agg(["size", "sum"])
        sums = sums.set_axis(sums.index.astype(str))
        sums = pd.DataFrame(
            {"winners": sums[("points", "size")], "points": sums[("points", "sum")],
             "score": sums[("score", "sum")]}
        )  # fmt: skip
        by_kind = sums if by_kind is None else by_kind.add(sums, fill_value=0)
    frame = pd.DataFrame({"win_kind": counts.index.astype(str), "hands": counts.to_numpy()})
    frame = frame.assign(**_interval_columns(frame["hands"], hands, confidence))
    winners = frame["win_kind"].map(by_kind["winners"]).fillna(0).astype(int)
    frame["winners"] = winners
    with np.errstate(divide="ignore", invalid="ignore"):
        frame["mean_points"] = frame["win_kind"].map(by_kind["points"]) / winners.where(winners > 0)
        frame["mean_score"] = frame["win_kind"].map(by_kind["score"]) / winners.where(winners > 0)
    return frame


def _kind_counts(kinds: pd.Series) -> pd.Series:
    """Hands per win kind: every category of a categorical (in its order, unseen ones 0),
    else the kinds in the order they first come."""
    counts = kinds.value_counts(sort=False)
    if isinstance(kinds.dtype, pd.CategoricalDtype):
        counts = counts.reindex(kinds.cat.categories, fill_value=0)
    return counts.set_axis(counts.index.astype(str))


def _added(total: pd.Series | None, counts: pd.Series) -> pd.Series:
    """Counts added, keeping the order of the first and appending names new in later parts."""
    if total is None:
        return counts
    index = total.index.append(counts.index.difference(total.index, sort=False))
    return total.reindex(index, fill_value=0) + counts.reindex(index, fill_value=0)
