"""Each variant's ``bounds.hand_score_bound`` truly bounds a hand: hands played under option sets
drawn from the declared ranges (their maxima often) never move a seat's score, a point source, a
winner's points or gain by more than it (§anhua-payments, §wengan-settlement-order,
§anqing-payment-rules). ``tests/test_options.py`` checks that the bound at the maxima, summed over
the longest run a config allows, fits int64 with room to spare."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_options import allowed_options, hand_score_bound

from sim.play import play
from sim.variants import VARIANT_NAMES

HANDS = 40


def _largest(frame, columns) -> int:
    if frame.empty or not columns:
        return 0
    return int(np.abs(frame[columns].to_numpy(np.int64)).max())


@pytest.mark.engine
@pytest.mark.parametrize("variant", VARIANT_NAMES)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_no_hand_moves_more_than_its_bound(variant, data):
    options = data.draw(allowed_options(variant), label="options")
    session = data.draw(st.integers(1, HANDS), label="hands_per_session")
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    hands, wins = play(variant, HANDS, seed, options, session)
    bound = hand_score_bound(variant)(options, session)
    moved = [c for c in hands.columns if c.startswith(("delta_", "points_from_"))]
    assert moved
    assert _largest(hands, moved) <= bound
    assert _largest(wins, ["points", "gain"]) <= bound
