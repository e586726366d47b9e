"""Summaries of simulated runs as tidy pandas frames, each figure with a confidence interval.

Reads what the runner writes (``manifest.json``, ``games.parquet``, ``wins.parquet`` per run;
``sweep.json`` and one run per cell for a sweep) or frames from :func:`sim.play.play_anhua`
(:meth:`Run.from_frames`). Only pandas (and the numpy under it): no kernels, no plotting, so a
notebook that only analyses stays light. The user guide is ``docs/analysis.md``.

Every function that takes a run also takes several (a mapping label -> run, a list, a sweep or
the result of :func:`load_runs`) and then returns one block per run under a leading ``run``
column. Statistics used:

* proportions: Wilson score interval; two proportions: pooled z-test, Newcombe's hybrid score
  interval for the difference;
* means: Student t interval over per-hand values (a hand's seats are averaged first, so
  correlated seats of one hand never count as independent observations); two means: Welch's
  t-test with Welch-Satterthwaite degrees of freedom;
* several comparisons at once: Holm's step-down adjustment (or Bonferroni).

>>> run = demo_run()
>>> draw_rate(run)[["hands", "draws", "rate"]]
   hands  draws  rate
0      4      1  0.25
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from statistics import NormalDist
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

GAME_COLUMNS = ("game", "dealer", "outcome", "win_kind", "n_winners")
WIN_COLUMNS = ("game", "seat", "win_kind", "pattern", "tier", "points", "payer", "gain")
POINTS_FROM = "points_from_"
ROLES = ("all", "dealer", "non_dealer")


# --------------------------------------------------------------------------- loading


@dataclass
class Run:
    """One simulated run: its manifest and its two frames (see :mod:`sim.records`).

    A run made by :func:`load_runs` holds several runs: its frames carry a ``run`` column (the
    label) and ``manifest["runs"]`` maps each label to its manifest; :meth:`parts` splits it.
    """

    manifest: dict
    games: pd.DataFrame
    wins: pd.DataFrame
    path: Path | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if "game" not in self.wins.columns:
            # A run without a single win stores a frame without columns.
            self.wins = pd.DataFrame({column: pd.Series(dtype=object) for column in WIN_COLUMNS})
        where = f" in {self.path}" if self.path else ""
        missing = [c for c in GAME_COLUMNS if c not in self.games.columns]
        if missing or not any(c.startswith("delta_") for c in self.games.columns):
            raise ValueError(f"games frame{where} lacks columns {missing or ['delta_0']}")
        missing = [c for c in ("game", "seat", "pattern", "points") if c not in self.wins.columns]
        if missing:
            raise ValueError(f"wins frame{where} lacks columns {missing}")
        keys = ["run", "game"] if "run" in self.games.columns else ["game"]
        if self.games.duplicated(keys).any():
            raise ValueError(f"games frame{where}: the column 'game' repeats a hand number")

    @classmethod
    def from_frames(
        cls,
        games: pd.DataFrame,
        wins: pd.DataFrame,
        manifest: dict | None = None,
        label: str | None = None,
    ) -> Run:
        """A run from frames in memory, e.g. ``Run.from_frames(*play_anhua(2000, seed=3))``."""
        manifest = dict(manifest or {})
        if label is not None:
            manifest["label"] = label
        return cls(manifest, games.reset_index(drop=True), wins.reset_index(drop=True))

    @property
    def label(self) -> str:
        if self.manifest.get("label"):
            return str(self.manifest["label"])
        return self.path.name if self.path else "run"

    @property
    def n_players(self) -> int:
        if "n_players" in self.manifest:
            return int(self.manifest["n_players"])
        return sum(1 for c in self.games.columns if c.startswith("delta_"))

    @property
    def options(self) -> dict:
        return dict(self.manifest.get("options", {}))

    @property
    def is_combined(self) -> bool:
        return "run" in self.games.columns

    def parts(self) -> dict[str, Run]:
        """label -> single run (a single run returns itself under its label)."""
        if not self.is_combined:
            return {self.label: self}
        manifests = self.manifest.get("runs", {})
        wins_by_run = dict(iter(self.wins.groupby("run", sort=False, observed=True)))
        parts = {}
        for label, games in self.games.groupby("run", sort=False, observed=True):
            wins = wins_by_run.get(label, self.wins.iloc[:0])
            parts[str(label)] = Run(
                dict(manifests.get(label, {"label": label})),
                games.drop(columns="run").reset_index(drop=True),
                wins.drop(columns="run").reset_index(drop=True),
            )
        return parts


@dataclass
class Sweep:
    """A sweep: its specification (``sweep.json``) and one run per cell, in the file's order."""

    spec: dict
    runs: dict[str, Run]
    path: Path | None = None

    @property
    def axes(self) -> dict[str, list]:
        return dict(self.spec.get("axes", {}))

    def cell_options(self) -> pd.DataFrame:
        """One row per cell: ``cell`` and the value of every swept option."""
        rows = []
        for cell in self.spec.get("cells", []):
            if cell["name"] in self.runs:
                options = cell.get("options", {})
                rows.append({"cell": cell["name"], **{a: options.get(a) for a in self.axes}})
        return pd.DataFrame(rows, columns=["cell", *self.axes])


def _read_json(path: Path, what: str) -> dict:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise FileNotFoundError(
            f"{path.parent} is not a {what} directory: no {path.name}"
        ) from None
    except json.JSONDecodeError as error:
        raise ValueError(f"{path}: invalid JSON ({error})") from None


def load_run(path: str | Path) -> Run:
    """Load a run directory (``manifest.json``, ``games.parquet``, ``wins.parquet``).

    Each frame file may also be a directory of parquet parts.
    """
    path = Path(path)
    if not path.is_dir():
        raise FileNotFoundError(f"no run directory at {path}")
    manifest = _read_json(path / "manifest.json", "run")
    frames = {}
    for name in ("games", "wins"):
        file = path / f"{name}.parquet"
        if not file.exists():
            raise FileNotFoundError(f"{path} is not a complete run: no {file.name}")
        try:
            frames[name] = pd.read_parquet(file)
        except Exception as error:  # pyarrow raises several unrelated types for a bad file
            raise ValueError(f"{file}: cannot read parquet ({error})") from None
    return Run(manifest, frames["games"], frames["wins"], path)


def _unique_labels(runs: Sequence[Run]) -> list[str]:
    labels, seen = [], set()
    for index, run in enumerate(runs):
        label = run.label
        if label in seen:
            label = f"{label} ({run.path.name if run.path else index})"
        seen.add(label)
        labels.append(label)
    return labels


def combine(runs: Mapping[str, Run] | Sequence[Run]) -> Run:
    """Several runs as one, with a leading ``run`` column; analyses then report per run."""
    if isinstance(runs, Mapping):
        labels, runs = list(runs), list(runs.values())
    else:
        runs = list(runs)
        labels = _unique_labels(runs)
    if not runs:
        raise ValueError("no runs to combine")
    games = pd.concat([r.games.assign(run=label) for label, r in zip(labels, runs, strict=True)])
    wins = pd.concat([r.wins.assign(run=label) for label, r in zip(labels, runs, strict=True)])
    order = pd.CategoricalDtype(labels, ordered=True)
    games["run"], wins["run"] = games["run"].astype(order), wins["run"].astype(order)
    games = games[["run", *games.columns.drop("run")]].reset_index(drop=True)
    wins = wins[["run", *wins.columns.drop("run")]].reset_index(drop=True)
    manifests = {label: r.manifest for label, r in zip(labels, runs, strict=True)}
    return Run({"label": "+".join(labels), "runs": manifests}, games, wins)


def load_runs(paths: Iterable[str | Path]) -> Run:
    """Load several run directories into one :class:`Run` with a ``run`` column (the label:
    the manifest's ``label``, else the directory name)."""
    return combine([load_run(p) for p in paths])


def load_sweep(path: str | Path, skip_missing: bool = False) -> Sweep:
    """Load a sweep directory (``sweep.json`` and the run directory of every cell).

    ``skip_missing``: leave out cells whose directory is absent (a sweep still running).
    """
    path = Path(path)
    if not path.is_dir():
        raise FileNotFoundError(f"no sweep directory at {path}")
    spec = _read_json(path / "sweep.json", "sweep")
    if not isinstance(spec.get("cells"), list):
        raise ValueError(f"{path / 'sweep.json'}: no list of cells")
    runs = {}
    for cell in spec["cells"]:
        cell_dir = path / cell.get("dir", Path("cells") / cell["name"])
        if skip_missing and not cell_dir.is_dir():
            continue
        run = load_run(cell_dir)
        run.manifest.setdefault("label", cell["name"])
        runs[cell["name"]] = run
    return Sweep(spec, runs, path)


def demo_run() -> Run:
    """A four-hand, four-seat run made by hand, with answers that can be checked by eye.

    Hand 0: dealer 0 wins 平胡 (2) by self-draw, no bird: +6, everyone else -2.
    Hand 1: seat 2 wins 硬庄 (4) on seat 1's discard with one bird hit: +8 / -8.
    Hand 2: exhaustive draw. Hand 3: seat 3 wins 小七对 (4) by self-draw, a bird on the winner
    doubles every payer: +24, everyone else -8.
    """
    games = pd.DataFrame(
        {
            "game": [0, 1, 2, 3],
            "session": [0, 0, 0, 0],
            "hand": [0, 1, 2, 3],
            "dealer": [0, 0, 2, 2],
            "outcome": pd.Categorical(["win", "win", "draw", "win"], ["win", "draw"]),
            "win_kind": pd.Categorical(
                ["self_draw", "discard", "none", "self_draw"], ["self_draw", "discard", "none"]
            ),
            "n_winners": [1, 1, 0, 1],
            "payer": [-1, 1, -1, -1],
            "delta_0": [6, 0, 0, -8],
            "delta_1": [-2, -8, 0, -8],
            "delta_2": [-2, 8, 0, -8],
            "delta_3": [-2, 0, 0, 24],
        }
    )
    wins = pd.DataFrame(
        {
            "game": [0, 1, 3],
            "seat": [0, 2, 3],
            "win_kind": ["self_draw", "discard", "self_draw"],
            "pattern": ["平胡", "硬庄", "小七对"],
            "tier": pd.Categorical(["小胡", "大胡", "大胡"], ["小胡", "大胡", "双大胡"]),
            "points": [2, 4, 4],
            "payer": [-1, 1, -1],
            "bird_hits": [0, 1, 1],
            "gain": [6.0, 8.0, 24.0],
        }
    )
    manifest = {"variant": "anhua", "n_players": 4, "label": "demo", "options": {}}
    return Run(manifest, games, wins)


# --------------------------------------------------------------------------- statistics


def _z(confidence: float) -> float:
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1, not {confidence}")
    return NormalDist().inv_cdf(0.5 + confidence / 2)


def wilson_interval(successes, trials, confidence: float = 0.95):
    """Wilson score interval ``(lo, hi)`` of a proportion; arrays in, arrays out.

    Unlike the Wald interval it stays inside [0, 1] and keeps its coverage for rare events
    (a pattern seen 0 or 3 times in 10,000 hands). ``trials == 0`` gives NaN.

    >>> lo, hi = wilson_interval(0, 100)
    >>> round(float(lo), 4), round(float(hi), 4)
    (0.0, 0.037)
    >>> [round(float(x), 4) for x in wilson_interval(50, 100)[0:2]]
    [0.4038, 0.5962]
    """
    z = _z(confidence)
    x = np.asarray(successes, dtype=float)
    n = np.asarray(trials, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = x / n
        denominator = 1 + z * z / n
        center = (p + z * z / (2 * n)) / denominator
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
        lo = np.where(x <= 0, 0.0, np.clip(center - half, 0, 1))
        hi = np.where(x >= n, 1.0, np.clip(center + half, 0, 1))
    lo = np.where(n > 0, lo, np.nan)
    hi = np.where(n > 0, hi, np.nan)
    if lo.ndim == 0:
        return float(lo), float(hi)
    return lo, hi


def _beta_continued_fraction(a: float, b: float, x: float) -> float:
    # Lentz's method for the continued fraction of the incomplete beta function.
    tiny, eps = 1e-300, 1e-15
    qab, qap, qam = a + b, a + 1, a - 1
    c, d = 1.0, 1 - qab * x / qap
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 500):
        m2 = 2 * m
        for numerator in (m * (b - m) * x / ((qam + m2) * (a + m2)),
                          -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))):  # fmt: skip
            d = 1 + numerator * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + numerator / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1) < eps:
            break
    return h


def _regularized_beta(a: float, b: float, x: float) -> float:
    """I_x(a, b)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    log_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    if x < (a + 1) / (a + b + 2):
        return math.exp(log_front) * _beta_continued_fraction(a, b, x) / a
    return 1 - math.exp(log_front) * _beta_continued_fraction(b, a, 1 - x) / b


def _normal_two_sided_p(z: float) -> float:
    # erfc keeps tiny p-values (|z| > 8) that 1 - cdf rounds to 0.
    return math.erfc(abs(z) / math.sqrt(2))


def t_two_sided_p(statistic: float, df: float) -> float:
    """Two-sided p-value of Student's t with ``df`` (not necessarily whole) degrees of freedom.

    >>> round(t_two_sided_p(2.228138852, 10), 6)
    0.05
    """
    if math.isnan(statistic) or math.isnan(df):
        return math.nan
    if math.isinf(df) or df > 1e7:
        return _normal_two_sided_p(statistic)
    return _regularized_beta(df / 2, 0.5, df / (df + statistic * statistic))


def t_quantile(probability: float, df: float) -> float:
    """The ``probability`` quantile of Student's t (bisection on :func:`t_two_sided_p`).

    >>> round(t_quantile(0.975, 10), 6), round(t_quantile(0.975, 1), 4)
    (2.228139, 12.7062)
    """
    if not 0 < probability < 1:
        raise ValueError(f"probability must be between 0 and 1, not {probability}")
    if math.isnan(df) or df <= 0:
        return math.nan
    if math.isinf(df) or df > 1e7:
        return NormalDist().inv_cdf(probability)
    if probability == 0.5:
        return 0.0
    target = 2 * min(probability, 1 - probability)
    low, high = 0.0, max(1.0, NormalDist().inv_cdf(1 - target / 2))
    while t_two_sided_p(high, df) > target:
        low, high = high, high * 2
    for _ in range(200):
        middle = (low + high) / 2
        if t_two_sided_p(middle, df) > target:
            low = middle
        else:
            high = middle
        if high - low < 1e-12 * max(1.0, high):
            break
    value = (low + high) / 2
    return value if probability > 0.5 else -value


class MeanInterval(NamedTuple):
    n: int
    mean: float
    std: float
    lo: float
    hi: float


def mean_interval(values, confidence: float = 0.95) -> MeanInterval:
    """Mean of independent observations with its Student t interval.

    >>> round(mean_interval([1, 2, 3, 4, 5]).lo, 4)
    1.0368
    """
    values = np.asarray(values, dtype=float)
    n = len(values)
    if n == 0:
        return MeanInterval(0, math.nan, math.nan, math.nan, math.nan)
    mean = float(values.mean())
    if n == 1:
        return MeanInterval(1, mean, math.nan, math.nan, math.nan)
    std = float(values.std(ddof=1))
    half = t_quantile(0.5 + confidence / 2, n - 1) * std / math.sqrt(n)
    return MeanInterval(n, mean, std, mean - half, mean + half)


class TestResult(NamedTuple):
    difference: float
    lo: float
    hi: float
    statistic: float
    df: float
    p_value: float


def two_proportion_test(
    successes_a: int, trials_a: int, successes_b: int, trials_b: int, confidence: float = 0.95
) -> TestResult:
    """Difference ``p_a - p_b`` with Newcombe's hybrid score interval and the pooled z-test.

    >>> result = two_proportion_test(60, 100, 40, 100)
    >>> round(result.statistic, 4), round(result.p_value, 4)
    (2.8284, 0.0047)
    """
    p_a, p_b = successes_a / trials_a, successes_b / trials_b
    lo_a, hi_a = wilson_interval(successes_a, trials_a, confidence)
    lo_b, hi_b = wilson_interval(successes_b, trials_b, confidence)
    difference = p_a - p_b
    lo = difference - math.sqrt((p_a - lo_a) ** 2 + (hi_b - p_b) ** 2)
    hi = difference + math.sqrt((hi_a - p_a) ** 2 + (p_b - lo_b) ** 2)
    pooled = (successes_a + successes_b) / (trials_a + trials_b)
    se = math.sqrt(pooled * (1 - pooled) * (1 / trials_a + 1 / trials_b))
    if se == 0:  # both samples all successes or all failures: no evidence of a difference
        return TestResult(difference, lo, hi, 0.0, math.inf, 1.0)
    z = difference / se
    return TestResult(difference, lo, hi, z, math.inf, _normal_two_sided_p(z))


def paired_test(values_a, values_b, confidence: float = 0.95) -> TestResult:
    """Mean of the differences ``a_i - b_i`` of paired observations, with the paired t-test.

    For runs played on the same walls (same seed and hand numbers: common random numbers) the
    luck of the deal cancels in the difference, so this finds smaller effects than
    :func:`welch_test` on the same hands.

    >>> result = paired_test([5, 6, 7, 9], [4, 6, 5, 6])
    >>> round(result.difference, 2), round(result.statistic, 4), round(result.p_value, 4)
    (1.5, 2.3238, 0.1027)
    """
    a, b = np.asarray(values_a, dtype=float), np.asarray(values_b, dtype=float)
    if a.shape != b.shape:
        raise ValueError(f"paired observations must match: {a.shape} and {b.shape}")
    interval = mean_interval(a - b, confidence)
    n, difference = interval.n, interval.mean
    if n < 2:
        return TestResult(difference, math.nan, math.nan, math.nan, math.nan, math.nan)
    if interval.std == 0:
        p_value = 1.0 if difference == 0 else 0.0
        return TestResult(difference, difference, difference, math.nan, n - 1, p_value)
    statistic = difference / (interval.std / math.sqrt(n))
    return TestResult(
        difference, interval.lo, interval.hi, statistic, n - 1, t_two_sided_p(statistic, n - 1)
    )


def welch_test(values_a, values_b, confidence: float = 0.95) -> TestResult:
    """Difference of means ``mean_a - mean_b`` with Welch's t-test and interval.

    >>> result = welch_test([1, 2, 3, 4], [2, 4, 6, 8, 10])
    >>> round(result.statistic, 4), round(result.df, 3), round(result.p_value, 4)
    (-2.2514, 5.521, 0.0691)
    """
    a, b = np.asarray(values_a, dtype=float), np.asarray(values_b, dtype=float)
    n_a, n_b = len(a), len(b)
    if n_a < 2 or n_b < 2:
        return TestResult(math.nan, math.nan, math.nan, math.nan, math.nan, math.nan)
    difference = float(a.mean() - b.mean())
    share_a, share_b = float(a.var(ddof=1)) / n_a, float(b.var(ddof=1)) / n_b
    se = math.sqrt(share_a + share_b)
    if se == 0:
        p_value = 1.0 if difference == 0 else 0.0
        return TestResult(difference, difference, difference, math.nan, math.nan, p_value)
    df = float(se**4 / (share_a**2 / (n_a - 1) + share_b**2 / (n_b - 1)))
    statistic = difference / se
    half = t_quantile(0.5 + confidence / 2, df) * se
    return TestResult(
        difference, difference - half, difference + half, statistic, df,
        t_two_sided_p(statistic, df),
    )  # fmt: skip


def adjust_p_values(p_values, method: str = "holm") -> np.ndarray:
    """Adjusted p-values for several tests: ``holm`` (step-down, controls the family-wise error
    rate like Bonferroni but rejects more), ``bonferroni`` or ``none``. NaN stays NaN and does
    not count as a test.

    >>> adjust_p_values([0.01, 0.04, 0.03]).round(2).tolist()
    [0.03, 0.06, 0.06]
    """
    p = np.asarray(p_values, dtype=float)
    adjusted = np.full(p.shape, np.nan)
    valid = ~np.isnan(p)
    m = int(valid.sum())
    if method == "none":
        return p.copy()
    if method == "bonferroni":
        adjusted[valid] = np.minimum(1.0, p[valid] * m)
        return adjusted
    if method != "holm":
        raise ValueError(f"unknown correction {method!r}: use holm, bonferroni or none")
    index = np.flatnonzero(valid)[np.argsort(p[valid], kind="stable")]
    running = 0.0
    for rank, i in enumerate(index):
        running = max(running, min(1.0, (m - rank) * p[i]))
        adjusted[i] = running
    return adjusted


# --------------------------------------------------------------------------- per-run summaries


def _as_parts(runs) -> dict[str, Run]:
    if isinstance(runs, Run):
        return runs.parts()
    if isinstance(runs, Sweep):
        return dict(runs.runs)
    if isinstance(runs, Mapping):
        return dict(runs)
    runs = list(runs)
    return dict(zip(_unique_labels(runs), runs, strict=True))


def per_run(function: Callable[..., pd.DataFrame]) -> Callable[..., pd.DataFrame]:
    """Let ``function(run, ...)`` take several runs too: one block per run under ``run``."""

    @functools.wraps(function)
    def wrapper(run, *args, **kwargs):
        if isinstance(run, Run) and not run.is_combined:
            return function(run, *args, **kwargs)
        blocks = []
        for label, part in _as_parts(run).items():
            block = function(part, *args, **kwargs)
            block.insert(0, "run", label)
            blocks.append(block)
        return pd.concat(blocks, ignore_index=True)

    return wrapper


def _deltas(run: Run) -> np.ndarray:
    """(hands, seats) score changes."""
    columns = [f"delta_{seat}" for seat in range(run.n_players)]
    return run.games[columns].to_numpy(dtype=float)


def _game_rows(run: Run, games: pd.Series) -> np.ndarray:
    rows = pd.Index(run.games["game"]).get_indexer(games)
    if (rows < 0).any():
        raise ValueError("wins frame names games that are not in the games frame")
    return rows


def _wins_scored(run: Run) -> pd.DataFrame:
    """The wins frame with ``score``: the winner's score change in that hand. The records leave
    ``gain`` empty when several seats win one hand; the winner's delta is the same figure there
    (a winner pays nobody)."""
    wins = run.wins.copy()
    rows = _game_rows(run, wins["game"])
    from_deltas = _deltas(run)[rows, wins["seat"].to_numpy(dtype=int)] if len(wins) else []
    gain = wins["gain"] if "gain" in wins else pd.Series(np.nan, index=wins.index)
    wins["score"] = pd.to_numeric(gain, errors="coerce").fillna(
        pd.Series(from_deltas, index=wins.index, dtype=float)
    )
    wins["row"] = rows
    return wins


def _interval_columns(successes, trials, confidence) -> dict[str, Any]:
    successes = np.asarray(successes)
    trials = np.asarray(trials)
    lo, hi = wilson_interval(successes, trials, confidence)
    with np.errstate(divide="ignore", invalid="ignore"):
        rate = successes / trials
    return {"rate": rate, "lo": lo, "hi": hi}


@per_run
def draw_rate(run: Run, confidence: float = 0.95) -> pd.DataFrame:
    """Exhaustive draws (荒庄): one row ``hands, draws, rate, lo, hi``.

    >>> draw_rate(demo_run()).round(3).to_dict("records")
    [{'hands': 4, 'draws': 1, 'rate': 0.25, 'lo': 0.046, 'hi': 0.699}]
    """
    hands = len(run.games)
    draws = int((run.games["outcome"].astype(str) == "draw").sum())
    return pd.DataFrame({"hands": [hands], "draws": [draws]}).assign(
        **_interval_columns([draws], [hands], confidence)
    )


@per_run
def win_rate_by_seat(run: Run, confidence: float = 0.95) -> pd.DataFrame:
    """How often each seat wins a hand, and the dealer (庄家) against the others (闲家).

    Rows: one per seat (``role`` ``all``), then all seats pooled as ``dealer`` and as
    ``non_dealer`` (``seat`` <NA>). Columns ``seat, role, hands, wins, rate, lo, hi``: ``hands``
    counts seat-hands, ``wins`` the hands that seat won (every winner of a multiple win counts).
    Wilson intervals; the non-dealer rows pool three seats of the same hand, whose wins exclude
    each other, which makes their interval slightly conservative.

    >>> win_rate_by_seat(demo_run())[["seat", "role", "hands", "wins", "rate"]]
       seat        role  hands  wins      rate
    0     0         all      4     1  0.250000
    1     1         all      4     0  0.000000
    2     2         all      4     1  0.250000
    3     3         all      4     1  0.250000
    4  <NA>      dealer      4     1  0.250000
    5  <NA>  non_dealer     12     2  0.166667
    """
    hands = len(run.games)
    seats = range(run.n_players)
    winners = run.wins.drop_duplicates(["game", "seat"])
    per_seat = winners["seat"].value_counts().reindex(seats, fill_value=0)
    dealer_of_win = run.games["dealer"].to_numpy()[_game_rows(run, winners["game"])]
    dealer_wins = int((winners["seat"].to_numpy() == dealer_of_win).sum())
    frame = pd.DataFrame(
        {
            "seat": pd.array([*seats, pd.NA, pd.NA], dtype="Int64"),
            "role": ["all"] * len(seats) + ["dealer", "non_dealer"],
            "hands": [hands] * len(seats) + [hands, hands * (run.n_players - 1)],
            "wins": [*per_seat.tolist(), dealer_wins, len(winners) - dealer_wins],
        }
    )
    return frame.assign(**_interval_columns(frame["wins"], frame["hands"], confidence))


def _per_hand_role_scores(run: Run) -> dict[str, np.ndarray]:
    """Per hand: the dealer's score, the non-dealers' mean score, every seat's mean score."""
    deltas = _deltas(run)
    dealer = run.games["dealer"].to_numpy(dtype=int)
    dealer_score = deltas[np.arange(len(deltas)), dealer]
    non_dealer = (deltas.sum(axis=1) - dealer_score) / (run.n_players - 1)
    return {"all": deltas.mean(axis=1), "dealer": dealer_score, "non_dealer": non_dealer}


@per_run
def dealer_advantage(run: Run, confidence: float = 0.95, alpha: float = 0.05) -> pd.DataFrame:
    """Mean score per hand as dealer (庄) and as non-dealer (闲), and their difference.

    Rows ``dealer``, ``non_dealer`` and ``difference``; columns ``role, hands, mean, std, lo,
    hi`` and, on the difference row, ``statistic`` (t), ``df``, ``p_value`` and ``significant``
    (p < ``alpha``). The non-dealer figure of a hand is the mean of the non-dealer seats; the
    difference is a paired t-test over hands of (dealer score - non-dealer mean).

    >>> dealer_advantage(demo_run())[["role", "hands", "mean"]]
             role  hands      mean
    0      dealer      4 -0.500000
    1  non_dealer      4  0.166667
    2  difference      4 -0.666667
    """
    scores = _per_hand_role_scores(run)
    rows = []
    difference = scores["dealer"] - scores["non_dealer"]
    for role, values in (
        ("dealer", scores["dealer"]),
        ("non_dealer", scores["non_dealer"]),
        ("difference", difference),
    ):
        interval = mean_interval(values, confidence)
        rows.append(
            {
                "role": role,
                "hands": interval.n,
                "mean": interval.mean,
                "std": interval.std,
                "lo": interval.lo,
                "hi": interval.hi,
            }
        )
    frame = pd.DataFrame(rows)
    n = len(difference)
    std = rows[2]["std"]
    if n > 1 and std > 0:
        statistic = rows[2]["mean"] / (std / math.sqrt(n))
        p_value = t_two_sided_p(statistic, n - 1)
    else:
        statistic, p_value = math.nan, (math.nan if n < 2 else float(rows[2]["mean"] == 0))
    frame["statistic"] = [math.nan, math.nan, statistic]
    frame["df"] = [math.nan, math.nan, n - 1]
    frame["p_value"] = [math.nan, math.nan, p_value]
    frame["significant"] = pd.array([pd.NA, pd.NA, p_value < alpha], dtype="boolean")
    return frame


@per_run
def win_kinds(run: Run, confidence: float = 0.95) -> pd.DataFrame:
    """How hands end: per ``win_kind`` of the games frame (``none`` = exhaustive draw).

    Columns ``win_kind, hands, rate, lo, hi`` (share of hands, Wilson), ``winners`` (rows of
    the wins frame of that kind), ``mean_points`` (base points) and ``mean_score`` (the
    winner's score change, birds and bonuses included).

    >>> win_kinds(demo_run())[["win_kind", "hands", "rate", "winners", "mean_score"]]
        win_kind  hands  rate  winners  mean_score
    0  self_draw      2  0.50        2        15.0
    1    discard      1  0.25        1         8.0
    2       none      1  0.25        0         NaN
    """
    kinds = run.games["win_kind"]
    counts = kinds.value_counts(sort=False)
    if isinstance(kinds.dtype, pd.CategoricalDtype):
        counts = counts.reindex(kinds.cat.categories, fill_value=0)
    wins = _wins_scored(run)
    by_kind = wins.assign(win_kind=wins["win_kind"].astype(str)).groupby("win_kind")
    frame = pd.DataFrame({"win_kind": counts.index.astype(str), "hands": counts.to_numpy()})
    frame = frame.assign(**_interval_columns(frame["hands"], len(run.games), confidence))
    frame["winners"] = frame["win_kind"].map(by_kind.size()).fillna(0).astype(int)
    frame["mean_points"] = frame["win_kind"].map(by_kind["points"].mean())
    frame["mean_score"] = frame["win_kind"].map(by_kind["score"].mean())
    return frame


def pattern_frequency(
    run, confidence: float = 0.95, patterns: Iterable[str] | None = None
) -> pd.DataFrame:
    """Per pattern (牌型): how often a hand produces it, what it pays.

    Columns ``pattern, tier, count`` (winners with that pattern), ``hands_with`` (hands with at
    least one such winner), ``rate, lo, hi`` (``hands_with`` / hands, Wilson), ``share_of_wins``
    (``count`` / all winners), ``mean_points`` (base points P) and ``mean_score`` (the winner's
    score change). Most frequent first. ``patterns``: also list these names, with zero counts
    (their ``hi`` bounds how rare an unseen pattern is); with several runs, every pattern seen
    in any run is listed for each run.

    >>> pattern_frequency(demo_run())[["pattern", "count", "rate", "mean_score"]]
      pattern  count  rate  mean_score
    0     小七对      1  0.25        24.0
    1      平胡      1  0.25         6.0
    2      硬庄      1  0.25         8.0
    """
    patterns = list(patterns or [])
    if not (isinstance(run, Run) and not run.is_combined):
        parts = _as_parts(run)
        seen = {p for part in parts.values() for p in part.wins["pattern"].astype(str)}
        patterns += sorted(seen - set(patterns))
        return per_run(_pattern_frequency)(parts, confidence, patterns)
    return _pattern_frequency(run, confidence, patterns)


def _pattern_frequency(run: Run, confidence: float, patterns: list[str]) -> pd.DataFrame:
    wins = _wins_scored(run)
    wins["pattern"] = wins["pattern"].astype(str)
    groups = wins.groupby("pattern", sort=True)
    frame = pd.DataFrame(
        {
            "count": groups.size(),
            "hands_with": groups["game"].nunique(),
            "mean_points": groups["points"].mean(),
            "mean_score": groups["score"].mean(),
        }
    )
    if "tier" in wins:
        tiers = wins.assign(tier=wins["tier"].astype(str)).groupby("pattern")["tier"]
        frame["tier"] = tiers.agg(lambda t: t.mode().iloc[0])
    else:
        frame["tier"] = pd.NA
    extra = [p for p in patterns if p not in frame.index]
    if extra:
        zeros = pd.DataFrame({"count": 0, "hands_with": 0}, index=pd.Index(extra))
        frame = pd.concat([frame, zeros])
    frame.index.name = "pattern"
    frame = frame.reset_index()
    frame[["count", "hands_with"]] = frame[["count", "hands_with"]].astype(int)
    frame = frame.assign(**_interval_columns(frame["hands_with"], len(run.games), confidence))
    frame["share_of_wins"] = frame["count"] / max(len(wins), 1)
    frame = frame.sort_values(["count", "pattern"], ascending=[False, True], kind="stable")
    columns = ["pattern", "tier", "count", "hands_with", "rate", "lo", "hi", "share_of_wins"]
    return frame[[*columns, "mean_points", "mean_score"]].reset_index(drop=True)


@per_run
def tier_summary(run: Run, confidence: float = 0.95) -> pd.DataFrame:
    """Per tier (小胡 ... 双大豪华胡): frequency, and score per hand it brings.

    Columns ``tier, winners, hands_with, rate, lo, hi`` (hands with such a winner, Wilson),
    ``mean_points``, ``mean_score`` (the winner's score change), ``score_per_hand`` with
    ``score_lo, score_hi`` (winners' score from this tier per hand played, t interval over
    hands; its lower end is cut at 0 when no winner lost points, since a tier seen a handful of
    times gives a t interval that can dip below 0) and ``share_of_score`` (of all winners' score).

    >>> tier_summary(demo_run())[["tier", "winners", "mean_score", "score_per_hand"]]
      tier  winners  mean_score  score_per_hand
    0   小胡        1         6.0             1.5
    1   大胡        2        16.0             8.0
    2  双大胡        0         NaN             0.0
    """
    wins = _wins_scored(run)
    hands = len(run.games)
    tier = wins["tier"]
    tiers = (
        list(tier.cat.categories)
        if isinstance(tier.dtype, pd.CategoricalDtype)
        else list(wins.groupby(tier.astype(str))["points"].mean().sort_values().index)
    )
    total_score = wins["score"].sum()
    rows = []
    for name in tiers:
        chosen = wins[tier.astype(str) == str(name)]
        per_hand = np.bincount(chosen["row"], weights=chosen["score"], minlength=hands)
        interval = mean_interval(per_hand, confidence)
        if (per_hand >= 0).all():
            # A rare tier's t interval can dip below 0; a mean of gains cannot.
            interval = interval._replace(lo=max(interval.lo, 0.0))
        rows.append(
            {
                "tier": str(name),
                "winners": len(chosen),
                "hands_with": chosen["game"].nunique(),
                "mean_points": chosen["points"].mean() if len(chosen) else math.nan,
                "mean_score": chosen["score"].mean() if len(chosen) else math.nan,
                "score_per_hand": interval.mean,
                "score_lo": interval.lo,
                "score_hi": interval.hi,
                "share_of_score": chosen["score"].sum() / total_score if total_score else math.nan,
            }
        )
    columns = ["tier", "winners", "hands_with", "mean_points", "mean_score", "score_per_hand",
               "score_lo", "score_hi", "share_of_score"]  # fmt: skip
    frame = pd.DataFrame(rows, columns=columns)  # the columns also when no hand was won
    rates = pd.DataFrame(_interval_columns(frame["hands_with"], hands, confidence))
    frame = pd.concat([frame.iloc[:, :3], rates, frame.iloc[:, 3:]], axis=1)
    return frame


def seat_scores(run: Run) -> pd.DataFrame:
    """Long frame of score changes: ``game, seat, dealer`` (bool: seat dealt this hand),
    ``score``; with ``run`` first for several runs.

    >>> seat_scores(demo_run()).head(3)
       game  seat  dealer  score
    0     0     0    True      6
    1     1     0    True      0
    2     2     0   False      0
    """
    blocks = []
    for label, part in _as_parts(run).items():
        deltas = part.games[[f"delta_{s}" for s in range(part.n_players)]]
        for seat in range(part.n_players):
            block = pd.DataFrame(
                {
                    "game": part.games["game"].to_numpy(),
                    "seat": seat,
                    "dealer": part.games["dealer"].to_numpy() == seat,
                    "score": deltas[f"delta_{seat}"].to_numpy(),
                }
            )
            if not (isinstance(run, Run) and not run.is_combined):
                block.insert(0, "run", label)
            blocks.append(block)
    return pd.concat(blocks, ignore_index=True)


def _tail_name(threshold) -> str:
    return f"p_abs_ge_{threshold:g}"


@per_run
def score_distribution(
    run: Run, thresholds: Sequence[float] = (8, 16, 32, 64), confidence: float = 0.95
) -> pd.DataFrame:
    """Distribution of a seat's score change per hand: per seat, then pooled over seats for
    ``all`` / ``dealer`` / ``non_dealer`` (``seat`` <NA>).

    Columns ``seat, role, observations`` (seat-hands), ``mean, lo, hi`` (t interval; pooled rows
    average a hand's seats first, so it is exact even though seats of a hand are dependent:
    ``all`` is 0 ± 0 in a zero-sum game), ``std, variance, min, q05, q25, median, q75, q95, max``
    (of the seat-hands), ``mean_abs`` and ``p_abs_ge_<x>`` = P(|score| ≥ x) for each threshold
    (intervals: :func:`tail_probabilities`).

    >>> score_distribution(demo_run(), thresholds=[8])[["seat", "role", "mean", "p_abs_ge_8"]]
       seat        role      mean  p_abs_ge_8
    0     0         all -0.500000    0.250000
    1     1         all -4.500000    0.500000
    2     2         all -0.500000    0.500000
    3     3         all  5.500000    0.250000
    4  <NA>         all  0.000000    0.375000
    5  <NA>      dealer -0.500000    0.250000
    6  <NA>  non_dealer  0.166667    0.416667
    """
    deltas = _deltas(run)
    dealer_mask = np.zeros(deltas.shape, dtype=bool)
    dealer_mask[np.arange(len(deltas)), run.games["dealer"].to_numpy(dtype=int)] = True
    per_hand = _per_hand_role_scores(run)
    groups = [(seat, "all", deltas[:, seat], deltas[:, seat]) for seat in range(run.n_players)]
    groups += [
        (pd.NA, "all", deltas.ravel(), per_hand["all"]),
        (pd.NA, "dealer", deltas[dealer_mask], per_hand["dealer"]),
        (pd.NA, "non_dealer", deltas[~dealer_mask], per_hand["non_dealer"]),
    ]
    rows = []
    for seat, role, values, hand_values in groups:
        interval = mean_interval(hand_values, confidence)
        quantiles = np.quantile(values, [0.05, 0.25, 0.5, 0.75, 0.95]) if len(values) else []
        row = {
            "seat": seat,
            "role": role,
            "observations": len(values),
            "mean": values.mean() if len(values) else math.nan,
            "lo": interval.lo,
            "hi": interval.hi,
            "std": values.std(ddof=1) if len(values) > 1 else math.nan,
            "variance": values.var(ddof=1) if len(values) > 1 else math.nan,
            "min": values.min() if len(values) else math.nan,
            **dict(zip(["q05", "q25", "median", "q75", "q95"], quantiles, strict=False)),
            "max": values.max() if len(values) else math.nan,
            "mean_abs": np.abs(values).mean() if len(values) else math.nan,
        }
        for threshold in thresholds:
            row[_tail_name(threshold)] = (np.abs(values) >= threshold).mean()
        rows.append(row)
    frame = pd.DataFrame(rows)
    frame["seat"] = frame["seat"].astype("Int64")
    return frame


@per_run
def tail_probabilities(
    run: Run, thresholds: Sequence[float] = (8, 16, 32, 64), confidence: float = 0.95
) -> pd.DataFrame:
    """P(|score| ≥ x) per seat and pooled (``seat`` <NA>), with Wilson intervals.

    Columns ``seat, threshold, observations, count, probability, lo, hi``. The pooled row counts
    every seat-hand as an observation; seats of one hand are dependent, so read its interval as
    approximate.

    >>> tail_probabilities(demo_run(), thresholds=[24])[["seat", "count", "probability"]]
       seat  count  probability
    0     0      0       0.0000
    1     1      0       0.0000
    2     2      0       0.0000
    3     3      1       0.2500
    4  <NA>      1       0.0625
    """
    absolute = np.abs(_deltas(run))
    rows = []
    for threshold in thresholds:
        hits = absolute >= threshold
        for seat in [*range(run.n_players), pd.NA]:
            chosen = hits.ravel() if seat is pd.NA else hits[:, seat]
            rows.append(
                {
                    "seat": seat,
                    "threshold": threshold,
                    "observations": chosen.size,
                    "count": int(chosen.sum()),
                }
            )
    frame = pd.DataFrame(rows)
    frame["seat"] = frame["seat"].astype("Int64")
    columns = _interval_columns(frame["count"], frame["observations"], confidence)
    columns["probability"] = columns.pop("rate")
    return frame.assign(**{k: columns[k] for k in ("probability", "lo", "hi")})


def _payer_count(run: Run, wins: pd.DataFrame) -> np.ndarray:
    # payer -1 (self-draw, kong bloom, instant win): every other seat pays the winner.
    return np.where(wins["payer"].to_numpy() < 0, run.n_players - 1, 1)


def points_per_hand(run: Run) -> pd.DataFrame:
    """Per hand, the points moved by each source (one column per source, one row per hand).

    ``pattern``: base points times the number of payers. Every ``points_from_<source>`` column
    of the games frame becomes ``<source>``. Anhua records have no such columns yet, so when the
    wins frame has ``bird_hits`` the bird doubling (抓鸟) and, if the manifest enables it, the
    dealer bonus (庄闲分, +1 per payment involving the dealer) are derived from the hand's
    score changes: points moved (sum of positive changes) = pattern + dealer bonus + birds.
    """
    if run.is_combined:
        raise ValueError("points_per_hand takes a single run; use run.parts()")
    wins = run.wins
    rows = _game_rows(run, wins["game"])
    hands = len(run.games)
    base = np.bincount(
        rows, weights=wins["points"].to_numpy(dtype=float) * _payer_count(run, wins),
        minlength=hands,
    )  # fmt: skip
    frame = pd.DataFrame({"pattern": base})
    sources = [c for c in run.games.columns if c.startswith(POINTS_FROM)]
    for column in sources:
        frame[column.removeprefix(POINTS_FROM)] = run.games[column].to_numpy(dtype=float)
    if "bird_hits" in wins and f"{POINTS_FROM}birds" not in sources:
        deltas = _deltas(run)
        moved = np.where(deltas > 0, deltas, 0).sum(axis=1)
        bonus = np.zeros(hands)
        if run.options.get("dealer_bonus"):
            dealer = run.games["dealer"].to_numpy()[rows]
            seat, payer = wins["seat"].to_numpy(), wins["payer"].to_numpy()
            involving = np.where(
                payer < 0,
                np.where(seat == dealer, run.n_players - 1, 1),
                ((seat == dealer) | (payer == dealer)).astype(int),
            )
            bonus = np.bincount(rows, weights=involving.astype(float), minlength=hands)
            frame["dealer_bonus"] = bonus
        other_sources = frame[[c.removeprefix(POINTS_FROM) for c in sources]].sum(axis=1)
        frame["birds"] = moved - base - bonus - other_sources.to_numpy()
    return frame


@per_run
def points_sources(run: Run, confidence: float = 0.95) -> pd.DataFrame:
    """Where the points come from (see :func:`points_per_hand` for the sources).

    Columns ``source, points`` (total over the run), ``per_hand, lo, hi`` (mean per hand, t
    interval), ``share`` (of all sources' points).

    >>> points_sources(demo_run())[["source", "points", "per_hand", "share"]]
        source  points  per_hand     share
    0  pattern    22.0       5.5  0.578947
    1    birds    16.0       4.0  0.421053
    """
    per_hand = points_per_hand(run)
    total = per_hand.to_numpy().sum()
    rows = []
    for source in per_hand.columns:
        interval = mean_interval(per_hand[source], confidence)
        points = float(per_hand[source].sum())
        rows.append(
            {
                "source": source,
                "points": points,
                "per_hand": interval.mean,
                "lo": interval.lo,
                "hi": interval.hi,
                "share": points / total if total else math.nan,
            }
        )
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------- comparisons


class Proportion(NamedTuple):
    """A metric that counts hands: ``successes`` out of ``trials``; ``per_hand`` (0/1 per hand,
    optional) allows a paired comparison."""

    successes: int
    trials: int
    per_hand: np.ndarray | None = None


def _count(per_hand: np.ndarray) -> Proportion:
    per_hand = np.asarray(per_hand, dtype=bool)
    return Proportion(int(per_hand.sum()), len(per_hand), per_hand.astype(float))


def _hands_where(run: Run, wins_mask: pd.Series) -> Proportion:
    indicator = np.zeros(len(run.games), dtype=bool)
    indicator[_game_rows(run, run.wins.loc[wins_mask, "game"])] = True
    return _count(indicator)


def metric_values(run: Run, metric: str | Callable) -> Proportion | np.ndarray:
    """The observations behind a metric of :func:`compare_runs`: a :class:`Proportion` or an
    array of one value per hand. Metric names:

    * proportions of hands: ``draw_rate``, ``dealer_win_rate`` (hands the dealer won),
      ``win_kind:<kind>``, ``pattern:<name>``, ``tier:<name>``;
    * means per hand: ``mean_abs_score`` (mean |score| of the seats), ``dealer_score``,
      ``dealer_advantage`` (dealer minus non-dealer mean), ``score:<seat>``,
      ``tail:<x>`` (share of seats with |score| ≥ x), ``points:<source>``
      (:func:`points_per_hand`), ``mean:<column>`` (any numeric games column, e.g. ``turns``).

    A callable takes the run and returns either kind.
    """
    if callable(metric):
        result = metric(run)
        return result if isinstance(result, Proportion) else np.asarray(result, dtype=float)
    name, _, argument = metric.partition(":")
    games = run.games
    if name == "draw_rate":
        return _count(games["outcome"].astype(str) == "draw")
    if name == "dealer_win_rate":
        dealer = games["dealer"].to_numpy()[_game_rows(run, run.wins["game"])]
        return _hands_where(run, pd.Series(run.wins["seat"].to_numpy() == dealer, run.wins.index))
    if name == "win_kind":
        return _count(games["win_kind"].astype(str) == argument)
    if name in ("pattern", "tier"):
        return _hands_where(run, run.wins[name].astype(str) == argument)
    if name == "mean_abs_score":
        return np.abs(_deltas(run)).mean(axis=1)
    if name in ("dealer_score", "dealer_advantage"):
        scores = _per_hand_role_scores(run)
        if name == "dealer_score":
            return scores["dealer"]
        return scores["dealer"] - scores["non_dealer"]
    if name == "score":
        return games[f"delta_{int(argument)}"].to_numpy(dtype=float)
    if name == "tail":
        return (np.abs(_deltas(run)) >= float(argument)).mean(axis=1)
    if name == "points":
        per_hand = points_per_hand(run)
        if argument not in per_hand:
            raise KeyError(f"no point source {argument!r}: {list(per_hand.columns)}")
        return per_hand[argument].to_numpy()
    if name == "mean":
        return games[argument].to_numpy(dtype=float)
    raise KeyError(f"unknown metric {metric!r} (see sim.analysis.metric_values)")


def _changed_options(options: dict, baseline: dict) -> str:
    keys = [k for k in {**baseline, **options} if options.get(k) != baseline.get(k)]
    return ", ".join(f"{k}={options.get(k)}" for k in keys)


def _estimate(values, confidence) -> tuple[str, int, float, float, float]:
    if isinstance(values, Proportion):
        lo, hi = wilson_interval(values.successes, values.trials, confidence)
        return "proportion", values.trials, values.successes / values.trials, lo, hi
    interval = mean_interval(values, confidence)
    return "mean", interval.n, interval.mean, interval.lo, interval.hi


def compare_runs(
    runs,
    metric: str | Callable | Sequence[str | Callable],
    baseline: str | int = 0,
    alpha: float = 0.05,
    correction: str = "holm",
    all_pairs: bool = False,
    paired: bool = False,
) -> pd.DataFrame:
    """Compare runs (e.g. one per option value) on one or more metrics (:func:`metric_values`).

    Each run is compared with the ``baseline`` run (a label or a position), or every pair with
    ``all_pairs``. Proportions: two-proportion z-test (pooled) and Newcombe's interval of the
    difference; means per hand: Welch's t-test and interval. ``p_adjusted`` controls the
    family-wise error over all rows returned (``holm``, ``bonferroni`` or ``none``);
    ``significant`` is ``p_adjusted < alpha``; intervals are at 1 - ``alpha`` (not adjusted).

    The tests treat the runs as independent samples. Runs played on the same walls (sweep cells
    with one seed and the same hand numbers) are positively correlated, which makes those tests
    conservative; ``paired=True`` compares them hand by hand instead (:func:`paired_test`, on
    0/1 per hand for proportions), which is valid only for such runs and much sharper there.

    Columns ``metric, run, baseline, changed`` (options that differ from the baseline's),
    ``kind, n, estimate, lo, hi, baseline_n, baseline_estimate, baseline_lo, baseline_hi,
    difference, diff_lo, diff_hi, test, statistic, df, p_value, p_adjusted, significant``.

    >>> a, b = demo_run(), demo_run()
    >>> compare_runs({"a": a, "b": b}, "draw_rate")[["run", "baseline", "difference", "p_value"]]
      run baseline  difference  p_value
    0   b        a         0.0      1.0
    """
    parts = _as_parts(runs)
    labels = list(parts)
    if len(labels) < 2:
        raise ValueError("compare_runs needs at least two runs")
    if isinstance(baseline, int):
        baseline = labels[baseline]
    if baseline not in parts:
        raise KeyError(f"no run labelled {baseline!r}: {labels}")
    if all_pairs:
        pairs = [(a, b) for i, b in enumerate(labels) for a in labels[i + 1 :]]
    else:
        pairs = [(label, baseline) for label in labels if label != baseline]
    metrics = [metric] if isinstance(metric, str) or callable(metric) else list(metric)
    if paired:
        for label, reference in pairs:
            a, b = parts[label].games["game"], parts[reference].games["game"]
            if len(a) != len(b) or (a.to_numpy() != b.to_numpy()).any():
                raise ValueError(
                    f"paired comparison of {label!r} and {reference!r} needs the same hands "
                    "(same seed and hand numbers)"
                )
    confidence = 1 - alpha
    rows = []
    for each in metrics:
        values = {label: metric_values(parts[label], each) for label in labels}
        for label, reference in pairs:
            kind, n, estimate, lo, hi = _estimate(values[label], confidence)
            _, base_n, base_estimate, base_lo, base_hi = _estimate(values[reference], confidence)
            if paired:
                test = "paired t"
                observed = [
                    v.per_hand if isinstance(v, Proportion) else v
                    for v in (values[label], values[reference])
                ]
                if any(v is None for v in observed):
                    raise ValueError(f"metric {each!r} has no per-hand values to pair")
                result = paired_test(*observed, confidence)
            elif kind == "proportion":
                test = "two-proportion z"
                result = two_proportion_test(
                    *values[label][:2], *values[reference][:2], confidence=confidence
                )
            else:
                test = "Welch t"
                result = welch_test(values[label], values[reference], confidence)
            rows.append(
                {
                    "metric": each if isinstance(each, str) else getattr(each, "__name__", "f"),
                    "run": label,
                    "baseline": reference,
                    "changed": _changed_options(parts[label].options, parts[reference].options),
                    "kind": kind,
                    "n": n,
                    "estimate": estimate,
                    "lo": lo,
                    "hi": hi,
                    "baseline_n": base_n,
                    "baseline_estimate": base_estimate,
                    "baseline_lo": base_lo,
                    "baseline_hi": base_hi,
                    "difference": result.difference,
                    "diff_lo": result.lo,
                    "diff_hi": result.hi,
                    "test": test,
                    "statistic": result.statistic,
                    "df": result.df,
                    "p_value": result.p_value,
                }
            )
    frame = pd.DataFrame(rows)
    frame["p_adjusted"] = adjust_p_values(frame["p_value"], correction)
    frame["significant"] = frame["p_adjusted"] < alpha
    return frame


def _metric_columns(name: str, values, confidence: float) -> dict[str, float]:
    _, _, estimate, lo, hi = _estimate(values, confidence)
    return {name: estimate, f"{name}_lo": lo, f"{name}_hi": hi}


def sweep_table(sweep, top_patterns: int = 3, confidence: float = 0.95) -> pd.DataFrame:
    """One row per sweep cell, for a designer's comparison of rule options.

    Columns: ``cell``, one column per swept option, ``hands``; then, each with ``_lo`` and
    ``_hi`` columns (Wilson for rates, t for means): ``draw_rate``, ``dealer_win_rate``,
    ``mean_abs_score`` (mean |score| per seat-hand: how swingy the game is),
    ``dealer_advantage`` (with ``dealer_advantage_p``, the paired t-test's p-value),
    ``points_<source>`` (points per hand of each :func:`points_per_hand` source) and
    ``pattern_<name>`` (share of hands) for the ``top_patterns`` most frequent patterns over
    the whole sweep. Accepts a :class:`Sweep`, a mapping label -> run or a list of runs (then
    the option columns are the options that differ between runs).

    >>> table = sweep_table({"x": demo_run(), "y": demo_run()}, top_patterns=1)
    >>> table[["cell", "hands", "draw_rate", "pattern_小七对"]]
      cell  hands  draw_rate  pattern_小七对
    0    x      4       0.25         0.25
    1    y      4       0.25         0.25
    """
    parts = _as_parts(sweep)
    if isinstance(sweep, Sweep):
        options = sweep.cell_options().set_index("cell")
    else:
        options = pd.DataFrame({label: run.options for label, run in parts.items()}).T
        varying = [c for c in options.columns if options[c].astype(str).nunique() > 1]
        options = options[varying]
    patterns = pd.concat([run.wins["pattern"].astype(str) for run in parts.values()])
    counts = patterns.value_counts().rename_axis("pattern").reset_index()
    counts = counts.sort_values(["count", "pattern"], ascending=[False, True], kind="stable")
    top = counts["pattern"].head(top_patterns).tolist()
    rows = []
    for label, run in parts.items():
        row = {"cell": label}
        row.update(options.loc[label].to_dict() if label in options.index else {})
        row["hands"] = len(run.games)
        for name in ("draw_rate", "dealer_win_rate", "mean_abs_score"):
            row.update(_metric_columns(name, metric_values(run, name), confidence))
        advantage = dealer_advantage(run, confidence)
        difference = advantage.set_index("role").loc["difference"]
        row.update(
            {
                "dealer_advantage": difference["mean"],
                "dealer_advantage_lo": difference["lo"],
                "dealer_advantage_hi": difference["hi"],
                "dealer_advantage_p": difference["p_value"],
            }
        )
        for source, values in points_per_hand(run).items():
            row.update(_metric_columns(f"points_{source}", values.to_numpy(), confidence))
        for pattern in top:
            values = metric_values(run, f"pattern:{pattern}")
            row.update(_metric_columns(f"pattern_{pattern}", values, confidence))
        rows.append(row)
    return pd.DataFrame(rows)
