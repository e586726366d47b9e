"""Weng'an's columns of the games and wins frames (``sim.variants.wengan.frames``), computed from
its record slots: the declared feature bits are the hooks', each settlement source's net points
are zero-sum per hand (总分), a winner is ready (叫) and collects, a 报听 winner shows the 名堂
报听, the flips are the records', and the pattern names are the table's (牌型分).

Rules: docs/rules/wengan.md (贵州瓮安麻将): 牌型分, 名堂, 翻牌鸡, 总分.
"""

from __future__ import annotations

import numpy as np
import pytest

from sim.core.wall import shuffled_walls
from sim.kernels import record as R
from sim.variants import get_variant
from sim.variants.wengan import frames as F
from sim.variants.wengan import hooks as H
from sim.variants.wengan.patterns import PATTERN_NAMES
from sim.variants.wengan.record_slots import RW_FLIP, RW_KONGS


def test_the_frames_feature_bits_are_the_hooks():
    """frames keeps pure-Python copies of the feature bits (hooks compiles kernels)."""
    assert F.FEATURE_PATTERN == H.FEATURE_PATTERN
    hooks_bits = {
        "tian_hu": H.FEATURE_HEAVENLY,
        "di_hu": H.FEATURE_EARTHLY,
        "qiang_gang": H.FEATURE_ROB_KONG,
        "bao_ting": H.FEATURE_BAO_TING,
        "sha_ting": H.FEATURE_SHA_TING,
        "gang_kai": H.FEATURE_KONG_BLOOM,
        "re_pao": H.FEATURE_HOT_CANNON,
        "passport": H.FEATURE_PASSPORT,
    }
    assert {name: bit for bit, name, _ in F.MINGTANG} == hooks_bits


@pytest.fixture(scope="module", params=[4, 3, 2])
def frames(request):
    variant = get_variant("wengan")
    options = variant.options_class(player_count=request.param, qian_hou_fan_ji=True)
    walls = shuffled_walls(600, 108, 21)
    dealers = variant.first_dealers(75, options, 21)
    records = variant.play(options, walls, dealers, 8, (0,) * request.param, 21)
    games = variant.games_frame(records, options, 8)
    wins = variant.wins_frame(records, options)
    return request.param, records, games, wins


@pytest.mark.engine
def test_every_source_is_zero_sum_and_its_points_are_the_gains(frames):
    players, _, games, _ = frames
    for source, _, _ in F.SOURCES:
        net = games[[f"{source}_{s}" for s in range(players)]].to_numpy()
        assert (net.sum(axis=1) == 0).all(), source
        gains = np.where(net > 0, net, 0).sum(axis=1)
        assert (games[f"points_from_{source}"].to_numpy() == gains).all()
    assert games["points_from_chicken"].sum() > 0 and games["points_from_dou"].sum() > 0


@pytest.mark.engine
def test_winners_are_ready_and_their_names_come_from_the_tables(frames):
    _, records, games, wins = frames
    by_game = games.set_index("game")
    for row in wins.itertuples():
        assert by_game.loc[row.game, f"ready_{row.seat}"]
        assert row.bao_ting == by_game.loc[row.game, f"bao_ting_{row.seat}"]
        assert ("报听" in row.mingtang) == row.bao_ting
    codes = records[records[:, R.R_N_WINNERS] > 0][:, R.R_FEATURES] & F.FEATURE_PATTERN
    assert set(wins["pattern"].astype(str)) <= set(PATTERN_NAMES.values())
    assert wins["pattern"].astype(str).iloc[0] == PATTERN_NAMES[int(codes[0])]
    flipped = games["flip"].astype(str) != ""
    assert (flipped == (records[:, RW_FLIP] >= 0)).all()
    assert (flipped <= (games["outcome"] == "win")).all()
    assert (games["flip_tail"].astype(str) != "").any()
    kongs = games[[f"kongs_{name}" for name, _ in F.DOU_COLUMNS]].to_numpy()
    assert (kongs == records[:, RW_KONGS : RW_KONGS + 4]).all() and kongs.sum() > 0
