"""Rule variants and the registry the runner, configs and CLI use.

A variant is options plus kernels plus names. What the generic layers (``sim.config``,
``sim.runner``, ``sim.cli``) need of one is a :class:`Variant`: its options class (a frozen
dataclass made from its option declarations, see :mod:`sim.options`), a line per
option for configs and reports, the tile set, and three functions: play hands from walls into
int64 records, and turn records into the games and wins frames (:mod:`sim.records`). Weng'an and
Anqing join by adding an entry to :data:`VARIANTS`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd


# report
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


@dataclass(frozen=True)
class Variant:
    name: str
    title: str
    options_class: type
    option_titles: dict[str, str]
    n_tiles: int
    play: Callable[..., np.ndarray]
    """``play(options, walls, first_dealers, hands_per_session, agent_kinds, agent_seed)`` ->
    int64 records, one row per wall; ``first_dealers`` has one seat per session."""
    games_frame: Callable[..., pd.DataFrame]
    """``games_frame(records, options, hands_per_session, first_game)``"""
    wins_frame: Callable[..., pd.DataFrame]
    """``wins_frame(records, options, first_game)``"""
    first_dealers: Callable[..., np.ndarray]
    """``first_dealers(n_sessions, options, seed)``: the first dealer of each session."""
    replay: Callable[..., tuple[np.ndarray, np.ndarray]]
    """``replay(options, walls, first_dealers, hands_per_session, agent_kinds, agent_seed,
    index)`` -> (record, events, final position): hand ``index`` of ``play``'s block again,
    with the log on."""
    describe: Callable[..., list[str]]
    """``describe(events, record, n_players, final=None)``: the event log as lines of text,
    with every seat's final tiles when ``final`` (``sim.kernels.state.FinalPosition``) is
    given, the wins and the score changes (the variant's words over ``sim.replay``'s)."""
    # replay
    describe_json: Callable[..., list[dict]]
    """``describe_json(options, wall, record, events, final)``: the hand as JSON-ready objects,
    one per event, then every seat's final tiles and melds, the winners, every settlement item
    and the result (``sim.replay``; docs/engine.md, "Replay")."""
    # report
    report: ReportText = field(default_factory=ReportText, kw_only=True)
    """Labels and notes of ``mjsim report`` for this variant (keyword-only: free of the order
    of the fields above)."""

    def player_count(self, options: Any) -> int:
        return options.player_count


def _anhua() -> Variant:
    from ..records import hands_frame, wins_frame
    from . import anhua
    from .anhua import presentation
    from .anhua import replay as anhua_replay

    return Variant(
        name="anhua",
        title="安化七王麻将 Anhua Seven Kings",
        options_class=anhua.AnhuaOptions,
        option_titles=anhua.OPTION_TITLES,
        n_tiles=anhua.N_TILES,
        play=anhua.play_records,
        games_frame=lambda records, options, hands_per_session, first_game: hands_frame(
            records, options.player_count, hands_per_session, first_game
        ),
        wins_frame=lambda records, options, first_game: wins_frame(
            records, options.player_count, first_game
        ),
        first_dealers=anhua.session_first_dealers,
        replay=anhua.replay_hand,
        describe=anhua_replay.describe,
        # replay
        describe_json=anhua_replay.describe_json,
        report=presentation.REPORT,
    )


_FACTORIES: dict[str, Callable[[], Variant]] = {"anhua": _anhua}
VARIANT_NAMES = tuple(_FACTORIES)


def get_variant(name: str) -> Variant:
    """The registered variant ``name``; a one-line error naming the known ones."""
    if name not in _FACTORIES:
        raise ValueError(f"variant: unknown variant {name!r}; allowed: {', '.join(_FACTORIES)}")
    return _FACTORIES[name]()
