"""The game loop (sim.kernels.engine) played on random walls.

After every hand: tiles conserved, legal hand sizes, no king in a meld, zero-sum payments, and
every recorded win re-scored by the slow Anhua reference (tests/reference/anhua.py).
"""

from __future__ import annotations

import itertools

import engine_steps as steps
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import anhua as R

from sim.core.tables import load_tables
from sim.core.wall import shuffled_walls
from sim.kernels import engine as E
from sim.kernels import moves as M
from sim.kernels import state as S
from sim.variants.anhua import AnhuaOptions, kings_of
from sim.variants.anhua import engine as AE
from sim.variants.anhua import hooks as H
from sim.variants.anhua.record_slots import RH_BIRD, RH_N_BIRDS

pytestmark = pytest.mark.engine  # the engine's loop under a variant's hooks

SEAT0 = np.zeros(16, np.int64)  # every session starts with seat 0 dealing
HOW_NAMES = {
    0: "self_draw",
    1: "discard",
    2: "rob_kong",
    3: "kong_bloom",
    4: "kong_cannon",
    5: "instant",
}
GRID = [
    {"player_count": players, "king_mode": mode, "bird_count": birds, "multi_ron": multi}
    for players, mode, birds, multi in itertools.product(
        (4, 3), ("seven_kings", "four_kings"), (1, 2, 4), (True, False)
    )
]


def _play(options: AnhuaOptions, seed: int, n_hands: int):
    state = S.new_state()
    tables = load_tables()
    params = options.params()
    for index, wall in enumerate(shuffled_walls(n_hands, 108, seed)):
        record = np.zeros(E.N_RECORD, np.int64)
        dealer = index % options.player_count
        AE.play_hand(state, wall, options.player_count, dealer, 0, params, tables, record)
        yield wall, state, record


def _check_hand(wall, state, record, options):
    n_players = options.player_count
    x_kind, y_kind = kings_of(int(record[E.R_INDICATOR]), options.king_mode)
    # tiles: wall remainder + hands + melds + discards + indicator + birds = the wall
    accounted = S.tiles_accounted(state)
    accounted[record[E.R_INDICATOR]] += 1
    for b in range(record[RH_N_BIRDS]):
        accounted[record[RH_BIRD + b]] += 1
    if record[E.R_N_WINNERS] > 1:  # each winner's hand shows the one winning tile
        accounted[record[E.R_WINNING_TILE]] -= record[E.R_N_WINNERS] - 1
    np.testing.assert_array_equal(accounted, np.bincount(wall, minlength=34))
    winners = [int(w) for w in record[E.R_WINNER : E.R_WINNER + record[E.R_N_WINNERS]]]
    for seat in range(n_players):
        size = int(state.hands[seat].sum()) + 3 * int(state.n_melds[seat])
        assert size == (14 if seat in winners else 13), (seat, size)
        for meld in range(state.n_melds[seat]):
            meld_type, first = state.melds[seat, meld, 0], state.melds[seat, meld, 1]
            tiles = [first + j for j in range(3)] if meld_type == S.MELD_CHI else [first]
            assert not any(t in (x_kind, y_kind) for t in tiles), "a king was claimed"
    delta = record[E.R_DELTA : E.R_DELTA + n_players]
    assert delta.sum() == 0
    if record[E.R_OUTCOME] == E.OUTCOME_DRAW:
        assert not delta.any() and tiles_left_is_zero(record)
        return
    how = HOW_NAMES[int(record[E.R_WIN_KIND])]
    for w, seat in enumerate(winners):
        concealed = state.hands[seat].astype(np.int64)
        kings = np.zeros(34, np.int64)
        for kind in (x_kind, y_kind):
            if kind is not None and kind >= 0:
                kings[kind] = concealed[kind]
                concealed[kind] = 0
        meld_names = {S.MELD_CHI: "chi", S.MELD_PONG: "pong"}  # the rest are kongs
        melds = tuple(
            (meld_names.get(int(state.melds[seat, m, 0]), "kong"), int(state.melds[seat, m, 1]))
            for m in range(state.n_melds[seat])
        )
        winning = None if how == "instant" else int(record[E.R_WINNING_TILE])
        if winning == -1:  # the dealer complete on his dealt tiles: no drawn tile
            winning = int(np.flatnonzero(concealed + kings)[0])
        hand = R.AnhuaHand(tuple(concealed), tuple(kings), melds, how, winning)
        expected = R.score(hand, options.__dict__)
        assert expected is not None, (hand, record)
        assert expected.points == record[E.R_POINTS + w]
    paid = R.settle(
        n_players,
        int(record[E.R_DEALER]),
        [(seat, int(record[E.R_POINTS + w])) for w, seat in enumerate(winners)],
        how,
        None if record[E.R_PAYER] < 0 else int(record[E.R_PAYER]),
        [int(b) for b in record[RH_BIRD : RH_BIRD + record[RH_N_BIRDS]]],
        options.__dict__,
    )
    assert list(delta) == list(paid)


def tiles_left_is_zero(record) -> bool:
    return record[E.R_TILES_LEFT] == 0


@pytest.mark.parametrize("grid_index", range(len(GRID)))
def test_invariants_over_the_option_grid(grid_index):
    options = AnhuaOptions(**GRID[grid_index])
    outcomes = []
    for wall, state, record in _play(options, 100 + grid_index, 60):
        _check_hand(wall, state, record, options)
        outcomes.append(int(record[E.R_OUTCOME]))
    assert E.OUTCOME_WIN in outcomes


def test_sessions_carry_the_dealer():
    options = AnhuaOptions()
    state = S.new_state()
    walls = shuffled_walls(40, 108, 3)
    records = np.zeros((40, E.N_RECORD), np.int64)
    AE.play_hands(state, walls, 4, SEAT0, 8, options.params(), load_tables(), records)
    for index in range(1, 40):
        if index % 8 == 0:
            assert records[index, E.R_DEALER] == 0
        else:
            assert records[index, E.R_DEALER] == records[index - 1, E.R_NEXT_DEALER]


def test_same_wall_same_game():
    options = AnhuaOptions()
    state = S.new_state()
    walls = shuffled_walls(30, 108, 8)
    first = np.zeros((30, E.N_RECORD), np.int64)
    second = np.zeros((30, E.N_RECORD), np.int64)
    AE.play_hands(state, walls, 4, SEAT0, 8, options.params(), load_tables(), first)
    AE.play_hands(state, walls, 4, SEAT0, 8, options.params(), load_tables(), second)
    np.testing.assert_array_equal(first, second)


@pytest.mark.slow
def test_exhaustive_draws_pay_nothing_and_pass_the_deal():
    """荒庄 (source: 荒庄, 海底牌): no payments; the player who drew the last tile deals next.
    Draws are rare with wild kings (about 1 in 4,000 four-kings hands), so hands are played
    until several have occurred."""
    options = AnhuaOptions(king_mode="four_kings")
    state = S.new_state()
    tables = load_tables()
    draws = 0
    for wall_index, wall in enumerate(shuffled_walls(40_000, 108, 5)):
        record = np.zeros(E.N_RECORD, np.int64)
        AE.play_hand(state, wall, 4, wall_index % 4, 0, options.params(), tables, record)
        if record[E.R_OUTCOME] != E.OUTCOME_DRAW:
            continue
        draws += 1
        _check_hand(wall, state, record, options)
        assert record[E.R_TILES_LEFT] == 0
        # the last wall tile is in the next dealer's hand or discards
        last = int(wall[-1])
        holder = int(record[E.R_NEXT_DEALER])
        held = state.hands[holder, last] > 0
        pile = np.zeros(S.WALL_CAPACITY, np.int64)
        discarded = last in pile[: S.pile(state, holder, pile)].tolist()
        assert held or discarded
        if draws == 3:
            break
    assert draws == 3


def test_random_agents_keep_every_invariant_and_are_reproducible():
    """Mixed seats (random and efficiency agents) through the agent seam: invariants hold, and
    the same numba seed gives the same games."""
    from sim.kernels.agents import AGENT_EFFICIENCY, AGENT_RANDOM, seed_agents

    options = AnhuaOptions()
    seats = (AGENT_RANDOM, AGENT_EFFICIENCY, AGENT_RANDOM, AGENT_EFFICIENCY)
    tables = load_tables()
    walls = shuffled_walls(150, 108, 31)
    runs = []
    for _ in range(2):
        seed_agents(5)
        state = S.new_state(agents=seats)
        records = np.zeros((150, E.N_RECORD), np.int64)
        for index, wall in enumerate(walls):
            AE.play_hand(state, wall, 4, index % 4, 0, options.params(), tables, records[index])
            _check_hand(wall, state, records[index], options)
        runs.append(records)
    np.testing.assert_array_equal(runs[0], runs[1])
    winners = runs[0][:, E.R_WINNER]
    assert set(winners[winners >= 0]) == {0, 1, 2, 3}


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.sampled_from((3, 4)),
    king_mode=st.sampled_from(("seven_kings", "four_kings")),
    king_as_itself=st.booleans(),
    rob=st.booleans(),
    tier_mode=st.sampled_from(("identical_sets", "count")),
    reveal=st.sampled_from((2, 3)),
)
def test_property_random_seeds_and_options(
    seed, players, king_mode, king_as_itself, rob, tier_mode, reveal
):
    """Any seed, any combination of these options: every hand keeps every invariant."""
    options = AnhuaOptions(
        player_count=players,
        king_mode=king_mode,
        king_as_itself_is_hard=king_as_itself,
        allow_rob_kong=rob,
        king_tier_mode=tier_mode,
        kong_reveal_count=reveal,
    )
    for wall, state, record in _play(options, seed, 8):
        _check_hand(wall, state, record, options)


def test_missed_win_blocks_that_kind_until_the_next_draw():
    """漏胡 (source: 漏胡, 在玩家摸牌前不能胡同一张牌): after passing a win on kind T offered by
    another player, a seat wins on no T offered by others until it draws from the wall. Seats 0
    and 2 hold out for self-draws (passing every other win), seats 1 and 3 play efficiently and
    random agents are not needed; the event log shows every pass and every win."""
    from sim.kernels.agents import AGENT_EFFICIENCY, AGENT_SELF_DRAW

    options = AnhuaOptions()
    tables = load_tables()
    seats = (AGENT_SELF_DRAW, AGENT_EFFICIENCY, AGENT_SELF_DRAW, AGENT_EFFICIENCY)
    state = S.new_state(log_capacity=1024, agents=seats)
    claimed_kinds = (1, 2, 4)  # discard, rob_kong, kong_cannon
    passes = 0
    for index, wall in enumerate(shuffled_walls(400, 108, 12)):
        record = np.zeros(E.N_RECORD, np.int64)
        AE.play_hand(state, wall, 4, index % 4, 0, options.params(), tables, record)
        _check_hand(wall, state, record, options)
        blocked = [set() for _ in range(4)]
        for event, seat, tile, detail in state.log[: state.scalars[S.LOG_COUNT]]:
            if event == S.EVENT_DRAW:
                blocked[seat].clear()
            elif event == S.EVENT_PASS_WIN:
                blocked[seat].add(tile)
                passes += 1
            elif event == S.EVENT_WIN and detail in claimed_kinds:
                assert tile not in blocked[seat], (index, seat, tile)
    assert passes >= 20  # 27 with these walls


def _seat_0_waits_on_5s():
    """Arguments of ``steps.claim_winners`` on an exact state: kings 9s and 1s, seat 0 holds
    22m 345p 678p 456m 3s 4s (waits 2s / 5s), seat 3 discards 5s."""
    from sim.core.tiles import kind_id, parse_tiles

    state = S.new_state()
    S.reset(state, np.zeros(108, np.int8), 4, 0)
    H.set_kings(state, kind_id("9s"), kind_id("1s"))
    for kind in parse_tiles("22m 345p 678p 456m 3s 4s"):
        S.give_tile(state, 0, kind)
    return state, kind_id("5s"), 3, 1, AnhuaOptions().params(), load_tables()


def test_a_passed_kind_cannot_be_won_on_until_a_draw():
    """漏胡 on an exact state: seat 0 waits on 5s; with 5s marked as passed it cannot win on a
    discarded 5s, and after clearing (a draw) it can."""
    args = _seat_0_waits_on_5s()
    state, five_s = args[0], args[1]
    assert steps.claim_winners(*args)[0] == 1
    H.observe(AE.ANHUA, state.status, S.EVENT_PASS_WIN, 0, five_s, 0, args[4])
    assert state.status[0, H.ST_PASSED_WINS] == 1 << five_s
    assert steps.claim_winners(*args)[0] == 0
    H.observe(AE.ANHUA, state.status, S.EVENT_DRAW, 0, 0, 0, args[4])
    assert steps.claim_winners(*args)[0] == 1


def test_claim_winners_honours_a_limit_of_none():
    """Seat 0 waits on 5s: a limit of 0 winners means nobody may win (it meant unlimited:
    Anqing, where no one wins on a discard, needs 0)."""
    args = _seat_0_waits_on_5s()
    assert steps.claim_winners(*args, max_winners=1)[0] == 1
    assert steps.claim_winners(*args, max_winners=0)[0] == 0


def test_robbing_passes_over_the_discarder_of_a_direct_kong():
    """Seat 0 waits on 5s; seat 3 makes a 直杠 of 5s: seat 0 may rob it, unless the 直杠 took
    seat 0's own discard (nobody wins on his own discard, §anhua-open-kong step 1)."""
    state, five_s, konger, _, params, tables = _seat_0_waits_on_5s()
    rob = (state, five_s, konger, M.HOW_ROB_KONG, params, tables)
    assert steps.claim_winners(*rob, kong_type=S.MELD_DISCARD_KONG, kong_from=0)[0] == 0
    assert steps.claim_winners(*rob, kong_type=S.MELD_DISCARD_KONG, kong_from=2)[0] == 1
