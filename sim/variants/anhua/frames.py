"""Anhua's columns of the games and wins frames, declared once, and how the records give them.

:mod:`sim.running.records` builds the generic columns and inserts these where they declare
(``after``); :func:`games_values` and :func:`wins_values` compute them from the engine's int64
records.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ...core.tiles import kind_name
from ...kernels.record import R_DEAL_INSTANT, R_INDICATOR, R_WILDS_DEALT
from ...running.records import categorical, each_distinct, strings
from ..columns import Column
from . import HOW, bigs, feature_names, pattern_name, tier_name
from . import TIER_NAMES as TIERS
from .record_slots import RH_BIRD, RH_N_BIRDS
from .scoring import FEATURE_INSTANT, bird_seat

if TYPE_CHECKING:
    from ...running.records import Winners

WIN_KINDS = {code: name for name, code in HOW.items()}
"""Win kind code (``HOW_*`` of the scoring kernels) -> its name in the frames."""

GAMES_COLUMNS = (
    Column(
        "indicator",
        "the flipped tile (the indicator) that chose the kings",
        "category",
        shown_as="tile",
        after="tiles_left",
    ),
    Column(
        "instant_kings_dealt_{seat}",
        "seat {seat} was dealt 起手四王/七王 and may win at once (a deal event, whatever it did)",
        "bool",
        shown_as="flag",
        per_seat=True,
        after="next_dealer",
    ),
    Column(
        "kings_dealt_{seat}",
        "kings (王) seat {seat} was dealt",
        "int64",
        shown_as="count",
        unit="tiles",
        per_seat=True,
        after="dealer_complete_dealt",
    ),
)
"""Anhua's columns of the games frame."""

WINS_COLUMNS = (
    Column(
        "pattern",
        "the pattern's name as the rules text gives it (起手胡 for the instant win)",
        "text",
        shown_as="name",
        after="win_kind",
    ),
    Column(
        "tier",
        "the tier, 小胡 大胡 双大胡 豪华胡 大豪华胡 双大豪华胡 (0 to 5 bigs)",
        "category",
        shown_as="name",
    ),
    Column(
        "bigs", "big features (大) of the win, 0 for the instant win", "int64", shown_as="count"
    ),
    Column(
        "features",
        "English ids of the win's features, joined by +",
        "text",
        shown_as="text",
        after="points",
    ),
    Column(
        "bird_hits",
        "birds (抓鸟) landing on the winner or on the payer; each doubles",
        "int64",
        shown_as="count",
        after="payer",
    ),
)
"""Anhua's columns of the wins frame."""

# The kernel itself, on numpy arrays (numba keeps the Python function as py_func; with
# NUMBA_DISABLE_JIT=1 the kernel is that function), so the rule exists once.
_bird_seat = getattr(bird_seat, "py_func", bird_seat)


def games_values(records: np.ndarray, n_players: int, options) -> dict:
    """The values of :data:`GAMES_COLUMNS` for a block of records."""
    return {
        "indicator": categorical(records[:, R_INDICATOR], kind_name),
        **{
            f"instant_kings_dealt_{seat}": ((records[:, R_DEAL_INSTANT] >> seat) & 1) == 1
            for seat in range(n_players)
        },
        **{f"kings_dealt_{seat}": records[:, R_WILDS_DEALT + seat] for seat in range(n_players)},
    }


def bird_hits(winners: Winners, n_players: int) -> np.ndarray:
    """Per winner, the birds that land on him or on the payer (§anhua-payments)."""
    rows, seat, payer = winners.rows, winners.seat, winners.payer
    birds = rows[:, RH_BIRD : RH_BIRD + 4]
    in_use = np.arange(4)[None, :] < rows[:, RH_N_BIRDS][:, None]
    landed = _bird_seat(birds, seat[:, None], n_players)
    hits = in_use & (
        (landed == seat[:, None]) | ((payer[:, None] >= 0) & (landed == payer[:, None]))
    )
    return hits.sum(axis=1)


def wins_values(winners: Winners, n_players: int, options) -> dict:
    """The values of :data:`WINS_COLUMNS` for every winner of a block of records."""
    features = winners.features
    instant = (features & FEATURE_INSTANT) != 0
    big_counts, where = each_distinct(features, bigs)
    return {
        "pattern": strings(features, pattern_name),
        "tier": categorical(features, tier_name, list(TIERS)),
        "bigs": np.where(instant, 0, np.array(big_counts, np.int64)[where]),
        "features": strings(features, lambda f: "+".join(feature_names(f))),
        "bird_hits": bird_hits(winners, n_players),
    }
