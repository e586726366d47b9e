"""Output directories: the one way every command that writes a directory gets it.

    with output_directory(out, RUN) as building:
        ...                              # write everything into ``building``
    # on leaving without an error, ``building`` has become ``out``

A run, a sweep (and every command to come that writes a directory) goes through
:func:`output_directory`, which guarantees three things:

* **It deletes only what it made.** ``out`` is resolved (symlinks and ``..`` included) before
  anything is written, and refused when it is the current directory or one of its parents, the
  runs folder itself, or an existing folder that is neither empty nor a finished directory of the
  same kind (one whose marker file, e.g. ``manifest.json``, holds a JSON object). A finished one
  is replaced only with ``replace=True``, and then by moving it aside and removing it once the
  new one is in place.
* **One writer per directory.** The target is locked (``flock`` on ``.NAME.lock`` beside it, held
  until the directory is in place; the kernel releases it when the process dies, even by
  SIGKILL). A second writer refuses at once, naming the process that holds the lock.
* **Nothing half-made.** Everything is written into ``.NAME.building-PID`` beside the target and
  renamed into place when complete; an error or an interrupt removes it. What a killed process
  left (``.NAME.building-*``, ``.NAME.old-*``) is removed by the next writer of that target,
  which holds the lock, so no live process owns it.

Runs and sweeps, which can be resumed, use :func:`resumable_directory` instead: the same checks
and lock, but built in ``.NAME.partial`` beside the target, which an interrupt (Ctrl-C,
SIGTERM) or a kill leaves in place when it holds finished work, for ``--resume`` to finish; the
target itself is untouched until the finished directory is renamed onto it. A fresh writer
refuses to start over such work (one line saying how to resume, or to remove it). Its marker
file (``manifest.json``, ``sweep.json``) says ``"complete": false`` until the end, so it is never
taken for a finished directory.

Labels (``label = "..."`` in a config) name a folder under ``runs/``: :func:`plain_name` allows
only plain names. Every refusal is a :class:`ValueError` with one line naming the option, the
path and what is allowed.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import re
import shutil
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

RUNS_FOLDER = Path("runs")
"""Where ``mjsim run`` and ``mjsim sweep`` put ``<label>`` when no ``--out`` is given."""


@dataclass(frozen=True)
class DirectoryKind:
    """A kind of output directory, recognised by its marker file once finished."""

    name: str
    marker: str


RUN = DirectoryKind("run", "manifest.json")
SWEEP = DirectoryKind("sweep", "sweep.json")


PARTIAL_SUFFIX = ".partial"


class TargetBusy(ValueError):
    """Another process is writing the same output directory."""


def plain_name(name: object, key: str = "label") -> str:
    """``name`` when it is a plain folder name: not empty, not ``.`` or ``..``, no path separator,
    not absolute, no NUL. Otherwise a one-line ValueError naming ``key``."""
    allowed = "a plain folder name (not empty, '.' or '..'; no '/' or '\\'; no outer spaces)"
    if not isinstance(name, str):
        raise ValueError(f"{key}: expected {allowed}, got {name!r}")
    bad = (
        name.strip() in ("", ".", "..")
        or any(c in name for c in "/\\\0")
        or os.path.isabs(name)
        or name != name.strip()
    )
    if bad:
        raise ValueError(f"{key}: {name!r} is not allowed; expected {allowed}")
    return name


def is_finished(directory: Path, kind: DirectoryKind) -> bool:
    """Whether ``directory`` holds a finished ``kind``: its marker file is a JSON object that
    does not say ``"complete": false`` (the marker of an interrupted, resumable one)."""
    try:
        document = json.loads((directory / kind.marker).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(document, dict) and document.get("complete", True) is not False


def partial_path(target: Path) -> Path:
    """Where a resumable writer of ``target`` builds it: ``.NAME.partial`` beside it."""
    return target.with_name(f".{target.name}{PARTIAL_SUFFIX}")


def target_of(given: str | Path) -> Path:
    """The target a ``--resume`` path names: ``runs/x``, or its ``runs/.x.partial`` itself."""
    path = Path(given)
    name = path.name
    if (
        name.startswith(".")
        and name.endswith(PARTIAL_SUFFIX)
        and len(name) > len(PARTIAL_SUFFIX) + 1
    ):
        return path.with_name(name[1 : -len(PARTIAL_SUFFIX)])
    return path


def resolve_target(
    out: str | Path, kind: DirectoryKind, replace: bool = True, option: str = "--out"
) -> Path:
    """The absolute, symlink-free path ``out`` names, after the checks of the module docstring;
    a one-line ValueError naming ``option`` and ``out`` when it is refused."""
    shown = f"{option} {out}"
    if str(out).strip() == "":
        raise ValueError(f"{option}: an empty path is not allowed; name a new folder")
    # resolve() follows symlinks and applies '..' to what the path will be once its missing
    # parents are made: 'new/..' is the current directory even before 'new' exists
    given = Path(out).expanduser()
    if given.is_symlink() and not given.exists():  # writing through it would be a surprise
        raise ValueError(f"{shown}: is a symlink to nothing; name a new folder")
    target = given.resolve()
    here = Path.cwd().resolve()
    if target == here:
        raise ValueError(f"{shown}: is the current directory; name a new folder, e.g. runs/x")
    if target in here.parents:
        raise ValueError(f"{shown}: is a parent of the current directory; name a new folder")
    if target == RUNS_FOLDER.resolve():
        raise ValueError(f"{shown}: is the runs folder itself; name a folder in it, e.g. runs/x")
    if not target.exists():
        return target
    if not target.is_dir():
        raise ValueError(f"{shown}: exists and is not a directory")
    if is_finished(target, kind):
        if not replace:
            raise ValueError(
                f"{shown}: holds a finished {kind.name} already; replace=True overwrites it"
            )
        return target
    if any(target.iterdir()):
        raise ValueError(
            f"{shown}: exists and is not a finished {kind.name} directory (no {kind.marker}); "
            f"name a new folder, or remove this one yourself"
        )
    return target


def _debris_pattern(target: Path) -> re.Pattern:
    return re.compile(rf"\.{re.escape(target.name)}\.(building|old)-\d+")


def remove_debris(target: Path) -> list[Path]:
    """Remove what killed writers of ``target`` left beside it; the caller holds the lock."""
    pattern = _debris_pattern(target)
    removed = []
    for entry in target.parent.iterdir():
        if pattern.fullmatch(entry.name):
            shutil.rmtree(entry, ignore_errors=True)
            removed.append(entry)
    return removed


class TargetLock:
    """An exclusive ``flock`` on ``.NAME.lock`` beside ``target``; the file names the holder.
    ``shown``: how errors name the target (``--out runs/x``)."""

    def __init__(self, target: Path, shown: str):
        self.path = target.parent / f".{target.name}.lock"
        self.shown = shown
        self.descriptor: int | None = None

    def acquire(self) -> TargetLock:
        while True:
            descriptor = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as error:
                os.close(descriptor)
                if error.errno not in (errno.EAGAIN, errno.EACCES):
                    raise
                raise TargetBusy(
                    f"{self.shown}: is being written by another mjsim ({self._holder()}); "
                    f"wait for it to finish or write elsewhere"
                ) from None
            # the holder before us removes the file before it unlocks: if it did so between our
            # open and our lock, we locked a file nobody else will see; open the new one again
            try:
                same = os.stat(self.path).st_ino == os.fstat(descriptor).st_ino
            except FileNotFoundError:
                same = False
            if same:
                break
            os.close(descriptor)
        os.ftruncate(descriptor, 0)
        command = " ".join(sys.argv) if sys.argv and sys.argv[0] else "python"
        os.write(descriptor, f"pid {os.getpid()}: {command}\n".encode())
        self.descriptor = descriptor
        return self

    def _holder(self) -> str:
        try:
            text = self.path.read_text(encoding="utf-8", errors="replace").strip()
        except OSError:
            text = ""
        return text or "pid unknown"

    def release(self) -> None:
        if self.descriptor is None:
            return
        try:
            self.path.unlink(missing_ok=True)
        finally:
            os.close(self.descriptor)
            self.descriptor = None


def swap_into_place(building: Path, target: Path) -> None:
    """Rename the finished ``building`` to ``target``; a finished directory there is moved
    aside first and removed only once the new one is in place."""
    old = None
    if target.exists():
        old = target.with_name(f".{target.name}.old-{os.getpid()}")
        shutil.rmtree(old, ignore_errors=True)
        os.replace(target, old)
    try:
        os.replace(building, target)
    except BaseException:
        if old is not None:
            os.replace(old, target)
        raise
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


@contextmanager
def output_directory(
    out: str | Path, kind: DirectoryKind, *, replace: bool = True, option: str = "--out"
) -> Iterator[Path]:
    """Yield an empty building directory that becomes ``out`` when the block ends without an
    error (see the module docstring); errors and interrupts leave ``out`` as it was. An OSError
    (disk full, read-only folder, file-size limit) comes out naming ``out``."""
    target = resolve_target(out, kind, replace, option)
    made = [folder for folder in target.parents if not folder.exists()]  # deepest first
    try:
        with _locked(target, f"{option} {out}"):
            resolve_target(out, kind, replace, option)  # again: another writer may have finished
            for entry in remove_debris(target):
                print(f"mjsim: removed {entry}, left by an interrupted run", file=sys.stderr)
            building = target.with_name(f".{target.name}.building-{os.getpid()}")
            try:
                building.mkdir()
                yield building
                swap_into_place(building, target)
            except BaseException:
                shutil.rmtree(building, ignore_errors=True)
                raise
    except BaseException as error:
        _after_failure(made, error, out)
        raise


def _after_failure(made: list[Path], error: BaseException, out: str | Path) -> None:
    """What a writer that failed undoes: the parents this call made (``made``, deepest first),
    while they are still empty; an OS error is raised again as one naming ``out``. Other errors
    go on as they were (the caller re-raises)."""
    for folder in made:
        try:
            folder.rmdir()
        except OSError:
            break
    code = os_error_code(error) if isinstance(error, OSError) else None
    if code is not None:
        raise OSError(code, os.strerror(code), str(out)) from error


@contextmanager
def resumable_directory(
    out: str | Path,
    kind: DirectoryKind,
    *,
    resume: bool = False,
    replace: bool = True,
    worth_keeping: Callable[[Path], bool] = lambda partial: True,
    option: str = "--out",
    reopen: bool = False,
) -> Iterator[Path]:
    """Like :func:`output_directory`, for work that can be resumed (runs and sweeps): yield the
    building directory ``.NAME.partial`` beside ``out``, which becomes ``out`` when the block
    ends without an error.

    An interrupt (Ctrl-C, SIGTERM) keeps it when ``worth_keeping(partial)`` (some work is
    complete in it), and so does SIGKILL, whatever it interrupts; ``resume=True`` continues in
    it. A fresh writer refuses to start while one worth keeping is there (it would throw away
    finished work) and removes one that is not. An error removes a partial directory this call
    made, and keeps one it resumed (what was finished before is not this call's to lose).
    ``reopen``: ``resume=True`` may also continue a finished ``out`` (a study tuned for more
    trials), which is copied to the building directory first."""
    target = resolve_target(out, kind, replace or resume, option)
    shown = f"{option} {out}"
    made = [folder for folder in target.parents if not folder.exists()]  # deepest first
    try:
        with _locked(target, shown):
            resolve_target(out, kind, replace or resume, option)
            for entry in remove_debris(target):
                print(f"mjsim: removed {entry}, left by an interrupted run", file=sys.stderr)
            partial = partial_path(target)
            if reopen and resume and not partial.exists() and is_finished(target, kind):
                # a copy, so that an interrupt leaves the finished one as it was
                shutil.copytree(target, partial, symlinks=True)
            _check_partial(partial, out, kind, resume, worth_keeping, shown)
            partial.mkdir(exist_ok=resume)
            try:
                yield partial
                swap_into_place(partial, target)
            except BaseException as error:
                interrupted = isinstance(error, KeyboardInterrupt)
                if not resume and not (interrupted and worth_keeping(partial)):
                    shutil.rmtree(partial, ignore_errors=True)
                raise
    except BaseException as error:
        _after_failure(made, error, out)
        raise


def _check_partial(partial: Path, out, kind, resume: bool, worth_keeping, shown: str) -> None:
    """Refuse what cannot go on: nothing to resume, or a fresh start over finished work."""
    command = f"mjsim {kind.name} --resume {out}"
    if resume:
        if not partial.is_dir():
            raise ValueError(
                f"--resume {out}: no interrupted {kind.name} to resume (no {partial.name} beside "
                f"it); start it afresh without --resume"
            )
        return
    if partial.exists():
        if worth_keeping(partial):
            raise ValueError(
                f"{shown}: an interrupted {kind.name} is kept in {partial}; finish it with "
                f"'{command}', or remove that folder to start again"
            )
        shutil.rmtree(partial)


@contextmanager
def locked(directory: str | Path) -> Iterator[Path]:
    """Hold the lock a writer of ``directory`` takes (see :class:`TargetLock`) while writing
    into it, e.g. a report into a run directory that a new run may be replacing."""
    target = Path(directory).resolve()
    with _locked(target, str(directory)):
        yield target


@contextmanager
def _locked(target: Path, shown: str) -> Iterator[None]:
    target.parent.mkdir(parents=True, exist_ok=True)
    lock = TargetLock(target, shown).acquire()
    try:
        yield
    finally:
        lock.release()


def os_error_code(error: OSError) -> int | None:
    """The errno of an OSError, also where a library wrote it only into the message (pyarrow:
    "Error writing bytes to file. Detail: [errno 28] No space left on device")."""
    if error.errno:
        return error.errno
    found = re.search(r"\[errno (\d+)\]", str(error), re.IGNORECASE)
    return int(found.group(1)) if found else None
