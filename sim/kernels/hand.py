"""Hand evaluation kernels: complete hands, shanten, waits and decompositions, with wilds.

A hand is given as four suit keys (characters, dots, bamboo, honours; base-5 counts, see
:mod:`sim.kernels.tables`) plus ``wilds``, the number of wild tiles, which stand for any kind and
are not in the keys. Keys update incrementally: adding a tile of kind ``k`` adds
``KIND_POWER[k]`` to key ``KIND_SUIT[k]``. ``tables`` is a :class:`sim.core.tables.HandTables`.

``forms`` is a bitmask of the forms that count (``FORM_*``) and their options (``OPTION_*``).
Definitions: docs/evaluator.md. No kernel here validates its input.
"""

from __future__ import annotations

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from ._jit import inline_kernel, kernel
from .tables import (
    BYTES_PAIRS_DISTINCT,
    BYTES_PAIRS_QUADS,
    BYTES_STANDARD_258,
    BYTES_STANDARD_ANY,
    BYTES_TILES,
    BYTES_UNRELATED,
    HONOUR_GAIN,
    MAX_SETS,
    N_PAIR_COLUMNS,
    PAIR_258,
    PAIR_ANY,
)

FORM_STANDARD = 1
FORM_SEVEN_PAIRS = 2
FORM_THIRTEEN = 4
OPTION_PAIR_258 = 8
"""Standard form only with a 2-5-8 pair (二五八将)."""
OPTION_QUADS = 16
"""Seven pairs may count four of a kind as two pairs."""

NOT_APPLICABLE = 99
"""Shanten of a form that cannot apply to the hand size (seven pairs with melds exposed)."""
_FAR = 1_000

N_KINDS = 34
KIND_SUIT = np.array([k // 9 if k < 27 else 3 for k in range(N_KINDS)], np.int64)
KIND_POWER = np.array([5 ** (k % 9) if k < 27 else 5 ** (k - 27) for k in range(N_KINDS)], np.int64)
KIND_RANK = np.array([k % 9 if k < 27 else k - 27 for k in range(N_KINDS)], np.int64)
"""A kind's digit in its suit's key (rank - 1 of a suited tile; the honour's index)."""


@inline_kernel
def keys_from_counts(counts, keys_out):
    """Suit keys of one hand: counts (34,) any int -> keys_out (4,) filled."""
    for suit in range(4):
        start = 9 * suit
        n_ranks = 9 if suit < 3 else 7
        key = 0
        for r in range(n_ranks - 1, -1, -1):
            key = key * 5 + counts[start + r]
        keys_out[suit] = key


@inline_kernel
def tiles_in_hand(key_m, key_p, key_s, key_z, tables):
    """Number of natural tiles (per suit saturated at 15, which no hand of 14 reaches)."""
    suits = tables.suit_bytes
    return (
        np.int64(suits[BYTES_TILES, key_m])
        + np.int64(suits[BYTES_TILES, key_p])
        + np.int64(suits[BYTES_TILES, key_s])
        + np.int64(tables.honour_bytes[BYTES_TILES, key_z])
    )


# ---------------------------------------------------------------------------------------------
# Standard form


@inline_kernel
def _standard_wilds_needed_from(packed_m, packed_p, packed_s, packed_z):
    """From four standard-table bytes (sets in bits 0-3, sets + pair in 4-7): the least wilds."""
    sets_m = packed_m & 15
    sets_p = packed_p & 15
    sets_s = packed_s & 15
    sets_z = packed_z & 15
    total = sets_m + sets_p + sets_s + sets_z
    best = total + 2
    best = min(best, total - sets_m + (packed_m >> 4))
    best = min(best, total - sets_p + (packed_p >> 4))
    best = min(best, total - sets_s + (packed_s >> 4))
    best = min(best, total - sets_z + (packed_z >> 4))
    return best


@inline_kernel
def standard_wilds_needed(key_m, key_p, key_s, key_z, pair_258, tables):
    """Least number of wilds with which the naturals split exactly into sets and one pair.

    The pair lies in one suit, or is two wilds; the other suits hold sets only. Returns a number
    >= 15 when no count of wilds up to 8 can do it. The hand size is not checked here.
    """
    row = BYTES_STANDARD_258 if pair_258 else BYTES_STANDARD_ANY
    suits = tables.suit_bytes
    return _standard_wilds_needed_from(
        np.int64(suits[row, key_m]),
        np.int64(suits[row, key_p]),
        np.int64(suits[row, key_s]),
        np.int64(tables.honour_bytes[row, key_z]),
    )


@inline_kernel
def _pair_of_suits(left_table, left_key, right_table, right_key, sets, pair_column):
    """Min-plus product of two suits' add-table rows at exactly ``sets`` sets: (no pair, pair).

    Rows are read by 2-D indexing, not as row views: a view costs reference counting per call.
    """
    no_pair = _FAR
    with_pair = _FAR
    for left_sets in range(sets + 1):
        left_column = left_sets * N_PAIR_COLUMNS
        right_column = (sets - left_sets) * N_PAIR_COLUMNS
        left_none = np.int64(left_table[left_key, left_column])
        right_none = np.int64(right_table[right_key, right_column])
        no_pair = min(no_pair, left_none + right_none)
        with_pair = min(
            with_pair,
            np.int64(left_table[left_key, left_column + pair_column]) + right_none,
            left_none + np.int64(right_table[right_key, right_column + pair_column]),
        )
    return no_pair, with_pair


@inline_kernel
def standard_tiles_to_add(key_m, key_p, key_s, key_z, sets, pair_258, tables):
    """T of the standard form: least tiles to add for ``sets`` sets and a pair (docs/evaluator.md).

    Characters with dots, and bamboo with honours, are combined first; then the two halves.
    Four sets (every hand without melds) gets a call with a constant count, so the compiler
    unrolls the small loops: about 7 times faster than with the count known only at run time.
    """
    if sets == 4:
        return _standard_tiles_to_add(key_m, key_p, key_s, key_z, 4, pair_258, tables)
    return _standard_tiles_to_add(key_m, key_p, key_s, key_z, sets, pair_258, tables)


@inline_kernel
def _standard_tiles_to_add(key_m, key_p, key_s, key_z, sets, pair_258, tables):
    pair_column = PAIR_258 if pair_258 else PAIR_ANY
    suits = tables.suit_add
    honours = tables.honour_add
    best = _FAR
    for left_sets in range(sets + 1):
        left_none, left_pair = _pair_of_suits(suits, key_m, suits, key_p, left_sets, pair_column)
        right_none, right_pair = _pair_of_suits(
            suits, key_s, honours, key_z, sets - left_sets, pair_column
        )
        best = min(best, left_none + right_pair, left_pair + right_none)
    return best


# ---------------------------------------------------------------------------------------------
# Seven pairs and 十三烂


@inline_kernel
def _seven_pairs_tiles_to_add_from(packed_m, packed_p, packed_s, packed_z):
    """From four seven-pairs bytes (slots filled whole in bits 0-3, half in 4-7)."""
    whole = (packed_m & 15) + (packed_p & 15) + (packed_s & 15) + (packed_z & 15)
    half = (packed_m >> 4) + (packed_p >> 4) + (packed_s >> 4) + (packed_z >> 4)
    whole = min(whole, 7)
    half = min(half, 7 - whole)
    return 14 - 2 * whole - half


@inline_kernel
def seven_pairs_tiles_to_add(key_m, key_p, key_s, key_z, quads, tables):
    """T of seven pairs 七对: 14 minus the most naturals that seven pair slots can hold
    (whole slots first, then half-filled ones)."""
    row = BYTES_PAIRS_QUADS if quads else BYTES_PAIRS_DISTINCT
    suits = tables.suit_bytes
    return _seven_pairs_tiles_to_add_from(
        np.int64(suits[row, key_m]),
        np.int64(suits[row, key_p]),
        np.int64(suits[row, key_s]),
        np.int64(tables.honour_bytes[row, key_z]),
    )


@inline_kernel
def thirteen_tiles_to_add(key_m, key_p, key_s, key_z, tables):
    """T of 十三烂: 14 minus the most naturals that fit a 十三烂 (at most 3 per suit, 7 honours)."""
    suits = tables.suit_bytes
    fits_m = np.int64(suits[BYTES_UNRELATED, key_m])
    fits_p = np.int64(suits[BYTES_UNRELATED, key_p])
    fits_s = np.int64(suits[BYTES_UNRELATED, key_s])
    honour_kinds = np.int64(tables.honour_bytes[BYTES_UNRELATED, key_z])
    best = 0
    for size_m in range(4):
        fit_m = fits_m >> (2 * size_m - 2) & 3 if size_m else 0
        for size_p in range(4):
            fit_p = fits_p >> (2 * size_p - 2) & 3 if size_p else 0
            for size_s in range(4):
                honour_slots = 14 - size_m - size_p - size_s
                if honour_slots > 7:
                    continue
                fit_s = fits_s >> (2 * size_s - 2) & 3 if size_s else 0
                best = max(best, fit_m + fit_p + fit_s + min(honour_kinds, honour_slots))
    return 14 - best


# ---------------------------------------------------------------------------------------------
# Whole-hand queries


@inline_kernel
def is_complete(key_m, key_p, key_s, key_z, wilds, forms, tables):
    """Whether the hand (at most 14 tiles) is complete in one of the forms of ``forms``.

    Seven pairs and 十三烂 need no size check: T <= wilds means at least 14 - wilds naturals are
    placed, and no more can be placed than are held, so the hand has 14 tiles. Within a form the
    test has no short-circuit: whether a near-complete hand is complete is a coin flip that the
    branch predictor loses. With ``forms`` a compile-time constant (the batch loops) the tests of
    unused forms fold away.
    """
    wilds = np.int64(wilds)
    if (forms & FORM_STANDARD) != 0:
        needed = standard_wilds_needed(
            key_m, key_p, key_s, key_z, (forms & OPTION_PAIR_258) != 0, tables
        )
        # leftover wilds must make whole sets; this also rejects sizes that are not 2 mod 3
        if (needed <= wilds) & ((wilds - needed) % 3 == 0):
            return True
    if (forms & FORM_SEVEN_PAIRS) != 0:
        quads = (forms & OPTION_QUADS) != 0
        if seven_pairs_tiles_to_add(key_m, key_p, key_s, key_z, quads, tables) <= wilds:
            return True
    if (forms & FORM_THIRTEEN) != 0:
        return thirteen_tiles_to_add(key_m, key_p, key_s, key_z, tables) <= wilds
    return False


@kernel
def shanten_many(keys, wilds, forms, tables, out):
    """out[i] = least shanten over ``forms`` of hand ``keys[i]`` (suit keys) with ``wilds[i]``
    wilds (-1 complete, 0 ready; NOT_APPLICABLE when no form in ``forms`` applies to the size).

    The one shanten path for single hands and small batches (the candidate discards of one
    decision); ``shanten_keys_batch`` is the vectorised one for large batches. The body stays in
    this loop on purpose: as a function inlined by numba into a loop elsewhere it measured
    190 ns a hand against 34 ns here, and a call per hand would pass the tables tuple (four
    arrays) by value each time.
    """
    for i in range(keys.shape[0]):
        key_m = keys[i, 0]
        key_p = keys[i, 1]
        key_s = keys[i, 2]
        key_z = keys[i, 3]
        n_wilds = np.int64(wilds[i])
        size = tiles_in_hand(key_m, key_p, key_s, key_z, tables) + n_wilds
        best = NOT_APPLICABLE
        if (forms & FORM_STANDARD) != 0:
            pair_258 = (forms & OPTION_PAIR_258) != 0
            to_add = standard_tiles_to_add(key_m, key_p, key_s, key_z, size // 3, pair_258, tables)
            best = max(0, to_add - n_wilds) - 1
        if size >= 13:
            if (forms & FORM_SEVEN_PAIRS) != 0:
                quads = (forms & OPTION_QUADS) != 0
                to_add = seven_pairs_tiles_to_add(key_m, key_p, key_s, key_z, quads, tables)
                best = min(best, max(0, to_add - n_wilds) - 1)
            if (forms & FORM_THIRTEEN) != 0:
                to_add = thirteen_tiles_to_add(key_m, key_p, key_s, key_z, tables)
                best = min(best, max(0, to_add - n_wilds) - 1)
        out[i] = best


@kernel
def hand_shanten(keys, wilds, forms, tables):
    """``shanten_many``'s answer for one hand (suit ``keys``, ``wilds`` wilds), without arrays:
    for kernels that ask about single hands in their loops (the value agent's questions), where
    a one-row ``shanten_many`` call cost three allocations and its reference counts (a third of
    a Weng'an hand of value agents). The body is ``shanten_many``'s, repeated rather than shared
    (see there); ``tests/kernels/test_hand_shanten.py`` checks the two agree."""
    key_m = keys[0]
    key_p = keys[1]
    key_s = keys[2]
    key_z = keys[3]
    n_wilds = np.int64(wilds)
    size = tiles_in_hand(key_m, key_p, key_s, key_z, tables) + n_wilds
    best = NOT_APPLICABLE
    if (forms & FORM_STANDARD) != 0:
        pair_258 = (forms & OPTION_PAIR_258) != 0
        to_add = standard_tiles_to_add(key_m, key_p, key_s, key_z, size // 3, pair_258, tables)
        best = max(0, to_add - n_wilds) - 1
    if size >= 13:
        if (forms & FORM_SEVEN_PAIRS) != 0:
            quads = (forms & OPTION_QUADS) != 0
            to_add = seven_pairs_tiles_to_add(key_m, key_p, key_s, key_z, quads, tables)
            best = min(best, max(0, to_add - n_wilds) - 1)
        if (forms & FORM_THIRTEEN) != 0:
            to_add = thirteen_tiles_to_add(key_m, key_p, key_s, key_z, tables)
            best = min(best, max(0, to_add - n_wilds) - 1)
    # every array read here, at the end, so that numba pairs up their reference counts (an
    # array last read in one branch is released there: docs/engine.md, "Speed notes")
    read = tables.suit_add[0, 0] + tables.honour_add[0, 0] + tables.suit_bytes[0, 0]
    return best + 0 * (read + tables.honour_bytes[0, 0] + keys[0])


@inline_kernel
def _add_row(table, key, pair_column, row):
    """row[c, 0] / row[c, 1]: tiles to add to one suit for exactly c sets, without / with the
    pair (a row of the add table)."""
    for sets in range(MAX_SETS + 1):
        row[sets, 0] = table[key, sets * N_PAIR_COLUMNS]
        row[sets, 1] = table[key, sets * N_PAIR_COLUMNS + pair_column]


@inline_kernel
def _fold_rows(left, right, out):
    """Min-plus product of two suits' rows: the sets split between them, the pair in either."""
    for sets in range(MAX_SETS + 1):
        no_pair = _FAR
        with_pair = _FAR
        for left_sets in range(sets + 1):
            right_sets = sets - left_sets
            no_pair = min(no_pair, left[left_sets, 0] + right[right_sets, 0])
            with_pair = min(
                with_pair,
                left[left_sets, 1] + right[right_sets, 0],
                left[left_sets, 0] + right[right_sets, 1],
            )
        out[sets, 0] = no_pair
        out[sets, 1] = with_pair


@inline_kernel
def _copy_rows(source, target):
    """target[:] = source for two (MAX_SETS + 1, 2) rows, as a loop: an array assignment
    compiles numba's shape-mismatch error formatting (seconds of compile time)."""
    for sets in range(MAX_SETS + 1):
        target[sets, 0] = source[sets, 0]
        target[sets, 1] = source[sets, 1]


@kernel
def shanten_after_swaps(keys, wilds, forms, removed, added, tables, out):
    """out[i, j] = shanten over ``forms`` of the hand ``keys`` + ``wilds`` after one natural
    tile of kind ``removed[i]`` leaves it and one of kind ``added[j]`` joins it: the same
    answers as ``shanten_many`` on those hands (at most 14 tiles; 十三烂 is not supported here).

    This is the efficiency agent's tie-break (each tied discard against each useful draw). A
    swap changes at most two suits. For each discard the product of the other suits' rows is
    made once per suit, so each draw adds only its own suit's row to it.
    """
    pair_column = PAIR_258 if (forms & OPTION_PAIR_258) != 0 else PAIR_ANY
    quads = (forms & OPTION_QUADS) != 0
    pairs_row = BYTES_PAIRS_QUADS if quads else BYTES_PAIRS_DISTINCT
    suit_bytes = tables.suit_bytes
    honour_bytes = tables.honour_bytes
    n_wilds = np.int64(wilds)
    size = tiles_in_hand(keys[0], keys[1], keys[2], keys[3], tables) + n_wilds
    sets = min(size // 3, MAX_SETS)
    # one allocation for the work rows, one for the small vectors: each costs more than the
    # arithmetic of a small call
    work = np.empty((10, MAX_SETS + 1, 2), np.int64)
    rows = work[0:4]
    rest = work[4:8]
    folded = work[8]
    new_row = work[9]
    vectors = np.zeros(12, np.int64)
    base = vectors[0:4]
    pair_bytes = vectors[4:8]
    needed = vectors[8:12]  # suits some added kind is in (non-zero)
    for j in range(added.shape[0]):
        needed[KIND_SUIT[added[j]]] = 1
    for i in range(removed.shape[0]):
        for suit in range(4):
            base[suit] = keys[suit]
        base[KIND_SUIT[removed[i]]] -= KIND_POWER[removed[i]]
        for suit in range(4):
            table = tables.honour_add if suit == 3 else tables.suit_add
            _add_row(table, base[suit], pair_column, rows[suit])
            pair_bytes[suit] = (
                honour_bytes[pairs_row, base[suit]]
                if suit == 3
                else suit_bytes[pairs_row, base[suit]]
            )
        for suit in range(4):
            if needed[suit] == 0:
                continue
            first = 1 if suit == 0 else 0
            _copy_rows(rows[first], rest[suit])
            for other in range(first + 1, 4):
                if other != suit:
                    _fold_rows(rest[suit], rows[other], folded)
                    _copy_rows(folded, rest[suit])
        for j in range(added.shape[0]):
            suit = KIND_SUIT[added[j]]
            key = base[suit] + KIND_POWER[added[j]]
            best = NOT_APPLICABLE
            if (forms & FORM_STANDARD) != 0:
                table = tables.honour_add if suit == 3 else tables.suit_add
                _add_row(table, key, pair_column, new_row)
                to_add = _FAR
                for own_sets in range(sets + 1):
                    to_add = min(
                        to_add,
                        rest[suit, sets - own_sets, 0] + new_row[own_sets, 1],
                        rest[suit, sets - own_sets, 1] + new_row[own_sets, 0],
                    )
                best = max(0, to_add - n_wilds) - 1
            if size >= 13 and (forms & FORM_SEVEN_PAIRS) != 0:
                changed = np.int64(
                    honour_bytes[pairs_row, key] if suit == 3 else suit_bytes[pairs_row, key]
                )
                packed = pair_bytes[suit]
                pair_bytes[suit] = changed
                to_add = _seven_pairs_tiles_to_add_from(
                    pair_bytes[0], pair_bytes[1], pair_bytes[2], pair_bytes[3]
                )
                pair_bytes[suit] = packed
                best = min(best, max(0, to_add - n_wilds) - 1)
            out[i, j] = best


# ---------------------------------------------------------------------------------------------
# The efficiency agent's discard search: shanten after each discard, then the useful draws
#
# Both kernels share one work space for a hand (``discard_search_space``): add-table rows
# (``(MAX_SETS + 1, 2)``: tiles to add for c sets, without / with the pair) of the hand's suits
# and of the suits a discard or a draw changes, and min-plus products of the suits a change
# leaves alone. A discard changes one suit, so its shanten is one product of the three other
# suits (the same for every discard of that suit) with one new row; a (discard, draw) pair
# changes at most two. Which draws lower a split's count is read from the ``gain`` table, one
# row per suit (``useful_draws_by_splits``). The products are the same sums as
# ``standard_tiles_to_add``'s in another order, so the answers are ``shanten_many``'s exactly.

_SUIT_ROW = 0  # 4 rows: the hand's suits
_AFTER_ROW = 4  # 34 rows by kind: the kind's suit less one tile of the kind
_OTHERS_ROW = 38  # 4 rows by suit: the product of the three other suits
_TWO_ROW = 42  # 16 rows by suit pair (4 * low + high): the product of the two other suits
_REST_ROW = 58  # 4 rows by suit: the product of the other suits after the discard at hand
SEARCH_ROWS = 62
_PAIRS = 0  # 4 by suit: the hand's seven-pairs byte
_AFTER_PAIRS = 4  # 34 by kind: the byte of the kind's suit less one tile of the kind
_HELD_RANKS = 38  # 16, 4 * count + suit: the ranks of the draws weighed held count (0-3) times
_TWO_DONE = 54  # 16 flags: _TWO_ROW + slot is made
SEARCH_SIZE = 70  # tiles in the hand, wilds included
_HAND_PAIRS = 71  # 8: the hand's seven-pairs bytes after a discard, its improving ranks by suit
_DRAWN_RANKS = 79  # 4 by suit: the ranks of the draws weighed
_DRAW_WEIGHT = 83  # 34 by kind: a weighed draw's weight (set for the drawn ranks only)
SEARCH_INFO = 117


@kernel
def discard_search_space():
    """A work space for ``shanten_after_discards`` and ``useful_draws``: (rows int64
    (SEARCH_ROWS, MAX_SETS + 1, 2), info int64 (SEARCH_INFO,)); contents unset."""
    return (
        np.empty((SEARCH_ROWS, MAX_SETS + 1, 2), np.int64),
        np.empty(SEARCH_INFO, np.int64),
    )


@inline_kernel
def _read_row(table, key, pair_column, rows, index):
    """rows[index]: the add-table row of ``key`` (as ``_add_row``)."""
    for sets in range(MAX_SETS + 1):
        rows[index, sets, 0] = table[key, sets * N_PAIR_COLUMNS]
        rows[index, sets, 1] = table[key, sets * N_PAIR_COLUMNS + pair_column]


@inline_kernel
def _fold_at(rows, left, right, out):
    """rows[out] = the min-plus product of rows[left] and rows[right] (``_fold_rows``);
    ``out`` is neither."""
    for sets in range(MAX_SETS + 1):
        no_pair = _FAR
        with_pair = _FAR
        for left_sets in range(sets + 1):
            right_sets = sets - left_sets
            left_none = rows[left, left_sets, 0]
            right_none = rows[right, right_sets, 0]
            no_pair = min(no_pair, left_none + right_none)
            with_pair = min(
                with_pair,
                rows[left, left_sets, 1] + right_none,
                left_none + rows[right, right_sets, 1],
            )
        rows[out, sets, 0] = no_pair
        rows[out, sets, 1] = with_pair


@inline_kernel
def _joined(rows, rest, own, sets):
    """Tiles to add for exactly ``sets`` sets and the pair over rows[rest] and rows[own]."""
    best = _FAR
    for own_sets in range(sets + 1):
        best = min(
            best,
            rows[rest, sets - own_sets, 0] + rows[own, own_sets, 1],
            rows[rest, sets - own_sets, 1] + rows[own, own_sets, 0],
        )
    return best


@inline_kernel
def _two_slot(first, second):
    """The slot (0-15) of the product of the two suits other than ``first`` and ``second``."""
    return 4 * min(first, second) + max(first, second)


@inline_kernel
def _other_two(first, second):
    """The two suits other than ``first`` and ``second`` (different suits), lower first."""
    low = 0
    while low == first or low == second:
        low += 1
    high = low + 1
    while high == first or high == second:
        high += 1
    return low, high


@inline_kernel
def _make_two(rows, info, first, second):
    """Make the product of the two suits other than ``first`` and ``second`` (_TWO_ROW + its
    slot) unless it is made."""
    slot = _two_slot(first, second)
    if info[_TWO_DONE + slot] == 0:
        low, high = _other_two(first, second)
        _fold_at(rows, _SUIT_ROW + low, _SUIT_ROW + high, _TWO_ROW + slot)
        info[_TWO_DONE + slot] = 1


@kernel
def shanten_after_discards(keys, wilds, forms, removed, tables, rows, info, out):
    """out[i] = shanten over ``forms`` of the hand ``keys`` + ``wilds`` less one natural tile
    of kind ``removed[i]`` (held): the answers of ``shanten_many`` on those hands (at most 14
    tiles before the discard).

    Fills the work space ``rows``, ``info`` (``discard_search_space``) for ``useful_draws`` on
    the same hand and discards. The three other suits' product is made once per suit, so each
    discard costs one table row and one small product.
    """
    n_removed = removed.shape[0]
    lists = np.empty((2, n_removed), np.int64)
    for i in range(n_removed):
        lists[0, i] = removed[i]
    discards_shanten(keys, wilds, forms, lists, 0, n_removed, 1, tables, rows, info)
    for i in range(n_removed):
        out[i] = lists[1, i]


@inline_kernel
def discards_shanten(keys, wilds, forms, lists, removed, n_removed, out, tables, rows, info):
    """``shanten_after_discards`` of the kinds ``lists[removed, :n_removed]`` into
    ``lists[out]``, inlined: for a caller that makes no other call on its hot path, so that
    numba pairs up the reference counts of its arguments (docs/engine.md, "Speed notes"). Rows
    of one array and a count rather than vectors and slices: each row view or slice is an array
    of its own, whose count released mid-way keeps numba from pairing up the others."""
    pair_column = PAIR_258 if (forms & OPTION_PAIR_258) != 0 else PAIR_ANY
    pairs_row = BYTES_PAIRS_QUADS if (forms & OPTION_QUADS) != 0 else BYTES_PAIRS_DISTINCT
    suit_add = tables.suit_add
    honour_add = tables.honour_add
    suit_bytes = tables.suit_bytes
    honour_bytes = tables.honour_bytes
    n_wilds = np.int64(wilds)
    size = tiles_in_hand(keys[0], keys[1], keys[2], keys[3], tables) + n_wilds
    info[SEARCH_SIZE] = size
    for slot in range(_TWO_DONE, _TWO_DONE + 16):
        info[slot] = 0
    for suit in range(3):
        _read_row(suit_add, keys[suit], pair_column, rows, _SUIT_ROW + suit)
        info[_PAIRS + suit] = suit_bytes[pairs_row, keys[suit]]
    _read_row(honour_add, keys[3], pair_column, rows, _SUIT_ROW + 3)
    info[_PAIRS + 3] = honour_bytes[pairs_row, keys[3]]
    if (forms & FORM_STANDARD) != 0:
        discarded_suits = 0
        for i in range(n_removed):
            discarded_suits |= 1 << KIND_SUIT[lists[removed, i]]
        for suit in range(4):  # the product of the three other suits, per suit discarded from
            if (discarded_suits >> suit) & 1:
                first = 1 if suit == 0 else 0
                _make_two(rows, info, suit, first)
                two = _TWO_ROW + _two_slot(suit, first)
                _fold_at(rows, _SUIT_ROW + first, two, _OTHERS_ROW + suit)
    size_after = size - 1
    sets = min(size_after // 3, MAX_SETS)
    after = _HAND_PAIRS
    for i in range(n_removed):
        kind = lists[removed, i]
        suit = KIND_SUIT[kind]
        key = keys[suit] - KIND_POWER[kind]
        if suit == 3:
            _read_row(honour_add, key, pair_column, rows, _AFTER_ROW + kind)
            info[_AFTER_PAIRS + kind] = honour_bytes[pairs_row, key]
        else:
            _read_row(suit_add, key, pair_column, rows, _AFTER_ROW + kind)
            info[_AFTER_PAIRS + kind] = suit_bytes[pairs_row, key]
        best = NOT_APPLICABLE
        if (forms & FORM_STANDARD) != 0:
            to_add = _joined(rows, _OTHERS_ROW + suit, _AFTER_ROW + kind, sets)
            best = max(0, to_add - n_wilds) - 1
        if size_after >= 13:
            if (forms & FORM_SEVEN_PAIRS) != 0:
                for other in range(4):
                    info[after + other] = info[_PAIRS + other]
                info[after + suit] = info[_AFTER_PAIRS + kind]
                to_add = _seven_pairs_tiles_to_add_from(
                    info[after], info[after + 1], info[after + 2], info[after + 3]
                )
                best = min(best, max(0, to_add - n_wilds) - 1)
            if (forms & FORM_THIRTEEN) != 0:
                to_add = thirteen_tiles_to_add(
                    keys[0] - (KIND_POWER[kind] if suit == 0 else 0),
                    keys[1] - (KIND_POWER[kind] if suit == 1 else 0),
                    keys[2] - (KIND_POWER[kind] if suit == 2 else 0),
                    keys[3] - (KIND_POWER[kind] if suit == 3 else 0),
                    tables,
                )
                best = min(best, max(0, to_add - n_wilds) - 1)
        lists[out, i] = best


@inline_kernel
def _best_columns(rows, rest, own, sets, to_add):
    """The columns (bit 2 * c + p: c sets in ``own``, with the pair there when p) of the
    splits of exactly ``sets`` sets and the pair over rows[rest] and rows[own] that need
    ``to_add`` tiles."""
    columns = 0
    for own_sets in range(sets + 1):
        if rows[rest, sets - own_sets, 1] + rows[own, own_sets, 0] == to_add:
            columns |= 1 << (2 * own_sets)
        if rows[rest, sets - own_sets, 0] + rows[own, own_sets, 1] == to_add:
            columns |= 1 << (2 * own_sets + 1)
    return columns


@kernel
def useful_draws(keys, wilds, forms, removed, added, weights, shanten, tables, rows, info, out):
    """out[i] = the sum of ``weights[j]`` over the kinds ``added[j]`` (none held four times)
    whose tile, joining the hand ``keys`` + ``wilds`` less one natural tile of ``removed[i]``,
    brings it below ``shanten``, which must be the shanten of each of those hands: the useful
    draws of each discard, weighted. The same answers as comparing ``shanten_after_swaps``
    with ``shanten`` (十三烂 is not supported here).

    ``rows``, ``info``: the work space ``shanten_after_discards`` filled for this hand with
    every kind of ``removed`` among its discards.

    A tile lowers the tiles to add of each split of sets and pair by 0 or 1 (the add table's
    rows differ so: ``tests/kernels/test_discard_search.py``), and a hand's shanten by at most
    one. So a draw is useful when some split that reaches the hand's least tiles to add is one
    the drawn tile's suit improves, or when it completes more of seven pairs: per discard the
    best splits are listed once per suit, and each draw of another suit is a test of its
    precomputed improved columns against them. Hands whose size is not 2 mod 3 (never one a
    discard is chosen from) take the pair-by-pair kernel instead.
    """
    size = info[SEARCH_SIZE]
    if size % 3 != 2 or size > 14:
        swaps = np.empty((removed.shape[0], added.shape[0]), np.int64)
        shanten_after_swaps(keys, wilds, forms, removed, added, tables, swaps)
        for i in range(removed.shape[0]):
            out[i] = 0
            for j in range(added.shape[0]):
                if swaps[i, j] < shanten:
                    out[i] += weights[j]
        return
    n_removed = removed.shape[0]
    n_added = added.shape[0]
    lists = np.empty((5, max(n_removed, n_added)), np.int64)
    for i in range(n_removed):
        lists[0, i] = removed[i]
    for j in range(n_added):
        kind = added[j]
        lists[1, j] = kind
        lists[2, j] = weights[j]
        lists[4, j] = (keys[KIND_SUIT[kind]] // KIND_POWER[kind]) % 5  # copies held
    useful_draws_by_splits(
        keys, wilds, forms, lists, 0, n_removed, 1, 2, 4, n_added, 3, shanten, tables, rows, info
    )
    for i in range(n_removed):
        out[i] = lists[3, i]


@inline_kernel
def useful_draws_by_splits(
    keys, wilds, forms, lists, removed, n_removed, added, weights, held, n_added, out, shanten,
    tables, rows, info,
):  # fmt: skip
    """``useful_draws`` of the discards ``lists[removed, :n_removed]`` and the draws
    ``lists[added, :n_added]`` weighted ``lists[weights]`` (their kinds held ``lists[held]``
    times in the hand), into ``lists[out]``, for a hand of
    2 mod 3 tiles (at most 14) by the best splits; inlined, rows of one array (as
    ``discards_shanten``).

    A draw lowers the standard form's shanten exactly when it lowers the tiles to add of one of
    the best splits (exactly ``sets`` sets and the pair) in its suit's column: the ``gain`` row of
    its suit's key (less the discard, in the discard's suit) answers that for every rank of the
    suit at once, one row per suit and discard instead of one ``add`` row per draw. Seven pairs
    adds the ranks whose count gains there (``_add_seven_pairs_ranks``), so each discard's
    useful draws are one mask per suit."""
    size = info[SEARCH_SIZE]
    pair_column = PAIR_258 if (forms & OPTION_PAIR_258) != 0 else PAIR_ANY
    gain = tables.gain
    standard = (forms & FORM_STANDARD) != 0
    quads = (forms & OPTION_QUADS) != 0
    n_wilds = np.int64(wilds)
    sets = size // 3
    seven = size >= 13 and (forms & FORM_SEVEN_PAIRS) != 0
    drawn_suits = 0  # bit s: some added kind is of suit s
    for suit in range(4):
        info[_DRAWN_RANKS + suit] = 0
    for slot in range(_HELD_RANKS, _HELD_RANKS + 16):
        info[slot] = 0
    for j in range(n_added):
        kind = lists[added, j]
        suit = KIND_SUIT[kind]
        drawn_suits |= 1 << suit
        info[_DRAWN_RANKS + suit] |= 1 << KIND_RANK[kind]
        info[_DRAW_WEIGHT + kind] = lists[weights, j]
        copies = lists[held, j]
        if seven and copies < 4:  # a draw's gain in seven pairs depends only on copies held
            info[_HELD_RANKS + 4 * copies + suit] |= 1 << KIND_RANK[kind]
    discarded_suits = 0
    for i in range(n_removed):
        discarded_suits |= 1 << KIND_SUIT[lists[removed, i]]
    if standard:  # the products of two suits each (discard, draw) pair of suits leaves alone
        for own in range(4):
            for suit in range(4):
                if own != suit and (discarded_suits >> own) & 1 and (drawn_suits >> suit) & 1:
                    _make_two(rows, info, own, suit)
    after = _HAND_PAIRS  # the hand's seven-pairs bytes after the discard
    improving = _HAND_PAIRS + 4  # by suit: the ranks whose draw lowers a best split's count
    for i in range(n_removed):
        gone = lists[removed, i]
        own = KIND_SUIT[gone]
        for suit in range(4):
            info[after + suit] = info[_PAIRS + suit]
            info[improving + suit] = 0
        info[after + own] = info[_AFTER_PAIRS + gone]
        if standard:
            to_add = _joined(rows, _OTHERS_ROW + own, _AFTER_ROW + gone, sets)
            if max(0, to_add - n_wilds) - 1 == shanten:  # a draw may lower it
                for suit in range(4):
                    if ((drawn_suits >> suit) & 1) == 0:
                        continue
                    if suit == own:
                        columns = _best_columns(
                            rows, _OTHERS_ROW + own, _AFTER_ROW + gone, sets, to_add
                        )
                        key = keys[own] - KIND_POWER[gone]
                    else:
                        two = _TWO_ROW + _two_slot(own, suit)
                        _fold_at(rows, _AFTER_ROW + gone, two, _REST_ROW + suit)
                        columns = _best_columns(
                            rows, _REST_ROW + suit, _SUIT_ROW + suit, sets, to_add
                        )
                        key = keys[suit]
                    row = key + (HONOUR_GAIN if suit == 3 else 0)
                    ranks = 0
                    for own_sets in range(sets + 1):
                        if (columns >> (2 * own_sets)) & 1:
                            ranks |= gain[row, own_sets * N_PAIR_COLUMNS]
                        if (columns >> (2 * own_sets + 1)) & 1:
                            ranks |= gain[row, own_sets * N_PAIR_COLUMNS + pair_column]
                    info[improving + suit] = ranks
        by_pairs = False  # seven pairs reaches ``shanten``
        if seven:
            to_add = _seven_pairs_tiles_to_add_from(
                info[after], info[after + 1], info[after + 2], info[after + 3]
            )
            by_pairs = max(0, to_add - n_wilds) - 1 == shanten
        if by_pairs:  # the draws that lower seven pairs' count join those of the splits
            _add_seven_pairs_ranks(keys, gone, quads, n_wilds, shanten, info, after, improving)
        useful = 0  # the improving ranks' weights, a set bit at a time
        for suit in range(4):
            ranks = info[improving + suit] & info[_DRAWN_RANKS + suit]
            while ranks != 0:
                rank = trailing_zeros(ranks)
                useful += info[_DRAW_WEIGHT + 9 * suit + rank]
                ranks &= ranks - 1
        lists[out, i] = useful


@inline_kernel
def _pair_slots(count, quads):
    """A kind held ``count`` times: the seven-pairs slots it fills whole and half (the fields
    of the seven-pairs bytes, ``sim.kernels.tables``: whole = doubles + triples + 2 * fours
    (quads counting) or doubles + triples + fours, half = singles + triples or singles)."""
    whole = 0
    if count >= 2:
        whole = 2 if quads and count == 4 else 1
    half = 1 if count == 1 or (quads and count == 3) else 0
    return whole, half


@inline_kernel
def _add_seven_pairs_ranks(keys, gone, quads, n_wilds, shanten, info, after, improving):
    """OR into info[improving + suit] the ranks of the weighed draws that bring the hand less
    ``gone`` (whose seven-pairs bytes are info[after: after + 4]) below ``shanten`` by seven
    pairs. A draw of a kind held c times changes the slots by its kind's alone (the bytes sum
    per kind), so whether it gains depends on c only: the draws are taken by count
    (``_HELD_RANKS``), the discarded kind one count lower."""
    whole = 0
    half = 0
    for suit in range(4):
        whole += info[after + suit] & 15
        half += info[after + suit] >> 4
    gaining = 0  # bit c: a draw of a kind held c times gains
    for count in range(4):
        whole_before, half_before = _pair_slots(count, quads)
        whole_after, half_after = _pair_slots(count + 1, quads)
        new_whole = min(whole - whole_before + whole_after, 7)
        new_half = min(half - half_before + half_after, 7 - new_whole)
        if max(0, 14 - 2 * new_whole - new_half - n_wilds) - 1 < shanten:
            gaining |= 1 << count
    own = KIND_SUIT[gone]
    rank = KIND_RANK[gone]
    held = (keys[own] // KIND_POWER[gone]) % 5  # before the discard
    for suit in range(4):
        ranks = 0
        for count in range(4):
            if (gaining >> count) & 1:
                ranks |= info[_HELD_RANKS + 4 * count + suit]
        if suit == own:  # the discarded kind is held once less
            ranks &= ~(1 << rank)
            weighed = held < 4 and (info[_HELD_RANKS + 4 * held + own] >> rank) & 1 != 0
            if weighed and (gaining >> (held - 1)) & 1 != 0:
                ranks |= 1 << rank
        info[improving + suit] |= ranks


@kernel
def waits_mask(keys, wilds, forms, allowed_kinds, tables):
    """Bitmask over the 34 kinds of the waits of a hand of size 1 mod 3 (bit k = kind k).

    Only kinds with bit set in ``allowed_kinds`` are tried (a 108-tile game passes the suited
    kinds only), and never a kind the hand already holds four of.
    """
    mask = np.int64(0)
    for kind in range(N_KINDS):
        if not (allowed_kinds >> kind) & 1:
            continue
        suit = KIND_SUIT[kind]
        power = KIND_POWER[kind]
        if keys[suit] // power % 5 == 4:
            continue
        key_m = keys[0] + (power if suit == 0 else 0)
        key_p = keys[1] + (power if suit == 1 else 0)
        key_s = keys[2] + (power if suit == 2 else 0)
        key_z = keys[3] + (power if suit == 3 else 0)
        if is_complete(key_m, key_p, key_s, key_z, wilds, forms, tables):
            mask |= np.int64(1) << kind
    return mask


# ---------------------------------------------------------------------------------------------
# Batch loops (the numba-side throughput path)


@inline_kernel
def _is_complete_loop(keys, wilds, forms, tables, out):
    for i in range(keys.shape[0]):
        out[i] = is_complete(
            keys[i, 0], keys[i, 1], keys[i, 2], keys[i, 3], wilds[i], forms, tables
        )


_STANDARD_AND_SEVEN_PAIRS = FORM_STANDARD | FORM_SEVEN_PAIRS | OPTION_QUADS


@kernel
def is_complete_keys_batch(keys, wilds, forms, tables, out):
    """keys (n, 4) integer, wilds (n,) integer -> out (n,) bool.

    The common form masks get loops of their own with the mask as a constant, so the compiler
    drops the branches of the forms not asked for.
    """
    if forms == FORM_STANDARD:
        _is_complete_loop(keys, wilds, FORM_STANDARD, tables, out)
    elif forms == _STANDARD_AND_SEVEN_PAIRS:
        _is_complete_loop(keys, wilds, _STANDARD_AND_SEVEN_PAIRS, tables, out)
    else:
        _is_complete_loop(keys, wilds, forms, tables, out)


_BLOCK = 128


@inline_kernel
def _fold_lanes(left, left_first, left_sets, right, right_first, right_sets, out, out_sets, size):
    """Fold one term of a min-plus product into ``out``, lane by lane (one lane per hand).

    Arrays are (blocks, columns, lanes) with column ``2 * sets`` (no pair) and ``2 * sets + 1``
    (pair); ``*_first`` pick the block. Indexing whole arrays, not slices, avoids creating views
    in the inner loop; the loop has no branch, so it vectorises.
    """
    for j in range(size):
        left_none = left[left_first, 2 * left_sets, j]
        right_none = right[right_first, 2 * right_sets, j]
        out[0, 2 * out_sets, j] = min(out[0, 2 * out_sets, j], left_none + right_none)
        out[0, 2 * out_sets + 1, j] = min(
            out[0, 2 * out_sets + 1, j],
            left[left_first, 2 * left_sets + 1, j] + right_none,
            left_none + right[right_first, 2 * right_sets + 1, j],
        )


@kernel
def shanten_keys_batch(keys, wilds, forms, tables, out):
    """keys (n, 4) integer, wilds (n,) integer -> out (n,) int8 shanten (least over ``forms``).

    Hands are taken in blocks: their table rows are gathered into lanes (a row per column, a lane
    per hand) and the min-plus products of the standard form run over whole lanes, which the
    compiler turns into vector instructions. Same results as ``shanten`` hand by hand.
    """
    n_hands = keys.shape[0]
    pair_column = PAIR_258 if (forms & OPTION_PAIR_258) != 0 else PAIR_ANY
    quads = (forms & OPTION_QUADS) != 0
    columns = 2 * (MAX_SETS + 1)
    gathered = np.empty((4, columns, _BLOCK), np.int16)
    halves = np.empty((2, columns, _BLOCK), np.int16)
    total = np.empty((1, columns, _BLOCK), np.int16)
    for start in range(0, n_hands, _BLOCK):
        size = min(_BLOCK, n_hands - start)
        for suit in range(4):
            table = tables.suit_add if suit < 3 else tables.honour_add
            for j in range(size):
                key = keys[start + j, suit]
                for sets in range(MAX_SETS + 1):
                    gathered[suit, 2 * sets, j] = table[key, sets * N_PAIR_COLUMNS]
                    gathered[suit, 2 * sets + 1, j] = table[
                        key, sets * N_PAIR_COLUMNS + pair_column
                    ]
        # characters x dots and bamboo x honours, then the two halves, for every number of sets;
        # each hand then reads the count of sets its size asks for.
        halves[:] = _FAR
        total[:] = _FAR
        for half in range(2):
            for sets in range(MAX_SETS + 1):
                for left_sets in range(sets + 1):
                    _fold_lanes(
                        gathered,
                        2 * half,
                        left_sets,
                        gathered,
                        2 * half + 1,
                        sets - left_sets,
                        halves[half:],
                        sets,
                        size,
                    )
        for sets in range(MAX_SETS + 1):
            for left_sets in range(sets + 1):
                _fold_lanes(halves, 0, left_sets, halves, 1, sets - left_sets, total, sets, size)
        for j in range(size):
            i = start + j
            key_m = keys[i, 0]
            key_p = keys[i, 1]
            key_s = keys[i, 2]
            key_z = keys[i, 3]
            n_wilds = np.int64(wilds[i])
            hand_size = tiles_in_hand(key_m, key_p, key_s, key_z, tables) + n_wilds
            best = NOT_APPLICABLE
            if (forms & FORM_STANDARD) != 0:
                best = max(0, np.int64(total[0, 2 * (hand_size // 3) + 1, j]) - n_wilds) - 1
            if hand_size >= 13:
                if (forms & FORM_SEVEN_PAIRS) != 0:
                    to_add = seven_pairs_tiles_to_add(key_m, key_p, key_s, key_z, quads, tables)
                    best = min(best, max(0, to_add - n_wilds) - 1)
                if (forms & FORM_THIRTEEN) != 0:
                    to_add = thirteen_tiles_to_add(key_m, key_p, key_s, key_z, tables)
                    best = min(best, max(0, to_add - n_wilds) - 1)
            out[i] = best


@kernel
def keys_batch(counts, out):
    """counts (n, 34) integer -> out (n, 4) suit keys."""
    for i in range(counts.shape[0]):
        keys_from_counts(counts[i], out[i])


@inline_kernel
def _is_complete_counts_loop(counts, wilds, forms, tables, out):
    for i in range(counts.shape[0]):
        row = counts[i]
        # keys written out per suit: a (4,) scratch array would be a store and reload per hand
        key_m = 0
        key_p = 0
        key_s = 0
        key_z = 0
        for r in range(8, -1, -1):
            key_m = key_m * 5 + row[r]
            key_p = key_p * 5 + row[9 + r]
            key_s = key_s * 5 + row[18 + r]
        for r in range(6, -1, -1):
            key_z = key_z * 5 + row[27 + r]
        out[i] = is_complete(key_m, key_p, key_s, key_z, wilds[i], forms, tables)


@kernel
def is_complete_counts_batch(counts, wilds, forms, tables, out):
    """counts (n, 34) integer, wilds (n,) -> out (n,) bool, computing the keys on the fly."""
    if forms == FORM_STANDARD:
        _is_complete_counts_loop(counts, wilds, FORM_STANDARD, tables, out)
    elif forms == _STANDARD_AND_SEVEN_PAIRS:
        _is_complete_counts_loop(counts, wilds, _STANDARD_AND_SEVEN_PAIRS, tables, out)
    else:
        _is_complete_counts_loop(counts, wilds, forms, tables, out)


@kernel
def hand_sizes(counts, wilds, sizes_out):
    """sizes_out[i] = tiles of hand i (naturals + wilds); returns the largest single count.

    The Python layer uses both to validate a batch in one pass over the counts.
    """
    largest = 0
    for i in range(counts.shape[0]):
        total = np.int64(wilds[i])
        for k in range(N_KINDS):
            value = np.int64(counts[i, k])
            total += value
            largest = max(largest, value)
        sizes_out[i] = total
    return largest


@kernel
def shanten_counts_batch(counts, wilds, forms, tables, out):
    """counts (n, 34) integer, wilds (n,) -> out (n,) int8 shanten, keys computed per block."""
    keys = np.empty((_BLOCK, 4), np.int64)
    for start in range(0, counts.shape[0], _BLOCK):
        stop = min(start + _BLOCK, counts.shape[0])
        for i in range(start, stop):
            keys_from_counts(counts[i], keys[i - start])
        shanten_keys_batch(keys[: stop - start], wilds[start:stop], forms, tables, out[start:stop])


# ---------------------------------------------------------------------------------------------
# Decompositions (scoring path, not the hot loop)

GROUP_NONE = -1
GROUP_SEQUENCE = 0
GROUP_TRIPLET = 1
GROUP_PAIR = 2
GROUP_FREE_SET = 3
GROUP_FREE_PAIR = 4
MAX_GROUPS = 5
_MAX_OPTIONS = 24


@kernel
def _list_group_options(counts, kind, wilds, sets_left, pair_left, pair_258, options):
    """Every group that can hold natural ``kind`` (the lowest one left) -> rows of ``options``:
    (type, first tile, natural mask, wilds used). For sequences bit j of the mask says tile
    ``first + j`` is natural; for triplets and pairs the "mask" is the number of naturals."""
    n_options = 0
    if sets_left > 0:
        for naturals in range(1, min(3, counts[kind]) + 1):
            if 3 - naturals <= wilds:
                options[n_options, 0] = GROUP_TRIPLET
                options[n_options, 1] = kind
                options[n_options, 2] = naturals
                options[n_options, 3] = 3 - naturals
                n_options += 1
    if pair_left and (not pair_258 or (kind < 27 and kind % 9 % 3 == 1)):
        for naturals in range(1, min(2, counts[kind]) + 1):
            if 2 - naturals <= wilds:
                options[n_options, 0] = GROUP_PAIR
                options[n_options, 1] = kind
                options[n_options, 2] = naturals
                options[n_options, 3] = 2 - naturals
                n_options += 1
    if sets_left > 0 and kind < 27:
        rank = kind % 9
        for offset in range(3):
            start_rank = rank - offset
            if start_rank < 0 or start_rank > 6:
                continue
            first = kind - offset
            # Tiles below ``kind`` have no naturals left (kind is the lowest); tiles above may be
            # natural or wild, each choice a different decomposition.
            for above in range(4):
                mask = 1 << offset
                feasible = True
                for j in range(offset + 1, 3):
                    if above >> (j - offset - 1) & 1:
                        if counts[first + j] == 0:
                            feasible = False
                        mask |= 1 << j
                if not feasible or (above >> (2 - offset)) != 0:
                    continue
                used = (mask & 1) + (mask >> 1 & 1) + (mask >> 2 & 1)
                if 3 - used <= wilds:
                    options[n_options, 0] = GROUP_SEQUENCE
                    options[n_options, 1] = first
                    options[n_options, 2] = mask
                    options[n_options, 3] = 3 - used
                    n_options += 1
    return n_options


@kernel
def _apply_group(counts, group_type, first, mask, sign):
    """Take the group's naturals out of ``counts`` (sign -1) or put them back (sign +1)."""
    if group_type == GROUP_SEQUENCE:
        for j in range(3):
            if mask >> j & 1:
                counts[first + j] += sign
    else:
        counts[first] += sign * mask


@kernel
def decompositions(counts, wilds, pair_258, out):
    """Every standard decomposition of a complete hand (docs/evaluator.md) -> ``out``.

    counts (34,) int64 (consumed as scratch and restored), out (capacity, 5, 3) int8 rows of
    groups (type, first tile, natural mask or count), unused groups GROUP_NONE. Returns the number
    of decompositions, which may exceed the capacity (then only the first ``capacity`` are written).

    Groups are generated for the lowest natural left, and groups sharing that lowest natural in
    non-decreasing (type, first, mask) order, so each decomposition is produced exactly once.
    """
    size = wilds
    for kind in range(N_KINDS):
        size += counts[kind]
    if size % 3 != 2:
        return 0
    sets_needed = (size - 2) // 3
    options = np.empty((MAX_GROUPS + 1, _MAX_OPTIONS, 4), np.int64)
    n_options = np.zeros(MAX_GROUPS + 1, np.int64)
    next_option = np.zeros(MAX_GROUPS + 1, np.int64)
    lowest = np.zeros(MAX_GROUPS + 1, np.int64)
    chosen = np.zeros((MAX_GROUPS + 1, 4), np.int64)
    found = 0
    depth = 0
    wilds_left = wilds
    sets_left = sets_needed
    pair_left = True
    entering = True
    while depth >= 0:
        if entering:
            entering = False
            kind = 0
            while kind < N_KINDS and counts[kind] == 0:
                kind += 1
            if kind == N_KINDS:
                if wilds_left == 3 * sets_left + (2 if pair_left else 0):
                    if found < out.shape[0]:
                        for g in range(MAX_GROUPS):
                            out[found, g, 0] = GROUP_NONE
                            out[found, g, 1] = 0
                            out[found, g, 2] = 0
                        for g in range(depth):
                            out[found, g, 0] = chosen[g, 0]
                            out[found, g, 1] = chosen[g, 1]
                            out[found, g, 2] = chosen[g, 2]
                        g = depth
                        for _ in range(sets_left):
                            out[found, g, 0] = GROUP_FREE_SET
                            g += 1
                        if pair_left:
                            out[found, g, 0] = GROUP_FREE_PAIR
                    found += 1
                n_options[depth] = 0
            else:
                lowest[depth] = kind
                n_options[depth] = _list_group_options(
                    counts, kind, wilds_left, sets_left, pair_left, pair_258, options[depth]
                )
            next_option[depth] = 0
        # Undo the group chosen at this depth before trying the next option.
        if next_option[depth] > 0:
            undo = options[depth, next_option[depth] - 1]
            _apply_group(counts, undo[0], undo[1], undo[2], 1)
            wilds_left += undo[3]
            if undo[0] == GROUP_PAIR:
                pair_left = True
            else:
                sets_left += 1
        advanced = False
        while next_option[depth] < n_options[depth]:
            option = options[depth, next_option[depth]]
            next_option[depth] += 1
            if depth > 0 and lowest[depth - 1] == lowest[depth]:
                previous = chosen[depth - 1]
                if (option[0], option[1], option[2]) < (previous[0], previous[1], previous[2]):
                    continue
            _apply_group(counts, option[0], option[1], option[2], -1)
            wilds_left -= option[3]
            if option[0] == GROUP_PAIR:
                pair_left = False
            else:
                sets_left -= 1
            chosen[depth, 0] = option[0]
            chosen[depth, 1] = option[1]
            chosen[depth, 2] = option[2]
            depth += 1
            entering = True
            advanced = True
            break
        if not advanced:
            next_option[depth] = 0
            depth -= 1
    return found
