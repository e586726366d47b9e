"""``mjsim cache``: the folders of compiled code and tables mjsim keeps, and removing old ones."""

from __future__ import annotations

import argparse

from ..running import cache


def _megabytes(size_bytes: int) -> str:
    return f"{size_bytes / 1e6:,.1f} MB"


def _folders(count: int) -> str:
    return f"{count} folder{'' if count == 1 else 's'}"


STATES = {
    ("mjsim", True): "in use",
    ("mjsim", False): "old",
    ("tests", True): "tests",
    ("tests", False): "tests, old",
}
"""A folder's state in the listing, by its owner and whether it is read."""
TESTS_FOLDERS = ", ".join(str(folder) for folder in cache.TEST_VARIANTS.values())


def _prune(tests: bool, roots: str) -> int:
    removed = cache.prune(tests=tests)
    for folder in removed:
        print(f"removed  {_megabytes(folder.size_bytes):>10}  {folder.path}")
    freed = sum(folder.size_bytes for folder in removed)
    print(f"{_folders(len(removed))} not in use removed from {roots}: {_megabytes(freed)}")
    kept = [f for f in cache.cache_folders() if f.owner == "tests" and not f.in_use]
    if kept:
        print(
            f"kept the test suite's {_folders(len(kept))} not in use ({TESTS_FOLDERS}): "
            "mjsim cache --prune --tests removes them"
        )
    return 0


def _command_cache(args: argparse.Namespace) -> int:
    if args.tests and not args.prune:
        raise ValueError("--tests: only with --prune (mjsim cache --prune --tests)")
    roots = ", ".join(str(root) for root in cache.cache_roots())
    if args.prune:
        return _prune(args.tests, roots)
    folders = cache.cache_folders()
    print(f"mjsim's caches in {roots}:")
    for folder in folders:
        state = STATES[folder.owner, folder.in_use]
        print(f"  {state:<10}  {_megabytes(folder.size_bytes):>10}  {folder.path.name}")
    old = [folder for folder in folders if not folder.in_use and folder.owner == "mjsim"]
    if old:
        size = _megabytes(sum(folder.size_bytes for folder in old))
        print(f"{_folders(len(old))} not in use ({size}): mjsim cache --prune removes them")
    else:
        print("no folder that this mjsim does not use")
    tests = [folder for folder in folders if folder.owner == "tests"]
    if tests:
        unused = [folder for folder in tests if not folder.in_use]
        size = _megabytes(sum(folder.size_bytes for folder in unused))
        print(
            f"the test suite's {_folders(len(tests))} ({TESTS_FOLDERS}), {len(unused)} not in "
            f"use ({size}): kept by mjsim cache --prune, removed by mjsim cache --prune --tests"
        )
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
            "An upgrade or an edit leaves the old ones behind; --prune removes them. The test "
            f"suite's own folders (its variants' compiled kernels: {TESTS_FOLDERS}) are listed "
            "as 'tests' (in use by this checkout's tests) or 'tests, old', and removed only "
            "with --prune --tests. Other files in the cache folder are never touched."
        ),
        epilog="examples: mjsim cache; mjsim cache --prune; mjsim cache --prune --tests",
    )
    parser.add_argument(
        "--prune",
        action="store_true",
        help="remove mjsim's folders this mjsim does not use (a run of another mjsim version "
        "using one now would compile again); the test suite's are kept",
    )
    parser.add_argument(
        "--tests",
        action="store_true",
        help="with --prune, also remove the test suite's folders its tests in this checkout "
        "do not use",
    )
    parser.set_defaults(run=_command_cache)
