"""The generic layers know no variant, and the package's imports run one way.

"One game, one folder": records, frames, analyses, figures, sweeps, the runner and configs take
everything variant-specific from the variant's entry (``sim.variants.Variant``), so adding a
variant touches no generic module. The first tests read the generic modules' whole text (code,
strings, comments) for a variant's name or a word only one variant uses; extend
``GENERIC_MODULES`` as more layers become generic.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

GENERIC_MODULES = [
    "sim/variants/columns.py",
    "sim/variants/replay.py",
    "sim/running/replay.py",
    "sim/kernels/status.py",
    "sim/running/records.py",
    "sim/analysis/*.py",
    "sim/plots.py",
    "sim/studies/sweep.py",
    "sim/play.py",
    "sim/running/runner.py",
    "sim/running/config.py",
    "sim/cli/run.py",
    "sim/cli/sweep.py",
    "sim/report/*.py",
    "sim/kernels/engine.py",
    "sim/kernels/moves.py",
    "sim/kernels/variant_type.py",
    "sim/kernels/agents.py",
    "sim/variants/session.py",
]
"""Modules (globs, relative to the repository) that must name no variant."""

NOT_GENERIC = ["sim/analysis/exact.py", "sim/analysis/dealt.py"]
"""Modules the globs above match that work per variant by design: the dealt-hand probabilities
count each variant's own deal events."""

VARIANT_WORDS = re.compile(r"anhua|安化|weng'?an|瓮安|anqing|安庆", re.IGNORECASE)
"""The variants' names, in pinyin and in Chinese."""
ONE_VARIANT_WORDS = re.compile(r"(?<![a-z])(kings?|birds?)(?![a-z])|抓鸟", re.IGNORECASE)
"""Words only one variant's rules use (Anhua's kings and birds), as words or parts of an
identifier (``king_mode``, ``points_birds``), not inside other words (``checking``)."""


def _generic_files() -> list[Path]:
    files = []
    for pattern in GENERIC_MODULES:
        found = sorted(ROOT.glob(pattern))
        assert found, f"{pattern} matches no file"
        files += found
    excluded = [ROOT / path for path in NOT_GENERIC]
    assert all(path in files for path in excluded), "NOT_GENERIC names a file no glob matches"
    return [path for path in files if path not in excluded]


@pytest.mark.parametrize("path", _generic_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_a_generic_module_names_no_variant(path):
    text = path.read_text(encoding="utf-8")
    for pattern in (VARIANT_WORDS, ONE_VARIANT_WORDS):
        found = [
            f"line {text.count(chr(10), 0, match.start()) + 1}: {match.group()}"
            for match in pattern.finditer(text)
        ]
        assert not found, f"{path.relative_to(ROOT)} names a variant: {', '.join(found)}"


def test_the_word_patterns_catch_what_they_should():
    assert VARIANT_WORDS.search("from .variants.anhua import x")
    assert VARIANT_WORDS.search("Weng'an chickens") and VARIANT_WORDS.search("安庆")
    for text in ("king_mode", "seven_kings", "points_birds", "Birds", "抓鸟"):
        assert ONE_VARIANT_WORDS.search(text), text
    for text in ("checking", "making", "thinking"):
        assert not ONE_VARIANT_WORDS.search(text), text


# --------------------------------------------------------------------------- imports


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(path): path for path in sorted((ROOT / "sim").rglob("*.py"))}


def _imported(module: str, path: Path, node: ast.Import | ast.ImportFrom) -> list[str]:
    """The sim modules an import statement imports (a name imported from a package is the
    submodule when there is one)."""
    if isinstance(node, ast.Import):
        targets = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:
            package = module if path.name == "__init__.py" else module.rpartition(".")[0]
            for _ in range(node.level - 1):
                package = package.rpartition(".")[0]
            base = f"{package}.{base}" if node.module else package
        targets = [
            f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base
            for alias in node.names
        ]
    found = []
    for target in targets:
        while target and target not in MODULES:
            target = target.rpartition(".")[0]
        if target and target != module:
            found.append(target)
    return found


def import_graph(module_level_only: bool) -> dict[str, set[str]]:
    """sim module -> the sim modules it imports (not those imported for type checking only);
    with ``module_level_only``, leave out imports inside functions."""
    graph = {}
    for module, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skipped = set()
        for node in ast.walk(tree):
            typing_only = isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
            in_function = isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            if typing_only or (module_level_only and in_function):
                skipped |= {id(inner) for inner in ast.walk(node) if inner is not node}
        graph[module] = {
            target
            for node in ast.walk(tree)
            if isinstance(node, ast.Import | ast.ImportFrom) and id(node) not in skipped
            for target in _imported(module, path, node)
        }
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles: strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for target in graph[module]:
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            group = []
            while not group or group[-1] != module:
                group.append(stack.pop())
            if len(group) > 1:
                found.append(sorted(group))

    for module in graph:
        if module not in index:
            visit(module)
    return found


def test_the_cycle_finder_finds_a_circle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_graph_sees_relative_imports_and_submodules():
    graph = import_graph(module_level_only=False)
    assert "sim.variants" in graph["sim.running.config"]
    assert "sim.running.records" in graph["sim.variants"]  # imported inside a method
    assert "sim.analysis.runs" in graph["sim.analysis"]


def test_no_import_circle_at_module_level():
    """No circle among the imports that run when a module is imported: any import order works."""
    assert cycles(import_graph(module_level_only=True)) == []


def test_no_import_circle_counting_imports_inside_functions():
    """Layers import downward only, also where a function imports late: configs know the
    variants, the variants know the generic pieces below them, nothing below imports back."""
    assert cycles(import_graph(module_level_only=False)) == []
