"""Console text of the command line (``sim.cli.text``): columns counted as a terminal shows
them, numbers rounded for reading, and the run summary's pattern lines aligned with them."""

from __future__ import annotations

import re

import pytest
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


@pytest.mark.engine
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


def test_rounded_keeps_three_significant_digits_and_integers_whole():
    from sim.cli.text import rounded

    assert rounded(1.46004) == "1.46"
    assert rounded(0.511868) == "0.512"
    assert rounded(1234.5) == "1230"
    assert rounded(8) == "8" and rounded(-3) == "-3"
    assert rounded(-0.0) == "0" and rounded(-0.00001) == "-1e-05"


def test_the_resume_hint_repeats_the_options_quoted():
    from argparse import Namespace

    from sim.cli.text import backend_options, resume_hint

    said = "3 finished chunks are kept in /a/.my run.partial; finish the run with: mjsim run " \
        "--resume my run"  # fmt: skip
    given = Namespace(jobs=-1, backend="processes", scheduler=None)
    assert backend_options(given) == ["--jobs", "-1", "--backend", "processes"]
    assert resume_hint(said, "mjsim run", "my run", backend_options(given)).endswith(
        "finish the run with: mjsim run --resume 'my run' --jobs -1 --backend processes"
    )
    defaults = Namespace(jobs=1, backend="threads", scheduler=None)
    assert resume_hint(said, "mjsim run", "my run", backend_options(defaults)).endswith(
        "mjsim run --resume 'my run'"
    )
    dask = Namespace(jobs=4, backend="dask", scheduler="tcp://h:8786")
    assert backend_options(dask) == [
        "--jobs", "4", "--backend", "dask", "--scheduler", "tcp://h:8786",
    ]  # fmt: skip
    assert resume_hint("nothing half-made", "mjsim run", "x", ["--jobs", "2"]) == (
        "nothing half-made"
    )


def test_the_compare_table_aligns_by_display_width_and_never_says_minus_zero():
    """``mjsim compare``'s table: every column starts in the same terminal column on every
    line whatever the agents' names, and a mean that rounds to zero is +0.00."""
    import pandas as pd

    from sim.cli.compare import comparison_lines

    frame = pd.DataFrame(
        {
            "agent": ["平胡长名", "a-much-longer-agent-name"],
            "mean": [-0.001, 1.234],
            "diff": [0.0, 1.235],
            "diff_lo": [0.0, -0.004],
            "diff_hi": [0.0, 2.5],
            "win_rate": [0.25, 0.3],
            "deal_in_rate": [0.1, 0.12],
            "draw_rate": [0.01, 0.01],
            "mean_turns": [30.0, 31.25],
            "seat_sd": [40.0, 41.0],
            "p_session_loss": [0.2, 0.1],
        }
    )
    pairs = pd.DataFrame(
        {"first": ["平胡长名"], "second": ["other"], "diff": [-0.004], "lo": [-1.0],
         "hi": [0.9], "excludes_zero": [False]}
    )  # fmt: skip
    lines = comparison_lines(frame, pairs, 8, 1 / 3)
    table = lines[:3]
    assert "-0.00" not in "\n".join(lines)
    assert "P(lose 0.333 in 8)" in table[0]
    # every line ends in the same terminal column (the last column right-aligned), and the
    # means start in the same one after names of any width
    assert len({display_width(line) for line in table}) == 1, table
    means = [display_width(line[: line.index("+", 2)]) for line in table[1:]]
    assert len(set(means)) == 1, table
    assert lines[-1] == "    平胡长名 - other: +0.00 [-1.00, +0.90]  (interval includes 0)"
