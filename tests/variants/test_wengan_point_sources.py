"""Weng'an's records split every point of a hand by source (``record_slots.POINT_SOURCES``): 牌型分
(the hand payments T), 连庄 / 一口二, 热炮, 杀听, chickens, dou, 包, 查叫, 原缺. Each settlement
item kind has exactly one source after a win and after a 荒庄, so over thousands of hands under
several option sets every seat's sources sum to its score change, each source is zero-sum, and
the sources the win's bonuses gained (热炮, 杀听, 连庄) are seen to move points.

Rules: docs/rules/wengan.md (贵州瓮安麻将): 总分 (胡牌牌型分 + 杠上花 + 鸡分 + 豆分 +
连庄, × 底分); 热炮; 杀听; 连庄 / 一口二; 原缺.
"""

from __future__ import annotations

import numpy as np
import pytest

from sim.core.wall import shuffled_walls
from sim.variants import get_variant
from sim.variants.wengan import frames as F
from sim.variants.wengan import settle as SE
from sim.variants.wengan.record_slots import POINT_SOURCES, source_of_items

OPTION_SETS = {
    "defaults-4p": {},
    "lian_zhuang-3p-stake2": {
        "player_count": 3,
        "dealer_bonus_mode": "lian_zhuang",
        "base_stake": 2,
        "sha_ting_payer": "all_payers",
    },
    "yi_kou_er-2p-no-burn": {
        "player_count": 2,
        "dealer_bonus_mode": "yi_kou_er",
        "huang_zhuang_burn": False,
        "huang_zhuang_no_bao": False,
    },
    "lian_zhuang-4p-scoring-kong": {
        "dealer_bonus_mode": "lian_zhuang",
        "lian_zhuang_counts_draws": True,
        "passport_kinds": "scoring_kong",
        "multi_ron": False,
        "mingtang_bonus_mode": "total_9_plus_10",
    },
}
HANDS = 2000
ITEM_IDS = tuple(english for english, _ in SE.ITEM_KINDS)


def test_every_item_kind_has_one_source_after_a_win_and_after_a_draw():
    """The declaration covers each item kind that can arise: after a win all but 查叫, after a
    荒庄 all but the win's own (牌型分, 热炮, 杀听); a 荒庄's dealer bonus is part of 查叫."""
    on_win = source_of_items(ITEM_IDS, on_draw=False)
    on_draw = source_of_items(ITEM_IDS, on_draw=True)
    names = [source.name for source in POINT_SOURCES]
    assert [item for item, s in zip(ITEM_IDS, on_win, strict=True) if s < 0] == ["cha_jiao"]
    never_on_draw = [item for item, s in zip(ITEM_IDS, on_draw, strict=True) if s < 0]
    assert never_on_draw == ["pattern", "hot_cannon", "sha_ting"]
    assert names[on_draw[ITEM_IDS.index("dealer_bonus")]] == "cha_jiao"
    assert names[on_win[ITEM_IDS.index("dealer_bonus")]] == "dealer_bonus"
    claimed = [item for source in POINT_SOURCES for item in source.on_win]
    assert len(claimed) == len(set(claimed))  # no item in two sources
    assert [name for name, _, _ in F.SOURCES] == names


@pytest.fixture(scope="module", params=list(OPTION_SETS))
def played(request):
    variant = get_variant("wengan")
    options = variant.options_class(**OPTION_SETS[request.param])
    players = options.player_count
    walls = shuffled_walls(HANDS, 108, 2026)
    dealers = variant.first_dealers(HANDS // 8, options, 2026)
    agents = (0, 1, 0, 0)[:players]  # a random agent passes wins and kongs late
    records = variant.play(options, walls, dealers, 8, agents, 2026)
    return request.param, options, variant.games_frame(records, options, 8)


@pytest.mark.engine
def test_every_seats_sources_sum_to_its_score_change(played):
    """总分: a seat's net points from the nine sources are its delta, hand by hand."""
    _, options, games = played
    for seat in range(options.player_count):
        summed = sum(games[f"{source.name}_{seat}"].to_numpy() for source in POINT_SOURCES)
        np.testing.assert_array_equal(summed, games[f"delta_{seat}"].to_numpy())


@pytest.mark.engine
def test_each_source_is_zero_sum_and_the_bonuses_move_points(played):
    """Each source's nets cancel per hand; 牌型分 and, over the run, 热炮 and 杀听 moved points,
    and 连庄 / 一口二 where on (not where off); with 底分 2 every source but 原缺 is even."""
    name, options, games = played
    players = options.player_count
    for source in POINT_SOURCES:
        net = games[[f"{source.name}_{s}" for s in range(players)]].to_numpy()
        assert (net.sum(axis=1) == 0).all(), source.name
        if options.base_stake == 2 and source.name != "yuan_que":
            assert (net % 2 == 0).all(), source.name
    moved = {source.name: games[f"points_from_{source.name}"].sum() for source in POINT_SOURCES}
    assert moved["pattern"] > 0 and moved["hot_cannon"] > 0 and moved["sha_ting"] > 0, moved
    assert (moved["dealer_bonus"] > 0) == (options.dealer_bonus_mode != "none"), name
