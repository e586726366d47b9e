"""Anhua options shown through the engine to change *played outcomes* as the spec says.

Rules: docs/rules/anhua.md (English reading: §anhua-rules, options §anhua-options).
Two kinds of test:

* **played bulk**: the same walls played under two settings of an option; the records (or the
  event logs and final states) are compared hand by hand and checked against the rule the option
  states. Every assertion is exact per hand: no statistical thresholds;
* **played exact state**: a wall built tile by tile (the deal, the dealer's discard, the next
  draws and the bird tiles are fixed) is played through ``engine.play_hand``, or, where the
  efficiency agent cannot be led there, the engine's claim and kong steps run on a built state;
  patterns and every seat's payment are asserted under both settings.

In every built wall the indicator is 9s: the kings are 9s (X, three copies) and 1s (Y, four).
Seat 3 deals: the dealer's discard is offered first to seat 0 (its 下家), who draws next.
"""

from __future__ import annotations

import engine_steps as steps
import numpy as np
import pytest
from reference import anhua as R

from sim.core.tables import load_tables
from sim.core.tiles import kind_id, parse_tiles
from sim.core.wall import shuffled_walls
from sim.kernels import engine as E
from sim.kernels import moves as M
from sim.kernels import state as S
from sim.kernels.agents import AGENT_EFFICIENCY, AGENT_RANDOM, seed_agents
from sim.variants import anhua
from sim.variants.anhua import AnhuaOptions, bigs, kings_of
from sim.variants.anhua import engine as AE
from sim.variants.anhua import hooks as H
from sim.variants.anhua import scoring as K
from sim.variants.anhua.record_slots import RH_BIRD, RH_N_BIRDS

pytestmark = pytest.mark.engine  # Anhua's engine under its options

X, Y = kind_id("9s"), kind_id("1s")
TIER_BITS = (
    K.FEATURE_THREE_KINGS | K.FEATURE_FOUR_KINGS | K.FEATURE_SIX_KINGS | K.FEATURE_SEVEN_KINGS
)
HOW = {
    "self_draw": K.HOW_SELF_DRAW,
    "discard": K.HOW_DISCARD,
    "rob_kong": K.HOW_ROB_KONG,
    "kong_bloom": K.HOW_KONG_BLOOM,
    "kong_cannon": K.HOW_KONG_CANNON,
    "instant": K.HOW_INSTANT,
}
CLAIMED = (K.HOW_DISCARD, K.HOW_ROB_KONG, K.HOW_KONG_CANNON)  # won on another player's tile
# record slots that settlement (birds, deltas) does not touch: the play itself
PLAY_SLOTS = [
    E.R_DEALER,
    E.R_OUTCOME,
    E.R_WIN_KIND,
    E.R_N_WINNERS,
    *range(E.R_WINNER, E.R_WINNER + 4),
    *range(E.R_FEATURES, E.R_FEATURES + 4),
    *range(E.R_POINTS, E.R_POINTS + 4),
    E.R_PAYER,
    E.R_TURNS,
    E.R_INDICATOR,
    E.R_NEXT_DEALER,
    E.R_DEAL_INSTANT,
    E.R_WINNING_TILE,
]


# ---------------------------------------------------------------------------------------------
# Bulk play


def _records(options, seed, n_hands, hands_per_session=8, agents=(AGENT_EFFICIENCY,) * 4):
    """Raw engine records of ``n_hands`` hands on the walls of ``seed`` (as sim.play does),
    sessions of ``hands_per_session`` hands starting with seat 0 dealing."""
    walls = shuffled_walls(n_hands, 108, seed)
    records = np.zeros((n_hands, E.N_RECORD), np.int64)
    seed_agents(seed)
    AE.play_hands(
        S.new_state(agents=agents),
        walls,
        options.player_count,
        np.zeros(-(-n_hands // hands_per_session), np.int64),
        hands_per_session,
        options.params(),
        load_tables(),
        records,
    )
    return records


def _hands(options, seed, n_hands, agents=(AGENT_EFFICIENCY,) * 4, log=False):
    """Play the walls of ``seed`` one hand at a time, seat 0 dealing every hand (so a hand never
    depends on the one before), yielding (record, state) after each hand. The state is reused:
    read it before the next hand."""
    tables = load_tables()
    params = options.params()
    state = S.new_state(1024 if log else 0, agents=agents)
    seed_agents(seed)
    for wall in shuffled_walls(n_hands, 108, seed):
        record = np.zeros(E.N_RECORD, np.int64)
        AE.play_hand(state, wall, options.player_count, 0, 0, params, tables, record)
        yield record, state


def _winners(record):
    """(seat, features, base points) of each winner of a hand."""
    if record[E.R_OUTCOME] != E.OUTCOME_WIN:
        return []
    return [
        (int(record[E.R_WINNER + w]), int(record[E.R_FEATURES + w]), int(record[E.R_POINTS + w]))
        for w in range(record[E.R_N_WINNERS])
    ]


def _events(state):
    return [tuple(int(v) for v in row) for row in state.log[: state.scalars[S.LOG_COUNT]]]


def _payments(record, n_players, bonus=False, before_birds=False):
    """Every payment (payer, receiver, amount, bird hits) of a recorded win, computed here from
    §anhua-payments (not by sim): P x 2^h, h = birds on the winner plus birds on the payer (the
    discarder or konger for a claimed win, each payer for a self-draw); a bird of rank r lands
    r - 1 seats on from the winner; 庄闲分 +1 on a payment involving the dealer, after or before
    the doublings."""
    if record[E.R_OUTCOME] != E.OUTCOME_WIN:
        return []
    dealer = int(record[E.R_DEALER])
    payer = int(record[E.R_PAYER])
    birds = [int(b) for b in record[RH_BIRD : RH_BIRD + record[RH_N_BIRDS]]]
    payments = []
    for winner, _, points in _winners(record):
        landed = [(winner + tile % 9) % n_players for tile in birds]
        payers = [payer] if payer >= 0 else [s for s in range(n_players) if s != winner]
        for seat in payers:
            hits = landed.count(winner) + landed.count(seat)
            with_dealer = bonus and dealer in (seat, winner)
            amount = (points + int(with_dealer and before_birds)) * 2**hits
            amount += int(with_dealer and not before_birds)
            payments.append((seat, winner, amount, hits))
    return payments


def _deltas(payments, n_players):
    delta = np.zeros(n_players, np.int64)
    for payer, receiver, amount, _ in payments:
        delta[payer] -= amount
        delta[receiver] += amount
    return delta


def _tiles_left_at_events(events, n_players=4):
    """Tiles left in the wall before each event of a log (the deal and the indicator taken)."""
    left = 108 - 13 * n_players - 1 - 1
    before = []
    for event, *_ in events:
        before.append(left)
        if event in (S.EVENT_DRAW, H.EVENT_REVEAL, H.EVENT_BIRD):
            left -= 1
    return before, left


# ---------------------------------------------------------------------------------------------
# Built walls


def _scatter(pool, avoid):
    """13 tiles for a bystander seat: single tiles, none of ``avoid``, no two of a suit within
    two ranks (far from ready, nothing to pong or chi), taken from ``pool`` (counts, updated)."""
    hand = []
    for start in (0, 1, 2):
        for kind in range(27):
            if len(hand) == 13:
                return hand
            if kind % 3 != start or kind in avoid or kind in (X, Y) or pool[kind] == 0:
                continue
            if any(k // 9 == kind // 9 and abs(k - kind) <= 2 for k in hand):
                continue
            hand.append(kind)
            pool[kind] -= 1
    # a second pass allows near neighbours when single far tiles run out
    for kind in range(27):
        if len(hand) == 13:
            break
        if kind not in avoid and kind not in (X, Y) and pool[kind] > 0 and kind not in hand:
            hand.append(kind)
            pool[kind] -= 1
    assert len(hand) == 13
    return hand


DEALER_13 = "111m 222p 333s 78m 55p"  # ready (6m 9m); a 14th tile far from it is its discard


def _built_wall(seat0: str, discard: str, then: str) -> np.ndarray:
    """A wall dealing ``seat0`` (13 tiles) to seat 0 and ``DEALER_13`` + ``discard`` to the
    dealer, seat 3; seats 1 and 2 get scattered tiles; the indicator is 9s; then ``then`` (seat
    0's first draw and/or the bird tiles) and the rest in a fixed order."""
    hand0 = parse_tiles(seat0)
    dealer = parse_tiles(DEALER_13)
    extra = parse_tiles(discard)
    head = parse_tiles(then)
    assert len(hand0) == 13 and len(dealer) == 13 and len(extra) == 1
    pool = np.full(27, 4, np.int64)
    for kind in [*hand0, *dealer, *extra, X, *head]:
        pool[kind] -= 1
    assert pool.min() >= 0, "more than four copies of a kind"
    avoid = set(extra) | set(head)
    seat1 = _scatter(pool, avoid)
    seat2 = _scatter(pool, avoid)
    rest = [kind for kind in range(27) for _ in range(pool[kind])]
    np.random.default_rng(0).shuffle(rest)
    wall = [*hand0, *seat1, *seat2, *dealer, *extra, X, *head, *rest]
    assert len(wall) == 108
    return np.array(wall, np.int8)


def _play_built(wall, **options):
    """Play the built wall, seat 3 dealing, with the event log on."""
    state = S.new_state(1024)
    record = np.zeros(E.N_RECORD, np.int64)
    params = AnhuaOptions(**options).params()
    AE.play_hand(state, wall, 4, 3, 0, params, load_tables(), record)
    return record, _events(state)


def _moves(events, n=None):
    """The draws, discards, claims, kongs and wins of a log as (event, seat, tile)."""
    kept = (S.EVENT_DRAW, S.EVENT_DISCARD, S.EVENT_WIN, S.EVENT_PONG, S.EVENT_CHI, S.EVENT_KONG)
    moves = [(e, s, t) for e, s, t, _ in events if e in kept]
    return moves if n is None else moves[:n]


def _delta(record):
    return record[E.R_DELTA : E.R_DELTA + 4].tolist()


def _state_with(hands: dict[int, str], wall_head: str, n_wall: int = 40):
    """A built mid-hand state (kings 9s and 1s, dealer seat 2) with ``n_wall`` tiles in the
    wall, ``wall_head`` first."""
    head = parse_tiles(wall_head)
    filler = [k for k in range(27) if k not in (X, Y) for _ in range(2)]
    wall = np.array((head + filler)[:n_wall], np.int8)
    state = S.new_state(1024)
    S.reset(state, wall, 4, 2)
    H.set_kings(state, X, Y)
    for seat, text in hands.items():
        for kind in parse_tiles(text):
            S.give_tile(state, seat, kind)
    return state


# ---------------------------------------------------------------------------------------------
# 抓鸟 bird_count


@pytest.mark.parametrize("player_count", [4, 3])
def test_bird_count_changes_only_the_settlement(player_count):
    """抓鸟 (docs/rules/anhua.md, 9.抓鸟: 开房前可选抓一只鸟、两只鸟、四只鸟; 点炮时鸟如果扎在
    胡牌方或点炮方,即为中鸟,点炮人出双倍分数; 自摸时鸟如果扎在胡牌方,即所有玩家给双倍分数 ...;
    如果胡海底牌,则不抓鸟): the same walls with 1, 2 and 4 birds are the same games, move for move
    (same winners, patterns, base points, payer, next dealer); only the bird tiles, which are the
    next tiles of the wall (the first 1 or 2 of the 4), and the payments differ. Every payment is P
    x 2^h by §anhua-payments (three players: 1/4/7 winner, 2/5/8 next, 3/6/9 previous), so more
    birds never lower a payment, and some grow."""
    n_hands = 2500
    runs = {
        count: _records(AnhuaOptions(player_count=player_count, bird_count=count), 61, n_hands)
        for count in (1, 2, 4)
    }
    for count in (1, 2):
        np.testing.assert_array_equal(runs[count][:, PLAY_SLOTS], runs[4][:, PLAY_SLOTS])
    four = runs[4]
    left_before_birds = four[:, E.R_TILES_LEFT] + four[:, RH_N_BIRDS]
    haidi = (four[:, E.R_WIN_KIND] == K.HOW_SELF_DRAW) & (left_before_birds == 0)
    wins = four[:, E.R_OUTCOME] == E.OUTCOME_WIN
    abs_delta = {}
    for count, records in runs.items():
        expected_n = np.where(haidi | ~wins, 0, np.minimum(count, left_before_birds))
        np.testing.assert_array_equal(records[:, RH_N_BIRDS], expected_n)
        for row, reference in zip(records, four, strict=True):
            n = row[RH_N_BIRDS]
            assert (row[RH_BIRD : RH_BIRD + n] == reference[RH_BIRD : RH_BIRD + n]).all()
            expected = _deltas(_payments(row, player_count), player_count)
            assert row[E.R_DELTA : E.R_DELTA + player_count].tolist() == expected.tolist()
        np.testing.assert_array_equal(
            records[:, E.R_TILES_LEFT], left_before_birds - records[:, RH_N_BIRDS]
        )
        abs_delta[count] = np.abs(records[:, E.R_DELTA : E.R_DELTA + player_count])
    assert (abs_delta[1] <= abs_delta[2]).all() and (abs_delta[2] <= abs_delta[4]).all()
    assert (abs_delta[1] < abs_delta[2]).any() and (abs_delta[2] < abs_delta[4]).any()


# ---------------------------------------------------------------------------------------------
# 庄闲分 dealer_bonus, dealer_bonus_timing


@pytest.mark.parametrize("timing", ["after_birds", "before_birds"])
def test_dealer_bonus_adds_to_each_payment_with_the_dealer(timing):
    """庄闲分 (docs/rules/anhua.md, 2:基本玩法: 庄闲分:涉及到庄家的算输赢都+1分): the same walls
    with and without the bonus are the same games; each payment where the dealer pays or receives
    grows by exactly 1 (after_birds, the default: P x 2^h + 1) or by 2^h (before_birds: (P + 1) x
    2^h); payments between two non-dealers do not change (§anhua-payments,
    §anhua-reading-dealer-bonus)."""
    n_hands = 2500
    off = _records(AnhuaOptions(), 62, n_hands)
    on = _records(AnhuaOptions(dealer_bonus=True, dealer_bonus_timing=timing), 62, n_hands)
    np.testing.assert_array_equal(off[:, PLAY_SLOTS], on[:, PLAY_SLOTS])
    np.testing.assert_array_equal(off[:, RH_BIRD : RH_BIRD + 4], on[:, RH_BIRD : RH_BIRD + 4])
    before = timing == "before_birds"
    kinds_seen = {"with_dealer": 0, "without_dealer": 0}
    for row_off, row_on in zip(off, on, strict=True):
        plain = _payments(row_off, 4)
        with_bonus = _payments(row_on, 4, bonus=True, before_birds=before)
        dealer = int(row_on[E.R_DEALER])
        expected_change = np.zeros(4, np.int64)
        for (payer, receiver, amount, hits), (*_, amount_on, _) in zip(
            plain, with_bonus, strict=True
        ):
            if dealer in (payer, receiver):
                assert amount_on - amount == (2**hits if before else 1)
                kinds_seen["with_dealer"] += 1
            else:
                assert amount_on == amount
                kinds_seen["without_dealer"] += 1
            expected_change[receiver] += amount_on - amount
            expected_change[payer] -= amount_on - amount
        assert (row_off[E.R_DELTA : E.R_DELTA + 4] == _deltas(plain, 4)).all()
        assert (row_on[E.R_DELTA : E.R_DELTA + 4] == _deltas(with_bonus, 4)).all()
        change = row_on[E.R_DELTA : E.R_DELTA + 4] - row_off[E.R_DELTA : E.R_DELTA + 4]
        assert change.tolist() == expected_change.tolist()
    # both kinds of payment occur (a discard win between two non-dealers has no bonus)
    assert all(count > 0 for count in kinds_seen.values()), kinds_seen


@pytest.mark.parametrize(
    ("options", "delta"),
    [
        ({}, [16, 0, 0, -16]),
        ({"dealer_bonus": True}, [17, 0, 0, -17]),
        ({"dealer_bonus": True, "dealer_bonus_timing": "before_birds"}, [20, 0, 0, -20]),
    ],
)
def test_dealer_bonus_on_a_played_discard_win(options, delta):
    """庄闲分 (docs/rules/anhua.md: 庄闲分:涉及到庄家的算输赢都+1分) on a built wall: the
    dealer (seat 3) discards 5s, seat 0 wins 硬庄 (P = 4) on it, both birds (5s, 1m: rank 5 and
    1) land on the winner: 4 x 2^2 = 16; the dealer pays 17 with the bonus after the birds, 20
    with it before ((4 + 1) x 4)."""
    wall = _built_wall("234s 456m 789p 345m 5s", discard="5s", then="5s 1m")
    record, events = _play_built(wall, **options)
    assert _moves(events, 2) == [
        (S.EVENT_DISCARD, 3, kind_id("5s")),
        (S.EVENT_WIN, 0, kind_id("5s")),
    ]
    assert record[E.R_FEATURES] == K.FEATURE_HARD and record[E.R_POINTS] == 4
    assert _delta(record) == delta


# ---------------------------------------------------------------------------------------------
# 王代硬 king_as_itself_is_hard, king_as_itself_affects_eligibility


def test_king_as_itself_is_hard_in_play():
    """王代硬 (docs/rules/anhua.md, 2:基本玩法: 王代硬:例一万为王,顺子一二三万中一万王仍然 算硬张;
    with 注意事项 1》-3》: 手中有单王 ... 不能接炮, 手中无王可接炮). Same walls, seat 0 dealing
    every hand. Off: a winner holding a king is never 硬庄 and never wins on a discard. On: some
    winners holding kings use them as their own face and score 硬庄, and some of them win on a
    discard, always as 硬庄 (§anhua-who-may-win, §anhua-king-as-itself). The option only adds wins,
    so a hand never lasts longer with it on; where both settings end the same way the winners' bigs
    never drop."""
    n_hands = 4000
    seen = {"hard_with_kings": 0, "discard_with_kings": 0, "more_bigs": 0}
    off_rows = []
    for record, state in _hands(AnhuaOptions(), 71, n_hands):
        off_rows.append(record)
        x_kind, y_kind = kings_of(int(record[E.R_INDICATOR]))
        for seat, features, _ in _winners(record):
            kings = state.hands[seat, x_kind] + state.hands[seat, y_kind]
            if kings:
                assert not features & K.FEATURE_HARD
                assert record[E.R_WIN_KIND] != K.HOW_DISCARD
    on = AnhuaOptions(king_as_itself_is_hard=True)
    for (record, state), off in zip(_hands(on, 71, n_hands), off_rows, strict=True):
        x_kind, y_kind = kings_of(int(record[E.R_INDICATOR]))
        for seat, features, _ in _winners(record):
            kings = state.hands[seat, x_kind] + state.hands[seat, y_kind]
            if record[E.R_WIN_KIND] == K.HOW_DISCARD:
                assert features & K.FEATURE_HARD
                seen["discard_with_kings"] += bool(kings)
            if kings and features & K.FEATURE_HARD:
                seen["hard_with_kings"] += 1
        assert record[E.R_TURNS] <= off[E.R_TURNS]
        same_end = (
            record[E.R_TURNS] == off[E.R_TURNS]
            and record[E.R_WIN_KIND] == off[E.R_WIN_KIND]
            and record[E.R_WINNING_TILE] == off[E.R_WINNING_TILE]
        )
        if same_end:
            for seat, features, _ in _winners(record):
                for seat_off, features_off, _ in _winners(off):
                    if seat_off == seat:
                        assert bigs(features) >= bigs(features_off)
                        seen["more_bigs"] += bigs(features) > bigs(features_off)
    assert all(count > 0 for count in seen.values()), seen


def test_king_as_itself_for_the_score_only_in_play():
    """王代硬 (docs/rules/anhua.md: 王代硬:例一万为王,顺子一二三万中一万王仍然算硬张;
    手中有单王 ... 不能接炮) with king_as_itself_affects_eligibility off (§anhua-king-as-itself):
    kings used as their own face still make some winners 硬庄, but a winner who physically holds a
    king never wins on a discard (he may still rob a kong or win a kong cannon as 单王)."""
    options = AnhuaOptions(king_as_itself_is_hard=True, king_as_itself_affects_eligibility=False)
    hard_with_kings = 0
    for record, state in _hands(options, 71, 4000):
        x_kind, y_kind = kings_of(int(record[E.R_INDICATOR]))
        for seat, features, _ in _winners(record):
            kings = state.hands[seat, x_kind] + state.hands[seat, y_kind]
            if kings:
                assert record[E.R_WIN_KIND] != K.HOW_DISCARD
                hard_with_kings += bool(features & K.FEATURE_HARD)
    assert hard_with_kings > 0


@pytest.mark.parametrize(
    ("options", "moves", "features", "delta"),
    [
        # off: the 1s king is a king: 单王 may not win on the discard; seat 0 draws the next
        # 5s: 单王平胡 自摸, P = 2; birds 1m (winner) and 4m (seat 3)
        ({}, "self_draw", 0, [16, -4, -4, -8]),
        # on: 1s as itself in 1s-2s-3s is hard: 硬庄 on the dealer's discard, P = 4; birds 5s and
        # 1m both on the winner
        ({"king_as_itself_is_hard": True}, "discard", K.FEATURE_HARD, [16, 0, 0, -16]),
        # on for the score only: the physical king still bars the discard; 硬庄 自摸, P = 4
        (
            {"king_as_itself_is_hard": True, "king_as_itself_affects_eligibility": False},
            "self_draw",
            K.FEATURE_HARD,
            [32, -8, -8, -16],
        ),
    ],
)
def test_king_as_itself_on_a_played_hand(options, moves, features, delta):
    """王代硬 (docs/rules/anhua.md: 王代硬:例一万为王,顺子一二三万中一万王仍然算硬张; 手中有单王 ...
    不能接炮; 手中无王可接炮) on a built wall, worked example §anhua-example-4: seat 0 holds 1s* 2s
    3s 456m 789p 345m 5s and waits on 5s; the dealer discards 5s, the next tile is 5s."""
    wall = _built_wall("123s 456m 789p 345m 5s", discard="5s", then="5s 1m 4m")
    record, events = _play_built(wall, **options)
    five_s = kind_id("5s")
    if moves == "discard":
        expected = [(S.EVENT_DISCARD, 3, five_s), (S.EVENT_WIN, 0, five_s)]
    else:
        expected = [
            (S.EVENT_DISCARD, 3, five_s),
            (S.EVENT_DRAW, 0, five_s),
            (S.EVENT_WIN, 0, five_s),
        ]
    assert _moves(events) == expected
    assert record[E.R_WIN_KIND] == HOW[moves] and record[E.R_WINNER] == 0
    assert record[E.R_FEATURES] == features
    assert _delta(record) == delta


# ---------------------------------------------------------------------------------------------
# 单王/三王/四王/六王/七王 king_tier_mode


def _expected_tier(x, y, mode):
    """The king-tier feature of §anhua-king-tiers for x X-kings and y Y-kings (0 for none)."""
    if mode == "count":
        return {3: K.FEATURE_THREE_KINGS, 4: K.FEATURE_FOUR_KINGS, 5: K.FEATURE_FOUR_KINGS}.get(
            x + y, K.FEATURE_SIX_KINGS if x + y == 6 else K.FEATURE_SEVEN_KINGS if x + y == 7 else 0
        )
    if x == 3 and y == 4:
        return K.FEATURE_SEVEN_KINGS
    if x == 3 and y == 3:
        return K.FEATURE_SIX_KINGS
    if y == 4:
        return K.FEATURE_FOUR_KINGS
    if x == 3 or y == 3:
        return K.FEATURE_THREE_KINGS
    return 0


def test_king_tier_mode_in_play():
    """单王/三王/四王/六王/七王 (docs/rules/anhua.md, 大胡 三王, 双大胡 四王平胡/六王平胡; 注意 事项
    1》2》: 单王可抢杠胡、接杠上炮; 三王,四王、六王、七王都不能接炮,不能杠上炮,不能抢杠胡;
    起手四王/七王), option king_tier_mode (§anhua-king-tiers, §anhua-reading-king-tiers). Same
    walls, seat 0 dealing. Under each mode every winner's king tier is the §anhua-king-tiers row of
    the kings he holds, kings never win on a discard, and robbers and kong-cannon winners hold no
    tier. Where both modes end a hand the same way, only the tier differs, and ``count`` never ranks
    lower (three loose kings become 三王). The instant win: all four Y (or all seven) under
    identical_sets, any four kings under count."""
    n_hands = 4000
    runs = {}
    shifted = 0
    for mode in ("identical_sets", "count"):
        rows = []
        for record, state in _hands(AnhuaOptions(king_tier_mode=mode), 72, n_hands):
            winners = []
            x_kind, y_kind = kings_of(int(record[E.R_INDICATOR]))
            for seat, features, _ in _winners(record):
                x_held, y_held = int(state.hands[seat, x_kind]), int(state.hands[seat, y_kind])
                how = int(record[E.R_WIN_KIND])
                if how == K.HOW_INSTANT:
                    assert features == K.FEATURE_INSTANT
                    if mode == "identical_sets":
                        assert y_held == 4
                    else:
                        assert x_held + y_held >= 4
                else:
                    assert features & TIER_BITS == _expected_tier(x_held, y_held, mode)
                if how == K.HOW_DISCARD:
                    assert x_held + y_held == 0
                if how in (K.HOW_ROB_KONG, K.HOW_KONG_CANNON):
                    assert _expected_tier(x_held, y_held, mode) == 0
                winners.append((seat, features, x_held, y_held))
            rows.append((record, winners))
        runs[mode] = rows
    instants = {mode: 0 for mode in runs}
    for (same, same_winners), (count, count_winners) in zip(
        runs["identical_sets"], runs["count"], strict=True
    ):
        for mode, record in (("identical_sets", same), ("count", count)):
            instants[mode] += record[E.R_WIN_KIND] == K.HOW_INSTANT
        slots = [E.R_TURNS, E.R_WIN_KIND, E.R_WINNING_TILE, *range(E.R_WINNER, E.R_WINNER + 4)]
        same_end = all(same[slot] == count[slot] for slot in slots)
        if not same_end or same[E.R_WIN_KIND] in (K.HOW_INSTANT, -1):
            continue
        for (seat, f_same, *_), (seat_count, f_count, *_) in zip(
            same_winners, count_winners, strict=True
        ):
            assert seat == seat_count
            assert f_same & ~TIER_BITS == f_count & ~TIER_BITS
            assert bigs(f_count) >= bigs(f_same)
            shifted += bigs(f_count) > bigs(f_same)
    assert shifted > 0
    assert instants["count"] > instants["identical_sets"]
    count_only = [
        (x, y)
        for record, winners in runs["count"]
        if record[E.R_WIN_KIND] == K.HOW_INSTANT
        for _, _, x, y in winners
        if y < 4
    ]
    assert count_only  # e.g. two X and two Y: 起手四王 only when counted


def test_king_tier_modes_agree_in_four_kings_mode():
    """四王 (docs/rules/anhua.md: 选四王:四张一条为王): with only the four Y kings the two
    readings of the tiers coincide (§anhua-king-tiers: 'In four_kings mode ... Both modes agree'):
    the same walls give the same games and the same payments."""
    base = {"king_mode": "four_kings"}
    same = _records(AnhuaOptions(**base), 73, 2500)
    count = _records(AnhuaOptions(king_tier_mode="count", **base), 73, 2500)
    np.testing.assert_array_equal(same, count)


@pytest.mark.parametrize(
    ("mode", "features", "delta"),
    [
        ("identical_sets", 0, [10, -4, -4, -2]),  # 9s* 1s* 1s*: no identical group: 平胡, P = 2
        ("count", K.FEATURE_THREE_KINGS, [20, -8, -8, -4]),  # three kings: 三王, P = 4
    ],
)
def test_king_tier_mode_on_a_played_self_draw(mode, features, delta):
    """单王 vs 三王 (docs/rules/anhua.md: 平胡:有单王代替 ... 小胡; 三王:手中有三王代替 ... 大胡) on
    a built wall, worked example §anhua-example-5: seat 0 holds 9s* 1s* 1s* 234m 567p 678s 5s and
    draws 5s after the dealer's 9p; birds 2m (seat 1) and 3p (seat 2) double those two payers."""
    wall = _built_wall("9s 1s 1s 234m 567p 678s 5s", discard="9p", then="5s 2m 3p")
    record, events = _play_built(wall, king_tier_mode=mode)
    assert _moves(events) == [
        (S.EVENT_DISCARD, 3, kind_id("9p")),
        (S.EVENT_DRAW, 0, kind_id("5s")),
        (S.EVENT_WIN, 0, kind_id("5s")),
    ]
    assert record[E.R_WIN_KIND] == K.HOW_SELF_DRAW and record[E.R_FEATURES] == features
    assert _delta(record) == delta


@pytest.mark.parametrize("mode", ["identical_sets", "count"])
def test_king_tier_mode_on_a_played_instant_win(mode):
    """起手四王/七王 (docs/rules/anhua.md: 发完牌后,玩家手牌有四王或七王 ... 即可胡牌 ...
    为小胡自摸): seat 0 is dealt two 9s and two 1s kings. Counted, that is 四王 and seat 0 wins at
    its first draw, 小胡 P = 2 (birds 2m, 3p: seats 1 and 2 pay double); as identical sets it is no
    四王 (not all four 1s) and seat 0 plays on (§anhua-instant-king-win,
    §anhua-reading-instant-win-dealt-hand)."""
    wall = _built_wall("9s 9s 1s 1s 258m 36p 47s 6m 2s", discard="9p", then="9m 2m 3p")
    _assert_first_turn_of_seat_0(wall, "9m", mode == "count", king_tier_mode=mode)


def _assert_first_turn_of_seat_0(wall, drawn, instant, **options):
    """The built wall played: the dealer discards 9p, seat 0 draws ``drawn`` and then either
    wins at once by 起手四王 (小胡 P = 2; the birds 2m and 3p make seats 1 and 2 pay double) or
    discards."""
    record, events = _play_built(wall, **options)
    moves = _moves(events, 3)
    assert moves[:2] == [(S.EVENT_DISCARD, 3, kind_id("9p")), (S.EVENT_DRAW, 0, kind_id(drawn))]
    if instant:
        assert moves[2] == (S.EVENT_WIN, 0, -1)
        assert record[E.R_WIN_KIND] == K.HOW_INSTANT and record[E.R_POINTS] == 2
        assert _delta(record) == [10, -4, -4, -2]
    else:
        assert moves[2][:2] == (S.EVENT_DISCARD, 0)
        assert record[E.R_WIN_KIND] != K.HOW_INSTANT


@pytest.mark.parametrize("counts_draw", [False, True])
def test_instant_king_win_counts_the_dealt_hand_only(counts_draw):
    """起手四王/七王 (docs/rules/anhua.md: 发完牌后,玩家手牌有四王或七王 ... 即可胡牌), option
    instant_king_win_counts_draw (§anhua-instant-king-win): seat 0 is dealt three 1s kings and
    draws the fourth at its first turn. 发完牌后 is the dealt hand: by default three Y kings are
    no 四王 and seat 0 plays on; counting the draw, all four Y are 四王 and seat 0 wins at once,
    小胡 P = 2 (birds 2m and 3p land on seats 1 and 2, who pay double). Before this option the
    engine always counted the draw."""
    wall = _built_wall("1s 1s 1s 258m 369p 47s 1m 7p", discard="9p", then="1s 2m 3p")
    _assert_first_turn_of_seat_0(wall, "1s", counts_draw, instant_king_win_counts_draw=counts_draw)


def test_a_dealt_four_kings_hand_that_is_complete_takes_the_better_win():
    """起手四王 (docs/rules/anhua.md: 发完牌后,玩家手牌有四王或七王 ... 即可胡牌 ... 小胡自摸)
    against 四王平胡 (四王平胡 ... 大胡): seat 0 is dealt all four 1s kings with 234m 567p 78s 9m
    and draws 9m. Both wins are legal (§anhua-instant-king-win: the instant win is a declaration the
    player may make); the complete hand is 四王平胡, P = 8, the instant win only 小胡, P = 2, so the
    player takes 四王平胡: the variant lists both wins and the agent chooses."""
    wall = _built_wall("1s 1s 1s 1s 234m 567p 78s 9m", discard="9p", then="9m 2m 3p")
    record, events = _play_built(wall)
    assert _moves(events, 3)[2] == (S.EVENT_WIN, 0, kind_id("9m"))
    assert record[E.R_WIN_KIND] == K.HOW_SELF_DRAW
    assert record[E.R_FEATURES] == K.FEATURE_FOUR_KINGS and record[E.R_POINTS] == 8
    birds = [kind_id("2m"), kind_id("3p")]
    assert _delta(record) == anhua.settle([(0, 8)], payer=None, birds=birds, dealer=3)
    # four dealt kings in a hand far from complete: the instant win, 小胡
    wall = _built_wall("1s 1s 1s 1s 258m 369p 47s 1m", discard="9p", then="7p 2m 3p")
    record, _ = _play_built(wall)
    assert record[E.R_WIN_KIND] == K.HOW_INSTANT and record[E.R_POINTS] == 2


# ---------------------------------------------------------------------------------------------
# 七对 seven_pairs_allow_quad


def _seven_pairs_with_quads(options, seed, n_hands):
    """Seven-pairs wins, and those of them holding three or four natural tiles of a kind."""
    pairs = quads = 0
    for record, state in _hands(options, seed, n_hands):
        x_kind, y_kind = kings_of(int(record[E.R_INDICATOR]))
        for seat, features, _ in _winners(record):
            if not features & K.FEATURE_SEVEN_PAIRS:
                continue
            naturals = state.hands[seat].astype(np.int64)
            naturals[[x_kind, y_kind]] = 0
            pairs += 1
            quads += naturals.max() >= 3  # 3 naturals + a king, or 4: two pairs of one kind
    return pairs, quads


def test_seven_pairs_quad_in_play():
    """七对 (docs/rules/anhua.md, 胡牌规则 C: 11、11、11、11、11、11、11; 小七对 可乱将), option
    seven_pairs_allow_quad (§anhua-hand-forms F2, §anhua-reading-seven-pairs): with it off no
    seven-pairs win ever holds four tiles of a kind (four naturals, or three and a king), with it on
    some do."""
    on_pairs, on_quads = _seven_pairs_with_quads(AnhuaOptions(), 74, 4000)
    assert on_pairs > 100
    off_pairs, off_quads = _seven_pairs_with_quads(
        AnhuaOptions(seven_pairs_allow_quad=False), 74, 4000
    )
    assert off_quads == 0 and off_pairs > 100
    assert on_quads > 0


@pytest.mark.parametrize("allow_quad", [True, False])
def test_seven_pairs_quad_on_a_played_discard(allow_quad):
    """七对 (docs/rules/anhua.md: 硬庄小七对:手中无王,没有吃脾、碰牌,全部牌成七对牌,可乱将,
    胡牌为双大胡) on a built wall, worked example §anhua-example-3: seat 0 holds 3333m 55p 77p 22s
    66s 9p. With quads allowed it wins the dealer's 9p as 硬庄小七对, P = 8, one bird (9p) on the
    winner: 16. Without, four 3m are not two pairs: no win on the discard nor on the 9p drawn
    next."""
    wall = _built_wall("3333m 55p 77p 22s 66s 9p", discard="9p", then="9p 2m")
    record, events = _play_built(wall, seven_pairs_allow_quad=allow_quad)
    nine_p = kind_id("9p")
    moves = _moves(events, 3)
    if allow_quad:
        assert moves[:2] == [(S.EVENT_DISCARD, 3, nine_p), (S.EVENT_WIN, 0, nine_p)]
        assert record[E.R_FEATURES] == K.FEATURE_HARD | K.FEATURE_SEVEN_PAIRS
        assert record[E.R_POINTS] == 8 and _delta(record) == [16, 0, 0, -16]
    else:
        assert moves[:2] == [(S.EVENT_DISCARD, 3, nine_p), (S.EVENT_DRAW, 0, nine_p)]
        assert moves[2][:2] == (S.EVENT_DISCARD, 0)


# ---------------------------------------------------------------------------------------------
# 开杠 kong_multi_tile_win


def _winning_revealed_tiles(record, state, events, options):
    """For a kong bloom: how many of the tiles the last kong revealed complete the konger's hand
    (the reference scorer), and the best bigs among them."""
    konger = int(record[E.R_WINNER])
    last_kong = max(i for i, (e, s, *_) in enumerate(events) if e == S.EVENT_KONG and s == konger)
    revealed = [t for e, _, t, _ in events[last_kong + 1 :] if e == H.EVENT_REVEAL]
    hand = state.hands[konger].astype(np.int64)
    hand[record[E.R_WINNING_TILE]] -= 1
    x_kind, y_kind = kings_of(int(record[E.R_INDICATOR]))
    names = {S.MELD_CHI: "chi", S.MELD_PONG: "pong"}
    melds = tuple(
        (names.get(int(state.melds[konger, m, 0]), "kong"), int(state.melds[konger, m, 1]))
        for m in range(state.n_melds[konger])
    )
    n_winning, best = 0, -1
    for tile in revealed:
        with_tile = hand.copy()
        with_tile[tile] += 1
        kings = np.zeros(34, np.int64)
        for kind in (x_kind, y_kind):
            kings[kind], with_tile[kind] = with_tile[kind], 0
        scored = R.score(
            R.AnhuaHand(tuple(with_tile), tuple(kings), melds, "kong_bloom", tile),
            options.__dict__,
        )
        if scored is not None:
            n_winning += 1
            best = max(best, scored.bigs)
    return n_winning, best


def test_kong_multi_tile_win_double_in_play():
    """开杠 (docs/rules/anhua.md, 注意事项 4》: 开杠出的三张牌同时可胡多张时,只计胡最大分数 那一张;
    against 杠上炮 second paragraph: 如2张都可以胡,则胡牌倍率翻番), option kong_multi_tile_win
    (§anhua-open-kong step 3, §anhua-reading-kong-cannon-defined-twice). Same walls: the games are
    the same; a kong bloom scores the best revealed tile, and under ``double`` its base points and
    every payment double exactly when two or more revealed tiles would win; nothing else changes."""
    n_hands = 4000
    best_only = AnhuaOptions()
    double = AnhuaOptions(kong_multi_tile_win="double")
    factors = []
    for (record, state), (record_double, _) in zip(
        _hands(best_only, 75, n_hands, log=True),
        _hands(double, 75, n_hands, log=True),
        strict=True,
    ):
        factor = 1
        if record[E.R_WIN_KIND] == K.HOW_KONG_BLOOM:
            n_winning, best = _winning_revealed_tiles(record, state, _events(state), best_only)
            assert n_winning >= 1 and bigs(int(record[E.R_FEATURES])) == best
            factor = 2 if n_winning >= 2 else 1
            factors.append(factor)
        same = [slot for slot in PLAY_SLOTS if slot not in range(E.R_POINTS, E.R_POINTS + 4)]
        assert (record[same] == record_double[same]).all()
        assert record_double[E.R_POINTS] == factor * record[E.R_POINTS]
        assert (
            record_double[E.R_DELTA : E.R_DELTA + 4] == factor * record[E.R_DELTA : E.R_DELTA + 4]
        ).all()
    assert factors.count(2) > 0 and factors.count(1) > 0


# ---------------------------------------------------------------------------------------------
# 开杠 kong_min_wall, kong_reveal_count


def _kongs(options, seed, n_hands):
    """(tiles left when the kong is declared, tiles it revealed) for every kong played."""
    kongs = []
    for record, state in _hands(options, seed, n_hands, log=True):
        events = _events(state)
        before, after = _tiles_left_at_events(events)
        assert after == record[E.R_TILES_LEFT]  # the log accounts for every tile taken
        for index, (event, *_) in enumerate(events):
            if event != S.EVENT_KONG:
                continue
            reveals = 0
            for later in events[index + 1 :]:
                if later[0] != H.EVENT_REVEAL:
                    break
                reveals += 1
            kongs.append((before[index], reveals))
    return kongs


def test_kong_min_wall_in_play():
    """开杠 (docs/rules/anhua.md, 2》开杠 注: (1)余牌数 大于等于4才允许杠开), option
    kong_min_wall (§anhua-kongs K2): on the same walls no kong is ever declared with fewer
    tiles in the wall than the minimum. With kings in play hands end early, so the default 4
    never binds in bulk; a minimum of 40 forbids the kongs the default allows with 20-39 tiles
    left."""
    default = _kongs(AnhuaOptions(), 76, 3000)
    strict = _kongs(AnhuaOptions(kong_min_wall=40), 76, 3000)
    assert min(left for left, _ in default) >= 4
    assert min(left for left, _ in strict) >= 40
    assert any(left < 40 for left, _ in default)
    assert len(strict) < len(default)


@pytest.mark.parametrize(("reveal_count", "min_wall"), [(3, 4), (2, 3)])
def test_kong_reveal_count_in_play(reveal_count, min_wall):
    """开杠 (docs/rules/anhua.md, 3:基本规则: 杠指杠开:播放殺子动画翻三张牌; 2》开杠:
    从牌堆补三张牌展示在桌面上; §anhua-reading-three-revealed-tiles for two): every kong played
    reveals exactly kong_reveal_count tiles from the wall."""
    options = AnhuaOptions(kong_reveal_count=reveal_count, kong_min_wall=min_wall)
    kongs = _kongs(options, 77, 1500)
    assert len(kongs) > 20
    assert {reveals for _, reveals in kongs} == {reveal_count}


AH6 = {
    1: "2p 3p 5m 6m 7m 7p 8p 9p 5s 5s 4s",  # 10 concealed + the 4s for the 明杠; pong of 4s
    0: "2m 2m 3p 4p 5p 6p 7p 8p 4m 5m 6m 7s 8s",  # waits 6s / 9s (no kings): 硬庄 on 6s
    2: "1m 4m 7m 2s 5s 8s 1p 4p 9p 3m 3s 6s 9m",
    3: "2m 5m 8m 3p 6p 9p 2s 7s 3m 6m 9m 8p 1p",
}


@pytest.mark.parametrize(
    ("left", "min_wall", "allowed"), [(4, 4, True), (3, 4, False), (4, 5, False)]
)
def test_kong_min_wall_at_the_boundary(left, min_wall, allowed):
    """开杠 (docs/rules/anhua.md: 余牌数 大于等于4才允许杠开) on a built state, worked example
    §anhua-example-6 (seat 1's 明杠 of 4s, ready after it): allowed exactly when at least
    kong_min_wall tiles remain; made with 4 left, it reveals three (7m 2p 6s), seat 0 wins 6s as
    硬庄杠上炮 and one tile is left, the only bird (§anhua-kongs K2, §anhua-payments,
    §anhua-reading-wall-ends)."""
    state = _state_with(AH6, "7m 2p 6s 6p", n_wall=left)
    S.add_meld(state, 1, S.MELD_PONG, kind_id("4s"), 3)
    params = AnhuaOptions(kong_min_wall=min_wall).params()
    tables = load_tables()
    four_s = kind_id("4s")
    assert H.kong_allowed(AE.ANHUA, state, 1, four_s, S.MELD_ADDED_KONG, params, tables) == allowed
    if not allowed:
        return
    result, record, _ = steps.open_kong(state, 1, four_s, S.MELD_ADDED_KONG, 1, params, tables)
    assert result == E.KONG_HAND_OVER
    assert record[E.R_WIN_KIND] == K.HOW_KONG_CANNON and record[E.R_WINNER] == 0
    assert record[E.R_FEATURES] == K.FEATURE_HARD | K.FEATURE_KONG_CANNON
    assert record[RH_N_BIRDS] == 1 and S.tiles_left(state) == 0  # the last tile is the bird
    assert _delta(record) == [16, -16, 0, 0]  # P = 8; the bird 6p lands on the konger


# ---------------------------------------------------------------------------------------------
# 王 discarded_king_claimable_for_win


def test_discarded_king_claimable_in_play():
    """王 (docs/rules/anhua.md, 王的确定: 王可以代替任何一张牌,但不能代替形成吃碰杠; 注意事项
    1》3》: 手中有单王 ... 不能接炮, 手中无王可接炮), option discarded_king_claimable_for_win
    (§anhua-discarded-kings, §anhua-reading-kings-and-claims). The efficiency agent never discards a
    king, so random agents sit in seats 1 and 3. Same walls and agent seed. Off: no win is ever made
    on another player's king. On: some discarded kings are won on, with or without 王代硬, each by a
    硬 hand: the claimed king is a natural tile of its face for the claimer (§anhua-discarded-kings,
    §anhua-reading-claimed-king-is-natural), so a winner holding no other king stays hard."""
    agents = (AGENT_EFFICIENCY, AGENT_RANDOM, AGENT_EFFICIENCY, AGENT_RANDOM)
    won_on_kings = {}
    for claimable, as_itself in ((False, True), (True, True), (True, False)):
        options = AnhuaOptions(
            discarded_king_claimable_for_win=claimable, king_as_itself_is_hard=as_itself
        )
        count = 0
        for record in _records(options, 78, 4000, hands_per_session=1, agents=agents):
            if record[E.R_OUTCOME] != E.OUTCOME_WIN or record[E.R_WIN_KIND] not in CLAIMED:
                continue
            if record[E.R_WINNING_TILE] in kings_of(int(record[E.R_INDICATOR])):
                count += 1
                assert record[E.R_WIN_KIND] == K.HOW_DISCARD
                assert all(features & K.FEATURE_HARD for _, features, _ in _winners(record))
        won_on_kings[claimable, as_itself] = count
    assert won_on_kings[False, True] == 0
    assert won_on_kings[True, True] > 0
    assert won_on_kings[True, False] > 0


BYSTANDERS = {
    1: "1m 4m 7m 2s 5s 8s 1p 4p 9p 3m 3s 6s 9m",
    2: "2m 5m 8m 3p 6p 9p 2s 7s 3m 6m 9m 8p 1p",
}


@pytest.mark.parametrize(
    ("options", "delta"),
    [
        ({"king_as_itself_is_hard": True}, None),  # kings are never won on
        # the claimed 1s is a natural 1s in 1s-2s-3s: 硬庄 on the discard, P = 4, no bird hits
        ({"discarded_king_claimable_for_win": True}, [4, 0, 0, -4]),
        (
            {"discarded_king_claimable_for_win": True, "king_as_itself_is_hard": True},
            [4, 0, 0, -4],
        ),
    ],
)
def test_discarded_king_claimable_on_a_built_state(options, delta):
    """王 (docs/rules/anhua.md: 王可以代替任何一张牌,但不能代替形成吃碰杠; 王代硬; 手中无王可
    接炮) on a built state: seat 0 holds 2s 3s 456m 789p 345m 55s (waits 1s / 4s) and seat 3
    discards a 1s king; the engine's discard claim and settlement run under each setting (the
    efficiency agent never discards a king, so no built wall can lead a played hand here). With
    the option on, the claimed king is a natural 1s for seat 0 (§anhua-discarded-kings), with or
    without 王代硬 (as a king it would make seat 0 单王 without 王代硬, and 单王 may not win on a
    discard)."""
    hands = {0: "2s 3s 456m 789p 345m 55s", 3: "1s", **BYSTANDERS}
    state = _state_with(hands, "2p 3m")
    S.take_tile(state, 3, Y)
    S.add_discard(state, 3, Y)
    params = AnhuaOptions(**options).params()
    n_winners, outcome = steps.claim_winners(state, Y, 3, K.HOW_DISCARD, params, load_tables())
    if delta is None:
        assert n_winners == 0
        return
    assert n_winners == 1 and outcome[M.O_WINNER] == 0
    assert outcome[M.O_FEATURES] == K.FEATURE_HARD
    S.give_tile(state, 0, Y)
    S.mark_claimed(state, 0)
    record = steps.finish_win(state, outcome, K.HOW_DISCARD, 3, Y, params)
    assert _delta(record) == delta


# ---------------------------------------------------------------------------------------------
# 抢杠胡 allow_rob_direct_kong


def test_rob_direct_kong_in_play():
    """抢杠胡 (docs/rules/anhua.md, 可抢杠胡: 抢杠胡只能抢明杠 ... (碰后再杠),
    直杠可以抢杠胡(手中三张杠别人打的第四张); 抢杠胡: ... 暗杠不能抢杠胡), option
    allow_rob_direct_kong (§anhua-open-kong step 1, §anhua-reading-robbing-a-direct-kong). Same
    walls, seat 0 dealing. A robbed 直杠 leaves the konger holding his three tiles (the kong is not
    made) and he, not the discarder, pays; a robbed 明杠 leaves his pong. On: both kinds are robbed.
    Off: 直杠 are never robbed, 明杠 still are."""
    robbed = {}
    for allow in (True, False):
        direct = added = 0
        options = AnhuaOptions(allow_rob_direct_kong=allow)
        for record, state in _hands(options, 79, 4000, log=True):
            if record[E.R_WIN_KIND] != K.HOW_ROB_KONG:
                continue
            konger, tile = int(record[E.R_PAYER]), int(record[E.R_WINNING_TILE])
            events = _events(state)
            robbed_at = next(i for i, e in enumerate(events) if e[0] == S.EVENT_ROBBED)
            assert events[robbed_at][3] == konger
            if state.hands[konger, tile] == 3:
                direct += 1
                discarder = next(
                    e[1] for e in reversed(events[:robbed_at]) if e[0] == S.EVENT_DISCARD
                )
                assert discarder != konger and events[robbed_at - 1][0] == S.EVENT_DISCARD
            else:
                pongs = [
                    state.melds[konger, m, 1]
                    for m in range(state.n_melds[konger])
                    if state.melds[konger, m, 0] == S.MELD_PONG
                ]
                assert tile in pongs
                added += 1
        robbed[allow] = (direct, added)
    assert robbed[True][0] > 0 and robbed[True][1] > 0
    assert robbed[False][0] == 0 and robbed[False][1] > 0


ROBBER = {
    1: "444s 22m 345p 567m 78p",  # konger: ready (6p / 9p) once the three 4s are set aside
    3: "1s 567m 789p 34p 22m 56s",  # 单王, waits 4s / 7s: may rob, not win on the discard
    0: "9m 9m 1p 1p 3m 6m 8s 9p 6p 2s 3s 7s 8m",
}


@pytest.mark.parametrize("allow", [True, False])
def test_rob_direct_kong_on_a_built_state(allow):
    """抢杠胡 (docs/rules/anhua.md: 直杠可以抢杠胡(手中三张杠别人打的第四张); 注意事项 1》:
    手中有单王可抢杠胡) on a built state: seat 2 discards 4s, seat 1 konged it with three 4s (直杠),
    seat 3 (单王) waits on 4s. Allowed: seat 3 robs, 抢杠胡 P = 4, the konger (not the discarder)
    pays; birds 6m and 8m land on seats 0 and 2, no hit. Not allowed: the kong is made and reveals
    three tiles (nobody wins on them) and the konger's hand is locked."""
    state = _state_with(ROBBER, "6m 8m 9m 6s 7m")
    four_s = kind_id("4s")
    S.add_discard(state, 2, four_s)
    params = AnhuaOptions(allow_rob_direct_kong=allow).params()
    tables = load_tables()
    assert H.kong_allowed(AE.ANHUA, state, 1, four_s, S.MELD_DISCARD_KONG, params, tables)
    result, record, locked = steps.open_kong(
        state, 1, four_s, S.MELD_DISCARD_KONG, 2, params, tables
    )
    if allow:
        assert result == E.KONG_HAND_OVER
        assert record[E.R_WIN_KIND] == K.HOW_ROB_KONG and record[E.R_WINNER] == 3
        assert record[E.R_FEATURES] == K.FEATURE_ROB_KONG and record[E.R_PAYER] == 1
        assert _delta(record) == [0, -4, 0, 4]
        assert state.hands[1, four_s] == 3 and state.n_melds[1] == 0
    else:
        assert result == E.KONG_CONTINUE and locked == [False, True, False, False]
        assert state.melds[1, 0, :2].tolist() == [S.MELD_DISCARD_KONG, four_s]
        pile = np.zeros(S.WALL_CAPACITY, np.int64)
        assert pile[: S.pile(state, 1, pile)].tolist() == parse_tiles("6m 8m 9m")


def test_the_discarder_cannot_rob_the_direct_kong_of_his_own_discard():
    """抢杠胡 (docs/rules/anhua.md, 可抢杠胡: 直杠可以抢杠胡(手中三张杠别人打的第四张)): the
    robbed tile of a 直杠 is another player's discard, and nobody wins on his own discard
    (§anhua-open-kong step 1: any eligible player may rob, except the discarder). Seat 2 discards
    4s while waiting on it (a 4s kanchan, no kings, 22m pair); seat 1 kongs it. Before this fix
    seat 2 robbed it (27 of 167 抢杠胡 in 20,000 default hands); now nobody robs, the kong is
    made and the konger's hand is locked."""
    hands = {1: ROBBER[1], 2: "123p 567m 789p 22m 3s 5s"}
    state = _state_with(hands, "6m 8m 9m 6s 7m")
    four_s = kind_id("4s")
    S.add_discard(state, 2, four_s)
    params = AnhuaOptions().params()
    tables = load_tables()
    unbarred = steps.claim_winners(state, four_s, 1, K.HOW_ROB_KONG, params, tables)
    assert unbarred[0] == 1 and unbarred[1][M.O_WINNER] == 2  # what the engine did before
    result, record, locked = steps.open_kong(
        state, 1, four_s, S.MELD_DISCARD_KONG, 2, params, tables
    )
    assert result == E.KONG_CONTINUE and locked == [False, True, False, False]
    assert state.melds[1, 0, :2].tolist() == [S.MELD_DISCARD_KONG, four_s]
    assert record[E.R_WIN_KIND] == -1


# ---------------------------------------------------------------------------------------------
# 七王 / 四王 king_mode


def _x_tiles(state, seat, x_kind):
    """Tiles of kind ``x_kind`` in ``seat``'s concealed hand and melds."""
    count = int(state.hands[seat, x_kind])
    for m in range(state.n_melds[seat]):
        meld_type, first = int(state.melds[seat, m, 0]), int(state.melds[seat, m, 1])
        if meld_type == S.MELD_CHI:
            count += first <= x_kind <= first + 2 and first // 9 == x_kind // 9
        elif first == x_kind:
            count += 3 if meld_type == S.MELD_PONG else 4
    return count


def test_king_mode_in_play():
    """七王 / 四王 (docs/rules/anhua.md, 王的确定: 例:翻九条,选七王则3外三张九条和四张一条为王;
    选四王:四张一条为王; 2:基本玩法 七王:一局牌有七张王牌, 四王:一局牌有四张王牌), option king_mode
    (§anhua-king-mode, §anhua-king-tiers). Seven kings: no 硬庄 winner holds a tile of the
    indicator's kind X or of Y, and X never appears in a meld. Four kings: X is an ordinary tile,
    held by some 硬庄 winners and claimed into melds, while Y stays a king; there is no 六王 or
    七王."""
    seen = {"hard_with_x": 0, "x_in_melds": 0}
    for mode in ("seven_kings", "four_kings"):
        for record, state in _hands(AnhuaOptions(king_mode=mode), 80, 3000):
            indicator = int(record[E.R_INDICATOR])
            x_kind, y_kind = kings_of(indicator)
            in_melds = sum(
                _x_tiles(state, seat, x_kind) - int(state.hands[seat, x_kind]) for seat in range(4)
            )
            if mode == "seven_kings":
                assert in_melds == 0
            else:
                seen["x_in_melds"] += in_melds
            for seat, features, _ in _winners(record):
                if features & K.FEATURE_HARD:
                    assert state.hands[seat, y_kind] == 0
                    if mode == "seven_kings":
                        assert _x_tiles(state, seat, x_kind) == 0
                    else:
                        seen["hard_with_x"] += _x_tiles(state, seat, x_kind) > 0
                if mode == "four_kings":
                    assert not features & (K.FEATURE_SIX_KINGS | K.FEATURE_SEVEN_KINGS)
    assert all(count > 0 for count in seen.values()), seen
