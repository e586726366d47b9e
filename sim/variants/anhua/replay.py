"""Anhua Seven Kings 安化七王麻将 in a replay: its own events, pattern names and payments.

The generic replay (``sim.variants.replay``) words the engine's events; this module words those
Anhua's hooks log (the flipped indicator, the kings 王 X and Y, the tiles an open kong 开杠 reveals,
the birds 抓鸟) and names its win kinds, its kongs (暗杠, 明杠, 直杠: ``kong_kind`` on each ``kong``
and ``kong_declared`` and on each kong meld) and its patterns. For the JSON form it adds each
``winner`` (pattern, tier, points, the reading scored: ``reading.py``) and every ``settlement``
item, each bird's doubling an item of its own with the bird's tile. Anhua keeps no 连庄 count:
the header's ``streak`` and the result's ``next_streak`` are null.

The log's payment rows (``EVENT_PAY``: payer, payee, amount) give each payment whole. Its parts
(the base points P, the doubling by birds, the dealer bonus 庄闲分) are derived here from the record
(winners, points, payer, birds, dealer) with the rule of ``scoring.settle``;
``tests/test_replay.py`` checks that the parts add up to each logged payment.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import Any

import numpy as np

from ...core.tables import load_tables
from ...core.tiles import kind_name
from ...kernels import record as R
from ...kernels import state as S
from ..replay import (
    KONG_TYPES,
    ReplayWords,
    event_lines,
    event_objects,
    final_lines,
    final_objects,
    header_fields,
    record_winners,
    result_line,
    result_object,
    tile_or_none,
    wild_kinds,
    winner_object,
)
from . import (
    HOW,
    AnhuaOptions,
    feature_names,
    pattern_name,
    points,
    replay_hand,
    scoring,  # loaded by the package, in its cache folder
    tier_name,
)
from .hooks import EVENT_BIRD, EVENT_REVEAL, HAND_STATUS, HAND_X_KIND, HAND_Y_KIND, SEAT_STATUS
from .reading import winning_reading
from .record_slots import RH_BIRD, RH_N_BIRDS

WIN_KINDS = {how: name for name, how in HOW.items()}
"""Win kind (``how``) -> name, as in the games table's ``win_kind``."""

KONG_NAMES = {
    S.MELD_CONCEALED_KONG: "暗杠 concealed kong",
    S.MELD_ADDED_KONG: "明杠 added kong",
    S.MELD_DISCARD_KONG: "直杠 kong on a discard",
}
KONG_KINDS = {
    S.MELD_CONCEALED_KONG: "an_gang",
    S.MELD_ADDED_KONG: "ming_gang",
    S.MELD_DISCARD_KONG: "zhi_gang",
}
"""A kong's ``kong_kind`` by its meld type: 暗杠, 明杠 (onto one's pong), 直杠 (on a discard)."""
KIND_OF_TYPE = {KONG_TYPES[meld_type]: kind for meld_type, kind in KONG_KINDS.items()}


def _event_text(event: int, seat: int, tile: int, detail: int, indicator: int = -1) -> str | None:
    """A line for the events Anhua's hooks log (the payments have the generic line);
    ``indicator``: the flipped kind, which tells king X (its kind) from king Y (the next rank)."""
    if event == S.EVENT_INDICATOR:
        return f"indicator flipped: {kind_name(tile)} (out of play)"
    if event == S.EVENT_WILD:
        which = "X, the indicator's kind" if tile == indicator else "Y, the next rank"
        return f"king 王 {which}: {kind_name(tile)}"
    if event == EVENT_REVEAL:
        return f"  revealed by the kong: {kind_name(tile)}"
    if event == EVENT_BIRD:
        return f"bird {kind_name(tile)} lands on seat {seat}"
    return None


def _event_fields(event: int, seat: int, tile: int, detail: int, record) -> dict[str, Any]:
    """Anhua's words in the JSON events: which king a wild is (X, the flipped kind; Y, the next
    rank), the bird's rank, the kong's Chinese name."""
    if event == S.EVENT_WILD:
        return {"king": "X" if tile == int(record[R.R_INDICATOR]) else "Y"}
    if event == EVENT_BIRD:
        return {"rank": tile % 9 + 1, "lands_on_first_winner_seat": seat}
    if event == S.EVENT_KONG:
        return {"kong_name": KONG_NAMES[detail].split()[0], "kong_kind": KONG_KINDS[detail]}
    return {}


WORDS = ReplayWords(
    win_kinds=WIN_KINDS,
    kong_names=KONG_NAMES,
    event_names={EVENT_REVEAL: "reveal", EVENT_BIRD: "bird"},
    event_text=_event_text,
    event_fields=_event_fields,
    seat_status=SEAT_STATUS,
    hand_status=HAND_STATUS,
    pass_win_note="漏胡: it may not win on {tile} from another player until it draws",
    after_play_draws=frozenset({EVENT_BIRD}),
)


def replay_walls(
    walls: np.ndarray,
    game: int,
    options: AnhuaOptions | None = None,
    hands_per_session: int = 8,
    first_dealer: int = 0,
    agent_kinds: tuple[int, ...] | None = None,
    agent_seed: int = 0,
) -> tuple[np.ndarray, np.ndarray, S.FinalPosition]:
    """Play hand ``game`` of ``walls`` (int8 (n, 108)) again with the log on, the hands before it
    in its session first (to find its dealer). Returns its record, events (int64 (n, 4): event,
    seat, tile, detail) and every seat's final tiles."""
    options = options or AnhuaOptions()
    if not 0 <= game < len(walls):
        raise ValueError(f"game must be 0-{len(walls) - 1}, not {game}")
    session_start = game - game % hands_per_session
    return replay_hand(
        options,
        walls[session_start : game + 1],
        np.array([first_dealer], np.int64),
        hands_per_session,
        agent_kinds or (0,) * options.player_count,
        agent_seed,
        game - session_start,
    )


def describe(
    events: np.ndarray,
    record: np.ndarray,
    n_players: int,
    final: S.FinalPosition | None = None,
    wall: np.ndarray | None = None,
) -> list[str]:
    """The events as lines of text (each deal with its tiles when the ``wall`` is given), then
    every seat's final tiles and status (when ``final`` is given) and the hand's, each winner's
    pattern and base points P (what each payer pays before birds and 庄闲分), and every seat's
    score change."""
    indicator = int(record[R.R_INDICATOR])
    words = replace(WORDS, event_text=partial(_event_text, indicator=indicator))
    lines = event_lines(events, words, wall)
    if final is not None:
        lines += final_lines(final, WORDS)
    for seat, features, base in record_winners(record):
        lines.append(f"seat {seat}: {pattern_name(features)}, base points {base} (P)")
    lines.append(result_line(record, n_players))
    return lines


def winner_objects(
    record: np.ndarray,
    options: AnhuaOptions | None = None,
    final: S.FinalPosition | None = None,
) -> list[dict[str, Any]]:
    """Each ``winner``: win tile and kind, pattern, tier, features, the pattern's base points,
    the points paid on (twice them for a double kong bloom) and ``on_dealt_tiles`` (起手 or the
    dealer's win on his dealt 14: no tile drawn, and Anhua counts none, ``tile`` null); with
    ``options`` and ``final`` too the ``reading`` the scorer scored (``reading.winning_reading``:
    form and groups, each king's identity; null for 起手四王/七王)."""
    objects = []
    for seat, features, paid_points in record_winners(record):
        pattern_points = points(features)
        fields = {
            "pattern": pattern_name(features),
            "tier": tier_name(features),
            "features": list(feature_names(features)),
            "pattern_points": pattern_points,
            "factor": paid_points // pattern_points,
            "points": paid_points,
            "on_dealt_tiles": int(record[R.R_WINNING_TILE]) < 0,
        }
        if options is not None and final is not None:
            fields["reading"] = _reading(final, seat, features, record, options)
        objects.append(winner_object(record, seat, WORDS, fields))
    return objects


def _reading(
    final: S.FinalPosition, seat: int, features: int, record: np.ndarray, options: AnhuaOptions
) -> dict[str, Any] | None:
    """The reading ``scoring.best_win`` scored for ``seat``'s win, given what the ``win`` hook
    gives it; its features must be the record's."""
    how = int(record[R.R_WIN_KIND])
    n_melds = int(final.n_melds[seat])
    reading = winning_reading(
        final.hands[seat],
        final.melds[seat, :n_melds, :2],
        n_melds,
        int(final.hand_status[HAND_X_KIND]),
        int(final.hand_status[HAND_Y_KIND]),
        how,
        int(record[R.R_WINNING_TILE]),
        options.params(),
        load_tables(),
    )
    if reading is None:
        return None
    found = reading.pop("features")
    if found != features:
        raise RuntimeError(f"the reading scores features {found}, the engine {features}")
    return reading


def settlement_items(options: AnhuaOptions, record: np.ndarray) -> list[dict[str, Any]]:
    """Every payment of the hand in its parts (as ``scoring.settle`` pays): ``base`` (the
    winner's points P), ``dealer_bonus`` (庄闲分: 1 when the dealer pays or is paid) and one
    ``bird`` item per bird that lands on the winner or on this payer (``tile``: the bird;
    ``lands_on``: ``winner`` or ``payer``): the k-th such bird doubles what the payment is so
    far, adding P x 2^(k-1), or (P + 1) x 2^(k-1) when the bonus comes before the birds and is
    doubled with P. ``payment`` numbers the payments in the order of the log's ``pay`` events;
    a payment's items add up to its amount."""
    n_players = options.player_count
    dealer = int(record[R.R_DEALER])
    payer = int(record[R.R_PAYER])
    birds = [int(b) for b in record[RH_BIRD : RH_BIRD + int(record[RH_N_BIRDS])]]
    before_birds = options.dealer_bonus_timing == "before_birds"
    items = []
    payment = 0
    for winner, _, base in record_winners(record):
        landed = [int(scoring.bird_seat(bird, winner, n_players)) for bird in birds]
        for seat in range(n_players):
            if seat == winner or (payer >= 0 and seat != payer):
                continue
            charged = payer if payer >= 0 else seat
            hits = [
                (bird, "winner" if at == winner else "payer")
                for bird, at in zip(birds, landed, strict=True)
                if at in (winner, charged)
            ]
            bonus = options.dealer_bonus and dealer in (seat, winner)
            # in the order the kernel adds them: the bonus before or after the doubling
            bonus_part = ("dealer_bonus", -1, 1, {"timing": options.dealer_bonus_timing})
            parts = [("base", -1, base, {})]
            if bonus and before_birds:
                parts.append(bonus_part)
            doubled = base + (1 if bonus and before_birds else 0)
            for k, (bird, lands_on) in enumerate(hits):
                parts.append(("bird", bird, doubled << k, {"lands_on": lands_on}))
            if bonus and not before_birds:
                parts.append(bonus_part)
            for item, tile, amount, fields in parts:
                items.append(
                    {
                        "event": "settlement",
                        "seat": seat,
                        "tile": tile_or_none(tile),
                        "item": item,
                        "payment": payment,
                        "payer": seat,
                        "payee": winner,
                        "amount": amount,
                        **fields,
                    }
                )
            payment += 1
    return items


def describe_json(
    options: AnhuaOptions,
    wall: np.ndarray,
    record: np.ndarray,
    events: np.ndarray,
    final: S.FinalPosition,
) -> list[dict[str, Any]]:
    """The hand as JSON-ready objects: the header's 连庄 count (none: null), the events
    (``sim.variants.replay.event_objects``; each kong and robbed kong with its kind), every seat's
    ``final_hand`` (kings marked ``*``, each kong with its kind, its status), the
    ``hand_status`` (the kings X and Y), each ``winner``, every ``settlement`` item and the
    ``result``."""
    n_players = options.player_count
    objects = event_objects(events, wall, record, WORDS)
    for obj in objects:
        if obj["event"] == "kong_declared":
            kind = KIND_OF_TYPE[obj["kong_type"]]
            obj |= {"kong_name": KONG_NAMES[_TYPE_OF_KIND[kind]].split()[0], "kong_kind": kind}
    hands = final_objects(final, wild_kinds(events), WORDS)
    for obj in hands:
        for meld in obj.get("melds", ()):
            if meld["meld"] == "kong":
                meld["kong_kind"] = KIND_OF_TYPE[meld["kong_type"]]
    objects = [header_fields({"streak": None}), *objects, *hands]
    objects += winner_objects(record, options, final)
    objects += settlement_items(options, record)
    objects.append(result_object(record, n_players, WORDS, events, None, {"next_streak": None}))
    return objects


_TYPE_OF_KIND = {kind: meld_type for meld_type, kind in KONG_KINDS.items()}


__all__ = [
    "KONG_NAMES",
    "WIN_KINDS",
    "WORDS",
    "describe",
    "describe_json",
    "replay_walls",
    "settlement_items",
    "winner_objects",
]
