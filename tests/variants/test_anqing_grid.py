"""Anqing's invariant grid: every hand of the Anqing engine checked by the tile
ledger and Anqing's rule checks (``sim.variants.anqing.checks``), at 10,000 hands a cell of its
option grid (both 见字胡 readings x both 跑风 definitions x two settings of 直叫, the 杠牌
discard and 累加), the default agent in every seat and random agents in two.

Per hand (``check_hand``: the generic ledger, which shares no code with the game loop, and
Anqing's checks over it): tiles conserved after every event, hands of legal size, every move
legal in shape; no win on a discard and no robbing (只能自摸胡牌); no win that breaks the 钻
conditions (re-scored from the log); no class-1 win while holding an un-konged 杠牌; no 钻 or 杠牌
claimed or melded, chi only by the next player; 杠牌 discarded only where allowed; single-tile
kongs only of 杠牌 and 钻 (直叫 only when ready); every settlement zero-sum, its items summing
to S.

Rules: docs/rules/anqing.md (安庆麻将): 只能自摸胡牌; 钻不可以吃碰; 杠牌只能用来杠;
钻牌在形成直叫时才能用来杠; the 钻 conditions of the introduction.
"""

from __future__ import annotations

import multiprocessing

import numpy as np
import pytest

from sim.core.wall import shuffled_walls
from sim.kernels import record as R
from sim.kernels.agents import AGENT_EFFICIENCY, AGENT_RANDOM
from sim.variants.anqing import AnqingOptions
from sim.variants.anqing import checks as C
from sim.variants.anqing.record_slots import RA_SINGLE_KONGS, RA_ZUAN_KONGS

GRID = C.INVARIANT_GRID
N_JOBS = 2  # the development machine and CI have two cores
EFFICIENT = (AGENT_EFFICIENCY,) * 4
MIXED = (AGENT_RANDOM, AGENT_EFFICIENCY, AGENT_RANDOM, AGENT_EFFICIENCY)


def _run_cell(cell: dict, n_games: int, seed: int, agents) -> dict:
    """Play and check ``n_games`` hands of one cell: failures, wins and what happened."""
    options = AnqingOptions(**cell)
    walls = shuffled_walls(n_games, 136, seed)
    dealers = np.random.default_rng(seed).integers(0, 4, -(-n_games // 8))
    checked = C.check_games(options, walls, dealers, 8, agents, seed)
    records = checked.records
    return {
        "cell": cell,
        "failed": int((checked.errors[:, 0] != 0).sum()),
        "first": checked.first_failure(),
        "won": int((records[:, R.R_N_WINNERS] > 0).sum()),
        "zero_sum": bool((records[:, R.R_DELTA : R.R_DELTA + 4].sum(axis=1) == 0).all()),
        "single_kongs": int(records[:, RA_SINGLE_KONGS : RA_SINGLE_KONGS + 4].sum()),
        "zuan_kongs": int(records[:, RA_ZUAN_KONGS].sum()),
    }


@pytest.mark.slow
@pytest.mark.parametrize(("agents", "n_games"), [(EFFICIENT, 10_000), (MIXED, 2_000)])
def test_every_hand_of_every_cell_passes_the_checks(agents, n_games):
    """10,000 hands a cell with the default agent (2,000 with random agents in two seats, who
    pass wins and throw 钻 and 杠牌 where allowed): no hand fails a check, every settlement is
    zero-sum, and the cells saw wins, single-tile kongs and 直叫 kongs."""
    jobs = [(cell, n_games, 700 + index, agents) for index, cell in enumerate(GRID)]
    # forked workers inherit this module: a pool that imports it by name would need the
    # repository root on its path
    with multiprocessing.get_context("fork").Pool(N_JOBS) as pool:
        results = pool.starmap(_run_cell, jobs)
    failures = [f"{r['cell']}: {r['first']}" for r in results if r["failed"]]
    assert not failures, "\n".join(failures[:5])
    for result in results:
        assert result["zero_sum"], result["cell"]
        assert result["won"] > n_games // 2, result
        assert result["single_kongs"] > 0 and result["zuan_kongs"] > 0, result
