"""The ``mjsim`` command line.

    mjsim demo                       evaluate a few example hands
    mjsim hand "123m 456p 55s 5s*"   evaluate hands given in tile notation

Each command lives in its own module of this package with a ``register(commands)`` function that
adds its sub-parser and sets ``run`` to a function of the parsed arguments returning the exit
status. Run ``mjsim COMMAND --help`` for each command's flags. Errors are one line on standard
error and a non-zero exit status (2).
"""

from __future__ import annotations

import argparse
import importlib
import sys

# In the order ``mjsim --help`` lists them.
COMMAND_MODULES = ("run", "hand", "exact")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mjsim",
        description="Monte Carlo simulation and analysis for Chinese regional mahjong.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(f"{__name__}.{name}").register(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except ValueError as error:
        print(f"mjsim: error: {error}", file=sys.stderr)
        return 2
