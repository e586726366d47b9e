"""Console text: widths in terminal columns, where a Chinese character takes two, and numbers
rounded for reading."""

from __future__ import annotations

import unicodedata


def display_width(text: str) -> int:
    """Columns a terminal gives ``text``: wide and full-width characters (汉字) take two."""
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)


def pad(text: str, width: int, right: bool = False) -> str:
    """``text`` in ``width`` terminal columns, left-aligned (or right-aligned)."""
    fill = " " * max(0, width - display_width(text))
    return fill + text if right else text + fill


def signed(value: float, digits: int = 2) -> str:
    """``value`` with its sign and ``digits`` decimals; a value that rounds to zero is +0.00,
    never -0.00."""
    rounded = round(value, digits)
    return f"{rounded or 0.0:+.{digits}f}"
