"""Where the chunks of a run play: engine threads here, local worker processes, or a Dask cluster.

    backend = Backend("dask", scheduler="tcp://10.0.0.5:8786")   # or Backend() for threads
    with backend.started(workers=2) as pool:
        for result in pool(delayed(play)(chunk) for chunk in chunks): ...

``threads`` (the default) plays a run's chunks in engine threads of this process (the runner's
``_play_in_threads``; :meth:`Backend.plays_chunks_here`): the kernels release the GIL, the
records need no pickling, and no worker starts and loads the engine (docs/engine.md, "Parallel
runs", has the measurements). Its :meth:`Backend.pool`, for whole tasks that are not a run's
chunks (a sweep's small cells side by side, ``tune``'s trials), is the process pool of
``processes``. ``processes`` is joblib's loky pool on this machine, for chunks too (one job
excepted: it plays in this process, without a pool). ``dask`` runs the same tasks
through joblib's Dask backend on a ``distributed`` cluster: the one at ``scheduler`` when given,
else a ``LocalCluster`` of ``workers`` single-threaded worker processes started here and closed
afterwards. Dask workers need only the installed package (``pip install 'mjsim[dask]'``); they
send each chunk's tables back to this process, which alone writes files, so they need no shared
file system. A started backend is reused by everything inside it (a sweep's cells share one
cluster); results never depend on the backend (same seed, same bytes).

The ``--backend`` and ``--scheduler`` flags come from :func:`add_arguments` and
:func:`from_arguments`, so every command that plays chunks (``run``, ``sweep``, and later
``compare`` and ``tune``) takes them the same way.
"""

from __future__ import annotations

import logging
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

BACKENDS = ("threads", "processes", "dask")
DASK_MISSING = (
    "--backend dask: needs the optional Dask extra (dask[distributed]), which is not installed; "
    "install it with: pip install 'mjsim[dask]'"
)
CONNECT_SECONDS = 10


@dataclass
class Backend:
    """A way to play chunks in parallel (see the module docstring)."""

    name: str = "threads"
    scheduler: str | None = None
    _client: Any = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.name not in BACKENDS:
            raise ValueError(
                f"--backend: {self.name!r} is not allowed; allowed: {', '.join(BACKENDS)}"
            )
        if self.scheduler is not None and self.name != "dask":
            raise ValueError(
                f"--scheduler {self.scheduler}: only with --backend dask (the address of a "
                "Dask scheduler, e.g. tcp://10.0.0.5:8786)"
            )
        if self.scheduler is not None and not self.scheduler.strip():
            raise ValueError("--scheduler: an empty address; expected e.g. tcp://10.0.0.5:8786")

    @property
    def is_local(self) -> bool:
        return self.name != "dask"

    def plays_chunks_here(self, workers: int) -> bool:
        """Whether a run's chunks play in engine threads of this process: always with
        ``threads``, and with ``processes`` when one job plays them (no pool to start)."""
        return self.name == "threads" or (self.name == "processes" and workers == 1)

    def check_installed(self) -> None:
        """A one-line ValueError when the backend's packages are missing (before any output)."""
        if self.name == "dask":
            try:
                import distributed  # noqa: F401
            except ImportError:
                raise ValueError(DASK_MISSING) from None

    @contextmanager
    def started(self, workers: int) -> Iterator[Callable[[int], Any]]:
        """The backend ready to take tasks; yields :meth:`pool`. Reentrant: inside, starting it
        again reuses what is running (one cluster for all of a sweep's cells)."""
        if self.is_local or self._client is not None:
            yield self.pool
            return
        client, closers = _dask_client(self.scheduler, workers)
        self._client = client
        stopped = True  # until the block ends normally: a Ctrl-C, a kill or an error
        try:
            yield self.pool
            stopped = False
        finally:
            self._client = None
            if stopped:
                _silence_dask()
            for close in closers:
                close()

    def pool(self, n_jobs: int):
        """A ``joblib.Parallel`` over ``n_jobs`` worker processes (both local backends; every
        worker of a Dask cluster), yielding results as they come."""
        from joblib import Parallel, parallel_config

        if self.is_local:
            from .stopping import start_worker

            with parallel_config(backend="loky", initializer=start_worker, initargs=(os.getpid(),)):
                return Parallel(n_jobs=n_jobs, return_as="generator_unordered")
        if self._client is None:
            raise RuntimeError("the Dask backend is used outside Backend.started()")
        with parallel_config(backend="dask", client=self._client):
            return Parallel(n_jobs=-1, return_as="generator_unordered")

    def workers(self, jobs: int) -> int:
        """How many chunks play at once: ``jobs`` here, the cluster's workers on a cluster."""
        if self._client is not None and self.scheduler is not None:
            return max(1, len(self._client.scheduler_info().get("workers", {})))
        return jobs


def _dask_client(scheduler: str | None, workers: int):
    """A ``distributed.Client`` to ``scheduler``, or to a new ``LocalCluster`` of ``workers``
    processes; and the functions that close what was started."""
    Backend("dask").check_installed()
    from distributed import Client, LocalCluster

    if scheduler is not None:
        try:
            client = Client(scheduler, timeout=CONNECT_SECONDS, set_as_default=False)
        except (OSError, TimeoutError, ValueError) as error:
            reason = str(error).strip().splitlines()[0] if str(error).strip() else "no answer"
            raise ValueError(
                f"--scheduler {scheduler}: cannot reach a Dask scheduler there ({reason}); "
                "expected the address a running scheduler prints, e.g. tcp://10.0.0.5:8786"
            ) from None
        return client, [client.close]
    with _interrupts_ignored_by_children():
        cluster = LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            # any free port: the scheduler always serves HTTP (8787 by default), and a port
            # taken by another cluster on this machine would print a warning
            dashboard_address=":0",
            # the workers' own errors too: a run that stops closes the scheduler while they
            # still send heartbeats, and on a loaded machine each logs a traceback for it;
            # a task's error reaches the run through the client all the same
            silence_logs=logging.CRITICAL,
        )
    client = Client(cluster, set_as_default=False)
    return client, [client.close, cluster.close]


def _silence_dask() -> None:
    """From a stopped run's end on (a Ctrl-C, a kill or an error), Dask and tornado say nothing
    in this process: the tasks still in flight are cancelled while the cluster closes, and the
    client, its event loop and the scheduler log each as an error with a traceback ("Couldn't
    gather keys", "ConnectionPool is closed"), some of them after the close returned (a gather
    answered late, a client collected after its loop closed), where the run's own line already
    says what happened. The process is about to end: the silence is not lifted."""
    for logger in _dask_loggers():  # some set levels of their own (distributed's config)
        logger.setLevel(logging.CRITICAL + 1)
    default_hook = sys.unraisablehook

    def quiet_about_dask(unraisable) -> None:
        # the object is the method that raised (Client.__del__) or the object itself
        thing = unraisable.object
        module = getattr(thing, "__module__", None) or type(thing).__module__ or ""
        if not module.startswith(("distributed", "tornado")):
            default_hook(unraisable)

    sys.unraisablehook = quiet_about_dask


def _dask_loggers() -> list[logging.Logger]:
    """The loggers of Dask, tornado and asyncio made so far (one created later inherits its
    parent's level)."""
    prefixes = ("distributed", "tornado", "asyncio")
    names = dict.fromkeys([*logging.root.manager.loggerDict, *prefixes])  # each once, in order
    return [logging.getLogger(name) for name in names if name.split(".")[0] in prefixes]


@contextmanager
def _interrupts_ignored_by_children() -> Iterator[None]:
    """Ignore SIGINT while the local cluster's worker processes start, so that they ignore it
    for good (an ignored signal stays ignored in a child, and Python then leaves it so): a
    Ctrl-C in the terminal reaches the whole process group, and this process stops the workers
    itself (:mod:`sim.running.stopping`), as loky's workers ignore it (``start_worker``); otherwise
    each Dask worker prints a KeyboardInterrupt traceback. A Ctrl-C in these few seconds is lost."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def add_arguments(parser) -> None:
    """``--backend`` and ``--scheduler`` on a command's parser."""
    parser.add_argument(
        "--backend",
        choices=BACKENDS,
        default="threads",
        help="where chunks play: engine threads in this process (default), worker processes "
        "here, or a Dask cluster; results do not depend on it",
    )
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="with --backend dask: a running Dask scheduler (e.g. tcp://10.0.0.5:8786); "
        "default: a local cluster of --jobs workers",
    )


def from_arguments(args) -> Backend:
    """The :class:`Backend` the parsed ``--backend`` and ``--scheduler`` name, checked (a
    one-line ValueError when the Dask extra is missing)."""
    backend = Backend(args.backend, args.scheduler)
    backend.check_installed()
    return backend
