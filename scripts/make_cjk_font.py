"""Regenerate ``sim/fonts/MjsimSansCJK-Regular.ttf``: a subset of Noto Sans CJK SC for the plots.

Machines without CJK fonts draw Chinese pattern names as empty boxes, so :mod:`sim.plots` ships
this subset and registers it with matplotlib. The subset holds every CJK character used by the
project (``sim/**/*.py``, ``configs/``, the rules reference ``docs/rules/*.md``), the
GB2312 level-1 hanzi (3,755 common characters, so a new label rarely needs a rebuild), the
GB2312 punctuation and full-width rows, and printable ASCII / Latin-1.

Usage (build time only; the installed package never imports fontTools for this)::

    python scripts/make_cjk_font.py                       # fetches Debian's fonts-noto-cjk
    python scripts/make_cjk_font.py --source NotoSansCJK-Regular.ttc
    python scripts/make_cjk_font.py --source NotoSansCJKsc-Regular.otf

The source font is SIL OFL 1.1 (© 2014-2021 Adobe); the subset stays under that licence
(``sim/fonts/OFL.txt``) and is renamed, as OFL asks of modified versions. Outlines are converted
from CFF to TrueType because matplotlib embeds TrueType fonts in PDF and PostScript output
(Type 42) but not CFF ones.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

from fontTools import subset
from fontTools.pens.cu2quPen import Cu2QuPen
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTCollection, TTFont, newTable

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "sim" / "fonts" / "MjsimSansCJK-Regular.ttf"
FAMILY = "Mjsim Sans CJK"
SOURCE_FAMILY = "Noto Sans CJK SC"
DEBIAN_PACKAGE = "fonts-noto-cjk"
DEBIAN_FONT = "usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
# cu2qu's tolerance in font units (of 1000 per em): invisible at plot sizes, keeps the file small.
CURVE_TOLERANCE = 1.0


def is_cjk(char: str) -> bool:
    """CJK radicals, punctuation, kana, ideographs (incl. extensions) and full-width forms."""
    code = ord(char)
    return (
        0x2E80 <= code <= 0x9FFF
        or 0xF900 <= code <= 0xFAFF
        or 0xFE30 <= code <= 0xFE4F
        or 0xFF00 <= code <= 0xFFEF
        or 0x20000 <= code <= 0x3FFFF
    )


def project_texts(root: Path) -> list[Path]:
    """The files whose CJK characters the plots may have to draw."""
    files = sorted((root / "sim").rglob("*.py"))
    files += sorted(p for p in (root / "configs").rglob("*") if p.is_file())
    files += sorted((root / "docs" / "rules").glob("*.md"))
    return files


def project_characters(root: Path) -> set[str]:
    chars: set[str] = set()
    for path in project_texts(root):
        chars.update(c for c in path.read_text(encoding="utf-8", errors="ignore") if is_cjk(c))
    return chars


def gb2312_characters(rows: range) -> set[str]:
    """Characters of GB2312 rows (区) ``rows``: 1-9 symbols, 16-55 level-1 hanzi."""
    chars = set()
    for row in rows:
        for cell in range(1, 95):
            try:
                chars.add(bytes([0xA0 + row, 0xA0 + cell]).decode("gb2312"))
            except UnicodeDecodeError:
                continue  # row 55 ends at cell 89; some symbol cells are unassigned
    return chars


def wanted_characters(root: Path) -> set[str]:
    chars = project_characters(root)
    chars |= gb2312_characters(range(16, 56))  # level-1 hanzi
    chars |= gb2312_characters(range(1, 4))  # punctuation, numbered symbols, full-width ASCII
    chars |= {chr(c) for c in range(0x20, 0x7F)} | {chr(c) for c in range(0xA0, 0x100)}
    return chars


def fetch_debian_font(workdir: Path) -> Path:
    """Download Debian's fonts-noto-cjk (no install rights needed) and unpack its TTC."""
    subprocess.run(["apt-get", "download", DEBIAN_PACKAGE], cwd=workdir, check=True)
    package = next(workdir.glob(f"{DEBIAN_PACKAGE}_*.deb"))
    subprocess.run(["dpkg-deb", "-x", str(package), str(workdir / "x")], check=True)
    return workdir / "x" / DEBIAN_FONT


def open_source_font(path: Path) -> TTFont:
    if path.suffix.lower() in (".ttc", ".otc"):
        for font in TTCollection(str(path)).fonts:
            if font["name"].getDebugName(1) == SOURCE_FAMILY:
                return font
        raise SystemExit(f"{path}: no member font named {SOURCE_FAMILY!r}")
    return TTFont(str(path))


def subset_font(font: TTFont, chars: set[str]) -> set[str]:
    """Cut ``font`` down to ``chars`` in place; returns the characters it could not supply."""
    cmap = font.getBestCmap()
    missing = {c for c in chars if ord(c) not in cmap}
    options = subset.Options()
    options.layout_features = []  # horizontal Latin/CJK labels need no shaping
    options.hinting = False  # matplotlib renders with FreeType's auto-hinter anyway
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.drop_tables += ["VORG", "vhea", "vmtx", "BASE", "GDEF", "GPOS", "GSUB"]
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=[ord(c) for c in chars - missing])
    subsetter.subset(font)
    return missing


def cff_to_truetype(font: TTFont) -> None:
    """Replace the CFF outlines by quadratic TrueType ones (``glyf``/``loca``) in place."""
    glyph_order = font.getGlyphOrder()
    glyph_set = font.getGlyphSet()
    glyf = newTable("glyf")
    glyf.glyphOrder = glyph_order
    glyf.glyphs = {}
    for name in glyph_order:
        pen = TTGlyphPen(glyph_set)
        glyph_set[name].draw(Cu2QuPen(pen, CURVE_TOLERANCE, reverse_direction=True))
        glyf.glyphs[name] = pen.glyph()
    del font["CFF "]
    font["glyf"] = glyf
    font["loca"] = newTable("loca")
    maxp = font["maxp"]
    maxp.tableVersion = 0x00010000
    for field in (
        "maxZones",
        "maxTwilightPoints",
        "maxStorage",
        "maxFunctionDefs",
        "maxInstructionDefs",
        "maxStackElements",
        "maxSizeOfInstructions",
        "maxComponentElements",
    ):
        setattr(maxp, field, 0)
    maxp.maxZones = 1
    maxp.maxComponentDepth = 0
    font["head"].glyphDataFormat = 0
    font["head"].indexToLocFormat = 0
    font["post"].formatType = 2.0  # TrueType fonts carry glyph names in post
    font["post"].extraNames = []
    font["post"].mapping = {}
    font.sfntVersion = "\x00\x01\x00\x00"


def rename(font: TTFont) -> None:
    """Give the subset its own family name (OFL: a modified version does not pass as the
    original) and say where it comes from."""
    name = font["name"]
    postscript = FAMILY.replace(" ", "") + "-Regular"
    labels = {
        1: FAMILY,
        3: f"{postscript};subset of {SOURCE_FAMILY} 2.004",
        4: f"{FAMILY} Regular",
        6: postscript,
        16: FAMILY,
        17: "Regular",
    }
    for record in list(name.names):
        if record.nameID in labels or record.nameID in (18, 21, 22):
            name.removeNames(nameID=record.nameID)
    for name_id, text in labels.items():
        name.setName(text, name_id, 3, 1, 0x409)
    description = (
        f"Subset of {SOURCE_FAMILY} (Noto CJK 2.004) for the mjsim plots, made by "
        "scripts/make_cjk_font.py. Licensed under the SIL Open Font License 1.1."
    )
    name.setName(description, 10, 3, 1, 0x409)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", type=Path, help="NotoSansCJK-Regular.ttc or a SC .otf")
    parser.add_argument("--output", type=Path, default=OUTPUT)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as workdir:
        source = args.source or fetch_debian_font(Path(workdir))
        font = open_source_font(source)
        chars = wanted_characters(ROOT)
        missing = subset_font(font, chars)
        if "CFF " in font:
            cff_to_truetype(font)
        rename(font)
        font.recalcTimestamp = False  # keep the source's date: same input, same bytes
        args.output.parent.mkdir(parents=True, exist_ok=True)
        font.save(str(args.output))
    project_missing = sorted(missing & project_characters(ROOT))
    if project_missing:
        print(f"not in the source font: {''.join(project_missing)}", file=sys.stderr)
    size = args.output.stat().st_size
    print(f"{args.output}: {len(chars) - len(missing)} characters, {size / 1e6:.2f} MB")
    return 1 if project_missing else 0


if __name__ == "__main__":
    raise SystemExit(main())
