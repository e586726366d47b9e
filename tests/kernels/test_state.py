"""Game-state primitives: tile moves keep the evaluator keys and wild counts exact."""

from __future__ import annotations

import numpy as np
import pytest

from sim.core.wall import shuffled_walls
from sim.kernels import hand as hand_kernels
from sim.kernels import state as S


def _expected_keys(state, seat):
    naturals = state.hands[seat].astype(np.int64).copy()
    naturals[state.wild] = 0
    keys = np.empty(4, np.int64)
    hand_kernels.keys_from_counts(naturals, keys)
    return keys, int(state.hands[seat][state.wild].sum())


@pytest.mark.parametrize(("n_tiles", "n_players"), [(108, 4), (108, 3), (136, 4)])
def test_deal_conserves_tiles_and_sizes(n_tiles, n_players):
    state = S.new_state()
    for wall in shuffled_walls(20, n_tiles, 5):
        S.reset(state, wall, n_players, 1)
        S.deal(state, 13, 1)
        sizes = state.hands[:n_players].sum(axis=1)
        assert sizes.tolist() == [14 if seat == 1 else 13 for seat in range(n_players)]
        assert S.tiles_left(state) == n_tiles - 13 * n_players - 1
        expected = np.bincount(wall, minlength=34)
        np.testing.assert_array_equal(S.tiles_accounted(state), expected)


def test_keys_follow_random_tile_moves_and_wild_changes():
    rng = np.random.default_rng(9)
    state = S.new_state()
    S.reset(state, shuffled_walls(1, 136, 1)[0], 4, 0)
    S.deal(state, 13, 1)
    for step in range(3000):
        seat = int(rng.integers(0, 4))
        if step % 500 == 250:
            S.set_wild(state, int(rng.integers(0, 34)))
        held = np.flatnonzero(state.hands[seat])
        if rng.random() < 0.5 and held.size:
            S.take_tile(state, seat, int(rng.choice(held)))
        else:
            room = np.flatnonzero(state.hands[seat] < 4)
            S.give_tile(state, seat, int(rng.choice(room)))
        keys, wilds = _expected_keys(state, seat)
        np.testing.assert_array_equal(state.keys[seat], keys)
        assert state.wild_count[seat] == wilds
    assert state.wild.sum() >= 5


def test_wall_is_drawn_from_both_ends_until_empty():
    state = S.new_state()
    wall = np.arange(108, dtype=np.int64) % 27
    S.reset(state, wall.astype(np.int8), 4, 0)
    assert S.pop_front(state) == 0
    assert S.pop_back(state) == wall[-1]
    drawn = 2
    while S.pop_front(state) != -1:
        drawn += 1
    assert drawn == 108
    assert S.pop_back(state) == -1
    assert S.tiles_left(state) == 0


@pytest.mark.parametrize(("n_tiles", "n_players"), [(108, 2), (108, 3), (108, 4), (136, 4)])
def test_a_discard_pile_never_overflows(n_tiles, n_players):
    """add_discard has no bounds check: the history must hold every tile put in a pile (each
    tile at most once: a claimed discard leaves the pile), and the ledger's piles every tile
    one seat can put there. Each discard follows a wall draw, a claim or the dealer's 14th tile;
    kong reveals come from the wall. Bound: the wall after the deal and the flipped tile, plus
    four claims and one."""
    wall_after_deal = n_tiles - 13 * n_players - 1 - 1
    assert wall_after_deal + S.MAX_MELDS + 1 <= S.MAX_DISCARDS
    assert S.new_state().history.shape == (S.WALL_CAPACITY, 3)
    assert n_tiles <= S.WALL_CAPACITY


def test_the_piles_are_the_unclaimed_history_rows_in_order():
    """A claimed discard (``mark_claimed``) and a tile a hook takes (``claim_from_pile``) leave
    their seat's pile; the rest stay in the order discarded."""
    state = S.new_state()
    S.reset(state, (np.arange(108) % 27).astype(np.int8), 4, 0)
    for seat, kind in ((0, 3), (1, 5), (0, 7), (2, 3), (0, 3), (1, 9)):
        S.add_discard(state, seat, kind)
    S.mark_claimed(state, 3)  # seat 1's 9 claimed by seat 3
    S.claim_from_pile(state, 0, 3, 2)  # seat 0's last 3 taken by seat 2
    pile = np.zeros(S.WALL_CAPACITY, np.int64)
    assert pile[: S.pile(state, 0, pile)].tolist() == [3, 7]
    assert pile[: S.pile(state, 1, pile)].tolist() == [5]
    assert pile[: S.pile(state, 2, pile)].tolist() == [3]
    assert state.history[: state.scalars[S.N_HISTORY], 2].tolist() == [-1, -1, -1, -1, 2, 3]
    assert state.visible[3] == 2 and state.visible[9] == 1
