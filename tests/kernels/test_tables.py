"""The evaluator's lookup tables (sim.kernels.tables, sim.core.tables) against the slow reference.

Every suit count vector a hand can hold (at most 14 tiles: 405,350 suit vectors, 31,810 honour
vectors) is checked in the slow test; the fast test checks all small vectors and a random sample.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import random
import shutil
import threading
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import table_oracle
from reference.evaluator import clear_caches
from sampling import samples

from sim.core import tables as tables_module
from sim.core.tables import load_tables
from sim.kernels import tables as builder


def _check_rows(tables, rows, honours: bool) -> None:
    add = tables.honour_add if honours else tables.suit_add
    win = tables.honour_win if honours else tables.suit_win
    unrelated = tables.honour_unrelated if honours else tables.suit_unrelated
    for key, expected_add, needed, tiles, fits in rows:
        assert tuple(int(x) for x in add[key]) == expected_add, key
        packed = int(win[key])
        assert (packed & 15, packed >> 4 & 15, packed >> 8 & 15) == needed, key
        assert packed >> 12 & 15 == tiles, key
        spread = int(unrelated[key])
        if honours:
            assert (spread,) == fits, key
        else:
            assert (spread & 3, spread >> 2 & 3, spread >> 4 & 3) == fits, key


def _seven_pair_fields(digits: np.ndarray) -> tuple[np.ndarray, ...]:
    """The four seven-pairs fields of the win words of count vectors (one per row of
    ``digits``): pairs with quads counting twice (at most 15), singles and triples, kinds
    held twice or more, singles."""
    singles, doubles, triples, fours = ((digits == c).sum(axis=1) for c in range(1, 5))
    return (
        np.minimum(doubles + triples + 2 * fours, 15),
        singles + triples,
        doubles + triples + fours,
        singles,
    )


def test_small_vectors_and_a_random_sample():
    tables = load_tables()
    rng = random.Random(5)
    suit_vectors = table_oracle.all_vectors(9, 4)
    suit_vectors += rng.sample(table_oracle.all_vectors(9, 14), samples(1500, 300))
    honour_vectors = table_oracle.all_vectors(7, 5)
    honour_vectors += rng.sample(table_oracle.all_vectors(7, 14), samples(500, 100))
    _check_rows(tables, table_oracle.expected_entries(suit_vectors, False), honours=False)
    _check_rows(tables, table_oracle.expected_entries(honour_vectors, True), honours=True)


def test_one_byte_tables_are_cut_from_the_win_words():
    """The byte rows the kernels read hold the fields of the generated win words as stored in
    the cache, and the words rebuilt from them (what the cache is written from) are those."""
    tables = load_tables()
    folder = tables_module.cache_dir()
    for prefix in ("suit", "honour"):
        win = np.load(folder / f"{prefix}_win.npy").astype(np.int64)
        rows = getattr(tables, f"{prefix}_bytes").astype(np.int64)
        any_pair = rows[builder.BYTES_STANDARD_ANY]
        np.testing.assert_array_equal(any_pair & 15, win & 15)
        np.testing.assert_array_equal(any_pair >> 4, win >> 4 & 15)
        pair_258 = rows[builder.BYTES_STANDARD_258]
        np.testing.assert_array_equal(pair_258 & 15, win & 15)
        np.testing.assert_array_equal(pair_258 >> 4, win >> 8 & 15)
        np.testing.assert_array_equal(rows[builder.BYTES_TILES], win >> 12 & 15)
        np.testing.assert_array_equal(rows[builder.BYTES_PAIRS_QUADS], win >> 16 & 255)
        np.testing.assert_array_equal(rows[builder.BYTES_PAIRS_DISTINCT], win >> 24 & 255)
        unrelated = np.load(folder / f"{prefix}_unrelated.npy")
        np.testing.assert_array_equal(rows[builder.BYTES_UNRELATED], unrelated)
        np.testing.assert_array_equal(getattr(tables, f"{prefix}_win"), win)


def test_seven_pair_fields_of_every_key():
    """Every key of at most 14 tiles (its digits base 5 are its counts, rank 0 lowest)."""
    tables = load_tables()
    for honours, n_ranks in ((False, 9), (True, 7)):
        win = (tables.honour_win if honours else tables.suit_win).astype(np.int64)
        keys = np.arange(5**n_ranks)
        digits = np.stack([keys // 5**rank % 5 for rank in range(n_ranks)], axis=1)
        held = digits.sum(axis=1) <= 14
        assert held.sum() == len(table_oracle.all_vectors(n_ranks, 14))
        packed = win[keys[held]]
        expected = _seven_pair_fields(digits[held])
        for shift, field in zip((16, 20, 24, 28), expected, strict=True):
            np.testing.assert_array_equal(packed >> shift & 15, field, f"bits {shift}")


def test_gain_rows_say_which_draw_lowers_each_add_column():
    """Every key's ``gain`` row, against the add table it is cut from: bit r of column c when
    the key holds fewer than four of rank r and one more of it needs fewer tiles added in c."""
    tables = load_tables()
    for add, first, n_ranks in (
        (tables.suit_add, 0, 9),
        (tables.honour_add, tables_module.HONOUR_GAIN, 7),
    ):
        gain = tables.gain[first : first + len(add)]
        keys = np.arange(len(add))
        for rank in range(n_ranks):
            power = 5**rank
            room = ((keys // power) % 5 < 4)[:, None]
            lowered = np.zeros(add.shape, bool)  # key + power: the key with one more of rank
            lowered[:-power] = room[:-power] & (add[power:] < add[:-power])
            np.testing.assert_array_equal((gain >> rank & 1).astype(bool), lowered, str(rank))
        assert (gain >> n_ranks == 0).all()
    assert len(tables.gain) == len(tables.suit_add) + len(tables.honour_add)


def test_the_suit_search_agrees_with_the_reference_on_a_sample():
    """The exhaustive check's oracle (``table_oracle.suit_add_row``, ``suit_wilds_needed``)
    against the reference evaluator: every vector of up to four tiles, a random sample of the
    rest, and the fullest vectors (a rank held four times, every rank held)."""
    rng = random.Random(11)
    for honours, n_ranks in ((False, 9), (True, 7)):
        vectors = table_oracle.all_vectors(n_ranks, 4)
        vectors += rng.sample(table_oracle.all_vectors(n_ranks, 14), samples(300, 60))
        vectors += [
            (4, 4, 4, 2) + (0,) * (n_ranks - 4),
            (1,) * n_ranks,
            (2,) * 7 + (0,) * (n_ranks - 7),
        ]
        for vector in vectors:
            assert table_oracle.suit_add_row(vector, honours) == table_oracle.reference_add_row(
                vector, honours
            ), (honours, vector)
            assert table_oracle.suit_wilds_needed(vector, honours) == table_oracle.reference_needed(
                vector, honours
            ), (honours, vector)
    clear_caches()


def _at_most_14(counts: list[int]) -> tuple[int, ...]:
    """The counts with tiles taken from the highest ranks down until at most 14 are left."""
    counts = list(counts)
    for rank in reversed(range(len(counts))):
        counts[rank] -= min(counts[rank], max(0, sum(counts) - 14))
    return tuple(counts)


@given(st.lists(st.integers(0, 4), min_size=9, max_size=9).map(_at_most_14), st.booleans())
@settings(max_examples=150, deadline=None)
def test_the_suit_search_agrees_with_the_reference(counts, honours):
    vector = counts[:7] if honours else counts
    assert table_oracle.suit_add_row(vector, honours) == table_oracle.reference_add_row(
        vector, honours
    )
    expected = table_oracle.reference_needed(vector, honours)
    assert table_oracle.suit_wilds_needed(vector, honours) == expected


@pytest.mark.slow
def test_every_vector_a_hand_can_hold():
    """Every vector of at most 14 tiles, its add row and wilds needed from the suit search
    (checked against the reference above), its other fields from the reference."""
    tables = load_tables()
    for honours, n_ranks in ((False, 9), (True, 7)):
        vectors = table_oracle.all_vectors(n_ranks, 14)
        chunks = [(vectors[i : i + 10_000], honours, True) for i in range(0, len(vectors), 10_000)]
        with multiprocessing.get_context("fork").Pool(2) as pool:
            for rows in pool.starmap(table_oracle.expected_entries, chunks):
                _check_rows(tables, rows, honours)


# ---------------------------------------------------------------------------------------------
# The disk cache


@pytest.fixture
def fresh_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("MJSIM_CACHE_DIR", str(tmp_path))
    tables_module.load_tables.cache_clear()
    yield tmp_path
    tables_module.load_tables.cache_clear()


def _not_built_here():
    raise AssertionError("the tables were built in this process")


@pytest.fixture(scope="module")
def built_cache(tmp_path_factory):
    """A cache folder the tables were built into, once for the module (a build takes seconds),
    and the tables that build returned."""
    root = tmp_path_factory.mktemp("built-tables")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MJSIM_CACHE_DIR", str(root))
        # built in another process (``_build_in_another_process``), never in this one
        patch.setattr(tables_module, "build_tables", _not_built_here)
        tables_module.load_tables.cache_clear()
        built = load_tables()
    tables_module.load_tables.cache_clear()
    return root, built


@pytest.fixture
def built_copy(built_cache, tmp_path, monkeypatch):
    """A copy of ``built_cache``'s folder as this test's cache, to load or to damage."""
    root, built = built_cache
    shutil.copytree(root, tmp_path, dirs_exist_ok=True)
    monkeypatch.setenv("MJSIM_CACHE_DIR", str(tmp_path))
    tables_module.load_tables.cache_clear()
    yield tmp_path, built
    tables_module.load_tables.cache_clear()


def test_a_missing_cache_is_built_in_another_process(built_cache):
    """``built_cache`` loads from an empty cache with this process's ``build_tables`` raising:
    the tables come from ``python -m sim.core.tables --if-missing``
    (``test_a_corrupt_cache_is_rebuilt`` compares them with a build in this process)."""
    root, built = built_cache
    (folder,) = root.glob("tables-*")
    assert (folder / "digests.json").is_file()
    assert built.suit_add.shape == (tables_module.SUIT_KEYS, builder.N_ADD_COLUMNS)


def test_the_build_command_leaves_a_cache_alone_and_refuses_other_arguments(built_copy):
    import subprocess
    import sys

    folder = tables_module.cache_dir()
    before = {path.name: path.stat().st_mtime_ns for path in folder.iterdir()}
    command = [sys.executable, "-m", "sim.core.tables"]
    done = subprocess.run([*command, "--if-missing"], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout == done.stderr == ""
    assert {path.name: path.stat().st_mtime_ns for path in folder.iterdir()} == before
    refused = subprocess.run([*command, "--force"], capture_output=True, text=True)
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr.strip().splitlines() == [
        "mjsim: unknown argument '--force': allowed: --if-missing"
    ]


def test_tables_typed_like_the_loaded_ones_have_their_numba_type():
    """What a cold start compiles the engine for before the tables are loaded
    (``sim.variants.session``): the same numba type, so the call with the real ones does not
    compile again."""
    import numba

    assert numba.typeof(tables_module.typed_like_tables()) == numba.typeof(load_tables())


def test_tables_are_cached_and_reloaded_identically(built_copy):
    cache, built = built_copy
    folder = tables_module.cache_dir()
    assert folder.parent == cache
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        [f"{name}.npy" for name in tables_module.GENERATED] + ["digests.json"]
    )
    loaded = load_tables()
    for name in built._fields:
        np.testing.assert_array_equal(getattr(built, name), getattr(loaded, name))
        assert not getattr(loaded, name).flags.writeable


def test_a_corrupt_cache_is_rebuilt(built_copy, capsys):
    _, reference = built_copy
    folder = tables_module.cache_dir()
    damaged = np.load(folder / "suit_win.npy")
    damaged[12345] ^= 1
    np.save(folder / "suit_win.npy", damaged)
    tables_module.load_tables.cache_clear()
    rebuilt = load_tables()
    assert "rebuilding" in capsys.readouterr().err
    np.testing.assert_array_equal(rebuilt.suit_win, reference.suit_win)
    digests = json.loads((folder / "digests.json").read_text())
    assert set(digests) == set(tables_module.GENERATED)


def test_a_cache_with_the_older_digests_loads_and_is_rewritten_with_checksums(built_copy):
    """A cache written before the CRC-32 checksums (BLAKE2b digests) loads as it is, its digests
    replaced by checksums; an older digest that does not match is refused as a checksum is."""
    _, reference = built_copy
    folder = tables_module.cache_dir()
    older = {
        name: hashlib.blake2b(np.load(folder / f"{name}.npy").data, digest_size=16).hexdigest()
        for name in tables_module.GENERATED
    }
    (folder / "digests.json").write_text(json.dumps(older))
    tables_module.load_tables.cache_clear()
    loaded = load_tables()
    np.testing.assert_array_equal(loaded.gain, reference.gain)
    rewritten = json.loads((folder / "digests.json").read_text())
    assert set(rewritten) == set(older)
    assert all(value.startswith("crc32:") and len(value) == 14 for value in rewritten.values())
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        [f"{name}.npy" for name in tables_module.GENERATED] + ["digests.json"]
    )
    older["suit_win"] = "0" * 32
    (folder / "digests.json").write_text(json.dumps(older))
    tables_module.load_tables.cache_clear()
    with pytest.raises(ValueError, match="suit_win does not match"):
        tables_module._load(folder)


def test_cache_folder_names_the_generator_version(fresh_cache):
    name = tables_module.cache_dir().name
    assert name.startswith("tables-") and len(name) == len("tables-") + 16


def test_a_load_in_the_background_is_the_load_the_engine_gets(built_copy, monkeypatch):
    """``load_tables_in_background`` loads once: a ``load_tables`` while it runs waits for it
    and returns its tables (sim.running.runner starts it before numba's cache load)."""
    loads = []
    original = tables_module._load

    def slow_load(folder):
        loads.append(threading.current_thread().name)
        time.sleep(0.3)  # still loading when the caller below asks
        return original(folder)

    monkeypatch.setattr(tables_module, "_load", slow_load)
    thread = tables_module.load_tables_in_background()
    time.sleep(0.05)
    tables = load_tables()
    thread.join()
    assert loads == ["mjsim-tables"]
    assert load_tables() is tables
    assert not tables.suit_add.flags.writeable


def test_an_error_in_the_background_load_is_raised_by_the_caller(monkeypatch):
    def broken():
        raise RuntimeError("unreadable tables")

    monkeypatch.setattr(tables_module, "_loaded", broken)
    tables_module.load_tables_in_background().join()  # says nothing in its thread
    with pytest.raises(RuntimeError, match="unreadable tables"):
        load_tables()
