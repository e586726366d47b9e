"""``mjsim report``: a self-contained HTML report of a run or sweep directory (sim.report)."""

from __future__ import annotations

import argparse
import webbrowser

EXAMPLES = (
    "mjsim run configs/anhua-seven-kings.toml --games 2000",
    "mjsim report runs/anhua-seven-kings",
    "mjsim report runs/anhua-seven-kings --out reports/anhua-seven-kings",
    "mjsim sweep configs/sweeps/anhua-kings-birds.toml --games 500",
    "mjsim report runs/anhua-kings-birds --baseline seven_kings-1",
)
"""The help's examples, in order: each runs as written from the repository's top folder (the
first makes the run the next two report on, the fourth the sweep the last reports on)."""


def _command_report(args: argparse.Namespace) -> int:
    from ..report import write_report  # pandas and matplotlib: loaded only for this command

    try:
        path = write_report(args.directory, baseline=args.baseline, out=args.out)
    except (OSError, KeyError) as error:  # a missing or unreadable file: one line, status 2
        if isinstance(error, OSError) and error.errno is not None:
            raise  # the system's words and the path, as every command prints them
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
            "Write DIR/report.html (or OUT/report.html): every table and figure of a run\n"
            "(options, draw rate, win rate by seat, dealer advantage, win kinds, patterns,\n"
            "tiers, scores, point sources), each estimate with its 95% interval. One\n"
            "self-contained file (figures and the Chinese glyphs embedded, no JavaScript); the\n"
            "figures are also saved as figures/*.png beside it. For a sweep directory (with\n"
            "sweep.json) it writes every cell's report too and compares the cells with a\n"
            "baseline cell. The run is read batch by batch: a run of any length fits in\n"
            "memory. Prints the path of the report."
        ),
        epilog="examples (from the repository's top folder, in this order):\n"
        + "\n".join(f"  {example}" for example in EXAMPLES),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "directory",
        metavar="DIR",
        help="a run directory (manifest.json, games.parquet, wins.parquet) or a sweep directory "
        "(sweep.json); example: runs/anhua-seven-kings",
    )
    parser.add_argument(
        "--out",
        metavar="OUT",
        default=None,
        help="write the report (report.html, figures/, and a sweep's cell reports under their "
        "paths in the sweep) into the folder OUT instead of into DIR, which is then only read "
        "(a run on a read-only share); OUT must be new, empty or a report written there "
        "before (example: --out reports/anhua-seven-kings)",
    )
    parser.add_argument(
        "--baseline",
        metavar="CELL",
        default=None,
        help="sweeps only: the cell the others are compared with (default: the baseline named "
        "in sweep.json, else the first cell; example: --baseline seven_kings-1)",
    )
    parser.add_argument(
        "--open",
        action="store_true",
        help="also open the report in the default web browser (example: mjsim report "
        "runs/anhua-seven-kings --open)",
    )
    parser.set_defaults(run=_command_report)
