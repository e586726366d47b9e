"""sim.hand (the fast evaluator) against the slow reference in tests/reference.

The definitions both follow are in docs/evaluator.md. Fast tests here check a few thousand hands
and the hypothesis edge cases; ``test_hand_bulk.py`` (slow) checks 100,000+ hands.
"""

from __future__ import annotations

import numpy as np
import pytest
import reference as R
import strategies as S
from hypothesis import HealthCheck, given, settings
from sampling import samples

from sim import hand
from sim.core.tiles import parse_hand

FORM_CASES = [
    # (sim.hand keywords, reference keywords)
    ({"seven_pairs": False}, {"seven_pairs": False}),
    ({"pair": "258", "seven_pairs": False}, {"pair": "258", "seven_pairs": False}),
    ({"seven_pairs": True, "quads": True}, {"seven_pairs": True, "quads": True}),
    ({"seven_pairs": True, "quads": False}, {"seven_pairs": True, "quads": False}),
    (
        {"pair": "258", "seven_pairs": True, "thirteen": True},
        {"pair": "258", "seven_pairs": True, "thirteen": True},
    ),
]


def _as_tuple(counts) -> tuple[int, ...]:
    return tuple(int(x) for x in counts)


def check_hand_against_reference(counts, wilds: int) -> None:
    """Every query the fast evaluator answers for this hand equals the reference's answer."""
    wilds = int(wilds)
    natural = _as_tuple(counts)
    size = sum(natural) + wilds
    for fast_options, reference_options in FORM_CASES:
        if size % 3 == 2:
            assert hand.is_complete(counts, wilds, **fast_options) == R.is_complete(
                natural, wilds, **reference_options
            ), (natural, wilds, fast_options)
        if size % 3 in (1, 2):
            assert hand.shanten(counts, wilds, **fast_options) == R.shanten(
                natural, wilds, **reference_options
            ), (natural, wilds, fast_options)
        if size % 3 == 1:
            assert hand.waits(counts, wilds, **fast_options) == list(
                R.waits(natural, wilds, **reference_options)
            ), (natural, wilds, fast_options)
    if size % 3 in (1, 2):
        for form, reference_function in (
            ("standard", R.shanten_standard),
            ("seven_pairs", R.shanten_seven_pairs),
            ("thirteen", R.shanten_thirteen),
        ):
            assert hand.shanten(counts, wilds, form=form) == reference_function(natural, wilds)


def check_decompositions(counts, wilds: int, pair: str = "any") -> None:
    fast = hand.decompositions(counts, int(wilds), pair=pair)
    keys = [d.key() for d in fast]
    assert len(keys) == len(set(keys)), "a decomposition was listed twice"
    assert set(keys) == set(R.decompositions(_as_tuple(counts), int(wilds), pair=pair))


# ---------------------------------------------------------------------------------------------
# Documented examples and hand-checked cases


@pytest.mark.parametrize(
    ("text", "pair", "expected"),
    [
        ("123m 456m 789m 123p 55s", "258", True),
        ("123m 456m 789m 123p 11s", "258", False),
        ("123m 456m 789m 123p 11s", "any", True),
        ("123m 456m 789m 123p 5s 1m*", "258", True),  # the king pairs the 5s
        ("123m 456m 789m 123p 11m*", "258", True),  # two kings make a 2-5-8 pair
        ("123m 456m 789m 123p 1s 1m*", "258", False),  # a king with a 1s is a 1s pair
        ("111m 999m 111p 999p E E", "any", True),
        ("111m 999m 111p 999p E E", "258", False),  # honours are never 2-5-8
        ("123m 456m 789m 123p 5s", "any", False),  # 13 tiles: not a size that can be complete
    ],
)
def test_standard_form_examples(text, pair, expected):
    parsed = parse_hand(text)
    if parsed.n_tiles % 3 != 2:
        with pytest.raises(ValueError, match="cannot be complete"):
            hand.is_complete(parsed, pair=pair, seven_pairs=False)
        return
    assert hand.is_complete(parsed, pair=pair, seven_pairs=False) is expected


def test_fifth_copy_from_a_wild_completes():
    # 1111m + a wild as a fifth 1m: 111m 11m(wild) + 123p 456p 789p
    assert hand.is_complete("1111m 123p 456p 789p 5s*", seven_pairs=False)
    assert R.is_standard(_as_tuple(parse_hand("1111m 123p 456p 789p 5s*").counts), 1)


def test_no_wait_on_a_fifth_copy():
    # 1111m 234p 567p 789s: 13 tiles; 1m would be a fifth copy, so it is not a wait.
    waits = hand.waits("1111m 234p 567p 789s", seven_pairs=False)
    assert 0 not in waits


def test_seven_pairs_quads_option():
    text = "1111m 22p 33p 44s 55s 66s"
    assert hand.is_complete(text, quads=True)
    assert not hand.is_complete(text, quads=False)


def test_thirteen_unrelated():
    text = "147m 258p 39s E S W N RD GD"
    assert hand.is_complete(text, thirteen=True)
    assert not hand.is_complete(text, thirteen=False)
    assert hand.is_complete("147m 258p 38s E S W N RD GD", thirteen=True)  # 3s, 8s: 5 apart
    # 3s and 5s are only 2 apart
    assert not hand.is_complete("147m 258p 35s E S W N RD GD", thirteen=True)


def test_decompositions_report_what_wilds_stand_for():
    [only] = [
        d
        for d in hand.decompositions("123m 456m 789m 12p 55s 9s*")
        if d.pair.tiles == (hand.kind_name.__globals__["kind_id"]("5s"),) * 2
    ]
    assert [group.kind for group in only.groups].count("sequence") == 4
    assert int(only.wilds_as.sum()) == 1
    assert only.wilds_as[11] == 1  # the king stands for 3p


def test_free_groups():
    # 11m and three wilds (one set and the pair): the naturals are the pair, a triplet, or split.
    two_ones = np.eye(34, dtype=np.int64)[0] * 2
    decompositions = hand.decompositions(two_ones, 3)
    kinds = {tuple(sorted(g.kind for g in d.groups)) for d in decompositions}
    assert all(len(d.groups) == 2 for d in decompositions)
    assert ("free_set", "pair") in kinds  # 11m pair, three wilds any set
    assert ("free_pair", "triplet") in kinds  # 11m + a wild triplet, two wilds any pair
    assert ("pair", "sequence") in kinds  # 1m in 123m with two wilds, 1m + a wild as the pair
    check_decompositions(two_ones, 3)


# ---------------------------------------------------------------------------------------------
# Random and near-complete batches against the reference


@pytest.mark.parametrize("n_tiles", [14, 13, 11, 8, 5, 2])
def test_random_hands_agree_with_reference(n_tiles):
    rng = np.random.default_rng(100 + n_tiles)
    counts, wilds = S.random_hands(rng, samples(300, 60), n_tiles)
    for row, w in zip(counts, wilds, strict=True):
        check_hand_against_reference(row, w)


@pytest.mark.parametrize("n_tiles", [14, 13, 11, 10])
def test_near_complete_hands_agree_with_reference(n_tiles):
    rng = np.random.default_rng(200 + n_tiles)
    counts, wilds = S.near_complete_batch(rng, samples(300, 60), n_tiles)
    for row, w in zip(counts, wilds, strict=True):
        check_hand_against_reference(row, w)


def test_decompositions_agree_with_reference():
    rng = np.random.default_rng(7)
    for pair in ("any", "258"):
        counts, wilds = S.near_complete_batch(rng, samples(300, 80), 14, pair=pair, max_changes=0)
        for row, w in zip(counts, wilds, strict=True):
            check_decompositions(row, w, pair)


def test_batch_functions_equal_single_hand_functions():
    rng = np.random.default_rng(3)
    counts, wilds = S.near_complete_batch(rng, 2000, 14)
    for options in ({"seven_pairs": False}, {"pair": "258"}, {"thirteen": True, "quads": False}):
        batch = hand.is_complete_batch(counts, wilds, **options)
        single = [
            hand.is_complete(c, int(w), **options) for c, w in zip(counts, wilds, strict=True)
        ]
        assert batch.tolist() == single
        assert 0.05 < batch.mean() < 0.95  # the mix holds both outcomes
    counts13, wilds13 = S.near_complete_batch(rng, 2000, 13)
    for options in ({"seven_pairs": False}, {"thirteen": True}, {"pair": "258", "quads": False}):
        batch = hand.shanten_batch(counts13, wilds13, **options)
        single = [
            hand.shanten(c, int(w), **options) for c, w in zip(counts13, wilds13, strict=True)
        ]
        assert batch.tolist() == single


# ---------------------------------------------------------------------------------------------
# Hypothesis: the edges


def _unpack(generated) -> tuple[np.ndarray, int]:
    """Hypothesis strategies give ``(counts tuple, wilds)``."""
    counts, wilds = generated
    return np.array(counts, np.int64), int(wilds)


EDGE_SETTINGS = settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@EDGE_SETTINGS
@given(S.edge_hands())
def test_edge_hands_agree_with_reference(generated):
    counts, wilds = _unpack(generated)
    check_hand_against_reference(counts, wilds)
    if (counts.sum() + wilds) % 3 == 2:
        check_decompositions(counts, wilds)


@EDGE_SETTINGS
@given(S.wild_group_hands())
def test_wilds_forming_their_own_groups(generated):
    counts, wilds = _unpack(generated)
    check_hand_against_reference(counts, wilds)
    if (counts.sum() + wilds) % 3 == 2:
        check_decompositions(counts, wilds, "258")


@EDGE_SETTINGS
@given(S.wild_258_pair_hands())
def test_258_pairs_made_of_wilds(generated):
    check_hand_against_reference(*_unpack(generated))


@EDGE_SETTINGS
@given(S.quad_hands())
def test_quads(generated):
    check_hand_against_reference(*_unpack(generated))


@EDGE_SETTINGS
@given(S.empty_suit_hands())
def test_empty_suits(generated):
    check_hand_against_reference(*_unpack(generated))


@EDGE_SETTINGS
@given(S.honour_heavy_hands())
def test_honour_heavy(generated):
    check_hand_against_reference(*_unpack(generated))


# ---------------------------------------------------------------------------------------------
# The mahjong package as an outside oracle (no wilds; its seven pairs need distinct pairs)


def test_agrees_with_mahjong_package_agari():
    from mahjong.agari import Agari

    agari = Agari()
    rng = np.random.default_rng(11)
    random_counts, _ = S.random_hands(rng, 3000, 14, max_wilds=0)
    near_counts, _ = S.near_complete_batch(rng, 3000, 14, max_wilds=0, quads=False)
    counts = np.concatenate([random_counts, near_counts])
    ours = hand.is_complete_batch(counts, 0, seven_pairs=True, quads=False)
    theirs = np.array([agari.is_agari(row.tolist()) for row in counts])
    assert ours.sum() > 300  # enough complete hands to mean something (448 with this seed)
    np.testing.assert_array_equal(ours, theirs)


# ---------------------------------------------------------------------------------------------
# Bad input


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: hand.is_complete(np.zeros(33, np.int64)), "shape"),
        (lambda: hand.is_complete(np.full(34, 0.5)), "integers"),
        (lambda: hand.is_complete(np.eye(34, dtype=np.int64)[0] * 5, 0), "allowed 0-4"),
        (lambda: hand.is_complete(np.zeros(34, np.int64), -1), "allowed 0-8"),
        (lambda: hand.is_complete(np.zeros(34, np.int64), 9), "allowed 0-8"),
        (lambda: hand.is_complete("123m 456m 789m 123p 5s"), "cannot be complete"),
        (lambda: hand.is_complete("123m", pair="259"), "pair must be"),
        (lambda: hand.shanten("123m 456m 789m 123p 55s 5s"), "cannot be measured"),
        (lambda: hand.waits("123m 456m 789m 123p 55s"), "cannot be waiting"),
        (lambda: hand.shanten("123m 4m", form="pairs"), "form must be one of"),
        (lambda: hand.is_complete_batch(np.zeros((3, 33), np.uint8)), "shape"),
        (lambda: hand.is_complete_batch(np.full((2, 34), 5, np.uint8)), "hand 0"),
        (lambda: hand.is_complete_batch(np.zeros((2, 34), np.uint8), [2, 9]), "hand 1"),
        (lambda: hand.is_complete_batch(np.zeros((2, 34), np.uint8), [2, 1]), "hand 1 has 1"),
        (lambda: hand.shanten_batch(np.zeros((2, 34), np.uint8), [1, 3]), "hand 1 has 3"),
        (lambda: hand.is_complete_batch(np.zeros((2, 34), np.uint8), [2, 2, 2]), "wilds must"),
    ],
)
def test_bad_input_is_named(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_wilds_given_twice_is_an_error():
    with pytest.raises(TypeError, match="wilds"):
        hand.is_complete("123m 456m 789m 123p 5s 5s*", 1)
