"""``hand.hand_shanten``, the single-hand shanten without arrays (the value agent's questions),
agrees with the slow reference evaluator and with ``shanten_many`` (whose body it repeats), over
every form and option, hands of every size, with and without wilds."""

from __future__ import annotations

import numpy as np
import strategies as S
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import evaluator as R

from sim.core.tables import load_tables
from sim.kernels import hand as K


def _forms(pair_258: bool, seven_pairs: bool, quads: bool, thirteen: bool) -> int:
    return (
        K.FORM_STANDARD
        | (K.OPTION_PAIR_258 if pair_258 else 0)
        | (K.FORM_SEVEN_PAIRS if seven_pairs else 0)
        | (K.OPTION_QUADS if quads else 0)
        | (K.FORM_THIRTEEN if thirteen else 0)
    )


EVERY_FORM = [_forms(*flags) for flags in np.ndindex(2, 2, 2, 2)]


@settings(max_examples=120, deadline=None)
@given(hand=S.search_hands(), flags=st.tuples(*[st.booleans()] * 4))
def test_it_agrees_with_the_reference(hand, flags):
    pair_258, seven_pairs, quads, thirteen = flags
    counts, wilds = [int(c) for c in hand[0]], int(hand[1])
    keys = np.zeros(4, np.int64)
    K.keys_from_counts(np.asarray(counts, np.uint8), keys)
    got = K.hand_shanten(keys, np.int64(wilds), _forms(*flags), load_tables())
    expected = R.shanten(
        counts,
        wilds,
        pair="258" if pair_258 else "any",
        seven_pairs=seven_pairs,
        quads=quads,
        thirteen=thirteen,
    )
    assert got == expected, (flags, counts, wilds)


def test_it_agrees_with_shanten_many_in_bulk():
    tables = load_tables()
    rng = np.random.default_rng(11)
    sizes = np.array([14, 13, 11, 10, 8, 7, 5, 4, 2, 1])
    for trial in range(3000):
        wall = rng.permutation(np.repeat(np.arange(34 if trial % 3 else 27), 4))
        size = int(rng.choice(sizes))
        wilds = min(int(rng.integers(0, 5)), size)
        counts = np.bincount(wall[: size - wilds], minlength=34).astype(np.uint8)
        forms = EVERY_FORM[trial % len(EVERY_FORM)]
        keys = np.zeros((1, 4), np.int64)
        K.keys_batch(counts[None, :], keys)
        expected = np.empty(1, np.int64)
        K.shanten_many(keys, np.full(1, wilds), forms, tables, expected)
        got = K.hand_shanten(keys[0], np.int64(wilds), forms, tables)
        assert got == expected[0], (counts.tolist(), wilds, forms)
