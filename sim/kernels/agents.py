"""Agent policies (numba). Every decision of a seat is asked of its agent here.

Agents are integers (``AGENT_*``) with a float64 parameter row each; ``sim.agents`` keeps the
registry of names. Decisions read the game state (sim.kernels.state) and the evaluator tables;
they never change the state.

The efficiency agent (default): wins whenever allowed, keeps wilds, discards the tile that leaves
the lowest shanten (ties: the most unseen tiles of nearby kinds that would lower it further, then
the lowest kind id, which is deterministic), claims a pong or chi only when the hand after the claim
and the best discard is no further from ready than before.
"""

from __future__ import annotations

import numpy as np

from ._jit import kernel
from .hand import FORM_THIRTEEN, KIND_POWER, KIND_SUIT, N_KINDS, shanten_many
from .state import N_TILES

AGENT_EFFICIENCY = 0
AGENT_RANDOM = 1


@kernel
def _could_help(state, seat, kind, forms):
    """Whether the efficiency agent counts ``kind`` as a possibly useful draw: a kind held, or
    within two ranks of a held natural of its suit (any kind when 十三烂 counts).

    A heuristic, not exact: while a hand still lacks a block, even a far tile lowers its shanten
    by starting one. Counting only near kinds is the usual 'effective tiles' count of players,
    and is three times cheaper to compute."""
    if (forms & FORM_THIRTEEN) != 0:
        return True
    if state.hands[seat, kind] > 0:
        return True
    if kind >= 27:
        return False
    rank = kind % 9
    for offset in range(-2, 3):
        near = rank + offset
        if 0 <= near < 9 and state.hands[seat, kind - rank + near] > 0:
            return True
    return False


@kernel
def _useful_tiles(state, seat, keys, wilds, current, forms, tables):
    """How many tiles unseen by ``seat``, of the kinds ``_could_help`` admits, would lower the
    shanten of ``keys`` + ``wilds``."""
    n_kinds = N_KINDS if state.scalars[N_TILES] == 136 else 27
    candidates = np.empty((n_kinds, 4), np.int64)
    unseen = np.empty(n_kinds, np.int64)
    n_candidates = 0
    for kind in range(n_kinds):
        if state.wild[kind] or not _could_help(state, seat, kind, forms):
            continue
        left = 4 - np.int64(state.visible[kind]) - np.int64(state.hands[seat, kind])
        if left <= 0:
            continue
        candidates[n_candidates] = keys
        candidates[n_candidates, KIND_SUIT[kind]] += KIND_POWER[kind]
        unseen[n_candidates] = left
        n_candidates += 1
    wild_counts = np.full(n_candidates, wilds, np.int64)
    after = np.empty(n_candidates, np.int64)
    shanten_many(candidates[:n_candidates], wild_counts, forms, tables, after)
    total = 0
    for index in range(n_candidates):
        if after[index] < current:
            total += unseen[index]
    return total


@kernel
def _discard_shanten(state, seat, forms, tables, after):
    """after[kind] = shanten once a natural ``kind`` is discarded; 1000 where it cannot be."""
    candidates = np.empty((N_KINDS, 4), np.int64)
    kinds = np.empty(N_KINDS, np.int64)
    n_candidates = 0
    for kind in range(N_KINDS):
        after[kind] = 1_000
        if state.hands[seat, kind] == 0 or state.wild[kind]:
            continue
        candidates[n_candidates] = state.keys[seat]
        candidates[n_candidates, KIND_SUIT[kind]] -= KIND_POWER[kind]
        kinds[n_candidates] = kind
        n_candidates += 1
    wild_counts = np.full(n_candidates, state.wild_count[seat], np.int64)
    values = np.empty(n_candidates, np.int64)
    shanten_many(candidates[:n_candidates], wild_counts, forms, tables, values)
    for index in range(n_candidates):
        after[kinds[index]] = values[index]


@kernel
def efficiency_discard(state, seat, forms, allowed, tables):
    """The discard of the efficiency agent: a kind held by ``seat`` with ``allowed[kind]``.

    Lowest shanten after the discard; among equals, the most useful tiles left (computed only
    when there is a tie); then the lowest kind id. Wilds are discarded only when nothing else is
    allowed.
    """
    after = np.empty(N_KINDS, np.int64)
    _discard_shanten(state, seat, forms, tables, after)
    best_shanten = 1_000
    for kind in range(N_KINDS):
        if not allowed[kind]:
            after[kind] = 1_000
        best_shanten = min(best_shanten, after[kind])
    if best_shanten == 1_000:  # nothing but wilds may go
        for kind in range(N_KINDS):
            if state.hands[seat, kind] > 0 and allowed[kind]:
                return kind
        return -1
    tied = 0
    only = -1
    for kind in range(N_KINDS):
        if after[kind] == best_shanten:
            tied += 1
            only = kind
    if tied == 1:
        return only
    keys = state.keys[seat].copy()
    wilds = state.wild_count[seat]
    best_kind = -1
    best_useful = -1
    for kind in range(N_KINDS):
        if after[kind] != best_shanten:
            continue
        keys[KIND_SUIT[kind]] -= KIND_POWER[kind]
        useful = _useful_tiles(state, seat, keys, wilds, best_shanten, forms, tables)
        keys[KIND_SUIT[kind]] += KIND_POWER[kind]
        if useful > best_useful:
            best_useful = useful
            best_kind = kind
    return best_kind


@kernel
def hand_shanten(state, seat, forms, tables):
    """Shanten of ``seat``'s concealed hand as it is."""
    out = np.empty(1, np.int64)
    wilds = np.full(1, state.wild_count[seat], np.int64)
    shanten_many(state.keys[seat : seat + 1], wilds, forms, tables, out)
    return out[0]


@kernel
def best_shanten_after_discard(state, seat, forms, tables):
    """The least shanten ``seat`` can reach by discarding one natural tile (after a claim)."""
    after = np.empty(N_KINDS, np.int64)
    _discard_shanten(state, seat, forms, tables, after)
    return after.min()
