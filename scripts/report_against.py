"""Whether ``mjsim report`` writes the same page as another checkout's (for example the commit
before a change to sim.report): each run directory named is reported by both, into folders of
their own, and every file (report.html, figures/*.png) compared byte for byte.

    python scripts/report_against.py /path/to/other/checkout runs/a runs/b

The other checkout's ``sim`` is imported from its folder (``PYTHONPATH``); both reports are
written into one copy of the run directory (older versions write beside the tables only), in
turn, and moved aside.
Prints one line per run: same, or the files that differ.
"""

from __future__ import annotations

import argparse
import filecmp
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path


def _report(checkout: Path, copy: Path, into: Path) -> None:
    """The report of the run ``copy`` by ``checkout``, moved into the folder ``into``."""
    environment = {**os.environ, "PYTHONPATH": str(checkout)}
    code = "import sys; from sim.report import write_report; write_report(sys.argv[1])"
    # -P: the checkout named, not the current folder, is first on the path
    subprocess.run([sys.executable, "-P", "-c", code, str(copy)], check=True, env=environment)
    into.mkdir(parents=True)
    for name in ("report.html", "figures"):
        shutil.move(copy / name, into / name)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("other", type=Path, help="the other checkout (its sim/ is imported)")
    parser.add_argument("runs", type=Path, nargs="+", help="run directories")
    args = parser.parse_args()
    here = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory() as folder:
        for run in args.runs:
            # one path for both: the page names the directory it reports on
            copy = Path(folder) / "runs" / run.name
            shutil.copytree(run, copy)
            mine, theirs = Path(folder) / "this" / run.name, Path(folder) / "other" / run.name
            _report(here, copy, mine)
            _report(args.other.resolve(), copy, theirs)
            files = ["report.html", *(f"figures/{p.name}" for p in (mine / "figures").iterdir())]
            differ = [f for f in files if not filecmp.cmp(mine / f, theirs / f, shallow=False)]
            print(f"{run}: " + ("same" if not differ else "differ: " + ", ".join(differ)))


if __name__ == "__main__":
    main()
