"""Every Weng'an option has a test showing that changing it changes the outcome as the spec says.

``OUTCOME_TESTS`` maps each option declared in ``sim/variants/wengan/options.py`` (§wengan-options)
to the tests that play or settle one position under two or more of its values and assert the
scores, claims or values the spec gives for each. This module fails when an option is declared
without an entry (a new option needs its outcome test), when an entry names a test that does not
exist, is marked slow, or never sets the option away from its default, and when a choice's
non-default values are not all exercised by its tests.

Rules: docs/rules/wengan.md (贵州瓮安麻将), every option of the rules reference.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

from sim.variants.wengan import OPTION_NAMES, WENGAN_OPTIONS

HERE = Path(__file__).resolve().parent
OUTCOMES = "test_wengan_option_outcomes.py"
ENGINE = "test_wengan_engine.py"
SCORING = "test_wengan_scoring.py"

OUTCOME_TESTS: dict[str, tuple[str, ...]] = {
    "player_count": (
        f"{SCORING}::test_ding_que_waits",
        f"{OUTCOMES}::test_yuan_que_is_fixed_and_only_with_ding_que",
        f"{OUTCOMES}::test_first_dealer",
    ),
    "base_stake": (
        f"{OUTCOMES}::test_base_stake_multiplies_the_win_and_the_chickens",
        f"{OUTCOMES}::test_yuan_que_is_fixed_and_only_with_ding_que",
    ),
    "fan_pai_ji": (f"{OUTCOMES}::test_wa2_under_the_flip_options",),
    "ben_ji": (f"{OUTCOMES}::test_each_chicken_option_changes_the_tiles_value",),
    "chong_feng_mode": (
        f"{OUTCOMES}::test_chong_feng_mode_values_the_first_discarded_1s",
        f"{OUTCOMES}::test_wa4_under_the_chicken_payment_options",
        f"{ENGINE}::test_wa4_ordinal_chickens",
    ),
    "jin_ji": (f"{OUTCOMES}::test_wa2_under_the_flip_options",),
    "wu_gu_ji": (f"{OUTCOMES}::test_each_chicken_option_changes_the_tiles_value",),
    "ze_ren_ji": (f"{OUTCOMES}::test_wa4_under_the_chicken_payment_options",),
    "bao_ji": (f"{OUTCOMES}::test_wa4_under_the_chicken_payment_options",),
    "yao_bai_ji": (f"{OUTCOMES}::test_wa2_under_the_flip_options",),
    "man_tang_ji": (f"{OUTCOMES}::test_man_tang_ji_counts_flip_chickens_in_the_discards",),
    "quan_qing_yao": (f"{OUTCOMES}::test_each_chicken_option_changes_the_tiles_value",),
    "qian_hou_fan_ji": (f"{OUTCOMES}::test_wa2_under_the_flip_options",),
    "xing_qi_ji": (f"{OUTCOMES}::test_each_chicken_option_changes_the_tiles_value",),
    "xing_qi_ji_weekday": (f"{OUTCOMES}::test_each_chicken_option_changes_the_tiles_value",),
    "dealer_bonus_mode": (f"{ENGINE}::test_wa6_lian_zhuang_and_yi_kou_er",),
    "ding_que": (
        f"{SCORING}::test_ding_que_waits",
        f"{OUTCOMES}::test_yuan_que_is_fixed_and_only_with_ding_que",
    ),
    "yuan_que_bonus": (f"{OUTCOMES}::test_yuan_que_is_fixed_and_only_with_ding_que",),
    "qiang_gang_shao_dou": (f"{OUTCOMES}::test_qiang_gang_burns",),
    "qiang_gang_shao_ji": (f"{OUTCOMES}::test_qiang_gang_burns",),
    "re_pao_shao_dou": (f"{ENGINE}::test_wa5_variants",),
    "re_pao_shao_ji": (f"{OUTCOMES}::test_re_pao_shao_ji",),
    "bao_gang": (f"{OUTCOMES}::test_bao_gang",),
    "multi_ron": (f"{OUTCOMES}::test_multi_ron",),
    "guo_hu_limit": (f"{OUTCOMES}::test_guo_hu_limit_and_scope",),
    "guo_peng_limit": (f"{ENGINE}::test_guo_peng_locks_the_kind_until_the_hand_changes",),
    "huang_zhuang_cha_jiao": (f"{OUTCOMES}::test_huang_zhuang_cha_jiao",),
    "huang_zhuang_burn": (f"{ENGINE}::test_wa6_chicken_options",),
    "huang_zhuang_no_bao": (f"{ENGINE}::test_wa6_chicken_options",),
    "ping_hu_ron_needs_passport": (f"{OUTCOMES}::test_ping_hu_ron_needs_passport",),
    "passport_kinds": (
        f"{ENGINE}::test_passport_and_its_exceptions",
        f"{OUTCOMES}::test_passport_kinds_chicken_and_none",
    ),
    "dan_diao_definition": (f"{SCORING}::test_dan_diao_edge_cases",),
    "mingtang_bonus_mode": (f"{OUTCOMES}::test_mingtang_bonus_mode",),
    "sha_ting_payer": (f"{OUTCOMES}::test_sha_ting_payer",),
    "gold_model": (f"{OUTCOMES}::test_wa2_under_the_flip_options",),
    "chongfeng_ordinal_counts_claimed": (f"{ENGINE}::test_wa4_ordinal_chickens",),
    "bao_ji_scope": (f"{OUTCOMES}::test_bao_ji_scope",),
    "ze_ren_on_kong": (f"{OUTCOMES}::test_ze_ren_on_kong",),
    "lian_zhuang_counts_draws": (f"{ENGINE}::test_wa6_lian_zhuang_and_yi_kou_er",),
    "ding_que_mode": (f"{OUTCOMES}::test_ding_que_mode", f"{SCORING}::test_ding_que_waits"),
    "guo_hu_scope": (
        f"{ENGINE}::test_guo_hu_locks_the_kind_until_the_hand_changes",
        f"{OUTCOMES}::test_guo_hu_limit_and_scope",
    ),
    "di_hu_window": (f"{OUTCOMES}::test_di_hu_window",),
    "huang_zhuang_burn_scope": (f"{ENGINE}::test_wa6_chicken_options",),
    "first_dealer": (f"{OUTCOMES}::test_first_dealer",),
    "long_qi_dui_win_on_quad": (
        f"{ENGINE}::test_wa2_variant_seven_pairs_when_the_winning_tile_does_not_make_the_four",
        f"{SCORING}::test_long_qi_dui_with_a_quad",
    ),
    "bao_requires_ready": (
        f"{ENGINE}::test_wa4_bao_requires_ready",
        f"{ENGINE}::test_wa6_chicken_options",
    ),
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
    assert module.startswith("test_wengan_") and (HERE / module).exists(), reference
    function = module_tests(module).get(name)
    assert function is not None, f"{reference}: no such test"
    return function


def is_default(node: ast.expr, default) -> bool:
    """``node`` is the literal default (True is not 1: types are compared too)."""
    return (
        isinstance(node, ast.Constant) and type(node.value) is type(default)
    ) and node.value == default


def settings_of(function: ast.FunctionDef, name: str) -> list[ast.expr]:
    """Every value the test's code (decorators included) gives option ``name``: keyword
    arguments ``name=...`` and dict entries ``"name": ...``."""
    values = []
    for node in ast.walk(function):
        if isinstance(node, ast.keyword) and node.arg == name:
            values.append(node.value)
        elif isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if isinstance(key, ast.Constant) and key.value == name:
                    values.append(value)
    return values


def parametrized_names(function: ast.FunctionDef) -> set[str]:
    """The argument names of the test's ``pytest.mark.parametrize`` decorators."""
    names = set()
    for decorator in function.decorator_list:
        if (
            isinstance(decorator, ast.Call)
            and isinstance(decorator.func, ast.Attribute)
            and decorator.func.attr == "parametrize"
        ):
            first = decorator.args[0]
            if isinstance(first, ast.Constant):
                names |= {n.strip() for n in first.value.split(",")}
            elif isinstance(first, ast.Tuple | ast.List):
                names |= {e.value for e in first.elts if isinstance(e, ast.Constant)}
    return names


def is_slow(function: ast.FunctionDef) -> bool:
    return any(isinstance(d, ast.Attribute) and d.attr == "slow" for d in function.decorator_list)


def constants(function: ast.FunctionDef) -> set:
    return {node.value for node in ast.walk(function) if isinstance(node, ast.Constant)}


def test_every_declared_option_has_an_outcome_test():
    """The map names exactly the options declared in options.py (§wengan-players)."""
    assert set(OUTCOME_TESTS) == set(OPTION_NAMES)
    assert all(OUTCOME_TESTS[name] for name in OPTION_NAMES)


@pytest.mark.parametrize("option", WENGAN_OPTIONS, ids=lambda option: option.name)
def test_each_outcome_test_exists_is_fast_and_varies_its_option(option):
    """Each test named for an option exists, is not marked slow (the quick suite runs it), and
    sets the option away from its default: a literal other value, a parametrized or looped
    variable, or a parametrize argument of the option's name."""
    for reference in OUTCOME_TESTS.get(option.name, ()):
        function = find_test(reference)
        assert not is_slow(function), reference
        varied = any(not is_default(v, option.default) for v in settings_of(function, option.name))
        assert varied or option.name in parametrized_names(function), (option.name, reference)


@pytest.mark.parametrize(
    "option",
    [option for option in WENGAN_OPTIONS if option.kind == "choice"],
    ids=lambda option: option.name,
)
def test_every_value_of_a_choice_is_exercised(option):
    """A choice's every non-default value appears in the tests named for it."""
    seen = set()
    for reference in OUTCOME_TESTS[option.name]:
        seen |= constants(find_test(reference))
    missing = [value for value in option.allowed if value != option.default and value not in seen]
    assert not missing, (option.name, missing)
