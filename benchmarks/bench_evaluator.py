"""Evaluator throughput: win checks and shanten per second on one core.

    python benchmarks/bench_evaluator.py [--hands N] [--repeat R]

Hands come from the 136-tile set in two mixes: ``random`` (uniform deals) and ``near`` (complete
hands with up to two tiles swapped: complete, ready and one-away hands). With ``wilds 0-8`` each
hand has 0-8 of its tiles replaced by wilds (uniformly). Win checks use 14 tiles, shanten 13.

Paths: ``numba loop`` runs the kernel over precomputed suit keys (what the engine does: it keeps
keys up to date as tiles come and go); ``batch API`` is ``sim.hand.is_complete_batch`` /
``shanten_batch`` on (n, 34) count arrays, input validation included. Forms: ``standard`` is 4
sets + a pair; ``std+7pairs`` adds seven pairs (quads as two pairs). Each figure is the best of
``--repeat`` runs. Table build and load times are printed first (build includes compilation only
when numba's cache is cold).
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

import numpy as np
from _common import print_header

from sim import hand
from sim.core import tables as tables_module
from sim.kernels import hand as kernels

FORMS = {
    "standard": kernels.FORM_STANDARD,
    "std+7pairs": kernels.FORM_STANDARD | kernels.FORM_SEVEN_PAIRS | kernels.OPTION_QUADS,
}


def random_hands(rng, n_hands, n_tiles):
    """Uniform deals of ``n_tiles`` from the 136-tile wall -> counts (n, 34) uint8."""
    order = np.argpartition(rng.random((n_hands, 136)), n_tiles, axis=1)[:, :n_tiles]
    counts = np.zeros((n_hands, 34), np.uint8)
    np.add.at(counts, (np.arange(n_hands)[:, None], order // 4), 1)
    return counts


def _remove_random_tiles(rng, counts, how_many):
    """Take ``how_many[i]`` random tiles out of hand i (in place) and return their kinds."""
    rows = np.arange(counts.shape[0])
    removed = np.full((counts.shape[0], int(how_many.max(initial=0))), -1)
    for step in range(removed.shape[1]):
        active = how_many > step
        cumulative = np.cumsum(counts, axis=1, dtype=np.int32)
        position = rng.integers(0, 1 << 30, counts.shape[0]) % np.maximum(cumulative[:, -1], 1)
        kind = (cumulative <= position[:, None]).sum(axis=1)
        counts[rows[active], kind[active]] -= 1
        removed[active, step] = kind[active]
    return removed


def near_complete_hands(rng, n_hands, n_tiles):
    """Complete hands (4 random sets + a pair) with 0-2 tiles swapped, trimmed to ``n_tiles``.

    Hands that would hold a fifth copy are drawn again.
    """
    out = np.zeros((n_hands, 34), np.uint8)
    filled = 0
    while filled < n_hands:
        batch = 2 * (n_hands - filled)
        counts = np.zeros((batch, 34), np.int16)
        rows = np.arange(batch)
        for _ in range(4):
            sequence = rng.random(batch) < 0.6
            start = rng.integers(0, 3, batch) * 9 + rng.integers(0, 7, batch)
            kind = rng.integers(0, 34, batch)
            for offset in range(3):
                np.add.at(counts, (rows, np.where(sequence, start + offset, kind)), 1)
        np.add.at(counts, (rows, rng.integers(0, 34, batch)), 2)
        swaps = rng.integers(0, 3, batch)
        _remove_random_tiles(rng, counts, swaps)
        for step in range(2):
            active = swaps > step
            np.add.at(counts, (rows[active], rng.integers(0, 34, batch)[active]), 1)
        _remove_random_tiles(rng, counts, np.full(batch, 14 - n_tiles))
        keep = counts.max(axis=1) <= 4
        taken = counts[keep][: n_hands - filled]
        out[filled : filled + len(taken)] = taken
        filled += len(taken)
    return out


def with_wilds(rng, counts):
    """Replace 0-8 natural tiles of each hand by wilds -> (counts, wilds)."""
    counts = counts.copy()
    wilds = rng.integers(0, 9, counts.shape[0])
    _remove_random_tiles(rng, counts, wilds)
    return counts, wilds.astype(np.uint8)


def best_rate(function, n_items, repeat):
    function()  # compile, warm the caches
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - start)
    return n_items / best


def table_times() -> tuple[float, float]:
    """Seconds to build the tables and to load them from a fresh disk cache."""
    with tempfile.TemporaryDirectory() as folder:
        previous = os.environ.get("MJSIM_CACHE_DIR")
        os.environ["MJSIM_CACHE_DIR"] = folder
        try:
            start = time.perf_counter()
            tables_module.load_tables.cache_clear()
            tables_module.load_tables()
            built = time.perf_counter() - start
            tables_module.load_tables.cache_clear()
            start = time.perf_counter()
            tables_module.load_tables()
            loaded = time.perf_counter() - start
            assert Path(folder).iterdir()
        finally:
            tables_module.load_tables.cache_clear()
            if previous is None:
                del os.environ["MJSIM_CACHE_DIR"]
            else:
                os.environ["MJSIM_CACHE_DIR"] = previous
    return built, loaded


QUERIES = {
    # query: (numba kernel over keys, output dtype, batch API function, share of hands counted)
    "win check": (
        kernels.is_complete_keys_batch,
        np.bool_,
        hand.is_complete_batch,
        lambda out: out.mean(),
    ),
    "shanten": (
        kernels.shanten_keys_batch,
        np.int8,
        hand.shanten_batch,
        lambda out: (out <= 0).mean(),
    ),
}


def rates(query, tables, counts, wilds, forms, repeat):
    """(numba loop rate, batch API rate, share) of ``query`` on these hands."""
    kernel, dtype, api_function, share_of = QUERIES[query]
    keys = np.empty((counts.shape[0], 4), np.int64)
    kernels.keys_batch(counts, keys)
    keys = keys.astype(np.uint32)
    out = np.empty(counts.shape[0], dtype)
    loop = best_rate(lambda: kernel(keys, wilds, forms, tables, out), len(out), repeat)
    share = share_of(out)
    options = {"seven_pairs": bool(forms & kernels.FORM_SEVEN_PAIRS)}
    api = best_rate(lambda: api_function(counts, wilds, **options), len(out), repeat)
    return loop, api, share


def main() -> None:
    parser = argparse.ArgumentParser(description="Evaluator throughput (one core).")
    parser.add_argument("--hands", type=int, default=2_000_000, help="hands per case")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs per case; best kept")
    args = parser.parse_args()

    print_header()
    print(f"hands per case: {args.hands:,}")
    built, loaded = table_times()
    print(f"tables: built in {built:.2f} s, loaded from disk in {loaded:.2f} s")
    tables = tables_module.load_tables()
    rng = np.random.default_rng(2026)
    print(
        f"{'query':<10} {'hands':<7} {'wilds':<6} {'forms':<11} {'numba loop':>12} "
        f"{'batch API':>12} {'share':>7}"
    )
    for query, n_tiles in (("win check", 14), ("shanten", 13)):
        for mix, generate in (("random", random_hands), ("near", near_complete_hands)):
            naturals = generate(rng, args.hands, n_tiles)
            for wild_label in ("none", "0-8"):
                if wild_label == "none":
                    counts, wilds = naturals, np.zeros(args.hands, np.uint8)
                else:
                    counts, wilds = with_wilds(rng, naturals)
                for form_label, forms in FORMS.items():
                    loop, api, share = rates(query, tables, counts, wilds, forms, args.repeat)
                    print(
                        f"{query:<10} {mix:<7} {wild_label:<6} {form_label:<11} "
                        f"{loop / 1e6:>8.1f} M/s {api / 1e6:>8.1f} M/s {share:>7.3f}"
                    )
    print("share: hands complete (win check) or ready or complete (shanten)")


if __name__ == "__main__":
    main()
