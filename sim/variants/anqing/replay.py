"""Anqing 安庆麻将 in a replay: the flip and the 钻, single-tile kongs, 直叫, every score item and
包 factor.

The generic replay (``sim.variants.replay``) words the engine's events; this module words what
Anqing's hooks log: the flipped tile and the 钻 it chooses (§anqing-zuan), a single-tile kong of a
杠牌 or of a 钻 (单张杠; a 钻 kong is made only when the rest is ready, 直叫), and at the settlement
every §anqing-score-table item that scored (``item``: its Chinese name and points) and each payer's
包 factor (``bao``: 1 none, 顺包 / 反包 above), then the payments. With ``lian_zhuang_cumulative``
the 连庄累加 carry (from the record) follows as settlement items. Summing the payments and carries
(payer minus, payee plus) gives every seat's score change. For the JSON form it adds each ``winner``
(S, its items, 直叫, the form, the tile a 天胡 is counted on, the 天胡 / 地胡 window, the kong chain
of a 杠开 and D) so the settlement can be re-derived from the log; the 连庄 count in the header and
the next one in the result; each kong's kind (暗杠, 加杠, 明杠, a 杠牌's or a 钻's single-tile kong)
on its event and meld, the single-tile kongs among the ``final_hand`` melds (the engine keeps no
meld row for them), and on the 杠牌 and 杠开 items the kongs they pay for."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.tiles import format_hand, kind_name
from ...kernels import record as R
from ...kernels import state as S
from ...kernels.moves import HOW_KONG_BLOOM
from ..replay import (
    KONG_TYPES,
    ReplayWords,
    event_lines,
    event_objects,
    final_lines,
    final_objects,
    header_fields,
    record_winners,
    result_line,
    result_object,
    winner_object,
)
from . import AnqingOptions
from .frames import FEATURE_ZHI_JIAO, FORMS, ITEM_IDS, WIN_KINDS
from .hooks import (
    EVENT_BAO,
    EVENT_ITEM,
    HAND_MELDED,
    HAND_STATUS,
    SEAT_STATUS,
    ST_DISCARDED_ZUAN,
    ST_FIRST_TURN,
    ST_GANG_KONGS,
    ST_KONG_CHAIN,
    ST_ZUAN_KONGS,
)
from .reading import winning_reading
from .record_slots import RA_CARRY, RA_FORM, RA_ITEMS, RA_NEXT_STREAK, RA_STREAK, RA_ZUAN
from .scoring_names import ITEM_ENGLISH, ITEM_NAMES

KONG_NAMES = {
    S.MELD_CONCEALED_KONG: "暗杠 concealed kong",
    S.MELD_ADDED_KONG: "加杠 added kong (明杠)",
    S.MELD_DISCARD_KONG: "明杠 kong on a discard",
    S.MELD_SINGLE_KONG: "单张杠 single-tile kong",
}
"""A kong by its meld type; a single-tile kong of a 钻 is a 直叫 kong
(§anqing-zuan-kong-needs-zhi-jiao)."""

KONG_KINDS = {
    S.MELD_CONCEALED_KONG: "an_gang",
    S.MELD_ADDED_KONG: "jia_gang",
    S.MELD_DISCARD_KONG: "ming_gang",
    S.MELD_SINGLE_KONG: "single_gang_pai",
}
"""A kong's ``kong_kind`` by its meld type (§anqing-gang-tile-kong, §anqing-kongs): 暗杠, 加杠
(counted as 明杠), 明杠 on a discard, a 杠牌's single-tile kong; a 钻's single-tile kong (直叫,
§anqing-zuan-kong-needs-zhi-jiao) is ``single_zuan``."""


def kong_kind(meld_type: int, tile: int, zuan: int) -> str:
    """The ``kong_kind`` of a kong of ``tile`` (``KONG_KINDS``; ``single_zuan`` for a 钻)."""
    if meld_type == S.MELD_SINGLE_KONG and tile == zuan:
        return "single_zuan"
    return KONG_KINDS[meld_type]


def _event_text(event: int, seat: int, tile: int, detail: int) -> str | None:
    """A line for the events Anqing's hooks log."""
    if event == S.EVENT_INDICATOR:
        return f"flip 翻牌: {kind_name(tile)} (out of play)"
    if event == S.EVENT_WILD:
        return f"the 钻 (wild) is {kind_name(tile)}"
    if event == EVENT_ITEM:
        points = f"{detail} point{'' if detail == 1 else 's'}"
        return f"seat {seat} scores {ITEM_NAMES[tile]} ({ITEM_ENGLISH[tile]}): {points}"
    if event == EVENT_BAO:
        kind = " (no 包)" if detail == 1 else ""
        return f"seat {seat} pays seat {tile} with 包 factor {detail}{kind}"
    return None


def _event_fields(event: int, seat: int, tile: int, detail: int, record) -> dict[str, Any]:
    """Anqing's words in the JSON events (items and 包 factors are reworded in
    ``describe_json``: their ``tile`` field holds an item id or the winner)."""
    if event == S.EVENT_KONG:
        zuan = int(record[RA_ZUAN])
        fields = {"kong_name": KONG_NAMES[detail].split()[0]}
        fields["kong_kind"] = kong_kind(detail, tile, zuan)
        if detail == S.MELD_SINGLE_KONG and tile == zuan:
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


FORM_WORDS = {
    "standard": "sets and a pair",
    "seven_pairs": "seven pairs 七小对",
    "shisanlan": "十三烂 (thirteen unrelated)",
}
"""A winning form (``frames.FORMS``) in the text replay: a class-1 hand of sets and a pair
(§anqing-class-one), seven pairs (§anqing-seven-pairs) or a 十三烂 (§anqing-shisanlan)."""


def describe(
    events: np.ndarray,
    record: np.ndarray,
    n_players: int,
    final: S.FinalPosition | None = None,
    wall: np.ndarray | None = None,
) -> list[str]:
    """The events as lines of text (each deal with its tiles when the ``wall`` is given; the
    flip and the 钻, every item and 包 factor among them), then every seat's final tiles and
    status (when ``final`` is given), each winner's points S (§anqing-score-table), form and
    the dealer's 连庄 count k the hand was dealt with, the carries, and every seat's score
    change."""
    lines = event_lines(events, WORDS, wall)
    if final is not None:
        lines += final_lines(final, WORDS)
    for seat, features, total in record_winners(record):
        zhi_jiao = ", 直叫" if features & FEATURE_ZHI_JIAO else ""
        form = FORMS.get(int(record[RA_FORM]), "")
        streak = int(record[RA_STREAK])
        lines.append(
            f"seat {seat}: points {total} (S), {FORM_WORDS.get(form, form)}{zhi_jiao}; "
            f"dealer's 连庄 count {streak} (k)"
        )
    for payer, payee, amount in carries(record):
        lines.append(f"连庄累加 (streak carry): seat {payer} pays seat {payee}: {amount} more")
    lines.append(result_line(record, n_players))
    return lines


def counted_tile(record: np.ndarray, wall: np.ndarray, n_players: int) -> int:
    """The tile a win is counted on (W, §anqing-self-draw-only): the winning tile, or for a 天胡 on
    the dealt 14 the dealer's last tile dealt, as ``hooks.seat_score`` counts it; -1 on a draw."""
    tile = int(record[R.R_WINNING_TILE])
    if tile >= 0 or int(record[R.R_OUTCOME]) != R.OUTCOME_WIN:
        return tile
    return int(wall[13 * n_players])


def winner_objects(
    record: np.ndarray,
    final: S.FinalPosition | None = None,
    wall: np.ndarray | None = None,
    options: AnqingOptions | None = None,
) -> list[dict[str, Any]]:
    """Each ``winner``: win tile and kind, S (``points``, what each payer pays on before the dealer
    extra, 连庄 and 包), every item that scored (Chinese name -> points), 直叫, form, and
    ``lian_zhuang``: the dealer's 连庄 count k the hand was dealt with (with S, the dealer, the
    options and the 包 factors it gives every payment, §anqing-payments). With ``final`` and
    ``wall`` also what the scorer was given beside the tiles (``hooks.seat_score``): the tile a win
    on the dealt 14 is counted on (``on_dealt_tiles``), ``heavenly_window`` (天胡 / 地胡's window
    held: the seat's first turn, nobody has made a chi, pong or 4-tile kong), ``kong_chain`` (the
    kongs in a row before a 杠开's replacement, 0 otherwise) and ``discarded_zuan`` (D); with
    ``options`` too the ``reading`` the scorer scored (``reading.winning_reading``: form, groups,
    each tile with the kind it stands for, 钻 and 红中 stand-ins marked)."""
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
            "on_dealt_tiles": int(record[R.R_WINNING_TILE]) < 0,
        }
        tile = None
        if final is not None and wall is not None:
            status = final.status[seat]
            bloom = int(record[R.R_WIN_KIND]) == HOW_KONG_BLOOM
            fields |= {
                "heavenly_window": bool(status[ST_FIRST_TURN])
                and not final.hand_status[HAND_MELDED],
                "kong_chain": int(status[ST_KONG_CHAIN]) if bloom else 0,
                "discarded_zuan": bool(status[ST_DISCARDED_ZUAN]),
            }
            tile = counted_tile(record, wall, final.hands.shape[0])
            if options is not None:
                fields["reading"] = _reading(final, seat, tile, record, options)
        objects.append(winner_object(record, seat, WORDS, fields, tile))
    return objects


def _reading(
    final: S.FinalPosition, seat: int, tile: int, record: np.ndarray, options: AnqingOptions
) -> dict[str, Any] | None:
    """The reading ``scoring.best_score`` scored for ``seat``'s win, given what
    ``hooks.seat_score`` gives it."""
    status = final.status[seat]
    bloom = int(record[R.R_WIN_KIND]) == HOW_KONG_BLOOM
    n_melds = int(final.n_melds[seat])
    melds = np.zeros((4, 3), np.int64)
    melds[:n_melds] = final.melds[seat, :n_melds, :3]
    return winning_reading(
        np.asarray(final.hands[seat], np.int64),
        int(record[RA_ZUAN]),
        tile,
        melds,
        n_melds,
        int(status[ST_GANG_KONGS]),
        int(status[ST_ZUAN_KONGS]),
        int(status[ST_DISCARDED_ZUAN]),
        int(status[ST_KONG_CHAIN]) if bloom else 0,
        bool(status[ST_FIRST_TURN]) and not final.hand_status[HAND_MELDED],
        options.params(),
    )


def single_kong_melds(events: np.ndarray, zuan: int) -> dict[int, list[dict[str, Any]]]:
    """Seat -> its single-tile kongs (杠牌, 钻) as ``final_hand`` melds, in the order made: the
    engine keeps them as counts, not meld rows (they are no sets, §anqing-class-one). A 钻 is
    written with its star, as in the concealed tiles."""
    melds: dict[int, list[dict[str, Any]]] = {}
    for event, seat, tile, detail in (tuple(int(x) for x in row) for row in events):
        if event != S.EVENT_KONG or detail != S.MELD_SINGLE_KONG:
            continue
        naturals, wilds = np.zeros(34, np.int64), np.zeros(34, np.int64)
        (wilds if tile == zuan else naturals)[tile] = 1
        melds.setdefault(seat, []).append(
            {
                "meld": "kong",
                "tiles": format_hand(naturals, wilds),
                "from_seat": seat,
                "kong_type": KONG_TYPES[S.MELD_SINGLE_KONG],
                "kong_kind": kong_kind(detail, tile, zuan),
            }
        )
    return melds


def describe_json(
    options: AnqingOptions,
    wall: np.ndarray,
    record: np.ndarray,
    events: np.ndarray,
    final: S.FinalPosition,
) -> list[dict[str, Any]]:
    """The hand as JSON-ready objects: the header's 连庄 count
    (``sim.variants.replay.header_fields``), the events (``sim.variants.replay.event_objects``; each
    kong with its kind, each item with its name and points, the 杠牌 and 杠开 items with the kongs
    they pay for, each 包 factor with payer and payee), the 连庄累加 carries as ``settlement``
    objects, every seat's ``final_hand`` (its single-tile kongs among the melds, each kong with its
    kind), the ``hand_status``, each ``winner`` and the ``result`` (with the next 连庄 count)."""
    zuan = int(record[RA_ZUAN])
    objects = event_objects(events, wall, record, WORDS)
    winners = [seat for seat, _, _ in record_winners(record)]
    winner = winners[0] if winners else -1
    kongs = [
        {"tiles": kind_name(int(tile)), "kong_kind": kong_kind(int(detail), int(tile), zuan)}
        for event, seat, tile, detail in events
        if event == S.EVENT_KONG and int(seat) == winner
    ]
    for row, obj in zip(events, objects, strict=True):
        event, seat, tile, detail = (int(x) for x in row)
        if event == EVENT_ITEM:
            obj.update(
                {"tile": None, "item": ITEM_IDS[tile], "item_name": ITEM_NAMES[tile],
                 "points": detail}
            )  # fmt: skip
            if ITEM_IDS[tile] == "gang_pai":
                obj["kongs"] = kongs
            elif ITEM_IDS[tile] == "gang_kai":  # this turn's chain, or every kong
                chained = options.gang_kai_count_mode == "chain"
                obj["kongs"] = kongs[len(kongs) - _chain(events, winner) :] if chained else kongs
        elif event == EVENT_BAO:
            obj.update({"tile": None, "payer": seat, "payee": tile, "factor": detail})
    for payer, payee, amount in carries(record):
        objects.append(
            {"event": "settlement", "seat": payer, "tile": None, "item": "carry",
             "item_name": "连庄累加", "payer": payer, "payee": payee, "amount": amount}
        )  # fmt: skip
    single = single_kong_melds(events, zuan)
    hands = final_objects(final, [zuan], WORDS, extra_melds=single)
    for obj in hands:
        seat = obj["seat"]
        for index, meld in enumerate(obj.get("melds", ())):
            if meld["meld"] == "kong" and "kong_kind" not in meld:
                meld_type, first = (int(x) for x in final.melds[seat, index, :2])
                meld["kong_kind"] = kong_kind(meld_type, first, zuan)
    n_players = options.player_count
    tile = counted_tile(record, wall, n_players)
    objects = [header_fields({"streak": int(record[RA_STREAK])}), *objects, *hands]
    objects += winner_objects(record, final, wall, options)
    streak = {"next_streak": int(record[RA_NEXT_STREAK])}
    objects.append(result_object(record, n_players, WORDS, events, tile, streak))
    return objects


def _chain(events: np.ndarray, seat: int) -> int:
    """The kongs ``seat`` made in a row at the end of the log's play (杠开's chain): those after
    its last draw from the head of the wall or its last discard."""
    chain = 0
    for event, who, _, detail in (tuple(int(x) for x in row) for row in events):
        if who != seat:
            continue
        if event == S.EVENT_KONG:
            chain += 1
        elif event == S.EVENT_DISCARD or (event == S.EVENT_DRAW and detail == S.DRAW_HEAD):
            chain = 0
    return chain


__all__ = ["KONG_NAMES", "WORDS", "describe", "describe_json", "winner_objects"]
