"""Deal events in played games: recorded by the engine at the deal, and in agreement
with the exact probabilities of ``sim.analysis.exact``.

Rules: docs/rules/anhua.md — 王 (the kings from the flipped tile), 起手四王/七王
(the instant win), and a dealt hand that is already a win (the dealer's 14 tiles).
"""

from __future__ import annotations

import numpy as np
import pytest

from sim.analysis.exact import exact_events, parse_settings
from sim.core.wall import shuffled_walls, spawn_seeds
from sim.variants import get_variant
from sim.variants.anhua import AnhuaOptions, play_records, session_first_dealers

Z_999 = 3.2905  # two-sided 99.9 %


def _wilson(hits: int, trials: int, z: float = Z_999) -> tuple[float, float]:
    rate = hits / trials
    centre = (rate + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * np.sqrt(rate * (1 - rate) / trials + z * z / (4 * trials * trials))
    return centre - half / (1 + z * z / trials), centre + half / (1 + z * z / trials)


def _played(options: AnhuaOptions, n_hands: int, seed: int):
    walls_seed, dealers_seed = spawn_seeds(seed, 2)
    walls = shuffled_walls(n_hands, 108, walls_seed)
    dealers = session_first_dealers(n_hands // 8, options, dealers_seed)
    records = play_records(options, walls, dealers, 8, (0,) * options.player_count, seed)
    return get_variant("anhua").games_frame(records, options, 8)


def _exact(king_mode: str) -> dict[str, float]:
    kings = "7" if king_mode == "seven_kings" else "4"
    events = exact_events("anhua", parse_settings("anhua", [f"kings={kings}"]))
    return {event.key: float(event.probability) for event in events}


def _dealer_column(games, prefix: str) -> np.ndarray:
    columns = games[[f"{prefix}_{seat}" for seat in range(4)]].to_numpy()
    return columns[np.arange(len(games)), games["dealer"].to_numpy()]


@pytest.mark.engine
def test_deal_events_are_recorded_consistently():
    games = _played(AnhuaOptions(), 4000, seed=5)
    kings = games[[f"kings_dealt_{seat}" for seat in range(4)]].to_numpy()
    assert kings.min() >= 0 and kings.sum(axis=1).max() <= 7
    assert kings.sum() > 0
    # a dealt win ends the hand at the dealer's first turn (the agent always takes it): no
    # tile drawn, the dealer the winner, by the instant win or a self-draw on dealt tiles
    dealt = games[games["dealer_complete_dealt"]]
    assert len(dealt) > 0
    assert (dealt["turns"] == 0).all() and (dealt["outcome"] == "win").all()
    assert dealt["win_kind"].isin(["self_draw", "instant"]).all()
    # and no hand with a dealt win ends any other way than at once
    first_turn_wins = games[(games["turns"] == 0) & (games["win_kind"] == "self_draw")]
    assert first_turn_wins["dealer_complete_dealt"].all()


@pytest.mark.slow
@pytest.mark.parametrize(
    ("king_mode", "n_hands"), [("seven_kings", 120_000), ("four_kings", 60_000)]
)
def test_played_deal_events_agree_with_exact_values(king_mode, n_hands):
    """The kings each seat is dealt, the dealer's dealt win and the instant king win, counted
    over played games, against sim.analysis.exact: every exact value inside the 99.9 % Wilson
    interval."""
    games = _played(AnhuaOptions(king_mode=king_mode), n_hands, seed=2026)
    exact = _exact(king_mode)
    tag = "k7" if king_mode == "seven_kings" else "k4"
    dealer_kings = _dealer_column(games, "kings_dealt")
    next_seat_kings = games[["kings_dealt_0", "kings_dealt_1", "kings_dealt_2", "kings_dealt_3"]]
    next_seat_kings = next_seat_kings.to_numpy()[
        np.arange(len(games)), (games["dealer"].to_numpy() + 1) % 4
    ]
    checks = []
    for k in range(4):
        checks.append(
            (
                f"dealer dealt {k} kings",
                (dealer_kings == k).sum(),
                exact[f"anhua/{tag}/dealer/kings={k}"],
            )
        )
        checks.append(
            (
                f"next seat dealt {k} kings",
                (next_seat_kings == k).sum(),
                exact[f"anhua/{tag}/non_dealer/kings={k}"],
            )
        )
    checks.append(
        (
            "dealer's dealt 14 a win",
            games["dealer_complete_dealt"].sum(),
            exact[f"anhua/{tag}/dealer/complete_kings"],
        )
    )
    dealer_instant = _dealer_column(games, "instant_kings_dealt")
    checks.append(
        ("dealer dealt 起手四王/七王", dealer_instant.sum(), exact[f"anhua/{tag}/dealer/instant"])
    )
    for name, hits, probability in checks:
        low, high = _wilson(int(hits), len(games))
        assert low <= probability <= high, (name, hits, len(games), probability, low, high)
