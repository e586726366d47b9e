"""Sweeps: one base config played over a grid of option values, compared cell by cell.

A sweep file (``configs/sweeps/*.toml``) names a base config, optional changes to it and the
axes; the grid is the product of the axes' values::

    # Three or four players, by the value of some option
    label = "players-by-option"              # the sweep's name (default: the file's stem)
    base = "../rules.toml"                   # the base config, relative to this file
    [run]                                    # optional: run settings changed in every cell
    games = 20000
    [options]                                # optional: options changed in every cell
    one_option = false
    [axes]                                   # option or run setting -> the values to try
    player_count = [4, 3]
    another_option = [1, 2, 4]

(``docs/analysis.md`` shows one with a variant's real options.)

:func:`load_sweep_spec` checks everything and builds the config of every cell before anything is
played; errors are one line naming the file, the key and what is allowed. :func:`run_sweep`
plays each cell with :func:`sim.running.runner.run` and writes the sweep directory that
:func:`sim.analysis.load_sweep` reads::

    sweep.json        label, base, axes, cells [{name, options, dir}], baseline, paired, ...
    cells/<name>/     one run directory per cell (manifest.json, games.parquet, wins.parquet)
    comparison.csv    one row per cell: sim.analysis.sweep_table plus point shares and the
                      score per hand of each pattern tier, every figure with its interval
    significance.csv  sim.analysis.compare_runs of every cell against the baseline cell on the
                      key metrics, Holm-adjusted p-values and a significant flag
    figures/*.png     heat maps (two axes) or line plots (one axis, or three and more) of the
                      metrics that differ between cells, the effect of each option (two axes
                      and more), the pattern frequencies of every cell, the differences from
                      the baseline

Every cell is played on the same seed, so hand *i* of every cell is dealt the same wall (as long
as no axis changes the seed, the number of hands or the chunking): the luck of the deal cancels
in cell-to-cell differences and the comparisons are paired (``"paired": true``). Like a run, the
directory is built in ``.NAME.partial`` beside its folder and renamed when complete: a failure
leaves nothing behind, and an interrupt or a kill leaves the finished cells (and the finished
chunks of the cell it stopped) for ``run_sweep(None, out, resume=True)`` (``mjsim sweep
--resume``), which plays only what is missing and writes the same tables.
"""

from __future__ import annotations

import contextlib
import dataclasses
import difflib
import errno
import itertools
import json
import math
import os
import re
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import __version__
from ..running.config import RUN_DEFAULTS, RunConfig, apply_overrides, build_config, read_toml
from ..running.outdir import RUN, SWEEP, os_error_code, plain_name, resumable_directory
from ..variants import get_variant
from ..variants.options import unknown_name

SWEEP_JSON = SWEEP.marker  # "sweep.json": a finished sweep has it
COMPARISON = "comparison.csv"
SIGNIFICANCE = "significance.csv"
FIGURES = "figures"
CELLS = "cells"
SWEEP_KEYS = ("label", "base", "run", "options", "axes")
TOP_PATTERNS = 5
"""Patterns (most frequent over the whole sweep) in the comparison and significance tables."""
CONFIDENCE = 0.95
ALPHA = 0.05
KEY_METRICS = ("draw_rate", "dealer_win_rate", "dealer_advantage", "mean_abs_score")
FIGURE_METRICS = ("draw_rate", "dealer_advantage", "mean_abs_score")
"""Columns of the sweep table drawn for every sweep; the variant's entry adds its own
(``figure_metrics``)."""
DPI = 110
FIGURE_CELLS = 8
"""Beyond this many cells besides the baseline, ``differences.png`` shows only the cells that
differ from the baseline in one option (``significance.csv`` has them all)."""
CELL_NAME_BYTES = 100
"""Longest cell name (bytes, UTF-8) kept as the cell's values joined; a longer one is cut to
this length after the cell's number (:func:`fitted_name`), and so is a figure's name made of
values. The cell's folder, its ``.NAME.partial`` and the files beside it then stay far below
the 255 bytes a file system allows in a name; ``sweep.json`` and the comparison table hold
every cell's values in full."""


# --------------------------------------------------------------------------- the sweep file


@dataclass(frozen=True)
class Cell:
    """One point of the grid: its name, the value of every axis and its checked config."""

    name: str
    values: dict[str, Any]
    config: RunConfig

    @property
    def dir(self) -> str:
        return f"{CELLS}/{self.name}"


@dataclass(frozen=True)
class SweepSpec:
    """A checked sweep file: every cell's config is built (and so validated) already."""

    path: Path
    label: str
    base: Path
    axes: dict[str, list]
    cells: tuple[Cell, ...]
    baseline: str
    """The cell with the base config's value on every axis, else the first cell."""
    paired: bool
    """Every cell plays the same walls (same seed, hands and chunks)."""
    base_config: RunConfig
    """The base config with the sweep file's changes and the overrides (before the axes)."""
    overrides: tuple[str, ...] = ()

    @property
    def total_games(self) -> int:
        return sum(cell.config.games for cell in self.cells)


def _plain(value: Any) -> Any:
    """A TOML value as the plain JSON value it is stored as (tuples as lists)."""
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def _same(a: Any, b: Any) -> bool:
    """Equal values of equal types (``true`` is not 1, 1 is not 1.0)."""
    a, b = _plain(a), _plain(b)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b


def _is_plain(value: Any) -> bool:
    """A string, number, true/false or a list of them (TOML dates and tables are not)."""
    if isinstance(value, list):
        return all(_is_plain(v) for v in value)
    return isinstance(value, str | int | float | bool)


def _value_text(value: Any) -> str:
    """A value as written in TOML: ``true``, ``4``, ``fast``, ``[a, b]``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_value_text(v) for v in value) + "]"
    return str(value)


def _name_part(axis: str, value: Any) -> str:
    if isinstance(value, bool):
        return axis if value else f"no_{axis}"
    if isinstance(value, list | tuple):
        return "+".join(_name_part(axis, v) for v in value)
    return re.sub(r"[^A-Za-z0-9_.+=-]+", "_", str(value)).strip("._") or "x"


def cell_names(axes: Mapping[str, list], combinations: Iterable[tuple]) -> list[str]:
    """Cell names, each the cell's folder under ``cells/``: the values joined by ``-``
    (``fast-2``); a true/false value shows as the option's name or ``no_<option>``; names of
    numbers only show the options too (``player_count=3``). A name longer than
    :data:`CELL_NAME_BYTES` becomes the cell's number and the start of it (:func:`fitted_name`);
    a name already taken, ignoring case (two folders on a file system that ignores it), gets
    ``-2``, ``-3``, ... ."""
    joined = []
    for values in combinations:
        name = "-".join(_name_part(a, v) for a, v in zip(axes, values, strict=True)) or "base"
        if not re.search(r"[A-Za-z]", name):  # numbers only: say what they are
            name = "-".join(f"{a}={_name_part(a, v)}" for a, v in zip(axes, values, strict=True))
        joined.append(name)
    names: list[str] = []
    taken: set[str] = set()
    for number, name in enumerate(joined, 1):
        name = fitted_name(name, number, len(joined))
        unique, count = name, 1
        while unique.casefold() in taken:
            count += 1
            unique = f"{name}-{count}"
        names.append(unique)
        taken.add(unique.casefold())
    return names


def fitted_name(name: str, number: int, count: int) -> str:
    """``name`` when it has at most :data:`CELL_NAME_BYTES` bytes; else item ``number`` of
    ``count`` (from 1, zero-padded) and as much of ``name`` as fits, cut at the end of a value
    where that keeps at least half of it: ``07-no_option_a-no_option_b``."""
    if len(name.encode()) <= CELL_NAME_BYTES:
        return name
    head = f"{number:0{len(str(count))}d}-"
    room = CELL_NAME_BYTES - len(head)
    cut = name.encode()[:room].decode(errors="ignore")
    whole_values = cut.rpartition("-")[0]
    if name[len(cut)] != "-" and len(whole_values) >= room // 2:
        cut = whole_values
    return head + cut.rstrip("-_.+=")


def _shown(path: Path) -> str:
    """A path as the user would type it: relative to the working directory when below it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path.resolve())


def _axis_key(key: str, option_names: list[str]) -> tuple[str, str]:
    """``(section, name)`` of an axis key: ``player_count``, ``options.player_count``,
    ``run.games``."""
    settings = ", ".join(RUN_DEFAULTS)
    allowed = f"options {', '.join(option_names)}; run settings {settings}"
    section, dot, name = key.partition(".")
    if not dot:
        section, name = ("run", key) if key in RUN_DEFAULTS else ("options", key)
    if section == "run" and name in RUN_DEFAULTS:
        return section, name
    if section == "options" and name in option_names:
        return section, name
    close = difflib.get_close_matches(name, [*option_names, *RUN_DEFAULTS], n=2, cutoff=0.6)
    hint = f"; did you mean {' or '.join(close)}?" if close else ""
    if not key.isprintable():  # a key with a line break: the error stays one line
        key = key.encode("unicode_escape").decode("ascii")
    raise ValueError(f"axes.{key}: not an option or run setting; allowed: {allowed}{hint}")


def _strip_prefix(error: ValueError, section: str, name: str) -> str:
    text = str(error)
    for prefix in (f"{section}.{name}: ", f"{name}: "):
        if text.startswith(prefix):
            return text[len(prefix) :]
    return text


def _check_section(document: Mapping, key: str) -> dict:
    value = document.get(key, {})
    if not isinstance(value, Mapping):
        raise ValueError(f"{key}: expected a table, e.g. [{key}]")
    return dict(value)


def load_sweep_spec(path: str | Path, overrides: Iterable[str] = ()) -> SweepSpec:
    """Read and check a sweep file; ``overrides`` (``KEY=VALUE``, as ``mjsim run --set``)
    change the base config in every cell. Builds every cell's config, so every error is raised
    here, before anything is played, as a one-line ``ValueError`` naming the file and the key.
    """
    path = Path(path)
    overrides = tuple(overrides)
    document = read_toml(path, "sweep file")
    try:
        return _build_spec(path, document, overrides)
    except ValueError as error:
        raise ValueError(f"{path}: {error}") from None


def _build_spec(path: Path, document: dict, overrides: tuple[str, ...]) -> SweepSpec:
    for key in document:
        if key not in SWEEP_KEYS:
            raise unknown_name(str(key), "key", key, SWEEP_KEYS)
    label = plain_name(document.get("label", path.stem), "label")  # a folder under runs/
    base_text = document.get("base")
    if base_text is None:
        raise ValueError(
            "base: missing; expected the path of a config file relative to this file, e.g. "
            'base = "../rules.toml"'
        )
    if not isinstance(base_text, str) or not base_text:
        raise ValueError(f"base: expected the path of a config file, got {base_text!r}")
    base = path.parent / base_text
    if not base.is_file():
        raise ValueError(f"base: no config file at {base} (the path is relative to this file)")
    run_changes = _check_section(document, "run")
    option_changes = _check_section(document, "options")
    axes_table = document.get("axes")
    if axes_table is None:
        raise ValueError(
            "axes: missing; expected a table of option -> values, e.g. [axes] player_count = [4, 3]"
        )
    if not isinstance(axes_table, Mapping) or not axes_table:
        raise ValueError(
            "axes: expected a non-empty table of option -> values, e.g. "
            "[axes] player_count = [4, 3]"
        )

    # The base document: the config file, then the sweep's [run] and [options], then overrides.
    base_document = read_toml(base, "config file")
    try:
        build_config(base_document)
    except ValueError as error:
        raise ValueError(f"base {base}: {error}") from None
    variant = get_variant(base_document.get("variant"))
    option_names = [f.name for f in dataclasses.fields(variant.options_class)]
    document_run = _check_section(base_document, "run")
    document_options = _check_section(base_document, "options")
    for section, changes in (("run", run_changes), ("options", option_changes)):
        for key, value in changes.items():
            if not _is_plain(value):
                raise ValueError(f"{section}.{key}: expected a value, got {value!r}")
    for key in run_changes:
        if key not in RUN_DEFAULTS:
            raise unknown_name(f"run.{key}", "setting", key, RUN_DEFAULTS)
    for key in option_changes:
        if key not in option_names:
            raise unknown_name(f"options.{key}", "option", key, option_names)
    # The axes' keys first, so that a clash with an override is named before anything else.
    sections: dict[str, str] = {}
    for key in axes_table:
        section, name = _axis_key(key, option_names)
        if name in sections:
            raise ValueError(f"axes.{key}: {name} is an axis twice")
        if name in (run_changes if section == "run" else option_changes):
            raise ValueError(f"{section}.{name}: also an axis; set it in one place only")
        for override in overrides:
            target = override.partition("=")[0].strip()
            if target in (name, f"{section}.{name}"):
                flag = f"--{name}" if name in ("games", "seed") else f"--set {target}"
                raise ValueError(
                    f"{flag}: {name} is an axis of this sweep; change its values in [axes]"
                )
        sections[name] = section

    base_document = {
        **base_document,
        "run": {**document_run, **run_changes},
        "options": {**document_options, **option_changes},
    }
    base_document = apply_overrides(base_document, overrides)
    base_config = build_config(base_document)

    # The values of each axis, each checked on the base.
    axes: dict[str, list] = {}
    for (key, values), (name, section) in zip(axes_table.items(), sections.items(), strict=True):
        if not isinstance(values, list) or not values:
            raise ValueError(
                f"axes.{key}: expected a non-empty list of values, e.g. {name} = [1, 2]"
            )
        for index, value in enumerate(values):
            if not _is_plain(value):
                raise ValueError(f"axes.{key}: expected values, got {value!r}")
            if any(_same(value, other) for other in values[:index]):
                raise ValueError(f"axes.{key}: the value {_value_text(value)} appears twice")
        for value in values:
            changed = json.loads(json.dumps(base_document))
            changed.setdefault(section, {})[name] = _plain(value)
            try:
                build_config(changed)
            except ValueError as error:
                raise ValueError(f"axes.{key}: {_strip_prefix(error, section, name)}") from None
        axes[name] = [_plain(v) for v in values]

    # Every cell, built and checked before anything runs.
    combinations = list(itertools.product(*axes.values()))
    names = cell_names(axes, combinations)
    cells = []
    for name, combination in zip(names, combinations, strict=True):
        values = dict(zip(axes, combination, strict=True))
        cell_document = json.loads(json.dumps(base_document))
        for axis, value in values.items():
            cell_document.setdefault(sections[axis], {})[axis] = value
        cell_document["label"] = name
        try:
            config = build_config(cell_document)
        except ValueError as error:
            shown = ", ".join(f"{a}={_value_text(v)}" for a, v in values.items())
            raise ValueError(f"cell {name} ({shown}): {error}") from None
        cells.append(Cell(name, values, config))

    baseline = cells[0].name
    for cell in cells:
        if all(_same(value, _setting(base_config, axis)) for axis, value in cell.values.items()):
            baseline = cell.name
            break
    return SweepSpec(
        path=path,
        label=label,
        base=base,
        axes=axes,
        cells=tuple(cells),
        baseline=baseline,
        paired=_shares_walls([cell.config for cell in cells]),
        base_config=base_config,
        overrides=overrides,
    )


def _setting(config: RunConfig, name: str) -> Any:
    if name in RUN_DEFAULTS:
        return getattr(config, name)
    return getattr(config.options, name)


def _shares_walls(configs: list[RunConfig]) -> bool:
    """Whether every config deals the same walls to the same hand numbers: the same seed,
    number of hands, chunks (the walls of a chunk come from its own spawned seed) and tiles."""
    from ..running.runner import plan_chunks

    first = configs[0]
    return all(
        config.seed == first.seed
        and config.games == first.games
        and plan_chunks(config) == plan_chunks(first)
        and config.spec.n_tiles == first.spec.n_tiles
        for config in configs[1:]
    )


# --------------------------------------------------------------------------- tables


def _ratio_interval(numerator, denominator, confidence: float) -> tuple[float, float, float]:
    """Ratio of two sums over hands, ``Σy / Σx``, with its delta-method interval (hands are the
    independent observations)."""
    import numpy as np

    from ..analysis import t_quantile

    y, x = np.asarray(numerator, dtype=float), np.asarray(denominator, dtype=float)
    n, total = len(x), float(x.sum())
    if n < 2 or total == 0:
        return (float(y.sum() / total) if total else math.nan), math.nan, math.nan
    ratio = float(y.sum()) / total
    residual = y - ratio * x
    se = math.sqrt(float((residual**2).sum()) / (n * (n - 1))) / (total / n)
    half = t_quantile(0.5 + confidence / 2, n - 1) * se
    return ratio, max(0.0, ratio - half), min(1.0, ratio + half)


def _tier_values(tier: str) -> Callable:
    """A :func:`sim.analysis.compare_runs` metric: per hand, the winners' score from ``tier``."""
    import numpy as np

    from .. import analysis

    def values(run):
        wins = analysis.scored_wins(run)
        chosen = wins[wins["tier"].astype(str) == tier]
        return np.bincount(chosen["row"], weights=chosen["score"], minlength=len(run.games))

    values.__name__ = f"tier_score:{tier}"
    return values


def _points_values(source: str) -> Callable:
    """A :func:`sim.analysis.compare_runs` metric: per hand, the points from ``source``; 0 in a
    cell that has no such source (a source an option turns off there)."""
    import numpy as np

    from .. import analysis

    def values(run):
        per_hand = analysis.points_per_hand(run)
        if source in per_hand:
            return per_hand[source].to_numpy(dtype=float)
        return np.zeros(len(run.games))

    values.__name__ = f"points:{source}"
    return values


def _tiers(sweep) -> list[str]:
    """Tiers some winner of the sweep reached, in the tier order."""
    runs = list(sweep.runs.values())
    if not runs or any("tier" not in run.wins.columns for run in runs):
        return []
    seen = {str(t) for run in runs for t in run.wins["tier"].astype(str)}
    tier = runs[0].wins["tier"]
    ordered = [str(t) for t in tier.cat.categories] if hasattr(tier, "cat") else sorted(seen)
    return [t for t in ordered if t in seen]


def comparison_table(sweep, top_patterns: int = TOP_PATTERNS, confidence: float = CONFIDENCE):
    """One row per cell: :func:`sim.analysis.sweep_table`, then ``share_<source>`` (share of
    all points moved that comes from the source; delta-method interval) and
    ``tier_score_<tier>`` (the winners' score from that tier per hand played, t interval, as
    :func:`sim.analysis.tier_summary`), each with ``_lo`` and ``_hi``."""
    import pandas as pd

    from .. import analysis

    table = analysis.sweep_table(sweep, top_patterns=top_patterns, confidence=confidence)
    tiers = _tiers(sweep)
    extra_rows = []
    for run in sweep.runs.values():
        row: dict[str, Any] = {}
        per_hand = analysis.points_per_hand(run)
        total = per_hand.sum(axis=1).to_numpy()
        for source in per_hand.columns:
            share, lo, hi = _ratio_interval(per_hand[source].to_numpy(), total, confidence)
            row.update(
                {f"share_{source}": share, f"share_{source}_lo": lo, f"share_{source}_hi": hi}
            )
        if tiers:
            summary = analysis.tier_summary(run, confidence).set_index("tier")
            for tier in tiers:
                line = summary.loc[tier]
                row.update(
                    {
                        f"tier_score_{tier}": line["score_per_hand"],
                        f"tier_score_{tier}_lo": line["score_lo"],
                        f"tier_score_{tier}_hi": line["score_hi"],
                    }
                )
        extra_rows.append(row)
    extra = pd.DataFrame(extra_rows, index=table.index)
    table = pd.concat([table, extra], axis=1)
    # A source some cells lack (an option turns it off there) moves 0 points there.
    for column in table.columns:
        if column.startswith(("points_", "share_")):
            table[column] = table[column].fillna(0.0)
    # Group the columns: what sweep_table puts first, then points, shares, tiers, patterns.
    groups = ("points_", "share_", "tier_score_", "pattern_")
    head = [c for c in table.columns if not c.startswith(groups)]
    grouped = [c for prefix in groups for c in table.columns if c.startswith(prefix)]
    return table[head + grouped]


def significance_metrics(table) -> list:
    """The metrics compared with the baseline: the key ones, the points per hand of every
    source, the score per hand of every tier and the top patterns of the table."""
    metrics: list = list(KEY_METRICS)
    for column in table.columns:
        if column.endswith(("_lo", "_hi")):
            continue
        if column.startswith("points_"):
            metrics.append(_points_values(column.removeprefix("points_")))
    for column in table.columns:
        if column.startswith("tier_score_") and not column.endswith(("_lo", "_hi")):
            metrics.append(_tier_values(column.removeprefix("tier_score_")))
    for column in table.columns:
        if column.startswith("pattern_") and not column.endswith(("_lo", "_hi")):
            metrics.append(f"pattern:{column.removeprefix('pattern_')}")
    return metrics


def significance_table(sweep, table, baseline: str, paired: bool):
    """:func:`sim.analysis.compare_runs` of every cell against ``baseline`` on
    :func:`significance_metrics`, Holm-adjusted over all rows (an empty frame for one cell)."""
    import pandas as pd

    from .. import analysis

    if len(sweep.runs) < 2:
        return pd.DataFrame(columns=["metric", "run", "baseline", "p_adjusted", "significant"])
    return analysis.compare_runs(
        sweep,
        significance_metrics(table),
        baseline=baseline,
        alpha=ALPHA,
        correction="holm",
        paired=paired,
    )


# --------------------------------------------------------------------------- figures


def axis_title(variant_name: str | None, axis: str) -> str:
    """``player_count 人数``: the option and the Chinese rule name of its title, if any."""
    if not variant_name:
        return axis
    try:
        titles = get_variant(variant_name).option_titles
    except ValueError:
        return axis
    head = titles.get(axis, "").partition(" — ")
    if head[1] and re.search(r"[\u4e00-\u9fff]", head[0]):
        return f"{axis} {head[0]}"
    return axis


def _compared_metric(column: str) -> str:
    """The :func:`sim.analysis.compare_runs` metric of a sweep table column
    (``points_<source>`` -> ``points:<source>``)."""
    if column.startswith("points_"):
        return f"points:{column.removeprefix('points_')}"
    return column


def write_figures(sweep, table, significance, directory: Path) -> list[str]:
    """Draw the sweep's figures into ``directory`` (PNG); their file names."""
    import pandas as pd

    from .. import analysis, plots

    directory.mkdir(parents=True, exist_ok=True)
    axes = list(sweep.axes)
    first = next(iter(sweep.runs.values()))
    variant = analysis.run_variant(first)
    titles = {axis: axis_title(first.variant, axis) for axis in axes}
    plotted = table.rename(columns=titles)
    figure_metrics = [*FIGURE_METRICS, *(variant.figure_metrics if variant else ())]
    # a metric the options leave alone (play, when they only change payments) is a flat line
    unchanged = set(analysis.unchanged_metrics(table)) if len(table) > 1 else set()
    metrics = [m for m in figure_metrics if m in table.columns and m not in unchanged]
    labels = variant.metric_labels if variant else None
    written: list[str] = []

    def save(figure, name: str) -> None:
        figure.savefig(directory / name, dpi=DPI)
        written.append(name)

    if len(axes) >= 2 and metrics:
        effects = analysis.option_effects(sweep, [_compared_metric(m) for m in metrics])
        short = {axis: title.split(" / ")[0] for axis, title in titles.items()}
        save(plots.plot_option_effects(effects, labels, short), "effects.png")
    if len(axes) == 2:
        # the axis with more values across, so the cells stay wide enough for their labels
        x, y = axes if len(sweep.axes[axes[0]]) >= len(sweep.axes[axes[1]]) else axes[::-1]
        for metric in metrics:
            save(
                plots.plot_sweep_heatmap(
                    plotted, metric, x=titles[x], y=titles[y], metric_labels=labels
                ),
                f"heatmap_{metric}.png",
            )
    elif metrics:
        x, hue, rest = axes[0], (axes[1] if len(axes) > 1 else None), axes[2:]
        hue_title = titles[hue] if hue else None
        if not rest:
            figure = plots.plot_sweep_lines(
                plotted, metrics, x=titles[x], hue=hue_title, metric_labels=labels
            )
            save(figure, "lines.png")
        combinations = list(itertools.product(*(sweep.axes[a] for a in rest))) if rest else []
        for number, combination in enumerate(combinations, 1):
            mask = pd.Series(True, index=table.index)
            for axis, value in zip(rest, combination, strict=True):
                mask &= table[axis].map(lambda v, value=value: _same(v, value))
            fixed = ", ".join(
                f"{a} = {_value_text(v)}" for a, v in zip(rest, combination, strict=True)
            )
            slug = "-".join(_name_part(a, v) for a, v in zip(rest, combination, strict=True))
            slug = fitted_name(slug, number, len(combinations))
            title = f"{plots.TITLES['sweep']} ({CONFIDENCE:.0%} interval)\nat {fixed}"
            save(
                plots.plot_sweep_lines(
                    plotted[mask],
                    metrics,
                    x=titles[x],
                    hue=hue_title,
                    title=title,
                    metric_labels=labels,
                ),
                f"lines-{slug}.png",
            )
    frequency = analysis.pattern_frequency(sweep, confidence=CONFIDENCE)
    hands = sorted({len(run.games) for run in sweep.runs.values()})
    per_cell = f"{hands[0]:,} hands 局 per cell" if len(hands) == 1 else "hands 局 per cell vary"
    save(
        plots.plot_pattern_frequency(
            frequency,
            top=12,
            title=(f"{plots.TITLES['patterns']} — {per_cell}"),
            tier_colors=variant.tier_colors if variant else None,
        ),
        "patterns.png",
    )
    if len(significance):
        key = significance[significance["metric"].isin(map(_compared_metric, metrics))]
        if key["run"].nunique() > FIGURE_CELLS:  # keep it readable: one option at a time
            key = key[key["run"].isin(sweep.one_change_cells(key["baseline"].iloc[0]))]
        if len(key):
            test = "paired t" if (key["test"] == "paired t").all() else "independent samples"
            title = (
                f"Differences from {key['baseline'].iloc[0]} 对比 ({test}; red: "
                "significant after Holm's adjustment)"
            )
            save(plots.plot_comparison(key, title=title, metric_labels=labels), "differences.png")
    return written


# --------------------------------------------------------------------------- running


def _play_cell(cell: Cell, target: Path, command: str | None, backend: Any = None) -> dict:
    """Play one cell (in a worker process when cells run side by side): nothing when it is
    finished already, the rest of it when it was interrupted, else the whole of it."""
    from ..running.outdir import is_finished
    from ..running.runner import read_manifest, run, was_begun

    with _said_of(cell, target):
        if not is_finished(target, RUN):
            run(
                cell.config,
                target,
                jobs=1,
                progress=False,
                command=command,
                resume=was_begun(target),
                backend=backend,
            )
        return read_manifest(target)


def _cell_shown(cell: Cell) -> str:
    """``cell NAME (axis=value, ...)``: how an error names a cell."""
    values = ", ".join(f"{axis}={_value_text(value)}" for axis, value in cell.values.items())
    return f"cell {cell.name} ({values})"


@contextlib.contextmanager
def _said_of(cell: Cell, target: Path) -> Iterator[None]:
    """Errors of playing ``cell`` into ``target`` as one line naming the cell and its values:
    a ValueError (a refused folder, a damaged kept chunk), and an OSError about the folder's
    name or path (too long for the file system), which would otherwise name only the sweep's
    folder."""
    try:
        yield
    except ValueError as error:
        raise ValueError(f"{_cell_shown(cell)}: {error}") from None
    except OSError as error:
        if os_error_code(error) != errno.ENAMETOOLONG:
            raise
        raise ValueError(
            f"{_cell_shown(cell)}: its folder {target} cannot be made: "
            f"{os.strerror(errno.ENAMETOOLONG)} (its path has {len(bytes(target))} bytes; file "
            "systems allow 255 in a name and about 4096 in a path): write the sweep to a "
            "shorter --out"
        ) from None


def _sweep_document(spec: SweepSpec, command: str | None, timings: dict) -> dict:
    from ..running.runner import git_commit

    first = spec.cells[0].config
    return {
        "label": spec.label,
        "base": _shown(spec.base),
        "sweep_file": _shown(spec.path),
        "sweep_path": str(spec.path.resolve()),
        "variant": first.variant,
        "axes": spec.axes,
        "cells": [
            {
                "name": cell.name,
                "options": cell.values,
                "dir": cell.dir,
                "config_hash": cell.config.hash(),
            }
            for cell in spec.cells
        ],
        "baseline": spec.baseline,
        "paired": spec.paired,
        "run": {
            "games": first.games,
            "seed": first.seed,
            "hands_per_session": first.hands_per_session,
            "agents": list(first.agents),
            "chunk_hands": first.chunk_hands,
        },
        "overrides": list(spec.overrides),
        "base_options": dataclasses.asdict(spec.base_config.options),
        "files": {"comparison": COMPARISON, "significance": SIGNIFICANCE, "figures": FIGURES},
        "command": command,
        "version": __version__,
        "commit": git_commit(),
        "timings": timings,
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }


def resumed_spec(directory: str | Path) -> SweepSpec:
    """The spec of the sweep (interrupted or finished) in ``directory``: its sweep file read
    again with its overrides; a one-line ValueError when that file is gone or now makes
    different cells (a resume would not finish the same sweep)."""
    directory = Path(directory)
    try:
        document = json.loads((directory / SWEEP_JSON).read_text(encoding="utf-8"))
        path, overrides = Path(document["sweep_path"]), document["overrides"]
        hashes = [cell["config_hash"] for cell in document["cells"]]
    except (OSError, ValueError, KeyError, TypeError):
        raise ValueError(f"--resume {directory}: not an interrupted sweep") from None
    spec = load_sweep_spec(path, overrides)
    if [cell.config.hash() for cell in spec.cells] != hashes:
        raise ValueError(
            f"--resume {directory}: {path} has changed since the sweep started (its cells' "
            "configs differ); start the sweep again"
        )
    return spec


def _sweep_worth_keeping(partial: Path) -> bool:
    """An interrupted sweep is kept when a cell of it is finished or has finished chunks."""
    from ..running.outdir import is_finished
    from ..running.runner import _worth_keeping

    cells = partial / CELLS
    if not cells.is_dir():
        return False
    return any(
        is_finished(entry, RUN) or (entry.name.endswith(".partial") and _worth_keeping(entry))
        for entry in cells.iterdir()
    )


def run_sweep(
    spec: SweepSpec | None,
    out: str | Path,
    *,
    jobs: int = 1,
    progress: bool | None = None,
    replace: bool = True,
    command: str | None = None,
    figures: bool = True,
    resume: bool = False,
    backend: Any = None,
) -> Path:
    """Play every cell of ``spec`` and write the sweep directory ``out``; returns its path.

    ``jobs``: workers (-1: one per core); results do not depend on it. A cell with at least
    ``jobs`` chunks is played with its chunks in parallel (engine threads, or the backend's
    workers), cell after cell; smaller cells are played side by side, one per local worker
    process (either local backend: on a Dask cluster, cell after cell). ``progress``: a bar
    over all cells' hands on standard error (default: when it is a terminal). ``replace``:
    whether a previous sweep directory at ``out`` may be overwritten. ``figures``: draw
    ``figures/*.png``. ``resume``: finish the interrupted sweep of ``out`` (``spec`` None: the
    one it was started with); finished cells are kept, and interrupted ones finished.
    ``backend``: a :class:`sim.running.backends.Backend`.
    """
    from ..running.backends import Backend
    from ..running.outdir import target_of
    from ..running.runner import n_workers
    from ..running.stopping import stop_on_signals

    workers = n_workers(jobs)
    backend = backend or Backend()
    backend.check_installed()
    if spec is None and not resume:
        raise ValueError("sweep: a sweep spec is needed unless resuming")
    if progress is None:
        progress = sys.stderr.isatty()
    target = target_of(out) if resume else Path(out)
    building = None
    try:
        with (
            stop_on_signals() as stop,
            resumable_directory(
                target,
                SWEEP,
                resume=resume,
                replace=replace,
                worth_keeping=_sweep_worth_keeping,
                option="--resume" if resume else "--out",
            ) as building,
        ):
            spec = _begin_sweep(building, spec, command, resume)
            with backend.started(workers):
                _play_sweep(spec, building, stop, workers, progress, command, figures, backend)
    except KeyboardInterrupt as error:
        if building is not None and building.is_dir():
            error.what_next = (
                f"finished cells and chunks are kept in {building}; finish the sweep with: "
                f"mjsim sweep --resume {target}"
            )
        raise
    return target


def _begin_sweep(building: Path, spec, command, resume: bool) -> SweepSpec:
    """A fresh sweep: its ``sweep.json`` saying it is incomplete. A resumed one: its spec."""
    if resume:
        kept = resumed_spec(building)
        if spec is not None and [c.config.hash() for c in spec.cells] != [
            c.config.hash() for c in kept.cells
        ]:
            raise ValueError(f"--resume {building}: the sweep there has other cells")
        return kept
    (building / CELLS).mkdir()
    document = _sweep_document(spec, command, {}) | {"complete": False}
    _write_json(building / SWEEP_JSON, document)
    return spec


def _play_sweep(spec, building, stop, workers, progress, command, figures, backend) -> None:
    from joblib import delayed

    from .. import analysis
    from ..running.outdir import is_finished
    from ..running.runner import plan_chunks, progress_bar, read_manifest, run, was_begun

    chunks = max(len(plan_chunks(cell.config)) for cell in spec.cells)
    side_by_side = backend.is_local and workers > 1 and len(spec.cells) > 1 and chunks < workers
    started = time.perf_counter()
    with progress_bar(spec.total_games, progress, "sweep") as bar:
        if side_by_side:
            tasks = (
                delayed(_play_cell)(cell, building / cell.dir, _cell_command(command, cell))
                for cell in spec.cells
            )
            for manifest in backend.pool(min(workers, len(spec.cells)))(tasks):
                bar.update(manifest["counts"]["games"])
        else:
            for cell in spec.cells:
                bar.set_postfix_str(cell.name)
                target = building / cell.dir
                if is_finished(target, RUN):  # played before an interruption
                    bar.update(cell.config.games)
                    continue
                with _said_of(cell, target):
                    run(
                        cell.config,
                        target,
                        jobs=workers,
                        progress=False,
                        command=_cell_command(command, cell),
                        on_chunk=lambda result: bar.update(result["games"]),
                        resume=was_begun(target),
                        backend=backend,
                    )
    stop.check()
    play_seconds = time.perf_counter() - started
    cell_seconds = {
        cell.name: read_manifest(building / cell.dir)["timings"]["total_seconds"]
        for cell in spec.cells
    }
    timings = {
        "play_seconds": round(play_seconds, 3),
        "cell_seconds": cell_seconds,
        "jobs": workers,
        "cells_side_by_side": side_by_side,
        "backend": backend.name,
    }
    document = _sweep_document(spec, command, timings)
    _write_json(building / SWEEP_JSON, document | {"complete": False})
    sweep = analysis.load_sweep(building)
    table = comparison_table(sweep)
    significance = significance_table(sweep, table, spec.baseline, spec.paired)
    table.to_csv(building / COMPARISON, index=False)
    significance.to_csv(building / SIGNIFICANCE, index=False)
    names = write_figures(sweep, table, significance, building / FIGURES) if figures else []
    document["files"]["figures"] = [f"{FIGURES}/{name}" for name in names]
    document["timings"]["total_seconds"] = round(time.perf_counter() - started, 3)
    _write_json(building / SWEEP_JSON, document | {"complete": True})


def _cell_command(command: str | None, cell: Cell) -> str | None:
    return f"{command}  # cell {cell.name}" if command else None


def _write_json(path: Path, document: dict) -> None:
    """Write ``document`` under a temporary name, then rename (whole, or not at all)."""
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", "utf-8")
    os.replace(temporary, path)
