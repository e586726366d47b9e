"""Give run folders written without the tables' checksums their manifest's ``tables`` entry.

    python scripts/add_run_checksums.py runs/NAME [runs/OTHER ...]

Every reader of a run checks its tables against the checksums of its manifest
(``sim.running.run_checks``). A run folder whose manifest has none gets them here, and only
once every other check passes (the manifest's shape and config hash, the tables' columns, rows,
hands and winners): a damaged folder is refused with the same one-line error a reader gives.
A sweep folder's cells (``cells/*``) are done too. A folder that has them is checked and left
as it is. Exit status 2 when any folder is refused.
"""

from __future__ import annotations

import sys
from pathlib import Path

from sim.running.run_checks import add_checksums


def run_folders(path: Path) -> list[Path]:
    """``path`` itself, or the cells of the sweep folder ``path``."""
    if (path / "sweep.json").is_file():
        return sorted(cell for cell in (path / "cells").iterdir() if cell.is_dir())
    return [path]


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    status = 0
    for given in argv:
        for folder in run_folders(Path(given)):
            try:
                added = add_checksums(folder)
            except (ValueError, OSError) as error:
                print(f"add_run_checksums: error: {error}", file=sys.stderr)
                status = 2
                continue
            print(f"{folder}: {'checksums added' if added else 'has its checksums'}")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
