"""Anhua scoring kernels (sim.kernels.anhua) against the slow reference (tests/reference/anhua).

Random complete and near-complete hands with kings, melds, every win kind and a grid of the
scoring options: the kernel and the reference agree on legality, bigs and features.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import strategies as S
from reference import anhua as R
from sampling import samples

from sim.variants import anhua as A

OPTION_GRID = [
    dict(
        zip(
            (
                "king_as_itself_is_hard",
                "king_tier_mode",
                "seven_pairs_allow_quad",
                "king_as_itself_affects_eligibility",
                "king_mode",
            ),
            values,
            strict=True,
        )
    )
    for values in itertools.product(
        (False, True),
        ("identical_sets", "count"),
        (True, False),
        (True, False),
        ("seven_kings", "four_kings"),
    )
]
HOWS = ("self_draw", "discard", "rob_kong", "kong_cannon")


def _as_anhua_hand(rng, counts, wilds, king_mode):
    """Turn a generated hand into an Anhua hand: pick an indicator, make every copy of the king
    kinds a king, give the generator's wilds king faces. None when the counts cannot fit."""
    indicator = int(rng.integers(0, 27))
    x_kind, y_kind = A.kings_of(indicator, king_mode)
    counts = counts.astype(np.int64).copy()
    kings = np.zeros(34, np.int64)
    for kind in (x_kind, y_kind):
        if kind >= 0:
            kings[kind] += counts[kind]
            counts[kind] = 0
    room = {y_kind: 4 - kings[y_kind]}
    if x_kind >= 0:
        room[x_kind] = 3 - kings[x_kind]
    elif counts.max() > 4:
        return None
    for _ in range(int(wilds)):
        open_faces = [kind for kind, left in room.items() if left > 0]
        if not open_faces:
            return None
        face = int(rng.choice(open_faces))
        kings[face] += 1
        room[face] -= 1
    if x_kind >= 0 and kings[x_kind] > 3:
        return None
    if kings[y_kind] > 4 or (counts + kings).max() > 4:
        return None
    return indicator, counts, kings


def _with_a_meld(rng, counts):
    """Move a natural triplet or sequence of the concealed hand into a meld, if there is one."""
    options = [("pong", k) for k in range(27) if counts[k] >= 3]
    options += [
        ("chi", k) for k in range(27) if k % 9 <= 6 and all(counts[k + j] for j in range(3))
    ]
    if not options:
        return counts, ()
    kind, tile = options[int(rng.integers(0, len(options)))]
    counts = counts.copy()
    for member in (tile,) * 3 if kind == "pong" else (tile, tile + 1, tile + 2):
        counts[member] -= 1
    return counts, ((kind, tile),)


def _compare(rng, naturals, kings, melds, indicator, options):
    held = np.flatnonzero(naturals + kings)
    winning = int(rng.choice(held))
    fast_options = A.AnhuaOptions(**options)
    for how in HOWS:
        if how != "self_draw" and kings[winning] and how in ("discard", "rob_kong", "kong_cannon"):
            continue  # a king is never won on (default option); the engine enforces it
        hand = R.AnhuaHand(
            naturals=tuple(int(x) for x in naturals),
            kings=tuple(int(x) for x in kings),
            melds=melds,
            win_kind=how,
            winning_tile=winning,
        )
        expected = R.score(hand, options)
        features = A.score(
            naturals + kings, indicator=indicator, how=how, melds=melds, options=fast_options
        )
        context = (
            np.flatnonzero(naturals).tolist(),
            naturals[naturals > 0].tolist(),
            {int(k): int(kings[k]) for k in np.flatnonzero(kings)},
            melds,
            how,
            indicator,
            options,
            expected,
            features is not None and A.feature_names(features),
        )
        if expected is None:
            assert features is None, context
            continue
        assert features is not None, context
        assert A.bigs(features) == expected.bigs, context
        assert set(A.feature_names(features)) == set(expected.features), context
        assert A.pattern_name(features) == expected.pattern, context


def _run(seed, n_hands, grid):
    rng = np.random.default_rng(seed)
    counts, wilds = S.near_complete_batch(
        rng,
        n_hands,
        14,
        max_wilds=7,
        honours=False,
        forms=("standard", "seven_pairs"),
        max_changes=1,
    )
    compared = 0
    for row, w in zip(counts, wilds, strict=True):
        options = grid[int(rng.integers(0, len(grid)))]
        made = _as_anhua_hand(rng, row, w, options["king_mode"])
        if made is None:
            continue
        indicator, naturals, kings = made
        melds = ()
        if rng.random() < 0.3:
            naturals, melds = _with_a_meld(rng, naturals)
        _compare(rng, naturals, kings, melds, indicator, options)
        compared += 1
    return compared


def test_kernel_agrees_with_reference_on_random_hands():
    assert _run(1, samples(600, 150), OPTION_GRID) > samples(300, 75)


@pytest.mark.slow
def test_kernel_agrees_with_reference_on_many_hands():
    assert _run(2, 4000, OPTION_GRID) > 2000
