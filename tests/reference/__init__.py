"""Slow, obviously-correct reference evaluator (see ``docs/evaluator.md``)."""

from .evaluator import (
    HONOUR_START,
    N_KINDS,
    NOT_APPLICABLE,
    clear_caches,
    decompositions,
    is_complete,
    is_seven_pairs,
    is_standard,
    is_thirteen_unrelated,
    shanten,
    shanten_seven_pairs,
    shanten_standard,
    shanten_thirteen,
    tiles_to_add_suit,
    waits,
    wilds_needed_suit,
)

__all__ = [
    "HONOUR_START",
    "NOT_APPLICABLE",
    "N_KINDS",
    "clear_caches",
    "decompositions",
    "is_complete",
    "is_seven_pairs",
    "is_standard",
    "is_thirteen_unrelated",
    "shanten",
    "shanten_seven_pairs",
    "shanten_standard",
    "shanten_thirteen",
    "tiles_to_add_suit",
    "waits",
    "wilds_needed_suit",
]
