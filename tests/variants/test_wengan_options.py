"""Weng'an options (rules-spec B6): defaults, checks, the docs table, and the spec sections cited.

Seed rules: ``002_065383326e4e38d7.txt`` (贵州瓮安麻将)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sim.options import options_from_mapping, options_markdown, replace_doc_table
from sim.variants.wengan import N_TILES, WENGAN_OPTIONS, WenganOptions

ROOT = Path(__file__).resolve().parents[2]
SPEC = Path("/work/shared/rules-spec.md")
DOC = ROOT / "docs" / "rules-wengan.md"


def spec_text() -> str:
    """rules-spec.md lives outside the repository (the shared workspace): skipped if absent."""
    if not SPEC.exists():
        pytest.skip(f"{SPEC} is not on this machine")
    return SPEC.read_text(encoding="utf-8")


def b6_rows() -> dict[int, tuple[str, str]]:
    """B6 row number -> (key, default as written), from both tables of rules-spec B6."""
    text = spec_text()
    b6 = text[text.index("## B6. Options") : text.index("## B7.")]
    rows = {}
    for line in b6.splitlines():
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if len(cells) == 6 and cells[0].isdigit():
            rows[int(cells[0])] = (cells[2].strip("`"), cells[5].strip("`"))
    return rows


def test_every_b6_option_is_declared_once_with_the_spec_default():
    """rules-spec B6 lists 46 options; each is declared, in its order, with its default."""
    rows = b6_rows()
    assert sorted(rows) == list(range(1, 47))
    assert [option.name for option in WENGAN_OPTIONS] == [rows[n][0] for n in sorted(rows)]
    for number, (key, default) in rows.items():
        option = WENGAN_OPTIONS[number - 1]
        assert f"B6 #{number}" in option.spec.split(", ")
        assert str(option.default).lower() == default.lower(), key
    assert N_TILES == 108


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


def spec_sections() -> set[str]:
    """Every section id of rules-spec Part B: headings and bullets (B5.4, B1.2), B6 rows
    (``B6 #7``) and B7 items (``B7 #35``)."""
    text = spec_text()
    part_b = text[text.index("# Part B") : text.index("# Part C")]
    found = set(re.findall(r"^#+ (B\d+(?:\.\d+)?)\.? ", part_b, re.MULTILINE))
    found |= set(re.findall(r"^\* \*\*(B\d+\.\d+)\*\*", part_b, re.MULTILINE))
    found |= {f"B6 #{number}" for number in b6_rows()}
    b7 = part_b[part_b.index("## B7.") :]
    found |= {f"B7 #{n}" for n in re.findall(r"^(\d+)\. \*\*", b7, re.MULTILINE)}
    return found


@pytest.mark.parametrize("option", WENGAN_OPTIONS, ids=lambda option: option.name)
def test_each_option_cites_sections_that_exist(option):
    sections = spec_sections()
    for cited in option.spec.split(", "):
        assert cited in sections, f"{option.name}: {cited}"
