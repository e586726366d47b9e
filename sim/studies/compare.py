"""Duplicate deals: play agents against each other on the same walls, seats rotated.

:func:`compare` plays a config once per rotation of the agents under test (rotation ``r`` gives
seat ``s`` the agent ``agents[(s + r) % len(agents)]``, for ``r`` in ``0 .. n_players - 1``), each
rotation a normal run through the runner (its chunks and seeds, so the same for any ``--jobs``)
into ``OUT/rotation-R``. Every rotation has the same root seed, so the same walls and first
dealers: the walls depend on the seed and the chunk only, never on the agents. Each run has one
hand per session (``run.hands_per_session = 1``): a session's later dealers depend on who won,
so only the first hand of a session is dealt alike whatever the agents.
:mod:`sim.analysis.duplicate` reads the directory back and pairs the results by wall.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping
from pathlib import Path

from ..running.agents import AGENTS
from ..running.backends import Backend
from ..running.config import RunConfig
from ..running.runner import n_workers, run
from ..variants.options import unknown_name

DEFAULT_LOSS = 100.0
"""The points a seat may lose over a session that the comparison gives the chance of."""


def parse_agents(text: str, n_players: int) -> tuple[str, ...]:
    """The agents of ``--agents a,b,c``: known names, no repeats, 2 to ``n_players`` of them."""
    names = tuple(name.strip() for name in text.split(",") if name.strip())
    for name in names:
        if name not in AGENTS:
            raise unknown_name("--agents", "agent", name, AGENTS, value=True)
    if len(set(names)) != len(names):
        raise ValueError(f"--agents: {text!r} names an agent twice; each agent once")
    if not 2 <= len(names) <= n_players:
        raise ValueError(
            f"--agents: {len(names)} agents; expected 2 to {n_players} (one per seat at most)"
        )
    return names


def rotations(agents: tuple[str, ...], n_players: int) -> list[tuple[str, ...]]:
    """The seatings played: rotation ``r`` seats ``agents[(s + r) % len(agents)]`` at seat
    ``s``, for each of the ``n_players`` rotations (each agent in every seat alike when its
    count divides the seats)."""
    count = len(agents)
    return [tuple(agents[(s + r) % count] for s in range(n_players)) for r in range(n_players)]


def every_order(agents: tuple[str, ...], n_players: int) -> list[tuple[str, ...]]:
    """The seatings of ``rotations`` for every order of ``agents`` around the table (the first
    agent fixed, the others permuted: each cyclic order once). Rotations alone seat each agent
    after the same neighbour every time, and where a seat claims from the one before it (a
    chi) or is paid more by a player who fed it (包), the neighbour decides much of the score:
    with every order each agent follows every other alike."""
    first, rest = agents[0], agents[1:]
    return [
        seats
        for order in itertools.permutations(rest)
        for seats in rotations((first, *order), n_players)
    ]


def seatings(agents: tuple[str, ...], n_players: int, orders: bool) -> list[tuple[str, ...]]:
    """The seatings a comparison plays: ``every_order`` with ``orders``, else ``rotations``."""
    return (every_order if orders else rotations)(agents, n_players)


def seated_configs(
    config: RunConfig,
    agents: tuple[str, ...],
    parameters: Mapping[str, Mapping[str, float]] | None = None,
    orders: bool = False,
) -> list[RunConfig]:
    """The config of each seating of ``agents`` (``seatings``: ``rotations``, or with ``orders``
    ``every_order``), one hand per session, each
    agent with its ``parameters`` (agent name -> parameter values, ``sim.running.agents``) in every
    seat it holds. A config with its own seat parameters is refused: they belong to a seat, and
    the seats rotate."""
    if any(config.seat_parameters):
        raise ValueError(
            "seats: the config sets agent parameters per seat, and a comparison rotates the "
            "agents around the table; give them per agent instead"
        )
    base = config.with_overrides(["run.hands_per_session=1"])
    parameters = parameters or {}
    seated = []
    for seats in seatings(agents, config.n_players, orders):
        overrides = [f"run.agents={json.dumps(list(seats))}"]
        for seat, agent in enumerate(seats):
            for name, value in parameters.get(agent, {}).items():
                overrides.append(f"seats.{seat}.{name}={json.dumps(value)}")
        seated.append(base.with_overrides(overrides))
    return seated


def compare(
    config: RunConfig,
    agents: tuple[str, ...],
    out: str | Path,
    *,
    jobs: int = 1,
    orders: bool = False,
    progress: bool | None = None,
    session_hands: int | None = None,
    loss: float = DEFAULT_LOSS,
    parameters: Mapping[str, Mapping[str, float]] | None = None,
    backend: Backend | None = None,
    **run_options,
) -> Path:
    """Play ``config``'s walls once per rotation of ``agents`` into the comparison directory
    ``out`` (``comparison.json`` and ``rotation-R/``) and return its path. ``session_hands``
    (default: the config's ``hands_per_session``) and ``loss`` are kept for the analysis: the
    chance of losing ``loss`` points over that many hands. With ``orders``, every order of the
    agents around the table is played, each in every rotation (``every_order``). ``parameters``:
    agent name -> its parameters (``sim.running.agents``), given to every seat it holds in every
    seating; a config's own seat parameters are refused (they belong to a seat, and the seats
    rotate). ``backend``: where the chunks play (:class:`sim.running.backends.Backend`; one Dask
    cluster serves every seating); the tables are the same bytes whatever it is.
    ``run_options`` go to each seating's ``sim.running.runner.run`` (``command``)."""
    backend = backend or Backend()
    backend.check_installed()
    out = Path(out)
    session_hands = session_hands or config.hands_per_session
    played = seatings(agents, config.n_players, orders)
    seated = seated_configs(config, agents, parameters, orders)
    out.mkdir(parents=True, exist_ok=True)
    with backend.started(n_workers(jobs)):
        for index, rotation in enumerate(seated):
            target = out / f"rotation-{index}"
            run(rotation, target, jobs=jobs, progress=progress, backend=backend, **run_options)
    settings = {
        "agents": list(agents),
        "rotations": [list(seats) for seats in played],
        "deals": config.games,
        "seed": config.seed,
        "variant": config.variant,
        "label": config.label,
        "session_hands": session_hands,
        "loss": loss,
    }
    if parameters:
        settings["parameters"] = {agent: dict(values) for agent, values in parameters.items()}
    (out / "comparison.json").write_text(json.dumps(settings, indent=2) + "\n")
    return out
