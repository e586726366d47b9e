"""The bundled CJK font inside the page, so Chinese text renders where no CJK font is installed.

The figures draw Chinese with the font ``sim.plots`` bundles (``sim/fonts``, a subset of Noto
Sans CJK SC, SIL OFL 1.1); a browser on a machine without CJK fonts would show the page's own
Chinese text as empty boxes. :func:`font_face` cuts that font down to the CJK characters one
page uses (about 70 on a run's page, 13 kB) and returns an ``@font-face`` rule with the result
as a WOFF data URL. The page names that family first: its ``unicode-range`` keeps it to those
characters, and Latin text keeps the system font.

Subsetting uses fontTools, a runtime dependency (matplotlib depends on it anyway). WOFF is
compressed with zlib, so no Brotli package is needed, as WOFF2 would. The output is the same
bytes for the same characters, so a report rewritten from the same run is the same file.
"""

from __future__ import annotations

import base64
import io

FIRST_CJK = 0x2E80
"""CJK radicals, punctuation, kana, ideographs and full-width forms all lie at or above it."""


def cjk_characters(text: str) -> list[str]:
    """The distinct CJK characters of ``text``, in code point order."""
    return sorted({char for char in text if ord(char) >= FIRST_CJK})


def unicode_range(code_points: list[int]) -> str:
    """A CSS ``unicode-range`` value covering ``code_points`` (sorted): runs as ``U+A-B``."""
    runs: list[list[int]] = []
    for point in code_points:
        if runs and point == runs[-1][1] + 1:
            runs[-1][1] = point
        else:
            runs.append([point, point])
    return ", ".join(f"U+{lo:X}" if lo == hi else f"U+{lo:X}-{hi:X}" for lo, hi in runs)


def font_family() -> str:
    """The family name the page gives the embedded font (the bundled font's own)."""
    from ..plots import FONT_FAMILY

    return FONT_FAMILY


def font_face(text: str) -> str:
    """An ``@font-face`` rule embedding the bundled font's glyphs of the CJK characters in
    ``text``; empty when ``text`` has none the font holds."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    from ..plots import FONT_FILE

    font = TTFont(FONT_FILE, recalcTimestamp=False)
    held = font.getBestCmap()
    code_points = [ord(char) for char in cjk_characters(text) if ord(char) in held]
    if not code_points:
        return ""
    options = subset.Options()
    options.name_IDs = ["*"]  # keeps the copyright and the OFL notice (name IDs 0, 13, 14)
    options.name_languages = ["*"]
    options.hinting = False  # browsers rasterise CJK outlines well without it
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=code_points)
    subsetter.subset(font)
    font.flavor = "woff"
    buffer = io.BytesIO()
    font.save(buffer)
    data = base64.b64encode(buffer.getvalue()).decode("ascii")
    return (
        f'@font-face {{ font-family: "{font_family()}"; '
        f'src: url(data:font/woff;base64,{data}) format("woff"); '
        f"unicode-range: {unicode_range(code_points)}; }}"
    )
