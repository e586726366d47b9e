"""A Griffe extension (mkdocs.yml loads it into mkdocstrings) that renders mjsim's docstrings.

The docstrings are plain prose with ``double-backtick`` literals, Sphinx roles
(``:func:`sim.play.play```) and doctest examples (``>>>`` lines, which tests/test_docs.py runs).
Markdown would read a doctest as nested block quotes and its output's brackets (``['3p']``) as
links, so each doctest block becomes a fenced ``pycon`` code block; a role keeps only its code
span. The docstrings themselves stay as they are. Special methods without a docstring
(``__post_init__``, ``__str__``) are left out of the pages.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:func|class|meth|mod|data|attr|obj|exc|const):`~?([^`]+)`")


def render(text: str) -> str:
    """``text`` with every doctest block fenced as ``pycon`` and the Sphinx roles dropped."""
    out: list[str] = []
    in_fence = in_example = False
    indent = ""
    for line in text.split("\n"):
        stripped = line.lstrip()
        if in_example:
            if stripped:
                out.append(line)
                continue
            out.append(f"{indent}```")
            in_example = False
        if stripped.startswith("```"):
            in_fence = not in_fence
        elif not in_fence and stripped.startswith(">>>"):
            indent = line[: len(line) - len(stripped)]
            out.extend([f"{indent}```pycon", line])
            in_example = True
            continue
        out.append(line if in_fence else ROLE.sub(r"``\1``", line))
    if in_example:
        out.append(f"{indent}```")
    return "\n".join(out)


class PlainDocstrings(griffe.Extension):
    """Rewrites each loaded object's docstring for Markdown (see the module docstring)."""

    def on_object(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = render(obj.docstring.value)

    def on_class(self, *, cls: griffe.Class, **kwargs: Any) -> None:
        for name, member in list(cls.members.items()):
            special = name.startswith("__") and name.endswith("__") and name != "__init__"
            if special and member.is_function and member.docstring is None:
                cls.del_member(name)
