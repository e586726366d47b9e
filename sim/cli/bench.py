"""``mjsim bench``: evaluator and engine throughput on this machine."""

from __future__ import annotations

import argparse

from ..running import bench
from . import integer


def _command_bench(args: argparse.Namespace) -> int:
    if args.hands < 100 or args.evaluations < 1000:
        raise ValueError("--hands must be at least 100 and --evaluations at least 1000")
    configs = bench.bench_configs(args.configs)  # a bad target: an error before any output
    print(bench.header())
    print("evaluator (one core, 108-tile hands with 0-3 wilds, 2-5-8 pair or seven pairs):")
    for row in bench.evaluator_throughput(args.evaluations):
        print(f"  {row['query']:<10} {row['per_second'] / 1e6:8.1f} M evaluations/s")
    print("engine (one core, each config's options, agents and hands per session):")
    for row in bench.engine_throughput(configs, args.hands):
        print(
            f"  {row['config']:<20} {row['players']}p {row['hands_per_second']:9,.0f} hands/s   "
            f"{row['turns_per_hand']:5.1f} draws per hand   first call "
            f"{row['first_call_seconds']:5.2f} s (compilation or cache load)   "
            f"agents {row['agents']}"
        )
    return 0


def register(commands) -> None:
    """Add ``bench`` to the ``mjsim`` sub-parser collection."""
    parser = commands.add_parser(
        "bench",
        help="print evaluator and engine throughput",
        description=(
            "Measure evaluations per second of the hand evaluator and complete hands per second "
            "of the engine on one core, for each config given (a variant's name: its default "
            "options and agents; or a config file) or, with none, for every variant at its "
            "defaults. The first engine call (numba compilation, or loading its disk cache) is "
            "timed separately. Fuller benchmarks: benchmarks/."
        ),
        epilog=(
            "examples:\n"
            "  mjsim bench --hands 2000                  # every variant at its defaults\n"
            "  mjsim bench wengan --hands 2000\n"
            "  mjsim bench configs/anhua-four-kings.toml configs/wengan-2p.toml --hands 2000"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "configs",
        nargs="*",
        metavar="CONFIG",
        help="a variant's name (its default options and agents) or a config file, e.g. "
        "configs/anqing.toml; default: every variant at its defaults",
    )
    parser.add_argument(
        "--hands", type=integer, default=10_000, metavar="N", help="hands per engine measurement"
    )
    parser.add_argument(
        "--evaluations",
        type=integer,
        default=200_000,
        metavar="N",
        help="hands per evaluator measurement",
    )
    parser.set_defaults(run=_command_bench)
