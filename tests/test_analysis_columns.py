"""Long runs (issue 17): the analysis reads only the columns it needs (pyarrow datasets), and
gives the figures it gives on the whole tables."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from sim import analysis, runner
from sim.analysis.runs import SUMMARY_COLUMNS, read_columns
from sim.cli.run import summary_lines
from sim.config import load_config

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


def test_the_summary_reads_fewer_columns_and_gets_the_same_figures(run_dir):
    whole = analysis.load_run(run_dir)
    some = analysis.load_run(run_dir, SUMMARY_COLUMNS)
    assert len(some.games.columns) < len(whole.games.columns)
    assert len(some.wins.columns) < len(whole.wins.columns)
    for function in SUMMARY:
        pd.testing.assert_frame_equal(function(some), function(whole), obj=function.__name__)
    assert summary_lines(run_dir)  # the command's own summary runs on the columns it reads


def test_columns_are_read_by_name_or_prefix_in_the_files_order(run_dir):
    games = read_columns(run_dir / runner.GAMES, ["delta_*", "game", "no_such_column"])
    assert list(games.columns) == ["game", *(c for c in games.columns if c.startswith("delta_"))]
    whole = pd.read_parquet(run_dir / runner.GAMES)
    pd.testing.assert_frame_equal(games, whole[list(games.columns)])
    pd.testing.assert_frame_equal(read_columns(run_dir / runner.GAMES), whole)
