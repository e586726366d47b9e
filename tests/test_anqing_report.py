"""``mjsim report`` on an Anqing run: the score items (§anqing-score-table items 1-22) and the 包
factors (顺包 / 反包 / 互为顺包, §anqing-bao) get sections of their own, declared by the variant
(``sim/variants/anqing/presentation.py``: ``ReportText.sections``), each a table and a figure; the
numbers are recomputed here from the run's frames with plain pandas. A run of another variant has no
such section.

Rules: docs/rules/anqing.md (安庆麻将), 胡牌和算分 items 1-22 and 碰牌和吃牌 (包).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from report_pages import Page, write_run

from sim import report
from sim.running.config import load_config
from sim.running.runner import run
from sim.variants.anhua import AnhuaOptions
from sim.variants.anhua.play import play_anhua
from sim.variants.anqing.frames import BAO_KINDS, ITEM_IDS
from sim.variants.anqing.scoring_names import ITEM_ENGLISH, ITEM_NAMES

ROOT = Path(__file__).resolve().parent.parent
N_HANDS = 3000


@pytest.fixture(scope="module")
def anqing(tmp_path_factory):
    """A played Anqing run (default options and agents) and its report, parsed."""
    config = load_config(ROOT / "configs" / "anqing.toml", [f"run.games={N_HANDS}"])
    directory = run(config, tmp_path_factory.mktemp("anqing") / "run", jobs=1, progress=False)
    text = report.write_report(directory).read_text(encoding="utf-8")
    games = pd.read_parquet(directory / "games.parquet")
    wins = pd.read_parquet(directory / "wins.parquet")
    return directory, games, wins, Page(text)


@pytest.mark.engine
def test_the_items_section_counts_each_item_among_the_winners(anqing):
    """Each §anqing-score-table item: winners whose win scored it (屁胡, worth 0, by its bit), its
    share of the winners and its mean points where it scored; a figure beside the table."""
    directory, games, wins, page = anqing
    rows = page.rows("anqing-items")
    labels = [f"{c} {e}" for c, e in zip(ITEM_NAMES, ITEM_ENGLISH, strict=True)]
    assert list(rows) == labels
    scored_any = 0
    for bit, (item, label) in enumerate(zip(ITEM_IDS, labels, strict=True)):
        scored = ((wins["items_scored"].to_numpy() >> bit) & 1) == 1
        row = rows[label]
        assert row["winners"] == f"{scored.sum():,}", label
        points = wins[f"item_{item}"].to_numpy()
        if scored.any():
            scored_any += 1
            assert row["mean points where set"] == f"{points[scored].mean():,.2f}", label
        else:
            assert row["mean points where set"] == "–"
        assert row["points per hand"] == f"{points.sum() / len(games):,.3f}", label
    assert scored_any >= 8  # base, 门清, 跑风, 杠开, 杠牌, 风, 屁胡 ... in 3,000 hands
    assert rows["基本胡 base"]["winners"] == f"{len(wins):,}"  # every win scores the base
    assert "figures/anqing-items.png" in {image["data-file"] for image in page.images}
    assert (directory / "figures" / "anqing-items.png").stat().st_size > 10_000


@pytest.mark.engine
def test_the_bao_section_counts_hands_and_the_money_moved(anqing):
    """顺包, 反包, 互为顺包: hands with each (some payer under it), what the payers under it paid
    and what the factors added; the added points of the three sum to the 包 points source."""
    directory, games, _, page = anqing
    rows = page.rows("anqing-bao")
    assert list(rows) == [chinese for _, chinese in BAO_KINDS[1:]]
    added_total = 0
    for kind, chinese in BAO_KINDS[1:]:
        paid = games[f"bao_{kind}_paid"].to_numpy()
        added = games[f"bao_{kind}_added"].to_numpy()
        kinds = games[[f"bao_kind_{s}" for s in range(4)]].astype(str).to_numpy()
        under = (kinds == chinese).any(axis=1)
        assert ((paid != 0) == under).all()
        row = rows[chinese]
        assert row["hands"] == f"{under.sum():,}"
        if under.any():
            assert row["mean points paid where set"] == f"{paid[under].mean():,.2f}"
            assert row["mean points the factor added where set"] == f"{added[under].mean():,.2f}"
        added_total += added.sum()
    assert added_total == games["points_from_bao"].sum()
    assert (games["bao_shun_paid"] != 0).sum() > 0  # 顺包 happens in 3,000 hands
    assert (directory / "figures" / "anqing-bao.png").stat().st_size > 10_000


@pytest.mark.engine
def test_the_bao_columns_follow_the_factors(anqing):
    """A payer under 顺包 or 反包 has a factor of 3 or more; one under none pays × 1 (or, the
    winner and on a 荒庄, nothing: 0)."""
    _, games, _, _ = anqing
    for seat in range(4):
        kind = games[f"bao_kind_{seat}"].astype(str)
        factor = games[f"bao_factor_{seat}"]
        assert (factor[kind != "none"] >= 3).all()
        assert factor[kind == "none"].isin([0, 1]).all()


@pytest.mark.engine
def test_another_variants_report_has_no_anqing_section(tmp_path):
    """The sections come from the variant's declaration: an Anhua run's report has none."""
    options = AnhuaOptions()
    games, wins = play_anhua(300, seed=3, options=options)
    directory = tmp_path / "run"
    write_run(directory, games, wins, options, 3, "anhua")
    page = Page(report.write_report(directory).read_text(encoding="utf-8"))
    assert not {"anqing-items", "anqing-bao"} & set(page.tables)
    assert np.isin(["patterns", "points"], list(page.tables)).all()


@pytest.mark.engine
def test_the_sections_read_from_a_stored_run_equal_the_loaded_run(anqing):
    """A run read batch by batch (``open_run``, as for runs larger than memory; 97-hand
    batches here, so many of them) gives the sections' figures exactly as the run in memory."""
    from sim import analysis
    from sim.variants import get_variant

    directory = anqing[0]
    loaded = analysis.load_run(directory)
    stored = analysis.open_run(directory, batch_rows=97)
    sections = get_variant("anqing").report.sections
    assert sections
    for section in sections:
        whole = analysis.counted_rows(loaded, section)
        batched = analysis.counted_rows(stored, section)
        pd.testing.assert_frame_equal(batched, whole, check_exact=True)
