"""sim.kernels.exact: the DP steps on hand-worked cases, the sampler, and the Anhua batch check
against the Python scorer."""

from __future__ import annotations

import numpy as np
from sampling import samples

from sim.core.tables import load_tables
from sim.core.wall import shuffled_walls
from sim.kernels import exact as kernels
from sim.variants.anhua import AnhuaOptions, kings_of, score, scoring

OVER = 9  # the "too many wilds" value of sim.analysis.exact


def _entries(*rows):
    """(tiles, sets, pair, half, count) columns as int64 arrays."""
    return [np.array(column, np.int64) for column in zip(*rows, strict=True)]


def test_convolve_forms_adds_sets_and_places_the_pair_once():
    # One group: empty (pair costs two wilds), or a lone 5 (sets: two wilds; pair: one), 4 ways.
    group = _entries((0, 0, 2, 0, 1), (1, 2, 1, 1, 4))
    state = np.zeros((3, OVER + 1, OVER + 1, OVER + 1), np.int64)
    state[0, 0, OVER, 0] = 1
    once = np.empty_like(state)
    kernels.convolve_forms(state, *group, once)
    assert once[0, 0, 2, 0] == 1 and once[1, 2, 1, 1] == 4
    assert once.sum() == 5
    twice = np.empty_like(state)
    kernels.convolve_forms(once, *group, twice)
    # two lone tiles in two groups: sets 2 + 2, the pair in either costs 2 + 1
    assert twice[2, 4, 3, 2] == 16
    # one lone tile: A = 2 whichever group holds it, B = min(2 + 2, 0 + 1) or min(1 + 0, 2 + 2)
    assert twice[1, 2, 1, 1] == 8
    assert twice[0, 0, 2, 0] == 1
    assert twice.sum() == 25


def test_convolve_forms_caps_at_too_many():
    state = np.zeros((15, 3, 3, 1), np.int64)
    state[0, 0, 2, 0] = 1
    out = np.empty_like(state)
    kernels.convolve_forms(state, *_entries((3, 5, 7, 0, 2)), out)
    assert out[3, 2, 2, 0] == 2  # both values beyond the last index land on it


def test_convolve_spread_sizes_takes_every_size_that_fits():
    state = np.zeros((15, 1 << kernels.N_SIZE_BITS), np.int64)
    state[0, 1] = 1  # total size 0
    out = np.empty_like(state)
    tiles, fits, count = (np.array([v], np.int64) for v in (2, 0b1100, 3))  # sizes 2 or 3
    kernels.convolve_spread_sizes(state, tiles, fits, count, out)
    assert out[2, 0b1100] == 3
    again = np.empty_like(state)
    kernels.convolve_spread_sizes(out, tiles, fits, count, again)
    assert again[4, 0b1110000] == 9  # totals 4, 5, 6
    none = np.empty_like(state)
    kernels.convolve_spread_sizes(state, tiles, np.zeros(1, np.int64), count, none)
    assert none.sum() == 0


def test_draw_prefixes_picks_by_the_uniforms():
    tiles = np.arange(10, dtype=np.int8)
    out = np.empty((3, 4), np.int8)
    uniforms = np.array([[0.0] * 4, [0.999999] * 4, [0.5] * 4])
    kernels.draw_prefixes(tiles, uniforms, out)
    assert out[0].tolist() == [0, 1, 2, 3]  # the next position each time
    assert len(set(out[1].tolist())) == 4 and len(set(out[2].tolist())) == 4
    assert tiles.tolist() == list(range(10))  # the caller's tiles are not shuffled


def test_count_kinds():
    out = np.full((2, 34), 7, np.uint8)
    kernels.count_kinds(np.array([[0, 0, 33], [5, 6, 5]], np.int8), out)
    assert out[0, 0] == 2 and out[0, 33] == 1 and out[1, 5] == 2 and out.sum() == 6


def test_anhua_legal_batch_agrees_with_the_scorer():
    """The batch check is ``score`` (§anhua-winning) with a self-draw, hand by hand; dealt hands
    are rarely complete, so near-complete hands are made by swapping in tiles of a won hand."""
    rng = np.random.default_rng(8)
    n_hands = samples(3000, 600)
    walls = shuffled_walls(n_hands, 108, seed=8)
    counts = np.zeros((n_hands, 34), np.uint8)
    for i, wall in enumerate(walls):
        np.add.at(counts[i], wall[:14], 1)
    won = np.bincount([1, 2, 3, 4, 4, 4, 10, 11, 12, 19, 20, 21, 22, 22], minlength=34)
    for i in range(0, n_hands, 2):  # half the hands: the won hand with one tile changed
        hand = won.copy()
        hand[rng.choice(np.flatnonzero(hand))] -= 1
        hand[rng.integers(27)] += 1
        if hand.max() <= 4:
            counts[i] = hand
    indicator = walls[:, 14].astype(np.int64)
    for mode in ("seven_kings", "four_kings"):
        options = AnhuaOptions(king_mode=mode)
        x_kind = np.array([kings_of(int(k), mode)[0] for k in indicator], np.int64)
        y_kind = np.array([kings_of(int(k), mode)[1] for k in indicator], np.int64)
        out = np.empty(n_hands, np.bool_)
        scoring.anhua_legal_batch(counts, x_kind, y_kind, options.params(), load_tables(), out)
        expected = [
            score(counts[i], indicator=int(indicator[i]), how="self_draw", options=options)
            is not None
            for i in range(n_hands)
        ]
        assert out.tolist() == expected
        assert n_hands // 60 < out.sum() < n_hands // 2
