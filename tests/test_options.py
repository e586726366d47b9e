"""sim.variants.options: options declared once, and everything derived from the declarations.

Property tests of the checks (every allowed value passes; values of a wrong type or out of range
fail with one line naming the option), the params array (round trip; Anhua's identical to the
encoding written by hand before the declarations), the config comments and the docs table; and
the ranges of the variants' numeric options: each variant's ``bounds.hand_score_bound`` at the
maxima, summed over the longest run a config allows, stays below 2**62 (that it truly bounds the
hands played: ``tests/test_score_bounds.py``).
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import itertools
import re
import subprocess
import sys
import tomllib
import types
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.running import config as config_module
from sim.running.config import load_config
from sim.variants import VARIANT_NAMES, get_variant
from sim.variants.anhua import options as anhua_declared
from sim.variants.anhua import scoring
from sim.variants.anhua.options import ANHUA_OPTIONS, AnhuaOptions
from sim.variants.options import (
    DOC_TABLE_BEGIN,
    DOC_TABLE_END,
    RULE_CITATION,
    Option,
    Options,
    choice,
    decode_params,
    flag,
    int_list,
    integer,
    options_from_mapping,
    options_markdown,
    options_toml,
    param_count,
    param_slots,
    replace_doc_table,
    replace_options_section,
)

ROOT = Path(__file__).resolve().parents[1]

# A made-up variant's options, one of each kind, with a per-连庄-streak list like Anqing's
DEMO_OPTIONS = (
    choice("player_count", (2, 3, 4), 4, "人数", "players", "§anqing-setup"),
    flag("multi_ron", True, "一炮多响", "several winners on one discard", "§anqing-play"),
    choice(
        "first_dealer",
        ("random", "seat0"),
        "random",
        "起庄",
        "first dealer",
        "§anqing-option-first-dealer",
    ),
    integer(
        "dealer_extra",
        3,
        "庄家额外",
        "the dealer's extra",
        "§anqing-option-dealer-extra",
        minimum=0,
    ),
    integer(
        "weekday", 3, "星期几", "day of the week", "§wengan-chicken-weekday", minimum=1, maximum=7
    ),
    int_list(
        "lian_zhuang_table",
        (3, 6, 12, 15),
        "连庄",
        "points of a dealer streak of 1, 2, 3, 4 or more",
        "§anqing-option-lian-zhuang-table",
        length=4,
        minimum=0,
    ),
)


class DemoOptions(Options, declarations=DEMO_OPTIONS):
    def check_together(self) -> None:
        if self.player_count == 2 and not self.multi_ron:
            raise ValueError("multi_ron: false is not allowed with 2 players")


# ------------------------------------------------------------------------------ an oracle


def is_allowed(option: Option, value) -> bool:
    """Whether ``value`` is allowed, written out independently of ``Option.check``."""

    def is_int(item) -> bool:
        return (
            type(item) is int
            and (option.minimum is None or item >= option.minimum)
            and (option.maximum is None or item <= option.maximum)
        )

    if option.kind == "flag":
        return type(value) is bool
    if option.kind == "choice":
        return any(type(value) is type(a) and value == a for a in option.allowed)
    if option.kind == "integer":
        return is_int(value)
    return (
        isinstance(value, list | tuple)
        and len(value) == option.length
        and all(is_int(item) for item in value)
    )


def allowed_values(option: Option) -> st.SearchStrategy:
    if option.kind == "flag":
        return st.booleans()
    if option.kind == "choice":
        return st.sampled_from(option.allowed)
    ints = st.integers(
        -1000 if option.minimum is None else option.minimum,
        1000 if option.maximum is None else option.maximum,
    )
    if option.kind == "integer":
        return ints
    lists = st.lists(ints, min_size=option.length, max_size=option.length)
    return st.one_of(lists, lists.map(tuple))


ANY_VALUE = st.one_of(
    st.booleans(),
    st.integers(-300, 300),
    st.integers(),
    st.floats(allow_nan=False),
    st.text(max_size=12),
    st.sampled_from(["seven_kings", "four_kings", "random", "seat0", "count", "double"]),
    st.none(),
    st.lists(st.one_of(st.integers(-5, 20), st.booleans(), st.text(max_size=2)), max_size=6),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)

ALL_DECLARED = DEMO_OPTIONS + ANHUA_OPTIONS


def _items(value):
    return value if isinstance(value, list | tuple) else ()


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(ALL_DECLARED), ANY_VALUE)
def test_a_value_passes_exactly_when_allowed_and_else_one_line_names_the_key(option, value):
    if is_allowed(option, value):
        option.check(value)
        return
    with pytest.raises(ValueError) as error:
        option.check(value)
    message = str(error.value)
    assert "\n" not in message
    assert message.startswith((f"{option.name}: ", f"{option.name}["))
    # the value at fault is named: the whole value, or the item of a list
    assert repr(value) in message or any(repr(item) in message for item in _items(value))
    assert (
        "allowed" in message
        or "expected" in message
        or "minimum" in message
        or ("maximum" in message)
    )


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_every_allowed_value_passes(data):
    for option in ALL_DECLARED:
        option.check(data.draw(allowed_values(option), label=option.name))


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(DEMO_OPTIONS), ANY_VALUE)
def test_the_class_and_config_tables_reject_what_the_option_rejects(option, value):
    """Through the class made from the declarations and a config's ``[options]`` table."""
    if is_allowed(option, value):
        options_from_mapping(DemoOptions, {option.name: value})
        return
    with pytest.raises(ValueError) as error:
        options_from_mapping(DemoOptions, {option.name: value})
    message = str(error.value)
    assert "\n" not in message and message.startswith(f"options.{option.name}")


# ------------------------------------------------------------------------------ the class


def test_the_class_has_a_field_per_declaration_with_its_default():
    assert [field.name for field in dataclasses.fields(DemoOptions)] == [
        option.name for option in DEMO_OPTIONS
    ]
    defaults = DemoOptions()
    assert defaults.lian_zhuang_table == (3, 6, 12, 15) and defaults.player_count == 4
    made = DemoOptions(lian_zhuang_table=[1, 2, 4, 8])
    assert made.lian_zhuang_table == (1, 2, 4, 8)  # a list is kept as a tuple: frozen, hashable
    assert hash(made) == hash(DemoOptions(lian_zhuang_table=(1, 2, 4, 8)))
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.multi_ron = False  # type: ignore[misc]
    with pytest.raises(ValueError, match="multi_ron: false is not allowed with 2 players"):
        DemoOptions(player_count=2, multi_ron=False)  # the class's own rule between options
    with pytest.raises(ValueError, match=r"lian_zhuang_table\[2\]: -1 is below the minimum 0"):
        DemoOptions(lian_zhuang_table=[1, 2, -1, 8])
    with pytest.raises(ValueError, match=r"lian_zhuang_table: expected a list of 4 integers ≥ 0"):
        DemoOptions(lian_zhuang_table=[1, 2])
    with pytest.raises(ValueError, match=r"weekday: 8 is above the maximum 7"):
        DemoOptions(weekday=8)


def test_bad_declarations_fail_when_declared():
    with pytest.raises(ValueError, match="bird_count: 3 is not allowed"):
        choice("bird_count", (1, 2, 4), 3, "抓鸟", "birds", "§anhua-birds")
    with pytest.raises(ValueError, match="a choice needs two or more str or int values"):
        choice("mixed", (1, "two"), 1, "", "mixed", "§anhua-birds")
    with pytest.raises(ValueError, match="expected a list of 4 integers"):
        int_list("table", (1, 2, 3), "", "a table", "§anhua-birds", length=4)
    with pytest.raises(ValueError, match=r"^option weekday: rules 'B6 #15'; allowed: rule ids"):
        integer("weekday", 3, "星期几", "day of the week", "B6 #15")
    with pytest.raises(ValueError, match="declared twice"):

        class Twice(Options, declarations=DEMO_OPTIONS[:2] + DEMO_OPTIONS[:1]):
            pass

    with pytest.raises(TypeError, match="fields come from the declarations"):

        class Annotated(Options, declarations=DEMO_OPTIONS):
            extra: int = 3


# ------------------------------------------------------------------------------ params


def test_params_take_one_slot_per_option_and_length_slots_per_list():
    slots = param_slots(DEMO_OPTIONS)
    assert list(slots.values()) == [0, 1, 2, 3, 4, 5]
    assert param_count(DEMO_OPTIONS) == 9
    params = DemoOptions(player_count=3, first_dealer="seat0", lian_zhuang_table=(1, 2, 4, 8))
    np.testing.assert_array_equal(params.params(), [3, 1, 1, 3, 3, 1, 2, 4, 8])
    assert params.params().dtype == np.int64


@st.composite
def anhua_options(draw) -> AnhuaOptions:
    values = {
        option.name: draw(allowed_values(option), label=option.name)
        for option in ANHUA_OPTIONS
        if option.name != "kong_min_wall"
    }
    wall = AnhuaOptions(player_count=values["player_count"]).wall_after_deal
    values["kong_min_wall"] = draw(st.integers(values["kong_reveal_count"] + 1, wall))
    return AnhuaOptions(**values)


@st.composite
def demo_options(draw) -> DemoOptions:
    values = {option.name: draw(allowed_values(option)) for option in DEMO_OPTIONS}
    if values["player_count"] == 2:
        values["multi_ron"] = True
    return DemoOptions(**values)


@settings(max_examples=300, deadline=None)
@given(st.one_of(anhua_options(), demo_options()))
def test_params_round_trip(options):
    decoded = decode_params(options.DECLARATIONS, options.params())
    assert type(options)(**decoded) == options


def old_anhua_params(options) -> np.ndarray:
    """``AnhuaOptions.params()`` as written by hand before the declarations (commit a6f259e),
    its indices the literal ``P_*`` values of scoring.py then: the reference the declared
    encoding must equal."""
    p = np.zeros(19, np.int64)
    p[0] = options.player_count
    p[1] = ("seven_kings", "four_kings").index(options.king_mode)
    p[2] = options.king_as_itself_is_hard
    p[3] = options.allow_rob_kong
    p[4] = options.multi_ron
    p[5] = options.dealer_bonus
    p[6] = options.bird_count
    p[7] = ("identical_sets", "count").index(options.king_tier_mode)
    p[8] = options.king_as_itself_affects_eligibility
    p[9] = ("first_turn", "until_first_claim").index(options.instant_king_win_window)
    p[10] = options.kong_reveal_count
    p[11] = ("best_only", "double").index(options.kong_multi_tile_win)
    p[12] = options.kong_min_wall
    p[13] = options.seven_pairs_allow_quad
    p[14] = ("after_birds", "before_birds").index(options.dealer_bonus_timing)
    p[15] = ("seat0", "random").index(options.first_dealer)
    p[16] = options.discarded_king_claimable_for_win
    p[17] = options.allow_rob_direct_kong
    p[18] = options.instant_king_win_counts_draw
    return p


@settings(max_examples=1000, deadline=None)
@given(anhua_options())
def test_anhua_params_equal_the_encoding_written_by_hand_before(options):
    np.testing.assert_array_equal(options.params(), old_anhua_params(options))


def test_anhua_kernel_constants_equal_the_ones_written_by_hand_before():
    """The ``P_*`` indices and choice codes the kernels read (as ``scoring.P_*``), against the
    literals scoring.py held before the declarations (commit a6f259e)."""
    old = {
        "P_PLAYERS": 0,
        "P_KING_MODE": 1,
        "P_KING_AS_ITSELF_IS_HARD": 2,
        "P_ALLOW_ROB_KONG": 3,
        "P_MULTI_RON": 4,
        "P_DEALER_BONUS": 5,
        "P_BIRD_COUNT": 6,
        "P_KING_TIER_MODE": 7,
        "P_KING_AS_ITSELF_AFFECTS_ELIGIBILITY": 8,
        "P_INSTANT_WIN_WINDOW": 9,
        "P_KONG_REVEAL_COUNT": 10,
        "P_KONG_MULTI_TILE_WIN": 11,
        "P_KONG_MIN_WALL": 12,
        "P_SEVEN_PAIRS_ALLOW_QUAD": 13,
        "P_DEALER_BONUS_TIMING": 14,
        "P_FIRST_DEALER": 15,
        "P_DISCARDED_KING_CLAIMABLE": 16,
        "P_ALLOW_ROB_DIRECT_KONG": 17,
        "P_INSTANT_COUNTS_DRAW": 18,
        "N_PARAMS": 19,
        "KING_MODE_SEVEN": 0,
        "KING_MODE_FOUR": 1,
        "TIER_MODE_IDENTICAL_SETS": 0,
        "TIER_MODE_COUNT": 1,
    }
    assert {name: getattr(scoring, name) for name in old} == old
    for name in old:
        assert type(getattr(scoring, name)) is int  # a plain int: a compile-time constant


def test_every_anhua_option_has_one_index_for_the_kernels():
    indices = {
        name: value
        for name, value in vars(anhua_declared).items()
        if name.startswith("P_") and type(value) is int
    }
    assert sorted(indices.values()) == sorted(param_slots(ANHUA_OPTIONS).values())
    assert param_count(ANHUA_OPTIONS) == anhua_declared.N_PARAMS


# ------------------------------------------------------------------------------ configs and docs


def test_the_toml_section_reads_back_and_notes_changes():
    values = {"player_count": 3, "lian_zhuang_table": [1, 2, 4, 8]}
    text = options_toml(DEMO_OPTIONS, values)
    document = tomllib.loads(text)["options"]
    assert DemoOptions(**document) == DemoOptions(player_count=3, lian_zhuang_table=(1, 2, 4, 8))
    lines = text.splitlines()
    for option in DEMO_OPTIONS:
        index = lines.index(f"# {option.title} [{option.rules}]")
        assert lines[index + 1].startswith(f"{option.name} = ")
        assert "# allowed: " in lines[index + 1]
        assert lines[index + 1].endswith("# changed from the default") == (option.name in values)
    assert "lian_zhuang_table = [1, 2, 4, 8]  # allowed: a list of 4 integers ≥ 0" in text
    assert 'first_dealer = "random"  # allowed: "random" | "seat0"' in text


def test_replacing_the_section_keeps_the_rest_of_the_file():
    text = 'variant = "demo"\n\n[options]\n# old\nweekday = 5\n\n[extra]\nx = 1\n'
    new = replace_options_section(text, DEMO_OPTIONS, {"weekday": 5})
    assert new.startswith('variant = "demo"\n\n[options]\n# ')
    assert new.endswith("\n\n[extra]\nx = 1\n")
    assert tomllib.loads(new)["options"]["weekday"] == 5
    assert replace_options_section(new, DEMO_OPTIONS, {"weekday": 5}) == new


@pytest.mark.parametrize(
    "path", sorted((ROOT / "configs").glob("*.toml")), ids=lambda path: path.stem
)
def test_each_config_has_exactly_the_declared_comments(path):
    """Every config's options section is the one its variant's declarations generate."""
    from sim.variants import VARIANT_NAMES, get_variant

    text = path.read_text(encoding="utf-8")
    document = tomllib.loads(text)
    assert document["variant"] in VARIANT_NAMES
    declarations = get_variant(document["variant"]).options_class.DECLARATIONS
    assert replace_options_section(text, declarations, document["options"]) == text


def test_the_docs_table_is_the_declared_one():
    text = (ROOT / "docs" / "rules/anhua.md").read_text(encoding="utf-8")
    assert replace_doc_table(text, ANHUA_OPTIONS) == text
    assert options_markdown(ANHUA_OPTIONS) in text
    for option in ANHUA_OPTIONS:
        assert f"| `{option.name}` | {option.title} |" in text


def test_the_regeneration_script_finds_nothing_stale():
    result = subprocess.run(
        [sys.executable, "scripts/regenerate_options.py", "--check"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


# ------------------------------------------------------------------------------ --set


@pytest.fixture
def demo_variant(monkeypatch):
    """A registered variant "demo" whose options are :class:`DemoOptions`."""
    real = config_module.get_variant
    demo = types.SimpleNamespace(
        name="demo", options_class=DemoOptions, player_count=lambda options: 4
    )
    monkeypatch.setattr(
        config_module, "get_variant", lambda name: demo if name == "demo" else real(name)
    )


def test_set_takes_a_list_value(demo_variant, tmp_path):
    path = tmp_path / "demo.toml"
    path.write_text('variant = "demo"\n\n' + options_toml(DEMO_OPTIONS), encoding="utf-8")
    config = load_config(path, ["lian_zhuang_table=[1, 2, 4, 8]", "options.weekday=6"])
    assert config.options.lian_zhuang_table == (1, 2, 4, 8) and config.options.weekday == 6
    assert config.resolved()["options"]["lian_zhuang_table"] == [1, 2, 4, 8]
    assert config.with_overrides([]).resolved() == config.resolved()
    assert load_config(path).hash() != config.hash()
    for override, message in [
        ("lian_zhuang_table=[1,2,4]", "options.lian_zhuang_table: expected a list of 4 integers"),
        ("lian_zhuang_table=1,2,4,8", "options.lian_zhuang_table: expected a list of 4"),
        ("lian_zhuang_table=[1,2,true,8]", "options.lian_zhuang_table[2]: expected an integer"),
        ("lian_zhuang_table=[1,2,-4,8]", "options.lian_zhuang_table[2]: -4 is below the minimum"),
        ("weekday=0", "options.weekday: 0 is below the minimum 1"),
    ]:
        with pytest.raises(ValueError) as error:
            load_config(path, [override])
        assert message in str(error.value) and "\n" not in str(error.value)


# ------------------------------------------------------------------------------ the rules reference

RULES = ROOT / "docs" / "rules"


def _described(variant: str) -> tuple[str, set[str]]:
    """A variant's rules reference without its generated options table, and its anchors."""
    text = (RULES / f"{variant}.md").read_text(encoding="utf-8")
    begin, end = text.index(DOC_TABLE_BEGIN), text.index(DOC_TABLE_END)
    return text[:begin] + text[end:], set(re.findall(r"\{#([a-z0-9-]+)\}", text))


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_every_option_is_described_by_its_rules_reference(variant):
    """Beside the generated table, the reference's prose names each option (its values and
    meaning in the rule it changes), and each option cites rules of its own variant's page."""
    prose, anchors = _described(variant)
    for option in get_variant(variant).options_class.DECLARATIONS:
        named = re.search(rf"`{option.name}( = [^`]+)?`", prose)
        assert named, f"{variant}: {option.name} is not described"
        cited = set(RULE_CITATION.findall(option.rules))
        assert cited and cited <= anchors, f"{option.name}: {sorted(cited - anchors)}"


# ------------------------------------------------------------------------------ score bounds

LONGEST_RUN = config_module.RUN_MAXIMUM["games"]
LONGEST_SESSION = config_module.RUN_MAXIMUM["hands_per_session"]
SUM_LIMIT = 2**62
"""A run's summed scores stay below this: half of int64's largest value, room to spare."""
NUMERIC = ("integer", "int_list")
MOVE_NO_POINTS = {
    "anhua": {"kong_min_wall"},  # 余牌数: when a kong may be made (§anhua-kong-min-wall)
    "wengan": {"xing_qi_ji_weekday"},  # which rank is 星期鸡 (§wengan-chicken-weekday)
    "anqing": {"player_count"},  # four only (§anqing-players)
}
"""The numeric options no payment grows with; every other one the bound must read."""


def hand_score_bound(variant: str):
    return importlib.import_module(f"sim.variants.{variant}.bounds").hand_score_bound


class _Reading:
    """An options object that notes the options read from it."""

    def __init__(self, options, read: set[str]):
        self._options, self._read = options, read

    def __getattr__(self, name: str):
        self._read.add(name)
        return getattr(self._options, name)


@functools.cache
def extreme_options(variant: str) -> tuple[frozenset[str], tuple]:
    """The options ``hand_score_bound`` reads, and every option set with the numeric ones of them
    at their maxima and the others at each of their values (defaults for the options not read).
    Reads behind a branch show once another value takes the branch: repeat until none is new."""
    cls = get_variant(variant).options_class
    declared = {option.name: option for option in cls.DECLARATIONS}
    bound = hand_score_bound(variant)
    read: set[str] = set()
    while True:
        choices = {
            name: [True, False] if declared[name].kind == "flag" else list(declared[name].allowed)
            for name in sorted(read)
            if declared[name].kind not in NUMERIC
        }
        highest = {
            name: declared[name].maximum
            if declared[name].kind == "integer"
            else (declared[name].maximum,) * declared[name].length
            for name in read
            if declared[name].kind in NUMERIC
        }
        sets = []
        for values in itertools.product(*choices.values()):
            try:
                sets.append(cls(**highest, **dict(zip(choices, values, strict=True))))
            except ValueError:
                continue  # a combination the variant's rules between options refuse
        before = set(read)
        for options in sets:
            bound(_Reading(options, read), LONGEST_SESSION)
        if read == before:
            return frozenset(read), tuple(sets)


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_every_numeric_option_has_a_minimum_and_a_maximum(variant):
    for option in get_variant(variant).options_class.DECLARATIONS:
        if option.kind in NUMERIC:
            assert option.minimum is not None and option.maximum is not None, option.name
            assert option.minimum <= option.maximum, option.name


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_the_bound_reads_every_numeric_option_that_moves_points(variant):
    numeric = {
        option.name
        for option in get_variant(variant).options_class.DECLARATIONS
        if option.kind in NUMERIC
    }
    assert MOVE_NO_POINTS[variant] <= numeric
    read, _ = extreme_options(variant)
    assert numeric - MOVE_NO_POINTS[variant] <= read


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_the_bound_at_the_maxima_times_the_longest_run_fits(variant):
    """The largest hand under the worst options, summed over the longest run a config allows
    (``run.games`` hands in sessions of ``run.hands_per_session``), stays below 2**62."""
    read, sets = extreme_options(variant)
    assert sets and read
    bound = hand_score_bound(variant)
    worst = max(bound(options, LONGEST_SESSION) for options in sets)
    assert 0 < worst * LONGEST_RUN < SUM_LIMIT
    default = bound(get_variant(variant).options_class(), LONGEST_SESSION)
    assert 0 < default <= worst


def allowed_options(variant: str) -> st.SearchStrategy:
    """Option sets of ``variant`` drawn from the declared ranges, the bounds of each range often."""

    def values(option: Option) -> st.SearchStrategy:
        if option.kind not in NUMERIC:
            return allowed_values(option)
        ints = st.one_of(
            st.just(option.maximum),
            st.just(option.minimum),
            st.integers(option.minimum, option.maximum),
        )
        if option.kind == "integer":
            return ints
        return st.tuples(*[ints] * option.length)

    cls = get_variant(variant).options_class

    def build(drawn: dict):
        try:
            return cls(**drawn)
        except ValueError:  # the variant's rules between options (Anhua's 余牌数)
            return None

    declared = {option.name: values(option) for option in cls.DECLARATIONS}
    return st.fixed_dictionaries(declared).map(build).filter(lambda options: options is not None)


@pytest.mark.parametrize("variant", VARIANT_NAMES)
@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_no_allowed_option_set_has_a_larger_bound_than_the_maxima(variant, data):
    options = data.draw(allowed_options(variant), label="options")
    session = data.draw(st.integers(1, LONGEST_SESSION), label="hands_per_session")
    bound = hand_score_bound(variant)
    _, sets = extreme_options(variant)
    worst = max(bound(extreme, LONGEST_SESSION) for extreme in sets)
    assert 0 < bound(options, session) <= worst
