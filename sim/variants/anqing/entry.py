"""Anqing's entry in the variant registry (``sim.variants``): what the generic layers use of it."""

from __future__ import annotations

from .. import Variant


def variant() -> Variant:
    from .. import anqing
    from . import frames, hooks, presentation, summaries
    from . import replay as anqing_replay

    return Variant(
        name="anqing",
        title="安庆麻将 Anqing",
        options_class=anqing.AnqingOptions,
        option_titles=anqing.OPTION_TITLES,
        n_tiles=anqing.N_TILES,
        play=anqing.play_records,
        first_dealers=anqing.session_first_dealers,
        replay=anqing.replay_hand,
        describe=anqing_replay.describe,
        # replay
        describe_json=anqing_replay.describe_json,
        report=presentation.REPORT,
        seat_status=hooks.SEAT_STATUS,
        hand_status=hooks.HAND_STATUS,
        # frames, analysis, plots, sweeps
        win_kinds=frames.WIN_KINDS,
        games_columns=frames.GAMES_COLUMNS,
        games_values=frames.games_values,
        wins_columns=frames.WINS_COLUMNS,
        wins_values=frames.wins_values,
        point_sources=None,  # every source is recorded (frames.SOURCES)
        tier_colors=summaries.TIER_COLORS,
        metric_labels=summaries.METRIC_LABELS,
        figure_metrics=summaries.FIGURE_METRICS,
    )
