"""The report of a comparison directory (``mjsim compare``): agents on duplicate deals."""

from __future__ import annotations

from pathlib import Path

from ..analysis.duplicate import duplicate_comparison, load_comparison, paired_differences
from .formatting import Html, esc, fmt_interval, fmt_num, fmt_pct
from .markup import facts, table
from .page import page, write


def comparison_sections(settings: dict, hands) -> list[tuple[str, str, list]]:
    """The report's sections: the settings, the agents' comparison and every pair."""
    agents = settings["agents"]
    frame = duplicate_comparison(hands, agents, settings["session_hands"], settings["loss"])
    pairs = paired_differences(hands, agents)
    reference = agents[0]
    session = f"P(lose {settings['loss']:g} in {settings['session_hands']} hands)"
    rows = [
        [
            row.agent,
            fmt_num(row.mean, sign=True),
            fmt_num(row.diff, sign=True),
            fmt_interval(row.diff_lo, row.diff_hi, sign=True),
            fmt_pct(row.win_rate),
            fmt_pct(row.deal_in_rate),
            fmt_pct(row.draw_rate),
            fmt_num(row.mean_turns, 1),
            fmt_num(row.seat_sd, 1),
            fmt_pct(row.p_session_loss),
        ]
        for row in frame.itertuples()
    ]
    columns = [
        "agent",
        "mean score per hand",
        f"minus {reference}",
        "95% interval (by wall)",
        "win rate",
        "deal-in rate",
        "draw rate",
        "hand length (draws)",
        "seat spread (sd)",
        session,
    ]
    pair_rows = [
        [
            f"{row.first} − {row.second}",
            fmt_num(row.diff, sign=True),
            fmt_interval(row.lo, row.hi, sign=True),
            "yes" if row.excludes_zero else "no",
        ]
        for row in pairs.itertuples()
    ]
    setting_rows = [
        ("variant", settings["variant"]),
        ("walls (deals)", f"{settings['deals']:,}"),
        ("seed", settings["seed"]),
        ("rotations", "; ".join(", ".join(seats) for seats in settings["rotations"])),
    ]
    return [
        (
            "agents",
            "Agents on duplicate deals",
            [
                "Every wall is played once per rotation of the agents around the table, with the "
                "same first dealer, so the luck of the deal falls on every agent alike. Each "
                "difference is paired by wall; its 95% interval is Student's t over walls "
                "(clustered by wall).",
                table(columns, rows, "lrrrrrrrrr", "comparison"),
            ],
        ),
        (
            "pairs",
            "Every pair",
            [table(["pair", "difference", "95% interval", "excludes 0"], pair_rows, "lrrl")],
        ),
        ("settings", "Settings", [facts(setting_rows, "settings")]),
    ]


def write_comparison_report(directory: Path, into: Path | None = None) -> Path:
    """Write ``report.html`` into a comparison directory, or into the folder ``into``; returns
    its path."""
    settings, hands = load_comparison(directory)
    heading = Html(
        f"<h1>{esc(settings['label'])} <small>duplicate deals · "
        f"{esc(', '.join(settings['agents']))}</small></h1>"
    )
    document = page(
        f"{settings['label']} — mjsim comparison report",
        heading,
        comparison_sections(settings, hands),
    )
    return write(into if into is not None else directory, document, [])
