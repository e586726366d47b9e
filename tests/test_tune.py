"""``mjsim tune``: the search of an agent's parameters on duplicate deals, its
determinism (same command, same study, for any --jobs; a resumed study is the uninterrupted
one), the held-out evaluation, and bad input as one line and exit status 2."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from sim.analysis.duplicate import duplicate_comparison, load_comparison
from sim.cli import main
from sim.running.config import load_config
from sim.studies.compare import compare
from sim.studies.tune import (
    _ask,
    _open_study,
    check_settings,
    evaluate,
    holdout,
    holdout_seed,
    run_study,
    trials_frame,
)

SEVEN = "configs/anhua-seven-kings.toml"


def _config(deals: int = 40):
    return load_config(SEVEN, [f"run.games={deals}", "run.seed=7"])


@pytest.mark.parametrize(
    ("agent", "field", "trials", "message"),
    [
        ("valeu", "efficiency", 3, r"--agent: unknown agent 'valeu'.*did you mean value"),
        ("efficiency", "random", 3, "has no parameters to tune; agents with parameters: cautious"),
        ("value", "value,efficiency", 3, "holds the tuned agent value"),
        ("value", "efficency", 3, r"unknown agent 'efficency'.*did you mean efficiency"),
        ("value", "efficiency,random,cautious,self_draw", 3, "expected 2 to 4"),
        ("value", "efficiency", 0, "--trials: 0"),
    ],
)
def test_bad_settings_are_one_line_errors(agent, field, trials, message):
    with pytest.raises(ValueError, match=message) as error:
        check_settings(_config(), agent, field, trials, 4, 100)
    assert "\n" not in str(error.value)


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ("claim_gian", r"--params: unknown agent parameter 'claim_gian'.*did you mean claim_gain"),
        ("danger_cost", "--params: danger_cost is not a parameter of the value agent"),
        ("claim_gain,claim_gain", "names a parameter twice"),
        (" , ", "names no parameter"),
    ],
)
def test_bad_params_are_one_line_errors(params, message):
    with pytest.raises(ValueError, match=message) as error:
        check_settings(_config(), "value", "efficiency", 3, 4, 100, params_text=params)
    assert "\n" not in str(error.value)


@pytest.mark.engine
def test_a_study_searches_only_the_params_named(tmp_path):
    """``--params``: the trials vary only the parameters named (in slot order, whatever the
    order given), the others play at their defaults; a resume must name the same ones, and a
    study saved before ``--params`` existed searched every parameter."""
    named = "seven_pairs_from,claim_gain"
    settings = check_settings(_config(), "value", "efficiency", 3, 3, 40, params_text=named)
    assert settings.searched == ("claim_gain", "seven_pairs_from")
    frame = trials_frame(run_study(settings, tmp_path / "a", say=lambda line: None))
    parameters = [
        c for c in frame.columns if c not in ("trial", "value", "diff", "diff_lo", "diff_hi")
    ]
    assert parameters == ["claim_gain", "seven_pairs_from"]
    every = check_settings(_config(), "value", "efficiency", 3, 3, 40)
    with pytest.raises(ValueError, match="was made with params"):
        run_study(every, tmp_path / "a", resume=True, say=lambda line: None)
    # a study made before --params: its settings file has no "params" (every parameter)
    run_study(every, tmp_path / "b", say=lambda line: None)
    saved = tmp_path / "b" / "tune.json"
    document = json.loads(saved.read_text())
    assert document.pop("params") == list(every.searched)
    saved.write_text(json.dumps(document))
    assert len(trials_frame(run_study(every, tmp_path / "b", resume=True, say=print))) == 3
    with pytest.raises(ValueError, match="was made with params"):
        run_study(settings, tmp_path / "b", resume=True, say=lambda line: None)


def test_a_config_with_seat_parameters_is_refused():
    config = load_config(SEVEN, ["seats.0.agent=value", "seats.0.claim_gain=2"])
    with pytest.raises(ValueError, match="sets agent parameters per seat"):
        check_settings(config, "value", "efficiency", 3, 4, 100)


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--agent", "efficiency", "--field", "random"], "has no parameters to tune"),
        (["--agent", "value", "--field", "efficiency", "--deals", "0"], "--deals: 0"),
        (["--agent", "value", "--field", "efficiency", "--batch", "0"], "--batch: 0"),
        (["--agent", "value", "--field", "efficiency", "--jobs", "0"], "--jobs"),
        (["--agent", "value", "--field", "efficiency", "--resume"], "holds no study to resume"),
        (["--agent", "value", "--field", "efficiency", "--set", "bird_count=3"], "bird_count"),
        (
            ["--agent", "value", "--field", "efficiency", "--params", "danger_cost"],
            "--params: danger_cost is not a parameter of the value agent",
        ),
    ],
)
def test_the_command_says_bad_input_in_one_line(tmp_path, capsys, flags, message):
    out = tmp_path / "study"
    status = main(["tune", SEVEN, "--out", str(out), "--quiet", *flags])
    error = capsys.readouterr().err.strip()
    assert status == 2
    assert message in error and "\n" not in error
    assert not out.exists() or not any(out.iterdir())


@pytest.mark.engine
def test_a_trial_scores_as_mjsim_compare_does(tmp_path):
    """A trial's value is the tuned agent's mean per hand of ``mjsim compare`` on the same walls
    with the same parameters (the same chunks, seeds and records), and its difference from the
    field too."""
    config = _config(60)
    values = {"claim_gain": 0, "seven_pairs_from": 6}
    result = evaluate(config, "value", ("efficiency",), values)
    out = compare(config, ("efficiency", "value"), tmp_path / "c", parameters={"value": values})
    settings, hands = load_comparison(out)
    frame = duplicate_comparison(hands, ("efficiency", "value"))
    row = frame[frame["agent"] == "value"].iloc[0]
    assert result["mean"] == pytest.approx(row["mean"], abs=1e-12)
    assert result["diff"] == pytest.approx(row["diff"], abs=1e-12)
    assert settings["parameters"] == {"value": values}
    # the parameters matter: the default value agent scores otherwise on these walls
    assert evaluate(config, "value", ("efficiency",), {}) != result


def _study(out: Path, trials: int, *, jobs: int = 1, resume: bool = False, batch: int = 2):
    settings = check_settings(_config(), "value", "efficiency", trials, batch, 40)
    study = run_study(settings, out, jobs=jobs, resume=resume, say=lambda line: None)
    return trials_frame(study)


@pytest.mark.engine
def test_the_same_settings_give_the_same_study_and_resume_continues_it(tmp_path):
    """Seeded per ask: two studies with the same settings are the same trial for trial; a study
    resumed to more trials is the study run to that many at once; a batch asked but never
    told (an interrupt) is played with the parameters it got."""
    first = _study(tmp_path / "a", 5)
    again = _study(tmp_path / "b", 5)
    pd.testing.assert_frame_equal(first, again)
    assert len(first) == 5 and first["trial"].tolist() == list(range(5))
    assert first[["claim_gain", "seven_pairs_from"]].drop_duplicates().shape[0] > 1
    _study(tmp_path / "c", 2)
    resumed = _study(tmp_path / "c", 5, resume=True)
    pd.testing.assert_frame_equal(first, resumed)
    # an interrupted batch: trials 2 and 3 asked, then the process ended
    _study(tmp_path / "d", 2)
    settings = check_settings(_config(), "value", "efficiency", 5, 2, 40)
    study = _open_study(tmp_path / "d", settings, resume=True)
    assert [_ask(study, settings)[0] for _ in range(2)] == [2, 3]
    pd.testing.assert_frame_equal(first, _study(tmp_path / "d", 5, resume=True))
    with pytest.raises(ValueError, match="already holds a study"):
        _study(tmp_path / "a", 5)
    with pytest.raises(ValueError, match="was made with batch = 2, not 3"):
        _study(tmp_path / "a", 6, resume=True, batch=3)


@pytest.mark.slow
def test_the_study_does_not_depend_on_the_jobs(tmp_path):
    one = _study(tmp_path / "one", 4, jobs=1)
    two = _study(tmp_path / "two", 4, jobs=2)
    pd.testing.assert_frame_equal(one, two)


@pytest.mark.engine
def test_the_command_writes_the_study_the_holdout_and_the_figure(tmp_path, capsys):
    out = tmp_path / "tuned"
    flags = ["--agent", "value", "--field", "efficiency", "--deals", "30", "--seed", "3"]
    flags += ["--trials", "3", "--holdout-deals", "40", "--quiet", "--out", str(out)]
    assert main(["tune", SEVEN, *flags]) == 0
    printed = capsys.readouterr().out
    assert "trial 2 (3/3)" in printed and "held out (40 fresh walls x 4 rotations)" in printed
    for name in ("study.db", "tune.json", "trials.csv", "holdout.csv", "result.json", "tune.png"):
        assert (out / name).stat().st_size > 0, name
    result = json.loads((out / "result.json").read_text())
    trials = pd.read_csv(out / "trials.csv")
    best = trials.loc[trials["value"].idxmax()]
    assert result["best_trial"] == int(best["trial"])
    assert result["parameters"]["claim_gain"] == int(best["claim_gain"])
    holdout = result["holdout"]
    assert holdout["diff_lo"] <= holdout["diff"] <= holdout["diff_hi"]
    # the held-out walls are fresh: another seed than the trials'
    kept = json.loads((out / "holdout" / "comparison.json").read_text())
    assert kept["seed"] == holdout_seed(3) != 3 and kept["deals"] == 40
    assert kept["parameters"]["value"] == result["parameters"]
    assert list(pd.read_csv(out / "holdout.csv")["agent"]) == ["efficiency", "value"]
    # the same command again needs --resume, which then adds nothing and evaluates again
    assert main(["tune", SEVEN, *flags]) == 2
    assert "already holds a study" in capsys.readouterr().err
    assert main(["tune", SEVEN, *flags, "--resume"]) == 0
    assert json.loads((out / "result.json").read_text()) == result


@pytest.mark.engine
def test_the_holdout_plays_the_trials_seatings(tmp_path):
    """With fewer agents than seats the first agent named holds the extra seats (rotations of
    value, efficiency, random at four seats seat value twice in two of them): the held-out
    evaluation must seat them as the trials did, while comparing against the field's first."""
    settings = check_settings(_config(12), "value", "efficiency,random", 1, 1, 12)
    frame = holdout(settings, {}, tmp_path / "holdout")
    kept = json.loads((tmp_path / "holdout" / "comparison.json").read_text())
    assert [tuple(seats) for seats in kept["rotations"]] == settings.seatings
    assert settings.seatings[0] == ("value", "efficiency", "random", "value")
    assert list(frame["agent"]) == ["efficiency", "value", "random"]
    assert frame.loc[frame["agent"] == "efficiency", "diff"].item() == 0.0
    assert frame.loc[frame["agent"] == "value", "seat_hands"].item() == 12 * 6


def _every_order_study(out: Path, jobs: int):
    settings = check_settings(_config(20), "value", "efficiency,random", 2, 2, 20, every_order=True)
    return trials_frame(run_study(settings, out, jobs=jobs, say=lambda line: None))


@pytest.mark.slow  # two studies of 2 trials x 20 walls x 8 seatings
def test_every_order_studies_are_the_same_for_one_or_two_jobs(tmp_path):
    """``mjsim tune --every-order``: each trial plays every order of the agents around the
    table (as ``mjsim compare --every-order``), and the study is bit-identical for --jobs 1
    and 2."""
    one = _every_order_study(tmp_path / "one", 1)
    two = _every_order_study(tmp_path / "two", 2)
    pd.testing.assert_frame_equal(one, two, check_exact=True)
    assert len(one) == 2


@pytest.mark.engine
def test_an_every_order_trial_scores_as_mjsim_compare_every_order(tmp_path):
    """A trial with ``every_order`` is the tuned agent's mean per hand of ``mjsim compare
    --every-order`` on the same walls (8 seatings of three agents at four seats), not that of
    the rotations alone."""
    config = _config(20)
    values = {"claim_gain": 0}
    field = ("efficiency", "random")
    result = evaluate(config, "value", field, values, every_order=True)
    agents = ("value", "efficiency", "random")  # a trial's order: the tuned agent, the field
    out = compare(config, agents, tmp_path / "c", orders=True, parameters={"value": values})
    settings, hands = load_comparison(out)
    assert len(settings["rotations"]) == 8  # 2 orders of the other two, 4 rotations each
    frame = duplicate_comparison(hands, ("efficiency", "value", "random"))
    row = frame[frame["agent"] == "value"].iloc[0]
    assert result["mean"] == pytest.approx(row["mean"], abs=1e-12)
    assert result["diff"] == pytest.approx(row["diff"], abs=1e-12)
    assert evaluate(config, "value", field, values) != result


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--field", "efficiency", "--every-order"], "--every-order: with the field"),
        (["--field", "efficiency,random", "--every-order", "--resume"], "holds no study"),
    ],
)
def test_bad_every_order_combinations_are_one_line_errors(tmp_path, capsys, flags, message):
    out = tmp_path / "study"
    status = main(["tune", SEVEN, "--agent", "value", "--out", str(out), "--quiet", *flags])
    error = capsys.readouterr().err.strip()
    assert status == 2
    assert message in error and "\n" not in error
    assert not out.exists()


def test_resuming_without_every_order_a_study_made_with_it_is_refused(tmp_path):
    """The seatings fix a study: a study made with every order is not resumed by rotations
    alone (one line, exit 2 from the command), and a study saved before the flag existed
    (no ``every_order`` in its ``tune.json``) resumes as one made without it."""
    settings = check_settings(_config(), "value", "efficiency,random", 1, 1, 40, every_order=True)
    _open_study(tmp_path / "s", settings, resume=False)
    plain = check_settings(_config(), "value", "efficiency,random", 2, 1, 40)
    with pytest.raises(ValueError, match="was made with every_order = True, not False") as error:
        _open_study(tmp_path / "s", plain, resume=True)
    assert "\n" not in str(error.value)
    _open_study(tmp_path / "old", plain, resume=False)
    kept = tmp_path / "old" / "tune.json"
    document = json.loads(kept.read_text())
    del document["every_order"]
    kept.write_text(json.dumps(document))
    _open_study(tmp_path / "old", plain, resume=True)  # no error
    with pytest.raises(ValueError, match="was made with every_order = False, not True"):
        _open_study(tmp_path / "old", settings, resume=True)


@pytest.mark.engine
def test_the_command_builds_the_study_beside_out_and_keeps_an_interrupted_one(
    tmp_path, capsys, monkeypatch
):
    """``mjsim tune`` writes as ``mjsim run`` does (``sim.running.outdir``): into ``.NAME.partial``
    beside ``--out``, renamed into place when complete; an interrupt after the study began
    keeps the building directory, which the same command refuses to start over and
    ``--resume`` finishes; ``--out`` may not be the current directory or a run."""
    import sim.studies.tune

    config = str(Path(SEVEN).resolve())
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "tuned"
    flags = ["--agent", "value", "--field", "efficiency", "--deals", "20", "--seed", "3"]
    flags += ["--trials", "2", "--batch", "1", "--holdout-deals", "20", "--quiet"]
    flags += ["--out", str(out)]
    real_holdout = sim.studies.tune.holdout

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(sim.studies.tune, "holdout", interrupted)
    assert main(["tune", config, *flags]) == 130
    partial = tmp_path / ".tuned.partial"
    assert f"the study is kept in {partial}" in capsys.readouterr().err
    assert not out.exists() and (partial / "study.db").exists()
    assert json.loads((partial / "tune.json").read_text())["complete"] is False
    assert main(["tune", config, *flags]) == 2
    assert "an interrupted study is kept in" in capsys.readouterr().err
    monkeypatch.setattr(sim.studies.tune, "holdout", real_holdout)
    assert main(["tune", config, *flags, "--resume"]) == 0
    assert not partial.exists()
    assert json.loads((out / "tune.json").read_text())["complete"] is True
    assert len(pd.read_csv(out / "trials.csv")) == 2
    # a finished study resumed for more trials: built again beside it, then in place
    more = [*flags, "--trials", "3", "--resume"]
    assert main(["tune", config, *more]) == 0
    assert len(pd.read_csv(out / "trials.csv")) == 3 and not partial.exists()
    for bad, message in ((".", "is the current directory"), ("run", "not a finished tune")):
        (tmp_path / "run").mkdir(exist_ok=True)
        (tmp_path / "run" / "manifest.json").write_text("{}")
        argv = [*flags[:-1], bad]
        assert main(["tune", config, *argv]) == 2
        error = capsys.readouterr().err.strip()
        assert message in error and "\n" not in error


def test_the_printed_numbers_are_rounded_and_never_minus_zero():
    """What ``mjsim tune`` prints of a trial and of the best parameters: a float parameter to
    three significant digits (result.json keeps it whole), an integer whole, and a mean that
    rounds to zero as +0.00."""
    from types import SimpleNamespace

    from sim.cli.tune import result_lines
    from sim.studies.tune import _trial_line

    values = {"claim_gain": 2, "chance_per_shanten": 0.511868}
    result = {"mean": -0.001, "diff": -0.004, "diff_lo": -1.5, "diff_hi": 1.46004}
    study = SimpleNamespace(best_trial=SimpleNamespace(value=-0.002, number=0))
    line = _trial_line(study, 0, values, result, 1, 3)
    assert "claim_gain=2 chance_per_shanten=0.512 -> +0.00/hand" in line, line
    assert "(vs field +0.00 [-1.50, +1.46]); best +0.00 (trial 0)" in line, line
    settings = check_settings(_config(), "value", "efficiency", 3, 1, 40)
    frame = pd.DataFrame(
        {"agent": ["value"], "mean": [-0.001], "lo": [-0.5], "hi": [0.5], "diff": [-0.0001],
         "diff_lo": [-1.0], "diff_hi": [1.0]}
    )  # fmt: skip
    lines = result_lines(settings, values, frame)
    assert lines[0] == "  best value: claim_gain = 2, chance_per_shanten = 0.512"
    assert "value +0.00/hand [-0.50, +0.50], minus efficiency +0.00 [-1.00, +1.00]" in lines[1]
    assert "-0.00" not in "\n".join([line, *lines])
