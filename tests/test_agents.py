"""The agent registry (sim.running.agents) and choosing agents from Python."""

from __future__ import annotations

import pytest

from sim.running.agents import AGENTS, agent_ids
from sim.variants.anhua.play import play_anhua


def test_names_map_to_kinds():
    assert agent_ids(("efficiency", "random")) == (AGENTS["efficiency"], AGENTS["random"])


def test_unknown_agent_is_named():
    with pytest.raises(ValueError, match=r"agents\[1\]: unknown agent 'greedy'; allowed: "):
        agent_ids(("efficiency", "greedy"))


@pytest.mark.engine
def test_efficiency_agents_win_more_than_random_ones():
    """Seats 0 and 2 random, 1 and 3 efficiency: the efficient seats win most hands."""
    _, wins = play_anhua(2000, seed=2, agents=("random", "efficiency", "random", "efficiency"))
    by_seat = wins["seat"].value_counts()
    assert by_seat[1] + by_seat[3] > 3 * (by_seat.get(0, 0) + by_seat.get(2, 0))


def test_wrong_number_of_agents():
    with pytest.raises(ValueError, match="agents: 3 names for 4 players"):
        play_anhua(4, agents=("random",) * 3)
