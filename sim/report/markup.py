"""Building blocks of a report page: tables, fact lists, key-figure boxes, links, paragraphs.

Each returns :class:`~sim.report.formatting.Html` with every value escaped. Tables sit in a
``scroll`` box, so a table too wide for a narrow window scrolls inside the page instead of
running past its edge; tables of many columns are marked ``wide`` (smaller text).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .formatting import Html, esc

WIDE_TABLE = 12
"""Tables of more columns than this have smaller text (CSS class ``wide``), so that they fit a
desktop window."""


def table(
    columns: Sequence[str],
    rows: Iterable[Sequence],
    align: str = "",
    table_id: str | None = None,
    row_classes: Sequence[str] | None = None,
    css_class: str | None = None,
) -> Html:
    """An HTML table; ``align`` has one letter per column, ``r`` for numbers (right-aligned)."""
    align = align.ljust(len(columns), "l")

    def cell(tag: str, index: int, value) -> str:
        numeric = ' class="num"' if align[index] == "r" else ""
        return f"<{tag}{numeric}>{esc(value)}</{tag}>"

    head = "".join(cell("th", i, c) for i, c in enumerate(columns))
    body = []
    for index, row in enumerate(rows):
        kind = row_classes[index] if row_classes and row_classes[index] else ""
        attribute = f' class="{esc(kind)}"' if kind else ""
        cells = "".join(cell("td", i, v) for i, v in enumerate(row))
        body.append(f"<tr{attribute}>{cells}</tr>")
    identifier = f' id="{esc(table_id)}"' if table_id else ""
    names = " ".join(n for n in (css_class, "wide" if len(columns) > WIDE_TABLE else "") if n)
    classes = f' class="{esc(names)}"' if names else ""
    return Html(
        f'<div class="scroll"><table{identifier}{classes}><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table></div>"
    )


def facts(rows: Iterable[tuple[str, object]], table_id: str) -> Html:
    """A two-column table of (name, value), names as row headers."""
    body = "".join(f"<tr><th>{esc(k)}</th><td>{esc(v)}</td></tr>" for k, v in rows)
    return Html(
        f'<div class="scroll"><table id="{esc(table_id)}" class="facts"><tbody>{body}</tbody>'
        "</table></div>"
    )


def code(text) -> Html:
    return Html(f"<code>{esc(text)}</code>")


def link(href: str, text) -> Html:
    return Html(f'<a href="{esc(href)}">{esc(text)}</a>')


def key_figures(items: Iterable[tuple[str, str, str]]) -> Html:
    """Boxes of (title, value, detail)."""
    boxes = "".join(
        f"<div><span>{esc(title)}</span><b>{esc(value)}</b><span>{esc(detail)}</span></div>"
        for title, value, detail in items
    )
    return Html(f'<div class="key">{boxes}</div>')


def paragraph(text, css_class: str | None = None) -> Html:
    classes = f' class="{css_class}"' if css_class else ""
    return Html(f"<p{classes}>{esc(text)}</p>")


def note_list(items: Iterable[str]) -> Html:
    """A shaded bullet list (the "How to read this" section)."""
    return Html(f'<ul class="note">{"".join(f"<li>{esc(text)}</li>" for text in items)}</ul>')
