"""直叫 and its option ``zhi_jiao_requires`` played by the engine on constructed walls, and seen by
the rule checks (§anqing-zuan-kong-needs-zhi-jiao, §anqing-option-zhi-jiao-requires,
§anqing-reading-zhi-jiao).

Seed rule: docs/rules/anqing.md (安庆麻将), 直叫: "钻牌在形成直叫时才能用来杠", "拿钻去
杠，形成直叫" (§anqing-pao-feng-points), "直叫＝杠开+跑风". The spec's test: with ``pao_feng_wait``
a player whose hand without the 钻 is ``1m 2m 3m | 4s 5s 6s | 7m 8m 9m | 2p 2p | 7s 8s`` (waits
3s/6s/9s, none 跑风) may not kong the 钻; with ``ready`` he may. §anqing-example-6 (a wait on 9p, a
pair) is allowed under both.

The dealer (seat 0) is dealt the hand and a 钻 as his 14th tile (flip 4p: the 钻 is 5p); the
wall's last tile, the kong's replacement, is a tile he waits on.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from anqing_steps import TABLES, Table
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from sim.core.tiles import kind_id, parse_tiles
from sim.kernels import moves as M
from sim.kernels import state as S
from sim.kernels.hand import keys_from_counts
from sim.kernels.moves import HOW_KONG_BLOOM
from sim.kernels.record import R_DELTA, R_FEATURES, R_POINTS, R_WIN_KIND, R_WINNER
from sim.variants.anqing import ITEM_NAMES, N_ANQING_RECORD, AnqingOptions, scoring
from sim.variants.anqing import checks as C
from sim.variants.anqing import engine as AE
from sim.variants.anqing import hooks as H
from sim.variants.anqing.record_slots import RA_ITEMS

SPEC_TEST = "1m 2m 3m 4s 5s 6s 7m 8m 9m 2p 2p 7s 8s"  # waits 3s 6s 9s: none 跑风
AQ6 = "1m 2m 3m 4s 5s 6s 7m 8m 9m 2p 3p 4p 9p"  # waits 9p: the pair, 跑风
OTHERS = (
    "1p 1p 1p 6p 6p 6p 7p 7p 7p 8p 8p 8p E",
    "1s 1s 1s 2s 2s 2s 3s 3s 3s 4m 4m 4m S",
    "5m 5m 5m 6m 6m 6m W W W N N N E",
)


def _wall(hand, replacement):
    """Seat 0 dealt ``hand`` then a 5p (the 钻) as his 14th; the flip 4p; the rest of the tiles
    after it, ``replacement`` last (the tail, where the kong's replacement comes from)."""
    head = parse_tiles(" ".join((hand, *OTHERS)) + " 5p 4p")
    used = Counter(head)
    used[kind_id(replacement)] += 1
    rest = [kind for kind in range(34) for _ in range(4 - used[kind])]
    return np.array(head + rest + [kind_id(replacement)], np.int8)


def _play(hand, replacement, **options):
    wall = _wall(hand, replacement)
    params = AnqingOptions(**options).params()
    state = S.new_state(C.LOG_CAPACITY)
    record = np.zeros(N_ANQING_RECORD, np.int64)
    AE.play_hand(state, wall, 4, 0, 0, params, TABLES, record)
    events = state.log[: state.scalars[S.LOG_COUNT]].copy()
    code, at = C.check_hand(state, state.log, len(events), wall, 4, 0, params, TABLES, record)
    assert (int(code), int(at)) == (0, len(events)), C.ERROR_NAMES[int(code)]
    return wall, state, record, events


def _items(record):
    bits = int(record[R_FEATURES])
    return {name: int(record[RA_ITEMS + i]) for i, name in enumerate(ITEM_NAMES) if bits >> i & 1}


def _first_move(events):
    """The dealer's first move after the flip: (event, tile)."""
    after_wild = int(np.flatnonzero(events[:, 0] == S.EVENT_WILD)[0]) + 1
    return int(events[after_wild, 0]), int(events[after_wild, 2])


@pytest.mark.engine
def test_spec_hand_kongs_the_zuan_under_ready_and_wins_zhi_jiao_without_pao_feng():
    """``ready``: the spec's hand (no 跑风 wait) kongs the 钻 at once, draws 9s and wins 杠开 in his
    first turn: 基本胡 3, 门清 3, 杠开 3, the single kong 1, 天胡 30 (single kongs first keep it,
    §anqing-reading-heavenly-after-single-kongs); no 跑风 (9s ends 7s 8s 9s), so no 直叫: S = 40,
    each pays 43 -> +129."""
    _, _, record, events = _play(SPEC_TEST, "9s", zhi_jiao_requires="ready")
    assert _first_move(events) == (S.EVENT_KONG, kind_id("5p"))
    assert record[R_WINNER] == 0 and record[R_WIN_KIND] == HOW_KONG_BLOOM
    assert _items(record) == {"基本胡": 3, "门清": 3, "杠开": 3, "杠牌": 1, "天胡/地胡": 30}
    assert record[R_POINTS] == 40
    assert record[R_DELTA : R_DELTA + 4].tolist() == [129, -43, -43, -43]


@pytest.mark.engine
def test_spec_hand_may_not_kong_the_zuan_under_pao_feng_wait():
    """``pao_feng_wait``: the same deal lists no 钻 kong (no wait of the hand is 跑风), and the
    dealt 14 is no win (the 钻 would stand for another tile, §anqing-zuan-conditions), so the dealer
    discards first; the hand plays on and passes the rule checks."""
    events = _play(SPEC_TEST, "9s", zhi_jiao_requires="pao_feng_wait")[3]
    assert _first_move(events)[0] == S.EVENT_DISCARD


@pytest.mark.engine
@pytest.mark.parametrize("requires", ["ready", "pao_feng_wait"])
def test_aq6_hand_kongs_the_zuan_under_both_and_wins_zhi_jiao(requires):
    """§anqing-example-6's hand waits on 9p (the pair: 跑风) and kongs the 钻 under both settings,
    draws 9p: 直叫 (杠开 + 跑风). 基本胡 3, 门清 3, 跑风 6, 杠开 3, the single kong 1, 天胡 30: S =
    46, each pays 49 -> +147."""
    _, _, record, events = _play(AQ6, "9p", zhi_jiao_requires=requires)
    assert _first_move(events) == (S.EVENT_KONG, kind_id("5p"))
    assert _items(record) == {
        "基本胡": 3, "门清": 3, "跑风": 6, "杠开": 3, "杠牌": 1, "天胡/地胡": 30,
    }  # fmt: skip
    assert record[R_DELTA : R_DELTA + 4].tolist() == [147, -49, -49, -49]


@pytest.mark.engine
def test_the_checks_reject_the_spec_hands_kong_under_pao_feng_wait():
    """The rule checks judge 直叫 by the option: the ``ready`` hand's log, checked as if
    ``pao_feng_wait`` had been played, fails at the 钻 kong (ERR_SINGLE_KONG); §anqing-example-6's
    passes."""
    params = AnqingOptions(zhi_jiao_requires="pao_feng_wait").params()
    for hand, replacement, expected in ((SPEC_TEST, "9s", C.ERR_SINGLE_KONG), (AQ6, "9p", 0)):
        wall, state, record, events = _play(hand, replacement)
        kong = int(np.flatnonzero(events[:, 0] == S.EVENT_KONG)[0])
        code, at = C.check_hand(state, state.log, len(events), wall, 4, 0, params, TABLES, record)
        assert (int(code), int(at)) == ((expected, kong) if expected else (0, len(events)))


# ------------------------------------------------------------------------------ what 直叫 waits on


def _zuan_kong_listed(hand, melds=(), **options):
    """Whether seat 1, holding ``hand`` (the 钻 is GD: the flip is RD) and ``melds`` (type,
    tile), is offered the single kong of its 钻 on its turn."""
    table = Table({1: hand}, indicator="RD", **options)
    for meld_type, tile in melds:
        table.meld(1, meld_type, tile, from_seat=0)
    return kind_id("GD") in table.listed(1, kind_id("GD"), M.ACT_KONG)


def test_no_zhi_jiao_on_a_fifth_copy_of_a_melded_kind():
    """钻牌在形成直叫时才能用来杠 (§anqing-zuan-kong-needs-zhi-jiao, §anqing-reading-scorer-details;
    0.3: no fifth copy): chi 456m, chi 234s, pong S and 1m 2m 3m S after the 钻 kong wait only on a
    fifth S, so the 钻 may not be konged; with a pong of E instead the S is live and it may."""
    chis = ((S.MELD_CHI, "4m"), (S.MELD_CHI, "2s"))
    assert not _zuan_kong_listed("1m 2m 3m S GD", (*chis, (S.MELD_PONG, "S")))
    assert _zuan_kong_listed("1m 2m 3m S GD", (*chis, (S.MELD_PONG, "E")))


@pytest.mark.parametrize("allow_quad", [True, False])
def test_zhi_jiao_counts_a_quad_as_two_pairs_only_with_the_option(allow_quad):
    """七对 with four of a kind (option ``seven_pairs_allow_quad``, §anqing-class-one,
    §anqing-options): 1m x 4, 2p 2p, 3s 3s, 5s 5s, 7p 7p and 9m wait on 9m as seven pairs only when
    a quad counts as two pairs, in the readiness test of 直叫 as in win scoring."""
    hand = "1m 1m 1m 1m 2p 2p 3s 3s 5s 5s 7p 7p 9m GD"
    assert _zuan_kong_listed(hand, seven_pairs_allow_quad=allow_quad) == allow_quad


@st.composite
def zhi_jiao_positions(draw):
    """A seat's 13 tiles after a 钻 kong (``hand`` counts, the 钻 kind's count its 钻 left), its
    melds as physical ``held`` counts, the 钻 kind and the options: mostly one tile short of a
    standard hand or of seven pairs, some 钻 among them, else random tiles."""
    zuan = int(scoring.zuan_of(draw(st.integers(0, 33))))
    suited = [kind for kind in range(27) if kind != zuan]
    held = Counter()
    for _ in range(draw(st.integers(0, 3))):
        first = draw(st.sampled_from(suited))
        chi = first % 9 < 7 and zuan not in (first, first + 1, first + 2) and draw(st.booleans())
        held.update([first, first + 1, first + 2] if chi else [first] * 3)
    size = 13 - sum(held.values()) // 3 * 3
    shape = draw(st.sampled_from(["standard", "pairs", "random"]))
    if shape == "standard":
        tiles = [draw(st.integers(0, 33))] * 2
        while len(tiles) < size + 1:
            first = draw(st.integers(0, 33))
            run = first < 27 and first % 9 < 7 and draw(st.booleans())
            tiles += [first, first + 1, first + 2] if run else [first] * 3
    elif shape == "pairs" and size == 13:
        tiles = [kind for _ in range(7) for kind in [draw(st.integers(0, 33))] * 2]
    else:
        tiles = draw(st.lists(st.integers(0, 33), min_size=size + 1, max_size=size + 1))
    tiles.pop(draw(st.integers(0, len(tiles) - 1)))
    for _ in range(draw(st.integers(0, 2))):
        tiles[draw(st.integers(0, len(tiles) - 1))] = zuan
    hand = np.zeros(34, np.int64)
    for kind in tiles:
        hand[kind] += 1
    total = held + Counter(tiles)
    assume(max(total.values()) <= 4)
    options = AnqingOptions(
        seven_pairs_allow_quad=draw(st.booleans()),
        shisanlan_honours_literal=draw(st.booleans()),
    )
    return hand, np.array([total[kind] for kind in range(34)], np.int64), zuan, options


@settings(max_examples=400, deadline=None)
@given(zhi_jiao_positions())
def test_the_checks_readiness_agrees_with_the_hooks(position):
    """直叫's "ready" (§anqing-reading-scorer-details) derived two ways agrees: the hooks' test on
    the key tables (``hooks.is_ready``) and the rule checks' own, by the scorer's decompositions
    (``checks._ready_in_shape``), on positions near a win, with melds and 钻."""
    hand, held, zuan, options = position
    params = options.params()
    naturals = hand.copy()
    naturals[zuan] = 0
    keys = np.zeros(4, np.int64)
    keys_from_counts(naturals, keys)
    hooks_say = H.is_ready(hand, zuan, keys, hand[zuan], held, params, TABLES)
    checks_say = C._ready_in_shape(hand.copy(), zuan, held, params)
    assert bool(hooks_say) == bool(checks_say)
