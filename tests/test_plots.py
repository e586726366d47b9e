"""sim.plots: the bundled CJK font covers the project's Chinese and every figure draws what its
frame holds, with no missing glyph, on a machine without CJK fonts of its own."""

from __future__ import annotations

import ast
import io
import subprocess
import sys
import tomllib
import warnings
from pathlib import Path

import matplotlib as mpl
import numpy as np
import pandas as pd
import pytest
from matplotlib import font_manager
from matplotlib.collections import PathCollection
from matplotlib.figure import Figure
from matplotlib.ft2font import FT2Font

from sim import analysis, plots
from sim.variants import VARIANT_NAMES, anhua, get_variant
from sim.variants.anhua.play import play_anhua

ROOT = Path(__file__).resolve().parent.parent
VARIANT_LABELS = [
    text
    for name in VARIANT_NAMES
    for text in [*get_variant(name).metric_labels.values(), *get_variant(name).tier_colors]
]
"""Every variant's figure labels and tier names."""


def is_cjk(char: str) -> bool:
    code = ord(char)
    return 0x2E80 <= code <= 0x9FFF or 0xF900 <= code <= 0xFAFF or 0xFF00 <= code <= 0xFFEF


def all_pattern_names() -> set[str]:
    """The name of every combination of features, and the instant win's."""
    names = {anhua.pattern_name(features) for features in range(1 << len(anhua.FEATURES))}
    return names | set(anhua.NAMED_PATTERNS.values()) | {anhua.pattern_name(1 << 30)}


def render(figure: Figure, file_format: str = "png") -> bytes:
    """Draw the figure; a missing glyph (matplotlib warns) fails the test."""
    buffer = io.BytesIO()
    with warnings.catch_warnings():
        warnings.filterwarnings("error", message=".*[Gg]lyph.*missing")
        figure.savefig(buffer, format=file_format, dpi=60)
    return buffer.getvalue()


@pytest.fixture(scope="module")
def run():
    return analysis.Run.from_frames(*play_anhua(2000, seed=3), {"n_players": 4}, label="base")


# --------------------------------------------------------------------------- the font


def test_the_font_is_bundled_with_its_licence_and_packaged():
    assert plots.FONT_FILE.exists()
    assert plots.FONT_FILE.stat().st_size < 2_000_000
    licence = (plots.FONT_FILE.parent / "OFL.txt").read_text(encoding="utf-8")
    assert "SIL OPEN FONT LICENSE Version 1.1" in licence
    assert "Copyright 2014-2021 Adobe" in licence
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    package_data = pyproject["tool"]["setuptools"]["package-data"]["sim"]
    assert "fonts/*.ttf" in package_data and "fonts/OFL.txt" in package_data


def test_the_font_covers_every_cjk_character_of_the_variants_and_labels():
    charmap = FT2Font(str(plots.FONT_FILE)).get_charmap()
    wanted = set()
    for module in sorted((ROOT / "sim" / "variants").glob("*.py")):
        for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                wanted |= {c for c in node.value if is_cjk(c)}
    for text in [*all_pattern_names(), *anhua.TIER_NAMES, *plots.CJK_LABELS, *VARIANT_LABELS]:
        wanted |= {c for c in text if is_cjk(c)}
    assert len(wanted) > 30
    missing = sorted(c for c in wanted if ord(c) not in charmap)
    assert not missing, f"regenerate with scripts/make_cjk_font.py: {''.join(missing)}"


def test_the_font_is_registered_as_the_fallback_family():
    found = font_manager.findfont(
        font_manager.FontProperties(family=plots.FONT_FAMILY), fallback_to_default=False
    )
    assert Path(found).resolve() == plots.FONT_FILE
    assert mpl.rcParams["font.family"][-1] == plots.FONT_FAMILY
    with mpl.rc_context({"font.family": ["sans-serif"]}):
        plots.use_cjk_font()  # a reset rcParams gets the fallback back
        assert plots.FONT_FAMILY in mpl.rcParams["font.family"]


def test_every_pattern_name_and_label_renders_without_missing_glyphs():
    # The chart with the text's named patterns (§anhua-named-patterns) and the tiers...
    names = sorted({*anhua.NAMED_PATTERNS.values(), anhua.pattern_name(1 << 30)})
    frame = pd.DataFrame(
        {
            "pattern": names,
            "tier": [anhua.TIER_NAMES[i % 6] for i in range(len(names))],
            "count": range(len(names), 0, -1),
            "rate": np.linspace(0.5, 0.001, len(names)),
        }
    ).assign(lo=lambda f: f["rate"] * 0.8, hi=lambda f: f["rate"] * 1.2)
    figure = plots.plot_pattern_frequency(frame, top=None)
    render(figure)
    labels = [t.get_text() for t in figure.axes[0].get_yticklabels()]
    assert sorted(labels) == names
    # ...then every name any combination of features can get, and every fixed label, as text.
    texts = [*sorted(all_pattern_names()), *plots.CJK_LABELS, *VARIANT_LABELS]
    figure = Figure(figsize=(12, 8))
    for row in range(0, len(texts), 40):
        figure.text(0.01, 1 - (row // 40 + 1) / 30, " ".join(texts[row : row + 40]), fontsize=4)
    render(figure)


def test_a_fresh_process_without_cjk_fonts_draws_chinese():
    script = (
        "import io, warnings\n"
        "warnings.filterwarnings('error', message='.*[Gg]lyph.*missing')\n"
        "from matplotlib.figure import Figure\n"
        "import sim.plots\n"
        "figure = Figure()\n"
        "figure.suptitle('七王清一色小七对 庄闲分 抓鸟')\n"
        "figure.savefig(io.BytesIO(), format='png')\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr


def test_pdf_output_embeds_the_font_as_truetype():
    figure = plots.plot_dealer_advantage(analysis.dealer_advantage(analysis.demo_run()))
    with mpl.rc_context({"pdf.fonttype": 42}):
        pdf = render(figure, "pdf")
    assert b"MjsimSansCJK" in pdf and b"FontFile2" in pdf


# --------------------------------------------------------------------------- the figures


@pytest.mark.engine
def test_pattern_frequency_figure_shows_the_frame(run):
    frame = analysis.pattern_frequency(run)
    figure = plots.plot_pattern_frequency(frame, top=8, hands=len(run.games))
    render(figure)
    ax = figure.axes[0]
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels == frame["pattern"].head(8).tolist()[::-1]  # most frequent on top
    assert ax.get_xscale() == "log"
    assert "2,000 hands" in ax.get_title()
    points = next(
        c for c in ax.collections if isinstance(c, PathCollection) and c.get_offsets().size
    )
    assert np.allclose(np.sort(points.get_offsets()[:, 0]), np.sort(frame["rate"].head(8)))
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend[:2] == ["小胡", "大胡"]


def _marker_colors(figure: Figure) -> dict[str, str]:
    """Legend label -> the colour of its marker."""
    ax = figure.axes[0]
    legend = ax.get_legend()
    return {
        text.get_text(): mpl.colors.to_hex(handle.get_facecolor()[0])
        for text, handle in zip(legend.get_texts(), legend.legend_handles, strict=True)
    }


@pytest.mark.engine
def test_pattern_frequency_colours_tiers_as_given_or_by_rank(run):
    frame = analysis.pattern_frequency(run)
    colors = {tier: color for tier, color in zip(anhua.TIER_NAMES, plots.PALETTE, strict=False)}
    given = _marker_colors(plots.plot_pattern_frequency(frame, tier_colors=colors))
    assert given == {tier: colors[tier].lower() for tier in given}
    # by default the lowest tier (least points) gets the palette's first colour, and so on
    ranked = _marker_colors(plots.plot_pattern_frequency(frame))
    assert list(ranked) == list(anhua.TIER_NAMES[: len(ranked)])
    assert list(ranked.values()) == [c.lower() for c in plots.TIER_PALETTE[: len(ranked)]]


@pytest.mark.engine
def test_pattern_frequency_of_a_variant_without_tiers_has_no_tier_legend(run):
    # Weng'an's patterns have no tier: the column is there, all NA (a legend "tier: nan" before)
    frame = analysis.pattern_frequency(run).assign(tier=pd.NA)
    figure = plots.plot_pattern_frequency(frame)
    render(figure)
    ax = figure.axes[0]
    assert ax.get_legend() is None
    points = next(
        c for c in ax.collections if isinstance(c, PathCollection) and c.get_offsets().size
    )
    assert {mpl.colors.to_hex(colour) for colour in points.get_facecolors()} == {"#4c72b0"}


def test_a_variants_metric_labels_name_its_metrics(sweep_table):
    table = sweep_table.assign(points_extra=1.0, points_extra_lo=0.5, points_extra_hi=1.5)
    labels = {"points_extra": "extra points 加分"}
    figure = plots.plot_sweep_lines(table, "points_extra", metric_labels=labels)
    render(figure)
    assert figure.axes[0].get_ylabel().startswith("extra points 加分")
    heatmap = plots.plot_sweep_heatmap(table, "points_extra")
    assert "extra points" in heatmap.axes[0].get_title()  # the generic label


@pytest.mark.engine
def test_pattern_frequency_figure_of_two_runs_marks_unseen_patterns(run):
    other = analysis.Run.from_frames(run.games.iloc[:300], run.wins[run.wins["game"] < 300])
    frame = analysis.pattern_frequency({"all": run, "first 300": other})
    unseen = frame[(frame["run"] == "first 300") & (frame["count"] == 0)]
    assert len(unseen) > 0
    figure = plots.plot_pattern_frequency(frame, top=None)
    render(figure)
    ax = figure.axes[0]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["all", "first 300"]
    hollow = [c for c in ax.collections if isinstance(c, PathCollection) and c.get_offsets().size]
    upper_bounds = np.concatenate([c.get_offsets()[:, 0] for c in hollow])
    assert np.isin(unseen["hi"].to_numpy(), upper_bounds).all()


@pytest.mark.engine
@pytest.mark.parametrize("by", ["seat", "role"])
def test_score_distribution_figure(run, by):
    scores = analysis.seat_scores(run)
    figure = plots.plot_score_distribution(scores, by=by)
    render(figure)
    cdf_ax = figure.axes[1]
    assert len(cdf_ax.get_lines()) - 1 == (4 if by == "seat" else 2)  # and the zero line
    for line in cdf_ax.get_lines()[:-1]:
        assert line.get_ydata()[-1] == 1
    legend = " ".join(t.get_text() for t in cdf_ax.get_legend().get_texts())
    if by == "role":
        assert "庄家" in legend and "闲家" in legend
    else:
        mean = run.games["delta_3"].mean()
        assert f"seat 3 (mean {mean:+.2f})" in legend


@pytest.mark.engine
def test_dealer_advantage_figure(run):
    frame = analysis.dealer_advantage({"a": run, "b": run})
    figure = plots.plot_dealer_advantage(frame)
    render(figure)
    ax = figure.axes[0]
    heights = [patch.get_height() for patch in ax.patches]
    expected = frame["mean"].tolist()
    assert heights == pytest.approx(expected)
    p_value = frame.loc[frame["role"] == "difference", "p_value"].iloc[0]
    assert any(f"p = {p_value:.2g}" in t.get_text() for t in ax.texts)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["a", "b"]


def test_comparison_figure_marks_significant_rows():
    frame = pd.DataFrame(
        {
            "metric": ["mean_abs_score", "mean_abs_score", "draw_rate"],
            "run": ["four birds", "one bird", "four birds"],
            "baseline": ["two birds"] * 3,
            "kind": ["mean", "mean", "proportion"],
            "difference": [11.9, -3.1, 0.0],
            "diff_lo": [11.2, -3.3, -0.002],
            "diff_hi": [12.6, -2.9, 0.002],
            "p_adjusted": [1e-200, 1e-100, 1.0],
            "significant": [True, True, False],
        }
    )
    figure = plots.plot_comparison(frame)
    render(figure)
    assert len(figure.axes) == 2
    first, second = figure.axes
    # the frame's first row on top
    assert [t.get_text() for t in first.get_yticklabels()] == ["four birds", "one bird"]
    assert first.get_yticks().tolist() == [1, 0]
    assert "two birds" in figure.get_suptitle()
    assert [t.get_text() for t in first.texts] == ["p < 0.001", "p < 0.001"]
    red = mpl.colors.to_rgba("#C44E52")
    assert all(tuple(c) == red for c in first.collections[-1].get_facecolors())
    assert "share of hands" in second.get_title()


@pytest.fixture
def sweep_table():
    rows = []
    for i, king_mode in enumerate(["seven_kings", "four_kings"]):
        for j, birds in enumerate([1, 2, 4]):
            value = 5.0 * (j + 1) - i
            rows.append(
                {
                    "cell": f"{king_mode}-{birds}",
                    "king_mode": king_mode,
                    "bird_count": birds,
                    "hands": 1000,
                    "mean_abs_score": value,
                    "mean_abs_score_lo": value - 0.2,
                    "mean_abs_score_hi": value + 0.3,
                    "dealer_advantage": value - 8,
                    "dealer_advantage_lo": value - 9,
                    "dealer_advantage_hi": value - 7,
                }
            )
    return pd.DataFrame(rows)


def test_sweep_heatmap(sweep_table):
    figure = plots.plot_sweep_heatmap(sweep_table, "mean_abs_score", x="bird_count")
    render(figure)
    ax = figure.axes[0]
    grid = ax.get_images()[0].get_array()
    expected = sweep_table.pivot(index="king_mode", columns="bird_count", values="mean_abs_score")
    assert np.asarray(grid) == pytest.approx(expected.loc[["seven_kings", "four_kings"]].to_numpy())
    assert "9\n[8.8, 9.3]" in [t.get_text() for t in ax.texts]
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("bird_count", "king_mode")
    diverging = plots.plot_sweep_heatmap(sweep_table, "dealer_advantage", x="bird_count")
    render(diverging)
    image = diverging.axes[0].get_images()[0]
    assert image.norm.vmin == -image.norm.vmax  # 0 in the middle of the colour scale


def test_sweep_lines(sweep_table):
    figure = plots.plot_sweep_lines(sweep_table, ["mean_abs_score", "dealer_advantage"])
    render(figure)
    top = figure.axes[0]
    assert top.get_xlabel() == "king_mode"
    legend = [t.get_text() for t in top.get_legend().get_texts()]
    assert legend == ["bird_count = 1", "bird_count = 2", "bird_count = 4"]
    by_birds = plots.plot_sweep_lines(sweep_table, "mean_abs_score", x="bird_count")
    render(by_birds)
    lines = [line for line in by_birds.axes[0].get_lines() if line.get_linestyle() != "None"]
    assert len(lines) == 2
    seven = sweep_table[sweep_table["king_mode"] == "seven_kings"]
    assert lines[0].get_ydata() == pytest.approx(seven["mean_abs_score"].to_numpy())
    # numeric options keep their spacing: 1, 2, 4 (shifted a little per line)
    assert np.diff(lines[0].get_xdata()) == pytest.approx([1, 2])


@pytest.fixture(scope="module")
def sourced(run):
    """The played run with a made-up source that the games frame records per seat (``extra``:
    each seat's net, zero-sum, and ``points_from_extra``: the seats' gains)."""
    rng = np.random.default_rng(7)
    games = run.games.copy()
    nets = rng.integers(-3, 4, size=(len(games), 4))
    nets[:, 3] = -nets[:, :3].sum(axis=1)
    for seat in range(4):
        games[f"extra_{seat}"] = nets[:, seat]
    games["points_from_extra"] = np.where(nets > 0, nets, 0).sum(axis=1)
    return analysis.Run.from_frames(games, run.wins, {"n_players": 4}, label="sourced")


@pytest.mark.engine
def test_points_sources_figure_draws_the_frames_means_and_nets(sourced):
    frame = analysis.points_sources(sourced)
    nets = analysis.seat_source_nets(sourced)
    assert analysis.seat_net_sources(sourced) == ["extra"] and set(nets["source"]) == {"extra"}
    labels = {"pattern": "pattern points 牌型分", "extra": "extra points 加分"}
    figure = plots.plot_points_sources(frame, nets, labels)
    render(figure)
    bars_ax, nets_ax = figure.axes
    widths = [patch.get_width() for patch in bars_ax.patches]
    assert widths == pytest.approx(frame["per_hand"].tolist())  # the frame's means, in order
    texts = [t.get_text() for t in bars_ax.get_yticklabels()]
    ticks = dict(zip(bars_ax.get_yticks(), texts, strict=True))
    assert [ticks[y] for y in sorted(ticks, reverse=True)] == [labels[s] for s in frame["source"]]
    share = frame.set_index("source").loc["extra", "share"]
    assert f"{share:.1%} of points" in [t.get_text() for t in bars_ax.texts]
    # the net's distribution: the share of seat-hands at each value
    line = next(line for line in nets_ax.get_lines() if line.get_label() == labels["extra"])
    values = sourced.games[[f"extra_{s}" for s in range(4)]].to_numpy().ravel()
    levels, counts = np.unique(values, return_counts=True)
    assert line.get_xdata() == pytest.approx(levels)
    assert line.get_ydata() == pytest.approx(counts / values.size)
    assert nets_ax.get_yscale() == "log"


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_each_points_source_of_a_variant_has_a_colour_of_its_own(name):
    # Weng'an records nine sources; with eight colours its last (杀听) took the first's blue
    sources = list(dict.fromkeys(["pattern", *get_variant(name).report.points_source_labels]))
    frame = pd.DataFrame(
        {"source": sources, "per_hand": 1.0, "lo": 0.5, "hi": 1.5, "share": 1 / len(sources)}
    )
    nets = pd.DataFrame([{"source": s, "net": net} for s in sources for net in (-2, 0, 2)])
    figure = plots.plot_points_sources(frame, nets)
    render(figure)
    bars_ax, nets_ax = figure.axes
    bar_colours = [mpl.colors.to_hex(patch.get_facecolor()[:3]) for patch in bars_ax.patches]
    line_colours = [mpl.colors.to_hex(line.get_color()) for line in nets_ax.get_lines()[:-1]]
    assert len(bar_colours) == len(sources) and len(set(bar_colours)) == len(sources)
    assert len(line_colours) == len(sources) and len(set(line_colours)) == len(sources)


@pytest.mark.engine
def test_points_sources_figure_of_several_runs_without_nets(run):
    frame = analysis.points_sources({"a": run, "b": run})
    figure = plots.plot_points_sources(frame)
    render(figure)
    assert len(figure.axes) == 1  # no nets: one panel
    ax = figure.axes[0]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["a", "b"]
    widths = sorted(patch.get_width() for patch in ax.patches)
    assert widths == pytest.approx(sorted(frame["per_hand"].tolist()))


def test_option_effects_figure_draws_each_effect_with_its_interval():
    frame = pd.DataFrame(
        {
            "axis": ["ben_ji", "ben_ji", "mode", "mode", "mode"],
            "value": [True, False, "plain", "none", "4321"],
            "metric": ["points:chicken"] * 5,
            "estimate": [9.0, 8.0, 9.0, 7.5, 11.0],
            "lo": [8.8, 7.8, 8.8, 7.3, 10.7],
            "hi": [9.2, 8.2, 9.2, 7.7, 11.3],
            "effect": [0.0, -1.0, 0.0, -1.5, 2.0],
            "effect_lo": [0.0, -1.1, 0.0, -1.6, 1.8],
            "effect_hi": [0.0, -0.9, 0.0, -1.4, 2.2],
        }
    )
    figure = plots.plot_option_effects(
        frame, {"points_chicken": "chicken points 鸡分"}, {"ben_ji": "ben_ji 本鸡"}
    )
    render(figure)
    ax = figure.axes[0]
    labels = [t.get_text() for t in ax.get_yticklabels()]
    # the frame's first row on top
    assert ax.get_yticks().tolist() == [4, 3, 2, 1, 0]
    assert labels == ["ben_ji 本鸡 = true", "ben_ji 本鸡 = false", "mode = plain", "mode = none",
                      "mode = 4321"]  # fmt: skip
    assert ax.get_title() == "chicken points 鸡分"
    drawn = {}  # row -> (effect, lo, hi) of the error bars
    for container in ax.containers:
        line, _, (bars,) = container
        x, y = line.get_xdata()[0], line.get_ydata()[0]
        (lo, _), (hi, _) = bars.get_segments()[0]
        drawn[round(y)] = (x, lo, hi)
    values = frame[["effect", "effect_lo", "effect_hi"]].to_numpy()
    expected = {4 - i: tuple(row) for i, row in enumerate(values) if i not in (0, 2)}
    assert drawn.keys() == expected.keys()
    for row, values in expected.items():
        assert drawn[row] == pytest.approx(values)
    hollow = [c for c in ax.collections if isinstance(c, PathCollection)]
    assert sorted(c.get_offsets()[0, 1] for c in hollow) == [2, 4]  # first values, at 0
