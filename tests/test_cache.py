"""``mjsim cache``: mjsim's cache folders listed with whether this mjsim reads them, and
``--prune`` removing only the folders mjsim made and no longer reads (``sim.running.cache``)."""

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
    for name in (*cache.in_use_names(), *OLD, *OTHERS[1:]):
        (tmp_path / name).mkdir()
        (tmp_path / name / "data.bin").write_bytes(b"x" * 1000)
    (tmp_path / "notes").write_text("a user's file")
    return tmp_path


def test_the_listing_says_which_folders_are_in_use(cache_root):
    found = {folder.path.name: folder for folder in cache.cache_folders()}
    assert set(found) == set(cache.in_use_names()) | set(OLD)  # nothing else is mjsim's
    assert {name for name, folder in found.items() if not folder.in_use} == set(OLD)
    assert all(folder.size_bytes == 1000 for folder in found.values())


def test_prune_removes_only_the_old_folders(cache_root):
    removed = cache.prune()
    assert sorted(folder.path.name for folder in removed) == sorted(OLD)
    left = {path.name for path in cache_root.iterdir()}
    assert left == set(cache.in_use_names()) | set(OTHERS)
    assert (cache_root / "notes").read_text() == "a user's file"
    assert cache.prune() == []  # nothing more to remove


def test_the_command_lists_then_prunes(cache_root, capsys):
    listed = mjsim(capsys, "cache")
    assert listed.returncode == 0
    assert f"mjsim's caches in {cache_root}:" in listed.stdout
    for name in OLD:
        assert re.search(rf"^  old +0\.0 MB  {name}$", listed.stdout, re.MULTILINE)
    for name in cache.in_use_names():
        assert re.search(rf"^  in use +0\.0 MB  {name}$", listed.stdout, re.MULTILINE)
    assert "3 folders not in use (0.0 MB): mjsim cache --prune removes them" in listed.stdout
    pruned = mjsim(capsys, "cache", "--prune")
    assert pruned.returncode == 0
    assert len(re.findall(r"^removed ", pruned.stdout, re.MULTILINE)) == 3
    assert f"3 folders not in use removed from {cache_root}" in pruned.stdout
    assert "no folder that this mjsim does not use" in mjsim(capsys, "cache").stdout


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
