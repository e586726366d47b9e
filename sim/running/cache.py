"""The folders mjsim keeps in its cache (``~/.cache/mjsim``, or ``$MJSIM_CACHE_DIR``; numba's in
``$NUMBA_CACHE_DIR`` when that is set): the evaluator's tables (``tables-<digest>``) and numba's
machine code (``numba-<digest>`` for the generic kernels, ``numba-<variant>-<digest>`` for each
variant's). Each is named after a digest of the sources that made it, so an upgrade or an edit
makes new folders and leaves the old ones behind, about 100 MB each time the tables' generator
changes. :func:`cache_folders` lists them, with which this mjsim reads; :func:`prune` removes
the others (``mjsim cache --prune``).

Only folders named as mjsim names them are listed or removed: anything else in the folder (a
user's own files where ``MJSIM_CACHE_DIR`` points, a table build in progress,
``tables-<digest>.<random>``) is left alone. "In use" means read by this mjsim with this
environment's settings: ``MJSIM_NUMBA_FIXES`` and ``MJSIM_LINK_AT_LOAD`` are part of the numba
folders' digests, so folders made under other settings count as not in use.

The test suite's own variants (:data:`TEST_VARIANTS`, such as ``tests/toy_variant``) cache their
kernels beside mjsim's, ``numba-<name>-<digest>``. Their folders are the test suite's: listed as
such (in use when they are this checkout's), and removed only when asked (``prune(tests=True)``,
``mjsim cache --prune --tests``), so pruning mjsim's caches never costs the tests a compile.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

FOLDER_NAME = re.compile(r"(tables|numba|numba-[a-z][a-z0-9_]*)-[0-9a-f]{16}")
"""The names of the folders mjsim makes in its cache."""
TEST_VARIANTS = {"toy": Path("tests") / "toy_variant"}
"""The test suite's own variants (name -> folder in a checkout, whose ``__init__.py`` imports
its kernels inside ``sim.kernels.variant_cache_folder(name, ...)``): their cache folders,
``numba-<name>-<digest>``, are the test suite's. ``tests/test_cache.py`` checks that every
variant the tests declare so is named here."""
CHECKOUT = Path(__file__).resolve().parents[2]
"""The repository this mjsim runs from, when it is a checkout (an editable install)."""


@dataclass(frozen=True)
class CacheFolder:
    """One cache folder: where it is, its size, whether this mjsim (or, for the test suite's,
    this checkout's tests) reads it, and whose it is: ``mjsim`` or ``tests``."""

    path: Path
    size_bytes: int
    in_use: bool
    owner: str = "mjsim"


def is_test_suite_folder(name: str) -> bool:
    """Whether a cache folder is one of the test suite's variants' (:data:`TEST_VARIANTS`)."""
    return any(name.startswith(f"numba-{variant}-") for variant in TEST_VARIANTS)


def in_use_by_tests() -> frozenset[str]:
    """The names of the test suite's folders this checkout's tests read: none when the tests'
    variants are not here (an installed mjsim)."""
    from ..kernels import variant_cache_name

    return frozenset(
        variant_cache_name(name, CHECKOUT / folder)
        for name, folder in TEST_VARIANTS.items()
        if (CHECKOUT / folder / "__init__.py").is_file()
    )


def in_use_names() -> frozenset[str]:
    """The folder names this mjsim reads: its tables' and the numba folders of the generic
    kernels and of every registered variant."""
    from .. import variants
    from ..core.tables import cache_dir
    from ..kernels import _sources_digest, variant_cache_name

    folder = Path(variants.__file__).parent
    # the generic folder's name as sim.kernels makes it. Read through its private digest: a
    # public helper there would be an edit of sim/kernels, whose sources the digest hashes
    # (every engine compiled again for nothing); numba.config.CACHE_DIR is not it while a
    # variant's modules are being imported.
    names = {cache_dir().name, f"numba-{_sources_digest()}"}
    names.update(variant_cache_name(name, folder / name) for name in variants.VARIANT_NAMES)
    return frozenset(names)


def cache_roots() -> list[Path]:
    """Where mjsim's cache folders are: its cache root, and numba's base when it is another."""
    from ..kernels import numba_cache_base
    from ..kernels._jit import cache_root

    roots = [cache_root(), numba_cache_base()]
    return [root for index, root in enumerate(roots) if root not in roots[:index]]


def cache_folders() -> list[CacheFolder]:
    """mjsim's cache folders in :func:`cache_roots` and the test suite's, by root and name."""
    used = in_use_names() | in_use_by_tests()
    found = []
    for root in cache_roots():
        if not root.is_dir():
            continue
        for path in sorted(root.iterdir()):
            if path.is_dir() and not path.is_symlink() and FOLDER_NAME.fullmatch(path.name):
                owner = "tests" if is_test_suite_folder(path.name) else "mjsim"
                found.append(CacheFolder(path, _size(path), path.name in used, owner))
    return found


def prune(tests: bool = False) -> list[CacheFolder]:
    """Remove every cache folder of mjsim's that this mjsim does not read, and with ``tests``
    also every folder of the test suite's that this checkout's tests do not read; the folders
    removed. A run of another mjsim version using one of them at this moment would then
    compile again."""
    removed = []
    for folder in cache_folders():
        if not folder.in_use and (tests or folder.owner == "mjsim"):
            shutil.rmtree(folder.path)
            removed.append(folder)
    return removed


def _size(folder: Path) -> int:
    total = 0
    for directory, _, files in os.walk(folder):
        for name in files:
            with contextlib.suppress(OSError):  # removed meanwhile
                total += (Path(directory) / name).lstat().st_size
    return total
