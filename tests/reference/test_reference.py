"""Tests of the reference evaluator itself.

Three kinds of checks:

* hand-checked cases (the reasoning is in the comments);
* literal brute force of the definitions in ``docs/evaluator.md`` on small cases (explicit wild
  assignments, explicit enumeration of every target hand) and consistency between functions;
* a cross-check against the ``mahjong`` package (riichi rules, no wilds), with the known
  definitional differences asserted rather than hidden.
"""

from __future__ import annotations

import itertools
import os
from functools import cache

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mahjong.agari import Agari
from mahjong.shanten import Shanten
from strategies import (
    complete_hands,
    edge_hands,
    hand_from_string,
    hands,
    near_complete_batch,
    near_complete_hands,
    random_hands,
    seven_pairs_hands,
    thirteen_unrelated_hands,
)

import reference as R
from reference import evaluator as E

# REFERENCE_EXAMPLES=5000 pytest tests/reference  for a long run
SETTINGS = settings(
    max_examples=int(os.environ.get("REFERENCE_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)

H = hand_from_string
TILES_258 = [9 * s + r - 1 for s in range(3) for r in (2, 5, 8)]


def n_of(hand) -> int:
    counts, wilds = hand
    return sum(counts) + wilds


# --------------------------------------------------------------------------------------------
# Hand-checked cases
# --------------------------------------------------------------------------------------------


def test_hand_from_string():
    counts, wilds = H("123m 55z", 2)
    assert counts[0] == counts[1] == counts[2] == 1 and counts[31] == 2 and wilds == 2
    assert sum(counts) == 5


def test_standard_basic():
    assert R.is_standard(*H("11m 123p 456p 789p 234s"))
    assert R.is_standard(*H("11m 123p"))  # n = 5: one set and a pair
    assert R.is_standard(*H("11z"))  # n = 2: the pair alone
    assert R.is_standard([0] * 34, 2)  # two wilds are a pair
    assert R.is_standard([0] * 34, 5)
    assert not R.is_standard([0] * 34, 3)  # n % 3 == 0
    assert not R.is_standard(*H("11m 123p 456p 789p 235s"))
    assert not R.is_standard(*H("11m 123p 456p 789p 23s"))  # 13 tiles
    assert not R.is_standard(*H("11m 567z"))  # honours have no sequences
    assert not R.is_standard(*H("11m 891m"))  # no wrap-around 8-9-1
    assert not R.is_standard(*H("11m 89m 1p"))  # no sequences across suits
    assert R.is_standard(*H("1112345678999m 5m"))  # nine gates + 5m


def test_standard_with_wilds():
    assert R.is_standard(*H("11m 123p 456p 789p 24s", 1))  # wild = 3s
    assert R.is_standard(*H("11m 123p 456p 789p 2s", 2))
    assert R.is_standard(*H("1m 123p 456p 789p 234s", 1))  # wild pairs with 1m
    assert R.is_standard(*H("123p 456p 789p 234s", 2))  # two wilds are the pair
    # six isolated tiles and eight wilds: five groups cannot hold six isolated naturals
    assert not R.is_standard(*H("19m 19p 12z", 8))
    # four isolated tiles + a natural pair: four sets of one natural and two wilds each
    assert R.is_standard(*H("19m 19p 11z", 8))
    assert not R.is_standard(*H("19m 19p 1z", 8))  # n = 13


def test_standard_wild_as_fifth_copy():
    # 1111m + wild as a fifth 1m: 111m + 11m(=1m+wild) pair, or 11m pair + 111m
    assert R.is_standard(*H("1111m", 1))
    assert R.is_standard(*H("1111m 123p 456p 789p", 1))
    # 1111z with one wild: 111z + (1z, wild) pair
    assert R.is_standard(*H("1111z", 1))
    assert not R.is_standard(*H("1111z 1m"))  # no fifth copy without a wild


def test_258_pair_rule():
    assert R.is_standard(*H("123m 456p 789s 234s 55m"), pair="258")
    assert not R.is_standard(*H("123m 456p 789s 234s 11m"), pair="258")
    assert R.is_standard(*H("123m 456p 789s 234s 11m"), pair="any")
    assert not R.is_standard(*H("123m 456p 789s 234s 11z"), pair="258")
    # two wilds: a free pair always qualifies
    assert R.is_standard(*H("123m 456p 789s 234s", 2), pair="258")
    assert R.is_standard([0] * 34, 2, pair="258")
    # a wild with a natural 2, 5 or 8 qualifies; with a 1 it does not
    assert R.is_standard(*H("123m 456p 789s 234s 5m", 1), pair="258")
    assert R.is_standard(*H("123m 456p 789s 234s 8p", 1), pair="258")
    assert not R.is_standard(*H("123m 456p 789s 234s 1z", 1), pair="258")
    # 1m + wild: as a pair 1m is not 2/5/8; 1m W 2m 3m ... no other split works
    assert not R.is_standard(*H("123m 456p 789s 234s 1m", 1), pair="258")
    assert R.is_standard(*H("123m 456p 789s 234s 1m", 1), pair="any")
    # 11m + 1 wild as 111m, pair 55p
    assert R.is_standard(*H("11m 55p 123s 456s 789s", 1), pair="258")


def test_seven_pairs():
    assert R.is_seven_pairs(*H("1122m 3344p 5566s 77z"))
    assert R.is_seven_pairs(*H("1111m 3344p 5566s 77z"), quads=True)
    assert not R.is_seven_pairs(*H("1111m 3344p 5566s 77z"), quads=False)
    assert not R.is_standard(*H("1111m 3344p 5566s 77z"))
    assert R.is_complete(*H("1111m 3344p 5566s 77z"), quads=True)
    assert not R.is_complete(*H("1111m 3344p 5566s 77z"), quads=False)
    assert not R.is_complete(*H("1122m 3344p 5566s 77z"), seven_pairs=False)
    # wilds pair singles or each other
    assert R.is_seven_pairs(*H("1122m 3344p 55s 6s 7z", 2))
    assert R.is_seven_pairs(*H("1122m 3344p 55s", 4))
    assert not R.is_seven_pairs(*H("1122m 3344p 5s 6s 7z 1p", 2))  # four singles, two wilds
    # a triplet + wild is two pairs of one kind: a quad
    assert R.is_seven_pairs(*H("111m 3344p 5566s 77z", 1), quads=True)
    assert not R.is_seven_pairs(*H("111m 3344p 5566s 77z", 1), quads=False)
    assert R.is_seven_pairs(*H("1122m 3344p 5566s 7z", 1))  # 7z + wild
    assert not R.is_seven_pairs(*H("1122m 3344p 5566s"))  # 12 tiles


def test_thirteen_unrelated():
    hand = H("147m 258p 39s 123456z")  # 3s and 9s differ by 6
    assert n_of(hand) == 14
    assert R.is_thirteen_unrelated(*hand)
    assert R.is_complete(*hand, thirteen=True)
    assert not R.is_complete(*hand)  # the form is not asked for by default
    assert not R.is_thirteen_unrelated(*H("147m 258p 38s 123455z"))  # 5z twice
    assert R.is_thirteen_unrelated(*H("147m 258p 38s 123457z"))
    assert not R.is_thirteen_unrelated(*H("147m 258p 35s 123456z"))  # 3s 5s differ by 2
    assert not R.is_thirteen_unrelated(*H("147m 258p 33s 123456z"))
    assert R.is_thirteen_unrelated(*H("147m 258p 369s 12345z"))  # 3 + 3 + 3 + 5 tiles
    # wilds fill slots: 6s (3-6-9) or an honour
    assert R.is_thirteen_unrelated(*H("147m 258p 39s 12345z", 1))
    assert R.is_thirteen_unrelated(*H("147m 258p 12345z", 3))
    assert R.is_thirteen_unrelated(*H("37m 258p 369s 123456z"))  # 2 + 3 + 3 + 6 tiles
    assert R.is_thirteen_unrelated(*H("37m 258p 369s 1234z", 2))  # wilds as honours
    # 3-7, 2-7, 3-8 admit no third rank in their suit: at most 2 + 2 + 2 + 7 = 13 tiles
    assert not R.is_thirteen_unrelated(*H("37m 27p 38s 1234567z", 1))
    assert R.shanten_thirteen(*H("37m 27p 38s 1234567z", 1)) == 0


def test_complete_is_or_of_forms():
    seven = H("1122m 3344p 5566s 77z")
    assert R.is_complete(*seven) and not R.is_complete(*seven, seven_pairs=False)
    # 112233m is both: 11 22 33 pairs or 123 123 sets
    both = H("112233m 445566p 77s")
    assert R.is_standard(*both) and R.is_seven_pairs(*both)


def test_shanten_known_values():
    scattered = H("147m 258p 369s 1234z")  # 13 tiles, pairwise unrelated
    # each of the 5 groups holds at most one of these tiles: T = 14 - 5 = 9, shanten 8
    assert R.shanten_standard(*scattered) == 8
    # 13 unrelated naturals + 1 honour to draw: ready
    assert R.shanten_thirteen(*scattered) == 0
    # 13 distinct kinds: seven pairs place 7, T = 7
    assert R.shanten_seven_pairs(*scattered) == 6
    assert R.shanten(*scattered) == 6
    assert R.shanten(*scattered, thirteen=True) == 0
    assert R.shanten(*scattered, seven_pairs=False) == 8
    hand = H("123m 456p 789s 1122z")  # two pair-shapes, one becomes a triplet
    assert R.shanten_standard(*hand) == 0
    assert R.shanten(*hand) == 0
    assert R.shanten(*H("123m 456p 789s 1122z", 0)) == 0
    assert R.shanten(*H("123m 456p 789s 112z", 2)) == -1
    assert R.shanten_standard(*H("11m 123p 456p 789p 234s")) == -1
    assert R.shanten_standard(*H("123m 456p 789s 111z 2z")) == 0  # 13, pair wait
    # six isolated tiles with eight wilds: five groups, one natural each: T = 9, W = 8
    assert R.shanten_standard(*H("19m 19p 12z", 8)) == 0
    assert R.shanten_standard([0] * 34, 8) == -1
    assert R.shanten_standard([0] * 34, 1) == 0  # n = 1: one wild, draw a pair partner
    assert R.shanten_standard([0] * 34, 2) == -1
    assert R.shanten_standard(*H("1z")) == 0
    assert R.shanten_standard(*H("12z")) == 0  # n = 2: a pair, one tile in place
    # n = 4: target 1 set + pair (5 slots), isolated tiles: 2 placed, T = 3
    assert R.shanten_standard(*H("19m 1z 5z")) == 2
    # seven pairs not applicable below 13 tiles
    assert R.shanten_seven_pairs(*H("11m 22p 3s")) == R.NOT_APPLICABLE
    assert R.shanten_thirteen(*H("11m 22p 3s")) == R.NOT_APPLICABLE
    assert R.shanten(*H("11m 22p 3s"), thirteen=True) == R.shanten_standard(*H("11m 22p 3s"))


def test_shanten_258():
    # 123m 456p 789s 234s 11m: pair 11m not 2/5/8: re-use both 1m as a broken group
    hand = H("123m 456p 789s 234s 11m")
    assert R.shanten_standard(*hand) == -1
    assert R.shanten_standard(*hand, pair="258") == 0
    assert R.shanten_standard(*H("123m 456p 789s 234s 1z", 1), pair="258") == 0
    assert R.shanten_standard(*H("123m 456p 789s 234s", 2), pair="258") == -1
    assert R.shanten_standard(*H("123m 456p 789s 234s 5p", 1), pair="258") == -1


def test_fifth_copy_targets():
    # 1111m + three sets: every completion needs a fifth 1m, so shanten 0 but no wait
    hand = H("1111m 234p 567p 888s")
    assert R.shanten_standard(*hand) == 0
    assert R.waits(*hand) == []
    counts, _ = hand
    assert R.is_standard(counts, 1)  # ... and a wild completes it (as the fifth 1m)


def test_waits():
    assert R.waits(*H("1112345678999m")) == list(range(9))  # nine gates
    assert R.waits(*H("123m 456p 789s 111z 2z")) == [28]
    assert R.waits(*H("123m 456p 789s 11z 23s")) == [18, 21]
    assert R.waits(*H("123m 456p 789s 11z 23s"), pair="258") == []
    assert R.waits(*H("123m 456p 789s 55m 23s"), pair="258") == [18, 21]
    # seven pairs wait, and a quad that cannot wait on itself
    six_pairs = H("1122m 3344p 5566s 7z")
    assert R.waits(*six_pairs) == [33]
    assert R.waits(*six_pairs, seven_pairs=False) == []
    # with a wild: any kind completes a 13-tile hand of 4 sets + wild
    assert R.waits(*H("123m 456p 789s 123s", 1)) == list(range(34))
    with pytest.raises(ValueError):
        R.waits(*H("11m 123p"))


def test_decompositions_examples():
    # 111222333m + 11p: triplets or three 123m sequences
    decs = R.decompositions(*H("111222333m 11p"))
    assert decs == {
        (("pair", 9, (9, 9)), ("tri", 0, (0, 0, 0)), ("tri", 1, (1, 1, 1)), ("tri", 2, (2, 2, 2))),
        (("pair", 9, (9, 9)), ("seq", 0, (0, 1, 2)), ("seq", 0, (0, 1, 2)), ("seq", 0, (0, 1, 2))),
    }
    # the example of docs/evaluator.md: 1m 1m with wilds around them (here with a 55p pair)
    decs = R.decompositions(*H("11m 555p", 3))
    assert (("free_set", -1, ()), ("pair", 0, (0, 0)), ("tri", 13, (13, 13, 13))) in decs
    decs = R.decompositions(*H("11m 55p", 4))
    assert (("free_set", -1, ()), ("pair", 13, (13, 13)), ("tri", 0, (0, 0))) in decs
    assert (("pair", 13, (13, 13)), ("tri", 0, (0,)), ("tri", 0, (0,))) in decs
    assert (("free_pair", -1, ()), ("tri", 0, (0, 0)), ("tri", 13, (13, 13))) in decs
    # free groups only
    assert R.decompositions([0] * 34, 5) == {(("free_pair", -1, ()), ("free_set", -1, ()))}
    assert R.decompositions(*H("11m 123p 456p 789p 235s")) == set()
    # 258: only the decompositions with a 2/5/8 or free pair
    decs_any = R.decompositions(*H("11m 22m 33m", 2))  # 8 tiles: 2 sets + pair
    decs_258 = R.decompositions(*H("11m 22m 33m", 2), pair="258")
    assert decs_258 and decs_258 < decs_any
    for dec in decs_258:
        (pair_group,) = [g for g in dec if g[0] in ("pair", "free_pair")]
        assert pair_group[0] == "free_pair" or pair_group[1] in TILES_258


def test_suit_oracles():
    one = [1] + [0] * 8
    assert R.wilds_needed_suit(one) == 2
    assert R.wilds_needed_suit(one, pair="any") == 1
    assert R.wilds_needed_suit(one, pair="258") == 4  # 1m + 2 wilds set, 2 wilds pair
    assert R.wilds_needed_suit([0] * 9) == 0
    assert R.wilds_needed_suit([0] * 9, pair="any") == 2
    assert R.wilds_needed_suit([0] * 9, pair="258") == 2
    assert R.wilds_needed_suit([1, 1, 1, 0, 0, 0, 0, 0, 0]) == 0
    assert R.wilds_needed_suit([1, 0, 1, 0, 0, 0, 0, 0, 1]) == 3  # 1(2)3 + 9(9)(9)
    assert R.wilds_needed_suit([2, 0, 0, 0, 0, 0, 0], honours=True) == 1
    assert R.wilds_needed_suit([2, 0, 0, 0, 0, 0, 0], honours=True, pair="any") == 0
    assert R.wilds_needed_suit([2, 0, 0, 0, 0, 0, 0], honours=True, pair="258") is None
    assert R.wilds_needed_suit([1, 1, 0, 0, 0, 0, 0], honours=True) == 4
    assert R.wilds_needed_suit([4, 0, 0, 0, 0, 0, 0, 0, 0], pair="any") == 1
    assert R.wilds_needed_suit([4, 0, 0, 0, 0, 0, 0, 0, 0]) == 2  # 111 + 1WW
    assert R.tiles_to_add_suit([1, 1, 0, 0, 0, 0, 0, 0, 0], 1, None) == 1
    assert R.tiles_to_add_suit([1, 1, 0, 0, 0, 0, 0, 0, 0], 0, "any") == 1
    assert R.tiles_to_add_suit([1, 1, 0, 0, 0, 0, 0, 0, 0], 0, "258") == 1  # 2m is a 2
    assert R.tiles_to_add_suit([1, 0, 1, 0, 0, 0, 0, 0, 0], 0, "258") == 2
    assert R.tiles_to_add_suit([1, 0, 1, 0, 0, 0, 0, 0, 0], 1, None) == 1
    assert R.tiles_to_add_suit([4, 0, 0, 0, 0, 0, 0, 0, 0], 2, None) == 2
    assert R.tiles_to_add_suit([4, 0, 0, 0, 0, 0, 0, 0, 0], 1, "any") == 1  # 111 + 1(1)
    assert R.tiles_to_add_suit([0] * 9, 4, "any") == 14
    assert R.tiles_to_add_suit([3, 0, 0, 0, 0, 0, 0], 0, None, honours=True) == 0
    assert R.tiles_to_add_suit([3, 0, 0, 0, 0, 0, 0], 0, "258", honours=True) is None
    assert R.tiles_to_add_suit([1, 1, 1, 0, 0, 0, 0], 1, None, honours=True) == 2


def test_input_validation():
    with pytest.raises(ValueError):
        R.is_standard([0] * 33, 2)
    with pytest.raises(ValueError):
        R.is_standard([5] + [0] * 33, 0)
    with pytest.raises(ValueError):
        R.is_standard([-1] + [0] * 33, 3)
    with pytest.raises(ValueError):
        R.is_standard([0] * 34, 9)
    with pytest.raises(ValueError):
        R.is_standard([0] * 34, -1)
    with pytest.raises(ValueError):
        R.is_standard([0.5] + [0] * 33, 2)
    with pytest.raises(ValueError):
        R.is_standard([0] * 34, 2, pair="369")
    with pytest.raises(ValueError):
        R.shanten(*H("123m"))  # n % 3 == 0
    with pytest.raises(ValueError):
        R.shanten(*H("123m 456m 789m 123p 456p"))  # 15 tiles
    with pytest.raises(ValueError):
        R.wilds_needed_suit([0] * 8)
    with pytest.raises(ValueError):
        R.tiles_to_add_suit([0] * 9, 5, None)
    # numpy input is fine
    counts = np.array(H("11m 123p")[0], dtype=np.uint8)
    assert R.is_standard(counts, np.uint8(0))


# --------------------------------------------------------------------------------------------
# Literal brute force of the definitions
# --------------------------------------------------------------------------------------------


def _plain_standard(counts: tuple[int, ...], need_pair: bool, pair_rule: str) -> bool:
    """Naturals only (any counts, also > 4): sets + one pair, the classic lowest-tile split."""

    @cache
    def ok(c: tuple[int, ...], need: bool) -> bool:
        t = next((i for i, x in enumerate(c) if x), None)
        if t is None:
            return not need
        lst = list(c)
        if need and c[t] >= 2 and (pair_rule == "any" or t in TILES_258):
            lst[t] -= 2
            if ok(tuple(lst), False):
                return True
            lst[t] += 2
        if c[t] >= 3:
            lst[t] -= 3
            if ok(tuple(lst), need):
                return True
            lst[t] += 3
        if t < 27 and t % 9 <= 6 and c[t + 1] and c[t + 2]:
            for k in (t, t + 1, t + 2):
                lst[k] -= 1
            if ok(tuple(lst), need):
                return True
        return False

    return ok(counts, need_pair)


def _standard_by_wild_assignment(counts, wilds, pair_rule) -> bool:
    """Complete iff the wilds can be given identities (any kinds, fifth copies too) making a
    natural complete hand."""
    if (sum(counts) + wilds) % 3 != 2:
        return False
    for kinds in itertools.combinations_with_replacement(range(34), wilds):
        c = list(counts)
        for k in kinds:
            c[k] += 1
        if _plain_standard(tuple(c), True, pair_rule):
            return True
    return False


@given(
    st.one_of(
        complete_hands(size=[2, 5, 8, 11, 14], max_wilds=2),
        near_complete_hands(size=[2, 5, 8, 11, 14], max_wilds=2),
        hands(size=[2, 5, 8], max_wilds=2),
    ),
    st.sampled_from(["any", "258"]),
)
@SETTINGS
def test_is_standard_matches_wild_assignment(hand, pair):
    counts, wilds = hand
    assert R.is_standard(counts, wilds, pair) == _standard_by_wild_assignment(counts, wilds, pair)


_SETS = [(k, k, k) for k in range(34)] + [(t, t + 1, t + 2) for t in range(27) if t % 9 <= 6]


@cache
def _target_matrix(n_sets: int, pair_rule: str) -> np.ndarray:
    """Count vectors of every standard target with ``n_sets`` sets and a pair."""
    set_vectors = np.zeros((len(_SETS), 34), dtype=np.int8)
    for i, tiles in enumerate(_SETS):
        for t in tiles:
            set_vectors[i, t] += 1
    combos = list(itertools.combinations_with_replacement(range(len(_SETS)), n_sets))
    combos = np.array(combos, dtype=np.int64).reshape(len(combos), n_sets)
    bases = set_vectors[combos].sum(axis=1, dtype=np.int8)  # (n_combos, 34)
    pair_kinds = list(range(34)) if pair_rule == "any" else TILES_258
    pairs = 2 * np.eye(34, dtype=np.int8)[pair_kinds]
    return (bases[:, None, :] + pairs[None, :, :]).reshape(-1, 34)


def _literal_standard_shanten(counts, wilds, pair_rule) -> int:
    n = sum(counts) + wilds
    targets = _target_matrix(n // 3, pair_rule)
    filled = np.minimum(targets, np.array(counts, dtype=np.int16)).sum(axis=1)
    t = int((3 * (n // 3) + 2 - filled).min())
    return max(0, t - wilds) - 1


@given(
    st.one_of(
        hands(size=[1, 2, 4, 5, 7, 8]),
        near_complete_hands(size=[1, 2, 4, 5, 7, 8]),
        complete_hands(size=[2, 5, 8]),
        edge_hands(size=[1, 2, 4, 5, 7, 8]),
    ),
    st.sampled_from(["any", "258"]),
)
@SETTINGS
def test_shanten_standard_matches_target_enumeration(hand, pair):
    counts, wilds = hand
    assert R.shanten_standard(counts, wilds, pair) == _literal_standard_shanten(counts, wilds, pair)


def test_shanten_standard_matches_target_enumeration_11_tiles():
    # three sets: ~30k set triples x pair kinds; a few hands only
    rng = np.random.default_rng(11)
    counts, wilds = random_hands(rng, 6, 10, max_wilds=2)
    c2, w2 = near_complete_batch(rng, 6, 10, max_wilds=2, forms=("standard",))
    for c, w in zip([*counts, *c2], [*wilds, *w2], strict=True):
        c = tuple(int(x) for x in c)
        assert R.shanten_standard(c, int(w)) == _literal_standard_shanten(c, int(w), "any")


@cache
def _thirteen_targets() -> np.ndarray:
    """Indicator rows of every 14-tile thirteen-unrelated hand (about 81,000)."""
    suit_sets = [
        ranks
        for size in range(4)
        for ranks in itertools.combinations(range(9), size)
        if all(b - a >= 3 for a, b in itertools.pairwise(ranks))
    ]
    rows = []
    for m, p, s in itertools.product(suit_sets, repeat=3):
        n_hon = 14 - len(m) - len(p) - len(s)
        if not 0 <= n_hon <= 7:
            continue
        base = np.zeros(34, dtype=bool)
        for suit, ranks in enumerate((m, p, s)):
            for r in ranks:
                base[9 * suit + r] = True
        for hon in itertools.combinations(range(27, 34), n_hon):
            row = base.copy()
            row[list(hon)] = True
            rows.append(row)
    return np.array(rows)


@given(
    st.one_of(
        hands(size=[13, 14]),
        thirteen_unrelated_hands(),
        near_complete_hands(size=[13, 14], forms=("thirteen",)),
    )
)
@SETTINGS
def test_thirteen_matches_target_enumeration(hand):
    counts, wilds = hand
    held = np.array(counts) > 0
    t = 14 - int((_thirteen_targets() & held).sum(axis=1).max())
    assert R.shanten_thirteen(counts, wilds) == max(0, t - wilds) - 1
    assert R.is_thirteen_unrelated(counts, wilds) == (n_of(hand) == 14 and t <= wilds)


def _literal_seven_pairs_t(counts, quads) -> int:
    """Targets: 7 pairs as a multiset of kinds (a kind at most twice with quads, else once);
    the naturals fill min(count, 2 * pairs of the kind) slots. Pairs of kinds not held fill
    nothing (and there are always enough such kinds), so only pairs on held kinds are listed."""
    best = 0
    held = [k for k in range(34) if counts[k]]
    max_rep = 2 if quads else 1
    for j in range(8):
        for pairs in itertools.combinations_with_replacement(held, j):
            if any(pairs.count(k) > max_rep for k in pairs):
                continue
            filled = sum(min(counts[k], 2 * pairs.count(k)) for k in set(pairs))
            best = max(best, filled)
    return 14 - best


@given(
    st.one_of(
        hands(size=[13, 14]),
        seven_pairs_hands(),
        near_complete_hands(size=[13, 14], forms=("seven_pairs",)),
    ),
    st.booleans(),
)
@settings(SETTINGS, max_examples=max(60, SETTINGS.max_examples // 3))
def test_seven_pairs_matches_target_enumeration(hand, quads):
    counts, wilds = hand
    if sum(1 for c in counts if c) > 9:  # keep the literal enumeration small
        return
    t = _literal_seven_pairs_t(counts, quads)
    assert R.shanten_seven_pairs(counts, wilds, quads) == max(0, t - wilds) - 1
    assert R.is_seven_pairs(counts, wilds, quads) == (n_of(hand) == 14 and t <= wilds)


# --------------------------------------------------------------------------------------------
# Consistency between the functions
# --------------------------------------------------------------------------------------------

ANY_HAND = st.one_of(
    hands(),
    complete_hands(),
    near_complete_hands(),
    near_complete_hands(size=[13, 14], forms=("standard", "seven_pairs", "thirteen")),
    seven_pairs_hands(),
    thirteen_unrelated_hands(),
    edge_hands(),
)


@given(ANY_HAND, st.sampled_from(["any", "258"]), st.booleans())
@SETTINGS
def test_complete_iff_shanten_minus_one(hand, pair, quads):
    counts, wilds = hand
    n = n_of(hand)
    if n % 3 == 0 or n > 14:
        return
    assert R.is_standard(counts, wilds, pair) == (R.shanten_standard(counts, wilds, pair) == -1)
    assert R.is_seven_pairs(counts, wilds, quads) == (
        R.shanten_seven_pairs(counts, wilds, quads) == -1
    )
    assert R.is_thirteen_unrelated(counts, wilds) == (R.shanten_thirteen(counts, wilds) == -1)
    for sp, th in itertools.product([False, True], repeat=2):
        assert R.is_complete(counts, wilds, pair, sp, quads, th) == (
            R.shanten(counts, wilds, pair, sp, quads, th) == -1
        )


@given(ANY_HAND, st.sampled_from(["any", "258"]))
@SETTINGS
def test_whole_hand_and_per_suit_placement_agree(hand, pair):
    counts = tuple(hand[0])
    for n_sets in range(5):
        assert E._max_placed(counts, n_sets, True, pair) == E._max_placed_by_suit(
            counts, n_sets, pair
        )


@given(ANY_HAND, st.sampled_from(["any", "258"]))
@SETTINGS
def test_decompositions_are_valid(hand, pair):
    counts, wilds = hand
    decs = R.decompositions(counts, wilds, pair)
    assert bool(decs) == R.is_standard(counts, wilds, pair)
    n = n_of(hand)
    for dec in decs:
        assert list(dec) == sorted(dec)
        n_sets = sum(g[0] in ("seq", "tri", "free_set") for g in dec)
        n_pairs = sum(g[0] in ("pair", "free_pair") for g in dec)
        assert (n_sets, n_pairs) == (n // 3, 1)
        placed = [0] * 34
        used_wilds = 0
        for kind, tile, naturals in dec:
            assert list(naturals) == sorted(naturals)
            if kind.startswith("free"):
                assert tile == -1 and naturals == ()
                used_wilds += 3 if kind == "free_set" else 2
                continue
            assert naturals, "a concrete group holds a natural"
            group = {
                "seq": (tile, tile + 1, tile + 2),
                "tri": (tile,) * 3,
                "pair": (tile,) * 2,
            }[kind]
            if kind == "seq":
                assert tile < 27 and tile % 9 <= 6
            if kind == "pair" and pair == "258":
                assert tile in TILES_258
            rest = list(group)
            for t in naturals:
                rest.remove(t)  # the naturals are a sub-multiset of the group
                placed[t] += 1
            used_wilds += len(rest)
        assert tuple(placed) == tuple(counts)
        assert used_wilds == wilds


def _literal_decompositions(counts, wilds, pair_rule) -> set:
    """Group-first enumeration: every multiset of ``n // 3`` set identities (concrete or free)
    and one pair identity, then every way to fill each concrete group with a non-empty natural
    sub-multiset of its tiles, keeping those that use exactly the hand's naturals and wilds."""
    n = sum(counts) + wilds
    if n % 3 != 2:
        return set()
    held = {k for k in range(34) if counts[k]}
    set_options = [("tri", k, (k, k, k)) for k in sorted(held)]
    set_options += [
        ("seq", t, (t, t + 1, t + 2)) for t in range(27) if t % 9 <= 6 and held & {t, t + 1, t + 2}
    ]
    set_options.append(("free_set", -1, ()))
    pair_options = [
        ("pair", k, (k, k)) for k in sorted(held) if pair_rule == "any" or k in TILES_258
    ]
    pair_options.append(("free_pair", -1, ()))

    def fillings(tiles):
        if not tiles:
            return [()]
        return sorted(
            {
                tuple(sorted(c))
                for r in range(1, len(tiles) + 1)
                for c in itertools.combinations(tiles, r)
            }
        )

    out = set()

    def fill(groups, i, left, used_wilds, chosen):
        if i == len(groups):
            if not any(left) and used_wilds == wilds:
                out.add(tuple(sorted(chosen)))
            return
        kind, first, tiles = groups[i]
        size = 2 if kind in ("pair", "free_pair") else 3
        for naturals in fillings(tiles):
            rest = list(left)
            for t in naturals:
                rest[t] -= 1
            if min(rest) < 0:
                continue
            fill(
                groups,
                i + 1,
                rest,
                used_wilds + size - len(naturals),
                [*chosen, (kind, first, naturals)],
            )

    for sets in itertools.combinations_with_replacement(set_options, n // 3):
        for p in pair_options:
            fill([*sets, p], 0, list(counts), 0, [])
    return out


@given(
    st.one_of(
        complete_hands(size=[2, 5, 8]),
        near_complete_hands(size=[2, 5, 8]),
        edge_hands(size=[2, 5, 8]),
    ),
    st.sampled_from(["any", "258"]),
)
@settings(SETTINGS, max_examples=max(60, SETTINGS.max_examples // 3))
def test_decompositions_match_group_enumeration(hand, pair):
    counts, wilds = hand
    assert R.decompositions(counts, wilds, pair) == _literal_decompositions(counts, wilds, pair)


@given(
    st.one_of(
        hands(size=[1, 4, 7, 10, 13]),
        near_complete_hands(size=[1, 4, 7, 10, 13]),
        near_complete_hands(size=13, forms=("seven_pairs", "thirteen")),
    ),
    st.sampled_from(["any", "258"]),
    st.booleans(),
    st.booleans(),
)
@SETTINGS
def test_waits_imply_ready(hand, pair, seven_pairs, thirteen):
    counts, wilds = hand
    w = R.waits(counts, wilds, pair, seven_pairs, True, thirteen)
    s = R.shanten(counts, wilds, pair, seven_pairs, True, thirteen)
    assert s >= 0
    if w:
        assert s == 0
    if s == 0 and max(counts) < 4:
        # ready: one target slot is left after the wilds; with no kind held four times its
        # kind can be drawn as a natural, so there is a wait
        assert w


# --------------------------------------------------------------------------------------------
# Cross-check against the `mahjong` package (riichi: no wilds, four copies per kind)
# --------------------------------------------------------------------------------------------


def _kokushi(counts) -> bool:
    orphans = [0, 8, 9, 17, 18, 26, *range(27, 34)]
    return (
        sum(counts) == 14
        and all(counts[k] >= 1 for k in orphans)
        and sum(counts[k] for k in orphans) == 14
    )


FORMS = ("standard", "standard", "seven_pairs", "thirteen")


def _batch(seed: int, n_tiles: int, size: int) -> list[tuple[int, ...]]:
    rng = np.random.default_rng(seed)
    c1, _ = near_complete_batch(rng, size, n_tiles, max_wilds=0, forms=FORMS, quads=False)
    c2, _ = random_hands(rng, size // 4, n_tiles, max_wilds=0)
    return [tuple(int(x) for x in row) for row in np.concatenate([c1, c2])]


def test_agari_matches_mahjong_package():
    # mahjong's is_agari: standard, or seven *distinct* pairs, or thirteen orphans (kokushi)
    hands_14 = _batch(1, 14, 3000)
    n_complete = 0
    for counts in hands_14:
        ours = R.is_standard(counts, 0) or R.is_seven_pairs(counts, 0, quads=False)
        n_complete += ours
        assert Agari.is_agari(list(counts)) == (ours or _kokushi(counts)), counts
    assert n_complete > 500


def test_regular_shanten_vs_mahjong_package():
    """Equal when no kind is held four times. With a quad, mahjong forbids the fifth copy
    (riichi) while our targets may hold one (docs/evaluator.md), so ours can only be lower."""
    differences = []
    for n_tiles, seed in ((13, 2), (14, 3), (10, 4), (8, 5)):
        for counts in _batch(seed, n_tiles, 1000):
            ours = R.shanten_standard(counts, 0)
            theirs = Shanten.calculate_shanten_for_regular_hand(list(counts))
            if max(counts) < 4:
                assert ours == theirs, counts
            else:
                assert ours <= theirs, counts
                if ours != theirs:
                    differences.append(counts)
    # the known example: 1111m 234p 567p 888s is ready here (a fifth 1m), 1-shanten there
    counts = H("1111m 234p 567p 888s")[0]
    assert R.shanten_standard(counts, 0) == 0
    assert Shanten.calculate_shanten_for_regular_hand(list(counts)) == 1
    for counts in differences:
        assert max(counts) == 4


def test_seven_pairs_shanten_vs_mahjong_package():
    # mahjong's chiitoitsu shanten counts distinct kinds: our quads=False
    for n_tiles, seed in ((13, 6), (14, 7)):
        for counts in _batch(seed, n_tiles, 1000):
            assert R.shanten_seven_pairs(counts, 0, quads=False) == (
                Shanten.calculate_shanten_for_chiitoitsu_hand(list(counts))
            ), counts
