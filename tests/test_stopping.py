"""Stopping cleanly (sim.running.stopping and the runner): Ctrl-C, SIGTERM and SIGKILL leave no
worker process and nothing half-made at the target (only the finished chunks, kept for a resume in
the hidden ``.NAME.partial`` beside it); two runs on one target: one refuses; a read-only target,
a full disk and a file-size limit each give one line and exit 2."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sim.running import runner
from sim.running.config import load_config
from sim.running.stopping import Stopped, stop_on_signals

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "configs" / "anhua-seven-kings.toml"
LONG_RUN = ["--games", "400000", "--set", "run.chunk_hands=2000", "--jobs", "2", "--quiet"]


# --------------------------------------------------------------------------- in process


def test_a_swallowed_interrupt_is_raised_again_at_the_next_check():
    # what this process had before (default_int_handler alone; another test in the same pytest
    # worker, the notebooks' kernel client, can leave SIG_IGN): it must be back afterwards
    before = signal.getsignal(signal.SIGINT)
    with stop_on_signals() as stop:
        try:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(1)  # the handler raises here
        except KeyboardInterrupt:
            pass  # what a finaliser or a cache writer may do with it
        with pytest.raises(Stopped) as caught:
            stop.check()
    assert caught.value.exit_status == 130
    assert signal.getsignal(signal.SIGINT) is before  # restored


def test_sigterm_becomes_an_exception_that_runs_cleanups():
    with pytest.raises(Stopped) as caught, stop_on_signals():
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(1)
    assert caught.value.exit_status == 143 and "SIGTERM" in caught.value.what


@pytest.fixture(scope="module")
def config():
    return load_config(CONFIG, ["run.games=40", "run.chunk_hands=20"])


def test_an_interrupt_swallowed_during_the_compile_stops_the_run(config, tmp_path, monkeypatch):
    """Ctrl-C while numba compiles could be swallowed (and the run finish with exit 0): the
    run must stop all the same, and leave no building directory."""

    def compile_and_swallow(config):
        try:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(1)
        except KeyboardInterrupt:
            pass

    monkeypatch.setattr(runner, "warm_up", compile_and_swallow)
    with pytest.raises(Stopped):
        runner.run(config, tmp_path / "runs" / "x")
    assert list(tmp_path.iterdir()) == []  # not even the runs folder it made


def test_an_interrupt_during_the_compile_leaves_no_building_dir(config, tmp_path, monkeypatch):
    def interrupted(config):
        raise KeyboardInterrupt

    monkeypatch.setattr(runner, "warm_up", interrupted)
    with pytest.raises(KeyboardInterrupt):
        runner.run(config, tmp_path / "runs" / "x")
    assert list(tmp_path.iterdir()) == []  # not even the runs folder it made


# --------------------------------------------------------------------------- real processes


MJSIM = [sys.executable, "-m", "sim.cli", "run", str(CONFIG)]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def _start(out: Path, backend: str = "processes") -> subprocess.Popen:
    """A long ``mjsim run`` into ``out`` on ``backend``, in its own process group as a shell job
    is."""
    return subprocess.Popen(
        [*MJSIM, *LONG_RUN, "--backend", backend, "--out", str(out)],
        cwd=out.parent,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
        start_new_session=True,
    )


def _mjsim_run(out: Path, *argv: str, **kwargs) -> subprocess.CompletedProcess:
    """``mjsim run CONFIG ARGV --quiet --out OUT`` from the folder above ``out``'s parent."""
    return subprocess.run(
        [*MJSIM, *argv, "--quiet", "--out", str(out)],
        cwd=out.parent.parent,
        capture_output=True,
        text=True,
        env=ENV,
        timeout=300,
        **kwargs,
    )


def _descendants(pid: int) -> set[int]:
    """Every live process below ``pid`` (from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            children.setdefault(int(fields[1]), []).append(int(entry.name))
    found, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")  # a zombie has ended; it only waits to be reaped


def _wait_until_playing(
    process: subprocess.Popen, out: Path, backend: str = "processes", timeout: float = 240
) -> set[int]:
    """Wait until the run has kept a chunk (with ``processes``, and its two workers are there);
    the worker processes then (none with ``threads``: the engine plays in the run's own)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert process.poll() is None, process.communicate()
        parts = list(out.parent.glob(f".{out.name}.partial/parts/chunk-*.json"))
        if parts:
            workers = {pid for pid in _descendants(process.pid) if _alive(pid)}
            if len(workers) >= 2 or backend == "threads":
                return workers
        time.sleep(0.2)
    raise AssertionError("the run never started playing")


def _all_gone(pids: set[int], timeout: float = 10) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not any(_alive(pid) for pid in pids):
            return True
        time.sleep(0.2)
    return False


@pytest.fixture
def folder(tmp_path):
    """A runs folder holding a finished earlier run and a user's file, to check afterwards."""
    runs = tmp_path / "runs"
    runs.mkdir()
    (runs / "notes.txt").write_text("precious")
    return runs


@pytest.mark.engine
@pytest.mark.parametrize("backend", [pytest.param("processes", marks=pytest.mark.slow), "threads"])
@pytest.mark.parametrize(("how", "status"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_sigterm_and_ctrl_c_stop_the_workers_and_keep_only_finished_chunks(
    folder, how, status, backend
):
    """With engine threads the run ends without waiting for the chunks they are in."""
    out = folder / "x"
    process = _start(out, backend)
    try:
        workers = _wait_until_playing(process, out, backend)
        if how == signal.SIGINT:
            os.killpg(process.pid, how)  # Ctrl-C reaches the whole foreground group
        else:
            process.send_signal(how)
        _, stderr = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == status, stderr
    assert stderr.count("\n") == 1, stderr
    # the hint repeats the run's own --jobs and (where not the default) --backend
    hint = f"finish the run with: mjsim run --resume {out} --jobs 2"
    hint += " --backend processes" if backend == "processes" else ""
    assert stderr.rstrip().endswith(hint), stderr
    assert _all_gone(workers), "worker processes outlived the run"
    assert sorted(p.name for p in folder.iterdir()) == [".x.partial", "notes.txt"]


@pytest.mark.engine
@pytest.mark.parametrize("backend", [pytest.param("processes", marks=pytest.mark.slow), "threads"])
def test_sigkill_leaves_no_worker_and_the_next_run_keeps_its_chunks(folder, backend):
    out = folder / "x"
    process = _start(out, backend)
    try:
        workers = _wait_until_playing(process, out, backend)
        process.kill()
        process.wait(timeout=30)
        assert _all_gone(workers), "worker processes outlived a killed run"
    finally:
        process.kill()
        process.communicate()
    assert (folder / ".x.partial" / "parts").is_dir()  # the chunks SIGKILL left, for a resume
    result = _mjsim_run(out, "--games", "40")
    assert result.returncode == 2 and result.stderr.count("\n") == 1, result.stderr
    assert f"'mjsim run --resume {out}'" in result.stderr
    assert sorted(p.name for p in folder.iterdir()) == [".x.partial", "notes.txt"]


@pytest.mark.engine
def test_two_runs_on_one_target_one_refuses_naming_the_other(folder):
    out = folder / "x"
    first = _start(out)
    try:
        _wait_until_playing(first, out)
        second = _mjsim_run(out, "--games", "40")
        assert second.returncode == 2 and second.stdout == ""
        assert second.stderr.count("\n") == 1
        assert f"is being written by another mjsim (pid {first.pid}:" in second.stderr
        first.send_signal(signal.SIGTERM)
        first.communicate(timeout=60)
    finally:
        first.kill()
    assert sorted(p.name for p in folder.iterdir()) == [".x.partial", "notes.txt"]


# --------------------------------------------------------------------------- OS errors


def _mount_tmpfs(where: Path, options: str) -> bool:
    where.mkdir()
    result = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(where)], capture_output=True
    )
    return result.returncode == 0


@pytest.fixture
def small_disk(tmp_path):
    """A 48 KiB file system (a tmpfs), unmounted afterwards; skipped where mounting is not
    allowed (not root)."""
    where = tmp_path / "small"
    if not _mount_tmpfs(where, "size=48k"):
        pytest.skip("cannot mount a tmpfs here (needs root)")
    yield where
    subprocess.run(["umount", "-l", str(where)], check=False)


@pytest.fixture
def read_only(tmp_path):
    """A folder nothing can be written in: a read-only tmpfs when this process may mount one,
    else a folder without write permission (which only binds a process that is not root)."""
    where = tmp_path / "readonly"
    if _mount_tmpfs(where, "ro,size=64k"):
        yield where
        subprocess.run(["umount", "-l", str(where)], check=False)
        return
    if os.geteuid() == 0:
        pytest.skip("root ignores permissions and cannot mount here")
    where.chmod(0o555)
    yield where
    where.chmod(0o755)


def _run_into(out: Path, games: int, jobs: int = 2, **kwargs) -> subprocess.CompletedProcess:
    """Chunks of 2,000 hands: each writes a games table of about 40 KB."""
    argv = ["--games", str(games), "--set", "run.chunk_hands=2000", "--jobs", str(jobs)]
    return _mjsim_run(out, *argv, **kwargs)


def test_a_read_only_target_is_one_line_and_exit_2(read_only):
    result = _run_into(read_only / "x", 40)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "mjsim: error:" in result.stderr
    assert "Read-only file system" in result.stderr or "Permission denied" in result.stderr
    assert list(read_only.iterdir()) == []


@pytest.mark.engine
def test_a_full_disk_is_one_line_and_exit_2_with_nothing_left(small_disk):
    result = _run_into(small_disk / "x", 4000)  # two chunks, in two workers
    assert result.returncode == 2, result.stderr
    assert result.stdout == "" and result.stderr.count("\n") == 1, result.stderr
    assert "No space left on device" in result.stderr
    assert list(small_disk.iterdir()) == []


def test_a_file_size_limit_is_one_line_and_exit_2(tmp_path):
    (tmp_path / "runs").mkdir()
    limit = 16 * 1024  # bytes; a 2,000-hand games table is larger

    def limited():
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    result = _run_into(tmp_path / "runs" / "x", 2000, jobs=1, preexec_fn=limited)
    assert result.returncode == 2, result.stderr
    assert result.stdout == "" and result.stderr.count("\n") == 1, result.stderr
    assert "File too large" in result.stderr
    assert list((tmp_path / "runs").iterdir()) == []


def test_ctrl_c_during_a_real_compile_stops_the_run(tmp_path):
    """Ctrl-C while numba compiles (an empty cache: the first run on a machine) ends the run with
    exit 130 and one line, leaving nothing; numba's cache writer does not swallow it (the run
    would then finish with exit 0)."""
    runs = tmp_path / "runs"
    env = {**ENV, "NUMBA_CACHE_DIR": str(tmp_path / "numba-cache")}
    process = subprocess.Popen(
        [*MJSIM, "--games", "40", "--out", str(runs / "x")],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        while not list(runs.glob(".x.partial")) and time.monotonic() < deadline:
            assert process.poll() is None, process.communicate()
            time.sleep(0.1)
        time.sleep(3)  # well into the compile, which takes minutes on an empty cache
        os.killpg(process.pid, signal.SIGINT)
        _, stderr = process.communicate(timeout=120)
    finally:
        process.kill()
    assert process.returncode == 130, stderr
    assert stderr.strip().splitlines() == [
        "mjsim: interrupted (Ctrl-C); nothing half-made was left behind"
    ]
    assert not runs.exists()


def test_workers_start_with_ctrl_c_ignored():
    """The pool's initializer ran in every worker: Ctrl-C is the parent's to handle."""
    from joblib import delayed

    from sim.running.runner import worker_pool

    signal.signal(signal.SIGINT, signal.default_int_handler)  # as a fresh process has it
    handlers = set(worker_pool(2)(delayed(signal.getsignal)(signal.SIGINT) for _ in range(6)))
    assert handlers == {signal.SIG_IGN}
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # not in this process
