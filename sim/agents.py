"""The agent registry: names of the agent kinds the engine knows (``sim.kernels.agents``)."""

from __future__ import annotations

from .kernels import agents as _kernels

AGENTS = {
    "efficiency": _kernels.AGENT_EFFICIENCY,
    "random": _kernels.AGENT_RANDOM,
    "self_draw": _kernels.AGENT_SELF_DRAW,
    "value": _kernels.AGENT_VALUE,
    "cautious": _kernels.AGENT_CAUTIOUS,
}
"""Agent name -> kind id. ``efficiency`` is the default (see sim.kernels.agents)."""


def agent_ids(names: list[str] | tuple[str, ...]) -> tuple[int, ...]:
    """Kind ids of agent names, one per seat; a clear error for an unknown name."""
    ids = []
    for seat, name in enumerate(names):
        if name not in AGENTS:
            allowed = ", ".join(AGENTS)
            raise ValueError(f"agents[{seat}]: unknown agent {name!r}; allowed: {allowed}")
        ids.append(AGENTS[name])
    return tuple(ids)
