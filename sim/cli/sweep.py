"""``mjsim sweep``: play a base config over a grid of option values and compare the cells."""

from __future__ import annotations

import argparse
import json
import math
import shlex
import sys
import time
from pathlib import Path

from ..running import backends
from ..running.outdir import RUN, RUNS_FOLDER, partial_path, target_of
from ..studies.sweep import (
    ALPHA,
    CELL_NAME_BYTES,
    CELLS,
    COMPARISON,
    FIGURES,
    SIGNIFICANCE,
    SWEEP_JSON,
    load_sweep_spec,
    resumed_spec,
    run_sweep,
)
from ..variants import VARIANT_NAMES, get_variant
from . import estimate, integer, run_overrides
from .estimate import Work
from .examples import sweep_example
from .text import backend_options, display_width, pad, resume_hint

JOBS_DEFAULT = 1

TABLE_PATTERNS = 3
"""Patterns shown in the printed table (comparison.csv has more)."""


def _missing(value) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def _rate(value, lo, hi) -> str:
    """A share as percent with its interval: ``26.1 (24.9–27.3)``."""
    if _missing(value):
        return "–"
    digits = 1 if 100 * value >= 10 else 2
    if _missing(lo) or _missing(hi):
        return f"{100 * value:.{digits}f}"
    return f"{100 * value:.{digits}f} ({100 * lo:.{digits}f}–{100 * hi:.{digits}f})"


def _mean(value, lo, hi, sign: bool = False) -> str:
    """A mean with its interval: ``+0.41 ±0.52``, or ``1.20 (0.00–2.61)`` when it is not
    symmetric (an interval cut at 0)."""
    if _missing(value):
        return "–"
    text = f"{value:+.2f}" if sign else f"{value:.2f}"
    if _missing(lo) or _missing(hi):
        return text
    above, below = hi - value, value - lo
    if abs(above - below) <= 1e-9 * max(1.0, abs(value)):
        return f"{text} ±{above:.2f}"
    low, high = (f"{lo:+.2f}", f"{hi:+.2f}") if sign else (f"{lo:.2f}", f"{hi:.2f}")
    return f"{text} ({low}–{high})"


def _value_text(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(_value_text(v) for v in value) + "]"
    return str(value)


def _render(title: str, header: list[str], rows: list[list[str]], numeric_from: int) -> list[str]:
    widths = [max(display_width(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = [title]
    for row in [header, *rows]:
        cells = [pad(text, widths[i], right=i >= numeric_from) for i, text in enumerate(row)]
        lines.append("  " + "  ".join(cells).rstrip())
    return lines


def _points_title(variant_name: str | None, sources: list[str]) -> str:
    """The title of the points table: what each source is, as far as labels say."""
    labels = {}
    if variant_name in VARIANT_NAMES:
        labels = get_variant(variant_name).metric_labels
    said = ["pattern: base points × payers"]
    said += [
        f"{source}: {labels[f'points_{source}']}"
        for source in sources
        if f"points_{source}" in labels
    ]
    return f"points per hand ({'; '.join(said)})"


def _same_everywhere(table, column: str) -> bool:
    """The estimate and interval of ``column`` are equal in every cell."""
    return all(
        table[c].nunique(dropna=False) == 1 for c in (column, f"{column}_lo", f"{column}_hi")
    )


def table_lines(directory: Path) -> list[str]:
    """The comparison tables ``mjsim sweep`` prints, read back from the sweep directory's
    ``sweep.json``, ``comparison.csv`` and ``significance.csv``."""
    import pandas as pd

    spec = json.loads((directory / SWEEP_JSON).read_text(encoding="utf-8"))
    table = pd.read_csv(directory / COMPARISON, dtype={"cell": str}).set_index("cell")
    significance = pd.read_csv(directory / SIGNIFICANCE, dtype={"run": str, "metric": str})
    significant = {
        (row.metric, row.run): bool(row.significant) for row in significance.itertuples()
    }
    axes = list(spec["axes"])
    baseline = spec.get("baseline")
    cells = spec["cells"]

    def mark(metric: str | None, cell: str) -> str:
        if cell == baseline or metric is None:
            return " "
        return "*" if significant.get((metric, cell)) else " "

    def block(title: str, columns: list[tuple[str, str, str | None, callable]]) -> list[str]:
        # A figure equal in every cell (the options change the payments, not the play) is said
        # once below the table instead of repeated on every row.
        same = [c for c in columns if len(cells) > 1 and _same_everywhere(table, c[1])]
        columns = [c for c in columns if c not in same]
        first = table.loc[cells[0]["name"]]
        note = [
            "  the same in every cell: "
            + "; ".join(
                f"{name} {formatter(first[column], first[f'{column}_lo'], first[f'{column}_hi'])}"
                for name, column, _, formatter in same
            )
        ]
        if not columns:
            return [title, *note]
        header = ["", *axes, *(name for name, _, _, _ in columns)]
        rows = []
        for cell in cells:
            name = cell["name"]
            line = table.loc[name]
            row = ["base" if name == baseline else ""]
            row += [_value_text(cell["options"].get(axis)) for axis in axes]
            for _, column, metric, formatter in columns:
                text = formatter(line[column], line[f"{column}_lo"], line[f"{column}_hi"])
                row.append(text + mark(metric, name))
            rows.append(row)
        return _render(title, header, rows, 1 + len(axes)) + (note if same else [])

    lines = []
    lines += block(
        "outcomes (95% intervals)",
        [
            ("draw rate %", "draw_rate", "draw_rate", _rate),
            ("dealer wins %", "dealer_win_rate", "dealer_win_rate", _rate),
            (
                "dealer advantage",
                "dealer_advantage",
                "dealer_advantage",
                lambda v, lo, hi: _mean(v, lo, hi, sign=True),
            ),
            ("mean |score|", "mean_abs_score", "mean_abs_score", _mean),
        ],
    )
    sources = [
        c.removeprefix("points_")
        for c in table.columns
        if c.startswith("points_") and not c.endswith(("_lo", "_hi"))
    ]
    columns = [(f"{s} points", f"points_{s}", f"points:{s}", _mean) for s in sources]
    columns += [
        (f"{s} % of points", f"share_{s}", None, _rate)
        for s in sources
        if s != "pattern" and f"share_{s}" in table.columns
    ]
    lines += ["", *block(_points_title(spec.get("variant"), sources), columns)]
    tiers = [
        c.removeprefix("tier_score_")
        for c in table.columns
        if c.startswith("tier_score_") and not c.endswith(("_lo", "_hi"))
    ]
    if tiers:
        columns = [(tier, f"tier_score_{tier}", f"tier_score:{tier}", _mean) for tier in tiers]
        lines += ["", *block("winners' score per hand by tier", columns)]
    patterns = [
        c.removeprefix("pattern_")
        for c in table.columns
        if c.startswith("pattern_") and not c.endswith(("_lo", "_hi"))
    ][:TABLE_PATTERNS]
    if patterns:
        columns = [(p, f"pattern_{p}", f"pattern:{p}", _rate) for p in patterns]
        lines += ["", *block("patterns (% of hands with one)", columns)]
    return lines


def _checked(args: argparse.Namespace):
    """The sweep spec (None when resuming) and the sweep directory the arguments name, every
    error before any output."""
    if args.resume is not None:
        given = [
            flag
            for flag, value in (
                (f"SWEEP.toml {args.sweep}", args.sweep),
                ("--games", args.games is not None),
                ("--seed", args.seed is not None),
                ("--set", args.set),
                ("--out", args.out),
            )
            if value
        ]
        if given:
            raise ValueError(
                f"--resume {args.resume}: {given[0]} is not allowed with it; a resumed sweep "
                "keeps the sweep file, cells and folder it was started with"
            )
        return None, target_of(args.resume)
    if args.sweep is None:
        raise ValueError("SWEEP.toml: missing; expected a sweep file, e.g. configs/sweeps/X.toml")
    spec = load_sweep_spec(args.sweep, run_overrides(args))  # every cell checked before output
    return spec, Path(args.out) if args.out else RUNS_FOLDER / spec.label


def _confirmed(spec, args: argparse.Namespace, backend) -> bool:
    """Whether to play the sweep: at once when it is small, else after its estimate
    (:func:`sim.cli.estimate.confirm`)."""
    from ..running.runner import plan_chunks

    chunks = sum(len(plan_chunks(cell.config)) for cell in spec.cells)
    workers = estimate.parallel(args.jobs, chunks, backend)
    work = [Work(cell.config, cell.config.games, workers) for cell in spec.cells]
    return estimate.confirm(work, "this sweep", args.yes)


def _kept_hands(partial: Path) -> int:
    """Hands an interrupted sweep in ``partial`` kept: its finished cells' and the finished
    chunks of the cells it stopped in (0 when there is no such sweep: its resume says so)."""
    from ..running.outdir import PARTIAL_SUFFIX, is_finished
    from ..running.runner import PARTS, kept_chunks, read_manifest

    cells = partial / CELLS
    if not cells.is_dir():
        return 0
    hands = 0
    for entry in cells.iterdir():
        if is_finished(entry, RUN):
            hands += read_manifest(entry)["counts"]["games"]
        elif entry.name.endswith(PARTIAL_SUFFIX):
            hands += sum(chunk["games"] for chunk in kept_chunks(entry / PARTS).values())
    return hands


def _played_text(spec, kept: int, seconds: float, jobs: int) -> str:
    """The sweep's size, and the hands played in this process (a resumed sweep's hands kept
    from before counted apart) with their time and speed."""
    first = spec.cells[0].config
    if all(cell.config.games == first.games for cell in spec.cells):
        size = f"{len(spec.cells)} cells × {first.games:,} hands"
    else:
        size = f"{len(spec.cells)} cells ({spec.total_games:,} hands)"
    played = spec.total_games - kept
    if played == 0:
        return f"{size}, all kept from before: none left to play ({seconds:.1f} s)"
    speed = f"{played / max(seconds, 1e-3):,.0f} hands/s, jobs {jobs}"
    if not kept:
        return f"{size} in {seconds:.1f} s ({speed})"
    return (
        f"{size}, {kept:,} hands of them kept from before: {played:,} played in {seconds:.1f} s "
        f"({speed})"
    )


def _command_sweep(args: argparse.Namespace) -> int:
    spec, out = _checked(args)
    backend = backends.from_arguments(args)
    if args.report:
        try:
            from ..report import write_report
        except ImportError:
            raise ValueError("--report: sim.report is not available in this version") from None
    if spec is not None and not _confirmed(spec, args, backend):
        return 1
    command = "mjsim " + " ".join(shlex.quote(a) for a in sys.argv[1:]) if sys.argv else None
    kept = _kept_hands(partial_path(out)) if args.resume is not None else 0
    start = time.perf_counter()
    try:
        run_sweep(
            spec,
            out,
            jobs=args.jobs,
            progress=False if args.quiet else None,
            command=command,
            resume=args.resume is not None,
            backend=backend,
        )
    except KeyboardInterrupt as error:
        if hasattr(error, "what_next"):
            options = backend_options(args, JOBS_DEFAULT)
            error.what_next = resume_hint(error.what_next, "mjsim sweep", out, options)
        raise
    seconds = time.perf_counter() - start
    spec = spec or resumed_spec(out)
    first = spec.cells[0].config
    document = json.loads((out / SWEEP_JSON).read_text(encoding="utf-8"))
    print(f"{spec.label}: {_played_text(spec, kept, seconds, args.jobs)} -> {out}")
    axes = " × ".join(f"{axis} ({len(values)})" for axis, values in spec.axes.items())
    print(f"  base {document['base']}, axes {axes}, seed {first.seed}")
    significance_rows = sum(1 for _ in (out / SIGNIFICANCE).open(encoding="utf-8")) - 1
    if spec.paired:
        how = "every cell plays the same walls, so cells are compared hand by hand (paired t)"
    else:
        how = (
            "cells play different walls (an axis changes the seed, hands or chunks), so they "
            "are compared as independent samples"
        )
    print(f"  {how}")
    if len(spec.cells) > 1:
        print(
            f"  base = baseline cell {spec.baseline}; * = differs from it (Holm-adjusted p < "
            f"{ALPHA:g} over {significance_rows} tests)"
        )
    print()
    print("\n".join(table_lines(out)))
    print()
    figures = document["files"]["figures"]
    print(f"  tables: {out / COMPARISON}, {out / SIGNIFICANCE}")
    print(f"  figures: {out / FIGURES}/ ({', '.join(Path(f).name for f in figures)})")
    print(f"  cells: {out}/cells/<cell>/ (run directories; mjsim report {out}/cells/<cell>)")
    if args.report:
        print(f"  report: {write_report(out)}")
    else:
        print(f"  report: mjsim report {out}")
    return 0


DESCRIPTION = """\
Play the base config of a sweep file once per cell of its grid of option values, every cell
on the same seed (so on the same walls: paired comparisons), and write a sweep directory:

  sweep.json          the grid, the cells, the baseline cell, the command
  cells/<cell>/       one run directory per cell (as mjsim run writes)
  comparison.csv      one row per cell: draw rate, dealer win rate, dealer advantage,
                      mean |score|, points per hand and share of points by source,
                      winners' score per hand by tier, top pattern rates; 95% intervals
  significance.csv    every cell against the baseline cell on those metrics: paired tests,
                      Holm-adjusted p-values, a significant flag
  figures/*.png       heat maps (2 axes) or line plots (1 axis, or 3 and more), pattern
                      frequencies of every cell, differences from the baseline

and print the comparison tables; * marks a significant difference from the baseline cell (the
cell with the base config's own values, else the first). Every cell's config is checked before
anything is played; errors are one line, and a failure leaves no output.
"""

EXAMPLE = """\
sweep file (configs/sweeps/*.toml; the grid is the product of the axes):
  label = "players-by-option"           # name of the sweep (default: the file's stem)
  base = "../NAME.toml"                 # base config, relative to the sweep file
  [run]                                 # optional: run settings changed in every cell
  games = 20000
  [options]                             # optional: options changed in every cell
  one_option = false
  [axes]                                # option or run setting -> values
  player_count = [4, 3]
  another_option = [1, 2, 4]

examples (configs/sweeps/ holds sweep files of every variant; docs/analysis.md explains them):
  mjsim sweep {sweep}
  mjsim sweep {sweep} --games 5000 --jobs 2 --out runs/small
  mjsim sweep {sweep} --set {option} --report
  mjsim sweep --resume runs/small --jobs 2   # finish a sweep stopped by Ctrl-C or a kill
  mjsim sweep {sweep} --games 5000000 --yes

A cell's folder is its values joined (cells/<name>/); a name longer than {name_bytes} bytes is the
cell's number and the start of it. Before work of more than {ask:,} hands, the hands, disk and
time are estimated and asked about (--yes: not asked).
"""


def _epilog() -> str:
    """The help's examples, on a sweep file of this checkout (:mod:`sim.cli.examples`)."""
    sweep, option = sweep_example()
    return EXAMPLE.format(
        sweep=sweep, option=option, name_bytes=CELL_NAME_BYTES, ask=estimate.ASK_ABOVE_HANDS
    )


def register(commands) -> None:
    """Add ``sweep`` to the ``mjsim`` sub-parser collection."""
    parser = commands.add_parser(
        "sweep",
        help="play a config over a grid of option values and compare the cells",
        description=DESCRIPTION,
        epilog=_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "sweep",
        metavar="SWEEP.toml",
        nargs="?",
        help=f"a sweep file, e.g. {sweep_example()[0]}",
    )
    parser.add_argument(
        "--games",
        type=integer,
        metavar="N",
        help="hands per cell (overrides run.games of the base and the sweep file), "
        "e.g. --games 5000",
    )
    parser.add_argument(
        "--seed",
        type=integer,
        metavar="S",
        help="root seed of every cell (overrides run.seed), e.g. --seed 7",
    )
    parser.add_argument(
        "--jobs",
        type=integer,
        default=JOBS_DEFAULT,
        metavar="J",
        help="engine threads (worker processes with --backend processes), -1 for one per core "
        f"(default {JOBS_DEFAULT}); results do not depend on it. "
        "Cells smaller than J chunks are played side by side, e.g. --jobs 2",
    )
    parser.add_argument(
        "--out",
        metavar="DIR",
        help="sweep directory to write (default runs/<label>); a previous sweep there is "
        "replaced, e.g. --out runs/my-sweep",
    )
    parser.add_argument(
        "--set",
        action="append",
        metavar="KEY=VALUE",
        help="change an option or run setting of the base in every cell (not an axis), e.g. "
        "--set OPTION=VALUE or --set run.hands_per_session=4 (repeatable)",
    )
    parser.add_argument(
        "--report",
        action="store_true",
        help="also write DIR/report.html (mjsim report DIR), e.g. --report",
    )
    parser.add_argument(
        "--resume",
        metavar="DIR",
        help="finish the interrupted sweep of DIR (kept in .DIR.partial beside it): finished "
        "cells are kept, interrupted ones finished, e.g. --resume runs/my-sweep",
    )
    backends.add_arguments(parser)
    estimate.add_argument(parser)
    parser.add_argument("--quiet", action="store_true", help="no progress bar, e.g. --quiet")
    parser.set_defaults(run=_command_sweep)
