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
from ..running.runner import config_of_run, plan_chunks, read_manifest, run
from . import estimate, integer, run_overrides
from .estimate import Work
from .examples import config_example
from .text import backend_options, display_width, pad, resume_hint, signed

JOBS_DEFAULT = 1


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


class PlayedHere:
    """``run``'s ``on_chunk``: the hands played in this process (a resumed run's chunks kept
    from before are not given to it)."""

    def __init__(self) -> None:
        self.hands = 0

    def __call__(self, result: dict) -> None:
        self.hands += result["games"]


def _command_run(args: argparse.Namespace) -> int:
    config, out = _checked(args)
    backend = backends.from_arguments(args)
    if config is not None:  # a resumed run was agreed to when it started
        chunks = len(plan_chunks(config))
        work = [Work(config, config.games, estimate.parallel(args.jobs, chunks, backend))]
        if not estimate.confirm(work, "this run", args.yes):
            return 1
    command = "mjsim " + " ".join(shlex.quote(a) for a in sys.argv[1:]) if sys.argv else None
    kept = SummaryTables(config.games if config else None)  # a resumed run reads its files
    played = PlayedHere()
    start = time.perf_counter()
    try:
        run(
            config,
            out,
            jobs=args.jobs,
            progress=None if not args.quiet else False,
            command=command,
            resume=args.resume is not None,
            backend=backend,
            on_table=kept,
            on_chunk=played,
        )
    except KeyboardInterrupt as error:
        if hasattr(error, "what_next"):
            options = backend_options(args, JOBS_DEFAULT)
            error.what_next = resume_hint(error.what_next, "mjsim run", out, options)
        raise
    seconds = time.perf_counter() - start
    config = config or config_of_run(out)
    manifest = read_manifest(out)
    played_text = _played_text(config, manifest, played.hands, seconds, args.jobs)
    print(f"{config.label}: {played_text} -> {out}")
    agents = ", ".join(config.agents)
    print(f"  config hash {config.hash()[:16]}, seed {config.seed}, agents {agents}")
    print("\n".join(summary_lines(out, kept)))
    print(f"  tables: {out}/games.parquet, {out}/wins.parquet; report: mjsim report {out}")
    return 0


def _played_text(config, manifest: dict, played: int, seconds: float, jobs: int) -> str:
    """What was played, how long it took and how fast: the hands played in this process over
    its playing seconds (a resumed run's chunks kept from before counted apart)."""
    kept = config.games - played
    if played == 0:
        return f"{config.games:,} hands, all kept from before: none left to play ({seconds:.1f} s)"
    timings = manifest["timings"]
    warmup = timings["warmup_seconds"]
    compiled = f", {warmup:.0f} s of it compiling the engine" if warmup > 5 else ""
    speed = f"{played / max(timings['play_seconds'], 1e-3):,.0f} hands/s playing, jobs {jobs}"
    if kept:
        return (
            f"{config.games:,} hands, {kept:,} of them kept from before: {played:,} played in "
            f"{seconds:.1f} s{compiled} ({speed})"
        )
    return f"{config.games:,} hands in {seconds:.1f} s{compiled} ({speed})"


def _epilog() -> str:
    """The help's examples, on a config file of this checkout (:mod:`sim.cli.examples`)."""
    config, option = config_example()
    return (
        "examples (configs/ holds a config file per rule set, of every variant):\n"
        f"  mjsim run {config}\n"
        f"  mjsim run {config} --games 100000 --jobs 2 --out runs/big\n"
        f"  mjsim run {config} --set {option}\n"
        "  mjsim run --resume runs/big --jobs 2  # finish a run stopped by Ctrl-C or a kill\n"
        f"  mjsim run {config} --games 20000000 --yes\n"
        f"  mjsim run {config} --backend dask --scheduler tcp://HOST:8786\n"
        f"Before work of more than {estimate.ASK_ABOVE_HANDS:,} hands, the hands, disk and time "
        "are estimated\nand asked about (--yes: not asked)."
    )


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
        epilog=_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "config",
        metavar="CONFIG",
        nargs="?",
        help=f"a config file, e.g. {config_example()[0]}",
    )
    parser.add_argument(
        "--games", type=integer, metavar="N", help="hands to play (overrides run.games)"
    )
    parser.add_argument("--seed", type=integer, metavar="S", help="root seed (overrides run.seed)")
    parser.add_argument(
        "--jobs",
        type=integer,
        default=JOBS_DEFAULT,
        metavar="J",
        help="engine threads (worker processes with --backend processes), -1 for one per core "
        f"(default {JOBS_DEFAULT}); results do not depend on it",
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
    estimate.add_argument(parser)
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(run=_command_run)
