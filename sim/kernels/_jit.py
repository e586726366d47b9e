"""The one place where numba compilation flags are chosen.

``cache=True`` keeps compiled machine code on disk between runs (the first import of a kernel
compiles it, later processes load it); ``nogil=True`` lets threads run kernels side by side.
Setting ``NUMBA_DISABLE_JIT=1`` runs every kernel as plain Python, which coverage tools can see.
"""

from __future__ import annotations

import os
from pathlib import Path

from numba import njit

from . import _numba_fixes

_numba_fixes.apply()  # before any kernel compiles: the inliner's copy (see that module)
_numba_fixes.mark_propagated_errors()
_numba_fixes.elide_argument_counts()


def cache_root() -> Path:
    """Where mjsim keeps generated files: ``$MJSIM_CACHE_DIR`` or ``~/.cache/mjsim``."""
    return Path(os.environ.get("MJSIM_CACHE_DIR") or Path.home() / ".cache" / "mjsim")


kernel = njit(cache=True, nogil=True)
"""Decorator for every kernel: ``@kernel`` over a function with plain typed array arguments."""

inline_kernel = njit(cache=True, nogil=True, inline="always")
"""For small kernels called from hot loops: inlined by numba itself, so the loop does not pass the
tables tuple by value on every call. An inlined function still counts a reference per array of
each tuple argument, at every call site, unless numba's pruning pairs the counts up (it does in
straight-line code, not across an early return): see docs/engine.md, "Speed notes"."""

generic_kernel = njit(nogil=True)
"""For the generic game loop (``sim.kernels.engine``), which takes a variant marker: never cached
on its own, because it is compiled into each variant's cached entry points (one engine per
variant, in that variant's cache folder; ``sim.kernels.variant_type``)."""

generic_inline_kernel = njit(nogil=True, inline="always")
"""``generic_kernel`` inlined by numba into its caller: for the generic loop's outermost
function, so that a variant's entry point and the loop it calls are one compiled function
(each separately compiled level optimises and emits the whole engine's code again: seconds)."""
