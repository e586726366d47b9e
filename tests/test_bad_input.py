"""Bad input: every config error class and every bad command-line argument is one
line naming the key, the value and what is allowed, exit status 2, and no output directory;
hypothesis fuzzes the config loader and the hand parser (clean errors, never a traceback)."""

from __future__ import annotations

import string
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from sim.cli import main
from sim.running.config import RUN_DEFAULTS, build_config, load_config
from sim.variants import VARIANT_NAMES, get_variant

ROOT = Path(__file__).resolve().parent.parent
ANHUA = str(ROOT / "configs" / "anhua-seven-kings.toml")
WENGAN = str(ROOT / "configs" / "wengan-2p.toml")


def _one_line_exit_2(argv: list[str], folder: Path, capsys) -> str:
    """Run ``mjsim ARGV`` in ``folder``: exit 2, nothing on standard output, one line on standard
    error, nothing written in the folder; the line."""
    status = main(argv)
    captured = capsys.readouterr()
    assert status == 2, captured
    assert captured.out == "" and captured.err.count("\n") == 1, captured.err
    assert list(folder.iterdir()) == [], "an error left output behind"
    return captured.err


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


CONFIG_ERRORS = [
    # unknown keys, each with a did-you-mean
    (["--set", "bird_cout=2"], ["options.bird_cout: unknown option;", "did you mean bird_count?"]),
    (["--set", "run.gamez=5"], ["run.gamez: unknown setting; allowed: games", "mean games?"]),
    (["--set", "opions.x=1"], ["--set opions.x", "did you mean options?", "allowed: run, options"]),
    (
        ["--set", 'run.agents=["efficency","random","random","random"]'],
        ["did you mean efficiency?"],
    ),
    (["--set", "variant=anhwa"], ["variant: unknown variant 'anhwa'", "did you mean anhua?"]),
    # wrong types
    (["--set", "multi_ron=1"], ["options.multi_ron: expected true or false, got 1"]),
    (["--set", "run.games=1.5"], ["run.games: expected an integer, got 1.5"]),
    (["--set", "kong_min_wall=[4]"], ["options.kong_min_wall: expected an integer, got [4]"]),
    (["--set", "variant=[1]"], ["variant: unknown variant [1]; allowed: "]),
    # out of range
    (["--set", "bird_count=3"], ["options.bird_count: 3 is not allowed; allowed: 1, 2, 4"]),
    (["--games", "0"], ["run.games: 0 is below the minimum 1"]),
    (["--seed", "-1"], ["run.seed: -1 is below the minimum 0"]),
    (["--games", str(10**13)], ["run.games: 10000000000000 is above the maximum"]),
    (["--set", "run.chunk_hands=5000000"], ["run.chunk_hands: 5000000 is above the maximum"]),
    (["--set", "hands_per_session=1001"], ["run.hands_per_session: 1001 is above the maximum"]),
    (
        ["--set", "kong_min_wall=69"],
        ["options.kong_min_wall: 69 is above the maximum 68; allowed: an integer from"],
    ),
    # impossible combinations
    (["--set", "player_count=2"], ["options.player_count: 2 is not allowed; allowed: 3, 4"]),
    (["--set", "kong_min_wall=2"], ["kong_min_wall: 2 is below kong_reveal_count + 1 = 4"]),
    (["--set", "run.agents=['random']"], ["run.agents: 1 names for 4 players; expected one"]),
    (
        ["--games", str(10**9), "--set", "run.chunk_hands=8"],
        ["run.chunk_hands: 8 makes 125,000,000 chunks", "at most 10,000,000 chunks"],
    ),
]


@pytest.mark.parametrize(("extra", "expected"), CONFIG_ERRORS)
def test_every_config_error_class_is_one_line_exit_2_and_no_directory(
    folder, capsys, extra, expected
):
    line = _one_line_exit_2(["run", ANHUA, *extra, "--quiet"], folder, capsys)
    assert line.startswith(f"mjsim: error: {ANHUA}: ")
    for text in expected:
        assert text in line, line


def test_an_unknown_top_level_key_suggests_the_right_one(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text('variant = "anhua"\nlable = "x"\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"lable: unknown key; allowed: .*; did you mean label\?$"):
        load_config(path)


def test_wengan_rejects_four_agents_for_two_players(folder, capsys):
    line = _one_line_exit_2(
        ["run", WENGAN, "--set", 'run.agents=["random","random","random","random"]'],
        folder,
        capsys,
    )
    assert "run.agents: 4 names for 2 players" in line


@pytest.mark.parametrize(
    ("config", "override", "expected"),
    [
        (
            WENGAN,
            "base_stake=1000000000000000000",
            "options.base_stake: 1000000000000000000 is above the maximum 10000; "
            "allowed: an integer from 1 to 10000",
        ),
        (
            WENGAN,
            "yuan_que_bonus=-3",
            "options.yuan_que_bonus: -3 is below the minimum 0; "
            "allowed: an integer from 0 to 10000",
        ),
        (
            str(ROOT / "configs" / "anqing.toml"),
            "lian_zhuang_table=[3,6,12,1000001]",
            "options.lian_zhuang_table[3]: 1000001 is above the maximum 1000; "
            "allowed: a list of 4 integers from 0 to 1000",
        ),
    ],
)
def test_an_option_out_of_its_range_names_the_option_and_the_range(
    folder, capsys, config, override, expected
):
    """Every numeric option has a range that keeps each hand's scores, and a run's sums, inside
    int64 (sim/variants/<name>/bounds.py): a value beyond it is one line, exit 2, nothing
    written."""
    line = _one_line_exit_2(["run", config, "--set", override, "--quiet"], folder, capsys)
    assert line == f"mjsim: error: {config}: {expected}\n"


@pytest.mark.skipif("anqing" not in VARIANT_NAMES, reason="Anqing is not registered yet")
def test_anqing_with_three_players_is_refused(folder, capsys):
    """Anqing is a four-player game (§anqing-players): any other player_count is refused, and
    ``mjsim run`` says so in one line, exit 2, nothing written."""
    with pytest.raises(ValueError, match=r"options\.player_count: 3 is"):
        build_config({"variant": "anqing", "options": {"player_count": 3}})
    anqing = str(ROOT / "configs" / "anqing.toml")
    argv = ["run", anqing, "--set", "player_count=3", "--quiet"]
    assert "options.player_count: 3 is" in _one_line_exit_2(argv, folder, capsys)


CLI_ERRORS = [
    (["run", ANHUA, "--games", "abc"], "argument --games: expected an integer, got 'abc'"),
    (["run", ANHUA, "--jobs", "0"], "--jobs: expected a positive integer or -1"),
    (["run", ANHUA, "--jobs", "two"], "argument --jobs: expected an integer, got 'two'"),
    (["run", ANHUA, "--backend", "spark"], "argument --backend: invalid choice: 'spark'"),
    (["run", ANHUA, "--scheduler", "tcp://h:1"], "--scheduler tcp://h:1: only with --backend"),
    (["run", ANHUA, "--colour"], "unrecognized arguments: --colour"),
    (["run"], "CONFIG: missing; expected a config file"),
    (["run", "nope.toml"], "nope.toml: no such config file"),
    (["run", "--resume", "x", "--seed", "3"], "--resume x: --seed is not allowed with it"),
    (["sweep"], "SWEEP.toml: missing; expected a sweep file"),
    (["sweep", "--resume", "x", "--games", "9"], "--resume x: --games is not allowed with it"),
    (["sweep", "--resume", "nothing"], "--resume nothing: no interrupted sweep to resume"),
    (["sweep", "s.toml", "--jobs", "-2"], "--jobs: expected a positive integer or -1"),
    (["replay", "x", "--game", "first"], "argument --game: expected an integer, got 'first'"),
    (["deal", "anhua", "--confidence", "high"], "argument --confidence: expected a number"),
    (["nonsense"], "argument COMMAND: invalid choice: 'nonsense'"),
]


@pytest.mark.parametrize(("argv", "expected"), CLI_ERRORS)
def test_every_bad_argument_is_one_line_and_exit_2(folder, capsys, argv, expected):
    if argv[:2] == ["sweep", "s.toml"]:
        (folder / "s.toml").write_text(f'base = "{ANHUA}"\n[axes]\nbird_count = [1, 2]\n')
    try:
        status = main(argv)
    except SystemExit as exit:  # argparse's errors exit from inside the parser
        status = exit.code
    captured = capsys.readouterr()
    assert status == 2 and captured.out == "", captured
    assert captured.err.count("\n") == 1 and expected in captured.err, captured.err
    assert [p.name for p in folder.iterdir()] in ([], ["s.toml"])


def test_a_bad_sweep_axis_suggests_the_option(tmp_path):
    from sim.studies.sweep import load_sweep_spec

    path = tmp_path / "s.toml"
    path.write_text(f'base = "{ANHUA}"\n[axes]\nbird_cont = [1, 2]\n', encoding="utf-8")
    with pytest.raises(
        ValueError, match=r"axes.bird_cont: not an option .* did you mean bird_count"
    ):
        load_sweep_spec(path)


# --------------------------------------------------------------------------- fuzzing

OPTION_NAMES = sorted(
    {
        option.name
        for name in VARIANT_NAMES
        for option in get_variant(name).options_class.DECLARATIONS
    }
)
SCALARS = st.one_of(
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True),
    st.booleans(),
    st.text(max_size=8),
    st.sampled_from([*VARIANT_NAMES, "anqing", "four_kings", "random", "efficiency", "", ".."]),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5), st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)
DOCUMENTS = st.fixed_dictionaries(
    {},
    optional={
        "variant": st.one_of(st.sampled_from(VARIANT_NAMES), VALUES),
        "label": st.one_of(st.text(max_size=10), VALUES),
        "run": st.one_of(
            st.dictionaries(st.sampled_from(list(RUN_DEFAULTS)) | st.text(max_size=6), VALUES),
            VALUES,
        ),
        "options": st.one_of(
            st.dictionaries(st.sampled_from(OPTION_NAMES) | st.text(max_size=6), VALUES),
            VALUES,
        ),
        "extra": VALUES,
    },
)


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(DOCUMENTS)
@example({"variant": "anhua", "run": {"games": [], "\n": []}})  # a key with a line break
@example({"variant": []})  # raised TypeError (unhashable) before
def test_the_config_loader_fails_only_with_one_line_errors(document):
    try:
        config = build_config(document)
    except ValueError as error:
        assert "\n" not in str(error) and str(error).strip()
    else:
        assert config.variant in VARIANT_NAMES and config.games >= 1


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.text(alphabet=string.printable.replace("\n", ""), max_size=24), max_size=3))
def test_set_overrides_fail_only_with_one_line_errors(overrides):
    try:
        load_config(ANHUA, overrides)
    except ValueError as error:
        assert "\n" not in str(error)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.text(max_size=60))
def test_any_config_text_fails_only_with_one_line_errors(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("fuzz") / "c.toml"
    path.write_text(text, encoding="utf-8")
    try:
        load_config(path)
    except ValueError as error:
        assert "\n" not in str(error)


HAND_TEXT = st.text(alphabet="0123456789mpsz* ESWNRDGBPF,", max_size=30) | st.text(max_size=20)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(HAND_TEXT)
def test_the_hand_parser_fails_only_with_one_line_errors(text):
    from sim.core.tiles import parse_hand

    try:
        parse_hand(text)
    except ValueError as error:
        assert "\n" not in str(error) and str(error).strip()


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(HAND_TEXT.filter(lambda text: not text.startswith("-")))
def test_mjsim_hand_prints_a_result_or_one_error_line(capsys, text):
    status = main(["hand", text])
    captured = capsys.readouterr()
    assert status in (0, 2), captured
    if status == 2:
        assert captured.out == "" and captured.err.count("\n") == 1, captured.err
        assert captured.err.startswith("mjsim: error: ")
