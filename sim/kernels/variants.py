"""The variant interface: the hooks the game loop calls, each dispatching on the variant id.

The engine (``sim.kernels.engine``) plays what every variant shares: the deal, draws and
discards, the claim order (win > kong / pong > chi, several winners in turn order from the
discarder), robbing a kong, the exhaustive draw, records and the replay log. Everything a rule
set decides goes through the hooks below; a variant implements them in its own module
(``anhua_hooks``) and adds its branch to each. docs/engine.md says what each hook must do and
what Weng'an and Anqing will need of them.

Why branches and not functions passed in: numba's disk cache keys a loop that takes functions
as arguments by their addresses, so every process would recompile the engine. The hooks are
inlined into the loop. Each hook tests the ids of the other variants in turn and falls through
to Anhua's, with no exception path: ``engine.play_hands`` checks the id once per block, and an
exception path in an inlined hook cost the engine 3 % of its speed (it keeps numba from pairing
up the reference counts of the state and tables it binds). A new variant adds
``if variant == VARIANT_X: return x_hooks.hook(...)`` at the top of each hook.

Hooks (``state``: the game state of ``sim.kernels.state``; ``params``: the variant's int64
options; ``tables``: the evaluator tables):

* ``setup(variant, state, params, record)``: after the deal. Wilds (``set_wild``), the
  variant's hand-row slots and ``HAND_STEER_FORMS`` (the forms agents aim for), the record's
  variant slots set at the deal.
* ``win_forms(variant)``: a constant, the hand forms (``FORM_*``) a win may take when every wild
  is counted wild; every hand the win hook accepts must pass ``moves.plausible_win`` with it.
  Most win questions end at that four-lookup check.
* ``win(variant, state, seat, how, params, tables)``: feature bits of the best legal win of
  ``seat``'s concealed hand as it is (the winning tile in it) won ``how``, or ``NO_WIN``.
* ``own_turn_win(variant, hand, status, seat, params)``: a special win the seat may declare at
  the start of its own turn (Anhua's instant king win), from its concealed ``hand`` and the
  state's ``status``: (features, how), features ``NO_WIN`` when there is none. The engine asks
  the agent. It runs every turn, so it takes those two arrays and not the state (docs/engine.md,
  speed notes).
* ``tile_winnable(variant, state, tile, params)``: whether anyone may win on ``tile`` offered
  by another player (a discard, a robbed kong tile).
* ``max_winners(variant, how, kong_type, params)``: how many may win on one offered tile
  (``HOW_DISCARD``; ``HOW_ROB_KONG`` of a kong of ``kong_type``: 0 when it cannot be robbed).
* ``may_claim(variant, hand, wild, is_next, kind, params)``: whether a seat holding ``hand``
  has a legal pong or chi of the discarded ``kind`` (``is_next``: it sits after the discarder).
* ``kong_allowed(variant, state, seat, kind, kong_type, params, tables)``: whether ``seat`` may
  make this kong now (the engine has checked it holds the tiles).
* ``kong(variant, state, konger, kind, kong_type, from_seat, params, tables, outcome)``: the
  variant's procedure after the engine made the kong: ``KONG_CONTINUE`` or ``KONG_HAND_OVER``
  with ``outcome`` filled (``sim.kernels.moves``).
* ``settle_win(variant, state, outcome, params, record, delta)``: points, payments into
  ``delta``, the record's points and variant slots; returns the next dealer.
* ``settle_draw(variant, state, last_drawer, params, record, delta)``: the exhaustive draw's
  payments; returns the next dealer.
"""

from __future__ import annotations

from . import anhua_hooks
from ._jit import inline_kernel

VARIANT_ANHUA = 0
VARIANT_NAMES = ("anhua",)
N_VARIANTS = len(VARIANT_NAMES)


@inline_kernel
def setup(variant, state, params, record):
    anhua_hooks.setup(state, params, record)


@inline_kernel
def win_forms(variant):
    return anhua_hooks.WIN_FORMS


@inline_kernel
def win(variant, state, seat, how, params, tables):
    return anhua_hooks.win(state, seat, how, params, tables)


@inline_kernel
def own_turn_win(variant, hand, status, seat, params):
    return anhua_hooks.own_turn_win(hand, status, seat, params)


@inline_kernel
def tile_winnable(variant, state, tile, params):
    return anhua_hooks.tile_winnable(state, tile, params)


@inline_kernel
def max_winners(variant, how, kong_type, params):
    return anhua_hooks.max_winners(how, kong_type, params)


@inline_kernel
def may_claim(variant, hand, wild, is_next, kind, params):
    return anhua_hooks.may_claim(hand, wild, is_next, kind)


@inline_kernel
def kong_allowed(variant, state, seat, kind, kong_type, params, tables):
    return anhua_hooks.kong_allowed(state, seat, kind, kong_type, params, tables)


@inline_kernel
def kong(variant, state, konger, kind, kong_type, from_seat, params, tables, outcome):
    return anhua_hooks.kong(state, konger, kind, kong_type, from_seat, params, tables, outcome)


@inline_kernel
def settle_win(variant, state, outcome, params, record, delta):
    return anhua_hooks.settle_win(state, outcome, params, record, delta)


@inline_kernel
def settle_draw(variant, state, last_drawer, params, record, delta):
    return anhua_hooks.settle_draw(state, last_drawer, params, record, delta)
