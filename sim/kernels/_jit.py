"""The one place where numba compilation flags are chosen.

Kernels keep their compiled machine code on disk between runs (numba's ``cache=True``: the first
call of a kernel compiles it, later processes load it), each in the cache folder chosen when it
was decorated, its cache made at its first use (:class:`DiskCacheOnFirstUse`); ``nogil=True``
lets threads run kernels side by side.
Setting ``NUMBA_DISABLE_JIT=1`` runs every kernel as plain Python, which coverage tools can see.
"""

from __future__ import annotations

import os
from pathlib import Path

import numba
from numba import njit
from numba.core import caching
from numba.core.dispatcher import Dispatcher

from . import _numba_fixes

_numba_fixes.apply_at_first_compile()  # the inliner's copy (see that module)
_numba_fixes.mark_propagated_errors()
_numba_fixes.elide_argument_counts()
_numba_fixes.skip_untouched_blocks()
_numba_fixes.link_callees_at_load()
_numba_fixes.load_without_refresh()


def cache_root() -> Path:
    """Where mjsim keeps generated files: ``$MJSIM_CACHE_DIR`` or ``~/.cache/mjsim``."""
    return Path(os.environ.get("MJSIM_CACHE_DIR") or Path.home() / ".cache" / "mjsim")


class _FolderLocator(caching.UserProvidedCacheLocator):
    """numba's locator for a cache folder given by the user (``NUMBA_CACHE_DIR``), for the
    folder chosen when the kernel was decorated (``numba.config.CACHE_DIR`` then) rather than
    whatever ``numba.config.CACHE_DIR`` holds when its cache is made: a variant's modules are
    decorated inside ``sim.kernels.variant_cache_folder``."""

    folder = ""  # set by each subclass (``_function_cache_class``)

    def __init__(self, py_func, py_file):
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = os.path.join(self.folder, self.get_suitable_cache_subpath(py_file))

    @classmethod
    def from_function(cls, py_func, py_file):
        # as numba's own: None (the next locator) when the folder cannot be written
        return super(caching.UserProvidedCacheLocator, cls).from_function(py_func, py_file)


_CACHE_CLASSES: dict[str, type] = {}


def _function_cache_class(folder: str) -> type:
    """A ``FunctionCache`` class whose kernels cache in ``folder`` (numba's other locators
    after it, as numba falls back when a folder cannot be written), and load from it without
    numba's refresh of its registries (``_numba_fixes.load_without_refresh``)."""
    if folder not in _CACHE_CLASSES:
        locator = type("_Locator", (_FolderLocator,), {"folder": folder})
        impl = type(
            "_Impl",
            (caching.CompileResultCacheImpl,),
            {"_locator_classes": [locator, *caching.CacheImpl._locator_classes[1:]]},
        )
        members = {"_impl_class": impl}
        if _numba_fixes.loads_without_refresh():
            members["load_overload"] = _numba_fixes.load_overload_without_refresh
        _CACHE_CLASSES[folder] = type("FunctionCache", (caching.FunctionCache,), members)
    return _CACHE_CLASSES[folder]


class DiskCacheOnFirstUse:
    """A kernel's numba disk cache (``numba.core.caching.FunctionCache``), made when numba first
    uses it: at the kernel's first compile or cache load, in the folder chosen when it was
    decorated.

    numba makes each cached kernel's cache when the kernel is decorated, finding its folder and
    testing it for writing with a temporary file: about 0.2 ms a kernel, 50 ms of every process
    that imports the generic kernels and a rule set, though a warm run loads one entry point
    (the kernels it calls are in its library or its cache entry,
    ``_numba_fixes.link_callees_at_load``).
    Deferred, only the kernels compiled or loaded pay it."""

    __slots__ = ("_folder", "_made", "_py_func")

    def __init__(self, py_func, folder: str) -> None:
        self._py_func = py_func
        self._folder = folder
        self._made = None

    def made(self):
        """The numba cache itself (made now if it was not)."""
        if self._made is None:
            self._made = _function_cache_class(self._folder)(self._py_func)
        return self._made

    def __getattr__(self, name: str):
        return getattr(self.made(), name)


def _cached_njit(**options):
    """``njit(cache=True, **options)`` with the disk cache made on first use
    (:class:`DiskCacheOnFirstUse`); with no folder set, numba's own (its default locators)."""
    decorate = njit(**options)

    def cached(function):
        dispatcher = decorate(function)
        if not isinstance(dispatcher, Dispatcher):  # NUMBA_DISABLE_JIT: the function itself
            return dispatcher
        if numba.config.CACHE_DIR:
            dispatcher._cache = DiskCacheOnFirstUse(dispatcher.py_func, numba.config.CACHE_DIR)
        else:
            dispatcher.enable_caching()
        return dispatcher

    return cached


kernel = _cached_njit(nogil=True)
"""Decorator for every kernel: ``@kernel`` over a function with plain typed array arguments."""

inline_kernel = _cached_njit(nogil=True, inline="always")
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
(each separately compiled level would optimise and emit again the kernels copied into it,
``_numba_fixes.link_callees_at_load``)."""
