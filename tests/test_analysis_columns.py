"""Long runs: the analysis reads only the columns it needs (pyarrow datasets), and
gives the figures it gives on the whole tables."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim import analysis
from sim.analysis.runs import SUMMARY_COLUMNS, read_columns
from sim.analysis.tallies import QUANTILES, _histogram
from sim.cli.run import summary_lines
from sim.running import runner
from sim.running.config import load_config

ROOT = Path(__file__).resolve().parent.parent
SUMMARY = (
    analysis.draw_rate,
    analysis.win_kinds,
    analysis.win_rate_by_seat,
    analysis.dealer_advantage,
    analysis.pattern_frequency,
    analysis.score_distribution,
)


@pytest.fixture(scope="module", params=["anhua-seven-kings", "wengan-3p"])
def run_dir(request, tmp_path_factory):
    config = load_config(ROOT / "configs" / f"{request.param}.toml", ["run.games=300"])
    return runner.run(config, tmp_path_factory.mktemp("run") / "run")


@pytest.mark.engine
def test_the_summary_reads_fewer_columns_and_gets_the_same_figures(run_dir):
    whole = analysis.load_run(run_dir)
    some = analysis.load_run(run_dir, SUMMARY_COLUMNS)
    assert len(some.games.columns) < len(whole.games.columns)
    assert len(some.wins.columns) < len(whole.wins.columns)
    for function in SUMMARY:
        pd.testing.assert_frame_equal(function(some), function(whole), obj=function.__name__)
    assert summary_lines(run_dir)  # the command's own summary runs on the columns it reads


@pytest.mark.engine
def test_columns_are_read_by_name_or_prefix_in_the_files_order(run_dir):
    games = read_columns(run_dir / runner.GAMES, ["delta_*", "game", "no_such_column"])
    assert list(games.columns) == ["game", *(c for c in games.columns if c.startswith("delta_"))]
    whole = pd.read_parquet(run_dir / runner.GAMES)
    pd.testing.assert_frame_equal(games, whole[list(games.columns)])
    pd.testing.assert_frame_equal(read_columns(run_dir / runner.GAMES), whole)


def _distribution_of_values(run, thresholds, confidence, per_hand) -> pd.DataFrame:
    """The former ``score_distribution``, from the values themselves (a seat-hands matrix)."""
    deltas = run.games[[f"delta_{s}" for s in range(run.n_players)]].to_numpy(float)
    dealer_mask = np.zeros(deltas.shape, dtype=bool)
    dealer_mask[np.arange(len(deltas)), run.games["dealer"].to_numpy(dtype=int)] = True
    groups = [(seat, "all", deltas[:, seat], deltas[:, seat]) for seat in range(run.n_players)]
    groups += [
        (pd.NA, "all", deltas.ravel(), per_hand["all"]),
        (pd.NA, "dealer", deltas[dealer_mask], per_hand["dealer"]),
        (pd.NA, "non_dealer", deltas[~dealer_mask], per_hand["non_dealer"]),
    ]
    rows = []
    for seat, role, values, hand_values in groups:
        interval = analysis.mean_interval(hand_values, confidence)
        quantiles = np.quantile(values, [0.05, 0.25, 0.5, 0.75, 0.95]) if len(values) else []
        row = {
            "seat": seat,
            "role": role,
            "observations": len(values),
            "mean": values.mean() if len(values) else math.nan,
            "lo": interval.lo,
            "hi": interval.hi,
            "std": values.std(ddof=1) if len(values) > 1 else math.nan,
            "variance": values.var(ddof=1) if len(values) > 1 else math.nan,
            "min": values.min() if len(values) else math.nan,
            **dict(zip(["q05", "q25", "median", "q75", "q95"], quantiles, strict=False)),
            "max": values.max() if len(values) else math.nan,
            "mean_abs": np.abs(values).mean() if len(values) else math.nan,
        }
        for threshold in thresholds:
            row[analysis._tail_name(threshold)] = (np.abs(values) >= threshold).mean()
        rows.append(row)
    frame = pd.DataFrame(rows)
    frame["seat"] = frame["seat"].astype("Int64")
    return frame


@pytest.mark.engine
def test_score_distribution_from_counts_equals_the_one_from_the_values(run_dir):
    """The integer scores' figures come from counts of each value (a long run's seat-hands do
    not fit in memory); they equal numpy's on the values themselves (the former code)."""
    from sim.analysis import scores

    run = analysis.load_run(run_dir, SUMMARY_COLUMNS)
    per_hand = scores._per_hand_role_scores(run)
    reference = _distribution_of_values(run, (8, 16, 32, 64), 0.95, per_hand)
    pd.testing.assert_frame_equal(analysis.score_distribution(run), reference, rtol=1e-12)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(-300, 300) | st.sampled_from([-(10**6), 10**6]), min_size=1, max_size=60)
)
def test_counted_figures_equal_numpys_on_random_integers(values):
    from sim.analysis import scores

    array = np.array(values, dtype=np.int64)
    row = scores._counted_summary(*_histogram(array), thresholds=(8, 64))
    quantiles = np.quantile(array.astype(float), QUANTILES)
    expected = {
        "observations": len(array),
        "mean": array.mean(),
        "min": array.min(),
        "max": array.max(),
        "mean_abs": np.abs(array).mean(),
        **dict(zip(("q05", "q25", "median", "q75", "q95"), quantiles, strict=True)),
        "p_abs_ge_8": (np.abs(array) >= 8).mean(),
        "p_abs_ge_64": (np.abs(array) >= 64).mean(),
    }
    if len(array) > 1:
        expected |= {"variance": array.var(ddof=1), "std": array.std(ddof=1)}
    for key, value in expected.items():
        assert row[key] == pytest.approx(value, rel=1e-12, abs=1e-9), key
