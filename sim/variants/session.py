"""The Python face every variant's engine is played through: sessions of hands into records, one
hand replayed with its event log, and the hands played through the variant's rule checks.

A variant makes a :class:`SessionPlay` from its own cached entry points (its ``engine.py``), its
record width and the record slot, if any, that carries the dealer's streak, and exports its
methods as its ``play_records`` and ``replay_hand``; its ``checks.py`` makes a
:class:`GameChecks` from its checking kernel and exports ``check_games``. The numba entry points
stay in each variant's folder, compiled and cached there (docs/engine.md, "Adding a variant");
only the Python around them is here. Nothing here names a variant
(``tests/test_generic_modules.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numba
import numpy as np

from ..core.tables import load_tables, load_tables_in_background, tables_loaded, typed_like_tables
from ..kernels import state as game_state
from ..kernels.agents import VALUED_AGENTS, seed_agents
from ..kernels.record import R_NEXT_DEALER
from ..running.compile_ahead import AheadKernel, Samples, helping, is_cold

LOG_CAPACITY = 1024
"""Events a checked hand's log holds (the checks report a fuller log as an error)."""


def session_first_dealers(n_sessions: int, options: Any, seed) -> np.ndarray:
    """The first dealer of each session (option ``first_dealer``): seat 0 (the room's opener
    or owner), or a uniformly random seat from ``seed`` (an int or a SeedSequence)."""
    if options.first_dealer == "seat0":
        return np.zeros(n_sessions, np.int64)
    return np.random.default_rng(seed).integers(0, options.player_count, n_sessions)


def seat_agents(agent_kinds: tuple[int, ...]) -> tuple[int, ...]:
    """One agent id per state seat (four): the unused seats of a smaller table get agent 0."""
    return tuple(agent_kinds) + (0,) * (4 - len(agent_kinds))


def plays_plain(agent_kinds: tuple[int, ...]) -> bool:
    """Whether no seat of ``agent_kinds`` plays a valued agent (``VALUED_AGENTS``): the engine
    is then played, and compiled, without the valued agents' searches (``valued_agents=None``
    to its entry points, ``sim.kernels.engine.play_hand``): about 19 CPU seconds less of the
    largest variant's cold compile (docs/engine.md, "Agents no seat plays"). A table seating
    one plays the engine compiled with them (the entry points' default), compiled once more
    the first time one is seated."""
    return not any(kind in VALUED_AGENTS for kind in agent_kinds)


def _roster(plain: bool) -> tuple:
    """The entry points' last arguments for ``plain`` (``plays_plain``): ``valued_agents=None``,
    or nothing (their default, ``True``)."""
    return (None,) if plain else ()


def _signature(arguments: tuple, plain: bool) -> tuple:
    """The numba argument types of an entry point called with ``arguments`` and then
    ``_roster(plain)``: what it is compiled, and its disk cache indexed, for."""
    types = tuple(numba.typeof(value) for value in arguments)
    return (*types, numba.types.none if plain else numba.types.Omitted(True))


def _sessions(
    options: Any, walls: np.ndarray, first_dealers: np.ndarray, hands_per_session: int, tables
):
    """The arguments a kernel playing sessions of hands takes between the state and its outputs
    (``sim.kernels.engine.play_hands``): walls, player count, first dealers (int64), hands per
    session, the options' params and ``tables``."""
    dealers = np.asarray(first_dealers, np.int64)
    params = options.params()
    return walls, options.player_count, dealers, hands_per_session, params, tables


@dataclass(frozen=True)
class SessionPlay:
    """How a variant's hands are played from Python, over its own cached entry points.

    ``play_hands`` and ``play_hand``: the variant's ``engine.play_hands`` / ``engine.play_hand``
    (``sim.kernels.engine``'s under its rules); ``record_width``: the int64 slots of a record,
    the engine's (``sim.kernels.record.R_*``) then the variant's own; ``streak_slot``: the
    record slot holding the streak (连庄 count) the next hand is dealt with, or None where the
    records keep none (the replay then deals the hand with a streak of 0)."""

    play_hands: Callable[..., None]
    play_hand: Callable[..., int]
    record_width: int
    streak_slot: int | None = None
    compile_ahead: tuple[AheadKernel, ...] = ()
    """The big cached kernels the variant's loop calls, in the order its compile reaches them,
    that a helper process compiles beside a cold compile (``sim.running.compile_ahead``)."""

    def _helped(self, entry: Callable, arguments: tuple, state, params, tables, record, plain):
        """``entry``'s first call with ``arguments`` (then ``_roster(plain)``) compiled with the
        helper (``sim.running.compile_ahead.helping``)."""
        return helping(
            entry,
            self.compile_ahead,
            lambda: Samples(state, params, tables, record, plain),
            _signature(arguments, plain),
        )

    def _compile_before_tables(
        self, entry: Callable, arguments: Callable, state, params, record, plain: bool
    ):
        """On a cold cache, with the tables not loaded yet: compile ``entry`` for the types of
        ``arguments(tables)`` (with the compile-ahead helper) while the tables are loaded, or
        built in another process (``sim.core.tables``), rather than after. A first run on a machine
        builds them (6.5 s on 2 cores) and compiles the engine (a minute): side by side now."""
        if tables_loaded():
            return
        sample = typed_like_tables()
        signature = _signature(arguments(sample), plain)
        if not is_cold(entry, signature):
            return
        load_tables_in_background()
        with self._helped(entry, arguments(sample), state, params, sample, record, plain):
            entry.compile(signature)

    def play_records(
        self,
        options: Any,
        walls: np.ndarray,
        first_dealers: np.ndarray,
        hands_per_session: int,
        agent_kinds: tuple[int, ...],
        agent_seed: int,
        agent_params: np.ndarray | None = None,
    ) -> np.ndarray:
        """Play one hand per wall, in sessions, into int64 records (``record_width`` slots).

        ``agent_kinds``: one agent id per seat (``sim.running.agents``); ``agent_seed`` seeds the
        generator the random agent draws from (numba's, one per process); ``agent_params``:
        each seat's agent parameters (float64 (seats, N_AGENT_PARAMS), ``RunConfig.agent_params``;
        None: the defaults)."""
        records = np.zeros((len(walls), self.record_width), np.int64)
        seed_agents(agent_seed)
        state = game_state.new_state(agents=seat_agents(agent_kinds), agent_params=agent_params)
        row = np.zeros(self.record_width, np.int64)
        plain = plays_plain(agent_kinds)

        def arguments(tables):
            sessions = _sessions(options, walls, first_dealers, hands_per_session, tables)
            return (state, *sessions, records)

        params = options.params()
        self._compile_before_tables(self.play_hands, arguments, state, params, row, plain)
        tables = load_tables()
        with self._helped(self.play_hands, arguments(tables), state, params, tables, row, plain):
            self.play_hands(*arguments(tables), *_roster(plain))
        return records

    def replay_hand(
        self,
        options: Any,
        walls: np.ndarray,
        first_dealers: np.ndarray,
        hands_per_session: int,
        agent_kinds: tuple[int, ...],
        agent_seed: int,
        index: int,
        log_capacity: int = LOG_CAPACITY,
        agent_params: np.ndarray | None = None,
    ) -> tuple[np.ndarray, np.ndarray, game_state.FinalPosition]:
        """Hand ``index`` of a block of walls played as ``play_records`` plays it, with the
        event log on: the hands before it are played first, with the same agent seed, so the
        dealer, his streak and the random agent's generator are where they were. Returns
        (record, events, the final position: ``sim.kernels.state.FinalPosition``).

        The hand itself goes through ``play_hand``, which takes the dealer's streak (a session
        of one hand would start it at 0), read from ``streak_slot`` of the hand before."""
        before = self.play_records(
            options,
            walls[:index],
            first_dealers,
            hands_per_session,
            agent_kinds,
            agent_seed,
            agent_params,
        )
        dealer, streak = self.dealt_with(before, first_dealers, hands_per_session, index)
        record = np.zeros(self.record_width, np.int64)
        state = game_state.new_state(
            log_capacity, agents=seat_agents(agent_kinds), agent_params=agent_params
        )
        params, tables = options.params(), load_tables()
        plain = plays_plain(agent_kinds)
        arguments = (
            state, walls[index], options.player_count, dealer, streak, params, tables, record,
        )  # fmt: skip
        with self._helped(self.play_hand, arguments, state, params, tables, record, plain):
            self.play_hand(*arguments, *_roster(plain))
        events = state.log[: state.scalars[game_state.LOG_COUNT]].copy()
        return record, events, game_state.final_position(state)

    def dealt_with(
        self, before: np.ndarray, first_dealers: np.ndarray, hands_per_session: int, index: int
    ) -> tuple[int, int]:
        """(dealer, streak) of hand ``index``, from the records ``before`` of the hands before
        it: a session's first hand is dealt by its first dealer with a streak of 0."""
        if index % hands_per_session == 0:
            return int(first_dealers[index // hands_per_session]), 0
        last = before[index - 1]
        streak = 0 if self.streak_slot is None else int(last[self.streak_slot])
        return int(last[R_NEXT_DEALER]), streak


@dataclass
class CheckedGames:
    """What ``check_games`` returns: the records, each hand's verdict ``(code, event index)``,
    the log of the first hand that failed (None when all passed) and its index (-1), and the
    names of the error codes. A variant whose checks copy out more per hand adds them as
    fields of a subclass."""

    records: np.ndarray
    errors: np.ndarray
    failure_events: np.ndarray | None
    failure_index: int
    error_names: tuple[str, ...] = field(repr=False)

    def first_failure(self) -> str:
        """The first failure in words: the hand, the error's name and the event."""
        if self.failure_events is None:
            return "every hand passed"
        code, at = (int(v) for v in self.errors[self.failure_index])
        return (
            f"hand {self.failure_index}: {self.error_names[code]} (code {code}) at event {at} "
            f"of {len(self.failure_events)}: "
            f"{self.failure_events[max(0, at - 3) : at + 1].tolist()}"
        )


@dataclass(frozen=True)
class GameChecks:
    """How a variant's hands are played through its rule checks from Python.

    ``check_hands``: the variant's checking kernel, called as ``check_hands(state, walls,
    n_players, first_dealers, hands_per_session, params, tables, records, errors, *outputs,
    failure_log, failure_info)`` (it plays the hands as ``engine.play_hands`` does, with the log
    on, checks each and returns the number that failed); ``record_width`` as
    :class:`SessionPlay`'s; ``error_names``: the names of its error codes; ``outputs``: the
    arrays it fills per hand besides the records, name -> (shape of one hand's, dtype), passed
    in this order; ``result``: the :class:`CheckedGames` (sub)class they are returned in, each
    output as the field of its name."""

    check_hands: Callable[..., int]
    record_width: int
    error_names: tuple[str, ...]
    outputs: Mapping[str, tuple[tuple[int, ...], type]] = field(default_factory=dict)
    result: type[CheckedGames] = CheckedGames

    def check_games(
        self,
        options: Any,
        walls: np.ndarray,
        first_dealers: np.ndarray,
        hands_per_session: int,
        agent_kinds: tuple[int, ...],
        agent_seed: int,
        agent_params: np.ndarray | None = None,
    ) -> CheckedGames:
        """Play the hands ``play_records`` would play on ``walls`` (the same arguments) with
        the event log on, and check each (the variant's ``check_hand``)."""
        n_games = len(walls)
        records = np.zeros((n_games, self.record_width), np.int64)
        errors = np.zeros((n_games, 2), np.int64)
        outputs = {
            name: np.zeros((n_games, *shape), dtype)
            for name, (shape, dtype) in self.outputs.items()
        }
        failure_log = np.zeros((LOG_CAPACITY + 1, 4), np.int64)
        failure_info = np.zeros(2, np.int64)
        seed_agents(agent_seed)
        self.check_hands(
            game_state.new_state(
                LOG_CAPACITY, agents=seat_agents(agent_kinds), agent_params=agent_params
            ),
            *_sessions(options, walls, first_dealers, hands_per_session, load_tables()),
            records,
            errors,
            *outputs.values(),
            failure_log,
            failure_info,
        )
        failed = failure_info[0] >= 0
        events = failure_log[: failure_info[1]].copy() if failed else None
        index = int(failure_info[0])
        return self.result(records, errors, events, index, self.error_names, **outputs)
