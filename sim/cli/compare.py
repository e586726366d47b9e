"""``mjsim compare``: agents against each other on duplicate deals, the paired comparison."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..running import backends
from ..running.config import load_config
from ..running.outdir import RUNS_FOLDER
from . import estimate, integer, number, run_overrides
from .estimate import Work
from .text import display_width, pad, rounded, signed


def _checked(args: argparse.Namespace):
    """The config, agents and output directory the arguments name, every error before output."""
    from ..studies.compare import parse_agents

    if args.deals is not None and args.deals < 1:
        raise ValueError(f"--deals: {args.deals}; expected a positive number of walls")
    if args.session_hands is not None and args.session_hands < 1:
        raise ValueError(f"--session-hands: {args.session_hands}; expected a positive integer")
    if args.loss <= 0:
        raise ValueError(f"--loss: {args.loss:g}; expected a positive number of points")
    overrides = run_overrides(args)
    if args.deals is not None:
        overrides.append(f"run.games={args.deals}")
    config = load_config(args.config, overrides)
    agents = parse_agents(args.agents, config.n_players)
    out = Path(args.out) if args.out else RUNS_FOLDER / f"compare-{config.label}"
    return config, agents, out


def comparison_lines(frame, pairs, session_hands: int, loss: float) -> list[str]:
    """The table ``mjsim compare`` prints (one line per agent, then each pair): columns as wide
    as their widest text in terminal columns, means with their sign and two decimals (never
    ``-0.00``), rates in percent with one."""
    reference = frame["agent"].iloc[0]
    header = [
        "agent",
        "mean/hand",
        f"vs {reference} [95% CI by wall]",
        "win",
        "deal-in",
        "draw",
        "turns",
        "seat sd",
        f"P(lose {rounded(loss)} in {session_hands})",
    ]
    rows = [
        [
            row.agent,
            signed(row.mean),
            f"{signed(row.diff)} [{signed(row.diff_lo)}, {signed(row.diff_hi)}]",
            f"{100 * row.win_rate:.1f}%",
            f"{100 * row.deal_in_rate:.1f}%",
            f"{100 * row.draw_rate:.1f}%",
            f"{row.mean_turns:.1f}",
            f"{row.seat_sd:.1f}",
            f"{100 * row.p_session_loss:.1f}%",
        ]
        for row in frame.itertuples()
    ]
    widths = [max(display_width(line[i]) for line in [header, *rows]) for i in range(len(header))]
    left = {0, 2}  # the agent and the interval read from the left; numbers line up on the right
    lines = [
        "  " + "  ".join(pad(text, widths[i], right=i not in left) for i, text in enumerate(line))
        for line in [header, *rows]
    ]
    lines.append("  pairs (first minus second, mean score per hand, 95% CI clustered by wall):")
    for row in pairs.itertuples():
        mark = "" if row.excludes_zero else "  (interval includes 0)"
        lines.append(
            f"    {row.first} - {row.second}: {signed(row.diff)} "
            f"[{signed(row.lo)}, {signed(row.hi)}]{mark}"
        )
    return lines


def _confirmed(config, agents, args: argparse.Namespace, backend) -> bool:
    """Whether to play the comparison: at once when it is small, else after its estimate
    (:func:`sim.cli.estimate.confirm`): every seating plays the config's walls."""
    from ..running.runner import plan_chunks
    from ..studies.compare import seated_configs

    workers = estimate.parallel(args.jobs, len(plan_chunks(config)), backend)
    seated = seated_configs(config, agents, orders=args.every_order)
    work = [Work(seating, seating.games, workers) for seating in seated]
    return estimate.confirm(work, "this comparison", args.yes)


def _command_compare(args: argparse.Namespace) -> int:
    from ..analysis.duplicate import duplicate_comparison, load_comparison, paired_differences
    from ..studies.compare import compare

    config, agents, out = _checked(args)
    backend = backends.from_arguments(args)
    if not _confirmed(config, agents, args, backend):
        return 1
    compare(
        config,
        agents,
        out,
        jobs=args.jobs,
        orders=args.every_order,
        progress=None if not args.quiet else False,
        session_hands=args.session_hands,
        loss=args.loss,
        backend=backend,
    )
    settings, hands = load_comparison(out)
    frame = duplicate_comparison(hands, agents, settings["session_hands"], settings["loss"])
    pairs = paired_differences(hands, agents)
    frame.to_csv(out / "comparison.csv", index=False)
    pairs.to_csv(out / "pairs.csv", index=False)
    print(
        f"{config.label}: {config.games:,} walls x {len(settings['rotations'])} rotations of "
        f"{', '.join(agents)} (seed {config.seed}) -> {out}"
    )
    print("\n".join(comparison_lines(frame, pairs, settings["session_hands"], settings["loss"])))
    print(f"  tables: {out}/comparison.csv, {out}/pairs.csv; report: mjsim report {out}")
    return 0


def register(commands) -> None:
    """Add ``compare`` to the ``mjsim`` sub-parser collection."""
    parser = commands.add_parser(
        "compare",
        help="agents against each other on duplicate deals",
        description=(
            "Play the same walls once per rotation of the agents around the table (duplicate\n"
            "deals: the luck of the deal cancels), then print the paired comparison: mean score\n"
            "per hand and its difference from the first agent with 95% intervals clustered by\n"
            "wall, win, deal-in and draw rates, hand length, per-seat spread and the chance of\n"
            "losing --loss points over a session. Same seed, same results for any --jobs."
        ),
        epilog=(
            "example:\n"
            "  mjsim compare configs/anhua-seven-kings.toml "
            "--agents efficiency,value,cautious,random --deals 5000 --jobs 2"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("config", metavar="CONFIG", help="a config file, e.g. configs/anqing.toml")
    parser.add_argument(
        "--agents",
        required=True,
        metavar="A,B,...",
        help="the agents compared, comma-separated (2 to one per seat); the first is the reference",
    )
    parser.add_argument(
        "--deals", type=integer, metavar="N", help="walls to play (overrides run.games)"
    )
    parser.add_argument("--seed", type=integer, metavar="S", help="root seed (overrides run.seed)")
    parser.add_argument(
        "--jobs",
        type=integer,
        default=1,
        metavar="J",
        help="engine threads or worker processes, as --backend says (default 1)",
    )
    parser.add_argument(
        "--out", metavar="DIR", help="comparison directory (default runs/compare-<label>)"
    )
    parser.add_argument(
        "--set", action="append", metavar="KEY=VALUE", help="override an option (repeatable)"
    )
    parser.add_argument(
        "--every-order",
        action="store_true",
        help="play every order of the agents around the table, each rotated (a seat's "
        "neighbours matter where it claims from them: chi, 包)",
    )
    parser.add_argument(
        "--session-hands",
        type=integer,
        metavar="N",
        help="hands in a session for the chance of a loss (default: run.hands_per_session)",
    )
    parser.add_argument(
        "--loss",
        type=number,
        default=100.0,
        metavar="X",
        help="points lost over a session whose chance is shown (default 100)",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    backends.add_arguments(parser)
    estimate.add_argument(parser)
    parser.set_defaults(run=_command_compare, games=None)
