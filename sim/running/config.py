"""Run configurations: TOML files in ``configs/`` -> a frozen, checked :class:`RunConfig`.

A config file names the variant, a label, the run settings and every option::

    variant = "NAME"           # a registered variant (sim.variants.VARIANT_NAMES)
    label = "NAME-default"     # the run's name: its folder under runs/

    [run]
    games = 20000              # hands (局) to play
    seed = 2026                # root seed; same seed, same results, whatever the jobs
    hands_per_session = 8      # hands per room; the dealer carries across a session
    agents = ["efficiency", "efficiency", "efficiency", "efficiency"]   # one per seat
    chunk_hands = 10000        # hands per unit of work (with the seed, fixes the results)

    [options]
    player_count = 4           # 人数; every option of the variant, with its rule name
    ...

    [seats.2]                  # optional, per seat (from 0): seat 2 plays value ...
    agent = "value"            # (replaces run.agents[2])
    claim_gain = 2             # ... with claim_gain 2 (sim.running.agents; docs/strategies.md)

Unknown keys (with a did-you-mean), wrong types and out-of-range values are one-line errors
naming the key, the value and what is allowed; run settings have bounds (``RUN_MINIMUM``,
``RUN_MAXIMUM``: a chunk's walls are in memory at once) and a run is at most ``MAX_CHUNKS``
chunks; the options are checked by the variant's declarations (:mod:`sim.variants.options`), which
also write the ``[options]`` comments. Options left out keep the spec's defaults. ``--set
KEY=VALUE`` overrides use the same names and TOML values: ``player_count=3``,
``options.player_count=3``, ``run.games=5000``, ``label=x``, a list option as
``some_table=[3,6,12,15]``, a seat's agent parameter as ``seats.2.claim_gain=2`` (and its agent as
``seats.2.agent=value``).
"""

from __future__ import annotations

import copy
import hashlib
import json
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..variants import VARIANT_NAMES, Variant, get_variant
from ..variants.options import option_values, options_from_mapping, unknown_name
from .agents import AGENTS, SeatParameters, parameter_rows, seat_parameters
from .outdir import plain_name

RUN_DEFAULTS: dict[str, Any] = {
    "games": 20_000,
    "seed": 0,
    "hands_per_session": 8,
    "agents": None,  # the efficiency agent in every seat
    "chunk_hands": 10_000,
}
RUN_MINIMUM = {"games": 1, "seed": 0, "hands_per_session": 1, "chunk_hands": 1}
RUN_MAXIMUM = {
    # a run's scores are summed over its hands, and the 连庄 payments of a hand grow with the
    # session: with the variants' option maxima these keep the sums below 2**62
    # (sim/variants/<name>/bounds.py, tests/test_options.py)
    "games": 10**9,
    "seed": 2**128 - 1,  # numpy's SeedSequence takes any size; a bound keeps the manifest sane
    "hands_per_session": 1_000,
    "chunk_hands": 1_000_000,  # a chunk's walls and records are in memory at once
}
MAX_CHUNKS = 10_000_000
"""A run is at most this many chunks (their plan is a list): raise ``run.chunk_hands``."""
TOP_LEVEL_KEYS = ("variant", "label", "run", "options", "seats")


@dataclass(frozen=True)
class RunConfig:
    """Everything that fixes a run's results (``jobs`` and the output folder do not)."""

    variant: str
    label: str
    options: Any
    games: int
    seed: int
    hands_per_session: int
    agents: tuple[str, ...]
    chunk_hands: int
    seat_parameters: tuple[SeatParameters, ...] = ()
    """Per seat, the agent parameters that differ from their defaults (``sim.running.agents``);
    empty (or empty tuples): every seat plays with the defaults."""

    @property
    def spec(self) -> Variant:
        return get_variant(self.variant)

    @property
    def n_players(self) -> int:
        return self.options.player_count

    @property
    def n_chunks(self) -> int:
        """The chunks the run is played in (sim.running.runner.plan_chunks)."""
        return -(-self.games // chunk_size(self.hands_per_session, self.chunk_hands))

    @property
    def agent_params(self) -> np.ndarray:
        """float64 (n_players, N_AGENT_PARAMS): each seat's agent parameters, defaults filled
        in (``GameState.agent_params``)."""
        seats = self.seat_parameters or ((),) * self.n_players
        return parameter_rows(seats)

    def resolved(self) -> dict[str, Any]:
        """The whole configuration with every default filled in, as plain JSON values; the
        agent parameters only where a seat's differ from their defaults (``seats``, left out
        when none do: a config without them keeps the hash it had before they existed)."""
        resolved = {
            "variant": self.variant,
            "label": self.label,
            "run": {
                "games": self.games,
                "seed": self.seed,
                "hands_per_session": self.hands_per_session,
                "agents": list(self.agents),
                "chunk_hands": self.chunk_hands,
            },
            "options": option_values(self.options),
        }
        seats = {str(seat): dict(pairs) for seat, pairs in enumerate(self.seat_parameters) if pairs}
        if seats:
            resolved["seats"] = seats
        return resolved

    def hash(self) -> str:
        """sha256 of the resolved configuration without the label (a name does not change
        results): two runs with equal hashes play the same hands."""
        resolved = self.resolved()
        del resolved["label"]
        text = json.dumps(resolved, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()

    def with_overrides(self, overrides: Iterable[str]) -> RunConfig:
        """A copy with ``KEY=VALUE`` overrides applied (see the module docstring)."""
        return build_config(apply_overrides(self.resolved(), overrides))


def parse_value(text: str) -> Any:
    """A ``--set`` value: a TOML value (``4``, ``true``, ``"x"``, ``[1, 2]``), or else the bare
    text as a string (``fast``)."""
    try:
        return tomllib.loads(f"value = {text}")["value"]
    except tomllib.TOMLDecodeError:
        return text


def apply_overrides(document: dict[str, Any], overrides: Iterable[str]) -> dict[str, Any]:
    """A copy of a config document with ``KEY=VALUE`` overrides applied."""
    document = copy.deepcopy(dict(document))
    for override in overrides:
        key, separator, text = override.partition("=")
        key = key.strip()
        if not separator or not key:
            raise ValueError(f"--set {override!r}: expected KEY=VALUE, e.g. player_count=3")
        value = parse_value(text.strip())
        if key in ("variant", "label"):
            document[key] = value
            continue
        if key.startswith("seats."):
            seat, dot, name = key.removeprefix("seats.").partition(".")
            if not dot or not seat or not name:
                raise ValueError(
                    f"--set {key}: expected seats.SEAT.NAME=VALUE, e.g. seats.2.claim_gain=2"
                )
            seats = document.setdefault("seats", {})
            if not isinstance(seats, dict) or not isinstance(seats.setdefault(seat, {}), dict):
                raise ValueError(f"--set {key}: seats.{seat} is not a table in the config")
            seats[seat][name] = value
            continue
        section, dot, name = key.partition(".")
        if not dot:
            section, name = ("run", key) if key in RUN_DEFAULTS else ("options", key)
        if section not in ("run", "options"):
            sections = ("run", "options", "seats")
            raise unknown_name(f"--set {key}", "section", section, sections, value=True)
        document.setdefault(section, {})[name] = value
    return document


def _check_run(run: Mapping[str, Any], n_players: int) -> dict[str, Any]:
    settings = dict(RUN_DEFAULTS)
    for key, value in run.items():
        if key not in RUN_DEFAULTS:
            raise unknown_name(f"run.{key}", "setting", key, RUN_DEFAULTS)
        settings[key] = value
    for key, minimum in RUN_MINIMUM.items():
        value = settings[key]
        if type(value) is not int:
            raise ValueError(f"run.{key}: expected an integer, got {value!r}")
        if value < minimum:
            raise ValueError(f"run.{key}: {value} is below the minimum {minimum}")
        if value > RUN_MAXIMUM[key]:
            raise ValueError(f"run.{key}: {value} is above the maximum {RUN_MAXIMUM[key]:,}")
    _check_chunk_count(settings)
    agents = settings["agents"]
    if agents is None:
        agents = ["efficiency"] * n_players
    if not isinstance(agents, list | tuple) or not all(isinstance(a, str) for a in agents):
        raise ValueError(f"run.agents: expected a list of agent names, got {agents!r}")
    if len(agents) != n_players:
        raise ValueError(
            f"run.agents: {len(agents)} names for {n_players} players; expected one agent name "
            f"per seat ({n_players})"
        )
    for seat, name in enumerate(agents):
        if name not in AGENTS:
            raise unknown_name(f"run.agents[{seat}]", "agent", name, AGENTS, value=True)
    settings["agents"] = tuple(agents)
    return settings


def chunk_size(hands_per_session: int, chunk_hands: int) -> int:
    """Hands of each chunk but perhaps the last: the whole sessions ``chunk_hands`` holds, at
    least one."""
    return max(1, chunk_hands // hands_per_session) * hands_per_session


def _check_chunk_count(settings: Mapping[str, Any]) -> None:
    """An impossible combination: more chunks than a run can plan (``MAX_CHUNKS``)."""
    hands_per_chunk = chunk_size(settings["hands_per_session"], settings["chunk_hands"])
    chunks = -(-settings["games"] // hands_per_chunk)
    if chunks > MAX_CHUNKS:
        raise ValueError(
            f"run.chunk_hands: {settings['chunk_hands']} makes {chunks:,} chunks of "
            f"{hands_per_chunk:,} hands for run.games = {settings['games']:,}; allowed: at most "
            f"{MAX_CHUNKS:,} chunks (raise run.chunk_hands)"
        )


def _variant_of(document: Mapping[str, Any]) -> Variant:
    name = document.get("variant")
    if name is None:
        raise ValueError(f"variant: missing; allowed: {', '.join(VARIANT_NAMES)}")
    if not isinstance(name, str):
        raise unknown_name("variant", "variant", name, VARIANT_NAMES, value=True)
    try:
        return get_variant(name)
    except ValueError:
        raise unknown_name("variant", "variant", name, VARIANT_NAMES, value=True) from None


def build_config(document: Mapping[str, Any]) -> RunConfig:
    """A checked :class:`RunConfig` from a parsed config document."""
    for key in document:
        if key not in TOP_LEVEL_KEYS:
            raise unknown_name(str(key), "key", key, TOP_LEVEL_KEYS)
    variant = _variant_of(document)
    label = plain_name(document.get("label", variant.name), "label")  # a folder under runs/
    for section in ("run", "options", "seats"):
        if not isinstance(document.get(section, {}), Mapping):
            raise ValueError(f"{section}: expected a table of settings")
    options = options_from_mapping(variant.options_class, document.get("options", {}))
    settings = _check_run(document.get("run", {}), variant.player_count(options))
    agents, parameters = seat_parameters(document.get("seats", {}), settings["agents"])
    settings["agents"] = agents
    return RunConfig(
        variant=variant.name, label=label, options=options, seat_parameters=parameters, **settings
    )


def read_toml(path: str | Path, what: str = "config file") -> dict:
    """A TOML file as a dict; every way reading it can fail is one line naming the file.
    A UTF-8 byte-order mark (as some Windows editors write) is accepted."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise ValueError(f"{path}: no such {what}") from None
    except IsADirectoryError:
        raise ValueError(f"{path}: is a directory, not a {what}") from None
    except UnicodeDecodeError as error:
        raise ValueError(
            f"{path}: not a UTF-8 text file (byte {error.start} is {error.object[error.start]:#x});"
            f" save the {what} as UTF-8"
        ) from None
    except OSError as error:
        raise ValueError(f"{path}: cannot read the {what}: {error.strerror or error}") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ValueError(f"{path}: not valid TOML: {error}") from None


def load_config(path: str | Path, overrides: Iterable[str] = ()) -> RunConfig:
    """Read a config file and apply ``KEY=VALUE`` overrides; errors name the file and key."""
    document = read_toml(path)
    try:
        return build_config(apply_overrides(document, overrides))
    except ValueError as error:
        raise ValueError(f"{path}: {error}") from None
