"""What the generic loop offers variants beyond what Anhua uses, played
through a minimal test variant (``tests/toy_variant``: 136 tiles, pong and kongs, no wilds):

* a kong whose hook returns ``KONG_REPLACEMENT``: the konger draws the last tile of the wall
  (``EVENT_DRAW`` with ``DRAW_REPLACEMENT``) and plays on; a win on that tile is the kong-bloom
  kind (``HOW_KONG_BLOOM``), Weng'an's and Anqing's 杠开;
* a flip at any moment a hook asks (``moves.flip``): here after the hand, as Weng'an's chicken
  flip;
* the dealer's streak (连庄) counted by the engine and given to the settle hooks;
* ``observe`` hearing every logged event of a seat.
"""

from __future__ import annotations

import numpy as np
import pytest
from toy_variant import engine as TE
from toy_variant import hooks as TH

from sim.core.tables import load_tables
from sim.core.wall import shuffled_walls
from sim.kernels import engine as E
from sim.kernels import moves as M
from sim.kernels import state as S
from sim.kernels.agents import AGENT_EFFICIENCY, AGENT_RANDOM, seed_agents

N_HANDS = 400
IN_PLAY = (S.EVENT_DRAW, S.EVENT_DISCARD, S.EVENT_PONG, S.EVENT_KONG, S.EVENT_WIN)


def _play(agents, seed, hands_per_session=8):
    """Each hand of ``N_HANDS`` walls played on its own with the log on: (wall, record, events)
    per hand, the dealer carried as ``play_hands`` carries it."""
    walls = shuffled_walls(N_HANDS, 136, seed)
    state = S.new_state(2048, agents=agents)
    tables = load_tables()
    seed_agents(seed)
    records = np.zeros((N_HANDS, E.N_RECORD), np.int64)
    TE.play_hands(
        state,
        walls,
        4,
        np.zeros(N_HANDS, np.int64),
        hands_per_session,
        np.zeros(1, np.int64),
        tables,
        records,
    )
    # the log holds the last hand only; replay each hand as a session of its own
    played = []
    for index in range(N_HANDS):
        one = np.zeros((1, E.N_RECORD), np.int64)
        seed_agents(seed + index)
        TE.play_hands(
            state,
            walls[index : index + 1],
            4,
            records[index : index + 1, E.R_DEALER],
            1,
            np.zeros(1, np.int64),
            tables,
            one,
        )
        events = state.log[: state.scalars[S.LOG_COUNT]].copy()
        played.append((walls[index], one[0], events, S.tiles_accounted(state)))
    return records, played


@pytest.fixture(
    scope="module",
    # the efficiency agent's questions are the engines' big compile: in the full suite only
    params=[pytest.param(AGENT_EFFICIENCY, marks=pytest.mark.engine), AGENT_RANDOM],
    ids=["efficiency", "random"],
)
def toy_hands(request):
    records, played = _play((request.param,) * 4, seed=17)
    return records, played, request.param


def test_kongs_draw_their_replacement_from_the_tail(toy_hands):
    """After every kong the konger's next move is a draw of the wall's last tile, marked
    DRAW_REPLACEMENT; every other draw takes the wall's next tile from the head."""
    _, played, _ = toy_hands
    kongs = 0
    for wall, _, events, _ in played:
        head, tail = 13 * 4 + 1, 136  # the deal took the first 53 tiles
        after_kong = -1
        for event, seat, tile, detail in events:
            if event == S.EVENT_INDICATOR:
                assert tile == wall[head]
                head += 1
            if event not in IN_PLAY:
                continue
            if after_kong >= 0:
                assert (event, seat, detail) == (S.EVENT_DRAW, after_kong, S.DRAW_REPLACEMENT)
                tail -= 1
                assert tile == wall[tail]
                after_kong = -1
                continue
            if event == S.EVENT_DRAW:
                assert detail == S.DRAW_HEAD and tile == wall[head]
                head += 1
            elif event == S.EVENT_KONG:
                kongs += 1
                after_kong = seat
    assert kongs >= 20


def test_a_win_on_a_replacement_is_the_kong_bloom_kind(toy_hands):
    """Self-drawn wins right after a replacement draw are HOW_KONG_BLOOM, all others not
    (random players seldom complete a hand: the efficiency players' hands have blooms)."""
    _, played, agent = toy_hands
    blooms = 0
    for _, record, events, _ in played:
        moves = [(e, s, t, d) for e, s, t, d in events if e in IN_PLAY]
        if record[E.R_OUTCOME] != E.OUTCOME_WIN or record[E.R_PAYER] >= 0:
            continue
        last_draw = moves[-2]
        assert last_draw[0] == S.EVENT_DRAW
        expected = M.HOW_KONG_BLOOM if last_draw[3] == S.DRAW_REPLACEMENT else M.HOW_SELF_DRAW
        assert record[E.R_WIN_KIND] == expected
        blooms += expected == M.HOW_KONG_BLOOM
    assert blooms >= (1 if agent == AGENT_EFFICIENCY else 0)


def test_the_hook_flips_after_the_hand_and_every_tile_is_accounted_for(toy_hands):
    """The settle hooks flip the wall's next tile after the win or draw (logged after it,
    recorded); with it every one of the 136 tiles is somewhere."""
    _, played, _ = toy_hands
    for _, record, events, accounted in played:
        ends = [i for i, e in enumerate(events[:, 0]) if e in (S.EVENT_WIN, S.EVENT_EXHAUSTED)]
        flips = [i for i, e in enumerate(events[:, 0]) if e == S.EVENT_INDICATOR]
        assert len(flips) == (1 if record[E.R_INDICATOR] >= 0 else 0)
        for index in flips:
            assert index > max(ends)
            assert events[index, 2] == record[E.R_INDICATOR]
        total = accounted.copy()
        if record[E.R_INDICATOR] >= 0:
            total[record[E.R_INDICATOR]] += 1
        assert (total == 4).all()


def test_the_settle_hooks_get_the_dealers_streak(toy_hands):
    """连庄: the streak the engine gives is the number of hands in a row the dealer has dealt
    before this one within its session (0 for a new dealer and at a session's start)."""
    records, _, _ = toy_hands
    streak = 0
    for index in range(N_HANDS):
        if index % 8 == 0:
            streak = 0
        elif records[index, E.R_DEALER] == records[index - 1, E.R_DEALER]:
            streak += 1
        else:
            streak = 0
        assert records[index, TH.R_STREAK] == streak
    assert records[:, TH.R_STREAK].max() >= 1


def test_observe_hears_every_event_of_a_seat(toy_hands):
    """Every event the engine logs with a seat reaches the variant's observe hook."""
    _, played, _ = toy_hands
    for _, record, events, _ in played:
        with_seat = int((events[:, 1] >= 0).sum())
        # the flip after the hand is heard too, but has no seat; the count was taken before it
        assert record[TH.R_EVENTS] == with_seat


def test_declined_pongs_are_told_and_claims_outranked_are_not(toy_hands):
    """``EVENT_PASS_CLAIM`` (what a 过碰 rule needs): a seat that declines the pong or kong it
    was listed on the discard just made is told, before any claim, and does not then claim it;
    the random agent declines some."""
    _, played, agent = toy_hands
    passes = 0
    for _, _, events, _ in played:
        last_discard = None
        for index, (event, seat, tile, detail) in enumerate(events):
            if event == S.EVENT_DISCARD:
                last_discard = (seat, tile)
            if event != S.EVENT_PASS_CLAIM:
                continue
            passes += 1
            assert detail in (M.ACT_PONG, M.ACT_KONG)
            assert last_discard is not None and last_discard[1] == tile and seat != last_discard[0]
            after = events[index + 1]
            assert not (after[0] in (S.EVENT_PONG, S.EVENT_KONG) and after[1] == seat)
    if agent == AGENT_RANDOM:
        assert passes > 0


def test_history_lists_every_discard_and_who_claimed_it():
    """``state.history``: every discard of the hand in order (seat, tile), marked with the seat
    that ponged, konged or won on it, -1 otherwise: the log's discards and claims, also with
    the log off."""
    walls = shuffled_walls(60, 136, 23)
    tables = load_tables()
    for capacity in (2048, 0):
        state = S.new_state(capacity, agents=(AGENT_RANDOM,) * 4)
        seed_agents(5)
        claimed = 0
        for index in range(60):
            record = np.zeros((1, E.N_RECORD), np.int64)
            TE.play_hands(
                state, walls[index : index + 1], 4, np.zeros(1, np.int64), 1,
                np.zeros(1, np.int64), tables, record,
            )  # fmt: skip
            history = state.history[: state.scalars[S.N_HISTORY]]
            claimed += int((history[:, 2] >= 0).sum())
            if capacity == 0:
                continue
            events = state.log[: state.scalars[S.LOG_COUNT]]
            expected = []
            for event, seat, tile, detail in events:
                if event == S.EVENT_DISCARD:
                    expected.append([seat, tile, -1])
                elif (
                    event == S.EVENT_PONG
                    or (event == S.EVENT_KONG and detail == S.MELD_DISCARD_KONG)
                    or (
                        event == S.EVENT_WIN
                        and record[0, E.R_WIN_KIND] == M.HOW_DISCARD
                        and expected[-1][2] < 0
                    )
                ):
                    expected[-1][2] = seat
            assert history.tolist() == expected
        assert claimed > 0


def test_a_settle_hook_may_set_the_next_streak():
    """``NEXT_STREAK``: -1 after ``reset`` (the engine counts kept deals), else the count the
    next hand is played with."""
    state = S.new_state()
    S.reset(state, np.zeros(136, np.int8), 4, 0)
    assert state.scalars[S.NEXT_STREAK] == -1
