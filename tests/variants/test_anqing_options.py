"""Anqing options (§anqing-options): defaults, checks and the options table of the rules reference.

Rules: docs/rules/anqing.md (安庆麻将)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sim.variants.anqing import ANQING_OPTIONS, AnqingOptions
from sim.variants.anqing import options as declared
from sim.variants.options import options_from_mapping, options_markdown, replace_doc_table

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "rules" / "anqing.md"


def test_defaults_and_changed_values():
    """Defaults of §anqing-options as an object, and values other than the default accepted."""
    options = AnqingOptions()
    assert options.player_count == 4 and options.first_dealer == "random"
    assert options.lian_zhuang_table == (3, 6, 12, 15) and not options.lian_zhuang_cumulative
    assert options.bao_all_pong_4_factor == 12 and options.shuang_tian_hu_points == 60
    changed = AnqingOptions(
        lian_zhuang_table=[0, 3, 6, 9], bao_all_pong_4_factor=24, jian_zi_hu_definition="zuan_diao"
    )
    assert changed.lian_zhuang_table == (0, 3, 6, 9) and changed.bao_all_pong_4_factor == 24


def test_anqing_is_a_four_player_game():
    """安庆麻将是一个四个人才能玩的游戏 (§anqing-rules, §anqing-players): any other count is a
    one-line error naming player_count."""
    for players in (2, 3):
        with pytest.raises(ValueError, match=rf"^options\.player_count: {players} is below"):
            options_from_mapping(AnqingOptions, {"player_count": players})
    with pytest.raises(
        ValueError, match=r"^options\.player_count: 5 is above the maximum 4; allowed: 4 only \("
    ):
        options_from_mapping(AnqingOptions, {"player_count": 5})


@pytest.mark.parametrize(
    ("key", "value", "allowed"),
    [
        ("first_dealer", "winner", "'random', 'seat0'"),
        ("bao_all_pong_4_factor", 18, "12, 24"),
        ("jian_zi_hu_definition", "both", "'suited_natural', 'zuan_diao'"),
        ("pao_feng_definition", True, "'decomposition', 'unique_wait'"),
    ],
)
def test_a_bad_choice_names_the_key_and_the_allowed_values(key, value, allowed):
    with pytest.raises(ValueError, match=f"^options.{key}: .*allowed: {re.escape(allowed)}$"):
        options_from_mapping(AnqingOptions, {key: value})


@pytest.mark.parametrize(
    ("values", "pattern"),
    [
        ({"dealer_extra": -1}, r"dealer_extra: -1 is below the minimum 0"),
        ({"single_kong_points": -2}, r"single_kong_points: -2 is below the minimum 0"),
        ({"shuang_tian_hu_points": "60"}, r"shuang_tian_hu_points: expected an integer"),
        ({"lian_zhuang_table": [3, -6, 12, 15]}, r"lian_zhuang_table\[1\]: -6 is below the min"),
        ({"lian_zhuang_table": [3, 6, 12]}, r"lian_zhuang_table: expected a list of 4 integers"),
        (
            {"lian_zhuang_table": [3, 6, 12, 1001]},
            r"lian_zhuang_table\[3\]: 1001 is above the maximum 1000; allowed: a list of 4 "
            r"integers from 0 to 1000$",
        ),
        (
            {"dealer_extra": 1001},
            r"dealer_extra: 1001 is above the maximum 1000; allowed: an integer from 0 to 1000$",
        ),
        ({"lian_zhuang_cumulative": 1}, r"lian_zhuang_cumulative: expected true or false"),
    ],
)
def test_a_bad_number_list_or_flag_names_the_key(values, pattern):
    with pytest.raises(ValueError, match=rf"^options\.{pattern}"):
        options_from_mapping(AnqingOptions, values)


def test_an_unknown_key_is_rejected():
    with pytest.raises(ValueError, match=r"^options\.zuan_diao: unknown option; allowed: "):
        options_from_mapping(AnqingOptions, {"zuan_diao": True})


def test_lian_zhuang_points_follow_the_table_capped_at_the_fourth():
    """连庄 (§anqing-lian-zhuang 第一次连庄…3个，第二次…6个，第三次12个，第四次15个): L(k), 0 at k =
    0."""
    options = AnqingOptions()
    assert [options.lian_zhuang_points(k) for k in range(7)] == [0, 3, 6, 12, 15, 15, 15]
    other = AnqingOptions(lian_zhuang_table=(1, 2, 4, 8))
    assert [other.lian_zhuang_points(k) for k in (1, 4, 9)] == [1, 8, 8]
    with pytest.raises(ValueError, match="streak: -1"):
        options.lian_zhuang_points(-1)


def test_params_indices_follow_the_declarations():
    """The kernels' P_* indices: one slot per option, four for the 连庄 table."""
    params = AnqingOptions(
        lian_zhuang_table=(1, 2, 4, 8), bao_all_pong_4_factor=24, mutual_bao_mode="max"
    ).params()
    assert params.shape == (declared.N_PARAMS,) == (25,)
    assert params[declared.P_PLAYERS] == 4
    first = declared.P_LIAN_ZHUANG_TABLE
    assert list(params[first : first + 4]) == [1, 2, 4, 8]
    assert first + 4 == declared.P_LIAN_ZHUANG_CUMULATIVE
    assert params[declared.P_BAO_ALL_PONG_4_FACTOR] == 24
    assert params[declared.P_MUTUAL_BAO_MODE] == declared.MUTUAL_BAO_MAX == 1
    assert params[declared.P_SHUANG_TIAN_HU_POINTS] == 60
    indices = [value for name, value in vars(declared).items() if name.startswith("P_")]
    assert len(indices) == len(ANQING_OPTIONS) == len(set(indices))


def test_the_docs_table_is_the_declared_one():
    text = DOC.read_text(encoding="utf-8")
    assert replace_doc_table(text, ANQING_OPTIONS) == text
    assert options_markdown(ANQING_OPTIONS) in text
