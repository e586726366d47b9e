"""Anqing's dealt 钻 in played games agree with their exact probabilities (``sim.analysis.exact``).

Seed rule: docs/rules/anqing.md 钻牌的出现 (the tile flipped after the deal chooses the
钻, its successor; all four of its tiles are wild); §anqing-zuan. The engine records each
seat's 钻 dealt (``R_WILDS_DEALT``) right after the flip, whatever then happens: the dealer's
14 tiles and each non-dealer's 13, against ``mjsim exact anqing``'s "exactly k 钻" rows.
"""

from __future__ import annotations

import numpy as np
import pytest

from sim.analysis.exact import exact_events, parse_settings
from sim.core.wall import shuffled_walls, spawn_seeds
from sim.kernels.record import R_DEALER, R_WILDS_DEALT
from sim.variants.anqing import AnqingOptions, play_records, session_first_dealers

Z_999 = 3.2905  # two-sided 99.9 %


def _wilson(hits: int, trials: int, z: float = Z_999) -> tuple[float, float]:
    rate = hits / trials
    centre = (rate + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * np.sqrt(rate * (1 - rate) / trials + z * z / (4 * trials * trials))
    return centre - half / (1 + z * z / trials), centre + half / (1 + z * z / trials)


@pytest.mark.engine
def test_played_zuan_counts_agree_with_the_exact_values():
    """For each k = 0..4, the rate of seats dealt exactly k 钻 (dealer and non-dealers apart)
    falls in the 99.9 % Wilson interval around the exact probability, and the common counts
    are seen often enough that the check says something."""
    options = AnqingOptions()
    n_hands = 20_000
    walls_seed, dealers_seed = spawn_seeds(17, 2)
    walls = shuffled_walls(n_hands, 136, walls_seed)
    dealers = session_first_dealers(n_hands // 8, options, dealers_seed)
    records = play_records(options, walls, dealers, 8, (0,) * 4, 17)
    dealt = records[:, R_WILDS_DEALT : R_WILDS_DEALT + 4]
    is_dealer = np.zeros_like(dealt, dtype=bool)
    is_dealer[np.arange(n_hands), records[:, R_DEALER]] = True
    exact = {
        event.key: float(event.probability)
        for event in exact_events("anqing", parse_settings("anqing", []))
    }
    for k in range(5):
        for seat, mask, trials in (
            ("dealer", is_dealer, n_hands),
            ("non_dealer", ~is_dealer, 3 * n_hands),
        ):
            hits = int((dealt[mask] == k).sum())
            low, high = _wilson(hits, trials)
            key = f"anqing/{seat}/zuan={k}"
            assert low <= exact[key] <= high, (key, hits, trials, exact[key])
    assert int((dealt[~is_dealer] == 2).sum()) > 1000  # the check is not vacuous
