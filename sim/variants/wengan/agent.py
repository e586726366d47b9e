"""Weng'an 瓮安: what the value and cautious agents are told about the game (numba).

The generic agents (``sim.kernels.agents``) read hints of what a variant pays for in the bits of
the steer word above its forms (``STEER_*``); this module makes Weng'an's, from its options and,
during the hand, from what the other seats have shown (docs/strategies.md, "Weng'an"):

* 大对子 is worth ``TRIPLETS_WORTH`` plain wins (5 against a 平胡's 1, B5.1), and more: it wins
  on a discard without a 通行证, which a 平胡 cannot (B4.3);
* the fixed chickens (幺鸡 ``1s``, 乌骨鸡 ``8p`` with ``wu_gu_ji``, 星期鸡's rank with
  ``xing_qi_ji``) pay their owner from every other player (B5.5-B5.7): the kinds to keep;
* an opponent looks ready once he declared 报听 or shows ``DANGER_MELDS`` pongs or kongs (a
  大对子 in the making, and 通行证 for his 平胡): the cautious agent's cue (``STEER_DANGER``),
  recomputed for each seat as its turn begins (a draw or a pong).

Source: ``002_065383326e4e38d7.txt``; rules-spec Part B.
"""

from __future__ import annotations

import numpy as np

from ...kernels._jit import kernel
from ...kernels.agents import STEER_DANGER, STEER_KEEP_SHIFT, STEER_TRIPLETS_SHIFT
from ...kernels.state import HAND_ROW, HAND_STEER_FORMS, MAX_SEATS
from .options import P_WU_GU_JI, P_XING_QI_JI, P_XING_QI_JI_WEEKDAY

TRIPLETS_WORTH = 5
"""大对子's worth in plain wins (B5.1: 5 against 1), given to the value agent."""
DANGER_MELDS = 2
"""Pongs and kongs an opponent shows before the cautious agent treats him as ready."""
KEEP_CHICKENS = True
"""Whether the value agent is told to keep the fixed chickens (docs/strategies.md)."""
TRIPLETS = True
"""Whether the value agent is told what 大对子 is worth (docs/strategies.md)."""

_YAO_JI = 18  # 1s
_WU_GU_JI = 16  # 8p


@kernel
def steer_hints(params):
    """The steer word's hint bits for Weng'an under ``params``: 大对子's worth and the fixed
    chicken kinds to keep."""
    hints = np.int64(0)
    if TRIPLETS:
        hints |= np.int64(TRIPLETS_WORTH) << STEER_TRIPLETS_SHIFT
    if KEEP_CHICKENS:
        keep = np.int64(1) << _YAO_JI
        if params[P_WU_GU_JI] != 0:
            keep |= np.int64(1) << _WU_GU_JI
        if params[P_XING_QI_JI] != 0:
            rank = params[P_XING_QI_JI_WEEKDAY] - 1
            if 0 <= rank < 9:
                for suit in range(3):
                    keep |= np.int64(1) << (9 * suit + rank)
        hints |= keep << STEER_KEEP_SHIFT
    return hints


@kernel
def mark_danger(status, seat, declared_column, melds_column):
    """Set the steer word's ``STEER_DANGER`` for ``seat``, whose turn begins: some other seat
    declared 报听 (``declared_column``) or shows ``DANGER_MELDS`` pongs or kongs
    (``melds_column``)."""
    danger = False
    for other in range(MAX_SEATS):
        if other != seat and (
            status[other, declared_column] != 0 or status[other, melds_column] >= DANGER_MELDS
        ):
            danger = True
    if danger:
        status[HAND_ROW, HAND_STEER_FORMS] |= STEER_DANGER
    else:
        status[HAND_ROW, HAND_STEER_FORMS] &= ~np.int64(STEER_DANGER)
