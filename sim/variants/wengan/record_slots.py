"""Weng'an 贵州瓮安麻将: its own record slots, after the engine's ``sim.kernels.record.N_RECORD``.

Declared once, as data: (name, count, meaning); the slot numbers follow from the order. The engine
fills the shared slots (``R_*``) and clears the whole row (``record[:] = -1``); Weng'an's settle
hooks fill these. ``R_POINTS`` (engine) holds each winner's T (pattern + 名堂 + 杠开,
§wengan-hand-payments) and ``R_FEATURES`` his win's feature bits (``hooks.FEATURE_*``: the pattern
code and the 名堂 flags). Pure Python."""

from __future__ import annotations

from dataclasses import dataclass

from ...kernels.record import N_RECORD

RECORD_SLOTS = (
    ("pattern", 4, "each winner's §wengan-pattern-score pattern code (patterns.py), -1 unused"),
    ("chicken", 4, "each seat's net chicken points: 鸡分 and 责任鸡 collected, less paid"),
    ("dou", 4, "each seat's net dou points: 豆分 collected, less paid"),
    ("bao", 4, "each seat's net 包鸡 and 包杠 points (paid by non-ready players)"),
    ("cha_jiao", 4, "each seat's net 荒庄查叫 points, its dealer bonus included"),
    ("yuan_que", 4, "each seat's net 原缺 points"),
    ("que_suit", 4, "each seat's 定缺 suit named (0 m, 1 p, 2 s), -1 none (composition mode)"),
    ("ready", 1, "bit s: seat s won or was ready (叫) at the end: it collected"),
    ("bao_ting", 1, "bit s: seat s declared 报听"),
    ("dealt_lacking", 1, "bit s: seat s was dealt a hand lacking a suit (原缺)"),
    ("flip", 2, "the chicken flips after a win: the first undrawn tile, the last (前后翻鸡); -1"),
    ("hot_cannon", 1, "1 when the discard won on was a 热炮"),
    ("streak", 1, "the dealer's 连庄 count n this hand was played with"),
    ("next_streak", 1, "the count the next hand's dealer plays with"),
    ("kongs", 4, "kongs made in the hand by dou kind: 闷豆, 爬坡豆, 点豆, 憨包豆"),
    ("pattern_net", 4, "each seat's net 牌型分 hand payments T (pattern + 名堂 + 杠开)"),
    ("dealer_bonus_net", 4, "each seat's net 连庄 / 一口二 points on a win's hand payments"),
    ("hot_cannon_net", 4, "each seat's net 热炮 points (+1 from the discarder to each winner)"),
    ("sha_ting_net", 4, "each seat's net 杀听 points"),
)
"""Every Weng'an slot: (name, slots, meaning), in order from ``N_RECORD``."""

SLOT = {}
_next = N_RECORD
for _name, _count, _ in RECORD_SLOTS:
    SLOT[_name] = _next
    _next += _count
N_WENGAN_RECORD = _next
"""The width of a Weng'an record row."""

RW_PATTERN = SLOT["pattern"]
RW_CHICKEN = SLOT["chicken"]
RW_DOU = SLOT["dou"]
RW_BAO = SLOT["bao"]
RW_CHA_JIAO = SLOT["cha_jiao"]
RW_YUAN_QUE = SLOT["yuan_que"]
RW_QUE_SUIT = SLOT["que_suit"]
RW_READY = SLOT["ready"]
RW_BAO_TING = SLOT["bao_ting"]
RW_DEALT_LACKING = SLOT["dealt_lacking"]
RW_FLIP = SLOT["flip"]
RW_HOT_CANNON = SLOT["hot_cannon"]
RW_STREAK = SLOT["streak"]
RW_NEXT_STREAK = SLOT["next_streak"]
RW_KONGS = SLOT["kongs"]
RW_PATTERN_NET = SLOT["pattern_net"]
RW_DEALER_BONUS_NET = SLOT["dealer_bonus_net"]
RW_HOT_CANNON_NET = SLOT["hot_cannon_net"]
RW_SHA_TING_NET = SLOT["sha_ting_net"]


@dataclass(frozen=True)
class PointSource:
    """A source of points the records carry per seat: ``name`` (the games frame's
    ``<name>_<seat>`` and ``points_from_<name>`` columns), ``slot`` (its record slots, one per
    seat: the seat's net points from it), the settlement items (``settle.ITEM_KINDS`` ids) it
    nets after a win (``on_win``) and after a 荒庄 (``on_draw``), what it is in words (the
    columns' meaning) and its short label in reports and figures."""

    name: str
    slot: str
    on_win: tuple[str, ...]
    on_draw: tuple[str, ...]
    words: str
    label: str


POINT_SOURCES = (
    PointSource("chicken", "chicken", ("chicken", "responsibility"),
                ("chicken", "responsibility"), "chickens 鸡分 and 责任鸡",
                "chickens 鸡分 / 责任鸡"),
    PointSource("dou", "dou", ("dou",), ("dou",), "dou 豆分", "dou 豆分"),
    PointSource("bao", "bao", ("bao_ji", "bao_gang"), ("bao_ji", "bao_gang"),
                "包鸡 and 包杠 (paid back by non-ready players)", "包鸡 / 包杠"),
    PointSource("cha_jiao", "cha_jiao", (), ("cha_jiao", "dealer_bonus"),
                "荒庄查叫 (with its dealer bonus)", "荒庄查叫"),
    PointSource("yuan_que", "yuan_que", ("yuan_que",), ("yuan_que",), "原缺", "原缺"),
    PointSource("pattern", "pattern_net", ("pattern",), (),
                "牌型分, the hand payments T (pattern + 名堂 + 杠开)", "牌型分 (T)"),
    PointSource("dealer_bonus", "dealer_bonus_net", ("dealer_bonus",), (),
                "连庄 / 一口二 on a win's hand payments", "连庄 / 一口二"),
    PointSource("hot_cannon", "hot_cannon_net", ("hot_cannon",), (), "热炮 (+1 per winner)",
                "热炮"),
    PointSource("sha_ting", "sha_ting_net", ("sha_ting",), (), "杀听", "杀听"),
)  # fmt: skip
"""Every settlement item of a hand is netted into exactly one source (a test checks it), so a
seat's sources sum to its score change. The dealer bonus of a 荒庄 is part of its 查叫 payment
(§wengan-reading-point-sources); after a win it is a source of its own."""


def source_of_items(item_ids: tuple[str, ...], on_draw: bool) -> list[int]:
    """For each settlement item id (``settle.ITEM_KINDS`` order), the index in
    :data:`POINT_SOURCES` of the source netting it after a win (``on_draw`` False) or a 荒庄;
    -1 none. The kernels build their lookup arrays from this."""
    found = [-1] * len(item_ids)
    for index, source in enumerate(POINT_SOURCES):
        for item in source.on_draw if on_draw else source.on_win:
            found[item_ids.index(item)] = index
    return found
