"""The words of a replayed hand: its event log as lines of text, or as JSON objects.

The engine writes the log itself when the game state has log capacity; bulk runs have none, so a
replay plays the hand again from the same wall. Same wall, same options, same dealer, same agent
seed: the same game, move for move.

This module knows the events the engine logs (``sim.kernels.state.EVENT_*``): the deal, draws,
discards, chi and pong, kongs (a robbed one declared, then robbed), passed wins (漏胡), wins,
payments and the exhaustive draw, and every seat's final tiles, melds and status (the declared
status columns, ``sim.kernels.status``: the engine's and the variant's). What a variant's hooks
log besides (flipped tiles, wilds, revealed tiles, ...), how it names its win kinds and kong
types, and how its wins are scored and paid, it reads from the variant: the variant's
``describe`` and ``describe_json`` (``sim.variants.Variant``) put its own lines together from
the pieces here and its :class:`ReplayWords`.

The JSON form (``mjsim replay RUN --game N --format json``) is one object per line, each with
``event``, ``seat`` and ``tile`` (README notation such as ``"5s"``, or null) first: a ``hand``
header (``schema`` :data:`SCHEMA`, the whole wall as dealt), the events, every seat's
``final_hand`` (with its ``status``), the ``hand_status`` (the hand row's), the variant's lines
(its winners' patterns and readings, the settlement items with what each pays for, say) and a
``result`` (docs/engine.md, "Replay"; every object's fields: ``docs/replay.schema.json``).

Playing a hand of a run or a config again, and the header it is printed under, are
:mod:`sim.running.replay`'s: it needs the runner and the configs, which need the variants, which
need this module.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core.tiles import format_hand, format_tiles, kind_name
from ..kernels import moves as moves_module
from ..kernels import record as R
from ..kernels import state as S
from ..kernels.status import StatusColumn, laid_out

SCHEMA = "mjsim-replay/2"
"""The ``schema`` of the JSON form's ``hand`` header: the fields of every object are those of
``docs/replay.schema.json`` for this version."""

EVENT_NAMES = {
    S.EVENT_DEAL: "deal",
    S.EVENT_INDICATOR: "indicator",
    S.EVENT_WILD: "wild",
    S.EVENT_DRAW: "draw",
    S.EVENT_DISCARD: "discard",
    S.EVENT_CHI: "chi",
    S.EVENT_PONG: "pong",
    S.EVENT_KONG: "kong",
    S.EVENT_WIN: "win",
    S.EVENT_PAY: "pay",
    S.EVENT_EXHAUSTED: "draw_game",
    S.EVENT_ROBBED: "rob_kong",
    S.EVENT_PASS_WIN: "pass_win",
    S.EVENT_PASS_CLAIM: "pass_claim",
    S.EVENT_DECLARE: "declare",
}
"""The engine's event code -> the ``event`` of its JSON object (a robbed kong adds
``kong_declared``); a variant names its own events (``ReplayWords.event_names``)."""

KONG_TYPES = {
    S.MELD_CONCEALED_KONG: "concealed",
    S.MELD_ADDED_KONG: "added",
    S.MELD_DISCARD_KONG: "discard",
    S.MELD_SINGLE_KONG: "single",
}
"""Meld type -> the ``kong_type`` of a JSON kong."""


@dataclass(frozen=True)
class ReplayWords:
    """What a variant says about its hands' logs.

    ``win_kinds``: win kind (``how``) -> name, as in the games table. ``kong_names``: meld type
    -> the kong's name in text. ``event_names``: the variant's own events (numbered from
    ``sim.kernels.state.FIRST_VARIANT_EVENT``) -> the ``event`` of their JSON objects.
    ``event_text(event, seat, tile, detail)``: a line for an event the variant's hooks log, None
    to use the generic line. ``event_fields(event, seat, tile, detail, record)``: fields the
    variant adds to an event's JSON object. ``seat_status``, ``hand_status``: the variant's
    status columns (``sim.kernels.status.StatusColumn``, as in its ``Variant`` entry), shown
    after the engine's with the final position."""

    win_kinds: Mapping[int, str]
    kong_names: Mapping[int, str]
    event_names: Mapping[int, str]
    event_text: Callable[[int, int, int, int], str | None]
    event_fields: Callable[[int, int, int, int, np.ndarray], dict[str, Any]]
    seat_status: tuple[StatusColumn, ...] = ()
    hand_status: tuple[StatusColumn, ...] = ()
    declarations: Mapping[int, str] = field(default_factory=dict)
    """A declaration's code (``EVENT_DECLARE``'s detail) -> its name (报听, say)."""
    pass_win_note: str = ""
    """What a passed win (``EVENT_PASS_WIN``) means under the variant's rules, shown after its
    line, ``{tile}`` the tile passed (漏胡, say: no win on it from others until a draw)."""
    after_play_draws: frozenset[int] = frozenset()
    """The variant's events that take a tile from the wall once play has ended (a settlement's
    draws, such as tiles turned up to multiply the payments);
    with the flips (``EVENT_INDICATOR`` after a win) they separate the tiles left when play
    ended from those left after the settlement's draws (``result_object``)."""

    def status_columns(self, row: str) -> list[tuple[int, StatusColumn]]:
        """(slot, column) of every status column of ``row`` (``seat`` or ``hand``): the
        engine's, then the variant's."""
        if row == "seat":
            return laid_out(S.ENGINE_SEAT_STATUS, self.seat_status, row)
        return laid_out(S.ENGINE_HAND_STATUS, self.hand_status, row)

    def event_name(self, event: int) -> str | None:
        """The ``event`` of an event's JSON object: the engine's name or the variant's."""
        return EVENT_NAMES.get(event, self.event_names.get(event))


def tile_or_none(kind: int) -> str | None:
    """A tile in README notation, None for -1 (no tile)."""
    return kind_name(kind) if 0 <= kind < 34 else None


def _rows(events: np.ndarray):
    return (tuple(int(x) for x in row) for row in events)


class _Moves:
    """What the events so far tell a later event: the pongs made (a robbed kong onto one was an
    added kong), the last move (a robbed kong on the discard just made was a kong on a discard),
    the last discard (what a claim takes), and whether a robbed kong was shown as declared yet
    (several robbers rob one kong)."""

    # events that answer the move before them rather than make one
    ANSWERS = (S.EVENT_PASS_WIN, S.EVENT_ROBBED, S.EVENT_PASS_CLAIM)

    def __init__(self) -> None:
        self.pongs: set[tuple[int, int]] = set()
        self.last_move = (-1, -1, -1, -1)
        self.last_discard = (-1, -1)  # (seat, tile)
        self.declared = False

    def robbed_kong(self, konger: int, kind: int) -> int | None:
        """The type of the robbed kong (its EVENT_KONG is never logged) at its first robber,
        None at the others: on the discard just made by another seat, onto the konger's pong,
        else from the hand."""
        if self.declared:
            return None
        self.declared = True
        event, seat, tile, _ = self.last_move
        if event == S.EVENT_DISCARD and seat != konger and tile == kind:
            return S.MELD_DISCARD_KONG
        return S.MELD_ADDED_KONG if (konger, kind) in self.pongs else S.MELD_CONCEALED_KONG

    def after(self, event: int, seat: int, tile: int, detail: int) -> None:
        if event == S.EVENT_PONG:
            self.pongs.add((seat, tile))
        elif event == S.EVENT_DISCARD:
            self.last_discard = (seat, tile)
        if event not in self.ANSWERS:
            self.last_move = (event, seat, tile, detail)


def words_of(name: str) -> str:
    """An identifier as words in the text replay (``self_draw`` -> ``self draw``)."""
    return name.replace("_", " ")


def _engine_line(event: int, seat: int, tile: int, detail: int, moves: _Moves, words, dealt) -> str:
    """The text of an event the engine logs (a robbed kong's first robber: two lines);
    ``dealt``: each seat's dealt tiles (``dealt_tiles``), empty when the wall is not known."""
    name = tile_or_none(tile) or ""
    if event == S.EVENT_DEAL:
        tiles = f": {format_tiles(sorted(dealt[seat]))}" if seat in dealt else ""
        return f"seat {seat} is dealt {detail} tiles{tiles}"
    if event == S.EVENT_DRAW:
        tail = " (a kong's replacement, from the tail)" if detail == S.DRAW_REPLACEMENT else ""
        return f"seat {seat} draws {name}{tail}"
    if event == S.EVENT_DISCARD:
        return f"seat {seat} discards {name}"
    if event == S.EVENT_CHI:
        code, source = divmod(detail, S.MAX_SEATS)
        played = format_tiles([tile, tile + 1, tile + 2])
        return f"seat {seat} chi {played}{_stand_in_text(tile, code)} from seat {source}"
    if event == S.EVENT_PONG:
        return f"seat {seat} pong {name} from seat {detail}"
    if event == S.EVENT_KONG:
        return f"seat {seat} {words.kong_names.get(detail, 'kong')} of {name}"
    if event == S.EVENT_ROBBED:
        robs = f"seat {seat} robs the kong of {name} from seat {detail}"
        kong = moves.robbed_kong(detail, tile)
        if kong is None:
            return robs
        # the kong was declared, then robbed: it is never made
        return f"seat {detail} declares a {words.kong_names[kong]} of {name}\n{robs}"
    if event == S.EVENT_PASS_WIN:
        note = f" ({words.pass_win_note.format(tile=name)})" if words.pass_win_note else ""
        return f"seat {seat} passes a win on {name}{note}"
    if event == S.EVENT_PASS_CLAIM:
        what = "kong" if detail == moves_module.ACT_KONG else "pong"
        return f"seat {seat} passes the {what} of {name}"
    if event == S.EVENT_DECLARE:
        value = f" ({name})" if name else ""
        return f"seat {seat} declares {words.declarations.get(detail, detail)}{value}"
    if event == S.EVENT_WIN:
        on = f" on {name}" if name else ""
        return f"seat {seat} wins ({words_of(words.win_kinds[detail])}){on}"
    if event == S.EVENT_PAY:
        return f"seat {seat} pays seat {tile}: {detail}"
    if event == S.EVENT_EXHAUSTED:
        return f"wall exhausted (荒庄); seat {seat} drew the last tile"
    return f"event {event}: seat {seat}, tile {name or '-'}, detail {detail}"


def event_lines(
    events: np.ndarray, words: ReplayWords, wall: np.ndarray | None = None
) -> list[str]:
    """The events as lines of text; the variant's ``event_text`` words its own. With the
    ``wall`` as dealt, each deal lists the seat's tiles (sorted, in README notation, as the
    JSON form's ``tiles``)."""
    lines = []
    moves = _Moves()
    dealt = {} if wall is None else dealt_tiles(events, wall)
    for event, seat, tile, detail in _rows(events):
        line = words.event_text(event, seat, tile, detail)
        if line is None:
            line = _engine_line(event, seat, tile, detail, moves, words, dealt)
        lines += line.split("\n")
        moves.after(event, seat, tile, detail)
    return lines


def dealt_tiles(events: np.ndarray, wall: np.ndarray) -> dict[int, list[int]]:
    """Each seat's dealt tiles, from the wall and the deal events' counts: the engine deals the
    same number to every seat in seat order from the head of the wall, then the dealer's extra
    tiles (``sim.kernels.state.deal``)."""
    counts = {seat: detail for event, seat, _, detail in _rows(events) if event == S.EVENT_DEAL}
    if not counts:
        return {}
    hand_size = min(counts.values())
    dealt = {
        seat: [int(k) for k in wall[seat * hand_size : (seat + 1) * hand_size]] for seat in counts
    }
    extra_at = len(counts) * hand_size
    for seat, count in counts.items():
        dealt[seat] += [int(k) for k in wall[extra_at : extra_at + count - hand_size]]
        extra_at += count - hand_size
    return dealt


def _engine_fields(event: int, seat: int, tile: int, detail: int, moves: _Moves, words):
    """(the tile shown, the event's own JSON fields) for an event the engine logs."""
    if event == S.EVENT_CHI:  # the tile is the discard claimed, not the sequence's first
        code, source = divmod(detail, S.MAX_SEATS)
        sequence = format_tiles([tile, tile + 1, tile + 2])
        fields = {"from_seat": source, "sequence": sequence}
        return moves.last_discard[1], fields | _stand_in_fields(tile, code)
    if event == S.EVENT_DRAW:
        return tile, {"source": "replacement" if detail == S.DRAW_REPLACEMENT else "wall"}
    if event == S.EVENT_INDICATOR:
        return tile, {"flip": "tail" if detail == moves_module.FLIP_TAIL else "head"}
    if event == S.EVENT_PONG:
        return tile, {"from_seat": detail}
    if event == S.EVENT_KONG:
        from_seat = moves.last_discard[0] if detail == S.MELD_DISCARD_KONG else seat
        return tile, {"kong_type": KONG_TYPES.get(detail, str(detail)), "from_seat": from_seat}
    if event == S.EVENT_ROBBED:
        return tile, {"from_seat": detail}
    if event == S.EVENT_PASS_CLAIM:
        return tile, {"claim": "kong" if detail == moves_module.ACT_KONG else "pong"}
    if event == S.EVENT_DECLARE:
        return tile, {"declaration": words.declarations.get(detail, detail)}
    if event == S.EVENT_WIN:
        return tile, {"win_kind": words.win_kinds[detail]}
    if event == S.EVENT_PAY:
        return -1, {"payer": seat, "payee": tile, "amount": detail}
    if event == S.EVENT_EXHAUSTED:
        return tile, {"last_drawer": seat}
    return tile, ({} if words.event_name(event) is not None else {"detail": detail})


def event_objects(
    events: np.ndarray, wall: np.ndarray, record: np.ndarray, words: ReplayWords
) -> list[dict[str, Any]]:
    """The events as JSON-ready objects: ``event``, ``seat`` and ``tile`` (README notation, None
    when the event has none), then the event's own fields and the variant's
    (``words.event_fields``). A deal lists the seat's tiles; a draw says where it came from
    (``source``: ``wall``, the head, or ``replacement``, a kong's from the tail), a flip which
    end of the wall (``flip``: ``head`` or ``tail``); a claim and a kong name the seat they took
    from; a robbed kong is first declared (``kong_declared``); a payment names payer, payee and
    amount."""
    dealt = dealt_tiles(events, wall)
    objects = []
    moves = _Moves()
    for event, seat, tile, detail in _rows(events):
        if event == S.EVENT_DEAL:
            shown, fields = tile, {"count": detail, "tiles": format_tiles(sorted(dealt[seat]))}
        else:
            shown, fields = _engine_fields(event, seat, tile, detail, moves, words)
        if event == S.EVENT_ROBBED and (kong := moves.robbed_kong(detail, tile)) is not None:
            robbed_from = moves.last_discard[0] if kong == S.MELD_DISCARD_KONG else detail
            declared = {"kong_type": KONG_TYPES[kong], "from_seat": robbed_from}
            objects.append(json_object("kong_declared", detail, tile, declared))
        fields.update(words.event_fields(event, seat, tile, detail, record))
        name = words.event_name(event) or f"event_{event}"
        objects.append(json_object(name, seat, shown, fields))
        moves.after(event, seat, tile, detail)
    return objects


def json_object(event: str, seat: int, tile: int, fields: dict[str, Any]) -> dict[str, Any]:
    """One JSON-ready line: ``event``, ``seat`` and ``tile`` (None for none) first, then
    ``fields`` with numpy integers made plain."""
    return {"event": event, "seat": seat if seat >= 0 else None, "tile": tile_or_none(tile)} | {
        key: _plain(value) for key, value in fields.items()
    }


def _plain(value):
    """numpy integers as Python ints (JSON), inside lists and dicts too."""
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _tiles_of(counts: np.ndarray) -> str:
    return format_tiles([kind for kind in range(34) for _ in range(int(counts[kind]))]) or "-"


def _stand_in(first: int, code: int) -> tuple[int, int] | None:
    """(the stand-in's kind, the kind it plays) of a chi from ``first`` with stand-in ``code``
    (``state.stand_in_code``), or None for a chi of its own tiles."""
    if code <= 0:
        return None
    kind, offset = divmod(code - 1, 3)
    return kind, first + offset


def _stand_in_text(first: int, code: int) -> str:
    pair = _stand_in(first, code)
    return "" if pair is None else f" ({kind_name(pair[0])} as {kind_name(pair[1])})"


def _stand_in_fields(first: int, code: int) -> dict[str, str]:
    """A stand-in chi's JSON fields (none for a chi of its own tiles)."""
    pair = _stand_in(first, code)
    return {} if pair is None else {"stand_in": kind_name(pair[0]), "plays": kind_name(pair[1])}


def _meld_tiles(meld_type: int, first: int) -> list[int]:
    if meld_type == S.MELD_CHI:
        return [first, first + 1, first + 2]
    return [first] * (3 if meld_type == S.MELD_PONG else 4)


def _meld_text(meld_type: int, first: int, kong_names: Mapping[int, str], code: int = 0) -> str:
    if meld_type == S.MELD_CHI:
        return f"chi {format_tiles(_meld_tiles(meld_type, first))}{_stand_in_text(first, code)}"
    if meld_type == S.MELD_PONG:
        return f"pong {kind_name(first)}"
    return f"{kong_names.get(meld_type, 'kong').split()[0]} {kind_name(first)}"


def _melds(final: S.FinalPosition, seat: int):
    for m in range(int(final.n_melds[seat])):
        meld_type, first, from_seat, code = (int(x) for x in final.melds[seat, m])
        yield meld_type, first, from_seat, code


def status_value(column: StatusColumn, value: int) -> Any:
    """A status value as JSON shows it (``column.shown_as``): a flag true or false; a tile in
    README notation, a seat number, None for none; a set of tiles in README notation (``""``
    for none); a count or number as it is."""
    value = int(value)
    if column.shown_as == "flag":
        return value != 0
    if column.shown_as == "tile":
        return tile_or_none(value)
    if column.shown_as == "seat":
        return value if value >= 0 else None
    if column.shown_as == "tiles":
        return format_tiles([kind for kind in range(34) if value >> kind & 1])
    return value


PHRASE_FIELDS = ("value", "s", "suit", "bits")
"""The fields a column's ``phrase`` may hold (``status_phrase``): ``{value}`` the value as
JSON shows it (``status_value``); ``{s}`` a count's plural ending (empty for 1: ``{value}
single-tile kong{s}``); ``{suit}`` a number naming a suit, 1 m, 2 p, 3 s, as its letter;
``{bits}`` a number of bits, the positions of those set counted from 1 (``2``, ``1 and 3``)."""


def _bits(value: int) -> str:
    return " and ".join(str(bit + 1) for bit in range(value.bit_length()) if value >> bit & 1)


def status_phrase(column: StatusColumn, value: int) -> str:
    """A status value as the text replay words it: the column's ``phrase`` with its fields
    (:data:`PHRASE_FIELDS`) filled in, else its name's words (a flag) or its name's words and
    the value."""
    value = int(value)
    words = column.name.replace("_", " ")
    phrase = column.phrase or (words if column.shown_as == "flag" else words + " {value}")
    suit = "mps"[value - 1] if 1 <= value <= 3 else str(value)
    fields = {"s": "" if value == 1 else "s", "suit": suit, "bits": _bits(max(value, 0))}
    try:
        return phrase.format(value=status_value(column, value), **fields)
    except (KeyError, IndexError):
        raise ValueError(
            f"status column {column.name}: phrase {column.phrase!r}; its fields may be "
            f"{', '.join('{' + name + '}' for name in PHRASE_FIELDS)}"
        ) from None


def status_object(values: np.ndarray, columns: list[tuple[int, StatusColumn]]) -> dict[str, Any]:
    """Every shown column's value (not the hidden ones) of one status row, by name."""
    return {
        column.name: status_value(column, values[slot])
        for slot, column in columns
        if not column.hidden
    }


def status_phrases(values: np.ndarray, columns: list[tuple[int, StatusColumn]]) -> list[str]:
    """The phrases of one status row's values that say something (``StatusColumn.is_empty``)."""
    return [
        status_phrase(column, values[slot])
        for slot, column in columns
        if not column.is_empty(int(values[slot]))
    ]


def final_lines(final: S.FinalPosition, words: ReplayWords) -> list[str]:
    """Every seat's concealed tiles (a winner's with the winning tile), melds and the status
    values that say something, then the hand's status values (when any say something)."""
    lines = []
    seat_columns = words.status_columns("seat")
    for seat in range(final.hands.shape[0]):
        melds = [
            _meld_text(t, first, words.kong_names, code)
            for t, first, _, code in _melds(final, seat)
        ]
        shown = f"; melds {', '.join(melds)}" if melds else ""
        phrases = status_phrases(final.status[seat], seat_columns)
        shown += f"; status: {', '.join(phrases)}" if phrases else ""
        lines.append(f"seat {seat} holds {_tiles_of(final.hands[seat])}{shown}")
    phrases = status_phrases(final.hand_status, words.status_columns("hand"))
    if phrases:
        lines.append(f"hand status: {', '.join(phrases)}")
    return lines


def wild_kinds(events: np.ndarray) -> list[int]:
    """The kinds the log says are wild this hand."""
    return [tile for event, _, tile, _ in _rows(events) if event == S.EVENT_WILD]


def _meld_object(meld_type: int, first: int, from_seat: int, code: int) -> dict[str, Any]:
    kind = {S.MELD_CHI: "chi", S.MELD_PONG: "pong"}.get(meld_type, "kong")
    meld = {
        "meld": kind,
        "tiles": format_tiles(_meld_tiles(meld_type, first)),
        "from_seat": from_seat,
    } | _stand_in_fields(first, code)
    if meld_type in KONG_TYPES:
        meld["kong_type"] = KONG_TYPES[meld_type]
    return meld


def final_objects(
    final: S.FinalPosition,
    wilds: list[int],
    words: ReplayWords,
    extra_melds: Mapping[int, list[dict[str, Any]]] | None = None,
    seat_fields: Mapping[int, dict[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    """Every seat's ``final_hand``: its concealed tiles in hand notation, the copies of a wild
    kind marked ``*`` (a winner's hand holds the winning tile; winners on one discard each hold
    it), its melds (``meld``: chi, pong or kong; ``tiles``; ``from_seat``; a kong's
    ``kong_type``), then the seat's ``extra_melds`` (melds the engine keeps no meld row for, such
    as single-tile kongs), its ``status`` (every shown column, ``status_object``) and the
    variant's ``seat_fields`` (readiness and waits, say); then the ``hand_status`` line:
    the hand row's shown columns."""
    objects = []
    seat_columns = words.status_columns("seat")
    for seat in range(final.hands.shape[0]):
        counts = final.hands[seat].astype(np.int64)
        wild_faces = np.zeros(34, np.int64)
        wild_faces[wilds] = counts[wilds]
        naturals = counts - wild_faces
        concealed = format_hand(naturals, wild_faces) if counts.any() else ""
        melds = [
            _meld_object(meld_type, first, from_seat, code)
            for meld_type, first, from_seat, code in _melds(final, seat)
        ]
        melds += list((extra_melds or {}).get(seat, ()))
        status = status_object(final.status[seat], seat_columns)
        fields = {"concealed": concealed, "melds": melds, "status": status}
        fields |= (seat_fields or {}).get(seat, {})
        objects.append(json_object("final_hand", seat, -1, fields))
    hand_status = status_object(final.hand_status, words.status_columns("hand"))
    objects.append(json_object("hand_status", -1, -1, {"status": hand_status}))
    return objects


def record_winners(record: np.ndarray):
    """(seat, features, points) of each winner of a record, in record order (``R_WINNER``,
    ``R_FEATURES``, ``R_POINTS``: what the points are is the variant's)."""
    for w in range(int(record[R.R_N_WINNERS])):
        yield (
            int(record[R.R_WINNER + w]),
            int(record[R.R_FEATURES + w]),
            int(record[R.R_POINTS + w]),
        )


def winner_object(
    record: np.ndarray,
    seat: int,
    words: ReplayWords,
    fields: dict[str, Any],
    counted_tile: int | None = None,
) -> dict[str, Any]:
    """A ``winner`` of the JSON form: the seat, the winning tile (``counted_tile`` when given:
    the tile the variant counts a win on the dealt tiles on, a 天胡), the win kind, the payer
    (None: every other seat pays), then the variant's ``fields`` (its pattern, points,
    reading, ...)."""
    payer = int(record[R.R_PAYER])
    tile = int(record[R.R_WINNING_TILE]) if counted_tile is None else counted_tile
    return {
        "event": "winner",
        "seat": seat,
        "tile": tile_or_none(tile),
        "win_kind": words.win_kinds[int(record[R.R_WIN_KIND])],
        "payer": payer if payer >= 0 else None,
        **fields,
    }


def result_line(record: np.ndarray, n_players: int) -> str:
    deltas = ", ".join(f"seat {s} {int(record[R.R_DELTA + s]):+d}" for s in range(n_players))
    return f"result: {deltas}"


def tiles_drawn_after_play(events: np.ndarray, words: ReplayWords) -> int:
    """The wall's tiles taken once play ended: the flips after a win (``EVENT_INDICATOR``) and
    the variant's ``after_play_draws``."""
    taken = 0
    ended = False
    for event, _, _, _ in _rows(events):
        if event in (S.EVENT_WIN, S.EVENT_EXHAUSTED):
            ended = True
        elif ended and (event == S.EVENT_INDICATOR or event in words.after_play_draws):
            taken += 1
    return taken


def result_object(
    record: np.ndarray,
    n_players: int,
    words: ReplayWords,
    events: np.ndarray | None = None,
    counted_tile: int | None = None,
    fields: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The hand's ``result``: outcome, win kind, winners, payer (None: every other seat pays, or
    nobody), winning tile (``counted_tile`` when given, as ``winner_object``), the tiles left
    in the wall when play ended and after the settlement's own draws (flips after a win; the games
    table's ``tiles_left``), turns, next dealer, every seat's score change, then the variant's
    ``fields`` (the next 连庄 count)."""
    won = int(record[R.R_OUTCOME]) == R.OUTCOME_WIN
    n_winners = int(record[R.R_N_WINNERS])
    payer = int(record[R.R_PAYER]) if won else -1
    tile = int(record[R.R_WINNING_TILE]) if counted_tile is None else counted_tile
    after_flips = int(record[R.R_TILES_LEFT])
    taken = 0 if events is None else tiles_drawn_after_play(events, words)
    fields = {
        "outcome": "win" if won else "draw",
        "win_kind": words.win_kinds[int(record[R.R_WIN_KIND])] if won else None,
        "winners": [int(record[R.R_WINNER + w]) for w in range(n_winners)],
        "payer": payer if payer >= 0 else None,
        "winning_tile": tile_or_none(tile) if won else None,
        "tiles_left_at_end_of_play": after_flips + taken,
        "tiles_left_after_flips": after_flips,
        "turns": int(record[R.R_TURNS]),
        "next_dealer": int(record[R.R_NEXT_DEALER]),
        "score_changes": [int(record[R.R_DELTA + s]) for s in range(n_players)],
    } | (fields or {})
    return json_object("result", -1, -1, fields)


def header_fields(fields: dict[str, Any]) -> dict[str, Any]:
    """The variant's fields of the ``hand`` header (its 连庄 count, say), as the first object of
    its ``describe_json``: ``sim.running.replay`` merges them into the header it makes."""
    return json_object("hand", -1, -1, fields)


def wall_names(wall: np.ndarray) -> list[str]:
    """The wall as dealt, head first, one tile a name in README notation."""
    return [kind_name(int(kind)) for kind in wall]
