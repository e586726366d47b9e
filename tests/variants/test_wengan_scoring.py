"""Weng'an scoring kernels (sim/variants/wengan/scoring.py) against the slow reference
(tests/reference/wengan.py): patterns of complete hands, waits and readiness of 13-tile hands,
the flip and the value of one chicken tile.

Rules: docs/rules/wengan.md (贵州瓮安麻将); each test names the rule it checks, with its
§wengan-rules section. Hands are built constructively (melds, sets, pairs, seven pairs, flushes) by
hypothesis; the adversarial cases and every worked example's hand (§wengan-example-1 to
§wengan-example-8) are written out."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference import wengan as R

from sim.core.tables import load_tables
from sim.core.tiles import parse_tiles
from sim.kernels.state import MELD_ADDED_KONG, MELD_CONCEALED_KONG, MELD_DISCARD_KONG, MELD_PONG
from sim.variants.wengan import WenganOptions
from sim.variants.wengan import kernels as K
from sim.variants.wengan.patterns import (
    PATTERN_BY_NAME,
    PATTERN_NAMES,
    PATTERN_NONE,
    PATTERN_POINTS,
    PATTERNS,
)

MELD_TYPE = {
    "pong": MELD_PONG,
    "men_dou": MELD_CONCEALED_KONG,
    "pa_po_dou": MELD_ADDED_KONG,
    "dian_dou": MELD_DISCARD_KONG,
    "han_bao_dou": MELD_CONCEALED_KONG,  # only the size (a kong: 4 tiles) is read by patterns
}
QUE_SUIT = {None: -1, "m": 0, "p": 1, "s": 2}
SETTINGS = settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example],
)


def kind(text: str) -> int:
    return parse_tiles(text)[0]


def name(kinds) -> str:
    return " ".join(f"{k % 9 + 1}{'mps'[k // 9]}" for k in kinds)


def counts_of(kinds, size: int = 34) -> np.ndarray:
    counts = np.zeros(size, np.uint8)
    for k in kinds:
        counts[k] += 1
    return counts


def melds_of(melds: tuple[R.Meld, ...]) -> np.ndarray:
    """The engine's meld rows (type, tile, from seat), four rows as in the game state."""
    rows = np.zeros((4, 3), np.int8)
    for index, meld in enumerate(melds):
        rows[index] = (MELD_TYPE[meld.kind], kind(meld.tile), meld.from_seat or 0)
    return rows


def que_suit(seat: R.Seat) -> int:
    return QUE_SUIT[seat.que_suit]


# ------------------------------------------------------------------------------ the kernels' faces


def kernel_pattern(hand: list[int], melds, win: int, options, size: int = 34) -> str | None:
    """The kernel's pattern of a complete hand (``hand`` with the winning tile), as a name."""
    code = K.hand_pattern(
        counts_of(hand, size),
        melds_of(melds),
        len(melds),
        win,
        options.params(),
        load_tables(),
    )
    return PATTERN_NAMES.get(int(code))


def kernel_best(seat: R.Seat, win: int, heavenly: bool, options) -> str | None:
    code = K.best_pattern(
        counts_of([*R.concealed_kinds(seat), win]),
        melds_of(seat.melds),
        len(seat.melds),
        win,
        heavenly,
        que_suit(seat),
        options.params(),
        load_tables(),
    )
    return PATTERN_NAMES.get(int(code))


def kernel_waits(seat: R.Seat, options) -> dict[int, str]:
    patterns = np.full(27, -1, np.int64)
    args = (
        counts_of(R.concealed_kinds(seat)),
        melds_of(seat.melds),
        len(seat.melds),
        que_suit(seat),
        options.params(),
        load_tables(),
    )
    mask = int(K.waits(*args, patterns))
    found = {k: PATTERN_NAMES[int(patterns[k])] for k in range(27) if mask >> k & 1}
    assert all(patterns[k] == PATTERN_NONE for k in range(27) if not mask >> k & 1)
    assert int(K.max_wait_points(*args)) == max(
        (PATTERN_POINTS[PATTERN_BY_NAME[n]] for n in found.values()), default=0
    )
    assert bool(K.is_ready(*args)) == bool(found)
    return found


def assert_waits_agree(seat: R.Seat, options) -> dict[int, str]:
    players = options.player_count
    found = kernel_waits(seat, options)
    assert found == R.waits(seat, players, options), (seat, options)
    assert int(K.max_wait_points(*_wait_args(seat, options))) == R.max_pattern(
        seat, players, options
    )
    return found


def _wait_args(seat: R.Seat, options):
    return (
        counts_of(R.concealed_kinds(seat)),
        melds_of(seat.melds),
        len(seat.melds),
        que_suit(seat),
        options.params(),
        load_tables(),
    )


# ------------------------------------------------------------------------------ the pattern table


def test_pattern_table_is_rules_spec_b5_1():
    """牌型分 (source: 平胡1分 大对子5分 七对5分 龙七对20分 清一色10分 清大对15分 清七对15分
    青龙背30分 单吊10分 清单吊20分; §wengan-pattern-score): one row per pattern, the reference's
    points, codes 1-10 with 0 = no win, and the kernels' points array the same."""
    assert {chinese: points for _, chinese, _, points in PATTERNS} == R.PATTERN_POINTS
    assert sorted(code for code, *_ in PATTERNS) == list(range(1, len(PATTERNS) + 1))
    assert len({english for _, _, english, _ in PATTERNS}) == len(PATTERNS)
    assert K.POINTS.tolist() == [0] + [points for *_, points in sorted(PATTERNS)]
    assert [int(K.pattern_points(code)) for code, *_ in PATTERNS] == [p for *_, p in PATTERNS]
    for plain, flush in R.FLUSH_NAMES.items():
        assert PATTERN_NAMES[int(K.FLUSH[PATTERN_BY_NAME[plain]])] == flush


# ------------------------------------------------------------------------------ random hands


class Pool:
    """The tiles not yet placed, in the allowed suits: groups are drawn while copies remain."""

    def __init__(self, rnd, suits):
        self.rnd = rnd
        self.kinds = [k for k in range(27) if k // 9 in suits]
        self.left = dict.fromkeys(range(27), 4)

    def take(self, kinds) -> bool:
        need = Counter(kinds)
        if any(self.left[k] < n for k, n in need.items()):
            return False
        for k, n in need.items():
            self.left[k] -= n
        return True

    def pick(self, shapes) -> list[int]:
        """One group whose shape is drawn from ``shapes`` (offset tuples), copies permitting."""
        for _ in range(200):
            shape = self.rnd.choice(shapes)
            start = self.rnd.choice(self.kinds)
            kinds = [start + offset for offset in shape]
            if kinds[-1] // 9 == start // 9 and self.take(kinds):
                return kinds
        raise LookupError


TRIPLET, SEQUENCE, PAIR, QUAD = (0, 0, 0), (0, 1, 2), (0, 0), (0, 0, 0, 0)
SUIT_CHOICES = [(0,), (1,), (2,), (0, 1), (1, 2), (0, 1, 2), (0, 1, 2)]


FORMS = ("standard", "standard", "triplets", "seven_pairs")
MELD_CHOICES = ("pong", "pong", *R.KONG_KINDS)


def build_complete_hand(rnd, suits, form, meld_kinds):
    """(concealed kinds with the winning tile, melds, winning kind), or None when the copies run
    out: a standard hand with the given pong/kong melds (``triplets``: only triplets, for 大对子
    and 单吊), or seven pairs (sometimes with quads), in the given suits."""
    pool = Pool(rnd, suits)
    try:
        if form == "seven_pairs":
            hand = []
            while len(hand) < 14:
                hand += pool.pick([PAIR, PAIR, QUAD] if len(hand) <= 10 else [PAIR])
            melds = ()
        else:
            melds = tuple(R.Meld(k, name(pool.pick([TRIPLET])[:1])) for k in meld_kinds)
            # a kong's fourth copy
            melds = tuple(m for m in melds if m.kind == "pong" or pool.take([kind(m.tile)]))
            shapes = [TRIPLET] if form == "triplets" else [TRIPLET, SEQUENCE, SEQUENCE]
            hand = [k for _ in range(4 - len(melds)) for k in pool.pick(shapes)]
            hand += pool.pick([PAIR])
    except LookupError:
        return None
    return hand, melds, rnd.choice(sorted(set(hand)))


@st.composite
def complete_hands(draw):
    """``build_complete_hand`` with hypothesis's choices; one suit in about half of them."""
    return build_complete_hand(
        draw(st.randoms(use_true_random=False)),
        draw(st.sampled_from(SUIT_CHOICES)),
        draw(st.sampled_from(FORMS)),
        draw(st.lists(st.sampled_from(MELD_CHOICES), max_size=4)),
    )


PATTERN_OPTIONS = st.builds(
    WenganOptions,
    dan_diao_definition=st.sampled_from(["four_melds", "any_pair_wait"]),
    long_qi_dui_win_on_quad=st.booleans(),
)


@SETTINGS
@given(complete_hands(), PATTERN_OPTIONS, st.sampled_from([27, 34]))
def test_pattern_of_random_complete_hands(made, options, size):
    """牌型 (source: 平胡/大对子/七对/龙七对/清一色/单吊; §wengan-hand-forms,
    §wengan-pattern-score): the kernel names the reference's pattern for constructed complete hands,
    under both 单吊 definitions and both 龙七对 readings, from (27,) and (34,) counts."""
    if made is None:
        return
    hand, melds, win = made
    expected = R.pattern(hand, melds, win, options)
    assert expected is not None
    assert kernel_pattern(hand, melds, win, options, size) == expected, (name(hand), melds, win)


@pytest.mark.parametrize("seed", [1, 2])
def test_random_hands_reach_every_pattern(seed):
    """Every row of the pattern table (source: 牌型分; §wengan-pattern-score) comes out of the hand
    builder under the four combinations of the 单吊 and 龙七对 options, the kernel agreeing with the
    reference on each hand: the random tests above can see every pattern."""
    rnd = random.Random(seed)
    seen = Counter()
    for index in range(1200):
        options = WenganOptions(
            dan_diao_definition=("four_melds", "any_pair_wait")[index % 2],
            long_qi_dui_win_on_quad=index % 4 < 2,
        )
        made = build_complete_hand(
            rnd,
            rnd.choice(SUIT_CHOICES),
            rnd.choice(FORMS),
            [rnd.choice(MELD_CHOICES) for _ in range(rnd.randint(0, 4))],
        )
        if made is None:
            continue
        hand, melds, win = made
        expected = R.pattern(hand, melds, win, options)
        assert kernel_pattern(hand, melds, win, options) == expected, (name(hand), melds, win)
        seen[expected] += 1
    assert set(seen) == set(R.PATTERN_POINTS), seen


@pytest.mark.slow
def test_many_random_hands_and_their_waits():
    """The same as the tests above on many more hands (§wengan-hand-forms, §wengan-pattern-score,
    §wengan-exhaustive-draw, §wengan-ding-que): each complete hand's pattern, and the waits of the
    hand less one tile under random 定缺 and 单吊 / 龙七对 options, as the reference."""
    rnd = random.Random(7)
    for _ in range(2000):
        options = WenganOptions(
            player_count=rnd.choice([4, 3, 2]),
            ding_que_mode=rnd.choice(["composition", "declare"]),
            dan_diao_definition=rnd.choice(["four_melds", "any_pair_wait"]),
            long_qi_dui_win_on_quad=rnd.random() < 0.5,
        )
        made = build_complete_hand(
            rnd,
            rnd.choice(SUIT_CHOICES),
            rnd.choice(FORMS),
            [rnd.choice(MELD_CHOICES) for _ in range(rnd.randint(0, 4))],
        )
        if made is None:
            continue
        hand, melds, win = made
        assert kernel_pattern(hand, melds, win, options) == R.pattern(hand, melds, win, options)
        rest = list(hand)
        rest.remove(rnd.choice(hand))
        assert_waits_agree(R.Seat(name(rest), melds, que_suit=rnd.choice("mps")), options)


@SETTINGS
@given(complete_hands(), PATTERN_OPTIONS, st.data())
def test_pattern_of_complete_hands_with_one_tile_changed(made, options, data):
    """A complete hand with one concealed tile swapped for another kind: mostly not winning; the
    kernel and the reference agree which still win, and how (§wengan-hand-forms)."""
    if made is None:
        return
    hand, melds, win = made
    out = data.draw(st.sampled_from(hand))
    into = data.draw(st.integers(0, 26))
    hand = list(hand)
    hand.remove(out)
    hand.append(into)
    held = Counter(hand + [k for meld in melds for k in meld.kinds])
    if held[into] > 4:
        return
    win = data.draw(st.sampled_from(sorted(set(hand))))
    assert kernel_pattern(hand, melds, win, options) == R.pattern(hand, melds, win, options)


WAIT_OPTIONS = st.builds(
    WenganOptions,
    player_count=st.sampled_from([4, 3, 2]),
    ding_que=st.booleans(),
    ding_que_mode=st.sampled_from(["composition", "declare"]),
    dan_diao_definition=st.sampled_from(["four_melds", "any_pair_wait"]),
    long_qi_dui_win_on_quad=st.booleans(),
)


@SETTINGS
@given(complete_hands(), WAIT_OPTIONS, st.data())
def test_waits_of_ready_hands(made, options, data):
    """听牌 / 查叫 (source: 荒庄查叫 最大牌型分; §wengan-exhaustive-draw,
    §wengan-reading-cha-jiao-pattern-only, 定缺 §wengan-ding-que): a complete hand less one tile is
    ready; its waits, each wait's pattern, readiness and the best wait's points agree with the
    reference, with 2 and 3 players under both 定缺 modes."""
    if made is None:
        return
    hand, melds, win = made
    hand = list(hand)
    hand.remove(win)
    que = data.draw(st.sampled_from(["m", "p", "s"]))
    seat = R.Seat(name(hand), melds, que_suit=que)
    found = assert_waits_agree(seat, options)
    if options.player_count == 4 or not options.ding_que:
        assert win in found


@SETTINGS
@given(st.randoms(use_true_random=False), WAIT_OPTIONS, st.integers(0, 3))
def test_waits_of_random_hands(rnd, options, n_pongs):
    """Waits of random 13-tile hands with up to three pongs (mostly not ready;
    §wengan-hand-forms)."""
    pool = Pool(rnd, rnd.choice(SUIT_CHOICES))
    melds = []
    for _ in range(n_pongs):
        try:
            melds.append(R.Meld("pong", name(pool.pick([TRIPLET])[:1])))
        except LookupError:
            break
    hand = []
    while len(hand) < 13 - 3 * len(melds):
        k = rnd.choice(pool.kinds)
        if pool.take([k]):
            hand.append(k)
    assert_waits_agree(R.Seat(name(hand), tuple(melds), que_suit=rnd.choice("mps")), options)


@SETTINGS
@given(complete_hands(), WAIT_OPTIONS, st.sampled_from(["m", "p", "s"]))
def test_heavenly_win_scores_its_best_winning_tile(made, options, que):
    """天胡 (source: 天胡 庄家起手胡牌; §wengan-reading-scorer-details): the best pattern over every
    choice of the winning tile among the 14, as the reference's best_pattern (with 定缺 for 2/3
    players)."""
    if made is None or made[1]:
        return
    hand, melds, win = made
    rest = list(hand)
    rest.remove(win)
    seat = R.Seat(name(rest), melds, que_suit=que)
    players = options.player_count
    heavenly = R.Win(0, name([win]), "self_draw", heavenly=True)
    assert kernel_best(seat, win, True, options) == R.best_pattern(seat, heavenly, players, options)
    plain = R.Win(0, name([win]), "self_draw")
    assert kernel_best(seat, win, False, options) == R.best_pattern(seat, plain, players, options)


# ------------------------------------------------------------------------------ adversarial hands


def pattern_of(text: str, win: str, melds=(), **values) -> str | None:
    hand = parse_tiles(text)
    options = WenganOptions(**values)
    expected = R.pattern(hand, tuple(melds), kind(win), options)
    assert kernel_pattern(hand, tuple(melds), kind(win), options) == expected
    return expected


def test_seven_pairs_that_is_also_standard():
    """七对 vs 平胡 (source: 七对 5分, 清七对 15分; §wengan-pattern-score: the highest row applies):
    seven pairs that also split into sets and a pair score as 七对; with any_pair_wait a split with
    the winning tile as the pair makes it 单吊, higher still (§wengan-hand-forms)."""
    assert pattern_of("11223344556677m", "1m") == "清七对"
    assert pattern_of("11223344556677m", "7m") == "清七对"
    assert pattern_of("11223344556677m", "7m", dan_diao_definition="any_pair_wait") == "清单吊"
    assert pattern_of("11223344556677m", "4m", dan_diao_definition="any_pair_wait") == "清单吊"
    assert pattern_of("11223344556677m", "2m", dan_diao_definition="any_pair_wait") == "清七对"
    assert pattern_of("112233m 445566p 99s", "9s", dan_diao_definition="any_pair_wait") == "单吊"
    assert pattern_of("112233m 445566p 99s", "1m", dan_diao_definition="any_pair_wait") == "七对"


def test_long_qi_dui_with_a_quad():
    """龙七对 (source: 龙七对 七对中必有一对是刻子 20分; §wengan-hand-forms,
    §wengan-reading-long-qi-dui-winning-tile): the winning tile must make the four by default; any
    quad with the option off; a quad that is also a standard hand's triplet and pair; two quads
    score as one."""
    assert pattern_of("1111m 22m 33m 445566p", "1m") == "龙七对"
    assert pattern_of("1111m 22m 33m 445566p", "2m") == "七对"
    assert pattern_of("1111m 22m 33m 445566p", "2m", long_qi_dui_win_on_quad=False) == "龙七对"
    assert pattern_of("1111m 3333m 55m 77m 99m", "3m") == "青龙背"
    assert pattern_of("1111m 3333m 55m 77m 99m", "5m") == "清七对"
    # four of a kind in a standard hand that is no seven pairs: a triplet and a sequence
    assert pattern_of("1111m 23m 456p 789p 55s", "5s") == "平胡"


def test_dan_diao_edge_cases():
    """单吊 (source: 单吊将牌 10分; §wengan-hand-forms, §wengan-reading-dan-diao-four-melds): four
    melds (pongs or kongs) and the pair of the winning tile by default; with any_pair_wait the
    winning kind must be the pair of some split (a tile also usable in a set still counts); 七对 is
    never 单吊."""
    four = (
        R.Meld("pong", "3m"),
        R.Meld("pong", "7p"),
        R.Meld("pong", "9s"),
        R.Meld("dian_dou", "4s"),
    )
    assert pattern_of("6m 6m", "6m", four) == "单吊"
    flush = (
        R.Meld("pong", "3s"),
        R.Meld("men_dou", "7s"),
        R.Meld("pong", "9s"),
        R.Meld("pong", "4s"),
    )
    assert pattern_of("6s 6s", "6s", flush) == "清单吊"
    three = four[:3]
    assert pattern_of("555m 66m", "6m", three) == "大对子"
    assert pattern_of("555m 66m", "6m", three, dan_diao_definition="any_pair_wait") == "单吊"
    assert pattern_of("555m 66m", "5m", three, dan_diao_definition="any_pair_wait") == "大对子"
    # the winning 9p can only be the pair (spec's example of any_pair_wait)
    hand = "234m 567p 345s 678m 9p 9p"
    assert pattern_of(hand, "9p") == "平胡"
    assert pattern_of(hand, "9p", dan_diao_definition="any_pair_wait") == "单吊"
    # 1m is the pair of 11m 123m 456p 789p 555s (and could sit in 111m): 单吊; 5s, 2m never pair
    any_pair = {"dan_diao_definition": "any_pair_wait"}
    assert pattern_of("11123m 456p 789p 555s", "1m", **any_pair) == "单吊"
    assert pattern_of("11123m 456p 789p 555s", "5s", **any_pair) == "平胡"
    assert pattern_of("11123m 456p 789p 555s", "2m", **any_pair) == "平胡"
    assert pattern_of("111123m 456p 789p 59s", "1m", **any_pair) is None


def test_waits_never_count_a_fifth_copy():
    """听牌 (§wengan-exhaustive-draw; the reference's waits): a kind the seat holds all four of
    (hand and melds) is no wait; a pong's fourth copy is."""
    options = WenganOptions()
    seat = R.Seat("1111m 2m 456p 789p 55s")
    assert assert_waits_agree(seat, options) == {kind("3m"): "平胡"}
    kong = R.Seat("2m 3m 456p 789p 55s", (R.Meld("men_dou", "1m"),))
    assert kind("1m") not in assert_waits_agree(kong, options)
    pong = R.Seat("2m 3m 456p 789p 55s", (R.Meld("pong", "1m"),))
    assert assert_waits_agree(pong, options) == {kind("1m"): "平胡", kind("4m"): "平胡"}
    # a quad among pairs: 6p makes seven pairs (and 123m 123m 11m 456p 456p), 3p only sets
    pairs = R.Seat("1111m 22m 33m 4455p 6p")
    assert assert_waits_agree(pairs, options) == {kind("3p"): "平胡", kind("6p"): "七对"}


def test_ding_que_waits():
    """定缺 (source: 二、三人的玩法中，需要定缺才能叫胡牌; §wengan-ding-que): with 3 players a
    hand of three suits has no wait; with 4, or 定缺 off, it has; under declare the named suit
    must be absent."""
    seat = R.Seat("234m 567p 345s 78m 55s")
    assert assert_waits_agree(seat, WenganOptions(player_count=3)) == {}
    assert assert_waits_agree(seat, WenganOptions(player_count=3, ding_que=False))
    two = R.Seat("234m 567p 678m 78m 55p", que_suit="s")
    declare = WenganOptions(player_count=2, ding_que_mode="declare")
    assert assert_waits_agree(two, declare) == {kind("6m"): "平胡", kind("9m"): "平胡"}
    named = dataclasses.replace(two, que_suit="m")
    assert assert_waits_agree(named, declare) == {}


# ------------------------------------------------------------------------------ worked examples


def test_wa_example_hands():
    """Every worked example's hand (§wengan-example-1 to §wengan-example-7; source: 平胡, 龙七对,
    青龙背, 单吊, 清单吊, 荒庄查叫): the kernel's pattern, waits and best wait equal the spec's
    numbers."""
    options = WenganOptions()
    # §wengan-example-1: a 平胡 waiting on 6m / 9m
    wa1 = R.Seat("234m 567p 345s 78m 55s")
    assert assert_waits_agree(wa1, options) == {kind("6m"): "平胡", kind("9m"): "平胡"}
    dou = R.Seat("234m 345s 78m 55s", (R.Meld("men_dou", "6p"),))
    assert kernel_best(dou, kind("9m"), False, options) == "平胡"
    # §wengan-example-2: 龙七对 on the fourth 5p, 七对 on 2s, 青龙背 in dots
    assert pattern_of("5555p 11s 33m 77m 99p 22s", "5p") == "龙七对"
    assert pattern_of("5555p 11s 33m 77m 99p 22s", "2s") == "七对"
    assert pattern_of("5555p 11s 33m 77m 99p 22s", "2s", long_qi_dui_win_on_quad=False) == "龙七对"
    assert pattern_of("5555p 11p 33p 77p 99p 22p", "5p") == "青龙背"
    assert PATTERN_POINTS[PATTERN_BY_NAME["青龙背"]] == 30
    # §wengan-example-3: 单吊 and 清单吊 on four melds
    melds = (
        R.Meld("pong", "3m"),
        R.Meld("pong", "7p"),
        R.Meld("pong", "9s"),
        R.Meld("dian_dou", "4s"),
    )
    assert kernel_best(R.Seat("6m", melds), kind("6m"), False, options) == "单吊"
    flush = (
        R.Meld("pong", "3s"),
        R.Meld("pong", "7s"),
        R.Meld("pong", "9s"),
        R.Meld("dian_dou", "4s"),
    )
    assert kernel_best(R.Seat("6s", flush), kind("6s"), False, options) == "清单吊"
    # §wengan-example-4: seat 0's self-drawn 平胡
    assert pattern_of("234m 678p 345s 678m 9p 9p", "9p") == "平胡"
    # §wengan-example-5: seat 0 wins 2p (平胡)
    wa5 = R.Seat("3p 4p 789p 234s 789s 9m 9m")
    assert assert_waits_agree(wa5, options) == {kind("2p"): "平胡", kind("5p"): "平胡"}
    # §wengan-example-6: 查叫's best patterns 清一色 10 and 平胡 1
    seat0 = R.Seat("1p 2p 3p 4p 5p 6p 7p 8p 9p 2p 2p 5p 6p")
    assert set(assert_waits_agree(seat0, options)) == {kind("4p"), kind("7p")}
    assert int(K.max_wait_points(*_wait_args(seat0, options))) == 10
    seat1 = R.Seat("2m 3m 4m 5m 6m 7m 3s 4s 5s 6s 7s 9m 9m")
    assert set(assert_waits_agree(seat1, options)) == {kind("2s"), kind("5s"), kind("8s")}
    assert int(K.max_wait_points(*_wait_args(seat1, options))) == 1
    for seat in (
        R.Seat("234m 678p 45s 678m 99p"),
        R.Seat("1m 2m 5m 8p 9s 1s 3p 4p 6m 7m 2s 2s 7p"),
    ):
        assert assert_waits_agree(seat, options) == R.waits(seat, 4, options)
    # §wengan-example-7: a 平胡 waiting on 4s
    wa7 = R.Seat("234m 567p 789m 23s 55s")
    assert kind("4s") in assert_waits_agree(wa7, options)


# ------------------------------------------------------------------------------ the 通行证


PASSPORT_OPTIONS = st.builds(
    WenganOptions,
    passport_kinds=st.sampled_from(["any_kong", "scoring_kong", "kong_or_chicken", "none"]),
    wu_gu_ji=st.booleans(),
    ping_hu_ron_needs_passport=st.booleans(),
)


@SETTINGS
@given(st.randoms(use_true_random=False), PASSPORT_OPTIONS, st.integers(0, 4))
def test_passport_agrees_with_the_reference(rnd, options, n_melds):
    """通行证 (source: 平胡点炮胡需要通行证; 此时可以无豆平胡; §wengan-passport,
    §wengan-reading-passport-is-a-kong, §wengan-reading-scorer-details): a kong of the allowed kinds
    (憨包豆 only under any_kong), or with kong_or_chicken a 1s (8p with 乌骨鸡) in hand or melds, as
    the reference's has_passport; chickens are drawn often. Then who may win a discard
    (平胡点炮需要通行证, §wengan-how-to-win): a big hand always, a 平胡 with the pass or an
    exception."""
    pool = Pool(rnd, (0, 1, 2))
    melds = []
    for _ in range(n_melds):
        meld_kind = rnd.choice(["pong", *R.KONG_KINDS])
        tile = rnd.choice([R.ONE_S, R.EIGHT_P, rnd.randrange(27)])
        if pool.take([tile] * (3 if meld_kind == "pong" else 4)):
            melds.append(R.Meld(meld_kind, name([tile])))
    hand = []
    while len(hand) < 13 - 3 * len(melds):
        k = rnd.choice([R.ONE_S, R.EIGHT_P, *range(27), *range(27)])
        if pool.take([k]):
            hand.append(k)
    seat = R.Seat(name(hand), tuple(melds))
    late = sum(1 << i for i, meld in enumerate(melds) if meld.kind == "han_bao_dou")
    found = K.has_passport(
        counts_of(hand), melds_of(seat.melds), len(melds), late, options.params()
    )
    assert bool(found) == R.has_passport(seat, options), (seat, options)
    for pattern in ("平胡", "大对子", "清一色"):
        for exception in (False, True):
            allowed = K.discard_win_allowed(
                PATTERN_BY_NAME[pattern], found, exception, options.params()
            )
            expected = R.discard_win_allowed(seat, pattern, options, hot_cannon=exception)
            assert bool(allowed) == expected, (seat, pattern, exception, options)


# ------------------------------------------------------------------------------ chickens


def kernel_hits(flipped: list[int], options) -> list[int]:
    out = np.zeros(27, np.int64)
    K.flip_hits(np.array(flipped, np.int64), len(flipped), options.params(), out)
    return out.tolist()


CHICKEN_OPTIONS = st.builds(
    WenganOptions,
    fan_pai_ji=st.booleans(),
    ben_ji=st.booleans(),
    yao_bai_ji=st.booleans(),
    qian_hou_fan_ji=st.booleans(),
    jin_ji=st.booleans(),
    wu_gu_ji=st.booleans(),
    quan_qing_yao=st.booleans(),
    xing_qi_ji=st.booleans(),
    xing_qi_ji_weekday=st.integers(1, 7),
    gold_model=st.sampled_from(["additive", "multiplicative"]),
)


@SETTINGS
@given(CHICKEN_OPTIONS, st.lists(st.integers(0, 26), max_size=4))
def test_flip_hits_agree_with_the_reference(options, wall):
    """翻牌鸡 / 本鸡 / 摇摆鸡 / 前后翻鸡 (source: 翻牌鸡 通过翻牌确认, 本鸡, 摇摆鸡 翻牌顺位+1，-1,
    前后翻鸡 未摸牌不少于2张时; §wengan-chicken-flip, §wengan-reading-flip-options-need-flip): how
    many tiles flip after a win and H(t) of every kind, as the reference's flips and hits."""
    end = R.HandEnd(
        (R.Seat(),) * 4, (R.Win(0, "1m", "self_draw"),), wall=name(wall), options=options
    )
    n_flips = int(K.flip_count(len(wall), options.params()))
    assert n_flips == len(R.flips(end))
    flipped = [wall[0], wall[-1]][:n_flips] if wall else []
    expected = R.hits(end)
    assert kernel_hits(flipped, options) == [expected[k] for k in range(27)]


@SETTINGS
@given(CHICKEN_OPTIONS, st.integers(0, 26), st.integers(0, 2), st.booleans(), st.integers(0, 4))
def test_chicken_value_agrees_with_the_reference(options, tile, hit, charging, ordinal):
    """鸡的分值 (source: 幺鸡1分 乌骨鸡2分 冲锋鸡 金鸡 全清幺 星期鸡; §wengan-chicken-value,
    §wengan-reading-chicken-arithmetic, §wengan-reading-scorer-details): the value of one tile for
    any H, charging or ordinal, under the gold models, as the reference."""
    if ordinal and (tile != R.ONE_S or charging):
        return  # an ordinal is a discarded 1s's, and never with the plain charge
    expected = R.chicken_value(tile, hit, options, charging=charging, ordinal=ordinal or None)
    assert int(K.chicken_value(tile, hit, charging, ordinal, options.params())) == expected
    fixed = (
        tile == R.ONE_S or (tile == R.EIGHT_P and options.wu_gu_ji) or R.is_weekday(tile, options)
    )
    assert bool(K.is_fixed_chicken(tile, options.params())) == fixed


WA8 = [
    ("1s", 0, {}, False, 1),
    ("1s", 1, {}, False, 3),
    ("1s", 2, {"qian_hou_fan_ji": True}, False, 5),
    ("1s", 0, {}, True, 2),
    ("1s", 1, {}, True, 6),
    ("8p", 0, {"wu_gu_ji": True}, False, 2),
    ("8p", 0, {"wu_gu_ji": True}, True, 4),
    ("8p", 1, {"wu_gu_ji": True}, False, 4),
    ("8p", 2, {"wu_gu_ji": True}, False, 6),
    ("8p", 1, {"wu_gu_ji": True}, True, 8),
    ("8p", 2, {"wu_gu_ji": True}, True, 12),
    ("1p", 1, {"quan_qing_yao": True}, False, 2),
    ("4m", 1, {}, False, 1),
    ("4m", 2, {"qian_hou_fan_ji": True}, False, 2),
    ("3m", 0, {"xing_qi_ji": True}, False, 1),
    (
        "8p",
        1,
        {},
        False,
        1,
    ),  # §wengan-reading-8p-gold-needs-wu-gu-ji: 8p without 乌骨鸡 is an ordinary flip chicken
]


@pytest.mark.parametrize(("tile", "hit", "values", "charging", "value"), WA8)
def test_wa8_single_chicken_values(tile, hit, values, charging, value):
    """§wengan-example-8 (source: 幺鸡1分, 冲锋鸡2分, 乌骨鸡2分, 冲锋乌骨鸡4分, 金鸡 每只鸡+2分,
    金乌骨鸡4分（翻中两次6分）, 冲锋金乌骨鸡8分（翻中2次12分）; §wengan-chicken-value): the kernel
    gives the spec's value of every row."""
    params = WenganOptions(**values).params()
    assert int(K.chicken_value(kind(tile), hit, charging, 0, params)) == value


@pytest.mark.parametrize(
    ("mode", "values"), [("4321", (4, 3, 2, 1, 1)), ("3211", (3, 2, 1, 1, 1)), ("plain", (0,) * 5)]
)
def test_wa8_ordinal_charging_values(mode, values):
    """§wengan-example-8 冲锋鸡4321 / 3211 (source:
    所有且打出未被碰杠的幺鸡，按幺鸡出现牌桌的先后顺序; §wengan-chicken-value): the 1st-4th counted
    discarded 1s are worth 4/3/2/1 (3/2/1/1), a 5th the last value; a flip hit adds 2 (gold) to the
    ordinal base."""
    params = WenganOptions(chong_feng_mode=mode).params()
    for position, value in enumerate(values, start=1):
        assert int(K.ordinal_value(position, params)) == value
        if value:
            assert int(K.chicken_value(R.ONE_S, 1, False, value, params)) == value + 2
