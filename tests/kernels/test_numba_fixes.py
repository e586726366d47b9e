"""The fix to numba's inliner (sim/kernels/_numba_fixes.py): applied to this numba, the same
compiled results, and the callee's IR copied once per call site, not once per block."""

from __future__ import annotations

import inspect

import numpy as np
import pytest
from numba import njit
from numba.core import inline_closurecall, ir

from sim.kernels import _numba_fixes


def test_the_fix_is_applied_where_numba_copies_block_by_block():
    numba_source = inspect.getsource(inline_closurecall)  # the file, as numba ships it
    if "new_block = copy.deepcopy(the_ir.blocks[block_label])\n" not in numba_source:
        pytest.skip("this numba copies callee IR otherwise: nothing to fix")
    assert _numba_fixes.applied()
    assert inline_closurecall.InlineWorker.inline_ir is not _numba_fixes.original_inline_ir


def _branchy(values, limit):
    """Many blocks and variables: the shape of code whose copy the fix makes cheap."""
    total = 0
    for index in range(values.shape[0]):
        value = values[index]
        if value > limit:
            total += value * 3
        elif value == limit:
            total -= 7
        elif value % 2 == 0:
            total += value // 2
        else:
            for step in range(value % 5):
                total += step
    if total > 1000:
        return total - 1000
    return total


def _compiled_pair():
    """A fresh inlined callee and its caller (new dispatchers: compiled anew, not cached)."""
    callee = njit(inline="always")(_branchy)

    @njit
    def caller(values, limit):
        return callee(values, limit) + callee(values[::-1], limit + 1)

    return caller


def test_inlining_with_the_fix_copies_less_and_compiles_the_same_code(monkeypatch):
    if not _numba_fixes.applied():
        pytest.skip("the fix does not apply to this numba")
    copies = {"fixed": 0, "numba": 0}
    copy_var = ir.Var.__deepcopy__
    counted = "fixed"

    def counting_copy(self, memo):
        copies[counted] += 1
        return copy_var(self, memo)

    monkeypatch.setattr(ir.Var, "__deepcopy__", counting_copy)
    fixed = inline_closurecall.InlineWorker.inline_ir
    rng = np.random.default_rng(5)
    inputs = [(rng.integers(-20, 40, size=n), int(rng.integers(-5, 30))) for n in (0, 1, 7, 40)]
    answers = {}
    for counted, inline_ir in (("fixed", fixed), ("numba", _numba_fixes.original_inline_ir)):
        monkeypatch.setattr(inline_closurecall.InlineWorker, "inline_ir", inline_ir)
        caller = _compiled_pair()
        answers[counted] = [caller(values, limit) for values, limit in inputs]
    expected = [
        _branchy(values, limit) + _branchy(values[::-1], limit + 1) for values, limit in inputs
    ]
    assert answers["fixed"] == expected
    assert answers["numba"] == expected
    assert 0 < copies["fixed"] * 3 < copies["numba"]
