"""Declared status columns: the per-seat and per-hand facts of ``GameState.status``.

``status`` is an int64 array (rows 0-3 the seats, row ``HAND_ROW`` the hand; ``N_STATUS``
columns). A column is declared once, as a :class:`StatusColumn` (its name, what it means, how a
value is shown, which row it is in), and its slot number derives from the declaration: the
engine's columns are numbered from 0 in the order ``sim.kernels.state`` declares them, a
variant's from :data:`FIRST_VARIANT_SLOT` in the order its hooks module declares them. Kernels
need the slot numbers as plain module-level ints, so each module unpacks them at import:

>>> SEAT = (StatusColumn("ready", "1 once the seat declared ready", "flag"),
...         StatusColumn("passed_pongs", "kinds the seat passed a pong on", "tiles"))
>>> ST_READY, ST_PASSED_PONGS = status_slots(SEAT, first=FIRST_VARIANT_SLOT)
>>> ST_READY, ST_PASSED_PONGS
(4, 5)

A variant names its declarations in its ``sim.variants.Variant`` entry (``seat_status``,
``hand_status``); the replay (``sim.variants.replay``) shows them from there, and docs/engine.md
lists them. Pure Python: the kernels import it, it imports nothing of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

FIRST_VARIANT_SLOT = 4
"""Columns from here on are the variant's, in every row; the engine's are below."""
N_STATUS = 16
"""Columns of ``status`` (every row)."""
ROWS = ("seat", "hand")
"""Which row a column is in: one per seat (rows 0-3), or the hand's own row (``HAND_ROW``)."""
SHOWN_AS = ("count", "flag", "tile", "seat", "tiles", "number", "hidden")
"""How a value is shown: a ``count`` of things; a true/false ``flag`` (0 or 1); a ``tile`` kind
in README notation (-1: none); a ``seat`` number (-1: none); ``tiles``, a set of tile kinds as
bits (bit k: kind k), in README notation; a plain ``number`` (bits of hand forms, say);
``hidden``: internal bookkeeping a replay does not show."""
EMPTY = {"count": 0, "flag": 0, "tile": -1, "seat": -1, "tiles": 0, "number": 0}
"""The value that says nothing (no count, not set, no tile, no seat, no tiles): the text
replay shows only other values."""


@dataclass(frozen=True)
class StatusColumn:
    """One declared column of ``GameState.status``."""

    name: str
    """The column's name (a replay's JSON key): lower case words joined by ``_``."""
    meaning: str
    """One line on what a value says."""
    shown_as: str
    """How a value is shown: one of :data:`SHOWN_AS`."""
    row: str = "seat"
    """Which row the column is in: one of :data:`ROWS`."""
    phrase: str = ""
    """How a value other than :data:`EMPTY`'s reads in the text replay, ``{value}`` the value
    shown (``passed wins on {value}``); empty: the name's words, then the value unless a flag."""

    def __post_init__(self) -> None:
        if not self.name.replace("_", "").isalnum() or self.name != self.name.lower():
            raise ValueError(f"status column {self.name!r}: a name is lower case words and _")
        if self.shown_as not in SHOWN_AS:
            raise ValueError(
                f"status column {self.name}: shown_as {self.shown_as!r}; allowed: {SHOWN_AS}"
            )
        if self.row not in ROWS:
            raise ValueError(f"status column {self.name}: row {self.row!r}; allowed: {ROWS}")

    @property
    def hidden(self) -> bool:
        return self.shown_as == "hidden"

    def is_empty(self, value: int) -> bool:
        """Whether ``value`` says nothing (:data:`EMPTY`); a hidden column's always does."""
        return self.hidden or value == EMPTY[self.shown_as]


def status_slots(
    columns: Sequence[StatusColumn], first: int = FIRST_VARIANT_SLOT, end: int = N_STATUS
) -> tuple[int, ...]:
    """The slots of ``columns`` (all of one row), numbered from ``first`` in their order: a
    variant's from :data:`FIRST_VARIANT_SLOT` (the default), the engine's from 0 up to
    :data:`FIRST_VARIANT_SLOT` (``end``). A one-line error when they do not fit below ``end``,
    mix rows or repeat a name."""
    names = [column.name for column in columns]
    if len(set(names)) != len(names):
        twice = sorted({name for name in names if names.count(name) > 1})
        raise ValueError(f"status columns declared twice: {twice}")
    rows = {column.row for column in columns}
    if len(rows) > 1:
        raise ValueError(f"status columns {names}: one row per declaration, not {sorted(rows)}")
    if first + len(columns) > end:
        raise ValueError(
            f"status columns {names}: {len(columns)} from slot {first} do not fit below {end}; "
            f"at most {max(end - first, 0)}"
        )
    return tuple(range(first, first + len(columns)))


def laid_out(
    engine: Sequence[StatusColumn], variant: Sequence[StatusColumn], row: str
) -> list[tuple[int, StatusColumn]]:
    """(slot, column) for every column of ``row``: the engine's from 0, the variant's from
    :data:`FIRST_VARIANT_SLOT`; a one-line error naming a column declared for another row."""
    for column in (*engine, *variant):
        if column.row != row:
            raise ValueError(f"status column {column.name}: row {column.row!r}, not {row!r}")
    return [
        *zip(status_slots(engine, first=0, end=FIRST_VARIANT_SLOT), engine, strict=True),
        *zip(status_slots(variant), variant, strict=True),
    ]
