"""Counting kernels of :mod:`sim.analysis.exact` (dealt-hand probabilities) and a batch Anhua win
check for the dealt-hand Monte Carlo of :mod:`sim.analysis.dealt`.

A *group* is one suit (9 ranks) or the honours (7 kinds). Every hand's tiles in a group have a
*signature*, read from the evaluator tables (:mod:`sim.kernels.tables`): its tile count, the
least wilds with which they split into sets (``sets``), into sets and the pair (``pair``), and the
seven-pairs slots they fill half (``half``). Hands are counted group by group on these signatures
instead of one by one: a state is a count of partial hands (the groups seen so far) per
combined signature, and each group convolves the state with its own signature counts.

How the standard form combines (the same min-plus step as ``_standard_wilds_needed_from`` in
:mod:`sim.kernels.hand`): over the groups seen, ``A`` is the wilds for sets only and ``B`` the
least wilds for sets plus one pair in one of them; a new group with ``(a, b)`` gives
``A' = A + a`` and ``B' = min(B + a, A + b)``. A hand with ``W`` wilds is standard-complete exactly
when ``min(A + 2, B) <= W`` (a pair of two wilds costs 2). Seven pairs: the half-filled slots add
up, and the hand is complete when they are at most ``W`` (docs/exact.md).

All counts are int64. No count here exceeds the number of hands of at most 14 tiles from 136,
C(136, 14) < 4.3e18 < 2**63, so nothing overflows; :mod:`sim.analysis.exact` checks every total
against the binomial coefficient it must equal. No kernel here validates its input.
"""

from __future__ import annotations

from ._jit import kernel

N_SIZE_BITS = 10
"""十三烂 size sets are bitmasks over total spread-set sizes 0-9 (at most 3 ranks in each suit)."""


@kernel
def convolve_forms(state, tiles, sets, pair, half, count, out):
    """Add one group to a count of partial hands by (tiles, A, B, H).

    state, out: int64 ``(max_tiles + 1, n_sets, n_pair, n_half)``; the last index of each of the
    three value axes means "that many or more" (values there never complete a hand). An axis of
    length 1 is a form not counted (its entries are all 0). Entries ``e`` of the group: tiles,
    sets (a), pair (b), half (h) and how many hands of the group have that signature (count).
    ``out`` is overwritten.
    """
    out[:] = 0
    n_tiles, n_sets, n_pair, n_half = state.shape
    for e in range(count.shape[0]):
        group_tiles = tiles[e]
        a = sets[e]
        b = pair[e]
        h = half[e]
        weight = count[e]
        if weight == 0:
            continue
        for t in range(n_tiles - group_tiles):
            for old_sets in range(n_sets):
                new_sets = min(old_sets + a, n_sets - 1)
                pair_here = old_sets + b
                for old_pair in range(n_pair):
                    new_pair = min(old_pair + a, pair_here, n_pair - 1)
                    for old_half in range(n_half):
                        value = state[t, old_sets, old_pair, old_half]
                        if value == 0:
                            continue
                        new_half = min(old_half + h, n_half - 1)
                        out[t + group_tiles, new_sets, new_pair, new_half] += value * weight


@kernel
def convolve_spread_sizes(state, tiles, fit_sizes, count, out):
    """Add one suit to a count of partial hands by (tiles, set of total spread sizes) for 十三烂.

    state, out: int64 ``(max_tiles + 1, 2**N_SIZE_BITS)``; index 1 is the bitmask of the total
    sizes (ranks chosen in each suit, pairwise at least 3 apart) that hold every natural tile of
    the suits seen. fit_sizes[e]: bit j set when the group's tiles all fit a spread set of j ranks.
    A partial hand with no size left is dropped. ``out`` is overwritten.
    """
    out[:] = 0
    n_tiles, n_masks = state.shape
    for e in range(count.shape[0]):
        group_tiles = tiles[e]
        fits = fit_sizes[e]
        weight = count[e]
        if weight == 0 or fits == 0:
            continue
        for t in range(n_tiles - group_tiles):
            for mask in range(1, n_masks):
                value = state[t, mask]
                if value == 0:
                    continue
                new_mask = 0
                for size in range(4):
                    if fits >> size & 1:
                        new_mask |= mask << size
                new_mask &= n_masks - 1
                if new_mask != 0:
                    out[t + group_tiles, new_mask] += value * weight


@kernel
def draw_prefixes(tiles, uniforms, out):
    """out[i] = the first k tiles of a uniform shuffle of ``tiles`` (k = uniforms.shape[1]).

    tiles: (n_tiles,) int8; uniforms: (n, k) float64 in [0, 1); out: (n, k) int8. A partial
    Fisher-Yates shuffle: position j takes a uniform pick among positions j.. of the working
    order. The working order carries over from row to row; each row's picks are fresh uniforms,
    so every row is a uniform ordered k-subset, independent of the others.
    """
    work = tiles.copy()
    n_tiles = work.shape[0]
    for i in range(uniforms.shape[0]):
        for j in range(uniforms.shape[1]):
            pick = j + int(uniforms[i, j] * (n_tiles - j))
            pick = min(pick, n_tiles - 1)  # a uniform within an ulp of 1 could round up
            chosen = work[pick]
            work[pick] = work[j]
            work[j] = chosen
            out[i, j] = chosen


@kernel
def count_kinds(tiles, out):
    """out[i, k] = copies of kind k among tiles[i]: tiles (n, m) integer kinds, out (n, 34) uint8
    (zeroed here)."""
    out[:] = 0
    for i in range(tiles.shape[0]):
        for j in range(tiles.shape[1]):
            out[i, tiles[i, j]] += 1
