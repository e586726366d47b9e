"""The repository stands on its own: every rule citation resolves to the project's rules
reference (``docs/rules/*.md``), nothing points at a file outside the repository, and the
product describes what the software does, not the history of its making (that is
``CHANGELOG.md``'s).

A rule is cited as ``§<id>`` (``§wengan-chicken-responsibility``) in code, configs, tests and
notebooks, and in the docs also as a link ``rules/<variant>.md#<id>``; an id is a heading anchor
``{#<id>}`` of ``docs/rules/<variant>.md``.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "rules"

TEXT_SUFFIXES = {".py", ".md", ".toml", ".ipynb", ".txt", ".json", ".jsonl", ".yml", ".cfg"}
SKIPPED_DIRS = {".git", ".venv", "site", "build", "dist", "node_modules", "__pycache__"}
SKIPPED_DIRS |= {".pytest_cache", ".ruff_cache", ".hypothesis", "runs"}

CITATION = re.compile(r"§([a-z][a-z0-9-]*[a-z0-9])")
RULES_LINK = re.compile(r"rules/(anhua|wengan|anqing)\.md#([a-z0-9-]+)")
ANCHOR = re.compile(r"\{#([a-z][a-z0-9-]*)\}")

# Built by concatenation so that this file does not match itself.
OUTSIDE = re.compile(
    "|".join(
        (
            r"\.\./" + "shared",
            "shared/" + "rules",
            "rules-" + "spec",
            "seeds" + "/",
            r"\b00[024]_[0-9a-f]{16}\.txt",
            r"\b00[024]:(L[0-9]|#[0-9]|intro)",
            "/work/" + "shared",
        )
    )
)
HISTORY = re.compile(
    r"\b(?:[Ss]essions?|[Ii]ssues?|[Ss]tops?) [0-9]+(?!, hand)\b|\bsince session\b"
    r"|\b[Uu]ntil 20[0-9]{2}-[0-9]{2}|\brevised 20[0-9]{2}-[0-9]{2}"
)
"""A phrase of the project's history. A game's session ("session 0, hand 3 of it") is not one,
nor another project's issue named as such (``numba issue 1234``: see ``_history``)."""
HISTORY_ALLOWED = ("CHANGELOG.md", "benchmarks/RESULTS.md")
"""Where history belongs: the changelog; the benchmark figures carry their dates and commits."""


def _files() -> list[Path]:
    found = []
    for path in sorted(ROOT.rglob("*")):
        parts = set(path.relative_to(ROOT).parts)
        if parts & SKIPPED_DIRS or not path.is_file() or path.suffix not in TEXT_SUFFIXES:
            continue
        found.append(path)
    return found


FILES = _files()


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace")


@cache
def _anchors() -> frozenset[str]:
    ids = set()
    for page in RULES.glob("*.md"):
        ids |= set(ANCHOR.findall(_text(page)))
    return frozenset(ids)


def test_the_rules_reference_has_a_page_per_variant_with_unique_anchors():
    for variant in ("anhua", "wengan", "anqing"):
        page = RULES / f"{variant}.md"
        assert page.exists(), page
        ids = ANCHOR.findall(_text(page))
        assert len(ids) > 20, f"{page.name}: {len(ids)} rule anchors"
        assert len(ids) == len(set(ids)), sorted({i for i in ids if ids.count(i) > 1})
        assert all(i.startswith(f"{variant}-") for i in ids), page


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_rule_citation_resolves(path):
    """Each ``§<id>`` and each ``rules/<variant>.md#<id>`` link names an anchor of the rules
    reference."""
    text = _text(path)
    cited = set(CITATION.findall(text)) | {i for _, i in RULES_LINK.findall(text)}
    missing = sorted(cited - _anchors())
    assert not missing, f"{path.relative_to(ROOT)} cites unknown rules: {missing}"


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_nothing_points_outside_the_repository(path):
    """No team folder, no raw source file by name or line: the rules reference is cited."""
    hits = [m.group(0) for m in OUTSIDE.finditer(_text(path))]
    if path == Path(__file__):
        hits = []
    assert not hits, f"{path.relative_to(ROOT)}: {sorted(set(hits))}"


def _history(text: str) -> list[str]:
    found = []
    for match in HISTORY.finditer(text):
        before = text[max(0, match.start() - 20) : match.start()].lower()
        if "numba" in before or "github" in before or "upstream" in before:
            continue  # another project's issue, named as such
        found.append(match.group(0))
    return found


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_development_history_in_the_product(path):
    relative = str(path.relative_to(ROOT))
    if relative in HISTORY_ALLOWED or path == Path(__file__):
        return
    found = _history(_text(path))
    assert not found, f"{relative}: {sorted(set(found))}"


def test_the_history_pattern_tells_history_from_the_game():
    assert _history("measured in session 40, see issue 16; until 2026-12-02 it did")
    assert not _history("hand 3 (session 0, hand 3 of it)")
    assert not _history("a workaround for numba issue 9001")
    assert OUTSIDE.search("see " + "rules-" + "spec B5.7")
    assert not CITATION.findall("no citation here") and CITATION.findall("§anhua-kings x")
