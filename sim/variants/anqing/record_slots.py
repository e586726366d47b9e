"""Anqing 安庆麻将: its own record slots, after the engine's ``sim.kernels.record.N_RECORD``.

Declared once, as data: (name, count, meaning); the slot numbers follow from the order. The
engine fills the shared slots (``R_*``) and clears the whole row (``record[:] = -1``); Anqing's
settle hooks fill these. ``R_POINTS`` (engine) holds the winner's S (§anqing-score-table) and
``R_FEATURES`` the bits of the items that scored (``scoring.I_*``) with the 直叫 bit
(``hooks.FEATURE_ZHI_JIAO``). Pure Python.
"""

from __future__ import annotations

from ...kernels.record import N_RECORD
from .scoring_names import ITEM_NAMES

RECORD_SLOTS = (
    (
        "items",
        len(ITEM_NAMES),
        "the winner's points per §anqing-score-table item (scoring.ITEM_NAMES order)",
    ),
    ("form", 1, "the winning reading's form: 0 standard, 1 seven pairs, 2 十三烂; -1 none"),
    ("bao_factor", 4, "each payer's 包 factor (§anqing-bao): 1 none; 0 the winner and on a 荒庄"),
    ("amount", 4, "each payer's §anqing-payments amount to the winner, without the 累加 carry"),
    ("carry", 4, "each payer's 连庄累加 carry (lian_zhuang_cumulative, §anqing-lian-zhuang)"),
    ("streak", 1, "the dealer's 连庄 count k this hand was played with"),
    ("next_streak", 1, "the count the next hand's dealer plays with (0 for a new dealer)"),
    ("zuan", 1, "the 钻 kind of the hand (the flipped tile's successor)"),
    ("discarded_zuan", 1, "bit s: seat s discarded a 钻 in the hand (D)"),
    ("single_kongs", 4, "single-tile kongs each seat made (杠牌 and 钻)"),
    ("zuan_kongs", 1, "钻 kongs (直叫) made in the hand, all seats"),
    (
        "bao_kind",
        4,
        "each payer's 包 (§anqing-bao): 0 none, 1 顺包, 2 反包, 3 both (互为顺包); 0 unpaid",
    ),
)
"""Every Anqing slot: (name, slots, meaning), in order from ``N_RECORD``."""

SLOT = {}
_next = N_RECORD
for _name, _count, _ in RECORD_SLOTS:
    SLOT[_name] = _next
    _next += _count
N_ANQING_RECORD = _next
"""The width of an Anqing record row."""

RA_ITEMS = SLOT["items"]
RA_FORM = SLOT["form"]
RA_BAO_FACTOR = SLOT["bao_factor"]
RA_AMOUNT = SLOT["amount"]
RA_CARRY = SLOT["carry"]
RA_STREAK = SLOT["streak"]
RA_NEXT_STREAK = SLOT["next_streak"]
RA_ZUAN = SLOT["zuan"]
RA_DISCARDED_ZUAN = SLOT["discarded_zuan"]
RA_SINGLE_KONGS = SLOT["single_kongs"]
RA_ZUAN_KONGS = SLOT["zuan_kongs"]
RA_BAO_KIND = SLOT["bao_kind"]
