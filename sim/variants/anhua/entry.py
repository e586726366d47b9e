"""Anhua's entry in the variant registry (``sim.variants``): what the generic layers use of it."""

from __future__ import annotations

from .. import Variant


def variant() -> Variant:
    from .. import anhua
    from . import frames, hooks, presentation, summaries
    from . import replay as anhua_replay

    return Variant(
        name="anhua",
        title="安化七王麻将 Anhua Seven Kings",
        options_class=anhua.AnhuaOptions,
        option_titles=anhua.OPTION_TITLES,
        n_tiles=anhua.N_TILES,
        play=anhua.play_records,
        first_dealers=anhua.session_first_dealers,
        replay=anhua.replay_hand,
        describe=anhua_replay.describe,
        # replay
        describe_json=anhua_replay.describe_json,
        report=presentation.REPORT,
        seat_status=hooks.SEAT_STATUS,
        hand_status=hooks.HAND_STATUS,
        # frames, analysis, plots, sweeps
        win_kinds=frames.WIN_KINDS,
        games_columns=frames.GAMES_COLUMNS,
        games_values=frames.games_values,
        wins_columns=frames.WINS_COLUMNS,
        wins_values=frames.wins_values,
        point_sources=summaries.point_sources,
        tier_colors=summaries.TIER_COLORS,
        metric_labels=summaries.METRIC_LABELS,
        figure_metrics=summaries.FIGURE_METRICS,
    )
