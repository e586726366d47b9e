"""Weng'an 贵州瓮安麻将 in a replay: its own events, pattern names and settlement.

The generic replay (``sim.variants.replay``) words the engine's events, 报听 and 定缺 among its
declarations and the declined pongs / kongs (``pass_claim``) among them; this module words what
Weng'an's hooks log: the chicken flip(s) after a win (翻牌鸡, the tail too with 前后翻鸡), and
at the settlement each scoring chicken tile (owner, kind, where it lies, value: ``chicken``),
each kong's dou kind (闷豆, 爬坡豆, 点豆, 憨包豆: ``dou``) and every settlement item whole (牌型分,
连庄 / 一口二, 热炮, 杀听, 荒庄查叫, 鸡分, 责任鸡, 包鸡, 豆分, 包杠, 原缺: ``settlement``, with
payer, payee and amount), in the order ``settle.settle`` made them; a seat's chicken and dou
lines end "not paid" when no item pays them (burned on a 荒庄, 烧鸡 / 烧豆, or a seat that does
not collect). Summing the items (payer minus, payee plus) gives every seat's score change;
``tests/test_replay.py`` checks it. For the JSON form it adds each ``winner`` (pattern, its
points, the 名堂, T, the reading of the hand scored) and names each chicken's kinds (幺鸡, 乌骨鸡,
翻牌鸡, 本鸡, 摇摆鸡, 金鸡, 冲锋鸡, 星期鸡) from the options and the flips; it gives the 连庄 count
in the header and the next one in the result, each kong's dou kind on the ``kong`` (and a robbed
kong's ``kong_declared``) and on its meld, each seat's readiness 叫 and waits at the end (from
the scoring kernels' ``waits``), and each settlement item what it pays for: the chicken (its
tile and where it lies), the 责任鸡 tile, the kong, or the win. ``tests/test_replay_rescore.py``
settles every logged hand again with the slow reference from the JSON alone.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

import numpy as np

from ...core.tables import load_tables
from ...core.tiles import format_tiles, kind_name
from ...hand import decompositions
from ...kernels import record as R
from ...kernels import state as S
from ...kernels.moves import FLIP_TAIL, HOW_DISCARD
from ..replay import (
    ReplayWords,
    event_lines,
    event_objects,
    final_lines,
    final_objects,
    header_fields,
    record_winners,
    result_line,
    result_object,
    tile_or_none,
    winner_object,
    words_of,
)
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
    ST_QUE,
)
from .patterns import (
    DA_DUI_ZI,
    DAN_DIAO,
    LONG_QI_DUI,
    PATTERN_IDS,
    PATTERN_NAMES,
    PATTERN_NONE,
    PATTERN_POINTS,
    QI_DUI,
    QING_DA_DUI,
    QING_DAN_DIAO,
    QING_LONG_BEI,
    QING_QI_DUI,
)
from .record_slots import RW_NEXT_STREAK, RW_READY, RW_STREAK
from .scoring import waits as scoring_waits
from .settle import (
    DOU_KINDS,
    DOU_POINTS,
    ITEM_BAO_GANG,
    ITEM_BAO_JI,
    ITEM_CHICKEN,
    ITEM_DOU,
    ITEM_KINDS,
)

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
        return f"settlement {chinese} ({words_of(english)}): seat {seat} pays seat {tile}: {detail}"
    return None


def _unpaid(events: np.ndarray) -> frozenset:
    """(``EVENT_CHICKEN`` or ``EVENT_DOU``, seat) for each seat the log shows chickens or dou of
    that no settlement item pays: no 鸡分 to the seat and no 包鸡 from it, or no 豆分 to it and no
    包杠 from it (§wengan-chicken-collection: burned on a 荒庄 or by 烧鸡 / 烧豆, or owned by a seat
    that does not collect, without 包). A seat some of whose chickens are paid is not named, though
    包鸡's scope may leave others of them unpaid."""
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
    pass_win_note="过胡: its wins on others' tiles may be locked until its hand changes",
)


def describe(
    events: np.ndarray,
    record: np.ndarray,
    n_players: int,
    final: S.FinalPosition | None = None,
    wall: np.ndarray | None = None,
) -> list[str]:
    """The events as lines of text (each deal with its tiles when the ``wall`` is given; the
    flips, every chicken, dou and settlement item among them), then every seat's final tiles
    and status (when ``final`` is given), each winner's pattern and its points, 名堂 and the
    points T each payer pays on (§wengan-hand-payments), and every seat's score change."""
    unpaid = _unpaid(events)
    words = replace(WORDS, event_text=lambda *event: _event_text(*event, unpaid=unpaid))
    lines = event_lines(events, words, wall)
    if final is not None:
        lines += final_lines(final, WORDS)
    for seat, features, total in record_winners(record):
        code = features & FEATURE_PATTERN
        named = mingtang_names(features)
        extra = f" + {named}" if named else ""
        pattern = f"{PATTERN_NAMES[code]} (pattern points {PATTERN_POINTS[code]})"
        lines.append(f"seat {seat}: {pattern}{extra}, points {total} (T)")
    lines.append(result_line(record, n_players))
    return lines


SEVEN_PAIRS_PATTERNS = (QI_DUI, LONG_QI_DUI, QING_QI_DUI, QING_LONG_BEI)
SINGLE_WAIT_PATTERNS = (DAN_DIAO, QING_DAN_DIAO)
ALL_TRIPLETS_PATTERNS = (DA_DUI_ZI, QING_DA_DUI)


def counted_tile(record: np.ndarray, hand: np.ndarray) -> int:
    """The tile a win is counted on: the winning tile, or for a 天胡 (no tile drawn) the lowest
    kind of the dealer's 14, as ``hooks.settle_win`` counts it (its chickens are the same
    whichever tile it is: all 14 lie in the hand); -1 on a draw."""
    tile = int(record[R.R_WINNING_TILE])
    if tile >= 0 or int(record[R.R_OUTCOME]) != R.OUTCOME_WIN:
        return tile
    return int(np.flatnonzero(hand[:27])[0])


def _group(shape: str, kinds: list[int]) -> dict[str, Any]:
    return {"shape": shape, "tiles": format_tiles(kinds)}


def reading(hand: np.ndarray, tile: int, code: int) -> dict[str, Any]:
    """The reading of a winner's concealed 14 (``hand``: counts with the winning ``tile``) that
    gives the scored pattern ``code`` (§wengan-pattern-score): seven pairs (a quad as two pairs), or
    the decomposition into sets and a pair (``sim.hand.decompositions``) whose shape the pattern
    needs (every set a triplet for 大对子, the winning tile in the pair for 单吊); ``win_group``:
    the group the winning tile sits in. The melds are the ``final_hand``'s."""
    counts = np.zeros(34, np.int64)
    counts[:27] = hand[:27]
    if code in SEVEN_PAIRS_PATTERNS:
        groups = [
            _group("pair", [kind, kind]) for kind in range(27) for _ in range(counts[kind] // 2)
        ]
        at = next(i for i, g in enumerate(groups) if g["tiles"] == format_tiles([tile] * 2))
        return {"form": "seven_pairs", "groups": groups, "win_group": at}
    found = decompositions(counts, 0)

    def fits(decomposition) -> bool:
        if code in ALL_TRIPLETS_PATTERNS:
            return all(group.kind in ("triplet", "pair") for group in decomposition.groups)
        if code in SINGLE_WAIT_PATTERNS:
            return decomposition.pair.tiles[0] == tile
        return True

    chosen = next((d for d in found if fits(d)), found[0] if found else None)
    if chosen is None:
        return {"form": "standard", "groups": [], "win_group": None}
    short = {"sequence": "seq", "triplet": "tri", "pair": "pair"}
    groups = [_group(short[group.kind], list(group.tiles)) for group in chosen.groups]
    holding = [i for i, group in enumerate(chosen.groups) if tile in group.tiles]
    pair_first = [i for i in holding if chosen.groups[i].kind == "pair"]
    at = (pair_first if code in SINGLE_WAIT_PATTERNS else holding or pair_first)[0]
    return {"form": "standard", "groups": groups, "win_group": at}


def winner_objects(record: np.ndarray, final: S.FinalPosition | None = None) -> list[dict]:
    """Each ``winner``: win tile (a 天胡's counted tile, ``counted_tile``) and kind, payer, pattern
    (Chinese and English, §wengan-pattern-score), its points, the 名堂 and facts (Chinese), T (the
    points each payer pays on, §wengan-hand-payments), ``on_dealt_tiles`` (a 天胡: no tile drawn),
    and with ``final`` the ``reading`` of the concealed 14 the pattern was scored on."""
    objects = []
    for seat, features, total in record_winners(record):
        code = features & FEATURE_PATTERN
        fields = {
            "pattern": PATTERN_NAMES[code],
            "pattern_id": PATTERN_IDS[code],
            "pattern_points": PATTERN_POINTS[code],
            "mingtang": [chinese for bit, _, chinese in MINGTANG if features & bit],
            "points": total,
            "on_dealt_tiles": int(record[R.R_WINNING_TILE]) < 0,
        }
        tile = None
        if final is not None:
            hand = final.hands[seat].astype(np.int64)
            tile = counted_tile(record, hand)
            fields["reading"] = reading(hand, tile, code)
        objects.append(winner_object(record, seat, WORDS, fields, tile))
    return objects


def _designated(kind: int, flips: list[int], options: WenganOptions) -> list[str]:
    """The flip chickens a kind is (§wengan-chicken-flip): 翻牌鸡 (rank + 1), 本鸡 (the flip),
    摇摆鸡 (rank - 1)."""
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
    """Every chicken kind a scoring tile is (§wengan-chickens), in Chinese; ``charging``: it is a
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
    """(seat, kind) -> how many of the seat's unclaimed discards are 冲锋鸡 (§wengan-chicken-value):
    the hand's first 1s (first 8p too with 乌骨鸡) when unclaimed, in the plain mode; every
    unclaimed 1s in the 4321 / 3211 modes (valued by its order)."""
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


def kong_kinds(events: np.ndarray) -> dict[tuple[int, int], str]:
    """(konger, kind) -> the kong's dou kind (``settle.DOU_KINDS``), from the ``EVENT_DOU`` rows
    the settlement logs for every kong (a seat konges a kind once)."""
    return {
        (int(seat), int(tile)): DOU_KINDS[int(detail)]
        for event, seat, tile, detail in events
        if event == EVENT_DOU
    }


def seat_readiness(
    options: WenganOptions, record: np.ndarray, final: S.FinalPosition
) -> dict[int, dict[str, Any]]:
    """Each seat's fields at the end (§wengan-chicken-collection, §wengan-exhaustive-draw):
    ``collects`` (a winner, or ready: it takes its chickens and dou; the record's bit), and for a
    seat that did not win ``ready`` (叫) and ``waits`` (tile -> the pattern it would win with, 定缺
    kept: the scoring kernels' ``waits``, whose best pattern is 荒庄查叫's amount); null for a
    winner."""
    params, tables = options.params(), load_tables()
    winners = [seat for seat, _, _ in record_winners(record)]
    collecting = int(record[RW_READY])
    fields = {}
    for seat in range(final.hands.shape[0]):
        entry: dict[str, Any] = {"collects": bool(collecting >> seat & 1)}
        if seat in winners:
            entry |= {"ready": None, "waits": None}
        else:
            counts = final.hands[seat, :27].astype(np.int64)
            patterns = np.empty(27, np.int64)
            que = np.int64(final.status[seat, ST_QUE] - 1)
            n_melds = np.int64(final.n_melds[seat])
            mask = scoring_waits(counts, final.melds[seat], n_melds, que, params, tables, patterns)
            waits = {
                kind_name(kind): PATTERN_NAMES[int(patterns[kind])]
                for kind in range(27)
                if mask >> kind & 1 and patterns[kind] != PATTERN_NONE
            }
            entry |= {"ready": bool(mask), "waits": waits}
        fields[seat] = entry
    return fields


def _in_bao_scope(kind: int, where: str, options: WenganOptions) -> bool:
    """包鸡 scope (§wengan-chicken-collection, ``bao_ji_scope``), as ``settle.in_bao_scope``."""
    if options.bao_ji_scope == "all":
        return True
    fixed = kind == ONE_S or (kind == EIGHT_P and options.wu_gu_ji)
    return fixed and (options.bao_ji_scope == "all_fixed" or where != "hand")


RESPONSIBLE_TILES = {1: "1s", 2: "8p"}
"""责任鸡's value (§wengan-chicken-collection) -> the tile claimed: the first 1s is worth 1, the
first 8p (乌骨鸡) 2."""


class _Causes:
    """What each settlement item pays for, in the order ``settle.settle`` makes the items: a
    collector's chickens each from every other seat in turn, then its 责任鸡; a 包鸡 payer's
    chickens in scope each to every seat 包 reaches, then the 责任鸡 it returns; a kong's dou
    from each payer (a 点豆 from its discarder); a 包杠 payer's back to each payer reached.
    ``chickens`` and ``dous``: the ``chicken`` and ``dou`` objects in log order (each seat's
    in the order of its items); ``sources``: (konger, tile) -> the discarder of a 点豆. Each
    item's amount is checked against the value of what it pays for."""

    def __init__(self, options, record, chickens, dous, sources, n_players):
        self.options = options
        self.stake = options.base_stake
        collecting = int(record[RW_READY])
        self.slots: dict[tuple[str, int], list[dict]] = {}
        for seat in range(n_players):
            others = [other for other in range(n_players) if other != seat]
            reached = [
                other
                for other in others
                if not options.bao_requires_ready or collecting >> other & 1
            ]
            owned = [c for c in chickens if c["owner"] == seat]
            scoped = [c for c in owned if _in_bao_scope(_kind(c["tile"]), c["where"], options)]
            konged = [d for d in dous if d["seat"] == seat and _dou_points(d["dou"])]
            self.slots["chicken", seat] = [c for c in owned for _ in others]
            self.slots["bao_ji", seat] = [c for c in scoped for _ in reached]
            self.slots["dou", seat] = [
                d for d in konged for _ in (others if d["dou"] != "dian_dou" else [0])
            ]
            self.slots["bao_gang", seat] = [
                d
                for d in konged
                for payer in (others if d["dou"] != "dian_dou" else [sources[seat, d["tile"]]])
                if payer in reached
            ]
        self.taken: Counter = Counter()

    def _next(self, queue: str, seat: int) -> dict | None:
        """The next entry of ``seat``'s ``queue``, None when all have been paid."""
        slots = self.slots[queue, seat]
        at = self.taken[queue, seat]
        self.taken[queue, seat] += 1
        return slots[at] if at < len(slots) else None

    def item(self, english: str, payer: int, payee: int, amount: int) -> dict[str, Any]:
        """The fields naming what one chicken, 责任鸡, 包鸡, dou or 包杠 item pays for."""
        owner = payer if english in ("bao_ji", "bao_gang") else payee
        if english == "responsibility":
            return self._responsibility(amount)
        found = self._next(english, owner)
        if found is None and english == "bao_ji":  # after the chickens, the 责任鸡 returned
            return self._responsibility(amount)
        if found is None:
            raise ValueError(f"a {english} item of seat {owner} with nothing left to pay for")
        if english in ("chicken", "bao_ji"):
            self._check(found["value"], amount, english)
            return {"tile": found["tile"], "where": found["where"], "chicken": found["index"]}
        self._check(_dou_points(found["dou"]), amount, english)
        return {"tile": found["tile"], "konger": owner, "kong_kind": found["dou"]}

    def _responsibility(self, amount: int) -> dict[str, Any]:
        return {"tile": RESPONSIBLE_TILES[amount // self.stake], "where": "claimed"}

    def _check(self, value: int, amount: int, english: str) -> None:
        if value * self.stake != amount:
            raise ValueError(f"a {english} item of {amount} for something worth {value}")


def _kind(name: str) -> int:
    """The kind of one tile in README notation."""
    return next(kind for kind in range(34) if kind_name(kind) == name)


def _dou_points(dou: str) -> int:
    return int(DOU_POINTS[DOU_KINDS.index(dou)])


def _final_melds(final_hands, final: S.FinalPosition, kinds) -> dict[tuple[int, str], int]:
    """Each kong meld of the ``final_hand`` objects gets its dou kind; returns (konger, tile)
    -> the seat its tiles came from (a 点豆's discarder)."""
    sources = {}
    for obj in final_hands:
        if obj["event"] != "final_hand":
            continue
        seat = obj["seat"]
        for index, meld in enumerate(obj["melds"]):
            meld_type, first, source, _ = (int(x) for x in final.melds[seat, index])
            if meld_type == S.MELD_PONG:
                continue
            kind = kinds[(seat, first)]
            meld |= {"kong_kind": kind, "dou_name": DOU_NAMES[kind]}
            sources[(seat, kind_name(first))] = source
    return sources


def describe_json(
    options: WenganOptions,
    wall: np.ndarray,
    record: np.ndarray,
    events: np.ndarray,
    final: S.FinalPosition,
) -> list[dict[str, Any]]:
    """The hand as JSON-ready objects: the header's 连庄 count
    (``sim.variants.replay.header_fields``), the events (``sim.variants.replay.event_objects``; each
    kong and robbed kong with its dou kind, each chicken with its kinds and number, each settlement
    item with payer, payee, amount and what it pays for), every seat's ``final_hand`` (its status,
    its kongs' dou kinds, what it collects, its readiness and waits), the ``hand_status``, each
    ``winner`` (with the reading scored) and the ``result`` (with the next 连庄 count)."""
    n_players = options.player_count
    objects = event_objects(events, wall, record, WORDS)
    flips = [int(t) for e, _, t, _ in events if e == S.EVENT_INDICATOR]
    charging = charging_discards(events, options)
    kinds = kong_kinds(events)
    chickens, dous = [], []
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
            obj["index"] = len(chickens)
            chickens.append(obj)
        elif event == EVENT_DOU:
            dous.append(obj)
        elif event == S.EVENT_KONG:
            kind = kinds[(seat, tile)]
            obj |= {"kong_kind": kind, "dou_name": DOU_NAMES[kind]}
    for obj in objects:
        if obj["event"] == "kong_declared":  # only a 爬坡豆 may be robbed (hooks.robbable)
            obj["kong_name"] = KONG_NAMES[S.MELD_ADDED_KONG].split()[0]
            obj |= {"kong_kind": "pa_po_dou", "dou_name": DOU_NAMES["pa_po_dou"]}
    readiness = seat_readiness(options, record, final)
    final_hands = final_objects(final, [], WORDS, seat_fields=readiness)
    sources = _final_melds(final_hands, final, kinds)
    causes = _Causes(options, record, chickens, dous, sources, n_players)
    winners = winner_objects(record, final)
    won = [seat for seat, _, _ in record_winners(record)]
    tile = counted_tile(record, final.hands[won[0]].astype(np.int64)) if won else -1
    for obj in objects:
        if obj["event"] != "settlement":
            continue
        if obj["item"] in ("chicken", "responsibility", "bao_ji", "dou", "bao_gang"):
            fields = causes.item(obj["item"], obj["payer"], obj["payee"], obj["amount"])
        elif obj["item"] in ("pattern", "dealer_bonus", "hot_cannon", "sha_ting"):
            fields = {"tile": tile_or_none(tile)}  # the win it is paid on (none on a 荒庄)
        else:
            fields = {}
        obj["tile"] = fields.pop("tile", None)
        obj.update(fields)
    objects = [header_fields({"streak": int(record[RW_STREAK])}), *objects, *final_hands]
    objects += winners
    streak = {"next_streak": int(record[RW_NEXT_STREAK])}
    objects.append(result_object(record, n_players, WORDS, events, tile, streak))
    return objects


__all__ = ["KONG_NAMES", "WORDS", "describe", "describe_json", "winner_objects"]
