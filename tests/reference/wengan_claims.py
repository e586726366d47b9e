"""Slow, plainly written referee of one played Weng'an hand 贵州瓮安麻将: who was entitled to win.

The tile ledger and Weng'an's rule checks (``sim.variants.wengan.checks``, numba) take the seats
that answered a discard from the log; this referee re-derives, from the log alone and the slow
reference (``reference.wengan``: patterns by plain decomposition, 定缺, the 通行证 and its
exceptions), which seats were entitled to win on each discard and on each kong that could be
robbed, and compares with what the log shows. It shares no code with the engine's hooks.

Per offer (a discard, or an added kong before it is made):

* a seat is entitled to win on a **discard** of kind T when its 13 tiles and T make a winning hand
  (§wengan-hand-forms) that keeps 定缺 (§wengan-ding-que, both ``ding_que_mode``), it has not
  declined a legal win on T since its hand last changed (过胡, §wengan-guo-hu, ``guo_hu_limit`` and
  ``guo_hu_scope``), and a 平胡 has a 通行证 (§wengan-passport, every ``passport_kinds``) or an
  exception: 地胡 (``di_hu_window``), 热炮 (the discarder's first discard after his kong), the
  winner's 报听, the discarder's 报听 (杀听);
* a seat is entitled to **rob** a kong only when it is a 爬坡豆 (an added kong whose fourth tile the
  konger drew in that turn; §wengan-kongs, §wengan-robbing-a-kong,
  §wengan-reading-kong-immediacy-turn), with a winning hand that keeps 定缺 and no 过胡 lock on the
  kind; no 通行证 is needed (抢杠);
* a **self-draw** needs a winning hand that keeps 定缺.

What is flagged (``Finding.code``):

* ``forbidden_win``: a win by a seat not entitled to it, or a second winner on a discard
  without 一炮多响 (``multi_ron``);
* ``unanswered``: a seat entitled to win that the log shows neither winning nor passing, where
  the engine must ask it: every entitled seat on a robbed kong and, with 一炮多响, on a
  discard; without it, each entitled seat in turn order up to the first winner (all of them
  when nobody won);
* ``pass_not_entitled``: a pass (漏胡) by a seat that could not win (it would lock 过胡 for
  nothing);
* ``next_dealer``, ``next_streak``: the record's next dealer or 连庄 count differs from the
  rules (§wengan-next-dealer, §wengan-dealer-bonus: ``reference.wengan.next_deal``);
* ``dealer_bonus``: the 连庄 / 一口二 items differ from one bonus (n, or 1) × 底分 on each hand
  payment (or 查叫 payment) with the dealer on either side (§wengan-dealer-bonus).

The kong kinds (闷豆 / 爬坡豆 / 点豆 / 憨包豆), needed for robbing and for
``passport_kinds = scoring_kong``, are derived from the log too: a concealed or added kong
scores when its fourth tile was drawn since the konger's last discard (a quad dealt: before his
first discard), otherwise it is a 憨包豆.

Rules: docs/rules/wengan.md (贵州瓮安麻将): 平胡点炮需要通行证; 过胡限制; 抢杠; 热炮;
报听; 杀听; 地胡; 定缺; 一炮多响; 连庄 / 一口二; 庄家.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from dataclasses import dataclass, field

from sim.kernels import state as S
from sim.kernels.moves import HOW_DISCARD, HOW_KONG_BLOOM, HOW_ROB_KONG, HOW_SELF_DRAW
from sim.kernels.record import R_NEXT_DEALER
from sim.variants.wengan.hooks import DECLARE_BAO_TING, DECLARE_QUE, EVENT_ITEM
from sim.variants.wengan.record_slots import RW_NEXT_STREAK
from sim.variants.wengan.settle import ITEM_KINDS

from . import wengan as W

ITEM_IDS = tuple(english for english, _ in ITEM_KINDS)


@dataclass(frozen=True)
class Finding:
    """One violation: the index of the event it is found at (the log's length for the end),
    its code (module docstring) and what it is in words."""

    index: int
    code: str
    words: str


@dataclass
class SeatBooks:
    """One seat as the referee follows it through the log."""

    hand: Counter = field(default_factory=Counter)
    melds: list = field(default_factory=list)  # [kind, W.MELD_KINDS name, from seat]
    dealt_quads: set = field(default_factory=set)
    drawn_this_turn: set = field(default_factory=set)  # kinds drawn since the last discard
    discarded: bool = False
    acted: bool = False  # discarded, claimed or konged (its first turn is over)
    kong_since_discard: bool = False  # a kong made since its last discard (热炮)
    bao_ting: bool = False
    que_suit: str | None = None  # 定缺 by declaration: the suit named
    passed: set = field(default_factory=set)  # kinds locked by 过胡 (27 kinds: any tile)

    def reference_seat(self) -> W.Seat:
        """The seat as the reference describes it (its concealed tiles, melds, 报听, 定缺)."""
        concealed = " ".join(W._name(kind) for kind in sorted(self.hand.elements()))
        melds = tuple(W.Meld(kind, W._name(tile), source) for tile, kind, source in self.melds)
        return W.Seat(
            concealed=concealed, melds=melds, bao_ting=self.bao_ting, que_suit=self.que_suit
        )

    def changed(self) -> None:
        """A draw, pong or kong: the 过胡 lock ends (§wengan-guo-hu)."""
        self.passed = set()


class Referee:
    """Follows one hand's log (``events``: rows (event, seat, tile, detail)) dealt from
    ``wall`` by ``dealer``, ``streak`` his 连庄 count, under ``options``."""

    def __init__(self, events, wall, options, dealer: int, streak: int) -> None:
        self.events = [tuple(int(v) for v in row) for row in events]
        self.options = options
        self.players = options.player_count
        self.dealer = dealer
        self.streak = streak
        self.seats = [SeatBooks() for _ in range(self.players)]
        self.melded = False  # anyone ponged or konged (地胡 is over)
        self.n_discards = 0
        self.last_discarder = -1
        self.findings: list[Finding] = []
        self.winners: list[int] = []
        self.win_how = -1
        self.win_source = -1  # the discarder or robbed konger
        self.wall = [int(t) for t in wall]
        self.head = self.tail = 0  # the wall's undrawn tiles are wall[head:tail]
        self.replacement_due = False  # the next draw comes from the tail (after a kong)
        self.discards: list[W.Discard] = []
        self.hot_discard = False  # the last discard was its discarder's first after a kong
        self.wins: list[W.Win] = []
        self.lacking: list[bool] = []  # each seat's dealt hand lacked a suit (原缺)
        self._deal(self.wall)

    # ------------------------------------------------------------------ the position

    def _deal(self, wall: list[int]) -> None:
        """13 tiles to each seat from the head in seat order, then the dealer's 14th."""
        head = 0
        for seat in range(self.players):
            self.seats[seat].hand.update(wall[head : head + 13])
            head += 13
        self.seats[self.dealer].hand[wall[head]] += 1
        self.head, self.tail = head + 1, len(wall)
        for books in self.seats:
            books.dealt_quads = {kind for kind, n in books.hand.items() if n == 4}
            suits = {kind // 9 for kind, n in books.hand.items() if n > 0}
            self.lacking.append(len(suits) < 3)

    def _flag(self, index: int, code: str, words: str) -> None:
        self.findings.append(Finding(index, code, words))

    def _winning(self, seat: int, tile: int) -> str | None:
        """The pattern ``seat`` wins with ``tile`` added (None: no win, shape or 定缺)."""
        return W.winning_pattern(
            self.seats[seat].reference_seat(), tile, self.players, self.options
        )

    def _locked(self, seat: int, tile: int) -> bool:
        return self.options.guo_hu_limit and tile in self.seats[seat].passed

    def _earthly(self, seat: int) -> bool:
        """地胡 on a discard (§wengan-mingtang, ``di_hu_window``): a non-dealer, nobody has ponged
        or konged, before his first discard (or among the hand's first round of discards)."""
        if seat == self.dealer or self.melded:
            return False
        if not self.seats[seat].acted:
            return True
        window = self.options.di_hu_window == "first_go_around"
        return window and self.n_discards <= self.players

    def discard_entitled(self, discarder: int, tile: int) -> dict[int, str]:
        """Seat -> pattern, for every seat entitled to win on ``discarder``'s ``tile``."""
        found = {}
        hot = self.seats[discarder].kong_since_discard
        for offset in range(1, self.players):
            seat = (discarder + offset) % self.players
            name = self._winning(seat, tile)
            if name is None or self._locked(seat, tile):
                continue
            allowed = W.discard_win_allowed(
                self.seats[seat].reference_seat(),
                name,
                self.options,
                earthly=self._earthly(seat),
                hot_cannon=hot,
                discarder_bao_ting=self.seats[discarder].bao_ting,
            )
            if allowed:
                found[seat] = name
        return found

    def rob_entitled(self, konger: int, tile: int) -> dict[int, str]:
        """Seat -> pattern, for every seat entitled to rob ``konger``'s added kong of
        ``tile``: only a 爬坡豆, the fourth tile drawn in this turn (§wengan-robbing-a-kong)."""
        books = self.seats[konger]
        onto_pong = any(m[0] == tile and m[1] == "pong" for m in books.melds)
        if not onto_pong or tile not in books.drawn_this_turn:
            return {}
        found = {}
        for offset in range(1, self.players):
            seat = (konger + offset) % self.players
            name = self._winning(seat, tile)
            if name is not None and not self._locked(seat, tile):
                found[seat] = name
        return found

    # ------------------------------------------------------------------ the offers

    def _answers(self, start: int, step: int, answer_events: tuple[int, ...]) -> list[int]:
        """Indices of the answering events next to ``start`` (after it: ``step`` 1; before
        it: -1), as long as they are of ``answer_events``."""
        found = []
        index = start + step
        while 0 <= index < len(self.events) and self.events[index][0] in answer_events:
            found.append(index)
            index += step
        return found if step == 1 else found[::-1]

    def _judge(self, offer: int, offerer: int, tile: int, entitled: dict, answers, limit: int):
        """Compare the answers to an offer with the entitled seats: wins by others, passes
        by others, entitled seats left unasked; book the 过胡 locks of entitled passes."""
        won, passed = [], []
        for index in answers:
            event, seat, _, _ = self.events[index]
            (passed if event == S.EVENT_PASS_WIN else won).append((index, seat))
        what = f"{W._name(tile)} offered by seat {offerer} at event {offer}"
        for index, seat in won:
            if seat not in entitled:
                self._flag(index, "forbidden_win", f"seat {seat} may not win on {what}")
        if len(won) > limit:
            self._flag(won[limit][0], "forbidden_win", f"more than {limit} winner(s) on {what}")
        for index, seat in passed:
            if seat not in entitled:
                self._flag(index, "pass_not_entitled", f"seat {seat} could not win on {what}")
            elif self.options.guo_hu_limit:
                scope = range(27) if self.options.guo_hu_scope == "any_tile" else (tile,)
                self.seats[seat].passed.update(scope)
        answered = {seat for _, seat in won + passed}
        first_winner = won[0][1] if won else None
        for offset in range(1, self.players):
            seat = (offerer + offset) % self.players
            if seat in entitled and seat not in answered:
                self._flag(offer, "unanswered", f"seat {seat} was entitled to win on {what}")
            if limit == 1 and seat == first_winner:
                break  # without 一炮多响 nobody after the first winner is asked

    # ------------------------------------------------------------------ the events

    def run(self) -> list[Finding]:
        for index, (event, seat, tile, detail) in enumerate(self.events):
            if event == S.EVENT_DRAW:
                self._draw(seat, tile)
            elif event == S.EVENT_DISCARD:
                self._discard(index, seat, tile)
            elif event == S.EVENT_PONG:
                self._pong(seat, tile, detail)
            elif event == S.EVENT_KONG:
                self._kong(index, seat, tile, detail)
            elif event == S.EVENT_ROBBED:
                self._robbed(index, seat, tile, detail)
            elif event == S.EVENT_DECLARE:
                self._declare(seat, tile, detail)
            elif event == S.EVENT_WIN:
                self._win(index, seat, tile, detail)
        return self.findings

    def _draw(self, seat: int, tile: int) -> None:
        if self.replacement_due:
            self.tail -= 1
            drawn = self.wall[self.tail]
        else:
            drawn = self.wall[self.head]
            self.head += 1
        self.replacement_due = False
        if drawn != tile:
            self._flag(len(self.events), "wall", f"seat {seat} drew {tile}, the wall holds {drawn}")
        books = self.seats[seat]
        books.hand[tile] += 1
        books.drawn_this_turn.add(tile)
        books.changed()

    def _discard(self, index: int, seat: int, tile: int) -> None:
        books = self.seats[seat]
        books.hand[tile] -= 1
        self.n_discards += 1
        self.last_discarder = seat
        self.discards.append(W.Discard(seat, W._name(tile)))
        self.hot_discard = books.kong_since_discard
        entitled = self.discard_entitled(seat, tile)
        answers = self._answers(index, 1, (S.EVENT_PASS_WIN, S.EVENT_WIN))
        answers = [i for i in answers if self.events[i][0] == S.EVENT_PASS_WIN or
                   self.events[i][3] == HOW_DISCARD]  # fmt: skip
        limit = 4 if self.options.multi_ron else 1
        self._judge(index, seat, tile, entitled, answers, limit)
        books.discarded = books.acted = True
        books.drawn_this_turn = set()
        books.kong_since_discard = False
        if any(self.events[i][0] == S.EVENT_WIN for i in answers):
            self.win_source = seat

    def _pong(self, seat: int, tile: int, source: int) -> None:
        books = self.seats[seat]
        books.hand[tile] -= 2
        books.melds.append([tile, "pong", source])
        self._claimed(seat)
        books.acted = self.melded = True
        books.changed()

    def _kong_kind(self, seat: int, tile: int, meld_type: int) -> str:
        """The dou kind of a kong just made (§wengan-kongs, immediacy)."""
        books = self.seats[seat]
        if meld_type == S.MELD_DISCARD_KONG:
            return "dian_dou"
        fresh = tile in books.drawn_this_turn
        if meld_type == S.MELD_CONCEALED_KONG:
            fresh = fresh or (tile in books.dealt_quads and not books.discarded)
            return "men_dou" if fresh else "han_bao_dou"
        return "pa_po_dou" if fresh else "han_bao_dou"

    def _kong(self, index: int, seat: int, tile: int, meld_type: int) -> None:
        books = self.seats[seat]
        if meld_type == S.MELD_ADDED_KONG:  # the passes on robbing it come just before it
            passes = self._answers(index, -1, (S.EVENT_PASS_WIN,))
            self._judge(index, seat, tile, self.rob_entitled(seat, tile), passes, 4)
        elif (
            meld_type == S.MELD_CONCEALED_KONG
        ):  # never robbed (§wengan-robbing-a-kong): nobody may pass it
            passes = self._answers(index, -1, (S.EVENT_PASS_WIN,))
            self._judge(index, seat, tile, {}, passes, 0)
        kind = self._kong_kind(seat, tile, meld_type)
        if meld_type == S.MELD_ADDED_KONG:
            books.hand[tile] -= 1
            meld = next(m for m in books.melds if m[0] == tile and m[1] == "pong")
            meld[1] = kind
        else:
            books.hand[tile] -= 3 if meld_type == S.MELD_DISCARD_KONG else 4
            source = self.last_discarder if meld_type == S.MELD_DISCARD_KONG else None
            books.melds.append([tile, kind, source])
            if meld_type == S.MELD_DISCARD_KONG:
                self._claimed(seat)
        self.replacement_due = True
        books.acted = self.melded = True
        books.kong_since_discard = True
        books.changed()

    def _robbed(self, index: int, seat: int, tile: int, konger: int) -> None:
        """The first robber's event opens the rob offer: the passes before it and the robbers
        (each ``EVENT_ROBBED``, then the wins) after it."""
        if self.events[index - 1][0] == S.EVENT_ROBBED:
            return
        self.seats[konger].hand[tile] -= 1  # the robbed fourth tile (its kong is never made)
        passes = self._answers(index, -1, (S.EVENT_PASS_WIN,))
        robbers = self._answers(index - 1, 1, (S.EVENT_ROBBED,))
        entitled = self.rob_entitled(konger, tile)
        self._judge(index, konger, tile, entitled, passes + robbers, 4)
        self.win_source = konger

    def _declare(self, seat: int, tile: int, detail: int) -> None:
        if detail == DECLARE_BAO_TING:
            self.seats[seat].bao_ting = True
        elif detail == DECLARE_QUE:
            self.seats[seat].que_suit = "mps"[tile // 9]

    def _win(self, index: int, seat: int, tile: int, how: int) -> None:
        """Book a winner; a self-draw (杠开 too) must be a winning hand keeping 定缺 (a 天胡:
        the dealer's 14 with any tile standing for the winning one)."""
        self.winners.append(seat)
        self.win_how = how
        if how in (HOW_SELF_DRAW, HOW_KONG_BLOOM) and not self._self_draw_wins(seat, tile):
            self._flag(index, "forbidden_win", f"seat {seat}'s self-draw is no winning hand")
        self._book_win(seat, tile, how)

    def _self_draw_wins(self, seat: int, tile: int) -> bool:
        books = self.seats[seat]
        choices = [tile] if tile >= 0 else [kind for kind in books.hand if books.hand[kind] > 0]
        for choice in choices:
            books.hand[choice] -= 1
            name = self._winning(seat, choice)
            books.hand[choice] += 1
            if name is not None:
                return True
        return False

    def _claimed(self, seat: int) -> None:
        """The last discard was ponged or konged by ``seat``."""
        last = self.discards[-1]
        self.discards[-1] = W.Discard(last.seat, last.tile, claimed_by=seat)

    def _book_win(self, seat: int, tile: int, how: int) -> None:
        """The win as the reference describes it; the winning tile leaves the winner's
        concealed tiles and the discards (a 天胡 is counted on the lowest kind of the dealt 14,
        as the engine counts it)."""
        books = self.seats[seat]
        if how == HOW_DISCARD:
            if not self.wins:
                self.discards.pop()
            name = "discard"
            earthly = self._earthly(seat)
        elif how == HOW_ROB_KONG:
            name, earthly = "rob_kong", False
        else:
            name = "self_draw"
            earthly = seat != self.dealer and not self.melded and not books.acted
        heavenly = tile < 0
        if heavenly:
            tile = min(kind for kind, n in books.hand.items() if n > 0)
        if how not in (HOW_DISCARD, HOW_ROB_KONG):
            books.hand[tile] -= 1
        source = self.win_source if how in (HOW_DISCARD, HOW_ROB_KONG) else None
        if how == HOW_DISCARD:
            source = self.last_discarder
        win = W.Win(seat, W._name(tile), name, source, how == HOW_KONG_BLOOM, heavenly, earthly)
        self.wins.append(win)

    def hand_end(self) -> W.HandEnd:
        """The finished hand as the reference settles it (after ``run``): every seat's tiles,
        melds, 报听 and 定缺, the wins, the discards with their claimers, the undrawn wall."""
        seats = tuple(
            dataclasses.replace(books.reference_seat(), dealt_lacking_a_suit=lacking)
            for books, lacking in zip(self.seats, self.lacking, strict=True)
        )
        wall = " ".join(W._name(kind) for kind in self.wall[self.head : self.tail])
        hot = bool(self.wins) and self.wins[0].how == "discard" and self.hot_discard
        return W.HandEnd(
            seats, tuple(self.wins), self.dealer, self.streak, wall, tuple(self.discards), hot,
            self.options,
        )  # fmt: skip

    # ------------------------------------------------------------------ the end

    def check_end(self, record, base_stake: int) -> list[Finding]:
        """The next dealer and 连庄 count (§wengan-next-dealer, §wengan-dealer-bonus), and the
        dealer bonus items."""
        end = len(self.events)
        dealer, streak = self.next_deal()
        if int(record[R_NEXT_DEALER]) != dealer:
            self._flag(end, "next_dealer", f"next dealer {record[R_NEXT_DEALER]}, not {dealer}")
        if int(record[RW_NEXT_STREAK]) != streak:
            self._flag(
                end, "next_streak", f"next 连庄 count {record[RW_NEXT_STREAK]}, not {streak}"
            )
        items = Counter()
        bonus_items = Counter()
        for event, payer, payee, amount in self.events:
            if EVENT_ITEM <= event < EVENT_ITEM + len(ITEM_IDS):
                kind = ITEM_IDS[event - EVENT_ITEM]
                target = bonus_items if kind == "dealer_bonus" else items
                target[(kind, payer, payee)] += amount
        expected = Counter()
        bonus = {"none": 0, "lian_zhuang": self.streak, "yi_kou_er": 1}[
            self.options.dealer_bonus_mode
        ]
        for kind, payer, payee in items:
            paid_on = kind == "pattern" or kind == "cha_jiao"
            if paid_on and self.dealer in (payer, payee) and bonus:
                expected[("dealer_bonus", payer, payee)] += bonus * base_stake
        if expected != bonus_items:
            self._flag(end, "dealer_bonus", f"dealer bonus items {dict(bonus_items)}, "
                       f"expected {dict(expected)}")  # fmt: skip
        return self.findings

    def next_deal(self) -> tuple[int, int]:
        """(next dealer, his 连庄 count), through the reference's ``next_deal``."""
        how = {HOW_DISCARD: "discard", HOW_ROB_KONG: "rob_kong"}.get(self.win_how, "self_draw")
        source = self.win_source if how != "self_draw" else None
        wins = tuple(W.Win(seat, "1m", how, source) for seat in self.winners)
        seats = tuple(W.Seat() for _ in range(self.players))
        end = W.HandEnd(seats, wins, self.dealer, self.streak, options=self.options)
        return W.next_deal(end)


def referee_hand(events, wall, options, dealer: int, streak: int, record) -> list[Finding]:
    """Every finding of the referee on one played hand (empty: the hand keeps the rules of
    who may win, the dealer and the 连庄 bonus)."""
    referee = Referee(events, wall, options, dealer, streak)
    referee.run()
    return referee.check_end(record, options.base_stake)
