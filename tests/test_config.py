"""sim.running.config and sim.variants.options: every config file complete and commented, clear
one-line errors."""

from __future__ import annotations

import dataclasses
import re
import tomllib
from pathlib import Path

import pytest

from sim.running.config import load_config
from sim.variants import VARIANT_NAMES, get_variant
from sim.variants.anhua import AnhuaOptions

CONFIGS = sorted(Path(__file__).resolve().parents[1].joinpath("configs").glob("*.toml"))


def test_the_rule_sets_exist():
    assert {path.stem for path in CONFIGS} >= {
        "anhua-seven-kings",
        "anhua-four-kings",
        "anhua-three-players",
        "wengan-4p",
        "wengan-3p",
        "wengan-2p",
    }


def test_every_registered_variant_has_a_config():
    variants = {tomllib.loads(path.read_text(encoding="utf-8"))["variant"] for path in CONFIGS}
    assert variants == set(VARIANT_NAMES)


@pytest.mark.parametrize("path", CONFIGS, ids=lambda path: path.stem)
def test_every_option_is_present_and_commented(path):
    text = path.read_text(encoding="utf-8")
    document = tomllib.loads(text)
    variant = get_variant(document["variant"])
    fields = [field.name for field in dataclasses.fields(variant.options_class)]
    assert set(document["options"]) == set(fields)
    lines = text.splitlines()
    for name in fields:
        index = next(i for i, line in enumerate(lines) if re.match(rf"{name}\s*=", line))
        # the line before names the rule (Chinese name + meaning, its rules' ids), the line
        # itself what is allowed (exactly as declared: tests/test_options.py)
        assert lines[index - 1].startswith(f"# {variant.option_titles[name]} [§")
        assert "# allowed:" in lines[index]
    config = load_config(path)
    assert config.label == path.stem
    assert len(config.agents) == config.options.player_count
    assert config.variant == document["variant"]


def test_presets_differ_from_the_defaults_only_where_they_say():
    seven = load_config(CONFIGS[0].with_name("anhua-seven-kings.toml"))
    four = load_config(CONFIGS[0].with_name("anhua-four-kings.toml"))
    three = load_config(CONFIGS[0].with_name("anhua-three-players.toml"))
    assert seven.options == AnhuaOptions()
    assert four.options == AnhuaOptions(king_mode="four_kings")
    assert three.options == AnhuaOptions(player_count=3)
    assert seven.hash() != four.hash() != three.hash()


def test_overrides_and_the_hash():
    base = load_config("configs/anhua-seven-kings.toml")
    changed = load_config(
        "configs/anhua-seven-kings.toml",
        ["king_mode=four_kings", "options.bird_count=4", "run.games=500", "seed=3"],
    )
    assert changed.options.king_mode == "four_kings" and changed.options.bird_count == 4
    assert changed.games == 500 and changed.seed == 3
    assert base.with_overrides(["label=renamed"]).hash() == base.hash()  # a name changes nothing
    assert base.with_overrides(["bird_count=1"]).hash() != base.hash()
    assert base.with_overrides([]).resolved() == base.resolved()


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        (["bird_count=3"], "options.bird_count: 3 is not allowed; allowed: 1, 2, 4"),
        (["no_such_option=1"], "options.no_such_option: unknown option; allowed:"),
        (["multi_ron=1"], "options.multi_ron: expected true or false, got 1"),
        (["player_count=true"], "options.player_count: True is not allowed; allowed: 3, 4"),
        (["kong_min_wall=2"], "kong_min_wall: 2 is below kong_reveal_count + 1 = 4"),
        (["kong_min_wall=[4]"], "options.kong_min_wall: expected an integer, got [4]"),
        (["kong_min_wall=200"], "kong_min_wall: 200 is above the maximum 68; allowed: an integer"),
        (["kong_min_wall=56"], "no kong could ever be made; allowed: 4-55"),
        (["kong_min_wall=69", "player_count=3"], "kong_min_wall: 69 is above the maximum 68"),
        (["label=.."], "label: '..' is not allowed; expected a plain folder name"),
        (["label=a/b"], "label: 'a/b' is not allowed"),
        (["run.games=0"], "run.games: 0 is below the minimum 1"),
        (["run.games=many"], "run.games: expected an integer, got 'many'"),
        (["run.speed=1"], "run.speed: unknown setting; allowed:"),
        (["run.agents=['random']"], "run.agents: 1 names for 4 players"),
        (['run.agents=["a","b","c","d"]'], "run.agents[0]: unknown agent 'a'; allowed:"),
        (["just-a-word"], "expected KEY=VALUE"),
        (["other.x=1"], "--set other.x: unknown section 'other'"),
        (["variant=chess"], "variant: unknown variant 'chess'; allowed: anhua, anqing, wengan"),
    ],
)
def test_bad_values_are_one_line_errors_naming_the_key(overrides, message):
    with pytest.raises(ValueError) as error:
        load_config("configs/anhua-seven-kings.toml", overrides)
    text = str(error.value)
    assert "\n" not in text
    assert text.startswith("configs/anhua-seven-kings.toml: ")
    assert message in text


def test_bad_files(tmp_path):
    missing = tmp_path / "missing.toml"
    with pytest.raises(ValueError, match="no such config file"):
        load_config(missing)
    broken = tmp_path / "broken.toml"
    broken.write_text("variant = \n")
    with pytest.raises(ValueError, match="not valid TOML"):
        load_config(broken)
    extra = tmp_path / "extra.toml"
    extra.write_text('variant = "anhua"\ncolour = "red"\n')
    with pytest.raises(ValueError, match="colour: unknown key; allowed: variant, label, run"):
        load_config(extra)
    minimal = tmp_path / "minimal.toml"
    minimal.write_text('variant = "anhua"\n')
    config = load_config(minimal)
    assert config.options == AnhuaOptions() and config.label == "anhua"


def test_the_largest_kong_min_wall_still_allows_a_kong():
    """A kong needs kong_min_wall tiles left (§anhua-kongs K2, 000 "余牌数"): the bound is the
    wall right after the deal (108 - 13 x players - 1), where the dealer may kong first."""
    assert AnhuaOptions(kong_min_wall=55).wall_after_deal == 108 - 13 * 4 - 1
    assert AnhuaOptions(player_count=3, kong_min_wall=68).wall_after_deal == 108 - 13 * 3 - 1


def test_unreadable_config_files_are_one_line_naming_the_file(tmp_path):
    folder = tmp_path / "a-folder.toml"
    folder.mkdir()
    with pytest.raises(ValueError, match=r"a-folder.toml: is a directory, not a config file$"):
        load_config(folder)
    latin = tmp_path / "latin.toml"
    latin.write_bytes('variant = "anhua"\nlabel = "caf\xe9"\n'.encode("latin-1"))
    with pytest.raises(ValueError, match=r"latin.toml: not a UTF-8 text file \(byte 30 is 0xe9\)"):
        load_config(latin)
    with_bom = tmp_path / "bom.toml"  # as Windows Notepad saves UTF-8
    with_bom.write_bytes(b"\xef\xbb\xbf" + 'variant = "anhua"\nlabel = "七王"\n'.encode())
    assert load_config(with_bom).label == "七王"


def test_options_check_themselves_in_python_too():
    with pytest.raises(ValueError, match="king_mode: 'seven' is not allowed"):
        AnhuaOptions(king_mode="seven")
    with pytest.raises(ValueError, match="bird_count: True is not allowed"):
        AnhuaOptions(bird_count=True)
