"""Weng'an options (§wengan-options): defaults, checks and the options table of the rules reference.

Rules: docs/rules/wengan.md (贵州瓮安麻将)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sim.variants.options import options_from_mapping, options_markdown, replace_doc_table
from sim.variants.wengan import WENGAN_OPTIONS, WenganOptions

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "rules" / "wengan.md"


def test_defaults_and_changed_values():
    options = WenganOptions()
    assert options.player_count == 4 and options.chong_feng_mode == "plain"
    assert not options.wu_gu_ji and options.dealer_bonus_mode == "none"
    assert WenganOptions(player_count=2, chong_feng_mode="4321").player_count == 2


@pytest.mark.parametrize(
    ("key", "value", "allowed"),
    [
        ("player_count", 5, "4, 3, 2"),
        ("chong_feng_mode", "4312", "'none', 'plain', '4321', '3211'"),
        ("dealer_bonus_mode", "both", "'none', 'lian_zhuang', 'yi_kou_er'"),
    ],
)
def test_a_bad_choice_names_the_key_and_the_allowed_values(key, value, allowed):
    with pytest.raises(ValueError, match=f"^options.{key}: .*allowed: {re.escape(allowed)}$"):
        options_from_mapping(WenganOptions, {key: value})


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("base_stake", 0, "below the minimum 1"),
        ("xing_qi_ji_weekday", 8, "above the maximum 7"),
        ("yuan_que_bonus", -1, "below the minimum 0"),
        ("base_stake", 10**18, "above the maximum 10000; allowed: an integer from 1 to 10000$"),
        ("yuan_que_bonus", 10_001, "above the maximum 10000; allowed: an integer from 0 to 10000$"),
        ("wu_gu_ji", 1, "expected true or false"),
    ],
)
def test_a_bad_number_or_flag_names_the_key(key, value, message):
    with pytest.raises(ValueError, match=f"^options.{key}.*{message}"):
        options_from_mapping(WenganOptions, {key: value})


def test_an_unknown_key_is_rejected():
    with pytest.raises(ValueError, match=r"^options\.wugu_ji: unknown option; allowed: .*wu_gu_ji"):
        options_from_mapping(WenganOptions, {"wugu_ji": True})


def test_the_docs_table_is_the_declared_one():
    text = DOC.read_text(encoding="utf-8")
    assert replace_doc_table(text, WENGAN_OPTIONS) == text
    assert options_markdown(WENGAN_OPTIONS) in text
