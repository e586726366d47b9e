"""Numba kernels. Every ``@njit`` of mjsim lives in this package.

Kernels take plain numpy arrays and scalars, fill output arrays, and do no validation: the
friendly Python layer (``sim.hand``, ``sim.wall``, ...) checks its input once and then calls them.
This package imports numpy and numba only.

Compiled code is cached on disk in a folder named after a digest of every kernel source file and
the numba version. Numba itself only notices a change to the file of the cached function, not to
the kernels it calls from other modules; keying the whole cache on all sources means an edit
anywhere in ``sim/kernels`` can never leave stale machine code behind. A ``NUMBA_CACHE_DIR`` set
by the user is respected.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numba

from ._jit import cache_root


def _sources_digest(folder: Path = Path(__file__).parent) -> str:
    digest = hashlib.blake2b(numba.__version__.encode(), digest_size=8)
    for path in sorted(folder.rglob("*.py")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


if not os.environ.get("NUMBA_CACHE_DIR"):
    # Must happen before any kernel module is imported: numba picks the cache folder when a
    # function is decorated.
    numba.config.CACHE_DIR = str(cache_root() / f"numba-{_sources_digest()}")
