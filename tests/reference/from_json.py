"""One replayed hand's JSON Lines (``mjsim replay --format json``, docs/engine.md "Replay") as
the slow reference settlements take it: Weng'an's ``HandEnd`` (``reference.wengan``), Anqing's
``HandEnd`` (``reference.anqing``) and Anhua's hands and ``settle`` arguments
(``reference.anhua``).

Only the JSON objects are read: the header (options, dealer, 连庄 count, the whole wall), the
events, every seat's ``final_hand``, the ``winner`` objects and the ``result``; no games table,
no kernel. What the engine's settlement is given beside the tiles is followed from the events
here, as the rules define it, not taken from the engine's words: the undrawn wall (the wall
less the dealt tiles, the draws from the head and the replacements from the tail), the discards
with the seats that claimed them, 报听 and 定缺, the dealt hands lacking a suit, 热炮, 地胡's and
天胡's windows, D and the kong chain. Where the JSON states the same (the winners' 名堂, the
window, the chain), ``tests/test_replay_rescore.py`` checks the two agree.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from dataclasses import dataclass

import numpy as np

from sim.core.tiles import format_tiles, kind_id, parse_hand
from sim.variants.anqing import AnqingOptions
from sim.variants.wengan import WenganOptions

from . import anhua as HA
from . import anqing as QA
from . import wengan as W


def _kinds(notation: str) -> Counter:
    """Tile kinds in hand notation, a wild (``*``) at its face."""
    if not notation:
        return Counter()
    hand = parse_hand(notation)
    counts = hand.counts.astype(np.int64) + hand.wild_faces
    return Counter({kind: int(n) for kind, n in enumerate(counts) if n})


def _written(kinds: Counter) -> str:
    return format_tiles(sorted(kinds.elements()))


def _options(cls, values: dict):
    """The options class from the header's ``options`` (lists as tuples)."""
    fields = {f.name for f in dataclasses.fields(cls)}
    given = {key: value for key, value in values.items() if key in fields}
    return cls(**{key: tuple(v) if isinstance(v, list) else v for key, v in given.items()})


def _parts(objects: list[dict]):
    header = objects[0]
    assert header["event"] == "hand" and header["schema"] == "mjsim-replay/2"
    finals = {o["seat"]: o for o in objects if o["event"] == "final_hand"}
    winners = [o for o in objects if o["event"] == "winner"]
    return header, finals, winners, objects[-1]


@dataclass
class Followed:
    """What the events tell, seat by seat (``follow``)."""

    head: int = 0  # the wall's undrawn tiles are wall[head:tail]
    tail: int = 0
    discards: list = dataclasses.field(default_factory=list)  # [seat, kind, claimed by or None]
    acted: set = dataclasses.field(default_factory=set)  # discarded, claimed or konged
    first_turn_over: set = dataclasses.field(default_factory=set)  # Anqing's first turn
    melded: bool = False  # anyone ponged or konged (Weng'an's 地胡)
    opened: bool = False  # anyone made a chi, pong or 4-tile kong (Anqing's 天胡 / 地胡)
    n_discards: int = 0
    kong_since_discard: set = dataclasses.field(default_factory=set)
    hot_discard: bool = False  # the last discard was its discarder's first after his kong
    bao_ting: set = dataclasses.field(default_factory=set)
    que_suit: dict = dataclasses.field(default_factory=dict)
    dealt: dict = dataclasses.field(default_factory=dict)  # seat -> Counter of dealt tiles
    discarded_kinds: dict = dataclasses.field(default_factory=dict)  # seat -> set of kinds
    chain: dict = dataclasses.field(default_factory=dict)  # seat -> kongs since draw / discard
    # at the first win: the seat's state then (地胡 on a discard is judged at the discard)
    window_at_win: dict = dataclasses.field(default_factory=dict)


def follow(objects: list[dict]) -> Followed:
    """Follow the events of one hand's JSON (module docstring)."""
    header = objects[0]
    n_players = header["n_players"]
    state = Followed(head=13 * n_players + 1, tail=len(header["wall"]))
    for obj in objects[1:]:
        event, seat = obj["event"], obj["seat"]
        kind = kind_id(obj["tile"]) if obj["tile"] else -1
        if event == "deal":
            state.dealt[seat] = _kinds(obj["tiles"])
        elif event == "draw":
            if obj["source"] == "wall":
                state.head += 1
                state.chain[seat] = 0
            else:
                state.tail -= 1
        elif event == "discard":
            state.discards.append([seat, kind, None])
            state.n_discards += 1
            state.hot_discard = seat in state.kong_since_discard
            state.kong_since_discard.discard(seat)
            state.acted.add(seat)
            state.first_turn_over.add(seat)
            state.discarded_kinds.setdefault(seat, set()).add(kind)
            state.chain[seat] = 0
        elif event in ("chi", "pong"):
            if state.discards:
                state.discards[-1][2] = seat
            state.acted.add(seat)
            state.first_turn_over.add(seat)
            state.melded = True
            state.opened = True
        elif event == "kong":
            if obj["kong_type"] == "discard":
                state.discards[-1][2] = seat
            state.acted.add(seat)
            state.melded = True
            state.kong_since_discard.add(seat)
            state.chain[seat] = state.chain.get(seat, 0) + 1
            if obj["kong_type"] != "single":
                state.first_turn_over.add(seat)
                state.opened = True
        elif event == "declare":
            if obj["declaration"] == "报听":
                state.bao_ting.add(seat)
            elif obj["declaration"] == "定缺":
                state.que_suit[seat] = obj["que_suit"]
        elif event == "win" and seat not in state.window_at_win:
            state.window_at_win[seat] = {
                "acted": seat in state.acted,
                "first_turn": seat not in state.first_turn_over,
                "melded": state.melded,
                "opened": state.opened,
                "n_discards": state.n_discards,
                "chain": state.chain.get(seat, 0),
            }
    return state


# ------------------------------------------------------------------------------------ Weng'an


def _wengan_earthly(seat, win_kind, dealer, window, options, n_players) -> bool:
    """地胡 (§wengan-mingtang): a non-dealer, nobody has ponged or konged; a self-draw before his
    first discard; a discard before it, or among the first round of discards
    (``first_go_around``)."""
    if seat == dealer or window["melded"]:
        return False
    if win_kind == "self_draw":
        return not window["acted"]
    if win_kind != "discard":
        return False
    first_round = window["n_discards"] <= n_players
    return not window["acted"] or (options.di_hu_window == "first_go_around" and first_round)


def wengan_hand_end(objects: list[dict]) -> W.HandEnd:
    """The reference's ``HandEnd`` of one Weng'an hand's JSON (module docstring)."""
    header, finals, winners, result = _parts(objects)
    options = _options(WenganOptions, header["options"])
    n_players, dealer = header["n_players"], header["dealer"]
    state = follow(objects)
    wall = [kind_id(name) for name in header["wall"]]
    wins = []
    won_on = {w["seat"]: kind_id(w["tile"]) for w in winners}
    for w in winners:
        seat, win_kind = w["seat"], w["win_kind"]
        how = {"discard": "discard", "rob_kong": "rob_kong"}.get(win_kind, "self_draw")
        source = result["payer"] if how != "self_draw" else None
        window = state.window_at_win[seat]
        earthly = _wengan_earthly(seat, win_kind, dealer, window, options, n_players)
        heavenly = w["on_dealt_tiles"]
        wins.append(
            W.Win(seat, w["tile"], how, source, win_kind == "kong_bloom", heavenly, earthly)
        )
    seats = []
    for seat in range(n_players):
        final = finals[seat]
        concealed = _kinds(final["concealed"])
        if seat in won_on:
            concealed[won_on[seat]] -= 1
        melds = []
        for meld in final["melds"]:
            tile = format_tiles([kind_id_of_meld(meld)])
            if meld["meld"] == "pong":
                melds.append(W.Meld("pong", tile, meld["from_seat"]))
            else:
                source = meld["from_seat"] if meld["kong_type"] != "concealed" else None
                melds.append(W.Meld(meld["kong_kind"], tile, source))
        suits = {kind // 9 for kind in state.dealt[seat]}
        seats.append(
            W.Seat(
                concealed=_written(concealed),
                melds=tuple(melds),
                bao_ting=seat in state.bao_ting,
                dealt_lacking_a_suit=len(suits) < 3,
                que_suit=state.que_suit.get(seat),
            )
        )
    discards = list(state.discards)
    if winners and winners[0]["win_kind"] == "discard":
        discards.pop()  # the discard won on is in the winners' hands
    undrawn = " ".join(format_tiles([kind]) for kind in wall[state.head : state.tail])
    hot = bool(winners) and winners[0]["win_kind"] == "discard" and state.hot_discard
    return W.HandEnd(
        seats=tuple(seats),
        wins=tuple(wins),
        dealer=dealer,
        streak=header["streak"],
        wall=undrawn,
        discards=tuple(
            W.Discard(seat, format_tiles([kind]), claimer) for seat, kind, claimer in discards
        ),
        hot_cannon=hot,
        options=options,
    )


def kind_id_of_meld(meld: dict) -> int:
    """The kind a meld is made of (a chi's first tile)."""
    return min(_kinds(meld["tiles"]))


# ------------------------------------------------------------------------------------- Anqing

ANQING_MELD_KINDS = {
    "an_gang": "an_gang",
    "jia_gang": "jia_gang",
    "ming_gang": "ming_gang",
    "single_gang_pai": "single",
    "single_zuan": "single",
}


@dataclass(frozen=True)
class StandInChi(QA.Meld):
    """A chi in which a 红中 plays the 钻's face (§anqing-red-dragon, ``stand_in`` in the JSON): the
    sequence's identities, with a 红中 as the face's physical tile (the reference's ``Meld``
    writes a chi by its lowest tile, which would be a 钻 here)."""

    played: int = -1  # the member the 红中 plays

    @property
    def physical(self) -> tuple[int, bool]:
        first = QA.one_tile(self.tile)[0]
        return (QA.RED if self.played == first else first), False

    def physical_kinds(self) -> list[int]:
        first = QA.one_tile(self.tile)[0]
        return [QA.RED if kind == self.played else kind for kind in (first, first + 1, first + 2)]


def _anqing_meld(meld: dict) -> QA.Meld:
    if meld["meld"] == "chi" and "stand_in" in meld:
        first = format_tiles([kind_id_of_meld(meld)])
        return StandInChi("chi", first, meld["from_seat"], kind_id(meld["plays"]))
    if meld["meld"] in ("chi", "pong"):
        return QA.Meld(meld["meld"], format_tiles([kind_id_of_meld(meld)]), meld["from_seat"])
    kind = ANQING_MELD_KINDS[meld["kong_kind"]]
    if kind == "single":
        return QA.Meld("single", meld["tiles"])
    source = meld["from_seat"] if kind in QA.FED_MELDS else None
    return QA.Meld(kind, format_tiles([kind_id_of_meld(meld)]), source)


@dataclass(frozen=True)
class AnqingHand:
    """An Anqing hand from its JSON: the reference's ``HandEnd`` (None on a 荒庄), the options,
    and the 连庄累加 carries the log's ``settlement`` objects pay (from the hands before)."""

    end: QA.HandEnd | None
    options: AnqingOptions
    carries: tuple[tuple[int, int, int], ...]
    heavenly: bool
    kong_chain: int
    discarded_zuan: bool


def anqing_hand(objects: list[dict]) -> AnqingHand:
    """The reference's ``HandEnd`` of one Anqing hand's JSON (module docstring): the winner's
    concealed tiles (钻 starred) with the winning tile (a 天胡's counted tile), melds with the
    single-tile kongs, the flipped indicator, D, the kong chain, 天胡 / 地胡's window, the
    dealer, the 连庄 count and every other seat's melds (反包)."""
    header, finals, winners, _ = _parts(objects)
    options = _options(AnqingOptions, header["options"])
    carries = tuple(
        (o["payer"], o["payee"], o["amount"])
        for o in objects
        if o["event"] == "settlement" and o["item"] == "carry"
    )
    if not winners:
        return AnqingHand(None, options, carries, False, 0, False)
    (winner,) = winners
    seat = winner["seat"]
    state = follow(objects)
    indicator = next(o["tile"] for o in objects if o["event"] == "indicator")
    zuan = kind_id(next(o["tile"] for o in objects if o["event"] == "wild"))
    tile = winner["tile"] + ("*" if kind_id(winner["tile"]) == zuan else "")
    window = state.window_at_win[seat]
    heavenly = window["first_turn"] and not window["opened"]
    chain = window["chain"] if winner["win_kind"] == "kong_bloom" else 0
    discarded = zuan in state.discarded_kinds.get(seat, set())
    melds = {s: tuple(_anqing_meld(m) for m in final["melds"]) for s, final in finals.items()}
    win = QA.AnqingWin(
        concealed=finals[seat]["concealed"],
        winning_tile=tile,
        melds=melds[seat],
        indicator=indicator,
        discarded_zuan=discarded,
        kong_chain=chain,
        heavenly=heavenly,
    )
    others = {s: m for s, m in melds.items() if s != seat}
    end = QA.HandEnd(seat, win, header["dealer"], header["streak"], others)
    return AnqingHand(end, options, carries, heavenly, chain, discarded)


# -------------------------------------------------------------------------------------- Anhua


@dataclass(frozen=True)
class AnhuaHand:
    """An Anhua hand from its JSON: each winner's reference hand, the birds and the other
    ``settle`` arguments (no winner on a 荒庄)."""

    hands: tuple[tuple[int, HA.AnhuaHand], ...]
    options: dict
    n_players: int
    dealer: int
    win_kind: str | None
    payer: int | None
    birds: tuple[int, ...]
    revealed: tuple[int, ...]  # the last kong's revealed tiles (杠上花's other winning tiles)
    kings: frozenset[int]  # the kinds wild this hand (the ``wild`` events)


def anhua_hand(objects: list[dict]) -> AnhuaHand:
    """Each winner's ``AnhuaHand`` (naturals and kings by face from the starred concealed
    tiles; a king won on from another seat natural, ``discarded_king_claimable_for_win``),
    melds, win kind and winning tile (none for 起手; a win on the dealer's dealt 14 is counted
    on any of its tiles: Anhua's score does not depend on which), and the birds."""
    header, finals, winners, result = _parts(objects)
    options = HA.resolve_options(header["options"])
    hands = []
    revealed: list[int] = []
    for obj in objects:
        if obj["event"] == "kong":
            revealed = []
        elif obj["event"] == "reveal":
            revealed.append(kind_id(obj["tile"]))
    for w in winners:
        seat, win_kind = w["seat"], w["win_kind"]
        hand = parse_hand(finals[seat]["concealed"])
        naturals = [int(n) for n in hand.counts]
        kings = [int(n) for n in hand.wild_faces]
        tile = kind_id(w["tile"]) if w["tile"] else None
        claimed = win_kind in HA.CLAIMED and tile is not None and kings[tile] > 0
        if claimed:
            kings[tile] -= 1
            naturals[tile] += 1
        if tile is None and win_kind != "instant":
            tile = next(k for k in range(34) if naturals[k] + kings[k])
        melds = tuple((meld["meld"], kind_id_of_meld(meld)) for meld in finals[seat]["melds"])
        hands.append(
            (
                seat,
                HA.AnhuaHand(
                    tuple(naturals),
                    tuple(kings),
                    melds,
                    win_kind,
                    tile if win_kind != "instant" else None,
                    claimed,
                ),
            )
        )
    birds = tuple(kind_id(o["tile"]) for o in objects if o["event"] == "bird")
    return AnhuaHand(
        tuple(hands),
        options,
        header["n_players"],
        header["dealer"],
        result["win_kind"],
        result["payer"],
        birds,
        tuple(revealed),
        frozenset(kind_id(o["tile"]) for o in objects if o["event"] == "wild"),
    )
