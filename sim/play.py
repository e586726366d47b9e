"""Play hands from Python, without a run directory: a variant (or a config) in, the games and wins
frames (:mod:`sim.running.records`) out.

>>> from sim.variants import VARIANT_NAMES
>>> hands, wins = play(VARIANT_NAMES[0], 16, seed=1)
>>> len(hands), int(hands[[f"delta_{seat}" for seat in range(4)]].sum().sum())
(16, 0)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import pandas as pd

from .core.wall import shuffled_walls
from .running.agents import agent_ids
from .running.config import RunConfig
from .variants import VARIANT_NAMES, Variant, get_variant
from .variants.options import options_from_mapping


def variant_of(options: Any) -> Variant:
    """The registered variant whose options ``options`` are."""
    for name in VARIANT_NAMES:
        variant = get_variant(name)
        if isinstance(options, variant.options_class):
            return variant
    raise ValueError(f"options: {type(options).__name__} is no registered variant's options")


def first_dealers(n_hands: int, hands_per_session: int, options: Any, seed: int) -> np.ndarray:
    """The first dealer of each session, by the variant's rule for ``options``, drawn (when the
    rule draws) from a stream of ``seed`` that the walls do not use."""
    return _first_dealers(variant_of(options), n_hands, hands_per_session, options, seed)


def _first_dealers(variant: Variant, n_hands, hands_per_session, options, seed) -> np.ndarray:
    n_sessions = -(-n_hands // hands_per_session)
    stream = np.random.SeedSequence(seed, spawn_key=(1,))
    return variant.first_dealers(n_sessions, options, stream)


def _options(variant: Variant, options: Any) -> Any:
    if options is None:
        return variant.options_class()
    if isinstance(options, Mapping):
        return options_from_mapping(variant.options_class, options)
    if not isinstance(options, variant.options_class):
        raise ValueError(
            f"options: {type(options).__name__} are not {variant.name}'s options "
            f"({variant.options_class.__name__})"
        )
    return options


def play(
    variant: str | RunConfig,
    n_hands: int | None = None,
    seed: int | None = None,
    options: Any = None,
    hands_per_session: int | None = None,
    agents: Sequence[str] | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Play ``n_hands`` hands of ``variant`` (a registered name) on walls from ``seed``.

    ``options``: the variant's options object, a mapping of options to change from the
    defaults, or None for the defaults; ``agents`` names one agent per seat (default:
    ``efficiency`` everywhere; see :mod:`sim.running.agents`). With a
    :class:`sim.running.config.RunConfig` instead of a name, every argument left out comes from the
    config (``n_hands`` from its ``games``). Defaults otherwise: seed 0, 8 hands per session.

    Returns ``(hands, wins)`` as described in :mod:`sim.running.records`. Same seed, same results
    (for a config, not the runner's: the runner plays in chunks, each on its own spawned seed).
    """
    if isinstance(variant, RunConfig):
        config = variant
        spec = config.spec
        n_hands = config.games if n_hands is None else n_hands
        seed = config.seed if seed is None else seed
        options = config.options if options is None else options
        if hands_per_session is None:
            hands_per_session = config.hands_per_session
        # the config's seat parameters go with its agents (other agents: their defaults)
        agent_params = config.agent_params if agents is None else None
        agents = config.agents if agents is None else agents
    else:
        agent_params = None
        spec = get_variant(variant)
    seed = 0 if seed is None else seed
    hands_per_session = 8 if hands_per_session is None else hands_per_session
    options = _options(spec, options)
    n_players = spec.player_count(options)
    agents = tuple(agents or ("efficiency",) * n_players)
    if len(agents) != n_players:
        raise ValueError(f"agents: {len(agents)} names for {n_players} players")
    kinds = agent_ids(agents)
    if n_hands is None or n_hands < 1:
        raise ValueError(f"n_hands must be at least 1, not {n_hands}")
    if hands_per_session < 1:
        raise ValueError(f"hands_per_session must be at least 1, not {hands_per_session}")
    walls = shuffled_walls(n_hands, spec.n_tiles, seed)
    dealers = _first_dealers(spec, n_hands, hands_per_session, options, seed)
    records = spec.play(options, walls, dealers, hands_per_session, kinds, seed, agent_params)
    return (
        spec.games_frame(records, options, hands_per_session),
        spec.wins_frame(records, options),
    )
