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


@pytest.mark.skipif("NUMBA_CACHE_DIR" in os.environ, reason="the user chose the cache folder")
def test_each_variant_caches_in_its_own_folder():
    """Anhua's kernels, its engine entry points included, cache in a folder named after the
    generic kernels and Anhua's own sources; the generic kernels stay in theirs."""
    from sim.kernels import hand
    from sim.variants import anhua
    from sim.variants.anhua import engine, scoring

    folder = Path(anhua.__file__).parent
    expected = kernels.cache_root() / kernels.variant_cache_name("anhua", folder)
    for entry in (engine.play_hands, engine.play_hand, scoring.best_win):
        assert Path(entry._cache.cache_path).is_relative_to(expected)
    assert not Path(hand.shanten_many._cache.cache_path).is_relative_to(expected)
    assert Path(numba.config.CACHE_DIR).name == f"numba-{kernels._sources_digest()}"


def test_a_variant_digest_changes_with_its_own_and_the_generic_sources(tmp_path):
    generic = Path(kernels.__file__).parent
    variant = tmp_path / "variant"
    variant.mkdir()
    (variant / "hooks.py").write_text("# hooks\n")
    before = kernels.variant_cache_name("x", variant)
    assert before.startswith("numba-x-")
    (variant / "hooks.py").write_text("# hooks, edited\n")
    assert kernels.variant_cache_name("x", variant) != before
    assert kernels._sources_digest(generic, variant) != kernels._sources_digest(generic)


def test_digest_changes_with_any_kernel_source(tmp_path):
    source = Path(kernels.__file__).parent
    for path in source.glob("*.py"):
        (tmp_path / path.name).write_bytes(path.read_bytes())
    assert kernels._sources_digest(tmp_path) == kernels._sources_digest()
    with (tmp_path / "hand.py").open("a") as handle:
        handle.write("\n# an edit\n")
    assert kernels._sources_digest(tmp_path) != kernels._sources_digest()


def test_generic_kernels_cache_in_the_generic_folder_whatever_is_imported_first(tmp_path):
    """A fresh process that imports a variant's scoring first (which imports generic kernels)
    still caches the generic kernels in the generic folder."""
    import subprocess
    import sys

    script = (
        "import sim.variants.anhua.scoring as s, sim.kernels.hand as h, sim.kernels as k\n"
        "from pathlib import Path\n"
        "generic = Path(h.shanten_many._cache.cache_path)\n"
        "assert generic.is_relative_to(k.cache_root() / f'numba-{k._sources_digest()}'), generic\n"
        "assert 'numba-anhua-' in s.best_win._cache.cache_path\n"
    )
    environment = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    environment["MJSIM_CACHE_DIR"] = str(tmp_path)
    subprocess.run([sys.executable, "-c", script], check=True, env=environment)
