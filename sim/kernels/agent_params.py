"""Declared agent parameters: the numbers (weights, thresholds) an agent plays by, per seat.

An agent is a policy id (``sim.kernels.agents.AGENT_*``) plus a vector of numeric parameters.
Every parameter is declared once here, as an :class:`AgentParameter` (its name, the agents it
applies to, its type, its allowed range, its default and what it means); everything else comes
from that tuple:

* the slot of each parameter in the float64 array ``GameState.agent_params`` (seats x
  ``N_AGENT_PARAMS``) that the engine passes, one seat's row at a time, to the agent's
  questions: kernels unpack the slots at import, as ``P_CLAIM_GAIN, ... = parameter_slots()``;
* the row of defaults (:func:`default_row`) every seat starts from;
* the checks of a config's ``[seats.N]`` tables and of ``--set seats.N.NAME=VALUE``
  (``sim.running.agents.seat_parameters``), the search space of ``mjsim tune``
  (``sim.studies.tune``), and the parameter table of docs/strategies.md
  (``sim.running.agents.parameters_markdown``).

A parameter's slot is its position in :data:`AGENT_PARAMETERS`: add new ones at the end (a
slot never changes meaning). Integer parameters are stored as floats and read back with
``np.int64``: every integer up to 2**53 is exact in a float64. Pure Python: the kernels import
it, it imports nothing of them.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

PARAMETER_TYPES = ("integer", "real")


@dataclass(frozen=True)
class AgentParameter:
    """One numeric parameter of one or more agents."""

    name: str
    """Lower case words joined by ``_``: the key in a config's ``[seats.N]`` table."""
    agents: tuple[str, ...]
    """The agents (``sim.running.agents.AGENTS`` names) that play by it; a seat of another agent may
    not set it."""
    type: str
    """``integer`` or ``real`` (one of :data:`PARAMETER_TYPES`)."""
    minimum: float
    maximum: float
    """The allowed range, both ends included: also what ``mjsim tune`` searches."""
    default: float
    """The value every seat plays with unless its config says otherwise (the agent as it was
    tuned by hand: docs/strategies.md)."""
    meaning: str
    """What the parameter does, one sentence."""

    def __post_init__(self) -> None:
        if not self.name.replace("_", "").isalnum() or self.name != self.name.lower():
            raise ValueError(f"agent parameter {self.name!r}: a name is lower case words and _")
        if self.type not in PARAMETER_TYPES:
            raise ValueError(f"agent parameter {self.name}: type {self.type!r}")
        if not self.agents:
            raise ValueError(f"agent parameter {self.name}: applies to no agent")
        self.check(self.default)  # a declaration whose default it rejects is a typo

    def check(self, value, key: str | None = None) -> float:
        """``value`` as the float stored, or a one-line ValueError naming ``key`` (default the
        parameter's name), the value and the allowed range."""
        key = key or self.name
        allowed = f"{self.type} from {self.minimum:g} to {self.maximum:g}"
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise ValueError(f"{key}: expected an {allowed}, got {value!r}")
        if not self.minimum <= value <= self.maximum:  # NaN too
            raise ValueError(f"{key}: {value!r} is out of range; allowed: {allowed}")
        if self.type == "integer" and float(value) != int(value):
            raise ValueError(f"{key}: {value!r} is not an integer; allowed: {allowed}")
        return float(value)

    def native(self, value: float) -> int | float:
        """A stored value as its type's Python number (an int for an integer parameter)."""
        return int(value) if self.type == "integer" else float(value)


AGENT_PARAMETERS: tuple[AgentParameter, ...] = (
    AgentParameter(
        "claim_gain",
        ("value", "cautious"),
        "integer",
        0,
        3,
        1,
        "pong or chi only when the claim (with its best discard) brings the hand at least this "
        "many shanten nearer to ready (the efficiency agent claims at 0: no further)",
    ),
    AgentParameter(
        "seven_pairs_from",
        ("value", "cautious"),
        "integer",
        3,
        8,
        5,
        "with the concealed hand whole (13+ tiles, no melds) and this many natural pairs, play "
        "for seven pairs (小七对): discard by the seven-pairs shanten alone and claim nothing "
        "(8: never)",
    ),
    AgentParameter(
        "flush_off_suit",
        ("value", "cautious"),
        "integer",
        -1,
        6,
        1,
        "with at most this many natural tiles outside the strongest numbered suit, play for a "
        "flush (清一色): discard outside the suit first and claim nothing outside it (-1: never)",
    ),
    AgentParameter(
        "wild_margin",
        ("value", "cautious"),
        "integer",
        -1,
        2,
        -1,
        "throw a loose wild (one or two held, none tripled) for a hand without wilds (硬庄) when "
        "the hand without it is at most this many shanten worse (-1: never)",
    ),
    AgentParameter(
        "late_visible",
        ("cautious",),
        "integer",
        0,
        136,
        40,
        "turn careful once this many tiles are visible to all (discards, melds, the indicator): "
        "a late wall, when opponents are likely ready",
    ),
    AgentParameter(
        "safe_seen",
        ("cautious",),
        "integer",
        1,
        4,
        3,
        "a kind is safe once this many of its copies are accounted for (seen by all or held, "
        "the discarded copy included): few left for an opponent to wait on",
    ),
    AgentParameter(
        "shanten_cost",
        ("cautious",),
        "integer",
        0,
        3,
        0,
        "the shanten given up for a safe discard when careful (0: only a safe discard as good "
        "as the value agent's)",
    ),
    AgentParameter(
        "chance_per_shanten",
        ("value", "cautious"),
        "real",
        0,
        1,
        0.15,
        "where the variant says what a target pays (steer-word hints), each shanten it lies "
        "further than the plain hand multiplies its worth by this: all triplets worth w plain wins "
        "are played while w x this ** (the shanten gap) >= 1, a flush or seven pairs a tile "
        "or pair further per factor that keeps w above 2",
    ),
    AgentParameter(
        "danger_cost",
        ("cautious",),
        "integer",
        0,
        3,
        1,
        "the shanten given up for a safe discard once the variant says an opponent looks ready "
        "(the steer word's danger hint)",
    ),
    AgentParameter(
        "claim_worth_from",
        ("value", "cautious"),
        "integer",
        1,
        5,
        3,
        "a pong or chi the variant lists with a worth (A_VALUE) of at least this is claimed as "
        "the efficiency agent claims (no further from ready) rather than by claim_gain "
        "(e.g. the melds of the discarder's tiles the claimer then holds; 5: never)",
    ),
    AgentParameter(
        "claim_worth_cost",
        ("value", "cautious"),
        "integer",
        -1,
        2,
        0,
        "a pong or chi the variant lists with a worth (A_VALUE) of at least claim_worth_from "
        "is claimed when it leaves the hand at most this many shanten further from ready (0: "
        "no further, as the efficiency agent claims; -1: only when one nearer)",
    ),
    AgentParameter(
        "concealed_within",
        ("value", "cautious"),
        "integer",
        0,
        8,
        1,
        "where the variant says a concealed hand pays (the steer word's concealed hint), a "
        "hand without melds at most this many shanten from ready claims only what makes it "
        "ready (8: at any distance); further away it claims by its other rules",
    ),
    AgentParameter(
        "keep_concealed",
        ("cautious",),
        "integer",
        0,
        1,
        1,
        "1: where the variant says a concealed hand pays, a hand without melds claims only what "
        "makes it ready at any distance (each claim gives its discarder a step towards what he "
        "may make the claimer pay, such as a 反包); 0: by concealed_within, as the value agent",
    ),
)
"""Every agent parameter, in slot order (new ones at the end)."""

N_AGENT_PARAMS = len(AGENT_PARAMETERS)
"""Columns of ``GameState.agent_params``."""


def parameter_slots(names: Sequence[str] | None = None) -> tuple[int, ...]:
    """The slots of the parameters ``names`` (default: every parameter, in slot order)."""
    slots = {parameter.name: slot for slot, parameter in enumerate(AGENT_PARAMETERS)}
    if len(slots) != N_AGENT_PARAMS:
        raise ValueError("agent parameters: a name is declared twice")
    return tuple(slots[name] for name in (names or slots))


def default_row() -> np.ndarray:
    """float64 (N_AGENT_PARAMS,): every parameter at its default."""
    return np.array([parameter.default for parameter in AGENT_PARAMETERS], np.float64)
