"""Anhua Seven Kings 安化七王麻将 (Hunan): options, pattern names, and a Python face on the kernels.

Rules: docs/rules/anhua.md. Every option of
§anhua-options is declared once in ``options`` (:data:`ANHUA_OPTIONS`), with the spec's default;
:class:`AnhuaOptions` and its ``params()`` come from there.

This folder holds the whole variant: ``scoring`` (king classes, features, points, payments) and
``hooks`` (the variant interface) are numba kernels, ``engine`` the generic loop compiled with
those hooks. They are imported here inside :func:`sim.kernels.variant_cache_folder`, so that
their compiled code caches in Anhua's own folder.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ...core.tables import load_tables
from ...kernels import variant_cache_folder
from ...kernels.record import N_RECORD
from ..session import SessionPlay, session_first_dealers  # noqa: F401 (the variant's names)
from .options import (  # noqa: F401 (declared in options.py, used from here too)
    ANHUA_OPTIONS,
    N_TILES,
    OPTION_NAMES,
    OPTION_TITLES,
    AnhuaOptions,
)

with variant_cache_folder("anhua", Path(__file__).parent):
    # the numba modules of this variant (checks: compiled only when a test calls them)
    from . import checks, engine, hooks  # noqa: F401
    from . import scoring as kernels

# Feature bits: (bit, Chinese name, English id), in the order used to name combinations the
# text does not name (§anhua-features).
FEATURES = (
    (kernels.FEATURE_HARD, "硬庄", "hard"),
    (kernels.FEATURE_THREE_KINGS, "三王", "three_kings"),
    (kernels.FEATURE_FOUR_KINGS, "四王", "four_kings"),
    (kernels.FEATURE_SIX_KINGS, "六王", "six_kings"),
    (kernels.FEATURE_SEVEN_KINGS, "七王", "seven_kings"),
    (kernels.FEATURE_FLUSH, "清一色", "flush"),
    (kernels.FEATURE_SEVEN_PAIRS, "小七对", "seven_pairs"),
    (kernels.FEATURE_KONG_BLOOM, "杠上花", "kong_bloom"),
    (kernels.FEATURE_ROB_KONG, "抢杠胡", "rob_kong"),
    (kernels.FEATURE_KONG_CANNON, "杠上炮", "kong_cannon"),
)
_BIT = {english: bit for bit, _, english in FEATURES}

# Every named pattern of §anhua-named-patterns (the text's names do not follow one feature order).
_NAMED_ROWS = (
    ("平胡", ()),
    ("清一色", ("flush",)),
    ("硬庄", ("hard",)),
    ("三王", ("three_kings",)),
    ("小七对", ("seven_pairs",)),
    ("杠上花", ("kong_bloom",)),
    ("抢杠胡", ("rob_kong",)),
    ("杠上炮", ("kong_cannon",)),
    ("三王清一色", ("three_kings", "flush")),
    ("三王小七对", ("three_kings", "seven_pairs")),
    ("三王杠上花", ("three_kings", "kong_bloom")),
    ("四王平胡", ("four_kings",)),
    ("六王平胡", ("six_kings",)),
    ("硬庄小七对", ("hard", "seven_pairs")),
    ("硬庄清一色", ("hard", "flush")),
    ("硬庄杠上花", ("hard", "kong_bloom")),
    ("硬庄抢杠胡", ("hard", "rob_kong")),
    ("硬庄杠上炮", ("hard", "kong_cannon")),
    ("小七对杠上炮", ("seven_pairs", "kong_cannon")),
    ("清一色抢杠胡", ("flush", "rob_kong")),
    ("清一色杠上炮", ("flush", "kong_cannon")),
    ("清一色杠上花", ("flush", "kong_bloom")),
    ("四王清一色", ("four_kings", "flush")),
    ("四王杠上花", ("four_kings", "kong_bloom")),
    ("四王小七对", ("four_kings", "seven_pairs")),
    ("三王清一色小七对", ("three_kings", "flush", "seven_pairs")),
    ("三王清一色杠上花", ("three_kings", "flush", "kong_bloom")),
    ("六王清一色", ("six_kings", "flush")),
    ("六王小七对", ("six_kings", "seven_pairs")),
    ("硬庄清一色小七对", ("hard", "flush", "seven_pairs")),
    ("硬庄清一色杠上花", ("hard", "flush", "kong_bloom")),
    ("硬庄清一色杠上炮", ("hard", "flush", "kong_cannon")),
    ("硬庄清一色抢杠胡", ("hard", "flush", "rob_kong")),
    ("七王清一色", ("seven_kings", "flush")),
    ("七王小七对", ("seven_kings", "seven_pairs")),
    ("硬庄清一色杠上炮小七对", ("hard", "flush", "seven_pairs", "kong_cannon")),
    ("四王清一色小七对", ("four_kings", "flush", "seven_pairs")),
    ("四王清一色杠上花", ("four_kings", "flush", "kong_bloom")),
    ("六王清一色小七对", ("six_kings", "flush", "seven_pairs")),
    ("七王清一色小七对", ("seven_kings", "flush", "seven_pairs")),
)
NAMED_PATTERNS = {sum(_BIT[f] for f in features): name for name, features in _NAMED_ROWS}
"""Feature bits -> the text's name, for every row of the §anhua-named-patterns table."""
_KING_TIERS = (
    kernels.FEATURE_THREE_KINGS,
    kernels.FEATURE_FOUR_KINGS,
    kernels.FEATURE_SIX_KINGS,
    kernels.FEATURE_SEVEN_KINGS,
)
TIER_NAMES = ("小胡", "大胡", "双大胡", "豪华胡", "大豪华胡", "双大豪华胡")

HOW = {
    "self_draw": kernels.HOW_SELF_DRAW,
    "discard": kernels.HOW_DISCARD,
    "rob_kong": kernels.HOW_ROB_KONG,
    "kong_bloom": kernels.HOW_KONG_BLOOM,
    "kong_cannon": kernels.HOW_KONG_CANNON,
    "instant": kernels.HOW_INSTANT,
}


def kings_of(indicator: int, king_mode: str = "seven_kings") -> tuple[int, int]:
    """(X, Y) king kinds for a flipped indicator (§anhua-kings): X = the indicator's kind (-1
    in four-kings mode), Y = the next rank of the same suit, 9 wrapping to 1."""
    y_kind = int(kernels.king_y_kind.py_func(indicator))
    return (indicator if king_mode == "seven_kings" else -1), y_kind


def bigs(features: int) -> int:
    return int(kernels.bigs_of(features))


def feature_names(features: int) -> tuple[str, ...]:
    """English ids of the features set in ``features`` (in pattern-name order)."""
    return tuple(english for bit, _, english in FEATURES if features & bit)


def pattern_name(features: int) -> str:
    """The name of a scored win: the text's name where §anhua-named-patterns gives one; otherwise
    the feature names joined in ``FEATURES`` order, with 平胡 after a lone king tier as the text
    writes 四王平胡 (so the unnamed seven kings alone is 七王平胡). The instant win is
    起手四王/七王."""
    if features & kernels.FEATURE_INSTANT:
        return "起手胡"
    if features in NAMED_PATTERNS:
        return NAMED_PATTERNS[features]
    name = "".join(chinese for bit, chinese, _ in FEATURES if features & bit)
    if features in _KING_TIERS:
        name += "平胡"
    return name


def tier_name(features: int) -> str:
    return TIER_NAMES[0 if features & kernels.FEATURE_INSTANT else bigs(features)]


def score(
    concealed,
    *,
    indicator: int,
    how: str,
    melds: tuple[tuple[str, int], ...] = (),
    options: AnhuaOptions | None = None,
) -> int | None:
    """Feature bits of the best legal, eligible way to score this won hand, or None.

    ``concealed``: (34,) counts of the concealed tiles *with the winning tile*, kings at their
    face; ``melds``: ``("chi" | "pong" | "kong", first tile)``.
    """
    options = options or AnhuaOptions()
    x_kind, y_kind = kings_of(indicator, options.king_mode)
    meld_suits = 0
    for _, tile in melds:
        meld_suits |= 1 << (tile // 9)
    features = kernels.best_win(
        np.asarray(concealed, np.int64),
        meld_suits,
        len(melds),
        x_kind,
        y_kind,
        HOW[how],
        -1,
        options.params(),
        load_tables(),
    )
    return None if features == kernels.NO_WIN else int(features)


def settle(
    winners: list[tuple[int, int]],
    *,
    payer: int | None,
    birds: list[int],
    dealer: int,
    options: AnhuaOptions | None = None,
) -> list[int]:
    """Score change of every seat for a finished hand (§anhua-payments).

    ``winners``: (seat, base points P) pairs; ``payer``: the discarder or konger, None for a
    self-draw; ``birds``: the bird tiles flipped.
    """
    options = options or AnhuaOptions()
    n_players = options.player_count
    delta = np.zeros(n_players, np.int64)
    kernels.settle(
        n_players,
        dealer,
        np.array([seat for seat, _ in winners], np.int64),
        np.array([points for _, points in winners], np.int64),
        len(winners),
        -1 if payer is None else payer,
        np.array(birds, np.int64),
        len(birds),
        options.params(),
        delta,
        np.zeros((0, 3), np.int64),
    )
    return delta.tolist()


def points(features: int) -> int:
    """Base points P of a scored win (§anhua-base-points)."""
    return int(kernels.base_points(features))


# Play and replay through the generic Python face (``sim.variants.session``). Anhua's records
# keep no streak slot: its hooks never read the dealer's 连庄 count, so a replayed hand dealt with
# a streak of 0 plays as it did in its session.
PLAY = SessionPlay(
    engine.play_hands, engine.play_hand, N_RECORD, compile_ahead=engine.compile_ahead()
)
play_records = PLAY.play_records
replay_hand = PLAY.replay_hand
