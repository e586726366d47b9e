"""sim.running.runner: whole sessions per chunk, identical tables for any number of jobs, counts in
the manifest equal to the tables, and no partial output when a run fails."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from sim.core.wall import shuffled_walls, spawn_seeds
from sim.kernels import engine as E
from sim.running import runner
from sim.running.agents import agent_ids
from sim.running.config import load_config
from sim.variants.anhua import play_records, session_first_dealers


@pytest.fixture(scope="module")
def config():
    return load_config(
        "configs/anhua-seven-kings.toml",
        ["run.games=1000", "run.chunk_hands=240", "run.seed=11", "bird_count=4"],
    )


@pytest.fixture(scope="module")
def runs(config, tmp_path_factory):
    base = tmp_path_factory.mktemp("runs")
    return {jobs: runner.run(config, base / f"jobs{jobs}", jobs=jobs) for jobs in (1, 2)}


def test_chunks_hold_whole_sessions(config):
    chunks = runner.plan_chunks(config)
    assert [c.n_games for c in chunks] == [240, 240, 240, 240, 40]
    assert all(c.first_game % config.hands_per_session == 0 for c in chunks)
    assert [c.first_session for c in chunks] == [0, 30, 60, 90, 120]


@pytest.mark.engine
def test_tables_are_identical_for_any_number_of_jobs(runs):
    for name in (runner.GAMES, runner.WINS):
        assert (runs[1] / name).read_bytes() == (runs[2] / name).read_bytes()


@pytest.mark.engine
def test_manifest_and_tables_agree(runs, config):
    games = pd.read_parquet(runs[2] / runner.GAMES)
    wins = pd.read_parquet(runs[2] / runner.WINS)
    manifest = json.loads((runs[2] / runner.MANIFEST).read_text())
    assert manifest["config_hash"] == config.hash()
    assert manifest["options"]["bird_count"] == 4 and manifest["run"]["seed"] == 11
    assert manifest["counts"] == {
        "games": len(games),
        "wins": len(wins),
        "draws": int((games["outcome"] == "draw").sum()),
    }
    np.testing.assert_array_equal(games["game"], np.arange(1000))
    np.testing.assert_array_equal(games["session"], np.arange(1000) // 8)
    assert set(wins["game"]) <= set(games["game"])
    assert len(wins) == games.loc[games["outcome"] == "win", "n_winners"].sum()
    deltas = games[[f"delta_{seat}" for seat in range(4)]]
    assert (deltas.sum(axis=1) == 0).all()
    # the dealer carries through a session: each hand's dealer is the previous hand's choice
    same_session = games["session"].to_numpy()[1:] == games["session"].to_numpy()[:-1]
    np.testing.assert_array_equal(
        games["dealer"].to_numpy()[1:][same_session],
        games["next_dealer"].to_numpy()[:-1][same_session],
    )
    assert not (runs[2] / "parts").exists()


@pytest.mark.engine
def test_chunk_seeds_are_children_of_the_root_seed(config, runs):
    """Chunk 2's rows are the hands the engine plays on the walls of the root seed's child 2
    (its own children: walls, first dealers, agents), numbered from the chunk's first hand."""
    chunk = runner.plan_chunks(config)[2]
    walls_seed, dealers_seed, agents_seed = spawn_seeds(spawn_seeds(11, 3)[2], 3)
    walls = shuffled_walls(chunk.n_games, 108, walls_seed)
    dealers = session_first_dealers(chunk.n_games // 8, config.options, dealers_seed)
    records = play_records(
        config.options, walls, dealers, 8, (0,) * 4, int(agents_seed.generate_state(1)[0])
    )
    stored = pd.read_parquet(runs[1] / runner.GAMES)
    stored = stored[stored["game"] >= chunk.first_game].iloc[: chunk.n_games]
    np.testing.assert_array_equal(stored["dealer"], records[:, E.R_DEALER])
    np.testing.assert_array_equal(stored["turns"], records[:, E.R_TURNS])
    for seat in range(4):
        np.testing.assert_array_equal(stored[f"delta_{seat}"], records[:, E.R_DELTA + seat])


@pytest.mark.engine
def test_random_agents_play_in_the_engine_thread_as_in_this_one(tmp_path):
    """One job plays its chunks in a second thread; numba's generator, which the random agent
    draws from, is per thread and seeded by each chunk's play: the stored hands are the ones
    this thread plays on the same inputs."""
    config = load_config(
        "configs/anhua-seven-kings.toml",
        [
            "run.games=720",
            "run.chunk_hands=240",
            'run.agents=["random", "efficiency", "random", "self_draw"]',
            "first_dealer=random",
        ],
    )
    stored = pd.read_parquet(runner.run(config, tmp_path / "run", jobs=1) / runner.GAMES)
    agents = agent_ids(config.agents)
    for chunk in runner.plan_chunks(config):
        walls, dealers, agent_seed = runner.chunk_inputs(config, chunk)
        records = play_records(config.options, walls, dealers, 8, agents, agent_seed)
        rows = stored.iloc[chunk.first_game : chunk.first_game + chunk.n_games]
        for seat in range(4):
            np.testing.assert_array_equal(rows[f"delta_{seat}"], records[:, E.R_DELTA + seat])
        np.testing.assert_array_equal(rows["turns"], records[:, E.R_TURNS])


@pytest.mark.engine
def test_the_manifest_times_the_engine_within_the_chunks(runs):
    for path in runs.values():
        timings = json.loads((path / runner.MANIFEST).read_text())["timings"]
        assert 0 < timings["engine_seconds"] <= timings["chunk_seconds"]


@pytest.mark.engine
def test_a_failing_run_leaves_nothing(config, tmp_path, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("engine failure")

    monkeypatch.setattr(runner, "_chunk_records", broken)
    with pytest.raises(RuntimeError, match="engine failure"):
        runner.run(config, tmp_path / "out", jobs=1)
    assert list(tmp_path.iterdir()) == []


def test_refuses_to_overwrite_what_is_not_a_run(config, tmp_path):
    keep = tmp_path / "notes"
    keep.mkdir()
    (keep / "thesis.txt").write_text("precious")
    with pytest.raises(ValueError, match="exists and is not a finished run directory"):
        runner.run(config, keep)
    assert (keep / "thesis.txt").read_text() == "precious"
    with pytest.raises(ValueError, match="jobs: expected a positive integer or -1"):
        runner.run(config, tmp_path / "x", jobs=0)


def test_a_chunk_spawns_only_its_own_seeds(config, monkeypatch):
    """run.chunk_hands=1 made thousands of chunks, and chunk i spawned i + 1 seeds to use one
    (50 times slower): now each chunk makes its own child and its three grandchildren."""
    asked = []
    real = runner.spawn_seeds
    monkeypatch.setattr(runner, "spawn_seeds", lambda seed, n: asked.append(n) or real(seed, n))
    tiny = config.with_overrides(["run.games=20000", "run.chunk_hands=1"])
    chunks = runner.plan_chunks(tiny)
    assert len(chunks) == 20000 // tiny.hands_per_session
    walls, _, _ = runner.chunk_inputs(tiny, chunks[-1])
    assert asked == [3]
    expected_child = spawn_seeds(tiny.seed, len(chunks))[-1]
    walls_seed = spawn_seeds(expected_child, 3)[0]
    np.testing.assert_array_equal(walls, shuffled_walls(chunks[-1].n_games, 108, walls_seed))


def test_a_slow_compile_is_announced_with_the_variant_and_timed(capsys):
    """A warm-up still going after the delay says what it does (the variant's engine being
    compiled) and then how long it took; a quick one (a cache load) says nothing."""
    import time

    message = runner.COMPILING.format(title="安化七王麻将 Anhua Seven Kings")
    with runner._said_if_slow(message, True, after_seconds=0.05):
        time.sleep(0.3)
    lines = capsys.readouterr().err.splitlines()
    assert lines[0].startswith("mjsim: compiling the 安化七王麻将 Anhua Seven Kings engine")
    assert lines[1].startswith("mjsim: done in ")
    with runner._said_if_slow(message, True, after_seconds=5):
        pass
    with runner._said_if_slow(message, False, after_seconds=0.0):
        time.sleep(0.05)
    assert capsys.readouterr().err == ""


def test_on_a_terminal_a_slow_compile_counts_its_seconds(monkeypatch):
    """On a terminal the announcement counts the seconds gone by, on one line rewritten each
    second, and ends on that line with how long it took."""
    import io
    import time

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen = Terminal()
    monkeypatch.setattr(runner.sys, "stderr", screen)
    message = runner.COMPILING.format(title="安化七王麻将 Anhua Seven Kings")
    with runner._said_if_slow(message, True, after_seconds=0.05):
        time.sleep(1.4)
    text = screen.getvalue()
    assert text.startswith(f"{message} ...\r{message} ... 1 s"), text
    assert text.endswith(f"\r{message}: done in 1 s\n"), text
    assert text.count("\n") == 1


def test_the_chunk_plan_reads_only_the_game_count_and_the_chunk_size():
    """Determinism: the chunks are a function of the number of hands, the hands per
    session and ``run.chunk_hands`` alone; a stand-in with nothing else (no jobs, no backend)
    plans the same chunks as the full config."""
    import inspect
    from types import SimpleNamespace

    assert list(inspect.signature(runner.plan_chunks).parameters) == ["config"]
    for games, per_session, chunk_hands in ((1000, 8, 240), (7, 8, 240), (1001, 4, 1), (50, 3, 10)):
        bare = SimpleNamespace(games=games, hands_per_session=per_session, chunk_hands=chunk_hands)
        chunks = runner.plan_chunks(bare)
        assert sum(chunk.n_games for chunk in chunks) == games
        assert [chunk.index for chunk in chunks] == list(range(len(chunks)))
        assert all(chunk.first_game % per_session == 0 for chunk in chunks)


@pytest.mark.engine
def test_the_tables_do_not_depend_on_the_order_chunks_finish(config, runs, tmp_path, monkeypatch):
    """Worker processes finish chunks in any order: a pool that hands back its results last
    chunk first still gives the bytes of one job playing them in order (the engine threads'
    order: ``tests/test_backends.py``)."""
    from sim.running.backends import Backend

    pools = []

    def reversed_pool(backend, n_jobs):
        def parallel(tasks):
            finished = [function(*args, **kwargs) for function, args, kwargs in tasks]
            assert [result["index"] for result, _, _ in finished] == list(range(5))
            yield from reversed(finished)

        pools.append(n_jobs)
        return parallel

    monkeypatch.setattr(Backend, "pool", reversed_pool)
    out = runner.run(config, tmp_path / "reversed", jobs=2, backend=Backend("processes"))
    assert pools == [2]
    for name in (runner.GAMES, runner.WINS):
        assert (out / name).read_bytes() == (runs[1] / name).read_bytes()


@pytest.mark.engine
def test_the_config_of_a_run_with_seat_parameters_is_its_own(tmp_path):
    """The manifest states the seats' agent parameters (``seats``), and the config read back
    from it has them: a resume or a replay plays them, and the config hash is the run's."""
    config = load_config(
        "configs/anhua-seven-kings.toml",
        ["run.games=40", "seats.2.agent=value", "seats.2.claim_gain=2"],
    )
    path = runner.run(config, tmp_path / "run")
    assert runner.config_of_run(path) == config
    assert json.loads((path / runner.MANIFEST).read_text())["config_hash"] == config.hash()
