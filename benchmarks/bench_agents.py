"""Agents' speed: hands per second on one core with each agent in every seat, against the
default agent's, per variant (default options, 4 players).

    python benchmarks/bench_agents.py [--variants anhua,wengan,anqing] [--hands N] [--rounds R]

The target is that ``efficiency`` and ``value`` keep at least half of the default agent's hands
per second; ``efficiency`` is the default, so the figure that can fail is ``value``'s (and
``cautious``', which is ``value`` with a defence). The agents are timed in alternating rounds
(efficiency, value, cautious, efficiency, ...: a machine whose load drifts changes them alike),
each the best of ``--rounds`` timed ``play`` calls on the same walls, after a first call that
compiles or loads the engine. ``--record`` appends the table to benchmarks/RESULTS.md.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from _common import print_header

from sim.core.wall import shuffled_walls
from sim.running.agents import agent_ids
from sim.variants import get_variant

RESULTS = Path(__file__).resolve().parent / "RESULTS.md"
AGENTS = ("efficiency", "value", "cautious")
DEFAULT = "efficiency"
ASKED = 0.5  # of the default agent's hands per second


def _hands_per_second(variant, options, walls, dealers, agent: str, hands: int) -> float:
    players = variant.player_count(options)
    agents = agent_ids((agent,) * players)
    start = time.perf_counter()
    variant.play(options, walls, dealers, 8, agents, 0)
    return hands / (time.perf_counter() - start)


def _variant_rows(name: str, hands: int, rounds: int) -> list[str]:
    variant = get_variant(name)
    options = variant.options_class()
    walls = shuffled_walls(hands, variant.n_tiles, 2026)
    dealers = variant.first_dealers(-(-hands // 8), options, 2026)
    for agent in AGENTS:  # compiles, or loads numba's cache, outside the timing
        players = variant.player_count(options)
        variant.play(options, walls[:8], dealers[:1], 8, agent_ids((agent,) * players), 0)
    best = dict.fromkeys(AGENTS, 0.0)
    for _ in range(rounds):
        for agent in AGENTS:
            speed = _hands_per_second(variant, options, walls, dealers, agent, hands)
            best[agent] = max(best[agent], speed)
    rows = []
    for agent in AGENTS:
        share = best[agent] / best[DEFAULT]
        verdict = "" if agent == DEFAULT else ("yes" if share >= ASKED else "**no**")
        rows.append(f"| {name} | `{agent}` | {best[agent]:,.0f} | {share:.2f} | {verdict} |")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variants", default="anhua,wengan,anqing")
    parser.add_argument("--hands", type=int, default=8_000, help="hands per timed call")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds (best kept)")
    parser.add_argument("--record", action="store_true", help="append the table to RESULTS.md")
    args = parser.parse_args()
    print_header()
    lines = [
        "| variant | agent | hands/s (best) | of `efficiency`'s | at least half |",
        "|---|---|---|---|---|",
    ]
    for name in args.variants.split(","):
        lines += _variant_rows(name.strip(), args.hands, args.rounds)
        print("\n".join(lines[-len(AGENTS) :]), flush=True)
    if args.record:
        text = "\n".join(
            [
                f"\n## {time.strftime('%Y-%m-%d')}: bench_agents.py, {os.cpu_count()} cores, "
                f"{args.hands:,} hands, best of {args.rounds} alternating rounds",
                "",
                *lines,
                "",
            ]
        )
        with RESULTS.open("a", encoding="utf-8") as file:
            file.write(text)


if __name__ == "__main__":
    main()
