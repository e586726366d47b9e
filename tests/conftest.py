"""Shared test set-up: ``tests/`` on the import path, so every test module (also in sub-folders)
imports the reference evaluator as ``reference`` and the hand generators as ``strategies``."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

TESTS = Path(__file__).resolve().parent
if str(TESTS) not in sys.path:
    sys.path.insert(0, str(TESTS))


def _distributed(config) -> bool:
    """Whether this process is pytest-xdist's controller about to start two or more workers."""
    if hasattr(config, "workerinput") or not config.pluginmanager.hasplugin("xdist"):
        return False
    processes = getattr(config.option, "numprocesses", None)
    return processes not in (None, 0, 1) and not config.option.collectonly


def pytest_configure(config) -> None:
    """Before the xdist workers start: compile every variant's engine, replay and checks once,
    the variants side by side (``warm_caches.py``), instead of in every worker that meets them.
    A cold cache (a clean clone) costs minutes here and saves more in the workers; a warm one
    costs the seconds of loading it. ``MJSIM_SKIP_WARM_UP=1`` skips it."""
    if not _distributed(config) or os.environ.get("MJSIM_SKIP_WARM_UP") == "1":
        return
    from sim.variants import VARIANT_NAMES

    started = time.perf_counter()
    script = str(TESTS / "warm_caches.py")
    processes = {
        name: subprocess.Popen(
            [sys.executable, script, name], stdout=subprocess.PIPE, stderr=subprocess.STDOUT
        )
        for name in VARIANT_NAMES
    }
    for name, process in processes.items():
        output, _ = process.communicate()
        if process.returncode != 0:  # the tests themselves will show what is wrong
            sys.stderr.write(f"conftest: warming the {name} caches failed:\n{output.decode()}\n")
    seconds = time.perf_counter() - started
    if seconds > 10:
        sys.stderr.write(f"conftest: compiled the engines into numba's cache in {seconds:.0f} s\n")
