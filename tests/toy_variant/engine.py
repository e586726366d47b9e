"""The toy variant's engine entry points (see ``__init__``)."""

from __future__ import annotations

from sim.kernels import engine as generic
from sim.kernels._jit import kernel
from sim.kernels.variant_type import HOOK_NAMES, define_variant

from . import hooks

TOY = define_variant("toy", {name: getattr(hooks, name) for name in HOOK_NAMES})


@kernel
def play_hands(
    state, walls, n_players, first_dealers, hands_per_session, params, tables, records,
    valued_agents=True,
):  # fmt: skip
    generic.play_hands(
        TOY, state, walls, n_players, first_dealers, hands_per_session, params, tables, records,
        valued_agents,
    )  # fmt: skip
