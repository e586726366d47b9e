"""``mjsim replay``: one hand of a run, move by move."""

from __future__ import annotations

import argparse

from ..replay import replay_run


def _command_replay(args: argparse.Namespace) -> int:
    lines, _, _ = replay_run(args.dir, args.game)
    print("\n".join(lines))
    return 0


def register(commands) -> None:
    """Add ``replay`` to the ``mjsim`` sub-parser collection."""
    parser = commands.add_parser(
        "replay",
        help="print one hand of a run as an event log",
        description=(
            "Play hand ID of a run directory again from the run's seed (same walls, dealer and "
            "agents) and print every event: the deal, kings, draws, discards, claims, kongs and "
            "revealed tiles, passed wins, wins, birds and each payment, then every seat's "
            "final tiles and melds. The replay is checked against the "
            "stored row."
        ),
        epilog="example: mjsim replay runs/anhua-seven-kings --game 17",
    )
    parser.add_argument("dir", metavar="DIR", help="a run directory written by mjsim run")
    parser.add_argument(
        "--game", type=int, required=True, metavar="ID", help="hand number (the game column)"
    )
    parser.set_defaults(run=_command_replay)
