"""Agent policies (numba). Every decision of a seat is asked of its agent here.

The engine asks six questions, each a function that dispatches on the seat's agent kind
(``state.agents[seat]``, one of ``AGENT_*``; ``sim.running.agents`` has the names), and every answer
is one of the legal options the variant listed (``sim.kernels.moves``: ``ACT_*`` rows), so an
agent can never make an illegal move: ``choose_plan`` (at the deal, one of the plans the
variant offers, or none), ``choose_own_turn`` (a win, a kong or a variant's declaration on the
seat's own turn, or none), ``choose_discard`` (a kind the variant's mask allows),
``accepts_win`` (a listed win on another player's tile), ``accepts_kong`` (a listed kong on a
discard) and ``choose_claim`` (one of the listed pongs and chis, or none). Agents get the seat's
own arrays (hand, suit keys, wild count), the wild mask, the visible tiles and the seat's plan,
never the whole state: that is what a player knows, and it is cheap to pass.

A plan (``ACT_PLAN``) binds nothing: it is the set of kinds the seat means to be rid of, for a
variant whose hands must lack a suit, say (a plain shanten count does not see that goal, so an
agent steering by it alone keeps whichever suit happens to be closest to a set, and wins
rarely). The engine keeps the chosen kinds for the hand (``plan``, bit k: kind k; 0: none) and
passes them to the later questions.

The random agent discards, claims and kongs uniformly at random among what is legal, from
numba's generator (seeded per run by the engine's caller); it takes a self-drawn win always and
a win on another player's tile with probability 1/2. The self-draw agent plays like the
efficiency agent but passes every win on another player's tile, holding out for 自摸 (its passes
bring 漏胡 into play).

The efficiency agent (default): wins whenever allowed (of two wins on its own turn, the one the
variant pays more for), keeps wilds, discards the tile that leaves
the lowest shanten (ties: the most unseen tiles of nearby kinds that would lower it further, then
the lowest kind id, which is deterministic), claims a pong or chi only when the hand after the claim
and the best discard is no further from ready than before. Offered plans, it takes the one whose
kinds it holds fewest tiles of (the weakest suit) and then discards those kinds first, while it
holds any, the most isolated first (``shed_discard``), and never pongs, chis or kongs one.

The value agent (``value_discard``, docs/strategies.md) plays as the efficiency agent but claims
only when a claim brings its hand nearer to ready, plays for seven pairs from five pairs and for
a flush with at most one tile off suit; the cautious agent plays as the value agent, makes no
kongs, and late in the hand prefers a discard already seen when it costs no shanten
(``cautious_discard``).

What a variant pays for reaches the value and cautious agents as data: hints in the steer word
above its form bits (``STEER_*``), which the variant's hooks set (at the deal, and as the hand
goes on for ``STEER_DANGER``). With hints the value agent plays for all triplets when their
worth, weighed by their chance (``plays_for_triplets``), says so, for seven pairs and a flush
only when the variant pays for them, leads with kinds whose first discard pays, once ready keeps
the wait worth most (a shaped or all-triplets win worth more), claims as the efficiency agent
when claims pay, or near ready only to become ready when a concealed hand pays; the
cautious agent also plays safe when told an opponent looks ready, and makes the kongs a variant
lists as safe (A_VALUE 1: nobody may win on them). A variant without hints (0 above the form
bits) gets the agents described above, unchanged.
"""

from __future__ import annotations

import numpy as np

from ._jit import inline_kernel, kernel
from .agent_params import parameter_slots
from .hand import (
    FORM_SEVEN_PAIRS,
    FORM_THIRTEEN,
    KIND_POWER,
    KIND_SUIT,
    N_KINDS,
    OPTION_PAIR_258,
    OPTION_QUADS,
    SEARCH_SIZE,
    discard_search_space,
    discards_shanten,
    hand_shanten,
    shanten_after_swaps,
    shanten_many,
    useful_draws_by_splits,
)
from .moves import (
    A_DETAIL,
    A_TILE,
    A_TYPE,
    A_VALUE,
    ACT_CHI,
    ACT_DECLARE,
    ACT_KONG,
    ACT_PLAN,
    ACT_PONG,
    ACT_WIN,
)

AGENT_EFFICIENCY = 0
AGENT_RANDOM = 1
AGENT_SELF_DRAW = 2  # plays like the efficiency agent, wins only by self-draw (自摸)
AGENT_VALUE = 3  # efficiency plus pursuit of what pays: 清一色, 小七对 (value_discard)
AGENT_CAUTIOUS = 4  # value play, safe discards late in the hand (cautious_discard)
N_AGENTS = 5
VALUED_AGENTS = (AGENT_VALUE, AGENT_CAUTIOUS)
"""The agents that search for what pays (their discard and claim searches are most of the agents'
compile). A game loop is compiled with or without them by the type of its ``valued_agents``
argument (``choose_discard``): ``None`` when no seat plays one, and the loop compiled for
``None`` leaves their searches out (numba prunes a branch on ``argument is None`` by the
argument's type before typing its callees)."""

# The value and cautious agents' parameters: one float64 row per seat (``GameState.agent_params``,
# declared with their ranges and defaults in ``sim.kernels.agent_params``; docs/strategies.md
# says what each does and why its default). Integers are stored as floats: read with np.int64.
(
    P_CLAIM_GAIN,
    P_SEVEN_PAIRS_FROM,
    P_FLUSH_OFF_SUIT,
    P_WILD_MARGIN,
    P_LATE_VISIBLE,
    P_SAFE_SEEN,
    P_SHANTEN_COST,
    P_CHANCE_PER_SHANTEN,
    P_DANGER_COST,
    P_CLAIM_WORTH_FROM,
    P_CLAIM_WORTH_COST,
    P_CONCEALED_WITHIN,
    P_KEEP_CONCEALED,
) = parameter_slots(
    (
        "claim_gain",
        "seven_pairs_from",
        "flush_off_suit",
        "wild_margin",
        "late_visible",
        "safe_seen",
        "shanten_cost",
        "chance_per_shanten",
        "danger_cost",
        "claim_worth_from",
        "claim_worth_cost",
        "concealed_within",
        "keep_concealed",
    )
)

# The steer word (the hand row's ``steer_forms``, set by the variant's hooks). Its low byte holds
# the forms and options the agents' shanten counts by (``hand.FORM_*``, ``OPTION_*``); the bits
# above it are hints of what the variant pays for, read by the value and cautious agents only
# (a variant that sets none gets the value agent of docs/strategies.md unchanged):
STEER_FORM_BITS = 0xFF
"""The forms and options of the steer word (what the shanten kernels are given)."""
STEER_TRIPLETS_SHIFT = 8
"""4 bits from here: what an all-triplets hand is worth, in plain wins (0: nothing more)."""
STEER_CONCEALED = 1 << 12
"""A concealed hand (no claimed meld) pays extra: claim only what makes the hand ready (once
within ``concealed_within`` shanten of ready)."""
STEER_DANGER = 1 << 13
"""An opponent of the seat about to discard looks ready (the variant keeps the bit current)."""
STEER_CLAIMS_PAY = 1 << 14
"""Claims pay (a feeder of several melds pays the winner more): claim as the efficiency agent."""
STEER_DANGER_NEXT = 1 << 15
"""With ``STEER_DANGER``: the opponent who looks ready is the next seat, who may chi the discard
as well as pong it: only honours are safe from him (a numbered kind may complete a run)."""
STEER_PAIRS_SHIFT = 16
"""4 bits from here: what seven pairs are worth, in plain wins (0: the value agent does not play
for them; else from ``seven_pairs_from`` pairs, as without hints)."""
STEER_FLUSH_SHIFT = 20
"""4 bits from here: what a flush is worth, in plain wins (0: the value agent does not play for
it; else from ``flush_off_suit`` tiles off suit, as without hints)."""
STEER_TARGETS = 1 << 24
"""The variant says what it pays for: the value agent plays by the hints alone even when no
other hint is set (no flush or seven pairs of the parameters where the variant pays none)."""
STEER_SHAPED_SHIFT = 25
"""4 bits from here: what a win is worth, in plain wins, when its tile is the pair, the middle
or the edge (3 of 1-2-3, 7 of 7-8-9) of its set in some reading of the hand (0 or 1: nothing
more): the value agent, once ready, keeps the wait that is worth most (``shaped_wait``)."""
STEER_BIG_SHIFT = 29
"""3 bits from here: what a win is worth, in plain wins, when the hand reads as all triplets or
seven pairs (0 or 1: nothing more; a variant may also let only those win on a discard): the
value agent, once ready, keeps the wait that is worth most (``shaped_wait``)."""
STEER_LEAD_SHIFT = 32
"""Bit ``STEER_LEAD_SHIFT + k``: numbered kind k (k < 27) pays its discarder extra when it is
the first of its kind discarded in the hand and nobody claims it: lead with it."""


@inline_kernel
def _draw_candidates(hand, wild, visible, n_kinds, forms, vectors, kinds, unseen, copies):
    """The draws the efficiency agent weighs when breaking ties: their kinds, unseen copies and
    copies in the hand written to the rows ``kinds``, ``unseen`` and ``copies`` of ``vectors``
    (int64 (rows, >= n_kinds)), in the order of their kinds; returns their number.

    A kind counts when it is not wild, some copy is unseen by ``seat``, and it is held or
    within two ranks of a held tile of its suit (any kind when 十三烂 counts). A heuristic, not
    exact: while a hand still lacks a block, even a far tile lowers its shanten by starting one.
    Counting only near kinds is the usual 'effective tiles' count of players, and is three
    times cheaper to compute. The 14-tile hand decides, the same for every candidate discard.
    A suit's near ranks are its held ranks' bits spread two ranks each way.
    """
    n_candidates = 0
    everything = (forms & FORM_THIRTEEN) != 0
    for first in range(0, min(n_kinds, 27), 9):  # the numbered suits
        held = 0
        for rank in range(9):
            if hand[first + rank] > 0:
                held |= 1 << rank
        near = held | (held << 1) | (held << 2) | (held >> 1) | (held >> 2)
        if everything:
            near = 511
        for rank in range(9):
            kind = first + rank
            if ((near >> rank) & 1) != 0 and not wild[kind]:
                n_candidates = _weigh_draw(
                    hand, visible, kind, vectors, kinds, unseen, copies, n_candidates
                )
    for kind in range(27, n_kinds):  # honours: near when held
        if (everything or hand[kind] > 0) and not wild[kind]:
            n_candidates = _weigh_draw(
                hand, visible, kind, vectors, kinds, unseen, copies, n_candidates
            )
    return n_candidates


@inline_kernel
def _weigh_draw(hand, visible, kind, vectors, kinds, unseen, copies, n_candidates):
    """``_draw_candidates``' step: ``kind`` is candidate ``n_candidates`` when some copy of it
    is unseen (its unseen copies and copies held written beside it); returns the new count."""
    left = 4 - np.int64(visible[kind]) - np.int64(hand[kind])
    if left > 0:
        vectors[kinds, n_candidates] = kind
        vectors[unseen, n_candidates] = left
        vectors[copies, n_candidates] = hand[kind]
        n_candidates += 1
    return n_candidates


@inline_kernel
def _without_each_natural(keys, counts, wild, rows, labels, label, start):
    """Write into ``rows`` from row ``start`` the suit keys ``keys`` less one tile of each held
    natural kind (``counts`` > 0, not wild): the hands left by each possible discard. Each row
    is labelled in ``labels`` with ``label``, or with its kind when ``label`` is -1. Returns
    the next free row."""
    row = start
    for kind in range(N_KINDS):
        if counts[kind] == 0 or wild[kind]:
            continue
        for suit in range(4):  # a loop, not rows[row] = keys: see hand._copy_rows
            rows[row, suit] = keys[suit]
        rows[row, KIND_SUIT[kind]] -= KIND_POWER[kind]
        labels[row] = kind if label < 0 else label
        row += 1
    return row


@kernel
def efficiency_discard(hand, keys, wilds, wild, visible, n_kinds, forms, allowed, tables):
    """The discard of the efficiency agent from a hand with counts ``hand`` (wilds included),
    natural suit keys ``keys`` and ``wilds`` wilds: a held kind with ``allowed[kind]``.

    Lowest shanten after the discard; among equals, the most useful tiles left: unseen copies
    (``visible``: tiles every player sees) of the candidate draws (``_draw_candidates``) that
    would lower the shanten further; then the lowest kind id. Wilds are discarded only when
    nothing else is allowed. The shanten after each discard (``shanten_after_discards``) and
    the useful draws of each tied discard (``useful_draws``) come from one search of the hand,
    which reuses what the discards and draws share. The seat's arrays come as
    arguments, not the state: each call that passes the state tuple costs a reference count per
    array in it. A caller that asks often passes a work space of its own
    (``efficiency_discard_in``).
    """
    rows, info = discard_search_space()
    vectors = np.empty((_N_VECTORS, N_KINDS), np.int64)
    return efficiency_discard_in(
        hand, keys, wilds, wild, visible, n_kinds, forms, allowed, tables, rows, info, vectors
    )


_N_VECTORS = 8
"""Rows of the efficiency search's vectors (``efficiency_discard_in``): """
_HELD = 0  # the held natural kinds
_TIED = 1  # the discards reaching the least shanten
_VALUES = 2  # by held kind: shanten after its discard
_USEFUL = 3  # by tied discard: its useful draws, weighted
_DRAW_KINDS = 4  # the candidate draws' kinds
_DRAW_UNSEEN = 5  # and their unseen copies
_TOTALS = 6  # the number of ties, their shanten, the number of candidate draws
_DRAW_HELD = 7  # the candidate draws' copies in the hand
_TIES_IN_FULL = -2
"""``_efficiency_search``'s answer when its tied discards are to be weighed pair by pair
(``_full_tie_break``)."""


@kernel
def discard_space():
    """The work space of the discard question (``choose_discard``'s ``space``), made once per
    hand by the engine rather than per decision: the discard search's rows and info
    (``discard_search_space``) and the efficiency agent's vectors (int64 (_N_VECTORS,
    N_KINDS)); contents unset."""
    rows, info = discard_search_space()
    return rows, info, np.empty((_N_VECTORS, N_KINDS), np.int64)


@inline_kernel
def efficiency_discard_in(
    hand, keys, wilds, wild, visible, n_kinds, forms, allowed, tables, rows, info, vectors
):
    """``efficiency_discard`` in the work space ``rows``, ``info`` (``discard_search_space``)
    and ``vectors`` (int64 (_N_VECTORS, N_KINDS)), whose contents it overwrites. Inlined: a
    kernel between the caller and the search would count a reference per array again."""
    kind = _efficiency_search(
        hand, keys, wilds, wild, visible, n_kinds, forms, allowed, tables, rows, info, vectors
    )
    if kind == _TIES_IN_FULL:
        kind = _full_tie_break(keys, wilds, forms, tables, vectors)
    return kind


@kernel
def _efficiency_search(
    hand, keys, wilds, wild, visible, n_kinds, forms, allowed, tables, rows, info, vectors
):
    """``efficiency_discard``'s search, or ``_TIES_IN_FULL`` with the ties left in ``vectors``
    when several discards tie and the draws' search does not apply (十三烂 counts, or the hand's
    size is not 2 mod 3).

    It calls no kernel (its helpers are inlined), makes no array (``vectors``' rows are indexed,
    not taken as views) and reads every argument at its end, so that numba pairs up the
    reference counts of its arguments: a kernel call may raise, and the path out on an error,
    like an array released mid-way, keeps numba's pruning from pairing up the others
    (docs/engine.md, "Speed notes")."""
    n_candidates = 0  # the held natural kinds, in order
    for kind in range(N_KINDS):
        if hand[kind] > 0 and not wild[kind]:
            vectors[_HELD, n_candidates] = kind
            n_candidates += 1
    discards_shanten(keys, wilds, forms, vectors, _HELD, n_candidates, _VALUES, tables, rows, info)
    best_shanten = 1_000  # the least shanten after an allowed natural discard
    for index in range(n_candidates):
        if allowed[vectors[_HELD, index]]:
            best_shanten = min(best_shanten, vectors[_VALUES, index])
    best_kind = -1
    n_tied = 0
    if best_shanten == 1_000:  # nothing but wilds may go
        for kind in range(N_KINDS):
            if best_kind < 0 and hand[kind] > 0 and allowed[kind]:
                best_kind = kind
    else:
        for index in range(n_candidates):
            kind = vectors[_HELD, index]
            if allowed[kind] and vectors[_VALUES, index] == best_shanten:
                vectors[_TIED, n_tied] = kind
                n_tied += 1
    vectors[_TOTALS, 0] = n_tied
    vectors[_TOTALS, 1] = best_shanten
    if n_tied == 1:
        best_kind = vectors[_TIED, 0]
    elif n_tied > 1:
        n_draws = _draw_candidates(
            hand, wild, visible, n_kinds, forms, vectors, _DRAW_KINDS, _DRAW_UNSEEN, _DRAW_HELD
        )
        vectors[_TOTALS, 2] = n_draws
        size = info[SEARCH_SIZE]
        if (forms & FORM_THIRTEEN) != 0 or size % 3 != 2 or size > 14:
            best_kind = _TIES_IN_FULL  # 十三烂, or a hand no discard is chosen from
        else:
            useful_draws_by_splits(
                keys, wilds, forms, vectors, _TIED, n_tied, _DRAW_KINDS, _DRAW_UNSEEN,
                _DRAW_HELD, n_draws, _USEFUL, best_shanten, tables, rows, info,
            )  # fmt: skip
            best_useful = -1
            for t in range(n_tied):
                if vectors[_USEFUL, t] > best_useful:
                    best_useful = vectors[_USEFUL, t]
                    best_kind = vectors[_TIED, t]
    # every argument read here, at the end: an array last read mid-way is released there
    tables_read = tables.suit_add[0, 0] + tables.honour_add[0, 0] + tables.suit_bytes[0, 0]
    tables_read += tables.honour_bytes[0, 0]
    read = hand[0] + wild[0] + visible[0] + allowed[0] + keys[0] + rows[0, 0, 0] + info[0]
    return best_kind + 0 * (tables_read + read + vectors[0, 0])


@kernel
def _full_tie_break(keys, wilds, forms, tables, vectors):
    """The tied discard ``_efficiency_search`` left in ``vectors`` with the most useful draws,
    each (discard, draw) pair evaluated in full: ``shanten_many`` when 十三烂 counts, else
    ``shanten_after_swaps`` (a hand whose size is not 2 mod 3; ``useful_draws``' own path for
    it, not ``useful_draws``, which would compile the draws' search a second time)."""
    n_tied = vectors[_TOTALS, 0]
    best_shanten = vectors[_TOTALS, 1]
    n_draws = vectors[_TOTALS, 2]
    tied = vectors[_TIED][:n_tied]
    draw_kinds = vectors[_DRAW_KINDS][:n_draws]
    draw_unseen = vectors[_DRAW_UNSEEN][:n_draws]
    useful = vectors[_USEFUL][:n_tied]
    # flat[t * n_draws + d]: shanten after discarding tied[t] and drawing draw_kinds[d]
    flat = np.empty(n_tied * n_draws, np.int64)
    if (forms & FORM_THIRTEEN) != 0:
        candidates = np.empty((n_tied * n_draws, 4), np.int64)
        for t in range(n_tied):
            for d in range(n_draws):
                row = t * n_draws + d
                for suit in range(4):
                    candidates[row, suit] = keys[suit]
                candidates[row, KIND_SUIT[tied[t]]] -= KIND_POWER[tied[t]]
                candidates[row, KIND_SUIT[draw_kinds[d]]] += KIND_POWER[draw_kinds[d]]
        wild_counts = np.full(n_tied * n_draws, wilds, np.int64)
        shanten_many(candidates, wild_counts, forms, tables, flat)
    else:
        swaps = np.empty((n_tied, n_draws), np.int64)
        shanten_after_swaps(keys, wilds, forms, tied, draw_kinds, tables, swaps)
        for t in range(n_tied):  # copied with loops: see hand._copy_rows
            for d in range(n_draws):
                flat[t * n_draws + d] = swaps[t, d]
    for t in range(n_tied):
        useful[t] = 0
        for d in range(n_draws):
            if flat[t * n_draws + d] < best_shanten:
                useful[t] += draw_unseen[d]
    best_kind = -1
    best_useful = -1
    for t in range(n_tied):
        if useful[t] > best_useful:
            best_useful = useful[t]
            best_kind = tied[t]
    return best_kind


@kernel
def shed_discard(hand, wild, plan, allowed):
    """The discard of a seat that plans to be rid of the kinds ``plan`` (bit k: kind k): the
    held, allowed, natural kind of the plan with the fewest neighbours to build on (score: 2
    per other copy held, 2 per held kind one rank away in its suit, 1 per held kind two ranks
    away; ties: the lowest kind id), or -1 when it holds none. Shedding the isolated tiles first
    keeps the plan's pairs and runs while they may still make a set should the plan fail."""
    best_kind = -1
    best_score = 1_000
    for kind in range(N_KINDS):
        if hand[kind] == 0 or not allowed[kind] or wild[kind] or ((plan >> kind) & 1) == 0:
            continue
        score = 2 * (np.int64(hand[kind]) - 1)
        if kind < 27:
            rank = kind % 9
            for offset in range(-2, 3):
                other = rank + offset
                if offset != 0 and 0 <= other < 9 and hand[kind - rank + other] > 0:
                    score += 2 if abs(offset) == 1 else 1
        if score < best_score:
            best_score = score
            best_kind = kind
    return best_kind


@kernel
def _flush_suit(hand, wild, flush_off_suit):
    """The numbered suit (0-2) the value agent plays a flush (清一色) in, or -1: the suit with the
    most natural tiles in ``hand``, when at most ``flush_off_suit`` naturals lie outside it
    (-1: never). Wilds take any suit, so they never count against a flush."""
    if flush_off_suit < 0:
        return -1
    in_suit = np.zeros(4, np.int64)
    for kind in range(N_KINDS):
        if not wild[kind]:
            in_suit[KIND_SUIT[kind]] += hand[kind]
    best = 0
    for suit in range(1, 3):
        if in_suit[suit] > in_suit[best]:
            best = suit
    total = in_suit[0] + in_suit[1] + in_suit[2] + in_suit[3]
    if in_suit[best] == 0 or total - in_suit[best] > flush_off_suit:
        return -1
    return best


@kernel
def _seven_pairs_worth(hand, wild, forms, min_pairs):
    """Whether the value agent plays for seven pairs (小七对, worth double a plain win): the
    variant steers by that form, the concealed hand is whole (no melds: 13 tiles or more) and
    holds ``min_pairs`` natural pairs."""
    if (forms & FORM_SEVEN_PAIRS) == 0:
        return False
    tiles = 0
    pairs = 0
    for kind in range(N_KINDS):
        tiles += hand[kind]
        if not wild[kind] and hand[kind] >= 2:
            pairs += 1
    return tiles >= 13 and pairs >= min_pairs


@kernel
def _loose_wild(hand, keys, wilds, wild, forms, allowed, tables, natural, wild_margin):
    """The wild the value agent throws to play for a hand without wilds (a variant may pay it
    double, as a hard hand 硬庄, and let it win on discards), or -1. Only loose wilds go (one or
    two held, none tripled: three identical wilds may be a pattern, 三王, worth keeping), and
    only when the hand without the wild is at most ``wild_margin`` shanten worse than after the
    efficient discard ``natural`` (-1: never)."""
    if wild_margin < 0 or wilds == 0 or wilds > 2:
        return -1
    loose = -1
    for kind in range(N_KINDS):
        if wild[kind] and hand[kind] > 0:
            if hand[kind] >= 3:
                return -1
            if allowed[kind]:
                loose = kind
    if loose < 0 or natural < 0:
        return -1
    without_wild = hand_shanten(keys, wilds - 1, forms, tables)
    after = keys.copy()
    after[KIND_SUIT[natural]] -= KIND_POWER[natural]
    if without_wild <= hand_shanten(after, wilds, forms, tables) + wild_margin:
        return loose
    return -1


@inline_kernel
def value_discard_with(
    hand, keys, wilds, wild, visible, n_kinds, forms, allowed, tables, flush, pairs, wild_margin
):
    """The discard of the value agent with its parameters (``value_discard`` reads them from the
    seat's row of ``GameState.agent_params``):
    efficiency play that goes for what pays double.

    A flush in sight (``_flush_suit``): the most efficient discard among the kinds outside the
    suit, while it holds any, by shanten with any pair (清一色 is 乱将). Seven pairs in sight
    (``_seven_pairs_worth``): the most efficient discard by the seven-pairs shanten alone.
    Otherwise the efficiency agent's discard, or a loose wild instead (``_loose_wild``).

    Inlined into ``valued_discard``, with one call of the efficiency search whatever the target:
    each compiled level between the engine and the search optimises and emits the search's code
    again (docs/engine.md, "Compile time")."""
    search_forms = forms
    search_allowed = allowed
    targeted = False
    suit = _flush_suit(hand, wild, flush)
    if suit >= 0:
        off_suit = np.zeros(N_KINDS, np.bool_)
        any_off = False
        for kind in range(N_KINDS):
            if allowed[kind] and hand[kind] > 0 and not wild[kind] and KIND_SUIT[kind] != suit:
                off_suit[kind] = True
                any_off = True
        if any_off:
            search_forms = forms & ~OPTION_PAIR_258  # any pair
            search_allowed = off_suit
            targeted = True
    if not targeted and _seven_pairs_worth(hand, wild, forms, pairs):
        search_forms = FORM_SEVEN_PAIRS | (forms & OPTION_QUADS)
        targeted = True
    natural = efficiency_discard(
        hand, keys, wilds, wild, visible, n_kinds, search_forms, search_allowed, tables
    )
    if targeted:
        return natural
    loose = _loose_wild(hand, keys, wilds, wild, forms, allowed, tables, natural, wild_margin)
    return loose if loose >= 0 else natural


@inline_kernel
def value_discard(hand, keys, wilds, wild, visible, n_kinds, forms, allowed, params, tables):
    """The value agent's discard with the seat's parameters ``params`` (float64
    (N_AGENT_PARAMS,), its row of ``GameState.agent_params``): ``value_discard_with``."""
    return value_discard_with(
        hand,
        keys,
        wilds,
        wild,
        visible,
        n_kinds,
        forms,
        allowed,
        tables,
        np.int64(params[P_FLUSH_OFF_SUIT]),
        np.int64(params[P_SEVEN_PAIRS_FROM]),
        np.int64(params[P_WILD_MARGIN]),
    )


@kernel
def _late(visible, late_visible):
    """Whether the wall is late for the cautious agent: ``late_visible`` tiles or more are
    visible to all (discards, melds, the indicator), when opponents are likely ready."""
    seen = 0
    for kind in range(N_KINDS):
        seen += visible[kind]
    return seen >= late_visible


@kernel
def value_declines_claim(hand, wild, kind, forms, flush, pairs):
    """Whether the value agent passes a pong or chi of ``kind`` that the efficiency agent
    might make: a meld ends seven pairs, and a meld outside the flush's suit ends the flush."""
    if _seven_pairs_worth(hand, wild, forms, pairs):
        return True
    suit = _flush_suit(hand, wild, flush)
    return suit >= 0 and KIND_SUIT[kind] != suit


# ---------------------------------------------------------------------------------------------
# What the variant's hints add (the steer word above its form bits)


@kernel
def triplets_shanten(hand, wild):
    """Shanten of the concealed ``hand`` (counts, wilds included) towards all triplets and a
    pair (大对子 / 碰碰胡 shapes): with N = tiles // 3 sets still to make, the tiles missing from
    the best N triplet kinds and one pair kind, less one (-1: complete, 0: ready). Triplets take
    the kinds held most (a kind counts at most three for a triplet, two for the pair); wilds
    fill any gap. Plain counting, no table."""
    held = np.zeros(4, np.int64)  # held[c]: natural kinds held min(count, 3) == c times
    tiles = 0
    wilds = 0
    for kind in range(N_KINDS):
        count = np.int64(hand[kind])
        tiles += count
        if wild[kind]:
            wilds += count
        elif count > 0:
            held[min(count, 3)] += 1
    sets = tiles // 3
    filled = 0
    for count in range(3, 0, -1):  # the triplet slots take the fullest kinds
        used = min(sets, held[count])
        filled += used * count
        held[count] -= used
        sets -= used
    for count in range(3, 0, -1):  # then the pair slot the fullest left
        if held[count] > 0:
            filled += min(count, 2)
            break
    missing = 3 * (tiles // 3) + 2 - filled - wilds
    return max(missing, 0) - 1


@kernel
def triplets_discard(hand, wild, visible, allowed, lead):
    """The discard of a seat playing for all triplets: the allowed natural kind whose removal
    leaves the least ``triplets_shanten``; among equals a kind of ``lead`` (bit k: kind k) none
    of which was seen yet, then the one with the fewest copies left unseen (a pair that can no
    longer grow, a single that can no longer pair), then the lowest kind id. -1 when no natural
    may go."""
    best_kind = -1
    best = 1_000_000
    for kind in range(N_KINDS):
        if hand[kind] == 0 or not allowed[kind] or wild[kind]:
            continue
        hand[kind] -= 1
        shanten = triplets_shanten(hand, wild)
        hand[kind] += 1
        leads = kind < 27 and ((lead >> kind) & 1) != 0 and visible[kind] == 0
        left = 4 - np.int64(visible[kind]) - np.int64(hand[kind])
        score = 100 * shanten + (0 if leads else 10) + left  # shanten, a lead, copies left
        if score < best:
            best = score
            best_kind = kind
    return best_kind


@kernel
def plays_for_triplets(hand, keys, wilds, wild, forms, hints, tables, chance):
    """Whether the value agent plays for all triplets: the variant says what they are worth
    (``STEER_TRIPLETS_SHIFT``), w plain wins, and w x ``chance`` ** (their shanten - the plain
    shanten over ``forms``) is at least 1 (a target weighed by its chance of completing)."""
    worth = (hints >> STEER_TRIPLETS_SHIFT) & 15
    if worth == 0:
        return False
    gap = triplets_shanten(hand, wild) - hand_shanten(keys, wilds, forms, tables)
    weight = np.float64(worth)
    for _ in range(gap):
        weight *= chance
    return weight >= 1.0


@kernel
def lead_hinted(hand, keys, wilds, wild, visible, forms, allowed, tables, choice, lead):
    """The discard instead of ``choice``: a held, allowed kind of ``lead`` (bit k: kind k) of
    which no copy has been seen yet (its first discard pays extra), when discarding it leaves
    the hand no further from ready than ``choice``; else ``choice``."""
    if lead == 0 or choice < 0:
        return choice
    for kind in range(27):
        if (
            kind == choice
            or ((lead >> kind) & 1) == 0
            or hand[kind] == 0
            or not allowed[kind]
            or wild[kind]
            or visible[kind] > 0
        ):
            continue
        after_choice = keys.copy()
        after_choice[KIND_SUIT[choice]] -= KIND_POWER[choice]
        after_lead = keys.copy()
        after_lead[KIND_SUIT[kind]] -= KIND_POWER[kind]
        if hand_shanten(after_lead, wilds, forms, tables) <= hand_shanten(
            after_choice, wilds, forms, tables
        ):
            return kind
    return choice


@inline_kernel
def value_hinted_discard(
    hand, keys, wilds, wild, visible, n_kinds, forms, hints, allowed, params, tables
):
    """The value agent's discard under the variant's hints (``hints``: the steer word above its
    form bits) with the seat's parameters ``params``: all triplets when they are worth their
    chance (``plays_for_triplets``), else the value agent's discard (``value_discard``); a kind
    whose first discard pays (``STEER_LEAD_SHIFT``) goes first while none is seen, when that
    costs nothing (``lead_hinted``)."""
    lead = hints >> STEER_LEAD_SHIFT
    chance = params[P_CHANCE_PER_SHANTEN]
    if plays_for_triplets(hand, keys, wilds, wild, forms, hints, tables, chance):
        kind = triplets_discard(hand, wild, visible, allowed, lead)
        if kind >= 0:
            return kind
    flush, pairs = _hinted_targets(hints, params)
    choice = value_discard_with(
        hand, keys, wilds, wild, visible, n_kinds, forms, allowed, tables, flush, pairs,
        np.int64(params[P_WILD_MARGIN]),
    )  # fmt: skip
    shaped = (hints >> STEER_SHAPED_SHIFT) & 15
    big = (hints >> STEER_BIG_SHIFT) & 7
    if shaped > 1 or big > 1:
        choice = shaped_wait(hand, keys, wilds, wild, visible, n_kinds, forms, allowed, tables,
                             choice, shaped, big)  # fmt: skip
    return lead_hinted(hand, keys, wilds, wild, visible, forms, allowed, tables, choice, lead)


@kernel
def _absent_honour(hand):
    """An honour kind of which ``hand`` holds no tile, or -1."""
    for kind in range(27, N_KINDS):
        if hand[kind] == 0:
            return kind
    return -1


@inline_kernel
def _completes(keys, wilds, forms, tables):
    """Whether the hand (suit keys, wilds) is complete over ``forms`` (inlined: a kernel of its
    own would count the references of its arguments at each of its many calls)."""
    return hand_shanten(keys, wilds, forms, tables) < 0


@kernel
def _shaped_win(hand, keys, wilds, wild, kind, forms, tables):
    """Whether the 14-tile hand ``keys`` (natural suit keys; ``hand``: the 13 counts before
    ``kind`` was drawn), complete over the standard form, reads with ``kind`` as one of its
    pair (beside a natural copy or a wild), the middle of a run or its edge (3 of 1-2-3, 7 of
    7-8-9): a win the variant may pay more (跑风, say)."""
    standard = forms & ~(FORM_SEVEN_PAIRS | FORM_THIRTEEN)
    rest = keys.copy()
    suit = KIND_SUIT[kind]
    honour = _absent_honour(hand)
    if honour >= 0 and honour != kind and (hand[kind] > 0 or wilds > 0):
        # the pair: without it (both copies, or the copy and a wild), four sets; told by
        # putting a pair of an absent honour in its place
        rest[suit] -= KIND_POWER[kind] * (2 if hand[kind] > 0 else 1)
        rest[3] += 2 * KIND_POWER[honour]
        if _completes(rest, wilds - (0 if hand[kind] > 0 else 1), standard, tables):
            return True
    if kind >= 27:
        return False
    rank = kind % 9
    for low in (kind - 1, kind - 2, kind):  # the middle, then the edges 3 of 1-2-3, 7 of 7-8-9
        if (low == kind - 2 and rank != 2) or (low == kind and rank != 6):
            continue
        if low < kind - rank or low + 2 > kind - rank + 8:
            continue
        if low == kind - 1 and (rank == 0 or rank == 8):
            continue
        held = True
        for member in range(low, low + 3):
            if member != kind and (hand[member] == 0 or wild[member]):
                held = False
        if not held:
            continue
        for suit_index in range(4):
            rest[suit_index] = keys[suit_index]
        for member in range(low, low + 3):
            rest[suit] -= KIND_POWER[member]
        if _completes(rest, wilds, standard, tables):
            return True
    return False


@kernel
def _near_held(counts, kind):
    """Whether ``counts`` holds ``kind``, or (a suited kind) a tile of its suit at most two
    ranks away: what a drawn tile needs to join a pair, a set or a run without a wild."""
    if counts[kind] > 0:
        return True
    if kind >= 27:
        return False
    rank = kind % 9
    for other in range(max(kind - 2, kind - rank), min(kind + 2, kind - rank + 8) + 1):
        if counts[other] > 0:
            return True
    return False


@kernel
def shaped_wait(
    hand, keys, wilds, wild, visible, n_kinds, forms, allowed, tables, choice, shaped, big
):
    """``choice``, or once the hand is ready after it, the discard that keeps the hand ready
    with the wait worth most: the unseen copies of each winning kind, each counted by what the
    win is worth in plain wins: ``shaped`` for a win on a shaped tile (``_shaped_win``: the
    pair, the middle or an edge: 跑风, +6 on a base of 3, say), ``big`` for a hand that
    reads as all triplets or seven pairs (大对子 and 七对 worth 5 plain wins, say, and winning on
    a discard without a 通行证), the most that applies, 1 otherwise. Ties keep ``choice``."""
    if choice < 0 or wild[choice]:
        return choice
    after = keys.copy()
    after[KIND_SUIT[choice]] -= KIND_POWER[choice]
    if hand_shanten(after, wilds, forms, tables) != 0:
        return choice
    standard = forms & ~(FORM_SEVEN_PAIRS | FORM_THIRTEEN)
    # without a wild in hand or 十三烂, only a kind held or within two of a held tile of its
    # suit can complete a hand (a pair, a set or a run with what is held): the others are not
    # tried (the same waits, a third to a half of the table lookups)
    screen = wilds == 0 and (forms & FORM_THIRTEEN) == 0
    best_kind = choice
    best_worth = np.int64(-1)
    counts = hand.copy()
    drawn = keys.copy()
    for discard in range(N_KINDS):
        if hand[discard] == 0 or wild[discard] or not allowed[discard]:
            continue
        for suit in range(4):
            after[suit] = keys[suit]
        after[KIND_SUIT[discard]] -= KIND_POWER[discard]
        if discard != choice and hand_shanten(after, wilds, forms, tables) != 0:
            continue
        counts[discard] -= 1
        total = np.int64(0)
        for kind in range(n_kinds):
            left = 4 - np.int64(visible[kind]) - np.int64(counts[kind])
            if wild[kind] or left <= 0 or (screen and not _near_held(counts, kind)):
                continue
            for suit in range(4):
                drawn[suit] = after[suit]
            drawn[KIND_SUIT[kind]] += KIND_POWER[kind]
            if not _completes(drawn, wilds, forms, tables):
                continue
            worth = np.int64(1)
            if not _completes(drawn, wilds, standard, tables):
                worth = max(shaped, big, worth)  # seven pairs only
            else:
                if big > 1:
                    counts[kind] += 1
                    if triplets_shanten(counts, wild) < 0:
                        worth = big
                    counts[kind] -= 1
                if shaped > worth and _shaped_win(counts, drawn, wilds, wild, kind, forms, tables):
                    worth = shaped
            total += left * worth
        counts[discard] += 1
        if total > best_worth or (total == best_worth and discard == choice):
            best_worth = total
            best_kind = discard
    return best_kind


@kernel
def _hinted_targets(hints, params):
    """The value agent's flush and seven-pairs parameters under the variant's hints
    (``value_discard_with``'s ``flush`` and ``pairs``): never for a target the variant does
    not pay for; for one it pays w plain wins, the seat's (``flush_off_suit``,
    ``seven_pairs_from``, set for a target worth double) reached further by ``_reach`` steps (a
    tile more off suit, a pair fewer): a richer target is worth a longer way."""
    chance = params[P_CHANCE_PER_SHANTEN]
    flush = np.int64(-1)
    flush_worth = (hints >> STEER_FLUSH_SHIFT) & 15
    if flush_worth > 0 and params[P_FLUSH_OFF_SUIT] >= 0:
        flush = min(np.int64(params[P_FLUSH_OFF_SUIT]) + _reach(flush_worth, chance), 13)
    pairs = np.int64(N_KINDS)
    pairs_worth = (hints >> STEER_PAIRS_SHIFT) & 15
    if pairs_worth > 0 and params[P_SEVEN_PAIRS_FROM] < 8:
        pairs = max(np.int64(params[P_SEVEN_PAIRS_FROM]) - _reach(pairs_worth, chance), 2)
    return flush, pairs


@kernel
def _reach(worth, chance):
    """How many steps (tiles off suit, pairs short) beyond a threshold set for a target worth
    double a target worth ``worth`` plain wins is still played: the most k with ``worth`` x
    ``chance`` ** k >= 2 (each step a shanten further, weighed by its chance)."""
    steps = 0
    weight = np.float64(worth) * chance
    while weight >= 2.0 and steps < 6:
        steps += 1
        weight *= chance
    return np.int64(steps)


@kernel
def _without_melds(hand):
    """Whether the concealed ``hand`` (13 tiles before a claim) has made no meld."""
    tiles = 0
    for kind in range(N_KINDS):
        tiles += hand[kind]
    return tiles >= 13


@kernel
def concealed_claim(now, after, pong_row, chi_rows, n_chi):
    """The claim of a value agent whose variant pays a concealed hand (``STEER_CONCEALED``):
    only one that makes the hand ready (``after``: the least shanten after the pong, then each
    chi, with the best discard; ``now``: before), the pong first; else -1."""
    if pong_row >= 0 and after[0] <= 0 and after[0] < now:
        return pong_row
    for index in range(n_chi):
        if after[1 + index] <= 0 and after[1 + index] < now:
            return chi_rows[index]
    return -1


@inline_kernel
def cautious_discard(
    hand, keys, wilds, wild, visible, n_kinds, forms, hints, allowed, params, tables
):
    """The discard of the cautious agent with the seat's parameters ``params`` (as
    ``value_discard``'s): the value agent's (``valued_discard``), but a safe kind instead
    (``safe_instead``) when the variant says an opponent looks ready (``STEER_DANGER``: at most
    ``danger_cost`` shanten given up) or once the wall is late (``_late``: ``late_visible``
    tiles visible; at most ``shanten_cost``). A kind is safe with ``safe_seen`` copies accounted
    for (seen by all or held): few left for an opponent to wait on. Inlined into
    ``choose_discard`` (one compiled level fewer: see ``value_discard_with``)."""
    choice = valued_discard(
        hand, keys, wilds, wild, visible, n_kinds, forms, hints, allowed, params, tables
    )
    if choice < 0:
        return choice
    if (hints & STEER_DANGER) != 0:
        margin = np.int64(params[P_DANGER_COST])
    elif _late(visible, np.int64(params[P_LATE_VISIBLE])):
        margin = np.int64(params[P_SHANTEN_COST])
    else:
        return choice
    return safe_instead(
        hand, keys, wilds, wild, visible, n_kinds, forms, hints, allowed, params, tables, choice,
        margin,
    )  # fmt: skip


@inline_kernel
def safe_instead(
    hand, keys, wilds, wild, visible, n_kinds, forms, hints, allowed, params, tables, choice,
    margin,
):  # fmt: skip
    """``choice``, or when it is not safe the value agent's choice among the safe kinds (with
    ``safe_seen`` copies accounted for: seen by all or held; only honours when the variant says
    the next seat is the one who looks ready, ``STEER_DANGER_NEXT``) if it leaves the hand at
    most ``margin`` shanten further from ready. The value agent is ``valued_discard``'s: under
    the variant's ``hints``, or without any (0) ``value_discard``'s, for ``cautious_discard``."""
    safe_seen = np.int64(params[P_SAFE_SEEN])
    # the next seat may chi a numbered kind: then only honours are safe
    honours_only = (hints & STEER_DANGER) != 0 and (hints & STEER_DANGER_NEXT) != 0
    if np.int64(visible[choice]) + np.int64(hand[choice]) >= safe_seen and (
        choice >= 27 or not honours_only
    ):
        return choice
    safe = np.zeros(N_KINDS, np.bool_)
    any_safe = False
    for kind in range(N_KINDS):
        if (
            allowed[kind]
            and hand[kind] > 0
            and not wild[kind]
            and (kind >= 27 or not honours_only)
            and np.int64(visible[kind]) + np.int64(hand[kind]) >= safe_seen
        ):
            safe[kind] = True
            any_safe = True
    if not any_safe:
        return choice
    careful = valued_discard(
        hand, keys, wilds, wild, visible, n_kinds, forms, hints, safe, params, tables
    )
    after_choice = keys.copy()
    after_choice[KIND_SUIT[choice]] -= KIND_POWER[choice]
    after_careful = keys.copy()
    after_careful[KIND_SUIT[careful]] -= KIND_POWER[careful]
    cost = hand_shanten(after_careful, wilds, forms, tables) - hand_shanten(
        after_choice, wilds, forms, tables
    )
    return careful if cost <= margin else choice


@kernel
def valued_discard(
    hand, keys, wilds, wild, visible, n_kinds, forms, hints, allowed, params, tables
):
    """The value agent's discard: under the variant's ``hints`` when it gives any
    (``value_hinted_discard``), else ``value_discard``'s (the targets of the
    parameters)."""
    if hints != 0:
        return value_hinted_discard(
            hand, keys, wilds, wild, visible, n_kinds, forms, hints, allowed, params, tables
        )
    return value_discard(hand, keys, wilds, wild, visible, n_kinds, forms, allowed, params, tables)


# ---------------------------------------------------------------------------------------------
# The six questions


@kernel
def _random_discard(hand, allowed):
    options = 0
    for kind in range(N_KINDS):
        if hand[kind] > 0 and allowed[kind]:
            options += 1
    pick = np.random.randint(0, options)
    for kind in range(N_KINDS):
        if hand[kind] > 0 and allowed[kind]:
            if pick == 0:
                return kind
            pick -= 1
    return -1


@kernel
def choose_discard(
    agent, hand, keys, wilds, wild, visible, n_kinds, forms, allowed, plan, params, tables, space,
    valued_agents=True,
):  # fmt: skip
    """The kind a seat with agent kind ``agent`` and parameters ``params`` (float64
    (N_AGENT_PARAMS,): its row of ``GameState.agent_params``) discards: held, with
    ``allowed[kind]``.

    The seat's own arrays come as arguments (its hand counts, natural suit keys and wild
    count, the wild mask, the tiles everyone sees, its plan): what a player knows, and, unlike
    the whole state tuple, cheap to pass (numba counts a reference per array at each call).
    The efficiency and self-draw agents shed the plan's kinds first (``shed_discard``), then
    discard by efficiency; the random agent ignores the plan. ``space``: a work space
    (``discard_space``) the efficiency search overwrites. ``valued_agents``: ``None`` when no
    seat at the table plays a valued agent (``VALUED_AGENTS``; compiled without their search),
    else ``True`` (the default).

    One way out, with every array read there, and no inlined branches: numba can then pair
    up the reference counts of its arguments (docs/engine.md, "Speed notes"), where an early
    return per agent counted each of the 14 arrays once each way on every discard."""
    rows = space[0]
    info = space[1]
    vectors = space[2]
    plain = agent == AGENT_EFFICIENCY or agent == AGENT_SELF_DRAW
    if plain and plan == 0:
        steer = forms & STEER_FORM_BITS
        kind = _efficiency_search(
            hand, keys, wilds, wild, visible, n_kinds, steer, allowed, tables, rows, info, vectors
        )
        if kind == _TIES_IN_FULL:
            kind = _full_tie_break(keys, wilds, steer, tables, vectors)
    else:
        kind = _discard_by_agent(
            agent, hand, keys, wilds, wild, visible, n_kinds, forms, allowed, plan, params,
            tables, rows, info, vectors, valued_agents,
        )  # fmt: skip
    read = hand[0] + keys[0] + wild[0] + visible[0] + allowed[0] + params[0]
    read += rows[0, 0, 0] + info[0] + vectors[0, 0]
    read += tables.suit_add[0, 0] + tables.honour_add[0, 0] + tables.suit_bytes[0, 0]
    read += tables.honour_bytes[0, 0] + tables.gain[0, 0]
    return kind + 0 * np.int64(read)


@kernel
def _discard_by_agent(
    agent, hand, keys, wilds, wild, visible, n_kinds, forms, allowed, plan, params, tables, rows,
    info, vectors, valued_agents,
):  # fmt: skip
    """``choose_discard`` for the agents and plans other than an efficiency search alone."""
    if agent == AGENT_RANDOM:
        return _random_discard(hand, allowed)
    if plan != 0:
        kind = shed_discard(hand, wild, plan, allowed)
        if kind >= 0:
            return kind
    hints = forms & ~STEER_FORM_BITS
    forms = forms & STEER_FORM_BITS
    if valued_agents is not None:  # pruned when compiled for None: no valued agent plays
        if agent == AGENT_VALUE:
            return valued_discard(
                hand, keys, wilds, wild, visible, n_kinds, forms, hints, allowed, params, tables
            )
        if agent == AGENT_CAUTIOUS:
            return cautious_discard(
                hand, keys, wilds, wild, visible, n_kinds, forms, hints, allowed, params, tables
            )
    return efficiency_discard_in(
        hand, keys, wilds, wild, visible, n_kinds, forms, allowed, tables, rows, info, vectors
    )


@inline_kernel
def accepts_win(agent, features, claimed_tile):
    """Whether a seat with agent kind ``agent`` declares a legal win; ``claimed_tile`` is the
    discarded, robbed or revealed tile it would win on, -1 for a self-draw. The efficiency agent
    always wins."""
    if claimed_tile >= 0:
        if agent == AGENT_RANDOM:
            return np.random.random() < 0.5
        if agent == AGENT_SELF_DRAW:
            return False
    return True


@inline_kernel
def accepts_kong(agent, kind, plan):
    """Whether a seat makes an allowed kong of ``kind`` on a discard: the efficiency agent
    always (a kong needs a ready hand and may bloom) unless its ``plan`` is to be rid of the
    kind, the random agent half of the time."""
    if agent == AGENT_RANDOM:
        return np.random.random() < 0.5
    if agent == AGENT_CAUTIOUS:
        return False  # a kong's revealed tiles may win for others (杠上炮), or it is robbed
    return ((plan >> kind) & 1) == 0


@kernel
def _claim_shanten(hand, keys, wilds, wild, kind, can_pong, starts, forms, tables):
    """Shanten of the hand now, and the least shanten after each claim and its best discard:
    (now, after the pong, after the chi from each of ``starts``), from one batch call."""
    rows = np.empty((1 + 4 * N_KINDS, 4), np.int64)
    # one allocation for the vectors (each costs about as much as a shanten lookup): the option
    # of each row (-1: the hand now; 0: pong; 1-3: chi), its wilds, its shanten, and the counts,
    # suit keys and least shanten after each claim
    vectors = np.empty((4, 1 + 4 * N_KINDS), np.int64)
    option_of = vectors[0]
    wild_counts = vectors[1]
    values = vectors[2]
    counts = vectors[3][:N_KINDS]
    claimed_keys = vectors[3][N_KINDS : N_KINDS + 4]
    best = vectors[3][N_KINDS + 4 : N_KINDS + 8]
    for suit in range(4):  # loops, not array assignments: see hand._copy_rows
        rows[0, suit] = keys[suit]
        best[suit] = 1_000
    option_of[0] = -1
    n_rows = 1
    for option in range(4):
        if option == 0 and not can_pong:
            continue
        if option > 0 and starts[option - 1] < 0:
            continue
        for k in range(N_KINDS):
            counts[k] = hand[k]
        for suit in range(4):
            claimed_keys[suit] = keys[suit]
        if option == 0:
            taken_first, taken_count = kind, 2
        else:
            taken_first, taken_count = starts[option - 1], 3
        for member in range(taken_first, taken_first + taken_count):
            taken = kind if option == 0 else member
            if option > 0 and member == kind:
                continue  # the discard itself completes the chi
            counts[taken] -= 1
            claimed_keys[KIND_SUIT[taken]] -= KIND_POWER[taken]
        n_rows = _without_each_natural(claimed_keys, counts, wild, rows, option_of, option, n_rows)
    for row in range(n_rows):
        wild_counts[row] = wilds
    shanten_many(rows[:n_rows], wild_counts[:n_rows], forms, tables, values[:n_rows])
    for row in range(1, n_rows):
        best[option_of[row]] = min(best[option_of[row]], values[row])
    return values[0], best


@kernel
def choose_claim(
    agent, hand, keys, wilds, wild, kind, actions, n_actions, forms, plan, params, tables,
    valued_agents=True,
):  # fmt: skip
    """The listed pong or chi of the discarded ``kind`` a seat with agent kind ``agent`` makes:
    the index of its row in ``actions`` (``n_actions`` rows listed for this seat by the variant;
    rows of other types are ignored), or -1 to pass. The seat's arrays and parameters as in
    ``choose_discard``.

    Efficiency agent: claims when the hand after the claim and its best discard is no further
    from ready than now (pong before chi, chis in listed order), never a kind its ``plan`` is to
    be rid of (the meld would keep the kind for good). Random agent: the pong with probability
    1/2, else each chi in turn with probability 1/2. The valued agents: ``_valued_claim``
    (``valued_agents`` as in ``choose_discard``).
    """
    pong_row = -1
    chis = np.empty((2, 3), np.int64)  # one allocation: each listed chi's first tile and row
    starts = chis[0]
    chi_rows = chis[1]
    for index in range(3):
        starts[index] = -1
        chi_rows[index] = -1
    n_chi = 0
    for row in range(n_actions):
        if actions[row, A_TYPE] == ACT_PONG:
            pong_row = row
        elif actions[row, A_TYPE] == ACT_CHI and n_chi < 3:
            starts[n_chi] = actions[row, A_TILE]
            chi_rows[n_chi] = row
            n_chi += 1
    can_pong = pong_row >= 0
    if agent == AGENT_RANDOM:
        if can_pong and np.random.random() < 0.5:
            return pong_row
        for index in range(n_chi):
            if np.random.random() < 0.5:
                return chi_rows[index]
        return -1
    if (not can_pong and n_chi == 0) or ((plan >> kind) & 1) != 0:
        return -1  # nothing to claim, or a kind to be rid of: skip the shanten of the hand
    # the first test pruned when compiled for None (no valued agent plays)
    if valued_agents is not None and (agent == AGENT_VALUE or agent == AGENT_CAUTIOUS):
        return _valued_claim(
            agent, hand, keys, wilds, wild, kind, actions, forms, params, tables, pong_row,
            starts, chi_rows, n_chi,
        )  # fmt: skip
    forms = forms & STEER_FORM_BITS
    now, after = _claim_shanten(hand, keys, wilds, wild, kind, can_pong, starts, forms, tables)
    # no further from ready, whatever the variant lists a claim as worth (A_VALUE)
    return _claim_reaching(actions, after, pong_row, chi_rows, n_chi, now, now, np.int64(0))


@kernel
def _valued_claim(
    agent, hand, keys, wilds, wild, kind, actions, forms, params, tables, pong_row, starts,
    chi_rows, n_chi,
):  # fmt: skip
    """``choose_claim`` for the value and cautious agents, once the listed pong (row
    ``pong_row``, -1 none) and chis (``n_chi`` of them: first tiles ``starts``, rows
    ``chi_rows``) are known and the kind is not one the plan sheds."""
    can_pong = pong_row >= 0
    hints = forms & ~STEER_FORM_BITS
    forms = forms & STEER_FORM_BITS
    if (
        hints != 0
        and can_pong
        and plays_for_triplets(
            hand, keys, wilds, wild, forms, hints, tables, params[P_CHANCE_PER_SHANTEN]
        )
    ):
        return pong_row
    flush = np.int64(params[P_FLUSH_OFF_SUIT])
    pairs = np.int64(params[P_SEVEN_PAIRS_FROM])
    if hints != 0:
        flush, pairs = _hinted_targets(hints, params)
    if value_declines_claim(hand, wild, kind, forms, flush, pairs):
        return -1
    now, after = _claim_shanten(hand, keys, wilds, wild, kind, can_pong, starts, forms, tables)
    # the cautious agent may keep a concealed hand at any distance: each claim gives its
    # discarder a 口 towards a 反包 where the variant pays one (docs/strategies.md)
    within = np.int64(params[P_CONCEALED_WITHIN])
    if agent == AGENT_CAUTIOUS and params[P_KEEP_CONCEALED] != 0:
        within = np.int64(8)
    if (hints & STEER_CONCEALED) != 0 and now <= within and _without_melds(hand):
        return concealed_claim(now, after, pong_row, chi_rows, n_chi)
    # nearer to ready by claim_gain (where the variant's claims pay: the efficiency agent's
    # rule, no further); a claim the variant lists as worth claim_worth_from or more (A_VALUE):
    # no further than claim_worth_cost from now
    needed = now - np.int64(params[P_CLAIM_GAIN])
    if (hints & STEER_CLAIMS_PAY) != 0:
        needed = now
    worth_reach = now + np.int64(params[P_CLAIM_WORTH_COST])
    worth_from = np.int64(params[P_CLAIM_WORTH_FROM])
    return _claim_reaching(
        actions, after, pong_row, chi_rows, n_chi, needed, worth_reach, worth_from
    )


@inline_kernel
def _claim_reaching(actions, after, pong_row, chi_rows, n_chi, needed, worth_reach, worth_from):
    """The first listed claim (the pong, then the chis in order) whose shanten after it
    (``after``: the pong's, then each chi's) reaches what ``_needed_for`` asks; -1 if none."""
    pong_worth = actions[pong_row, A_VALUE] if pong_row >= 0 else 0
    if pong_row >= 0 and after[0] <= _needed_for(pong_worth, worth_reach, needed, worth_from):
        return pong_row
    for index in range(n_chi):
        worth = actions[chi_rows[index], A_VALUE]
        if after[1 + index] <= _needed_for(worth, worth_reach, needed, worth_from):
            return chi_rows[index]
    return -1


@kernel
def _needed_for(worth, worth_reach, needed, worth_from):
    """The shanten a claim listed with ``worth`` (its ``A_VALUE``) must reach: ``worth_reach``
    (no further from ready, or for the value agent ``claim_worth_cost`` further) when the
    variant lists it as worth at least ``worth_from``, else ``needed`` (the agent's rule)."""
    if worth > 0 and worth >= worth_from:
        return worth_reach
    return needed


@kernel
def choose_own_turn(agent, actions, n_actions, plan):
    """The listed own-turn action a seat with agent kind ``agent`` takes (its row in
    ``actions``), or -1 to go on to its discard. Every agent takes a win when one is listed,
    the one with the highest ``A_VALUE`` (the first listed among equals); otherwise the
    efficiency and self-draw agents make the first listed kong of a kind their ``plan`` keeps
    (at once: a kong left for a later turn may score less, and the turn's replacement may
    bloom), the random agent the first listed kong with probability 1/2; with no kong made, a
    declaration as ``choose_declaration`` (not forced) picks it."""
    best_row = -1
    for row in range(n_actions):
        if actions[row, A_TYPE] == ACT_WIN and (
            best_row < 0 or actions[row, A_VALUE] > actions[best_row, A_VALUE]
        ):
            best_row = row
    if best_row >= 0:
        return best_row
    for row in range(n_actions):
        if actions[row, A_TYPE] == ACT_KONG:
            if agent == AGENT_RANDOM:
                return row if np.random.random() < 0.5 else -1
            if agent == AGENT_CAUTIOUS and actions[row, A_VALUE] <= 0:
                continue  # a kong others may win on: see accepts_kong (A_VALUE 1: none may)
            if ((plan >> actions[row, A_TILE]) & 1) == 0:
                return row
    row = choose_declaration(agent, actions, n_actions, np.bool_(False))
    return row


@kernel
def choose_plan(agent, hand, actions, n_actions):
    """The plan a seat makes at the deal among the ``ACT_PLAN`` rows of ``actions`` (other rows
    are ignored): the kinds it means to be rid of (the row's ``A_DETAIL``, bit k: kind k), 0 for
    none. The efficiency and self-draw agents take the plan whose kinds their ``hand`` holds
    fewest tiles of, the first listed among equals (of three suits to play without, the
    weakest); the random agent, which discards at random, makes none and draws no number."""
    if agent == AGENT_RANDOM:
        return np.int64(0)
    best_kinds = np.int64(0)
    best_held = 1_000
    for row in range(n_actions):
        if actions[row, A_TYPE] != ACT_PLAN:
            continue
        kinds = actions[row, A_DETAIL]
        held = 0
        for kind in range(N_KINDS):
            if (kinds >> kind) & 1:
                held += np.int64(hand[kind])
        if held < best_held:
            best_held = held
            best_kinds = kinds
    return best_kinds


@kernel
def choose_declaration(agent, actions, n_actions, forced):
    """The listed declaration (``ACT_DECLARE`` row of ``actions``) a seat makes, or -1: the
    efficiency and self-draw agents the one with the highest ``A_VALUE`` (the first among
    equals) when that value is positive or the choice is ``forced`` (a declaration every seat
    must make, such as a suit named at the deal); the random agent one uniformly at random, when
    not forced only with probability 1/2. No random number is drawn when none is listed."""
    count = 0
    best_row = -1
    for row in range(n_actions):
        if actions[row, A_TYPE] == ACT_DECLARE:
            count += 1
            if best_row < 0 or actions[row, A_VALUE] > actions[best_row, A_VALUE]:
                best_row = row
    if count == 0:
        return -1
    if agent == AGENT_RANDOM:
        if not forced and np.random.random() >= 0.5:
            return -1
        pick = np.random.randint(0, count)
        for row in range(n_actions):
            if actions[row, A_TYPE] == ACT_DECLARE:
                if pick == 0:
                    return row
                pick -= 1
    if forced or actions[best_row, A_VALUE] > 0:
        return best_row
    return -1


@kernel
def seed_agents(seed):
    """Seed numba's generator, which the random agent draws from (one per process/thread)."""
    np.random.seed(seed)
