"""Agent parameters per seat: declared once (``sim.kernels.agent_params``),
checked in a config's ``[seats.N]`` tables and ``--set seats.N.NAME=VALUE``, part of the config
hash, documented from the declarations, and played by the engine (``GameState.agent_params``)."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sim.kernels import agents as AG
from sim.kernels.agent_params import AGENT_PARAMETERS, N_AGENT_PARAMS, AgentParameter, default_row
from sim.kernels.state import new_state
from sim.play import play
from sim.running.agents import (
    AGENTS,
    PARAMETERS,
    parameter_rows,
    parameters_markdown,
    parameters_of,
)
from sim.running.config import build_config, load_config
from sim.running.runner import run

SEVEN = "configs/anhua-seven-kings.toml"


def _config_text(tmp_path: Path, extra: str) -> Path:
    path = tmp_path / "seats.toml"
    path.write_text(Path(SEVEN).read_text(encoding="utf-8") + "\n" + extra, encoding="utf-8")
    return path


def test_every_declared_parameter_has_a_kernel_slot_and_a_sane_declaration():
    """The kernels' ``P_*`` slots are the declarations' positions; defaults lie in range and
    every parameter names agents that exist."""
    slots = {name: getattr(AG, f"P_{name.upper()}") for name in PARAMETERS}
    assert sorted(slots.values()) == list(range(N_AGENT_PARAMS))
    for slot, parameter in enumerate(AGENT_PARAMETERS):
        assert slots[parameter.name] == slot
        assert parameter.minimum <= parameter.default <= parameter.maximum
        assert set(parameter.agents) <= set(AGENTS)
    assert parameters_of("efficiency") == ()
    assert {p.name for p in parameters_of("value")} < {p.name for p in parameters_of("cautious")}
    row = default_row()
    assert row.dtype == np.float64 and row.shape == (N_AGENT_PARAMS,)
    state = new_state(agents=(3, 0, 0, 0), agent_params=[[2, *row[1:]]])
    assert state.agent_params.shape == (4, N_AGENT_PARAMS)
    assert state.agent_params[0, 0] == 2 and (state.agent_params[1:] == row).all()


def test_a_declaration_rejects_its_own_bad_default():
    with pytest.raises(ValueError, match="out of range"):
        AgentParameter("x", ("value",), "integer", 0, 3, 5, "a typo")
    with pytest.raises(ValueError, match="not an integer"):
        AgentParameter("x", ("value",), "integer", 0, 3, 1.5, "a typo")


def test_a_seat_table_sets_its_agent_and_parameters(tmp_path):
    """``[seats.2]`` with ``agent = "value"`` and ``claim_gain = 2``: seat 2 plays value with
    claim_gain 2, every other parameter and seat at its default; the parameter is in the
    resolved config and the hash; a value equal to its default changes nothing."""
    path = _config_text(tmp_path, '[seats.2]\nagent = "value"\nclaim_gain = 2\n')
    config = load_config(path)
    assert config.agents == ("efficiency", "efficiency", "value", "efficiency")
    assert config.seat_parameters[2] == (("claim_gain", 2),)
    rows = config.agent_params
    assert rows.shape == (4, N_AGENT_PARAMS)
    assert rows[2, AG.P_CLAIM_GAIN] == 2
    expected = default_row()
    expected[AG.P_CLAIM_GAIN] = 2
    assert (rows[2] == expected).all() and (rows[[0, 1, 3]] == default_row()).all()
    assert config.resolved()["seats"] == {"2": {"claim_gain": 2}}
    plain = load_config(SEVEN, ['run.agents=["efficiency","efficiency","value","efficiency"]'])
    assert "seats" not in plain.resolved()
    assert config.hash() != plain.hash()
    same = load_config(SEVEN, [*_value_at_2(), "seats.2.claim_gain=1"])
    assert same.hash() == plain.hash()  # claim_gain 1 is the default
    # the resolved config builds the same config again (the manifest, --resume)
    assert build_config(config.resolved()) == config
    overridden = load_config(SEVEN, [*_value_at_2(), "seats.2.claim_gain=2"])
    assert overridden.hash() == config.hash()
    # a seat's agent replaces its entry of run.agents
    replaced = load_config(SEVEN, [*_value_at_2(), "seats.2.agent=cautious"])
    assert replaced.agents[2] == "cautious" and replaced.agents[:2] == config.agents[:2]


def _value_at_2() -> list[str]:
    return ['run.agents=["efficiency","efficiency","value","efficiency"]']


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        (["seats.2.claim_gian=2"], r"seats\.2\.claim_gian: unknown agent parameter.*claim_gain"),
        (["seats.2.claim_gain=2"], "not a parameter of the efficiency agent; its parameters: none"),
        ([*_value_at_2(), "seats.2.claim_gain=9"], r"out of range; allowed: integer from 0 to 3"),
        ([*_value_at_2(), "seats.2.claim_gain=1.5"], "not an integer"),
        ([*_value_at_2(), "seats.2.claim_gain=true"], "expected an integer"),
        ([*_value_at_2(), "seats.2.claim_gain=nan"], "out of range"),
        ([*_value_at_2(), "seats.2.claim_gain=inf"], "out of range"),
        ([*_value_at_2(), 'seats.2.claim_gain="2"'], "expected an integer"),
        ([*_value_at_2(), "seats.2.late_visible=30"], "not a parameter of the value agent"),
        (["seats.4.agent=value"], r"seats\.4: unknown seat '4'; allowed: 0, 1, 2, 3"),
        (["seats.1.agent=valeu"], r"seats\.1\.agent: unknown agent 'valeu'.*did you mean value"),
        (["seats.2=3"], "expected seats.SEAT.NAME=VALUE"),
        (["seat.2.agent=value"], r"unknown section 'seat'.*did you mean seats"),
    ],
)
def test_bad_seat_parameters_are_one_line_errors(overrides, message):
    with pytest.raises(ValueError, match=message) as error:
        load_config(SEVEN, overrides)
    assert "\n" not in str(error.value)


def test_a_seat_table_that_is_not_a_table(tmp_path):
    with pytest.raises(ValueError, match=r"seats\.1: expected a table"):
        load_config(_config_text(tmp_path, "[seats]\n1 = 5\n"))


def test_the_parameter_table_in_the_docs_is_the_declarations():
    """docs/strategies.md shows the table ``parameters_markdown`` makes from the declarations."""
    text = Path("docs/strategies.md").read_text(encoding="utf-8")
    assert parameters_markdown() in text


def test_parameter_rows_fill_defaults():
    rows = parameter_rows(((), (("claim_gain", 0), ("wild_margin", 1))))
    assert (rows[0] == default_row()).all()
    assert rows[1, AG.P_CLAIM_GAIN] == 0 and rows[1, AG.P_WILD_MARGIN] == 1


def _digest(records: np.ndarray) -> str:
    return hashlib.sha256(records.tobytes()).hexdigest()


@pytest.mark.engine
def test_parameters_change_play_and_defaults_do_not():
    """Seats of the value agent with claim_gain 0 claim as the efficiency agent does, and their
    hands differ from the default value agent's; the defaults written out play as none."""
    config = load_config(SEVEN, ["run.games=300", 'run.agents=["value","value","value","value"]'])
    games, _ = play(config)
    explicit = config.with_overrides([f"seats.{s}.claim_gain=1" for s in range(4)])
    again, _ = play(explicit)
    assert games.equals(again)
    changed = config.with_overrides([f"seats.{s}.claim_gain=0" for s in range(4)])
    other, _ = play(changed)
    assert not games[["delta_0", "delta_1"]].equals(other[["delta_0", "delta_1"]])
    efficiency, _ = play(config, agents=("efficiency",) * 4)
    # claim_gain 0 alone does not make value play as efficiency (seven pairs, flush) ...
    flat = changed.with_overrides(
        [f"seats.{s}.{n}" for s in range(4) for n in ("seven_pairs_from=8", "flush_off_suit=-1")]
    )
    # ... but with seven pairs and the flush off too it does
    flat_games, _ = play(flat)
    assert flat_games.equals(efficiency)


@pytest.mark.engine
@pytest.mark.parametrize("backend", ["processes", "threads"])
def test_parameters_reach_the_worker_processes(tmp_path, backend):
    """A run in two worker processes (or engine threads) plays the seat parameters as one job
    does, and the manifest keeps them (so ``--resume`` and replays see the same config)."""
    from sim.running.backends import Backend

    config = load_config(
        SEVEN,
        ["run.games=200", "run.chunk_hands=50", "seats.1.agent=value", "seats.1.claim_gain=0"],
    )
    one = run(config, tmp_path / "one", jobs=1, progress=False)
    two = run(config, tmp_path / "two", jobs=2, progress=False, backend=Backend(backend))
    first = pd.read_parquet(Path(one) / "games.parquet")
    second = pd.read_parquet(Path(two) / "games.parquet")
    assert first.equals(second)
    manifest = (Path(two) / "manifest.json").read_text()
    assert re.search(r'"seats":\s*\{\s*"1":\s*\{\s*"claim_gain":\s*0', manifest)
    plain = run(config.with_overrides(["seats.1.claim_gain=1"]), tmp_path / "d", progress=False)
    assert not first.equals(pd.read_parquet(Path(plain) / "games.parquet"))


@pytest.mark.engine
@pytest.mark.parametrize("name", ["anhua", "wengan", "anqing"])
def test_agents_play_legally_at_any_parameters(name):
    """Every variant's rule checks (the ledger, legal moves, payments: its ``check_hand``) pass
    with the value and cautious agents at every seat, each seat's parameters drawn at random
    from their declared ranges (integers as integers): a parameter changes choices among the
    legal actions, never what is legal."""
    import importlib

    from sim.core.wall import shuffled_walls
    from sim.running.agents import agent_ids
    from sim.variants import get_variant

    variant = get_variant(name)
    options = variant.options_class()
    n_players = variant.player_count(options)
    rng = np.random.default_rng(16)
    rows = np.tile(default_row(), (n_players, 1))
    for seat in range(n_players):
        for slot, parameter in enumerate(AGENT_PARAMETERS):
            low, high = parameter.minimum, parameter.maximum
            value = (
                rng.integers(low, high + 1)
                if parameter.type == "integer"
                else rng.uniform(low, high)
            )
            rows[seat, slot] = value
    assert (rows != default_row()).any(axis=1).all()
    agents = agent_ids(tuple(("value", "cautious")[seat % 2] for seat in range(n_players)))
    walls = shuffled_walls(120, variant.n_tiles, 16)
    dealers = variant.first_dealers(15, options, 16)
    checks = importlib.import_module(f"sim.variants.{name}.checks")
    checked = checks.check_games(options, walls, dealers, 8, agents, 16, rows)
    assert int((checked.errors[:, 0] != 0).sum()) == 0, checked.first_failure()
