"""``sim.variants.session``: how a variant's hands are played from Python."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from sim.core import tables as tables_module

_ENTRY_MODULE = """
from numba import njit


@njit(cache=True)
def play_hands(state, walls, players, dealers, per_session, params, tables, records, valued=True):
    records[0, 0] = tables.suit_add.shape[0]
    records[0, 1] = players
"""

_COLD_START = """
import json
import numpy as np
from numba.core import event
import cold_entry
from sim.core import tables
from sim.variants.session import SessionPlay


class Options:
    player_count = 3

    def params(self):
        return np.zeros(4, np.int64)


loaded_at_compile = []


class Listener(event.Listener):
    def on_start(self, event):
        if event.data.get("dispatcher") is cold_entry.play_hands:
            loaded_at_compile.append(tables.tables_loaded())

    def on_end(self, event):
        pass


event.register("numba:compile", Listener())
entry = cold_entry.play_hands
play = SessionPlay(play_hands=entry, play_hand=entry, record_width=2)
walls = np.zeros((1, 108), np.int64)
records = play.play_records(Options(), walls, np.zeros(1, np.int64), 1, (0, 0, 0), 0)
print(json.dumps({
    "records": records.tolist(),
    "overloads": len(cold_entry.play_hands.overloads),
    "loaded_at_compile": loaded_at_compile,
}))
"""


def test_a_cold_entry_is_compiled_for_the_tables_types_before_they_are_loaded(tmp_path):
    """On a cold cache in a process that has not loaded the tables, ``play_records`` compiles
    the entry point while the tables load (or are built in another process), for
    ``typed_like_tables``' types, then plays with the real tables on that one compile."""
    (tmp_path / "cold_entry.py").write_text(_ENTRY_MODULE)
    tables_module.load_tables()  # built, if this process had not: the subprocess copies them
    source = tables_module.cache_dir()
    shutil.copytree(source, tmp_path / "cache" / source.name)
    root = Path(tables_module.__file__).parents[2]
    environment = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(tmp_path), str(root)]),
        "MJSIM_CACHE_DIR": str(tmp_path / "cache"),
        "NUMBA_CACHE_DIR": str(tmp_path / "numba"),
    }
    result = subprocess.run(
        [sys.executable, "-c", _COLD_START], capture_output=True, text=True, env=environment,
        timeout=600,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    printed = json.loads(result.stdout)
    assert printed["loaded_at_compile"] == [False]  # one compile, before the tables were there
    assert printed["overloads"] == 1
    assert printed["records"] == [[tables_module.SUIT_KEYS, 3]]
