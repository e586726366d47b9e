"""The examples in the docstrings of the public modules run and print what they show."""

from __future__ import annotations

import doctest

import pytest

from sim import hand, play, tiles, wall


@pytest.mark.parametrize("module", [tiles, wall, hand, play], ids=lambda m: m.__name__)
def test_docstring_examples(module):
    failures, tried = doctest.testmod(module, verbose=False)
    assert tried > 0, f"{module.__name__} shows no examples"
    assert failures == 0
