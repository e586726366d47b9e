"""Engine throughput: complete Anhua hands (局) per second on one core, default options and agent.

    python benchmarks/bench_engine.py [--hands N] [--repeat R]

Compilation is timed on its own (the first call; numba then caches the machine code on disk, so
a second process shows the cache load instead). Hands are played in sessions of 8, 4 players,
the efficiency agent in every seat, walls from one seed.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from _common import print_header

from sim.kernels import engine
from sim.kernels import state as game_state
from sim.play import first_dealers
from sim.tables import load_tables
from sim.variants.anhua import AnhuaOptions
from sim.variants.anhua import engine as AE
from sim.wall import shuffled_walls


def main() -> None:
    parser = argparse.ArgumentParser(description="Engine throughput (one core).")
    parser.add_argument("--hands", type=int, default=20_000, help="hands per timed run")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs; best is kept")
    args = parser.parse_args()
    print_header()
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
        wins = (records[:, engine.R_OUTCOME] == engine.OUTCOME_WIN).mean()
        print(
            f"{label:<22} first call (compile or cache load) {first_call:6.2f} s   "
            f"{args.hands / best:9,.0f} hands/s   wins {wins:.3f}   "
            f"turns {records[:, engine.R_TURNS].mean():.1f}"
        )


if __name__ == "__main__":
    main()
