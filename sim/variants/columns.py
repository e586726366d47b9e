"""Declared columns: what a frame's column is called, what it means and how to show it.

A column is declared once, as a :class:`Column`, and everything else derives from the
declaration: :mod:`sim.running.records` builds the games and wins frames in the declared order and
checks that each column has the declared type, and the docs list the declarations. The generic
columns (dealer, outcome, score changes, ...) are declared in :mod:`sim.running.records`; a variant
declares its own in its folder and names them in its :class:`sim.variants.Variant` entry, with the
function that computes them from the engine's int64 records.

>>> column = Column("tiles_dealt_{seat}", "tiles seat {seat} was dealt", "int64", per_seat=True)
>>> column.names(3)
['tiles_dealt_0', 'tiles_dealt_1', 'tiles_dealt_2']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd

DTYPES = ("int64", "float64", "bool", "category", "text")
"""How a column is stored: ``text`` is a column of strings (pandas' string dtype)."""
SHOWN_AS = ("number", "count", "points", "seat", "flag", "name", "tile", "text")
"""How a value is shown: a plain ``number``; a ``count`` of things; score ``points``; a ``seat``
number (-1 for none); a true/false ``flag``; a ``name`` out of a fixed set; a ``tile`` in the
README notation; free ``text``."""


@dataclass(frozen=True)
class Column:
    """One declared column of a frame."""

    name: str
    """The column's name; with ``per_seat``, a pattern with ``{seat}`` (``delta_{seat}``)."""
    meaning: str
    """One line on what a value says (``{seat}`` is filled in per seat)."""
    dtype: str
    """How it is stored: one of :data:`DTYPES`."""
    shown_as: str = "number"
    """How to show a value: one of :data:`SHOWN_AS`."""
    unit: str = ""
    """What a number counts (``points``, ``tiles``, ``hands``), if anything."""
    per_seat: bool = False
    """One column per seat: ``name`` and ``meaning`` hold ``{seat}``."""
    after: str | None = None
    """For a variant's column: the column it follows in the frame (a per-seat column by its
    pattern); None: right after the variant column declared before it."""

    def __post_init__(self) -> None:
        if self.dtype not in DTYPES:
            raise ValueError(f"column {self.name}: dtype {self.dtype!r}; allowed: {DTYPES}")
        if self.shown_as not in SHOWN_AS:
            raise ValueError(f"column {self.name}: shown_as {self.shown_as!r}; allowed: {SHOWN_AS}")
        if self.per_seat != ("{seat}" in self.name):
            raise ValueError(f"column {self.name}: per_seat columns, and only they, hold {{seat}}")

    def names(self, n_players: int) -> list[str]:
        """The frame's column names: one, or one per seat."""
        if not self.per_seat:
            return [self.name]
        return [self.name.format(seat=seat) for seat in range(n_players)]

    def meaning_of(self, name: str) -> str:
        """The meaning of column ``name`` (one of :meth:`names`), its seat filled in."""
        if not self.per_seat:
            return self.meaning
        head, _, tail = self.name.partition("{seat}")
        return self.meaning.format(seat=name.removeprefix(head).removesuffix(tail))

    def matches(self, series: pd.Series) -> bool:
        """Whether ``series`` is stored as declared."""
        import pandas as pd  # where frames are made (sim.running.runner: not before the first hand)

        if self.dtype == "category":
            return isinstance(series.dtype, pd.CategoricalDtype)
        if self.dtype == "text":
            return pd.api.types.is_string_dtype(series.dtype)
        return series.dtype == self.dtype


def ordered(generic: Sequence[Column], variant: Sequence[Column]) -> list[Column]:
    """The generic columns with the variant's inserted where they declare (``after``).

    >>> base = [Column("game", "hand number", "int64"), Column("gain", "score change", "int64")]
    >>> extra = [Column("pattern", "its name", "text", after="game"), Column("tier", "", "text")]
    >>> [column.name for column in ordered(base, extra)]
    ['game', 'pattern', 'tier', 'gain']
    """
    columns = list(generic)
    previous: Column | None = None
    for column in variant:
        anchor = column.after or (previous.name if previous else None)
        positions = [i for i, c in enumerate(columns) if c.name == anchor]
        if not positions:
            raise ValueError(f"column {column.name}: follows {anchor!r}, which the frame lacks")
        columns.insert(positions[0] + 1, column)
        previous = column
    names = [c.name for c in columns]
    if len(set(names)) != len(names):
        raise ValueError(
            f"columns declared twice: {sorted({n for n in names if names.count(n) > 1})}"
        )
    return columns
