"""The engine's pre-check before it asks a variant for claims on a discard
(``sim.kernels.moves.claim_shape_held``): it may say yes where nothing can be claimed, never no
where the variant lists a claim. Checked against Anhua's listing (``claim_actions``: wins,
直杠, pongs and chis, docs/rules/anhua.md 碰牌 / 吃牌 / 杠牌 / 点炮胡) on random positions:
hands of 1 to 13 tiles with kings in play, every discard kind, every offerer."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.core.tables import load_tables
from sim.kernels import moves as M
from sim.kernels import state as S
from sim.variants.anhua import AnhuaOptions
from sim.variants.anhua import engine as AE
from sim.variants.anhua import hooks as H
from sim.variants.anhua.scoring import king_y_kind

pytestmark = pytest.mark.engine  # the variants' claim lists and pre-checks, parts of their engines

TABLES = load_tables()
PARAMS = AnhuaOptions().params()


def _position(seed: int, sizes: list[int], indicator: int | None):
    """Four seats dealt ``sizes`` tiles from a shuffled 108-tile wall, kings from ``indicator``
    (None: no wilds, as in Weng'an)."""
    rng = np.random.default_rng(seed)
    wall = rng.permutation(np.repeat(np.arange(27, dtype=np.int8), 4))
    state = S.new_state()
    S.reset(state, wall, 4, 0)
    if indicator is not None:
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
    listed = sum(_claims_listed_and_seen(_position(seed, [13] * 4, 5))[0] for seed in range(3))
    assert listed > 0


def _claims_listed_and_seen(
    state, claim_actions=AE.claim_actions, params=PARAMS, forms=H.WIN_FORMS, chi=True
) -> tuple[int, int]:
    """Every seat's claims on every discard the variant lists (``claim_actions``), each seen
    by the engine's pre-check (``claim_shape_held``, with the chi shape or without); returns
    how many claims were listed, and on how many offers the pre-check without the chi shape
    said no where with it it would have said yes (0 when ``chi``)."""
    claims = np.zeros((S.MAX_SEATS, M.MAX_ACTIONS, M.N_ACTION_FIELDS), np.int64)
    n_claims = np.zeros(S.MAX_SEATS, np.int64)
    listed_anything = 0
    skipped = 0
    for offerer in range(4):
        for tile in range(27):
            n_claims[:] = 0
            claim_actions(
                state, offerer, tile, M.HOW_DISCARD, -1, -1, params, TABLES, claims, n_claims
            )
            listed = int(n_claims.sum())
            shape = (
                state.hands, state.keys, state.wild_count, state.wild, forms, 4, offerer, tile,
                -1, -1, TABLES,
            )  # fmt: skip
            held = M.claim_shape_held(*shape, chi)
            assert held or listed == 0, (offerer, tile, listed)
            skipped += not chi and not held and M.claim_shape_held(*shape, True)
            listed_anything += listed
    return listed_anything, skipped


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
    """吃牌 (docs/rules/anhua.md): the next player claims with the two other tiles of a
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


def test_wengan_lists_no_chi_and_its_precheck_skips_the_chi_shape_only():
    """Weng'an has no chi (docs/rules/wengan.md, §wengan-claims: 不可以吃), so its
    ``lists_chi`` hook is False and the pre-check skips the chi shape; it still sees every win,
    直杠 (点豆) and pong Weng'an lists, on dealt positions of every size."""
    from sim.variants.anhua.engine import ANHUA
    from sim.variants.anqing.engine import ANQING
    from sim.variants.wengan import WenganOptions
    from sim.variants.wengan import engine as WE
    from sim.variants.wengan import hooks as WH
    from sim.variants.wengan.engine import WENGAN

    assert not WH.lists_chi(WENGAN)
    assert H.lists_chi(ANHUA)
    from sim.variants.anqing import hooks as QH

    assert QH.lists_chi(ANQING)
    params = WenganOptions().params()
    listed_anything = 0
    skipped = 0
    for seed in range(6):
        sizes = [13, 13, 13, 13] if seed < 3 else [13, 10, 7, 4]
        listed, skips = _claims_listed_and_seen(
            _position(seed, sizes, None), WE.claim_actions, params, WH.WIN_FORMS, chi=False
        )
        listed_anything += listed
        skipped += skips
    assert listed_anything > 0  # the property is not vacuous
    assert skipped > 0  # and the chi shape alone is common: the listings saved
