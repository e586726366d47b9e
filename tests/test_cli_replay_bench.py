"""``mjsim replay`` and ``mjsim bench``: what they print agrees with the engine's records."""

from __future__ import annotations

import json
import re

import numpy as np
import pandas as pd
import pytest

from sim.cli import main
from sim.kernels import engine as E
from sim.running import bench, runner
from sim.running.config import load_config
from sim.variants.anhua import play_records


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    config = load_config(
        "configs/anhua-seven-kings.toml",
        [
            "run.games=96",
            "run.chunk_hands=32",
            'run.agents=["random", "efficiency", "self_draw", "random"]',
        ],
    )
    return runner.run(config, tmp_path_factory.mktemp("replay") / "run")


@pytest.mark.parametrize("game", [0, 37, 95])
def test_replay_prints_the_stored_hand(run_dir, game, capsys):
    """Random agents included: the chunk's agent seed is restored before the hand."""
    assert main(["replay", str(run_dir), "--game", str(game)]) == 0
    lines = capsys.readouterr().out.splitlines()
    row = pd.read_parquet(run_dir / "games.parquet").iloc[game]
    assert f"hand {game} " in lines[0] and f"dealer seat {row['dealer']}" in lines[0]
    expected = ", ".join(f"seat {s} {int(row[f'delta_{s}']):+d}" for s in range(4))
    assert lines[-1] == f"result: {expected}"
    draws = sum(1 for line in lines if re.match(r"seat \d draws ", line))
    assert draws == row["turns"]
    paid = np.zeros(4, np.int64)
    for payer, receiver, amount in re.findall(r"seat (\d) pays seat (\d): (\d+)", "\n".join(lines)):
        paid[int(payer)] -= int(amount)
        paid[int(receiver)] += int(amount)
    np.testing.assert_array_equal(paid, [row[f"delta_{s}"] for s in range(4)])


def test_replay_json_is_one_object_per_line_ending_in_the_stored_result(run_dir, capsys):
    """--format json: a header naming the hand, then one JSON object per line, the last the
    result with the stored score changes; the text form's events in the same order."""
    game = 37
    assert main(["replay", str(run_dir), "--game", str(game), "--format", "json"]) == 0
    objects = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    row = pd.read_parquet(run_dir / "games.parquet").iloc[game]
    assert objects[0]["event"] == "hand" and objects[0]["game"] == game
    assert objects[0]["dealer"] == row["dealer"]
    assert objects[0]["agents"] == ["random", "efficiency", "self_draw", "random"]
    assert objects[-1]["score_changes"] == [int(row[f"delta_{s}"]) for s in range(4)]
    assert sum(obj["event"] == "draw" for obj in objects) == row["turns"]
    assert main(["replay", str(run_dir), "--game", str(game), "--format", "text"]) == 0
    text = capsys.readouterr().out.splitlines()
    drawn = [line.split()[-1] for line in text if re.match(r"seat \d draws ", line)]
    assert drawn == [obj["tile"] for obj in objects if obj["event"] == "draw"]


def test_replay_with_a_bad_format_is_a_one_line_error(run_dir, capsys):
    assert main(["replay", str(run_dir), "--game", "0", "--format", "xml"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.splitlines() == [
        "mjsim: error: --format: 'xml' is not a replay format; allowed: text, json"
    ]


def test_replay_of_a_missing_hand_or_directory_is_a_one_line_error(run_dir, tmp_path, capsys):
    assert main(["replay", str(run_dir), "--game", "96"]) == 2
    assert "--game: 96 is not a hand of this run; allowed: 0-95" in capsys.readouterr().err
    assert main(["replay", str(tmp_path), "--game", "0"]) == 2
    assert "not a run directory" in capsys.readouterr().err


def test_bench_reports_the_engine_it_measured():
    rows = list(bench.engine_throughput(n_hands=400, repeat=1))
    assert [row["rule set"] for row in rows] == list(bench.ENGINE_PRESETS)
    for row, options in zip(rows, bench.ENGINE_PRESETS.values(), strict=True):
        assert row["hands_per_second"] > 0
        walls_seed, dealers_seed = bench.spawn_seeds(2026, 2)
        walls = bench.shuffled_walls(400, 108, walls_seed)
        dealers = bench.session_first_dealers(50, options, dealers_seed)
        records = play_records(options, walls, dealers, 8, (0,) * options.player_count, 2026)
        assert row["turns_per_hand"] == pytest.approx(records[:, E.R_TURNS].mean())
    evaluations = bench.evaluator_throughput(n_hands=2000, repeat=1)
    assert [row["query"] for row in evaluations] == ["win check", "shanten"]
