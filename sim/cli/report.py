"""``mjsim report``: a self-contained HTML report of a run or sweep directory (sim.report)."""

from __future__ import annotations

import argparse
import webbrowser


def _command_report(args: argparse.Namespace) -> int:
    from ..report import write_report  # pandas and matplotlib: loaded only for this command

    try:
        path = write_report(args.directory, baseline=args.baseline)
    except (OSError, KeyError) as error:  # a missing or unreadable file: one line, status 2
        message = error.args[0] if error.args and isinstance(error.args[0], str) else error
        raise ValueError(str(message)) from None
    print(path)
    if args.open:
        webbrowser.open(path.resolve().as_uri())
    return 0


def register(commands) -> None:
    """Add the ``report`` command to the ``mjsim`` sub-parser collection."""
    parser = commands.add_parser(
        "report",
        help="write an HTML report of a run or sweep directory",
        description=(
            "Write DIR/report.html: every table and figure of a run (options, draw rate, win "
            "rate by seat, dealer advantage, win kinds, patterns, tiers, scores, point sources), "
            "each estimate with its 95% interval. One self-contained file (figures and the "
            "Chinese glyphs embedded, no JavaScript); the figures are also saved as "
            "DIR/figures/*.png. For a sweep directory (with sweep.json) it writes every cell's "
            "report too and compares the cells with a baseline cell. Prints the path of the "
            "report."
        ),
        epilog=(
            "examples: mjsim report results/anhua-seven-kings; "
            "mjsim report results/kings-by-birds --baseline seven_kings-2"
        ),
    )
    parser.add_argument(
        "directory",
        metavar="DIR",
        help="a run directory (manifest.json, games.parquet, wins.parquet) or a sweep directory "
        "(sweep.json); example: results/anhua-seven-kings",
    )
    parser.add_argument(
        "--baseline",
        metavar="CELL",
        default=None,
        help="sweeps only: the cell the others are compared with (default: the baseline named "
        "in sweep.json, else the first cell; example: --baseline seven_kings-2)",
    )
    parser.add_argument(
        "--open",
        action="store_true",
        help="also open the report in the default web browser (example: mjsim report "
        "results/anhua-seven-kings --open)",
    )
    parser.set_defaults(run=_command_report)
