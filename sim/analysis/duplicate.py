"""Duplicate deals: agents compared on the same walls with the seats rotated (``mjsim compare``).

A comparison directory holds one run per rotation (``rotation-R``, each a normal run directory
whose manifest names its seats' agents); every rotation plays the same walls with the same first
dealer, so the luck of the deal falls on every agent alike and cancels in a difference. Each
wall is then one cluster: an agent's score on a wall is the mean over the seats it held on it in
every rotation, and a difference between two agents is the mean over walls of their per-wall
difference, with a Student t interval over walls (clustered by wall: the hands of one wall are
never counted as independent).

Only pandas and numpy: :func:`load_comparison` reads the run directories, and the frames come
from :func:`duplicate_comparison` and :func:`paired_differences`; :func:`score_sources` splits
each agent's score by where it came from.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from .intervals import mean_interval, wilson_interval
from .runs import load_run

COMPARISON_FILE = "comparison.json"
"""The file a comparison directory is recognised by: the agents, rotations and settings."""

SEAT_COLUMNS = ("game", "rotation", "seat", "agent", "delta", "won", "dealt_in", "draw", "turns")
"""The columns of :func:`seat_hands`: one row per seat per hand per rotation."""


def seat_hands(games: pd.DataFrame, wins: pd.DataFrame, agents, rotation: int) -> pd.DataFrame:
    """One row per seat of every hand of one rotation's run: its agent (``agents[seat]``), score
    change, whether it won, whether it dealt in (it was the payer of another seat's win: its
    discard or kong was won on), whether the hand was drawn, and the hand's length in draws."""
    winners = set(zip(wins["game"].to_numpy(), wins["seat"].to_numpy(), strict=True))
    blocks = []
    draw = (games["outcome"].astype(str) == "draw").to_numpy()
    for seat, agent in enumerate(agents):
        game = games["game"].to_numpy()
        won = np.fromiter(((g, seat) in winners for g in game), bool, len(game))
        blocks.append(
            pd.DataFrame(
                {
                    "game": game,
                    "rotation": rotation,
                    "seat": seat,
                    "agent": agent,
                    "delta": games[f"delta_{seat}"].to_numpy(),
                    "won": won,
                    "dealt_in": _dealt_in(games, seat, won),
                    "draw": draw,
                    "turns": games["turns"].to_numpy(),
                }
            )
        )
    return pd.concat(blocks, ignore_index=True)


def _dealt_in(games: pd.DataFrame, seat: int, won: np.ndarray) -> np.ndarray:
    """Whether ``seat`` dealt in, per hand: the variant's own ``dealt_in_<seat>`` column where
    its games frame has one (a variant with no win on a discard says what stands for it), else
    it paid for another seat's win on its discard or kong (``payer``)."""
    column = f"dealt_in_{seat}"
    if column in games.columns:
        return games[column].to_numpy(dtype=bool) & ~won
    return (games["payer"].to_numpy() == seat) & ~won


def load_comparison(path: str | Path) -> tuple[dict, pd.DataFrame]:
    """A comparison directory's settings (``comparison.json``) and its :func:`seat_hands` of
    every rotation together."""
    path = Path(path)
    file = path / COMPARISON_FILE
    if not file.exists():
        raise FileNotFoundError(f"{path} is not a comparison directory: no {COMPARISON_FILE}")
    settings = json.loads(file.read_text())
    frames = []
    for rotation, seats in enumerate(settings["rotations"]):
        run = load_run(path / f"rotation-{rotation}")
        frames.append(seat_hands(run.games, run.wins, seats, rotation))
    return settings, pd.concat(frames, ignore_index=True)


def _per_wall(hands: pd.DataFrame) -> pd.DataFrame:
    """Mean score change per hand of each agent on each wall (rows: walls, columns: agents)."""
    return hands.groupby(["game", "agent"], sort=True)["delta"].mean().unstack("agent")


def _session_loss(hands: pd.DataFrame, session_hands: int, loss: float) -> float:
    """Share of sessions of ``session_hands`` consecutive walls, played by one agent in one seat
    of one rotation, in which it lost at least ``loss`` points (incomplete sessions dropped)."""
    totals = []
    for _, block in hands.groupby(["rotation", "seat"], sort=True):
        deltas = block.sort_values("game")["delta"].to_numpy()
        n_sessions = len(deltas) // session_hands
        if n_sessions:
            sums = deltas[: n_sessions * session_hands].reshape(n_sessions, session_hands)
            totals.append(sums.sum(axis=1))
    if not totals:
        return float("nan")
    return float(np.mean(np.concatenate(totals) <= -loss))


def duplicate_comparison(
    hands: pd.DataFrame, agents, session_hands: int = 8, loss: float = 100.0
) -> pd.DataFrame:
    """The paired comparison of ``agents`` (the first is the reference), one row per agent.

    ``mean`` (score change per hand, over its seat-hands) with ``lo``/``hi`` (95% t interval over
    walls); ``diff``/``diff_lo``/``diff_hi``: its mean minus the reference's, paired by wall,
    with the interval clustered by wall; ``win_rate``, ``deal_in_rate``, ``draw_rate`` (Wilson
    intervals ``*_lo``/``*_hi``) per seat-hand; ``mean_turns`` (hand length in draws from the
    wall); ``seat_sd`` (the per-seat spread: standard deviation of a seat's score change in a
    hand) and ``p_session_loss`` (the chance of losing ``loss`` points or more over a session of
    ``session_hands`` hands)."""
    per_wall = _per_wall(hands)
    reference = agents[0]
    rows = []
    for agent in agents:
        mine = hands[hands["agent"] == agent]
        n = len(mine)
        own = mean_interval(per_wall[agent].to_numpy())
        diff = mean_interval((per_wall[agent] - per_wall[reference]).to_numpy())
        row = {
            "agent": agent,
            "seat_hands": n,
            "walls": len(per_wall),
            "mean": own.mean,
            "lo": own.lo,
            "hi": own.hi,
            "diff": diff.mean if agent != reference else 0.0,
            "diff_lo": diff.lo if agent != reference else 0.0,
            "diff_hi": diff.hi if agent != reference else 0.0,
        }
        for name, column in (("win", "won"), ("deal_in", "dealt_in"), ("draw", "draw")):
            count = int(mine[column].sum())
            lo, hi = wilson_interval(count, n)
            row[f"{name}_rate"] = count / n if n else float("nan")
            row[f"{name}_lo"] = float(lo)
            row[f"{name}_hi"] = float(hi)
        row["mean_turns"] = float(mine["turns"].mean())
        row["seat_sd"] = float(mine["delta"].std(ddof=1))
        row["p_session_loss"] = _session_loss(mine, session_hands, loss)
        rows.append(row)
    return pd.DataFrame(rows)


def paired_differences(hands: pd.DataFrame, agents) -> pd.DataFrame:
    """Every pair of ``agents``: ``first`` minus ``second`` in mean score change per hand, paired
    by wall, with the 95% t interval over walls (``lo``, ``hi``) and whether it excludes zero."""
    per_wall = _per_wall(hands)
    rows = []
    for i, first in enumerate(agents):
        for second in agents[i + 1 :]:
            diff = mean_interval((per_wall[first] - per_wall[second]).to_numpy())
            rows.append(
                {
                    "first": first,
                    "second": second,
                    "walls": diff.n,
                    "diff": diff.mean,
                    "lo": diff.lo,
                    "hi": diff.hi,
                    "excludes_zero": bool(diff.lo > 0 or diff.hi < 0),
                }
            )
    return pd.DataFrame(rows)


SOURCE_ROWS = ("total", "won", "won_fed", "dealt_in", "paid", "drawn")
"""The first rows of :func:`score_sources`: the score change, and its part in the hands the seat
won, won with another seat dealing in (its discard won on; where the variant has no win on a
discard, what stands for a deal-in, such as paying a 包), dealt in, paid for another's win
otherwise, and drawn. The rows after them are the variant's per-seat point sources."""


def score_sources(path: str | Path) -> pd.DataFrame:
    """Each agent's mean score change per seat-hand of a comparison directory, split by source:
    one row per source (:data:`SOURCE_ROWS`, then each per-seat column ``NAME_<seat>`` of the
    games frame for which it has a ``points_from_NAME``: a variant's chickens, dou, 包 ...), one
    column per agent. ``won`` + ``dealt_in`` + ``paid`` + ``drawn`` is ``total``, and so are the
    variant's sources when it declares every item."""
    path = Path(path)
    settings, _ = load_comparison(path)
    blocks = []
    for rotation, seats in enumerate(settings["rotations"]):
        run = load_run(path / f"rotation-{rotation}")
        games, wins = run.games, run.wins
        sources = [c[len("points_from_") :] for c in games.columns if c.startswith("points_from_")]
        draw = (games["outcome"].astype(str) == "draw").to_numpy()
        game = games["game"].to_numpy()
        winners = set(zip(wins["game"].to_numpy(), wins["seat"].to_numpy(), strict=True))
        won_by = [np.fromiter(((g, s) in winners for g in game), bool, len(game)) for s in
                  range(len(seats))]  # fmt: skip
        dealt = [_dealt_in(games, s, won_by[s]) for s in range(len(seats))]
        for seat, agent in enumerate(seats):
            delta = games[f"delta_{seat}"].to_numpy(dtype=float)
            won = won_by[seat]
            fed = np.zeros(len(game), bool)
            for other in range(len(seats)):
                if other != seat:
                    fed |= dealt[other]
            lost = ~won & ~draw
            block = {
                "agent": agent,
                "total": delta,
                "won": delta * won,
                "won_fed": delta * (won & fed),
                "dealt_in": delta * (lost & dealt[seat]),
                "paid": delta * (lost & ~dealt[seat]),
                "drawn": delta * draw,
            }
            for name in sources:
                if f"{name}_{seat}" in games.columns:
                    block[name] = games[f"{name}_{seat}"].to_numpy(dtype=float)
            blocks.append(pd.DataFrame(block))
    table = pd.concat(blocks, ignore_index=True).groupby("agent", sort=False).mean()
    return table.T[list(settings["agents"])]
