"""The efficiency agent's discard decision alone: microseconds per decision (CPU time).

    python benchmarks/bench_decisions.py [--hands 400] [--draws 18] [--repeat 7]

The decisions are recorded first: solitaire hands of the 108-tile wall (three suits, as
Weng'an's), each dealt 13 tiles and then drawing ``--draws`` times, the other three players'
tiles of each turn seen, the hand discarding as the efficiency agent does. Then every recorded
decision is asked again of ``agents.efficiency_discard_in`` in one numba loop with one work
space, as the engine asks it, and the best of ``--repeat`` timings is printed with a hash of
the choices. The search is most of a Weng'an hand (benchmarks/RESULTS.md, 2026-12-06, 53dac75), so a
change to it is measured here first, against a worktree of its parent (run this script from
each checkout, alternately): the hash must not change unless the agent's play does.
"""

from __future__ import annotations

import argparse
import hashlib
import time

import numpy as np
from _common import print_header
from numba import njit

from sim.core.tables import load_tables
from sim.kernels import agents as AG
from sim.kernels import hand as K

FORMS = K.FORM_STANDARD | K.FORM_SEVEN_PAIRS  # Weng'an's forms, no wilds


def record_decisions(n_hands: int, n_draws: int, tables) -> tuple[np.ndarray, ...]:
    """Hand counts, suit keys and visible tiles of every decision of the solitaire hands."""
    rng = np.random.default_rng(1)
    no_wild = np.zeros(K.N_KINDS, np.bool_)
    allowed = np.ones(K.N_KINDS, np.bool_)
    hands, keys_rows, seen_rows = [], [], []
    for _ in range(n_hands):
        wall = rng.permutation(np.repeat(np.arange(27), 4))
        counts = np.bincount(wall[:13], minlength=K.N_KINDS).astype(np.uint8)
        visible = np.zeros(K.N_KINDS, np.uint8)
        position = 13
        for _ in range(n_draws):
            counts[wall[position]] += 1
            for tile in wall[position + 1 : position + 4]:  # the others' turns
                visible[tile] += 1
            position += 4
            keys = np.zeros(4, np.int64)
            K.keys_from_counts(counts, keys)
            hands.append(counts.copy())
            keys_rows.append(keys)
            seen_rows.append(visible.copy())
            kind = AG.efficiency_discard(
                counts, keys, 0, no_wild, visible, 27, FORMS, allowed, tables
            )
            counts[kind] -= 1
            visible[kind] += 1
    return np.array(hands), np.array(keys_rows), np.array(seen_rows)


@njit
def _decide_all(hands, keys, visible, tables, out):
    rows, info, vectors = AG.discard_space()
    no_wild = np.zeros(K.N_KINDS, np.bool_)
    allowed = np.ones(K.N_KINDS, np.bool_)
    for i in range(hands.shape[0]):
        out[i] = AG.efficiency_discard_in(
            hands[i], keys[i], 0, no_wild, visible[i], 27, FORMS, allowed, tables, rows, info,
            vectors,
        )  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=400, help="solitaire hands recorded")
    parser.add_argument("--draws", type=int, default=18, help="decisions per hand")
    parser.add_argument("--repeat", type=int, default=7, help="timings; the best is kept")
    args = parser.parse_args()
    print_header()
    tables = load_tables()
    hands, keys, visible = record_decisions(args.hands, args.draws, tables)
    choices = np.empty(len(hands), np.int64)
    _decide_all(hands, keys, visible, tables, choices)  # compiles
    best = float("inf")
    for _ in range(args.repeat):
        started = time.process_time()
        _decide_all(hands, keys, visible, tables, choices)
        best = min(best, time.process_time() - started)
    digest = hashlib.md5(choices.tobytes()).hexdigest()[:10]
    print(
        f"{len(hands):,} decisions: {best / len(hands) * 1e6:.3f} µs per decision (CPU time, "
        f"best of {args.repeat}); choices {digest}"
    )


if __name__ == "__main__":
    main()
