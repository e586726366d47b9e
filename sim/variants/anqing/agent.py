"""Anqing 安庆: what the value and cautious agents are told about the game (numba).

The generic agents (``sim.kernels.agents``) read hints of what a variant pays for in the bits of
the steer word above its forms (``STEER_*``); this module makes Anqing's (docs/strategies.md,
"Anqing"):

* claims: a seat that fed the winner three 口 (melds made of its discards) pays him 3, 6 or 12 times
  (包, §anqing-bao): the value agent claims as the efficiency agent does (``CLAIMS_PAY``; claiming
  less lost the 包 it would have collected, docs/strategies.md, "Anqing"), except that a hand
  without melds near ready claims only what makes it ready (``CONCEALED``, ``concealed_within``):
  门清 is 3 of a plain win's 6 (§anqing-score-table); the hooks list each pong and chi with the 口
  it makes in ``A_VALUE`` (``claim_worth_from``, ``claim_worth_cost``);
* 跑风 (§anqing-zuan-conditions, §anqing-score-table: 6 on a base of 3): a win on the pair, the
  middle or the edge of a set; once ready, the value agent keeps the wait worth most, such a win
  counting ``SHAPED_WORTH``;
* 碰碰胡 adds 3 to a win's base 3 (§anqing-score-table), and three or four pongs from one feeder
  raise his 包 factor to 6 or 12: all triplets are worth ``TRIPLETS_WORTH`` plain wins
  (``TRIPLETS``, off: playing for them lost);
* ``STEER_TARGETS``: no other target (the hints may otherwise be 0);
* a seat is in danger of paying a 包 once an opponent holds ``DANGER_MOUTHS`` 口 of its
  discards: the cautious agent's cue (``STEER_DANGER``), recomputed for each seat as its turn
  begins (a draw, a chi or a pong).

Anqing pays nothing for a flush (清一色 is no item of §anqing-score-table) and only 七对有钻 among
seven pairs without 天胡, so the value agent is not told to play for either (declining claims for
them costs the claims' 包).

Every kong Anqing lists is safe (no robbing, no win on a discard: A_VALUE 1 on its rows), so the
cautious agent kongs its 杠牌 and 钻 as the others do. The 钻 is a wild, kept by every agent but
the random one.

Rules: docs/rules/anqing.md.
"""

from __future__ import annotations

import numpy as np

from ...kernels._jit import kernel
from ...kernels.agents import (
    STEER_CLAIMS_PAY,
    STEER_CONCEALED,
    STEER_DANGER,
    STEER_DANGER_NEXT,
    STEER_SHAPED_SHIFT,
    STEER_TARGETS,
    STEER_TRIPLETS_SHIFT,
)
from ...kernels.state import HAND_ROW, HAND_STEER_FORMS, MAX_SEATS
from .options import N_PLAYERS

TRIPLETS_WORTH = 2
"""碰碰胡's worth in plain wins (base 3 + 3, §anqing-score-table), given to the value agent."""
DANGER_MOUTHS = 2
"""口 of a seat's discards an opponent holds before the cautious agent plays safe."""
CLAIMS_PAY = True
"""Whether the value agent is told that claims pay (docs/strategies.md): on by default."""
TRIPLETS = False
"""Whether the value agent is told what all triplets are worth (docs/strategies.md)."""
CONCEALED = True
"""Whether the value agent is told that a concealed hand pays (门清 3, §anqing-score-table): near
ready (``concealed_within``) it claims only what makes it ready."""
SHAPED_WORTH = 2
"""A 跑风 win's worth in plain wins (§anqing-score-table: 跑风 6 on a base of 3), given to the value
agent: a win on the pair, the middle or the edge of a set (§anqing-zuan-conditions) is 跑风 when
self-drawn at its face."""


@kernel
def steer_hints(params):
    """The steer word's hint bits for Anqing under ``params``."""
    hints = np.int64(STEER_TARGETS)  # no flush or seven pairs: Anqing pays neither
    if CLAIMS_PAY:
        hints |= np.int64(STEER_CLAIMS_PAY)
    if TRIPLETS:
        hints |= np.int64(TRIPLETS_WORTH) << STEER_TRIPLETS_SHIFT
    hints |= np.int64(SHAPED_WORTH) << STEER_SHAPED_SHIFT
    if CONCEALED:
        hints |= np.int64(STEER_CONCEALED)
    return hints


@kernel
def mark_danger(status, seat, mouths_column):
    """Set the steer word's ``STEER_DANGER`` for ``seat``, whose turn begins: some opponent
    holds ``DANGER_MOUTHS`` 口 of its discards (``mouths_column``: 4 bits per feeder), one
    more is his third (包); and ``STEER_DANGER_NEXT`` when that opponent is the next seat, who
    may take it by a chi as well as a pong (most 包 run so, docs/strategies.md)."""
    danger = False
    next_seat = False
    for other in range(MAX_SEATS):
        if other != seat and (status[other, mouths_column] >> (4 * seat)) & 15 >= DANGER_MOUTHS:
            danger = True
            if other == (seat + 1) % N_PLAYERS:
                next_seat = True
    bits = np.int64(STEER_DANGER) | np.int64(STEER_DANGER_NEXT)
    status[HAND_ROW, HAND_STEER_FORMS] &= ~bits
    if danger:
        status[HAND_ROW, HAND_STEER_FORMS] |= STEER_DANGER
    if next_seat:
        status[HAND_ROW, HAND_STEER_FORMS] |= STEER_DANGER_NEXT
