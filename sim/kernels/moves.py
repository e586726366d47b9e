"""The shared vocabulary of the variant interface, and the moves every variant may use.

A variant's hooks (``sim.kernels.variant_type``) talk to the engine in these terms:

* ``HOW_*``: how a hand is won. The engine itself produces the first three (a self-draw, a win on
  a discard, robbing a kong); a variant numbers its own special kinds from ``FIRST_VARIANT_HOW``.
* ``NO_WIN`` (-1): what a win hook returns when the hand may not win; otherwise it returns the
  win's feature bits (the variant's pattern bits; 0 is a plain win).
* ``KONG_*``: what the kong hook returns once the engine has made a kong.
* The outcome of a win, ``outcome`` int64 (N_OUTCOME,) with the ``O_*`` slots: the winners and
  their features, how, who pays, the winning tile and a point factor. The engine fills it for
  the wins it finds; a variant hook that ends the hand (a kong bloom, a kong cannon) fills it
  and the engine settles it through the variant's settle hook.

The moves below touch only the state arrays documented in ``sim.kernels.state``; variants call
them instead of writing their own.
"""

from __future__ import annotations

import numpy as np

from ._jit import inline_kernel, kernel
from .agents import accepts_win
from .hand import KIND_POWER, KIND_SUIT, is_complete
from .state import EVENT_PASS_WIN, log_event

HOW_SELF_DRAW = 0  # 自摸
HOW_DISCARD = 1  # a win on another player's discard (接炮, 点炮)
HOW_ROB_KONG = 2  # 抢杠胡
FIRST_VARIANT_HOW = 3

NO_WIN = -1

KONG_CONTINUE = 0  # nobody won: the konger's next player draws
KONG_HAND_OVER = 1  # the kong ended the hand: the outcome is filled

# outcome slots
O_N_WINNERS = 0
O_HOW = 1
O_PAYER = 2  # the discarder or konger who pays alone, -1 when every other player pays
O_TILE = 3  # the winning tile, -1 for none
O_FACTOR = 4  # points are multiplied by this (Anhua: 2 for a double kong bloom)
O_WINNER = 5  # 4 slots: seats in claim order
O_FEATURES = 9  # 4 slots: feature bits per winner
N_OUTCOME = 13


@inline_kernel
def plausible_win(keys, wilds, tile, wild, forms, tables):
    """Whether a concealed hand with suit keys ``keys`` (naturals) and ``wilds`` wild tiles, plus
    ``tile`` (-1: none), is complete in one of ``forms`` with every wild counted wild.

    The cheap pre-check before a variant's win hook: four table lookups. A variant's
    ``win_forms`` hook must let every hand its win hook accepts pass."""
    # no branches: numba can then drop the reference counts of the tables it binds per call
    kind = max(tile, 0)
    present = np.int64(tile >= 0)
    as_wild = present * np.int64(wild[kind])
    power = KIND_POWER[kind] * (present - as_wild)
    suit = KIND_SUIT[kind]
    key_m = keys[0] + power * (suit == 0)
    key_p = keys[1] + power * (suit == 1)
    key_s = keys[2] + power * (suit == 2)
    key_z = keys[3] + power * (suit == 3)
    wilds = wilds + as_wild
    return is_complete(key_m, key_p, key_s, key_z, wilds, forms, tables)


@kernel
def meld_suits(state, seat):
    """Bit s set when ``seat`` has a meld of suit s."""
    suits = 0
    for index in range(state.n_melds[seat]):
        suits |= 1 << (state.melds[seat, index, 1] // 9)
    return suits


@kernel
def meld_index(state, seat, meld_type, kind):
    """The index of ``seat``'s meld of ``meld_type`` starting at ``kind``, or -1."""
    for index in range(state.n_melds[seat]):
        if state.melds[seat, index, 0] == meld_type and state.melds[seat, index, 1] == kind:
            return index
    return -1


@kernel
def remove_discard(state, seat, tile):
    """Take the last ``tile`` out of ``seat``'s discard pile (a discard won on)."""
    for index in range(state.n_discards[seat] - 1, -1, -1):
        if state.discards[seat, index] == tile:
            for later in range(index, state.n_discards[seat] - 1):
                state.discards[seat, later] = state.discards[seat, later + 1]
            state.n_discards[seat] -= 1
            state.visible[tile] -= 1
            return


@kernel
def takes_claimed_win(state, seat, features, tile):
    """Ask ``seat``'s agent whether it wins on ``tile`` offered by another player; a pass is
    漏胡: the seat may not win on that kind from others until it draws (``passed_wins``)."""
    if accepts_win(state.agents[seat], features, tile):
        return True
    state.passed_wins[seat] |= np.int64(1) << tile
    log_event(state, EVENT_PASS_WIN, seat, tile, 0)
    return False


@inline_kernel
def set_single_win(outcome, winner, features, how, payer, tile, factor):
    """Fill ``outcome`` with one winner."""
    outcome[O_N_WINNERS] = 1
    outcome[O_HOW] = how
    outcome[O_PAYER] = payer
    outcome[O_TILE] = tile
    outcome[O_FACTOR] = factor
    outcome[O_WINNER] = winner
    outcome[O_FEATURES] = features
