"""Regenerate the small committed outputs in ``results/`` (README and notebooks show them).

    python scripts/make_results.py [--jobs 2]

Plays the runs and the sweep under runs/ (not committed), then copies what is small and
meaningful into results/: summary tables as CSV, the figures, each run's manifest, and the exact
probabilities. Every output is reproducible from the seeds in the configs.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "results"
RUN_GAMES = 200_000
SWEEP_GAMES = 50_000
AGENT_DEALS = 10_000


def mjsim(*args: str) -> str:
    command = [sys.executable, "-m", "sim.cli", *args]
    print("$ mjsim " + " ".join(args), flush=True)
    return subprocess.run(command, cwd=ROOT, check=True, capture_output=True, text=True).stdout


def run_outputs(jobs: int) -> None:
    from sim import analysis, plots

    label = "anhua-seven-kings"
    run_dir = ROOT / "runs" / "results" / label
    summary = mjsim(
        "run", f"configs/{label}.toml", "--games", str(RUN_GAMES), "--jobs", str(jobs),
        "--out", str(run_dir.relative_to(ROOT)), "--quiet",
    )  # fmt: skip
    target = RESULTS / label
    shutil.rmtree(target, ignore_errors=True)
    (target / "figures").mkdir(parents=True)
    run = analysis.load_run(run_dir)
    tables = {
        "patterns": analysis.pattern_frequency(run),
        "win_kinds": analysis.win_kinds(run),
        "win_rate_by_seat": analysis.win_rate_by_seat(run),
        "dealer_advantage": analysis.dealer_advantage(run),
        "tiers": analysis.tier_summary(run),
        "scores": analysis.score_distribution(run),
        "points_sources": analysis.points_sources(run),
    }
    for name, frame in tables.items():
        frame.to_csv(target / f"{name}.csv", index=False, float_format="%.6g")
    figures = {
        "pattern_frequency": plots.plot_pattern_frequency(tables["patterns"]),
        "score_distribution": plots.plot_score_distribution(analysis.seat_scores(run)),
        "dealer_advantage": plots.plot_dealer_advantage(tables["dealer_advantage"]),
    }
    for name, figure in figures.items():
        figure.savefig(target / "figures" / f"{name}.png", dpi=110, bbox_inches="tight")
    shutil.copy(run_dir / "manifest.json", target / "manifest.json")
    (target / "summary.txt").write_text(summary)


def sweep_outputs(jobs: int) -> None:
    label = "anhua-kings-birds"
    sweep_dir = ROOT / "runs" / "results" / label
    printed = mjsim(
        "sweep", f"configs/sweeps/{label}.toml", "--games", str(SWEEP_GAMES), "--jobs",
        str(jobs), "--out", str(sweep_dir.relative_to(ROOT)), "--quiet",
    )  # fmt: skip
    target = RESULTS / label
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    for name in ("comparison.csv", "significance.csv", "sweep.json"):
        shutil.copy(sweep_dir / name, target / name)
    shutil.copytree(sweep_dir / "figures", target / "figures")
    (target / "summary.txt").write_text(printed)


AGENT_COMPARISONS = (
    ("anhua-agents", "configs/anhua-seven-kings.toml", AGENT_DEALS, ("--every-order",)),
    # value's edge over efficiency in Weng'an is about +0.1 a hand: 3,000 walls do not resolve it
    ("wengan-agents", "configs/wengan-4p.toml", 20_000, ("--every-order",)),
    # Anqing's value leads efficiency by about +0.6 a hand: 10,000 walls resolve it
    ("anqing-agents", "configs/anqing.toml", 10_000, ("--every-order",)),
)
"""(results folder, config, walls, options) of each variant's agents on duplicate deals, every
order of the agents around the table (a seat's neighbours matter where it claims from them:
Anqing's chi and 包), each rotated."""

TUNINGS = (
    (
        "anqing-tune-value",
        "configs/anqing.toml",
        ("--agent", "value", "--field", "efficiency", "--trials", "32", "--deals", "2000"),
        ("--holdout-deals", "8000", "--batch", "4"),
    ),
)
"""(results folder, config, options) of each ``mjsim tune`` study kept: its trials, best
parameters, held-out evaluation and figure (docs/strategies.md, "Tuning")."""

TUNE_FILES = ("result.json", "trials.csv", "holdout.csv", "tune.png", "tune.json")


def agents_outputs(jobs: int) -> None:
    """Each variant's agents against each other on duplicate deals (docs/strategies.md)."""
    for label, config, deals, options in AGENT_COMPARISONS:
        compare_dir = ROOT / "runs" / "results" / label
        printed = mjsim(
            "compare", config, "--agents", "efficiency,value,cautious,random", "--deals",
            str(deals), "--jobs", str(jobs), "--out", str(compare_dir.relative_to(ROOT)),
            "--quiet", *options,
        )  # fmt: skip
        target = RESULTS / label
        shutil.rmtree(target, ignore_errors=True)
        target.mkdir(parents=True)
        for name in ("comparison.csv", "pairs.csv", "comparison.json"):
            shutil.copy(compare_dir / name, target / name)
        (target / "summary.txt").write_text(printed)


def tune_outputs(jobs: int) -> None:
    """Each kept study: its small files (not the SQLite study, nor the held-out runs)."""
    for label, config, options, more in TUNINGS:
        study_dir = ROOT / "runs" / "results" / label
        shutil.rmtree(study_dir, ignore_errors=True)  # a fresh study, not a resumed one
        printed = mjsim(
            "tune", config, *options, *more, "--jobs", str(jobs), "--quiet",
            "--out", str(study_dir.relative_to(ROOT)),
        )  # fmt: skip
        target = RESULTS / label
        shutil.rmtree(target, ignore_errors=True)
        target.mkdir(parents=True)
        for name in TUNE_FILES:
            shutil.copy(study_dir / name, target / name)
        (target / "summary.txt").write_text(printed)


PARTS = ("exact", "runs", "sweep", "agents", "tune")


def exact_outputs() -> None:
    for variant in ("generic", "anhua", "wengan", "anqing"):
        (RESULTS / f"exact-{variant}.txt").write_text(mjsim("exact", variant))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--only", default=",".join(PARTS), help=f"comma-separated parts, of {', '.join(PARTS)}"
    )
    args = parser.parse_args()
    parts = args.only.split(",")
    unknown = sorted(set(parts) - set(PARTS))
    if unknown:
        parser.error(f"--only: unknown part {unknown[0]!r}; allowed: {', '.join(PARTS)}")
    RESULTS.mkdir(exist_ok=True)
    if "exact" in parts:
        exact_outputs()
    if "runs" in parts:
        run_outputs(args.jobs)
    if "sweep" in parts:
        sweep_outputs(args.jobs)
    if "agents" in parts:
        agents_outputs(args.jobs)
    if "tune" in parts:
        tune_outputs(args.jobs)


if __name__ == "__main__":
    main()
