"""Stopping cleanly: Ctrl-C and SIGTERM in the main process, a vanished parent in a worker.

    with stop_on_signals() as stop:
        warm_up(config)      # numba compiles here
        stop.check()         # raise even if something swallowed the KeyboardInterrupt
        ...

Inside :func:`stop_on_signals`, SIGINT and SIGTERM raise :class:`Stopped` (a
``KeyboardInterrupt``) in the main thread, so ``finally`` blocks and ``except BaseException``
cleanups run for both (Python's default SIGTERM ends the process without running them, which
left worker processes and half-built directories behind). The signal is also remembered:
an interrupt that arrives while a library runs a finaliser or a cache writer can be swallowed
there ("Exception ignored in ..."), and :meth:`StopGuard.check` raises it again at the next safe
point. :func:`start_worker` runs first in every worker process: it ignores Ctrl-C (the terminal
sends it to the whole process group; the parent stops the workers itself, and a worker's
KeyboardInterrupt would print a traceback) and ends the worker within a second when the process
that started it is gone, however it died (SIGKILL included).
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Stopped(KeyboardInterrupt):
    """The run was stopped by a signal (Ctrl-C or SIGTERM)."""

    def __init__(self, signal_number: int):
        super().__init__(signal.Signals(signal_number).name)
        self.signal_number = signal_number

    @property
    def exit_status(self) -> int:
        """The shell's convention for a process ended by a signal: 128 + its number."""
        return 128 + self.signal_number

    @property
    def what(self) -> str:
        if self.signal_number == signal.SIGINT:
            return "interrupted (Ctrl-C)"
        return f"stopped ({signal.Signals(self.signal_number).name})"


class StopGuard:
    """What :func:`stop_on_signals` yields: the signal received, if any."""

    def __init__(self) -> None:
        self.received: int | None = None

    def check(self) -> None:
        """Raise :class:`Stopped` when a stop signal came, even if its exception was swallowed."""
        if self.received is not None:
            raise Stopped(self.received)


@contextmanager
def stop_on_signals() -> Iterator[StopGuard]:
    """Turn SIGINT and SIGTERM into :class:`Stopped` while inside (main thread only; elsewhere
    the handlers cannot be set, and the guard only ever has what it was told)."""
    guard = StopGuard()
    if threading.current_thread() is not threading.main_thread():
        yield guard
        return

    def handler(signal_number, frame):
        guard.received = signal_number
        raise Stopped(signal_number)

    previous = {number: signal.signal(number, handler) for number in STOP_SIGNALS}
    try:
        yield guard
    finally:
        for number, old in previous.items():
            signal.signal(number, old)


_watched_parent: int | None = None


def exit_with_parent(parent_pid: int, interval: float = 0.25) -> None:
    """In a worker process started by ``parent_pid``: end this process as soon as that parent is
    gone. Does nothing in the parent itself, or where ``parent_pid`` is not this process's
    parent (a Dask worker, whose parent is its nanny), or when already watching."""
    global _watched_parent
    if parent_pid == os.getpid() or os.getppid() != parent_pid or _watched_parent == parent_pid:
        return
    _watched_parent = parent_pid

    def watch() -> None:
        while os.getppid() == parent_pid:
            time.sleep(interval)
        os._exit(1)  # the parent is gone: nobody will read this worker's results

    threading.Thread(target=watch, name="mjsim-exit-with-parent", daemon=True).start()


def start_worker(parent_pid: int) -> None:
    """The initializer of every worker process (see the module docstring)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    exit_with_parent(parent_pid)
