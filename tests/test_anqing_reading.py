"""Anqing's replay ``winner.reading`` (``sim.variants.anqing.reading``): for 300 logged hands of
``configs/anqing.toml`` the reading holds exactly the winner's concealed tiles (钻 as wilds,
red stand-ins at the 钻's face), the melds make up the rest of the 14, its groups are a legal
shape of its form, and the slow reference (``tests/reference/anqing.py``) scoring that reading
gives the winner's S and items."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from reference import anqing as QA
from reference.from_json import anqing_hand
from replay_runs import logged_run

from sim.core.tiles import kind_id, parse_hand

ANQING_RUNS = [(), ("options.lian_zhuang_cumulative=true",)]


def _reference_groups(reading: dict) -> tuple[QA.Group, ...]:
    return tuple(
        QA.Group(
            group["shape"],
            tuple(
                QA.Tile(kind_id(t["as"]), t["zuan"], kind_id(t["tile"].rstrip("*")))
                for t in group["tiles"]
            ),
        )
        for group in reading["groups"]
    )


def _legal_shape(form: str, groups: tuple[QA.Group, ...]) -> bool:
    kinds = [[tile.kind for tile in group.tiles] for group in groups]
    shapes = [group.shape for group in groups]
    if form == "seven_pairs":
        return len(groups) == 7 and all(
            s == "pair" and k[0] == k[1] for s, k in zip(shapes, kinds, strict=True)
        )
    if form == "shisanlan":
        singles = [k[0] for k in kinds]
        if shapes != ["single"] * 14 or len(set(singles)) != 14:
            return False
        for suit in range(3):
            ranks = sorted(k % 9 for k in singles if k // 9 == suit and k < 27)
            if any(b - a < 3 for a, b in itertools.pairwise(ranks)):
                return False
        return True
    if shapes.count("pair") != 1:
        return False
    for shape, k in zip(shapes, kinds, strict=True):
        if shape == "pair" and k[0] != k[1]:
            return False
        if shape == "tri" and not k[0] == k[1] == k[2]:
            return False
        if shape == "seq" and not (
            k[0] < 27 and k[0] % 9 <= 6 and k[1] == k[0] + 1 and k[2] == k[0] + 2
        ):
            return False
    return True


@pytest.mark.engine
@pytest.mark.parametrize("overrides", ANQING_RUNS, ids=["default", "lian_zhuang_cumulative"])
def test_the_anqing_reading_holds_the_winners_tiles_and_rescores_to_s(overrides):
    _, _, hands = logged_run("anqing", overrides)
    forms = Counter()
    for game, objects in enumerate(hands):
        hand = anqing_hand(objects)
        if hand.end is None:
            continue
        (winner,) = [o for o in objects if o["event"] == "winner"]
        reading = winner["reading"]
        win = hand.end.win
        zuan = win.zuan
        groups = _reference_groups(reading)
        tiles = [tile for group in groups for tile in group.tiles]
        # the winner's concealed tiles (W included), 钻 counted as wilds
        assert Counter((t.physical, t.zuan) for t in tiles) == Counter(win.tiles), game
        for tile in tiles:
            if tile.zuan:
                assert tile.physical == zuan, game
            elif tile.physical != tile.kind:  # only a 红中 standing for the 钻's face
                assert tile.physical == QA.RED and tile.kind == zuan, game
        sets = sum(meld.kind in QA.SET_MELDS for meld in win.melds)
        assert len(tiles) + 3 * sets == 14, game
        assert _legal_shape(reading["form"], groups), (game, reading)
        # the slow reference scores the reading (W on any tile it can be) to the winner's S
        best = None
        for placed in QA._placed(reading["form"], groups, win):
            if QA.legal(placed, win, hand.options):
                items = QA.items(placed, win, hand.options)
                if best is None or sum(p for _, p in items) > sum(p for _, p in best):
                    best = items
        assert best is not None, (game, reading)
        assert sum(p for _, p in best) == winner["points"], (game, reading)
        assert dict(best) == winner["items"], (game, reading)
        forms[reading["form"]] += 1
    assert forms["standard"] and forms["seven_pairs"], forms


@pytest.mark.parametrize(
    ("concealed", "winning_tile", "options"),
    [
        ("147m 369s 28p 5p* E S W N RD", "E", {}),
        ("147m 369s 28p 5p* E S W N RD", "E", {"shisanlan_honours_literal": True}),
        ("147m 258s 369p E S W N RD", "1m", {"shisanlan_honours_literal": True}),
        ("147m 369s 147p E S W N 5p*", "5p*", {}),
        ("11m 22m 33p 44s 55s 66s 7s 5p*", "7s", {}),
        ("11m 22m 33p 44s 66s 5p* 5p* 5p* 5p*", "1m", {}),
        ("11m 22m 33p 44s 66s RD 5p* 5p* 5p*", "RD", {"seven_pairs_allow_quad": True}),
        ("123m 456m 789s 11s RD 5p* 5p*", "5p*", {}),
    ],
)
def test_the_reading_of_a_hand_rescores_to_the_kernels_s(concealed, winning_tile, options):
    """Forms the logged runs rarely reach (十三烂, seven pairs of 钻): the kernel's S is the
    reference's, and the reading re-scores to it."""
    import numpy as np

    from sim.variants.anqing import AnqingOptions
    from sim.variants.anqing.reading import winning_reading

    options = AnqingOptions(**options)
    win = QA.AnqingWin(concealed=concealed, winning_tile=winning_tile, indicator="4p")
    expected = QA.score(win, options)
    parsed = parse_hand(concealed)
    hand = np.array(parsed.counts, np.int64)
    hand[win.zuan] += parsed.wilds
    tile, _ = QA.one_tile(winning_tile)
    melds = np.zeros((4, 3), np.int64)
    reading = winning_reading(hand, win.zuan, tile, melds, 0, 0, 0, 0, 0, False, options.params())
    if expected is None:
        assert reading is None
        return
    assert reading["form"] == expected.reading.form
    groups = _reference_groups(reading)
    assert _legal_shape(reading["form"], groups), reading
    scored = [
        QA.items(placed, win, options)
        for placed in QA._placed(reading["form"], groups, win)
        if QA.legal(placed, win, options)
    ]
    assert max(sum(p for _, p in items) for items in scored) == expected.total, reading
