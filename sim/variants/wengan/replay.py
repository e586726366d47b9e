"""Weng'an 贵州瓮安麻将 in a replay: its own events, pattern names and settlement.

The generic replay (``sim.replay``) words the engine's events, 报听 and 定缺 among its
declarations and the declined pongs / kongs (``pass_claim``) among them; this module words what
Weng'an's hooks log: the chicken flip(s) after a win (翻牌鸡, the tail too with 前后翻鸡), and
at the settlement each scoring chicken tile (owner, kind, where it lies, value: ``chicken``),
each kong's dou kind (闷豆, 爬坡豆, 点豆, 憨包豆: ``dou``) and every settlement item whole (牌型分,
连庄 / 一口二, 热炮, 杀听, 荒庄查叫, 鸡分, 责任鸡, 包鸡, 豆分, 包杠, 原缺: ``settlement``, with
payer, payee and amount), in the order ``settle.settle`` made them; a seat's chicken and dou
lines end "not paid" when no item pays them (burned on a 荒庄, 烧鸡 / 烧豆, or a seat that does
not collect). Summing the items (payer minus, payee plus) gives every seat's score change;
``tests/test_replay.py`` checks it. For the JSON form it adds each ``winner`` (pattern, its
points, the 名堂, T) and names each chicken's kinds (幺鸡, 乌骨鸡, 翻牌鸡, 本鸡, 摇摆鸡, 金鸡,
冲锋鸡, 星期鸡) from the options and the flips.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

import numpy as np

from ...kernels import state as S
from ...kernels.moves import FLIP_TAIL, HOW_DISCARD
from ...replay import (
    ReplayWords,
    event_lines,
    event_objects,
    final_lines,
    final_objects,
    record_winners,
    result_line,
    result_object,
    winner_object,
)
from ...tiles import kind_name
from . import WenganOptions
from .frames import FEATURE_PATTERN, MINGTANG, WIN_KINDS, mingtang_names
from .hooks import (
    DECLARATION_NAMES,
    DECLARE_QUE,
    EVENT_CHICKEN,
    EVENT_DOU,
    EVENT_ITEM,
    HAND_STATUS,
    SEAT_STATUS,
)
from .patterns import PATTERN_IDS, PATTERN_NAMES, PATTERN_POINTS
from .settle import DOU_KINDS, ITEM_BAO_GANG, ITEM_BAO_JI, ITEM_CHICKEN, ITEM_DOU, ITEM_KINDS

KONG_NAMES = {
    S.MELD_CONCEALED_KONG: "暗杠 concealed kong (闷豆)",
    S.MELD_ADDED_KONG: "补杠 added kong (爬坡豆)",
    S.MELD_DISCARD_KONG: "明杠 kong on a discard (点豆)",
}
"""A kong by its meld type; a kong made late is a 憨包豆 (its ``dou`` line at the end says)."""
DOU_NAMES = dict(zip(DOU_KINDS, ("-", "闷豆", "爬坡豆", "点豆", "憨包豆"), strict=True))
WHERE = ("hand", "meld", "discards")
SUITS = "mps"
ONE_S, EIGHT_P = 18, 16


def _is_item(event: int) -> bool:
    return EVENT_ITEM <= event < EVENT_ITEM + len(ITEM_KINDS)


def _event_text(
    event: int, seat: int, tile: int, detail: int, unpaid: frozenset = frozenset()
) -> str | None:
    """A line for the events Weng'an's hooks log and the declarations it makes; ``unpaid``
    (``_unpaid``): the (event, seat) whose chickens or dou no settlement item pays."""
    if event == S.EVENT_INDICATOR:
        which = "last undrawn tile (前后翻鸡)" if detail == FLIP_TAIL else "next tile"
        return f"chicken flip 翻牌鸡: the {which} is {kind_name(tile)}"
    if event == S.EVENT_DECLARE and detail == DECLARE_QUE:
        return f"seat {seat} declares 定缺: lacks suit {SUITS[tile // 9]}"
    if event == EVENT_CHICKEN:
        value, where = detail % 256, WHERE[detail // 256]
        line = f"seat {seat} owns chicken {kind_name(tile)} in its {where}, worth {value}"
        return line + (", not paid" if (event, seat) in unpaid else "")
    if event == EVENT_DOU:
        line = f"seat {seat}'s kong of {kind_name(tile)} is a {DOU_NAMES[DOU_KINDS[detail]]}"
        return line + (", not paid" if (event, seat) in unpaid else "")
    if _is_item(event):
        english, chinese = ITEM_KINDS[event - EVENT_ITEM]
        return f"settlement {chinese} ({english}): seat {seat} pays seat {tile} {detail}"
    return None


def _unpaid(events: np.ndarray) -> frozenset:
    """(``EVENT_CHICKEN`` or ``EVENT_DOU``, seat) for each seat the log shows chickens or dou
    of that no settlement item pays: no 鸡分 to the seat and no 包鸡 from it, or no 豆分 to it
    and no 包杠 from it (B5.7-B5.10: burned on a 荒庄 or by 烧鸡 / 烧豆, or owned by a seat
    that does not collect, without 包). A seat some of whose chickens are paid is not named,
    though 包鸡's scope may leave others of them unpaid."""
    owners, settled = set(), set()
    for event, seat, payee, _ in (tuple(int(x) for x in row) for row in events):
        if event in (EVENT_CHICKEN, EVENT_DOU):
            owners.add((event, seat))
        elif _is_item(event):
            kind = event - EVENT_ITEM
            if kind == ITEM_CHICKEN:
                settled.add((EVENT_CHICKEN, payee))
            elif kind == ITEM_BAO_JI:
                settled.add((EVENT_CHICKEN, seat))
            elif kind == ITEM_DOU:
                settled.add((EVENT_DOU, payee))
            elif kind == ITEM_BAO_GANG:
                settled.add((EVENT_DOU, seat))
    return frozenset(owners - settled)


def _event_fields(event: int, seat: int, tile: int, detail: int, record) -> dict[str, Any]:
    """Weng'an's words in the JSON events (the settlement items are reworded in
    ``describe_json``: their ``tile`` field holds the payee)."""
    if event == S.EVENT_INDICATOR:
        return {"flip": "tail" if detail == FLIP_TAIL else "head"}
    if event == S.EVENT_DECLARE and detail == DECLARE_QUE:
        return {"que_suit": SUITS[tile // 9]}
    if event == EVENT_CHICKEN:
        return {"owner": seat, "where": WHERE[detail // 256], "value": detail % 256}
    if event == EVENT_DOU:
        return {"dou": DOU_KINDS[detail], "dou_name": DOU_NAMES[DOU_KINDS[detail]]}
    if event == S.EVENT_KONG:
        return {"kong_name": KONG_NAMES[detail].split()[0]}
    return {}


WORDS = ReplayWords(
    win_kinds=WIN_KINDS,
    kong_names=KONG_NAMES,
    event_names={
        EVENT_CHICKEN: "chicken",
        EVENT_DOU: "dou",
        **{EVENT_ITEM + k: "settlement" for k in range(len(ITEM_KINDS))},
    },
    event_text=_event_text,
    event_fields=_event_fields,
    seat_status=SEAT_STATUS,
    hand_status=HAND_STATUS,
    declarations=DECLARATION_NAMES,
)


def describe(
    events: np.ndarray,
    record: np.ndarray,
    n_players: int,
    final: S.FinalPosition | None = None,
) -> list[str]:
    """The events as lines of text (the flips, every chicken, dou and settlement item among
    them), then every seat's final tiles and status (when ``final`` is given), each winner's
    pattern, 名堂 and T, and every seat's score change."""
    unpaid = _unpaid(events)
    words = replace(WORDS, event_text=lambda *event: _event_text(*event, unpaid=unpaid))
    lines = event_lines(events, words)
    if final is not None:
        lines += final_lines(final, WORDS)
    for seat, features, total in record_winners(record):
        code = features & FEATURE_PATTERN
        named = mingtang_names(features)
        extra = f" + {named}" if named else ""
        lines.append(
            f"seat {seat}: {PATTERN_NAMES[code]} ({PATTERN_POINTS[code]}){extra}, T = {total}"
        )
    lines.append(result_line(record, n_players))
    return lines


def winner_objects(record: np.ndarray) -> list[dict[str, Any]]:
    """Each ``winner``: win tile and kind, payer, pattern (Chinese and English, B5.1), its
    points, the 名堂 and facts (Chinese), and T, the points each payer pays on (B5.3)."""
    objects = []
    for seat, features, total in record_winners(record):
        code = features & FEATURE_PATTERN
        fields = {
            "pattern": PATTERN_NAMES[code],
            "pattern_id": PATTERN_IDS[code],
            "pattern_points": PATTERN_POINTS[code],
            "mingtang": [chinese for bit, _, chinese in MINGTANG if features & bit],
            "points": total,
        }
        objects.append(winner_object(record, seat, WORDS, fields))
    return objects


def _designated(kind: int, flips: list[int], options: WenganOptions) -> list[str]:
    """The flip chickens a kind is (B5.5): 翻牌鸡 (rank + 1), 本鸡 (the flip), 摇摆鸡 (rank - 1)."""
    names = []
    if not options.fan_pai_ji:
        return names
    for flip in flips:
        if kind == flip - flip % 9 + (flip % 9 + 1) % 9:
            names.append("翻牌鸡")
        if options.ben_ji and kind == flip:
            names.append("本鸡")
        if options.yao_bai_ji and kind == flip - flip % 9 + (flip % 9 + 8) % 9:
            names.append("摇摆鸡")
    return names


def chicken_names(
    kind: int, flips: list[int], options: WenganOptions, charging: bool = False
) -> list[str]:
    """Every chicken kind a scoring tile is (B5.4-B5.6), in Chinese; ``charging``: it is a
    冲锋鸡 (``charging_discards``)."""
    fixed = kind == ONE_S or (kind == EIGHT_P and options.wu_gu_ji)
    names = ["幺鸡" if kind == ONE_S else "乌骨鸡"] if fixed else []
    flipped = _designated(kind, flips, options)
    names += flipped
    gold = (fixed and options.jin_ji) or (options.quan_qing_yao and kind in (0, 9))
    if gold and flipped:
        names.append("金鸡")
    if charging:
        mode = options.chong_feng_mode
        names.append("冲锋鸡" if mode == "plain" else f"冲锋鸡{mode}")
    if options.xing_qi_ji and kind % 9 + 1 == options.xing_qi_ji_weekday:
        names.append("星期鸡")
    return names


def _claims_last(event: int, seat: int, tile: int, detail: int, last: list) -> bool:
    """Whether the event takes the last discard ``last`` (seat, kind, claimed): a pong, a kong
    on it or a win on it by another seat."""
    takes = (
        event == S.EVENT_PONG
        or (event == S.EVENT_KONG and detail == S.MELD_DISCARD_KONG)
        or (event == S.EVENT_WIN and detail == HOW_DISCARD)
    )
    return takes and tile == last[1] and seat != last[0]


def charging_discards(events: np.ndarray, options: WenganOptions) -> Counter:
    """(seat, kind) -> how many of the seat's unclaimed discards are 冲锋鸡 (B5.6): the hand's
    first 1s (first 8p too with 乌骨鸡) when unclaimed, in the plain mode; every unclaimed 1s in
    the 4321 / 3211 modes (valued by its order)."""
    discards = []  # [seat, kind, claimed]
    for event, seat, tile, detail in (tuple(int(x) for x in row) for row in events):
        if event == S.EVENT_DISCARD:
            discards.append([seat, tile, False])
        elif discards and _claims_last(event, seat, tile, detail, discards[-1]):
            discards[-1][2] = True
    charging = Counter()
    mode = options.chong_feng_mode
    if mode == "none":
        return charging
    kinds = (ONE_S, EIGHT_P) if mode == "plain" and options.wu_gu_ji else (ONE_S,)
    for kind in kinds:
        of_kind = [d for d in discards if d[1] == kind]
        for seat, _, claimed in of_kind[:1] if mode == "plain" else of_kind:
            if not claimed:
                charging[(seat, kind)] += 1
    return charging


def _settlement_object(payer: int, payee: int, amount: int, kind: int) -> dict[str, Any]:
    english, chinese = ITEM_KINDS[kind]
    return {
        "event": "settlement",
        "seat": payer,
        "tile": None,
        "item": english,
        "item_name": chinese,
        "payer": payer,
        "payee": payee,
        "amount": amount,
    }


def describe_json(
    options: WenganOptions,
    wall: np.ndarray,
    record: np.ndarray,
    events: np.ndarray,
    final: S.FinalPosition,
) -> list[dict[str, Any]]:
    """The hand as JSON-ready objects: the events (``sim.replay.event_objects``; each chicken
    with its kinds, each settlement item with payer, payee and amount), every seat's
    ``final_hand`` (its status), the ``hand_status``, each ``winner`` and the ``result``."""
    objects = event_objects(events, wall, record, WORDS)
    flips = [int(t) for e, _, t, _ in events if e == S.EVENT_INDICATOR]
    charging = charging_discards(events, options)
    # one object per event, besides the ``kong_declared`` line before a robbed kong's robbers
    logged = (obj for obj in objects if obj["event"] != "kong_declared")
    for row, obj in zip(events, logged, strict=True):
        event, seat, tile, detail = (int(x) for x in row)
        if _is_item(event):
            obj.clear()
            obj.update(_settlement_object(seat, tile, detail, event - EVENT_ITEM))
        elif event == EVENT_CHICKEN:
            is_charging = obj["where"] == "discards" and charging[(seat, tile)] > 0
            if is_charging:
                charging[(seat, tile)] -= 1
            obj["chicken"] = chicken_names(tile, flips, options, is_charging)
    objects += final_objects(final, [], WORDS)
    objects += winner_objects(record)
    objects.append(result_object(record, options.player_count, WORDS))
    return objects


__all__ = ["KONG_NAMES", "WORDS", "describe", "describe_json", "winner_objects"]
