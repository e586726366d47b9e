"""``tests/warm_caches.py``: every test its ``STEP_TESTS`` names for the cold-cache warm-up
exists (a renamed test would make the warm-up fail and its kernels compile in the workers
again), and there is a list for every process ``conftest.py`` starts."""

from __future__ import annotations

import re

import warm_caches

from sim.variants import VARIANT_NAMES


def test_every_warm_up_process_has_its_step_tests():
    assert sorted(warm_caches.STEP_TESTS) == sorted([*VARIANT_NAMES, "tests"])


def test_every_step_test_names_an_existing_file_and_test():
    for name, tests in warm_caches.STEP_TESTS.items():
        for test in tests:
            path, _, function = test.partition("::")
            file = warm_caches.TESTS / path
            assert file.is_file(), f"{name}: {path} does not exist"
            if function:
                text = file.read_text(encoding="utf-8")
                assert re.search(rf"^def {function}\(", text, re.M), f"{name}: {test} not found"
