"""Who may win on a discard, re-derived slowly: the referee ``tests/reference/wengan_claims.py``
(plain Python over the reference patterns, 定缺, 过胡, the 通行证 with every ``passport_kinds``
and its exceptions, 一炮多响, robbing only a 爬坡豆) run beside Weng'an's rule checks
(``sim.variants.wengan.checks``, which take the answering seats from the log) on hands played
over every cell of the invariant grid and over the options that change who may win, and seen
to name each violation on a tampered hand: a forbidden win, an entitled seat left unasked, a
pass by a seat that could not win, a wrong next dealer or 连庄 count, a wrong dealer bonus.

Rules: docs/rules/wengan.md (贵州瓮安麻将): 平胡点炮需要通行证; 过胡限制; 抢杠;
热炮; 报听; 杀听; 地胡; 定缺; 一炮多响; 连庄 / 一口二; 庄家 (一炮双响, 一炮全响, 荒庄).
"""

from __future__ import annotations

import numpy as np
import pytest
from joblib import Parallel, delayed
from reference.wengan_claims import Referee, referee_hand
from wengan_referee_runs import EFFICIENT, MIXED, Hand, play_logged, referee_cell

from sim.kernels import record as R
from sim.kernels import state as S
from sim.kernels.agents import AGENT_EFFICIENCY, AGENT_SELF_DRAW
from sim.kernels.moves import HOW_DISCARD
from sim.kernels.record import R_NEXT_DEALER
from sim.variants.wengan import WenganOptions
from sim.variants.wengan import checks as C
from sim.variants.wengan import hooks as H
from sim.variants.wengan import settle as SE
from sim.variants.wengan.record_slots import RW_NEXT_STREAK

pytestmark = pytest.mark.engine  # Weng'an's claims played by its engine

WHO_MAY_WIN_CELLS = [
    {"guo_hu_scope": "any_tile"},
    {"guo_hu_limit": False},
    {"di_hu_window": "first_go_around"},
    {"player_count": 3, "ding_que_mode": "declare"},
    {"player_count": 2, "ding_que": False},
    {"multi_ron": False},
    {"ping_hu_ron_needs_passport": False},
    {"dealer_bonus_mode": "lian_zhuang"},
    {"dealer_bonus_mode": "lian_zhuang", "lian_zhuang_counts_draws": True, "player_count": 3},
    {"dealer_bonus_mode": "yi_kou_er", "base_stake": 2},
]
"""Options the grid keeps at their defaults that change who may win or the dealer's bonus."""


@pytest.mark.parametrize(
    "cell", C.INVARIANT_GRID + WHO_MAY_WIN_CELLS, ids=lambda c: "-".join(map(str, c.values()))
)
def test_the_referee_agrees_with_every_hand_of_the_cell(cell):
    """24 hands a cell (random agents in two seats pass wins and rob or not at random): the
    rule checks pass, and the referee finds every win entitled, every entitled seat asked,
    every pass entitled, the next dealer, his 连庄 count and the dealer bonus right."""
    seed = 1414 + sum(map(ord, repr(cell)))
    seen = referee_cell(cell, 24, seed)
    assert seen["checks_failed"] == 0
    assert not seen["findings"], seen["findings"][:3]
    assert seen["discard_wins"] > 0


@pytest.mark.slow
def test_the_referee_agrees_over_the_grid_at_300_hands_a_cell():
    """300 hands a cell of the 24-cell grid, half with the mixed agents (passes) and half with
    the efficiency agent everywhere (一炮多响), in two processes: no finding, the checks pass
    (about 7,200 hands; the referee takes some 50 ms a hand in plain Python)."""
    jobs = [(cell, 150, 3000 + i, agents) for i, cell in enumerate(C.INVARIANT_GRID)
            for agents in (MIXED, EFFICIENT)]  # fmt: skip
    reports = Parallel(n_jobs=2)(delayed(referee_cell)(*job) for job in jobs)
    assert all(seen["checks_failed"] == 0 for seen in reports)
    findings = [seen["findings"][:2] for seen in reports if seen["findings"]]
    assert not findings, findings[:3]
    assert sum(seen["multi"] for seen in reports) > 10


def test_the_grid_holds_the_moves_the_referee_judges():
    """Over the first eight cells at 20 hands: passes of legal wins (过胡 locks; the self-draw
    agent passes every discard win, the random one half of them) and wins on discards. (一炮多响
    is rarer: the slow test above counts it, and the tampered hands below judge it.)"""
    totals = {"passes": 0, "discard_wins": 0}
    for i, cell in enumerate(C.INVARIANT_GRID[:8]):
        seen = referee_cell(cell, 20, 77 + i, MIXED)
        assert seen["checks_failed"] == 0
        assert not seen["findings"], seen["findings"][:3]
        for key in totals:
            totals[key] += seen[key]
    assert totals["passes"] > 20 and totals["discard_wins"] > 40, totals


# --------------------------------------------------------------------------------------------
# The referee names each violation on a tampered hand


def find_hand(options, want, seed: int = 5, tries: int = 3000, agents=MIXED) -> Hand:
    """The first hand played whose (events, record) satisfy ``want``."""
    for hand in play_logged(options, tries, seed, agents):
        if want(hand.events, hand.record):
            return hand
    raise AssertionError("no such hand")


def codes(options, hand: Hand, events=None, record=None) -> list[str]:
    findings = referee_hand(
        hand.events if events is None else events,
        hand.wall,
        options,
        hand.dealer,
        hand.streak,
        hand.record if record is None else record,
    )
    return [finding.code for finding in findings]


def _discard_wins(events) -> np.ndarray:
    return np.flatnonzero((events[:, 0] == S.EVENT_WIN) & (events[:, 3] == HOW_DISCARD))


def test_an_untouched_hand_has_no_finding():
    options = WenganOptions()
    hand = find_hand(options, lambda ev, rec: len(_discard_wins(ev)) > 0)
    assert codes(options, hand) == []


def test_a_win_moved_to_a_seat_that_cannot_win_is_forbidden():
    """可胡: a win on a discard logged for a seat whose hand does not win with the tile."""
    options = WenganOptions()
    hand = find_hand(options, lambda ev, rec: len(_discard_wins(ev)) == 1)
    events = hand.events.copy()
    row = _discard_wins(events)[0]
    winner, tile = int(events[row, 1]), int(events[row, 2])
    referee = Referee(events[:row], hand.wall, options, hand.dealer, hand.streak)
    referee.run()  # up to the discard won on and its passes
    others = {s for s in range(options.player_count)} - {winner, referee.last_discarder}
    losing = [s for s in sorted(others) if referee._winning(s, tile) is None]
    events[row, 1] = losing[0]
    assert "forbidden_win" in codes(options, hand, events)


def test_a_ping_hu_on_a_discard_without_passport_is_forbidden():
    """平胡点炮需要通行证: a 平胡 won on a discard with no kong and no exception, played with the
    rule off (``ping_hu_ron_needs_passport = false``), judged with it on."""
    lax = WenganOptions(ping_hu_ron_needs_passport=False)
    exceptions = C.EXCEPTIONS & ~H.FEATURE_PASSPORT

    def plain_without_passport(events, record):
        features = record[R.R_FEATURES]
        return (
            record[R.R_N_WINNERS] == 1
            and record[R.R_WIN_KIND] == HOW_DISCARD
            and features & H.FEATURE_PATTERN == 1
            and not features & (exceptions | H.FEATURE_PASSPORT)
        )

    hand = find_hand(lax, plain_without_passport)
    assert codes(lax, hand) == []
    assert "forbidden_win" in codes(WenganOptions(), hand)


def _pass_then_discard(events, passer: int):
    """(the pass row, the next discard's row) where ``passer`` declined a win and another seat
    discarded next, the passer's hand unchanged between (no draw, pong or kong), or None."""
    for row in np.flatnonzero((events[:, 0] == S.EVENT_PASS_WIN) & (events[:, 1] == passer)):
        for later in range(row + 1, len(events)):
            event, seat = events[later, 0], events[later, 1]
            if seat == passer and event in (S.EVENT_DRAW, S.EVENT_PONG, S.EVENT_KONG):
                break
            if event == S.EVENT_DISCARD:
                if events[row - 1, 0] == S.EVENT_DISCARD:  # a pass on a discard
                    return int(row), int(later)
                break
    return None


def test_a_win_on_a_kind_passed_is_forbidden_by_guo_hu():
    """过胡 (能胡，选择了过): seat 2 (the self-draw agent) declines a legal win on a discard;
    the next discard, made the same kind, is won by seat 2 before its hand changed: without
    the limit an entitled win, with it (``same_tile``, and ``any_tile``) forbidden."""
    lax = WenganOptions(guo_hu_limit=False)
    agents = (AGENT_EFFICIENCY, AGENT_EFFICIENCY, AGENT_SELF_DRAW, AGENT_EFFICIENCY)
    tried = 0
    for hand in play_logged(lax, 3000, 11, agents):
        rows = _pass_then_discard(hand.events, 2)
        if rows is None:
            continue
        passed, discard = rows
        events = hand.events[: discard + 1].copy()
        events[discard, 2] = events[passed, 2]  # the same kind again
        won = np.array([[S.EVENT_WIN, 2, events[passed, 2], HOW_DISCARD]], np.int64)
        events = np.concatenate([events, won])
        tried += 1
        if "forbidden_win" in codes(lax, hand, events):
            continue  # another exception (热炮, 杀听, 地胡) let the first win: try another hand
        assert "forbidden_win" in codes(WenganOptions(), hand, events)
        assert "forbidden_win" in codes(WenganOptions(guo_hu_scope="any_tile"), hand, events)
        return
    raise AssertionError(f"no hand to tamper ({tried} tried)")


def test_two_winners_on_a_discard_without_multi_ron_are_forbidden():
    """一炮多响 off: only the first seat in turn order may win a discard."""
    options = WenganOptions()
    hand = find_hand(options, lambda ev, rec: len(_discard_wins(ev)) > 1, agents=EFFICIENT)
    assert codes(options, hand) == []
    found = codes(WenganOptions(multi_ron=False), hand)
    assert "forbidden_win" in found


def test_an_entitled_pass_removed_leaves_the_seat_unanswered():
    """The engine asks every seat entitled to win a discard: a pass removed from the log
    leaves an entitled seat neither winning nor passing."""
    options = WenganOptions()
    hand = find_hand(options, lambda ev, rec: (ev[:, 0] == S.EVENT_PASS_WIN).any())
    events = hand.events
    row = int(np.flatnonzero(events[:, 0] == S.EVENT_PASS_WIN)[0])
    tampered = np.delete(events, row, axis=0)
    assert "unanswered" in codes(options, hand, tampered)


def test_a_second_winner_removed_leaves_the_seat_unanswered():
    """一炮多响: every seat entitled to win the discard is asked; dropping the second winner's
    win leaves it unanswered."""
    options = WenganOptions()
    hand = find_hand(options, lambda ev, rec: len(_discard_wins(ev)) > 1, agents=EFFICIENT)
    tampered = np.delete(hand.events, _discard_wins(hand.events)[1], axis=0)
    assert "unanswered" in codes(options, hand, tampered)


def test_a_pass_by_a_seat_that_cannot_win_is_named():
    """过胡 arises only on a declined legal win: a pass inserted for a seat that could not win
    the discard is named."""
    options = WenganOptions()
    hand = find_hand(options, lambda ev, rec: (ev[:, 0] == S.EVENT_DISCARD).sum() > 4)
    events = hand.events
    row = int(np.flatnonzero(events[:, 0] == S.EVENT_DISCARD)[2])
    seat, tile = events[row, 1], events[row, 2]
    referee = Referee(events[:row], hand.wall, options, hand.dealer, hand.streak)
    referee.run()
    entitled = referee.discard_entitled(int(seat), int(tile))
    players = options.player_count
    passing = next((seat + s) % players for s in range(1, players) if (seat + s) % players
                   not in entitled)  # fmt: skip
    tampered = np.insert(events, row + 1, [S.EVENT_PASS_WIN, passing, tile, 0], axis=0)
    assert "pass_not_entitled" in codes(options, hand, tampered)


def test_a_wrong_next_dealer_or_count_is_named():
    """庄家 and 连庄 (§wengan-next-dealer, §wengan-dealer-bonus): the record's next dealer and his
    count are the rules'."""
    options = WenganOptions(dealer_bonus_mode="lian_zhuang")
    hand = find_hand(options, lambda ev, rec: rec[R.R_N_WINNERS] == 1)
    record = hand.record.copy()
    record[R_NEXT_DEALER] = (record[R_NEXT_DEALER] + 1) % 4
    assert "next_dealer" in codes(options, hand, record=record)
    record = hand.record.copy()
    record[RW_NEXT_STREAK] += 1
    assert "next_streak" in codes(options, hand, record=record)


def test_a_wrong_dealer_bonus_is_named():
    """连庄 +n (§wengan-dealer-bonus): the bonus on a hand payment with the dealer is his count n;
    an item changed, or a hand judged with another count, is named."""
    options = WenganOptions(dealer_bonus_mode="lian_zhuang")
    bonus = H.EVENT_ITEM + SE.ITEM_DEALER_BONUS
    hand = find_hand(options, lambda ev, rec: (ev[:, 0] == bonus).any())
    assert codes(options, hand) == []
    events = hand.events.copy()
    events[np.flatnonzero(events[:, 0] == bonus)[0], 3] += 1
    assert "dealer_bonus" in codes(options, hand, events)
    found = referee_hand(hand.events, hand.wall, options, hand.dealer, hand.streak + 1, hand.record)
    assert "dealer_bonus" in [finding.code for finding in found]
