"""The report of a sweep: its cells side by side, figures over the swept options, and each cell
against the baseline cell with Holm-adjusted tests. Every cell gets its own run report too,
linked both ways.
"""

from __future__ import annotations

import hashlib
import os
import shlex
from pathlib import Path
from urllib.parse import quote

import numpy as np
import pandas as pd

from .. import analysis
from .formatting import Html, esc, fmt_count, fmt_interval, fmt_num, fmt_p, fmt_pct, value_text
from .labels import VariantLabels, variant_labels
from .markup import code, facts, link, paragraph, table
from .page import REPORT_NAME, Figure, page, plots, render, write
from .run_report import ALPHA, CONFIDENCE, how_to_read, write_run_report

SWEEP_METRICS = ("draw_rate", "dealer_win_rate", "mean_abs_score", "dealer_advantage")
METRIC_LABELS = {
    "draw_rate": "draw rate 荒庄率",
    "dealer_win_rate": "dealer win rate 庄家胡牌率",
    "mean_abs_score": "mean |score| of a seat",
    "dealer_advantage": "dealer advantage 庄家优势",
}
FIGURE_CELLS = 8
"""Beyond this many cells besides the baseline, the comparison figure shows only the cells one
option away from the baseline."""
HOW_TO_READ_SWEEP = (
    "Sweep: the cells differ only in the swept options. A difference is worth acting on when it "
    "is significant after the adjustment and large enough to matter at the table; a "
    "non-significant difference means these hands cannot tell, not that there is none."
)


# --------------------------------------------------------------------------- metrics


def _metric_label(metric: str, labels: VariantLabels) -> str:
    name, _, argument = metric.partition(":")
    if name == "points":
        return labels.points_source(argument) + " per hand"
    if name == "pattern":
        return f"hands with {argument}"
    return METRIC_LABELS.get(metric, metric)


def _is_rate(metric: str) -> bool:
    return metric in ("draw_rate", "dealer_win_rate") or metric.startswith(
        ("pattern:", "pattern_", "tier:", "win_kind:")
    )


def _metric_text(metric: str, value, lo=None, hi=None, sign: bool = False) -> str:
    formatter = fmt_pct if _is_rate(metric) else fmt_num
    text = formatter(value, sign=sign)
    if lo is not None:
        text += " " + fmt_interval(lo, hi, formatter, sign=sign)
    return text


def _columns_named(table_frame: pd.DataFrame, prefix: str) -> list[str]:
    """The estimates ``<prefix><name>`` of the sweep table (not their ``_lo``/``_hi``)."""
    return [
        c.removeprefix(prefix)
        for c in table_frame.columns
        if c.startswith(prefix) and not c.endswith(("_lo", "_hi"))
    ]


# --------------------------------------------------------------------------- cells


def _baseline(sweep: analysis.Sweep, baseline: str | None) -> str:
    names = list(sweep.runs)
    chosen = baseline or sweep.spec.get("baseline") or names[0]
    if chosen not in sweep.runs:
        raise ValueError(f"no sweep cell named {chosen!r}; cells: {', '.join(names)}")
    return chosen


def _shares_walls(sweep: analysis.Sweep) -> bool:
    """Cells played on the same walls: one seed in every manifest and the same hand numbers
    (unless ``sweep.json`` says ``"paired": false``)."""
    if sweep.spec.get("paired") is False:
        return False
    runs = list(sweep.runs.values())
    seeds = {str((run.manifest.get("run") or {}).get("seed")) for run in runs}
    if len(seeds) != 1 or "None" in seeds:
        return False
    first = _hand_digest(runs[0])
    return all(_hand_digest(run) == first for run in runs[1:])


def _hand_digest(run) -> tuple[int, str]:
    """The number of hands and a digest of their numbers in order, read batch by batch: two
    runs with the same digest have the same hand numbers (whatever their batches)."""
    digest, hands = hashlib.sha256(), 0
    for part in analysis.batches(run, games=[], wins=[]):
        numbers = part.games["game"].to_numpy(dtype=np.int64)
        digest.update(numbers.tobytes())
        hands += len(numbers)
    return hands, digest.hexdigest()


def _hands(run) -> int:
    """The hands of a cell, stored (from the tables' metadata) or in memory."""
    return run.hands if isinstance(run, analysis.StoredRun) else len(run.games)


def _cell_href(sweep_dir: Path, run: analysis.Run) -> str:
    relative = Path(os.path.relpath(run.path, sweep_dir)) if run.path else Path(".")
    return quote((relative / REPORT_NAME).as_posix())


def _outcome_row(row, cell: Html, options: list[str]) -> list:
    return [
        cell,
        *options,
        fmt_count(row["hands"]),
        *(
            _metric_text(m, row[m], row[f"{m}_lo"], row[f"{m}_hi"])
            for m in ("draw_rate", "dealer_win_rate", "mean_abs_score")
        ),
        _metric_text(
            "dealer_advantage",
            row["dealer_advantage"],
            row["dealer_advantage_lo"],
            row["dealer_advantage_hi"],
            sign=True,
        ),
        fmt_p(row["dealer_advantage_p"]),
    ]


def _points_row(row, cell: Html, options: list[str], sources, patterns) -> list:
    return [
        cell,
        *options,
        *(
            _metric_text(
                f"points:{s}", row[f"points_{s}"], row[f"points_{s}_lo"], row[f"points_{s}_hi"]
            )
            for s in sources
        ),
        *(
            _metric_text(
                f"pattern:{p}",
                row[f"pattern_{p}"],
                row[f"pattern_{p}_lo"],
                row[f"pattern_{p}_hi"],
            )
            for p in patterns
        ),
    ]


def _sweep_tables(
    sweep: analysis.Sweep, frame: pd.DataFrame, hrefs: dict[str, str], labels: VariantLabels
) -> list:
    axes = list(sweep.axes)
    sources = _columns_named(frame, "points_")
    patterns = _columns_named(frame, "pattern_")
    outcome_rows, point_rows = [], []
    for _, row in frame.iterrows():
        cell = link(hrefs[row["cell"]], row["cell"])
        options = [value_text(row[a]) for a in axes]
        outcome_rows.append(_outcome_row(row, cell, options))
        point_rows.append(_points_row(row, cell, options, sources, patterns))
    outcome = table(
        [
            "cell",
            *axes,
            "hands",
            "draw rate [95% interval]",
            "dealer win rate",
            "mean |score| of a seat",
            "dealer advantage (points per hand)",
            "p (dealer adv.)",
        ],
        outcome_rows,
        "l" + "l" * len(axes) + "rrrrrr",
        "sweep-outcomes",
    )
    points = table(
        [
            "cell",
            *axes,
            *(labels.points_source(s) + " per hand" for s in sources),
            *(f"hands with {p}" for p in patterns),
        ],
        point_rows,
        "l" + "l" * len(axes) + "r" * (len(sources) + len(patterns)),
        "sweep-points",
    )
    return [
        "One row per cell with 95% intervals; each cell's name links to its own report.",
        *_unchanged_text(frame, labels),
        outcome,
        Html("<h3>Points and the most frequent patterns</h3>"),
        points,
    ]


def _unchanged_text(frame: pd.DataFrame, labels: VariantLabels) -> list:
    """A note naming the metrics that are the same in every cell, if there are any."""
    unchanged = analysis.unchanged_metrics(frame)
    if len(frame) < 2 or not unchanged:
        return []
    first = frame.iloc[0]
    named = []
    for column in unchanged:
        metric = column
        if column.startswith(("points_", "pattern_")):
            prefix, _, name = column.partition("_")
            metric = f"{'points' if prefix == 'points' else 'pattern'}:{name}"
        value = _metric_text(metric, first[column], first[f"{column}_lo"], first[f"{column}_hi"])
        named.append(f"{_metric_label(metric, labels)} {value}")
    return [
        paragraph(
            "The same in every cell: " + "; ".join(named) + ". The swept options do not change "
            "these: cells on the same walls whose options only change the payments play every "
            "hand alike (the agents do not look at those options).",
            "note",
        )
    ]


# --------------------------------------------------------------------------- figures


def _axis_label(axis: str, labels: VariantLabels) -> str:
    """``ben_ji 本鸡``: the option and the first Chinese rule name of its title."""
    name = labels.option_titles.get(axis, "").partition(" — ")[0].split(" / ")[0].strip()
    return f"{axis} {name}" if name and not name.isascii() else axis


def _effects_figure(
    sweep: analysis.Sweep, frame: pd.DataFrame, labels: VariantLabels
) -> Figure | None:
    """Main effects of the options on the score metrics and the points sources they move."""
    unchanged = set(analysis.unchanged_metrics(frame))
    columns = ["mean_abs_score", "dealer_advantage"]
    columns += [f"points_{s}" for s in _columns_named(frame, "points_")]
    columns = [c for c in columns if c not in unchanged]
    if not columns:
        return None
    metrics = [f"points:{c.removeprefix('points_')}" if c.startswith("points_") else c
               for c in columns]  # fmt: skip
    effects = analysis.option_effects(sweep, metrics, CONFIDENCE)
    metric_labels = {f"points_{s}": labels.points_source(s) + " per hand"
                     for s in _columns_named(frame, "points_")}  # fmt: skip
    return render(
        plots().plot_option_effects(
            effects, metric_labels, {a: _axis_label(a, labels) for a in sweep.axes}
        ),
        "sweep_effects.png",
        "Effect of each option: for every value, the metric averaged over all the cells with "
        "that value (every setting of the other options) minus the same average at the "
        "option's first value (hollow marker), with 95% intervals"
        + (" (paired over hands: the cells share their walls)." if _shares_walls(sweep) else ".")
        + " Metrics the options leave unchanged are not drawn.",
    )


def _sweep_figures(
    sweep: analysis.Sweep, frame: pd.DataFrame, labels: VariantLabels
) -> tuple[list, list[Figure]]:
    axes = list(sweep.axes)
    unchanged = set(analysis.unchanged_metrics(frame))
    moved = [m for m in SWEEP_METRICS if m not in unchanged]
    figures = []
    if len(axes) >= 2:
        effects = _effects_figure(sweep, frame, labels)
        figures += [effects] if effects else []
    if len(axes) == 2:
        for metric in moved:
            figures.append(
                render(
                    plots().plot_sweep_heatmap(frame, metric, x=axes[0], y=axes[1]),
                    f"sweep_heatmap_{metric}.png",
                    f"{METRIC_LABELS[metric]} over {axes[0]} × {axes[1]}, each cell with its "
                    "value and 95% interval.",
                )
            )
    if 1 <= len(axes) <= 2 and moved:
        figures.append(
            render(
                plots().plot_sweep_lines(frame, moved, x=axes[0]),
                "sweep_lines.png",
                f"The main metrics against {axes[0]}"
                + (f", one line per value of {axes[1]}" if len(axes) == 2 else "")
                + ", with 95% intervals.",
            )
        )
    if not figures:
        return ["No metric drawn here differs between the cells — see the tables."], []
    return [figure.html() for figure in figures], figures


# --------------------------------------------------------------------------- comparison


def _comparison_table(frame: pd.DataFrame, labels: VariantLabels) -> Html:
    rows, classes = [], []
    for _, row in frame.iterrows():
        metric = row["metric"]
        rows.append(
            [
                _metric_label(metric, labels),
                row["run"],
                row["changed"] or "–",
                _metric_text(metric, row["estimate"]),
                _metric_text(metric, row["baseline_estimate"]),
                _metric_text(metric, row["difference"], row["diff_lo"], row["diff_hi"], True),
                row["test"],
                fmt_p(row["p_value"]),
                fmt_p(row["p_adjusted"]),
                "yes" if row["significant"] else "no",
            ]
        )
        classes.append("significant" if row["significant"] else "")
    columns = [
        "metric",
        "cell",
        "changed options",
        "cell value",
        "baseline value",
        "difference [95% interval]",
        "test",
        "p",
        "p adjusted",
        "significant",
    ]
    return table(columns, rows, "lllrrrlrrl", "comparison", classes)


def _comparison(
    sweep: analysis.Sweep, sweep_frame: pd.DataFrame, baseline: str, labels: VariantLabels
) -> tuple[list, list[Figure]]:
    paired = _shares_walls(sweep)
    unchanged = set(analysis.unchanged_metrics(sweep_frame))
    metrics = [
        *(m for m in SWEEP_METRICS if m not in unchanged),
        *(f"points:{s}" for s in _columns_named(sweep_frame, "points_")
          if f"points_{s}" not in unchanged),
        *(f"pattern:{p}" for p in _columns_named(sweep_frame, "pattern_")
          if f"pattern_{p}" not in unchanged),
    ]  # fmt: skip
    if not metrics:
        return ["No metric differs between the cells: there is nothing to compare."], []
    frame = analysis.compare_runs(
        sweep, metrics, baseline=baseline, alpha=ALPHA, correction="holm", paired=paired
    )
    test = (
        "The cells share their walls (one seed, the same hand numbers), so each cell is "
        "compared with the baseline hand by hand (paired t-test on per-hand values, 0/1 for "
        "shares), which cancels the luck of the deal."
        if paired
        else "Cells are compared as independent samples (two-proportion z-test for shares, "
        "Welch's t-test for means)."
    )
    drawn, which = frame, ""
    if len(sweep.runs) - 1 > FIGURE_CELLS:  # a figure of every cell would be metres tall
        chosen = sweep.one_change_cells(baseline)
        drawn = frame[frame["run"].isin(chosen)]
        which = (
            f" The figure shows the {len(chosen)} cells that differ from it in one option; "
            "the table has every cell."
        )
    figure = render(
        plots().plot_comparison(drawn),
        "sweep_comparison.png",
        f"Difference of each cell from {baseline} with its 95% interval; red: significant "
        f"after Holm's adjustment.{which}",
    )
    parts = [
        f"Each cell against the baseline cell {baseline}. {test} p-values are adjusted with "
        f"Holm's method over all {len(frame)} rows; significant = adjusted p < {ALPHA}. "
        f"Intervals are 95% and not adjusted.{which}",
        _comparison_table(frame, labels),
        figure.html(),
    ]
    return parts, [figure]


# --------------------------------------------------------------------------- the page


def _sweep_section(
    sweep: analysis.Sweep, shown_path: str, label: str, base: str, hrefs, labels: VariantLabels
) -> list:
    hands = sorted({_hands(run) for run in sweep.runs.values()})
    seeds = sorted({str((r.manifest.get("run") or {}).get("seed")) for r in sweep.runs.values()})
    rows = [
        ("label", label),
        ("variant", labels.title),
        ("base config", sweep.spec.get("base")),
        ("cells", len(sweep.runs)),
        ("hands per cell", ", ".join(f"{h:,}" for h in hands)),
        ("seed", ", ".join(seeds)),
        ("baseline cell", link(hrefs[base], base)),
        ("sweep command", code(sweep.spec["command"]) if sweep.spec.get("command") else None),
        ("report command", code(f"mjsim report {shlex.quote(shown_path)}")),
    ]
    axes_table = table(
        ["option", "rule 规则", "values"],
        [[a, labels.option_titles.get(a, ""), value_text(v)] for a, v in sweep.axes.items()],
        table_id="axes",
    )
    cell_links = "".join(f"<li>{link(hrefs[name], name)}</li>" for name in sweep.runs)
    return [
        facts(rows, "sweep-facts"),
        Html("<h3>Swept options</h3>"),
        axes_table,
        Html("<h3>Cell reports</h3>"),
        Html(f'<ul id="cell-reports">{cell_links}</ul>'),
    ]


def build_sweep_report(
    sweep: analysis.Sweep, shown_path: str, baseline: str | None = None
) -> tuple[str, list[Figure], dict[str, str]]:
    """The HTML text of a sweep's report, its figures and the link to each cell's report."""
    if not sweep.runs:
        raise ValueError(f"{shown_path}: the sweep has no cells")
    sweep_dir = sweep.path or Path(shown_path)
    label = sweep.spec.get("label") or sweep_dir.name
    hrefs = {name: _cell_href(sweep_dir, run) for name, run in sweep.runs.items()}
    frame = analysis.sweep_table(sweep, top_patterns=3, confidence=CONFIDENCE)
    base = _baseline(sweep, baseline)
    labels = variant_labels(next(iter(sweep.runs.values())).manifest.get("variant"))
    figure_parts, figures = _sweep_figures(sweep, frame, labels)
    comparison, comparison_figures = _comparison(sweep, frame, base, labels)
    sections = [
        ("sweep", "Sweep 扫描", _sweep_section(sweep, shown_path, label, base, hrefs, labels)),
        ("table", "Cells 各组", _sweep_tables(sweep, frame, hrefs, labels)),
        ("figures", "Figures 图", figure_parts),
        ("comparison", "Differences from the baseline 对比", comparison),
        ("how-to-read", "How to read this", how_to_read([HOW_TO_READ_SWEEP])),
    ]
    heading = Html(f"<h1>{esc(label)} <small>sweep · {len(sweep.runs)} cells</small></h1>")
    document = page(f"{label} — mjsim sweep report", heading, sections)
    return document, [*figures, *comparison_figures], hrefs


def write_sweep_report(
    path: str | Path, baseline: str | None = None, into: Path | None = None
) -> Path:
    """Write the report of every cell, then the sweep's ``report.html`` and ``figures/``: into
    the sweep's directory and its cells', or into the folder ``into``, each cell's report
    under the cell's path relative to the sweep (the links between them are relative)."""
    directory = Path(path)
    sweep = analysis.load_sweep(directory, lazy=True)
    document, figures, _ = build_sweep_report(sweep, str(path), baseline)
    label = sweep.spec.get("label") or directory.name
    for run in sweep.runs.values():
        relative = Path(os.path.relpath(run.path, directory))
        if into is not None and ".." in relative.parts:
            raise ValueError(
                f"{run.path}: a cell outside the sweep directory has no place in a report "
                "written elsewhere (--out); report the sweep without --out"
            )
        back = quote(Path(os.path.relpath(directory, run.path)).as_posix() + "/" + REPORT_NAME)
        cell_into = None if into is None else into / relative
        write_run_report(run.path, parent=(label, back), run=run, into=cell_into)
    return write(into if into is not None else directory, document, figures)
