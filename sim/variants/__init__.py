"""Rule variants and the registry the runner, configs and CLI use.

A variant is options plus kernels plus names. What the generic layers (``sim.running.config``,
``sim.running.runner``, ``sim.cli``, ``sim.running.records``, ``sim.analysis``, ``sim.plots``,
``sim.studies.sweep``, ``sim.variants.replay``, ``sim.report``) need of one is a :class:`Variant`:
its options class (a frozen dataclass made from its option declarations, see
:mod:`sim.variants.options`), a line per option for configs and reports, the tile set, the functions
that play hands from walls into int64 records and replay one, and the declarations the frames,
analyses, figures, replays and reports are made from: its win kinds, its own columns of the games
and wins frames (:class:`sim.variants.columns.Column`) with the functions computing them from the
records, its status columns (:class:`sim.kernels.status.StatusColumn`), its point
sources, tier colours, figure labels, sweep metrics, event descriptions and report texts.
A variant registers itself by its folder's ``entry.py``, whose ``variant()`` returns its entry
(Anhua's and Weng'an's are there); Anqing joins by adding its own.

Beside the variants' folders sit what a variant declares with: ``options`` (option
declarations), ``columns`` (frame columns), ``replay`` (the generic replay words), ``session``
(playing sessions of hands) and ``report_text``. The layer imports ``sim.core`` and
``sim.kernels``; from ``sim.running`` only ``records`` (the frames' helpers) and
``compile_ahead`` (the engines' compile-ahead), neither of which imports a variant at module level.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from .report_text import ReportText

if TYPE_CHECKING:
    import pandas as pd

    from ..kernels.status import StatusColumn
    from .columns import Column


@dataclass(frozen=True)
class Variant:
    name: str
    title: str
    options_class: type
    option_titles: dict[str, str]
    n_tiles: int
    play: Callable[..., np.ndarray]
    """``play(options, walls, first_dealers, hands_per_session, agent_kinds, agent_seed,
    agent_params=None)`` -> int64 records, one row per wall; ``first_dealers`` has one seat per
    session; ``agent_params`` each seat's agent parameters (None: the defaults)."""
    first_dealers: Callable[..., np.ndarray]
    """``first_dealers(n_sessions, options, seed)``: the first dealer of each session."""
    replay: Callable[..., tuple[np.ndarray, np.ndarray]]
    """``replay(options, walls, first_dealers, hands_per_session, agent_kinds, agent_seed,
    index, agent_params=None)`` -> (record, events, final position): hand ``index`` of
    ``play``'s block again, with the log on."""
    describe: Callable[..., list[str]]
    """``describe(events, record, n_players, final=None, wall=None)``: the event log as lines
    of text (each deal with its tiles when the ``wall`` as dealt is given), with every seat's
    final tiles when ``final`` (``sim.kernels.state.FinalPosition``) is given, the wins and the
    score changes (the variant's words over ``sim.variants.replay``'s)."""
    # replay
    describe_json: Callable[..., list[dict]]
    """``describe_json(options, wall, record, events, final)``: the hand as JSON-ready objects,
    one per event, then every seat's final tiles and melds, the winners, every settlement item
    and the result (``sim.variants.replay``; docs/engine.md, "Replay")."""
    # report
    report: ReportText = field(default_factory=ReportText, kw_only=True)
    """Labels and notes of ``mjsim report`` for this variant (keyword-only: free of the order
    of the fields above)."""
    seat_status: tuple[StatusColumn, ...] = field(kw_only=True)
    """The variant's own per-seat columns of the game state's ``status``
    (``sim.kernels.status``), in slot order from ``FIRST_VARIANT_SLOT``: the replay shows them
    after the engine's (``ReplayWords.seat_status`` names the same tuple)."""
    hand_status: tuple[StatusColumn, ...] = field(kw_only=True)
    """The variant's own columns of the hand row of ``status``, likewise."""

    def __post_init__(self) -> None:
        from ..kernels.status import laid_out

        # a one-line error when a declaration does not fit, repeats a name or is in another row
        laid_out((), self.seat_status, "seat")
        laid_out((), self.hand_status, "hand")

    # frames, analysis, plots, sweeps
    win_kinds: Mapping[int, str]
    """How a hand was won (``R_WIN_KIND`` of the records) -> its name in the frames, in the
    order the frames list them (``none``, a hand nobody won, comes last)."""
    games_columns: tuple[Column, ...]
    """The variant's own columns of the games frame, each placed by its ``after``."""
    games_values: Callable[..., dict]
    """``games_values(records, n_players, options)`` -> column name -> values (one per
    record), for every column of ``games_columns`` (one per seat where declared so)."""
    wins_columns: tuple[Column, ...]
    """The variant's own columns of the wins frame; ``sim.analysis`` needs ``pattern`` (the
    name of a win's pattern) and reads ``tier`` where there is one."""
    wins_values: Callable[..., dict]
    """``wins_values(winners, n_players, options)`` -> column name -> values, one per winner
    (``winners``: :class:`sim.running.records.Winners`)."""
    point_sources: Callable[..., dict[str, np.ndarray]] | None
    """``point_sources(games, wins, rows, options, n_players, explained)`` -> source -> points
    per hand, for sources of points the frames do not record as ``points_from_<source>``
    columns (``rows``: each win's row in ``games``; ``options``: the run's options as a dict;
    ``explained``: points per hand from the pattern and the recorded sources); None if none."""
    tier_colors: Mapping[str, str]
    """Tier -> its colour in figures, in tier order (empty: the variant has no tiers)."""
    metric_labels: Mapping[str, str]
    """Labels of the variant's figure metrics (``points_<source>``) beside the generic ones."""
    figure_metrics: tuple[str, ...]
    """Columns of the sweep table that a sweep draws besides the generic ones."""

    def player_count(self, options: Any) -> int:
        return options.player_count

    def games_frame(
        self, records: np.ndarray, options: Any, hands_per_session: int, first_game: int = 0
    ) -> pd.DataFrame:
        """One row per hand of ``records`` (:func:`sim.running.records.hands_frame`)."""
        from ..running.records import hands_frame

        return hands_frame(self, records, options, hands_per_session, first_game)

    def wins_frame(self, records: np.ndarray, options: Any, first_game: int = 0) -> pd.DataFrame:
        """One row per winner of ``records`` (:func:`sim.running.records.wins_frame`)."""
        from ..running.records import wins_frame

        return wins_frame(self, records, options, first_game)


def _entry_modules() -> dict[str, str]:
    """Variant name -> its entry module: every folder of this package with an ``entry.py``
    (whose ``variant()`` returns its :class:`Variant`), in name order. A variant registers
    itself by having one; nothing here names it."""
    folder = Path(__file__).parent
    return {
        path.parent.name: f"{__name__}.{path.parent.name}.entry"
        for path in sorted(folder.glob("*/entry.py"))
    }


_ENTRIES = _entry_modules()
VARIANT_NAMES = tuple(_ENTRIES)


def get_variant(name: str) -> Variant:
    """The registered variant ``name``; a one-line error naming the known ones."""
    if name not in _ENTRIES:
        raise ValueError(f"variant: unknown variant {name!r}; allowed: {', '.join(_ENTRIES)}")
    return importlib.import_module(_ENTRIES[name]).variant()
