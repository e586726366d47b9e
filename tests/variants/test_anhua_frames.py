"""Anhua's declarations for the generic frames and analyses (sim/variants/anhua/frames.py and
summaries.py): bird hits by the kernel's own rule, the point sources it derives, its labels."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sim import analysis
from sim.analysis import Run
from sim.core.wall import shuffled_walls
from sim.running.agents import agent_ids
from sim.running.records import winners
from sim.variants import get_variant
from sim.variants.anhua import TIER_NAMES, AnhuaOptions
from sim.variants.anhua import scoring as kernels
from sim.variants.anhua.frames import bird_hits
from sim.variants.anhua.play import play_anhua
from sim.variants.anhua.record_slots import RH_BIRD, RH_N_BIRDS

ANHUA = get_variant("anhua")


@pytest.mark.engine
def test_bird_hits_count_the_birds_the_kernel_lands_on_the_winner_or_payer():
    """抓鸟 (§anhua-payments): a bird of rank r lands (r - 1) seats on from the winner; it hits
    when it lands on the winner or on the payer. Checked bird by bird against the kernel."""
    options = AnhuaOptions(bird_count=4)
    walls = shuffled_walls(400, 108, 9)
    records = ANHUA.play(
        options, walls, np.zeros(50, np.int64), 8, agent_ids(["efficiency"] * 4), 9
    )
    wins = ANHUA.wins_frame(records, options)
    won = winners(records)
    expected = []
    for row, seat, payer in zip(won.rows, won.seat, won.payer, strict=True):
        landed = [
            kernels.bird_seat(int(row[RH_BIRD + b]), int(seat), 4) for b in range(row[RH_N_BIRDS])
        ]
        expected.append(sum(s == seat or (payer >= 0 and s == payer) for s in landed))
    assert wins["bird_hits"].tolist() == expected == bird_hits(won, 4).tolist()
    assert wins["bird_hits"].max() > 1


def test_points_sources_split_birds_from_pattern_points_with_several_winners():
    # seats 1 and 3 both win on seat 0's discard, 2 and 1 bird hits
    games = pd.DataFrame(
        {
            "game": [0],
            "dealer": [2],
            "outcome": ["win"],
            "win_kind": ["discard"],
            "n_winners": [2],
            "delta_0": [-24],
            "delta_1": [16],
            "delta_2": [0],
            "delta_3": [8],
        }
    )
    wins = pd.DataFrame(
        {
            "game": [0, 0],
            "seat": [1, 3],
            "win_kind": ["discard", "discard"],
            "pattern": ["硬庄", "硬庄"],
            "points": [4, 4],
            "payer": [0, 0],
            "bird_hits": [2, 1],
        }
    )
    run = Run.from_frames(games, wins, {"variant": "anhua", "n_players": 4})
    sources = analysis.points_sources(run).set_index("source")
    assert sources.loc["pattern", "points"] == 8  # 4 + 4 from one payer each
    assert sources.loc["birds", "points"] == 16  # 4 * (2^2 - 1) + 4 * (2^1 - 1)


def test_points_sources_derive_the_dealer_bonus():
    # 庄闲分 on, dealer 0. Hand 0: the dealer self-draws 平胡 (2): each payer 2 + 1.
    # Hand 1: seat 1 self-draws 平胡: the dealer pays 2 + 1, the others 2.
    # Hand 2: seat 2 wins 硬庄 (4) on the dealer's discard, one bird hit: 4 * 2 + 1.
    games = pd.DataFrame(
        {
            "game": [0, 1, 2],
            "dealer": [0, 0, 0],
            "outcome": ["win"] * 3,
            "win_kind": ["self_draw", "self_draw", "discard"],
            "n_winners": [1, 1, 1],
            "delta_0": [9, -3, -9],
            "delta_1": [-3, 7, 0],
            "delta_2": [-3, -2, 9],
            "delta_3": [-3, -2, 0],
        }
    )
    wins = pd.DataFrame(
        {
            "game": [0, 1, 2],
            "seat": [0, 1, 2],
            "win_kind": ["self_draw", "self_draw", "discard"],
            "pattern": ["平胡", "平胡", "硬庄"],
            "tier": ["小胡", "小胡", "大胡"],
            "points": [2, 2, 4],
            "payer": [-1, -1, 0],
            "bird_hits": [0, 0, 1],
            "gain": [9.0, 7.0, 9.0],
        }
    )
    manifest = {"variant": "anhua", "n_players": 4, "options": {"dealer_bonus": True}}
    per_hand = analysis.points_per_hand(Run.from_frames(games, wins, manifest))
    assert per_hand.columns.tolist() == ["pattern", "dealer_bonus", "birds"]
    assert per_hand["pattern"].tolist() == [6, 6, 4]
    assert per_hand["dealer_bonus"].tolist() == [3, 1, 1]
    assert per_hand["birds"].tolist() == [0, 0, 4]
    off = analysis.points_per_hand(Run.from_frames(games, wins, {**manifest, "options": {}}))
    assert off.columns.tolist() == ["pattern", "birds"]
    # recorded bird points are a source of their own: nothing is derived then
    recorded = games.assign(points_from_birds=[0, 0, 4])
    per_hand = analysis.points_per_hand(Run.from_frames(recorded, wins, manifest))
    assert per_hand.columns.tolist() == ["pattern", "birds"]


def test_the_entry_declares_labels_colours_and_metrics_of_its_own_sources():
    assert list(ANHUA.tier_colors) == list(TIER_NAMES)
    assert len(set(ANHUA.tier_colors.values())) == len(TIER_NAMES)
    sources = {"birds", "dealer_bonus"}
    assert set(ANHUA.metric_labels) == {f"points_{s}" for s in sources}
    assert set(ANHUA.figure_metrics) <= set(ANHUA.metric_labels)
    assert ANHUA.win_kinds[kernels.HOW_INSTANT] == "instant"


@pytest.mark.engine
@pytest.mark.parametrize("player_count", [3, 4])
def test_play_anhua_is_the_generic_play(player_count):
    from sim.play import play

    options = AnhuaOptions(player_count=player_count, first_dealer="random")
    mine = play_anhua(40, seed=2, options=options, hands_per_session=4)
    generic = play("anhua", 40, 2, {"player_count": player_count, "first_dealer": "random"}, 4)
    for a, b in zip(mine, generic, strict=True):
        pd.testing.assert_frame_equal(a, b)
