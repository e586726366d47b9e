"""Anqing positions set up exactly and played through the engine's steps (its entry points in
``sim.variants.anqing.engine``): events told to the hooks, listings asked of them, kongs made by
the engine (single-tile kongs included), wins settled by its ``finish_win``, 荒庄 by its
``settle_exhausted``. Tiles are written without stars: every tile of the 钻 kind is a 钻
(the indicator ``4p`` of the spec's examples makes ``5p`` the 钻)."""

from __future__ import annotations

import numpy as np

from sim.core.tables import load_tables
from sim.core.tiles import kind_id, parse_tiles
from sim.kernels import moves as M
from sim.kernels import state as S
from sim.kernels.record import R_DELTA, R_POINTS
from sim.variants.anqing import ITEM_NAMES, N_ANQING_RECORD, AnqingOptions
from sim.variants.anqing import engine as AE
from sim.variants.anqing import hooks as H
from sim.variants.anqing import kernels as K
from sim.variants.anqing.record_slots import RA_BAO_FACTOR, RA_ITEMS

TABLES = load_tables()
WALL = "1m 1m 1p 1p 1s 1s 2m 2m 2p 2p 2s 2s 3m 3m"  # a wall to draw from (never reached)


class Table:
    """One hand in progress: the state (the 钻 set from ``indicator``), the options' params and
    the record row; ``dealer`` deals for the ``streak``-th time in a row (连庄 k)."""

    def __init__(self, hands, indicator="4p", dealer=0, streak=0, wall=WALL, **options):
        self.options = AnqingOptions(**options)
        self.params = self.options.params()
        self.state = S.new_state(log_capacity=512)
        tiles = parse_tiles(wall)
        S.reset(self.state, np.array(tiles, np.int8), 4, dealer)
        self.state.scalars[S.DEALER_STREAK] = streak
        self.zuan = int(K.zuan_of(np.int64(kind_id(indicator))))
        S.set_wild(self.state, self.zuan)
        self.status[S.HAND_ROW, H.HAND_ZUAN] = self.zuan
        if self.zuan < kind_id("RD"):  # 红中 plays the 钻's face (the setup hook's slots)
            self.status[S.HAND_ROW, S.HAND_STAND_IN] = kind_id("RD") + 1
            self.status[S.HAND_ROW, S.HAND_STAND_IN_FACE] = self.zuan
        self.status[S.HAND_ROW, H.HAND_MELDED] = 1  # mid-hand: 天胡 / 地胡 are over
        for seat in range(4):
            self.status[seat, S.ST_ACTED] = 1
            self.status[seat, S.ST_OWN_TURN_EXTRA] = 1
        for seat, text in hands.items():
            for kind in parse_tiles(text):
                S.give_tile(self.state, seat, kind)
        self.record = np.full(N_ANQING_RECORD, -1, np.int64)

    @property
    def status(self):
        return self.state.status

    def meld(self, seat, meld_type, tile, from_seat=None, red_at=None):
        """A meld made earlier (``tile``: a chi's lowest), from ``from_seat``'s discard; a chi
        with a 红中 playing its member ``red_at`` (0-2) when given."""
        source = seat if from_seat is None else from_seat
        S.add_meld(self.state, seat, meld_type, kind_id(tile), source)
        if red_at is not None:
            index = self.state.n_melds[seat] - 1
            self.state.melds[seat, index, 3] = S.stand_in_code.py_func(red_at, kind_id("RD"))

    def tell(self, event, seat, tile=-1, detail=0):
        AE.observe(self.state, event, seat, tile, detail, self.params)

    def draw(self, seat, tile, replacement=False):
        kind = kind_id(tile)
        S.give_tile(self.state, seat, kind)
        source = S.DRAW_REPLACEMENT if replacement else S.DRAW_HEAD
        self.state.scalars[S.DRAW_SOURCE] = source
        self.tell(S.EVENT_DRAW, seat, kind, source)

    def discard(self, seat, tile):
        kind = kind_id(tile)
        S.take_tile(self.state, seat, kind)
        S.add_discard(self.state, seat, kind)
        self.tell(S.EVENT_DISCARD, seat, kind)

    def own_turn(self, seat, drawn):
        actions = np.zeros((M.MAX_ACTIONS, M.N_ACTION_FIELDS), np.int64)
        n = AE.own_turn_actions(self.state, seat, drawn, self.params, TABLES, actions)
        return actions[:n]

    def listed(self, seat, drawn, action):
        """The tiles of the rows of type ``action`` (ACT_*) of the own-turn listing."""
        rows = self.own_turn(seat, drawn)
        return [int(row[M.A_TILE]) for row in rows if row[M.A_TYPE] == action]

    def claims(self, offerer, tile):
        claims = np.zeros((S.MAX_SEATS, M.MAX_ACTIONS, M.N_ACTION_FIELDS), np.int64)
        n_claims = np.zeros(S.MAX_SEATS, np.int64)
        AE.claim_actions(
            self.state, offerer, kind_id(tile), M.HOW_DISCARD, -1, -1, self.params, TABLES,
            claims, n_claims,
        )  # fmt: skip
        return {seat: claims[seat, : n_claims[seat]] for seat in range(S.MAX_SEATS)}

    def wins(self, seat, drawn):
        """The win rows of ``seat``'s own-turn listing after it drew ``drawn`` (a kind)."""
        return [row for row in self.own_turn(seat, drawn) if row[M.A_TYPE] == M.ACT_WIN]

    def self_draw(self, seat, tile, replacement=False):
        """``seat`` draws ``tile`` and takes the win its own-turn listing offers; None when it
        lists none."""
        self.draw(seat, tile, replacement)
        rows = self.wins(seat, kind_id(tile))
        if not rows:
            return None
        row = rows[0]
        outcome = np.zeros(M.N_OUTCOME, np.int64)
        M.set_single_win.py_func(
            outcome, seat, row[M.A_FEATURES], row[M.A_DETAIL], -1, row[M.A_TILE], 1
        )
        AE.finish_win(self.state, outcome, self.params, TABLES, self.record)
        return row

    def kong(self, konger, tile, kong_type, from_seat=None):
        """The engine makes a kong (its replacement then comes with ``draw(..., True)``)."""
        outcome = np.zeros(M.N_OUTCOME, np.int64)
        self.status[konger, S.ST_ACTED] = 1
        self.status[konger, S.ST_CLAIMED] = 1
        source = konger if from_seat is None else from_seat
        return AE.make_kong(
            self.state, konger, kind_id(tile), kong_type, source, self.params, TABLES, outcome
        )

    def exhaust(self, last_drawer):
        AE.settle_exhausted(self.state, last_drawer, self.params, TABLES, self.record)

    def nets(self):
        return [int(x) for x in self.record[R_DELTA : R_DELTA + 4]]

    def total(self):
        return int(self.record[R_POINTS])

    def items(self):
        """The winner's items that scored: Chinese name -> points (屁胡 shows as 0)."""
        bits = int(self.record[8])  # R_FEATURES of the first winner
        return {
            name: int(self.record[RA_ITEMS + i])
            for i, name in enumerate(ITEM_NAMES)
            if bits >> i & 1
        }

    def bao_factors(self):
        return [int(x) for x in self.record[RA_BAO_FACTOR : RA_BAO_FACTOR + 4]]

    def events(self):
        return self.state.log[: self.state.scalars[S.LOG_COUNT]]
