"""``mjsim replay``: one hand of a run, move by move, as text or JSON Lines."""

from __future__ import annotations

import argparse

from ..running.replay import FORMATS, check_format, replay_lines, replay_run
from . import integer


def _command_replay(args: argparse.Namespace) -> int:
    check_format(args.format)  # before the hand is played: a bad value prints nothing else
    lines = replay_lines(replay_run(args.dir, args.game), args.format)
    print("\n".join(lines))
    return 0


def register(commands) -> None:
    """Add ``replay`` to the ``mjsim`` sub-parser collection."""
    parser = commands.add_parser(
        "replay",
        help="print one hand of a run as an event log (text or JSON Lines)",
        description=(
            "Play hand ID of a run directory again from the run's seed (same walls, dealer and "
            "agents) and print every event: the deal, flipped tiles and wilds, draws, discards, "
            "claims, kongs, passed wins, wins and each payment, then every seat's final tiles "
            "and melds and the result. The replay is checked against the stored row. With "
            "--format json: one JSON object per line (a header, one per event, every seat's "
            "final tiles and melds, the winners, every settlement item and the result), enough "
            "for another program to score the hand again (docs/engine.md, Replay)."
        ),
        epilog="example: mjsim replay runs/anhua-seven-kings --game 17 --format json",
    )
    parser.add_argument("dir", metavar="DIR", help="a run directory written by mjsim run")
    parser.add_argument(
        "--game", type=integer, required=True, metavar="ID", help="hand number (the game column)"
    )
    parser.add_argument(
        "--format",
        default="text",
        metavar="FORMAT",
        help=f"{' or '.join(FORMATS)} (JSON Lines); default text",
    )
    parser.set_defaults(run=_command_replay)
