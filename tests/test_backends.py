"""sim.running.backends and the runner's local dispatch: a run's chunks play in engine threads of
the main process by default (``--backend threads``) or in worker processes (``--backend
processes``); the tables are the same bytes either way, whatever order the threads finish chunks
in; an engine thread's error reaches the run; a stopped run does not wait for the engine."""

from __future__ import annotations

import json
import threading
import time

import pytest
from cli_in_process import mjsim

from sim.running import runner
from sim.running.backends import BACKENDS, Backend
from sim.running.config import load_config

ENGINE_THREAD = "mjsim-engine-"


@pytest.fixture(scope="module")
def config():
    """Random agents and random first dealers: each chunk must seed the generator of the thread
    that plays it (numba's is per thread), or two threads would draw other hands."""
    return load_config(
        "configs/anhua-seven-kings.toml",
        [
            "run.games=1200",
            "run.chunk_hands=200",
            "run.seed=5",
            'run.agents=["random", "efficiency", "random", "self_draw"]',
            "first_dealer=random",
        ],
    )


@pytest.fixture(scope="module")
def one_job(config, tmp_path_factory):
    return runner.run(config, tmp_path_factory.mktemp("one") / "run", jobs=1)


def _same_tables(one, other) -> None:
    for name in (runner.GAMES, runner.WINS):
        assert (one / name).read_bytes() == (other / name).read_bytes(), name


@pytest.mark.engine
@pytest.mark.parametrize("name", ["threads", "processes"])
def test_two_jobs_on_either_local_backend_write_the_bytes_of_one(config, one_job, tmp_path, name):
    out = runner.run(config, tmp_path / name, jobs=2, backend=Backend(name))
    _same_tables(out, one_job)
    manifest = runner.read_manifest(out)
    assert manifest["backend"] == name and manifest["jobs"] == 2
    assert manifest["counts"] == runner.read_manifest(one_job)["counts"]


def test_the_default_backend_plays_chunks_in_threads_here():
    assert Backend().name == "threads" and BACKENDS[0] == "threads"
    assert Backend("threads").plays_chunks_here(2) and Backend("threads").plays_chunks_here(1)
    assert Backend("processes").plays_chunks_here(1)  # one job starts no pool
    assert not Backend("processes").plays_chunks_here(2)
    assert not Backend("dask").plays_chunks_here(1)
    assert all(Backend(name).is_local for name in ("threads", "processes"))


def _recording_chunks(monkeypatch, delay_of=lambda index: 0.0):
    """``_chunk_records`` that notes the thread each chunk played in and when it was done, after
    sleeping ``delay_of(index)`` seconds first."""
    played: dict[int, tuple[str, float]] = {}
    original = runner._chunk_records

    def chunk_records(config, chunk, *made):
        time.sleep(delay_of(chunk.index))
        result = original(config, chunk, *made)
        played[chunk.index] = (threading.current_thread().name, time.perf_counter())
        return result

    monkeypatch.setattr(runner, "_chunk_records", chunk_records)
    return played


@pytest.mark.engine
def test_threads_finishing_chunks_out_of_order_give_the_same_bytes(
    config, one_job, tmp_path, monkeypatch
):
    """Chunk 0 is held back until the other thread has played the next ones: the chunks are
    finished out of order, by two threads, and the tables are still those of one job."""
    played = _recording_chunks(monkeypatch, lambda index: 1.5 if index == 0 else 0.0)
    out = runner.run(config, tmp_path / "late", jobs=2)
    _same_tables(out, one_job)
    assert sorted(played) == list(range(6))
    assert len({thread for thread, _ in played.values()}) == 2
    assert all(thread.startswith(ENGINE_THREAD) for thread, _ in played.values())
    finished_order = sorted(played, key=lambda index: played[index][1])
    assert finished_order[0] != 0, "chunk 0 was meant to finish after others"


@pytest.mark.engine
def test_the_walls_are_made_beside_the_engine_not_in_its_thread(
    config, one_job, tmp_path, monkeypatch
):
    """Each chunk's walls are made by the thread that hands it to the engine threads (while
    they play the chunks before), none in an engine thread; the tables are those of one job."""
    made_in: dict[int, str] = {}
    original = runner.chunk_inputs

    def noting_inputs(config, chunk):
        made_in[chunk.index] = threading.current_thread().name
        return original(config, chunk)

    monkeypatch.setattr(runner, "chunk_inputs", noting_inputs)
    for jobs in (1, 2):
        made_in.clear()
        out = runner.run(config, tmp_path / f"jobs{jobs}", jobs=jobs)
        _same_tables(out, one_job)
        assert set(made_in.values()) == {threading.main_thread().name}
        assert sorted(made_in) == list(range(6))


@pytest.mark.engine
def test_an_error_in_an_engine_thread_stops_the_run_and_leaves_nothing(
    config, tmp_path, monkeypatch
):
    original = runner._chunk_records

    def failing(config, chunk, *made):
        if chunk.index == 3:
            raise RuntimeError("engine failed on chunk 3")
        return original(config, chunk, *made)

    monkeypatch.setattr(runner, "_chunk_records", failing)
    with pytest.raises(RuntimeError, match="engine failed on chunk 3"):
        runner.run(config, tmp_path / "out", jobs=2)
    assert list(tmp_path.iterdir()) == []
    _engine_threads_end()


def _engine_threads_end(seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while any(t.name.startswith(ENGINE_THREAD) for t in threading.enumerate()):
        assert time.monotonic() < deadline, "an engine thread outlived its run"
        time.sleep(0.01)


@pytest.mark.engine
def test_a_stopped_run_does_not_wait_for_the_chunks_still_playing(config, tmp_path, monkeypatch):
    """Stopped (here by the chunk callback, as Ctrl-C stops the main thread) while both engine
    threads are inside a chunk that cannot be interrupted: the run ends at once, keeps the
    finished chunks and says how to resume; the threads end when their chunks are done, and
    play none of the chunks that were still waiting."""
    release = threading.Event()
    original = runner._chunk_records
    started = []

    def held(config, chunk, *made):
        started.append(chunk.index)
        if chunk.index >= 2:
            release.wait(60)  # an engine kernel does not see the interrupt
        return original(config, chunk, *made)

    def stop_after_first(result):
        if result["index"] == 1:
            raise KeyboardInterrupt

    monkeypatch.setattr(runner, "_chunk_records", held)
    began = time.perf_counter()
    with pytest.raises(KeyboardInterrupt) as stopped:
        runner.run(config, tmp_path / "x", jobs=2, on_chunk=stop_after_first)
    assert time.perf_counter() - began < 30
    assert "mjsim run --resume" in stopped.value.what_next
    release.set()
    _engine_threads_end()
    # 0 and 1 played, 2 (and 3, once its thread took it) held; 4 was waiting, 5 never given
    assert {0, 1, 2} <= set(started) <= {0, 1, 2, 3}, "chunks were played after the stop"
    resumed = runner.run(None, tmp_path / "x", jobs=2, resume=True)
    assert runner.read_manifest(resumed)["resumed_chunks"] == 2


@pytest.mark.engine
def test_the_manifest_times_the_main_thread(one_job):
    timings = runner.read_manifest(one_job)["timings"]
    assert 0 < timings["main_thread_cpu_seconds"] <= timings["play_seconds"] + 0.01


@pytest.mark.engine
def test_the_cli_takes_every_backend_and_refuses_others(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    config = "configs/anhua-seven-kings.toml"
    root = runner.Path(runner.__file__).resolve().parents[2]
    for name in ("threads", "processes"):
        done = mjsim(
            capsys, "run", str(root / config), "--games", "40", "--jobs", "2", "--quiet",
            "--backend", name, "--out", name,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert json.loads((tmp_path / name / runner.MANIFEST).read_text())["backend"] == name
    refused = mjsim(capsys, "run", str(root / config), "--backend", "fibres", "--out", "no")
    assert refused.returncode == 2 and "--backend" in refused.stderr
    assert "threads" in refused.stderr and not (tmp_path / "no").exists()


@pytest.mark.engine
@pytest.mark.parametrize("name", ["wengan-4p", "anqing"])
def test_every_variant_plays_the_same_bytes_in_two_engine_threads(name, tmp_path):
    """Weng'an's and Anqing's engines in two threads side by side: the bytes of one job."""
    config = load_config(
        f"configs/{name}.toml",
        [
            "run.games=480",
            "run.chunk_hands=80",
            "run.seed=3",
            'run.agents=["random", "efficiency", "random", "efficiency"]',
        ],
    )
    one = runner.run(config, tmp_path / "one", jobs=1)
    two = runner.run(config, tmp_path / "two", jobs=2)
    _same_tables(one, two)
    assert runner.read_manifest(two)["counts"]["games"] == 480
