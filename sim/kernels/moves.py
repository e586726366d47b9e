"""The shared vocabulary of the variant interface, and the moves every variant may use.

A variant's hooks (``sim.kernels.variant_type``) talk to the engine in these terms:

* ``HOW_*``: how a hand is won. The engine itself produces the first three (a self-draw, a win on
  a discard, robbing a kong); ``HOW_KONG_BLOOM`` is the win on a kong's replacement tile (a
  variant whose kong returns ``KONG_REPLACEMENT`` lists it when ``state.scalars[DRAW_SOURCE]`` is
  ``DRAW_REPLACEMENT``); a variant numbers its own special kinds from ``FIRST_VARIANT_HOW``.
* ``NO_WIN`` (-1): what a win hook returns when the hand may not win; otherwise it returns the
  win's feature bits (the variant's pattern bits; 0 is a plain win).
* ``KONG_*``: what the kong hook returns once the engine has made a kong.
* The outcome of a win, ``outcome`` int64 (N_OUTCOME,) with the ``O_*`` slots: the winners and
  their features, how, who pays, the winning tile and a point factor. The engine fills it for
  the wins it finds; a variant hook that ends the hand (a kong bloom, a kong cannon) fills it
  and the engine settles it through the variant's settle hook.
* Legal actions, ``actions`` int64 (MAX_ACTIONS, N_ACTION_FIELDS): what a variant's listing
  hooks (``own_turn_actions``, ``claim_actions``, ``plan_actions``; a declaration
  ``ACT_DECLARE`` on one's own turn, a plan ``ACT_PLAN`` at the deal) write, one row per legal
  action with the ``A_*`` fields, and what agents choose among (``sim.kernels.agents``).
  ``add_action`` appends a row.

The moves below touch only the state arrays documented in ``sim.kernels.state``; variants call
them instead of writing their own.
"""

from __future__ import annotations

import numpy as np

from ._jit import generic_inline_kernel, generic_kernel, inline_kernel, kernel
from .hand import KIND_POWER, KIND_SUIT, is_complete
from .state import (
    EVENT_INDICATOR,
    FLIP_HEAD,
    FLIP_TAIL,
    MELD_PONG,
    log_event,
    pop_back,
    pop_front,
)

HOW_SELF_DRAW = 0  # 自摸
HOW_DISCARD = 1  # a win on another player's discard (接炮, 点炮)
HOW_ROB_KONG = 2  # 抢杠胡
HOW_KONG_BLOOM = 3  # 杠上开花 / 杠开: a win on the tile drawn after one's own kong
FIRST_VARIANT_HOW = 4

NO_WIN = -1

KONG_CONTINUE = 0  # nobody won: the konger's next player draws
KONG_HAND_OVER = 1  # the kong ended the hand: the outcome is filled
KONG_REPLACEMENT = 2  # the konger draws a replacement from the tail and plays his turn again

# outcome slots
O_N_WINNERS = 0
O_HOW = 1
O_PAYER = 2  # the discarder or konger who pays alone, -1 when every other player pays
O_TILE = 3  # the winning tile, -1 for none
O_FACTOR = 4  # points are multiplied by this (2 for a kong bloom on two tiles, say)
O_WINNER = 5  # 4 slots: seats in claim order
O_FEATURES = 9  # 4 slots: feature bits per winner
N_OUTCOME = 13

# Legal actions: the kinds of action a variant lists ...
ACT_WIN = 0  # win: A_TILE the winning tile (-1: none drawn), A_DETAIL how (HOW_*), A_FEATURES
ACT_KONG = 1  # A_TILE the kind, A_DETAIL the meld type (MELD_CONCEALED/ADDED/DISCARD_KONG)
ACT_PONG = 2  # A_TILE the kind
ACT_CHI = 3  # A_TILE the first tile of the sequence
# a declaration on one's own turn (报听, say): A_DETAIL what (the variant's code), A_TILE a value
# (-1: none), A_VALUE how much the variant thinks it is worth to the agent (> 0: worth making).
# The engine logs it (EVENT_DECLARE) and the seat goes on to its discard; a variant may also
# ask an agent to choose among declarations it lists itself (agents.choose_declaration)
ACT_DECLARE = 4
# a plan offered at the deal (``plan_actions``), binding nothing: A_DETAIL the kinds the seat
# would mean to be rid of (bit k: kind k), A_TILE a value (-1: none). The agent's choice
# (agents.choose_plan) is kept by the engine for the hand, passed to the agent's later
# questions and never logged: the rules do not see it
ACT_PLAN = 5
# ... and the fields of each listed action
A_TYPE = 0  # ACT_*
A_TILE = 1
A_DETAIL = 2
A_FEATURES = 3  # a win's feature bits (the variant's pattern bits)
A_VALUE = 4  # a win's points as the variant pays them: what agents compare wins by
N_ACTION_FIELDS = 5
MAX_ACTIONS = 16  # own turn: two wins and up to eight kongs; a claim: win, kong, pong, 3 chi


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


@generic_inline_kernel
def emit(variant, state, event, seat, tile, detail, params):
    """Log an event (``EVENT_*``: the replay log) and tell it to the variant's ``observe`` hook,
    which keeps the variant's own per-seat state (a passed win, say)."""
    log_event(state, event, seat, tile, detail)
    # np.int64: a literal event code would compile observe once per code
    variant.observe(
        state.status, np.int64(event), np.int64(seat), np.int64(tile), np.int64(detail), params
    )


@generic_kernel
def flip(variant, state, params):
    """Turn up the next tile of the wall for the variant (an indicator: of the wilds, of the
    chickens, ...) at any moment a hook asks, before, during or after play: it leaves the wall,
    everyone sees it, and it is logged (``EVENT_INDICATOR``) and told to ``observe``. Returns its
    kind, or -1 when the wall is empty."""
    tile = pop_front(state)
    if tile >= 0:
        state.visible[tile] += 1
        emit(variant, state, EVENT_INDICATOR, -1, tile, FLIP_HEAD, params)
    return tile


@generic_kernel
def flip_tail(variant, state, params):
    """``flip`` for the last tile of the wall (the tail, where kong replacements come from): a
    variant that turns up the last undrawn tile too (a second chicken flip, say). Logged as an
    ``EVENT_INDICATOR`` with detail ``FLIP_TAIL``. Returns its kind, or -1 when the wall is
    empty."""
    tile = pop_back(state)
    if tile >= 0:
        state.visible[tile] += 1
        emit(variant, state, EVENT_INDICATOR, -1, tile, FLIP_TAIL, params)
    return tile


@inline_kernel
def add_action(actions, n_actions, action, tile, detail, features, value):
    """Write action row ``n_actions`` of a listing (``A_*`` fields); returns the new count."""
    actions[n_actions, A_TYPE] = action
    actions[n_actions, A_TILE] = tile
    actions[n_actions, A_DETAIL] = detail
    actions[n_actions, A_FEATURES] = features
    actions[n_actions, A_VALUE] = value
    return n_actions + 1


@inline_kernel
def count_listed(claims, n_claims, action):
    """How many rows of type ``action`` (ACT_*) the seats' listings ``claims`` hold."""
    count = 0
    for seat in range(n_claims.shape[0]):
        for row in range(n_claims[seat]):
            count += claims[seat, row, A_TYPE] == action
    return count


@kernel
def find_action(actions, n_actions, action):
    """The first listed row of type ``action`` (ACT_*), or -1."""
    for row in range(n_actions):
        if actions[row, A_TYPE] == action:
            return row
    return -1


@kernel
def holds_kong_shape(hand, melds, n_melds):
    """Whether a concealed ``hand`` holds four of a kind, or a tile of one of its pongs
    (``melds``: the seat's rows of ``state.melds``): the tiles an ordinary own-turn kong needs.
    The engine asks a variant for its own-turn actions only when this holds, a win is plausible
    or the variant flagged the seat (``ST_OWN_TURN_EXTRA``)."""
    for kind in range(hand.shape[0]):
        if hand[kind] == 4:
            return True
    for index in range(n_melds):
        if melds[index, 0] == MELD_PONG and hand[melds[index, 1]] > 0:
            return True
    return False


@inline_kernel
def claim_shape_held(
    hands, keys, wild_count, wild, forms, n_players, offerer, tile, stand_in, face, tables,
    chi=True,
):  # fmt: skip
    """Whether any other seat holds the shape of a claim on ``tile`` discarded by ``offerer``:
    a win the pre-check finds plausible (``forms``), two or more of the tile (a pong or a kong on
    the discard), or, for the offerer's next seat, the two other tiles of a sequence through it
    (a chi, natural or wild), a tile of kind ``stand_in`` (-1: none) playing ``face`` there or
    being the discard (``HAND_STAND_IN``); the chi shape only with ``chi`` (the variant's
    ``lists_chi``: a variant without chi would be asked in vain on most discards).
    The engine asks the variant for its claims on a discard only when this holds: most discards
    fit no claim, and the listing passes the state (docs/engine.md, ``claim_actions``)."""
    for offset in range(1, n_players):
        other = (offerer + offset) % n_players
        if hands[other, tile] >= 2:
            return True
        if plausible_win(keys[other], wild_count[other], tile, wild, forms, tables):
            return True
    played = face if tile == stand_in and stand_in >= 0 else tile
    if not chi or played >= 27:
        return False
    # a chi: the next seat holds the two other tiles of some sequence through the tile
    hand = hands[(offerer + 1) % n_players]
    rank = played % 9
    stand_ins = hand[stand_in] if stand_in >= 0 and tile != stand_in else 0
    below_1 = rank >= 1 and (hand[played - 1] > 0 or (played - 1 == face and stand_ins > 0))
    below_2 = rank >= 2 and (hand[played - 2] > 0 or (played - 2 == face and stand_ins > 0))
    above_1 = rank <= 7 and (hand[played + 1] > 0 or (played + 1 == face and stand_ins > 0))
    above_2 = rank <= 6 and (hand[played + 2] > 0 or (played + 2 == face and stand_ins > 0))
    return (below_2 and below_1) or (below_1 and above_1) or (above_1 and above_2)


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
