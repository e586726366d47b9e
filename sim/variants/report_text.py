"""What the report says of a variant beyond its options (:class:`ReportText`).

A module of its own so that a variant's ``presentation.py`` can make one without importing the
registry (:mod:`sim.variants`), which imports the variants.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class CountedRow:
    """One row of a :class:`CountedSection`: a thing that happens in some rows of a frame."""

    label: str
    """What the row counts (the variant's name for it)."""
    value: str
    """The frame column of its value (points, say); the row is set where it is not 0, unless
    ``flag`` says otherwise."""
    flag: tuple[str, int] | None = None
    """(column, bit): the row is set where that bit of the column is (a thing worth 0 points
    still counts)."""
    second: str | None = None
    """A second value column, shown as its mean where the row is set."""


@dataclass(frozen=True)
class CountedSection:
    """A section of the run report that a variant declares: how often each of its rows is set
    among the rows of one frame (``wins``: per winner; ``games``: per hand) with a 95%
    interval, and the mean of its value where set, as a table and a figure
    (:func:`sim.analysis.counted_rows`, :func:`sim.plots.plot_counted_rows`)."""

    key: str
    """The section's anchor and its figure's file name."""
    title: str
    intro: str
    """The sentence that opens the section."""
    frame: str
    """``wins`` or ``games``."""
    rows: tuple[CountedRow, ...]
    value_name: str = "points"
    """What the rows' ``value`` columns hold, for the headings."""
    second_name: str = ""
    """What their ``second`` columns hold."""


@dataclass(frozen=True)
class ReportText:
    """What ``mjsim report`` says of a variant beyond its options: labels of what only this game
    has, and a sentence on its tiers, scores and points (``sim/variants/<name>/presentation.py``).
    The report labels the common win kinds and pattern points itself."""

    win_kind_labels: dict[str, str] = field(default_factory=dict)
    """Win kind of the frames -> label, for the kinds only this game has."""
    points_source_labels: dict[str, str] = field(default_factory=dict)
    """Points source (:func:`sim.analysis.points_sources`) -> label, besides pattern points."""
    named_patterns: tuple[str, ...] = ()
    """Every pattern the rules name, in their order: a report lists those a run never won."""
    tier_note: str = ""
    """What the ``tier`` column of the wins frame counts; opens the report's tier section."""
    score_includes: str = ""
    """What a seat's score change holds besides pattern points, as a phrase ("x and y")."""
    points_note: str = ""
    """How :func:`sim.analysis.points_sources` splits the points moved in a hand."""
    sections: tuple[CountedSection, ...] = ()
    """Sections of the variant's own, after the points sources."""
