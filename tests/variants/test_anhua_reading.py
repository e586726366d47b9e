"""Anhua's replay ``winner.reading`` (``sim.variants.anhua.reading``): for 300 logged hands of
each run below the reading holds exactly the winner's concealed tiles, each king either wild or a
natural tile of its own face (王代硬, §anhua-king-as-itself; a king won on from another seat,
§anhua-discarded-kings), its groups are a legal shape of its form (§anhua-hand-forms, the 2-5-8
pair of §anhua-pair-rule), and the slow reference (``tests/reference/anhua.py``) scoring that
reading, and no other, gives the winner's features and pattern points; built hands reach the
readings the logged runs rarely do."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from reference import anhua as HA
from reference.from_json import anhua_hand
from replay_runs import logged_run

from sim.core.tables import load_tables
from sim.core.tiles import kind_id, parse_hand
from sim.kernels import state as S
from sim.variants.anhua import HOW, AnhuaOptions, kings_of
from sim.variants.anhua.reading import winning_reading

READING_RUNS = [
    ("anhua-seven-kings", ()),
    ("anhua-four-kings", ("options.discarded_king_claimable_for_win=true",)),
    (
        "anhua-seven-kings",
        (
            "options.king_as_itself_is_hard=true",
            "options.king_as_itself_affects_eligibility=false",
            'options.king_tier_mode="count"',
            "options.seven_pairs_allow_quad=false",
        ),
    ),
    ("anhua-three-players", ("options.king_as_itself_is_hard=true",)),
]


def _legal_shape(form: str, groups: list[dict]) -> bool:
    """Seven pairs of one kind each, or sets and one pair (§anhua-hand-forms)."""
    kinds = [[kind_id(t["as"]) for t in group["tiles"]] for group in groups]
    shapes = [group["shape"] for group in groups]
    if form == "seven_pairs":
        return shapes == ["pair"] * 7 and all(k[0] == k[1] for k in kinds)
    if shapes.count("pair") != 1:
        return False
    for shape, k in zip(shapes, kinds, strict=True):
        if shape == "pair" and (len(k) != 2 or k[0] != k[1]):
            return False
        if shape == "tri" and (len(k) != 3 or not k[0] == k[1] == k[2]):
            return False
        if shape == "seq" and not (
            len(k) == 3 and k[0] % 9 <= 6 and k == [k[0] + j for j in (0, 1, 2)]
        ):
            return False
    return True


def _reference_score(reading: dict, won: HA.AnhuaHand, options: dict) -> HA.Score | None:
    """The reference's score of this one reading: its kings (the claimed one aside) as the
    completion's slots, the wild ones as the effective kings (§anhua-king-as-itself); None when
    the reference finds it illegal or ineligible."""
    tiles = [tile for group in reading["groups"] for tile in group["tiles"]]
    kings = [t for t in tiles if t["king"]]
    if won.claimed_king:  # the king won on is a natural tile of its face
        claimed = next(t for t in kings if not t["wild"] and kind_id(t["as"]) == won.winning_tile)
        kings.remove(claimed)
    faces = won.king_faces()
    slots = [kind_id(t["as"]) for t in kings]
    effective = [0] * HA.N_KINDS
    for t in kings:
        if t["wild"]:
            effective[kind_id(t["tile"].rstrip("*"))] += 1
    pair = next((g for g in reading["groups"] if g["shape"] == "pair"), None)
    completion = HA.Completion(
        reading["form"],
        tuple(sorted(HA.suit_of(s) for s in slots)),
        tuple(sorted(s for s in slots if s in faces)),
        reading["form"] == "standard" and HA.is_258(kind_id(pair["tiles"][0]["as"])),
    )
    scored = HA._candidate(won, completion, tuple(effective), HA.resolve_options(options))
    if scored is None or not HA.eligible(scored.king_class, won.win_kind):
        return None
    return scored


def _check_tiles(reading: dict, concealed: str, kinds: frozenset[int]) -> None:
    """The reading's physical tiles are the concealed ones; a natural tile stands for its own
    kind, a king not wild too, and every king is of a king kind."""
    tiles = [tile for group in reading["groups"] for tile in group["tiles"]]
    assert Counter(t["tile"] for t in tiles) == Counter(_names(concealed))
    for t in tiles:
        face = kind_id(t["tile"].rstrip("*"))
        assert t["king"] == (face in kinds) == t["tile"].endswith("*")
        assert t["king"] or not t["wild"]
        if not t["wild"]:
            assert t["as"] == t["tile"].rstrip("*")


def _names(concealed: str) -> list[str]:
    hand = parse_hand(concealed)
    names = []
    for kind in range(HA.N_SUITED):
        name = HA.tile_name(kind)
        names += [name] * int(hand.counts[kind]) + [name + "*"] * int(hand.wild_faces[kind])
    return names


@pytest.mark.engine
@pytest.mark.parametrize(("name", "overrides"), READING_RUNS)
def test_the_anhua_reading_holds_the_winners_tiles_and_rescores_to_the_pattern(name, overrides):
    _, _, hands = logged_run(name, overrides)
    seen = Counter()
    for game, objects in enumerate(hands):
        hand = anhua_hand(objects)
        winners = {o["seat"]: o for o in objects if o["event"] == "winner"}
        finals = {o["seat"]: o for o in objects if o["event"] == "final_hand"}
        for seat, won in hand.hands:
            reading = winners[seat]["reading"]
            if won.win_kind == "instant":
                assert reading is None, game
                continue
            _check_tiles(reading, finals[seat]["concealed"], hand.kings)
            size = sum(len(g["tiles"]) for g in reading["groups"])
            assert size + 3 * len(won.melds) == 14, game
            assert _legal_shape(reading["form"], reading["groups"]), (game, reading)
            scored = _reference_score(reading, won, hand.options)
            assert scored is not None, (game, seat, reading)
            assert scored.points == winners[seat]["pattern_points"], (game, seat, reading)
            assert list(scored.features) == winners[seat]["features"], (game, seat, reading)
            seen[reading["form"]] += 1
            seen["as_itself"] += any(
                t["king"] and not t["wild"] for g in reading["groups"] for t in g["tiles"]
            )
            seen["wild"] += any(t["wild"] for g in reading["groups"] for t in g["tiles"])
    assert seen["standard"] and seen["wild"], seen
    if overrides:  # 王代硬 on or a king won on: some king read as its own face
        assert seen["as_itself"], seen


def _read(concealed: str, indicator: str, how: str, tile: str, melds=(), **options):
    """The reading of a built win: kings of ``indicator`` (X its kind with seven kings, Y the
    next rank), ``melds`` as (type, first tile) rows."""
    opts = AnhuaOptions(**options)
    x_kind, y_kind = kings_of(kind_id(indicator), opts.king_mode)
    hand = parse_hand(concealed)
    rows = np.array([(kind, kind_id(first)) for kind, first in melds], np.int64).reshape(-1, 2)
    return winning_reading(
        (hand.counts + hand.wild_faces).astype(np.int64),
        rows,
        len(rows),
        x_kind,
        y_kind,
        HOW[how],
        kind_id(tile),
        opts.params(),
        load_tables(),
    )


def _as(reading: dict) -> list[list[str]]:
    return [[t["as"] for t in g["tiles"]] for g in reading["groups"]]


def _kings(reading: dict) -> list[dict]:
    return [t for g in reading["groups"] for t in g["tiles"] if t["king"]]


PONG = S.MELD_PONG


def test_a_king_counted_as_its_own_face_is_read_as_a_natural_tile():
    """王代硬 (§anhua-king-as-itself): kings 9s (X) and 1s (Y); with the king 1s counted as a
    natural 1s the hand is 硬庄 清一色 (two bigs, against 清一色 alone with the king wild), so the
    reading holds 1s* 2s 3s with the 1s* as itself; with the option off the king is wild."""
    hand = "1s* 23s 456s 678s 234s 55s"
    reading = _read(hand, "9s", "self_draw", "5s", king_as_itself_is_hard=True)
    assert reading["form"] == "standard"
    assert ["1s", "2s", "3s"] in _as(reading)
    assert _kings(reading) == [{"tile": "1s*", "as": "1s", "king": True, "wild": False}]
    (king,) = _kings(_read(hand, "9s", "self_draw", "5s"))
    assert king["wild"]


def test_kings_alone_stand_for_the_lowest_kinds_with_room():
    """Kings that no natural tile joins (§anhua-hand-forms) stand for the lowest kind with room
    for them (four copies of a kind at most, the melds' counted): here a set of 1m and, the hand
    being mixed, a 2-5-8 pair (§anhua-pair-rule 二五八将) of 5m, a pong of 2m leaving no room for
    a pair of 2m."""
    reading = _read(
        "5p 9s* 9s* 9s* 1s* 1s* 1s* 1s*", "9s", "self_draw", "5p", ((PONG, "2m"), (PONG, "3m"))
    )
    assert _as(reading) == [["5p"] * 3, ["1m"] * 3, ["5m"] * 2]
    assert all(t["wild"] for t in _kings(reading))


def test_a_flush_reads_its_free_pair_in_its_suit_within_four_copies():
    """清一色 (乱将, §anhua-pair-rule): a pair of kings alone may be any kind of the suit; the
    reading keeps every kind within four copies: the pongs of 2m and 3m and the tiles read as 1m,
    2m and 3m leave 4m the lowest kind with room."""
    reading = _read(
        "1m 2m 9s* 9s* 9s* 1s* 1s* 1s*", "9s", "self_draw", "1m", ((PONG, "2m"), (PONG, "3m"))
    )
    assert _as(reading)[-1] == ["4m", "4m"]
    seen = Counter(["2m"] * 3 + ["3m"] * 3 + [a for group in _as(reading) for a in group])
    assert max(seen.values()) <= 4


@pytest.mark.parametrize("quads", [True, False])
def test_seven_pairs_read_their_pairs_of_kings_where_there_is_room(quads):
    """小七对 (§anhua-hand-forms) with three kings 1s: one partners the odd 9p, the other two pair
    as the lowest kind with room: 1m again where four of a kind count as two pairs
    (``seven_pairs_allow_quad``), else 2m."""
    reading = _read(
        "11m 33m 55p 77p 22s 9p 1s* 1s* 1s*", "9s", "self_draw", "9p",
        seven_pairs_allow_quad=quads,
    )  # fmt: skip
    assert reading["form"] == "seven_pairs"
    pairs = [group[0] for group in _as(reading)]
    assert len(pairs) == 7 and "9p" in pairs
    assert pairs.count("1m") == (2 if quads else 1)
    assert ("2m" in pairs) != quads


def test_a_claimed_king_is_a_natural_tile_of_its_face():
    """§anhua-discarded-kings: a king won on from another seat (with
    ``discarded_king_claimable_for_win``) is one natural tile of its face, never wild."""
    reading = _read(
        "234m 567m 22p 456s 1s* 2s 3s", "9s", "discard", "1s",
        discarded_king_claimable_for_win=True, king_mode="four_kings",
    )  # fmt: skip
    assert _kings(reading) == [{"tile": "1s*", "as": "1s", "king": True, "wild": False}]


def test_the_instant_win_has_no_reading():
    """起手四王/七王 (§anhua-instant-king-win) is scored without a hand form: no reading."""
    assert _read("1s* 1s* 1s* 1s* 123m 456m 78p 9p", "9s", "instant", "1m") is None
