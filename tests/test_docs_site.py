"""The documentation site (``mkdocs.yml``, ``docs/``) builds with ``mkdocs build --strict``, and
its API pages (``docs/api/``, generated from the docstrings by mkdocstrings) list every public
function of the modules they document. The build takes a few seconds."""

from __future__ import annotations

import importlib
import inspect
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# module -> its API page (docs/api/NAME.md, built into api/NAME/index.html)
API_PAGES = {
    "sim.analysis": "analysis",
    "sim.hand": "hand",
    "sim.play": "play",
    "sim.plots": "plots",
}


def is_function(value) -> bool:
    """A function, also one wrapped by a decorator object (``functools.lru_cache``)."""
    return callable(value) and not inspect.isclass(value)


def public_functions(module_name: str) -> list[str]:
    """The functions named in the module's ``__all__``, or without one its own top-level
    functions whose names do not start with ``_``."""
    module = importlib.import_module(module_name)
    exported = getattr(module, "__all__", None)
    if exported is not None:
        return [name for name in exported if is_function(getattr(module, name))]
    return [
        name
        for name, value in vars(module).items()
        if is_function(value)
        and getattr(value, "__module__", None) == module_name
        and not name.startswith("_")
    ]


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    site_dir = tmp_path_factory.mktemp("site")
    # NO_MKDOCS_2_WARNING: without it Material for MkDocs prints a notice about its future
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site_dir)]
    result = subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=False
    )
    output = result.stdout + result.stderr
    warnings = [line for line in output.splitlines() if line.startswith(("WARNING", "ERROR"))]
    assert result.returncode == 0, "mkdocs build --strict failed:\n" + (
        "\n".join(warnings) or output[-5000:]
    )
    return site_dir


def test_the_site_builds_without_warnings(site):
    assert (site / "index.html").is_file()
    for page in API_PAGES.values():
        assert (site / "api" / page / "index.html").is_file(), page


@pytest.mark.parametrize("module_name", sorted(API_PAGES))
def test_api_pages_list_every_public_function(site, module_name):
    functions = public_functions(module_name)
    assert functions, f"{module_name} has no public function"
    page = (site / "api" / API_PAGES[module_name] / "index.html").read_text(encoding="utf-8")
    missing = [name for name in functions if f'id="{module_name}.{name}"' not in page]
    assert missing == [], f"not on api/{API_PAGES[module_name]}.md: {missing}"
