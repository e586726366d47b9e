"""What checking a run folder costs (``sim.running.run_checks.check_run``, which every reader of
a run calls first), for a long run: a run of ``--chunk`` hands is played, then tiled into a run
folder of ``--games`` hands (its hands renumbered, one row group per chunk as the runner writes,
a manifest of that many hands with its checksums), and checked; the seconds, the files' sizes
and the peak of what numpy and pandas (tracemalloc) and arrow allocate during the check.

    python benchmarks/bench_run_checks.py                       # 10,000,000 hands
    python benchmarks/bench_run_checks.py --games 1000000

The folder goes to a temporary directory and is deleted afterwards. The files are read from the
page cache once written (a cold disk adds its read time: about 30 bytes a hand).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from _common import print_header

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def tiled(source: Path, target: Path, copies: int) -> None:
    """``source`` repeated ``copies`` times as the run folder ``target``, with a manifest that
    passes every check."""
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    from sim.running import runner
    from sim.running.run_checks import table_digests

    target.mkdir()
    for name in (runner.GAMES, runner.WINS):
        table = pq.read_table(source / name)
        hands = pq.read_metadata(source / runner.GAMES).num_rows
        game = table.schema.get_field_index("game")
        with pq.ParquetWriter(target / name, table.schema) as writer:
            for copy in range(copies):
                shifted = pc.add(table.column(game), pa.scalar(copy * hands, pa.int64()))
                writer.write_table(table.set_column(game, "game", shifted))
    manifest = json.loads((source / runner.MANIFEST).read_text())
    config = runner.config_of_run(source).with_overrides([f"run.games={hands * copies}"])
    counts = {key: value * copies for key, value in manifest["counts"].items()}
    manifest |= {"run": config.resolved()["run"], "config_hash": config.hash(), "counts": counts}
    manifest |= {"chunks": config.n_chunks, "tables": table_digests(target)}
    (target / runner.MANIFEST).write_text(json.dumps(manifest))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000_000, help="hands of the checked run")
    parser.add_argument("--chunk", type=int, default=10_000, help="hands played and tiled")
    parser.add_argument("--config", default="configs/anhua-seven-kings.toml")
    args = parser.parse_args()
    import pyarrow as pa

    from sim.running import runner
    from sim.running.config import load_config
    from sim.running.run_checks import check_run

    print_header()
    games = args.games // args.chunk * args.chunk
    with tempfile.TemporaryDirectory(prefix="mjsim-checks-") as temporary:
        settings = [f"run.games={args.chunk}", f"run.chunk_hands={args.chunk}"]
        config = load_config(ROOT / args.config, settings)
        source = runner.run(config, Path(temporary) / "chunk", progress=False)
        big = Path(temporary) / "big"
        tiled(source, big, games // args.chunk)
        sizes = {path.name: path.stat().st_size for path in big.iterdir()}
        check_run(source)  # imports and first calls
        tracemalloc.start()
        before = pa.default_memory_pool().max_memory()
        started = time.perf_counter()
        check_run(big)
        seconds = time.perf_counter() - started
        python_peak = tracemalloc.get_traced_memory()[1]
        arrow_peak = pa.default_memory_pool().max_memory() - before
    megabytes = {name: f"{size / 1e6:,.0f} MB" for name, size in sizes.items()}
    print(f"{config.variant}, {games:,} hands: {megabytes}")
    print(
        f"check_run: {seconds:.2f} s; peak numpy/pandas {python_peak / 1e6:.1f} MB, "
        f"arrow {max(arrow_peak, 0) / 1e6:.1f} MB"
    )


if __name__ == "__main__":
    main()
