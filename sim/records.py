"""Hand records -> pandas DataFrames with readable categories.

The engine writes one int64 row per hand (slots ``sim.kernels.engine.R_*``). These functions turn
a block of rows into tidy frames:

* :func:`hands_frame`: one row per hand (局): ``game``, ``session``, ``hand``, ``dealer``,
  ``streak`` (hands in a row this dealer has dealt, 1 for a new dealer), ``outcome``
  (``win`` / ``draw``), ``win_kind``, ``n_winners``, ``payer``, ``turns``, ``tiles_left``,
  ``indicator``, ``next_dealer``, ``instant_kings_dealt`` and ``delta_0`` ... ``delta_{n-1}``.
* :func:`wins_frame`: one row per winner: ``game``, ``seat``, ``win_kind``, ``pattern`` (the
  text's Chinese name), ``tier``, ``bigs``, ``points`` (base points P), ``features`` (English ids
  joined by ``+``), ``payer``, ``bird_hits`` and ``gain`` (the winner's score change).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .kernels import anhua as anhua_kernels
from .kernels import engine as E
from .tiles import kind_name
from .variants import anhua

WIN_KINDS = {
    anhua_kernels.HOW_SELF_DRAW: "self_draw",
    anhua_kernels.HOW_DISCARD: "discard",
    anhua_kernels.HOW_ROB_KONG: "rob_kong",
    anhua_kernels.HOW_KONG_BLOOM: "kong_bloom",
    anhua_kernels.HOW_KONG_CANNON: "kong_cannon",
    anhua_kernels.HOW_INSTANT: "instant",
}
WIN_KIND_ORDER = [*WIN_KINDS.values(), "none"]


def _streaks(dealers: np.ndarray, sessions: np.ndarray) -> np.ndarray:
    streak = np.ones(len(dealers), np.int64)
    for index in range(1, len(dealers)):
        same = dealers[index] == dealers[index - 1] and sessions[index] == sessions[index - 1]
        if same:
            streak[index] = streak[index - 1] + 1
    return streak


def hands_frame(
    records: np.ndarray, n_players: int, hands_per_session: int, first_game: int = 0
) -> pd.DataFrame:
    """One row per hand (see the module docstring). ``first_game`` numbers the first row."""
    records = np.asarray(records)
    n = len(records)
    game = np.arange(first_game, first_game + n)
    session = game // hands_per_session
    dealer = records[:, E.R_DEALER]
    outcome = np.where(records[:, E.R_OUTCOME] == E.OUTCOME_WIN, "win", "draw")
    win_kind = [WIN_KINDS.get(int(k), "none") for k in records[:, E.R_WIN_KIND]]
    frame = pd.DataFrame(
        {
            "game": game,
            "session": session,
            "hand": game % hands_per_session,
            "dealer": dealer,
            "streak": _streaks(dealer, session),
            "outcome": pd.Categorical(outcome, categories=["win", "draw"]),
            "win_kind": pd.Categorical(win_kind, categories=WIN_KIND_ORDER),
            "n_winners": records[:, E.R_N_WINNERS],
            "payer": records[:, E.R_PAYER],
            "turns": records[:, E.R_TURNS],
            "tiles_left": records[:, E.R_TILES_LEFT],
            "indicator": pd.Categorical([kind_name(int(k)) for k in records[:, E.R_INDICATOR]]),
            "next_dealer": records[:, E.R_NEXT_DEALER],
            "instant_kings_dealt": records[:, E.R_DEAL_INSTANT] != 0,
        }
    )
    for seat in range(n_players):
        frame[f"delta_{seat}"] = records[:, E.R_DELTA + seat]
    return frame


def wins_frame(records: np.ndarray, n_players: int, first_game: int = 0) -> pd.DataFrame:
    """One row per winner (see the module docstring)."""
    records = np.asarray(records)
    rows = []
    for index, row in enumerate(records):
        n_winners = int(row[E.R_N_WINNERS])
        if row[E.R_OUTCOME] != E.OUTCOME_WIN:
            continue
        birds = [int(b) for b in row[E.R_BIRD : E.R_BIRD + row[E.R_N_BIRDS]]]
        payer = int(row[E.R_PAYER])
        for w in range(n_winners):
            seat = int(row[E.R_WINNER + w])
            features = int(row[E.R_FEATURES + w])
            landed = [anhua_kernels.bird_seat(b, seat, n_players) for b in birds]
            hits = sum(1 for s in landed if s == seat or (payer >= 0 and s == payer))
            rows.append(
                {
                    "game": first_game + index,
                    "seat": seat,
                    "win_kind": WIN_KINDS[int(row[E.R_WIN_KIND])],
                    "pattern": anhua.pattern_name(features),
                    "tier": anhua.tier_name(features),
                    "bigs": 0 if features & anhua_kernels.FEATURE_INSTANT else anhua.bigs(features),
                    "points": int(row[E.R_POINTS + w]),
                    "features": "+".join(anhua.feature_names(features)),
                    "payer": payer,
                    "bird_hits": hits,
                    "gain": int(row[E.R_DELTA + seat]) if n_winners == 1 else None,
                }
            )
    frame = pd.DataFrame(rows)
    if len(frame):
        frame["win_kind"] = pd.Categorical(frame["win_kind"], categories=WIN_KIND_ORDER)
        frame["tier"] = pd.Categorical(frame["tier"], categories=list(anhua.TIER_NAMES))
    return frame
