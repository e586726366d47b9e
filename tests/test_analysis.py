"""sim.analysis: every figure recomputed independently, from the raw frames of a played sample
written as a run directory, or from small frames made by hand with known answers."""

from __future__ import annotations

import doctest
import importlib
import json
import math
import pkgutil
import statistics
from collections import Counter
from dataclasses import asdict
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from run_folders import run_config, write_run_folder

from sim import analysis
from sim.analysis import Run
from sim.variants.anhua import AnhuaOptions
from sim.variants.anhua.play import play_anhua

N_PLAYERS = 4
Z95 = statistics.NormalDist().inv_cdf(0.975)


def write_run(directory: Path, options: AnhuaOptions, n_hands: int, seed: int, label: str):
    games, wins = play_anhua(n_hands, seed=seed, options=options)
    config = run_config("anhua", asdict(options), n_hands, seed, label)
    write_run_folder(directory, config, games, wins)
    return games, wins


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """2,000 hands with the default options, as a run directory, with its raw frames."""
    directory = tmp_path_factory.mktemp("runs") / "base"
    games, wins = write_run(directory, AnhuaOptions(), 2000, 3, "anhua-base")
    return analysis.load_run(directory), games, wins


@pytest.fixture(scope="module")
def sweep_dir(tmp_path_factory):
    """A 2 x 2 sweep (king_mode x bird_count) of 500 hands per cell."""
    root = tmp_path_factory.mktemp("sweep")
    cells = []
    for king_mode in ("seven_kings", "four_kings"):
        for bird_count in (1, 4):
            name = f"{king_mode}-{bird_count}"
            options = AnhuaOptions(king_mode=king_mode, bird_count=bird_count)
            write_run(root / "cells" / name, options, 500, 7, name)
            cell_options = {"king_mode": king_mode, "bird_count": bird_count}
            cells.append({"name": name, "options": cell_options, "dir": f"cells/{name}"})
    spec = {
        "base": {"variant": "anhua"},
        "axes": {"king_mode": ["seven_kings", "four_kings"], "bird_count": [1, 4]},
        "cells": cells,
    }
    (root / "sweep.json").write_text(json.dumps(spec))
    return root


def winner_score(games: pd.DataFrame, win: pd.Series) -> float:
    if not pd.isna(win["gain"]):
        return float(win["gain"])
    hand = games.loc[games["game"] == win["game"]].iloc[0]
    return float(hand[f"delta_{win['seat']}"])


def wilson_by_formula(x: int, n: int, z: float = Z95) -> tuple[float, float]:
    p = x / n
    center = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return max(0.0, center - half), min(1.0, center + half)


# --------------------------------------------------------------------------- statistics


def test_docstring_examples_run():
    modules = [analysis] + [
        importlib.import_module(f"sim.analysis.{module.name}")
        for module in pkgutil.iter_modules(analysis.__path__)
    ]
    results = [doctest.testmod(module, verbose=False) for module in modules]
    assert sum(result.attempted for result in results) >= 20
    assert sum(result.failed for result in results) == 0


DEALT_HAND_MODULES = {"exact", "dealt"}
"""The dealt-hand probabilities: imported on their own (they run kernels), not re-exported."""


def test_every_public_name_is_importable_from_the_package():
    for module in pkgutil.iter_modules(analysis.__path__):
        if module.name in DEALT_HAND_MODULES:
            continue
        members = vars(importlib.import_module(f"sim.analysis.{module.name}"))
        public = [
            name
            for name, value in members.items()
            if not name.startswith("_")
            and getattr(value, "__module__", None) == f"sim.analysis.{module.name}"
        ]
        for name in public:
            assert getattr(analysis, name) is members[name], name
            assert name in analysis.__all__, name


def test_wilson_interval_matches_the_formula_and_is_vectorised():
    lo, hi = analysis.wilson_interval([0, 3, 50, 100], [100, 1000, 100, 100])
    for index, (x, n) in enumerate([(0, 100), (3, 1000), (50, 100), (100, 100)]):
        expected = wilson_by_formula(x, n)
        assert lo[index] == pytest.approx(expected[0], abs=1e-12)
        assert hi[index] == pytest.approx(expected[1], abs=1e-12)
    # 0 of n: the upper end is z² / (n + z²) exactly
    assert hi[0] == pytest.approx(Z95**2 / (100 + Z95**2))
    assert lo[0] == 0 and hi[3] == 1
    assert np.isnan(analysis.wilson_interval(0, 0)[0])
    lo99, hi99 = analysis.wilson_interval(50, 100, confidence=0.99)
    assert lo99 < lo[2] and hi99 > hi[2]


def test_wilson_interval_covers_a_rare_probability_about_95_percent_of_the_time():
    rng = np.random.default_rng(0)
    p, n = 0.004, 800
    successes = rng.binomial(n, p, size=4000)
    lo, hi = analysis.wilson_interval(successes, np.full_like(successes, n))
    coverage = np.mean((lo <= p) & (p <= hi))
    assert 0.92 <= coverage <= 0.99


@pytest.mark.parametrize(
    ("df", "quantile"),
    [(1, 12.706204736), (2, 4.302652730), (5, 2.570581836), (10, 2.228138852), (30, 2.042272456)],
)
def test_t_quantile_matches_the_table(df, quantile):
    assert analysis.t_quantile(0.975, df) == pytest.approx(quantile, abs=1e-7)
    assert analysis.t_quantile(0.025, df) == pytest.approx(-quantile, abs=1e-7)
    assert analysis.t_two_sided_p(quantile, df) == pytest.approx(0.05, abs=1e-9)


def test_t_p_value_with_fractional_df_matches_numerical_integration():
    df, t = 5.521, 2.2514
    grid = np.linspace(t, 2000, 2_000_001)
    density = np.exp(
        math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - 0.5 * math.log(df * math.pi)
    ) * (1 + grid**2 / df) ** (-(df + 1) / 2)
    tail = np.trapezoid(density, grid)
    assert analysis.t_two_sided_p(t, df) == pytest.approx(2 * tail, rel=1e-5)


def test_welch_test_matches_the_formula():
    a = [3.1, 4.7, 5.0, 2.2, 6.9, 4.4]
    b = [7.5, 6.1, 8.8, 5.9, 9.4, 6.6, 7.0, 8.1]
    result = analysis.welch_test(a, b)
    va, vb = statistics.variance(a) / len(a), statistics.variance(b) / len(b)
    se = math.sqrt(va + vb)
    df = (va + vb) ** 2 / (va**2 / (len(a) - 1) + vb**2 / (len(b) - 1))
    difference = statistics.mean(a) - statistics.mean(b)
    assert result.difference == pytest.approx(difference)
    assert result.statistic == pytest.approx(difference / se)
    assert result.df == pytest.approx(df)
    half = analysis.t_quantile(0.975, df) * se
    assert (result.lo, result.hi) == pytest.approx((difference - half, difference + half))
    assert analysis.t_two_sided_p(result.statistic, df) == pytest.approx(result.p_value)
    assert 0.001 < result.p_value < 0.01


def test_two_proportion_test_reproduces_newcombes_published_interval():
    # Newcombe (1998), Statistics in Medicine 17:873, example 56/70 vs 48/80: method 10 gives
    # 0.0524 to 0.3339 for the difference 0.2.
    result = analysis.two_proportion_test(56, 70, 48, 80)
    assert result.difference == pytest.approx(0.2)
    assert result.lo == pytest.approx(0.0524, abs=1e-4)
    assert result.hi == pytest.approx(0.3339, abs=1e-4)
    pooled = 104 / 150
    z = 0.2 / math.sqrt(pooled * (1 - pooled) * (1 / 70 + 1 / 80))
    assert result.statistic == pytest.approx(z)
    assert result.p_value == pytest.approx(2 * (1 - statistics.NormalDist().cdf(z)))


def test_two_proportion_test_keeps_tiny_p_values():
    assert 0 < analysis.two_proportion_test(900, 1000, 300, 1000).p_value < 1e-100


def test_holm_adjustment_by_hand():
    p = [0.01, 0.04, 0.03, 0.005, math.nan]
    holm = analysis.adjust_p_values(p)
    # sorted: 0.005*4, 0.01*3, 0.03*2, 0.04*1 -> running maximum
    assert holm[:4] == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert math.isnan(holm[4])
    assert analysis.adjust_p_values(p, "bonferroni")[:4] == pytest.approx([0.04, 0.16, 0.12, 0.02])
    with pytest.raises(ValueError, match="unknown correction"):
        analysis.adjust_p_values(p, "fdr")


# --------------------------------------------------------------------------- loading


@pytest.mark.engine
def test_load_run_reads_the_directory(played):
    run, games, wins = played
    assert run.label == "anhua-base"
    assert run.n_players == N_PLAYERS
    assert len(run.games) == len(games) == 2000
    assert len(run.wins) == len(wins)
    assert run.options["bird_count"] == 2


def test_load_run_errors_are_one_clear_line(tmp_path):
    with pytest.raises(FileNotFoundError, match="no run directory at"):
        analysis.load_run(tmp_path / "absent")
    with pytest.raises(FileNotFoundError, match=r"not a run directory: no manifest\.json"):
        analysis.load_run(tmp_path)
    (tmp_path / "manifest.json").write_text("{not json")
    with pytest.raises(ValueError, match="invalid JSON"):
        analysis.load_run(tmp_path)
    (tmp_path / "manifest.json").write_text("{}")
    with pytest.raises(FileNotFoundError, match=r"no games\.parquet"):
        analysis.load_run(tmp_path)
    (tmp_path / "games.parquet").write_text("not parquet")
    (tmp_path / "wins.parquet").write_text("not parquet")
    with pytest.raises(ValueError, match="cannot read parquet"):
        analysis.load_run(tmp_path)
    pd.DataFrame({"game": [0]}).to_parquet(tmp_path / "games.parquet")
    pd.DataFrame().to_parquet(tmp_path / "wins.parquet")
    with pytest.raises(ValueError, match=r"manifest\.json: no 'variant'"):
        analysis.load_run(tmp_path)


def test_repeated_game_numbers_are_refused():
    run = analysis.demo_run()
    with pytest.raises(ValueError, match="repeats a hand number"):
        Run(run.manifest, pd.concat([run.games, run.games]), run.wins)


@pytest.mark.engine
def test_load_runs_labels_and_splits(played, sweep_dir):
    run, _, _ = played
    cell = sweep_dir / "cells" / "four_kings-4"
    both = analysis.load_runs([run.path, cell])
    assert list(both.games["run"].cat.categories) == ["anhua-base", "four_kings-4"]
    parts = both.parts()
    assert len(parts["four_kings-4"].games) == 500
    pd.testing.assert_frame_equal(parts["anhua-base"].games, run.games)
    per_run = analysis.draw_rate(both)
    assert per_run["run"].tolist() == ["anhua-base", "four_kings-4"]
    assert per_run["hands"].tolist() == [2000, 500]


@pytest.mark.engine
def test_load_sweep(sweep_dir):
    sweep = analysis.load_sweep(sweep_dir)
    assert list(sweep.runs) == ["seven_kings-1", "seven_kings-4", "four_kings-1", "four_kings-4"]
    options = sweep.cell_options()
    assert options.columns.tolist() == ["cell", "king_mode", "bird_count"]
    assert options["bird_count"].tolist() == [1, 4, 1, 4]
    with pytest.raises(FileNotFoundError, match="no sweep directory"):
        analysis.load_sweep(sweep_dir / "nothing")
    with pytest.raises(FileNotFoundError, match=r"not a sweep directory: no sweep\.json"):
        analysis.load_sweep(sweep_dir / "cells")


# --------------------------------------------------------------------------- one run


@pytest.mark.engine
def test_draw_rate(played):
    run, games, _ = played
    frame = analysis.draw_rate(run)
    draws = sum(1 for outcome in games["outcome"] if outcome == "draw")
    assert frame.loc[0, "draws"] == draws
    assert frame.loc[0, "rate"] == draws / 2000
    assert (frame.loc[0, "lo"], frame.loc[0, "hi"]) == pytest.approx(wilson_by_formula(draws, 2000))


@pytest.mark.engine
def test_win_rate_by_seat(played):
    run, games, wins = played
    frame = analysis.win_rate_by_seat(run)
    won = {(g, s) for g, s in zip(wins["game"], wins["seat"], strict=True)}
    dealer = dict(zip(games["game"], games["dealer"], strict=True))
    for seat in range(N_PLAYERS):
        row = frame[(frame["seat"] == seat) & (frame["role"] == "all")].iloc[0]
        count = sum(1 for g in games["game"] if (g, seat) in won)
        assert (row["hands"], row["wins"]) == (2000, count)
        assert (row["lo"], row["hi"]) == pytest.approx(wilson_by_formula(count, 2000))
    dealer_wins = sum(1 for g, s in won if dealer[g] == s)
    roles = frame[frame["seat"].isna()].set_index("role")
    assert roles.loc["dealer", "wins"] == dealer_wins
    assert roles.loc["non_dealer", "wins"] == len(won) - dealer_wins
    assert roles.loc["non_dealer", "hands"] == 2000 * (N_PLAYERS - 1)


@pytest.mark.engine
def test_dealer_advantage(played):
    run, games, _ = played
    dealer_scores, non_dealer_means = [], []
    for _, hand in games.iterrows():
        deltas = [hand[f"delta_{s}"] for s in range(N_PLAYERS)]
        dealer_scores.append(deltas[hand["dealer"]])
        non_dealer_means.append((sum(deltas) - deltas[hand["dealer"]]) / (N_PLAYERS - 1))
    differences = [d - n for d, n in zip(dealer_scores, non_dealer_means, strict=True)]
    frame = analysis.dealer_advantage(run).set_index("role")
    assert frame.loc["dealer", "mean"] == pytest.approx(statistics.mean(dealer_scores))
    assert frame.loc["non_dealer", "mean"] == pytest.approx(statistics.mean(non_dealer_means))
    row = frame.loc["difference"]
    sem = statistics.stdev(differences) / math.sqrt(2000)
    assert row["mean"] == pytest.approx(statistics.mean(differences))
    assert row["statistic"] == pytest.approx(statistics.mean(differences) / sem)
    # 1,999 degrees of freedom: the t quantile is within 0.1 % of the normal one
    assert row["hi"] - row["mean"] == pytest.approx(Z95 * sem, rel=1e-3)
    z_p = 2 * (1 - statistics.NormalDist().cdf(abs(row["statistic"])))
    assert row["p_value"] == pytest.approx(z_p, abs=2e-4)
    assert bool(row["significant"]) == (row["p_value"] < 0.05)


@pytest.mark.engine
def test_win_kinds(played):
    run, games, wins = played
    frame = analysis.win_kinds(run).set_index("win_kind")
    for kind, count in Counter(games["win_kind"].astype(str)).items():
        assert frame.loc[kind, "hands"] == count
    assert frame["hands"].sum() == 2000
    self_draws = wins[wins["win_kind"] == "self_draw"]
    assert frame.loc["self_draw", "winners"] == len(self_draws)
    assert frame.loc["self_draw", "mean_points"] == pytest.approx(self_draws["points"].mean())


@pytest.mark.engine
def test_pattern_frequency(played):
    run, games, wins = played
    frame = analysis.pattern_frequency(run).set_index("pattern")
    counts = Counter(wins["pattern"])
    assert dict(frame["count"]) == dict(counts)
    assert frame["count"].is_monotonic_decreasing
    for pattern in counts:
        games_with = {g for g, p in zip(wins["game"], wins["pattern"], strict=True) if p == pattern}
        row = frame.loc[pattern]
        assert row["hands_with"] == len(games_with)
        assert row["rate"] == len(games_with) / 2000
        assert (row["lo"], row["hi"]) == pytest.approx(wilson_by_formula(len(games_with), 2000))
        chosen = wins[wins["pattern"] == pattern]
        scores = [winner_score(games, win) for _, win in chosen.iterrows()]
        assert row["mean_score"] == pytest.approx(statistics.mean(scores))
        assert row["mean_points"] == pytest.approx(chosen["points"].mean())
        assert row["share_of_wins"] == pytest.approx(len(chosen) / len(wins))


@pytest.mark.engine
def test_pattern_frequency_lists_unseen_patterns_with_an_upper_bound(played):
    run, _, _ = played
    frame = analysis.pattern_frequency(run, patterns=["七王清一色小七对"]).set_index("pattern")
    row = frame.loc["七王清一色小七对"]
    assert (row["count"], row["rate"], row["lo"]) == (0, 0, 0)
    assert row["hi"] == pytest.approx(Z95**2 / (2000 + Z95**2))


def test_several_winners_of_one_hand_score_their_own_delta():
    # seats 1 and 3 both win on seat 0's discard; the records leave gain empty then.
    games = pd.DataFrame(
        {
            "game": [0],
            "dealer": [2],
            "outcome": ["win"],
            "win_kind": ["discard"],
            "n_winners": [2],
            "delta_0": [-24],
            "delta_1": [16],
            "delta_2": [0],
            "delta_3": [8],
        }
    )
    wins = pd.DataFrame(
        {
            "game": [0, 0],
            "seat": [1, 3],
            "win_kind": ["discard", "discard"],
            "pattern": ["硬庄", "硬庄"],
            "tier": ["大胡", "大胡"],
            "points": [4, 4],
            "payer": [0, 0],
            "gain": [None, None],
        }
    )
    run = Run.from_frames(games, wins, {"n_players": 4})
    frame = analysis.pattern_frequency(run).set_index("pattern")
    assert frame.loc["硬庄", "count"] == 2
    assert frame.loc["硬庄", "hands_with"] == 1
    assert frame.loc["硬庄", "mean_score"] == 12
    sources = analysis.points_sources(run).set_index("source")
    assert list(sources.index) == ["pattern"]  # no variant named: no derived sources
    assert sources.loc["pattern", "points"] == 8  # 4 + 4 from one payer each


@pytest.mark.engine
def test_tier_summary(played):
    run, games, wins = played
    frame = analysis.tier_summary(run).set_index("tier")
    assert list(frame.index) == ["小胡", "大胡", "双大胡", "豪华胡", "大豪华胡", "双大豪华胡"]
    total = sum(winner_score(games, win) for _, win in wins.iterrows())
    for tier, chosen in wins.groupby("tier", observed=True):
        scores = [winner_score(games, win) for _, win in chosen.iterrows()]
        row = frame.loc[tier]
        assert row["winners"] == len(chosen)
        assert row["score_per_hand"] == pytest.approx(sum(scores) / 2000)
        assert row["share_of_score"] == pytest.approx(sum(scores) / total)
        assert row["score_lo"] <= row["score_per_hand"] <= row["score_hi"]
        assert row["score_lo"] >= 0
    assert frame["share_of_score"].sum() == pytest.approx(1)


@pytest.mark.engine
def test_score_distribution(played):
    run, games, _ = played
    frame = analysis.score_distribution(run, thresholds=[16, 64])
    for seat in range(N_PLAYERS):
        values = games[f"delta_{seat}"].to_numpy(dtype=float)
        row = frame[(frame["seat"] == seat)].iloc[0]
        assert row["mean"] == pytest.approx(statistics.mean(values))
        assert row["std"] == pytest.approx(statistics.stdev(values))
        assert row["variance"] == pytest.approx(statistics.variance(values))
        assert row["median"] == statistics.median(values)
        assert row["q95"] == pytest.approx(np.percentile(values, 95))
        assert row["p_abs_ge_16"] == sum(abs(v) >= 16 for v in values) / 2000
        half = analysis.t_quantile(0.975, 1999) * statistics.stdev(values) / math.sqrt(2000)
        assert row["hi"] == pytest.approx(row["mean"] + half)
    pooled = frame[frame["seat"].isna()].set_index("role")
    # zero-sum: the seats' mean is exactly 0 in every hand, so is its interval
    assert pooled.loc["all", ["mean", "lo", "hi"]].tolist() == [0, 0, 0]
    dealer_values = [h[f"delta_{h['dealer']}"] for _, h in games.iterrows()]
    assert pooled.loc["dealer", "observations"] == 2000
    assert pooled.loc["dealer", "max"] == max(dealer_values)
    assert pooled.loc["non_dealer", "observations"] == 6000


@pytest.mark.engine
def test_tail_probabilities(played):
    run, games, _ = played
    frame = analysis.tail_probabilities(run, thresholds=[32])
    deltas = games[[f"delta_{s}" for s in range(N_PLAYERS)]].to_numpy()
    pooled = frame[frame["seat"].isna()].iloc[0]
    count = int((np.abs(deltas) >= 32).sum())
    assert (pooled["observations"], pooled["count"]) == (8000, count)
    assert (pooled["lo"], pooled["hi"]) == pytest.approx(wilson_by_formula(count, 8000))
    seat_two = frame[frame["seat"] == 2].iloc[0]
    assert seat_two["count"] == sum(abs(v) >= 32 for v in games["delta_2"])


@pytest.mark.engine
def test_points_sources_split_birds_from_pattern_points(played):
    run, games, wins = played
    frame = analysis.points_sources(run).set_index("source")
    payers = np.where(wins["payer"] < 0, N_PLAYERS - 1, 1)
    pattern_points = float((wins["points"] * payers).sum())
    scores = [winner_score(games, win) for _, win in wins.iterrows()]
    assert frame.loc["pattern", "points"] == pattern_points
    assert frame.loc["birds", "points"] == pytest.approx(sum(scores) - pattern_points)
    assert frame["share"].sum() == pytest.approx(1)
    # §anhua-payments: one payer, h hits -> the payer pays P * 2^h, so birds add P * (2^h - 1)
    single = wins[(wins["payer"] >= 0) & wins["gain"].notna()]
    assert (single["gain"] == single["points"] * 2 ** single["bird_hits"]).all()


def test_points_from_columns_are_their_own_sources():
    run = analysis.demo_run()
    games = run.games.assign(points_from_chickens=[2, 0, 4, 0], points_from_dou=[0, 4, 0, 8])
    run = Run.from_frames(games, run.wins, run.manifest)
    frame = analysis.points_sources(run).set_index("source")
    assert list(frame.index) == ["pattern", "doubling", "chickens", "dou"]
    assert frame.loc["chickens", "points"] == 6
    assert frame.loc["dou", "per_hand"] == 3
    assert frame.loc["pattern", "share"] == pytest.approx(22 / (22 + 16 + 6 + 12))


def test_a_run_without_wins():
    games = pd.DataFrame(
        {
            "game": [0, 1],
            "dealer": [0, 0],
            "outcome": ["draw", "draw"],
            "win_kind": ["none", "none"],
            "n_winners": [0, 0],
            **{f"delta_{s}": [0, 0] for s in range(4)},
        }
    )
    run = Run.from_frames(games, pd.DataFrame())
    assert analysis.draw_rate(run).loc[0, "rate"] == 1
    assert analysis.pattern_frequency(run).empty
    assert analysis.win_rate_by_seat(run)["wins"].sum() == 0
    assert analysis.points_sources(run)["points"].sum() == 0


# --------------------------------------------------------------------------- several runs


@pytest.mark.engine
def test_compare_runs(sweep_dir):
    sweep = analysis.load_sweep(sweep_dir)
    frame = analysis.compare_runs(
        sweep, ["pattern:平胡", "mean_abs_score", "draw_rate"], baseline="seven_kings-1"
    )
    assert len(frame) == 9
    assert set(frame["baseline"]) == {"seven_kings-1"}
    row = frame[(frame["metric"] == "pattern:平胡") & (frame["run"] == "four_kings-1")].iloc[0]
    assert row["changed"] == "king_mode=four_kings"
    counts = {}
    for label in ("four_kings-1", "seven_kings-1"):
        wins = sweep.runs[label].wins
        counts[label] = wins.loc[wins["pattern"] == "平胡", "game"].nunique()
    p1, p2 = counts["four_kings-1"] / 500, counts["seven_kings-1"] / 500
    pooled = (counts["four_kings-1"] + counts["seven_kings-1"]) / 1000
    z = (p1 - p2) / math.sqrt(pooled * (1 - pooled) * 2 / 500)
    assert row["estimate"] == p1 and row["baseline_estimate"] == p2
    assert row["statistic"] == pytest.approx(z)
    assert row["p_value"] == pytest.approx(2 * statistics.NormalDist().cdf(-abs(z)), rel=1e-6)

    row = frame[(frame["metric"] == "mean_abs_score") & (frame["run"] == "seven_kings-4")].iloc[0]

    def mean_abs(label):
        deltas = sweep.runs[label].games[[f"delta_{s}" for s in range(4)]].abs()
        return deltas.mean(axis=1).to_numpy()

    expected = analysis.welch_test(mean_abs("seven_kings-4"), mean_abs("seven_kings-1"))
    assert row["difference"] == pytest.approx(expected.difference)
    assert row["p_value"] == pytest.approx(expected.p_value)
    assert row["changed"] == "bird_count=4"
    assert bool(row["significant"])  # four birds instead of one: a much swingier game

    holm = analysis.adjust_p_values(frame["p_value"])
    assert frame["p_adjusted"].to_numpy() == pytest.approx(holm, nan_ok=True)
    assert (frame["significant"] == (frame["p_adjusted"] < 0.05)).all()
    assert (frame["p_adjusted"] >= frame["p_value"]).all()


@pytest.mark.engine
def test_paired_comparison_of_cells_played_on_the_same_walls(sweep_dir, played):
    sweep = analysis.load_sweep(sweep_dir)
    cells = {label: sweep.runs[label] for label in ("seven_kings-1", "seven_kings-4")}
    frame = analysis.compare_runs(cells, ["pattern:平胡", "mean_abs_score"], paired=True)
    plain, swing = frame.iloc[0], frame.iloc[1]
    # birds are flipped after the hand: the same walls give the same wins
    assert plain["test"] == "paired t"
    assert (plain["difference"], plain["p_value"]) == (0, 1)

    def mean_abs(label):
        deltas = cells[label].games[[f"delta_{s}" for s in range(4)]].abs()
        return deltas.mean(axis=1).to_numpy()

    differences = mean_abs("seven_kings-4") - mean_abs("seven_kings-1")
    sem = statistics.stdev(differences) / math.sqrt(500)
    assert swing["difference"] == pytest.approx(statistics.mean(differences))
    assert swing["statistic"] == pytest.approx(statistics.mean(differences) / sem)
    assert swing["df"] == 499
    unpaired = analysis.compare_runs(cells, "mean_abs_score").iloc[0]
    assert swing["diff_hi"] - swing["diff_lo"] < unpaired["diff_hi"] - unpaired["diff_lo"]
    base, _, _ = played
    with pytest.raises(ValueError, match="needs the same hands"):
        analysis.compare_runs({"base": base, **cells}, "draw_rate", paired=True)


@pytest.mark.engine
def test_compare_runs_all_pairs_and_callable_metric(sweep_dir):
    sweep = analysis.load_sweep(sweep_dir)

    def long_hands(run):
        return analysis.Proportion(int((run.games["turns"] >= 20).sum()), len(run.games))

    frame = analysis.compare_runs(sweep, long_hands, all_pairs=True, correction="none")
    assert len(frame) == 6
    assert frame["metric"].unique().tolist() == ["long_hands"]
    assert (frame["p_adjusted"] == frame["p_value"]).all()
    with pytest.raises(KeyError, match="unknown metric"):
        analysis.compare_runs(sweep, "no_such_metric")


@pytest.mark.engine
def test_sweep_table(sweep_dir):
    sweep = analysis.load_sweep(sweep_dir)
    table = analysis.sweep_table(sweep, top_patterns=2)
    assert table["cell"].tolist() == list(sweep.runs)
    assert table.columns[:4].tolist() == ["cell", "king_mode", "bird_count", "hands"]
    for _, row in table.iterrows():
        run = sweep.runs[row["cell"]]
        deltas = run.games[[f"delta_{s}" for s in range(4)]].to_numpy()
        assert row["mean_abs_score"] == pytest.approx(np.abs(deltas).mean())
        assert row["mean_abs_score_lo"] < row["mean_abs_score"] < row["mean_abs_score_hi"]
        advantage = analysis.dealer_advantage(run).set_index("role").loc["difference"]
        assert row["dealer_advantage"] == pytest.approx(advantage["mean"])
        assert row["dealer_advantage_p"] == pytest.approx(advantage["p_value"])
        plain = run.wins.loc[run.wins["pattern"] == "平胡", "game"].nunique()
        assert row["pattern_平胡"] == plain / 500
        birds = analysis.points_sources(run).set_index("source").loc["birds", "per_hand"]
        assert row["points_birds"] == pytest.approx(birds)
    # more birds, more bird points (§anhua-payments: each hit doubles)
    by_birds = table.groupby("bird_count")["points_birds"].mean()
    assert by_birds[4] > 2 * by_birds[1]


@settings(max_examples=60, deadline=None)
@given(
    pairs=st.lists(
        st.tuples(st.sampled_from("abcde"), st.sampled_from(["小胡", "大胡", "双大胡", "nan"])),
        min_size=1,
        max_size=60,
    )
)
def test_most_common_tier_is_the_mode_of_each_pattern(pairs):
    """The summary's tier of a pattern is its most common tier, the first in sorted order on a
    tie: checked against pandas' own ``Series.mode`` per group."""
    from sim.analysis.patterns import _most_common

    frame = pd.DataFrame(pairs, columns=["pattern", "tier"])
    expected = frame.groupby("pattern")["tier"].agg(lambda t: t.mode().iloc[0])
    got = _most_common(frame["pattern"], frame["tier"])
    assert list(got.index) == list(expected.index)
    assert list(got) == list(expected)
