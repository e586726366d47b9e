"""sim.report and ``mjsim report``: the numbers printed in the HTML, recomputed with plain pandas
from the raw frames of a played run; embedding, escaping, atomic writing, errors, sweeps."""

from __future__ import annotations

import base64
import io
import json
import math
import os
import re
import statistics
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from report_pages import SEATS, Page, with_draws, write_run, write_sweep

from sim import analysis, report
from sim.cli import main
from sim.report.page import write_atomic
from sim.variants.anhua import NAMED_PATTERNS, OPTION_TITLES, AnhuaOptions
from sim.variants.anhua.play import play_anhua
from sim.variants.wengan.record_slots import POINT_SOURCES

N_HANDS = 3000
EXTRA_DRAWS = 40  # Anhua with efficiency agents almost never ends in a draw: add some
LABEL = 'anhua <script>alert("x") & co'
HOSTILE_OPTION = {"note": "<img src=x onerror=alert(1)>"}
Z95 = statistics.NormalDist().inv_cdf(0.975)


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """3,000 played hands (dealer bonus and 4 birds, so every point source shows) and 40
    draws, as a run directory with a hostile label; its report, parsed."""
    options = AnhuaOptions(bird_count=4, dealer_bonus=True)
    games, wins = play_anhua(N_HANDS, seed=11, options=options)
    games = with_draws(games, EXTRA_DRAWS)
    directory = tmp_path_factory.mktemp("report") / "run"
    write_run(directory, games, wins, options, 11, LABEL)
    path = report.write_report(directory)
    text = path.read_text(encoding="utf-8")
    return directory, games, wins, text, Page(text)


def pct(value: float) -> str:
    return f"{value * 100:.2f}%"


def wilson(x: int, n: int) -> tuple[float, float]:
    p = x / n
    centre = (p + Z95**2 / (2 * n)) / (1 + Z95**2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / (1 + Z95**2 / n)
    return (0.0 if x == 0 else centre - half), (1.0 if x == n else centre + half)


# --------------------------------------------------------------------------- the run report


@pytest.mark.engine
def test_report_is_written_beside_the_results_with_every_figure_embedded(played):
    directory, _, _, text, page = played
    assert (directory / "report.html").is_file()
    files = sorted(p.name for p in (directory / "figures").iterdir())
    assert files == [
        "dealer_advantage.png",
        "pattern_frequency.png",
        "points_sources.png",
        "score_distribution.png",
    ]
    embedded = {}
    for image in page.images:
        prefix = "data:image/png;base64,"
        assert image["src"].startswith(prefix)  # nothing to fetch
        embedded[image["data-file"]] = base64.b64decode(image["src"].removeprefix(prefix))
    for name in files:
        assert embedded[f"figures/{name}"] == (directory / "figures" / name).read_bytes()
        assert embedded[f"figures/{name}"].startswith(b"\x89PNG")
    assert "<style>" in text and "<link" not in text and "<script" not in text.lower()
    assert not [p for p in directory.rglob("*.tmp")]


@pytest.mark.engine
def test_draw_rate_and_win_kinds(played):
    _, games, wins, _, page = played
    kinds = page.rows("win-kinds")
    draws = int((games["outcome"] == "draw").sum())
    assert draws == EXTRA_DRAWS
    row = kinds["exhaustive draw 荒庄"]
    assert row["hands"] == f"{draws:,}"
    assert row["share of hands"] == pct(draws / len(games))
    lo, hi = wilson(draws, len(games))
    assert row["95% interval"] == f"[{pct(lo)}, {pct(hi)}]"
    self_draws = games["win_kind"].astype(str) == "self_draw"
    row = kinds["self-draw 自摸"]
    assert row["hands"] == f"{int(self_draws.sum()):,}"
    winners = wins[wins["win_kind"].astype(str) == "self_draw"]
    assert row["winners"] == f"{len(winners):,}"
    assert row["mean base points"] == f"{winners['points'].mean():.2f}"
    assert f"{draws} of {len(games):,} hands" in page.text


@pytest.mark.engine
def test_pattern_counts_shares_and_names(played):
    _, games, wins, _, page = played
    patterns = page.rows("patterns")
    counts = wins["pattern"].value_counts()
    assert set(patterns) == set(counts.index)
    for name, count in counts.items():
        hands_with = wins.loc[wins["pattern"] == name, "game"].nunique()
        row = patterns[name]
        assert row["winners"] == f"{count:,}", name
        assert row["hands with it"] == f"{hands_with:,}", name
        assert row["share of hands"] == pct(hands_with / len(games)), name
        assert row["share of wins"] == pct(count / len(wins)), name
    # listed most frequent first
    shown = [int(r["winners"].replace(",", "")) for r in patterns.values()]
    assert shown == sorted(shown, reverse=True)
    unseen = [name for name in NAMED_PATTERNS.values() if name not in set(counts.index)]
    assert unseen and all(name in page.text for name in unseen)


@pytest.mark.engine
def test_win_rate_by_seat_and_dealer(played):
    _, games, wins, _, page = played
    seats = page.rows("win-rate")
    winners = wins.drop_duplicates(["game", "seat"])
    for seat in SEATS:
        won = int((winners["seat"] == seat).sum())
        assert seats[f"seat {seat}"]["wins"] == f"{won:,}"
        assert seats[f"seat {seat}"]["win rate"] == pct(won / len(games))
    dealer_of = games.set_index("game")["dealer"]
    dealer_wins = int((winners["seat"].to_numpy() == dealer_of[winners["game"]].to_numpy()).sum())
    row = seats["dealer 庄家 (pooled)"]
    assert row["wins"] == f"{dealer_wins:,}"
    assert row["win rate"] == pct(dealer_wins / len(games))
    lo, hi = wilson(dealer_wins, len(games))
    assert row["95% interval"] == f"[{pct(lo)}, {pct(hi)}]"
    row = seats["non-dealer 闲家 (pooled)"]
    assert row["wins"] == f"{len(winners) - dealer_wins:,}"
    assert row["seat-hands"] == f"{3 * len(games):,}"


@pytest.mark.engine
def test_scores_per_seat(played):
    _, games, _, _, page = played
    scores = page.rows("scores")
    for seat in SEATS:
        delta = games[f"delta_{seat}"]
        row = scores[f"seat {seat}"]
        assert row["mean score"] == f"{delta.mean():+.2f}"
        assert row["std"] == f"{delta.std():.2f}"
        assert row["max"] == f"{delta.max():,}"
        assert row["min"] == f"{delta.min():,}"
        assert row["median"] == f"{delta.median():g}"
        assert row["P(|score| ≥ 16)"] == pct((delta.abs() >= 16).mean())
        half = statistics.NormalDist().inv_cdf(0.975) * delta.std() / math.sqrt(len(delta))
        lo, hi = (float(x) for x in row["95% interval"].strip("[]").split(", "))
        # t and normal quantiles differ in the 4th digit at n = 3,040
        assert lo == pytest.approx(delta.mean() - half, abs=0.011)
        assert hi == pytest.approx(delta.mean() + half, abs=0.011)
    assert scores["all seats 全体 (pooled)"]["mean score"] == "+0.00"


@pytest.mark.engine
def test_dealer_advantage(played):
    _, games, _, _, page = played
    deltas = games[[f"delta_{s}" for s in SEATS]].to_numpy(dtype=float)
    dealer = deltas[np.arange(len(games)), games["dealer"].to_numpy()]
    non_dealer = (deltas.sum(axis=1) - dealer) / 3
    difference = dealer - non_dealer
    rows = page.rows("dealer-advantage")
    assert rows["dealer 庄家"]["mean score per hand"] == f"{dealer.mean():+.2f}"
    assert rows["non-dealer 闲家"]["mean score per hand"] == f"{non_dealer.mean():+.2f}"
    assert rows["difference 差"]["mean score per hand"] == f"{difference.mean():+.2f}"
    t = difference.mean() / (difference.std(ddof=1) / math.sqrt(len(difference)))
    assert f"t = {t:.2f}, df = {len(difference) - 1:,}" in page.text


@pytest.mark.engine
def test_points_sources(played):
    _, games, wins, _, page = played
    payers = np.where(wins["payer"] < 0, 3, 1)
    pattern = float((wins["points"] * payers).sum())
    deltas = games[[f"delta_{s}" for s in SEATS]]
    moved = float(deltas.clip(lower=0).to_numpy().sum())
    rows = page.rows("points")
    assert rows["pattern points 牌型分"]["points (total)"] == f"{pattern:,.0f}"
    bonus = float(rows["dealer bonus 庄闲分"]["points (total)"].replace(",", ""))
    assert bonus > 0
    birds = moved - pattern - bonus
    assert rows["birds 抓鸟"]["points (total)"] == f"{birds:,.0f}"
    assert rows["birds 抓鸟"]["share"] == pct(birds / moved)
    assert rows["birds 抓鸟"]["per hand"] == f"{birds / len(games):.3f}"


@pytest.mark.engine
def test_header_options_and_how_to_read(played):
    directory, games, _, _, page = played
    facts = {row[0]: row[1] for row in page.tables["run-facts"]}
    assert facts["label"] == LABEL
    assert facts["hands 局"] == f"{len(games):,}"
    assert facts["seed"] == "11"
    manifest = json.loads((directory / "manifest.json").read_text(encoding="utf-8"))
    assert facts["config hash"] == manifest["config_hash"]
    assert facts["run command"].startswith("mjsim run configs/")
    assert facts["report command"] == f"mjsim report {directory}"
    assert "play 1.5 s" in facts["timings"]
    options = page.rows("options")
    assert options["bird_count"]["_cells"][1:] == [OPTION_TITLES["bird_count"], "4", "2"]
    assert options["dealer_bonus"]["rule 规则"] == OPTION_TITLES["dealer_bonus"]
    assert "How to read this" in page.text and "Wilson" in page.text


@pytest.mark.engine
def test_every_value_is_escaped(played, tmp_path):
    """The label of a run folder, and values no checked run folder holds (an option of any
    text), given to the report in memory."""
    directory, _, _, text, page = played
    assert "<script" not in text.lower()
    assert "&lt;script&gt;alert(&quot;x&quot;) &amp; co" in text
    run = analysis.load_run(directory)
    run.manifest = {**run.manifest, "options": {**run.manifest["options"], **HOSTILE_OPTION}}
    run.manifest["label"] = 'anhua <script>alert("x")</script>'
    hostile = report.write_run_report(tmp_path, run=run).read_text(encoding="utf-8")
    assert "<script" not in hostile.lower() and "<img src=x" not in hostile
    assert "&lt;/script&gt;" in hostile
    assert Page(hostile).rows("options")["note"]["value"] == HOSTILE_OPTION["note"]
    # the hostile option value made no image
    assert len(Page(hostile).images) == len(page.images) == 4


def test_number_formats():
    assert report.fmt_pct(0.123456) == "12.35%"
    assert report.fmt_pct(0.00001234) == "0.0012%"  # not 0.00%
    assert report.fmt_pct(0.0) == "0.00%"
    assert report.fmt_interval(0.1, 0.25, report.fmt_pct) == "[10.00%, 25.00%]"
    assert report.fmt_num(-1.234, sign=True) == "-1.23"
    assert report.fmt_p(0.0004) == "< 0.001" and report.fmt_p_phrase(0.0123) == "p = 0.012"
    assert report.fmt_points(4.5) == "4.5" and report.fmt_points(-8.0) == "-8"
    assert report.fmt_num(float("nan")) == "–"
    assert report.esc('<a href="x">') == "&lt;a href=&quot;x&quot;&gt;"


# --------------------------------------------------------------------------- font and variants


@pytest.mark.engine
def test_the_page_embeds_the_font_glyphs_of_its_chinese_text(played):
    """Where no CJK font is installed, the page's Chinese renders with the bundled font's glyphs,
    embedded for exactly the CJK characters the page shows (tests/test_report_browser.py opens
    it in a browser)."""
    from fontTools.ttLib import TTFont

    from sim.plots import FONT_FAMILY

    _, _, _, text, page = played
    style = re.search(r"<style>(.*)</style>", text, re.S).group(1)
    face = re.search(r"@font-face \{(.*?)\}", style).group(1)
    assert f'font-family: "{FONT_FAMILY}";' in face
    data = re.search(r"url\(data:font/woff;base64,([A-Za-z0-9+/=]+)\)", face).group(1)
    font_bytes = base64.b64decode(data)
    assert font_bytes.startswith(b"wOFF") and len(font_bytes) < 40_000
    font = TTFont(io.BytesIO(font_bytes))
    assert font["name"].getDebugName(1) == FONT_FAMILY
    shown = sorted({char for char in page.text if ord(char) >= 0x2E80})
    assert "平" in shown and "抓" in shown and len(shown) > 50
    held = sorted(chr(point) for point in font.getBestCmap())
    assert held == shown  # every Chinese character shown, nothing else (Latin: system font)
    ranges = re.search(r"unicode-range: ([^;]*);", face).group(1).split(", ")
    covered = set()
    for item in ranges:
        lo, _, hi = item.removeprefix("U+").partition("-")
        covered.update(chr(p) for p in range(int(lo, 16), int(hi or lo, 16) + 1))
    assert sorted(covered) == shown
    assert re.search(rf'body \{{ font-family: "{FONT_FAMILY}", system-ui', style)


@pytest.mark.engine
def test_a_report_written_again_is_the_same_file(played):
    directory, _, _, text, _ = played
    assert report.write_report(directory).read_text(encoding="utf-8") == text


@pytest.mark.engine
def test_labels_and_notes_of_the_variant_come_from_its_registry_entry(played, tmp_path):
    """The run's variant labels what only it has (sim.variants.Variant.report); a variant this
    mjsim does not know gets the raw names and the generic analyses, and the report still
    works."""
    from sim.variants import get_variant

    source, games, _, _, page = played
    entry = get_variant("anhua")
    assert page.tables["run-facts"][1] == ["variant", entry.title]
    assert entry.report.points_source_labels["birds"] in page.rows("points")
    assert entry.report.tier_note in page.text and entry.report.points_note in page.text
    assert entry.report.win_kind_labels["instant"] in page.rows("win-kinds")
    # a checked run folder names a variant this mjsim knows: the run is given in memory
    directory = tmp_path / "unknown"
    directory.mkdir()
    run = analysis.load_run(source)
    run.manifest = {**run.manifest, "variant": "nonesuch"}
    other_text = report.write_run_report(directory, run=run).read_text(encoding="utf-8")
    other = Page(other_text)
    assert other.tables["run-facts"][1] == ["variant", "nonesuch"]
    # the points beyond the pattern are split by the variant (sim.variants.Variant.point_sources)
    assert set(other.rows("points")) == {"pattern points 牌型分"}
    assert "instant" in other.rows("win-kinds")
    assert (
        other.rows("win-kinds")["self-draw 自摸"]["hands"]
        == page.rows("win-kinds")["self-draw 自摸"]["hands"]
    )
    assert other.tables["options"][0] == ["option", "", "value"]  # no defaults to compare with
    assert "Named patterns" not in other.text and entry.report.tier_note not in other.text
    assert "(points won or lost)." in other.text
    assert "Where the points that change hands come from.</p>" in other_text
    assert len(games) == int(other.rows("win-rate")["seat 0"]["seat-hands"].replace(",", ""))


VARIANT_TERMS = re.compile(
    r"anhua|wengan|weng'an|anqing|安化|瓮安|安庆|\bkings?\b|\bbirds?\b|抓鸟|王", re.IGNORECASE
)
"""Names of variants, and words of one variant's rules (its kings 王 and birds 抓鸟)."""


def test_the_report_package_names_no_variant():
    """sim/report is generic: what one game adds comes from its registry entry. Each module says
    what it does; every public name is importable from sim.report."""
    import ast

    modules = sorted((Path(report.__file__).parent).glob("*.py"))
    assert len(modules) >= 6
    found = [
        f"{path.name}:{number}: {line.strip()}"
        for path in modules
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if VARIANT_TERMS.search(line)
    ]
    assert found == []
    for path in modules:
        assert ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))), path.name
    for name in report.__all__:
        assert getattr(report, name) is not None, name
    assert VARIANT_TERMS.search("Anhua Seven Kings") and VARIANT_TERMS.search("birds 抓鸟")
    assert not VARIANT_TERMS.search("making a kong, thinking of bird_counts")


# --------------------------------------------------------------------------- CLI and errors


@pytest.mark.engine
def test_cli_prints_the_path(played, capsys):
    directory = played[0]
    assert main(["report", str(directory)]) == 0
    captured = capsys.readouterr()
    assert captured.out.strip() == str(directory / "report.html")
    assert captured.err == ""


def test_help_explains_every_flag_with_an_example(capsys):
    with pytest.raises(SystemExit):
        main(["report", "--help"])
    out = capsys.readouterr().out
    for flag in ("DIR", "--baseline", "--open"):
        assert flag in out
    assert out.count("example") >= 4


@pytest.mark.parametrize("kind", ["missing", "empty", "bad manifest", "bad parquet", "no frames"])
def test_bad_directory_is_a_one_line_error_and_writes_nothing(tmp_path, capsys, kind):
    directory = tmp_path / "run"
    if kind != "missing":
        directory.mkdir()
    if kind in ("bad manifest", "bad parquet", "no frames"):
        manifest = "{not json" if kind == "bad manifest" else '{"label": "x", "n_players": 4}'
        (directory / "manifest.json").write_text(manifest)
    if kind in ("bad manifest", "bad parquet"):
        for name in ("games.parquet", "wins.parquet"):
            (directory / name).write_bytes(b"PAR1 this is not parquet")
    assert main(["report", str(directory)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("mjsim: error: ") and captured.err.count("\n") == 1
    assert str(directory) in captured.err
    if directory.exists():
        assert not (directory / "report.html").exists()
        assert not (directory / "figures").exists()
        assert not list(directory.glob(".*"))


@pytest.mark.engine
def test_failed_rewrite_keeps_the_old_report(played, tmp_path, capsys):
    source = played[0]
    directory = tmp_path / "copy"
    directory.mkdir()
    for name in ("manifest.json", "games.parquet", "wins.parquet", "report.html"):
        (directory / name).write_bytes((source / name).read_bytes())
    before = (directory / "report.html").read_bytes()
    (directory / "wins.parquet").write_bytes(b"truncated")
    assert main(["report", str(directory)]) == 2
    assert "cannot read parquet" in capsys.readouterr().err
    assert (directory / "report.html").read_bytes() == before
    assert sorted(p.name for p in directory.iterdir()) == [
        "games.parquet",
        "manifest.json",
        "report.html",
        "wins.parquet",
    ]


def test_atomic_write_leaves_no_partial_file(tmp_path, monkeypatch):
    target = tmp_path / "report.html"
    target.write_text("old")

    def broken_fsync(descriptor):
        raise OSError("disk full")

    monkeypatch.setattr(os, "fsync", broken_fsync)
    with pytest.raises(OSError, match="disk full"):
        write_atomic(target, b"new" * 1000)
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["report.html"]


# --------------------------------------------------------------------------- sweeps


@pytest.fixture(scope="module")
def sweep(tmp_path_factory):
    """Two cells on the same walls (seed 5): 1 bird against 4 birds, 400 hands each."""
    root = tmp_path_factory.mktemp("sweep") / "birds"
    frames = write_sweep(root, 400)
    path = report.write_report(root)
    return root, frames, Page(path.read_text(encoding="utf-8"))


@pytest.mark.engine
def test_sweep_report_links_every_cell_report(sweep):
    root, frames, page = sweep
    for name in frames:
        href = f"cells/{name}/report.html"
        assert href in page.links
        cell = Page((root / href).read_text(encoding="utf-8"))
        assert "../../report.html" in cell.links  # back to the sweep
        assert cell.rows("win-rate")  # a full run report
    assert (root / "report.html").is_file()
    files = sorted(p.name for p in (root / "figures").iterdir())
    # sweep_ names: the sweep writer's own figures (heatmap_*.png, lines.png, ...) stay
    assert files == ["sweep_comparison.png", "sweep_lines.png"]
    assert sorted(i["data-file"] for i in page.images) == [f"figures/{f}" for f in files]
    assert "birds &lt;sweep&gt;" not in page.text and "birds <sweep>" in page.text


@pytest.mark.engine
def test_sweep_table_numbers(sweep):
    _, frames, page = sweep
    outcomes = page.rows("sweep-outcomes")
    for name, (games, wins) in frames.items():
        row = outcomes[name]
        winners = wins.drop_duplicates(["game", "seat"])
        dealer_of = games.set_index("game")["dealer"]
        won = winners["seat"].to_numpy() == dealer_of[winners["game"]].to_numpy()
        dealer_hands = winners.loc[won, "game"].nunique()
        assert row["dealer win rate"].startswith(pct(dealer_hands / len(games)) + " [")
        mean_abs = games[[f"delta_{s}" for s in SEATS]].abs().mean(axis=1).mean()
        assert row["mean |score| of a seat"].startswith(f"{mean_abs:.2f} [")
        assert row["bird_count"] == name.removeprefix("birds-")


@pytest.mark.engine
def test_sweep_compares_cells_with_the_first_one_hand_by_hand(sweep):
    _, frames, page = sweep
    comparison = page.tables["comparison"]
    header, body = comparison[0], comparison[1:]
    rows = [dict(zip(header, row, strict=True)) for row in body]
    assert {row["cell"] for row in rows} == {"birds-4"}
    assert {row["test"] for row in rows} == {"paired t"}
    swing = next(row for row in rows if row["metric"] == "mean |score| of a seat")
    means = {
        name: games[[f"delta_{s}" for s in SEATS]].abs().mean(axis=1).mean()
        for name, (games, _) in frames.items()
    }
    difference = means["birds-4"] - means["birds-1"]
    assert swing["difference [95% interval]"].startswith(f"{difference:+.2f} [")
    assert swing["significant"] == "yes"
    assert swing["changed options"] == "bird_count=4"
    # the same walls and play: only the scoring differs, so the patterns cannot; they are
    # named once as the same in every cell instead of compared
    assert not [row for row in rows if row["metric"].startswith("hands with")]
    note = next(t for t in page.texts if t.startswith("The same in every cell: "))
    games, wins = frames["birds-1"]
    top = wins.drop_duplicates(["game", "pattern"])["pattern"].value_counts()
    share = top.iloc[0] / len(games)
    assert f"hands with {top.index[0]} {pct(share)} [" in note
    assert "draw rate" not in {row["metric"].split()[0] for row in rows}


@pytest.mark.engine
def test_sweep_with_unknown_baseline_is_an_error(sweep, capsys):
    root = sweep[0]
    before = (root / "report.html").read_bytes()
    assert main(["report", str(root), "--baseline", "nope"]) == 2
    assert "no sweep cell named 'nope'" in capsys.readouterr().err
    assert (root / "report.html").read_bytes() == before


@pytest.mark.engine
def test_a_run_without_a_win_still_gets_a_report(tmp_path):
    games, wins = play_anhua(8, seed=1)
    games = with_draws(games, 5).tail(5).reset_index(drop=True)
    games["game"], games["session"], games["hand"] = range(5), 0, range(5)
    directory = tmp_path / "draws"
    write_run(directory, games, wins.iloc[:0], AnhuaOptions(), 1, "all-draws")
    page = Page(report.write_report(directory).read_text(encoding="utf-8"))
    assert page.rows("win-kinds")["exhaustive draw 荒庄"]["share of hands"] == "100.00%"
    assert "No hand of the run was won." in page.text
    assert len(page.images) == 2  # no pattern figure


# --------------------------------------------------------------------------- per-seat sources


@pytest.fixture(scope="module")
def wengan_report(tmp_path_factory):
    """A played Weng'an run (its games frame records each seat's net per source) and its
    report, parsed."""
    from sim.running.config import load_config
    from sim.running.runner import run

    root = Path(__file__).resolve().parent.parent
    config = load_config(root / "configs" / "wengan-4p.toml", ["run.games=300"])
    directory = run(config, tmp_path_factory.mktemp("wengan") / "run", jobs=1, progress=False)
    text = report.write_report(directory).read_text(encoding="utf-8")
    return directory, pd.read_parquet(directory / "games.parquet"), Page(text)


@pytest.mark.engine
def test_each_seats_net_by_source_is_tabled_and_drawn(wengan_report, played):
    directory, games, page = wengan_report
    assert "points_sources.png" in {p.name for p in (directory / "figures").iterdir()}
    assert "figures/points_sources.png" in {image["data-file"] for image in page.images}
    rows = page.rows("source-nets")
    # every recorded source (record_slots.POINT_SOURCES), the win's bonuses too
    assert list(rows) == [source.label for source in POINT_SOURCES]
    nets = games[[f"chicken_{s}" for s in SEATS]].to_numpy(dtype=float)
    chickens = rows["chickens 鸡分 / 责任鸡"]
    assert chickens["mean |net| of a seat"] == f"{np.abs(nets).mean():.3f}"
    assert chickens["seat-hands moved"] == pct((nets != 0).mean())
    assert chickens["range"] == f"{nets.min():.0f} to {nets.max():.0f}"
    points = page.rows("points")["chickens 鸡分 / 责任鸡"]
    assert points["points (total)"] == f"{games['points_from_chicken'].sum():,.0f}"
    # Anhua's frames record no source per seat: no such table, the bars alone
    assert "source-nets" not in played[4].tables
