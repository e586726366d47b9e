"""``mjsim sweep``: sweep files checked before anything runs, the sweep directory, its tables
recomputed independently from each cell's parquet files, and results independent of --jobs."""

from __future__ import annotations

import contextlib
import io
import json
import math
import re
import statistics
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sim import analysis
from sim.cli import main
from sim.running.config import load_config
from sim.studies.sweep import load_sweep_spec, run_sweep

ROOT = Path(__file__).resolve().parent.parent
BASE = ROOT / "configs" / "anhua-seven-kings.toml"
Z95 = statistics.NormalDist().inv_cdf(0.975)
GAMES = 400
CELLS = ["seven_kings-2", "seven_kings-4", "four_kings-2", "four_kings-4"]


def write_sweep(directory: Path, body: str, name: str = "sweep.toml") -> Path:
    path = directory / name
    path.write_text(f'base = "{BASE.as_posix()}"\n{body}', encoding="utf-8")
    return path


GRID = """\
label = "kings-birds"
[run]
games = 400
chunk_hands = 200          # two chunks per cell
[axes]
king_mode = ["seven_kings", "four_kings"]
bird_count = [2, 4]
"""


@pytest.fixture(scope="module")
def swept(tmp_path_factory):
    """The 2 x 2 sweep played with --jobs 1 through the command line, and what it printed."""
    root = tmp_path_factory.mktemp("sweep")
    path = write_sweep(root, GRID)
    out = root / "out"
    stdout = io.StringIO()
    with contextlib.redirect_stdout(stdout):
        status = main(["sweep", str(path), "--out", str(out), "--quiet"])
    assert status == 0
    return path, out, stdout.getvalue()


def winner_scores(games: pd.DataFrame, wins: pd.DataFrame) -> pd.Series:
    deltas = games.set_index("game")
    pairs = zip(wins["game"], wins["seat"], strict=True)
    from_deltas = [deltas.at[game, f"delta_{seat}"] for game, seat in pairs]
    return wins["gain"].astype(float).fillna(pd.Series(from_deltas, index=wins.index))


def wilson(x: int, n: int) -> tuple[float, float]:
    p = x / n
    center = (p + Z95 * Z95 / (2 * n)) / (1 + Z95 * Z95 / n)
    half = Z95 / (1 + Z95 * Z95 / n) * math.sqrt(p * (1 - p) / n + Z95 * Z95 / (4 * n * n))
    return max(0.0, center - half), min(1.0, center + half)


# --------------------------------------------------------------------------- the directory


@pytest.mark.engine
def test_sweep_json_cells_match_the_grid(swept):
    _, out, _ = swept
    spec = json.loads((out / "sweep.json").read_text(encoding="utf-8"))
    assert spec["label"] == "kings-birds"
    assert spec["axes"] == {"king_mode": ["seven_kings", "four_kings"], "bird_count": [2, 4]}
    assert [cell["name"] for cell in spec["cells"]] == CELLS
    for cell in spec["cells"]:
        king_mode, birds = cell["name"].split("-")
        assert cell["options"] == {"king_mode": king_mode, "bird_count": int(birds)}
        assert cell["dir"] == f"cells/{cell['name']}"
        assert (out / cell["dir"] / "games.parquet").is_file()
    assert spec["paired"] is True
    assert spec["baseline"] == "seven_kings-2"  # the base config's own values
    assert Path(spec["base"]).resolve() == BASE
    assert sorted(p.name for p in (out / "cells").iterdir()) == sorted(CELLS)
    assert not list(out.parent.glob(".out.*"))  # no temporary directory left beside it
    sweep = analysis.load_sweep(out)
    assert list(sweep.runs) == CELLS


@pytest.mark.engine
def test_each_cell_manifest_has_exactly_the_cell_values(swept):
    _, out, _ = swept
    base = load_config(BASE, ["run.games=400", "run.chunk_hands=200"]).resolved()
    spec = json.loads((out / "sweep.json").read_text(encoding="utf-8"))
    hashes = set()
    for cell in spec["cells"]:
        manifest = json.loads((out / cell["dir"] / "manifest.json").read_text(encoding="utf-8"))
        assert manifest["options"] == {**base["options"], **cell["options"]}
        assert manifest["run"] == base["run"]  # same seed, hands and chunks: the same walls
        assert manifest["label"] == cell["name"]
        assert manifest["counts"]["games"] == GAMES
        assert manifest["config_hash"] == cell["config_hash"]
        hashes.add(manifest["config_hash"])
    assert len(hashes) == len(CELLS)
    games = [pd.read_parquet(out / c["dir"] / "games.parquet") for c in spec["cells"]]
    # same walls: the flipped tile of every hand is the same in every cell
    for frame in games[1:]:
        assert (frame["indicator"].astype(str) == games[0]["indicator"].astype(str)).all()


@pytest.mark.engine
def test_comparison_table_equals_pandas_from_the_parquet_files(swept):
    _, out, _ = swept
    table = pd.read_csv(out / "comparison.csv").set_index("cell")
    assert list(table.index) == CELLS
    assert list(table.columns[:3]) == ["king_mode", "bird_count", "hands"]
    patterns = [c.removeprefix("pattern_") for c in table.columns
                if c.startswith("pattern_") and not c.endswith(("_lo", "_hi"))]  # fmt: skip
    tiers = [c.removeprefix("tier_score_") for c in table.columns
             if c.startswith("tier_score_") and not c.endswith(("_lo", "_hi"))]  # fmt: skip
    assert patterns and "平胡" in patterns and tiers and "小胡" in tiers
    all_patterns = pd.Series(dtype=object)
    for name in CELLS:
        games = pd.read_parquet(out / "cells" / name / "games.parquet")
        wins = pd.read_parquet(out / "cells" / name / "wins.parquet")
        all_patterns = pd.concat([all_patterns, wins["pattern"].astype(str)])
        row = table.loc[name]
        n = len(games)
        deltas = games[[f"delta_{s}" for s in range(4)]].to_numpy(dtype=float)
        assert row["hands"] == n == GAMES
        assert row["king_mode"] == name.split("-")[0]
        assert row["bird_count"] == int(name.split("-")[1])
        draws = int((games["outcome"].astype(str) == "draw").sum())
        assert row["draw_rate"] == pytest.approx(draws / n)
        assert (row["draw_rate_lo"], row["draw_rate_hi"]) == pytest.approx(wilson(draws, n))
        dealer_of = games.set_index("game")["dealer"]
        dealer_games = wins.loc[wins["seat"].to_numpy() == dealer_of[wins["game"]].to_numpy(),
                                "game"].nunique()  # fmt: skip
        assert row["dealer_win_rate"] == pytest.approx(dealer_games / n)
        per_hand_abs = np.abs(deltas).mean(axis=1)
        assert row["mean_abs_score"] == pytest.approx(per_hand_abs.mean())
        half = statistics.stdev(per_hand_abs) / math.sqrt(n) * 1.9659  # t(0.975, 399)
        assert row["mean_abs_score_hi"] - row["mean_abs_score"] == pytest.approx(half, rel=1e-3)
        dealer = deltas[np.arange(n), games["dealer"].to_numpy()]
        advantage = dealer - (deltas.sum(axis=1) - dealer) / 3
        assert row["dealer_advantage"] == pytest.approx(advantage.mean())
        for pattern in patterns:
            hands_with = wins.loc[wins["pattern"].astype(str) == pattern, "game"].nunique()
            assert row[f"pattern_{pattern}"] == pytest.approx(hands_with / n)
            lo, hi = wilson(hands_with, n)
            assert row[f"pattern_{pattern}_lo"] == pytest.approx(lo)
            assert row[f"pattern_{pattern}_hi"] == pytest.approx(hi)
        # points: base points x payers; birds = points moved - base points (no dealer bonus)
        payers = np.where(wins["payer"].to_numpy() < 0, 3, 1)
        base_points = (wins["points"] * payers).groupby(wins["game"]).sum()
        base_points = base_points.reindex(games["game"], fill_value=0).to_numpy(dtype=float)
        moved = np.where(deltas > 0, deltas, 0).sum(axis=1)
        assert row["points_pattern"] == pytest.approx(base_points.mean())
        assert row["points_birds"] == pytest.approx((moved - base_points).mean())
        assert row["share_birds"] == pytest.approx((moved - base_points).sum() / moved.sum())
        assert row["share_birds_lo"] < row["share_birds"] < row["share_birds_hi"]
        scores = winner_scores(games, wins)
        for tier in tiers:
            chosen = scores[wins["tier"].astype(str) == tier]
            assert row[f"tier_score_{tier}"] == pytest.approx(chosen.sum() / n)
    # the patterns shown are the most frequent over the whole sweep
    counts = all_patterns.value_counts()
    assert set(patterns) == set(counts.index[: len(patterns)])


@pytest.mark.engine
def test_significance_rows_for_every_non_base_cell(swept):
    _, out, _ = swept
    frame = pd.read_csv(out / "significance.csv")
    table = pd.read_csv(out / "comparison.csv")
    assert set(frame["baseline"]) == {"seven_kings-2"}
    assert set(frame["test"]) == {"paired t"}
    metrics = ["draw_rate", "dealer_win_rate", "dealer_advantage", "mean_abs_score",
               "points:pattern", "points:birds", "tier_score:小胡"]  # fmt: skip
    metrics += [f"pattern:{c.removeprefix('pattern_')}" for c in table.columns
                if c.startswith("pattern_") and not c.endswith(("_lo", "_hi"))]  # fmt: skip
    for cell in CELLS[1:]:
        rows = frame[frame["run"] == cell]
        assert set(metrics) <= set(rows["metric"])
        assert rows["metric"].is_unique
    assert "seven_kings-2" not in set(frame["run"])
    assert frame["p_adjusted"].to_numpy() == pytest.approx(
        analysis.adjust_p_values(frame["p_value"], "holm"), nan_ok=True
    )
    assert (frame["significant"] == (frame["p_adjusted"] < 0.05)).all()
    # four birds instead of two moves far more bird points: surely significant
    birds = frame[(frame["metric"] == "points:birds") & (frame["run"] == "seven_kings-4")]
    assert birds["significant"].item() and birds["difference"].item() > 0
    # the estimate of a row is the cell's figure in the comparison table
    mean_abs = frame[frame["metric"] == "mean_abs_score"].set_index("run")["estimate"]
    expected = table.set_index("cell")["mean_abs_score"]
    assert mean_abs.to_numpy() == pytest.approx(expected[mean_abs.index].to_numpy())


@pytest.mark.engine
def test_figures_are_written(swept):
    _, out, _ = swept
    names = {p.name for p in (out / "figures").iterdir()}
    table = pd.read_csv(out / "comparison.csv")
    drawn = ("draw_rate", "dealer_advantage", "mean_abs_score", "points_birds")
    # a metric equal in every cell (Anhua's agents almost never draw) gets no flat figure
    varying = [m for m in drawn if table[m].nunique() > 1 or table[f"{m}_hi"].nunique() > 1]
    assert {"dealer_advantage", "mean_abs_score", "points_birds"} <= set(varying)
    heatmaps = {f"heatmap_{m}.png" for m in varying}
    assert names == heatmaps | {"effects.png", "patterns.png", "differences.png"}
    for name in names:
        assert (out / "figures" / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    spec = json.loads((out / "sweep.json").read_text(encoding="utf-8"))
    assert sorted(spec["files"]["figures"]) == sorted(f"figures/{n}" for n in names)


@pytest.mark.engine
def test_printed_tables(swept):
    _, out, printed = swept
    lines = printed.splitlines()
    assert lines[0].startswith(f"kings-birds: 4 cells × {GAMES} hands in ")
    assert "paired t" in printed and "baseline cell seven_kings-2" in printed
    table = pd.read_csv(out / "comparison.csv").set_index("cell")
    frame = pd.read_csv(out / "significance.csv")
    outcome = lines.index("outcomes (95% intervals)")
    header = lines[outcome + 1]
    assert "king_mode" in header and "mean |score|" in header
    rows = lines[outcome + 2 : outcome + 2 + len(CELLS)]
    # a figure equal in every cell is said once below the rows, not repeated on each
    draw = table["draw_rate"].iloc[0] * 100
    if table["draw_rate"].nunique() == 1 and table["draw_rate_hi"].nunique() == 1:
        assert "draw rate %" not in header
        assert lines[outcome + 2 + len(CELLS)].startswith(
            f"  the same in every cell: draw rate % {draw:.2f}"
        )
    else:
        assert "draw rate %" in header
    for cell, line in zip(CELLS, rows, strict=True):
        tokens = line.split()
        if cell == "seven_kings-2":
            assert tokens.pop(0) == "base"
        assert tokens[:2] == cell.split("-")
        value = table.loc[cell, "mean_abs_score"]
        significant = frame[(frame["run"] == cell) & (frame["metric"] == "mean_abs_score")]
        marker = "*" if len(significant) and significant["significant"].item() else ""
        assert line.rstrip().endswith(
            f"{value:.2f} ±{table.loc[cell, 'mean_abs_score_hi'] - value:.2f}{marker}"
        )
    for title in ("points per hand", "winners' score per hand by tier", "patterns (% of hands"):
        assert any(line.startswith(title) for line in lines)
    assert f"{out / 'comparison.csv'}" in printed and f"{out / 'significance.csv'}" in printed
    assert f"{out / 'figures'}/" in printed and f"mjsim report {out}" in printed


@pytest.mark.engine
def test_results_do_not_depend_on_jobs(swept, tmp_path):
    path, out, _ = swept
    spec = load_sweep_spec(path)
    again = run_sweep(spec, tmp_path / "jobs2", jobs=2, progress=False, figures=False)
    for name in ("comparison.csv", "significance.csv"):
        pd.testing.assert_frame_equal(pd.read_csv(out / name), pd.read_csv(again / name))
    for cell in CELLS:
        for table in ("games.parquet", "wins.parquet"):
            pd.testing.assert_frame_equal(
                pd.read_parquet(out / "cells" / cell / table),
                pd.read_parquet(again / "cells" / cell / table),
            )
    timings = json.loads((again / "sweep.json").read_text(encoding="utf-8"))["timings"]
    assert timings["jobs"] == 2


@pytest.mark.engine
def test_cells_side_by_side_give_the_same_results(swept, tmp_path):
    """One chunk per cell and two workers: the cells are played in parallel, one per worker."""
    path, _, _ = swept
    spec = load_sweep_spec(path, ["run.chunk_hands=400", "run.games=200"])
    one = run_sweep(spec, tmp_path / "one", jobs=1, progress=False, figures=False)
    two = run_sweep(spec, tmp_path / "two", jobs=2, progress=False, figures=False)
    timings = json.loads((two / "sweep.json").read_text(encoding="utf-8"))["timings"]
    assert timings["cells_side_by_side"] is True
    for name in ("comparison.csv", "significance.csv"):
        pd.testing.assert_frame_equal(pd.read_csv(one / name), pd.read_csv(two / name))


# --------------------------------------------------------------------------- checking


@pytest.mark.parametrize(
    ("body", "argv", "message"),
    [
        (GRID.replace("king_mode = [", "kings = ["), [], "axes.kings: not an option or run"),
        (
            GRID.replace("[2, 4]", "[2, 3]"),
            [],
            "axes.bird_count: 3 is not allowed; allowed: 1, 2, 4",
        ),
        (GRID.replace("[2, 4]", '[2, "4"]'), [], "axes.bird_count: '4' is not allowed"),
        (GRID.replace("[2, 4]", "[2, 2]"), [], "axes.bird_count: the value 2 appears twice"),
        (GRID.replace("[2, 4]", "[]"), [], "axes.bird_count: expected a non-empty list"),
        (GRID.replace("[run]", "[runs]"), [], "runs: unknown key; allowed: label, base, run"),
        (GRID.replace("games = 400", "gamez = 400"), [], "run.gamez: unknown setting"),
        (GRID, ["--set", "bird_count=4"], "--set bird_count: bird_count is an axis"),
        (GRID, ["--games", "0"], "run.games: 0 is below the minimum 1"),
        (GRID.replace("[axes]", "[axes]\nplayer_count = [3]"), [], "run.agents: 4 names for 3"),
        (GRID.split("[axes]")[0], [], "axes: missing"),
    ],
)
def test_bad_sweep_files_fail_in_one_line_with_no_output(tmp_path, capsys, body, argv, message):
    path = write_sweep(tmp_path, body)
    out = tmp_path / "out"
    assert main(["sweep", str(path), "--out", str(out), *argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and captured.err.startswith("mjsim: error: ")
    assert message in captured.err
    assert str(path) in captured.err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sweep.toml"]


def test_missing_base(tmp_path, capsys):
    path = tmp_path / "sweep.toml"
    path.write_text("[axes]\nbird_count = [1, 2]\n", encoding="utf-8")
    assert main(["sweep", str(path), "--out", str(tmp_path / "out")]) == 2
    assert "base: missing" in capsys.readouterr().err
    path.write_text('base = "nowhere.toml"\n[axes]\nbird_count = [1, 2]\n', encoding="utf-8")
    assert main(["sweep", str(path), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "base: no config file at" in err and err.count("\n") == 1
    assert main(["sweep", str(tmp_path / "none.toml")]) == 2
    assert "no such sweep file" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sweep.toml"]


def test_spec_names_baseline_and_pairing(tmp_path):
    path = write_sweep(tmp_path, "[axes]\nking_as_itself_is_hard = [true, false]\n"
                       '"options.king_mode" = ["four_kings", "seven_kings"]\n')  # fmt: skip
    spec = load_sweep_spec(path)
    assert spec.label == "sweep"  # the file's stem
    assert [c.name for c in spec.cells] == [
        "king_as_itself_is_hard-four_kings", "king_as_itself_is_hard-seven_kings",
        "no_king_as_itself_is_hard-four_kings", "no_king_as_itself_is_hard-seven_kings",
    ]  # fmt: skip
    assert spec.baseline == "no_king_as_itself_is_hard-seven_kings"
    assert spec.paired
    assert spec.cells[0].config.options.king_as_itself_is_hard is True
    numbers = load_sweep_spec(write_sweep(tmp_path, "[axes]\nbird_count = [1, 4]\n", "n.toml"))
    assert [c.name for c in numbers.cells] == ["bird_count=1", "bird_count=4"]
    assert numbers.baseline == "bird_count=1"  # no cell has the base's 2: the first cell
    seeds = load_sweep_spec(write_sweep(tmp_path, '[axes]\n"run.seed" = [1, 2]\n', "s.toml"))
    assert not seeds.paired and seeds.cells[1].config.seed == 2
    sessions = load_sweep_spec(
        write_sweep(tmp_path, "[axes]\nhands_per_session = [4, 8]\n", "h.toml"), ["seed=5"]
    )
    assert [c.config.hands_per_session for c in sessions.cells] == [4, 8]
    assert {c.config.seed for c in sessions.cells} == {5}


@pytest.mark.engine
def test_a_failure_leaves_nothing(swept, tmp_path, monkeypatch):
    import sim.running.runner

    path, _, _ = swept
    spec = load_sweep_spec(path, ["run.games=16", "run.chunk_hands=8"])
    real_run, calls = sim.running.runner.run, []

    def failing_run(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise RuntimeError("disk full")
        return real_run(*args, **kwargs)

    monkeypatch.setattr(sim.running.runner, "run", failing_run)
    with pytest.raises(RuntimeError, match="disk full"):
        run_sweep(spec, tmp_path / "out", progress=False)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.engine
def test_output_directory_rules(swept, tmp_path):
    path, _, _ = swept
    spec = load_sweep_spec(path, ["run.games=16", "run.chunk_hands=8"])
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("keep me")
    with pytest.raises(ValueError, match="exists and is not a finished sweep directory"):
        run_sweep(spec, other, progress=False, figures=False)
    out = run_sweep(spec, tmp_path / "out", progress=False, figures=False)
    (out / "stale.txt").write_text("from the previous sweep")
    run_sweep(spec, out, progress=False, figures=False)  # a previous sweep is replaced
    assert not (out / "stale.txt").exists() and (out / "sweep.json").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other", "out"]


def test_help_explains_every_flag(capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["sweep", "--help"])
    assert stopped.value.code == 0
    text = capsys.readouterr().out
    for flag in ("--games N", "--seed S", "--jobs J", "--out DIR", "--set KEY=VALUE", "--report"):
        assert flag in text
    shown = re.search(r"mjsim sweep (configs/sweeps/\S+\.toml)", text).group(1)
    assert (ROOT / shown).is_file() and "player_count = [4, 3]" in text


@pytest.mark.parametrize(
    "name", sorted(path.name for path in (ROOT / "configs" / "sweeps").glob("*.toml"))
)
def test_shipped_sweep_files_are_valid(name):
    spec = load_sweep_spec(ROOT / "configs" / "sweeps" / name)
    assert len(spec.cells) == math.prod(len(v) for v in spec.axes.values())
    assert spec.paired and spec.baseline in {c.name for c in spec.cells}


@pytest.mark.engine
def test_option_effects_average_the_cells_of_each_value_hand_by_hand(swept):
    """The main effect of an option: per hand, the metric averaged over the cells with each
    value, minus the average at the first value; a paired t interval over hands."""
    _, out, _ = swept
    sweep = analysis.load_sweep(out)
    effects = analysis.option_effects(sweep, ["mean_abs_score"]).set_index(["axis", "value"])
    per_hand = {}
    for name in CELLS:
        games = pd.read_parquet(out / "cells" / name / "games.parquet")
        per_hand[name] = games[[f"delta_{s}" for s in range(4)]].abs().mean(axis=1).to_numpy()
    assert list(effects.index) == [("king_mode", "seven_kings"), ("king_mode", "four_kings"),
                                   ("bird_count", 2), ("bird_count", 4)]  # fmt: skip
    for axis, position, first, other in (("king_mode", 0, "seven_kings", "four_kings"),
                                         ("bird_count", 1, "2", "4")):  # fmt: skip
        cells_of = {v: [n for n in CELLS if n.split("-")[position] == v] for v in (first, other)}
        by_value = {v: np.mean([per_hand[n] for n in cells_of[v]], axis=0) for v in cells_of}
        difference = by_value[other] - by_value[first]
        half = 1.9659 * difference.std(ddof=1) / math.sqrt(GAMES)  # t(0.975, 399)
        key = int(other) if axis == "bird_count" else other
        row = effects.loc[(axis, key)]
        assert row["cells"] == 2
        assert row["estimate"] == pytest.approx(by_value[other].mean())
        assert row["effect"] == pytest.approx(difference.mean())
        assert row["effect_hi"] - row["effect"] == pytest.approx(half, rel=1e-3)
        base = effects.loc[(axis, int(first) if axis == "bird_count" else first)]
        assert (base["effect"], base["effect_lo"], base["effect_hi"]) == (0, 0, 0)
    # four birds instead of two raise the swing far beyond chance
    assert effects.loc[("bird_count", 4), "effect_lo"] > 0
    assert sweep.one_change_cells("seven_kings-2") == ["seven_kings-4", "four_kings-2"]


# --------------------------------------------------------------------------- cell names

LONG_AXES = """\
[run]
games = 16
chunk_hands = 8
[axes]
king_as_itself_is_hard = [false]
allow_rob_kong = [false]
multi_ron = [false]
dealer_bonus = [false, true]
king_as_itself_affects_eligibility = [false]
seven_pairs_allow_quad = [false]
discarded_king_claimable_for_win = [false]
allow_rob_direct_kong = [false]
instant_king_win_counts_draw = [false]
instant_king_win_window = ["until_first_claim"]
dealer_bonus_timing = ["before_birds"]
first_dealer = ["random"]
"""


def test_cell_names_are_short_and_unique():
    """Names of values joined where they are short, as before; a long one is the cell's number
    and as much of it as fits, ending with a whole value; names differing only in case are two
    names on a file system that ignores case, so the second gets -2."""
    import itertools

    from sim.studies.sweep import CELL_NAME_BYTES, cell_names

    def names(axes: dict) -> list[str]:
        return cell_names(axes, itertools.product(*axes.values()))

    assert names({"mode": ["fast", "slow"], "n": [2, 4]}) == [
        "fast-2", "fast-4", "slow-2", "slow-4",
    ]  # fmt: skip
    assert names({"n": [1, 4]}) == ["n=1", "n=4"]
    assert names({"mode": ["Fast", "fast", "a b", "a_b"]}) == ["Fast", "fast-2", "a_b", "a_b-2"]
    long = names({"first": ["a" * 60, "b" * 60], "second": ["c" * 60], "third": [True]})
    assert long == ["1-" + "a" * 60, "2-" + "b" * 60]  # the c... value does not fit whole
    assert all(len(name.encode()) <= CELL_NAME_BYTES for name in long)
    one_value = names({"first": ["x" * 300]})  # no value ends in room: cut inside it
    assert one_value == ["1-" + "x" * (CELL_NAME_BYTES - 2)]
    twelve = names({"first": [f"{i}{'y' * 120}" for i in range(12)]})
    assert [name[:3] for name in twelve[:2]] == ["01-", "02-"] and twelve[-1][:3] == "12-"
    docs = (ROOT / "docs" / "analysis.md").read_text(encoding="utf-8")
    assert f"a name longer than {CELL_NAME_BYTES}\nbytes" in docs  # the limit the docs say


@pytest.mark.engine
def test_a_sweep_of_long_cell_names_plays(tmp_path):
    """Cells whose values joined exceed what a file system allows in a folder name play in
    folders of short names; sweep.json and the comparison table keep every value."""
    from sim.studies.sweep import CELL_NAME_BYTES

    spec = load_sweep_spec(write_sweep(tmp_path, LONG_AXES))
    joined = "-".join(_name_parts_of(spec.cells[0].values))
    assert len(joined.encode()) > 255  # the folder could not be made under this name
    out = run_sweep(spec, tmp_path / "out", progress=False)
    document = json.loads((out / "sweep.json").read_text(encoding="utf-8"))
    names = [cell["name"] for cell in document["cells"]]
    assert names[0].startswith("1-no_king_as_itself_is_hard-no_allow_rob_kong-no_multi_ron")
    assert names[1].startswith("2-") and len(set(names)) == 2
    assert all(len(name.encode()) <= CELL_NAME_BYTES for name in names)
    assert sorted(p.name for p in (out / "cells").iterdir()) == sorted(names)
    for cell, stored in zip(spec.cells, document["cells"], strict=True):
        assert stored["options"] == cell.values and len(stored["options"]) == 12
    table = pd.read_csv(out / "comparison.csv").set_index("cell")
    assert list(table["dealer_bonus"]) == [False, True]
    assert set(table["instant_king_win_window"]) == {"until_first_claim"}
    assert all(len(p.name.encode()) <= 255 for p in (out / "figures").iterdir())


def _name_parts_of(values: dict) -> list[str]:
    from sim.studies.sweep import _name_part

    return [_name_part(axis, value) for axis, value in values.items()]


@pytest.mark.parametrize(
    ("error", "said"),
    [
        (OSError(36, "File name too long", "/x/.partial/cells/.c.partial"), "File name too long"),
        (ValueError("--out somewhere: exists and is not a finished run directory"), "--out"),
    ],
)
@pytest.mark.engine
def test_an_error_of_a_cell_names_the_cell_its_values_and_the_cause(
    swept, tmp_path, monkeypatch, capsys, error, said
):
    import sim.running.runner

    path, _, _ = swept

    def failing_run(config, target, **kwargs):
        if target.name == "seven_kings-4":
            raise error
        return real_run(config, target, **kwargs)

    real_run = sim.running.runner.run
    monkeypatch.setattr(sim.running.runner, "run", failing_run)
    argv = ["sweep", str(path), "--out", str(tmp_path / "out"), "--games", "16", "--quiet"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert "cell seven_kings-4 (king_mode=seven_kings, bird_count=4): " in err, err
    assert said in err, err
    assert list(tmp_path.iterdir()) == []


def test_the_stored_sweeps_keep_their_cell_names():
    """The sweeps kept under results/ (and the docs' --baseline examples, which name their
    cells) have the names their sweep files give today."""
    stored = sorted((ROOT / "results").glob("*/sweep.json"))
    assert stored
    for path in stored:
        document = json.loads(path.read_text(encoding="utf-8"))
        spec = load_sweep_spec(ROOT / document["sweep_file"], document["overrides"])
        assert [cell.name for cell in spec.cells] == [c["name"] for c in document["cells"]]
        assert spec.baseline == document["baseline"]
    names = {
        cell.name
        for path in (ROOT / "configs" / "sweeps").glob("*.toml")
        for cell in load_sweep_spec(path).cells
    }
    pages = [ROOT / "README.md", *(ROOT / "docs").rglob("*.md"), *(ROOT / "notebooks").glob("*")]
    named = {
        found
        for page in pages
        if page.suffix in (".md", ".ipynb")
        for found in re.findall(r"--baseline ([a-z][\w.=+-]*)", page.read_text(encoding="utf-8"))
    }
    assert named <= names, named - names
