"""Values as report text: escaping, and numbers formatted for reading.

:class:`Html` marks markup the report made itself; every other value that reaches the page goes
through :func:`esc`. Missing values (``None``, ``NA``, ``NaN``) show as ``–``.
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable

import numpy as np
import pandas as pd


class Html(str):
    """Markup made by this package, inserted as is; any other value is escaped."""


def missing(value) -> bool:
    """Whether ``value`` is ``None``, ``pd.NA`` or a float NaN."""
    if value is None or value is pd.NA:
        return True
    try:
        return bool(isinstance(value, float | np.floating) and math.isnan(value))
    except TypeError:
        return False


def esc(value) -> str:
    """``value`` as HTML text: markup made here as is, anything else escaped (``–`` if missing)."""
    if isinstance(value, Html):
        return value
    return html.escape("–" if missing(value) else str(value), quote=True)


def fmt_count(value) -> str:
    return "–" if missing(value) else f"{int(value):,}"


def fmt_num(value, digits: int = 2, sign: bool = False) -> str:
    if missing(value):
        return "–"
    return f"{float(value):{'+' if sign else ''},.{digits}f}"


def fmt_pct(value, sign: bool = False) -> str:
    """A share as a percentage with 2 decimals; a share too small for that gets 2 significant
    digits instead of showing as 0.00%."""
    if missing(value):
        return "–"
    percent = float(value) * 100
    digits = 2
    if percent != 0 and abs(percent) < 0.005:
        digits = 1 - math.floor(math.log10(abs(percent)))
    return f"{percent:{'+' if sign else ''}.{digits}f}%"


def fmt_interval(lo, hi, formatter: Callable = fmt_num, **kwargs) -> str:
    if missing(lo) and missing(hi):
        return "–"
    return f"[{formatter(lo, **kwargs)}, {formatter(hi, **kwargs)}]"


def fmt_p(value) -> str:
    if missing(value):
        return "–"
    return "< 0.001" if value < 0.001 else f"{value:.3f}"


def fmt_p_phrase(value) -> str:
    """``p = 0.012``, ``p < 0.001`` or ``p = –``."""
    text = fmt_p(value)
    return f"p {text}" if text.startswith("<") else f"p = {text}"


def fmt_points(value) -> str:
    """A score in points: whole numbers as such, others with up to 2 decimals."""
    if missing(value):
        return "–"
    text = f"{float(value) + 0.0:,.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def fmt_seconds(value) -> str:
    return "–" if missing(value) else f"{float(value):,.1f} s"


def value_text(value) -> str:
    """An option's value: list items joined by commas, anything else as ``str``."""
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value)
    return str(value)
