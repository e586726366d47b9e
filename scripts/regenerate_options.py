"""Rewrite what the option declarations generate: config comments and the docs' options tables.

    python scripts/regenerate_options.py [--check]

For every config file ``configs/*.toml``, the ``[options]`` section is written again from its
variant's declarations (``sim/variants/<name>/options.py``), keeping the file's values: each
option's comment (Chinese rule name, meaning, the rules it changes) and what is allowed. For every
variant, the options table of its rules reference ``docs/rules/<name>.md`` (between its marker
comments) is written again. ``--check`` changes nothing and exits 1 listing the files that
differ (the tests check the same).
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sim.variants import VARIANT_NAMES, get_variant  # noqa: E402
from sim.variants.options import replace_doc_table, replace_options_section  # noqa: E402


def generated_texts(root: Path = ROOT) -> dict[Path, str]:
    """Every file the declarations write -> the text it should have."""
    texts = {}
    for path in sorted((root / "configs").glob("*.toml")):
        text = path.read_text(encoding="utf-8")
        document = tomllib.loads(text)
        declarations = get_variant(document["variant"]).options_class.DECLARATIONS
        texts[path] = replace_options_section(text, declarations, document.get("options", {}))
    for name in VARIANT_NAMES:
        path = root / "docs" / "rules" / f"{name}.md"
        declarations = get_variant(name).options_class.DECLARATIONS
        texts[path] = replace_doc_table(path.read_text(encoding="utf-8"), declarations)
    return texts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if stale")
    check = parser.parse_args().check
    stale = []
    for path, text in generated_texts().items():
        if path.read_text(encoding="utf-8") != text:
            stale.append(path)
            if not check:
                path.write_text(text, encoding="utf-8")
    for path in stale:
        print(f"{'stale' if check else 'rewrote'}: {path.relative_to(ROOT)}")
    return 1 if check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
