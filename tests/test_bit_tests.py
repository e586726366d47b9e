"""Python (and numba, which compiles its bytecode) reads ``x & 1 == 0`` as ``x & (1 == 0)``:
always 0. A bit test in the package's source is written ``((x >> k) & 1) == 0``. Found in
session 27: the value agent's first-discard lead and the discard search's suit skip never
took effect."""

import re
from pathlib import Path

import pytest

SOURCES = sorted((Path(__file__).resolve().parents[1] / "sim").rglob("*.py"))
# "& <number> ==" (or !=, <, >) not closed by a parenthesis first: a comparison binds tighter
UNBRACKETED_BIT_TEST = re.compile(r"&\s*\w+\s*(==|!=|<=|>=|<|>)")


@pytest.mark.parametrize("path", SOURCES, ids=lambda path: path.name)
def test_bit_tests_are_bracketed(path):
    lines = path.read_text(encoding="utf-8").splitlines()
    found = [
        f"{path.name}:{number}: {line.strip()}"
        for number, line in enumerate(lines, 1)
        if UNBRACKETED_BIT_TEST.search(line.split("#", 1)[0])
    ]
    assert not found, "bit tests to bracket as ((x >> k) & 1) == 0:\n" + "\n".join(found)


def test_the_pattern_finds_the_bug_it_is_for():
    assert UNBRACKETED_BIT_TEST.search("if (lead >> kind) & 1 == 0:")
    assert not UNBRACKETED_BIT_TEST.search("if ((lead >> kind) & 1) == 0:")
