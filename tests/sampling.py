"""How many cases a sampled test draws: its full count in the whole suite (CI), fewer in the
quick run (``pytest -m "not slow"``), as hypothesis tests run fewer examples there.

``tests/conftest.py`` sets ``QUICK`` from the run's profile before any test runs
(``MJSIM_HYPOTHESIS_PROFILE=full`` gives every test its full count in the quick run too). A
sampled test draws its cases at run time, from a seeded generator, so each profile checks the
same cases every time; the quick run's are the first of the full run's wherever the test draws
them in order."""

from __future__ import annotations

QUICK = False
"""Whether this run is the quick profile (set by ``tests/conftest.py``)."""


def samples(full: int, quick: int) -> int:
    """``quick`` in the quick profile, else ``full``: how many cases a sampled test draws."""
    return quick if QUICK else full
