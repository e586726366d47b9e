"""``mjsim run`` reaches its first hand without importing pandas or pyarrow
(``sim.running.runner``'s docstring): they load where the first chunk's tables are made, beside the
engine playing the second chunk, instead of before the first hand (so that a whole run comes close
to the engine's own speed)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

FIRST_HAND = """
import sys
from sim.cli import build_parser
from sim.running.config import load_config
from sim.running.runner import _chunk_records, plan_chunks, warm_up

build_parser("run").parse_args(["run", "configs/anhua-seven-kings.toml"])
config = load_config("configs/anhua-seven-kings.toml", ["run.games=16"])
warm_up(config)
records, _, _ = _chunk_records(config, plan_chunks(config)[0])
assert len(records) == 16
print(sorted(name for name in ("pandas", "pyarrow", "joblib", "matplotlib") if name in sys.modules))
"""

TABLES = """
import sys
from sim.running.config import load_config
from sim.running.runner import _arrow_tables, _chunk_records, plan_chunks

config = load_config("configs/anhua-seven-kings.toml", ["run.games=16"])
chunk = plan_chunks(config)[0]
records, seconds, _ = _chunk_records(config, chunk)
games, wins, counts = _arrow_tables(config, chunk, records, seconds)
print(games.num_rows, "pandas" in sys.modules, "pyarrow" in sys.modules)
"""


BEFORE_PLAY = """
import sys, tempfile
from sim.running import runner
from sim.running.config import load_config

seen = []
play_chunks = runner._play_chunks

def _play_chunks(*args):
    seen.append([name for name in ("pandas", "pyarrow") if name in sys.modules])
    return play_chunks(*args)

runner._play_chunks = _play_chunks
config = load_config("configs/anhua-seven-kings.toml", ["run.games=400", "run.chunk_hands=200"])
runner.run(config, tempfile.mkdtemp() + "/x", jobs=int(sys.argv[1]), progress=False)
print(seen)
"""


def _run(code: str, *arguments: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code, *arguments],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.mark.engine
def test_the_first_hand_imports_no_pandas_or_pyarrow():
    assert _run(FIRST_HAND) == "[]"


@pytest.mark.engine
def test_the_tables_of_a_chunk_import_them_where_they_are_made():
    # the check above is not vacuous: the same process does import them for the tables
    assert _run(TABLES) == "16 True True"


@pytest.mark.engine
def test_with_one_job_the_run_plays_before_importing_them():
    assert _run(BEFORE_PLAY, "1") == "[[]]"


@pytest.mark.engine
def test_with_two_jobs_they_are_imported_during_the_warm_up():
    # the engine threads take both cores from the first chunk on: the imports come before
    assert _run(BEFORE_PLAY, "2") == "[['pandas', 'pyarrow']]"
