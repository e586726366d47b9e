"""Every Anqing option has a test showing that changing it changes the outcome as the spec says.

``OUTCOME_TESTS`` maps each option declared in ``sim/variants/anqing/options.py`` (§anqing-options)
to the tests that play or score one position under two or more of its values and assert what
the spec gives for each. This module fails when an option is declared without an entry, when an
entry names a test that does not exist, is marked slow, or never sets the option away from its
default (``player_count``, which allows four alone, is shown refusing another value), and when
a choice's non-default values are not all exercised by its tests.

Rules: docs/rules/anqing.md (安庆麻将), every option of the rules reference.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

from sim.variants.anqing import ANQING_OPTIONS, OPTION_NAMES

HERE = Path(__file__).resolve().parent
OUTCOMES = "test_anqing_option_outcomes.py"
ENGINE = "test_anqing_engine.py"
SCORING = "test_anqing_scoring.py"
ZHI_JIAO = "test_anqing_zhi_jiao.py"

OUTCOME_TESTS: dict[str, tuple[str, ...]] = {
    "player_count": (f"{OUTCOMES}::test_player_count_is_four_only",),
    "first_dealer": (f"{OUTCOMES}::test_first_dealer",),
    "next_dealer_rule": (f"{OUTCOMES}::test_next_dealer_rule",),
    "dealer_extra": (f"{OUTCOMES}::test_dealer_extra",),
    "dealer_extra_symmetric": (f"{SCORING}::test_aq1_pi_hu_with_a_chi_and_a_wind_triplet",),
    "lian_zhuang_table": (f"{SCORING}::test_aq9_lian_zhuang_amounts",),
    "lian_zhuang_cumulative": (f"{ENGINE}::test_aq9_lian_zhuang_and_its_carry",),
    "gang_kai_count_mode": (f"{SCORING}::test_aq7_chained_gang_tile_kongs",),
    "gang_kai_cumulative": (f"{SCORING}::test_aq7_chained_gang_tile_kongs",),
    "single_kong_points": (f"{OUTCOMES}::test_single_kong_points",),
    "single_kong_breaks_menqing": (f"{SCORING}::test_aq6_zhi_jiao_with_a_zuan_kong",),
    "menqing_ying_additive": (f"{SCORING}::test_aq3_seven_pairs",),
    "bao_all_pong_4_factor": (f"{SCORING}::test_bao_four_mouths_and_mutual_bao",),
    "mutual_bao_mode": (f"{SCORING}::test_bao_four_mouths_and_mutual_bao",),
    "pao_feng_definition": (f"{OUTCOMES}::test_pao_feng_definition",),
    "jian_zi_hu_definition": (
        f"{SCORING}::test_aq2d_jian_zi_hu_definitions",
        f"{ENGINE}::test_aq2d_jian_zi_hu_definitions",
    ),
    "jian_zi_hu_red_counts": (f"{OUTCOMES}::test_jian_zi_hu_red_counts",),
    "gang_tile_discardable": (f"{ENGINE}::test_gang_tiles_are_never_discarded",),
    "shisanlan_honours_literal": (f"{ENGINE}::test_aq4_shisanlan_with_seven_stars",),
    "zhi_jiao_requires": (
        f"{ENGINE}::test_zuan_kong_only_when_ready",
        f"{ZHI_JIAO}::test_spec_hand_may_not_kong_the_zuan_under_pao_feng_wait",
    ),
    "seven_pairs_allow_quad": (f"{SCORING}::test_aq3_seven_pairs",),
    "shuang_tian_hu_points": (f"{ENGINE}::test_aq3_seven_pairs",),
}
"""Option -> ``module::test`` (modules of ``tests/variants``) showing its effect on outcomes."""


@cache
def module_tests(module: str) -> dict[str, ast.FunctionDef]:
    """The module's top-level test functions by name, parsed (not imported)."""
    tree = ast.parse((HERE / module).read_text(encoding="utf-8"))
    return {
        node.name: node
        for node in tree.body
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")
    }


def find_test(reference: str) -> ast.FunctionDef:
    module, _, name = reference.partition("::")
    assert module.startswith("test_anqing_") and (HERE / module).exists(), reference
    function = module_tests(module).get(name)
    assert function is not None, f"{reference}: no such test"
    return function


def settings_of(function: ast.FunctionDef, name: str) -> list[ast.expr]:
    """Every value the test's code gives option ``name`` (keyword arguments)."""
    return [
        node.value
        for node in ast.walk(function)
        if isinstance(node, ast.keyword) and node.arg == name
    ]


def parametrized_names(function: ast.FunctionDef) -> set[str]:
    names = set()
    for decorator in function.decorator_list:
        if isinstance(decorator, ast.Call) and getattr(decorator.func, "attr", "") == "parametrize":
            first = decorator.args[0]
            if isinstance(first, ast.Constant):
                names |= {n.strip() for n in first.value.split(",")}
            elif isinstance(first, ast.Tuple | ast.List):
                names |= {e.value for e in first.elts if isinstance(e, ast.Constant)}
    return names


def is_default(node: ast.expr, default) -> bool:
    return (
        isinstance(node, ast.Constant)
        and type(node.value) is type(default)
        and (node.value == default)
    )


def test_every_declared_option_has_an_outcome_test():
    """The map names exactly the options declared in options.py (§anqing-options and
    §anqing-players)."""
    assert set(OUTCOME_TESTS) == set(OPTION_NAMES)


@pytest.mark.parametrize("option", ANQING_OPTIONS, ids=lambda option: option.name)
def test_each_outcome_test_exists_is_fast_and_varies_its_option(option):
    """Each test named exists, is not marked slow, and sets the option away from its default
    (a literal, a variable, or a parametrize argument of the option's name)."""
    for reference in OUTCOME_TESTS[option.name]:
        function = find_test(reference)
        assert not any(getattr(d, "attr", "") == "slow" for d in function.decorator_list)
        values = settings_of(function, option.name)
        varied = any(not is_default(value, option.default) for value in values)
        assert varied or option.name in parametrized_names(function), (option.name, reference)


@pytest.mark.parametrize(
    "option",
    [option for option in ANQING_OPTIONS if option.kind == "choice"],
    ids=lambda option: option.name,
)
def test_every_value_of_a_choice_is_exercised(option):
    """A choice's every non-default value appears in the tests named for it."""
    seen = set()
    for reference in OUTCOME_TESTS[option.name]:
        seen |= {n.value for n in ast.walk(find_test(reference)) if isinstance(n, ast.Constant)}
    missing = [value for value in option.allowed if value != option.default and value not in seen]
    assert not missing, (option.name, missing)
