"""How a variant plugs into the generic engine: a numba type of its own whose methods are its
hooks.

The engine (``sim.kernels.engine``) takes a *variant marker* as its first argument and calls
``variant.win(state, seat, how, tile, params, tables)`` and the other hooks of :data:`HOOK_NAMES`.
The marker holds no data; its numba type is made by :func:`define_variant` with one method per
hook, and the method's implementation *is* the hook's body. So the engine compiled for a
marker is that variant's engine and nothing else: each variant's entry module
(``sim/variants/<name>/engine.py``) holds cached ``@kernel`` entry points that call the engine
with its marker, numba compiles one engine per variant, and one variant's compile never
includes another's hooks.

Why this form (measured against the other ways: docs/engine.md, "One engine per variant"): a
marker's type has no address in it, so the disk cache finds the entry again in the next process (a
dispatcher passed as an argument or held in a closure does not: its type is keyed by the
object); a hook that *is* the method costs no wrapper call in between (a wrapper receiving the
state tuple pays a reference count per array on each call); and nothing is decided by integer
branches at run time.

A hook is an ordinary ``@kernel`` taking the variant first (``def win(variant, state, ...)``),
so tests can call it directly with the marker, and hooks can call each other with it.
"""

from __future__ import annotations

import functools

from numba.core import types
from numba.core.imputils import lower_constant
from numba.extending import NativeValue, models, overload_method, register_model, unbox

HOOK_NAMES = (
    "setup",
    "plan_actions",
    "win_forms",
    "lists_chi",
    "win",
    "own_turn_actions",
    "claim_actions",
    "discard_mask",
    "max_winners",
    "kong",
    "observe",
    "settle_win",
    "settle_draw",
)
"""The hooks every variant implements; docs/engine.md says what each must do."""


class VariantType(types.Type):
    """The numba type of one variant's marker (a subclass per variant, no data)."""

    def __init__(self) -> None:
        super().__init__(name=type(self).__name__)


class VariantMarker:
    """The Python-side marker of a variant: numba types it through ``_numba_type_``."""

    def __init__(self, name: str, numba_type: VariantType) -> None:
        self.name = name
        self._numba_type_ = numba_type

    def __repr__(self) -> str:
        return f"<variant marker {self.name}>"


_DEFINED: dict[str, VariantMarker] = {}


def define_variant(name: str, hooks: dict) -> VariantMarker:
    """The marker of variant ``name`` whose methods are ``hooks`` (hook name -> ``@kernel``
    taking the variant first); every name of :data:`HOOK_NAMES` exactly once."""
    missing = sorted(set(HOOK_NAMES) - set(hooks))
    unknown = sorted(set(hooks) - set(HOOK_NAMES))
    if missing or unknown:
        raise TypeError(f"variant {name}: missing hooks {missing}, unknown hooks {unknown}")
    if name in _DEFINED:
        raise ValueError(f"variant {name} is defined twice")
    class_name = f"{name.capitalize()}VariantType"
    cls = type(class_name, (VariantType,), {"__module__": __name__})
    # importable by name, so that a cached signature holding the type unpickles
    globals()[class_name] = cls
    register_model(cls)(models.OpaqueModel)
    lower_constant(cls)(lambda context, builder, ty, pyval: context.get_dummy_value())
    unbox(cls)(lambda typ, obj, c: NativeValue(c.context.get_dummy_value()))
    for hook_name in HOOK_NAMES:
        implementation = hooks[hook_name].py_func
        # overload_method wants a typing function with the implementation's own signature
        # (inspect follows __wrapped__) that returns the implementation
        typer = functools.wraps(implementation)(lambda *args, _impl=implementation: _impl)
        overload_method(cls, hook_name, inline="never")(typer)
    marker = VariantMarker(name, cls())
    _DEFINED[name] = marker
    return marker
