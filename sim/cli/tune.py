"""``mjsim tune``: search an agent's parameters against a field on duplicate deals
(sim.studies.tune)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..running.backends import add_arguments, from_arguments
from ..running.config import load_config
from ..running.outdir import RUNS_FOLDER, partial_path, resolve_target, resumable_directory
from . import estimate, integer, run_overrides
from .estimate import Work
from .text import rounded, signed


def _checked(args: argparse.Namespace):
    """The settings, output directory and backend the arguments name, every error before any
    output."""
    from ..running.runner import n_workers
    from ..studies.tune import DEFAULT_DEALS, TUNE, check_directory, check_settings

    deals = DEFAULT_DEALS if args.deals is None else args.deals
    if deals < 1:
        raise ValueError(f"--deals: {deals}; expected a positive number of walls")
    n_workers(args.jobs)
    overrides = [*run_overrides(args), f"run.games={deals}"]
    config = load_config(args.config, overrides)
    holdout_deals = 4 * deals if args.holdout_deals is None else args.holdout_deals
    settings = check_settings(
        config,
        args.agent,
        args.field,
        args.trials,
        args.batch,
        holdout_deals,
        args.every_order,
        args.params,
    )
    out = Path(args.out) if args.out else RUNS_FOLDER / f"tune-{config.label}-{args.agent}"
    backend = from_arguments(args)
    # not the current directory, the runs folder, a run, ... (a finished study: next line)
    resolve_target(out, TUNE, replace=True)
    check_directory(out, settings, args.resume)
    return settings, out, backend


def result_lines(settings, best, frame) -> list[str]:
    """What ``mjsim tune`` prints at the end: the best parameters (to three significant digits;
    ``result.json`` has them whole) and their held-out result (never ``-0.00``)."""
    agent, reference = settings.agent, settings.field[0]
    row = frame[frame["agent"] == agent].iloc[0]
    shown = ", ".join(f"{name} = {rounded(value)}" for name, value in best.items())
    return [
        f"  best {agent}: {shown}",
        f"  held out ({settings.holdout_deals:,} fresh walls x {_seatings_shown(settings)}): "
        f"{agent} {signed(row['mean'])}/hand [{signed(row['lo'])}, {signed(row['hi'])}], "
        f"minus {reference} {signed(row['diff'])} [{signed(row['diff_lo'])}, "
        f"{signed(row['diff_hi'])}] (95% CI clustered by wall)",
    ]


def _confirmed(settings, args: argparse.Namespace, backend) -> bool:
    """Whether to play the study: at once when it is small, else after its estimate
    (:func:`sim.cli.estimate.confirm`): every trial plays each seating on the config's walls
    (in memory, ``--batch`` trials at once), then the held-out walls are played into DIR. The
    agent's default parameters stand for the ones the trials try."""
    from ..running.runner import plan_chunks
    from ..studies.compare import seated_configs

    config, agents = settings.config, (settings.agent, *settings.field)
    fresh = config.with_overrides([f"run.games={settings.holdout_deals}"])
    trials = estimate.parallel(args.jobs, settings.batch, backend)
    held_out = estimate.parallel(args.jobs, len(plan_chunks(fresh)), backend)
    work = [
        Work(seated, settings.trials * seated.games, trials, written=False)
        for seated in seated_configs(config, agents, orders=settings.every_order)
    ]
    work += [
        Work(seated, seated.games, held_out)
        for seated in seated_configs(fresh, agents, orders=settings.every_order)
    ]
    return estimate.confirm(work, "this study", args.yes)


def _seatings_shown(settings) -> str:
    """How the seatings a trial plays are named: ``4 rotations`` or ``24 seatings``."""
    count = len(settings.seatings)
    return f"{count} seatings" if settings.every_order else f"{count} rotations"


def _command_tune(args: argparse.Namespace) -> int:
    from ..studies.tune import STUDY_FILE, TUNE

    settings, out, backend = _checked(args)
    if not _confirmed(settings, args, backend):
        return 1
    config = settings.config
    print(
        f"{config.label}: tuning {settings.agent} against {', '.join(settings.field)}, "
        f"{settings.trials} trials of {config.games:,} walls x {_seatings_shown(settings)} "
        f"(seed {config.seed}, batches of {settings.batch}) -> {out}",
        flush=True,
    )
    # the safe output directory of sim.running.outdir: built in .NAME.partial beside --out (kept by
    # an interrupt once it holds a study, for --resume), renamed into place when complete; a
    # finished study resumed for more trials is copied there first (reopen)
    try:
        with resumable_directory(
            out,
            TUNE,
            resume=args.resume,
            replace=False,
            reopen=True,
            worth_keeping=lambda partial: (partial / STUDY_FILE).exists(),
        ) as building:
            _tune_into(building, settings, args, backend)
    except KeyboardInterrupt as error:
        if (partial_path(out.resolve()) / STUDY_FILE).exists():
            error.what_next = (
                f"the study is kept in {partial_path(out)}; continue it with the same command "
                "and --resume"
            )
        raise
    print(f"  files: {out}/result.json, trials.csv, holdout.csv, tune.png; study {out}/study.db")
    sys.stdout.flush()
    return 0


def _tune_into(out: Path, settings, args: argparse.Namespace, backend) -> None:
    """The study, its figure and the held-out evaluation, written into ``out`` (the building
    directory), which is marked complete at the end."""
    from ..studies.tune import (
        holdout,
        importances,
        mark_complete,
        plot_study,
        run_study,
        trials_frame,
    )

    study = run_study(
        settings,
        out,
        jobs=args.jobs,
        resume=args.resume,
        backend=backend,
        say=lambda line: print(line, flush=True),
    )
    frame = trials_frame(study)
    frame.to_csv(out / "trials.csv", index=False)
    weights = importances(study)
    title = f"{settings.agent} vs {', '.join(settings.field)}"
    plot_study(frame, weights, title).savefig(out / "tune.png", dpi=120)
    best = dict(study.best_trial.params)
    print(
        f"  held-out evaluation of trial {study.best_trial.number} on fresh walls ...", flush=True
    )
    result = holdout(
        settings,
        best,
        out / "holdout",
        jobs=args.jobs,
        progress=None if not args.quiet else False,
        backend=backend,
    )
    result.to_csv(out / "holdout.csv", index=False)
    row = result[result["agent"] == settings.agent].iloc[0]
    document = {
        "agent": settings.agent,
        "field": list(settings.field),
        "best_trial": study.best_trial.number,
        "best_value": study.best_trial.value,
        "every_order": settings.every_order,
        "searched": list(settings.searched),
        "parameters": best,
        "importances": weights,
        "holdout": {
            "deals": settings.holdout_deals,
            "mean": float(row["mean"]),
            "lo": float(row["lo"]),
            "hi": float(row["hi"]),
            "diff": float(row["diff"]),
            "diff_lo": float(row["diff_lo"]),
            "diff_hi": float(row["diff_hi"]),
            "versus": settings.field[0],
        },
    }
    (out / "result.json").write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    mark_complete(out)
    print("\n".join(result_lines(settings, best, result)))


def register(commands) -> None:
    """Add ``tune`` to the ``mjsim`` sub-parser collection."""
    parser = commands.add_parser(
        "tune",
        help="search an agent's parameters against a field",
        description=(
            "Search an agent's parameters (their declared ranges) for the best mean score per\n"
            "hand against a field of agents, with Optuna's seeded TPE sampler. Every trial\n"
            "plays the same walls once per rotation of the agents (duplicate deals); trials\n"
            "run --batch at a time in parallel on the runner's workers; the study is saved in\n"
            "DIR/study.db (--resume continues it). The best parameters then play fresh walls\n"
            "against the field, with a 95% interval clustered by wall. Same command, same\n"
            "study, for any --jobs or backend."
        ),
        epilog=(
            "example:\n"
            "  mjsim tune configs/anhua-seven-kings.toml --agent value --field efficiency "
            "--trials 40 --deals 2000 --jobs 2"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("config", metavar="CONFIG", help="a config file, e.g. configs/anqing.toml")
    parser.add_argument("--agent", required=True, metavar="A", help="the agent tuned")
    parser.add_argument(
        "--field",
        required=True,
        metavar="B,...",
        help="the agents it plays against, comma-separated; the first is the one the held-out "
        "difference is taken from",
    )
    parser.add_argument(
        "--trials", type=integer, default=30, metavar="N", help="trials to run (default 30)"
    )
    parser.add_argument(
        "--deals",
        type=integer,
        metavar="N",
        help="walls every trial plays, once per rotation (default 1000; overrides run.games)",
    )
    parser.add_argument(
        "--holdout-deals",
        type=integer,
        metavar="N",
        help="fresh walls of the held-out evaluation (default 4 x --deals)",
    )
    parser.add_argument(
        "--batch",
        type=integer,
        default=4,
        metavar="B",
        help="trials asked at once and played in parallel (default 4; the study depends on "
        "it, not on --jobs)",
    )
    parser.add_argument("--seed", type=integer, metavar="S", help="root seed (overrides run.seed)")
    parser.add_argument(
        "--jobs", type=integer, default=1, metavar="J", help="worker processes (default 1)"
    )
    add_arguments(parser)
    estimate.add_argument(parser)
    parser.add_argument(
        "--out", metavar="DIR", help="study directory (default runs/tune-<label>-<agent>)"
    )
    parser.add_argument("--resume", action="store_true", help="continue the study in --out")
    parser.add_argument(
        "--every-order",
        action="store_true",
        help="play every order of the agents around the table, each rotated, in every trial "
        "and the held-out evaluation (as mjsim compare --every-order; needs two or more field "
        "agents)",
    )
    parser.add_argument(
        "--params",
        metavar="P,...",
        help="the parameters to search, comma-separated (default: all of the agent's); the "
        "others play at their defaults",
    )
    parser.add_argument(
        "--set", action="append", metavar="KEY=VALUE", help="override an option (repeatable)"
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(run=_command_tune, games=None)
