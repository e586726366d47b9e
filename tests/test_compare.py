"""Duplicate deals: ``sim.studies.compare``, ``sim.analysis.duplicate`` and ``mjsim compare``:
the same walls in every rotation, the paired statistics against a direct computation, results
that do not depend on --jobs, one-line errors, and (slow) the ordering the agents
must keep."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from sim.analysis import load_run
from sim.analysis.duplicate import duplicate_comparison, load_comparison, paired_differences
from sim.cli import main
from sim.running.config import load_config
from sim.studies.compare import compare, parse_agents, rotations

CONFIG = "configs/anhua-seven-kings.toml"


def test_rotations_put_every_agent_in_every_seat():
    seatings = rotations(("a", "b", "c", "d"), 4)
    assert seatings[0] == ("a", "b", "c", "d") and seatings[1] == ("b", "c", "d", "a")
    for seat in range(4):
        assert sorted(s[seat] for s in seatings) == ["a", "b", "c", "d"]
    assert rotations(("a", "b"), 4)[1] == ("b", "a", "b", "a")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("efficiency,greedy", r"--agents: unknown agent 'greedy'; allowed: .*"),
        ("efficiency,efficiency", "names an agent twice"),
        ("efficiency", "1 agents; expected 2 to 4"),
        ("efficiency,random,value,cautious,self_draw", "5 agents; expected 2 to 4"),
    ],
)
def test_bad_agents_are_one_line_errors(text, message):
    with pytest.raises(ValueError, match=message):
        parse_agents(text, 4)


def test_cli_bad_agent_exits_2_and_writes_nothing(tmp_path, capsys):
    out = tmp_path / "cmp"
    status = main(["compare", CONFIG, "--agents", "efficiency,nope", "--out", str(out)])
    assert status == 2
    error = capsys.readouterr().err.strip()
    assert "--agents: unknown agent 'nope'" in error and "\n" not in error
    assert not out.exists()


def _hands(per_wall_a, per_wall_b):
    """A two-agent seat_hands frame whose per-wall means are the given ones (two seats each)."""
    rows = []
    for game, (a, b) in enumerate(zip(per_wall_a, per_wall_b, strict=True)):
        for seat, (agent, value) in enumerate(
            [("a", a - 1), ("b", b + 1), ("a", a + 1), ("b", b - 1)]
        ):
            rows.append(
                {
                    "game": game,
                    "rotation": 0,
                    "seat": seat,
                    "agent": agent,
                    "delta": value,
                    "won": value > 0,
                    "dealt_in": False,
                    "draw": False,
                    "turns": 10,
                }
            )
    return pd.DataFrame(rows)


def test_paired_difference_is_the_t_interval_over_walls():
    """The difference is clustered by wall: the seats of a wall are averaged first, so its
    interval is Student's t over the per-wall differences (computed here directly)."""
    rng = np.random.default_rng(5)
    a = rng.integers(-10, 10, 50).astype(float)
    b = a - 2 + rng.normal(0, 1, 50)
    hands = _hands(a, b)
    pairs = paired_differences(hands, ["a", "b"])
    d = a - b
    half = 2.0096 * d.std(ddof=1) / np.sqrt(len(d))  # t(0.975, 49)
    assert pairs.loc[0, "diff"] == pytest.approx(d.mean())
    assert pairs.loc[0, "lo"] == pytest.approx(d.mean() - half, abs=1e-3)
    assert pairs.loc[0, "excludes_zero"]
    frame = duplicate_comparison(hands, ["a", "b"], session_hands=5, loss=1000)
    assert frame.loc[1, "diff"] == pytest.approx(-d.mean())
    assert frame.loc[0, "p_session_loss"] == 0.0  # nobody loses 1000 in 5 hands here


@pytest.mark.engine
def test_compare_plays_the_same_walls_in_every_rotation_whatever_the_jobs(tmp_path):
    config = load_config(CONFIG, ["run.games=120", "run.chunk_hands=50"])
    one = compare(config, ("efficiency", "random"), tmp_path / "one", jobs=1, progress=False)
    two = compare(config, ("efficiency", "random"), tmp_path / "two", jobs=2, progress=False)
    settings, hands = load_comparison(one)
    assert settings["rotations"][1] == ["random", "efficiency", "random", "efficiency"]
    indicators = [
        load_run(one / f"rotation-{r}").games[["indicator", "dealer"]].astype(str) for r in range(4)
    ]
    for other in indicators[1:]:  # the same walls (the flipped indicator) and first dealers
        pd.testing.assert_frame_equal(indicators[0], other)
    assert len(hands) == 120 * 4 * 4
    _, hands_two = load_comparison(two)
    pd.testing.assert_frame_equal(hands, hands_two)
    frame = duplicate_comparison(hands, ["efficiency", "random"])
    assert frame.loc[1, "diff"] < 0  # random loses to efficiency even on 120 walls
    assert json.loads((one / "comparison.json").read_text())["deals"] == 120


@pytest.mark.engine
def test_every_order_with_parameters_is_the_same_whatever_the_jobs(tmp_path):
    """``--every-order`` seats every order of the agents, each rotated (3 agents: 2 orders, the
    first agent fixed, x 4 rotations), gives each agent its ``parameters`` in every seat it
    holds, and writes the same tables (byte for byte) with two jobs as with one."""
    config = load_config(CONFIG, ["run.games=40", "run.chunk_hands=16"])
    agents = ("efficiency", "value", "random")
    parameters = {"value": {"claim_gain": 2}}
    runs = {}
    for jobs in (1, 2):
        runs[jobs] = compare(
            config, agents, tmp_path / f"j{jobs}", jobs=jobs, progress=False, orders=True,
            parameters=parameters,
        )  # fmt: skip
    settings = json.loads((runs[1] / "comparison.json").read_text())
    seatings = [tuple(seats) for seats in settings["rotations"]]
    assert seatings[:4] == rotations(agents, 4)  # the first order, rotated
    assert seatings[4:] == rotations(("efficiency", "random", "value"), 4)  # the second
    assert settings["parameters"] == parameters
    for index, seats in enumerate(seatings):
        manifest = json.loads((runs[1] / f"rotation-{index}" / "manifest.json").read_text())
        held = {str(seat) for seat, agent in enumerate(seats) if agent == "value"}
        assert set(manifest.get("seats", {})) == held
        for name in ("games.parquet", "wins.parquet"):
            one = (runs[1] / f"rotation-{index}" / name).read_bytes()
            assert one == (runs[2] / f"rotation-{index}" / name).read_bytes()


@pytest.mark.engine
def test_cli_prints_and_writes_the_frame(tmp_path, capsys):
    out = tmp_path / "cmp"
    argv = ["compare", CONFIG, "--agents", "efficiency,random", "--deals", "60"]
    assert main([*argv, "--out", str(out), "--quiet"]) == 0
    text = capsys.readouterr().out
    assert "efficiency - random" in text and "P(lose 100 in 8)" in text
    written = pd.read_csv(out / "comparison.csv")
    assert list(written["agent"]) == ["efficiency", "random"]
    assert main(["report", str(out)]) == 0
    assert "Agents on duplicate deals" in (out / "report.html").read_text()


@pytest.mark.slow
def test_the_agents_rank_in_the_expected_order(tmp_path):
    """The agents' required ordering on 4,000 Anhua walls (docs/rules/anhua.md, the default
    options), each played in four rotations: efficiency beats random and value beats
    efficiency in mean score per hand with 95% intervals (clustered by wall) excluding zero;
    cautious deals in less often than value."""
    config = load_config(CONFIG, ["run.games=4000"])
    agents = ("efficiency", "value", "cautious", "random")
    out = compare(config, agents, tmp_path / "cmp", jobs=2, progress=False)
    _, hands = load_comparison(out)
    pairs = paired_differences(hands, agents).set_index(["first", "second"])
    assert pairs.loc[("efficiency", "random"), "lo"] > 0
    assert pairs.loc[("efficiency", "value"), "hi"] < 0
    frame = duplicate_comparison(hands, agents).set_index("agent")
    assert frame.loc["cautious", "deal_in_rate"] < frame.loc["value", "deal_in_rate"]
