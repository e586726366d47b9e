"""Builders of the per-suit lookup tables behind the hand evaluator.

A *suit key* is a suit's tile counts written in base 5, rank 1 as the least significant digit:
``key = sum(count[r] * 5**r for r in range(9))`` for a suit (9 ranks, 5**9 keys) and the same
over the seven honours (5**7 keys). The evaluator combines one lookup per suit; nothing recurses at
query time. See docs/evaluator.md for the definitions the tables serve.

Tables (one row per key):

* ``add``  uint8 ``(n_keys, 15)``: column ``sets * 3 + pair`` (sets 0-4; pair 0 none, 1 any, 2 a
  2-5-8 pair) is the least number of tiles to add so that some of the suit's tiles plus the added
  ones form exactly ``sets`` sets and the pair. Added tiles are unlimited (a fifth copy is fine), so
  an added tile is also what a wild can be. ``IMPOSSIBLE`` marks a pair that cannot exist (a 2-5-8
  pair of honours).
* ``win``  uint32 ``(n_keys,)``: 4-bit fields. The least number of wilds with which *all* the
  suit's tiles split into at most four sets (bits 0-3), sets + a pair (4-7), sets + a 2-5-8 pair
  (8-11); 15 where no such split exists (or needs more than 4 sets, which no hand of 14 tiles
  can hold), a value a hand with at most 8 wilds never reaches; the number of tiles (12-15,
  saturated at 15); and for seven pairs the pair slots the suit's tiles can fill whole and half
  (one tile of the pair) when four of a kind counts as two pairs (16-19, 20-23), and when it does
  not (24-27, 28-31). One lookup per suit answers every seven-pairs and standard check.
* ``gain`` uint16 ``(n_keys, 15)``: bit ``r`` of column ``c`` is set when the suit holds fewer
  than four tiles of rank ``r`` and one more of them needs fewer tiles added in column ``c`` of
  ``add`` (``add[key + 5**r, c] < add[key, c]``): which draws improve that split. The efficiency
  agent's tie-break reads one row of it per suit instead of one ``add`` row per drawn kind.
  ``sim.core.tables`` stores the honours' rows after the suits' in one array.
* ``unrelated`` uint8 ``(n_keys,)``: for 十三烂, in a suit the most of its tiles that fit in a
  set of 1, 2 or 3 ranks pairwise at least 3 apart (2 bits each at 0, 2, 4); for the honours the
  number of distinct kinds held.
"""

from __future__ import annotations

import itertools

import numpy as np

from ._jit import kernel

MAX_SETS = 4
PAIR_NONE = 0
PAIR_ANY = 1
PAIR_258 = 2
N_PAIR_COLUMNS = 3
N_ADD_COLUMNS = (MAX_SETS + 1) * N_PAIR_COLUMNS
IMPOSSIBLE = 99
"""Stored for a combination that cannot exist; larger than any real count (at most 14)."""
WIN_FIELD_MAX = 15

SUIT_RANKS = 9
HONOUR_KINDS = 7
HONOUR_GAIN = 5**SUIT_RANKS
"""The first row of the honours' keys in ``sim.core.tables.HandTables.gain`` (the suits' come
first)."""

# Rows of ``sim.core.tables.HandTables.suit_bytes`` / ``honour_bytes``: one byte per key each, one
# row per question. One 2-D array rather than six: every kernel call or inlined function that
# takes the tables tuple counts a reference per array in it (docs/engine.md, "Speed notes").
BYTES_STANDARD_ANY = 0
"""Wilds needed for sets (bits 0-3) and for sets and any pair (bits 4-7)."""
BYTES_STANDARD_258 = 1
"""The same with a 2-5-8 pair (bits 4-7)."""
BYTES_PAIRS_QUADS = 2
"""Seven-pairs slots filled whole (bits 0-3) and half (4-7), a quad as two pairs."""
BYTES_PAIRS_DISTINCT = 3
"""The same with distinct pairs only."""
BYTES_TILES = 4
"""Tiles in the suit (saturated at 15)."""
BYTES_UNRELATED = 5
"""十三烂 fits (``build_unrelated_table``)."""
N_BYTE_ROWS = 6

# DP state after a prefix of ranks: (a, b, sets, pair_kind) with
#   a = sequences started at the previous rank (they still need this rank and the next),
#   b = sequences started two ranks back (they still need this rank),
#   sets = sets begun so far (open sequences included), pair_kind 0 none / 1 pair at a rank that is
#   not 2-5-8 (or an honour) / 2 pair at a 2-5-8 rank.
_N_STATES = 5 * 5 * (MAX_SETS + 1) * 3
_UNREACHED = 10_000


@kernel
def _state_index(a, b, sets, pair_kind):
    return ((a * 5 + b) * (MAX_SETS + 1) + sets) * 3 + pair_kind


@kernel
def _advance_rank(src, dst, count, rank, n_ranks, has_sequences):
    """One rank of the DP: from the states before ``rank`` (src) to those after it (dst).

    At this rank the open sequences each take one slot; new sequences (s), triplets (t) and the
    pair (q) add more. Natural tiles fill slots; an empty slot costs one added tile; surplus
    naturals stay unused. Two triplets of one rank are enough: a third would only hold added
    tiles, which a triplet at any other rank does as cheaply.
    """
    dst[:] = _UNREACHED
    can_start_sequence = has_sequences and rank <= n_ranks - 3
    pair_kind_here = 2 if (has_sequences and rank % 3 == 1) else 1
    for a in range(5):
        for b in range(5):
            for sets in range(MAX_SETS + 1):
                for pair_kind in range(3):
                    cost = src[_state_index(a, b, sets, pair_kind)]
                    if cost >= _UNREACHED:
                        continue
                    free_sets = MAX_SETS - sets
                    max_new_sequences = free_sets if can_start_sequence else 0
                    for new_sequences in range(max_new_sequences + 1):
                        for triplets in range(min(2, free_sets - new_sequences) + 1):
                            for pair_here in range(2 if pair_kind == 0 else 1):
                                slots = a + b + new_sequences + 3 * triplets + 2 * pair_here
                                added = slots - count if slots > count else 0
                                next_pair = pair_kind_here if pair_here else pair_kind
                                index = _state_index(
                                    new_sequences, a, sets + new_sequences + triplets, next_pair
                                )
                                if cost + added < dst[index]:
                                    dst[index] = cost + added


@kernel
def _answer_last_rank(src, rank, has_sequences, answers):
    """The DP's last rank, for each of the five counts it can hold: ``answers[count, sets, pair]``
    the tiles to add, from the states before ``rank`` (src).

    Every sequence must be closed by the end, so only states with no sequence started at the
    previous rank can finish (they would need a rank after this one), and no sequence starts
    here: a quarter of the states, and one pass over them for all five counts instead of one
    ``_advance_rank`` per count. Four calls in five were at this rank: the DP runs in a third of
    the time it did (5 s -> 1.7 s for the suits).
    """
    answers[:] = _UNREACHED
    pair_kind_here = 2 if (has_sequences and rank % 3 == 1) else 1
    for b in range(5):
        for sets in range(MAX_SETS + 1):
            for pair_kind in range(3):
                cost = src[_state_index(0, b, sets, pair_kind)]
                if cost >= _UNREACHED:
                    continue
                for triplets in range(min(2, MAX_SETS - sets) + 1):
                    for pair_here in range(2 if pair_kind == 0 else 1):
                        slots = b + 3 * triplets + 2 * pair_here
                        next_pair = pair_kind_here if pair_here else pair_kind
                        for count in range(5):
                            added = slots - count if slots > count else 0
                            if cost + added < answers[count, sets + triplets, next_pair]:
                                answers[count, sets + triplets, next_pair] = cost + added


@kernel
def build_add_table(n_ranks, has_sequences, out):
    """Fill ``out`` (5**n_ranks, 15) uint8 with the tiles-to-add table. No validation.

    Keys are visited in odometer order with rank 1 changing slowest, so the DP states of a shared
    prefix of ranks are computed once and reused by all keys below it; the last rank is answered
    for its five counts at once (``_answer_last_rank``).
    """
    last = n_ranks - 1
    states = np.full((n_ranks, _N_STATES), _UNREACHED, np.int64)
    states[0, _state_index(0, 0, 0, 0)] = 0
    answers = np.empty((5, MAX_SETS + 1, 3), np.int64)
    digits = np.zeros(n_ranks, np.int64)
    powers = np.ones(n_ranks, np.int64)
    for r in range(1, n_ranks):
        powers[r] = powers[r - 1] * 5
    first_changed = 0
    while True:
        for r in range(first_changed, last):
            _advance_rank(states[r], states[r + 1], digits[r], r, n_ranks, has_sequences)
        _answer_last_rank(states[last], last, has_sequences, answers)
        prefix_key = 0
        for r in range(last):
            prefix_key += digits[r] * powers[r]
        for count in range(5):
            key = prefix_key + count * powers[last]
            for sets in range(MAX_SETS + 1):
                no_pair = answers[count, sets, 0]
                other_pair = answers[count, sets, 1]
                pair_258 = answers[count, sets, 2]
                base = sets * N_PAIR_COLUMNS
                out[key, base + PAIR_NONE] = min(no_pair, IMPOSSIBLE)
                out[key, base + PAIR_ANY] = min(min(other_pair, pair_258), IMPOSSIBLE)
                out[key, base + PAIR_258] = min(pair_258, IMPOSSIBLE)
        position = last - 1
        while position >= 0 and digits[position] == 4:
            digits[position] = 0
            position -= 1
        if position < 0:
            break
        digits[position] += 1
        first_changed = position


# The tables below are read off the add table key by key, a few numpy passes each: compiled by
# numba they took longer to compile (2 s in every new cache) than numpy takes to run them.


def _over_ranks(n_ranks, by_count, scale=1):
    """For every key, ``sum(by_count[count_r] * scale**r)`` over its ranks r (int64).

    Built a rank at a time: a key is its rank-1 count plus 5 times the key of its other ranks,
    so the sums over one more rank are the previous ones scaled, each beside the five counts.
    """
    by_count = np.asarray(by_count, np.int64)
    sums = np.zeros(1, np.int64)
    for _ in range(n_ranks):
        sums = (scale * sums[:, None] + by_count[None, :]).ravel()
    return sums


def build_gain_table(add, n_ranks, out):
    """Fill ``out`` (n_keys, 15) uint16 with the draws that improve each column of ``add`` (the
    ``gain`` table above). No validation."""
    out[:] = 0
    for rank in range(n_ranks):
        power = 5**rank
        # keys as (higher ranks, this rank's count, lower ranks): one more of this rank is the
        # next count along the middle axis, for counts 0-3
        by_count = add.reshape(-1, 5, power, N_ADD_COLUMNS)
        bits = out.reshape(-1, 5, power, N_ADD_COLUMNS)[:, :4]
        improves = by_count[:, 1:] < by_count[:, :4]
        np.bitwise_or(bits, np.uint16(1 << rank), out=bits, where=improves)


def build_win_table(add, n_ranks, out):
    """Fill ``out`` (n_keys,) uint32 from the add table. No validation.

    All tiles are used exactly when the tiles to add equal the slots minus the suit's tile count;
    the wilds needed are then those added tiles, least over the number of sets.
    """
    tiles = _over_ranks(n_ranks, range(5))
    singles, doubles, triples, fours = (
        _over_ranks(n_ranks, np.arange(5) == count) for count in range(1, 5)
    )
    packed = np.zeros(add.shape[0], np.uint32)
    for pair in range(N_PAIR_COLUMNS):
        best = np.full(add.shape[0], WIN_FIELD_MAX, np.int64)
        for sets in range(MAX_SETS + 1):
            slots = 3 * sets + (2 if pair != PAIR_NONE else 0)
            added = add[:, sets * N_PAIR_COLUMNS + pair].astype(np.int64)
            uses_all = (added != IMPOSSIBLE) & (slots - added == tiles)
            np.minimum(best, added, out=best, where=uses_all)
        packed |= best.astype(np.uint32) << np.uint32(4 * pair)
    packed |= np.minimum(tiles, WIN_FIELD_MAX).astype(np.uint32) << np.uint32(12)
    # Seven pairs: a kind held twice fills a slot; once, half a slot; three times, a slot and
    # (quads counting) half of another; four times, one slot or (quads counting) two.
    whole_with_quads = np.minimum(doubles + triples + 2 * fours, WIN_FIELD_MAX)
    half_with_quads = singles + triples
    whole_without_quads = doubles + triples + fours
    for field, shift in (
        (whole_with_quads, 16), (half_with_quads, 20), (whole_without_quads, 24), (singles, 28),
    ):  # fmt: skip
        packed |= field.astype(np.uint32) << np.uint32(shift)
    out[:] = packed


def _best_unrelated_by_size():
    """For each 9-bit presence mask: the most present ranks in a set of exactly t ranks
    (t = 0..3) pairwise at least 3 apart (十三烂 within one suit), (512, 4) int64."""
    best = np.zeros((512, 4), np.int64)
    masks = np.arange(512)
    for subset in range(512):
        ranks = [r for r in range(9) if subset >> r & 1]
        spread = all(later - earlier >= 3 for earlier, later in itertools.pairwise(ranks))
        if not spread or len(ranks) > 3:
            continue
        hits = np.zeros(512, np.int64)
        for r in ranks:
            hits += masks >> r & 1
        np.maximum(best[:, len(ranks)], hits, out=best[:, len(ranks)])
    # Not monotone in t: ranks 3 and 8 fit a spread set of two, but no spread set of three holds
    # both, since the suit must hold exactly t tiles.
    return best


def build_unrelated_table(n_ranks, has_sequences, out):
    """Fill ``out`` (5**n_ranks,) uint8 with the 十三烂 fields. No validation."""
    held = np.arange(5) > 0
    if not has_sequences:
        out[:] = _over_ranks(n_ranks, held)
        return
    mask = _over_ranks(n_ranks, held, scale=2)
    best = _best_unrelated_by_size()
    out[:] = best[mask, 1] | best[mask, 2] << 2 | best[mask, 3] << 4
