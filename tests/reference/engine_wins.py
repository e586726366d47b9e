"""Play cells of Anhua options through the ledger checker and re-score every win by the reference.

Glue, not an oracle: unlike the other modules of this package it imports ``sim``, to play hands
(``sim.variants.anhua.checks.check_games``: the engine with its event log on, each hand checked
by the tile ledger and Anhua's rule checks) and to read the engine's records. Every recorded win
is then scored again by the slow reference ``reference.anhua.score`` from the winner's final
hand (concealed tiles split into naturals and kings by face, melds, win kind, winning tile) and
must give the engine's base points and exactly the engine's features; each hand's score changes
must equal ``reference.anhua.settle`` of the recorded winners, points, payer and birds.

The reference is plain Python; within a cell an identical question is asked once (keyed by
every input the reference reads, so a repeat gets the same answer), and ``memoised_reference``
caches two of its pure helpers by exactly what they read (about half of its time). ``run_cell``
reports how many wins and how many distinct scoring questions a cell had, and the CPU seconds of
play and of re-scoring.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import numpy as np

from sim.core.wall import shuffled_walls
from sim.kernels import engine as E
from sim.kernels import state as S
from sim.variants.anhua import AnhuaOptions, feature_names, kings_of
from sim.variants.anhua import checks as C
from sim.variants.anhua.record_slots import RH_BIRD, RH_N_BIRDS
from sim.variants.anhua.replay import describe

from . import anhua as R
from . import evaluator as V

HOW_NAMES = R.WIN_KINDS  # engine HOW_* index -> reference win kind (same order)
_MELD_NAMES = {S.MELD_CHI: "chi", S.MELD_PONG: "pong"}  # every other meld type is a kong
LOG_CAPACITY = C.LOG_CAPACITY
HANDS_PER_SESSION = 8


@dataclass
class CellReport:
    options: dict
    games: int = 0
    wins: int = 0  # winners (a discard won by several players counts each)
    rescored: int = 0  # winners re-scored by the reference
    distinct: int = 0  # distinct scoring questions the cell asked the reference
    by_kind: dict[str, int] = field(default_factory=dict)  # winners by win kind
    multi_winner_hands: int = 0  # hands won by several players (一炮多响)
    failed_hands: int = 0  # hands the ledger rejected
    failures: list[str] = field(default_factory=list)
    seconds_play: float = 0.0  # CPU seconds
    seconds_reference: float = 0.0


def _reference_options(options: AnhuaOptions) -> dict:
    return dict(options.__dict__)


@contextmanager
def memoised_reference() -> Iterator[None]:
    """Cache two pure helpers of the reference while the block runs (restored after).

    * ``evaluator._placements(counts, tile, allow_pair, rule)``: every group holding ``tile``
      (its pair, its triplet, the three sequences through it) lies in ``tile - 2 .. tile + 2``
      and ``_sub_multisets_with`` reads ``counts`` only at the group's tiles, so the answer is a
      function of ``counts`` in that window, ``tile``, ``allow_pair`` and ``rule``: the key. The
      evaluator's own cache is keyed by the whole hand and rarely hits across hands.
    * ``anhua._slots_of_group(kind, first, naturals)``: a function of its arguments alone.

    ``test_memoised_reference_gives_the_same_scores`` checks the answers do not change."""
    placements = V._placements
    slots_of_group = R._slots_of_group
    placed: dict[tuple, tuple] = {}
    slots: dict[tuple, tuple[int, ...]] = {}

    def windowed_placements(counts, tile, allow_pair, rule):
        key = (tuple(counts[max(0, tile - 2) : tile + 3]), tile, allow_pair, rule)
        if key not in placed:
            placed[key] = placements(counts, tile, allow_pair, rule)
        return placed[key]

    def cached_slots(kind, first, naturals):
        key = (kind, first, tuple(naturals))
        if key not in slots:
            slots[key] = tuple(slots_of_group(kind, first, naturals))
        return list(slots[key])

    V._placements = windowed_placements
    R._slots_of_group = cached_slots
    try:
        yield
    finally:
        V._placements = placements
        R._slots_of_group = slots_of_group


def reference_score(hand: R.AnhuaHand, options: dict) -> tuple[int, tuple[str, ...]] | None:
    """(points, features) of ``reference.anhua.score``, or None when it rejects the win."""
    result = R.score(hand, options)
    return None if result is None else (result.points, result.features)


def winning_hand(
    concealed, melds, how: str, winning_tile: int, x_kind: int, y_kind: int
) -> R.AnhuaHand:
    """The reference's view of a winner: ``concealed`` (34 counts with the winning tile, kings
    at their face), ``melds`` ((engine meld type, first tile) pairs)."""
    naturals = [int(c) for c in concealed]
    kings = [0] * 34
    for kind in (x_kind, y_kind):
        if kind >= 0:
            kings[kind] = naturals[kind]
            naturals[kind] = 0
    named = tuple(sorted((_MELD_NAMES.get(int(t), "kong"), int(first)) for t, first in melds))
    tile: int | None = None if how == "instant" else int(winning_tile)
    if tile == -1:  # the dealer complete on his dealt tiles: no drawn tile; any held tile
        tile = next(k for k in range(34) if naturals[k] + kings[k])
    # a king won on from another player is a natural tile of its face (§anhua-discarded-kings)
    claimed_king = how in R.CLAIMED and tile in (x_kind, y_kind)
    if claimed_king:
        kings[tile] -= 1
        naturals[tile] += 1
    return R.AnhuaHand(tuple(naturals), tuple(kings), named, how, tile, claimed_king)


# the common win kinds, of which ``verify_wins`` may re-score a share (the rest always)
COMMON_KINDS = ("self_draw", "discard")


def verify_wins(
    records, win_hands, win_melds, options: AnhuaOptions, rescore_every: int = 1
) -> tuple[int, int, list]:
    """Re-score the wins of ``records`` (``check_anhua_hands`` outputs) by the reference and
    re-settle every won hand. ``rescore_every`` > 1 re-scores only every such won hand of a
    common kind (``COMMON_KINDS``, a single winner), counted from the first; every win of
    another kind and of several winners is re-scored. Returns (winners re-scored, distinct
    scoring questions, failures)."""
    opts = _reference_options(options)
    n_players = options.player_count
    doubled_blooms = options.kong_multi_tile_win == "double"
    wins = 0
    scored: dict[R.AnhuaHand, tuple[int, tuple[str, ...]] | None] = {}  # the options are fixed
    settled: dict[tuple, tuple[int, ...]] = {}
    failures = []
    rows = records.tolist()
    common = 0
    for index in np.flatnonzero(records[:, E.R_OUTCOME] == E.OUTCOME_WIN).tolist():
        row = rows[index]
        how = HOW_NAMES[row[E.R_WIN_KIND]]
        x_kind, y_kind = kings_of(row[E.R_INDICATOR], options.king_mode)
        n_winners = row[E.R_N_WINNERS]
        rescored = n_winners
        if how in COMMON_KINDS and n_winners == 1:
            common += 1
            if (common - 1) % rescore_every:
                rescored = 0
        for w in range(rescored):
            wins += 1
            melds = [(t, f) for t, f in win_melds[index, w].tolist() if t >= 0]
            hand = winning_hand(
                win_hands[index, w], melds, how, row[E.R_WINNING_TILE], x_kind, y_kind
            )
            if hand not in scored:
                scored[hand] = reference_score(hand, opts)
            expected = scored[hand]
            features = row[E.R_FEATURES + w]
            points = row[E.R_POINTS + w]
            if doubled_blooms and how == "kong_bloom" and expected and points == 2 * expected[0]:
                # ``double``: the reference scores one bloom; whether several revealed tiles
                # won (the factor 2) is checked by the ledger (checks._best_bloom)
                points = expected[0]
            got = (points, feature_names(features))
            if expected != got:
                failures.append(
                    f"game {index} winner {row[E.R_WINNER + w]} ({how}): engine {got}, "
                    f"reference {expected}, hand {hand}"
                )
        winners = tuple((row[E.R_WINNER + w], row[E.R_POINTS + w]) for w in range(n_winners))
        payer = None if row[E.R_PAYER] < 0 else row[E.R_PAYER]
        birds = tuple(row[RH_BIRD : RH_BIRD + row[RH_N_BIRDS]])
        key = (row[E.R_DEALER], winners, how, payer, birds)
        if key not in settled:
            settled[key] = tuple(
                R.settle(n_players, row[E.R_DEALER], list(winners), how, payer, birds, opts)
            )
        if settled[key] != tuple(row[E.R_DELTA : E.R_DELTA + n_players]):
            failures.append(f"game {index}: deltas {row[E.R_DELTA : E.R_DELTA + n_players]}")
    return wins, len(scored), failures


def explain_first_failure(played: C.CheckedGames, n_players: int) -> str:
    """The ledger's verdict on the first rejected hand and its events up to the violation
    (``sim.variants.anhua.replay.describe``)."""
    index = played.failure_index
    code, at = (int(v) for v in played.errors[index])
    events = played.failure_events
    lines = describe(events[: at + 1], played.records[index], n_players)
    return (
        f"game {index}: {C.ERROR_NAMES[code]} (code {code}) at event {at} of {len(events)}:"
        + "\n  "
        + "\n  ".join(lines)
    )


def play_checked(
    options: AnhuaOptions, n_games: int, seed: int, agents: tuple[int, ...] = (0, 0, 0, 0)
) -> C.CheckedGames:
    """Play ``n_games`` hands on walls of ``seed`` through ``checks.check_games`` (sessions of
    ``HANDS_PER_SESSION`` hands, seat 0 dealing first) with the agent kinds ``agents`` per seat
    (random agents seeded from ``seed``)."""
    walls = shuffled_walls(n_games, 108, seed)
    n_sessions = -(-n_games // HANDS_PER_SESSION)
    first_dealers = np.zeros(n_sessions, np.int64)
    return C.check_games(options, walls, first_dealers, HANDS_PER_SESSION, agents, seed % 2**32)


def run_cell(
    options: dict,
    n_games: int,
    seed: int,
    agents: tuple[int, ...] = (0, 0, 0, 0),
    max_failures: int = 3,
    rescore_every: int = 1,
) -> CellReport:
    """Play and check ``n_games`` hands of one option cell; re-score its wins (every one, or as
    ``verify_wins`` with ``rescore_every``) and re-settle every won hand."""
    anhua_options = AnhuaOptions(**options)
    report = CellReport(options=options, games=n_games)
    start = time.process_time()
    played = play_checked(anhua_options, n_games, seed, agents)
    report.seconds_play = time.process_time() - start
    records = played.records
    report.failed_hands = int((played.errors[:, 0] != C.OK).sum())
    if report.failed_hands:
        explained = explain_first_failure(played, anhua_options.player_count)
        report.failures.append(f"seed {seed} agents {agents}, {explained}")
    start = time.process_time()
    with memoised_reference():
        report.rescored, report.distinct, failures = verify_wins(
            records, played.win_hands, played.win_melds, anhua_options, rescore_every
        )
    report.seconds_reference = time.process_time() - start
    report.failures += failures[:max_failures]
    won = records[records[:, E.R_OUTCOME] == E.OUTCOME_WIN]
    kinds = np.bincount(won[:, E.R_WIN_KIND], weights=won[:, E.R_N_WINNERS], minlength=6)
    report.by_kind = {HOW_NAMES[k]: int(kinds[k]) for k in range(6)}
    report.multi_winner_hands = int((records[:, E.R_N_WINNERS] > 1).sum())
    report.wins = int(won[:, E.R_N_WINNERS].sum())
    return report
