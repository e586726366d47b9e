"""``mjsim cache``: the folders of compiled code and tables mjsim keeps, and removing old ones."""

from __future__ import annotations

import argparse

from ..running import cache


def _megabytes(size_bytes: int) -> str:
    return f"{size_bytes / 1e6:,.1f} MB"


def _folders(count: int) -> str:
    return f"{count} folder{'' if count == 1 else 's'}"


def _command_cache(args: argparse.Namespace) -> int:
    roots = ", ".join(str(root) for root in cache.cache_roots())
    if args.prune:
        removed = cache.prune()
        for folder in removed:
            print(f"removed  {_megabytes(folder.size_bytes):>10}  {folder.path}")
        freed = sum(folder.size_bytes for folder in removed)
        print(f"{_folders(len(removed))} not in use removed from {roots}: {_megabytes(freed)}")
        return 0
    folders = cache.cache_folders()
    print(f"mjsim's caches in {roots}:")
    for folder in folders:
        state = "in use" if folder.in_use else "old"
        print(f"  {state:<6}  {_megabytes(folder.size_bytes):>10}  {folder.path.name}")
    old = [folder for folder in folders if not folder.in_use]
    if old:
        size = _megabytes(sum(folder.size_bytes for folder in old))
        print(f"{_folders(len(old))} not in use ({size}): mjsim cache --prune removes them")
    else:
        print("no folder that this mjsim does not use")
    return 0


def register(commands) -> None:
    """Add the ``cache`` command to the ``mjsim`` sub-parser collection."""
    parser = commands.add_parser(
        "cache",
        help="list the compiled code and tables mjsim keeps; remove old ones",
        description=(
            "List mjsim's cache folders (numba's compiled engines and the evaluator's tables, "
            "each named after a digest of its sources) and whether this mjsim uses them (with "
            "this environment's MJSIM_NUMBA_FIXES and MJSIM_LINK_AT_LOAD, part of the digest). "
            "An upgrade or an edit leaves the old ones behind; --prune removes them. Other "
            "files in the cache folder are never touched."
        ),
        epilog="examples: mjsim cache; mjsim cache --prune",
    )
    parser.add_argument(
        "--prune",
        action="store_true",
        help="remove the folders this mjsim does not use (a run of another mjsim version "
        "using one now would compile again)",
    )
    parser.set_defaults(run=_command_cache)
