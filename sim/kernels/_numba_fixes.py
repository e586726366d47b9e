"""A fix to numba's compile time, applied once when ``sim.kernels`` is imported.

numba inlines an ``inline="always"`` function (``inline_kernel``) by copying its IR
(``numba.core.inline_closurecall.InlineWorker.inline_ir``, twice per call site), one block at a
time, each block with a deep copy of its own. Every variable of a block refers to the function's
scope, which holds every variable of the function, so each block's copy copies all of the
function's variables again: the cost grows with blocks times variables, and a big inlined search
(``hand.discards_shanten``, ``hand.useful_draws_by_splits``) takes seconds to copy (numba issues
8989 and 9204, numba-cuda 688). Weng'an's cold compile spent about a tenth of its time there.

The fix copies the blocks with one shared memo, so the scope and its variables are copied once,
and the blocks of the copy share one scope as the original's do. The result is the same IR. It
is made by rewriting those two lines of numba's own ``inline_ir``: with a numba whose
``inline_ir`` does not have them word for word, nothing is changed and numba compiles as it
always does (``applied()`` says which). ``MJSIM_NUMBA_FIXES=0`` leaves numba alone.
"""

from __future__ import annotations

import inspect
import os
import textwrap

_PER_BLOCK_COPY = """\
        for block_label, block in the_ir.blocks.items():
            new_block = copy.deepcopy(the_ir.blocks[block_label])
"""
_SHARED_MEMO_COPY = """\
        memo = {}  # mjsim: one memo for all blocks (sim/kernels/_numba_fixes.py)
        for block_label, block in the_ir.blocks.items():
            new_block = copy.deepcopy(the_ir.blocks[block_label], memo)
"""

_applied = False
original_inline_ir = None
"""numba's own ``InlineWorker.inline_ir`` once the fix is applied (for tests)."""


def applied() -> bool:
    """Whether numba's inliner copies callee IR with one memo (this module's fix)."""
    return _applied


def apply() -> None:
    """Replace ``InlineWorker.inline_ir`` by the same source with the shared-memo copy, when
    numba's source has the per-block copy word for word and the fix is not turned off."""
    global _applied, original_inline_ir
    if _applied or os.environ.get("MJSIM_NUMBA_FIXES", "1") == "0":
        return
    from numba.core import inline_closurecall

    worker = inline_closurecall.InlineWorker
    try:
        lines, first_line = inspect.getsourcelines(worker.inline_ir)
    except (OSError, TypeError):  # no source shipped: leave numba as it is
        return
    source = textwrap.dedent("".join(lines))
    if source.count(_PER_BLOCK_COPY) != 1:
        return
    namespace: dict = {}
    # numba's file and line numbers, so that a traceback through it reads numba's source
    padded = "\n" * (first_line - 1) + source.replace(_PER_BLOCK_COPY, _SHARED_MEMO_COPY)
    code = compile(padded, inline_closurecall.__file__, "exec")
    # the module's globals: the rewritten function sees the names numba's sees
    exec(code, vars(inline_closurecall), namespace)
    original_inline_ir = worker.inline_ir
    worker.inline_ir = namespace["inline_ir"]
    _applied = True
