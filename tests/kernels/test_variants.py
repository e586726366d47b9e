"""The variant interface (sim/kernels/variant_type.py): the contract between the engine and a
variant's hooks, checked on Anhua's.

* The win pre-check: every hand Anhua's win hook accepts, for every win kind and scoring
  option, passes ``moves.plausible_win`` with the variant's ``win_forms``. The engine asks the
  hook only about hands that pass, so a hand the pre-check rejected would be a missed win that
  no other test sees (the invariant grid re-scores the wins that happen, not the ones that do
  not). Random near-complete hands with kings (seed 安化七王麻将 docs/rules/anhua.md,
  王的确定: every copy of X and Y is a king), and a hypothesis property test.
* The engine plays through the hooks only: it names no variant, and a variant's marker is
  made only with every hook of the interface.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import numpy as np
import pytest
import strategies as S
from hypothesis import given, settings
from hypothesis import strategies as st
from numba.core import caching

from sim.core.tables import load_tables
from sim.kernels import engine as E
from sim.kernels import moves as M
from sim.kernels import state as GS
from sim.kernels import variant_type as VT
from sim.kernels._jit import DiskCacheOnFirstUse
from sim.variants.anhua import AnhuaOptions, kings_of
from sim.variants.anhua import engine as AE
from sim.variants.anhua import hooks as H
from sim.variants.anhua import scoring as K

pytestmark = pytest.mark.engine  # the variants' hooks, parts of their engines

KERNELS = Path(__file__).resolve().parents[2] / "sim" / "kernels"
ANHUA = Path(__file__).resolve().parents[2] / "sim" / "variants" / "anhua"
HOWS = (K.HOW_SELF_DRAW, K.HOW_DISCARD, K.HOW_ROB_KONG, K.HOW_KONG_BLOOM, K.HOW_KONG_CANNON)
OPTION_GRID = [
    AnhuaOptions(
        king_as_itself_is_hard=hard,
        king_tier_mode=tier_mode,
        seven_pairs_allow_quad=quads,
        king_as_itself_affects_eligibility=by_effective,
    ).params()
    for hard, tier_mode, quads, by_effective in itertools.product(
        (False, True), ("identical_sets", "count"), (True, False), (True, False)
    )
]


def _anhua_hand(counts, wilds, indicator, king_mode):
    """A state with seat 0 holding ``counts`` plus ``wilds`` kings on the king faces (every
    copy of a king kind is a king); None when a kind would exceed its copies in play."""
    x_kind, y_kind = kings_of(indicator, king_mode)
    hand = np.array(counts, np.int64)
    faces = [kind for kind in (x_kind, y_kind) if kind >= 0]
    for index in range(int(wilds)):
        hand[faces[index % len(faces)]] += 1
    limit = np.full(34, 4)
    limit[indicator] = 3  # the flipped indicator is out of play
    if (hand > limit).any():
        return None
    state = GS.new_state()
    GS.reset(state, np.zeros(108, np.int8), 4, 0)
    H.set_kings(state, x_kind, y_kind)
    for kind in np.flatnonzero(hand):
        for _ in range(hand[kind]):
            GS.give_tile(state, 0, int(kind))
    return state


def _accepted_wins_pass_the_pre_check(state, tables, forms):
    """For each win kind and option set the hook accepts: whether the pre-check passes."""
    plausible = M.plausible_win(state.keys[0], state.wild_count[0], -1, state.wild, forms, tables)
    accepted = 0
    for params, how in itertools.product(OPTION_GRID, HOWS):
        if H.win(AE.ANHUA, state, 0, how, -1, params, tables) != M.NO_WIN:
            assert plausible, (state.hands[0].tolist(), how, params.tolist())
            accepted += 1
    return accepted


def test_every_win_the_hook_accepts_passes_the_pre_check():
    """王 (docs/rules/anhua.md, 王的确定; 王代硬; 小七对; 二五八将) over random near-complete
    hands: no legal Anhua win is rejected by the four-lookup pre-check."""
    tables = load_tables()
    forms = H.WIN_FORMS
    rng = np.random.default_rng(20261130)
    counts, wilds = S.near_complete_batch(
        rng, 1500, 14, max_wilds=7, honours=False, forms=("standard", "seven_pairs")
    )
    hands_won = 0
    for row, n_wilds in zip(counts, wilds, strict=True):
        king_mode = ("seven_kings", "four_kings")[int(rng.integers(0, 2))]
        state = _anhua_hand(row, n_wilds, int(rng.integers(0, 27)), king_mode)
        if state is not None:
            hands_won += _accepted_wins_pass_the_pre_check(state, tables, forms) > 0
    assert hands_won > 300  # the check is not vacuous


@settings(max_examples=150, deadline=None)
@given(
    hand=S.near_complete_hands(
        size=14, max_changes=1, forms=("standard", "seven_pairs"), max_wilds=7, honours=False
    ),
    indicator=st.integers(0, 26),
    king_mode=st.sampled_from(("seven_kings", "four_kings")),
)
def test_property_pre_check_admits_every_win(hand, indicator, king_mode):
    counts, wilds = hand
    state = _anhua_hand(counts, wilds, indicator, king_mode)
    if state is not None:
        _accepted_wins_pass_the_pre_check(state, load_tables(), H.WIN_FORMS)


def test_engine_names_no_variant():
    """The loop reaches the rules only through the hooks: no variant module is imported by the
    engine, and no variant's hooks import the engine."""
    engine_source = (KERNELS / "engine.py").read_text()
    assert not re.search(r"\banhua\w*\b", engine_source.split('"""', 2)[2])
    hooks_source = (ANHUA / "hooks.py").read_text()
    assert not re.search(r"^from \.engine import|^from \. import engine", hooks_source, re.M)


def test_a_variant_marker_needs_every_hook_and_a_new_name():
    hooks = {name: getattr(H, name) for name in VT.HOOK_NAMES}
    with pytest.raises(TypeError, match=r"missing hooks \['win'\]"):
        VT.define_variant("incomplete", {k: v for k, v in hooks.items() if k != "win"})
    with pytest.raises(TypeError, match=r"unknown hooks \['winn'\]"):
        VT.define_variant("misspelt", {**hooks, "winn": H.win})
    with pytest.raises(ValueError, match="anhua is defined twice"):
        VT.define_variant("anhua", hooks)


def test_engine_is_compiled_only_inside_a_variant_entry():
    """The generic loop is never cached on its own (it is compiled into each variant's entry
    points, in that variant's cache folder); the entries are."""
    assert type(E.play_hand._cache).__name__ == "NullCache"
    assert isinstance(AE.play_hands._cache, DiskCacheOnFirstUse)
    assert isinstance(AE.play_hands._cache.made(), caching.FunctionCache)
