"""Agent policies (numba). Every decision of a seat is asked of its agent here.

Agents are integers (``AGENT_*``) with a float64 parameter row each; ``sim.agents`` keeps the
registry of names. Decisions read the game state (sim.kernels.state) and the evaluator tables;
they never change the state.

The efficiency agent (default): wins whenever allowed, keeps wilds, discards the tile that leaves
the lowest shanten (ties: the most tiles still unseen that would lower it further, then the
lowest kind id, which is deterministic), claims a pong or chi only when the hand after the claim
and the best discard is no further from ready than before.
"""

from __future__ import annotations

import numpy as np

from ._jit import kernel
from .hand import KIND_POWER, KIND_SUIT, N_KINDS, shanten
from .state import N_TILES

AGENT_EFFICIENCY = 0
AGENT_RANDOM = 1


@kernel
def _shanten_of(keys, wilds, forms, tables):
    return shanten(keys[0], keys[1], keys[2], keys[3], wilds, forms, tables)


@kernel
def _useful_tiles(state, seat, keys, wilds, current, forms, tables):
    """How many tiles unseen by ``seat`` would lower the shanten of ``keys`` + ``wilds``."""
    total = 0
    n_kinds = N_KINDS if state.scalars[N_TILES] == 136 else 27
    for kind in range(n_kinds):
        if state.wild[kind]:
            continue
        unseen = 4 - np.int64(state.visible[kind]) - np.int64(state.hands[seat, kind])
        if unseen <= 0:
            continue
        suit = KIND_SUIT[kind]
        keys[suit] += KIND_POWER[kind]
        if _shanten_of(keys, wilds, forms, tables) < current:
            total += unseen
        keys[suit] -= KIND_POWER[kind]
    return total


@kernel
def efficiency_discard(state, seat, forms, allowed, tables):
    """The discard of the efficiency agent: a kind held by ``seat`` with ``allowed[kind]``.

    Lowest shanten after the discard; among equals, the most useful tiles left (computed only
    when there is a tie); then the lowest kind id. Wilds are discarded only when nothing else is
    allowed.
    """
    keys = state.keys[seat].copy()
    wilds = state.wild_count[seat]
    after = np.full(N_KINDS, 1_000, np.int64)
    best_shanten = 1_000
    for kind in range(N_KINDS):
        if state.hands[seat, kind] == 0 or not allowed[kind] or state.wild[kind]:
            continue
        suit = KIND_SUIT[kind]
        keys[suit] -= KIND_POWER[kind]
        after[kind] = _shanten_of(keys, wilds, forms, tables)
        keys[suit] += KIND_POWER[kind]
        best_shanten = min(best_shanten, after[kind])
    if best_shanten == 1_000:  # nothing but wilds may go
        for kind in range(N_KINDS):
            if state.hands[seat, kind] > 0 and allowed[kind]:
                return kind
        return -1
    tied = 0
    for kind in range(N_KINDS):
        if after[kind] == best_shanten:
            tied += 1
    best_kind = -1
    best_useful = -1
    for kind in range(N_KINDS):
        if after[kind] != best_shanten:
            continue
        if tied == 1:
            return kind
        suit = KIND_SUIT[kind]
        keys[suit] -= KIND_POWER[kind]
        useful = _useful_tiles(state, seat, keys, wilds, best_shanten, forms, tables)
        keys[suit] += KIND_POWER[kind]
        if useful > best_useful:
            best_useful = useful
            best_kind = kind
    return best_kind


@kernel
def hand_shanten(state, seat, forms, tables):
    """Shanten of ``seat``'s concealed hand as it is."""
    return _shanten_of(state.keys[seat], state.wild_count[seat], forms, tables)


@kernel
def best_shanten_after_discard(state, seat, forms, tables):
    """The least shanten ``seat`` can reach by discarding one natural tile (after a claim)."""
    keys = state.keys[seat].copy()
    wilds = state.wild_count[seat]
    best = 1_000
    for kind in range(N_KINDS):
        if state.hands[seat, kind] == 0 or state.wild[kind]:
            continue
        suit = KIND_SUIT[kind]
        keys[suit] -= KIND_POWER[kind]
        best = min(best, _shanten_of(keys, wilds, forms, tables))
        keys[suit] += KIND_POWER[kind]
    return best
