"""Weng'an settlement kernel (sim/variants/wengan/settle.py) against the slow reference
(tests/reference/wengan.py ``settle``): every worked example §wengan-example-1 to §wengan-example-8
of §wengan-rules and hypothesis-built hands under random options give the same items and the same
per-seat deltas.

Rules: docs/rules/wengan.md (贵州瓮安麻将), §wengan-settlement-order 算分 (总分=（胡牌牌型分
+杠上花+鸡分+豆分+连庄）*底分); each test names the rules its items come from. The hands come
from the reference tests' builders (``tests/reference/test_wengan_reference.py``).
"""

from __future__ import annotations

import dataclasses
from dataclasses import astuple

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from reference import test_wengan_reference as W
from reference import wengan as R
from reference.wengan_claims import Referee
from wengan_referee_runs import EFFICIENT, play_logged

from sim.core.tables import load_tables
from sim.core.tiles import parse_tiles
from sim.kernels import record as REC
from sim.kernels.state import MELD_ADDED_KONG, MELD_CONCEALED_KONG, MELD_DISCARD_KONG, MELD_PONG
from sim.variants.wengan import WenganOptions
from sim.variants.wengan import settle as S

MELD_TYPE = {
    "pong": MELD_PONG,
    "men_dou": MELD_CONCEALED_KONG,
    "pa_po_dou": MELD_ADDED_KONG,
    "dian_dou": MELD_DISCARD_KONG,
    "han_bao_dou": MELD_CONCEALED_KONG,
}
QUE_SUIT = {None: -1, "m": 0, "p": 1, "s": 2}


def kind(text: str) -> int:
    return parse_tiles(text)[0]


# ------------------------------------------------------------------------------ the encoding


def encode_hand(end: R.HandEnd) -> np.ndarray:
    """The ``H_*`` slots: the winners' common how / tile / source, dealer, streak, 热炮, wall."""
    hand = np.zeros(S.N_HAND, np.int64)
    if end.wins:
        first = end.wins[0]
        hand[S.H_N_WINS] = len(end.wins)
        hand[S.H_HOW] = S.WIN_HOWS.index(first.how)
        hand[S.H_WIN_TILE] = first.kind
    hand[S.H_FROM] = -1 if not end.wins or end.wins[0].from_seat is None else end.wins[0].from_seat
    hand[S.H_DEALER] = end.dealer
    hand[S.H_STREAK] = end.streak
    hand[S.H_HOT_CANNON] = int(end.hot_cannon)
    wall = parse_tiles(end.wall) if end.wall else []
    hand[S.H_TILES_LEFT] = len(wall)
    hand[S.H_WALL_HEAD] = wall[0] if wall else -1
    hand[S.H_WALL_TAIL] = wall[-1] if wall else -1
    return hand


def encode_seats(end: R.HandEnd) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``seats`` (the ``S_*`` slots), ``concealed`` counts and ``melds`` rows of every seat."""
    players = end.players
    seats = np.zeros((players, S.N_SEAT), np.int64)
    concealed = np.zeros((players, 27), np.int64)
    melds = np.zeros((players, 4, 4), np.int8)
    wins = {win.seat: win for win in end.wins}
    for index, seat in enumerate(end.seats):
        win = wins.get(index)
        row = seats[index]
        row[S.S_SHOWN] = seat.concealed is not None
        row[S.S_READY] = bool(seat.ready)
        row[S.S_BAO_TING] = seat.bao_ting
        row[S.S_DEALT_LACKING] = seat.dealt_lacking_a_suit
        row[S.S_QUE_SUIT] = QUE_SUIT[seat.que_suit]
        row[S.S_N_MELDS] = len(seat.melds)
        row[S.S_WINNER] = win is not None
        row[S.S_KONG_BLOOM] = bool(win and win.kong_bloom)
        row[S.S_HEAVENLY] = bool(win and win.heavenly)
        row[S.S_EARTHLY] = bool(win and win.earthly)
        for k in R.concealed_kinds(seat):
            concealed[index, k] += 1
        for m, meld in enumerate(seat.melds):
            dou = S.DOU_KINDS.index(meld.kind) if meld.kind != "pong" else S.DOU_NONE
            source = -1 if meld.from_seat is None else meld.from_seat
            melds[index, m] = (MELD_TYPE[meld.kind], kind(meld.tile), source, dou)
    return seats, concealed, melds


def encode_discards(end: R.HandEnd) -> np.ndarray:
    rows = np.zeros((max(len(end.discards), 1), 3), np.int64)
    for index, discard in enumerate(end.discards):
        claimed = -1 if discard.claimed_by is None else discard.claimed_by
        rows[index] = (discard.seat, kind(discard.tile), claimed)
    return rows


def kernel_settle(end: R.HandEnd) -> tuple[list[int], list[R.Item]]:
    """The kernel's deltas and items of the hand, items named as the reference names them."""
    seats, concealed, melds = encode_seats(end)
    items = np.zeros((S.MAX_ITEMS, 4), np.int64)
    deltas = np.zeros(end.players, np.int64)
    n_items = S.settle(
        encode_hand(end),
        seats,
        concealed,
        melds,
        encode_discards(end),
        len(end.discards),
        end.options.params(),
        load_tables(),
        items,
        deltas,
    )
    named = [R.Item(S.ITEM_KINDS[k][0], int(p), int(q), int(a)) for k, p, q, a in items[:n_items]]
    return [int(d) for d in deltas], named


# ------------------------------------------------------------------------------ the steps

STEP_KINDS = {
    "win": {"pattern", "dealer_bonus", "hot_cannon", "sha_ting"},
    "dou": {"dou", "bao_gang"},
    "chickens": {"chicken", "responsibility", "bao_ji"},
    "draw": {"cha_jiao", "dealer_bonus", "yuan_que"},
}
"""The kinds of item each step of the settlement adds (§wengan-settlement-order)."""


def assert_same(end: R.HandEnd, step: str | None = None) -> None:
    """The kernel's items of a step (all and the deltas when ``step`` is None) equal the
    reference's. Compared sorted: the kernel lists a hand's chicken tiles by kind, the reference
    in the order the test wrote them, and that order means nothing."""
    expected = R.settle(end)
    deltas, items = kernel_settle(end)
    kinds = STEP_KINDS[step] if step else {name for name, _ in S.ITEM_KINDS}
    assert sorted(astuple(i) for i in items if i.kind in kinds) == sorted(
        astuple(i) for i in expected.items if i.kind in kinds
    )
    if step is None:
        assert deltas == list(expected.deltas)


def with_options(end: R.HandEnd, **values) -> R.HandEnd:
    return dataclasses.replace(end, options=dataclasses.replace(end.options, **values))


NOBODY = R.Seat()
WA1 = R.HandEnd(
    (NOBODY, W.WA1_WITH_DOU, NOBODY, NOBODY), (R.Win(1, "9m", "discard", 3),), wall="2p"
)
WA1_SELF_DRAW = R.HandEnd(
    (NOBODY, W.WA1_NO_DOU, NOBODY, NOBODY), (R.Win(1, "9m", "self_draw"),), wall="2p"
)
WA4_SEAT3_NOT_READY = dataclasses.replace(
    W.WA4, seats=(*W.WA4.seats[:3], R.Seat("123m 456m 789p 2s 3s 5s 7s", ready=False))
)
WA5_NOT_READY = dataclasses.replace(W.WA5, seats=(*W.WA5.seats[:3], W.WA5_NOT_READY))
WA7_SELF_DRAW = dataclasses.replace(W.WA7, wins=(R.Win(3, "4s", "self_draw"),))

WINNER = R.Seat("234m 567p 345s 678m 9p")
ROB_KONG = R.HandEnd(
    (
        R.Seat("34m 678p 234s 789s 99p"),
        NOBODY,
        R.Seat(None, (R.Meld("pong", "5m", 1), R.Meld("men_dou", "1s")), ready=True),
        NOBODY,
    ),
    (R.Win(0, "5m", "rob_kong", 2),),
    wall="9s 3p",
)
TWO_WINNERS = R.HandEnd(
    (WINNER, R.Seat("234m 567p 345s 678m 9p", bao_ting=True), NOBODY, NOBODY),
    tuple(R.Win(s, "9p", "discard", 2) for s in (0, 1)),
    dealer=1,
    streak=2,
    wall="1m 8s",
)
THREE_WINNERS = R.HandEnd(
    (
        WINNER,
        R.Seat("234m 567p 345s 678m 9p"),
        R.Seat(None, (R.Meld("dian_dou", "1s", 0),)),
        R.Seat("234s 567m 345p 678s 9p"),
    ),
    tuple(R.Win(s, "9p", "discard", 2) for s in (0, 1, 3)),
    wall="9s",
    hot_cannon=True,
    discards=(R.Discard(0, "1s", claimed_by=2),),
)
NAMED = R.HandEnd(
    (
        R.Seat("234m 345s 678m 9p", (R.Meld("men_dou", "5p"),)),
        NOBODY,
        R.Seat("11m 33m 66p 77p 88p 22s 4s", bao_ting=True),
        NOBODY,
    ),
    (R.Win(0, "9p", "self_draw", kong_bloom=True, heavenly=True),),
    streak=3,
    wall="8s 1m 2m",
)
EARTHLY = dataclasses.replace(
    NAMED, wins=(R.Win(0, "9p", "discard", 3, earthly=True),), dealer=3, streak=1
)

EXAMPLES = {
    "§wengan-example-1 dou passport": (WA1, {}),
    "§wengan-example-1 self-draw": (WA1_SELF_DRAW, {}),
    "§wengan-example-2": (W.WA2, {}),
    "§wengan-example-2 on 2s": (W.WA2_ON_2S, {}),
    "§wengan-example-2 any quad": (W.WA2_ON_2S, {"long_qi_dui_win_on_quad": False}),
    "§wengan-example-2 no flip": (W.WA2, {"fan_pai_ji": False}),
    "§wengan-example-3": (W.WA3, {}),
    "§wengan-example-4": (W.WA4, {}),
    "§wengan-example-4 4321": (W.WA4, {"chong_feng_mode": "4321"}),
    "§wengan-example-4 3211 counts claimed": (
        W.WA4,
        {"chong_feng_mode": "3211", "chongfeng_ordinal_counts_claimed": True},
    ),
    "§wengan-example-4 seat 3 not ready": (WA4_SEAT3_NOT_READY, {}),
    "§wengan-example-4 bao requires ready": (WA4_SEAT3_NOT_READY, {"bao_requires_ready": True}),
    "§wengan-example-5": (W.WA5, {}),
    "§wengan-example-5 no burn": (W.WA5, {"re_pao_shao_dou": False}),
    "§wengan-example-5 bao gang": (WA5_NOT_READY, {}),
    "§wengan-example-6": (W.WA6, {}),
    "§wengan-example-6 lian zhuang": (
        dataclasses.replace(W.WA6, streak=1),
        {"dealer_bonus_mode": "lian_zhuang"},
    ),
    "§wengan-example-6 yi kou er": (
        dataclasses.replace(W.WA6, streak=1),
        {"dealer_bonus_mode": "yi_kou_er"},
    ),
    "§wengan-example-6 charging at 3": (W.WA6_CHARGING_AT_3, {}),
    "§wengan-example-6 charging at 3, no burn": (W.WA6_CHARGING_AT_3, {"huang_zhuang_burn": False}),
    "§wengan-example-6 charging at 1, non-ready burn": (
        W.WA6_CHARGING_AT_1,
        {"huang_zhuang_burn_scope": "non_ready_only"},
    ),
    "§wengan-example-6 bao on a draw": (
        W.WA6_CHARGING_AT_3,
        {"huang_zhuang_burn": False, "huang_zhuang_no_bao": False},
    ),
    "§wengan-example-7": (W.WA7, {}),
    "§wengan-example-7 self-draw": (WA7_SELF_DRAW, {}),
    "§wengan-example-7 self-draw all payers": (WA7_SELF_DRAW, {"sha_ting_payer": "all_payers"}),
    "§wengan-example-8 wu gu ji": (
        dataclasses.replace(W.WA4, discards=(R.Discard(3, "8p", claimed_by=1),)),
        {"wu_gu_ji": True},
    ),
    "1s and 8p claimed by one seat, not ready": (W.BOTH_CLAIMED, {}),
    "1s and 8p claimed by one seat, ready": (
        dataclasses.replace(
            W.BOTH_CLAIMED,
            seats=(
                W.BOTH_CLAIMED.seats[0],
                R.Seat(None, W.BOTH_CLAIMED_MELDS, ready=True),
                *W.BOTH_CLAIMED.seats[2:],
            ),
        ),
        {},
    ),
    "base stake 3": (W.WA4, {"base_stake": 3}),
    "rob kong": (ROB_KONG, {}),
    "rob kong, no burn": (ROB_KONG, {"qiang_gang_shao_ji": False, "qiang_gang_shao_dou": False}),
    "two winners on one discard": (TWO_WINNERS, {"ping_hu_ron_needs_passport": False}),
    "three winners, hot cannon": (THREE_WINNERS, {"ping_hu_ron_needs_passport": False}),
    "heavenly, kong bloom, sha ting": (NAMED, {"dealer_bonus_mode": "lian_zhuang"}),
    "earthly on a discard": (EARTHLY, {"dealer_bonus_mode": "yi_kou_er"}),
    "heavenly, total 9 + 10": (NAMED, {"mingtang_bonus_mode": "total_9_plus_10"}),
}


def example(name: str) -> R.HandEnd:
    end, options = EXAMPLES[name]
    return with_options(end, **options) if options else end


@pytest.mark.parametrize("name", EXAMPLES)
@pytest.mark.parametrize("step", [*STEP_KINDS, None])
def test_worked_examples(name, step):
    """§wengan-example-1 to §wengan-example-8 of §wengan-scoring and their stated variants, step by
    step of §wengan-settlement-order and in full: 牌型分 and 名堂 (source: 平胡1分 ...
    天胡/地胡/抢杠/报听/杀听), 连庄 (source: 连庄), 豆分 with 包杠 and 烧豆 (source:
    闷豆/爬坡豆/点豆, 热炮烧豆), 鸡分 with 包鸡 / 责任鸡 / 冲锋鸡 (source: 冲锋鸡, 责任鸡, 包鸡),
    荒庄查叫 (source: 荒庄查叫) and 原缺; the kernel pays as the reference does."""
    assert_same(example(name), step)


@W.SETTINGS
@given(W.hand_ends())
def test_random_hands(end):
    """Random finished hands under random options (the reference tests' ``hand_ends``: 2-4
    players, wins of every kind or 荒庄, melds of every dou kind, chicken discards, 报听, 原缺):
    items and the deltas equal the reference's (source: 算分, §wengan-settlement-order)."""
    assert_same(end)


@st.composite
def named_hand_ends(draw):
    """``hand_ends`` with the winner's 名堂 flags (天胡, 地胡, 杠开) drawn, and under 定缺 the
    ``declare`` mode with a named suit per seat."""
    end = draw(W.hand_ends())
    if end.wins:
        win = end.wins[0]
        has_kong = any(m.kind in R.KONG_KINDS for m in end.seats[win.seat].melds)
        win = dataclasses.replace(
            win,
            heavenly=draw(st.booleans()),
            earthly=draw(st.booleans()),
            kong_bloom=has_kong and draw(st.booleans()),
        )
        end = dataclasses.replace(end, wins=(win,))
    if draw(st.booleans()):
        seats = tuple(
            dataclasses.replace(s, que_suit=draw(st.sampled_from("mps"))) for s in end.seats
        )
        end = with_options(dataclasses.replace(end, seats=seats), ding_que_mode="declare")
    try:
        R.check(end)
    except ValueError:
        assume(False)
    return end


@W.SETTINGS
@given(named_hand_ends())
def test_random_hands_with_mingtang_and_declared_que(end):
    """Random hands with 天胡 / 地胡 / 杠开 (source: 天胡/地胡 名堂, 杠上花 3分) and 定缺 by a named
    suit (§wengan-ding-que): the kernel pays as the reference does."""
    assert_same(end)


# ------------------------------------------------------------------------------ played hands


@pytest.mark.engine
@W.SETTINGS
@given(
    st.fixed_dictionaries(
        {name: st.sampled_from(values) for name, values in W.OPTION_CHOICES.items()}
    ),
    st.integers(0, 2**31),
)
def test_played_hands_settle_as_the_reference(choices, seed):
    """Hands played by the engine under random options with 乌骨鸡 on (rules: 乌骨鸡, 冲锋鸡
    （乌骨鸡也算）, 责任鸡, 包鸡): the slow referee follows each hand's log to its finished
    position, and the reference settles it to every seat's delta the engine recorded."""
    options = WenganOptions(**{**choices, "wu_gu_ji": True})
    for hand in play_logged(options, 6, seed, EFFICIENT):
        referee = Referee(hand.events, hand.wall, options, hand.dealer, hand.streak)
        referee.run()
        assert not referee.findings
        expected = R.settle(referee.hand_end()).deltas
        assert list(hand.record[REC.R_DELTA : REC.R_DELTA + options.player_count]) == list(expected)
