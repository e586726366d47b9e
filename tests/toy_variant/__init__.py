"""A minimal variant for testing the generic loop on what Anhua does not use: a kong's
replacement draw from the tail (``KONG_REPLACEMENT``) and its kong-bloom win, a flip after the
hand (``moves.flip``), the dealer's streak given to the settle hooks, and ``observe`` hearing
every event. Not a rule set: 136 tiles, no wilds, standard hands, pong and kongs but no chi,
one winner. Its kernels cache in their own folder like a real variant's."""

from __future__ import annotations

from pathlib import Path

from sim.kernels import variant_cache_folder

with variant_cache_folder("toy", Path(__file__).parent):
    from . import engine, hooks  # noqa: F401
