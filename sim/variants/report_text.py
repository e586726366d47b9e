"""What the report says of a variant beyond its options (:class:`ReportText`).

A module of its own so that a variant's ``presentation.py`` can make one without importing the
registry (:mod:`sim.variants`), which imports the variants.
"""

from __future__ import annotations

from dataclasses import dataclass, field


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
