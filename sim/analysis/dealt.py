"""Dealt-hand Monte Carlo: the events of :mod:`sim.analysis.exact` estimated on sampled deals.

Hands come from the real dealer: :func:`sim.core.wall.shuffled_walls` and :func:`sim.core.wall.deal`
(the dealer is seat 0 with 14 tiles, the non-dealer is seat 1 with 13, of a four-player deal), and
the Anhua king / Anqing 钻 indicator is the next wall tile after the deal, as in the engine. Weng'an
deals every player count from the same walls for 原缺 at the table; its 天胡 reads the dealer of
the four-player deal (the dealer's 14 are a uniform hand whatever the player count).

Every event is decided by the evaluator kernels (``sim.hand.is_complete_batch``; for Anhua the
engine's own scorer ``best_win``), never by the counting code of :mod:`sim.analysis.exact`, so the
two are independent checks of each other. No game is played.

An estimate is a count of hits out of trials: each sampled deal is one trial, except for events
"given the indicator rank r", whose trials are the deals with that indicator rank. Intervals are
Wilson score intervals.

>>> estimates = simulate("wengan", 2_000, seed=1)
>>> estimates["wengan/dealer/yuan_que"].trials
2000
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from math import sqrt
from statistics import NormalDist

import numpy as np

from ..core.tables import load_tables
from ..core.tiles import N_KINDS, N_SUITED
from ..core.wall import Seed, deal, deal_size, shuffled_walls, spawn_seeds
from ..hand import Forms, is_complete_batch
from ..kernels import exact as _kernels
from ..variants.anhua import AnhuaOptions
from ..variants.anhua import scoring as anhua_scoring
from .exact import Event, anqing_zuan_of, parse_settings

__all__ = [
    "Comparison",
    "DealtHands",
    "Estimate",
    "add_hits",
    "compare",
    "count_kinds",
    "dealt_hands",
    "event_hits",
    "sample_prefixes",
    "simulate",
    "wilson_interval",
]

TILE_COUNTS = {"generic": None, "anhua": 108, "wengan": 108, "anqing": 136}
_INDICATOR_POSITION = deal_size(4)  # the first wall tile after a four-player deal
_RED, _GREEN, _WHITE = 31, 32, 33
_DRAGONS = np.array([_RED, _GREEN, _WHITE])


def wilson_interval(hits: int, trials: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion (``(0, 1)`` without trials).

    >>> low, high = wilson_interval(0, 1000, 0.95)
    >>> low, round(high, 5)
    (0.0, 0.00383)
    """
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must lie strictly between 0 and 1, not {confidence}")
    if trials == 0:
        return 0.0, 1.0
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    share = hits / trials
    spread = z * z / trials
    centre = (share + spread / 2) / (1 + spread)
    half = z * sqrt(share * (1 - share) / trials + spread / (4 * trials)) / (1 + spread)
    # at 0 (all) hits the bound is exactly 0 (1); rounding would leave a trace
    low = 0.0 if hits == 0 else max(0.0, centre - half)
    high = 1.0 if hits == trials else min(1.0, centre + half)
    return low, high


@dataclass(frozen=True)
class Estimate:
    """``hits`` of an event among ``trials`` sampled deals."""

    key: str
    hits: int
    trials: int

    @property
    def value(self) -> float:
        return self.hits / self.trials if self.trials else float("nan")

    def interval(self, confidence: float = 0.95) -> tuple[float, float]:
        return wilson_interval(self.hits, self.trials, confidence)


@dataclass(frozen=True)
class DealtHands:
    """A batch of deals from a set of ``tile_count`` tiles (108 or 136): the dealer's 14 and the
    non-dealer's 13 tiles as counts ``(n, 34)`` uint8, the indicator tile kind of each deal
    ``(n,)`` (or None), and for Weng'an every seat's hand per player count,
    ``{players: (n, players, 34)}``."""

    tile_count: int
    dealer: np.ndarray
    non_dealer: np.ndarray
    indicator: np.ndarray | None = None
    tables: dict[int, np.ndarray] | None = None


def count_kinds(tiles: np.ndarray) -> np.ndarray:
    """Counts ``(n, 34)`` uint8 of rows of tile kinds ``(n, m)``."""
    tiles = np.ascontiguousarray(tiles)
    out = np.empty((tiles.shape[0], N_KINDS), np.uint8)
    _kernels.count_kinds(tiles, out)
    return out


def dealt_hands(walls: np.ndarray, variant: str, tile_count: int, player_counts=(4,)) -> DealtHands:
    """The hands of a batch of walls of ``tile_count`` tiles (or of prefixes of such walls long
    enough for the deal and the indicator).

    The dealer and the non-dealer are seats 0 and 1 of a four-player :func:`sim.core.wall.deal`; the
    indicator (Anhua, Anqing) is the wall tile right after that deal; Weng'an tables deal each
    player count of ``player_counts`` from the same walls.
    """
    seats = deal(walls, 4)
    indicator = None
    if variant in ("anhua", "anqing"):
        indicator = walls[:, _INDICATOR_POSITION].astype(np.int64)
    tables = None
    if variant == "wengan":
        tables = {players: deal(walls, players) for players in player_counts}
    return DealtHands(tile_count, seats[:, 0], seats[:, 1], indicator, tables)


def sample_prefixes(tiles: np.ndarray, length: int, n_hands: int, seed: Seed) -> np.ndarray:
    """``(n_hands, length)`` int8: the first ``length`` tiles of independent uniform shuffles of
    ``tiles``, by a partial Fisher-Yates shuffle (fast: only the drawn positions are shuffled).

    For estimates conditioned on the tile set (hands drawn from one suit, or given an
    indicator); :func:`simulate` uses whole shuffled walls.
    """
    tiles = np.ascontiguousarray(tiles, dtype=np.int8)
    if not 0 <= length <= tiles.size:
        raise ValueError(f"length must be 0-{tiles.size}, not {length}")
    uniforms = np.random.default_rng(seed).random((n_hands, length))
    out = np.empty((n_hands, length), np.int8)
    _kernels.draw_prefixes(tiles, uniforms, out)
    return out


# ---------------------------------------------------------------------------------------------
# Events on sampled hands

Hits = dict[str, tuple[np.ndarray, np.ndarray | None]]
"""key -> (hit per deal, the deals that count as trials or None for all)."""


def _one_suit(counts: np.ndarray) -> np.ndarray:
    per_suit = counts[:, :N_SUITED].reshape(-1, 3, 9).sum(axis=2)
    honours = counts[:, N_SUITED:].sum(axis=1)
    return ((per_suit > 0).sum(axis=1) == 1) & (honours == 0)


class _Wanted:
    """Which keys to compute: all, or those starting with one of ``only``."""

    def __init__(self, only: Sequence[str] | None) -> None:
        self.only = None if only is None else tuple(only)

    def block(self, prefix: str) -> bool:
        """Whether any wanted key may start with ``prefix`` (a block of related events)."""
        if self.only is None:
            return True
        return any(o.startswith(prefix) or prefix.startswith(o) for o in self.only)

    def keep(self, hits: Hits) -> Hits:
        if self.only is None:
            return hits
        return {k: v for k, v in hits.items() if any(k.startswith(o) for o in self.only)}


def _generic_hits(hands: DealtHands, settings: dict[str, str], wanted: _Wanted) -> Hits:
    counts = hands.dealer
    prefix = f"t{hands.tile_count}/dealer"
    one_suit = _one_suit(counts)
    forms = {
        "standard": Forms(seven_pairs=False),
        "standard_258": Forms(pair="258", seven_pairs=False),
        "seven_pairs": Forms(standard=False),
        "seven_pairs_distinct": Forms(standard=False, quads=False),
        "complete": Forms(),
    }
    hits: Hits = {}
    for name, chosen in forms.items():
        if not wanted.block(f"{prefix}/{name}"):
            continue
        complete = is_complete_batch(counts, 0, forms=chosen)
        hits[f"{prefix}/{name}"] = (complete, None)
        hits[f"{prefix}/{name}/one_suit"] = (complete & one_suit, None)
    return hits


def _king_kinds(indicator: np.ndarray, mode: str) -> tuple[np.ndarray, np.ndarray]:
    y_kind = anhua_scoring.king_y_kind.py_func(indicator)
    x_kind = indicator if mode == "seven_kings" else np.full_like(indicator, -1)
    return x_kind, y_kind


def _anhua_hits(hands: DealtHands, settings: dict[str, str], wanted: _Wanted) -> Hits:
    indicator = hands.indicator
    rank = indicator % 9
    rows = np.arange(indicator.size)
    modes = {"both": ("seven_kings", "four_kings"), "7": ("seven_kings",), "4": ("four_kings",)}
    quads = settings["quads"] == "yes"
    hits: Hits = {}
    for mode in modes[settings["kings"]]:
        short = "k7" if mode == "seven_kings" else "k4"
        if not wanted.block(f"anhua/{short}/"):
            continue
        x_kind, y_kind = _king_kinds(indicator, mode)
        dealer_kings = None
        for seat, counts in (("dealer", hands.dealer), ("non_dealer", hands.non_dealer)):
            y_held = counts[rows, y_kind].astype(np.int64)
            x_held = counts[rows, x_kind].astype(np.int64) if mode == "seven_kings" else 0 * y_held
            kings = x_held + y_held
            if seat == "dealer":
                dealer_kings = kings
            for held in range(8 if mode == "seven_kings" else 5):
                hits[f"anhua/{short}/{seat}/kings={held}"] = (kings == held, None)
            hits[f"anhua/{short}/{seat}/four_y_kings"] = (y_held == 4, None)
            if mode == "seven_kings":
                hits[f"anhua/{short}/{seat}/seven_kings"] = ((x_held == 3) & (y_held == 4), None)
            if seat == "dealer":
                instant = y_held == 4 if settings["tiers"] == "identical_sets" else kings >= 4
                hits[f"anhua/{short}/dealer/instant"] = (instant, None)
        counts = hands.dealer
        dealer_events = {}
        if wanted.block(f"anhua/{short}/dealer/standard_258_kings"):
            naturals = counts.copy()
            naturals[rows, y_kind] = 0
            if mode == "seven_kings":
                naturals[rows, x_kind] = 0
            dealer_events["standard_258_kings"] = is_complete_batch(
                naturals, dealer_kings, forms=Forms(pair="258", seven_pairs=False)
            )
        if wanted.block(f"anhua/{short}/dealer/complete_kings"):
            options = AnhuaOptions(
                king_mode=mode, king_tier_mode=settings["tiers"], seven_pairs_allow_quad=quads
            )
            legal = np.empty(counts.shape[0], np.bool_)
            anhua_scoring.anhua_legal_batch(
                np.ascontiguousarray(counts), x_kind, y_kind, options.params(), load_tables(), legal
            )
            dealer_events["complete_kings"] = legal
        for name, hit in dealer_events.items():
            hits[f"anhua/{short}/dealer/{name}"] = (hit, None)
            for r in range(9):
                hits[f"anhua/{short}/dealer/{name}/rank={r + 1}"] = (hit, rank == r)
    if wanted.block("anhua/face/"):
        counts = hands.dealer
        face = is_complete_batch(counts, 0, forms=Forms(pair="258", quads=quads))
        face |= _one_suit(counts) & is_complete_batch(counts, 0, forms=Forms(seven_pairs=False))
        hits["anhua/face/dealer/complete"] = (face, None)
        for r in range(9):
            hits[f"anhua/face/dealer/complete/rank={r + 1}"] = (face, rank == r)
    return hits


def _lacks_suit(counts: np.ndarray) -> np.ndarray:
    """counts (..., 34) -> whether each hand has no tile of some suit (原缺)."""
    per_suit = counts[..., :N_SUITED].reshape(*counts.shape[:-1], 3, 9).sum(axis=-1)
    return (per_suit == 0).any(axis=-1)


def _suits_held(counts: np.ndarray) -> np.ndarray:
    per_suit = counts[..., :N_SUITED].reshape(*counts.shape[:-1], 3, 9).sum(axis=-1)
    return (per_suit > 0).sum(axis=-1)


def _wengan_hits(hands: DealtHands, settings: dict[str, str], wanted: _Wanted) -> Hits:
    hits: Hits = {}
    player_counts = (2, 3, 4) if settings["players"] == "all" else (int(settings["players"]),)
    # The dealer's 14 are a uniform hand whatever the player count, so 天胡 reads the dealer of
    # the four-player deal; 原缺 at the table needs every seat of each player count's deal.
    if wanted.block("wengan/dealer/tian_hu"):
        complete = is_complete_batch(hands.dealer, 0, forms=Forms())
        two_suits = _suits_held(hands.dealer) <= 2
        for players in player_counts:
            # 定缺 with 2 or 3 players: at most two suits to win (§wengan-ding-que)
            hit = complete if players == 4 else complete & two_suits
            hits[f"wengan/dealer/tian_hu/p{players}"] = (hit, None)
    for players, seats in (hands.tables or {}).items():
        hits[f"wengan/table/yuan_que/p{players}"] = (_lacks_suit(seats).any(axis=1), None)
    hits["wengan/dealer/yuan_que"] = (_lacks_suit(hands.dealer), None)
    hits["wengan/non_dealer/yuan_que"] = (_lacks_suit(hands.non_dealer), None)
    return hits


_ZUAN_OF = np.array([anqing_zuan_of(kind) for kind in range(N_KINDS)], np.int64)


def _anqing_hits(hands: DealtHands, settings: dict[str, str], wanted: _Wanted) -> Hits:
    zuan = _ZUAN_OF[hands.indicator]
    rows = np.arange(zuan.size)
    hits: Hits = {}
    for seat, counts in (("dealer", hands.dealer), ("non_dealer", hands.non_dealer)):
        held = counts[rows, zuan]
        for k in range(5):
            hits[f"anqing/{seat}/zuan={k}"] = (held == k, None)
    counts = hands.dealer
    wilds = counts[rows, zuan].astype(np.int64)
    literal = counts.copy()
    literal[rows, zuan] = 0
    thirteen_forms = Forms(standard=False, seven_pairs=False, thirteen=True)
    class_one_complete = thirteen = None
    if wanted.block("anqing/dealer/class1") or wanted.block("anqing/dealer/complete"):
        # Class 1 (§anqing-red-dragon): 红中 are naturals of the 钻's face unless the 钻 is a
        # dragon; the dragons that are neither the 钻 nor (then) 红中 are 杠牌, and holding one
        # blocks the win.
        zuan_is_dragon = zuan >= _RED
        class_one = literal.copy()
        moved = ~zuan_is_dragon
        class_one[rows[moved], zuan[moved]] = counts[moved, _RED]
        class_one[moved, _RED] = 0
        kong_only = counts[:, _DRAGONS].astype(np.int64)
        kong_only[zuan_is_dragon[:, None] & (_DRAGONS[None, :] == zuan[:, None])] = 0
        kong_only[moved, 0] = 0  # 红中 is not a 杠牌 when the 钻 is not a dragon
        blocked = kong_only.sum(axis=1) > 0
        class_one_forms = Forms(quads=settings["quads"] == "yes")
        class_one_complete = ~blocked & is_complete_batch(class_one, wilds, forms=class_one_forms)
        hits["anqing/dealer/class1"] = (class_one_complete, None)
        hits["anqing/dealer/class1_no_zuan"] = (class_one_complete & (wilds == 0), None)
    if wanted.block("anqing/dealer/thirteen") or wanted.block("anqing/dealer/complete"):
        thirteen = is_complete_batch(literal, wilds, forms=thirteen_forms)
        hits["anqing/dealer/thirteen"] = (thirteen, None)
    if class_one_complete is not None and thirteen is not None:
        hits["anqing/dealer/complete"] = (class_one_complete | thirteen, None)
    if wanted.block("anqing/dealer/seven_stars"):
        # 七星归位: every honour face held; a 钻 of an honour face stands for itself in its slot
        stars_literal = literal.copy()
        stars_wilds = wilds.copy()
        honour_zuan = (zuan >= N_SUITED) & (wilds > 0)
        stars_literal[rows[honour_zuan], zuan[honour_zuan]] = 1
        stars_wilds[honour_zuan] -= 1
        all_faces = (counts[:, N_SUITED:] > 0).all(axis=1)
        seven_stars = all_faces & is_complete_batch(
            stars_literal, stars_wilds, forms=thirteen_forms
        )
        hits["anqing/dealer/seven_stars"] = (seven_stars, None)
    return hits


def event_hits(
    variant: str,
    hands: DealtHands,
    settings: dict[str, str] | None = None,
    only: Sequence[str] | None = None,
) -> Hits:
    """Per event key of :func:`sim.analysis.exact.exact_events`: which deals hit it, and which deals
    are its trials (None: all). ``only``: compute just the keys starting with one of these prefixes
    (the evaluator is not called for the others)."""
    settings = parse_settings(variant, [f"{k}={v}" for k, v in (settings or {}).items()])
    wanted = _Wanted(only)
    compute = {
        "generic": _generic_hits,
        "anhua": _anhua_hits,
        "wengan": _wengan_hits,
        "anqing": _anqing_hits,
    }
    if variant not in compute:
        raise ValueError(f"unknown variant {variant!r}; allowed: {', '.join(compute)}")
    return wanted.keep(compute[variant](hands, settings, wanted))


# ---------------------------------------------------------------------------------------------
# Simulation


def add_hits(totals: dict[str, list[int]], hits: Hits) -> None:
    """Add a batch's hits to running ``[hits, trials]`` per key."""
    for key, (hit, trials) in hits.items():
        counted = totals.setdefault(key, [0, 0])
        if trials is None:
            counted[0] += int(hit.sum())
            counted[1] += hit.size
        else:
            counted[0] += int((hit & trials).sum())
            counted[1] += int(trials.sum())


def _chunks(n_hands: int, chunk_size: int) -> Iterator[int]:
    while n_hands > 0:
        size = min(chunk_size, n_hands)
        yield size
        n_hands -= size


def simulate(
    variant: str,
    n_hands: int,
    seed: Seed,
    settings: dict[str, str] | None = None,
    chunk_size: int = 100_000,
) -> dict[str, Estimate]:
    """Deal ``n_hands`` walls per tile set (``generic``: one batch per tile set) and count every
    event of the variant. Chunk ``i`` uses child ``i`` of ``seed``
    (:func:`sim.core.wall.spawn_seeds`), so the result depends on the chunk size but not on anything
    else.
    """
    settings = parse_settings(variant, [f"{k}={v}" for k, v in (settings or {}).items()])
    if n_hands < 1 or chunk_size < 1:
        raise ValueError("n_hands and chunk_size must be at least 1")
    if variant == "generic":
        tile_counts = (108, 136) if settings["tiles"] == "both" else (int(settings["tiles"]),)
    else:
        tile_counts = (TILE_COUNTS[variant],)
    player_counts = (
        (2, 3, 4) if settings.get("players", "all") == "all" else (int(settings["players"]),)
    )
    totals: dict[str, list[int]] = {}
    n_chunks = -(-n_hands // chunk_size)
    seeds = spawn_seeds(seed, len(tile_counts) * n_chunks)
    for tile_index, tile_count in enumerate(tile_counts):
        own_seeds = seeds[tile_index * n_chunks : (tile_index + 1) * n_chunks]
        for chunk_seed, size in zip(own_seeds, _chunks(n_hands, chunk_size), strict=True):
            walls = shuffled_walls(size, tile_count, chunk_seed)
            hands = dealt_hands(walls, variant, tile_count, player_counts)
            add_hits(totals, event_hits(variant, hands, settings))
    return {key: Estimate(key, hits, trials) for key, (hits, trials) in totals.items()}


@dataclass(frozen=True)
class Comparison:
    """An exact event beside its estimate: ``inside`` when the exact value lies in the interval."""

    event: Event
    estimate: Estimate
    low: float
    high: float

    @property
    def inside(self) -> bool:
        return self.low <= self.event.value <= self.high


def compare(
    events: list[Event], estimates: dict[str, Estimate], confidence: float = 0.95
) -> list[Comparison]:
    """Pair every exact event with its estimate (raises if an event was not estimated)."""
    missing = [event.key for event in events if event.key not in estimates]
    if missing:
        raise ValueError(f"no estimate for {', '.join(missing[:3])}")
    rows = []
    for event in events:
        estimate = estimates[event.key]
        low, high = estimate.interval(confidence)
        rows.append(Comparison(event, estimate, low, high))
    return rows
