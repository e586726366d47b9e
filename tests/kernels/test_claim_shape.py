"""The engine's pre-check before it asks a variant for claims on a discard
(``sim.kernels.moves.claim_shape_held``): it may say yes where nothing can be claimed, never no
where the variant lists a claim. Checked against Anhua's listing (``claim_actions``: wins,
直杠, pongs and chis, 000_256f49c87fe6e891.txt 碰牌 / 吃牌 / 杠牌 / 点炮胡) on random positions:
hands of 1 to 13 tiles with kings in play, every discard kind, every offerer."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.kernels import moves as M
from sim.kernels import state as S
from sim.tables import load_tables
from sim.variants.anhua import AnhuaOptions
from sim.variants.anhua import engine as AE
from sim.variants.anhua import hooks as H
from sim.variants.anhua.scoring import king_y_kind

TABLES = load_tables()
PARAMS = AnhuaOptions().params()


def _position(seed: int, sizes: list[int], indicator: int):
    """Four seats dealt ``sizes`` tiles from a shuffled 108-tile wall, kings from ``indicator``."""
    rng = np.random.default_rng(seed)
    wall = rng.permutation(np.repeat(np.arange(27, dtype=np.int8), 4))
    state = S.new_state()
    S.reset(state, wall, 4, 0)
    H.set_kings(state, indicator, king_y_kind.py_func(indicator))
    for seat, size in enumerate(sizes):
        for _ in range(size):
            S.give_tile(state, seat, S.pop_front(state))
    return state


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    sizes=st.lists(st.sampled_from([1, 4, 7, 10, 13]), min_size=4, max_size=4),
    indicator=st.integers(0, 26),
)
def test_every_listed_claim_is_seen_by_the_precheck(seed, sizes, indicator):
    _claims_listed_and_seen(_position(seed, sizes, indicator))
    # a position where nobody holds a claim shape lists nothing and checks nothing: that is
    # not an error (small hands can hold no pair); the next test shows the check bites


def test_the_precheck_property_is_not_vacuous_on_full_hands():
    """Dealt 13-tile hands list claims, and the pre-check sees them (the property above is
    not satisfied by positions where nothing is ever listed)."""
    listed = sum(_claims_listed_and_seen(_position(seed, [13] * 4, 5)) for seed in range(3))
    assert listed > 0


def _claims_listed_and_seen(state) -> int:
    """Every seat's claims on every discard the variant lists, each seen by the engine's
    pre-check (``claim_shape_held``); returns how many were listed."""
    claims = np.zeros((S.MAX_SEATS, M.MAX_ACTIONS, M.N_ACTION_FIELDS), np.int64)
    n_claims = np.zeros(S.MAX_SEATS, np.int64)
    listed_anything = 0
    for offerer in range(4):
        for tile in range(27):
            n_claims[:] = 0
            AE.claim_actions(
                state, offerer, tile, M.HOW_DISCARD, -1, -1, PARAMS, TABLES, claims, n_claims
            )
            listed = int(n_claims.sum())
            held = M.claim_shape_held(
                state.hands, state.keys, state.wild_count, state.wild, H.WIN_FORMS, 4, offerer,
                tile, -1, -1, TABLES,
            )  # fmt: skip
            assert held or listed == 0, (offerer, tile, listed)
            listed_anything += listed
    return listed_anything


def _lone_hand_state(next_hand_kinds: list[int]):
    """Seat 1 (the next player of seat 0) holds ``next_hand_kinds``; the others hold honours-free
    far tiles that fit no claim on a low discard. No kings in play (the wild mask is empty)."""
    state = S.new_state()
    wall = np.repeat(np.arange(27, dtype=np.int8), 4)
    S.reset(state, wall, 4, 0)
    for kind in next_hand_kinds:
        S.give_tile(state, 1, kind)
    return state


def test_a_chi_shape_is_seen_at_every_rank_and_a_lone_neighbour_is_not():
    """吃牌 (000_256f49c87fe6e891.txt): the next player claims with the two other tiles of a
    sequence. The pre-check sees each of the three shapes at every rank where it exists, and
    a single neighbour (which makes no sequence) does not make the engine ask."""
    for suit in range(3):
        for rank in range(9):
            tile = suit * 9 + rank
            shapes = [(-2, -1), (-1, 1), (1, 2)]
            for low, high in shapes:
                if not (0 <= rank + low <= 8 and 0 <= rank + high <= 8):
                    continue
                state = _lone_hand_state([tile + low, tile + high])
                assert M.claim_shape_held(
                    state.hands, state.keys, state.wild_count, state.wild, H.WIN_FORMS, 4, 0,
                    tile, -1, -1, TABLES,
                ), (tile, low, high)  # fmt: skip
            for step in (-2, -1, 1, 2):
                if 0 <= rank + step <= 8:
                    state = _lone_hand_state([tile + step])
                    assert not M.claim_shape_held(
                        state.hands, state.keys, state.wild_count, state.wild, H.WIN_FORMS, 4,
                        0, tile, -1, -1, TABLES,
                    ), (tile, step)  # fmt: skip
