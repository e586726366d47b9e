"""Summaries of simulated runs as tidy pandas frames, each figure with a confidence interval.

Reads what the runner writes (``manifest.json``, ``games.parquet``, ``wins.parquet`` per run;
``sweep.json`` and one run per cell for a sweep) or frames from :func:`sim.play.play`
(:meth:`Run.from_frames`). Only pandas (and the numpy under it): no plotting, and no kernels
run, so a notebook that only analyses stays light; the run's variant (its manifest's
``variant``) is looked up only for the point sources it derives. The user guide is
``docs/analysis.md``.

Every function that takes a run also takes several (a mapping label -> run, a list, a sweep or
the result of :func:`load_runs`) and then returns one block per run under a leading ``run``
column. Statistics used:

* proportions: Wilson score interval; two proportions: pooled z-test, Newcombe's hybrid score
  interval for the difference;
* means: Student t interval over per-hand values (a hand's seats are averaged first, so
  correlated seats of one hand never count as independent observations); two means: Welch's
  t-test with Welch-Satterthwaite degrees of freedom;
* several comparisons at once: Holm's step-down adjustment (or Bonferroni).

The modules, by topic: :mod:`~sim.analysis.runs` (loading), :mod:`~sim.analysis.intervals`,
:mod:`~sim.analysis.significance`, :mod:`~sim.analysis.outcomes` (draws, wins by seat and kind),
:mod:`~sim.analysis.patterns` (patterns and tiers), :mod:`~sim.analysis.scores` (dealer
advantage, score distributions), :mod:`~sim.analysis.points` (point sources) and
:mod:`~sim.analysis.comparisons` (runs against each other, sweep tables) and
:mod:`~sim.analysis.duplicate` (agents on duplicate deals, ``mjsim compare``). Every public name is
importable from ``sim.analysis``.

Dealt-hand probabilities sit beside them, imported on their own (they run kernels, and nothing
here re-exports them): ``sim.analysis.exact`` counts them exactly and ``sim.analysis.dealt``
estimates them on hands from the real dealer. The package reads runs and ``sim.variants``; the
two dealt-hand modules also import ``sim.core``, ``sim.kernels`` and ``sim.hand``. Nothing of
``sim.running``, ``sim.studies``, ``sim.report`` or ``sim.cli`` is imported here.

>>> run = demo_run()
>>> draw_rate(run)[["hands", "draws", "rate"]]
   hands  draws  rate
0      4      1  0.25
"""

from __future__ import annotations

from .comparisons import (
    Proportion,
    compare_runs,
    metric_estimate,
    metric_values,
    option_effects,
    sweep_table,
    unchanged_metrics,
)
from .duplicate import (
    duplicate_comparison,
    load_comparison,
    paired_differences,
    score_sources,
    seat_hands,
)
from .intervals import MeanInterval, mean_interval, t_quantile, t_two_sided_p, wilson_interval
from .outcomes import draw_rate, win_kinds, win_rate_by_seat
from .patterns import pattern_frequency, tier_summary
from .points import (
    POINTS_FROM,
    counted_rows,
    points_per_hand,
    points_sources,
    seat_net_sources,
    seat_source_net_counts,
    seat_source_nets,
    source_net_summary,
)
from .runs import (
    BATCH_ROWS,
    GAME_COLUMNS,
    WIN_COLUMNS,
    Run,
    StoredRun,
    Sweep,
    batches,
    combine,
    demo_run,
    is_single,
    load_run,
    load_runs,
    load_sweep,
    open_run,
    per_run,
    read_columns,
    run_variant,
    scored_wins,
)
from .scores import (
    ROLES,
    _tail_name,
    dealer_advantage,
    score_distribution,
    seat_score_counts,
    seat_scores,
    tail_probabilities,
)
from .significance import (
    TestResult,
    adjust_p_values,
    paired_test,
    two_proportion_test,
    welch_test,
)
from .tallies import Histogram, Moments

# _tail_name (the score_distribution column of a threshold) is used by sim.report
__all__ = [
    "BATCH_ROWS",
    "GAME_COLUMNS",
    "POINTS_FROM",
    "ROLES",
    "WIN_COLUMNS",
    "Histogram",
    "MeanInterval",
    "Moments",
    "Proportion",
    "Run",
    "StoredRun",
    "Sweep",
    "TestResult",
    "_tail_name",
    "adjust_p_values",
    "batches",
    "combine",
    "compare_runs",
    "counted_rows",
    "dealer_advantage",
    "demo_run",
    "draw_rate",
    "duplicate_comparison",
    "is_single",
    "load_comparison",
    "load_run",
    "load_runs",
    "load_sweep",
    "mean_interval",
    "metric_estimate",
    "metric_values",
    "open_run",
    "option_effects",
    "paired_differences",
    "paired_test",
    "pattern_frequency",
    "per_run",
    "points_per_hand",
    "points_sources",
    "read_columns",
    "run_variant",
    "score_distribution",
    "score_sources",
    "scored_wins",
    "seat_hands",
    "seat_net_sources",
    "seat_score_counts",
    "seat_scores",
    "seat_source_net_counts",
    "seat_source_nets",
    "source_net_summary",
    "sweep_table",
    "t_quantile",
    "t_two_sided_p",
    "tail_probabilities",
    "tier_summary",
    "two_proportion_test",
    "unchanged_metrics",
    "welch_test",
    "wilson_interval",
    "win_kinds",
    "win_rate_by_seat",
]
