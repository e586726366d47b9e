"""The generic tile ledger (``sim.kernels.ledger``) on hand-made logs, with no variant: a kong's
replacement from the tail of the wall, an indicator flipped in the middle of a hand, claim
priority on a discard, and the checks a played hand cannot reach (conservation, capacity), each
seen failing. Played hands of every variant go through it in ``tests/test_variant_contract.py``
and Anhua's rule checks around it in ``tests/variants/test_anhua_checks.py``."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from sim.kernels import ledger as L
from sim.kernels import state as S
from sim.kernels.moves import HOW_DISCARD, HOW_SELF_DRAW

DEALT = (
    (0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 26),  # the dealer (seat 0): four 1m, one 9s
    (24, 25, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19),  # seat 1: 7s 8s for a chi of 9s
    (26, 26, 20, 21, 22, 23, 9, 10, 11, 12, 13, 14, 15),  # seat 2: two 9s for a pong
    (1, 2, 3, 4, 5, 6, 7, 8, 16, 17, 18, 19, 20),
)


def _wall() -> np.ndarray:
    """108 tiles: the hands above in deal order, the dealer's 14th (a 4s), then the rest
    sorted (so the tail is the last 9s)."""
    dealt = [kind for hand in DEALT for kind in hand] + [21]
    rest = Counter({kind: 4 for kind in range(27)})
    rest.subtract(dealt)
    return np.array(dealt + sorted(rest.elements()), np.int8)


WALL = _wall()
HEAD = 53  # the head after the deal
DEAL = [(S.EVENT_DEAL, seat, -1, 14 if seat == 0 else 13) for seat in range(4)]


def _run(rows, offers=(0, 4), tamper=None):
    """Replay ``rows`` on fresh books as a variant's checks would, answering every discard with
    ``offers`` (the seats that could win, as bits, and how many may); ``tamper(index, books)``
    runs before each event. Returns (code, event index, books)."""
    books = L.new_books(WALL, 4, 0)
    for index, (event, seat, tile, detail) in enumerate(rows):
        if tamper is not None:
            tamper(index, books)
        code = L.begin_event(books, event, seat)
        if code == L.OK:
            code = L.ledger_step(books, event, seat, tile, detail)
        if code == L.OK and event == S.EVENT_DISCARD:
            L.open_offer(books, *offers)
        if code == L.OK:
            code = L.end_event(books, event, seat)
        if code != L.OK:
            return code, index, books
    return L.OK, len(rows), books


def _kong_hand():
    """The dealer konges his four 1m, draws the replacement from the tail, a tile is flipped
    mid-hand, two discards and draws, and seat 2 wins on its draw."""
    tail = int(WALL[-1])
    return [
        *DEAL,
        (S.EVENT_KONG, 0, 0, S.MELD_CONCEALED_KONG),
        (S.EVENT_DRAW, 0, tail, L.DRAW_REPLACEMENT),
        (S.EVENT_INDICATOR, -1, int(WALL[HEAD]), 0),
        (S.EVENT_DISCARD, 0, tail, 0),
        (S.EVENT_DRAW, 1, int(WALL[HEAD + 1]), L.DRAW_HEAD),
        (S.EVENT_DISCARD, 1, int(WALL[HEAD + 1]), 0),
        (S.EVENT_DRAW, 2, int(WALL[HEAD + 2]), L.DRAW_HEAD),
        (S.EVENT_WIN, 2, int(WALL[HEAD + 2]), HOW_SELF_DRAW),
    ]


def test_a_replacement_from_the_tail_and_a_flip_mid_hand_are_booked():
    """A kong's replacement comes from the tail (the ledger's tail moves, its head does not);
    the flipped tile leaves the head, visible and out of play; every tile stays accounted for
    and the hand sizes hold (the konger 13 after the kong, 14 after the replacement)."""
    code, at, books = _run(_kong_hand())
    assert (code, at) == (L.OK, 12)
    assert books[L.SCALARS, L.B_TAIL] == 107 and books[L.SCALARS, L.B_HEAD] == HEAD + 3
    assert books[L.L_FLIPPED, WALL[HEAD]] == 1 and books[L.TOTALS, L.L_FLIPPED] == 1
    assert books[L.SCALARS, L.B_INDICATOR] == WALL[HEAD]
    assert books[L.MELDS, 0:3].tolist() == [S.MELD_CONCEALED_KONG, 0, 0]
    assert books[L.SCALARS, L.B_N_DRAWS] == 3 and books[L.SCALARS, L.B_WINNER] == 2
    assert all(L.conserved(books, kind) for kind in range(34))


def _replace(rows, index, row):
    rows = list(rows)
    rows[index] = row
    return rows


TAIL = int(WALL[-1])
REPLACEMENT = 5  # the index of the replacement draw in _kong_hand()


@pytest.mark.parametrize(
    ("row", "index", "expected"),
    [
        # a replacement by another seat than the konger
        ((S.EVENT_DRAW, 1, TAIL, L.DRAW_REPLACEMENT), REPLACEMENT, L.ERR_TURN),
        # not the last tile of the wall
        ((S.EVENT_DRAW, 0, int(WALL[-2]), L.DRAW_REPLACEMENT), REPLACEMENT, L.ERR_WALL),
        # the konger drawing from the head: the head is the next player's
        ((S.EVENT_DRAW, 0, int(WALL[HEAD]), L.DRAW_HEAD), REPLACEMENT, L.ERR_TURN),
        # a draw of no known kind
        ((S.EVENT_DRAW, 0, TAIL, 2), REPLACEMENT, L.ERR_EVENT),
        # a flip of another tile than the head's
        ((S.EVENT_INDICATOR, -1, int(WALL[HEAD]) + 1, 0), REPLACEMENT + 1, L.ERR_WALL),
        # a replacement after a discard, with no kong
        ((S.EVENT_DRAW, 1, int(WALL[-2]), L.DRAW_REPLACEMENT), REPLACEMENT + 3, L.ERR_TURN),
    ],
)
def test_draws_and_flips_out_of_order_are_caught(row, index, expected):
    code, at, _ = _run(_replace(_kong_hand(), index, row))
    assert (code, at) == (expected, index)


def _discard_9s(*answers):
    """The dealer discards his 9s; then ``answers``."""
    return [*DEAL, (S.EVENT_DISCARD, 0, 26, 0), *answers]


def _pass(seat):
    return (S.EVENT_PASS_WIN, seat, 26, 0)


def _win(seat):
    return (S.EVENT_WIN, seat, 26, HOW_DISCARD)


DRAW_1 = (S.EVENT_DRAW, 1, int(WALL[HEAD]), L.DRAW_HEAD)
PONG_2 = (S.EVENT_PONG, 2, 26, 0)
SEATS_1_3 = 0b1010


@pytest.mark.parametrize(
    ("answers", "offers", "expected"),
    [
        ((_pass(1), _pass(3), DRAW_1), (SEATS_1_3, 4), (L.OK, 8)),
        # passes in turn order from the discarder
        ((_pass(3), _pass(1)), (SEATS_1_3, 4), (L.ERR_PRIORITY, 6)),
        # the next player draws while seat 3 could still win
        ((_pass(1), DRAW_1), (SEATS_1_3, 4), (L.ERR_PRIORITY, 6)),
        # a pass or win by a seat the variant says cannot win on the tile
        ((_pass(2),), (0b1000, 4), (L.ERR_NOT_WINNING, 5)),
        ((_win(2),), (SEATS_1_3, 4), (L.ERR_NOT_WINNING, 5)),
        # a pong over a seat that could win and was not asked; once it passes, the pong is legal
        ((PONG_2,), (0b0010, 4), (L.ERR_PRIORITY, 5)),
        ((_pass(1), PONG_2), (0b0010, 4), (L.OK, 7)),
        # the engine logs the passes as they come and the winners after them, in turn order
        ((_win(1), _win(3)), (SEATS_1_3, 4), (L.OK, 7)),
        ((_pass(3), _win(1)), (SEATS_1_3, 4), (L.OK, 7)),
        ((_pass(1), _win(3)), (SEATS_1_3, 1), (L.OK, 7)),
        ((_win(3), _win(1)), (SEATS_1_3, 4), (L.ERR_PRIORITY, 5)),
        ((_win(1), _pass(3)), (SEATS_1_3, 4), (L.ERR_END, 6)),
        ((_pass(1), _win(1)), (SEATS_1_3, 4), (L.ERR_PRIORITY, 6)),
        ((_win(1), _win(3)), (SEATS_1_3, 1), (L.ERR_MULTI_WIN, 6)),
        # no claim once a win took the discard
        ((_win(1), PONG_2), (SEATS_1_3, 4), (L.ERR_END, 6)),
        # a chi of three consecutive tiles of one suit holding the discard
        (((S.EVENT_CHI, 1, 24, 0),), (0, 4), (L.OK, 6)),
        (((S.EVENT_CHI, 1, 25, 0),), (0, 4), (L.ERR_CLAIM, 5)),
        (((S.EVENT_CHI, 1, 22, 0),), (0, 4), (L.ERR_CLAIM, 5)),
        # a pong of the discarder's own tile, or of tiles the claimer lacks
        (((S.EVENT_PONG, 0, 26, 0),), (0, 4), (L.ERR_CLAIM, 5)),
        (((S.EVENT_PONG, 3, 26, 0),), (0, 4), (L.ERR_TILE_MISSING, 5)),
    ],
)
def test_claim_priority_on_a_discard(answers, offers, expected):
    """Every seat the variant says could win on a discard wins or passes before a claim or the
    next draw takes the tile: passes in turn order from the discarder as the engine asks, then
    the winners in turn order, none past a seat that could win and was not asked, and at most
    as many as may."""
    code, at, _ = _run(_discard_9s(*answers), offers)
    assert (code, at) == expected


@pytest.mark.parametrize(
    ("answers", "offers", "settled"),
    [
        ((_win(1), _win(3)), (SEATS_1_3, 4), True),
        ((_pass(3), _win(1)), (SEATS_1_3, 4), True),
        # as many won as may: the engine asked nobody after the winner
        ((_win(1),), (SEATS_1_3, 1), True),
        ((_pass(3), _win(1)), (SEATS_1_3, 1), False),
        # fewer won than may: seat 3 was never asked
        ((_win(1),), (SEATS_1_3, 4), False),
    ],
)
def test_a_discard_won_by_fewer_than_may_was_offered_to_all(answers, offers, settled):
    code, _, books = _run(_discard_9s(*answers), offers)
    assert code == L.OK
    assert L.offer_settled(books) == (L.OK if settled else L.ERR_PRIORITY)


def test_a_hand_that_loses_a_tile_is_not_conserved():
    """A tile that appears from nowhere (the books tampered with before the next draw) breaks
    conservation of its kind at that event: the check a correct ledger never trips."""
    drawn = int(WALL[HEAD])

    def phantom(index, books):
        if index == 5:
            books[L.L_HAND + 1, drawn] += 1

    code, at, _ = _run(_discard_9s(DRAW_1), tamper=phantom)
    assert (code, at) == (L.ERR_CONSERVATION, 5)


def test_a_full_pile_is_a_capacity_error():
    def full(index, books):
        if index == 4:
            books[L.SEATS, L.S_N_DISCARDS] = L.LEDGER_DISCARDS

    code, at, _ = _run(_discard_9s(), tamper=full)
    assert (code, at) == (L.ERR_CAPACITY, 4)


def test_the_deal_comes_first_and_nothing_follows_the_end():
    code, at, _ = _run([DRAW_1])
    assert (code, at) == (L.ERR_DEAL, 0)
    code, at, _ = _run([*DEAL[:2], (S.EVENT_DEAL, 2, -1, 14)])
    assert (code, at) == (L.ERR_DEAL, 2)
    code, at, _ = _run([DEAL[0], DEAL[2], DEAL[1], DEAL[3]])  # seat 2 before seat 1
    assert (code, at) == (L.ERR_DEAL, 1)
    code, at, _ = _run([*_kong_hand(), (S.EVENT_DISCARD, 2, 0, 0)])
    assert (code, at) == (L.ERR_END, 12)


def test_a_flip_after_a_win_is_booked_but_is_not_the_indicator():
    """A tile turned up after the win (a chicken flip for the settlement, from the head or the
    tail) leaves the wall; the record's indicator stays the flip made in play; a draw after
    the win is still an error."""
    head, tail = HEAD + 3, int(WALL[-2])
    rows = [*_kong_hand(), (S.EVENT_INDICATOR, -1, int(WALL[head]), 0)]
    rows.append((S.EVENT_INDICATOR, -1, tail, L.FLIP_TAIL))
    code, at, books = _run(rows)
    assert (code, at) == (L.OK, len(rows))
    assert books[L.SCALARS, L.B_INDICATOR] == WALL[HEAD]
    assert books[L.TOTALS, L.L_FLIPPED] == 3
    assert all(L.conserved(books, kind) for kind in range(34))
    drawn = [*_kong_hand(), (S.EVENT_DRAW, 3, int(WALL[head]), L.DRAW_HEAD)]
    assert _run(drawn)[:2] == (L.ERR_END, len(drawn) - 1)


def test_declarations_at_the_deal_by_any_seat_later_only_by_the_seat_in_turn():
    """A declaration at the deal (a suit named, say) may come from every seat while the dealer
    holds his dealt hand; after the first discard only the seat in turn declares."""
    at_deal = [*DEAL, *((S.EVENT_DECLARE, seat, 9, 1) for seat in range(4))]
    assert _run(at_deal)[:2] == (L.OK, len(at_deal))
    rows = _kong_hand()
    late = [*rows[:7], (S.EVENT_DECLARE, 2, -1, 0)]  # the dealer konged and drew: not seat 2
    assert _run(late)[:2] == (L.ERR_TURN, 7)
    in_turn = [*rows[:9], (S.EVENT_DECLARE, 1, -1, 0)]  # seat 1 drew: it may
    assert _run(in_turn)[:2] == (L.OK, 10)


def test_after_the_exhaustive_draw_only_the_variants_events():
    """After 荒庄 the variant's own events (its settlement) may follow, the engine's may not."""
    books = L.new_books(WALL, 4, 0)
    books[L.SCALARS, L.B_DEALT] = 1
    books[L.SCALARS, L.B_EXHAUSTED] = 1
    books[L.SCALARS, L.B_ENDED] = 1
    assert L.begin_event(books, S.FIRST_VARIANT_EVENT, 0) == L.OK
    assert L.begin_event(books, S.EVENT_INDICATOR, -1) == L.ERR_END
    assert L.begin_event(books, S.EVENT_DRAW, 0) == L.ERR_END
