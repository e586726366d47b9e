"""Feed the reference's hand descriptions (``tests/reference/anqing.py``) to Anqing's scoring
kernels, so both can be compared on the same hands."""

from __future__ import annotations

import numpy as np
from reference.anqing import AnqingWin, Meld, one_tile

from sim.kernels.state import (
    MELD_ADDED_KONG,
    MELD_CHI,
    MELD_CONCEALED_KONG,
    MELD_DISCARD_KONG,
    MELD_PONG,
)
from sim.variants.anqing import AnqingOptions, kernels

MELD_TYPE = {
    "chi": MELD_CHI,
    "pong": MELD_PONG,
    "ming_gang": MELD_DISCARD_KONG,
    "jia_gang": MELD_ADDED_KONG,
    "an_gang": MELD_CONCEALED_KONG,
}


def meld_rows(melds: tuple[Meld, ...], seat: int) -> tuple[np.ndarray, int, int, int]:
    """The engine's meld rows of ``melds`` and the counts of single 杠牌 and 钻 kongs."""
    rows = np.full((4, 3), -1, np.int8)
    n = singles = zuan_kongs = 0
    for meld in melds:
        kind, is_zuan = meld.physical
        if meld.kind == "single":
            zuan_kongs += is_zuan
            singles += not is_zuan
            continue
        from_seat = seat if meld.from_seat is None else meld.from_seat
        rows[n] = (MELD_TYPE[meld.kind], kind, from_seat)
        n += 1
    return rows, n, singles, zuan_kongs


def kernel_score(win: AnqingWin, options: AnqingOptions | None = None):
    """(S or None, {item name: points}, form, 直叫) of the kernels' best reading."""
    options = options or AnqingOptions()
    zuan = win.zuan
    hand = np.zeros(34, np.int64)
    for kind, _ in win.tiles:
        hand[kind] += 1
    w_kind, _ = one_tile(win.winning_tile)
    rows, n, singles, zuan_kongs = meld_rows(win.melds, 0)
    items = np.zeros(kernels.N_ITEM_SLOTS, np.int64)
    total = kernels.best_score(
        hand,
        np.int64(zuan),
        np.int64(w_kind),
        rows,
        np.int64(n),
        np.int64(singles),
        np.int64(zuan_kongs),
        np.int64(win.discarded_zuan),
        np.int64(win.kong_chain),
        np.int64(win.heavenly),
        options.params(),
        items,
    )
    if total == kernels.NO_LEGAL_WIN:
        return None, {}, -1, False
    bits = int(items[kernels.S_BITS])
    named = {
        name: int(items[item]) for item, name in enumerate(kernels.ITEM_NAMES) if bits >> item & 1
    }
    return int(total), named, int(items[kernels.S_FORM]), bool(items[kernels.S_ZHI_JIAO])


def all_melds(melds_by_seat: dict[int, tuple[Meld, ...]]) -> tuple[np.ndarray, np.ndarray]:
    """The engine's (4, 4, 3) meld array and meld counts of every seat."""
    melds = np.full((4, 4, 3), -1, np.int8)
    counts = np.zeros(4, np.int64)
    for seat, seat_melds in melds_by_seat.items():
        rows, n, _, _ = meld_rows(seat_melds, seat)
        melds[seat] = rows
        counts[seat] = n
    return melds, counts


def kernel_payments(total, winner, dealer, streak, melds_by_seat, options=None):
    """payer -> amount of the kernels' payments (§anqing-payments)."""
    options = options or AnqingOptions()
    melds, counts = all_melds(melds_by_seat)
    amounts = np.zeros(4, np.int64)
    factors = np.zeros(4, np.int64)
    kernels.payments(
        np.int64(total),
        np.int64(winner),
        np.int64(dealer),
        np.int64(streak),
        melds,
        counts,
        options.params(),
        amounts,
        factors,
    )
    return {seat: int(amounts[seat]) for seat in range(4) if seat != winner}
