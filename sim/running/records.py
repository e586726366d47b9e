"""Hand records -> pandas DataFrames, every column declared (:class:`sim.variants.columns.Column`).

The engine writes one int64 row per hand (slots ``sim.kernels.record.R_*``). These functions turn
a block of rows into tidy frames: the generic columns declared here, :data:`GAMES_COLUMNS` and
:data:`WINS_COLUMNS`, with the variant's own columns inserted where the variant declares them
(its ``games_columns`` / ``wins_columns``, computed by its ``games_values`` / ``wins_values``
from the same rows; :class:`sim.variants.Variant`):

* :func:`hands_frame`: one row per hand (局);
* :func:`wins_frame`: one row per winner, in game order then win order.

Each column the variant computes is checked against its declaration (name and type), so a
frame is always what the declarations say; ``docs/analysis.md`` lists them all.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from ..kernels import record as R
from ..variants.columns import Column, ordered

if TYPE_CHECKING:
    import pandas as pd

    from ..variants import Variant

NO_WIN = "none"
"""The win kind of a hand nobody won (an exhaustive draw, 荒庄)."""

GAMES_COLUMNS = (
    Column("game", "number of the hand in the run, from 0", "int64"),
    Column("session", "number of the session (room) the hand belongs to, from 0", "int64"),
    Column("hand", "number of the hand within its session, from 0", "int64"),
    Column("dealer", "the dealer's seat (庄家)", "int64", shown_as="seat"),
    Column(
        "streak",
        "hands in a row this dealer has dealt, 1 for a new dealer",
        "int64",
        shown_as="count",
    ),
    Column("outcome", "win, or draw for an exhaustive draw (荒庄)", "category", shown_as="name"),
    Column(
        "win_kind",
        "how the hand was won (the variant's names), none on a draw",
        "category",
        shown_as="name",
    ),
    Column("n_winners", "seats that won the hand", "int64", shown_as="count"),
    Column(
        "payer",
        "the discarder or konger who pays, -1 for a self-draw or a draw",
        "int64",
        shown_as="seat",
    ),
    Column(
        "turns",
        "tiles drawn from the wall in play (the deal excluded)",
        "int64",
        shown_as="count",
        unit="tiles",
    ),
    Column(
        "tiles_left",
        "tiles left in the wall at the end, after any tiles a win turns up (a variant's flips)",
        "int64",
        shown_as="count",
        unit="tiles",
    ),
    Column(
        "next_dealer", "the seat that deals the next hand of the session", "int64", shown_as="seat"
    ),
    Column(
        "dealer_complete_dealt",
        "the dealer's dealt tiles are a legal self-drawn win (a deal event)",
        "bool",
        shown_as="flag",
    ),
    Column(
        "delta_{seat}",
        "score change of seat {seat} in the hand",
        "int64",
        shown_as="points",
        unit="points",
        per_seat=True,
    ),
)
"""The games frame's generic columns, in order."""

WINS_COLUMNS = (
    Column("game", "number of the hand in the run", "int64"),
    Column("seat", "the winner's seat", "int64", shown_as="seat"),
    Column("win_kind", "how the hand was won (the variant's names)", "category", shown_as="name"),
    Column(
        "points",
        "base points of the win (the variant's scoring)",
        "int64",
        shown_as="points",
        unit="points",
    ),
    Column(
        "payer",
        "the discarder or konger who pays, -1 when every other seat pays",
        "int64",
        shown_as="seat",
    ),
    Column(
        "gain", "the winner's score change in the hand", "int64", shown_as="points", unit="points"
    ),
)
"""The wins frame's generic columns, in order."""


class Winners(NamedTuple):
    """The winners of a block of records, one entry per winner (game order, then win order):
    what a variant's ``wins_values`` computes its columns from."""

    rows: np.ndarray
    """(winners, N_RECORD) int64: the record of each winner's hand."""
    hand_rows: np.ndarray
    """Index of each winner's hand in the block."""
    seat: np.ndarray
    features: np.ndarray
    """The variant's feature bits of each win."""
    points: np.ndarray
    payer: np.ndarray


def _streaks(dealers: np.ndarray, sessions: np.ndarray) -> np.ndarray:
    """Per hand, its place (from 1) in the run of hands dealt by the same dealer in the same
    session."""
    n = len(dealers)
    starts = np.ones(n, bool)
    starts[1:] = (dealers[1:] != dealers[:-1]) | (sessions[1:] != sessions[:-1])
    run_start = np.flatnonzero(starts)
    return np.arange(1, n + 1, dtype=np.int64) - run_start[np.cumsum(starts) - 1]


def each_distinct(codes: np.ndarray, function: Callable[[int], Any]) -> tuple[list, np.ndarray]:
    """``function`` of each distinct code, once (columns of ten thousand rows hold a handful
    of codes), and each code's position among them: ``values[i]`` is ``function`` of
    ``codes[k]`` where ``inverse[k] == i``."""
    distinct, inverse = np.unique(np.asarray(codes), return_inverse=True)
    return [function(int(code)) for code in distinct], inverse.ravel()


def categorical(
    codes: np.ndarray, name_of: Callable[[int], str], categories: Sequence[str] | None = None
) -> pd.Categorical:
    """``pd.Categorical([name_of(code) for code in codes], categories)``, with ``name_of``
    called once per distinct code (columns of ten thousand rows hold a handful of names).
    Without ``categories``: the names that occur, sorted, as pandas infers them; with them, a
    name outside them is a ValueError."""
    import pandas as pd  # where frames are made (sim.running.runner: not before the first hand)

    names, inverse = each_distinct(codes, name_of)
    if categories is None:
        categories = sorted(set(names))
    position = {name: index for index, name in enumerate(categories)}
    unknown = sorted(set(names) - set(position))
    if unknown:
        raise ValueError(f"names {unknown} are not among the categories {list(categories)}")
    name_codes = np.array([position[name] for name in names], np.int64)
    return pd.Categorical.from_codes(name_codes[inverse], categories=categories)


def strings(codes: np.ndarray, name_of: Callable[[int], str]):
    """``[name_of(code) for code in codes]`` as pandas' ``str`` array, with ``name_of`` called
    once per distinct code: the distinct names taken by the codes' positions. The frame gets
    the same column as from a numpy array of the names, at a third of the cost (pandas converts
    a numpy array of strings one string at a time), paid on every chunk beside the engine."""
    import pandas as pd

    names, inverse = each_distinct(codes, name_of)
    return pd.array(names, dtype="str").take(inverse)


def win_kind_order(variant: Variant) -> list[str]:
    """The categories of ``win_kind``: the variant's win kinds in its order, then ``none``."""
    return [*variant.win_kinds.values(), NO_WIN]


def _frame(
    generic: tuple[Column, ...],
    declared: tuple[Column, ...],
    values: dict[str, Any],
    extra: dict[str, Any],
    n_players: int,
    what: str,
) -> pd.DataFrame:
    """The frame of ``values`` (generic) and ``extra`` (the variant's), in declared order, each
    variant column checked against its declaration."""
    columns = ordered(generic, declared)
    expected = [name for column in declared for name in column.names(n_players)]
    if sorted(extra) != sorted(expected):
        raise ValueError(
            f"{what} frame: the variant computes columns {sorted(extra)}, "
            f"declares {sorted(expected)}"
        )
    import pandas as pd

    every = {**values, **extra}
    frame = pd.DataFrame({name: every[name] for c in columns for name in c.names(n_players)})
    for column in declared:
        for name in column.names(n_players):
            if not column.matches(frame[name]):
                raise ValueError(
                    f"{what} frame: column {name} is {frame[name].dtype}, declared {column.dtype}"
                )
    return frame


def hands_frame(
    variant: Variant,
    records: np.ndarray,
    options: Any,
    hands_per_session: int,
    first_game: int = 0,
) -> pd.DataFrame:
    """One row per hand: :data:`GAMES_COLUMNS` and the variant's ``games_columns``.
    ``first_game`` numbers the first row."""
    import pandas as pd

    records = np.asarray(records)
    n_players = variant.player_count(options)
    n = len(records)
    game = np.arange(first_game, first_game + n)
    session = game // hands_per_session
    dealer = records[:, R.R_DEALER]
    drawn = (records[:, R.R_OUTCOME] != R.OUTCOME_WIN).astype(np.int8)
    win_kind = categorical(
        records[:, R.R_WIN_KIND],
        lambda code: variant.win_kinds.get(code, NO_WIN),
        win_kind_order(variant),
    )
    values = {
        "game": game,
        "session": session,
        "hand": game % hands_per_session,
        "dealer": dealer,
        "streak": _streaks(dealer, session),
        "outcome": pd.Categorical.from_codes(drawn, categories=["win", "draw"]),
        "win_kind": win_kind,
        "n_winners": records[:, R.R_N_WINNERS],
        "payer": records[:, R.R_PAYER],
        "turns": records[:, R.R_TURNS],
        "tiles_left": records[:, R.R_TILES_LEFT],
        "next_dealer": records[:, R.R_NEXT_DEALER],
        "dealer_complete_dealt": records[:, R.R_DEALER_COMPLETE] == 1,
        **{f"delta_{seat}": records[:, R.R_DELTA + seat] for seat in range(n_players)},
    }
    extra = variant.games_values(records, n_players, options)
    return _frame(GAMES_COLUMNS, variant.games_columns, values, extra, n_players, "games")


def winners(records: np.ndarray) -> Winners:
    """Every winner of a block of records (see :class:`Winners`)."""
    records = np.asarray(records)
    won = np.flatnonzero(records[:, R.R_OUTCOME] == R.OUTCOME_WIN)
    n_winners = records[won, R.R_N_WINNERS]
    # one row per (hand, winner index); np.repeat keeps game order, then win order
    hand_rows = np.repeat(won, n_winners)
    order = np.arange(len(hand_rows)) - np.repeat(np.cumsum(n_winners) - n_winners, n_winners)
    rows = records[hand_rows]
    every = np.arange(len(rows))
    return Winners(
        rows=rows,
        hand_rows=hand_rows,
        seat=rows[every, R.R_WINNER + order],
        features=rows[every, R.R_FEATURES + order],
        points=rows[every, R.R_POINTS + order],
        payer=rows[:, R.R_PAYER],
    )


def wins_frame(
    variant: Variant, records: np.ndarray, options: Any, first_game: int = 0
) -> pd.DataFrame:
    """One row per winner: :data:`WINS_COLUMNS` and the variant's ``wins_columns``, in game
    order then win order. ``gain`` is the winner's own score change, also when several seats
    win one discard."""
    n_players = variant.player_count(options)
    won = winners(records)
    rows = won.rows
    values = {
        "game": first_game + won.hand_rows,
        "seat": won.seat,
        "win_kind": categorical(
            rows[:, R.R_WIN_KIND], variant.win_kinds.__getitem__, win_kind_order(variant)
        ),
        "points": won.points,
        "payer": won.payer,
        "gain": rows[np.arange(len(rows)), R.R_DELTA + won.seat],
    }
    extra = variant.wins_values(won, n_players, options)
    return _frame(WINS_COLUMNS, variant.wins_columns, values, extra, n_players, "wins")


def frame_columns(variant: Variant, frame: str = "games") -> list[Column]:
    """The declared columns of ``frame`` (``games`` or ``wins``) of ``variant``, in order."""
    if frame == "games":
        return ordered(GAMES_COLUMNS, variant.games_columns)
    if frame == "wins":
        return ordered(WINS_COLUMNS, variant.wins_columns)
    raise ValueError(f"frame: {frame!r}; allowed: games, wins")
