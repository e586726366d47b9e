"""Numba's disk cache is keyed by every kernel source, so no edit can leave stale code cached."""

from __future__ import annotations

import os
from pathlib import Path

import numba

import sim.kernels as kernels


def test_cache_folder_is_named_after_all_kernel_sources():
    assert Path(numba.config.CACHE_DIR).name == f"numba-{kernels._sources_digest()}"
    assert Path(numba.config.CACHE_DIR).parent == kernels.numba_cache_base()


def test_each_variant_caches_in_its_own_folder():
    """Anhua's kernels, its engine entry points included, cache in a folder named after the
    generic kernels and Anhua's own sources; the generic kernels stay in theirs."""
    from sim.kernels import hand
    from sim.variants import anhua
    from sim.variants.anhua import engine, scoring

    folder = Path(anhua.__file__).parent
    expected = kernels.numba_cache_base() / kernels.variant_cache_name("anhua", folder)
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


def test_a_numba_cache_dir_set_by_the_user_holds_the_same_digest_named_folders(tmp_path):
    """With ``NUMBA_CACHE_DIR`` set, the generic and the variants' kernels still cache in
    folders named after their sources, inside it: one folder for all would let numba load a
    kernel whose own file is unchanged but whose inlined callees changed."""
    import subprocess
    import sys

    script = (
        "import sim.variants.anhua.scoring as s, sim.kernels.hand as h, sim.kernels as k\n"
        "from pathlib import Path\n"
        "user = Path(sys.argv[1])\n"
        "assert k.numba_cache_base() == user\n"
        "generic = Path(h.shanten_many._cache.cache_path)\n"
        "assert generic.is_relative_to(user / f'numba-{k._sources_digest()}'), generic\n"
        "variant = Path(s.best_win._cache.cache_path)\n"
        "own = user / k.variant_cache_name('anhua', Path(s.__file__).parent)\n"
        "assert variant.is_relative_to(own), variant\n"
    )
    environment = dict(os.environ)
    environment["NUMBA_CACHE_DIR"] = str(tmp_path / "user-numba")
    environment["MJSIM_CACHE_DIR"] = str(tmp_path / "mjsim")
    subprocess.run(
        [sys.executable, "-c", "import sys\n" + script, str(tmp_path / "user-numba")],
        check=True,
        env=environment,
    )


def test_a_kernels_disk_cache_is_made_when_first_used_in_the_folder_of_its_decoration():
    """numba makes a cached kernel's disk cache (finding the folder, testing it for writing)
    when the kernel is decorated; mjsim's kernels make it at their first compile or load, in
    the folder chosen at their decoration (a variant's, though the generic folder is set
    again by then). A fresh process: importing makes no cache; asking one kernel's makes that
    one only, numba's own ``FunctionCache``, in the variant's folder."""
    import subprocess
    import sys

    code = (
        "import numba\n"
        "from numba.core import caching\n"
        "from sim.kernels import hand as h\n"
        "from sim.variants.anhua import scoring as s\n"
        "kernels = [h.shanten_many, h.waits_mask, s.best_win]\n"
        "assert all(k._cache._made is None for k in kernels)\n"
        "assert 'numba-anhua-' not in numba.config.CACHE_DIR\n"
        "assert 'numba-anhua-' in s.best_win._cache.cache_path\n"
        "assert isinstance(s.best_win._cache._made, caching.FunctionCache)\n"
        "assert h.shanten_many._cache._made is None\n"
        "assert 'numba-anhua-' not in h.shanten_many._cache.cache_path\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(Path(kernels.__file__).parents[2])},
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
