"""Weng'an's deal event 原缺 in played games agrees with its exact probability
(``sim.analysis.exact``).

Seed rule: docs/rules/wengan.md 原缺 (固定收每人3分): a dealt hand (the dealer's 14 tiles,
a non-dealer's 13) that already lacks a suit; §wengan-ding-que. The engine records it per seat at
the deal (``yuan_que_dealt_<seat>``), whatever then happens.
"""

from __future__ import annotations

import numpy as np
import pytest

from sim.analysis.exact import exact_events, parse_settings
from sim.core.wall import shuffled_walls, spawn_seeds
from sim.variants import get_variant
from sim.variants.wengan import WenganOptions, play_records, session_first_dealers

Z_999 = 3.2905  # two-sided 99.9 %


def _wilson(hits: int, trials: int, z: float = Z_999) -> tuple[float, float]:
    rate = hits / trials
    centre = (rate + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * np.sqrt(rate * (1 - rate) / trials + z * z / (4 * trials * trials))
    return centre - half / (1 + z * z / trials), centre + half / (1 + z * z / trials)


@pytest.mark.engine
def test_played_yuan_que_rates_agree_with_the_exact_values():
    options = WenganOptions(player_count=3)
    n_hands = 40_000
    walls_seed, dealers_seed = spawn_seeds(11, 2)
    walls = shuffled_walls(n_hands, 108, walls_seed)
    dealers = session_first_dealers(n_hands // 8, options, dealers_seed)
    records = play_records(options, walls, dealers, 8, (0,) * 3, 11)
    games = get_variant("wengan").games_frame(records, options, 8)
    lacking = games[[f"yuan_que_dealt_{seat}" for seat in range(3)]].to_numpy(dtype=bool)
    is_dealer = np.zeros_like(lacking)
    is_dealer[np.arange(n_hands), games["dealer"].to_numpy()] = True
    exact = {
        event.key: float(event.probability)
        for event in exact_events("wengan", parse_settings("wengan", []))
    }
    observed = {
        "wengan/dealer/yuan_que": (int(lacking[is_dealer].sum()), n_hands),
        "wengan/non_dealer/yuan_que": (int(lacking[~is_dealer].sum()), 2 * n_hands),
        "wengan/table/yuan_que/p3": (int(lacking.any(axis=1).sum()), n_hands),
    }
    for key, (hits, trials) in observed.items():
        low, high = _wilson(hits, trials)
        assert low <= exact[key] <= high, (key, hits, trials, exact[key])
    assert observed["wengan/table/yuan_que/p3"][0] > 500  # the check is not vacuous
