"""``mjsim replay`` and ``mjsim bench``: what they print agrees with the engine's records;
bench measures every variant, or the configs it is given."""

from __future__ import annotations

import json
import re

import numpy as np
import pandas as pd
import pytest

from sim.cli import main
from sim.kernels import engine as E
from sim.running import bench, runner
from sim.running.agents import agent_ids
from sim.running.config import load_config
from sim.variants import VARIANT_NAMES
from sim.variants.anhua import AnhuaOptions


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


@pytest.mark.engine
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


@pytest.mark.engine
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


@pytest.mark.engine
def test_replay_with_a_bad_format_is_a_one_line_error(run_dir, capsys):
    assert main(["replay", str(run_dir), "--game", "0", "--format", "xml"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.splitlines() == [
        "mjsim: error: --format: 'xml' is not a replay format; allowed: text, json"
    ]


@pytest.mark.engine
def test_replay_of_a_missing_hand_or_directory_is_a_one_line_error(run_dir, tmp_path, capsys):
    assert main(["replay", str(run_dir), "--game", "96"]) == 2
    assert "--game: 96 is not a hand of this run; allowed: 0-95" in capsys.readouterr().err
    assert main(["replay", str(tmp_path), "--game", "0"]) == 2
    assert "not a run directory" in capsys.readouterr().err


@pytest.mark.engine
def test_bench_measures_every_variant_by_default():
    """With no config, one engine row per registered variant at its default options and agents;
    each row's draws per hand are those of the records the variant plays on the same walls."""
    rows = list(bench.engine_throughput(n_hands=400, repeat=1))
    assert [row["variant"] for row in rows] == list(VARIANT_NAMES)
    for row, config in zip(rows, bench.bench_configs(), strict=True):
        assert row["hands_per_second"] > 0 and row["players"] == config.n_players
        variant = config.spec
        walls_seed, dealers_seed = bench.spawn_seeds(2026, 2)
        walls = bench.shuffled_walls(400, variant.n_tiles, walls_seed)
        per_session = config.hands_per_session
        dealers = variant.first_dealers(-(-400 // per_session), config.options, dealers_seed)
        agents = agent_ids(config.agents)
        records = variant.play(config.options, walls, dealers, per_session, agents, 2026)
        assert row["turns_per_hand"] == pytest.approx(records[:, E.R_TURNS].mean())
    evaluations = bench.evaluator_throughput(n_hands=2000, repeat=1)
    assert [row["query"] for row in evaluations] == ["win check", "shanten"]


@pytest.mark.engine
def test_bench_measures_the_configs_and_variants_it_is_given(capsys):
    config = "configs/wengan-2p.toml"
    assert main(["bench", "anqing", config, "--hands", "200", "--evaluations", "1000"]) == 0
    engine_rows = capsys.readouterr().out.split("engine (")[1].splitlines()[1:]
    assert [row.split()[:2] for row in engine_rows] == [["anqing", "4p"], ["wengan-2p", "2p"]]
    assert all("hands/s" in row and "agents efficiency" in row for row in engine_rows)
    configs = bench.bench_configs([config, "anhua"])
    assert configs[0] == load_config(config) and configs[1].options == AnhuaOptions()


def test_bench_of_something_neither_a_variant_nor_a_config_is_a_one_line_error(capsys):
    assert main(["bench", "mahjong"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.splitlines() == [
        "mjsim: error: 'mahjong' is neither a variant nor a config file; allowed: a variant "
        f"({', '.join(VARIANT_NAMES)}) or a config file such as configs/NAME.toml"
    ]
    assert main(["bench", "configs/no-such.toml"]) == 2
    assert "configs/no-such.toml: no such config file" in capsys.readouterr().err
