"""Anqing 安庆麻将: the reading of a win that ``scoring.best_score`` scored, for the replay.

``best_score`` (numba) returns S and the items, not the reading that gave them. This module
walks the same readings in plain Python, calling the scoring kernels' helpers on each
(``_standard_reading``, ``decompositions``, ...), and keeps the one ``best_score`` keeps: of the
form it chose, the first reading (in the kernels' order) with the highest points, which gives
its items and S. The 钻 that a reading leaves free to stand for "elsewhere" (a seven-pairs pair of
钻 neither at the face nor of W's kind; a 十三烂 honour slot) are given the lowest kind that
fits; any such kind scores the same. Pure Python over small hands: replay only, never in play.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.tiles import kind_name
from ...kernels.hand import (
    GROUP_FREE_PAIR,
    GROUP_FREE_SET,
    GROUP_NONE,
    GROUP_PAIR,
    GROUP_SEQUENCE,
    GROUP_TRIPLET,
    MAX_GROUPS,
    decompositions,
)
from . import scoring as Q

SHAPES = {GROUP_SEQUENCE: "seq", GROUP_TRIPLET: "tri", GROUP_PAIR: "pair"}


def _tile(identity: int, zuan: int, is_zuan: bool, physical: int | None = None) -> dict[str, Any]:
    """One tile as read: ``tile`` its physical kind (a 钻 starred), ``as`` the kind it stands
    for, ``zuan`` a 钻, ``stand_in`` a 红中 standing for the 钻's face."""
    if physical is None:
        physical = zuan if is_zuan else (Q.RED if identity == zuan and zuan < Q.RED else identity)
    name = kind_name(int(physical)) + ("*" if is_zuan else "")
    stand_in = not is_zuan and physical != identity
    return {"tile": name, "as": kind_name(int(identity)), "zuan": is_zuan, "stand_in": stand_in}


def _group(shape: str, identities: list[int], natural: list[bool], zuan: int) -> dict[str, Any]:
    tiles = [_tile(k, zuan, not n) for k, n in zip(identities, natural, strict=True)]
    return {"shape": shape, "tiles": tiles}


def _standard(naturals, win, ctx, melded_winds, params) -> list[dict[str, Any]] | None:
    """``_best_standard``'s reading: its first decomposition (and 钻-only set identity) with the
    highest points, as groups."""
    zuan, n_zuan, no_chi = int(ctx[0]), int(ctx[1]), ctx[4] != 0
    capacity = Q._DECOMPOSITION_CAPACITY
    out = np.empty((capacity, MAX_GROUPS, 3), np.int8)
    found = min(decompositions(naturals.copy(), np.int64(n_zuan), False, out), capacity)
    free_options = np.empty((8, 2), np.int64)
    n_free = Q._free_set_options(np.int64(zuan), free_options)
    crane = n_zuan + int(naturals.sum()) == 2
    best, chosen = -1, None
    for d in range(found):
        rows = []  # (shape, identities, natural flags)
        free_sets = 0
        for g in range(MAX_GROUPS):
            shape, first, mask = (int(x) for x in out[d, g])
            if shape == GROUP_NONE:
                continue
            if shape == GROUP_FREE_SET:
                free_sets += 1
            elif shape == GROUP_FREE_PAIR:
                rows.append((GROUP_PAIR, [zuan] * 2, [False] * 2))
            elif shape == GROUP_SEQUENCE:
                rows.append(
                    (shape, [first + j for j in range(3)], [bool(mask >> j & 1) for j in range(3)])
                )
            else:
                size = 3 if shape == GROUP_TRIPLET else 2
                rows.append((shape, [first] * size, [j < mask for j in range(size)]))
        choices = [None] if free_sets == 0 else list(range(n_free))
        for choice in choices:
            used = list(rows)
            if choice is not None:
                shape, first = int(free_options[choice, 0]), int(free_options[choice, 1])
                kinds = [first] * 3 if shape == GROUP_TRIPLET else [first, first + 1, first + 2]
                used.append((shape, kinds, [False] * 3))
            groups = np.empty((MAX_GROUPS, 2), np.int64)
            zuan_for = np.zeros(Q.N_KINDS, np.int64)
            for index, (shape, kinds, natural) in enumerate(used):
                groups[index] = (shape, kinds[0])
                for kind, is_natural in zip(kinds, natural, strict=True):
                    zuan_for[kind] += not is_natural
            n_groups = np.int64(len(used))
            verdict = Q._standard_reading(groups, n_groups, zuan_for, win, ctx, params)
            if verdict <= 0:
                continue
            points = 6 if verdict == 2 else 0
            if no_chi and not Q._has_sequence(groups, n_groups):
                points += 3
            points += Q._wind_triplets(groups, n_groups) + melded_winds
            if crane:
                points += 3 if n_zuan > 0 else 30
            if points > best:
                best, chosen = points, used
    if chosen is None:
        return None
    return [_group(SHAPES[shape], kinds, natural, zuan) for shape, kinds, natural in chosen]


def _seven_pairs(naturals, win, ctx, params) -> list[dict[str, Any]]:
    """``_best_seven_pairs``'s reading: the first (pairs of 钻 at the face, at W's kind) with the
    highest points; the other pairs of 钻 at the lowest kinds with room."""
    zuan, n_zuan = int(ctx[0]), int(ctx[1])
    has_zuan, discarded, bloom, unique_ok = n_zuan > 0, ctx[2] != 0, ctx[3] != 0, ctx[5] != 0
    limit = 2 if params[Q.P_SEVEN_PAIRS_ALLOW_QUAD] else 1
    diao = params[Q.P_JIAN_ZI_HU_DEFINITION] == Q.JIAN_ZI_HU_ZUAN_DIAO
    needed = sum(int(c) % 2 for c in naturals)
    free = (n_zuan - needed) // 2
    w, w_natural = int(win[1]), not win[2]
    face_room = limit - (int(naturals[zuan]) + 1) // 2
    w_room = limit - (int(naturals[w]) + 1) // 2 if w_natural and w != zuan else 0
    best, chosen = -1, (0, 0)
    for at_face in range(min(free, face_room) + 1):
        for at_w in range(min(free - at_face, w_room) + 1):
            for_face = int(naturals[zuan]) % 2 + 2 * at_face
            off_face = n_zuan - for_face
            own = off_face == 0
            legal = False
            if w_natural:
                seen = Q._suited_win_counts(win[0], np.int64(w), params)
                if diao:
                    pairs_w = int(naturals[w]) % 2 + 2 * at_w + (2 * at_face if w == zuan else 0)
                    seen = seen and pairs_w >= 1
                legal = Q._conditions_met(False, unique_ok, seen, has_zuan, discarded, bloom)
            else:
                if for_face >= 1:
                    seen = zuan < 27 and (not diao or for_face >= 2)
                    legal = Q._conditions_met(False, True, seen, has_zuan, discarded, bloom)
                if off_face >= 1:
                    legal = legal or Q._conditions_met(
                        False, False, False, has_zuan, discarded, bloom
                    )
            if not legal:
                continue
            if own and n_zuan == 4:
                points = int(params[Q.P_SHUANG_TIAN_HU_POINTS])
            else:
                points = 30 if own else 9
            if points > best:
                best, chosen = points, (at_face, at_w)
    pairs = np.zeros(Q.N_KINDS, np.int64)
    groups = []
    for kind in range(Q.N_KINDS):
        count = int(naturals[kind])
        for _ in range(count // 2):
            groups.append((kind, [True, True]))
        if count % 2:
            groups.append((kind, [True, False]))
        pairs[kind] = (count + 1) // 2
    at_face, at_w = chosen
    placed = [zuan] * at_face + ([w] * at_w if at_w else [])
    for kind in range(Q.N_KINDS):  # the rest: "elsewhere", the lowest kinds with room
        if kind in (zuan, w if w_natural else -1) or not Q.may_stand_for(kind, zuan):
            continue
        while len(placed) < free and pairs[kind] + placed.count(kind) < limit:
            placed.append(kind)
    for kind in placed:
        groups.append((kind, [False, False]))
    groups.sort(key=lambda g: (g[0], [not n for n in g[1]]))
    return [_group("pair", [kind] * 2, natural, zuan) for kind, natural in groups]


def _shisanlan(hand, zuan, params) -> list[dict[str, Any]]:
    """``_best_shisanlan``'s reading: the first target (per-suit rank sets, honours) with the
    highest points; 钻 fill its empty slots, the honour ones the face first, then the lowest."""
    literal = params[Q.P_SHISANLAN_HONOURS_LITERAL] != 0
    n_zuan = int(hand[zuan])
    held = {}  # identity -> physical
    for kind in range(Q.N_KINDS):
        if kind != zuan and hand[kind]:
            held[kind if literal else int(Q.class_one_kind(kind, zuan))] = kind
    rank_sets = np.empty(512, np.int64)
    sets = [int(m) for m in rank_sets[: Q._rank_sets(rank_sets)]]
    candidates = []
    for suit in range(3):
        held_mask = sum(1 << r for r in range(9) if 9 * suit + r in held)
        barred = sum(
            1 << r for r in range(9) if not literal and not Q.may_stand_for(9 * suit + r, zuan)
        )
        candidates.append([m for m in sets if m & held_mask == held_mask and m & barred == 0])
    free_honours = [
        k for k in range(27, Q.N_KINDS) if k not in held and (literal or Q.may_stand_for(k, zuan))
    ]
    face_free = zuan in free_honours
    held_honours = sum(k >= 27 for k in held)
    best, chosen = -1, None
    for masks in ((a, b, c) for a in candidates[0] for b in candidates[1] for c in candidates[2]):
        slots = [9 * s + r for s in range(3) for r in range(9) if masks[s] >> r & 1]
        face_slot = any(k == zuan and k not in held for k in slots)
        extra = 14 - len(slots) - held_honours
        if extra < 0 or extra > len(free_honours):
            continue
        if zuan >= 27 and face_free and extra >= 1:
            face_slot = True
        stars = len(slots) == 7 and (extra == 0 or (extra == 1 and face_free))
        points = 3 if stars else 0
        if n_zuan == 0:
            points += 9
        elif n_zuan == 1 and face_slot:
            points += 6
        else:
            points += 3
        if points > best:
            best, chosen = points, (slots, extra)
    slots, extra = chosen
    honours = sorted(free_honours, key=lambda k: (k != zuan, k))[:extra]
    out = []
    for identity in sorted({*slots, *(k for k in held if k >= 27), *honours}):
        if identity in held:
            tile = _tile(identity, zuan, False, held[identity])
        else:
            tile = _tile(identity, zuan, True)
        out.append({"shape": "single", "tiles": [tile]})
    return out


def winning_reading(
    hand, zuan, win_tile, melds, n_melds, single_kongs, zuan_kongs, discarded, chain, heavenly,
    params,
) -> dict[str, Any] | None:  # fmt: skip
    """The reading ``scoring.best_score`` scored for these arguments (its own): ``form``
    (``standard``, ``seven_pairs`` or ``shisanlan``) and ``groups``, each a ``shape`` (``seq``,
    ``tri``, ``pair``; ``single`` for a 十三烂 slot) and its ``tiles`` (``_tile``); with
    ``points`` and ``items`` the S and item points it scores. None when no legal win."""
    hand = np.asarray(hand, np.int64).copy()
    melds = np.asarray(melds, np.int64)
    items = np.zeros(Q.N_ITEM_SLOTS, np.int64)
    args = (hand, zuan, win_tile, melds, n_melds, single_kongs, zuan_kongs, discarded, chain)
    total = int(Q.best_score(*args, np.int64(heavenly), params, items))
    if total == Q.NO_LEGAL_WIN:
        return None
    form = int(items[Q.S_FORM])
    scratch = np.zeros(Q.N_ITEM_SLOTS, np.int64)
    melded_winds = int(
        Q._fixed_items(
            hand, zuan, melds, n_melds, single_kongs, zuan_kongs, chain, np.int64(heavenly),
            params, scratch,
        )
    )  # fmt: skip
    n_zuan = int(hand[zuan])
    naturals = np.zeros(Q.N_KINDS, np.int64)
    size = n_zuan
    for kind in range(Q.N_KINDS):
        if kind != zuan and hand[kind]:
            naturals[Q.class_one_kind(kind, zuan)] += hand[kind]
            size += int(hand[kind])
    no_chi = all(melds[i, 0] != Q.MELD_CHI for i in range(n_melds))
    is_zuan = win_tile == zuan
    identity = -1 if is_zuan else int(Q.class_one_kind(win_tile, zuan))
    win = np.array([win_tile, identity, int(is_zuan)], np.int64)
    unique_ok = True
    class_one = not any(hand[k] and k != zuan and Q.is_gang_tile(k, zuan) for k in range(Q.N_KINDS))
    if class_one and params[Q.P_PAO_FENG_DEFINITION] == Q.PAO_FENG_UNIQUE_WAIT and n_zuan == 0:
        held = naturals.copy()
        for index in range(n_melds):
            first = Q.class_one_kind(melds[index, 1], zuan)
            if melds[index, 0] == Q.MELD_CHI:
                held[first : first + 3] += 1
            else:
                held[first] += 3 if melds[index, 0] == Q.MELD_PONG else 4
        rest = naturals.copy()
        rest[identity] -= 1
        held[identity] -= 1
        unique_ok = Q._standard_waits(rest, held, np.int64(zuan), size == 14, params) == 1
    ctx = np.array(
        [zuan, n_zuan, int(discarded != 0), int(chain > 0), int(no_chi), int(unique_ok)], np.int64
    )
    if form == Q.FORM_STANDARD:
        groups = _standard(naturals, win, ctx, melded_winds, params)
        name = "standard"
    elif form == Q.FORM_SEVEN_PAIRS:
        groups, name = _seven_pairs(naturals, win, ctx, params), "seven_pairs"
    else:
        groups, name = _shisanlan(hand, zuan, params), "shisanlan"
    return {"form": name, "groups": groups or []}


__all__ = ["winning_reading"]
