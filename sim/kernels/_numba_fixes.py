"""Fixes to numba, applied once when ``sim.kernels`` is imported (the inliner's when numba first
compiles in the process: a warm start never does).

**Compile time** (``apply``, made by ``apply_at_first_compile``). numba inlines an
``inline="always"`` function (``inline_kernel``) by copying its IR
(``numba.core.inline_closurecall.InlineWorker.inline_ir``, twice per call site), one block at a
time, each block with a deep copy of its own. Every variable of a block
refers to the function's scope, which holds every variable of the function, so each block's copy
copies all of the function's variables again: the cost grows with blocks times variables, and a
big inlined search (``hand.discards_shanten``, ``hand.useful_draws_by_splits``) takes seconds to
copy (numba issues 8989 and 9204, numba-cuda 688). Weng'an's cold compile spent about a tenth of
its time there. The fix copies the blocks with one shared memo, so the scope and its variables
are copied once, and the blocks of the copy share one scope as the original's do. The result is
the same IR. It is made by rewriting those two lines of numba's own ``inline_ir``.

**Reference counts** (``mark_propagated_errors``): the exit by which a kernel passes on a called
kernel's error counts as a raise for numba's pruning of reference counts, so that a kernel that
calls others can run without counting its array arguments (see that function); and
(``elide_argument_counts``) the counts of a kernel's own array arguments that are used for
nothing else are removed from its IR.

**SSA reconstruction** (``skip_untouched_blocks``): numba's rewrite of a variable assigned more
than once visits only the blocks that name it, the same IR in less time.

**Linking** (``link_callees_at_load``; ``MJSIM_LINK_AT_LOAD=0`` turns it off): a kernel's
library leaves out the large kernels it calls (numba copies them into it and optimises and
emits them again at every level of calls); the JIT resolves the calls to the code already
loaded, and a cached kernel brings its callees' code. A cold compile about 15 % shorter, the
engines as fast (the hot small kernels and the discard search are still copied).

**Loading** (``load_without_refresh``): mjsim's kernels load from their disk caches without
numba's refresh of its typing and lowering registries first (0.2 s of every warm process),
which loaded code never reads; the runtime it calls is readied instead.

Each fix is made only when numba's source has the lines it was written from word for word:
with another numba, nothing is changed and numba compiles as it always does (``applied()``,
``propagation_marked()``, ``counts_elided()``, ``blocks_skipped()``,
``callees_linked_at_load()``, ``loads_without_refresh()`` say which).
``MJSIM_NUMBA_FIXES=0`` leaves numba alone (and compiles into caches of its own: the cache
folders' digest includes it).
"""

from __future__ import annotations

import inspect
import itertools
import os
import re
import secrets
import textwrap
import weakref
import zlib

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


_first_compile_awaited = False
_first_compile_seen = False


def apply_at_first_compile() -> None:
    """``apply`` when numba first compiles in this process, not now: importing numba's inliner
    (with the array, string and list implementations it imports) and rewriting it takes 0.08 s
    of ``import sim.kernels``, which a command that loads no kernel does without (a warm run's
    load imports most of those modules anyway). numba announces a compile, not a load from its
    cache, before its pipeline runs."""
    global _first_compile_awaited
    if _first_compile_awaited:
        return
    from numba.core import event

    class FirstCompile(event.Listener):
        def on_start(self, event) -> None:
            global _first_compile_seen
            if not _first_compile_seen:
                _first_compile_seen = True
                apply()

        def on_end(self, event) -> None:
            pass

    event.register("numba:compile", FirstCompile())
    _first_compile_awaited = True


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


_PROPAGATE_SOURCE = """\
def return_status_propagate(self, builder, status):
    trystatus = self.check_try_status(builder)
    excptr = self._get_excinfo_argument(builder.function)
    builder.store(status.excinfoptr, excptr)
    with builder.if_then(builder.not_(trystatus.in_try)):
        self._return_errcode_raw(builder, status.code)
"""

_propagation_marked = False
original_return_status_propagate = None
"""numba's own ``CPUCallConv.return_status_propagate`` once replaced (for tests)."""


def propagation_marked() -> bool:
    """Whether an error passed on from a called kernel counts as a raise for numba's pruning of
    reference counts (``mark_propagated_errors``)."""
    return _propagation_marked


def _return_status_propagate(self, builder, status):
    """numba's ``CPUCallConv.return_status_propagate`` with the exit that leaves the function
    marked as numba marks its own raises (``_set_static_user_exc``)."""
    from llvmlite import ir

    trystatus = self.check_try_status(builder)
    excptr = self._get_excinfo_argument(builder.function)
    builder.store(status.excinfoptr, excptr)
    with builder.if_then(builder.not_(trystatus.in_try)):
        # the same store again, marked, in the block that returns the error: the pruning
        # pass knows a raise by such a store in the exit block
        marked = builder.store(status.excinfoptr, excptr)
        marked.set_metadata(
            "numba_exception_output", builder.module.add_metadata([ir.IntType(1)(1)])
        )
        self._return_errcode_raw(builder, status.code)


def mark_propagated_errors() -> None:
    """Let numba's reference-count pruning treat the exit that passes a called kernel's error
    on as the raise it is.

    numba's ``fanout_raise`` pruning removes an increment and its decrements when every path
    from it reaches a decrement or a raise: a raise may miss its decrement, as numba leaks a
    raising function's references by design. It knows a raise by a store to ``excinfo``
    marked ``numba_exception_output``. A kernel's own ``raise`` is marked so, but the exit that
    returns a called kernel's error is not, though it leaks the same way: so in a kernel that
    calls another, no count of an array argument could be pruned (each call may fail), and
    every call of it counted each array argument, an atomic operation each way (docs/engine.md,
    "Speed notes"). This marks that exit too, on the path that leaves the function (inside a
    ``try`` the error goes to the handler instead, unmarked). Applied only when numba's method
    has the source this replacement was written from; ``MJSIM_NUMBA_FIXES=0`` leaves it."""
    global _propagation_marked, original_return_status_propagate
    if _propagation_marked or os.environ.get("MJSIM_NUMBA_FIXES", "1") == "0":
        return
    from numba.core import callconv

    conv = callconv.CPUCallConv
    try:
        source = textwrap.dedent(inspect.getsource(conv.return_status_propagate))
    except (OSError, TypeError):
        return
    if source != _PROPAGATE_SOURCE:
        return
    original_return_status_propagate = conv.return_status_propagate
    conv.return_status_propagate = _return_status_propagate
    _propagation_marked = True


# ---------------------------------------------------------------------------------------------
# A kernel's counts of its own array arguments (elide_argument_counts)

ELIDE_OWNERS = ("_ZN3sim",)
"""Mangled-name prefixes of the functions whose argument counts are elided: mjsim's kernels
(``sim.*``) only, never other numba code in the process."""

_NRT_CALL = re.compile(
    r"^\s*(?:tail |musttail |notail )?call void @NRT_(?:incref|decref)"
    r"\(ptr(?: [\w()]+)* %([\w.$-]+)\)(?:, !.*)?$"
)
_NUMBA_CALL = re.compile(r"(?:=|^)\s*(?:tail |musttail |notail )?call [^@]*@_ZN")
_ARGUMENT = re.compile(r"%(arg\.[\w.$-]+)")
_VALUE = re.compile(r"%([\w.$-]+)")
_PHI = re.compile(r"^\s*%([\w.$-]+) = (?:phi ptr (.*)|select i1 [^,]+, ptr ([^,]+), ptr ([^,]+))$")
_SYMBOL = re.compile(r'@"?([^"(\s]+)')

_counts_elided = False
original_optimize_final_module = None
"""numba's own ``CPUCodeLibrary._optimize_final_module`` once wrapped (for tests)."""


def counts_elided() -> bool:
    """Whether mjsim's kernels are compiled without counts of their own array arguments
    (``elide_argument_counts``)."""
    return _counts_elided


def _phis(body: list[str]) -> dict[str, list[str]]:
    """Value name -> incoming values, for the pointer phis and selects of a function body."""
    phis = {}
    for line in body:
        if " = phi ptr " not in line and " = select i1 " not in line:
            continue
        match = _PHI.match(line)
        if not match:
            continue
        if match.group(2) is not None:
            incoming = [value.strip() for value in re.findall(r"\[ ([^,]+), ", match.group(2))]
        else:
            incoming = [match.group(3).strip(), match.group(4).strip()]
        phis[match.group(1)] = incoming
    return phis


def _aliases(argument: str, phis: dict[str, list[str]]) -> set[str]:
    """The argument and the phis that can only be it or null: the greatest set of phis whose
    every incoming value is the argument, null or a phi of the set (loops feed phis to each
    other). numba keeps a variable's slot null until the variable is bound."""
    members = {argument}
    todo = [argument]
    while todo:  # every phi the argument reaches through phis
        value = "%" + todo.pop()
        for name, incoming in phis.items():
            if name not in members and value in incoming:
                members.add(name)
                todo.append(name)
    changed = True
    while changed:
        changed = False
        for name in list(members - {argument}):
            if any(
                value != "null" and (not value.startswith("%") or value[1:] not in members)
                for value in phis[name]
            ):
                members.discard(name)
                changed = True
    return members


def _counts_to_drop(header: str, body: list[str]) -> set[int]:
    """The lines of one function's body that count references of its array arguments, where
    that is all those values are used for besides being passed to numba functions."""
    uses: dict[str, list[int]] = {}
    for number, line in enumerate(body):
        for value in set(_VALUE.findall(line)):
            uses.setdefault(value, []).append(number)
    phis = _phis(body)
    drop: set[int] = set()
    for argument in set(_ARGUMENT.findall(header)):
        if argument not in uses:
            continue
        aliases = _aliases(argument, phis)
        counts = []
        for value in aliases:
            for number in uses.get(value, ()):
                line = body[number]
                call = _NRT_CALL.match(line)
                if call and call.group(1) == value:
                    counts.append(number)
                    continue
                phi = _PHI.match(line)
                if phi and phi.group(1) in aliases:
                    continue
                if _NUMBA_CALL.search(line) and "@NRT_" not in line:
                    continue  # passed on, borrowed: the callee counts for itself
                counts = None  # stored, returned, compared...: leave its counts alone
                break
            if counts is None:
                break
        if counts:
            drop.update(counts)
    return drop


def elide_counts_in_text(text: str) -> tuple[str, int]:
    """``text`` (a module's LLVM IR) without the argument counts ``elide_argument_counts``
    removes, and how many calls it removed."""
    lines = text.split("\n")
    out: list[str] = []
    removed = 0
    index = 0
    while index < len(lines):
        line = lines[index]
        if not line.startswith("define ") or "%excinfo" not in line:
            out.append(line)
            index += 1
            continue
        end = lines.index("}", index)
        body = lines[index + 1 : end]
        symbol = _SYMBOL.search(line)
        # a linkonce_odr function is a copy of another library's, edited there already
        own = symbol and symbol.group(1).startswith(ELIDE_OWNERS)
        if own and not line.startswith("define linkonce_odr"):
            drop = _counts_to_drop(line, body)
            if drop:
                removed += len(drop)
                body = [kept for number, kept in enumerate(body) if number not in drop]
        out.append(line)
        out.extend(body)
        out.append("}")
        index = end + 1
    return "\n".join(out), removed


def _optimize_final_module(self):
    """numba's final optimisation of a library, then the argument counts elided."""
    original_optimize_final_module(self)
    text = str(self._final_module)
    if "@NRT_incref" not in text and "@NRT_decref" not in text:
        return
    new_text, removed = elide_counts_in_text(text)
    if removed:
        from llvmlite import binding

        name = self._final_module.name
        self._final_module = binding.parse_assembly(new_text)
        self._final_module.name = name


def elide_argument_counts() -> None:
    """Compile mjsim's kernels without counting references of their own array arguments.

    numba passes an array to a function borrowed: the caller holds a reference for the whole
    call. The callee counts one more for each variable that holds the array (an atomic
    increment when bound, a decrement when it dies) and leaves the count as it found it, unless
    it returns or stores the array. Those counts can never free the array during the call; they
    cost an atomic operation each (``NRT_incref`` / ``NRT_decref``): a fifth of a Weng'an
    hand's time (docs/engine.md, "Speed notes"). numba's own pruning removes them only in
    simple shapes (no call that may fail, no variable dying in one branch only).

    After numba's optimisation of a library, this removes, in each of mjsim's functions
    (``ELIDE_OWNERS``), every count of an array argument whose value is used for nothing else
    than counts and passing it to numba functions (which count for themselves) -- nor are the
    phis of it and null (numba's unbound variables) used otherwise. An array stored, returned,
    put in a tuple or compared keeps all its counts. The IR is edited as text and parsed again,
    as numba's own ``remove_redundant_nrt_refct`` does (about a quarter of a second for the
    largest engine module). Applied only where numba's method runs the full optimisation as the
    last step of ``_optimize_final_module``, as the numba this was written for does;
    ``MJSIM_NUMBA_FIXES=0`` leaves numba alone."""
    global _counts_elided, original_optimize_final_module
    if _counts_elided or os.environ.get("MJSIM_NUMBA_FIXES", "1") == "0":
        return
    from numba.core import codegen

    library = codegen.CPUCodeLibrary
    try:
        source = inspect.getsource(library._optimize_final_module)
    except (OSError, TypeError):
        return
    if "mpm_full.run(self._final_module, mpb_full)" not in source:
        return  # another numba: the final module may be made otherwise
    original_optimize_final_module = library._optimize_final_module
    library._optimize_final_module = _optimize_final_module
    _counts_elided = True


# ---------------------------------------------------------------------------------------------
# numba's SSA reconstruction, each variable over the blocks it appears in (skip_untouched_blocks)

_RUN_SSA_SOURCE = '''\
def _run_ssa(blocks):
    """Run SSA reconstruction on IR blocks of a function.
    """
    if not blocks:
        # Empty blocks?
        return {}
    # Run CFG on the blocks
    cfg = compute_cfg_from_blocks(blocks)
    df_plus = _iterated_domfronts(cfg)
    # Find SSA violators
    violators = _find_defs_violators(blocks, cfg)
    # Make cache for .list_vars()
    cache_list_vars = _CacheListVars()

    # Process one SSA-violating variable at a time
    for varname in violators:
        _logger.debug(
            "Fix SSA violator on var %s", varname,
        )
        # Fix up the LHS
        # Put fresh variables for all assignments to the variable
        blocks, defmap = _fresh_vars(blocks, varname)
        _logger.debug("Replaced assignments: %s", _lazy_pformat(defmap))
        # Fix up the RHS
        # Re-associate the variable uses with the reaching definition
        blocks = _fix_ssa_vars(blocks, varname, defmap, cfg, df_plus,
                               cache_list_vars)

    # Post-condition checks.
    # CFG invariant
    cfg_post = compute_cfg_from_blocks(blocks)
    if cfg_post != cfg:
        raise errors.CompilerError("CFG mutated in SSA pass")
    return blocks
'''
_RUN_BLOCK_REWRITE_SOURCE = """\
def _run_block_rewrite(blocks, states, handler):
    newblocks = {}
    for label, blk in blocks.items():
        _logger.debug("==== SSA block rewrite pass on %s", label)
        newblk = ir.Block(scope=blk.scope, loc=blk.loc)

        newbody = []
        states['label'] = label
        states['block'] = blk
        for stmt in _run_ssa_block_pass(states, blk, handler):
            assert stmt is not None
            newbody.append(stmt)
        newblk.body = newbody
        newblocks[label] = newblk
    return newblocks
"""

_blocks_skipped = False
original_run_ssa = None
original_run_block_rewrite = None
"""numba's own ``ssa._run_ssa`` and ``ssa._run_block_rewrite`` once replaced (for tests)."""
_touched_labels = None
"""While ``_run_ssa`` fixes a variable: the labels of the blocks it appears in (None: all)."""


def blocks_skipped() -> bool:
    """Whether numba's SSA reconstruction visits only the blocks a variable appears in
    (``skip_untouched_blocks``)."""
    return _blocks_skipped


def _labels_by_variable(blocks, cache_list_vars) -> dict[str, set]:
    """Variable name -> the labels of the blocks with a statement that names it."""
    labels: dict[str, set] = {}
    for label, block in blocks.items():
        for statement in block.body:
            for variable in cache_list_vars.get(statement):
                labels.setdefault(variable.name, set()).add(label)
    return labels


def _run_ssa(blocks):
    """numba's ``ssa._run_ssa`` (the same steps, its debug lines left out), each variable's two
    rewrites told the blocks it appears in (``_run_block_rewrite``)."""
    global _touched_labels
    from numba.core import errors, ssa

    if not blocks:
        return {}
    cfg = ssa.compute_cfg_from_blocks(blocks)
    df_plus = ssa._iterated_domfronts(cfg)
    violators = ssa._find_defs_violators(blocks, cfg)
    cache_list_vars = ssa._CacheListVars()
    # fixing one variable renames only it (and adds phis of it), so where the others appear
    # is the same before and after: one scan serves every variable
    touched = _labels_by_variable(blocks, cache_list_vars)
    try:
        for varname in violators:
            _touched_labels = touched.get(varname, set())
            blocks, defmap = ssa._fresh_vars(blocks, varname)
            blocks = ssa._fix_ssa_vars(blocks, varname, defmap, cfg, df_plus, cache_list_vars)
    finally:
        _touched_labels = None
    if ssa.compute_cfg_from_blocks(blocks) != cfg:
        raise errors.CompilerError("CFG mutated in SSA pass")
    return blocks


def _run_block_rewrite(blocks, states, handler):
    """numba's ``ssa._run_block_rewrite`` over the blocks the variable appears in; the others
    copied as they are (a new block, the same statements), which is what numba's handlers give
    back for a block without the variable: they change only statements that name it, and a phi
    is inserted (into any block) only from a statement that does."""
    if _touched_labels is None:
        return original_run_block_rewrite(blocks, states, handler)
    from numba.core import ir

    newblocks = {}
    for label, block in blocks.items():
        if label in _touched_labels:
            newblocks[label] = original_run_block_rewrite({label: block}, states, handler)[label]
        else:
            copied = ir.Block(scope=block.scope, loc=block.loc)
            copied.body = list(block.body)
            newblocks[label] = copied
    return newblocks


def skip_untouched_blocks() -> None:
    """Let numba's SSA reconstruction rewrite, for each variable assigned more than once, only
    the blocks that name it.

    numba rewrites every block of a function twice per such variable (renaming its
    assignments, then its uses), calling two handlers and two debug-log calls per statement:
    statements x variables. A large inlined kernel has thousands of blocks and hundreds of
    such variables (the discard search: 472,000 statement visits, about a tenth of its 11 s
    compile). The blocks that do not name the variable come out of numba's rewrite unchanged,
    so they are copied instead; the IR is the same (``tests/kernels/test_numba_fixes.py``
    compares the LLVM IR of kernels compiled both ways). Applied only when numba's two
    functions have the source this was written from; ``MJSIM_NUMBA_FIXES=0`` leaves them."""
    global _blocks_skipped, original_run_ssa, original_run_block_rewrite
    if _blocks_skipped or os.environ.get("MJSIM_NUMBA_FIXES", "1") == "0":
        return
    from numba.core import ssa

    try:
        sources = inspect.getsource(ssa._run_ssa), inspect.getsource(ssa._run_block_rewrite)
    except (OSError, TypeError):
        return
    if sources != (_RUN_SSA_SOURCE, _RUN_BLOCK_REWRITE_SOURCE):
        return
    original_run_ssa = ssa._run_ssa
    original_run_block_rewrite = ssa._run_block_rewrite
    ssa._run_ssa = _run_ssa
    ssa._run_block_rewrite = _run_block_rewrite
    _blocks_skipped = True


# ---------------------------------------------------------------------------------------------
# A called kernel linked when its caller is loaded, not copied into it (link_callees_at_load)

LINK_OWNERS = ("_ZN3sim",)
"""Mangled-name prefixes of the kernels whose libraries are linked at load: mjsim's (``sim.*``)."""


def _mangled_prefix(qualified_name: str) -> str:
    """The start of the mangled symbol names numba gives a function ``module.name``
    (``_ZN3sim7kernels6agents18_efficiency_search...``)."""
    return "_ZN" + "".join(f"{len(part)}{part}" for part in qualified_name.split("."))


KEPT_KERNELS = ("sim.kernels.agents._efficiency_search", "sim.kernels.agents._full_tie_break")
"""Kernels still copied into their callers whatever their size: the efficiency agent's discard
search, most of a hand's time. LLVM inlines it into its one caller (the discard question), which
is worth about 5 % of the engines' speed (benchmarks/RESULTS.md, 2026-12-06, ebcb6c3); the
compile-ahead helper compiles it, off the critical path."""

KEPT_LINKED = tuple(_mangled_prefix(name) for name in KEPT_KERNELS)
"""Mangled-name prefixes of ``KEPT_KERNELS``."""

KEPT_BELOW_BYTES = 12_288
"""A kernel whose own machine code is smaller than this is still copied into its callers: LLVM
inlines such kernels where they are called in a loop (Anqing's engine was 7 % slower with the
kernels under 12 KB left out too, 13-17 % with every kernel but the agents' left out: its
claim checks call ``meld_index``, 10 KB), and copying a small kernel costs its callers little
compile time (a cold Weng'an compile 79.3 s with this rule, 78.3 s with every kernel but the
agents' left out, 93.9 s with none: RESULTS.md, 2026-12-06, 106f56b)."""

_FINALIZE_LINK_LOOP = """\
        # Link libraries for shared code
        seen = set()
        for library in self._linking_libraries:
            if library not in seen:
                # Parent inherits reload_init
                self._reload_init.update(library._reload_init)
                seen.add(library)
                self._final_module.link_in(
                    library._get_module_for_linking(), preserve=True,
                )
"""
_UNSERIALIZE_OBJECT = """\
            object_code, shared_bitcode = data
            self.enable_object_caching()
            self._set_compiled_object(object_code)
            self._shared_module = ll.parse_bitcode(shared_bitcode)
            self._finalize_final_module()
"""

_callees_linked_at_load = False
original_finalize = None
original_serialize_using_object_code = None
original_unserialize = None
"""numba's own ``CPUCodeLibrary`` methods once replaced (for tests)."""
_libraries_by_key: weakref.WeakValueDictionary = weakref.WeakValueDictionary()
"""The kernel libraries of this process (compiled or loaded), by their kernel's mangled name."""


def callees_linked_at_load() -> bool:
    """Whether a kernel's library leaves out the kernels it calls, which are linked when it is
    loaded (``link_callees_at_load``)."""
    return _callees_linked_at_load


def _defined_names(module) -> tuple[str, ...]:
    """The functions and global variables a module defines (numba's ``_load_defined_symbols``)."""
    return tuple(
        value.name
        for values in (module.functions, module.global_variables)
        for value in values
        if not value.is_declaration
    )


def _linked_at_load(library) -> bool:
    """A registered kernel library (``_register``: its machine code kept) not kept copied:
    neither one of ``KEPT_KERNELS`` nor smaller than ``KEPT_BELOW_BYTES``."""
    key = getattr(library, "_mjsim_key", None)
    if key is None or key.startswith(KEPT_LINKED):
        return False
    return len(library._mjsim_object) >= KEPT_BELOW_BYTES


def _register(library, key: str, names: tuple[str, ...], object_code: bytes) -> None:
    """Mark a kernel library with its kernel's name, defined names and machine code (kept here:
    numba drops its own copy of a loaded library's code)."""
    library._mjsim_key = key
    library._mjsim_names = names
    library._mjsim_object = object_code
    library._mjsim_crc = zlib.crc32(object_code)
    _libraries_by_key.setdefault(key, library)


def _finalize(self):
    """numba's ``finalize`` with mjsim's kernel libraries left out of the link: the calls to
    them stay declarations, resolved by the JIT to the code already loaded."""
    from llvmlite import binding

    unique = list(dict.fromkeys(self._linking_libraries))
    unlinked = [library for library in unique if _linked_at_load(library)]
    for library in unlinked:
        self._reload_init.update(library._reload_init)
    everything = self._linking_libraries
    self._linking_libraries = [library for library in unique if library not in unlinked]
    try:
        original_finalize(self)
    finally:
        self._linking_libraries = everything
    # the libraries linked in may call kernels left out of them: their code is now in this
    # one, so those kernels are this library's to bring too
    inherited = [
        callee
        for library in self._linking_libraries
        if library not in unlinked
        for callee in getattr(library, "_mjsim_unlinked", ())
    ]
    self._mjsim_unlinked = list(dict.fromkeys(unlinked + inherited))  # alive while this is
    module = self._final_module
    self._mjsim_needs = {
        function.name
        for function in module.functions
        if function.is_declaration and function.name.startswith(LINK_OWNERS)
    }
    owned = sorted(
        function.name
        for function in module.functions
        if not function.is_declaration
        and function.linkage == binding.Linkage.external
        and function.name.startswith(LINK_OWNERS)
    )
    if owned and self._object_caching_enabled and self._compiled_object is not None:
        _register(self, owned[0], _defined_names(module), self._compiled_object)


def _closure(library) -> list:
    """The kernel libraries ``library`` calls, directly or not, each once, callees first."""
    ordered: dict[str, object] = {}

    def visit(current):
        for callee in getattr(current, "_mjsim_unlinked", ()):
            if callee._mjsim_key not in ordered:
                visit(callee)
                ordered.setdefault(callee._mjsim_key, callee)

    visit(library)
    ordered.pop(getattr(library, "_mjsim_key", None), None)
    return list(ordered.values())


def _environments(library) -> tuple:
    """The numba environments a library's code reads (set again wherever it is loaded)."""
    if hasattr(library, "_mjsim_environments"):
        return library._mjsim_environments
    from numba.core.environment import lookup_environment

    found = []
    for name in library._mjsim_names:
        if name.startswith("_ZN08NumbaEnv"):
            environment = lookup_environment(name)
            if environment is not None and environment.can_cache():
                found.append(environment)
    return tuple(found)


def _serialize_using_object_code(self):
    """numba's cached form of a library (its machine code and bitcode); for a library that
    calls kernels (a kernel's or any other cached function's), with the machine code of every
    kernel it calls, which is not in its own."""
    name, kind, data = original_serialize_using_object_code(self)
    key = getattr(self, "_mjsim_key", None)
    if key is None and not getattr(self, "_mjsim_unlinked", None):
        return name, kind, data  # nothing left out: numba's own form
    closure = _closure(self)
    # every kernel left a declaration, here or in a callee, must come with it: loaded
    # without it, the JIT would stop the process (a symbol not found)
    provided = {name for callee in closure for name in callee._mjsim_names}
    needed = set().union(*(getattr(part, "_mjsim_needs", ()) for part in (self, *closure)))
    missing = sorted(needed - provided - set(_defined_names(self._final_module)))
    if missing:
        raise RuntimeError(f"{name} calls {missing[0]}, which is neither in it nor cached with it")
    callees = tuple(
        (
            callee._mjsim_key,
            callee.name,
            callee._mjsim_object,
            callee._mjsim_names,
            _environments(callee),
            callee._mjsim_crc,
        )
        for callee in closure
    )
    names = self._mjsim_names if key is not None else _defined_names(self._final_module)
    return name, kind, (*data, (key, names), callees)


def _load_callee(codegen, entry):
    """A called kernel's library from a cached caller's list: the one this process has under
    that name, or its machine code loaded now."""
    key, name, object_code, names, environments, crc = entry
    library = _libraries_by_key.get(key)
    if library is not None:
        if library._mjsim_crc != crc:
            raise RuntimeError(
                f"two different compiled kernels are named {key}: clear mjsim's numba cache"
            )
        return library
    library = codegen.create_library(name)
    library.enable_object_caching()
    library._set_compiled_object(object_code)
    library._finalize_final_module()
    codegen._engine._defined_symbols.update(names)
    for environment in environments:
        codegen.set_env(environment.env_name, environment)
    library._mjsim_environments = environments
    _register(library, key, names, object_code)
    return library


def _unserialize(cls, codegen, state):
    """numba's load of a cached library; a kernel's, after the kernels it calls."""
    name, kind, data = state
    if kind != "object" or len(data) == 2:
        return original_unserialize.__func__(cls, codegen, state)
    object_code, _bitcode, (key, names), callees = data
    loaded = [_load_callee(codegen, entry) for entry in callees]
    library = original_unserialize.__func__(cls, codegen, (name, kind, data[:2]))
    library._mjsim_unlinked = loaded
    if key is not None:  # a kernel's library (not another caller of kernels)
        _register(library, key, names, object_code)
    return library


def link_callees_at_load() -> None:
    """Compile each of mjsim's kernels once: a kernel that calls others leaves their code out of
    its own and calls the code already loaded.

    numba links a copy of every called function's optimised code into the caller's library,
    then optimises and emits machine code for the whole again, at every level of calls: the
    engine's entry point emitted the whole engine, the hand loop below it all of it again, the
    settlement chain at each of its six levels (a third of a cold compile, ``RESULTS.md``,
    2026-12-06, 4da8102). Here the calls to a kernel compiled with a cache (its library kept as
    machine code) stay declarations, which numba's JIT resolves to the code loaded in the
    process, as it does for any symbol. What numba loses is LLVM inlining a called kernel into
    its caller and optimising across them (mjsim inlines its hot helpers at numba's level,
    ``inline_kernel``, but LLVM did more).

    A cached library must then bring the code of the kernels it calls: its cache entry holds
    their machine code, names and numba environments, callees first, and loading it loads
    each one the process does not have yet (``_load_callee``). Names must be unique across
    processes for that: numba numbers each compiled function in a process from 1, which two
    processes would share, so the numbering starts at a random point in each.
    With every kernel left out, a cold two-process compile of Weng'an took 76 s instead of
    85-100 s, but the engines played 5.5-17 % fewer hands a second (side by side on the two
    cores, RESULTS.md, 2026-12-06): LLVM no longer inlined the agents' discard search into
    its caller, nor small kernels called in loops (Anqing's ``meld_index``). Those are still
    copied (``KEPT_KERNELS``, ``KEPT_BELOW_BYTES``): the three engines within 1 % of numba's
    own linking side by side, and cold compiles of 65-71 s against 94 s (RESULTS.md, 106f56b).
    ``MJSIM_LINK_AT_LOAD=0`` turns it off (the kernels then cache in folders of their own: the
    cached form differs).
    Applied only when numba's ``finalize`` and ``_unserialize`` have the lines this was written
    from; ``MJSIM_NUMBA_FIXES=0`` leaves numba alone."""
    global _callees_linked_at_load, original_finalize
    global original_serialize_using_object_code, original_unserialize
    if _callees_linked_at_load or os.environ.get("MJSIM_NUMBA_FIXES", "1") == "0":
        return
    if os.environ.get("MJSIM_LINK_AT_LOAD", "1") == "0":
        return
    from numba.core import bytecode, codegen

    library = codegen.CPUCodeLibrary
    try:
        sources = inspect.getsource(library.finalize), inspect.getsource(library._unserialize)
    except (OSError, TypeError):
        return
    if _FINALIZE_LINK_LOOP not in sources[0] or _UNSERIALIZE_OBJECT not in sources[1]:
        return
    # a 48-bit random start: two processes' numbers meet with odds of about n^2 / 2^48
    bytecode.FunctionIdentity._unique_ids = itertools.count(secrets.randbits(48))
    original_finalize = library.finalize
    original_serialize_using_object_code = library.serialize_using_object_code
    original_unserialize = library.__dict__["_unserialize"]
    library.finalize = _finalize
    library.serialize_using_object_code = _serialize_using_object_code
    library._unserialize = classmethod(_unserialize)
    _callees_linked_at_load = True


_LOAD_OVERLOAD = '''\
    def load_overload(self, sig, target_context):
        """
        Load and recreate the cached object for the given signature,
        using the *target_context*.
        """
        # Refresh the context to ensure it is initialized
        target_context.refresh()
        with self._guard_against_spurious_io_errors():
            return self._load_overload(sig, target_context)
        # None returned if the `with` block swallows an exception
'''
_loads_without_refresh = False


def loads_without_refresh() -> bool:
    """Whether mjsim's kernels load from their caches without the context's refresh
    (``load_without_refresh``)."""
    return _loads_without_refresh


def ready_to_run_loaded_code(target_context) -> None:
    """What machine code loaded from numba's cache needs of numba before it runs: the runtime
    (NRT: its functions compiled and their symbols added) and the symbols numba's modules add to
    the JIT's table when imported, beyond those numba's import and the context's creation add
    (its C helpers, the math functions): the hash secret's (``numba.cpython.hashing``).
    ``tests/kernels/test_numba_fixes.py`` checks that the loaded engines refer to no other."""
    import numba.cpython.hashing  # noqa: F401  (adds the hash secret's symbols)
    from numba.core.runtime import rtsys

    rtsys.initialize(target_context)


def load_overload_without_refresh(self, sig, target_context):
    """numba's ``Cache.load_overload`` without the context's refresh: the ``load_overload`` of
    mjsim's kernel caches (``sim.kernels._jit``) once ``load_without_refresh`` is applied."""
    ready_to_run_loaded_code(target_context)
    with self._guard_against_spurious_io_errors():
        return self._load_overload(sig, target_context)
    # None returned if the `with` block swallows an exception


def load_without_refresh() -> None:
    """Load mjsim's kernels from their disk caches without first refreshing numba's context.

    numba's ``Cache.load_overload`` refreshes the target context before each load: the first
    one in a process imports and installs every typing and lowering registry numba has (the
    numpy, list, dict, random... implementations), 0.2 s, a sixth of a warm ``mjsim run``'s
    start-up and of every worker's. Loaded machine code reads none of them: only a compile does,
    and numba's compiler refreshes the context itself before it compiles
    (``CompilerBase.__init__``). What the code needs, the runtime and a few symbols, is made
    ready instead (``ready_to_run_loaded_code``). Only mjsim's caches load so
    (``load_overload_without_refresh``, their ``load_overload``; a test checks every symbol
    their code needs), not numba's own, which other code in the process may use. Applied only
    when numba's ``load_overload`` is word for word the one this was written from;
    ``MJSIM_NUMBA_FIXES=0`` leaves numba alone.
    """
    global _loads_without_refresh
    if _loads_without_refresh or os.environ.get("MJSIM_NUMBA_FIXES", "1") == "0":
        return
    from numba.core import caching

    try:
        source = inspect.getsource(caching.Cache.load_overload)
    except (OSError, TypeError):
        return
    _loads_without_refresh = source == _LOAD_OVERLOAD
