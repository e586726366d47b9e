"""The report page as a file: styling, the embedded font and figures, atomic writing.

:func:`page` wraps sections in one self-contained HTML document (inline CSS, the bundled CJK
font and the figures as data URLs, no JavaScript, nothing to fetch); :func:`write` writes it and
the figures' PNG copies, each file atomically, so readers see the old file or the whole new one.
"""

from __future__ import annotations

import base64
import io
import os
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .. import __version__
from ..running.outdir import DirectoryKind
from .font import font_face, font_family
from .formatting import Html, esc
from .markup import paragraph

REPORT_NAME = "report.html"
FIGURES_DIR = "figures"
DPI = 110
REPORT = DirectoryKind("report", "report.json")
"""A report written to a folder of its own (``mjsim report DIR --out OUT``): ``report.html``,
``figures/`` and this marker, which names what the report is of, so that a later report may
replace the folder and nothing else is ever replaced."""

BODY_FONTS = (
    'system-ui, -apple-system, "Segoe UI", "Noto Sans", "Noto Sans CJK SC", "PingFang SC", '
    '"Microsoft YaHei", sans-serif'
)
CODE_FONTS = 'ui-monospace, "SFMono-Regular", Menlo, Consolas'

CSS = """
body { color: #222; margin: 0 auto; max-width: 1120px; padding: 1.2em 1.5em 3em;
       line-height: 1.45; }
h1 { font-size: 1.6em; margin-bottom: 0.1em; }
h1 small { font-weight: normal; color: #666; font-size: 0.6em; }
h2 { font-size: 1.25em; border-bottom: 2px solid #4C72B0; padding-bottom: 0.15em;
     margin-top: 2em; }
h3 { font-size: 1.05em; margin-top: 1.4em; }
nav { font-size: 0.9em; margin: 0.6em 0 1em; }
nav a { margin-right: 0.9em; }
a { color: #2a5db0; }
table { border-collapse: collapse; margin: 0.6em 0 1em; font-size: 0.9em; word-break: keep-all; }
th, td { border: 1px solid #d4d4d4; padding: 0.25em 0.6em; vertical-align: top; }
table.wide { font-size: 0.8em; }
th { background: #eef2f8; text-align: left; }
tbody tr:nth-child(even) { background: #fafafa; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
table.facts th { width: 13em; }
tr.changed td { background: #fff4d6; }
tr.significant td { background: #fde8e8; }
tr.pooled td { border-top: 2px solid #999; }
.scroll { overflow-x: auto; }
code { font-size: 0.92em; background: #f3f3f3; padding: 0.05em 0.3em; border-radius: 3px;
       word-break: break-all; }
figure { margin: 1em 0 1.5em; }
figure img { max-width: 100%; height: auto; border: 1px solid #e3e3e3; }
figcaption { font-size: 0.88em; color: #555; margin-top: 0.3em; }
.key { display: flex; flex-wrap: wrap; gap: 0.8em; margin: 0.8em 0; }
.key div { border: 1px solid #d4d4d4; border-radius: 6px; padding: 0.5em 0.9em;
           min-width: 12em; background: #f8fafd; }
.key b { display: block; font-size: 1.25em; }
.key span { font-size: 0.85em; color: #555; }
.note { background: #f6f6f6; border-left: 4px solid #999; padding: 0.6em 1em; }
.warn { background: #fff4d6; border-left: 4px solid #d9a400; padding: 0.6em 1em; }
footer { margin-top: 3em; font-size: 0.8em; color: #777; }
"""
"""The page's style, less the font families (:func:`font_css`). Tables keep within the page:
headers and intervals wrap at spaces (Chinese words stay whole), tables of many columns have
smaller text (``wide``), and a table still too wide for the window scrolls in its ``scroll``
box."""


def font_css(text: str) -> str:
    """The embedded font's ``@font-face`` (for the CJK characters of ``text``) and the font
    families: the embedded font first, so the page's Chinese looks like the figures' anywhere."""
    family = f'"{font_family()}"'
    return (
        f"{font_face(text)}\n"
        f"body {{ font-family: {family}, {BODY_FONTS}; }}\n"
        f"code {{ font-family: {CODE_FONTS}, {family}, monospace; }}\n"
    )


@dataclass
class Figure:
    """A drawn figure: its file name under ``figures/``, PNG bytes and caption."""

    name: str
    png: bytes
    caption: str

    def html(self) -> Html:
        data = base64.b64encode(self.png).decode("ascii")
        stem = self.name.removesuffix(".png")
        return Html(
            f'<figure id="fig-{esc(stem)}"><img src="data:image/png;base64,{data}" '
            f'alt="{esc(self.caption)}" data-file="{esc(FIGURES_DIR + "/" + self.name)}">'
            f"<figcaption>{esc(self.caption)}</figcaption></figure>"
        )


def render(figure, name: str, caption: str) -> Figure:
    """A matplotlib figure as PNG at the report's resolution."""
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=DPI)
    return Figure(name, buffer.getvalue(), caption)


def plots():
    """:mod:`sim.plots`, imported when a report is drawn (it loads matplotlib)."""
    from .. import plots

    return plots


def page(title: str, heading: Html, sections: Sequence[tuple[str, str, Sequence]]) -> str:
    """The document: ``sections`` are (anchor, title, parts); parts are markup or text."""
    nav = " ".join(f'<a href="#{esc(anchor)}">{esc(name)}</a>' for anchor, name, _ in sections)
    body = [heading, f"<nav>{nav}</nav>"]
    for anchor, name, parts in sections:
        body.append(f'<section id="{esc(anchor)}"><h2>{esc(name)}</h2>')
        body.extend(part if isinstance(part, Html) else paragraph(part) for part in parts)
        body.append("</section>")
    body.append(
        f"<footer>Written by mjsim {esc(__version__)} (<code>sim.report</code>). Figures are "
        f"embedded; copies are in <code>{FIGURES_DIR}/</code>.</footer>"
    )
    text = esc(title) + "\n".join(body)
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{esc(title)}</title>\n<style>{CSS}{font_css(text)}</style>\n</head>\n<body>\n"
        + "\n".join(body)
        + "\n</body>\n</html>\n"
    )


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same directory and a rename:
    readers see the old file or the whole new one, never part of it."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def write(directory: Path, document: str, figures: Sequence[Figure]) -> Path:
    """Write the figures' PNG copies, then ``report.html``; returns the report's path."""
    directory.mkdir(parents=True, exist_ok=True)  # a cell's folder in a report of its own
    if figures:
        (directory / FIGURES_DIR).mkdir(exist_ok=True)
    for figure in figures:
        write_atomic(directory / FIGURES_DIR / figure.name, figure.png)
    target = directory / REPORT_NAME
    write_atomic(target, document.encode("utf-8"))
    return target
