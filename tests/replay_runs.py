"""Runs whose every hand is replayed as JSON Lines, for the replay tests
(``test_replay_schema.py``, ``test_replay_rescore.py``): a config of ``configs/`` with mixed
agents and small chunks, played (games table) and each hand replayed with
``sim.running.replay.replay_config`` (cheap once the engine is compiled: a replay plays at most the
chunk's earlier hands). Made once per process and config.
"""

from __future__ import annotations

import json
import tempfile
from functools import cache
from pathlib import Path

import pandas as pd

from sim.running import replay as run_replay
from sim.running import runner
from sim.running.config import load_config

ROOT = Path(__file__).resolve().parents[1]
N_HANDS = 300
CHUNK = 50
MIXED = ("random", "efficiency", "self_draw", "random")
SHIPPED = tuple(sorted(path.stem for path in (ROOT / "configs").glob("*.toml")))


def mixed_agents(name: str) -> str:
    """The ``run.agents`` override giving the config's seats mixed agents."""
    players = load_config(ROOT / "configs" / f"{name}.toml").n_players
    agents = ", ".join(f'"{agent}"' for agent in MIXED[:players])
    return f"run.agents=[{agents}]"


@cache
def logged_run(name: str, overrides: tuple[str, ...] = (), n_hands: int = N_HANDS):
    """(config, games table, each hand's JSON objects) of ``n_hands`` of ``configs/<name>``."""
    settings = [f"run.games={n_hands}", f"run.chunk_hands={CHUNK}", mixed_agents(name)]
    config = load_config(ROOT / "configs" / f"{name}.toml", [*settings, *overrides])
    with tempfile.TemporaryDirectory() as folder:
        path = runner.run(config, Path(folder) / "run", progress=False)
        games = pd.read_parquet(path / runner.GAMES).set_index("game")
    hands = []
    for game in range(n_hands):
        lines = run_replay.json_lines(run_replay.replay_config(config, game))
        hands.append([json.loads(line) for line in lines])
    return config, games, hands
