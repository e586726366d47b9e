"""Numba's disk cache is keyed by every kernel source, so no edit can leave stale code cached."""

from __future__ import annotations

import os
from pathlib import Path

import numba
import pytest

import sim.kernels as kernels


@pytest.mark.skipif("NUMBA_CACHE_DIR" in os.environ, reason="the user chose the cache folder")
def test_cache_folder_is_named_after_all_kernel_sources():
    assert Path(numba.config.CACHE_DIR).name == f"numba-{kernels._sources_digest()}"
    assert Path(numba.config.CACHE_DIR).parent == kernels.cache_root()


def test_digest_changes_with_any_kernel_source(tmp_path):
    source = Path(kernels.__file__).parent
    for path in source.glob("*.py"):
        (tmp_path / path.name).write_bytes(path.read_bytes())
    assert kernels._sources_digest(tmp_path) == kernels._sources_digest()
    with (tmp_path / "hand.py").open("a") as handle:
        handle.write("\n# an edit\n")
    assert kernels._sources_digest(tmp_path) != kernels._sources_digest()
