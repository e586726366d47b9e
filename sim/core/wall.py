"""Shuffled walls and the initial deal, in batches.

A wall is one row of an ``int8 (n_walls, n_tiles)`` array of tile kinds (ids of
:mod:`sim.core.tiles`); position 0 is the head, drawn first (§anhua-wall). The tile set is 108 tiles
(4 copies of the 27 suited kinds: Anhua, Weng'an) or 136 (all 34 kinds: Anqing).

Randomness is derived, never global: callers pass an int or a ``SeedSequence``, and a run of many
batches takes one child per batch from :func:`spawn_seeds`.

>>> walls = shuffled_walls(2, 108, seed=7)
>>> walls.shape, walls.dtype
((2, 108), dtype('int8'))
>>> counts = deal(walls, n_players=4)
>>> counts.shape, counts.sum(axis=2).tolist()
((2, 4, 34), [[14, 13, 13, 13], [14, 13, 13, 13]])
"""

from __future__ import annotations

import operator

import numpy as np

from .tiles import N_COPIES, N_KINDS, N_SUITED

__all__ = [
    "TILES_108",
    "TILES_136",
    "child_seed",
    "deal",
    "deal_size",
    "shuffled_walls",
    "spawn_seeds",
    "tile_set",
]

# Sorted tile sets: kind k repeated 4 times. Read-only because they are shared module constants.
TILES_108 = np.repeat(np.arange(N_SUITED, dtype=np.int8), N_COPIES)
TILES_136 = np.repeat(np.arange(N_KINDS, dtype=np.int8), N_COPIES)
TILES_108.setflags(write=False)
TILES_136.setflags(write=False)

_TILE_SETS = {108: TILES_108, 136: TILES_136}

Seed = int | np.random.SeedSequence


def tile_set(n_tiles: int) -> np.ndarray:
    """The sorted (read-only) tile set of 108 or 136 tiles.

    >>> tile_set(108)[:6].tolist()
    [0, 0, 0, 0, 1, 1]
    """
    try:
        return _TILE_SETS[n_tiles]
    except (KeyError, TypeError):
        raise ValueError(f"n_tiles must be 108 or 136, got {n_tiles!r}") from None


def _check_int(value: object, name: str, minimum: int) -> int:
    if isinstance(value, bool | np.bool_):
        raise TypeError(f"{name} must be an integer, got {value!r}")
    try:
        v = operator.index(value)
    except TypeError:
        raise TypeError(f"{name} must be an integer, got {value!r}") from None
    if v < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {v}")
    return v


def _root_seed(seed: Seed) -> np.random.SeedSequence:
    if isinstance(seed, np.random.SeedSequence):
        return seed
    if seed is None:
        # default_rng(None) would draw OS entropy: a run that cannot be reproduced.
        raise ValueError("seed is required (an int >= 0 or a SeedSequence); None is not allowed")
    return np.random.SeedSequence(_check_int(seed, "seed", 0))


def spawn_seeds(seed: Seed, n: int) -> list[np.random.SeedSequence]:
    """``n`` independent child seeds of one root seed; child ``i`` is the seed of chunk ``i``.

    Child ``i`` is always ``SeedSequence(root.entropy, spawn_key=root.spawn_key + (i,))``: it does
    not depend on ``n``, on how many jobs run, on the order they run in, or on earlier calls
    (unlike ``SeedSequence.spawn``, which continues from the children it already handed out). So a
    run split into 10 or 1000 jobs draws the same walls for chunk ``i``.

    >>> a = spawn_seeds(2024, 3)
    >>> b = spawn_seeds(2024, 5)
    >>> [s.spawn_key for s in a] == [s.spawn_key for s in b[:3]]
    True
    """
    root = _root_seed(seed)
    n = _check_int(n, "n", 0)
    return [_child(root, i) for i in range(n)]


def child_seed(seed: Seed, index: int) -> np.random.SeedSequence:
    """Child ``index`` of ``seed`` alone: ``spawn_seeds(seed, index + 1)[index]`` without making
    the ``index`` children before it (chunk ``i`` of a run needs only its own).

    >>> child_seed(2024, 7).spawn_key == spawn_seeds(2024, 8)[7].spawn_key
    True
    """
    return _child(_root_seed(seed), _check_int(index, "index", 0))


def _child(root: np.random.SeedSequence, index: int) -> np.random.SeedSequence:
    return np.random.SeedSequence(
        root.entropy, spawn_key=(*root.spawn_key, index), pool_size=root.pool_size
    )


def shuffled_walls(n_walls: int, n_tiles: int, seed: Seed) -> np.ndarray:
    """``n_walls`` independent uniformly shuffled walls, ``int8 (n_walls, n_tiles)``.

    Uses ``np.random.default_rng(seed)``; the same seed gives bit-identical walls (for a given
    numpy version: numpy does not promise identical streams across releases).

    >>> a = shuffled_walls(3, 136, seed=1)
    >>> bool((a == shuffled_walls(3, 136, seed=1)).all())
    True
    >>> sorted(a[0].tolist()) == tile_set(136).tolist()
    True
    """
    n_walls = _check_int(n_walls, "n_walls", 0)
    tiles = tile_set(n_tiles)
    rng = np.random.default_rng(_root_seed(seed))
    walls = np.broadcast_to(tiles, (n_walls, tiles.size)).copy()
    # Generator.permuted(axis=1) runs an exact Fisher-Yates shuffle on each row in C, in place on
    # the int8 array. The alternative, argsort of random keys, benchmarks at about the same speed
    # (100k x 136: ~0.2 s both) but is O(n log n), needs float64 keys plus int64 indices (~17x the
    # memory of the int8 walls) and is only uniform up to key ties. So permuted it is.
    return rng.permuted(walls, axis=1, out=walls)


def deal_size(n_players: int, hand_size: int = 13, dealer_extra: int = 1) -> int:
    """Number of wall tiles the deal uses: the index of the first tile drawn after the deal.

    >>> deal_size(4), deal_size(3)
    (53, 40)
    """
    return n_players * hand_size + dealer_extra


def deal(
    walls: np.ndarray,
    n_players: int,
    hand_size: int = 13,
    dealer_extra: int = 1,
    dealer: int = 0,
) -> np.ndarray:
    """Concealed counts after the deal, ``uint8 (n_walls, n_players, 34)``.

    Order (one fixed choice; any order is uniform for a uniform wall, §anhua-deal): seat ``i``
    gets ``wall[hand_size*i : hand_size*(i+1)]``, then the dealer additionally gets the next
    ``dealer_extra`` tiles, ``wall[hand_size*n_players : deal_size(...)]``. Play continues from
    ``wall[deal_size(n_players, hand_size, dealer_extra)]``. Tiles used for other purposes (king
    indicator, birds) are taken by the variant, not here.

    >>> w = np.arange(53, dtype=np.int8)[None, :] % 34
    >>> c = deal(w, 4)
    >>> int(c[0, 0, 18]), int(c[0, 0, 0]), int(c[0, 1, 13])    # dealer: 0-12 and tile 52 (=18)
    (1, 1, 1)
    """
    walls = np.asarray(walls)
    if walls.ndim != 2:
        raise ValueError(f"walls must be 2-D (n_walls, n_tiles), got shape {walls.shape}")
    if not np.issubdtype(walls.dtype, np.integer):
        raise ValueError(f"walls must have an integer dtype, got {walls.dtype}")
    n_players = _check_int(n_players, "n_players", 1)
    hand_size = _check_int(hand_size, "hand_size", 0)
    dealer_extra = _check_int(dealer_extra, "dealer_extra", 0)
    dealer = _check_int(dealer, "dealer", 0)
    if dealer >= n_players:
        raise ValueError(f"dealer must be a seat 0-{n_players - 1}, got {dealer}")
    n_dealt = deal_size(n_players, hand_size, dealer_extra)
    n_walls, n_tiles = walls.shape
    if n_dealt > n_tiles:
        raise ValueError(f"the deal needs {n_dealt} tiles but walls have only {n_tiles}")
    dealt = walls[:, :n_dealt].astype(np.intp)
    if dealt.size and (dealt.min() < 0 or dealt.max() >= N_KINDS):
        raise ValueError(f"walls hold tile kinds outside 0-{N_KINDS - 1}")

    # Seat of each dealt position, then one bincount over flat (wall, seat, kind) cells: no Python
    # loop over walls.
    seat_of_pos = np.concatenate(
        [np.repeat(np.arange(n_players), hand_size), np.full(dealer_extra, dealer)]
    )
    cell = (np.arange(n_walls)[:, None] * n_players + seat_of_pos[None, :]) * N_KINDS + dealt
    counts = np.bincount(cell.ravel(), minlength=n_walls * n_players * N_KINDS)
    # A count can exceed 4 only if the input wall is not a real wall; uint8 holds it anyway.
    return counts.astype(np.uint8).reshape(n_walls, n_players, N_KINDS)
