"""The agent registry: names of the agent kinds the engine knows (``sim.kernels.agents``), and
their parameters (declared in ``sim.kernels.agent_params``), checked per seat.

A config gives a seat's parameters in its ``[seats.N]`` table (N the seat, from 0), beside or
instead of naming the seat's agent in ``run.agents``::

    [seats.2]              # seat 2 plays value with claim_gain 2
    agent = "value"        # replaces run.agents[2]
    claim_gain = 2

Every parameter a seat does not set keeps its default; a seat may set only the parameters of
its own agent (``AgentParameter.agents``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..kernels import agents as _kernels
from ..kernels.agent_params import AGENT_PARAMETERS, AgentParameter, default_row
from ..variants.options import unknown_name

AGENTS = {
    "efficiency": _kernels.AGENT_EFFICIENCY,
    "random": _kernels.AGENT_RANDOM,
    "self_draw": _kernels.AGENT_SELF_DRAW,
    "value": _kernels.AGENT_VALUE,
    "cautious": _kernels.AGENT_CAUTIOUS,
}
"""Agent name -> kind id. ``efficiency`` is the default (see sim.kernels.agents)."""

PARAMETERS: dict[str, AgentParameter] = {p.name: p for p in AGENT_PARAMETERS}
"""Parameter name -> its declaration, in slot order."""

SeatParameters = tuple[tuple[str, int | float], ...]
"""One seat's parameters that differ from their defaults, as (name, value) pairs in slot order
(hashable, for the frozen ``RunConfig``)."""

for _parameter in AGENT_PARAMETERS:  # a declaration naming an agent that does not exist
    for _agent in _parameter.agents:
        if _agent not in AGENTS:
            raise ValueError(f"agent parameter {_parameter.name}: unknown agent {_agent!r}")


def agent_ids(names: list[str] | tuple[str, ...]) -> tuple[int, ...]:
    """Kind ids of agent names, one per seat; a clear error for an unknown name."""
    ids = []
    for seat, name in enumerate(names):
        if name not in AGENTS:
            allowed = ", ".join(AGENTS)
            raise ValueError(f"agents[{seat}]: unknown agent {name!r}; allowed: {allowed}")
        ids.append(AGENTS[name])
    return tuple(ids)


def parameters_of(agent: str) -> tuple[AgentParameter, ...]:
    """The parameters ``agent`` plays by, in slot order (none for ``efficiency``)."""
    return tuple(p for p in AGENT_PARAMETERS if agent in p.agents)


def check_parameters(agent: str, values: Mapping[str, Any], where: str) -> SeatParameters:
    """``values`` (parameter name -> value) checked for ``agent``: the pairs that differ from
    their defaults, in slot order, or a one-line ValueError naming ``where.NAME`` (an unknown
    name with a did-you-mean, a parameter of another agent, a value out of range)."""
    own = {p.name: p for p in parameters_of(agent)}
    checked = {}
    for name, value in values.items():
        if name not in PARAMETERS:
            raise unknown_name(f"{where}.{name}", "agent parameter", name, PARAMETERS)
        if name not in own:
            allowed = ", ".join(own) or "none"
            raise ValueError(
                f"{where}.{name}: not a parameter of the {agent} agent; its parameters: {allowed}"
            )
        checked[name] = own[name].check(value, f"{where}.{name}")
    return tuple(
        (p.name, p.native(checked[p.name]))
        for p in AGENT_PARAMETERS
        if p.name in checked and checked[p.name] != p.default
    )


def seat_parameters(
    seats: Mapping[Any, Any], agents: Sequence[str]
) -> tuple[tuple[str, ...], tuple[SeatParameters, ...]]:
    """The agents and parameters of each seat from a config's ``seats`` table (seat number ->
    a table of ``agent`` and parameter values) over ``agents`` (``run.agents``): a seat's
    ``agent`` replaces its entry of ``run.agents`` (the seat's table is the more specific).
    One-line errors name ``seats.N.KEY``."""
    agents = list(agents)
    n_players = len(agents)
    numbers = [str(seat) for seat in range(n_players)]
    values: dict[int, Mapping[str, Any]] = {}
    for key, table in seats.items():
        if str(key) not in numbers:
            raise unknown_name(f"seats.{key}", "seat", key, numbers, value=True)
        if not isinstance(table, Mapping):
            raise ValueError(f"seats.{key}: expected a table of agent and parameters")
        values[int(key)] = table
    for seat, table in sorted(values.items()):
        agent = table.get("agent")
        if agent is None:
            continue
        if agent not in AGENTS:
            raise unknown_name(f"seats.{seat}.agent", "agent", agent, AGENTS, value=True)
        agents[seat] = agent
    parameters = []
    for seat in range(n_players):
        table = {k: v for k, v in values.get(seat, {}).items() if k != "agent"}
        parameters.append(check_parameters(agents[seat], table, f"seats.{seat}"))
    return tuple(agents), tuple(parameters)


def parameter_rows(parameters: Sequence[SeatParameters]) -> np.ndarray:
    """float64 (seats, N_AGENT_PARAMS): each seat's parameter row, defaults where not set (what
    ``GameState.agent_params`` holds)."""
    rows = np.tile(default_row(), (len(parameters), 1))
    slots = {p.name: slot for slot, p in enumerate(AGENT_PARAMETERS)}
    for seat, pairs in enumerate(parameters):
        for name, value in pairs:
            rows[seat, slots[name]] = value
    return rows


def parameters_markdown() -> str:
    """The table of every agent parameter for docs/strategies.md (the declarations' words)."""
    lines = [
        "| parameter | agents | type | range | default | meaning |",
        "|---|---|---|---|---|---|",
    ]
    for p in AGENT_PARAMETERS:
        agents = ", ".join(f"`{a}`" for a in p.agents)
        lines.append(
            f"| `{p.name}` | {agents} | {p.type} | {p.minimum:g} to {p.maximum:g} | "
            f"{p.default:g} | {p.meaning} |"
        )
    return "\n".join(lines)
