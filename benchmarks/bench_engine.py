"""Engine throughput: complete hands (局) per second on one core, default options and agent.

    python benchmarks/bench_engine.py [--variant anhua|wengan|all] [--hands N] [--repeat R]

Compilation is timed on its own (the first call; numba then caches the machine code on disk, so
a second process shows the cache load instead). Hands are played in sessions of 8, the
efficiency agent in every seat, walls from one seed. Anhua: seven kings and four kings with 4
players, seven kings with 3, through its engine entry point as older checkouts have it (so
that runs against them compare the same thing). Weng'an: 4, 3 and 2 players under the default
options, through the variant's ``play`` (the target is 10,000 hands/s with 4 players).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from _common import print_header

from sim.core.tables import load_tables
from sim.core.wall import shuffled_walls
from sim.kernels import engine
from sim.kernels import state as game_state
from sim.play import first_dealers
from sim.variants.anhua import AnhuaOptions
from sim.variants.anhua import engine as AE


def main() -> None:
    parser = argparse.ArgumentParser(description="Engine throughput (one core).")
    parser.add_argument("--hands", type=int, default=20_000, help="hands per timed run")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs; best is kept")
    parser.add_argument("--variant", choices=("anhua", "wengan", "all"), default="anhua")
    args = parser.parse_args()
    print_header()
    if args.variant in ("anhua", "all"):
        _anhua(args)
    if args.variant in ("wengan", "all"):
        _wengan(args)


def _print(label: str, first_call: float, hands_per_second: float, records: np.ndarray) -> None:
    wins = (records[:, engine.R_OUTCOME] == engine.OUTCOME_WIN).mean()
    print(
        f"{label:<22} first call (compile or cache load) {first_call:6.2f} s   "
        f"{hands_per_second:9,.0f} hands/s   wins {wins:.3f}   "
        f"turns {records[:, engine.R_TURNS].mean():.1f}"
    )


def _wengan(args) -> None:
    from sim.running.agents import agent_ids
    from sim.variants import get_variant

    variant = get_variant("wengan")
    for players in (4, 3, 2):
        options = variant.options_class(player_count=players)
        agents = agent_ids(("efficiency",) * players)
        walls = shuffled_walls(args.hands, variant.n_tiles, 2026)
        dealers = variant.first_dealers(-(-args.hands // 8), options, 2026)
        start = time.perf_counter()
        variant.play(options, walls[:8], dealers[:1], 8, agents, 0)
        first_call = time.perf_counter() - start
        best = float("inf")
        for _ in range(args.repeat):
            start = time.perf_counter()
            records = variant.play(options, walls, dealers, 8, agents, 0)
            best = min(best, time.perf_counter() - start)
        _print(f"wengan {players}p", first_call, args.hands / best, records)


def _anhua(args) -> None:
    tables = load_tables()
    state = game_state.new_state()
    for label, options in (
        ("anhua 4p seven kings", AnhuaOptions()),
        ("anhua 4p four kings", AnhuaOptions(king_mode="four_kings")),
        ("anhua 3p seven kings", AnhuaOptions(player_count=3)),
    ):
        params = options.params()
        walls = shuffled_walls(args.hands, 108, 2026)
        records = np.zeros((args.hands, engine.N_RECORD), np.int64)
        dealers = first_dealers(args.hands, 8, options, 2026)
        start = time.perf_counter()
        AE.play_hands(
            state,
            walls[:8],
            options.player_count,
            first_dealers(8, 8, options, 2026),
            8,
            params,
            tables,
            records[:8],
        )
        first_call = time.perf_counter() - start
        best = float("inf")
        for _ in range(args.repeat):
            start = time.perf_counter()
            AE.play_hands(
                state,
                walls,
                options.player_count,
                dealers,
                8,
                params,
                tables,
                records,
            )
            best = min(best, time.perf_counter() - start)
        _print(label, first_call, args.hands / best, records)


if __name__ == "__main__":
    main()
