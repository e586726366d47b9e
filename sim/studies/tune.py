"""``mjsim tune``: search an agent's parameters for the best mean score per hand against a field.

The search space is the agent's declared parameters (``sim.kernels.agent_params``: each over its
declared range, integers as integers). Every trial plays the same walls (the config's seed and
``--deals``) once per rotation of the tuned agent and the field around the table (duplicate
deals, ``sim.studies.compare.seated_configs``), and its value is the tuned agent's mean score change
per hand: the mean over walls of its mean over the seats it held (``sim.analysis.duplicate``).

Optuna's TPE sampler proposes the trials, ``batch`` at a time: a batch is asked of the study
before any of it is evaluated (its pending trials count as "constant liars"), then evaluated in
parallel, one trial per worker of the runner's backend (worker processes, or a Dask cluster),
and told. Each ask has its own sampler, seeded from the root seed and the trial's number, and
sees only the trials asked before it: the study depends on the seed, the batch size and what
was asked, never on ``--jobs``, the backend or the timing, and an interrupted study resumed
(``--resume``; the study is Optuna's RDB storage in ``DIR/study.db``, SQLite) is the study an
uninterrupted run makes: its asked but unfinished trials are evaluated with the parameters they
were given. Determinism ends at the batch: ``--batch 1`` is the sequential study, and every
batch size gives a different (equally reproducible) one; and a finished study resumed for more
trials is the one run for that many at once only when its trial count was a multiple of the
batch (otherwise its last batch was smaller than the longer run's).

When every trial is done, the best parameters (the first trial among equals) play fresh walls
(a seed derived from the root seed, ``--holdout-deals`` of them) against the field through
``sim.studies.compare.compare`` into ``DIR/holdout``, and the paired difference with its 95%
interval clustered by wall is written (``DIR/result.json``, ``DIR/holdout.csv``) and printed, with
the history of the trials (``DIR/trials.csv``) and a figure of the optimisation history and the
parameters' importances (``DIR/tune.png``, Optuna's PED-ANOVA importances).
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..running.agents import AGENTS, parameters_of
from ..running.backends import Backend
from ..running.config import RunConfig
from ..running.outdir import DirectoryKind, partial_path
from .compare import compare, parse_agents, seated_configs, seatings

STUDY_FILE = "study.db"
SETTINGS_FILE = "tune.json"
TUNE = DirectoryKind("tune", SETTINGS_FILE)
"""A study directory (``sim.running.outdir``): finished once ``tune.json`` no longer says
``"complete": false``."""
STUDY_NAME = "tune"
HOLDOUT_SALT = 0x74756E65  # "tune": the held-out walls' seed is (root seed, this) hashed
DEFAULT_TRIALS = 30
DEFAULT_DEALS = 1000
DEFAULT_BATCH = 4


@dataclass(frozen=True)
class TuneSettings:
    """What fixes a study (``DIR/tune.json``; ``--resume`` must give the same, but may ask for
    more trials)."""

    config: RunConfig
    agent: str
    field: tuple[str, ...]
    trials: int
    batch: int
    holdout_deals: int
    every_order: bool = False
    params: tuple[str, ...] = ()
    """The parameters searched (``--params``), in slot order; the others play at their defaults.
    Empty: every parameter of the agent."""

    @property
    def searched(self) -> tuple[str, ...]:
        """The names of the parameters the study searches, in slot order."""
        return self.params or tuple(p.name for p in parameters_of(self.agent))

    @property
    def seatings(self) -> list[tuple[str, ...]]:
        """The seatings each trial and the held-out evaluation play
        (``sim.studies.compare.seatings``: the rotations, or every order of the agents, each
        rotated)."""
        return seatings((self.agent, *self.field), self.config.n_players, self.every_order)

    @property
    def seed(self) -> int:
        return self.config.seed

    def fixed(self) -> dict[str, Any]:
        """The settings a resumed study must share (everything but the trial count)."""
        return {
            "config_hash": self.config.hash(),
            "agent": self.agent,
            "field": list(self.field),
            "deals": self.config.games,
            "seed": self.config.seed,
            "batch": self.batch,
            "every_order": self.every_order,
            "params": list(self.searched),
        }


FIXED_BEFORE = {"every_order": False, "params": None}
"""What a study saved before a setting existed was made with (a resumed old study compares so;
``params`` None: every parameter of its agent)."""


def check_settings(
    config: RunConfig,
    agent: str,
    field_text: str,
    trials: int,
    batch: int,
    holdout_deals: int,
    every_order: bool = False,
    params_text: str | None = None,
) -> TuneSettings:
    """The study's settings, every bad input a one-line ValueError (before any output);
    ``every_order``: play every order of the agents around the table (``sim.studies.compare``);
    ``params_text``: the parameters to search, comma-separated (``--params``; default all)."""
    if agent not in AGENTS:
        from ..variants.options import unknown_name

        raise unknown_name("--agent", "agent", agent, AGENTS, value=True)
    if not parameters_of(agent):
        tunable = sorted({a for a in AGENTS if parameters_of(a)})
        raise ValueError(
            f"--agent {agent}: has no parameters to tune; agents with parameters: "
            f"{', '.join(tunable)}"
        )
    field = tuple(name.strip() for name in field_text.split(",") if name.strip())
    if agent in field:
        raise ValueError(
            f"--field: {field_text!r} holds the tuned agent {agent}; the field is the others"
        )
    parse_agents(",".join((agent, *field)), config.n_players)  # known, distinct, fits the table
    if trials < 1:
        raise ValueError(f"--trials: {trials}; expected a positive number of trials")
    if batch < 1:
        raise ValueError(f"--batch: {batch}; expected a positive number of trials")
    if holdout_deals < 1:
        raise ValueError(f"--holdout-deals: {holdout_deals}; expected a positive number of walls")
    if every_order and len(field) < 2:
        raise ValueError(
            f"--every-order: with the field {field_text!r} there is one order only (two agents "
            "are seated by rotations alone); name two or more field agents, or drop the flag"
        )
    seated_configs(config, (agent, *field))  # refuses a config with seat parameters
    params = _searched_parameters(agent, params_text)
    return TuneSettings(config, agent, field, trials, batch, holdout_deals, every_order, params)


def _searched_parameters(agent: str, text: str | None) -> tuple[str, ...]:
    """The parameters ``--params`` names, in slot order: each a parameter of ``agent``, once;
    () when not given (every parameter). Narrowing the search to the parameters that matter
    under the rules tuned (a variant without kings ignores ``wild_margin``) spends the trials
    where they tell, and keeps the importances from crediting noise to the others."""
    if text is None:
        return ()
    from ..running.agents import PARAMETERS
    from ..variants.options import unknown_name

    own = [p.name for p in parameters_of(agent)]
    names = [name.strip() for name in text.split(",") if name.strip()]
    if not names:
        raise ValueError(f"--params: {text!r} names no parameter; {agent}'s: {', '.join(own)}")
    for name in names:
        if name not in PARAMETERS:
            raise unknown_name("--params", "agent parameter", name, PARAMETERS, value=True)
        if name not in own:
            raise ValueError(
                f"--params: {name} is not a parameter of the {agent} agent; its parameters: "
                f"{', '.join(own)}"
            )
    if len(set(names)) != len(names):
        raise ValueError(f"--params: {text!r} names a parameter twice; each once")
    return tuple(name for name in own if name in names)


def holdout_seed(seed: int) -> int:
    """The root seed of the held-out walls: fresh walls, the same for the same ``seed``."""
    return int(np.random.SeedSequence([seed, HOLDOUT_SALT]).generate_state(2, np.uint64)[0])


def _sampler(seed: int, number: int):
    """The TPE sampler that asks trial ``number``: seeded from the root seed and the number, so
    that a trial's parameters depend only on the study's history (not on a sampler's state
    kept in memory: a resumed study asks what the uninterrupted one would)."""
    import optuna

    trial_seed = int(np.random.SeedSequence([seed, number]).generate_state(1)[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
        return optuna.samplers.TPESampler(seed=trial_seed, constant_liar=True)


def _distributions(agent: str, searched: tuple[str, ...]) -> dict[str, Any]:
    """The search space: each ``searched`` parameter of ``agent`` over its declared range."""
    from optuna.distributions import FloatDistribution, IntDistribution

    space = {}
    for parameter in parameters_of(agent):
        if parameter.name not in searched:
            continue
        if parameter.type == "integer":
            space[parameter.name] = IntDistribution(int(parameter.minimum), int(parameter.maximum))
        else:
            space[parameter.name] = FloatDistribution(parameter.minimum, parameter.maximum)
    return space


def _play(config: RunConfig) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Every chunk of ``config`` played here, as the runner plays them (the same chunks, seeds
    and records), into its games and wins frames, without files."""
    from ..running.runner import _chunk_frames, _chunk_records, plan_chunks

    games, wins = [], []
    for chunk in plan_chunks(config):
        records, _, _ = _chunk_records(config, chunk)
        chunk_games, chunk_wins = _chunk_frames(config, chunk, records)
        games.append(chunk_games)
        wins.append(chunk_wins)
    return pd.concat(games, ignore_index=True), pd.concat(wins, ignore_index=True)


def evaluate(
    config: RunConfig,
    agent: str,
    field: tuple[str, ...],
    values: Mapping[str, Any],
    every_order: bool = False,
) -> dict[str, float]:
    """One trial: ``agent`` with parameters ``values`` against ``field`` on ``config``'s walls,
    every rotation (with ``every_order``: of every order of the agents); its mean score per
    hand (over walls), and its difference from the field's first agent paired by wall with the
    95% interval. Pure (no files): runs in any worker."""
    from ..analysis.duplicate import duplicate_comparison, seat_hands

    agents = (agent, *field)
    played = seatings(agents, config.n_players, every_order)
    seated_all = seated_configs(config, agents, {agent: dict(values)}, every_order)
    frames = []
    for rotation, seated in enumerate(seated_all):
        games, wins = _play(seated)
        frames.append(seat_hands(games, wins, played[rotation], rotation))
    hands = pd.concat(frames, ignore_index=True)
    frame = duplicate_comparison(hands, (field[0], agent))
    row = frame[frame["agent"] == agent].iloc[0]
    return {
        "mean": float(row["mean"]),
        "diff": float(row["diff"]),
        "diff_lo": float(row["diff_lo"]),
        "diff_hi": float(row["diff_hi"]),
    }


def study_home(out: Path) -> Path:
    """Where the study of the study directory ``out`` is: its building directory
    (``sim.running.outdir.partial_path``) when an interrupted ``mjsim tune`` left one with a study
    in it, else ``out`` itself (finished, or a study made by ``run_study`` there directly)."""
    partial = partial_path(Path(out))
    return partial if (partial / STUDY_FILE).exists() else Path(out)


def check_directory(out: Path, settings: TuneSettings, resume: bool) -> None:
    """A one-line ValueError unless ``out`` may take the study: without ``resume``, it holds
    none yet (finished or interrupted, ``study_home``); with it, it holds one made with the same
    settings (``TuneSettings.fixed``)."""
    home = study_home(out)
    study_file = home / STUDY_FILE
    settings_file = home / SETTINGS_FILE
    if resume:
        if not study_file.exists() or not settings_file.exists():
            raise ValueError(f"--resume: {out} holds no study to resume (no {STUDY_FILE})")
        kept = json.loads(settings_file.read_text(encoding="utf-8"))
        every_parameter = [p.name for p in parameters_of(settings.agent)]
        for key, value in settings.fixed().items():
            made_with = kept.get(key, FIXED_BEFORE.get(key))
            if key == "params" and made_with is None:
                made_with = every_parameter
            if made_with != value:
                raise ValueError(
                    f"--resume: the study in {out} was made with {key} = {made_with!r}, not "
                    f"{value!r}; resume it with its own settings, or tune into another --out"
                )
    elif home != Path(out):
        raise ValueError(
            f"--out {out}: an interrupted study is kept in {home}; continue it with the same "
            "command and --resume, or remove that folder to start again"
        )
    elif study_file.exists():
        raise ValueError(
            f"--out {out}: already holds a study; continue it with --resume, or choose another "
            "--out"
        )


def _open_study(out: Path, settings: TuneSettings, resume: bool):
    """The study in ``out`` (made there, or loaded with ``resume``), after checking that a
    resumed study was made with the same settings; one-line errors otherwise."""
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    check_directory(out, settings, resume)
    study_file = out / STUDY_FILE
    settings_file = out / SETTINGS_FILE
    out.mkdir(parents=True, exist_ok=True)
    document = {
        **settings.fixed(),
        "trials": settings.trials,
        "label": settings.config.label,
        "complete": False,
    }
    settings_file.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    storage = f"sqlite:///{study_file.resolve()}"
    return optuna.create_study(
        study_name=STUDY_NAME,
        storage=storage,
        direction="maximize",
        load_if_exists=resume,
        sampler=_sampler(settings.seed, 0),
    )


def _ask(study, settings: TuneSettings):
    """Ask the next trial with its own seeded sampler (``_sampler``), its parameters fixed by
    the distributions."""
    study.sampler = _sampler(settings.seed, len(study.trials))
    trial = study.ask(_distributions(settings.agent, settings.searched))
    return trial.number, dict(trial.params)


def run_study(
    settings: TuneSettings,
    out: Path,
    *,
    jobs: int = 1,
    resume: bool = False,
    backend: Backend | None = None,
    say: Callable[[str], None] = print,
):
    """Run (or continue) the study in ``out`` until ``settings.trials`` trials are complete;
    return the study. ``say`` gets a line per finished trial."""
    import optuna
    from joblib import delayed

    study = _open_study(out, settings, resume)
    backend = backend or Backend()
    config = settings.config
    with backend.started(workers=jobs) as pool:
        while True:
            trials = study.get_trials(deepcopy=False)
            done = sum(t.state == optuna.trial.TrialState.COMPLETE for t in trials)
            # asked but never told: an interrupted batch, evaluated with the parameters it got
            pending = [
                (t.number, dict(t.params))
                for t in trials
                if t.state == optuna.trial.TrialState.RUNNING
            ]
            # a new batch, or the rest of one whose asking was interrupted (a whole batch
            # asked and not told is played as it is: the uninterrupted run told it first)
            room = (settings.batch - len(pending) % settings.batch) % settings.batch
            room = min(room if pending else settings.batch, settings.trials - done - len(pending))
            pending += [_ask(study, settings) for _ in range(max(room, 0))]
            if not pending:
                return study
            tasks = (
                delayed(_numbered)(
                    number, config, settings.agent, settings.field, values, settings.every_order
                )
                for number, values in pending
            )
            results = dict(pool(min(jobs, len(pending)))(tasks))
            ids = {t.number: t._trial_id for t in study.get_trials(deepcopy=False)}
            for number, values in pending:
                result = results[number]
                trial = optuna.trial.Trial(study, ids[number])
                for key, value in result.items():
                    trial.set_user_attr(key, value)
                study.tell(trial, result["mean"])
                done += 1
                say(_trial_line(study, number, values, result, done, settings.trials))


def _numbered(number, config, agent, field, values, every_order):
    return number, evaluate(config, agent, field, values, every_order)


def mark_complete(out: Path) -> None:
    """Say in ``out``'s ``tune.json`` that the study directory is finished (``TUNE``)."""
    settings_file = Path(out) / SETTINGS_FILE
    document = json.loads(settings_file.read_text(encoding="utf-8"))
    document["complete"] = True
    settings_file.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")


def _trial_line(study, number, values, result, done, total) -> str:
    from ..cli.text import rounded, signed  # the console's rounding: 0.512, never -0.00

    shown = " ".join(f"{name}={rounded(value)}" for name, value in values.items())
    best = study.best_trial
    return (
        f"  trial {number} ({done}/{total}): {shown} -> {signed(result['mean'])}/hand "
        f"(vs field {signed(result['diff'])} [{signed(result['diff_lo'])}, "
        f"{signed(result['diff_hi'])}]); best {signed(best.value)} (trial {best.number})"
    )


def trials_frame(study) -> pd.DataFrame:
    """One row per complete trial: number, value (mean score per hand), parameters, the
    difference from the field with its interval."""
    import optuna

    rows = []
    for trial in study.get_trials(states=(optuna.trial.TrialState.COMPLETE,)):
        rows.append({"trial": trial.number, "value": trial.value, **trial.params})
        rows[-1].update({k: trial.user_attrs.get(k) for k in ("diff", "diff_lo", "diff_hi")})
    return pd.DataFrame(rows)


def importances(study) -> dict[str, float]:
    """Each parameter's importance (Optuna's PED-ANOVA: deterministic, and needs no
    scikit-learn, which fANOVA does), empty when the trials cannot say (fewer than two complete
    trials, or every value the same)."""
    import optuna

    complete = study.get_trials(states=(optuna.trial.TrialState.COMPLETE,))
    if len(complete) < 2 or len({t.value for t in complete}) < 2:
        return {}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # experimental; few trials in the top quantile
            evaluator = optuna.importance.PedAnovaImportanceEvaluator()
            weights = optuna.importance.get_param_importances(study, evaluator=evaluator)
    except (RuntimeError, ValueError, ZeroDivisionError):
        return {}
    return {name: float(weight) for name, weight in weights.items()}


def plot_study(frame: pd.DataFrame, weights: Mapping[str, float], title: str):
    """The optimisation history (each trial's value and the best so far) beside the parameters'
    importances, as a matplotlib Figure."""
    from ..plots import _figure

    figure, axes = _figure(11, 4, 1, 2)
    history, bars = axes[0]
    if len(frame):
        history.plot(frame["trial"], frame["value"], "o", color="#4C72B0", label="trial")
        best = frame["value"].cummax()
        history.plot(frame["trial"], best, drawstyle="steps-post", color="#C44E52", label="best")
        history.xaxis.get_major_locator().set_params(integer=True)
        history.legend(loc="lower right")
    history.set_xlabel("trial")
    history.set_ylabel("mean score per hand")
    history.set_title(f"Optimisation history: {title}")
    if weights:
        names = list(weights)[::-1]
        bars.barh(names, [weights[name] for name in names], color="#55A868")
        bars.set_xlabel("importance (PED-ANOVA)")
    else:
        bars.text(0.5, 0.5, "too few distinct trials", ha="center", va="center")
        bars.set_axis_off()
    bars.set_title("Parameter importances")
    return figure


def holdout(
    settings: TuneSettings,
    best: Mapping[str, Any],
    out: Path,
    *,
    jobs: int = 1,
    progress: bool | None = None,
    backend: Backend | None = None,
) -> pd.DataFrame:
    """The best parameters against the field on fresh walls (``holdout_seed``,
    ``holdout_deals`` of them) through ``sim.studies.compare.compare`` into ``out``, in the trials'
    seatings (``settings.seatings``: with fewer agents than seats, the first agent named holds
    the extra seats, so the order matters): the paired comparison frame
    (``sim.analysis.duplicate.duplicate_comparison``), with the field's first agent as the
    reference of the tuned agent's row."""
    from ..analysis.duplicate import duplicate_comparison, load_comparison

    fresh = settings.config.with_overrides(
        [f"run.seed={holdout_seed(settings.seed)}", f"run.games={settings.holdout_deals}"]
    )
    compare(
        fresh,
        (settings.agent, *settings.field),
        out,
        jobs=jobs,
        orders=settings.every_order,
        progress=progress,
        parameters={settings.agent: dict(best)},
        backend=backend,
    )
    comparison, hands = load_comparison(out)
    reference_first = (settings.field[0], settings.agent, *settings.field[1:])
    return duplicate_comparison(
        hands, reference_first, comparison["session_hands"], comparison["loss"]
    )
