"""The fixes to numba (sim/kernels/_numba_fixes.py). The inliner's: applied to this numba, the
same compiled results, and the callee's IR copied once per call site, not once per block. The
propagated error marked as a raise: applied, a kernel that calls another counts no reference of
its arguments, and an error still reaches Python with the arrays intact."""

from __future__ import annotations

import inspect
import os
import shutil
import struct
import sys
from pathlib import Path

import numpy as np
import pytest
from numba import njit
from numba.core import inline_closurecall, ir

from sim.core.tables import cache_dir, load_tables
from sim.kernels import _numba_fixes


def test_the_fix_is_applied_where_numba_copies_block_by_block():
    if os.environ.get("MJSIM_NUMBA_FIXES") == "0":
        pytest.skip("MJSIM_NUMBA_FIXES=0: numba left alone")
    numba_source = inspect.getsource(inline_closurecall)  # the file, as numba ships it
    if "new_block = copy.deepcopy(the_ir.blocks[block_label])\n" not in numba_source:
        pytest.skip("this numba copies callee IR otherwise: nothing to fix")
    njit(lambda value: value + 1)(1)  # a compile: the fix is made at the first
    assert _numba_fixes.applied()
    assert inline_closurecall.InlineWorker.inline_ir is not _numba_fixes.original_inline_ir


_FIRST_COMPILE_RUN = """
import sys
from numba import njit
import sim.kernels
from sim.kernels import _numba_fixes as F
print("imported", F.applied(), "numba.core.inline_closurecall" in sys.modules)
njit(lambda value: value + 1)(1)
print("compiled", F.applied())
"""


def test_the_inliner_is_fixed_at_the_first_compile_not_at_import():
    """A warm start only loads compiled code: importing ``sim.kernels`` neither imports numba's
    inliner nor rewrites it (0.08 s); the first compile in the process does."""
    import subprocess

    if os.environ.get("MJSIM_NUMBA_FIXES") == "0":
        pytest.skip("MJSIM_NUMBA_FIXES=0: numba left alone")
    njit(lambda value: value + 1)(1)
    if not _numba_fixes.applied():
        pytest.skip("this numba copies callee IR otherwise: nothing to fix")
    result = subprocess.run(
        [sys.executable, "-c", _FIRST_COMPILE_RUN], capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.splitlines() == ["imported False False", "compiled True"]


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
    _numba_fixes.apply()  # made at the first compile, which this worker may not have had yet
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


# --- the propagated error marked as a raise (mark_propagated_errors) ---------------------------


def test_the_mark_is_applied_where_numba_propagates_errors_unmarked():
    from numba.core import callconv

    if os.environ.get("MJSIM_NUMBA_FIXES") == "0":
        pytest.skip("MJSIM_NUMBA_FIXES=0: numba left alone")
    numba_source = inspect.getsource(callconv)
    if "self._return_errcode_raw(builder, status.code)" not in numba_source:
        pytest.skip("this numba passes errors on otherwise: nothing to mark")
    assert _numba_fixes.propagation_marked()
    conv = callconv.CPUCallConv
    assert conv.return_status_propagate is not _numba_fixes.original_return_status_propagate


@njit
def _fails_on_negative(values, index):
    """Raises on a negative value; big enough (a loop per branch) that LLVM keeps it a call."""
    if values[index] < 0:
        raise ValueError("a negative value")
    smaller = 0
    for other in range(values.shape[0]):
        if values[other] < values[index]:
            smaller += 1
        elif values[other] == values[index] and other < index:
            smaller += 2
    larger = 0.0
    for other in range(values.shape[0] - 1, -1, -1):
        if values[other] > values[index]:
            larger += values[other] / (1.0 + values[index])
        elif values[other] * 2 > values[index]:
            larger -= values[other] % 3
    return values[index] + 0 * (smaller + larger)


@njit
def _calls_and_branches(values, weights, limit):
    """Calls a kernel that may raise, in a loop with branches, and reads both arrays at its one
    way out: the shape in which the mark lets numba drop the argument's counts."""
    total = 0.0
    for index in range(values.shape[0]):
        value = _fails_on_negative(values, index)
        if value > limit:
            total += value * weights[index]
        else:
            total -= weights[index]
    return total + 0 * (values[0] + weights[0])


def _own_counts(function):
    """(increments, decrements) of reference counts in the compiled ``function`` itself, not
    in its Python or C wrappers."""
    import re

    (text,) = function.inspect_llvm().values()
    name = function.py_func.__name__
    own = []
    for part in text.split("define ")[1:]:
        found = re.search(r'@"?([^"(\s]+)', part.split("{")[0])
        if found is None:
            continue
        symbol = found.group(1)
        if name in symbol and "cpython" not in symbol and "cfunc" not in symbol:
            own.append(part)
    assert len(own) == 1
    return own[0].count("call void @NRT_incref"), own[0].count("call void @NRT_decref")


def test_a_kernel_that_calls_another_counts_no_reference_of_its_arguments():
    values = np.array([3.0, 1.0, 5.0])
    weights = np.array([2.0, 4.0, 1.0])
    assert _calls_and_branches(values, weights, 2.0) == 3.0 * 2.0 - 4.0 + 5.0 * 1.0
    if not _numba_fixes.propagation_marked():
        pytest.skip("the mark is not applied to this numba")
    assert _own_counts(_calls_and_branches) == (0, 0)


def test_an_error_from_a_called_kernel_still_reaches_python_and_leaves_the_arrays_alive():
    import sys

    values = np.array([3.0, -1.0, 5.0])
    weights = np.array([2.0, 4.0, 1.0])
    before = (sys.getrefcount(values), sys.getrefcount(weights))
    for _ in range(100):
        with pytest.raises(ValueError, match="a negative value"):
            _calls_and_branches(values, weights, 2.0)
    # a count dropped below its pairs would free the arrays under us; numba may leak on an
    # error (as its own raise does), never under-count
    assert (sys.getrefcount(values), sys.getrefcount(weights)) >= before
    assert values.sum() == 7.0 and weights.sum() == 7.0
    np.testing.assert_array_equal(values, [3.0, -1.0, 5.0])


# --- a kernel's counts of its own array arguments elided (elide_argument_counts) -------------
# These kernels are compiled here, not cached, under a name prefix added to the elision's
# owners for the test (it edits mjsim's kernels only).

_TEST_OWNER = "_ZN5tests"


@pytest.fixture
def elided_here(monkeypatch):
    if not _numba_fixes.counts_elided():
        pytest.skip("the elision is not applied to this numba")
    monkeypatch.setattr(_numba_fixes, "ELIDE_OWNERS", (*_numba_fixes.ELIDE_OWNERS, _TEST_OWNER))


def _make_kernels():
    """Fresh dispatchers (compiled in the test, with the owner in place)."""

    @njit
    def row_sum(rows, index):
        total = 0.0
        row = rows[index]  # a view: counted, as the argument is
        for column in range(row.shape[0]):
            total += row[column]
        return total

    @njit
    def weighted_rows(rows, weights, limit):
        total = 0.0
        for index in range(rows.shape[0]):
            value = row_sum(rows, index)
            if value > limit:
                total += value * weights[index]
            elif value < 0:
                raise ValueError("a negative row")
            else:
                total -= weights[index]
        return total

    @njit
    def first_row(rows):
        return rows[0]  # returned: its counts must stay

    @njit
    def pair(rows, weights):
        return (rows, weights[1:])  # put in a tuple and returned

    return weighted_rows, first_row, pair


def test_a_kernel_counts_no_reference_of_an_argument_it_only_reads_and_passes_on(elided_here):
    weighted_rows, _, _ = _make_kernels()
    rows = np.array([[1.0, 2.0], [0.5, 0.5], [4.0, 4.0]])
    weights = np.array([2.0, 3.0, 0.5])
    assert weighted_rows(rows, weights, 2.0) == 3.0 * 2.0 - 3.0 + 8.0 * 0.5
    assert _own_counts(weighted_rows) == (0, 0)


def test_with_the_counts_elided_the_arrays_keep_their_python_counts(elided_here):
    import sys

    weighted_rows, _, _ = _make_kernels()
    rows = np.array([[1.0, 2.0], [0.5, 0.5], [4.0, 4.0]])
    weights = np.array([2.0, 3.0, 0.5])
    before = (sys.getrefcount(rows), sys.getrefcount(weights))
    for _ in range(1_000):
        weighted_rows(rows, weights, 2.0)
    assert (sys.getrefcount(rows), sys.getrefcount(weights)) == before
    bad = np.array([[1.0, 2.0], [-3.0, 0.0]])
    for _ in range(10):
        with pytest.raises(ValueError, match="a negative row"):
            weighted_rows(bad, weights, 2.0)
    np.testing.assert_array_equal(bad, [[1.0, 2.0], [-3.0, 0.0]])


def test_an_argument_returned_or_put_in_a_tuple_keeps_its_counts(elided_here):
    import gc
    import sys

    _, first_row, pair = _make_kernels()
    rows = np.array([[1.0, 2.0], [3.0, 4.0]])
    weights = np.array([5.0, 6.0, 7.0])
    count = sys.getrefcount(rows)
    row = first_row(rows)
    both = pair(rows, weights)
    assert _own_counts(first_row)[0] > 0  # the returned view's count is kept
    del rows, weights
    gc.collect()
    # the results keep the arrays alive: a count elided here would have freed them
    np.testing.assert_array_equal(row, [1.0, 2.0])
    np.testing.assert_array_equal(both[0], [[1.0, 2.0], [3.0, 4.0]])
    np.testing.assert_array_equal(both[1], [6.0, 7.0])
    again = np.array([[1.0, 2.0], [3.0, 4.0]])
    assert sys.getrefcount(again) <= count


def test_the_text_edit_keeps_counts_of_values_used_otherwise():
    text = "\n".join(
        [
            "define i32 @_ZN3sim1fB(ptr %retptr, ptr %excinfo, ptr %arg.a.0, ptr %arg.b.0) {",
            "B0:",
            "  tail call void @NRT_incref(ptr %arg.a.0)",
            "  tail call void @NRT_incref(ptr %arg.b.0)",
            "  %x = phi ptr [ %arg.a.0, %B0 ], [ null, %§wengan-setup ]",
            "  %.5 = call i32 @_ZN3sim1gB(ptr %retptr, ptr %excinfo, ptr %arg.a.0)",
            "  store ptr %arg.b.0, ptr %retptr, align 8",
            "  tail call void @NRT_decref(ptr %x)",
            "  tail call void @NRT_decref(ptr %arg.b.0)",
            "  ret i32 0",
            "}",
        ]
    )
    edited, removed = _numba_fixes.elide_counts_in_text(text)
    assert removed == 2  # a's increment, and its phi's decrement
    assert "NRT_incref(ptr %arg.a.0)" not in edited and "NRT_decref(ptr %x)" not in edited
    # b is stored: both its counts stay
    assert "NRT_incref(ptr %arg.b.0)" in edited and "NRT_decref(ptr %arg.b.0)" in edited
    other = text.replace("@_ZN3sim1fB", "@_ZN5numba1fB")  # not mjsim's: left alone
    assert _numba_fixes.elide_counts_in_text(other) == (other, 0)


# --- SSA reconstruction over the blocks a variable appears in (skip_untouched_blocks) ----------


def _reassigning(values, limit):
    """Variables assigned in several blocks (SSA violators) and many blocks that name none of
    them: the shape whose reconstruction the fix makes cheap."""
    total = 0
    best = -1
    for index in range(values.shape[0]):
        value = values[index]
        if value > limit:
            total += value * 3
            best = index
        elif value == limit:
            total -= 7
        elif value % 2 == 0:
            total += value // 2
        else:
            for step in range(value % 5):
                total += step
        if total > 1000:
            total = total - 1000
    scale = 2
    if best > 0:
        scale = 3
    return total * scale + best


def _ssa_of(function, originals: bool) -> tuple[str, int]:
    """``function``'s untyped IR after numba's SSA reconstruction, as text, and how many
    statements the reconstruction's rewrites visited; with numba's own functions when
    ``originals``."""
    import contextlib
    import io

    from numba.core import compiler, ssa

    visits = 0
    block_pass = ssa._run_ssa_block_pass

    def counting(states, block, handler):
        nonlocal visits
        for statement in block_pass(states, block, handler):
            visits += 1
            yield statement

    replaced = (ssa._run_ssa, ssa._run_block_rewrite, ssa._run_ssa_block_pass)
    try:
        ssa._run_ssa_block_pass = counting
        if originals:
            ssa._run_ssa = _numba_fixes.original_run_ssa
            ssa._run_block_rewrite = _numba_fixes.original_run_block_rewrite
        func_ir = compiler.run_frontend(function)
        ssa.reconstruct_ssa(func_ir)
    finally:
        ssa._run_ssa, ssa._run_block_rewrite, ssa._run_ssa_block_pass = replaced
    text = io.StringIO()
    with contextlib.redirect_stdout(text):
        func_ir.dump()
    return text.getvalue(), visits


def test_the_ssa_skip_is_applied_where_numba_rewrites_every_block():
    if os.environ.get("MJSIM_NUMBA_FIXES") == "0":
        pytest.skip("MJSIM_NUMBA_FIXES=0: numba left alone")
    from numba.core import ssa

    if inspect.getsource(_numba_fixes.original_run_ssa or ssa._run_ssa) != (
        _numba_fixes._RUN_SSA_SOURCE
    ):
        pytest.skip("this numba reconstructs SSA otherwise: nothing to skip")
    assert _numba_fixes.blocks_skipped()
    assert ssa._run_ssa is _numba_fixes._run_ssa
    assert ssa._run_block_rewrite is _numba_fixes._run_block_rewrite


def test_ssa_with_the_skip_visits_fewer_statements_and_gives_the_same_ir():
    if not _numba_fixes.blocks_skipped():
        pytest.skip("the fix does not apply to this numba")
    fixed, fixed_visits = _ssa_of(_reassigning, originals=False)
    numba, numba_visits = _ssa_of(_reassigning, originals=True)
    assert fixed == numba
    assert "phi" in fixed and "total.1" in fixed  # the function did need reconstructing
    assert 0 < fixed_visits * 2 < numba_visits
    # and the compiled function answers as the Python one
    values = np.array([3, 9, 4, 11, 6, 15, 0, 7], np.int64)
    assert njit(_reassigning)(values, 6) == _reassigning(values, 6)


@pytest.mark.slow  # two compiles of the discard search, about 12 s each
def test_the_discard_search_compiles_to_the_same_llvm_ir_either_way(tmp_path):
    """The agents' search (a very large inlined kernel, the fix's reason) compiled in two fresh
    processes, with the skip and with numba's own reconstruction: the same LLVM IR."""
    import subprocess
    import sys

    code = (
        "import sys, hashlib, numba, numpy as np\n"
        "import sim.kernels\n"
        "from sim.kernels import _numba_fixes as F\n"
        "from numba.core import bytecode, ssa\n"
        "import itertools\n"
        "bytecode.FunctionIdentity._unique_ids = itertools.count(1)  # the same names both ways\n"
        "if sys.argv[1] == 'numba':\n"
        "    ssa._run_ssa = F.original_run_ssa\n"
        "    ssa._run_block_rewrite = F.original_run_block_rewrite\n"
        "from sim.kernels import agents as AG, hand as K\n"
        "from sim.core.tables import load_tables\n"
        "rows, info, vectors = AG.discard_space()\n"
        "kinds = K.N_KINDS\n"
        "args = (np.zeros(kinds, np.uint8), np.zeros(4, np.int64), 0, np.zeros(kinds, np.bool_),\n"
        "        np.zeros(kinds, np.uint8), 27, 3, np.ones(kinds, np.bool_), load_tables(), rows,\n"
        "        info, vectors)\n"
        "sig = tuple(numba.typeof(a) for a in args)\n"
        "AG._efficiency_search.compile(sig)\n"
        "print(hashlib.sha1(AG._efficiency_search.inspect_llvm(sig).encode()).hexdigest())\n"
    )
    root = Path(_numba_fixes.__file__).parents[2]
    load_tables()  # built, if this process had not: the subprocesses copy them
    tables = cache_dir()
    digests = []
    for mode, cache in (("fixed", tmp_path / "a"), ("numba", tmp_path / "b")):
        environment = {**os.environ, "PYTHONPATH": str(root), "MJSIM_CACHE_DIR": str(cache)}
        environment.pop("NUMBA_CACHE_DIR", None)
        shutil.copytree(tables, cache / tables.name)
        result = subprocess.run(
            [sys.executable, "-c", code, mode], capture_output=True, text=True,
            env=environment, timeout=600,
        )  # fmt: skip
        assert result.returncode == 0, result.stderr
        digests.append(result.stdout.strip())
    assert digests[0] == digests[1]


# --- called kernels linked at load (link_callees_at_load) ------------------------------------

_CHAIN_BASE_MODULE = """
from numba import njit


@njit(cache=True)
def base(value):
    return value - 4.0
"""

_CHAIN_HOOK_MODULE = """
from numba import njit

import chain_base


@njit
def hook(value):  # not a kernel linked at load (as a test variant's hook): copied into callers
    return chain_base.base(value) * 3.0
"""

_CHAIN_MODULE = """
import numpy as np
from numba import njit

import chain_hook


@njit(cache=True)
def via_hook(values):
    total = 0.0
    for value in values:
        total += chain_hook.hook(value)
    return total


@njit(cache=True)
def leaf(value):
    return value * 2.0 + 1.0


@njit(cache=True)
def middle(values):
    total = 0.0
    for value in values:
        total += leaf(value)
    return total


@njit(cache=True)
def top(values, times):
    if times < 0:
        raise ValueError("negative times")
    total = 0.0
    for _ in range(times):
        total += middle(values)
    return total
"""

_CHAIN_USER_MODULE = """
from numba import njit

import chain_mod


@njit(cache=True)
def outer(values):
    return chain_mod.top(values, 2) + 0.5
"""

_CHAIN_RUN = """
import re
import sys
import numpy as np
from numba.core import bytecode
import sim.kernels
from sim.kernels import _numba_fixes as F
F.LINK_OWNERS = (*F.LINK_OWNERS, "_ZN9chain_mod", "_ZN10chain_base")
F.KEPT_BELOW_BYTES = 0  # these kernels are all small: leave every one out
import chain_mod
import chain_user
first = next(bytecode.FunctionIdentity._unique_ids)
if "leaf" in sys.argv[1:]:
    chain_mod.leaf(1.0)
values = np.array([1.0, 2.5, -3.0])
if "outer" in sys.argv[1:]:  # a function of another module (not linked at load) calls first
    print("outer", chain_user.outer(values))
print("value", chain_mod.top(values, 3))
print("hooked", chain_mod.via_hook(values))
try:
    chain_mod.top(values, -1)
except ValueError as error:
    print("error", error)
library = chain_mod.top.overloads[chain_mod.top.signatures[0]].library
print("loaded", sum(chain_mod.top.stats.cache_hits.values()))
print("compiled_callees", len(chain_mod.leaf.overloads) + len(chain_mod.middle.overloads))
def kernel_name(key):  # _ZN9chain_mod4leafB...: the name after the module's
    tail = key.split("chain_mod")[1]
    length = re.match(r"[0-9]+", tail).group()
    return tail[len(length) : len(length) + int(length)]
print("callees", sorted(kernel_name(callee._mjsim_key) for callee in F._closure(library)))
if not library._disable_inspection:  # compiled here, not loaded
    functions = library._final_module.functions
    print("leaf_in_top", any("4leaf" in f.name and not f.is_declaration for f in functions))
if "leaf" in sys.argv[1:]:
    leaf_library = chain_mod.leaf.overloads[chain_mod.leaf.signatures[0]].library
    shared = F._libraries_by_key[leaf_library._mjsim_key] is leaf_library
    print("leaf_shared", shared)
print("first_uid", first)
"""


def _run_chain(tmp_path, *arguments, code=_CHAIN_RUN, link="1"):
    """``code`` in a new process with kernels linked at load (``MJSIM_LINK_AT_LOAD=1``, as by
    default) and its caches in ``tmp_path``: what it prints, as ``name value`` lines."""
    import subprocess
    import sys

    root = Path(_numba_fixes.__file__).parents[2]
    environment = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(root), str(tmp_path)]),
        "NUMBA_CACHE_DIR": str(tmp_path / "cache"),
        "MJSIM_CACHE_DIR": str(tmp_path / "cache"),
        "MJSIM_LINK_AT_LOAD": link,
    }
    result = subprocess.run(
        [sys.executable, "-c", code, *arguments], capture_output=True, text=True,
        env=environment, timeout=300,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    return dict(line.split(" ", 1) for line in result.stdout.strip().splitlines())


def _links_at_load_here() -> bool:
    """Whether this numba links callees the way the fix was written for (and the fixes are on)."""
    from numba.core import codegen

    if os.environ.get("MJSIM_NUMBA_FIXES") == "0":
        return False
    original = _numba_fixes.original_finalize or codegen.CPUCodeLibrary.finalize
    return _numba_fixes._FINALIZE_LINK_LOOP in inspect.getsource(original)


def test_linking_at_load_is_on_by_default_and_applied_where_numba_links_callees(tmp_path):
    from numba.core import codegen

    if not _links_at_load_here():
        pytest.skip("this numba links otherwise, or the fixes are off: nothing to change")
    asked = os.environ.get("MJSIM_LINK_AT_LOAD", "1") != "0"
    assert _numba_fixes.callees_linked_at_load() == asked
    assert (codegen.CPUCodeLibrary.finalize is _numba_fixes._finalize) == asked
    code = "from sim.kernels import _numba_fixes as F\nprint('applied', F.callees_linked_at_load())"
    assert _run_chain(tmp_path, code=code)["applied"] == "True"
    assert _run_chain(tmp_path, code=code, link="0")["applied"] == "False"


def test_a_cached_caller_brings_the_kernels_it_calls_and_runs_without_them(tmp_path):
    """Compiled in one process: the caller's library has no copy of the kernels it calls. In a
    new process, the caller alone loaded from the disk cache (its callees never compiled nor
    loaded by their own dispatchers) gives the same answer and raises the same error, also
    where the call is in a function copied into the caller (``hook``) or the caller is not one
    of the kernels linked at load (``outer``); with a callee loaded first by its own
    dispatcher, that library is the one the caller uses."""
    if not _links_at_load_here():
        pytest.skip("the fix does not apply to this numba")
    (tmp_path / "chain_mod.py").write_text(_CHAIN_MODULE)
    (tmp_path / "chain_user.py").write_text(_CHAIN_USER_MODULE)
    (tmp_path / "chain_hook.py").write_text(_CHAIN_HOOK_MODULE)
    (tmp_path / "chain_base.py").write_text(_CHAIN_BASE_MODULE)
    hooked = sum((value - 4.0) * 3.0 for value in (1.0, 2.5, -3.0))
    expected = 3 * sum(value * 2.0 + 1.0 for value in (1.0, 2.5, -3.0))
    compiled = _run_chain(tmp_path)
    assert float(compiled["value"]) == expected
    assert compiled["error"] == "negative times"
    assert compiled["loaded"] == "0" and compiled["compiled_callees"] == "2"
    assert compiled["leaf_in_top"] == "False"  # a declaration only: resolved when loaded
    assert compiled["callees"] == "['leaf', 'middle']"
    alone = _run_chain(tmp_path)
    assert alone["loaded"] == "1" and alone["compiled_callees"] == "0"
    assert float(alone["value"]) == expected and alone["error"] == "negative times"
    assert alone["callees"] == "['leaf', 'middle']"
    # a kernel called by code copied in (a hook not linked at load) comes with the caller too
    assert float(compiled["hooked"]) == float(alone["hooked"]) == hooked
    # a cached caller outside the owners (a test variant's entry) brings them too
    _run_chain(tmp_path, "outer")
    outer_alone = _run_chain(tmp_path, "outer")
    assert float(outer_alone["outer"]) == 2 * expected / 3 + 0.5
    with_leaf = _run_chain(tmp_path, "leaf")
    assert float(with_leaf["value"]) == expected and with_leaf["leaf_shared"] == "True"
    # each process numbers its functions from its own random start (names unique across them)
    starts = {compiled["first_uid"], alone["first_uid"], with_leaf["first_uid"]}
    assert len(starts) == 3 and all(int(start) > 1_000_000 for start in starts)


_REFUSE_RUN = """
import pytest
from numba import njit
import sim.kernels
from sim.kernels import _numba_fixes as F
F.LINK_OWNERS = (*F.LINK_OWNERS, "_ZN8__main__")
F.KEPT_BELOW_BYTES = 0  # a small kernel: left out all the same


@njit
def doubled(value):
    return 2 * value


@njit
def doubled_plus_one(value):
    return doubled(value) + 1


assert doubled_plus_one(4) == 9
library = doubled.overloads[doubled.signatures[0]].library
caller = doubled_plus_one.overloads[doubled_plus_one.signatures[0]].library
print("unlinked", caller._mjsim_unlinked == [library])
print("copied", any(
    "7doubled" in function.name and not function.is_declaration
    for function in caller._final_module.functions
))
key = library._mjsim_key
print("registered", F._libraries_by_key[key] is library)
same = (key, library.name, b"", (), (), library._mjsim_crc)
print("reused", F._load_callee(library.codegen, same) is library)
other = (key, library.name, b"", (), (), library._mjsim_crc ^ 1)
with pytest.raises(RuntimeError, match="two different compiled kernels"):
    F._load_callee(library.codegen, other)
print("refused", True)
"""


def test_a_called_kernel_of_another_code_under_a_known_name_is_refused(tmp_path):
    """The caller's library declares the kernel it calls and has no copy of it; a cached entry
    bringing the same name with other machine code is refused, not loaded beside it."""
    if not _links_at_load_here():
        pytest.skip("the fix does not apply to this numba")
    printed = _run_chain(tmp_path, code=_REFUSE_RUN)
    assert printed == {
        "unlinked": "True", "copied": "False", "registered": "True", "reused": "True",
        "refused": "True",
    }  # fmt: skip


_KEPT_RUN = """
import sys
from numba import njit
import sim.kernels
from sim.kernels import _numba_fixes as F
F.LINK_OWNERS = (*F.LINK_OWNERS, "_ZN8__main__")
F.KEPT_LINKED = (*F.KEPT_LINKED, F._mangled_prefix("__main__.kept"))
F.KEPT_BELOW_BYTES = int(sys.argv[1])


@njit
def kept(value):
    return value + 1


@njit
def left(value):
    return value * 3


@njit
def both(value):
    return kept(value) + left(value)


assert both(2) == 9
caller = both.overloads[both.signatures[0]].library
left_size = len(left.overloads[left.signatures[0]].library._mjsim_object)
# a declaration is a call left for the JIT to resolve; a copied kernel is defined or inlined
declared = [f.name for f in caller._final_module.functions if f.is_declaration]
print("kept_declared", any("4kept" in name for name in declared))
print("left_declared", any("4left" in name for name in declared))
print("unlinked", [callee.name for callee in caller._mjsim_unlinked])
print("left_small", left_size < 12_288)
"""


def test_the_kept_kernels_and_the_small_ones_are_still_copied_into_their_callers(tmp_path):
    """``KEPT_KERNELS`` (the discard search) and kernels under ``KEPT_BELOW_BYTES`` of machine
    code: copied into the caller as numba does; the others left out."""
    if not _links_at_load_here():
        pytest.skip("the fix does not apply to this numba")
    printed = _run_chain(tmp_path / "none", "0", code=_KEPT_RUN)
    assert printed == {
        "kept_declared": "False", "left_declared": "True", "unlinked": "['left']",
        "left_small": "True",
    }  # fmt: skip
    printed = _run_chain(tmp_path / "default", str(_numba_fixes.KEPT_BELOW_BYTES), code=_KEPT_RUN)
    assert printed["kept_declared"] == printed["left_declared"] == "False"
    assert printed["unlinked"] == "[]"


def test_the_kept_kernels_are_named_as_numba_names_them():
    """Each of ``KEPT_KERNELS`` is a kernel whose compiled name starts with its prefix (a kernel
    renamed would otherwise silently be left out of its callers)."""
    import importlib

    from numba.core import itanium_mangler, types

    for name, prefix in zip(_numba_fixes.KEPT_KERNELS, _numba_fixes.KEPT_LINKED, strict=True):
        module, _, function = name.rpartition(".")
        kernel = getattr(importlib.import_module(module), function)
        assert kernel.py_func.__qualname__ == function and hasattr(kernel, "overloads")
        assert itanium_mangler.mangle(name, [types.int64]).startswith(prefix)
        if kernel.overloads:  # compiled or loaded in this process: its symbol's name
            (overload,) = kernel.overloads.values()
            assert overload.fndesc.mangled_name.startswith(prefix)


_LOADED_RUN = """
import sys
sys.path.insert(0, sys.argv[1])  # tests/: warm_caches
from numba.core import event
compiled = []
class Compiles(event.Listener):
    def on_start(self, event):
        compiled.append(getattr(event.data.get("dispatcher"), "__name__", "?"))
    def on_end(self, event):
        pass
event.register("numba:compile", Compiles())
import warm_caches
from sim.variants import VARIANT_NAMES
for name in VARIANT_NAMES:
    warm_caches.warm(name)
from llvmlite import binding
from numba.core.registry import cpu_target
from sim.kernels import _numba_fixes as F
known = set(cpu_target.target_context.codegen()._engine._defined_symbols)
for library in F._libraries_by_key.values():
    known.update(library._mjsim_names)
objects = {key: library._mjsim_object for key, library in F._libraries_by_key.items()}
print("compiled", compiled)
print("registries", "numba.np.arraymath" in sys.modules)
print("objects", len(objects))
outside = {name for code in objects.values() for name in undefined_symbols(code)} - known
print("outside", sorted(outside))
print("unknown", sorted(name for name in outside if not binding.address_of_symbol(name)))
"""


def _undefined_symbols(object_code: bytes) -> set[str]:
    """The names an ELF-64 object (little-endian, as numba emits on x86-64 and aarch64 Linux)
    refers to without defining: its symbol table's entries in no section (``SHN_UNDEF``)."""
    header = struct.unpack_from("<Q4xHHHHH", object_code, 0x28)
    section_table, entry_size, count = header[0], header[4], header[5]
    sections = [
        struct.unpack_from("<4xI16xQQI4x8xQ", object_code, section_table + index * entry_size)
        for index in range(count)
    ]  # (type, offset, size, link, entry size) of each section
    names = set()
    for kind, offset, size, link, symbol_size in sections:
        if kind != 2:  # SHT_SYMTAB
            continue
        strings = sections[link][1]
        for start in range(offset + symbol_size, offset + size, symbol_size):  # entry 0: null
            name_at, _, _, section = struct.unpack_from("<IBBH", object_code, start)
            if section == 0 and name_at:
                end = object_code.index(b"\0", strings + name_at)
                names.add(object_code[strings + name_at : end].decode())
    return names


@pytest.mark.engine
def test_the_engines_load_from_the_cache_without_numbas_registries():
    """``load_without_refresh``: every variant's engine, replay and rule checks loaded from the
    warm cache in a new process compile nothing and load no registry (numba's refresh imports
    ``numba.np.arraymath``), and every symbol their machine code refers to is defined by the
    loaded kernels, by numba's JIT or by the process (``ready_to_run_loaded_code``): a symbol
    missing at run time would stop the process. (What the loaded engines play is checked by
    the rest of the suite, whose workers load them from the cache this way.)"""
    import subprocess

    from numba.core import caching

    if not _numba_fixes.loads_without_refresh():
        pytest.skip("this numba loads otherwise, or the fixes are off: nothing to change")
    # mjsim's kernel caches only: numba's own, which other code may use, load as numba does
    assert caching.Cache.load_overload is not _numba_fixes.load_overload_without_refresh
    code = (
        f"import struct\n{inspect.getsource(_undefined_symbols)}\n".replace(
            "def _undefined_symbols", "def undefined_symbols"
        )
        + _LOADED_RUN
    )
    tests = str(Path(__file__).resolve().parents[1])
    lines = {}
    for _ in range(2):  # the first warms the cache if it was cold; the second only loads
        result = subprocess.run(
            [sys.executable, "-c", code, tests],
            capture_output=True, text=True, timeout=1800,
        )  # fmt: skip
        assert result.returncode == 0, result.stderr[-3000:]
        lines = dict(line.split(" ", 1) for line in result.stdout.splitlines())
        if lines["compiled"] == "[]":
            break
    assert lines["compiled"] == "[]"
    assert lines["registries"] == "False"
    assert int(lines["objects"]) > 40  # the engines' kernels, each with its machine code
    # the runtime's functions, numba's C helpers, Python's C API: resolved by the process
    for name in ("NRT_MemInfo_call_dtor", "numba_gil_ensure"):
        assert f"'{name}'" in lines["outside"]
    assert lines["unknown"] == "[]"
