"""Anqing 安庆麻将 in a replay: the flip and the 钻, single-tile kongs, 直叫, every score item and
包 factor.

The generic replay (``sim.replay``) words the engine's events; this module words what Anqing's
hooks log: the flipped tile and the 钻 it chooses (C2.2), a single-tile kong of a 杠牌 or of a
钻 (单张杠; a 钻 kong is made only when the rest is ready, 直叫), and at the settlement every
C5.1 item that scored (``item``: its Chinese name and points) and each payer's 包 factor
(``bao``: 1 none, 顺包 / 反包 above), then the payments. With ``lian_zhuang_cumulative`` the
连庄累加 carry (from the record) follows as settlement items. Summing the payments and carries
(payer minus, payee plus) gives every seat's score change. For the JSON form it adds each
``winner`` (S, its items, 直叫, the form) so the settlement can be re-derived from the log.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...kernels import state as S
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
from . import AnqingOptions
from .frames import FEATURE_ZHI_JIAO, FORMS, ITEM_IDS, WIN_KINDS
from .hooks import EVENT_BAO, EVENT_ITEM, HAND_STATUS, SEAT_STATUS
from .record_slots import RA_CARRY, RA_FORM, RA_ITEMS, RA_STREAK, RA_ZUAN
from .scoring_names import ITEM_NAMES

KONG_NAMES = {
    S.MELD_CONCEALED_KONG: "暗杠 concealed kong",
    S.MELD_ADDED_KONG: "加杠 added kong (明杠)",
    S.MELD_DISCARD_KONG: "明杠 kong on a discard",
    S.MELD_SINGLE_KONG: "单张杠 single-tile kong",
}
"""A kong by its meld type; a single-tile kong of a 钻 is a 直叫 kong (C3.2)."""


def _event_text(event: int, seat: int, tile: int, detail: int) -> str | None:
    """A line for the events Anqing's hooks log."""
    if event == S.EVENT_INDICATOR:
        return f"flip 翻牌: {kind_name(tile)} (out of play)"
    if event == S.EVENT_WILD:
        return f"the 钻 (wild) is {kind_name(tile)}"
    if event == EVENT_ITEM:
        return f"seat {seat} scores {ITEM_NAMES[tile]} ({ITEM_IDS[tile]}) {detail}"
    if event == EVENT_BAO:
        kind = "" if detail == 1 else " (包)"
        return f"seat {seat} pays seat {tile} with 包 factor x{detail}{kind}"
    return None


def _event_fields(event: int, seat: int, tile: int, detail: int, record) -> dict[str, Any]:
    """Anqing's words in the JSON events (items and 包 factors are reworded in
    ``describe_json``: their ``tile`` field holds an item id or the winner)."""
    if event == S.EVENT_KONG:
        fields = {"kong_name": KONG_NAMES[detail].split()[0]}
        if detail == S.MELD_SINGLE_KONG and tile == int(record[RA_ZUAN]):
            fields["zhi_jiao"] = True
        return fields
    return {}


WORDS = ReplayWords(
    win_kinds=WIN_KINDS,
    kong_names=KONG_NAMES,
    event_names={EVENT_ITEM: "item", EVENT_BAO: "bao"},
    event_text=_event_text,
    event_fields=_event_fields,
    seat_status=SEAT_STATUS,
    hand_status=HAND_STATUS,
    declarations={},
)


def carries(record: np.ndarray) -> list[tuple[int, int, int]]:
    """(payer, payee, amount) of each 连庄累加 carry of the record (lian_zhuang_cumulative)."""
    out = []
    for seat, _, _ in record_winners(record):
        for payer in range(4):
            amount = int(record[RA_CARRY + payer])
            if payer != seat and amount > 0:
                out.append((payer, seat, amount))
    return out


def describe(
    events: np.ndarray,
    record: np.ndarray,
    n_players: int,
    final: S.FinalPosition | None = None,
) -> list[str]:
    """The events as lines of text (the flip and the 钻, every item and 包 factor among them),
    then every seat's final tiles and status (when ``final`` is given), each winner's S and
    the carries, and every seat's score change."""
    lines = event_lines(events, WORDS)
    if final is not None:
        lines += final_lines(final, WORDS)
    for seat, features, total in record_winners(record):
        zhi_jiao = ", 直叫" if features & FEATURE_ZHI_JIAO else ""
        form = FORMS.get(int(record[RA_FORM]), "")
        streak = int(record[RA_STREAK])
        lines.append(f"seat {seat}: S = {total} ({form}{zhi_jiao}); 连庄 k = {streak}")
    for payer, payee, amount in carries(record):
        lines.append(f"连庄累加: seat {payer} pays seat {payee} {amount} more")
    lines.append(result_line(record, n_players))
    return lines


def winner_objects(record: np.ndarray) -> list[dict[str, Any]]:
    """Each ``winner``: win tile and kind, S (``points``, what each payer pays on before the
    dealer extra, 连庄 and 包), every item that scored (Chinese name -> points), 直叫, form,
    and ``lian_zhuang``: the dealer's 连庄 count k the hand was dealt with (with S, the dealer,
    the options and the 包 factors it gives every payment, C5.2)."""
    objects = []
    for seat, features, total in record_winners(record):
        items = {
            ITEM_NAMES[i]: int(record[RA_ITEMS + i])
            for i in range(len(ITEM_NAMES))
            if features >> i & 1
        }
        fields = {
            "points": total,
            "items": items,
            "zhi_jiao": bool(features & FEATURE_ZHI_JIAO),
            "form": FORMS.get(int(record[RA_FORM]), ""),
            "lian_zhuang": int(record[RA_STREAK]),
        }
        objects.append(winner_object(record, seat, WORDS, fields))
    return objects


def describe_json(
    options: AnqingOptions,
    wall: np.ndarray,
    record: np.ndarray,
    events: np.ndarray,
    final: S.FinalPosition,
) -> list[dict[str, Any]]:
    """The hand as JSON-ready objects: the events (``sim.replay.event_objects``; each item with
    its name and points, each 包 factor with payer and payee), the 连庄累加 carries as
    ``settlement`` objects, every seat's ``final_hand``, the ``hand_status``, each ``winner``
    and the ``result``."""
    objects = event_objects(events, wall, record, WORDS)
    for row, obj in zip(events, objects, strict=True):
        event, seat, tile, detail = (int(x) for x in row)
        if event == EVENT_ITEM:
            obj.update(
                {"tile": None, "item": ITEM_IDS[tile], "item_name": ITEM_NAMES[tile],
                 "points": detail}
            )  # fmt: skip
        elif event == EVENT_BAO:
            obj.update({"tile": None, "payer": seat, "payee": tile, "factor": detail})
    for payer, payee, amount in carries(record):
        objects.append(
            {"event": "settlement", "seat": payer, "tile": None, "item": "carry",
             "item_name": "连庄累加", "payer": payer, "payee": payee, "amount": amount}
        )  # fmt: skip
    objects += final_objects(final, [int(record[RA_ZUAN])], WORDS)
    objects += winner_objects(record)
    objects.append(result_object(record, options.player_count, WORDS))
    return objects


__all__ = ["KONG_NAMES", "WORDS", "describe", "describe_json", "winner_objects"]
