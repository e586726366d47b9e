"""Shared test set-up: ``tests/`` on the import path, so every test module (also in sub-folders)
imports the reference evaluator as ``reference`` and the hand generators as ``strategies``;
the engines compiled once before the workers start; and hypothesis's example counts capped in
the quick run (``pytest -m "not slow"``), full in the whole suite (CI)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest
from hypothesis import settings

QUICK_EXAMPLES = 25
"""At most this many examples per hypothesis test in the quick run (``-m "not slow"``): the
whole suite, which CI runs, tries every test's own count (60 to 1,000)."""

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
    """Before the xdist workers start: compile the agents' questions, then every variant's
    engine, replay and checks once, the variants side by side (``warm_caches.py``), instead of
    in every worker that meets them; on a cold cache also the kernels the tests call on their
    own (``STEP_TESTS`` there), which the workers would otherwise compile in the middle of the
    tests, both at once at times. The quick run (``-m "not slow"``) plays no variant's engine
    (its tests are marked ``engine``): it warms none.
    A cold cache (a clean clone) costs minutes here and saves more in the workers; a warm one
    costs the seconds of loading it; what is compiled is said as it is done.
    ``MJSIM_SKIP_WARM_UP=1`` skips it."""
    if not _distributed(config) or os.environ.get("MJSIM_SKIP_WARM_UP") == "1":
        return
    if _hypothesis_profile(config) == "quick":
        return
    from sim.variants import VARIANT_NAMES

    # a cold warm-up reports what it compiled here; the workers inherit the variable
    # (tests/test_compile_ahead.py reads the reports instead of compiling every engine again)
    if "MJSIM_WARM_REPORTS" not in os.environ:
        os.environ["MJSIM_WARM_REPORTS"] = tempfile.mkdtemp(prefix="mjsim-warm-reports-")
        config.add_cleanup(
            lambda: shutil.rmtree(os.environ.pop("MJSIM_WARM_REPORTS"), ignore_errors=True)
        )
    started = time.perf_counter()
    said = threading.Timer(
        3.0,
        lambda: _say(
            "compiling the engines the tests play into numba's cache before the tests start "
            "(a cold cache, as in a fresh clone: several minutes; said below as each is done)"
        ),
    )
    said.daemon = True
    said.start()
    # the agents' questions first: every engine calls them with the same types, and the
    # processes after would otherwise each compile them at once ("agents" in warm_caches.py)
    for names in (["agents"], [*VARIANT_NAMES, "tests"]):  # tests: generic kernels, toy variant
        _warm_side_by_side(names, started)
    said.cancel()


def _say(text: str) -> None:
    sys.stderr.write(f"conftest: {text}\n")
    sys.stderr.flush()


def _warm_side_by_side(names: list[str], started: float) -> None:
    """``tests/warm_caches.py NAME`` for each of ``names``, one process each, side by side;
    each said with the time since ``started`` when it took a while (a compile)."""
    script = str(TESTS / "warm_caches.py")
    processes = {
        name: subprocess.Popen(
            [sys.executable, script, name], stdout=subprocess.PIPE, stderr=subprocess.STDOUT
        )
        for name in names
    }
    for name, process in processes.items():
        output, _ = process.communicate()
        if process.returncode != 0:  # the tests themselves will show what is wrong
            _say(f"warming the {name} caches failed:\n{output.decode()}")
        elapsed = time.perf_counter() - started
        if elapsed > 10:
            _say(f"{name} compiled ({elapsed:.0f} s since the start)")


def _hypothesis_profile(config) -> str:
    """``quick`` when slow tests are deselected (``-m "not slow"``), else ``full``;
    ``MJSIM_HYPOTHESIS_PROFILE=full`` (or ``quick``) chooses."""
    chosen = os.environ.get("MJSIM_HYPOTHESIS_PROFILE")
    if chosen in ("full", "quick"):
        return chosen
    if chosen:
        raise pytest.UsageError(f"MJSIM_HYPOTHESIS_PROFILE: {chosen!r}; expected full or quick")
    return "quick" if "not slow" in (config.option.markexpr or "") else "full"


def pytest_collection_modifyitems(config, items) -> None:
    """A test marked ``engine`` is also ``slow``: the quick run (``-m "not slow"``) compiles no
    variant's engine. In the quick profile, cap each hypothesis test's examples at
    ``QUICK_EXAMPLES`` and let sampled tests draw their quick counts (``tests/sampling.py``).
    The cap must override the tests' own ``@settings(max_examples=...)``, which a hypothesis
    profile does not: ``@given`` reads the settings it runs with from the attribute set here."""
    import sampling

    for item in items:
        marker = getattr(item, "get_closest_marker", None)  # tests pass bare stand-ins
        if marker is not None and marker("engine"):
            item.add_marker(pytest.mark.slow)
    sampling.QUICK = _hypothesis_profile(config) == "quick"
    if not sampling.QUICK:
        return
    for item in items:
        test = getattr(item, "obj", None)
        own = getattr(test, "_hypothesis_internal_use_settings", None)
        if own is not None and own.max_examples > QUICK_EXAMPLES:
            test._hypothesis_internal_use_settings = settings(own, max_examples=QUICK_EXAMPLES)


GUARD = TESTS / "engine_guard"
"""``mjsim_engine_guard`` and the ``sitecustomize.py`` that installs it in the processes the
quick run's tests start."""


def pytest_sessionstart(session) -> None:
    """In the quick run, a test not marked ``engine`` that plays a variant's hands fails at once,
    saying to mark it, here and in any Python process it starts (``mjsim run`` as a program):
    the quick run stays free of the engines' compiles (minutes on a cold cache)."""
    if _hypothesis_profile(session.config) != "quick":
        return
    sys.path.insert(0, str(GUARD))
    import mjsim_engine_guard

    mjsim_engine_guard.install()
    paths = [str(GUARD), *filter(None, [os.environ.get("PYTHONPATH")])]
    os.environ["PYTHONPATH"] = os.pathsep.join(paths)


def _guard(allowed: bool) -> None:
    guard = sys.modules.get("mjsim_engine_guard")
    if guard is not None:
        guard.EngineGuard.allowed = allowed
        os.environ["MJSIM_ENGINE_GUARD"] = "0" if allowed else "1"


def pytest_runtest_setup(item) -> None:
    """Whether the test may play a variant's engine: when marked ``engine``; set before its
    fixtures are made, module-wide ones included."""
    _guard(item.get_closest_marker("engine") is not None)


def pytest_runtest_teardown(item) -> None:
    _guard(True)
