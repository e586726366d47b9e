"""Weng'an's entry in the variant registry (``sim.variants``): what the generic layers use of it."""

from __future__ import annotations

from .. import Variant


def variant() -> Variant:
    from .. import wengan
    from . import frames, hooks, presentation, summaries
    from . import replay as wengan_replay

    return Variant(
        name="wengan",
        title="贵州瓮安麻将 Guizhou Weng'an",
        options_class=wengan.WenganOptions,
        option_titles=wengan.OPTION_TITLES,
        n_tiles=wengan.N_TILES,
        play=wengan.play_records,
        first_dealers=wengan.session_first_dealers,
        replay=wengan.replay_hand,
        describe=wengan_replay.describe,
        # replay
        describe_json=wengan_replay.describe_json,
        report=presentation.REPORT,
        seat_status=hooks.SEAT_STATUS,
        hand_status=hooks.HAND_STATUS,
        # frames, analysis, plots, sweeps
        win_kinds=frames.WIN_KINDS,
        games_columns=frames.GAMES_COLUMNS,
        games_values=frames.games_values,
        wins_columns=frames.WINS_COLUMNS,
        wins_values=frames.wins_values,
        point_sources=None,  # every source is recorded (summaries)
        tier_colors=summaries.TIER_COLORS,
        metric_labels=summaries.METRIC_LABELS,
        figure_metrics=summaries.FIGURE_METRICS,
    )
