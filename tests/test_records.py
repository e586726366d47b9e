"""sim.running.records: the frames say exactly what the raw records say, in the declared columns."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sim.core.tables import load_tables
from sim.core.wall import shuffled_walls
from sim.kernels import engine as E
from sim.kernels import state as S
from sim.running import records as records_module
from sim.variants import get_variant
from sim.variants.anhua import AnhuaOptions
from sim.variants.anhua import engine as AE
from sim.variants.columns import Column, ordered

pytestmark = pytest.mark.engine  # the records of played hands

ANHUA = get_variant("anhua")
OPTIONS = AnhuaOptions()


@pytest.fixture(scope="module")
def played():
    records = np.zeros((400, E.N_RECORD), np.int64)
    AE.play_hands(
        S.new_state(),
        shuffled_walls(400, 108, 21),
        4,
        np.zeros(50, np.int64),
        8,
        OPTIONS.params(),
        load_tables(),
        records,
    )
    return records


def test_hands_frame_matches_the_records(played):
    frame = records_module.hands_frame(ANHUA, played, OPTIONS, 8)
    assert len(frame) == 400
    assert (frame[["delta_0", "delta_1", "delta_2", "delta_3"]].sum(axis=1) == 0).all()
    np.testing.assert_array_equal(frame["dealer"], played[:, E.R_DEALER])
    assert (frame["outcome"] == "win").sum() == (played[:, E.R_OUTCOME] == E.OUTCOME_WIN).sum()
    assert frame["session"].max() == 49 and set(frame["hand"]) == set(range(8))
    # a dealer streak grows exactly when the dealer stays within a session
    for previous, row in zip(frame.itertuples(), frame.iloc[1:].itertuples(), strict=False):
        kept = row.dealer == previous.dealer and row.session == previous.session
        assert row.streak == (previous.streak + 1 if kept else 1)
    np.testing.assert_array_equal(
        frame[[f"kings_dealt_{s}" for s in range(4)]],
        played[:, E.R_WILDS_DEALT : E.R_WILDS_DEALT + 4],
    )
    numbered = records_module.hands_frame(ANHUA, played[:16], OPTIONS, 8, first_game=100)
    assert numbered["game"].tolist() == list(range(100, 116))


def test_wins_frame_matches_the_records(played):
    wins = records_module.wins_frame(ANHUA, played, OPTIONS)
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
    # a single winner gains at least his base points (birds only double)
    single = wins[wins.groupby("game")["seat"].transform("size") == 1]
    assert (single["gain"] >= single["points"]).all()
    assert "平胡" in set(wins["pattern"])


def test_frames_have_the_declared_columns_in_order(played):
    """Generic columns first, each variant column after the one it declares it follows."""
    games = ANHUA.games_frame(played, OPTIONS, 8)
    wins = ANHUA.wins_frame(played, OPTIONS)
    for frame, kind in ((games, "games"), (wins, "wins")):
        columns = records_module.frame_columns(ANHUA, kind)
        assert list(frame.columns) == [name for c in columns for name in c.names(4)]
        for column in columns:
            for name in column.names(4):
                assert column.matches(frame[name]), name
    assert list(games.columns[10:19]) == [
        "tiles_left", "indicator", "next_dealer", "instant_kings_dealt_0", "instant_kings_dealt_1",
        "instant_kings_dealt_2", "instant_kings_dealt_3", "dealer_complete_dealt", "kings_dealt_0",
    ]  # fmt: skip
    assert list(wins.columns) == [
        "game", "seat", "win_kind", "pattern", "tier", "bigs", "points", "features", "payer",
        "bird_hits", "gain",
    ]  # fmt: skip
    kinds = list(games["win_kind"].cat.categories)
    assert kinds == [*ANHUA.win_kinds.values(), "none"]


def test_a_block_without_wins_keeps_every_column(played):
    drawn = played[played[:, E.R_OUTCOME] != E.OUTCOME_WIN][:0]
    wins = ANHUA.wins_frame(drawn, OPTIONS)
    assert wins.empty and list(wins.columns) == list(ANHUA.wins_frame(played, OPTIONS).columns)


def test_a_variant_computing_other_columns_than_it_declares_is_refused(played):
    missing = dataclasses.replace(ANHUA, games_values=lambda records, n, options: {})
    with pytest.raises(ValueError, match=r"games frame: the variant computes columns \[\]"):
        missing.games_frame(played, OPTIONS, 8)
    wrong_type = dataclasses.replace(
        ANHUA,
        wins_values=lambda winners, n, options: {
            **ANHUA.wins_values(winners, n, options),
            "bigs": np.zeros(len(winners.seat)),
        },
    )
    with pytest.raises(ValueError, match="wins frame: column bigs is float64, declared int64"):
        wrong_type.wins_frame(played, OPTIONS)


def test_column_declarations_are_checked():
    with pytest.raises(ValueError, match="dtype 'int'"):
        Column("x", "", "int")
    with pytest.raises(ValueError, match="shown_as 'big'"):
        Column("x", "", "int64", "big")
    with pytest.raises(ValueError, match=r"hold \{seat\}"):
        Column("x_{seat}", "", "int64")
    base = [Column("a", "", "int64"), Column("b", "", "int64")]
    with pytest.raises(ValueError, match="follows 'c', which the frame lacks"):
        ordered(base, [Column("x", "", "int64", after="c")])
    with pytest.raises(ValueError, match=r"declared twice: \['a'\]"):
        ordered(base, [Column("a", "", "int64", after="b")])
    seat = Column("kept_{seat}", "tiles seat {seat} kept", "int64", per_seat=True)
    assert seat.meaning_of("kept_2") == "tiles seat 2 kept"
    assert seat.matches(pd.Series([1, 2])) and not seat.matches(pd.Series([1.0]))


def test_the_docs_list_every_declared_column():
    text = (Path(__file__).resolve().parents[1] / "docs" / "analysis.md").read_text("utf-8")
    for kind in ("games", "wins"):
        for column in records_module.frame_columns(ANHUA, kind):
            assert f"`{column.name.replace('{seat}', '<seat>')}`" in text, column.name


@pytest.mark.parametrize(
    ("codes", "categories"),
    [
        ([3, 1, 3, 2, 1, 1], None),
        ([3, 1, 3, 2, 1, 1], ["c", "b", "a"]),
        ([], None),
        ([], ["a"]),
    ],
)
def test_categorical_is_pandas_categorical_of_the_names(codes, categories):
    names = {1: "b", 2: "a", 3: "c", 7: "z"}
    made = records_module.categorical(np.array(codes, np.int64), names.__getitem__, categories)
    expected = pd.Categorical([names[code] for code in codes], categories=categories)
    pd.testing.assert_extension_array_equal(made, expected)
    assert made.categories.dtype == expected.categories.dtype


def test_categorical_refuses_a_name_outside_the_categories():
    with pytest.raises(ValueError, match=r"names \['z'\] are not among the categories"):
        records_module.categorical(np.array([1, 7]), {1: "a", 7: "z"}.__getitem__, ["a", "b"])


@pytest.mark.parametrize("codes", [[3, 1, 3, 2, 1, 1], [], [5] * 7, list(range(40, 0, -3))])
def test_strings_make_the_column_a_list_of_the_names_makes(codes):
    """``strings`` (a take from the distinct names) gives the frame column, and the Arrow and
    Parquet bytes, that the names one by one give: the run's tables do not depend on it."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    def name_of(code: int) -> str:
        return "+".join(["杠上花"] * (code % 3)) or f"p{code}"

    called = []
    made = records_module.strings(
        np.array(codes, np.int64), lambda code: called.append(code) or name_of(code)
    )
    assert len(called) == len(set(codes))  # once per distinct code
    frames = [
        pd.DataFrame({"name": column, "code": np.array(codes, np.int64)})
        for column in (made, np.array([name_of(code) for code in codes], dtype=str))
    ]
    pd.testing.assert_frame_equal(frames[0], frames[1])
    written = []
    for frame in frames:
        sink = pa.BufferOutputStream()
        pq.write_table(pa.Table.from_pandas(frame, preserve_index=False, nthreads=1), sink)
        written.append(sink.getvalue().to_pybytes())
    assert written[0] == written[1]
