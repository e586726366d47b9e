"""A cold compile on two cores: a second process compiles the big cached kernels the game loop
calls while this one compiles the loop.

numba compiles a variant's engine (``sim/variants/<name>/engine.py``'s ``play_hands``) as one
function whose callees are compiled as its typing reaches them, one after the other, on one core.
Most of that time is a few large cached kernels (``@kernel``: an agent's discard search, a
variant's settlement or pattern search) that depend only on their argument types. A variant
lists them, in the order the loop's compile reaches them, as :class:`AheadKernel` entries (its
``SessionPlay.compile_ahead``); on a cold cache, :func:`helping` starts ``python -m
sim.running.compile_ahead``, which compiles each into numba's disk cache, and while this process
compiles the loop, its first need of one of them loads it from the disk cache, waiting for the
helper if it is still at work on it (never compiling it twice). With the cache warm nothing is
started.

The helper is told the kernels as (module, name, numba argument types): the types are taken here
with ``numba.typeof`` from sample values built like the loop's (``Samples``), so the helper needs
nothing of the variant beyond importing the kernel's module. A sample of the wrong type costs a
compile nobody loads, not a wrong result; ``tests/test_compile_ahead.py`` checks that a cold
compile with the helper compiles no listed kernel in this process.

``MJSIM_COMPILE_AHEAD=0`` turns the helper off (one core only, or to measure without it).
"""

from __future__ import annotations

import contextlib
import importlib
import os
import pickle
import select
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

LOG = os.environ.get("MJSIM_COMPILE_AHEAD_LOG")
"""A file the helper's words are appended to as this process reads them (to see its timing)."""

HELPER_TIMEOUT_SECONDS = 600.0
"""The longest this process waits for the helper's next word before compiling on its own."""


@dataclass(frozen=True)
class Samples:
    """Values of the types the game loop passes its kernels, for ``numba.typeof``: the game
    state and its parts as one seat sees them, the options' params, the tables, a record and
    the scratch arrays the loop allocates. Only their types matter."""

    state: Any
    params: np.ndarray
    tables: tuple
    record: np.ndarray
    plain_agents: bool = False
    """Whether no seat plays a valued agent (``sim.kernels.agents.VALUED_AGENTS``): the loop is
    then played with ``valued_agents=None`` (``sim.kernels.engine.play_hand``)."""

    @property
    def roster(self) -> Any:
        """The type of ``valued_agents`` as the loop passes it to the agents' questions: none,
        or the literal True of the entry points' default."""
        from numba.core import types

        return types.none if self.plain_agents else types.literal(True)

    @property
    def hand(self) -> np.ndarray:
        return self.state.hands[0]

    @property
    def keys(self) -> np.ndarray:
        return self.state.keys[0]

    @property
    def agent_params(self) -> np.ndarray:
        return self.state.agent_params[0]

    @property
    def kinds_mask(self) -> np.ndarray:
        from ..kernels.hand import N_KINDS

        return np.ones(N_KINDS, np.bool_)

    @property
    def actions(self) -> np.ndarray:
        from ..kernels.moves import MAX_ACTIONS, N_ACTION_FIELDS

        return np.zeros((MAX_ACTIONS, N_ACTION_FIELDS), np.int64)

    @property
    def outcome(self) -> np.ndarray:
        from ..kernels.moves import N_OUTCOME

        return np.zeros(N_OUTCOME, np.int64)

    @property
    def seat_values(self) -> np.ndarray:
        """An int64 value per seat (winners, score changes)."""
        from ..kernels.state import MAX_SEATS

        return np.zeros(MAX_SEATS, np.int64)

    @property
    def grid(self) -> np.ndarray:
        """An int64 2-D array the loop allocates (per-seat accounts, a copy of the discards,
        settlement items)."""
        return np.zeros((1, 1), np.int64)

    integer = np.int64(0)
    """A loop integer (a seat, a kind, a count)."""

    @property
    def discard_space(self) -> tuple:
        """The agents' discard work space the loop makes once per hand."""
        from ..kernels.agents import discard_space

        return discard_space()


@dataclass(frozen=True)
class AheadKernel:
    """A cached kernel (``@kernel``) the game loop calls, and its arguments as the loop passes
    them (``arguments(samples)``: a tuple of values of those types)."""

    kernel: Any
    arguments: Callable[[Samples], tuple]

    def signature(self, samples: Samples) -> tuple:
        """The argument types: each value's ``numba.typeof``, or the value where it is a numba
        type already (a type no Python value has: ``Samples.roster``)."""
        from numba import typeof
        from numba.core import types

        arguments = self.arguments(samples)
        return tuple(v if isinstance(v, types.Type) else typeof(v) for v in arguments)


def dealing_kernels() -> tuple[AheadKernel, ...]:
    """The state's kernels the loop calls first, for every variant: ``reset`` and ``deal``
    (about 3 s of compiling that the helper does before this process reaches them)."""
    from numba.core import types

    from ..kernels import state

    return (
        # reset(state, wall, n_players, dealer)
        AheadKernel(state.reset, lambda s: (s.state, s.state.wall, s.integer, s.integer)),
        # deal(state, 13, 1): literal counts, as the loop passes them
        AheadKernel(state.deal, lambda s: (s.state, types.literal(13), types.literal(1))),
    )


def plan_kernel() -> AheadKernel:
    """The agents' plan question (``choose_plan(agent, hand, actions, n_actions)``), asked at
    the deal."""
    from ..kernels import agents

    return AheadKernel(agents.choose_plan, lambda s: (s.integer, s.hand, s.actions, s.integer))


def own_turn_kernels() -> tuple[AheadKernel, ...]:
    """The kernels the loop's own turn reaches after the variant's own-turn hook:
    ``meld_index(state, seat, meld_type, kind)`` and the agents' own-turn question
    ``choose_own_turn(agent, actions, n_actions, plan)``."""
    from ..kernels import agents, moves

    return (
        AheadKernel(moves.meld_index, lambda s: (s.state, s.integer, s.integer, s.integer)),
        AheadKernel(agents.choose_own_turn, lambda s: (s.integer, s.actions, s.integer, s.integer)),
    )


def agent_kernels() -> tuple[AheadKernel, ...]:
    """The generic agents' questions the loop asks after its own hooks: the last a variant lists."""
    from ..kernels import agents

    return (
        # choose_discard(agent, hand, keys, wilds, wild, visible, n_kinds, forms, allowed, plan,
        #                params, tables, space, valued_agents): the engine's discard question
        AheadKernel(
            agents.choose_discard,
            lambda s: (
                s.integer, s.hand, s.keys, s.integer, s.state.wild, s.state.visible, s.integer,
                s.integer, s.kinds_mask, s.integer, s.agent_params, s.tables, s.discard_space,
                s.roster,
            ),
        ),
        # choose_claim(agent, hand, keys, wilds, wild, kind, actions, n_actions, forms, plan,
        #              params, tables, valued_agents): the engine's claim question
        AheadKernel(
            agents.choose_claim,
            lambda s: (
                s.integer, s.hand, s.keys, s.integer, s.state.wild, s.integer, s.actions,
                s.integer, s.integer, s.integer, s.agent_params, s.tables, s.roster,
            ),
        ),
    )  # fmt: skip


def _enabled() -> bool:
    return os.environ.get("MJSIM_COMPILE_AHEAD", "1") != "0" and not _jit_disabled()


def _jit_disabled() -> bool:
    from numba.core import config

    return bool(config.DISABLE_JIT)


def is_cold(entry: Any, signature: tuple | None = None) -> bool:
    """Whether the cached entry point ``entry`` has nothing compiled in this process and
    nothing in its disk cache (numba's index for its source file is empty or stale); given its
    argument types ``signature``, nothing for those (an entry compiled for other types, say
    without the valued agents, is cold for these)."""
    if (signature is None and entry.overloads) or signature in entry.overloads:
        return False
    try:
        index = entry._cache._cache_file._load_index()
    except Exception:  # numba's internals moved: compile as numba would, on one core
        return False
    # numba's index keys: (argument types, the machine's codegen, the function's hashes)
    return not index if signature is None else all(key[0] != signature for key in index)


class _Helper:
    """The helper process and what it has said: the indices of the kernels it has finished."""

    def __init__(self, work: list[tuple[str, str, tuple]]) -> None:
        self.finished: set[int] = set()
        self.stopped = False
        self._pending = b""  # read from the helper, not yet split into lines
        self.process = subprocess.Popen(
            [sys.executable, "-m", "sim.running.compile_ahead"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        # the modules first: unpickling a signature needs the types they define (a variant's
        # marker type is made when its engine module is imported)
        pickle.dump(sorted({module for module, _, _ in work}), self.process.stdin)
        pickle.dump(work, self.process.stdin)
        self.process.stdin.close()

    def wait_for(self, index: int) -> None:
        """Return once the helper has finished kernel ``index``, has stopped, or has been
        silent for ``HELPER_TIMEOUT_SECONDS``. Reads the pipe with ``os.read`` into its own
        buffer: ``select`` cannot see lines a buffered reader has already taken in."""
        descriptor = self.process.stdout.fileno()
        while index not in self.finished and not self.stopped:
            if b"\n" not in self._pending:
                ready, _, _ = select.select([descriptor], [], [], HELPER_TIMEOUT_SECONDS)
                chunk = os.read(descriptor, 4096) if ready else b""
                if not chunk:  # the helper has ended, or is silent too long
                    self.stop()
                    return
                self._pending += chunk
                continue
            line, _, self._pending = self._pending.partition(b"\n")
            word, number = line.decode().split()[:2]
            if word in ("compiled", "failed"):
                self.finished.add(int(number))
            if LOG is not None:
                with open(LOG, "a", encoding="utf-8") as log:
                    log.write(line.decode() + "\n")

    def stop(self) -> None:
        if self.stopped:
            return
        self.stopped = True  # wait for nothing more
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        self.process.stdout.close()


class _WaitingCache:
    """A dispatcher's disk cache whose loads, on a miss, first wait for the helper to finish
    that kernel and then look again."""

    def __init__(self, cache: Any, helper: _Helper, index: int) -> None:
        self._cache = cache
        self._helper = helper
        self._index = index

    def load_overload(self, sig, target_context):
        found = self._cache.load_overload(sig, target_context)
        if found is None and not self._helper.stopped and self._index not in self._helper.finished:
            self._helper.wait_for(self._index)
            found = self._cache.load_overload(sig, target_context)
        return found

    def __getattr__(self, name: str):
        return getattr(self._cache, name)


@contextlib.contextmanager
def helping(
    entry: Any,
    kernels: Sequence[AheadKernel],
    samples: Callable[[], Samples],
    signature: tuple | None = None,
):
    """Within this block, a first call of the cached entry point ``entry`` (for the argument
    types ``signature``, if given) compiles with a helper process compiling ``kernels`` (when
    the cache is cold, the helper is on and there is something to help with); ``samples``
    makes the sample values."""
    if not kernels or not _enabled() or not is_cold(entry, signature):
        yield
        return
    given = samples()
    needed = [(k.kernel, k.signature(given)) for k in kernels]
    # not those compiled in this process already (for another entry point)
    needed = [(kernel, sig) for kernel, sig in needed if sig not in kernel.overloads]
    if not needed:
        yield
        return
    work = [(kernel.py_func.__module__, kernel.py_func.__name__, sig) for kernel, sig in needed]
    helper = _Helper(work)
    caches = [(kernel, kernel._cache) for kernel, _ in needed]
    for index, (kernel, cache) in enumerate(caches):
        kernel._cache = _WaitingCache(cache, helper, index)
    try:
        yield
    finally:
        for kernel, cache in reversed(caches):  # a kernel listed twice is wrapped twice
            kernel._cache = cache
        helper.stop()


def _compile(work: list[tuple[str, str, tuple]], say: Callable[[str], None]) -> None:
    """The helper's work: compile each kernel for its argument types (into the disk cache),
    saying ``compiled i`` (or ``failed i``) after each."""
    started = time.perf_counter()
    for index, (module, name, signature) in enumerate(work):
        try:
            getattr(importlib.import_module(module), name).compile(signature)
            say(f"compiled {index} {name} at {time.perf_counter() - started:.1f} s")
        except Exception:  # the main process compiles it itself
            say(f"failed {index} {name}")


def main() -> None:
    """``python -m sim.running.compile_ahead``: read the pickled work from standard input,
    compile."""
    for module in pickle.load(sys.stdin.buffer):
        importlib.import_module(module)
    work = pickle.load(sys.stdin.buffer)
    out = sys.stdout

    def say(line: str) -> None:
        out.write(line + "\n")
        out.flush()

    _compile(work, say)


if __name__ == "__main__":
    main()
