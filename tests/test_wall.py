"""Shuffled walls, seeds and the deal (sim/core/wall.py)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sim.core.tiles import N_KINDS
from sim.core.wall import (
    TILES_108,
    TILES_136,
    child_seed,
    deal,
    deal_size,
    shuffled_walls,
    spawn_seeds,
    tile_set,
)

# ------------------------------------------------------------------------------------------------
# Chi-square p-value without scipy (not a project dependency)
# ------------------------------------------------------------------------------------------------


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for X ~ chi-square(df): 1 - regularised lower gamma P(df/2, x/2), by its series.

    The series converges for every x; double precision is ample for p-values down to ~1e-12.
    """
    a, z = df / 2.0, x / 2.0
    if z <= 0:
        return 1.0
    term = 1.0 / a
    total = term
    n = 1
    while term > total * 1e-17 and n < 100_000:
        term *= z / (a + n)
        total += term
        n += 1
    lower = math.exp(a * math.log(z) - z - math.lgamma(a)) * total
    return max(0.0, 1.0 - lower)


def chi2_pvalue(observed: np.ndarray, expected: np.ndarray) -> float:
    stat = float(((observed - expected) ** 2 / expected).sum())
    return chi2_sf(stat, observed.size - 1)


@pytest.mark.parametrize(
    ("x", "df", "p"),
    [(3.841459, 1, 0.05), (124.342113, 100, 0.05), (2.0, 2, math.exp(-1)), (0.0, 5, 1.0)],
)
def test_chi2_sf_helper(x: float, df: int, p: float) -> None:
    assert chi2_sf(x, df) == pytest.approx(p, rel=1e-5)


# ------------------------------------------------------------------------------------------------
# Tile sets
# ------------------------------------------------------------------------------------------------


def test_tile_sets() -> None:
    assert TILES_108.dtype == np.int8 and TILES_136.dtype == np.int8
    assert np.bincount(TILES_108).tolist() == [4] * 27
    assert np.bincount(TILES_136).tolist() == [4] * 34
    assert (np.diff(TILES_136) >= 0).all()
    assert tile_set(108) is TILES_108 and tile_set(136) is TILES_136
    with pytest.raises(ValueError):
        TILES_108[0] = 5  # shared constants are read-only


@pytest.mark.parametrize("bad", [0, 112, 144, "108", None])
def test_tile_set_rejects(bad: object) -> None:
    with pytest.raises(ValueError, match="108 or 136"):
        tile_set(bad)  # type: ignore[arg-type]


# ------------------------------------------------------------------------------------------------
# Walls
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("n_tiles", [108, 136])
def test_walls_are_permutations(n_tiles: int) -> None:
    walls = shuffled_walls(500, n_tiles, seed=11)
    assert walls.shape == (500, n_tiles) and walls.dtype == np.int8
    assert walls.flags.c_contiguous and walls.flags.writeable
    # Every row holds each kind exactly 4 times.
    assert (np.sort(walls, axis=1) == tile_set(n_tiles)).all()
    # And rows are actually shuffled, and differ from each other.
    assert not (walls == tile_set(n_tiles)).all(axis=1).any()
    assert len({row.tobytes() for row in walls}) == 500


def test_same_seed_same_walls() -> None:
    a = shuffled_walls(200, 136, seed=42)
    assert np.array_equal(a, shuffled_walls(200, 136, seed=42))
    # An int seed and the SeedSequence built from it are the same stream.
    assert np.array_equal(a, shuffled_walls(200, 136, seed=np.random.SeedSequence(42)))
    assert not np.array_equal(a, shuffled_walls(200, 136, seed=43))


def test_zero_walls() -> None:
    assert shuffled_walls(0, 108, seed=0).shape == (0, 108)


@pytest.mark.parametrize(
    ("kwargs", "exc", "msg"),
    [
        ({"n_walls": -1}, ValueError, "n_walls"),
        ({"n_walls": 2.0}, TypeError, "n_walls"),
        ({"n_walls": True}, TypeError, "n_walls"),
        ({"n_tiles": 100}, ValueError, "108 or 136"),
        ({"seed": None}, ValueError, "seed"),
        ({"seed": -5}, ValueError, "seed"),
        ({"seed": 1.5}, TypeError, "seed"),
    ],
)
def test_shuffled_walls_validation(kwargs: dict, exc: type, msg: str) -> None:
    args = {"n_walls": 3, "n_tiles": 108, "seed": 1} | kwargs
    with pytest.raises(exc, match=msg):
        shuffled_walls(**args)


# ------------------------------------------------------------------------------------------------
# Seeds
# ------------------------------------------------------------------------------------------------


def test_spawn_seeds_deterministic_and_prefix_stable() -> None:
    few = spawn_seeds(2024, 3)
    many = spawn_seeds(2024, 10)
    assert len(few) == 3 and len(many) == 10
    for a, b in zip(few, many, strict=False):
        assert np.array_equal(shuffled_walls(5, 108, a), shuffled_walls(5, 108, b))
    # Children differ from each other and from the root.
    batches = {shuffled_walls(5, 108, s).tobytes() for s in many}
    batches.add(shuffled_walls(5, 108, 2024).tobytes())
    assert len(batches) == 11
    assert spawn_seeds(2024, 0) == []


def test_spawn_seeds_ignores_earlier_spawns() -> None:
    root = np.random.SeedSequence(7)
    first = spawn_seeds(root, 2)
    root.spawn(5)  # advances root's own spawn counter; spawn_seeds must not care
    again = spawn_seeds(root, 2)
    assert [s.spawn_key for s in first] == [s.spawn_key for s in again] == [(0,), (1,)]
    assert all(
        np.array_equal(shuffled_walls(3, 136, a), shuffled_walls(3, 136, b))
        for a, b in zip(first, again, strict=True)
    )


def test_spawn_seeds_of_a_child_nest() -> None:
    child = spawn_seeds(1, 3)[2]
    grand = spawn_seeds(child, 2)
    assert [g.spawn_key for g in grand] == [(2, 0), (2, 1)]
    assert grand[0].entropy == child.entropy


def test_spawn_seeds_validation() -> None:
    with pytest.raises(ValueError, match="n"):
        spawn_seeds(1, -1)
    with pytest.raises(ValueError, match="seed"):
        spawn_seeds(None, 2)  # type: ignore[arg-type]


# ------------------------------------------------------------------------------------------------
# Uniformity (chi-square; thresholds loose so the test is robust, seeds fixed so it is stable)
# ------------------------------------------------------------------------------------------------

N_UNIFORMITY = 20_000


@pytest.mark.parametrize("n_tiles", [108, 136])
def test_position_of_a_tile_is_uniform(n_tiles: int) -> None:
    walls = shuffled_walls(N_UNIFORMITY, n_tiles, seed=123)
    kind = 4  # 5m
    observed = (walls == kind).sum(axis=0).astype(float)  # walls with a 5m at each position
    expected = np.full(n_tiles, N_UNIFORMITY * 4 / n_tiles)
    # Four copies per wall make positions slightly negatively correlated, which only lowers the
    # statistic: the test stays valid (conservative).
    assert chi2_pvalue(observed, expected) > 1e-4


@pytest.mark.parametrize("position", [0, 1, 53, 107])
def test_kind_at_a_position_is_uniform(position: int) -> None:
    walls = shuffled_walls(N_UNIFORMITY, 108, seed=456)
    observed = np.bincount(walls[:, position], minlength=27).astype(float)
    expected = np.full(27, N_UNIFORMITY / 27)
    assert chi2_pvalue(observed, expected) > 1e-4


def test_adjacent_positions_are_independent() -> None:
    # P(wall[0] and wall[1] have the same kind) = 3/107 for a uniform 108-tile wall.
    walls = shuffled_walls(N_UNIFORMITY, 108, seed=789)
    same = int((walls[:, 0] == walls[:, 1]).sum())
    p = 3 / 107
    observed = np.array([same, N_UNIFORMITY - same], dtype=float)
    expected = np.array([p, 1 - p]) * N_UNIFORMITY
    assert chi2_pvalue(observed, expected) > 1e-4


# ------------------------------------------------------------------------------------------------
# Deal
# ------------------------------------------------------------------------------------------------


def reference_deal(wall: np.ndarray, n_players: int, hand_size: int, extra: int, dealer: int):
    """Slow per-wall deal straight from the documented order."""
    out = np.zeros((n_players, N_KINDS), dtype=np.int64)
    for seat in range(n_players):
        for k in wall[hand_size * seat : hand_size * (seat + 1)]:
            out[seat, k] += 1
    for k in wall[hand_size * n_players : hand_size * n_players + extra]:
        out[dealer, k] += 1
    return out


@pytest.mark.parametrize(
    ("n_tiles", "n_players", "hand_size", "extra", "dealer"),
    [
        (108, 4, 13, 1, 0),
        (108, 3, 13, 1, 0),
        (136, 4, 13, 1, 2),
        (136, 2, 13, 0, 1),
        (108, 4, 7, 3, 3),
    ],
)
def test_deal_matches_wall_slices(
    n_tiles: int, n_players: int, hand_size: int, extra: int, dealer: int
) -> None:
    walls = shuffled_walls(300, n_tiles, seed=5)
    counts = deal(walls, n_players, hand_size=hand_size, dealer_extra=extra, dealer=dealer)
    assert counts.shape == (300, n_players, N_KINDS) and counts.dtype == np.uint8
    sizes = np.full(n_players, hand_size)
    sizes[dealer] += extra
    assert (counts.sum(axis=2) == sizes).all()
    # Together the hands are exactly the first deal_size tiles of each wall.
    n_dealt = deal_size(n_players, hand_size, extra)
    first = np.stack([np.bincount(w[:n_dealt], minlength=N_KINDS) for w in walls])
    assert np.array_equal(counts.sum(axis=1), first)
    assert counts.max() <= 4
    for i in range(0, 300, 37):
        ref = reference_deal(walls[i], n_players, hand_size, extra, dealer)
        assert np.array_equal(counts[i], ref)


def test_deal_known_wall() -> None:
    wall = np.arange(54, dtype=np.int8)[None, :] % 34
    counts = deal(wall, 4)
    assert np.flatnonzero(counts[0, 0]).tolist() == [*range(13), 18]  # tile 52 is kind 18
    assert np.flatnonzero(counts[0, 1]).tolist() == list(range(13, 26))
    assert deal_size(4) == 53 and deal_size(3) == 40 and deal_size(4, dealer_extra=0) == 52


def test_deal_zero_walls() -> None:
    assert deal(np.zeros((0, 108), dtype=np.int8), 4).shape == (0, 4, 34)


@pytest.mark.parametrize(
    ("walls", "kwargs", "msg"),
    [
        (np.zeros(108, dtype=np.int8), {}, "2-D"),
        (np.zeros((2, 108)), {}, "integer dtype"),
        (np.zeros((2, 50), dtype=np.int8), {}, "needs 53 tiles"),
        (np.full((2, 108), 34, dtype=np.int8), {}, "outside 0-33"),
        (np.full((2, 108), -1, dtype=np.int8), {}, "outside 0-33"),
        (np.zeros((2, 108), dtype=np.int8), {"n_players": 0}, "n_players"),
        (np.zeros((2, 108), dtype=np.int8), {"dealer": 4}, "dealer"),
        (np.zeros((2, 108), dtype=np.int8), {"dealer_extra": -1}, "dealer_extra"),
    ],
)
def test_deal_validation(walls: np.ndarray, kwargs: dict, msg: str) -> None:
    args = {"n_players": 4} | kwargs
    with pytest.raises(ValueError, match=msg):
        deal(walls, **args)


def test_child_seed_is_the_child_spawn_seeds_makes() -> None:
    """Chunk i of a run needs child i only: child_seed makes it alone (a run of many small
    chunks spawned i + 1 seeds for chunk i, quadratic in the chunks), and it is the same seed."""
    for seed in (0, 2024, spawn_seeds(7, 3)[2]):
        many = spawn_seeds(seed, 40)
        for index in (0, 1, 17, 39):
            child = child_seed(seed, index)
            assert child.spawn_key == many[index].spawn_key and child.entropy == many[index].entropy
            np.testing.assert_array_equal(child.generate_state(4), many[index].generate_state(4))
    with pytest.raises(ValueError):
        child_seed(1, -1)
