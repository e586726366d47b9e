"""Console text of the command line (``sim.cli.text``): columns counted as a terminal shows
them, numbers rounded for reading, and the run summary's pattern lines aligned with them."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from sim.cli.text import display_width, pad, signed


def test_a_chinese_character_takes_two_columns():
    assert display_width("平胡") == 4
    assert display_width("大吊车(有钻)") == 2 * 3 + 2 + 2 * 2
    assert display_width("seat 0") == 6


@given(st.text(alphabet="平胡七对大吊车(有钻)ab 1", max_size=12), st.integers(0, 30))
def test_padding_fills_to_the_width_in_columns(text, width):
    padded = pad(text, width)
    assert padded.startswith(text)
    assert display_width(padded) == max(width, display_width(text))
    right = pad(text, width, right=True)
    assert right.endswith(text) and display_width(right) == display_width(padded)


def test_a_value_that_rounds_to_zero_has_no_minus_sign():
    assert signed(-0.001) == "+0.00"
    assert signed(-0.004) == "+0.00"
    assert signed(-0.006) == "-0.01"
    assert signed(1.85) == "+1.85"
    assert signed(0.0) == "+0.00"


def test_the_run_summary_aligns_chinese_pattern_names_and_rounds_points(tmp_path):
    """The summary's pattern lines: each P rounded to two decimals, and the interval starting in
    the same terminal column whatever the pattern's name (平胡, 大吊车(有钻), ...)."""
    from sim.cli.run import summary_lines
    from sim.running.config import load_config
    from sim.running.runner import run

    config = load_config("configs/anqing.toml", ["run.games=400", "run.chunk_hands=400"])
    path = run(config, tmp_path / "anqing", progress=False)
    lines = [line for line in summary_lines(path) if " P=" in line]
    assert len(lines) >= 3
    rate_columns = set()
    for line in lines:
        points = line.rsplit("P=", 1)[1]
        assert len(points.split(".")[1]) == 2, line
        name, gap = re.match(r"^ {4}(\S+)( +)\d", line).groups()
        rate_columns.add(display_width(name) + len(gap))
    assert len(rate_columns) == 1, lines
