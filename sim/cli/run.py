"""``mjsim run``: play a config into a run directory and print a short summary."""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from pathlib import Path

from ..running import backends
from ..running.config import load_config
from ..running.outdir import RUNS_FOLDER, target_of
from ..running.runner import config_of_run, read_manifest, run
from . import integer, run_overrides
from .text import display_width, pad, signed


def _percent(rate: float, low: float, high: float) -> str:
    return f"{100 * rate:.2f}% [{100 * low:.2f}, {100 * high:.2f}]"


class SummaryTables:
    """What the summary reads of a run, kept as the runner writes it (``run``'s ``on_table``):
    the summary's columns of each chunk's tables, so that :func:`summary_lines` need not read
    the files back. Kept only for a run of ``hands`` known hands that the summary would load
    whole (a longer one it reads batch by batch, in bounded memory: ``analysis.BATCH_ROWS``)."""

    def __init__(self, hands: int | None) -> None:
        self.hands = hands
        self.parts: dict[str, list] = {"games": [], "wins": []}

    def __call__(self, name: str, table) -> None:
        # imported here, not before the first hand: the first table comes after pandas (and
        # so the summary's modules are imported while the engine plays)
        from ..analysis.runs import BATCH_ROWS, REQUIRED_COLUMNS, SUMMARY_COLUMNS, _chosen_columns

        if self.hands is not None and self.hands <= BATCH_ROWS:
            wanted = [*REQUIRED_COLUMNS[name], *SUMMARY_COLUMNS[name]]
            self.parts[name].append(table.select(_chosen_columns(table.schema.names, wanted)))

    def run(self, path: Path):
        """The run of ``path`` (an ``analysis.Run`` of the summary's columns) from the tables
        kept, as ``load_run`` reads it from the files; None unless every chunk was kept."""
        import pyarrow as pa

        from .. import analysis

        manifest = read_manifest(path)
        games = self.parts["games"]
        if not games or len(games) != manifest.get("chunks"):
            return None
        if sum(table.num_rows for table in games) != manifest["counts"]["games"]:
            return None
        games, wins = (
            pa.concat_tables(self.parts[name]).to_pandas(split_blocks=True)
            for name in ("games", "wins")
        )
        return analysis.Run(manifest, games, wins, path)


def summary_lines(path: Path, kept: SummaryTables | None = None) -> list[str]:
    """The summary ``mjsim run`` prints, from the run directory (numbers from sim.analysis), or
    from the tables ``kept`` as the run wrote them: the same figures."""
    from .. import analysis
    from ..analysis.runs import SUMMARY_COLUMNS

    result = kept.run(path) if kept is not None else None
    if result is None:
        stored = analysis.open_run(path)
        # a long run batch by batch (bounded memory), a short one read once: the same figures
        big = stored.hands > stored.batch_rows
        result = stored if big else analysis.load_run(path, SUMMARY_COLUMNS)  # those columns
    lines = []
    draws = analysis.draw_rate(result).iloc[0]
    lines.append(f"  exhaustive draws (荒庄)  {_percent(draws['rate'], draws['lo'], draws['hi'])}")
    kinds = analysis.win_kinds(result)
    shown = [f"{row.win_kind} {100 * row.rate:.2f}%" for row in kinds.itertuples() if row.hands > 0]
    lines.append(f"  win kinds (per hand)    {', '.join(shown)}")
    seats = analysis.win_rate_by_seat(result)
    dealer = seats[seats["role"] == "dealer"].iloc[0]
    other = seats[seats["role"] == "non_dealer"].iloc[0]
    lines.append(
        f"  dealer wins             {_percent(dealer['rate'], dealer['lo'], dealer['hi'])} "
        f"of hands; a non-dealer seat {_percent(other['rate'], other['lo'], other['hi'])}"
    )
    advantage = analysis.dealer_advantage(result).set_index("role").loc["difference"]
    lines.append(
        f"  dealer advantage        {signed(advantage['mean'])} points per hand "
        f"[{signed(advantage['lo'])}, {signed(advantage['hi'])}] over a non-dealer seat"
    )
    patterns = analysis.pattern_frequency(result).head(5)
    lines.append("  top patterns (per hand, 95% Wilson interval, mean base points):")
    width = max([10, *(display_width(name) for name in patterns["pattern"])])
    for row in patterns.itertuples():
        lines.append(
            f"    {pad(row.pattern, width)} {_percent(row.rate, row.lo, row.hi):<26} "
            f"P={row.mean_points:.2f}"
        )
    scores = analysis.score_distribution(result)
    pooled = scores[scores["seat"].isna() & (scores["role"] == "all")].iloc[0]
    lines.append(
        f"  score per seat per hand mean |Δ| {pooled['mean_abs']:.2f}, "
        f"5%-95% [{pooled['q05']:g}, {pooled['q95']:g}], range [{pooled['min']:g}, "
        f"{pooled['max']:g}]"
    )
    return lines


def _checked(args: argparse.Namespace):
    """The config and the run directory the arguments name, every error before any output."""
    if args.resume is not None:
        given = [flag for flag, value in _config_flags(args) if value]
        if given:
            raise ValueError(
                f"--resume {args.resume}: {given[0]} is not allowed with it; a resumed run "
                "keeps the config, hands and folder it was started with"
            )
        return None, target_of(args.resume)
    if args.config is None:
        raise ValueError("CONFIG: missing; expected a config file, e.g. configs/NAME.toml")
    config = load_config(args.config, run_overrides(args))
    return config, Path(args.out) if args.out else RUNS_FOLDER / config.label


def _config_flags(args: argparse.Namespace) -> list[tuple[str, object]]:
    return [
        (f"CONFIG {args.config}", args.config),
        ("--games", args.games is not None),
        ("--seed", args.seed is not None),
        ("--set", args.set),
        ("--out", args.out),
    ]


def _command_run(args: argparse.Namespace) -> int:
    config, out = _checked(args)
    backend = backends.from_arguments(args)
    command = "mjsim " + " ".join(shlex.quote(a) for a in sys.argv[1:]) if sys.argv else None
    kept = SummaryTables(config.games if config else None)  # a resumed run reads its files
    start = time.perf_counter()
    run(
        config,
        out,
        jobs=args.jobs,
        progress=None if not args.quiet else False,
        command=command,
        resume=args.resume is not None,
        backend=backend,
        on_table=kept,
    )
    seconds = time.perf_counter() - start
    config = config or config_of_run(out)
    manifest = read_manifest(out)
    timings = manifest["timings"]
    played = config.games - manifest.get("resumed_games", 0)  # a resume plays only the rest
    warmup = timings["warmup_seconds"]
    compiled = f", {warmup:.0f} s of it compiling the engine" if warmup > 5 else ""
    print(
        f"{config.label}: {config.games:,} hands in {seconds:.1f} s{compiled} "
        f"({played / max(timings['play_seconds'], 1e-3):,.0f} hands/s playing, jobs {args.jobs}) "
        f"-> {out}"
    )
    agents = ", ".join(config.agents)
    print(f"  config hash {config.hash()[:16]}, seed {config.seed}, agents {agents}")
    print("\n".join(summary_lines(out, kept)))
    print(f"  tables: {out}/games.parquet, {out}/wins.parquet; report: mjsim report {out}")
    return 0


def register(commands) -> None:
    """Add ``run`` to the ``mjsim`` sub-parser collection."""
    parser = commands.add_parser(
        "run",
        help="play hands under a config and summarise them",
        description=(
            "Play the hands a config file describes (configs/*.toml) with the engine, write\n"
            "games.parquet, wins.parquet and manifest.json into a run directory, and print a\n"
            "summary with 95% intervals. Same seed and config give identical tables for any\n"
            "--jobs. Errors are one line and leave no output."
        ),
        epilog=(
            "examples (configs/ holds a config file per rule set, of every variant):\n"
            "  mjsim run configs/NAME.toml\n"
            "  mjsim run configs/NAME.toml --games 100000 --jobs 2 --out runs/big\n"
            "  mjsim run configs/NAME.toml --set OPTION=VALUE --set run.hands_per_session=4\n"
            "  mjsim run --resume runs/big          # finish a run stopped by Ctrl-C or a kill\n"
            "  mjsim run configs/NAME.toml --backend dask --scheduler tcp://HOST:8786"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "config", metavar="CONFIG", nargs="?", help="a config file, e.g. configs/NAME.toml"
    )
    parser.add_argument(
        "--games", type=integer, metavar="N", help="hands to play (overrides run.games)"
    )
    parser.add_argument("--seed", type=integer, metavar="S", help="root seed (overrides run.seed)")
    parser.add_argument(
        "--jobs",
        type=integer,
        default=1,
        metavar="J",
        help="engine threads (worker processes with --backend processes), -1 for one per core "
        "(default 1); results do not depend on it",
    )
    parser.add_argument(
        "--out",
        metavar="DIR",
        help="run directory to write (default runs/<label>); a previous run there is replaced",
    )
    parser.add_argument(
        "--set",
        action="append",
        metavar="KEY=VALUE",
        help="override an option or run setting, e.g. --set OPTION=VALUE or "
        "--set run.hands_per_session=4 (repeatable)",
    )
    parser.add_argument(
        "--resume",
        metavar="DIR",
        help="finish the interrupted run of DIR (its finished chunks are kept in .DIR.partial "
        "beside it); the tables equal those of an uninterrupted run",
    )
    backends.add_arguments(parser)
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(run=_command_run)
