"""The quick run (``pytest -m "not slow"``) caps each hypothesis test's examples at
``conftest.QUICK_EXAMPLES``, overriding the test's own ``@settings``; the whole suite (CI) runs
each test's own count."""

from __future__ import annotations

from types import SimpleNamespace

import conftest
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st


def _probe():
    """A hypothesis test asking for 300 examples, and the list of the values it was given."""
    seen = []

    @settings(max_examples=300, database=None, deadline=None)
    @given(st.integers())
    def probe(value):
        seen.append(value)

    return probe, seen


def _collect(markexpr: str, probe) -> None:
    config = SimpleNamespace(option=SimpleNamespace(markexpr=markexpr))
    conftest.pytest_collection_modifyitems(config, [SimpleNamespace(obj=probe)])


@pytest.mark.parametrize(
    ("markexpr", "chosen", "capped"),
    [
        ("not slow", None, True),
        ("", None, False),
        ("slow", None, False),
        ("not slow", "full", False),
        ("", "quick", True),
    ],
)
def test_the_examples_are_capped_only_in_the_quick_run(markexpr, chosen, capped, monkeypatch):
    if chosen is None:
        monkeypatch.delenv("MJSIM_HYPOTHESIS_PROFILE", raising=False)
    else:
        monkeypatch.setenv("MJSIM_HYPOTHESIS_PROFILE", chosen)
    probe, seen = _probe()
    _collect(markexpr, probe)
    probe()
    if capped:
        assert 0 < len(seen) <= conftest.QUICK_EXAMPLES
    else:
        assert len(seen) > conftest.QUICK_EXAMPLES


def test_an_unknown_profile_is_refused(monkeypatch):
    monkeypatch.setenv("MJSIM_HYPOTHESIS_PROFILE", "fast")
    probe, _ = _probe()
    with pytest.raises(pytest.UsageError, match="MJSIM_HYPOTHESIS_PROFILE: 'fast'"):
        _collect("not slow", probe)
