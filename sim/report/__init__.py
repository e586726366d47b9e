"""Self-contained HTML reports of a run or a sweep directory (``mjsim report DIR``).

:func:`write_report` reads a run directory (``manifest.json``, ``games.parquet``,
``wins.parquet``) or a sweep directory (``sweep.json`` and one run directory per cell) with
:mod:`sim.analysis`, draws its figures with :mod:`sim.plots` and writes ``report.html`` into the
directory: every table and figure of the run, numbers formatted for reading, figures embedded as
base64 PNG, the CSS inline and the Chinese glyphs the page uses embedded as a font, so the one
file can be mailed or archived and opened without JavaScript or network, also where no CJK font
is installed. The figures are also saved as ``figures/*.png`` beside it. A sweep's report links
to the report of each cell, which it writes too.

Every file is written atomically (a temporary file in the same directory, then a rename) after
all the numbers and figures are computed, so a report that fails leaves no partial file and
keeps the previous report. Every value that reaches the HTML is escaped. The user guide is the
"Reports" section of ``docs/analysis.md``.

The package: :mod:`~sim.report.formatting` (escaping, numbers), :mod:`~sim.report.markup`
(tables and other blocks), :mod:`~sim.report.page` (the document, styling, files),
:mod:`~sim.report.font` (the embedded font), :mod:`~sim.report.labels` (names, and what the
variant's registry entry adds), :mod:`~sim.report.run_report` and
:mod:`~sim.report.sweep_report`. Every name below is importable from ``sim.report``.
"""

from __future__ import annotations

from pathlib import Path

from ..analysis.duplicate import COMPARISON_FILE
from ..running.outdir import RUN, SWEEP, locked
from .formatting import (
    Html,
    esc,
    fmt_count,
    fmt_interval,
    fmt_num,
    fmt_p,
    fmt_p_phrase,
    fmt_pct,
    fmt_points,
)
from .labels import ROLE_LABELS, SOURCE_LABELS, WIN_KIND_LABELS
from .page import CSS, DPI, FIGURES_DIR, REPORT_NAME
from .run_report import (
    ALPHA,
    CONFIDENCE,
    HOW_TO_READ,
    TAIL_THRESHOLDS,
    build_run_report,
    write_run_report,
)
from .sweep_report import (
    HOW_TO_READ_SWEEP,
    METRIC_LABELS,
    SWEEP_METRICS,
    build_sweep_report,
    write_sweep_report,
)

__all__ = [
    "ALPHA",
    "CONFIDENCE",
    "CSS",
    "DPI",
    "FIGURES_DIR",
    "HOW_TO_READ",
    "HOW_TO_READ_SWEEP",
    "METRIC_LABELS",
    "REPORT_NAME",
    "ROLE_LABELS",
    "SOURCE_LABELS",
    "SWEEP_METRICS",
    "TAIL_THRESHOLDS",
    "WIN_KIND_LABELS",
    "Html",
    "build_run_report",
    "build_sweep_report",
    "esc",
    "fmt_count",
    "fmt_interval",
    "fmt_num",
    "fmt_p",
    "fmt_p_phrase",
    "fmt_pct",
    "fmt_points",
    "write_report",
    "write_run_report",
    "write_sweep_report",
]


def write_report(path: str | Path, baseline: str | None = None) -> Path:
    """Write ``report.html`` (and ``figures/``) into a run or a sweep directory; returns the
    report's path.

    A directory with ``sweep.json`` is a sweep: the report of every cell is written too, and
    the sweep's report compares each cell with ``baseline`` (a cell name; default: the
    ``baseline`` of ``sweep.json``, else the first cell). Errors: ``FileNotFoundError`` for a
    missing directory or file, ``ValueError`` for one that cannot be read; nothing is written
    then.
    """
    directory = Path(path)
    if not directory.is_dir():
        raise FileNotFoundError(f"no run or sweep directory at {directory}")
    # the lock a run or sweep writing this directory holds: a report is never written into a
    # directory that is being replaced (sim.running.outdir)
    with locked(directory):
        if (directory / COMPARISON_FILE).exists():
            from .compare_report import write_comparison_report

            return write_comparison_report(directory)
        if (directory / SWEEP.marker).exists():
            return write_sweep_report(directory, baseline)
        if not (directory / RUN.marker).exists():
            raise FileNotFoundError(
                f"{directory} is neither a run directory (no {RUN.marker}) nor a sweep "
                f"directory (no {SWEEP.marker})"
            )
        if baseline is not None:
            raise ValueError("--baseline applies to a sweep directory only")
        return write_run_report(directory)
