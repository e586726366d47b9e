"""Anqing options that no worked-example test varied, each shown to change the outcome as
§anqing-options says: the same position played through the engine's steps
(``tests/anqing_steps.py``) or the same hand scored by the kernels under two or more values of one
option. ``test_anqing_option_coverage.py`` maps every declared option to the tests that vary it.

Rules: docs/rules/anqing.md (安庆麻将); each test names the rule it checks (its id in
the rules reference and its Chinese name). Indicator ``4p``: the 钻 is ``5p``.
"""

from __future__ import annotations

import numpy as np
import pytest
from anqing_steps import Table

from sim.kernels import state as S
from sim.kernels.record import R_NEXT_DEALER
from sim.variants.anqing import AnqingOptions, session_first_dealers

pytestmark = pytest.mark.engine  # Anqing's engine under its options

CHI = S.MELD_CHI
SINGLE = S.MELD_SINGLE_KONG


def test_first_dealer():
    """起庄 (§anqing-next-dealer, §anqing-option-first-dealer ``first_dealer``): seat 0 opens every
    session with ``seat0``; rolled, every seat opens some."""
    fixed = session_first_dealers(200, AnqingOptions(first_dealer="seat0"), 3)
    rolled = session_first_dealers(200, AnqingOptions(first_dealer="random"), 3)
    assert set(fixed.tolist()) == {0}
    assert set(rolled.tolist()) == {0, 1, 2, 3}


@pytest.mark.parametrize(("rule", "next_dealer"), [("rotate", 1), ("winner", 2)])
def test_next_dealer_rule(rule, next_dealer):
    """定庄 (§anqing-next-dealer, §anqing-option-next-dealer-rule ``next_dealer_rule``,
    §anqing-reading-dealer-rotation): seat 2 wins against dealer 0: the deal passes to seat 1
    (rotate) or to the winner; the dealer winning keeps it either way."""
    table = Table({2: "123m 456s 789m 234p 5p"}, next_dealer_rule=rule)
    table.self_draw(2, "8s")
    assert table.record[R_NEXT_DEALER] == next_dealer
    kept = Table({0: "123m 456s 789m 234p 5p"}, next_dealer_rule=rule)
    kept.self_draw(0, "8s")
    assert kept.record[R_NEXT_DEALER] == 0


@pytest.mark.parametrize(("extra", "dealer_pays"), [(3, 7), (0, 4), (5, 9)])
def test_dealer_extra(extra, dealer_pays):
    """庄家额外 (§anqing-payments, §anqing-option-dealer-extra ``dealer_extra``): §anqing-example-1
    (S = 4): the dealer pays 4 + the extra."""
    table = Table({1: "45s 789p E E E 22m"}, dealer_extra=extra)
    table.meld(1, CHI, "1m", 0)
    table.self_draw(1, "6s")
    assert table.nets() == [-dealer_pays, dealer_pays + 8, -4, -4]


@pytest.mark.parametrize(("points", "total"), [(1, 27), (0, 25), (2, 29)])
def test_single_kong_points(points, total):
    """单张杠 (§anqing-score-table item 20, §anqing-option-single-kong-points
    ``single_kong_points``, §anqing-reading-kong-points): §anqing-example-7's two 杠牌 kongs are
    worth 1 each by default (S = 27), 0 or 2 each under the option."""
    table = Table({3: "123m 678s 234p S S S 9m"}, single_kong_points=points)
    table.draw(3, "GD")
    table.kong(3, "GD", SINGLE)
    table.draw(3, "WD", replacement=True)
    table.kong(3, "WD", SINGLE)
    table.self_draw(3, "9m", replacement=True)
    assert table.total() == total


@pytest.mark.parametrize(("definition", "total"), [("decomposition", 15), ("unique_wait", 9)])
def test_pao_feng_definition(definition, total):
    """跑风 (§anqing-zuan-conditions, §anqing-option-pao-feng-definition ``pao_feng_definition``,
    §anqing-reading-pao-feng): 1234m waits on 1m or 4m; the drawn 4m pairs (跑风 by decomposition: 3
    + 门清 3 + 门清（硬） 3 + 跑风 6 = 15), but the wait was not single (unique_wait: 9)."""
    table = Table({0: "1234m 456s 789p 234p"}, pao_feng_definition=definition)
    table.self_draw(0, "4m")
    assert table.total() == total


@pytest.mark.parametrize(("counts", "wins"), [(True, True), (False, False)])
def test_jian_zi_hu_red_counts(counts, wins):
    """见字胡 红中 (§anqing-zuan-conditions, §anqing-option-jian-zi-hu-red-counts
    ``jian_zi_hu_red_counts``, §anqing-reading-jian-zi-hu): holding a kept 钻 (Z, no D), a drawn
    红中 standing for the suited face 5p wins as 见字胡 only while the option is on."""
    table = Table({2: "123m 456s 789m 234p 5p"}, jian_zi_hu_red_counts=counts)
    won = table.self_draw(2, "RD")
    assert (won is not None) == wins
    if wins:
        assert table.nets()[2] == 39  # 跑风 (the pair) + 门清 + base, as §anqing-example-2a


def test_player_count_is_four_only():
    """四个人才能玩 (§anqing-players, ``player_count``): four players; any other count is
    refused."""
    assert AnqingOptions().player_count == 4
    with pytest.raises(ValueError, match="player_count"):
        AnqingOptions(player_count=3)
    assert np.all(AnqingOptions().params() == AnqingOptions(player_count=4).params())
