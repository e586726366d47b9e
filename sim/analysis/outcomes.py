"""How hands end: exhaustive draws, wins per seat and per win kind."""

from __future__ import annotations

import pandas as pd

from .intervals import _interval_columns
from .runs import Run, _game_rows, demo_run, per_run, scored_wins  # noqa: F401 (demo_run: examples)


@per_run
def draw_rate(run: Run, confidence: float = 0.95) -> pd.DataFrame:
    """Exhaustive draws (荒庄): one row ``hands, draws, rate, lo, hi``.

    >>> draw_rate(demo_run()).round(3).to_dict("records")
    [{'hands': 4, 'draws': 1, 'rate': 0.25, 'lo': 0.046, 'hi': 0.699}]
    """
    hands = len(run.games)
    draws = int((run.games["outcome"] == "draw").sum())  # a categorical compares as is
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
    hands = len(run.games)
    seats = range(run.n_players)
    winners = run.wins.drop_duplicates(["game", "seat"])
    per_seat = winners["seat"].value_counts().reindex(seats, fill_value=0)
    dealer_of_win = run.games["dealer"].to_numpy()[_game_rows(run, winners["game"])]
    dealer_wins = int((winners["seat"].to_numpy() == dealer_of_win).sum())
    frame = pd.DataFrame(
        {
            "seat": pd.array([*seats, pd.NA, pd.NA], dtype="Int64"),
            "role": ["all"] * len(seats) + ["dealer", "non_dealer"],
            "hands": [hands] * len(seats) + [hands, hands * (run.n_players - 1)],
            "wins": [*per_seat.tolist(), dealer_wins, len(winners) - dealer_wins],
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
    kinds = run.games["win_kind"]
    counts = kinds.value_counts(sort=False)
    if isinstance(kinds.dtype, pd.CategoricalDtype):
        counts = counts.reindex(kinds.cat.categories, fill_value=0)
    wins = scored_wins(run)
    kind = wins["win_kind"]
    # a categorical groups by its codes: no string per winner (a long run has millions)
    keys = kind if isinstance(kind.dtype, pd.CategoricalDtype) else kind.astype(str)
    by_kind = wins[["points", "score"]].groupby(keys, observed=True)
    by_name = {
        name: series.set_axis(series.index.astype(str))
        for name, series in (
            ("winners", by_kind.size()),
            ("mean_points", by_kind["points"].mean()),
            ("mean_score", by_kind["score"].mean()),
        )
    }
    frame = pd.DataFrame({"win_kind": counts.index.astype(str), "hands": counts.to_numpy()})
    frame = frame.assign(**_interval_columns(frame["hands"], len(run.games), confidence))
    frame["winners"] = frame["win_kind"].map(by_name["winners"]).fillna(0).astype(int)
    frame["mean_points"] = frame["win_kind"].map(by_name["mean_points"])
    frame["mean_score"] = frame["win_kind"].map(by_name["mean_score"])
    return frame
