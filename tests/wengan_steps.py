"""Weng'an positions set up exactly and played through the engine's steps (its entry points in
``sim.variants.wengan.engine``): discards told to the hooks, claims searched by the engine,
kongs made by it, wins settled by its ``finish_win``, 荒庄 by its ``settle_exhausted``."""

from __future__ import annotations

import numpy as np

from sim.core.tables import load_tables
from sim.core.tiles import kind_id, parse_tiles
from sim.kernels import moves as M
from sim.kernels import state as S
from sim.kernels.record import R_DELTA
from sim.variants.wengan import N_WENGAN_RECORD, WenganOptions
from sim.variants.wengan import engine as WE
from sim.variants.wengan import hooks as H

TABLES = load_tables()
JUNK = (  # 13 tiles far from ready, no 1s
    "1m 4m 7m 2p 5p 8p 3s 6s 9s 9m 6p 2s 5m",
    "2m 5m 8m 3p 6p 9p 4s 7s 1p 1m 4p 8s 6m",
)


class Table:
    """One hand in progress: the state, the options' params and the record row."""

    def __init__(self, hands, wall="", dealer=0, players=4, agents=(0, 0, 0, 0), **options):
        self.options = WenganOptions(player_count=players, **options)
        self.params = self.options.params()
        self.state = S.new_state(log_capacity=512, agents=agents)
        tiles = parse_tiles(wall) if wall else []
        S.reset(self.state, np.array(tiles or [0], np.int8), players, dealer)
        if not tiles:
            self.state.scalars[S.TAIL] = 0
        for seat, text in hands.items():
            for kind in parse_tiles(text):
                S.give_tile(self.state, seat, kind)
        for seat in range(players):  # mid-hand: every first turn is over
            self.state.status[seat, S.ST_ACTED] = 1
        self.record = np.full(N_WENGAN_RECORD, -1, np.int64)

    @property
    def status(self):
        return self.state.status

    def meld(self, seat, meld_type, tile, from_seat=None, late=False):
        """A meld made earlier (a late kong is a 憨包豆)."""
        index = self.state.n_melds[seat]
        source = seat if from_seat is None else from_seat
        S.add_meld(self.state, seat, meld_type, kind_id(tile), source)
        if late:
            self.status[seat, H.ST_LATE_KONGS] |= 1 << index
        self.status[S.HAND_ROW, H.HAND_MELDED] = 1

    def tell(self, event, seat, tile=-1, detail=0):
        WE.observe(self.state, event, seat, tile, detail, self.params)

    def draw(self, seat, tile, replacement=False):
        kind = kind_id(tile)
        S.give_tile(self.state, seat, kind)
        source = S.DRAW_REPLACEMENT if replacement else S.DRAW_HEAD
        self.state.scalars[S.DRAW_SOURCE] = source
        self.tell(S.EVENT_DRAW, seat, kind, source)

    def discard(self, seat, tile, claimed_by=None):
        """``seat`` discards ``tile`` (an earlier one claimed by ``claimed_by`` as a pong)."""
        kind = kind_id(tile)
        S.take_tile(self.state, seat, kind)
        S.add_discard(self.state, seat, kind)
        self.tell(S.EVENT_DISCARD, seat, kind)
        if claimed_by is not None:
            S.mark_claimed(self.state, claimed_by)

    def own_turn(self, seat, drawn):
        actions = np.zeros((M.MAX_ACTIONS, M.N_ACTION_FIELDS), np.int64)
        n = WE.own_turn_actions(self.state, seat, drawn, self.params, TABLES, actions)
        return actions[:n]

    def claims(self, offerer, tile, how=M.HOW_DISCARD, kong_type=-1):
        claims = np.zeros((S.MAX_SEATS, M.MAX_ACTIONS, M.N_ACTION_FIELDS), np.int64)
        n_claims = np.zeros(S.MAX_SEATS, np.int64)
        WE.claim_actions(
            self.state, offerer, kind_id(tile), how, kong_type, -1, self.params, TABLES, claims,
            n_claims,
        )  # fmt: skip
        return {seat: claims[seat, : n_claims[seat]] for seat in range(S.MAX_SEATS)}

    def win_on_discard(self, discarder, tile):
        """The engine's claim search on the discard just made; the winners take it and the win
        is settled. Returns the number of winners."""
        kind = kind_id(tile)
        outcome = np.zeros(M.N_OUTCOME, np.int64)
        most = H.max_winners.py_func(None, M.HOW_DISCARD, -1, self.params)
        n = WE.claim_winners(
            self.state, kind, discarder, M.HOW_DISCARD, -1, -1, most, self.params, TABLES, outcome
        )
        if n == 0:
            return 0
        for w in range(n):
            S.give_tile(self.state, outcome[M.O_WINNER + w], kind)
        self.state.visible[kind] -= 1
        S.mark_claimed(self.state, outcome[M.O_WINNER])
        outcome[M.O_HOW] = M.HOW_DISCARD
        outcome[M.O_PAYER] = discarder
        outcome[M.O_TILE] = kind
        outcome[M.O_FACTOR] = 1
        WE.finish_win(self.state, outcome, self.params, TABLES, self.record)
        return n

    def self_draw(self, seat, tile, replacement=False):
        """``seat`` draws ``tile`` and takes the win its own-turn listing offers."""
        self.draw(seat, tile, replacement)
        actions = self.own_turn(seat, kind_id(tile))
        rows = [row for row in actions if row[M.A_TYPE] == M.ACT_WIN]
        assert rows, "no win listed"
        row = rows[0]
        outcome = np.zeros(M.N_OUTCOME, np.int64)
        M.set_single_win.py_func(
            outcome, seat, row[M.A_FEATURES], row[M.A_DETAIL], -1, row[M.A_TILE], 1
        )
        WE.finish_win(self.state, outcome, self.params, TABLES, self.record)
        return row

    def kong(self, konger, tile, kong_type, from_seat):
        """The engine makes a kong (robbing first); the record is settled if it was robbed."""
        outcome = np.zeros(M.N_OUTCOME, np.int64)
        self.status[konger, S.ST_ACTED] = 1
        self.status[konger, S.ST_CLAIMED] = 1
        result = WE.make_kong(
            self.state, konger, kind_id(tile), kong_type, from_seat, self.params, TABLES, outcome
        )
        if result == M.KONG_HAND_OVER:
            WE.finish_win(self.state, outcome, self.params, TABLES, self.record)
        return result

    def exhaust(self, last_drawer):
        WE.settle_exhausted(self.state, last_drawer, self.params, TABLES, self.record)

    def nets(self):
        n = self.options.player_count
        return [int(x) for x in self.record[R_DELTA : R_DELTA + n]]

    def events(self):
        return self.state.log[: self.state.scalars[S.LOG_COUNT]]


def play_dealt(hands, players=4, agents=(0, 0, 0, 0), seed=0, **options):
    """One hand played whole by the engine (``WE.play_hand``, seat 0 dealing) from a wall that
    deals seat s the tiles ``hands[s]`` (the dealer's 14th last; other seats and the rest of
    the wall shuffled by ``seed``). Returns (record, events) with the log on."""
    dealt = {seat: parse_tiles(text) for seat, text in hands.items()}
    rest = [kind for kind in range(27) for _ in range(4)]
    for tiles in dealt.values():
        for kind in tiles:
            rest.remove(kind)
    rng = np.random.default_rng(seed)
    rng.shuffle(rest)
    wall = []
    for seat in range(players):
        wall += dealt.get(seat, [])[:13] or [rest.pop() for _ in range(13)]
    wall += dealt.get(0, [])[13:] or [rest.pop()]
    wall = np.array(wall + rest, np.int8)
    assert sorted(wall.tolist()) == sorted(kind for kind in range(27) for _ in range(4))
    params = WenganOptions(player_count=players, **options).params()
    state = S.new_state(log_capacity=1024, agents=agents)
    record = np.zeros(N_WENGAN_RECORD, np.int64)
    WE.play_hand(state, wall, players, 0, 0, params, TABLES, record)
    return record, state.log[: state.scalars[S.LOG_COUNT]].copy()
