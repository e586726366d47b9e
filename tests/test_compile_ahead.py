"""sim.running.compile_ahead: a cold compile's helper process compiles the listed kernels, and this
process loads them from the disk cache instead of compiling them again (so that a cold compile
takes at most about 60 s on 2 cores)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from compile_ahead_probe import records_sum

PROBE = Path(__file__).with_name("compile_ahead_probe.py")

TOY = textwrap.dedent(
    """
    from numba import njit

    @njit(cache=True)
    def big(x):
        return x * 2 + 1

    @njit(cache=True)
    def outer(x):
        return big(x) + 1
    """
)


def probe(args: list[str], cache: Path, **env: str) -> dict:
    environment = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    environment.update({"MJSIM_CACHE_DIR": str(cache), "MJSIM_COMPILE_AHEAD": "1", **env})
    done = subprocess.run(
        [sys.executable, str(PROBE), *args],
        env=environment,
        capture_output=True,
        text=True,
        timeout=1200,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.splitlines()[-1])


@pytest.fixture
def toy_folder(tmp_path: Path) -> Path:
    (tmp_path / "toy_kernels.py").write_text(TOY)
    return tmp_path


def toy_probe(folder: Path, mode: str = "on", **env: str) -> dict:
    # the toy module is imported from PYTHONPATH by both processes, and caches in
    # NUMBA_CACHE_DIR, fresh for each test
    return probe(
        ["toy", str(folder), mode],
        folder / "mjsim-cache",
        PYTHONPATH=os.pathsep.join([str(folder), os.environ.get("PYTHONPATH", "")]),
        NUMBA_CACHE_DIR=str(folder / "numba-cache"),
        **env,
    )


def test_the_helper_compiles_a_listed_kernel_and_this_process_loads_it(toy_folder):
    result = toy_probe(toy_folder)
    assert result["value"] == 42
    assert result["compiled"] == ["toy_kernels.outer"]


@pytest.mark.slow
def test_off_compiles_everything_here(toy_folder):
    result = toy_probe(toy_folder, MJSIM_COMPILE_AHEAD="0")
    assert result["value"] == 42
    assert result["compiled"] == ["toy_kernels.big", "toy_kernels.outer"]


@pytest.mark.parametrize("mode", [pytest.param("wrong", marks=pytest.mark.slow), "failing"])
def test_a_wrong_or_failing_sample_costs_only_a_compile_here(toy_folder, mode):
    # "wrong": the helper compiles big for a float nobody calls it with; "failing": it cannot
    # compile big for a string and says so; either way this process compiles big itself
    result = toy_probe(toy_folder, mode)
    assert result["value"] == 42
    assert result["compiled"] == ["toy_kernels.big", "toy_kernels.outer"]


def test_a_warm_cache_starts_no_helper(toy_folder):
    toy_probe(toy_folder)  # fills the cache
    result = toy_probe(toy_folder, "failing")  # a helper would fail, and big compile here
    assert result == {"compiled": [], "value": 42}


def _warm_up_reports(names: list[str]) -> dict | None:
    """What the suite's warm-up (``warm_caches.py``, run by ``conftest.py`` before the workers
    start) compiled in each variant's cold compile, or None when it compiled nothing (a warm
    cache) or did not run (one process)."""
    folder = os.environ.get("MJSIM_WARM_REPORTS")
    if not folder:
        return None
    paths = [Path(folder) / f"{name}.json" for name in names]
    if not all(path.is_file() for path in paths):
        return None
    return {name: json.loads(path.read_text()) for name, path in zip(names, paths, strict=True)}


@pytest.mark.slow  # every variant's cold compile when the cache is warm
def test_every_variants_listed_kernels_are_compiled_by_the_helper_only(tmp_path):
    """Each variant's ``compile_ahead`` samples have the types its loop passes: in a cold
    compile this process compiles none of the listed kernels. On a cold cache the suite's
    warm-up compiled every variant so (with the helper) and reported what it compiled; on a
    warm one the variants are compiled cold here, one after another in a fresh cache, and
    their records must equal those of this process's engines.

    The rest of the suite plays on the engines the warm-up compiled with the helper (the
    golden replays, the reference checks): that shows the helper's code plays as code compiled
    in the process would. The toy tests above show that the probe sees a listed kernel
    compiled in this process when the helper does not provide it. (A variant compiled again
    without the helper took this test from seconds to minutes.)"""
    names = ["anhua", "wengan", "anqing"]
    helped = _warm_up_reports(names)
    if helped is None:
        helped = probe(["variants", *names], tmp_path / "on")
        for name in names:
            assert helped[name + ".records"] == records_sum(name), name
    for name in names:
        listed = set(helped[name]["listed"])
        assert listed, name
        assert listed.isdisjoint(helped[name]["compiled"]), name
        assert helped[name].get("entry_overloads", 1) == 1, name
