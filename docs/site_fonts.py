"""MkDocs hook (``mkdocs.yml``, ``hooks``): copies the CJK font the package ships
(``sim/fonts/MjsimSansCJK-Regular.ttf``, SIL OFL 1.1) and its licence into the built site, where
``assets/cjk.css`` draws Chinese rule names with it on systems without a CJK font."""

from __future__ import annotations

import shutil
from pathlib import Path

FONTS = Path(__file__).resolve().parents[1] / "sim" / "fonts"


def on_post_build(config, **kwargs) -> None:
    target = Path(config["site_dir"]) / "assets" / "fonts"
    target.mkdir(parents=True, exist_ok=True)
    for name in ("MjsimSansCJK-Regular.ttf", "OFL.txt"):
        shutil.copy2(FONTS / name, target / name)
