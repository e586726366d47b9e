"""The ``mjsim`` command line.

    mjsim run CONFIG                 play a config into a run directory, print a summary
    mjsim report DIR                 an HTML report of a run or a sweep
    mjsim sweep SWEEP.toml           a config over a grid of option values, compared
    mjsim compare CONFIG --agents A,B  agents against each other on duplicate deals
    mjsim tune CONFIG --agent A --field B  search an agent's parameters against a field
    mjsim replay RUN_OR_CONFIG --game ID  one hand of a run or a config, move by move
    mjsim bench [CONFIG ...]         evaluator and engine throughput (every variant, or configs)
    mjsim exact VARIANT              exact probabilities of dealt-hand events
    mjsim deal VARIANT --hands N     dealt-hand Monte Carlo beside the exact values
    mjsim demo                       evaluate a few example hands
    mjsim hand "123m 456p 55s 5s*"   evaluate hands given in tile notation

Each command lives in its own module of this package with a ``register(commands)`` function that
adds its sub-parser and sets ``run`` to a function of the parsed arguments returning the exit
status. Run ``mjsim COMMAND --help`` for each command's flags. Errors are one line on standard
error and a non-zero exit status (2).
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import gc
import importlib
import os
import sys
import threading

from ..running.outdir import os_error_code

# In the order ``mjsim --help`` lists them.
COMMAND_MODULES = (
    "run", "sweep", "compare", "tune", "report", "replay", "bench", "hand", "exact", "cache",
)  # fmt: skip


def run_overrides(args: argparse.Namespace) -> list[str]:
    """The ``--set`` overrides of a command, with ``--games`` and ``--seed`` as run settings."""
    overrides = list(args.set or [])
    if args.games is not None:
        overrides.append(f"run.games={args.games}")
    if args.seed is not None:
        overrides.append(f"run.seed={args.seed}")
    return overrides


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (the flag, the value, what is allowed, and
    where the help is) and exit status 2; argparse's own print the usage first."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message}; see {self.prog} --help\n")


def integer(text: str) -> int:
    """An integer argument (``--games 5000``), with a message naming what is allowed."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None


def number(text: str) -> float:
    """A number argument (``--confidence 0.99``), with a message naming what is allowed."""
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The ``mjsim`` parser with every command, or with command ``only`` alone: what its
    arguments need (``mjsim run ...`` then imports none of the other commands' modules)."""
    parser = OneLineParser(
        prog="mjsim",
        description="Monte Carlo simulation and analysis for Chinese regional mahjong.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMAND_MODULES if only is None else (only,):
        importlib.import_module(f"{__name__}.{name}").register(commands)
    return parser


def _parse(argv: list[str] | None) -> argparse.Namespace:
    """The parsed arguments; the parser has only the command named first when a module of
    this package is named after it (``run``, ``sweep``, ...), else every command.

    When this process is the command (``argv`` None), the garbage collector waits while the
    modules are imported, and what they made is frozen (``gc.freeze``): the imports make
    hundreds of thousands of objects and hardly any garbage, and two full collections in
    the middle of them cost a fifth of a second of every run."""
    arguments = sys.argv[1:] if argv is None else argv
    command = arguments[0] if arguments and arguments[0] in COMMAND_MODULES else None
    if argv is not None:
        return build_parser(command).parse_args(argv)
    gc.disable()
    try:
        return build_parser(command).parse_args(argv)
    finally:
        gc.freeze()
        gc.enable()


QUIET_WORKER_POOL = "ignore::UserWarning:joblib.externals.loky.backend.resource_tracker"
"""When a run stops on an error or a signal, joblib kills its workers and loky's resource tracker
(a process that inherits the interpreter's -W options) cleans up their semaphores, warning about
each on standard error: the CLI's error stays one line."""


def os_error_line(error: OSError) -> str:
    """An OSError as one line: the file and the system's words (``runs/x: No space left on
    device``), without the chained traceback a worker pool adds."""
    code = os_error_code(error)
    reason = error.strerror or (os.strerror(code) if code else None)
    if reason:
        names = [str(name) for name in (error.filename, error.filename2) if name is not None]
        return f"{' -> '.join(names)}: {reason}" if names else reason
    return str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__


def main(argv: list[str] | None = None) -> int:
    """Run the command ``argv`` (default: this process's arguments); its exit status."""
    if QUIET_WORKER_POOL not in sys.warnoptions:
        sys.warnoptions.append(QUIET_WORKER_POOL)
    args = _parse(argv)
    try:
        status = _command(args)
    finally:
        if argv is None:
            # The process ends next. The interpreter's teardown collects garbage over every
            # object not frozen, a tenth of a second after a run; nothing left is garbage that
            # needs a finaliser (the run closed its files).
            gc.freeze()
    if argv is None:
        _end_process(status)
    return status


def _end_process(status: int) -> None:
    """End this process now with ``status``, as the interpreter would but without tearing its
    modules down (numba's and LLVM's objects, pandas, pyarrow: 30-60 ms after a run): the
    output is flushed and the exit handlers run first, and this is skipped while a thread the
    interpreter would wait for is still running."""
    if any(not t.daemon for t in threading.enumerate() if t is not threading.main_thread()):
        return
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError, AttributeError):  # closed, or None
            stream.flush()
    os._exit(status)


def _command(args: argparse.Namespace) -> int:
    """The parsed command's exit status, an error as one line and status 2."""
    try:
        return args.run(args)
    except ValueError as error:
        print(f"mjsim: error: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # output piped into a reader that stopped early, e.g. `| head`
        sys.stderr.close()
        return 0
    except OSError as error:  # disk full, read-only folder, file-size limit, ...
        print(f"mjsim: error: {os_error_line(error)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as error:  # Ctrl-C, or SIGTERM during a run (sim.running.stopping)
        what = getattr(error, "what", "interrupted (Ctrl-C)")
        what_next = getattr(error, "what_next", "nothing half-made was left behind")
        print(f"mjsim: {what}; {what_next}", file=sys.stderr)
        return getattr(error, "exit_status", 130)
