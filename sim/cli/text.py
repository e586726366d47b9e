"""Console text: widths in terminal columns, where a Chinese character takes two, and numbers
rounded for reading."""

from __future__ import annotations

import shlex
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


def rounded(value: float, significant: int = 3) -> str:
    """``value`` to ``significant`` digits for reading, without an exponent below a million:
    an integer as it is (``8``), ``0.512`` for 0.511868, ``1230`` for 1234.5; never ``-0``."""
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    text = f"{float(f'{value:.{significant}g}'):g}"
    return "0" if text == "-0" else text


def resume_hint(what_next: str, command: str, target, options: list[str]) -> str:
    """The hint after an interrupt (``what_next``) with the resume command ``command --resume
    TARGET`` in it given ``options`` too (the interrupted command's own ``--jobs``, ``--backend``,
    ...), quoted as a shell reads them; the hint as it was when it names no such command."""
    said = f"{command} --resume {target}"
    if said not in what_next:
        return what_next
    words = [command, "--resume", shlex.quote(str(target)), *map(shlex.quote, options)]
    return what_next.replace(said, " ".join(words))


def backend_options(args, default_jobs: int = 1) -> list[str]:
    """``--jobs``, ``--backend`` and ``--scheduler`` of a command's parsed ``args`` as given, where
    they differ from their defaults: what a resume of its work plays with."""
    from ..running.backends import Backend

    options = []
    if args.jobs != default_jobs:
        options += ["--jobs", str(args.jobs)]
    if args.backend != Backend.name:
        options += ["--backend", args.backend]
    if getattr(args, "scheduler", None):
        options += ["--scheduler", args.scheduler]
    return options
