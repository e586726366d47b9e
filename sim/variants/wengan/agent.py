"""Weng'an 瓮安: what the value and cautious agents are told about the game (numba).

The generic agents (``sim.kernels.agents``) read hints of what a variant pays for in the bits of
the steer word above its forms (``STEER_*``); this module makes Weng'an's, from its options and,
during the hand, from what the other seats have shown (docs/strategies.md, "Weng'an"):

* 大对子 is worth ``TRIPLETS_WORTH`` plain wins (5 against a 平胡's 1, §wengan-pattern-score), and
  more: it wins on a discard without a 通行证, which a 平胡 cannot (§wengan-passport); 七对 5 and
  清一色 10 likewise. Playing for them costs readiness, which chickens, dou and 包 pay for (off:
  ``TRIPLETS``, ``TARGETS``); once ready, the value agent keeps the wait worth most, a win as 大对子
  or 七对 counting ``BIG_WAIT_WORTH`` (docs/strategies.md, "Weng'an");
* 冲锋鸡: the hand's first discarded 幺鸡 ``1s`` (and ``8p`` with ``wu_gu_ji``) that nobody claims
  counts double for its discarder, who owns his unclaimed discards (§wengan-chickens,
  §wengan-chicken-collection): the kinds to lead with (``STEER_LEAD_SHIFT``; keeping them instead
  loses, docs/strategies.md);
* claims pay: a pong is a step to 大对子 and to a 爬坡豆 (3 from each other player), so the
  value agent claims as the efficiency agent does (``STEER_CLAIMS_PAY``);
* an opponent looks ready once he declared 报听 or shows ``DANGER_MELDS`` pongs or kongs (a
  大对子 in the making, and 通行证 for his 平胡): the cautious agent's cue (``STEER_DANGER``),
  recomputed for each seat as its turn begins (a draw or a pong).

Rules: docs/rules/wengan.md.
"""

from __future__ import annotations

import numpy as np

from ...kernels._jit import kernel
from ...kernels.agents import (
    STEER_BIG_SHIFT,
    STEER_CLAIMS_PAY,
    STEER_DANGER,
    STEER_FLUSH_SHIFT,
    STEER_LEAD_SHIFT,
    STEER_PAIRS_SHIFT,
    STEER_TARGETS,
    STEER_TRIPLETS_SHIFT,
)
from ...kernels.state import HAND_ROW, HAND_STEER_FORMS, MAX_SEATS
from .options import OPTION, P_CHONG_FENG_MODE, P_WU_GU_JI

TRIPLETS_WORTH = 5
"""大对子's worth in plain wins (§wengan-pattern-score: 5 against 1), given to the value agent."""
PAIRS_WORTH = 5
"""七对's worth in plain wins (§wengan-pattern-score: 5; 龙七对 20)."""
FLUSH_WORTH = 10
"""清一色's worth in plain wins (§wengan-pattern-score: 10)."""
DANGER_MELDS = 0
"""Pongs and kongs an opponent shows before the cautious agent treats him as ready (0: never;
only a declared 报听 is the cue, docs/strategies.md)."""
LEAD_CHICKENS = False
"""Whether the value agent is told to lead with the charging chickens (docs/strategies.md)."""
CLAIMS_PAY = True
"""Whether the value agent is told that claims pay (docs/strategies.md)."""
TRIPLETS = False
"""Whether the value agent is told what 大对子 is worth (docs/strategies.md)."""
TARGETS = False
"""Whether the value agent plays for 七对 and 清一色 (from ``seven_pairs_from`` pairs,
``flush_off_suit`` tiles off suit; docs/strategies.md): off, ``STEER_TARGETS`` alone."""
BIG_WAIT_WORTH = 5
"""A ready hand's win as 大对子 or 七对, in plain wins (§wengan-pattern-score: 5 against a 平胡's 1;
and it may win on a discard without a 通行证, §wengan-how-to-win): the value agent keeps the wait
worth most."""

_YAO_JI = 18  # 1s
_WU_GU_JI = 16  # 8p
_CHONG_FENG_OFF = OPTION["chong_feng_mode"].code("none")
_CHONG_FENG_PLAIN = OPTION["chong_feng_mode"].code("plain")  # the only mode that counts 8p


@kernel
def steer_hints(params):
    """The steer word's hint bits for Weng'an under ``params``: 大对子's worth, claims, and the
    charging chickens (冲锋鸡, any ``chong_feng_mode``) to lead with."""
    hints = np.int64(STEER_TARGETS)
    if TARGETS:
        hints |= (np.int64(PAIRS_WORTH) << STEER_PAIRS_SHIFT) | (
            np.int64(FLUSH_WORTH) << STEER_FLUSH_SHIFT
        )
    if TRIPLETS:
        hints |= np.int64(TRIPLETS_WORTH) << STEER_TRIPLETS_SHIFT
    if CLAIMS_PAY:
        hints |= np.int64(STEER_CLAIMS_PAY)
    hints |= np.int64(BIG_WAIT_WORTH) << STEER_BIG_SHIFT
    if LEAD_CHICKENS and params[P_CHONG_FENG_MODE] != _CHONG_FENG_OFF:
        lead = np.int64(1) << _YAO_JI
        if params[P_WU_GU_JI] != 0 and params[P_CHONG_FENG_MODE] == _CHONG_FENG_PLAIN:
            lead |= np.int64(1) << _WU_GU_JI
        hints |= lead << STEER_LEAD_SHIFT
    return hints


@kernel
def mark_danger(status, seat, declared_column, melds_column):
    """Set the steer word's ``STEER_DANGER`` for ``seat``, whose turn begins: some other seat
    declared 报听 (``declared_column``) or shows ``DANGER_MELDS`` pongs or kongs
    (``melds_column``)."""
    danger = False
    for other in range(MAX_SEATS):
        if other != seat and (
            status[other, declared_column] != 0
            or (DANGER_MELDS > 0 and status[other, melds_column] >= DANGER_MELDS)
        ):
            danger = True
    if danger:
        status[HAND_ROW, HAND_STEER_FORMS] |= STEER_DANGER
    else:
        status[HAND_ROW, HAND_STEER_FORMS] &= ~np.int64(STEER_DANGER)
