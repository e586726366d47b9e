"""``mjsim cache``: mjsim's cache folders listed with whether this mjsim reads them, and
``--prune`` removing only the folders mjsim made and no longer reads (``sim.running.cache``);
the test suite's own folders listed as such and removed only with ``--prune --tests``."""

from __future__ import annotations

import importlib
import os
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import pytest
from numba.core.registry import CPUDispatcher

from sim import variants
from sim.core.tables import cache_dir
from sim.kernels import _jit
from sim.running import cache
from tests.cli_in_process import mjsim

OLD = ("tables-0123456789abcdef", "numba-fedcba9876543210", "numba-wengan-00112233445566ff")
OTHERS = ("notes", "tables-0123456789abcdef.k3j_x9", "numba-UPPER-0123456789abcdef")
TESTS_OLD = "numba-toy-0123456789abcdef"
"""An old folder of the test suite's toy variant (tests/toy_variant)."""
ROOT = Path(__file__).resolve().parents[1]


def _cache_folders_of(package: str) -> set[str]:
    """The cache folder names of every cached kernel in ``package`` and its modules."""
    names = set()
    root = importlib.import_module(package)
    modules = [root]
    if hasattr(root, "__path__"):
        modules += [
            importlib.import_module(f"{package}.{info.name}")
            for info in pkgutil.iter_modules(root.__path__)
        ]
    for module in modules:
        for value in vars(module).values():
            if isinstance(value, CPUDispatcher) and value._cache is not None:
                path = getattr(value._cache, "_cache_path", None)
                if path:
                    names.add(Path(path).parent.name)
    return names


def test_the_folders_in_use_are_those_the_kernels_and_tables_read():
    used = cache.in_use_names()
    assert cache_dir().name in used
    generic = _cache_folders_of("sim.kernels")
    assert generic and generic <= used
    for name in variants.VARIANT_NAMES:
        own = _cache_folders_of(f"sim.variants.{name}")
        assert own and own <= used, name
    assert len(used) == 2 + len(variants.VARIANT_NAMES)


@pytest.fixture
def cache_root(tmp_path, monkeypatch):
    """An empty cache root holding this mjsim's folders (small stand-ins), old ones and files
    that are not mjsim's."""
    monkeypatch.setenv("MJSIM_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    assert _jit.cache_root() == tmp_path
    for name in (*cache.in_use_names(), *cache.in_use_by_tests(), TESTS_OLD, *OLD, *OTHERS[1:]):
        (tmp_path / name).mkdir()
        (tmp_path / name / "data.bin").write_bytes(b"x" * 1000)
    (tmp_path / "notes").write_text("a user's file")
    return tmp_path


def test_the_test_suite_declares_its_variants_cache_folders_to_the_listing():
    """Every variant the tests compile into the cache (``variant_cache_folder(NAME, ...)``)
    is one of ``cache.TEST_VARIANTS``, at the folder named there; in this checkout its folder
    is in use."""
    declared = {}
    for path in (ROOT / "tests").rglob("*.py"):
        for name in re.findall(r"variant_cache_folder\(\s*\"(\w+)\"", path.read_text("utf-8")):
            declared[name] = path.parent.relative_to(ROOT)
    assert declared == cache.TEST_VARIANTS
    assert len(cache.in_use_by_tests()) == len(declared)
    assert all(cache.is_test_suite_folder(name) for name in cache.in_use_by_tests())


def test_the_listing_says_which_folders_are_in_use_and_which_are_the_tests(cache_root):
    found = {folder.path.name: folder for folder in cache.cache_folders()}
    tests = set(cache.in_use_by_tests()) | {TESTS_OLD}
    assert set(found) == set(cache.in_use_names()) | set(OLD) | tests  # nothing else is ours
    assert {name for name, folder in found.items() if not folder.in_use} == {*OLD, TESTS_OLD}
    assert {name for name, folder in found.items() if folder.owner == "tests"} == tests
    assert all(folder.size_bytes == 1000 for folder in found.values())


def test_prune_removes_only_the_old_folders_not_the_test_suites(cache_root):
    removed = cache.prune()
    assert sorted(folder.path.name for folder in removed) == sorted(OLD)
    left = {path.name for path in cache_root.iterdir()}
    tests = set(cache.in_use_by_tests()) | {TESTS_OLD}
    assert left == set(cache.in_use_names()) | set(OTHERS) | tests
    assert (cache_root / "notes").read_text() == "a user's file"
    assert cache.prune() == []  # nothing more to remove
    # asked: the test suite's old folder too, never the one this checkout's tests read
    assert [folder.path.name for folder in cache.prune(tests=True)] == [TESTS_OLD]
    assert cache.in_use_by_tests() <= {path.name for path in cache_root.iterdir()}


def test_the_command_lists_then_prunes(cache_root, capsys):
    listed = mjsim(capsys, "cache")
    assert listed.returncode == 0
    assert f"mjsim's caches in {cache_root}:" in listed.stdout
    for name in OLD:
        assert re.search(rf"^  old +0\.0 MB  {name}$", listed.stdout, re.MULTILINE)
    for name in cache.in_use_names():
        assert re.search(rf"^  in use +0\.0 MB  {name}$", listed.stdout, re.MULTILINE)
    for name in cache.in_use_by_tests():
        assert re.search(rf"^  tests +0\.0 MB  {name}$", listed.stdout, re.MULTILINE)
    assert re.search(rf"^  tests, old +0\.0 MB  {TESTS_OLD}$", listed.stdout, re.MULTILINE)
    assert "3 folders not in use (0.0 MB): mjsim cache --prune removes them" in listed.stdout
    assert (
        "the test suite's 2 folders (tests/toy_variant), 1 not in use (0.0 MB): kept by mjsim "
        "cache --prune, removed by mjsim cache --prune --tests"
    ) in listed.stdout
    pruned = mjsim(capsys, "cache", "--prune")
    assert pruned.returncode == 0
    assert len(re.findall(r"^removed ", pruned.stdout, re.MULTILINE)) == 3
    assert f"3 folders not in use removed from {cache_root}" in pruned.stdout
    assert (
        "kept the test suite's 1 folder not in use (tests/toy_variant): mjsim cache --prune "
        "--tests removes them"
    ) in pruned.stdout
    assert (cache_root / TESTS_OLD).is_dir()
    assert "no folder that this mjsim does not use" in mjsim(capsys, "cache").stdout
    pruned = mjsim(capsys, "cache", "--prune", "--tests")
    assert pruned.stdout.splitlines() == [
        f"removed      0.0 MB  {cache_root / TESTS_OLD}",
        f"1 folder not in use removed from {cache_root}: 0.0 MB",
    ]
    assert all((cache_root / name).is_dir() for name in cache.in_use_by_tests())


def test_tests_without_prune_is_a_one_line_error(cache_root, capsys):
    result = mjsim(capsys, "cache", "--tests")
    assert result.returncode == 2 and result.stdout == ""
    assert (
        result.stderr == "mjsim: error: --tests: only with --prune (mjsim cache --prune --tests)\n"
    )


def test_a_bad_flag_is_one_line_and_status_2(capsys):
    result = mjsim(capsys, "cache", "--prune-all")
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "--prune-all" in result.stderr


def test_the_command_in_a_process_of_its_own(tmp_path):
    environment = {**os.environ, "MJSIM_CACHE_DIR": str(tmp_path)}
    environment.pop("NUMBA_CACHE_DIR", None)
    (tmp_path / OLD[0]).mkdir()
    done = subprocess.run(
        [sys.executable, "-m", "sim.cli", "cache", "--prune"],
        capture_output=True, text=True, env=environment, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert f"removed      0.0 MB  {tmp_path / OLD[0]}" in done.stdout
    assert f"1 folder not in use removed from {tmp_path}: 0.0 MB" in done.stdout
    assert not (tmp_path / OLD[0]).exists()
