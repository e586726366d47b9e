"""``mjsim report`` reads a run batch by batch (``sim.analysis.open_run``): the page and every
figure made from a stored run read a few dozen hands at a time are the bytes of those made from
the run loaded whole (``sim.analysis.load_run``), for a run of each variant (Anhua's tiers and
draws, Weng'an's nets per seat, Anqing's own sections); and the figures drawn from counts per
value (``seat_score_counts``, ``seat_source_net_counts``) are those drawn from every seat-hand.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sim import analysis, plots
from sim.report import build_run_report
from sim.report.page import render
from sim.running.config import load_config
from sim.running.runner import run

ROOT = Path(__file__).resolve().parent.parent
RUNS = {  # config, hands: Anhua's above plots.CDF_POINTS, so its CDF is drawn from cut runs
    "anhua": ("anhua-seven-kings.toml", 2500),
    "wengan": ("wengan-4p.toml", 400),
    "anqing": ("anqing.toml", 400),
}
BATCH_ROWS = 97  # batches that cut sessions, and hands with several winners, anywhere


@pytest.fixture(scope="module", params=list(RUNS))
def played(request, tmp_path_factory):
    """A played run of each variant, in chunks of 700 hands (several row groups); the tests
    that use it play the engines (``engine``)."""
    name, hands = RUNS[request.param]
    overrides = [f"run.games={hands}", "run.chunk_hands=700"]
    config = load_config(ROOT / "configs" / name, overrides)
    return run(config, tmp_path_factory.mktemp(request.param) / "run", jobs=1, progress=False)


@pytest.mark.engine
def test_a_report_read_batch_by_batch_is_the_report_of_the_run_in_memory(played):
    whole = analysis.load_run(played)
    stored = analysis.open_run(played, batch_rows=BATCH_ROWS)
    assert len(list(stored.batches(games=[], wins=[]))) > 4
    page, figures = build_run_report(whole, str(played))
    batched_page, batched_figures = build_run_report(stored, str(played))
    assert [f.name for f in batched_figures] == [f.name for f in figures]
    for mine, theirs in zip(batched_figures, figures, strict=True):
        assert mine.png == theirs.png, mine.name
    assert batched_page == page
    assert len(figures) >= 4 and "<table" in page


def _png(figure) -> bytes:
    return render(figure, "x.png", "").png


@pytest.mark.engine
def test_score_figure_from_counts_is_the_figure_from_every_seat_hand(played):
    whole = analysis.load_run(played)
    counted = analysis.seat_score_counts(analysis.open_run(played, batch_rows=BATCH_ROWS))
    scores = analysis.seat_scores(whole)
    assert counted["count"].sum() == len(scores)
    for seat, group in scores.groupby("seat"):
        expected = group["score"].value_counts().sort_index()
        mine = counted[counted["seat"] == seat].set_index("score")["count"]
        assert mine.to_dict() == expected.to_dict()
    assert _png(plots.plot_score_distribution(counted)) == _png(
        plots.plot_score_distribution(scores)
    )


@pytest.mark.engine
def test_nets_figure_from_counts_is_the_figure_from_every_seat_hand(played):
    whole = analysis.load_run(played)
    nets = analysis.seat_source_nets(whole)
    counted = analysis.seat_source_net_counts(analysis.open_run(played, batch_rows=BATCH_ROWS))
    assert counted["count"].sum() == len(nets)
    if nets.empty:  # Anhua and Anqing record no source per seat
        assert counted.empty
        return
    sources = analysis.points_sources(whole)
    assert _png(plots.plot_points_sources(sources, counted)) == _png(
        plots.plot_points_sources(sources, nets)
    )


@pytest.mark.parametrize("hands", [1, 2000, 2001, 7919])
def test_the_cdf_from_counts_draws_the_pixels_of_every_value(hands):
    """Around plots.CDF_POINTS: every value drawn, then runs cut to their ends."""
    rng = np.random.default_rng(hands)
    values = rng.choice([-64, -8, -2, 0, 0, 0, 2, 4, 8, 24, 192], size=hands)
    values[: hands // 40] = rng.integers(-900, 900, hands // 40)  # values seen once
    scores = pd.DataFrame({"seat": 0, "dealer": False, "score": values})
    levels, counts = np.unique(values, return_counts=True)
    counted = pd.DataFrame({"seat": 0, "score": levels, "count": counts})
    figure = _png(plots.plot_score_distribution(scores))
    assert _png(plots.plot_score_distribution(counted)) == figure
    shifted = counted.assign(count=counted["count"] + (counted["score"] == 0))  # one more 0
    assert _png(plots.plot_score_distribution(shifted)) != figure


@pytest.mark.engine
@pytest.mark.parametrize("metric", ["mean_abs_score", "dealer_advantage", "draw_rate"])
def test_metric_estimate_is_that_of_every_hand_batch_by_batch(played, metric):
    whole = analysis.load_run(played)
    stored = analysis.open_run(played, batch_rows=BATCH_ROWS)
    estimate = analysis.metric_estimate(stored, metric)
    assert analysis.metric_estimate(whole, metric) == estimate
    values = analysis.metric_values(whole, metric)
    if isinstance(values, analysis.Proportion):
        assert estimate["n"] == values.trials
        assert estimate["estimate"] == values.successes / values.trials
        return
    interval = analysis.mean_interval(values)
    assert estimate["n"] == interval.n
    for key, expected in (("estimate", interval.mean), ("lo", interval.lo), ("hi", interval.hi)):
        assert estimate[key] == pytest.approx(expected, rel=1e-12, abs=1e-12)
