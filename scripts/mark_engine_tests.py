"""Mark test functions ``@pytest.mark.engine``: each argument a pytest id (``FILE::NAME`` or
``FILE::Class::NAME``, parameters ignored), or ``-`` to read ids from standard input.

    python scripts/mark_engine_tests.py tests/test_x.py::test_y ...
    grep '^ERROR\\|^FAILED' log | sed 's/^[A-Z]* //; s/ - .*//' \\
        | python scripts/mark_engine_tests.py -

The quick run (``pytest -m "not slow"``) fails a test that plays a variant's engine unless it is
marked (``tests/conftest.py``, ``_EngineGuard``): this adds the mark above the function's
decorators, once, and ``import pytest`` where the module lacks it."""

from __future__ import annotations

import re
import sys
from collections import defaultdict
from pathlib import Path

MARK = "pytest.mark.engine"


def _mark(lines: list[str], name: str) -> bool:
    pattern = re.compile(rf"^(\s*)(async\s+)?def {re.escape(name)}\(")
    for index, line in enumerate(lines):
        found = pattern.match(line)
        if not found:
            continue
        indent = found.group(1)
        top = index
        while top > 0 and lines[top - 1].strip() and not lines[top - 1].startswith(indent + "def "):
            if lines[top - 1].startswith(indent + "@") or lines[top - 1].startswith(indent + " "):
                top -= 1
                continue
            if lines[top - 1].startswith(indent + ")"):
                top -= 1
                continue
            break
        while top < index and not lines[top].startswith(indent + "@"):
            top += 1
        if any(MARK in lines[i] for i in range(top, index)):
            return False
        lines.insert(top, f"{indent}@{MARK}\n")
        return True
    raise SystemExit(f"no function {name}")


def main(ids: list[str]) -> None:
    by_file = defaultdict(set)
    for test_id in ids:
        parts = test_id.strip().split("[")[0].split("::")
        if len(parts) >= 2:
            by_file[parts[0]].add(parts[-1])
    for file, names in sorted(by_file.items()):
        path = Path(file)
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        marked = [name for name in sorted(names) if _mark(lines, name)]
        if marked and not any(re.match(r"^import pytest$", line.strip()) for line in lines):
            first = next(
                i
                for i, line in enumerate(lines)
                if line.startswith(("import ", "from ")) and "__future__" not in line
            )
            lines.insert(first, "import pytest\n")
        path.write_text("".join(lines), encoding="utf-8")
        print(f"{file}: {len(marked)} marked")


if __name__ == "__main__":
    main(sys.stdin.read().split() if sys.argv[1:] == ["-"] else sys.argv[1:])
