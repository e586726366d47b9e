"""Self-contained HTML reports of a run or a sweep directory (``mjsim report DIR``).

:func:`write_report` reads a run directory (``manifest.json``, ``games.parquet``,
``wins.parquet``) or a sweep directory (``sweep.json`` and one run directory per cell) with
:mod:`sim.analysis`, draws its figures with :mod:`sim.plots` and writes ``report.html`` into the
directory: every table and figure of the run, numbers formatted for reading, figures embedded as
base64 PNG, the CSS inline and the Chinese glyphs the page uses embedded as a font, so the one
file can be mailed or archived and opened without JavaScript or network, also where no CJK font
is installed. The figures are also saved as ``figures/*.png`` beside it. A sweep's report links
to the report of each cell, which it writes too.

Runs are read batch by batch (:func:`sim.analysis.open_run`), so a report of ten million hands
takes no more memory than one of a thousand. ``out``: the report goes to a folder of its own
instead (made as every output directory is, :func:`sim.running.outdir.output_directory`), and
the run or sweep directory is only read: a run on a read-only share gets a report too.

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

import errno
import json
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

from .. import __version__
from ..analysis.duplicate import COMPARISON_FILE
from ..running.outdir import RUN, SWEEP, locked, output_directory
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
from .page import CSS, DPI, FIGURES_DIR, REPORT, REPORT_NAME
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
    "REPORT",
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


def write_report(
    path: str | Path, baseline: str | None = None, out: str | Path | None = None
) -> Path:
    """Write ``report.html`` (and ``figures/``) of a run or a sweep directory; returns the
    report's path.

    Into the directory itself, or with ``out`` into that folder (a new or empty folder, or a
    report written there before; the directory is then only read). A directory with
    ``sweep.json`` is a sweep: the report of every cell is written too (with ``out``, under
    the same relative paths as the cells), and the sweep's report compares each cell with
    ``baseline`` (a cell name; default: the ``baseline`` of ``sweep.json``, else the first
    cell). Errors: ``FileNotFoundError`` for a missing directory or file, ``ValueError`` for
    one that cannot be read or a refused ``out``; nothing is written then.
    """
    directory = Path(path)
    if not directory.is_dir():
        raise FileNotFoundError(f"no run or sweep directory at {directory}")
    if out is None:
        # the lock a run or sweep writing this directory holds: a report is never written
        # into a directory that is being replaced (sim.running.outdir)
        with locked(directory):
            return _write_kind(directory, baseline, None)
    with _reading(directory), output_directory(out, REPORT) as building:
        _write_kind(directory, baseline, building)
        marker = {"report": REPORT_NAME, "of": str(directory.resolve()), "mjsim": __version__}
        (building / REPORT.marker).write_text(json.dumps(marker, ensure_ascii=False) + "\n")
    return Path(out) / REPORT_NAME


def _write_kind(directory: Path, baseline: str | None, into: Path | None) -> Path:
    """The report of ``directory`` (a comparison, a sweep or a run), written ``into`` a folder
    (None: the directory itself)."""
    if (directory / COMPARISON_FILE).exists():
        from .compare_report import write_comparison_report

        return write_comparison_report(directory, into)
    if (directory / SWEEP.marker).exists():
        return write_sweep_report(directory, baseline, into)
    if not (directory / RUN.marker).exists():
        raise FileNotFoundError(
            f"{directory} is neither a run directory (no {RUN.marker}) nor a sweep "
            f"directory (no {SWEEP.marker})"
        )
    if baseline is not None:
        raise ValueError("--baseline applies to a sweep directory only")
    return write_run_report(directory, into=into)


READ_ONLY = (errno.EROFS, errno.EACCES, errno.EPERM)


@contextmanager
def _reading(directory: Path) -> Iterator[None]:
    """Hold the lock a writer of ``directory`` takes while it is read, so that a run replacing
    it waits; where the lock file cannot be made beside it (a read-only share, a folder
    without write permission), nothing can replace the directory either, and it is read
    without."""
    with ExitStack() as stack:
        try:
            stack.enter_context(locked(directory))
        except OSError as error:
            if error.errno not in READ_ONLY:
                raise
        yield
