"""A table with no valued agent (value, cautious) plays an engine compiled without their
searches (``valued_agents=None``, ``sim.kernels.agents.VALUED_AGENTS``): numba leaves the
pruned branches out before typing, so their kernels are never compiled for it, and the games
are those of the engine compiled with them."""

from __future__ import annotations

import numpy as np
import pytest
from numba.core import ir, types
from numba.core.analysis import dead_branch_prune
from numba.core.compiler import run_frontend

from sim.core.wall import shuffled_walls
from sim.kernels import agents as AG
from sim.running.agents import agent_ids
from sim.variants import get_variant, session

PLAIN = ("efficiency", "random", "self_draw")


def _called_globals(function, argument_types: tuple) -> set[str]:
    """The names of the globals ``function``'s IR still calls once numba's dead-branch
    pruning has run for ``argument_types`` (what typing would then compile)."""
    func_ir = run_frontend(function.py_func)
    dead_branch_prune(func_ir, argument_types)
    # pruning leaves the dead blocks unreachable; keep those reachable from the entry
    reachable, todo = set(), [min(func_ir.blocks)]
    while todo:
        label = todo.pop()
        if label in reachable:
            continue
        reachable.add(label)
        todo.extend(func_ir.blocks[label].terminator.get_targets())
    names = set()
    for label in reachable:
        for statement in func_ir.blocks[label].body:
            if isinstance(statement, ir.Assign) and isinstance(statement.value, ir.Global):
                names.add(statement.value.name)
    return names


@pytest.mark.parametrize(
    ("function", "searches"),
    [
        (AG._discard_by_agent, {"valued_discard", "cautious_discard"}),
        (AG.choose_claim, {"_valued_claim"}),
    ],
)
def test_no_valued_agent_leaves_their_searches_out_of_the_compile(function, searches):
    n_arguments = function.py_func.__code__.co_argcount
    others = (types.int64,) * (n_arguments - 1)
    assert searches <= _called_globals(function, (*others, types.literal(True)))
    assert searches.isdisjoint(_called_globals(function, (*others, types.none)))


def test_only_a_value_or_cautious_seat_needs_their_searches():
    assert session.plays_plain(agent_ids((*PLAIN, "efficiency")))
    assert not session.plays_plain(agent_ids(("efficiency", "value", "random")))
    assert not session.plays_plain(agent_ids(("cautious",)))
    assert set(AG.VALUED_AGENTS) == {AG.AGENT_VALUE, AG.AGENT_CAUTIOUS}


@pytest.mark.engine
@pytest.mark.parametrize("name", ["anhua", "wengan", "anqing"])
def test_the_engine_without_them_plays_the_games_of_the_engine_with_them(name, monkeypatch):
    variant = get_variant(name)
    options = variant.options_class()
    players = variant.player_count(options)
    walls = shuffled_walls(48, variant.n_tiles, 11)
    dealers = variant.first_dealers(6, options, 11)
    seated = agent_ids((PLAIN * 2)[:players])
    plain = variant.play(options, walls, dealers, 8, seated, 5)
    monkeypatch.setattr(session, "plays_plain", lambda agent_kinds: False)
    full = variant.play(options, walls, dealers, 8, seated, 5)
    assert np.array_equal(plain, full)
    assert len(np.unique(plain, axis=0)) > 40  # 48 hands, not copies of a few outcomes
