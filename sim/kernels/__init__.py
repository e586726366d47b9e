"""Numba kernels. Every generic ``@njit`` of mjsim lives in this package; a variant's own kernels
live in its folder (``sim/variants/<name>/``).

Kernels take plain numpy arrays and scalars, fill output arrays, and do no validation: the
friendly Python layer (``sim.hand``, ``sim.core.wall``, ...) checks its input once and then calls
them. This package imports numpy and numba only.

Compiled code is cached on disk in folders named after a digest of kernel sources and the numba
version. Numba itself only notices a change to the file of the cached function, not to the
kernels it calls from other modules; keying a cache folder on all the sources its kernels can
reach means an edit can never leave stale machine code behind:

* the generic kernels (this package) cache in ``numba-<digest of this package>``;
* each variant's kernels, its engine entry points included, cache in
  ``numba-<variant>-<digest of this package and the variant's folder>``
  (:func:`variant_cache_folder`), so editing one variant never recompiles another.

A ``NUMBA_CACHE_DIR`` set by the user is where these folders go instead of mjsim's cache root
(:func:`numba_cache_base`): one folder for numba's whole cache would let numba load a kernel
whose file is unchanged but whose inlined callees from other modules changed (numba checks only
the function's own file), stale code after an edit or an upgrade.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import os
from collections.abc import Iterator
from pathlib import Path

import numba

from ._jit import cache_root


def _sources_digest(*folders: Path) -> str:
    digest = hashlib.blake2b(numba.__version__.encode(), digest_size=8)
    # numba's code differs with the fixes of ``_numba_fixes`` on or off (MJSIM_NUMBA_FIXES)
    digest.update(os.environ.get("MJSIM_NUMBA_FIXES", "1").encode())
    # and kernels linked at load are cached in another form (_numba_fixes.link_callees_at_load)
    if os.environ.get("MJSIM_LINK_AT_LOAD", "1") != "0":
        digest.update(b"link-at-load")
    for folder in folders or (Path(__file__).parent,):
        for path in sorted(folder.rglob("*.py")):
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def numba_cache_base() -> Path:
    """Where the digest-named numba cache folders go: ``$NUMBA_CACHE_DIR`` when the user set
    it, else mjsim's cache root (``$MJSIM_CACHE_DIR`` or ``~/.cache/mjsim``)."""
    user = os.environ.get("NUMBA_CACHE_DIR")
    return Path(user) if user else cache_root()


# Must happen before any kernel module is imported: numba picks the cache folder when a
# function is decorated.
numba.config.CACHE_DIR = str(numba_cache_base() / f"numba-{_sources_digest()}")


def variant_cache_name(name: str, folder: Path) -> str:
    """The cache folder's name for the kernels of variant ``name`` whose sources are in
    ``folder``: the generic kernels' sources and the variant's own."""
    return f"numba-{name}-{_sources_digest(Path(__file__).parent, folder)}"


def _import_generic_kernels() -> None:
    """Import every generic kernel module now, under the generic folder: one first imported by
    a variant's module inside :func:`variant_cache_folder` would cache in the variant's."""
    for path in sorted(Path(__file__).parent.glob("*.py")):
        if path.stem != "__init__":
            importlib.import_module(f"{__name__}.{path.stem}")


@contextlib.contextmanager
def variant_cache_folder(name: str, folder: Path) -> Iterator[None]:
    """Kernels decorated inside this block (the variant's modules, imported here) cache in the
    variant's own folder (:func:`variant_cache_name`); the generic folder is restored after."""
    _import_generic_kernels()
    generic = numba.config.CACHE_DIR
    numba.config.CACHE_DIR = str(numba_cache_base() / variant_cache_name(name, folder))
    try:
        yield
    finally:
        numba.config.CACHE_DIR = generic
