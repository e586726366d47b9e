"""Replay one hand of a run directory or of a config: play it again with the event log on,
and print it as text or JSON Lines.

The hand is played from the seed again: the runner's chunk seeds (``sim.running.runner``) give its
chunk's walls, first dealers and the random agent's seed, and the chunk's hands before it are
played to reach the same dealer and generator state. The words come from the variant's
``describe`` and ``describe_json``, built on the generic pieces of :mod:`sim.variants.replay`.

This module sits above the runner and the configs; :mod:`sim.variants.replay`, which the variants
use, sits below them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..kernels import record as R
from ..kernels import state as S
from ..variants.replay import SCHEMA, json_object, wall_names
from .agents import agent_ids
from .config import RunConfig
from .run_checks import check_run
from .runner import GAMES, chunk_inputs, chunk_of

FORMATS = ("text", "json")
"""What ``replay_lines`` writes: lines of text, or JSON Lines."""


@dataclass(frozen=True)
class ReplayedHand:
    """Hand ``game`` of a configuration played again with the log on: its wall, record
    (``sim.kernels.record.R_*``), events (int64 (n, 4): event, seat, tile, detail) and final
    position."""

    config: RunConfig
    game: int
    wall: np.ndarray
    record: np.ndarray
    events: np.ndarray
    final: S.FinalPosition


def replay_config(config: RunConfig, game: int) -> ReplayedHand:
    """Hand ``game`` as the run ``config`` plays it: the chunk's walls, dealers and agent seed
    are made again from the seed, and the chunk's hands before it are played to reach its dealer
    and the random agent's generator state."""
    chunk = chunk_of(config, game)
    walls, dealers, agent_seed = chunk_inputs(config, chunk)
    index = game - chunk.first_game
    record, events, final = config.spec.replay(
        config.options,
        walls,
        dealers,
        config.hands_per_session,
        agent_ids(config.agents),
        agent_seed,
        index,
        agent_params=config.agent_params,
    )
    return ReplayedHand(config, game, walls[index].copy(), record, events, final)


def replay_run(path: str | Path, game: int) -> ReplayedHand:
    """Replay hand ``game`` of a run directory (``sim.running.runner``), once the folder passes
    its checks (``sim.running.run_checks``), and check its record against the stored row."""
    config = check_run(path).config
    hand = replay_config(config, game)
    record = hand.record
    stored = pd.read_parquet(f"{path}/{GAMES}", filters=[("game", "==", game)])
    n_players = config.n_players
    replayed = [int(record[R.R_DELTA + seat]) for seat in range(n_players)]
    kept = [int(stored[f"delta_{seat}"].iloc[0]) for seat in range(n_players)]
    if replayed != kept or int(record[R.R_DEALER]) != int(stored["dealer"].iloc[0]):
        raise ValueError(
            f"{path}: the replay of hand {game} differs from the stored row (score changes "
            f"{replayed} against {kept}); was the run made by another version of the engine?"
        )
    return hand


def text_lines(hand: ReplayedHand) -> list[str]:
    """A header line, then the variant's ``describe``: events, final tiles, wins, result."""
    config, game = hand.config, hand.game
    per_session = config.hands_per_session
    header = (
        f"{config.label}, hand {game} (session {game // per_session}, hand "
        f"{game % per_session} of it), dealer seat {int(hand.record[R.R_DEALER])}, "
        f"agents {', '.join(config.agents)}"
    )
    described = config.spec.describe(
        hand.events, hand.record, config.n_players, hand.final, wall=hand.wall
    )
    return [header, *described]


def header_object(hand: ReplayedHand, variant_fields: dict[str, Any] | None = None) -> dict:
    """The ``hand`` line: the schema of the JSON form (``sim.variants.replay.SCHEMA``), what the
    hand was played with, enough to play it again, the variant's ``variant_fields`` (its 连庄 count)
    and the whole wall as dealt, head first."""
    config, game = hand.config, hand.game
    fields = {
        "schema": SCHEMA,
        "variant": config.variant,
        "label": config.label,
        "config_hash": config.hash(),
        "seed": config.seed,
        "game": game,
        "session": game // config.hands_per_session,
        "hand_in_session": game % config.hands_per_session,
        "dealer": int(hand.record[R.R_DEALER]),
        "n_players": config.n_players,
        "agents": list(config.agents),
        "options": config.resolved()["options"],
    }
    fields |= variant_fields or {}
    fields["wall"] = wall_names(hand.wall)
    return json_object("hand", -1, -1, fields)


def json_lines(hand: ReplayedHand) -> list[str]:
    """The hand as JSON Lines: the header, then the variant's ``describe_json`` (whose leading
    ``hand`` object, ``sim.variants.replay.header_fields``, holds the variant's header fields)."""
    config = hand.config
    described = config.spec.describe_json(
        config.options, hand.wall, hand.record, hand.events, hand.final
    )
    variant_fields = {}
    if described and described[0]["event"] == "hand":
        variant_fields = {
            key: value
            for key, value in described.pop(0).items()
            if key not in ("event", "seat", "tile")
        }
    objects = [header_object(hand, variant_fields), *described]
    return [json.dumps(obj, ensure_ascii=False) for obj in objects]


def check_format(form: str) -> str:
    """``form`` if it is one of ``FORMATS``; else a one-line error naming them."""
    if form not in FORMATS:
        raise ValueError(
            f"--format: {form!r} is not a replay format; allowed: {', '.join(FORMATS)}"
        )
    return form


def replay_lines(hand: ReplayedHand, form: str = "text") -> list[str]:
    """The hand in format ``form`` (``FORMATS``)."""
    return text_lines(hand) if check_format(form) == "text" else json_lines(hand)
