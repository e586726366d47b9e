"""Self-contained HTML reports of a run or a sweep directory (``mjsim report DIR``).

:func:`write_report` reads a run directory (``manifest.json``, ``games.parquet``,
``wins.parquet``) or a sweep directory (``sweep.json`` and one run directory per cell) with
:mod:`sim.analysis`, draws its figures with :mod:`sim.plots` and writes ``report.html`` into the
directory: every table and figure of the run, numbers formatted for reading, figures embedded as
base64 PNG and the CSS inline, so the one file can be mailed or archived and opened without
JavaScript or network. The figures are also saved as ``figures/*.png`` beside it. A sweep's
report links to the report of each cell, which it writes too.

Every file is written atomically (a temporary file in the same directory, then a rename) after
all the numbers and figures are computed, so a report that fails leaves no partial file and
keeps the previous report. Every value that reaches the HTML is escaped. The user guide is the
"Reports" section of ``docs/analysis.md``.
"""

from __future__ import annotations

import base64
import html
import io
import math
import os
import shlex
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from urllib.parse import quote

import numpy as np
import pandas as pd

from . import __version__, analysis
from .outdir import RUN, SWEEP, locked

REPORT_NAME = "report.html"
FIGURES_DIR = "figures"
DPI = 110
CONFIDENCE = 0.95
ALPHA = 0.05
TAIL_THRESHOLDS = (8, 16, 32, 64)

VARIANT_NAMES = {
    "anhua": "Anhua Seven Kings 安化七王麻将",
    "wengan": "Weng'an 瓮安麻将",
    "anqing": "Anqing 安庆麻将",
}
WIN_KIND_LABELS = {
    "self_draw": "self-draw 自摸",
    "discard": "on a discard 点炮",
    "rob_kong": "robbing a kong 抢杠胡",
    "kong_bloom": "kong bloom 杠上花",
    "kong_cannon": "kong cannon 杠上炮",
    "instant": "instant kings 起手胡",
    "none": "exhaustive draw 荒庄",
}
ROLE_LABELS = {
    "all": "all seats 全体",
    "dealer": "dealer 庄家",
    "non_dealer": "non-dealer 闲家",
    "difference": "difference 差",
}
SOURCE_LABELS = {
    "pattern": "pattern points 牌型分",
    "birds": "birds 抓鸟",
    "dealer_bonus": "dealer bonus 庄闲分",
}
SWEEP_METRICS = ("draw_rate", "dealer_win_rate", "mean_abs_score", "dealer_advantage")
METRIC_LABELS = {
    "draw_rate": "draw rate 荒庄率",
    "dealer_win_rate": "dealer win rate 庄家胡牌率",
    "mean_abs_score": "mean |score| of a seat",
    "dealer_advantage": "dealer advantage 庄家优势",
}

CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", "Noto Sans", "Noto Sans CJK SC",
       "PingFang SC", "Microsoft YaHei", sans-serif; color: #222; margin: 0 auto;
       max-width: 1120px; padding: 1.2em 1.5em 3em; line-height: 1.45; }
h1 { font-size: 1.6em; margin-bottom: 0.1em; }
h1 small { font-weight: normal; color: #666; font-size: 0.6em; }
h2 { font-size: 1.25em; border-bottom: 2px solid #4C72B0; padding-bottom: 0.15em;
     margin-top: 2em; }
h3 { font-size: 1.05em; margin-top: 1.4em; }
nav { font-size: 0.9em; margin: 0.6em 0 1em; }
nav a { margin-right: 0.9em; }
a { color: #2a5db0; }
table { border-collapse: collapse; margin: 0.6em 0 1em; font-size: 0.9em; }
th, td { border: 1px solid #d4d4d4; padding: 0.25em 0.6em; vertical-align: top; }
th { background: #eef2f8; text-align: left; }
tbody tr:nth-child(even) { background: #fafafa; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
table.facts th { width: 13em; }
tr.changed td { background: #fff4d6; }
tr.significant td { background: #fde8e8; }
tr.pooled td { border-top: 2px solid #999; }
.scroll { overflow-x: auto; }
code { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace;
       font-size: 0.92em; background: #f3f3f3; padding: 0.05em 0.3em; border-radius: 3px;
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


# --------------------------------------------------------------------------- formatting


class Html(str):
    """Markup made by this module, inserted as is; any other value is escaped."""


def _missing(value) -> bool:
    if value is None or value is pd.NA:
        return True
    try:
        return bool(isinstance(value, float | np.floating) and math.isnan(value))
    except TypeError:
        return False


def esc(value) -> str:
    """``value`` as HTML text: markup made here as is, anything else escaped (``–`` if missing)."""
    if isinstance(value, Html):
        return value
    return html.escape("–" if _missing(value) else str(value), quote=True)


def fmt_count(value) -> str:
    return "–" if _missing(value) else f"{int(value):,}"


def fmt_num(value, digits: int = 2, sign: bool = False) -> str:
    if _missing(value):
        return "–"
    return f"{float(value):{'+' if sign else ''},.{digits}f}"


def fmt_pct(value, sign: bool = False) -> str:
    """A share as a percentage with 2 decimals; a share too small for that gets 2 significant
    digits instead of showing as 0.00%."""
    if _missing(value):
        return "–"
    percent = float(value) * 100
    digits = 2
    if percent != 0 and abs(percent) < 0.005:
        digits = 1 - math.floor(math.log10(abs(percent)))
    return f"{percent:{'+' if sign else ''}.{digits}f}%"


def fmt_interval(lo, hi, formatter: Callable = fmt_num, **kwargs) -> str:
    if _missing(lo) and _missing(hi):
        return "–"
    return f"[{formatter(lo, **kwargs)}, {formatter(hi, **kwargs)}]"


def fmt_p(value) -> str:
    if _missing(value):
        return "–"
    return "< 0.001" if value < 0.001 else f"{value:.3f}"


def fmt_p_phrase(value) -> str:
    """``p = 0.012``, ``p < 0.001`` or ``p = –``."""
    text = fmt_p(value)
    return f"p {text}" if text.startswith("<") else f"p = {text}"


def fmt_points(value) -> str:
    """A score in points: whole numbers as such, others with up to 2 decimals."""
    if _missing(value):
        return "–"
    text = f"{float(value) + 0.0:,.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _table(
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
    classes = f' class="{esc(css_class)}"' if css_class else ""
    return Html(
        f'<div class="scroll"><table{identifier}{classes}><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table></div>"
    )


def _facts(rows: Iterable[tuple[str, object]], table_id: str) -> Html:
    body = "".join(f"<tr><th>{esc(k)}</th><td>{esc(v)}</td></tr>" for k, v in rows)
    return Html(f'<table id="{esc(table_id)}" class="facts"><tbody>{body}</tbody></table>')


def _code(text) -> Html:
    return Html(f"<code>{esc(text)}</code>")


def _link(href: str, text) -> Html:
    return Html(f'<a href="{esc(href)}">{esc(text)}</a>')


def _key_figures(items: Iterable[tuple[str, str, str]]) -> Html:
    """Boxes of (title, value, detail)."""
    boxes = "".join(
        f"<div><span>{esc(title)}</span><b>{esc(value)}</b><span>{esc(detail)}</span></div>"
        for title, value, detail in items
    )
    return Html(f'<div class="key">{boxes}</div>')


def _paragraph(text, css_class: str | None = None) -> Html:
    classes = f' class="{css_class}"' if css_class else ""
    return Html(f"<p{classes}>{esc(text)}</p>")


# --------------------------------------------------------------------------- figures


@dataclass
class _Figure:
    name: str  # file name under figures/
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


def _render(figure, name: str, caption: str) -> _Figure:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=DPI)
    return _Figure(name, buffer.getvalue(), caption)


# --------------------------------------------------------------------------- writing


def _write_atomic(path: Path, data: bytes) -> None:
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


def _write(directory: Path, document: str, figures: Sequence[_Figure]) -> Path:
    if figures:
        (directory / FIGURES_DIR).mkdir(exist_ok=True)
    for figure in figures:
        _write_atomic(directory / FIGURES_DIR / figure.name, figure.png)
    target = directory / REPORT_NAME
    _write_atomic(target, document.encode("utf-8"))
    return target


def _page(title: str, heading: Html, sections: Sequence[tuple[str, str, Sequence]]) -> str:
    """The document: ``sections`` are (anchor, title, parts); parts are markup or text."""
    nav = " ".join(f'<a href="#{esc(anchor)}">{esc(name)}</a>' for anchor, name, _ in sections)
    body = [heading, f"<nav>{nav}</nav>"]
    for anchor, name, parts in sections:
        body.append(f'<section id="{esc(anchor)}"><h2>{esc(name)}</h2>')
        body.extend(part if isinstance(part, Html) else _paragraph(part) for part in parts)
        body.append("</section>")
    body.append(
        f"<footer>Written by mjsim {esc(__version__)} (<code>sim.report</code>). Figures are "
        f"embedded; copies are in <code>{FIGURES_DIR}/</code>.</footer>"
    )
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{esc(title)}</title>\n<style>{CSS}</style>\n</head>\n<body>\n"
        + "\n".join(body)
        + "\n</body>\n</html>\n"
    )


# --------------------------------------------------------------------------- options


def _variant_defaults(variant: str | None) -> tuple[dict, dict[str, str]]:
    """(defaults, Chinese rule names and meanings) of the variant's options, from the variant
    registry; empty for a variant this version of mjsim does not know."""
    from .variants import VARIANT_NAMES, get_variant

    if variant not in VARIANT_NAMES:
        return {}, {}
    spec = get_variant(variant)
    defaults = {f.name: getattr(spec.options_class(), f.name) for f in fields(spec.options_class)}
    return defaults, dict(spec.option_titles)


def _value_text(value) -> str:
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value)
    return str(value)


def _options_table(options: dict, variant: str | None) -> Html:
    defaults, names = _variant_defaults(variant)
    rows, classes = [], []
    for name, value in options.items():
        default = defaults.get(name, None)
        changed = name in defaults and value != default
        rows.append(
            [name, names.get(name, ""), _value_text(value), "" if not defaults else default]
        )
        classes.append("changed" if changed else "")
    if not rows:
        return _paragraph("The manifest records no options.")
    columns = ["option", "rule 规则", "value", "default"] if defaults else ["option", "", "value"]
    if not defaults:
        rows = [row[:3] for row in rows]
    return _table(columns, rows, table_id="options", row_classes=classes)


# --------------------------------------------------------------------------- run report


def _seconds(value) -> str:
    return "–" if _missing(value) else f"{float(value):,.1f} s"


def _header_facts(run: analysis.Run, shown_path: str) -> list[tuple[str, object]]:
    manifest = run.manifest
    settings = manifest.get("run", {}) or {}
    timings = manifest.get("timings", {}) or {}
    variant = manifest.get("variant")
    hands = len(run.games)
    agents = settings.get("agents")
    play_seconds = timings.get("play_seconds")
    speed = ""
    if not _missing(play_seconds) and play_seconds:
        speed = f" ({hands / float(play_seconds):,.0f} hands per second)"
    parallel = []
    jobs = settings.get("jobs", manifest.get("jobs"))
    if jobs is not None:
        parallel.append(f"{jobs} job{'' if jobs == 1 else 's'}")
    if settings.get("chunk_hands") is not None:
        parallel.append(f"{fmt_count(settings['chunk_hands'])} hands per chunk")
    if manifest.get("chunks") is not None:
        parallel.append(f"{fmt_count(manifest['chunks'])} chunks")
    platform = manifest.get("platform")
    if isinstance(platform, dict):
        platform = ", ".join(f"{key} {value}" for key, value in platform.items())
    commit = manifest.get("commit")
    version = manifest.get("version")
    facts = [
        ("label", run.label),
        ("variant", VARIANT_NAMES.get(variant, variant) if variant else None),
        ("hands 局", fmt_count(hands)),
        ("seed", settings.get("seed")),
        ("hands per session", settings.get("hands_per_session")),
        ("players", run.n_players),
        ("agents", _value_text(agents) if agents else None),
        ("parallel", ", ".join(parallel) or None),
        ("config hash", _code(manifest["config_hash"]) if manifest.get("config_hash") else None),
        (
            "mjsim version",
            f"{version or '–'}, commit {commit}" if commit else (version or None),
        ),
        (
            "timings",
            f"play {_seconds(play_seconds)}, total {_seconds(timings.get('total_seconds'))}{speed}"
            if timings
            else None,
        ),
        ("created", manifest.get("created")),
        ("platform", platform),
        ("run command", _code(manifest["command"]) if manifest.get("command") else None),
        ("report command", _code(f"mjsim report {shlex.quote(shown_path)}")),
    ]
    return facts


def _count_warnings(run: analysis.Run) -> list[Html]:
    counts = run.manifest.get("counts") or {}
    actual = {
        "games": len(run.games),
        "wins": len(run.wins),
        "draws": int((run.games["outcome"].astype(str) == "draw").sum()),
    }
    differ = [
        f"{key}: manifest {counts[key]}, frames {actual[key]}"
        for key in actual
        if key in counts and counts[key] != actual[key]
    ]
    if not differ:
        return []
    return [
        _paragraph("The manifest's counts differ from the frames: " + "; ".join(differ), "warn")
    ]


def _summary(run: analysis.Run) -> tuple[list, _Figure]:
    draws = analysis.draw_rate(run, CONFIDENCE).iloc[0]
    by_seat = analysis.win_rate_by_seat(run, CONFIDENCE)
    advantage = analysis.dealer_advantage(run, CONFIDENCE, ALPHA)
    abs_score = analysis.mean_interval(analysis.metric_values(run, "mean_abs_score"), CONFIDENCE)
    dealer_row = by_seat[by_seat["role"] == "dealer"].iloc[0]
    difference = advantage.set_index("role").loc["difference"]
    key = _key_figures(
        [
            (
                "exhaustive draws 荒庄",
                fmt_pct(draws["rate"]),
                f"{fmt_count(draws['draws'])} of {fmt_count(draws['hands'])} hands, "
                f"{fmt_interval(draws['lo'], draws['hi'], fmt_pct)}",
            ),
            (
                "dealer wins the hand",
                fmt_pct(dealer_row["rate"]),
                fmt_interval(dealer_row["lo"], dealer_row["hi"], fmt_pct),
            ),
            (
                "dealer advantage (points per hand)",
                fmt_num(difference["mean"], sign=True),
                f"{fmt_interval(difference['lo'], difference['hi'], sign=True)}, "
                f"{fmt_p_phrase(difference['p_value'])}",
            ),
            (
                "mean |score| of a seat per hand",
                fmt_num(abs_score.mean),
                fmt_interval(abs_score.lo, abs_score.hi),
            ),
        ]
    )
    seat_rows, seat_classes = [], []
    for _, row in by_seat.iterrows():
        pooled = row["role"] != "all"
        name = ROLE_LABELS[row["role"]] + " (pooled)" if pooled else f"seat {row['seat']}"
        seat_rows.append(
            [
                name,
                fmt_count(row["hands"]),
                fmt_count(row["wins"]),
                fmt_pct(row["rate"]),
                fmt_interval(row["lo"], row["hi"], fmt_pct),
            ]
        )
        seat_classes.append("pooled" if row["role"] == "dealer" else "")
    seats = _table(
        ["seat", "seat-hands", "wins", "win rate", "95% interval"],
        seat_rows,
        "lrrrr",
        "win-rate",
        seat_classes,
    )
    dealer_rows = [
        [
            ROLE_LABELS[row["role"]],
            fmt_count(row["hands"]),
            fmt_num(row["mean"], sign=True),
            fmt_interval(row["lo"], row["hi"], sign=True),
            fmt_num(row["std"]),
        ]
        for _, row in advantage.iterrows()
    ]
    dealer_table = _table(
        ["", "hands", "mean score per hand", "95% interval", "std"],
        dealer_rows,
        "lrrrr",
        "dealer-advantage",
    )
    significant = bool(difference["significant"]) if not _missing(difference["p_value"]) else None
    verdict = {
        True: "significant at the 5% level",
        False: "not significant at the 5% level",
        None: "no test (too few hands or no variation)",
    }[significant]
    test_text = (
        f"Paired t-test over hands of (dealer score − mean non-dealer score): "
        f"t = {fmt_num(difference['statistic'])}, df = {fmt_count(difference['df'])}, "
        f"{fmt_p_phrase(difference['p_value'])}: {verdict}."
    )
    figure = _render(
        _plots().plot_dealer_advantage(advantage),
        "dealer_advantage.png",
        "Mean score per hand of the dealer, the non-dealers and their difference, with 95% "
        "intervals and the paired test's p-value.",
    )
    parts = [
        key,
        Html("<h3>Win rate by seat</h3>"),
        "Seats are fixed places at the table; the dealer moves between them. The pooled rows "
        "count every seat-hand as dealer or non-dealer; the non-dealer rate is per seat.",
        seats,
        Html("<h3>Dealer vs non-dealer score</h3>"),
        dealer_table,
        test_text,
        figure.html(),
    ]
    return parts, figure


def _win_kinds(run: analysis.Run) -> list:
    frame = analysis.win_kinds(run, CONFIDENCE)
    rows = [
        [
            WIN_KIND_LABELS.get(row["win_kind"], row["win_kind"]),
            fmt_count(row["hands"]),
            fmt_pct(row["rate"]),
            fmt_interval(row["lo"], row["hi"], fmt_pct),
            fmt_count(row["winners"]),
            fmt_num(row["mean_points"]),
            fmt_num(row["mean_score"]),
        ]
        for _, row in frame.iterrows()
    ]
    return [
        "How each hand ends (the games frame's win kind); a hand won by several players on one "
        "discard counts once here and once per winner under winners.",
        _table(
            [
                "win kind",
                "hands",
                "share of hands",
                "95% interval",
                "winners",
                "mean base points",
                "mean winner score",
            ],
            rows,
            "lrrrrrr",
            "win-kinds",
        ),
    ]


def _unseen_patterns(run: analysis.Run) -> list[str]:
    if run.manifest.get("variant") != "anhua":
        return []
    from .variants.anhua import NAMED_PATTERNS

    seen = set(run.wins["pattern"].astype(str))
    return [name for name in NAMED_PATTERNS.values() if name not in seen]


def _patterns(run: analysis.Run) -> tuple[list, _Figure | None]:
    frame = analysis.pattern_frequency(run, CONFIDENCE)
    hands = len(run.games)
    rows = [
        [
            row["pattern"],
            row["tier"],
            fmt_count(row["count"]),
            fmt_count(row["hands_with"]),
            fmt_pct(row["rate"]),
            fmt_interval(row["lo"], row["hi"], fmt_pct),
            fmt_pct(row["share_of_wins"]),
            fmt_num(row["mean_points"]),
            fmt_num(row["mean_score"]),
        ]
        for _, row in frame.iterrows()
    ]
    table = _table(
        [
            "pattern 牌型",
            "tier",
            "winners",
            "hands with it",
            "share of hands",
            "95% interval",
            "share of wins",
            "mean base points",
            "mean winner score",
        ],
        rows,
        "llrrrrrrr",
        "patterns",
    )
    figure = None
    if len(frame):  # a run without a win has nothing to draw on a log scale
        figure = _render(
            _plots().plot_pattern_frequency(frame, top=None, hands=hands),
            "pattern_frequency.png",
            "Share of hands with each pattern (log scale) with its 95% Wilson interval, coloured "
            "by tier; n = number of winners.",
        )
    parts = [
        "Every pattern won in the run, most frequent first. Share of hands = hands with at "
        "least one such winner / all hands; winners counts every winner of a multiple win.",
        table,
        figure.html() if figure else "No hand of the run was won.",
    ]
    unseen = _unseen_patterns(run)
    if unseen:
        _, upper = analysis.wilson_interval(0, hands, CONFIDENCE)
        parts.append(
            f"Named patterns of the rules never won in these {hands:,} hands (each occurs in "
            f"at most {fmt_pct(upper)} of hands, the 95% upper bound): {'、'.join(unseen)}."
        )
    return parts, figure


def _tiers(run: analysis.Run) -> list:
    frame = analysis.tier_summary(run, CONFIDENCE)
    rows = [
        [
            row["tier"],
            fmt_count(row["winners"]),
            fmt_count(row["hands_with"]),
            fmt_pct(row["rate"]),
            fmt_interval(row["lo"], row["hi"], fmt_pct),
            fmt_num(row["mean_points"]),
            fmt_num(row["mean_score"]),
            fmt_num(row["score_per_hand"], 3),
            fmt_interval(row["score_lo"], row["score_hi"], digits=3),
            fmt_pct(row["share_of_score"]),
        ]
        for _, row in frame.iterrows()
    ]
    return [
        "Tiers by the number of big features (大胡) of the winning hand. Score per hand = the "
        "winners' score from the tier summed over the run / all hands: what the tier brings per "
        "hand played.",
        _table(
            [
                "tier",
                "winners",
                "hands with it",
                "share of hands",
                "95% interval",
                "mean base points",
                "mean winner score",
                "score per hand",
                "95% interval",
                "share of winners' score",
            ],
            rows,
            "lrrrrrrrrr",
            "tiers",
        ),
    ]


def _scores(run: analysis.Run) -> tuple[list, _Figure]:
    frame = analysis.score_distribution(run, TAIL_THRESHOLDS, CONFIDENCE)
    tails = [f"P(|score| ≥ {t})" for t in TAIL_THRESHOLDS]
    rows, classes = [], []
    for _, row in frame.iterrows():
        if row["role"] == "all" and not _missing(row["seat"]):
            name = f"seat {row['seat']}"
        else:
            name = ROLE_LABELS[row["role"]] + " (pooled)"
        rows.append(
            [
                name,
                fmt_count(row["observations"]),
                fmt_num(row["mean"], sign=True),
                fmt_interval(row["lo"], row["hi"], sign=True),
                fmt_num(row["std"]),
                *(fmt_points(row[c]) for c in ("min", "q05", "q25", "median", "q75", "q95")),
                fmt_points(row["max"]),
                fmt_num(row["mean_abs"]),
                *(fmt_pct(row[analysis._tail_name(t)]) for t in TAIL_THRESHOLDS),
            ]
        )
        classes.append("pooled" if _missing(row["seat"]) and row["role"] == "all" else "")
    table = _table(
        [
            "seat",
            "seat-hands",
            "mean score",
            "95% interval",
            "std",
            "min",
            "5%",
            "25%",
            "median",
            "75%",
            "95%",
            "max",
            "mean |score|",
            *tails,
        ],
        rows,
        "l" + "r" * (12 + len(tails)),
        "scores",
        classes,
    )
    figure = _render(
        _plots().plot_score_distribution(analysis.seat_scores(run)),
        "score_distribution.png",
        "Score change of a seat in one hand: how often each score occurs (left, log scale) and "
        "the empirical CDF (right), per seat.",
    )
    parts = [
        "A seat's score change in one hand (points won or lost, birds and bonuses included). "
        "Quantiles, std and the tail shares are over seat-hands; the intervals of the means are "
        "over hands (a hand's seats are averaged first, so the pooled all-seats mean is 0 in a "
        "zero-sum game).",
        table,
        figure.html(),
    ]
    return parts, figure


def _points(run: analysis.Run) -> list:
    frame = analysis.points_sources(run, CONFIDENCE)
    rows = [
        [
            SOURCE_LABELS.get(row["source"], row["source"]),
            fmt_num(row["points"], 0),
            fmt_num(row["per_hand"], 3),
            fmt_interval(row["lo"], row["hi"], digits=3),
            fmt_pct(row["share"]),
        ]
        for _, row in frame.iterrows()
    ]
    return [
        "Where the points that change hands come from. Pattern points = base points × payers; "
        "birds (and the dealer bonus when enabled) = the rest of the points moved in the hand.",
        _table(
            ["source", "points (total)", "per hand", "95% interval", "share"],
            rows,
            "lrrrr",
            "points",
        ),
    ]


HOW_TO_READ = [
    "Every estimate comes with a 95% interval [lo, hi]: the range of true values consistent "
    "with these hands. It narrows as 1/√hands: four times the hands, half the width.",
    "Shares (draw rate, win rates, patterns, tiers, tails) use the Wilson score interval, which "
    "stays inside [0%, 100%] and remains right for rare patterns; for a pattern never seen in n "
    "hands the upper bound is about 3.84 / n.",
    "Means (scores, points per hand, dealer advantage) use Student's t interval over hands; when "
    "several seats of one hand enter, they are averaged within the hand first, because the "
    "scores of one hand sum to zero and are not independent. Rows pooled over seat-hands (the "
    "non-dealer win rate) are approximate.",
    "The p-value of the dealer advantage is the probability of a difference at least this large "
    "if dealer and non-dealers scored the same on average; below 0.05 it is called significant. "
    "With many intervals on a page, about one in twenty misses its true value by chance.",
    "Hands are treated as independent; the dealer's streak within a session makes them slightly "
    "dependent, which the intervals ignore. Definitions: docs/analysis.md.",
]

HOW_TO_READ_SWEEP = (
    "Sweep: the cells differ only in the swept options. A difference is worth acting on when it "
    "is significant after the adjustment and large enough to matter at the table; a "
    "non-significant difference means these hands cannot tell, not that there is none."
)


def _how_to_read(extra: Sequence[str] = ()) -> list:
    items = "".join(f"<li>{esc(text)}</li>" for text in [*HOW_TO_READ, *extra])
    return [Html(f'<ul class="note">{items}</ul>')]


def _plots():
    from . import plots  # matplotlib: imported only when a report is drawn

    return plots


def build_run_report(
    run: analysis.Run, shown_path: str, parent: tuple[str, str] | None = None
) -> tuple[str, list[_Figure]]:
    """The HTML text of a run's report and its figures (nothing is written).

    ``shown_path``: the directory as the report command names it; ``parent``: (text, href) of
    a link back to the sweep the run belongs to.
    """
    if run.is_combined:
        raise ValueError("a report covers one run; combined runs have a sweep report")
    hands = len(run.games)
    if hands == 0:
        raise ValueError(f"{shown_path}: the run has no hands")
    variant = run.manifest.get("variant")
    subtitle = VARIANT_NAMES.get(variant, variant) if variant else "run"
    heading = (
        f"<h1>{esc(run.label)} <small>{esc(subtitle)} · {esc(f'{hands:,}')} hands</small></h1>"
    )
    if parent:
        heading += f"<p>Cell of the sweep {_link(parent[1], parent[0])}.</p>"
    summary, dealer_figure = _summary(run)
    patterns, pattern_figure = _patterns(run)
    scores, score_figure = _scores(run)
    sections = [
        (
            "run",
            "Run 运行",
            [
                _facts(_header_facts(run, shown_path), "run-facts"),
                *_count_warnings(run),
                Html("<h3>Options 规则选项</h3>"),
                "Every resolved option of the run; highlighted rows differ from the variant's "
                "default.",
                _options_table(run.options, variant),
            ],
        ),
        ("summary", "Summary 概要", summary),
        ("win-kinds", "How hands end 胡牌方式", _win_kinds(run)),
        ("patterns", "Patterns 牌型", patterns),
        ("tiers", "Tiers 档次", _tiers(run)),
        ("scores", "Scores 得分", scores),
        ("points", "Points sources 分数来源", _points(run)),
        ("how-to-read", "How to read this", _how_to_read()),
    ]
    document = _page(f"{run.label} — mjsim report", Html(heading), sections)
    figures = [dealer_figure, pattern_figure, score_figure]
    return document, [figure for figure in figures if figure is not None]


def write_run_report(
    path: str | Path, parent: tuple[str, str] | None = None, run: analysis.Run | None = None
) -> Path:
    """Write ``report.html`` and ``figures/`` into the run directory ``path``; returns the
    report's path. ``run``: the loaded run, if the caller has it already."""
    directory = Path(path)
    run = run if run is not None else analysis.load_run(directory)
    document, figures = build_run_report(run, str(path), parent)
    return _write(directory, document, figures)


# --------------------------------------------------------------------------- sweep report


def _metric_label(metric: str) -> str:
    name, _, argument = metric.partition(":")
    if name == "points":
        return SOURCE_LABELS.get(argument, argument) + " per hand"
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
    first = runs[0].games["game"].to_numpy()
    return all(np.array_equal(run.games["game"].to_numpy(), first) for run in runs[1:])


def _cell_href(sweep_dir: Path, run: analysis.Run) -> str:
    relative = Path(os.path.relpath(run.path, sweep_dir)) if run.path else Path(".")
    return quote((relative / REPORT_NAME).as_posix())


def _sweep_tables(sweep: analysis.Sweep, table: pd.DataFrame, hrefs: dict[str, str]) -> list:
    axes = list(sweep.axes)
    outcome_rows, point_rows = [], []
    sources = [
        c.removeprefix("points_")
        for c in table.columns
        if c.startswith("points_") and not c.endswith(("_lo", "_hi"))
    ]
    patterns = [
        c.removeprefix("pattern_")
        for c in table.columns
        if c.startswith("pattern_") and not c.endswith(("_lo", "_hi"))
    ]
    for _, row in table.iterrows():
        cell = _link(hrefs[row["cell"]], row["cell"])
        options = [_value_text(row[a]) for a in axes]
        outcome_rows.append(
            [
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
        )
        point_rows.append(
            [
                cell,
                *options,
                *(
                    _metric_text(
                        f"points:{s}",
                        row[f"points_{s}"],
                        row[f"points_{s}_lo"],
                        row[f"points_{s}_hi"],
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
        )
    outcome = _table(
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
    points = _table(
        [
            "cell",
            *axes,
            *(SOURCE_LABELS.get(s, s) + " per hand" for s in sources),
            *(f"hands with {p}" for p in patterns),
        ],
        point_rows,
        "l" + "l" * len(axes) + "r" * (len(sources) + len(patterns)),
        "sweep-points",
    )
    return [
        "One row per cell with 95% intervals; each cell's name links to its own report.",
        outcome,
        Html("<h3>Points and the most frequent patterns</h3>"),
        points,
    ]


def _sweep_figures(table: pd.DataFrame, axes: list[str]) -> tuple[list, list[_Figure]]:
    plots = _plots()
    figures = []
    if len(axes) == 2:
        for metric in SWEEP_METRICS:
            figures.append(
                _render(
                    plots.plot_sweep_heatmap(table, metric, x=axes[0], y=axes[1]),
                    f"sweep_heatmap_{metric}.png",
                    f"{METRIC_LABELS[metric]} over {axes[0]} × {axes[1]}, each cell with its "
                    "value and 95% interval.",
                )
            )
    if 1 <= len(axes) <= 2:
        figures.append(
            _render(
                plots.plot_sweep_lines(table, list(SWEEP_METRICS), x=axes[0]),
                "sweep_lines.png",
                f"The main metrics against {axes[0]}"
                + (f", one line per value of {axes[1]}" if len(axes) == 2 else "")
                + ", with 95% intervals.",
            )
        )
    if not figures:
        note = (
            "Figures lay out one or two swept options; this sweep has "
            f"{len(axes)} — see the tables."
        )
        return [note], []
    return [figure.html() for figure in figures], figures


def _comparison(
    sweep: analysis.Sweep, table: pd.DataFrame, baseline: str
) -> tuple[list, list[_Figure]]:
    paired = _shares_walls(sweep)
    sources = [
        c.removeprefix("points_")
        for c in table.columns
        if c.startswith("points_") and not c.endswith(("_lo", "_hi"))
    ]
    patterns = [
        c.removeprefix("pattern_")
        for c in table.columns
        if c.startswith("pattern_") and not c.endswith(("_lo", "_hi"))
    ]
    metrics = [
        *SWEEP_METRICS,
        *(f"points:{s}" for s in sources),
        *(f"pattern:{p}" for p in patterns),
    ]
    frame = analysis.compare_runs(
        sweep, metrics, baseline=baseline, alpha=ALPHA, correction="holm", paired=paired
    )
    rows, classes = [], []
    for _, row in frame.iterrows():
        metric = row["metric"]
        rows.append(
            [
                _metric_label(metric),
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
    test = (
        "The cells share their walls (one seed, the same hand numbers), so each cell is "
        "compared with the baseline hand by hand (paired t-test on per-hand values, 0/1 for "
        "shares), which cancels the luck of the deal."
        if paired
        else "Cells are compared as independent samples (two-proportion z-test for shares, "
        "Welch's t-test for means)."
    )
    figure = _render(
        _plots().plot_comparison(frame),
        "sweep_comparison.png",
        f"Difference of each cell from {baseline} with its 95% interval; red: significant "
        "after Holm's adjustment.",
    )
    parts = [
        f"Each cell against the baseline cell {baseline}. {test} p-values are adjusted with "
        f"Holm's method over all {len(frame)} rows; significant = adjusted p < {ALPHA}. "
        "Intervals are 95% and not adjusted.",
        _table(
            [
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
            ],
            rows,
            "lllrrrlrrl",
            "comparison",
            classes,
        ),
        figure.html(),
    ]
    return parts, [figure]


def build_sweep_report(
    sweep: analysis.Sweep, shown_path: str, baseline: str | None = None
) -> tuple[str, list[_Figure], dict[str, str]]:
    """The HTML text of a sweep's report, its figures and the link to each cell's report."""
    if not sweep.runs:
        raise ValueError(f"{shown_path}: the sweep has no cells")
    sweep_dir = sweep.path or Path(shown_path)
    label = sweep.spec.get("label") or sweep_dir.name
    hrefs = {name: _cell_href(sweep_dir, run) for name, run in sweep.runs.items()}
    table = analysis.sweep_table(sweep, top_patterns=3, confidence=CONFIDENCE)
    axes = list(sweep.axes)
    base = _baseline(sweep, baseline)
    variant = next(iter(sweep.runs.values())).manifest.get("variant")
    _, names = _variant_defaults(variant)
    hands = sorted({len(run.games) for run in sweep.runs.values()})
    seeds = sorted({str((r.manifest.get("run") or {}).get("seed")) for r in sweep.runs.values()})
    facts = [
        ("label", label),
        ("variant", VARIANT_NAMES.get(variant, variant) if variant else None),
        ("base config", sweep.spec.get("base")),
        ("cells", len(sweep.runs)),
        ("hands per cell", ", ".join(f"{h:,}" for h in hands)),
        ("seed", ", ".join(seeds)),
        ("baseline cell", _link(hrefs[base], base)),
        ("sweep command", _code(sweep.spec["command"]) if sweep.spec.get("command") else None),
        ("report command", _code(f"mjsim report {shlex.quote(shown_path)}")),
    ]
    axes_table = _table(
        ["option", "rule 规则", "values"],
        [[a, names.get(a, ""), _value_text(v)] for a, v in sweep.axes.items()],
        table_id="axes",
    )
    figure_parts, figures = _sweep_figures(table, axes)
    comparison, comparison_figures = _comparison(sweep, table, base)
    cell_links = "".join(f"<li>{_link(hrefs[name], name)}</li>" for name in sweep.runs)
    sections = [
        (
            "sweep",
            "Sweep 扫描",
            [
                _facts(facts, "sweep-facts"),
                Html("<h3>Swept options</h3>"),
                axes_table,
                Html("<h3>Cell reports</h3>"),
                Html(f'<ul id="cell-reports">{cell_links}</ul>'),
            ],
        ),
        ("table", "Cells 各组", _sweep_tables(sweep, table, hrefs)),
        ("figures", "Figures 图", figure_parts),
        ("comparison", "Differences from the baseline 对比", comparison),
        (
            "how-to-read",
            "How to read this",
            _how_to_read([HOW_TO_READ_SWEEP]),
        ),
    ]
    heading = Html(f"<h1>{esc(label)} <small>sweep · {len(sweep.runs)} cells</small></h1>")
    document = _page(f"{label} — mjsim sweep report", heading, sections)
    return document, [*figures, *comparison_figures], hrefs


def write_sweep_report(path: str | Path, baseline: str | None = None) -> Path:
    """Write the report of every cell, then the sweep's ``report.html`` and ``figures/``."""
    directory = Path(path)
    sweep = analysis.load_sweep(directory)
    document, figures, _ = build_sweep_report(sweep, str(path), baseline)
    label = sweep.spec.get("label") or directory.name
    for run in sweep.runs.values():
        back = quote(Path(os.path.relpath(directory, run.path)).as_posix() + "/" + REPORT_NAME)
        write_run_report(run.path, parent=(label, back), run=run)
    return _write(directory, document, figures)


# --------------------------------------------------------------------------- entry point


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
    # directory that is being replaced (sim.outdir)
    with locked(directory):
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
