"""Anhua Seven Kings 安化七王麻将: the reading of a win that ``scoring.best_win`` scored, for the
replay.

``best_win`` (numba) returns the feature bits, not the reading that gave them. This module walks
the same choices in plain Python with the scorer's own helpers (``king_class``, ``king_tier``,
``class_may_win``, ``bigs_of``, the evaluator's ``is_complete``) and keeps the one ``best_win``
keeps: of the ways of counting kings as their own face (王代硬, §anhua-king-as-itself), the first
with the most bigs and, on a tie, the weakest king class. It then lays the concealed tiles out in
that reading's form (seven pairs when they make seven pairs, as ``best_win`` prefers, else a
standard hand with a 2-5-8 pair unless it is a flush): the first decomposition of the evaluator's
``decompositions`` that keeps to four copies of a kind where one does, with the fewest groups of
kings alone. Kings that a group leaves free to stand for any set or pair (三王 as a set of their
own) are given the lowest kind that fits the reading (its flush suit, a 2-5-8 pair) and still has
a copy for each; any such kind scores the same.
Pure Python over small hands: replay only, never in play.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.tiles import kind_name
from ...kernels import state as S
from ...kernels.hand import (
    FORM_SEVEN_PAIRS,
    FORM_STANDARD,
    GROUP_FREE_PAIR,
    GROUP_FREE_SET,
    GROUP_PAIR,
    GROUP_SEQUENCE,
    GROUP_TRIPLET,
    MAX_GROUPS,
    OPTION_PAIR_258,
    OPTION_QUADS,
    decompositions,
    is_complete_counts_batch,
)
from . import scoring as A

N_SUITED = 27
SHAPES = {GROUP_SEQUENCE: "seq", GROUP_TRIPLET: "tri", GROUP_PAIR: "pair"}
_DECOMPOSITION_CAPACITY = 64


def _complete(counts: np.ndarray, wilds: int, forms: int, tables) -> bool:
    """The evaluator's ``is_complete`` of ``counts`` (34,) with ``wilds`` wild tiles."""
    out = np.zeros(1, np.bool_)
    rows = counts.reshape(1, 34).astype(np.int64)
    is_complete_counts_batch(rows, np.array([wilds], np.int64), np.int64(forms), tables, out)
    return bool(out[0])


def _suit_bits(kinds) -> int:
    """Bit s set for each suit s of ``kinds``."""
    bits = 0
    for kind in kinds:
        bits |= 1 << (kind // 9)
    return bits


def scored_choice(
    concealed, meld_suits, n_melds, x_kind, y_kind, how, natural_king, params, tables
):
    """``best_win``'s choice, redone: (kings of X counted as their face, kings of Y so counted,
    seven pairs, flush, features), or None when no legal eligible reading exists."""
    tier_mode = params[A.P_KING_TIER_MODE]
    x_held = int(concealed[x_kind]) if x_kind >= 0 else 0
    y_held = int(concealed[y_kind])
    if natural_king >= 0:
        x_held -= natural_king == x_kind
        y_held -= natural_king == y_kind
    as_itself = params[A.P_KING_AS_ITSELF_IS_HARD] != 0
    by_effective = params[A.P_KING_AS_ITSELF_AFFECTS_ELIGIBILITY] != 0
    if (not as_itself or not by_effective) and not A.class_may_win(
        A.king_class(x_held, y_held, tier_mode), how
    ):
        return None
    base = np.asarray(concealed, np.int64).copy()
    for kind in (x_kind, y_kind):
        if kind >= 0:
            base[kind] = 0
    if natural_king >= 0:
        base[natural_king] += 1
    suits = meld_suits | _suit_bits(k for k in range(N_SUITED) if base[k])
    quads = OPTION_QUADS if params[A.P_SEVEN_PAIRS_ALLOW_QUAD] != 0 else 0
    best, best_rank = None, -1
    for x_natural in range(x_held + 1 if as_itself else 1):
        for y_natural in range(y_held + 1 if as_itself else 1):
            x_wild, y_wild = x_held - x_natural, y_held - y_natural
            klass = A.king_class(x_wild, y_wild, tier_mode)
            if by_effective and not A.class_may_win(klass, how):
                continue
            counts = base.copy()
            if x_natural:
                counts[x_kind] += x_natural
            if y_natural:
                counts[y_kind] += y_natural
            held_suits = suits | _suit_bits(k for k in (x_kind, y_kind) if k >= 0 and counts[k])
            flush = held_suits in (1, 2, 4)
            pair_form = FORM_STANDARD if flush else FORM_STANDARD | OPTION_PAIR_258
            wilds = x_wild + y_wild
            standard = _complete(counts, wilds, pair_form, tables)
            pairs = n_melds == 0 and _complete(counts, wilds, FORM_SEVEN_PAIRS | quads, tables)
            if not (standard or pairs):
                continue
            features = int(A._how_feature(how)) | int(
                A.TIER_FEATURE[A.king_tier(x_wild, y_wild, tier_mode)]
            )
            features |= A.FEATURE_HARD if klass == A.CLASS_HARD else 0
            features |= A.FEATURE_FLUSH if flush else 0
            features |= A.FEATURE_SEVEN_PAIRS if pairs else 0
            rank = 4 * int(A.bigs_of(features)) + (A.CLASS_HEAVY - klass)
            if rank > best_rank:
                best_rank = rank
                best = (x_natural, y_natural, pairs, flush, features)
    return best


def _tile(identity: int, physical: int | None, kings: tuple[int, int]) -> dict[str, Any]:
    """One tile as read: ``tile`` its physical kind (a king starred), ``as`` the kind it stands
    for, ``king`` a king 王, ``wild`` a king standing as a wild (not one counted as its own
    face, 王代硬, nor one won on from another seat, which is a natural tile of its face)."""
    wild = physical is not None
    physical = identity if physical is None else physical
    king = physical in kings
    name = kind_name(int(physical)) + ("*" if king else "")
    return {"tile": name, "as": kind_name(int(identity)), "king": king, "wild": wild}


class _Kinds:
    """The kinds a free group of kings may stand for, lowest first: those of the flush suit
    (all suited kinds otherwise), each with room for its copies (four of a kind at most)."""

    def __init__(self, used: np.ndarray, flush_suit: int | None) -> None:
        self.used = used
        suits = range(3) if flush_suit is None else (flush_suit,)
        self.kinds = [9 * suit + rank for suit in suits for rank in range(9)]

    def take(self, size: int, limit: int = 4, only_258: bool = False) -> int:
        fitting = [k for k in self.kinds if not only_258 or k % 9 in (1, 4, 7)]
        kind = next((k for k in fitting if self.used[k] + size <= limit), fitting[0])
        self.used[kind] += size
        return kind


def _placed_rows(decomposition) -> list[tuple[int, list[int], list[bool]]]:
    """(shape, identities, natural flags) of a decomposition's groups holding a natural tile."""
    rows = []
    for shape, first, mask in (tuple(int(x) for x in group) for group in decomposition):
        if shape == GROUP_SEQUENCE:
            rows.append(
                (shape, [first + j for j in range(3)], [bool(mask >> j & 1) for j in range(3)])
            )
        elif shape in (GROUP_TRIPLET, GROUP_PAIR):
            size = 3 if shape == GROUP_TRIPLET else 2
            rows.append((shape, [first] * size, [j < mask for j in range(size)]))
    return rows


def _kings_standing_for(rows) -> np.ndarray:
    """How many kings stand for each kind in ``rows``."""
    standing = np.zeros(34, np.int64)
    for _shape, identities, natural in rows:
        for identity, is_natural in zip(identities, natural, strict=True):
            standing[identity] += not is_natural
    return standing


def _standard_rows(counts, wilds, flush, kinds: _Kinds):
    """(shape, identities, natural flags) of a decomposition of the evaluator's: the first
    within four copies of every kind (the melds', the naturals' and the kings' together) where
    one is, of those the first with the fewest groups of kings alone, whose identities
    ``kinds`` chooses."""
    out = np.empty((_DECOMPOSITION_CAPACITY, MAX_GROUPS, 3), np.int8)
    found = min(
        decompositions(counts.copy(), np.int64(wilds), not flush, out), _DECOMPOSITION_CAPACITY
    )
    if found == 0:
        raise RuntimeError("a hand best_win scored as standard has no decomposition")

    def preference(d: int) -> tuple[bool, int, int]:
        over = bool((kinds.used + _kings_standing_for(_placed_rows(out[d])) > 4).any())
        free = sum(
            int(out[d, g, 0]) in (GROUP_FREE_SET, GROUP_FREE_PAIR) for g in range(MAX_GROUPS)
        )
        return over, free, d

    chosen = out[min(range(found), key=preference)]
    rows = _placed_rows(chosen)
    kinds.used += _kings_standing_for(rows)
    for shape in (int(group[0]) for group in chosen):
        if shape == GROUP_FREE_SET:
            rows.append((GROUP_TRIPLET, [kinds.take(3)] * 3, [False] * 3))
        elif shape == GROUP_FREE_PAIR:
            rows.append((GROUP_PAIR, [kinds.take(2, only_258=not flush)] * 2, [False] * 2))
    return rows


def _seven_pairs_rows(counts, wilds, quads, kinds: _Kinds):
    """The seven pairs: each natural pair, each odd natural with a king, the other kings in
    pairs of the lowest kinds with room (two pairs of a kind with ``quads``, else one)."""
    rows = []
    for kind in range(N_SUITED):
        for _ in range(int(counts[kind]) // 2):
            rows.append((GROUP_PAIR, [kind] * 2, [True, True]))
        if counts[kind] % 2:
            rows.append((GROUP_PAIR, [kind] * 2, [True, False]))
    kinds.used = np.array([2 * ((int(c) + 1) // 2) for c in kinds.used], np.int64)
    for _ in range((wilds - sum(int(c) % 2 for c in counts)) // 2):
        kind = kinds.take(2, limit=4 if quads else 2)
        rows.append((GROUP_PAIR, [kind] * 2, [False, False]))
    rows.sort(key=lambda row: (row[1][0], [not n for n in row[2]]))
    return rows


def winning_reading(
    concealed, melds, n_melds, x_kind, y_kind, how, tile, params, tables
) -> dict[str, Any] | None:
    """The reading ``scoring.best_win`` scored for a win (its arguments, as the ``win`` hook
    gives them, with ``melds`` the (type, first tile) rows of the winner's melds and ``tile`` the
    winning tile, -1 when none): ``form`` (``standard`` or ``seven_pairs``) and ``groups``, each
    a ``shape`` (``seq``, ``tri``, ``pair``) and its ``tiles`` (``_tile``), and ``features``
    the bits it scores. None for 起手四王/七王 (no hand form is read) or no legal win."""
    if how == A.HOW_INSTANT:
        return None
    concealed = np.asarray(concealed, np.int64)
    claimed = how in (A.HOW_DISCARD, A.HOW_ROB_KONG, A.HOW_KONG_CANNON)
    natural_king = tile if claimed and tile >= 0 and tile in (x_kind, y_kind) else -1
    meld_suits = 0
    used = np.zeros(34, np.int64)
    for index in range(n_melds):
        meld_type, first = int(melds[index][0]), int(melds[index][1])
        meld_suits |= 1 << (first // 9)
        if meld_type == S.MELD_CHI:
            used[first : first + 3] += 1
        else:
            used[first] += 3 if meld_type == S.MELD_PONG else 4
    args = (concealed, meld_suits, n_melds, x_kind, y_kind, how, natural_king, params, tables)
    choice = scored_choice(*args)
    if choice is None:
        return None
    x_natural, y_natural, pairs, flush, features = choice
    counts = concealed.copy()
    wild_faces = []
    for kind, natural in ((x_kind, x_natural), (y_kind, y_natural)):
        if kind < 0:
            continue
        held = int(concealed[kind]) - (natural_king == kind)
        wild_faces += [kind] * (held - natural)
        counts[kind] -= held - natural
    used += counts
    suits = {k // 9 for k in range(N_SUITED) if counts[k]} | {
        int(melds[i][1]) // 9 for i in range(n_melds)
    }
    kinds = _Kinds(used, next(iter(suits)) if flush else None)
    if pairs:
        quads = params[A.P_SEVEN_PAIRS_ALLOW_QUAD] != 0
        rows = _seven_pairs_rows(counts, len(wild_faces), quads, kinds)
    else:
        rows = _standard_rows(counts, len(wild_faces), flush, kinds)
    groups = []
    kings = (x_kind, y_kind)
    for shape, identities, natural in rows:
        tiles = []
        for identity, is_natural in zip(identities, natural, strict=True):
            if is_natural:
                tiles.append(_tile(identity, None, kings))
                continue
            # a king of another face where there is one, so a wild is not read as its own face
            face = next((f for f in wild_faces if f != identity), wild_faces[0])
            wild_faces.remove(face)
            tiles.append(_tile(identity, face, kings))
        groups.append({"shape": SHAPES[shape], "tiles": tiles})
    return {"form": "seven_pairs" if pairs else "standard", "groups": groups, "features": features}


__all__ = ["scored_choice", "winning_reading"]
