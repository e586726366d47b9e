"""Run as a script by tests/test_compile_ahead.py: compile kernels cold under a given
``sim.running.compile_ahead`` set-up and print, as JSON, which dispatchers this process compiled.

``probe.py toy DIR [on|wrong|failing]``: the toy module ``toy_kernels`` in DIR (on PYTHONPATH);
``probe.py variants NAME...``: each variant's engine, one after another (one cache root)."""

from __future__ import annotations

import json
import sys

import numpy as np
from numba.core import event


def compiled_here(run) -> list[str]:
    listener = event.RecordingListener()
    event.register("numba:compile", listener)
    try:
        run()
    finally:
        event.unregister("numba:compile", listener)
    return sorted(
        {
            f"{e.data['dispatcher'].py_func.__module__}.{e.data['dispatcher'].py_func.__name__}"
            for _, e in listener.buffer
            if e.is_start and e.data.get("dispatcher") is not None
        }
    )


def toy(folder: str, mode: str) -> dict:
    import toy_kernels  # from PYTHONPATH (the helper process imports it too)

    from sim.running.compile_ahead import AheadKernel, helping

    sample = {"wrong": (np.float64(0.5),), "failing": ("text",)}.get(mode, (np.int64(0),))
    kernels = (AheadKernel(toy_kernels.big, lambda _: sample),)
    result = {}

    def run():
        with helping(toy_kernels.outer, kernels, lambda: None):
            result["value"] = int(toy_kernels.outer(np.int64(20)))

    return {"compiled": compiled_here(run), **result}


def records_sum(name: str) -> int:
    """Four hands of variant ``name`` with the efficiency agent in every seat: the sum of their
    records (this probe's, and ``test_compile_ahead``'s in its own process)."""
    from sim.core.wall import shuffled_walls
    from sim.running.agents import agent_ids
    from sim.variants import get_variant

    variant = get_variant(name)
    walls = shuffled_walls(4, variant.n_tiles, 7)
    agents = agent_ids(("efficiency",) * 4)
    records = variant.play(variant.options_class(), walls, np.zeros(1, np.int64), 4, agents, 0)
    return records.sum().item()


def listed_kernels(name: str) -> list[str]:
    """The kernels variant ``name``'s ``compile_ahead`` lists, by module and name."""
    from sim.variants import get_variant

    play = get_variant(name).play.__self__  # the variant's SessionPlay
    return [
        k.kernel.py_func.__module__ + "." + k.kernel.py_func.__name__ for k in play.compile_ahead
    ]


def variants(names: list[str]) -> dict:
    from sim.variants import get_variant

    out = {}
    for name in names:

        def run(name=name):
            out[name + ".records"] = records_sum(name)

        out[name] = {"compiled": compiled_here(run), "listed": listed_kernels(name)}
        # compiled once (for the tables' types before they were loaded: sim.variants.session)
        out[name]["entry_overloads"] = len(get_variant(name).play.__self__.play_hands.overloads)
    return out


if __name__ == "__main__":
    if sys.argv[1] == "toy":
        print(json.dumps(toy(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else "on")))
    else:
        print(json.dumps(variants(sys.argv[2:])))
