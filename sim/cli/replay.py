"""``mjsim replay``: one hand of a run or of a config, move by move, as text or JSON Lines."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..running.config import load_config
from ..running.replay import FORMATS, check_format, replay_config, replay_lines, replay_run
from . import integer


def _replayed(source: str, game: int):
    """Hand ``game`` of a config file (as a run of it plays it) or of a run directory."""
    path = Path(source)
    if path.suffix == ".toml" or path.is_file():
        return replay_config(load_config(path), game)
    return replay_run(path, game)


def _command_replay(args: argparse.Namespace) -> int:
    check_format(args.format)  # before the hand is played: a bad value prints nothing else
    lines = replay_lines(_replayed(args.source, args.game), args.format)
    print("\n".join(lines))
    return 0


def register(commands) -> None:
    """Add ``replay`` to the ``mjsim`` sub-parser collection."""
    parser = commands.add_parser(
        "replay",
        help="print one hand of a run or a config as an event log (text or JSON Lines)",
        description=(
            "Play hand ID of a run directory, or of a config file as a run of it plays it, again "
            "from the seed (same walls, dealer and agents) and print every event: the deal with "
            "each seat's tiles, flipped tiles and wilds, draws, discards, claims, kongs, passed "
            "wins, wins and each payment, then every seat's final tiles, melds and status, the "
            "winners' points and the result. A run directory's replay is checked against the "
            "stored row. With --format json: one JSON object per line (a header, one per event, "
            "every seat's final tiles and melds, the winners, every settlement item and the "
            "result), enough for another program to score the hand again (docs/engine.md, "
            "Replay)."
        ),
        epilog=(
            "examples:\n"
            "  mjsim replay configs/anhua-seven-kings.toml --game 17\n"
            "  mjsim replay configs/wengan-4p.toml --game 5 --format json\n"
            "  mjsim run configs/anqing.toml --games 1000 --out runs/anqing-1000\n"
            "  mjsim replay runs/anqing-1000 --game 17     # a hand of that run"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "source",
        metavar="RUN_OR_CONFIG",
        help="a run directory written by mjsim run, or a config file such as configs/anqing.toml",
    )
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
