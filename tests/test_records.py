"""sim.records: the frames say exactly what the raw records say."""

from __future__ import annotations

import numpy as np
import pytest

from sim import records as records_module
from sim.kernels import engine as E
from sim.kernels import state as S
from sim.tables import load_tables
from sim.variants.anhua import AnhuaOptions
from sim.variants.anhua import engine as AE
from sim.wall import shuffled_walls


@pytest.fixture(scope="module")
def played():
    options = AnhuaOptions()
    records = np.zeros((400, E.N_RECORD), np.int64)
    AE.play_hands(
        S.new_state(),
        shuffled_walls(400, 108, 21),
        4,
        np.zeros(50, np.int64),
        8,
        options.params(),
        load_tables(),
        records,
    )
    return records


def test_hands_frame_matches_the_records(played):
    frame = records_module.hands_frame(played, 4, 8)
    assert len(frame) == 400
    assert (frame[["delta_0", "delta_1", "delta_2", "delta_3"]].sum(axis=1) == 0).all()
    np.testing.assert_array_equal(frame["dealer"], played[:, E.R_DEALER])
    assert (frame["outcome"] == "win").sum() == (played[:, E.R_OUTCOME] == E.OUTCOME_WIN).sum()
    assert frame["session"].max() == 49 and set(frame["hand"]) == set(range(8))
    # a dealer streak grows exactly when the dealer stays within a session
    for previous, row in zip(frame.itertuples(), frame.iloc[1:].itertuples(), strict=False):
        kept = row.dealer == previous.dealer and row.session == previous.session
        assert row.streak == (previous.streak + 1 if kept else 1)


def test_wins_frame_matches_the_records(played):
    wins = records_module.wins_frame(played, 4)
    assert len(wins) == played[played[:, E.R_OUTCOME] == E.OUTCOME_WIN, E.R_N_WINNERS].sum()
    assert set(wins["tier"].dropna()) <= {
        "小胡",
        "大胡",
        "双大胡",
        "豪华胡",
        "大豪华胡",
        "双大豪华胡",
    }
    assert (wins["points"] == 2 ** (wins["bigs"] + 1)).all()
    single = wins.dropna(subset=["gain"])
    # a single winner gains at least his base points (birds only double)
    assert (single["gain"] >= single["points"]).all()
    assert "平胡" in set(wins["pattern"])
