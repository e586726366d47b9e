"""Figures of the :mod:`sim.analysis` frames (matplotlib only). Each function takes the frame an
analysis function returns and gives back a :class:`matplotlib.figure.Figure`.

Figures are built on the non-interactive Agg canvas without pyplot, so they work on a machine
without a display, do not pile up in pyplot's figure list when a report makes hundreds, and still
show in Jupyter as the value of a cell. ``fig.savefig("x.png")`` writes them.

Chinese pattern names need a CJK font, which many machines lack. Importing this module registers
the bundled subset of Noto Sans CJK SC (``sim/fonts``, SIL OFL 1.1) with matplotlib and appends
it to ``font.family`` as a fallback: Latin text keeps the default font, characters that font
lacks come from the bundled one. Call :func:`use_cjk_font` again after resetting rcParams.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path

import matplotlib as mpl
import numpy as np
import pandas as pd
from matplotlib import font_manager
from matplotlib.axes import Axes
from matplotlib.figure import Figure

FONT_FILE = Path(__file__).resolve().parent / "fonts" / "MjsimSansCJK-Regular.ttf"
FONT_FAMILY = "Mjsim Sans CJK"

ROLE_LABELS = {"all": "all seats 全体", "dealer": "dealer 庄家", "non_dealer": "non-dealer 闲家"}
TITLES = {
    "patterns": "Pattern frequency 牌型频率",
    "scores": "Score per hand 每局得分",
    "dealer": "Dealer advantage 庄家优势",
    "comparison": "Differences from the baseline 对比",
    "sweep": "Rule options 规则选项",
}
METRIC_LABELS = {
    "draw_rate": "draw rate 荒庄率",
    "dealer_win_rate": "dealer win rate 庄家胡牌率",
    "mean_abs_score": "mean |score| of a seat",
    "dealer_advantage": "dealer advantage 庄家优势",
    "dealer_score": "dealer score 庄家得分",
    "points_pattern": "pattern points 牌型分",
}
"""Labels of the generic metrics; a variant's entry adds those of its own (``metric_labels``),
which the figures take as ``metric_labels=``."""
RATE_METRICS = ("draw_rate", "dealer_win_rate", "pattern_", "pattern:", "tier:", "win_kind:")
CJK_LABELS = (*ROLE_LABELS.values(), *TITLES.values(), *METRIC_LABELS.values(), "局", "胡")
"""Every fixed label with Chinese text (the tests render them all)."""

TIER_PALETTE = ["#4C72B0", "#55A868", "#DD8452", "#C44E52", "#8172B3", "#937860", "#DA8BC3"]
"""Colours of tiers, lowest first, when no ``tier_colors`` (a variant's entry has them) are
given."""
ROLE_COLORS = {"dealer": "#C44E52", "non_dealer": "#4C72B0", "difference": "#333333"}
# seaborn's "deep" colours: ten, so that every points source of a variant (one has nine)
# gets a colour of its own in the sources figure
PALETTE = [
    "#4C72B0", "#DD8452", "#55A868", "#C44E52", "#8172B3",
    "#937860", "#DA8BC3", "#8C8C8C", "#CCB974", "#64B5CD",
]  # fmt: skip


def use_cjk_font() -> None:
    """Register the bundled CJK font and make it the fallback of ``font.family``."""
    if FONT_FAMILY not in {entry.name for entry in font_manager.fontManager.ttflist}:
        font_manager.fontManager.addfont(str(FONT_FILE))
    families = list(mpl.rcParams["font.family"])
    if FONT_FAMILY not in families:
        mpl.rcParams["font.family"] = [*families, FONT_FAMILY]


use_cjk_font()


def _figure(width: float, height: float, n_rows: int = 1, n_cols: int = 1, **kwargs):
    use_cjk_font()  # in case the caller reset rcParams since the import
    figure = Figure(figsize=(width, height), layout="constrained")
    axes = figure.subplots(n_rows, n_cols, squeeze=False, **kwargs)
    return figure, axes


def _ci_label(confidence: float = 0.95) -> str:
    return f"{confidence:.0%} interval"


def _runs(frame: pd.DataFrame) -> list:
    return list(pd.unique(frame["run"])) if "run" in frame.columns else [None]


def _errors(estimate, lo, hi) -> np.ndarray:
    estimate, lo, hi = (np.asarray(x, dtype=float) for x in (estimate, lo, hi))
    return np.vstack([np.clip(estimate - lo, 0, None), np.clip(hi - estimate, 0, None)])


def _tier_colors(frame: pd.DataFrame, tier_colors: Mapping[str, str] | None) -> dict[str, str]:
    """Tier -> colour, in tier order: ``tier_colors``, else :data:`TIER_PALETTE` over the
    frame's tiers ranked by their patterns' least mean points (the lowest tier first)."""
    if tier_colors is not None:
        return dict(tier_colors)
    if "tier" not in frame or "mean_points" not in frame:
        return {}
    tiers = frame.dropna(subset=["tier"]).assign(tier=lambda f: f["tier"].astype(str))
    ranked = tiers.groupby("tier")["mean_points"].min().sort_values(kind="stable").index
    return {tier: TIER_PALETTE[i % len(TIER_PALETTE)] for i, tier in enumerate(ranked)}


def plot_pattern_frequency(
    frame: pd.DataFrame,
    top: int | None = 25,
    log: bool = True,
    hands: int | None = None,
    title: str | None = None,
    tier_colors: Mapping[str, str] | None = None,
) -> Figure:
    """Share of hands with each pattern, with its interval (:func:`sim.analysis.pattern_frequency`).

    One row per pattern (most frequent on top, Chinese names on the axis), coloured by tier
    (``tier_colors``: tier -> colour in tier order, as the variant's entry gives them; by default
    :data:`TIER_PALETTE` from the lowest tier up); with a ``run`` column, one marker per run on
    each row. A pattern never seen is drawn as its upper bound (◁). ``log``: logarithmic axis,
    since the common and the rarest patterns differ by orders of magnitude.
    """
    colors_of = _tier_colors(frame, tier_colors)
    # a variant without tiers has the column, all NA: one colour and no tier legend
    has_tiers = "tier" in frame and bool(frame["tier"].notna().any())
    runs = _runs(frame)
    order = (
        frame.groupby("pattern", sort=False)["count"]
        .sum()
        .sort_values(ascending=False, kind="stable")
    )
    patterns = list(order.index[:top] if top else order.index)
    figure, axes = _figure(8.5, 1.2 + 0.32 * len(patterns) * max(1, 0.6 * len(runs)))
    ax: Axes = axes[0, 0]
    # The first run on top of each row, as in the legend.
    offsets = np.linspace(0.3, -0.3, len(runs)) if len(runs) > 1 else [0.0]
    position = {pattern: len(patterns) - 1 - i for i, pattern in enumerate(patterns)}
    for run_index, run in enumerate(runs):
        part = frame if run is None else frame[frame["run"] == run]
        part = part[part["pattern"].isin(patterns)]
        y = part["pattern"].map(position).to_numpy() + offsets[run_index]
        seen = part["count"].to_numpy() > 0
        if run is None:
            colors = (
                [colors_of.get(str(t), "#555555") for t in part["tier"]]
                if has_tiers
                else ["#4C72B0"] * len(part)
            )
        else:
            colors = [PALETTE[run_index % len(PALETTE)]] * len(part)
        colors = np.asarray(colors, dtype=object)
        errors = _errors(part["rate"], part["lo"], part["hi"])
        for index in np.flatnonzero(seen):  # errorbar takes one colour per call
            ax.errorbar(
                part["rate"].iloc[index], y[index], xerr=errors[:, index : index + 1],
                fmt="none", ecolor=colors[index], elinewidth=1.4, capsize=3,
            )  # fmt: skip
        ax.scatter(part["rate"][seen], y[seen], c=colors[seen].tolist(), s=28, zorder=3)
        if (~seen).any():
            ax.scatter(
                part["hi"][~seen], y[~seen], marker="<", facecolors="none",
                edgecolors=colors[~seen].tolist(), s=36, zorder=3,
            )  # fmt: skip
        if run is not None:
            ax.scatter([], [], c=PALETTE[run_index % len(PALETTE)], s=28, label=str(run))
        elif has_tiers:
            present = set(part["tier"].dropna().astype(str))
            for tier in [*colors_of, *sorted(present - set(colors_of))]:
                if tier in present:
                    ax.scatter([], [], c=colors_of.get(tier, "#555555"), s=28, label=tier)
        if run is None:
            for x_hi, y_row, count in zip(part["hi"], y, part["count"], strict=True):
                ax.annotate(
                    f"n={count}", (x_hi, y_row), xytext=(6, 0), textcoords="offset points",
                    va="center", fontsize=8, color="#444444",
                )  # fmt: skip
    ax.set_yticks(range(len(patterns)), patterns[::-1], fontsize=11)
    if len(runs) > 1:
        for row in range(0, len(patterns), 2):
            ax.axhspan(row - 0.5, row + 0.5, color="#000000", alpha=0.04, lw=0)
    ax.set_ylim(-0.7, len(patterns) - 0.3)
    if log:
        ax.set_xscale("log")
        ax.margins(x=0.12)
    ax.grid(axis="x", which="major", alpha=0.3)
    ax.set_xlabel(f"share of hands with the pattern (point and {_ci_label()}, Wilson)")
    ax.set_ylabel("pattern 牌型")
    suffix = f" — {hands:,} hands 局" if hands else ""
    ax.set_title(title or TITLES["patterns"] + suffix)
    handles, _ = ax.get_legend_handles_labels()
    if handles:
        ax.legend(title="run" if runs[0] is not None else "tier", loc="lower right", fontsize=9)
    return figure


def plot_score_distribution(
    scores: pd.DataFrame, by: str | None = None, title: str | None = None
) -> Figure:
    """Distribution of the score change per hand (:func:`sim.analysis.seat_scores`, or its
    counted form :func:`sim.analysis.seat_score_counts`, a row per score with its ``count``:
    the same figure, from a few hundred rows however long the run).

    Left: how often each score occurs (log scale, so the rare large swings stay visible; scores
    are whole points, so each is a marker, slightly shifted per group to stay apart); right: the
    empirical CDF on a scale that is linear near 0 and logarithmic beyond ±8. ``by``: ``seat``
    (default), ``role`` (dealer / non-dealer) or ``run`` (default when the frame has one).
    """
    by = by or ("run" if "run" in scores.columns else "seat")
    if by == "role":
        scores = scores.assign(role=np.where(scores["dealer"], "dealer", "non_dealer"))
    figure, axes = _figure(11.5, 4.6, 1, 2)
    mass_ax, cdf_ax = axes[0]
    groups = list(pd.unique(scores[by]))
    shifts = np.linspace(-0.6, 0.6, len(groups)) if len(groups) > 1 else [0.0]
    for index, group in enumerate(groups):
        levels, counts = _counted(scores[scores[by] == group], "score")
        total = counts.sum()
        if by == "role":
            label, color = ROLE_LABELS[group], ROLE_COLORS[group]
        else:
            label = f"seat {group}" if by == "seat" else str(group)
            color = PALETTE[index % len(PALETTE)]
        mass_ax.scatter(levels + shifts[index], counts / total, s=14, color=color,
                        label=label)  # fmt: skip
        x, y, snap = _cdf_steps(levels, counts)
        mean = (levels * counts).sum() / total  # whole points: the sum is exact, as numpy's
        cdf_ax.step(x, y, where="post", color=color, label=f"{label} (mean {mean:+.2f})",
                    snap=snap)  # fmt: skip
    mass_ax.set_yscale("log")
    mass_ax.set_ylabel("share of hands")
    mass_ax.set_title("how often each score occurs")
    cdf_ax.set_ylabel("share of hands with a score ≤ x")
    cdf_ax.set_title("empirical CDF")
    _symlog_ticks(cdf_ax, float(np.abs(scores["score"]).max()) if len(scores) else 8.0)
    for ax in (mass_ax, cdf_ax):
        ax.set_xlabel("score change of a seat in one hand (points)")
        ax.grid(alpha=0.3)
        ax.axvline(0, color="#999999", lw=0.8)
    mass_ax.legend(fontsize=9)
    cdf_ax.legend(fontsize=9, loc="lower right")
    figure.suptitle(title or TITLES["scores"])
    return figure


def plot_dealer_advantage(frame: pd.DataFrame, title: str | None = None) -> Figure:
    """Mean score per hand of the dealer, the non-dealers and their difference, with intervals
    and the paired test's p-value (:func:`sim.analysis.dealer_advantage`); one group per run."""
    runs = _runs(frame)
    figure, axes = _figure(max(6.0, 1.8 + 1.6 * len(runs)), 4.6)
    ax: Axes = axes[0, 0]
    roles = ["dealer", "non_dealer", "difference"]
    labels = {**ROLE_LABELS, "difference": "difference 差"}
    for run_index, run in enumerate(runs):
        part = frame if run is None else frame[frame["run"] == run]
        part = part.set_index("role")
        for role_index, role in enumerate(roles):
            row = part.loc[role]
            x = run_index + (role_index - 1) * 0.25
            ax.bar(x, row["mean"], width=0.22, color=ROLE_COLORS[role], alpha=0.85,
                   label=labels[role] if run_index == 0 else None)  # fmt: skip
            ax.errorbar(
                x, row["mean"], yerr=_errors([row["mean"]], [row["lo"]], [row["hi"]]),
                fmt="none", ecolor="black", capsize=4, lw=1.2,
            )  # fmt: skip
        difference = part.loc["difference"]
        significant = difference.get("significant", pd.NA)
        star = " *" if significant is not pd.NA and bool(significant) else ""
        ax.annotate(
            _p_text(difference["p_value"]) + star,
            (run_index + 0.25, max(difference["hi"], 0)),
            xytext=(0, 6), textcoords="offset points", ha="center", fontsize=9,
        )  # fmt: skip
    ax.axhline(0, color="#666666", lw=0.8)
    ax.set_xticks(range(len(runs)), [str(r) if r is not None else "" for r in runs])
    ax.set_ylabel(f"mean score per hand (points, {_ci_label()})")
    ax.set_title(title or f"{TITLES['dealer']} (* significant, paired t-test)")
    ax.legend(fontsize=9, loc="best")
    ax.grid(axis="y", alpha=0.3)
    ax.margins(y=0.15)
    return figure


def _p_text(p: float) -> str:
    if p is None or math.isnan(p):
        return "p = –"
    return "p < 0.001" if p < 0.001 else f"p = {p:.2g}"


def _metric_label(metric: str, metric_labels: Mapping[str, str] | None = None) -> str:
    labels = {**METRIC_LABELS, **(metric_labels or {})}
    name, _, argument = metric.partition(":")
    if metric.startswith("pattern_") or name in ("pattern", "tier", "win_kind"):
        return f"hands with {argument or metric.removeprefix('pattern_')}"
    if name == "points" or metric.startswith("points_"):
        source = argument or metric.removeprefix("points_")
        return labels.get(f"points_{source}", f"{source} points")
    return labels.get(metric, metric)


def _metric_unit(metric: str) -> str:
    return "share of hands" if metric.startswith(RATE_METRICS) else "points per hand"


def plot_comparison(
    frame: pd.DataFrame,
    title: str | None = None,
    metric_labels: Mapping[str, str] | None = None,
) -> Figure:
    """Forest plot of :func:`sim.analysis.compare_runs`: each run's difference from its
    baseline with its interval, one panel per metric; rows significant after the adjustment in
    red, each with its adjusted p-value. ``metric_labels``: labels of metrics beside
    :data:`METRIC_LABELS` (a variant's entry has those of its own)."""
    metrics = list(pd.unique(frame["metric"]))
    baselines = list(pd.unique(frame["baseline"]))
    heights = [max(1, int((frame["metric"] == m).sum())) for m in metrics]
    figure, axes = _figure(8, 1.0 + 0.42 * sum(heights) + 0.7 * len(metrics), len(metrics), 1,
                           gridspec_kw={"height_ratios": heights})  # fmt: skip
    for ax, metric in zip(axes[:, 0], metrics, strict=True):
        part = frame[frame["metric"] == metric].reset_index(drop=True)
        y = np.arange(len(part))[::-1]
        colors = np.where(part["significant"], "#C44E52", "#4C72B0")
        errors = _errors(part["difference"], part["diff_lo"], part["diff_hi"])
        for index in range(len(part)):
            ax.errorbar(
                part["difference"].iloc[index], y[index], xerr=errors[:, index : index + 1],
                fmt="none", ecolor=colors[index], capsize=3,
            )  # fmt: skip
        ax.scatter(part["difference"], y, c=list(colors), zorder=3)
        ax.axvline(0, color="#666666", lw=0.8)
        if len(baselines) == 1:
            labels = [str(r) for r in part["run"]]
        else:
            labels = [f"{r} vs {b}" for r, b in zip(part["run"], part["baseline"], strict=True)]
        ax.set_yticks(y, labels)
        for y_row, hi, p in zip(y, part["diff_hi"], part["p_adjusted"], strict=True):
            ax.annotate(_p_text(p), (hi, y_row), xytext=(5, 0), textcoords="offset points",
                        va="center", fontsize=8)  # fmt: skip
        ax.set_ylim(-0.6, len(part) - 0.4)
        ax.margins(x=0.18)
        label = _metric_label(metric, metric_labels)
        ax.set_title(f"{label}: difference ({_metric_unit(metric)})", fontsize=10)
        ax.grid(axis="x", alpha=0.3)
    against = f" {baselines[0]}" if len(baselines) == 1 else " the baseline"
    default = f"Differences from{against} 对比 (red: significant after adjustment)"
    figure.suptitle(title or default)
    return figure


def _option_columns(table: pd.DataFrame) -> list[str]:
    columns = list(table.columns)
    return columns[columns.index("cell") + 1 : columns.index("hands")]


def _format(value: float) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    return f"{value:.3g}"


def plot_sweep_heatmap(
    table: pd.DataFrame,
    metric: str,
    x: str | None = None,
    y: str | None = None,
    title: str | None = None,
    metric_labels: Mapping[str, str] | None = None,
) -> Figure:
    """Heat map of one metric of :func:`sim.analysis.sweep_table` over two swept options
    (``x`` and ``y``, by default the first two), each cell labelled with the value and interval.
    ``metric_labels``: as for :func:`plot_comparison`.
    """
    options = _option_columns(table)
    if not options:
        raise ValueError("the table has no option columns to lay out")
    x = x or options[0]
    y = y or next((option for option in options if option != x), None)
    x_values = list(pd.unique(table[x]))
    y_values = list(pd.unique(table[y])) if y else [None]
    grid = np.full((len(y_values), len(x_values)), np.nan)
    texts = {}
    for _, row in table.iterrows():
        i = y_values.index(row[y]) if y else 0
        j = x_values.index(row[x])
        grid[i, j] = row[metric]
        texts[i, j] = (
            f"{_format(row[metric])}\n[{_format(row[f'{metric}_lo'])}, "
            f"{_format(row[f'{metric}_hi'])}]"
        )
    figure, axes = _figure(1.8 + 1.7 * len(x_values), 1.6 + 0.9 * len(y_values))
    ax: Axes = axes[0, 0]
    diverging = np.nanmin(grid) < 0 < np.nanmax(grid)
    if diverging:
        bound = np.nanmax(np.abs(grid))
        image = ax.imshow(grid, cmap="RdBu_r", vmin=-bound, vmax=bound, aspect="auto")
    else:
        image = ax.imshow(grid, cmap="viridis", aspect="auto")
    for (i, j), text in texts.items():
        shade = image.cmap(image.norm(grid[i, j]))
        luminance = 0.299 * shade[0] + 0.587 * shade[1] + 0.114 * shade[2]
        ax.text(j, i, text, ha="center", va="center", fontsize=9,
                color="black" if luminance > 0.5 else "white")  # fmt: skip
    ax.set_xticks(range(len(x_values)), [str(v) for v in x_values])
    ax.set_yticks(range(len(y_values)), [str(v) if y else "" for v in y_values])
    ax.set_xlabel(x)
    if y:
        ax.set_ylabel(y)
    label = _metric_label(metric, metric_labels)
    figure.colorbar(image, ax=ax, label=f"{label} ({_metric_unit(metric)})")
    ax.set_title(title or f"{TITLES['sweep']}: {label}", fontsize=10)
    return figure


def plot_sweep_lines(
    table: pd.DataFrame,
    metrics: str | Sequence[str],
    x: str | None = None,
    hue: str | None = None,
    title: str | None = None,
    metric_labels: Mapping[str, str] | None = None,
) -> Figure:
    """Metric(s) of :func:`sim.analysis.sweep_table` against one swept option ``x`` (the first
    by default), one line per value of ``hue`` (the second option, if any), with interval bars
    and bands; one panel per metric. ``metric_labels``: as for :func:`plot_comparison`."""
    metrics = [metrics] if isinstance(metrics, str) else list(metrics)
    options = _option_columns(table)
    if not options:
        raise ValueError("the table has no option columns to lay out")
    x = x or options[0]
    if hue is None and len(options) > 1:
        hue = next(o for o in options if o != x)
    x_values = list(pd.unique(table[x]))
    numeric = pd.api.types.is_numeric_dtype(table[x]) and not pd.api.types.is_bool_dtype(table[x])
    if numeric:
        x_values = sorted(x_values)
    # Shift the lines a little sideways so that their interval bars do not hide each other.
    spacing = float(np.diff(x_values).min()) if numeric and len(x_values) > 1 else 1.0
    figure, axes = _figure(6.5, 3.6 * len(metrics), len(metrics), 1)
    hues = list(pd.unique(table[hue])) if hue else [None]
    shifts = np.linspace(-0.04, 0.04, len(hues)) * spacing if len(hues) > 1 else [0.0]
    for ax, metric in zip(axes[:, 0], metrics, strict=True):
        for index, value in enumerate(hues):
            part = table if hue is None else table[table[hue] == value]
            positions = (
                part[x]
                .map((lambda v: v) if numeric else (lambda v: x_values.index(v)))
                .to_numpy(dtype=float)
            )
            order = np.argsort(positions)
            positions = positions[order] + shifts[index]
            estimate = part[metric].to_numpy(dtype=float)[order]
            lo = part[f"{metric}_lo"].to_numpy(dtype=float)[order]
            hi = part[f"{metric}_hi"].to_numpy(dtype=float)[order]
            color = PALETTE[index % len(PALETTE)]
            label = f"{hue} = {value}" if hue else None
            ax.errorbar(positions, estimate, yerr=_errors(estimate, lo, hi), marker="o",
                        capsize=4, color=color, label=label)  # fmt: skip
            ax.fill_between(positions, lo, hi, color=color, alpha=0.12, lw=0)
        ticks = x_values if numeric else range(len(x_values))
        ax.set_xticks(list(ticks), [str(v) for v in x_values])
        ax.set_xlabel(x)
        label = _metric_label(metric, metric_labels)
        ax.set_ylabel(f"{label}\n({_metric_unit(metric)})", fontsize=9)
        ax.grid(alpha=0.3)
        if hue:
            ax.legend(fontsize=9)
    figure.suptitle(title or f"{TITLES['sweep']} ({_ci_label()})")
    return figure


def _value_text(value) -> str:
    if isinstance(value, bool | np.bool_):
        return "true" if value else "false"
    return str(value)


def _source_shares(nets: pd.DataFrame, group: str) -> dict:
    """Group -> (net values, share of seat-hands with each)."""
    shares = {}
    for key in pd.unique(nets[group]):
        levels, counts = _counted(nets[nets[group] == key], "net")
        shares[key] = (levels, counts / counts.sum())
    return shares


def _counted(frame: pd.DataFrame, column: str) -> tuple[np.ndarray, np.ndarray]:
    """The distinct values of ``column`` (floats, ascending) and how often each occurs: rows
    counted, or their ``count`` column summed where the frame has one (a counted frame)."""
    values = frame[column].to_numpy(dtype=float)
    if "count" not in frame.columns:
        return np.unique(values, return_counts=True)
    levels, where = np.unique(values, return_inverse=True)
    counts = np.zeros(len(levels), np.int64)
    np.add.at(counts, where, frame["count"].to_numpy(dtype=np.int64))
    return levels, counts


CDF_POINTS = 2000
"""Up to this many values the CDF is drawn through every value; beyond, through the first and
last :data:`CDF_RUN` of each distinct value's run (see :func:`_cdf_steps`)."""
CDF_RUN = 64


def _cdf_steps(levels: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray, bool]:
    """The points of an empirical CDF's step line, and its ``snap``, from distinct values and
    their counts. Many values: a long run of equal values is a vertical line of tiny steps,
    which matplotlib's path simplification draws as its first and last steps; so each run is
    cut to its first and last :data:`CDF_RUN` values, drawn without pixel snapping (Agg does
    not snap a path of more than 1024 vertices): the same pixels as every value gives, from a
    few thousand points however many values there are."""
    total = int(counts.sum())
    if total <= CDF_POINTS:
        return np.repeat(levels, counts), np.arange(1, total + 1) / total, None
    ends = np.cumsum(counts)
    head = np.minimum(counts, CDF_RUN)
    tail = np.minimum(counts - head, CDF_RUN)
    kept = head + tail
    # ranks 1..n of the sorted values: the first `head` of each run and its last `tail`
    offsets = np.arange(int(kept.sum())) - np.repeat(np.cumsum(kept) - kept, kept)
    starts = np.repeat(ends - counts, kept)
    ranks = np.where(offsets < np.repeat(head, kept), starts + offsets + 1,
                     np.repeat(ends - kept, kept) + offsets + 1)  # fmt: skip
    return np.repeat(levels, kept), ranks / total, False


def _symlog_ticks(ax: Axes, largest: float) -> None:
    ax.set_xscale("symlog", linthresh=8, linscale=1)
    powers = [2.0**k for k in range(3, 12) if 2.0 ** (k - 1) < largest]
    if len(powers) > 4:  # every power of 2 would make the labels overlap: 8, 32, 128, ...
        powers = powers[::2]
    ax.set_xticks([*(-t for t in reversed(powers)), 0.0, *powers])
    ax.xaxis.set_major_formatter(mpl.ticker.FuncFormatter(lambda v, _: f"{v:g}"))
    ax.xaxis.set_minor_locator(mpl.ticker.NullLocator())


def plot_points_sources(
    sources: pd.DataFrame,
    nets: pd.DataFrame | None = None,
    source_labels: Mapping[str, str] | None = None,
    title: str | None = None,
) -> Figure:
    """Where the points come from: the mean points moved per hand by each source with its
    interval (:func:`sim.analysis.points_sources`; one bar per run and source when the frame
    has a ``run`` column), and, given ``nets`` (:func:`sim.analysis.seat_source_nets`, or its
    counted form :func:`sim.analysis.seat_source_net_counts`), how often a seat's net from each
    source takes each value (log scale; one line per source, or
    per run when ``nets`` has a ``run`` column and one source). ``source_labels``: source ->
    label (a report takes them from the variant's entry)."""
    labels = dict(source_labels or {})
    runs = _runs(sources)
    names = list(pd.unique(sources["source"]))
    show_nets = nets is not None and len(nets) > 0
    height = 1.4 + 0.42 * len(names) * max(1, 0.7 * len(runs))
    figure, axes = _figure(
        12.5 if show_nets else 7.5, max(4.2 if show_nets else 3.0, height), 1, 2 if show_nets else 1
    )
    ax: Axes = axes[0, 0]
    offsets = np.linspace(0.3, -0.3, len(runs)) if len(runs) > 1 else [0.0]
    for index, run in enumerate(runs):
        part = sources if run is None else sources[sources["run"] == run]
        part = part.set_index("source").reindex(names)
        y = np.arange(len(names))[::-1] + offsets[index]
        colors = (
            [PALETTE[i % len(PALETTE)] for i in range(len(names))]
            if run is None
            else PALETTE[index % len(PALETTE)]
        )
        ax.barh(y, part["per_hand"], height=0.75 / len(runs), color=colors, alpha=0.85,
                label=None if run is None else str(run))  # fmt: skip
        ax.errorbar(part["per_hand"], y, xerr=_errors(part["per_hand"], part["lo"], part["hi"]),
                    fmt="none", ecolor="black", capsize=3, lw=1)  # fmt: skip
        if run is None:
            for y_row, hi, share in zip(y, part["hi"], part["share"], strict=True):
                text = "–" if pd.isna(share) else f"{share:.1%} of points"
                ax.annotate(text, (0 if pd.isna(hi) else hi, y_row), xytext=(5, 0),
                            textcoords="offset points", va="center", fontsize=8)  # fmt: skip
    ax.set_yticks(range(len(names))[::-1], [labels.get(n, n) for n in names])
    ax.set_xlabel(f"points moved per hand ({_ci_label()})")
    ax.set_title("mean points moved per hand, by source")
    ax.grid(axis="x", alpha=0.3)
    ax.margins(x=0.3 if runs[0] is None else 0.1)
    if len(runs) > 1:
        ax.legend(fontsize=8, title="run", loc="lower right")
    if show_nets:
        _draw_nets(axes[0, 1], nets, labels, names)
    figure.suptitle(title or "Points sources 分数来源")
    return figure


def _draw_nets(ax: Axes, nets: pd.DataFrame, labels: dict, names: list) -> None:
    by_run = "run" in nets.columns and nets["source"].nunique() == 1
    group = "run" if by_run else "source"
    moved = nets.groupby(group, sort=False)["net"].apply(lambda v: bool((v != 0).any()))
    nets = nets[nets[group].map(moved)]  # a source that never moved a point has no line
    if nets.empty:
        ax.text(0.5, 0.5, "no seat's net was ever non-zero", ha="center", transform=ax.transAxes)
        return
    for key, (levels, shares) in _source_shares(nets, group).items():
        position = list(pd.unique(nets[group])).index(key)
        if not by_run and key in names:  # the bars' colour of the source
            position = names.index(key)
        label = str(key) if by_run else labels.get(key, key)
        ax.plot(levels, shares, marker="o", ms=3, lw=0.8, color=PALETTE[position % len(PALETTE)],
                label=label)  # fmt: skip
    ax.set_yscale("log")
    _symlog_ticks(ax, float(np.abs(nets["net"]).max()) or 8.0)
    ax.axvline(0, color="#999999", lw=0.8)
    ax.set_xlabel("a seat's net points from the source in one hand")
    ax.set_ylabel("share of seat-hands")
    what = f" — {labels.get(nets['source'].iloc[0], nets['source'].iloc[0])}" if by_run else ""
    ax.set_title(f"how often each net occurs{what}")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="upper right")


def plot_option_effects(
    frame: pd.DataFrame,
    metric_labels: Mapping[str, str] | None = None,
    axis_labels: Mapping[str, str] | None = None,
    title: str | None = None,
) -> Figure:
    """Main effects of the swept options (:func:`sim.analysis.option_effects`): one panel per
    metric, one row per option value, the difference from the option's first value (averaged
    over every setting of the other options) with its interval; the first value of each option
    is the hollow marker at 0. ``axis_labels``: option -> label (e.g. with its Chinese rule
    name)."""
    metrics = list(pd.unique(frame["metric"]))
    first = frame[frame["metric"] == metrics[0]]
    rows = list(zip(first["axis"], first["value"], strict=True))
    axes_order = list(pd.unique(first["axis"]))
    names = dict(axis_labels or {})
    figure, grid = _figure(
        2.6 + 3.3 * len(metrics), 1.3 + 0.34 * len(rows), 1, len(metrics), sharey=True
    )
    y = np.arange(len(rows))[::-1]
    for ax, metric in zip(grid[0], metrics, strict=True):
        part = frame[frame["metric"] == metric].reset_index(drop=True)
        is_first = part.groupby("axis", sort=False).cumcount().to_numpy() == 0
        for index, row in part.iterrows():
            color = PALETTE[axes_order.index(row["axis"]) % len(PALETTE)]
            if is_first[index]:
                ax.scatter(0, y[index], facecolors="none", edgecolors=color, s=30, zorder=3)
                continue
            errors = _errors([row["effect"]], [row["effect_lo"]], [row["effect_hi"]])
            ax.errorbar(row["effect"], y[index], xerr=errors, fmt="o", color=color, ms=5,
                        capsize=3)  # fmt: skip
        for row_index, (axis, _) in enumerate(rows):  # every other option shaded
            if axes_order.index(axis) % 2:
                ax.axhspan(y[row_index] - 0.5, y[row_index] + 0.5, color="#000000", alpha=0.04,
                           lw=0)  # fmt: skip
        ax.axvline(0, color="#666666", lw=0.8)
        ax.grid(axis="x", alpha=0.3)
        ax.set_title(_metric_label(metric, metric_labels), fontsize=10)
        ax.set_xlabel(f"difference from the first value\n({_metric_unit(metric)})", fontsize=9)
        ax.margins(x=0.15)
    labels = [f"{names.get(a, a)} = {_value_text(v)}" for a, v in rows]
    grid[0, 0].set_yticks(y, labels)
    grid[0, 0].set_ylim(-0.6, len(rows) - 0.4)
    figure.suptitle(title or f"Effect of each option 规则选项 ({_ci_label()})")
    return figure


def plot_counted_rows(
    frame: pd.DataFrame, per: str, value_name: str, title: str | None = None
) -> Figure:
    """A variant's counted rows (:func:`sim.analysis.counted_rows`): how often each is set
    among the ``per`` (winners, hands) with its interval (left, log scale; a row never set is
    drawn at its upper bound, ◁), and the mean of its value where set (right)."""
    labels = list(frame["label"])
    y = np.arange(len(labels))[::-1]
    figure, axes = _figure(12.5, max(3.0, 1.4 + 0.34 * len(labels)), 1, 2, sharey=True)
    left: Axes = axes[0, 0]
    seen = frame["count"].to_numpy() > 0
    errors = _errors(frame["rate"], frame["lo"], frame["hi"])
    left.errorbar(frame["rate"][seen], y[seen], xerr=errors[:, seen], fmt="o", color=PALETTE[0],
                  ecolor=PALETTE[0], capsize=3, ms=5)  # fmt: skip
    if (~seen).any():
        left.scatter(frame["hi"][~seen], y[~seen], marker="<", facecolors="none",
                     edgecolors=PALETTE[0], s=36)  # fmt: skip
    left.set_xscale("log")
    left.set_yticks(y, labels)
    left.set_xlabel(f"share of {per} ({_ci_label()})")
    left.set_title(f"how often, per {per.rstrip('s')}")
    left.grid(axis="x", alpha=0.3)
    right: Axes = axes[0, 1]
    right.barh(y, frame["mean"].fillna(0), color=PALETTE[1], alpha=0.85)
    for y_row, mean in zip(y, frame["mean"], strict=True):
        text = "–" if pd.isna(mean) else f"{mean:.3g}"
        right.annotate(text, (0 if pd.isna(mean) else mean, y_row), xytext=(4, 0),
                       textcoords="offset points", va="center", fontsize=8)  # fmt: skip
    right.set_xlabel(f"mean {value_name} where set")
    right.set_title(f"mean {value_name}")
    right.grid(axis="x", alpha=0.3)
    right.margins(x=0.15)
    if title:
        figure.suptitle(title)
    return figure
