"""The report of one run: its settings and options, and every table and figure of its results.

Sections: Run (facts of the manifest and the options), Summary (key figures, win rate by seat,
dealer advantage), How hands end, Patterns, Tiers, Scores, Points sources, How to read this.
The numbers come from :mod:`sim.analysis`, the figures from :mod:`sim.plots`; labels and notes
that belong to one game from the variant's registry entry (:mod:`sim.report.labels`).

The run is read batch by batch (:func:`sim.analysis.open_run`): every table and figure is made
of counts, exact sums and counts per value, so the memory a report takes does not grow with the
run's length, and a run held in memory (:class:`sim.analysis.Run`) gives the same page.
"""

from __future__ import annotations

import shlex
from pathlib import Path

from .. import analysis
from .formatting import (
    Html,
    esc,
    fmt_count,
    fmt_interval,
    fmt_num,
    fmt_p_phrase,
    fmt_pct,
    fmt_points,
    fmt_seconds,
    missing,
    value_text,
)
from .labels import ROLE_LABELS, VariantLabels, variant_labels
from .markup import code, facts, key_figures, link, note_list, paragraph, table
from .page import Figure, page, plots, render, write

CONFIDENCE = 0.95
ALPHA = 0.05
TAIL_THRESHOLDS = (8, 16, 32, 64)

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


# --------------------------------------------------------------------------- the run section


def _parallel_text(manifest: dict, settings: dict) -> str | None:
    parallel = []
    jobs = settings.get("jobs", manifest.get("jobs"))
    if jobs is not None:
        parallel.append(f"{jobs} job{'' if jobs == 1 else 's'}")
    if settings.get("chunk_hands") is not None:
        parallel.append(f"{fmt_count(settings['chunk_hands'])} hands per chunk")
    if manifest.get("chunks") is not None:
        parallel.append(f"{fmt_count(manifest['chunks'])} chunks")
    return ", ".join(parallel) or None


def _timings_text(timings: dict, hands: int) -> str | None:
    if not timings:
        return None
    play_seconds = timings.get("play_seconds")
    speed = ""
    if not missing(play_seconds) and play_seconds:
        speed = f" ({hands / float(play_seconds):,.0f} hands per second)"
    total = fmt_seconds(timings.get("total_seconds"))
    return f"play {fmt_seconds(play_seconds)}, total {total}{speed}"


def _header_facts(
    run: analysis.Run, shown_path: str, labels: VariantLabels, hands: int
) -> list[tuple[str, object]]:
    manifest = run.manifest
    settings = manifest.get("run", {}) or {}
    agents = settings.get("agents")
    platform = manifest.get("platform")
    if isinstance(platform, dict):
        platform = ", ".join(f"{key} {value}" for key, value in platform.items())
    commit = manifest.get("commit")
    version = manifest.get("version")
    return [
        ("label", run.label),
        ("variant", labels.title),
        ("hands 局", fmt_count(hands)),
        ("seed", settings.get("seed")),
        ("hands per session", settings.get("hands_per_session")),
        ("players", run.n_players),
        ("agents", value_text(agents) if agents else None),
        ("parallel", _parallel_text(manifest, settings)),
        ("config hash", code(manifest["config_hash"]) if manifest.get("config_hash") else None),
        (
            "mjsim version",
            f"{version or '–'}, commit {commit}" if commit else (version or None),
        ),
        ("timings", _timings_text(manifest.get("timings", {}) or {}, hands)),
        ("created", manifest.get("created")),
        ("platform", platform),
        ("run command", code(manifest["command"]) if manifest.get("command") else None),
        ("report command", code(f"mjsim report {shlex.quote(shown_path)}")),
    ]


def _count_warnings(run: analysis.Run, actual: dict[str, int]) -> list[Html]:
    """A warning where the manifest's ``counts`` differ from ``actual`` (games, wins, draws)."""
    counts = run.manifest.get("counts") or {}
    differ = [
        f"{key}: manifest {counts[key]}, frames {actual[key]}"
        for key in actual
        if key in counts and counts[key] != actual[key]
    ]
    if not differ:
        return []
    return [paragraph("The manifest's counts differ from the frames: " + "; ".join(differ), "warn")]


def _options_table(options: dict, labels: VariantLabels) -> Html:
    defaults, names = labels.defaults, labels.option_titles
    rows, classes = [], []
    for name, value in options.items():
        default = defaults.get(name, None)
        changed = name in defaults and value != default
        rows.append([name, names.get(name, ""), value_text(value), "" if not defaults else default])
        classes.append("changed" if changed else "")
    if not rows:
        return paragraph("The manifest records no options.")
    columns = ["option", "rule 规则", "value", "default"] if defaults else ["option", "", "value"]
    if not defaults:
        rows = [row[:3] for row in rows]
    return table(columns, rows, table_id="options", row_classes=classes)


# --------------------------------------------------------------------------- summary


def _key_figures(run: analysis.Run, draws, by_seat, difference) -> Html:
    abs_score = analysis.metric_estimate(run, "mean_abs_score", CONFIDENCE)
    dealer_row = by_seat[by_seat["role"] == "dealer"].iloc[0]
    return key_figures(
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
                fmt_num(abs_score["estimate"]),
                fmt_interval(abs_score["lo"], abs_score["hi"]),
            ),
        ]
    )


def _seat_table(by_seat) -> Html:
    rows, classes = [], []
    for _, row in by_seat.iterrows():
        pooled = row["role"] != "all"
        name = ROLE_LABELS[row["role"]] + " (pooled)" if pooled else f"seat {row['seat']}"
        rows.append(
            [
                name,
                fmt_count(row["hands"]),
                fmt_count(row["wins"]),
                fmt_pct(row["rate"]),
                fmt_interval(row["lo"], row["hi"], fmt_pct),
            ]
        )
        classes.append("pooled" if row["role"] == "dealer" else "")
    columns = ["seat", "seat-hands", "wins", "win rate", "95% interval"]
    return table(columns, rows, "lrrrr", "win-rate", classes)


def _dealer_table(advantage) -> Html:
    rows = [
        [
            ROLE_LABELS[row["role"]],
            fmt_count(row["hands"]),
            fmt_num(row["mean"], sign=True),
            fmt_interval(row["lo"], row["hi"], sign=True),
            fmt_num(row["std"]),
        ]
        for _, row in advantage.iterrows()
    ]
    columns = ["", "hands", "mean score per hand", "95% interval", "std"]
    return table(columns, rows, "lrrrr", "dealer-advantage")


def _dealer_test_text(difference) -> str:
    significant = bool(difference["significant"]) if not missing(difference["p_value"]) else None
    verdict = {
        True: "significant at the 5% level",
        False: "not significant at the 5% level",
        None: "no test (too few hands or no variation)",
    }[significant]
    return (
        f"Paired t-test over hands of (dealer score − mean non-dealer score): "
        f"t = {fmt_num(difference['statistic'])}, df = {fmt_count(difference['df'])}, "
        f"{fmt_p_phrase(difference['p_value'])}: {verdict}."
    )


def _summary(run: analysis.Run, draws) -> tuple[list, Figure]:
    by_seat = analysis.win_rate_by_seat(run, CONFIDENCE)
    advantage = analysis.dealer_advantage(run, CONFIDENCE, ALPHA)
    difference = advantage.set_index("role").loc["difference"]
    figure = render(
        plots().plot_dealer_advantage(advantage),
        "dealer_advantage.png",
        "Mean score per hand of the dealer, the non-dealers and their difference, with 95% "
        "intervals and the paired test's p-value.",
    )
    parts = [
        _key_figures(run, draws, by_seat, difference),
        Html("<h3>Win rate by seat</h3>"),
        "Seats are fixed places at the table; the dealer moves between them. The pooled rows "
        "count every seat-hand as dealer or non-dealer; the non-dealer rate is per seat.",
        _seat_table(by_seat),
        Html("<h3>Dealer vs non-dealer score</h3>"),
        _dealer_table(advantage),
        _dealer_test_text(difference),
        figure.html(),
    ]
    return parts, figure


# --------------------------------------------------------------------------- results


def _win_kinds(run: analysis.Run, labels: VariantLabels) -> list:
    frame = analysis.win_kinds(run, CONFIDENCE)
    rows = [
        [
            labels.win_kind(row["win_kind"]),
            fmt_count(row["hands"]),
            fmt_pct(row["rate"]),
            fmt_interval(row["lo"], row["hi"], fmt_pct),
            fmt_count(row["winners"]),
            fmt_num(row["mean_points"]),
            fmt_num(row["mean_score"]),
        ]
        for _, row in frame.iterrows()
    ]
    columns = [
        "win kind",
        "hands",
        "share of hands",
        "95% interval",
        "winners",
        "mean base points",
        "mean winner score",
    ]
    return [
        "How each hand ends (the games frame's win kind); a hand won by several players on one "
        "discard counts once here and once per winner under winners.",
        table(columns, rows, "lrrrrrr", "win-kinds"),
    ]


def _pattern_table(frame) -> Html:
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
    columns = [
        "pattern 牌型",
        "tier",
        "winners",
        "hands with it",
        "share of hands",
        "95% interval",
        "share of wins",
        "mean base points",
        "mean winner score",
    ]
    return table(columns, rows, "llrrrrrrr", "patterns")


def _unseen_patterns_text(frame, hands: int, labels: VariantLabels) -> list[str]:
    """The rules' named patterns no winner of the run had (``frame``: its pattern table)."""
    seen = set(frame["pattern"])
    unseen = [name for name in labels.text.named_patterns if name not in seen]
    if not unseen:
        return []
    _, upper = analysis.wilson_interval(0, hands, CONFIDENCE)
    return [
        f"Named patterns of the rules never won in these {hands:,} hands (each occurs in "
        f"at most {fmt_pct(upper)} of hands, the 95% upper bound): {'、'.join(unseen)}."
    ]


def _patterns(frame, hands: int, labels: VariantLabels) -> tuple[list, Figure | None]:
    figure = None
    if len(frame):  # a run without a win has nothing to draw on a log scale
        figure = render(
            plots().plot_pattern_frequency(frame, top=None, hands=hands),
            "pattern_frequency.png",
            "Share of hands with each pattern (log scale) with its 95% Wilson interval, coloured "
            "by tier; n = number of winners.",
        )
    parts = [
        "Every pattern won in the run, most frequent first. Share of hands = hands with at "
        "least one such winner / all hands; winners counts every winner of a multiple win.",
        _pattern_table(frame),
        figure.html() if figure else "No hand of the run was won.",
        *_unseen_patterns_text(frame, hands, labels),
    ]
    return parts, figure


def _tiers(run: analysis.Run, labels: VariantLabels) -> list:
    if "tier" not in _columns(run, "wins"):  # a variant whose wins have no tiers (its note)
        return [labels.text.tier_note or "The variant's wins have no tiers."]
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
    columns = [
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
    ]
    note = labels.text.tier_note + " " if labels.text.tier_note else ""
    return [
        f"{note}Score per hand = the winners' score from the tier summed over the run / all "
        "hands: what the tier brings per hand played.",
        table(columns, rows, "lrrrrrrrrr", "tiers"),
    ]


def _score_table(frame) -> Html:
    rows, classes = [], []
    for _, row in frame.iterrows():
        if row["role"] == "all" and not missing(row["seat"]):
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
        classes.append("pooled" if missing(row["seat"]) and row["role"] == "all" else "")
    columns = [
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
        *(f"P(|score| ≥ {t})" for t in TAIL_THRESHOLDS),
    ]
    return table(columns, rows, "l" + "r" * (len(columns) - 1), "scores", classes)


def _scores(run: analysis.Run, labels: VariantLabels) -> tuple[list, Figure]:
    frame = analysis.score_distribution(run, TAIL_THRESHOLDS, CONFIDENCE)
    figure = render(
        plots().plot_score_distribution(analysis.seat_score_counts(run)),
        "score_distribution.png",
        "Score change of a seat in one hand: how often each score occurs (left, log scale) and "
        "the empirical CDF (right), per seat.",
    )
    includes = f", {labels.text.score_includes} included" if labels.text.score_includes else ""
    parts = [
        f"A seat's score change in one hand (points won or lost{includes}). "
        "Quantiles, std and the tail shares are over seat-hands; the intervals of the means are "
        "over hands (a hand's seats are averaged first, so the pooled all-seats mean is 0 in a "
        "zero-sum game).",
        _score_table(frame),
        figure.html(),
    ]
    return parts, figure


def _points_figure(run: analysis.Run, frame, labels: VariantLabels) -> Figure | None:
    """Mean points per hand of each source and the spread of each seat's net from the sources
    the frames record per seat; none when no point changed hands."""
    if not (frame["points"] > 0).any():
        return None
    nets = analysis.seat_source_net_counts(run)
    spread = (
        " (left) and how often a seat's net from each source takes each value (right, log "
        "scale; the sources the run records per seat)"
        if len(nets)
        else ""
    )
    return render(
        plots().plot_points_sources(
            frame, nets, {source: labels.points_source(source) for source in frame["source"]}
        ),
        "points_sources.png",
        f"Points moved per hand by each source with 95% intervals and its share of all points"
        f"{spread}.",
    )


def _points(run: analysis.Run, labels: VariantLabels) -> tuple[list, Figure | None]:
    frame = analysis.points_sources(run, CONFIDENCE)
    rows = [
        [
            labels.points_source(row["source"]),
            fmt_num(row["points"], 0),
            fmt_num(row["per_hand"], 3),
            fmt_interval(row["lo"], row["hi"], digits=3),
            fmt_pct(row["share"]),
        ]
        for _, row in frame.iterrows()
    ]
    note = " " + labels.text.points_note if labels.text.points_note else ""
    figure = _points_figure(run, frame, labels)
    parts = [
        f"Where the points that change hands come from.{note}",
        table(
            ["source", "points (total)", "per hand", "95% interval", "share"],
            rows,
            "lrrrr",
            "points",
        ),
    ]
    return [*parts, *_net_table(run, labels)] + ([figure.html()] if figure else []), figure


def _net_table(run: analysis.Run, labels: VariantLabels) -> list:
    """How far each source with per-seat nets swings a seat's score (none: no such source)."""
    frame = analysis.source_net_summary(run, CONFIDENCE)
    if frame.empty:
        return []
    rows = [
        [
            labels.points_source(row["source"]),
            fmt_num(row["mean_abs"], 3),
            fmt_interval(row["lo"], row["hi"], digits=3),
            fmt_num(row["std"]),
            fmt_pct(row["nonzero"]),
            f"{fmt_points(row['q05'])} to {fmt_points(row['q95'])}",
            f"{fmt_points(row['min'])} to {fmt_points(row['max'])}",
        ]
        for _, row in frame.iterrows()
    ]
    columns = ["source", "mean |net| of a seat", "95% interval", "std", "seat-hands moved",
               "5%–95%", "range"]  # fmt: skip
    return [
        Html("<h3>Each seat's net by source</h3>"),
        "A seat's net points from each source the run records per seat, over seat-hands: how "
        "far the source swings a score (the interval of the mean is over hands).",
        table(columns, rows, "lrrrrrr", "source-nets"),
    ]


def _counted_section(run: analysis.Run, section) -> tuple[list, Figure | None]:
    """A section the variant declares (``ReportText.sections``): its rows' counts, shares,
    intervals and means, as a table and a figure."""
    frame = analysis.counted_rows(run, section, CONFIDENCE)
    per = "winners" if section.frame == "wins" else "hands"
    value = section.value_name
    columns = ["", per, f"share of {per}", "95% interval", f"mean {value} where set",
               f"{value} per hand"]  # fmt: skip
    second = section.second_name and frame["second"].notna().any()
    if second:
        columns.append(f"mean {section.second_name} where set")
    rows = [
        [
            row["label"],
            fmt_count(row["count"]),
            fmt_pct(row["rate"]),
            fmt_interval(row["lo"], row["hi"], fmt_pct),
            "–" if missing(row["mean"]) else fmt_num(row["mean"]),
            fmt_num(row["per_hand"], 3),
            *(["–" if missing(row["second"]) else fmt_num(row["second"])] if second else []),
        ]
        for _, row in frame.iterrows()
    ]
    figure = None
    if len(frame) and frame["rows"].iloc[0] > 0:
        figure = render(
            plots().plot_counted_rows(frame, per, value, section.title),
            f"{section.key}.png",
            f"{section.title}: share of {per} with each (log scale) with its 95% Wilson "
            f"interval, and the mean {value} where it applies.",
        )
    table_html = table(columns, rows, "l" + "r" * (len(columns) - 1), section.key)
    return [section.intro, table_html, *([figure.html()] if figure else [])], figure


# --------------------------------------------------------------------------- the page


def how_to_read(extra=()) -> list:
    """The "How to read this" section: :data:`HOW_TO_READ` and ``extra`` items."""
    return [note_list([*HOW_TO_READ, *extra])]


def _columns(run, frame: str) -> list[str]:
    """The columns of the run's ``games`` or ``wins`` table, stored or in memory."""
    if isinstance(run, analysis.StoredRun):
        return run.columns(frame)
    return list(getattr(run, frame).columns)


def build_run_report(
    run: analysis.Run | analysis.StoredRun,
    shown_path: str,
    parent: tuple[str, str] | None = None,
) -> tuple[str, list[Figure]]:
    """The HTML text of a run's report and its figures (nothing is written).

    ``run``: a run in memory, or a stored one (:func:`sim.analysis.open_run`), read batch by
    batch: the same page. ``shown_path``: the directory as the report command names it;
    ``parent``: (text, href) of a link back to the sweep the run belongs to.
    """
    if run.is_combined:
        raise ValueError("a report covers one run; combined runs have a sweep report")
    draws = analysis.draw_rate(run, CONFIDENCE).iloc[0]
    hands = int(draws["hands"])
    if hands == 0:
        raise ValueError(f"{shown_path}: the run has no hands")
    labels = variant_labels(run.manifest.get("variant"))
    subtitle = labels.title or "run"
    heading = (
        f"<h1>{esc(run.label)} <small>{esc(subtitle)} · {esc(f'{hands:,}')} hands</small></h1>"
    )
    if parent:
        heading += f"<p>Cell of the sweep {link(parent[1], parent[0])}.</p>"
    summary, dealer_figure = _summary(run, draws)
    pattern_frame = analysis.pattern_frequency(run, CONFIDENCE)
    patterns, pattern_figure = _patterns(pattern_frame, hands, labels)
    # every winner is counted under its pattern
    actual = {"games": hands, "wins": int(pattern_frame["count"].sum()),
              "draws": int(draws["draws"])}  # fmt: skip
    scores, score_figure = _scores(run, labels)
    points, points_figure = _points(run, labels)
    run_section = [
        facts(_header_facts(run, shown_path, labels, hands), "run-facts"),
        *_count_warnings(run, actual),
        Html("<h3>Options 规则选项</h3>"),
        "Every resolved option of the run; highlighted rows differ from the variant's default.",
        _options_table(run.options, labels),
    ]
    sections = [
        ("run", "Run 运行", run_section),
        ("summary", "Summary 概要", summary),
        ("win-kinds", "How hands end 胡牌方式", _win_kinds(run, labels)),
        ("patterns", "Patterns 牌型", patterns),
        ("tiers", "Tiers 档次", _tiers(run, labels)),
        ("scores", "Scores 得分", scores),
        ("points", "Points sources 分数来源", points),
    ]
    figures = [dealer_figure, pattern_figure, score_figure, points_figure]
    for declared in labels.text.sections:  # the variant's own sections
        parts, figure = _counted_section(run, declared)
        sections.append((declared.key, declared.title, parts))
        figures.append(figure)
    sections.append(("how-to-read", "How to read this", how_to_read()))
    document = page(f"{run.label} — mjsim report", Html(heading), sections)
    return document, [figure for figure in figures if figure is not None]


def write_run_report(
    path: str | Path,
    parent: tuple[str, str] | None = None,
    run: analysis.Run | analysis.StoredRun | None = None,
    into: Path | None = None,
) -> Path:
    """Write ``report.html`` and ``figures/`` of the run directory ``path`` into it, or into
    the folder ``into``; returns the report's path. ``run``: the run, if the caller has it
    already opened or loaded (default: opened to be read batch by batch)."""
    directory = Path(path)
    run = run if run is not None else analysis.open_run(directory)
    document, figures = build_run_report(run, str(path), parent)
    return write(into if into is not None else directory, document, figures)
