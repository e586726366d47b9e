"""Hand records -> pandas DataFrames with readable categories.

The engine writes one int64 row per hand (slots ``sim.kernels.engine.R_*``). These functions turn
a block of rows into tidy frames:

* :func:`hands_frame`: one row per hand (局): ``game``, ``session``, ``hand``, ``dealer``,
  ``streak`` (hands in a row this dealer has dealt, 1 for a new dealer), ``outcome``
  (``win`` / ``draw``), ``win_kind``, ``n_winners``, ``payer``, ``turns``, ``tiles_left``,
  ``indicator``, ``next_dealer``, ``instant_kings_dealt`` (some seat held 四王/七王 at its first
  turn), the deal events ``dealer_complete_dealt`` (the dealer's 14 dealt tiles are a legal
  win) and ``kings_dealt_0`` ... (kings each seat was dealt), and ``delta_0`` ...
  ``delta_{n-1}``.
* :func:`wins_frame`: one row per winner: ``game``, ``seat``, ``win_kind``, ``pattern`` (the
  text's Chinese name), ``tier``, ``bigs``, ``points`` (base points P), ``features`` (English ids
  joined by ``+``), ``payer``, ``bird_hits`` and ``gain`` (the winner's score change, also when
  several seats win one discard).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .kernels import engine as E
from .tiles import kind_name
from .variants import anhua
from .variants.anhua import scoring as anhua_kernels

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
            "dealer_complete_dealt": records[:, E.R_DEALER_COMPLETE] == 1,
        }
    )
    for seat in range(n_players):
        frame[f"kings_dealt_{seat}"] = records[:, E.R_KINGS_DEALT + seat]
    for seat in range(n_players):
        frame[f"delta_{seat}"] = records[:, E.R_DELTA + seat]
    return frame


WIN_COLUMNS = (
    "game",
    "seat",
    "win_kind",
    "pattern",
    "tier",
    "bigs",
    "points",
    "features",
    "payer",
    "bird_hits",
    "gain",
)


def _by_unique(values: np.ndarray, function) -> np.ndarray:
    """``function`` applied to each distinct value once (features repeat a great deal)."""
    unique, inverse = np.unique(values, return_inverse=True)
    return np.array([function(int(v)) for v in unique], dtype=object)[inverse]


def wins_frame(records: np.ndarray, n_players: int, first_game: int = 0) -> pd.DataFrame:
    """One row per winner (see the module docstring), in game order then win order.

    ``gain`` is the winner's score change: in Anhua winners never pay each other, so with
    一炮多响 each winner's change is what the discarder paid him."""
    records = np.asarray(records)
    won = np.flatnonzero(records[:, E.R_OUTCOME] == E.OUTCOME_WIN)
    n_winners = records[won, E.R_N_WINNERS]
    # one row per (hand, winner index); np.repeat keeps game order, then win order
    hand_rows = np.repeat(won, n_winners)
    order = np.arange(len(hand_rows)) - np.repeat(np.cumsum(n_winners) - n_winners, n_winners)
    rows = records[hand_rows]
    seat = rows[np.arange(len(rows)), E.R_WINNER + order]
    features = rows[np.arange(len(rows)), E.R_FEATURES + order]
    points = rows[np.arange(len(rows)), E.R_POINTS + order]
    payer = rows[:, E.R_PAYER]
    # birds: rank r lands (r - 1) seats on from the winner; a hit is on the winner or the payer
    birds = rows[:, E.R_BIRD : E.R_BIRD + 4]
    in_use = np.arange(4)[None, :] < rows[:, E.R_N_BIRDS][:, None]
    landed = (seat[:, None] + birds % 9) % n_players
    hits = in_use & (
        (landed == seat[:, None]) | ((payer[:, None] >= 0) & (landed == payer[:, None]))
    )
    instant = (features & anhua_kernels.FEATURE_INSTANT) != 0
    gain = rows[np.arange(len(rows)), E.R_DELTA + seat]
    frame = pd.DataFrame(
        {
            "game": first_game + hand_rows,
            "seat": seat,
            "win_kind": pd.Categorical(
                [WIN_KINDS[int(k)] for k in rows[:, E.R_WIN_KIND]], categories=WIN_KIND_ORDER
            ),
            "pattern": _by_unique(features, anhua.pattern_name).astype(str),
            "tier": pd.Categorical(
                _by_unique(features, anhua.tier_name), categories=list(anhua.TIER_NAMES)
            ),
            "bigs": np.where(instant, 0, _by_unique(features, anhua.bigs).astype(np.int64)),
            "points": points,
            "features": _by_unique(features, lambda f: "+".join(anhua.feature_names(f))).astype(
                str
            ),
            "payer": payer,
            "bird_hits": hits.sum(axis=1),
            "gain": gain,
        },
        columns=list(WIN_COLUMNS),
    )
    return frame
