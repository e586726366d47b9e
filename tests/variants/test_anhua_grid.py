"""Anhua's invariant grid: every hand of the Anhua engine checked by the tile ledger and
Anhua's rule checks, every win re-scored by the slow reference, over every cell of the option
grid.

Rules: docs/rules/anhua.md (§anhua-rules): 王不能碰杠吃 (kings never chi, pong or
kong; a discarded king is not won on), 开杠 (open kong: robbing 抢杠胡, three revealed tiles,
杠上花, 杠上炮, the hand lock 杠开后手牌不能动), 一炮多响, 王代硬, 抓鸟 (birds; none on 海底),
漏胡, 荒庄, and who may win how by king class (手中有单王可抢杠胡、接杠上炮 ... 手中无王可接炮).

Per hand (``sim.variants.anhua.checks.check_hand``: the generic ledger ``sim.kernels.ledger``,
which shares no code with the game loop, and Anhua's rule checks over it): every event a legal
move from the ledger's position, hand sizes, every tile accounted for after every event, claim
priority on each discard, Anhua's rules (kings, kongs, reveals, the locked hand, robbing, 漏胡,
一炮多响, birds, payments, king classes), and at the end the engine's final state arrays and its
record; ``tests/variants/test_anhua_checks.py`` sees each of those checks fail on a tampered
hand. The variant contract (``tests/test_variant_contract.py``) runs the same checks over a grid
of every option and, slow, over this grid at 10,000 hands a cell.

Per win (``reference.engine_wins``): ``reference.anhua.score`` of the winner's final hand (naturals,
kings by face, melds, win kind, winning tile) must give the engine's base points and exactly its
feature set, so also the king class eligibility for the win kind (§anhua-who-may-win); the hand's
score changes must equal ``reference.anhua.settle``."""

from __future__ import annotations

import time

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from joblib import Parallel, delayed
from reference import anhua as R
from reference import engine_wins as G

from sim.kernels import engine as E
from sim.kernels.agents import AGENT_EFFICIENCY, AGENT_RANDOM, AGENT_SELF_DRAW
from sim.variants.anhua import AnhuaOptions, kings_of
from sim.variants.anhua import checks as C
from sim.variants.anhua import scoring as A

GRID = C.INVARIANT_GRID
N_JOBS = 2  # CI has two cores
EFFICIENT = (AGENT_EFFICIENCY,) * 4
MIXED = (AGENT_RANDOM, AGENT_EFFICIENCY, AGENT_RANDOM, AGENT_SELF_DRAW)


def _run_grid(
    n_games: int, seed: int, agents=EFFICIENT, rescore_every: int = 1
) -> list[G.CellReport]:
    return Parallel(n_jobs=N_JOBS)(
        delayed(G.run_cell)(cell, n_games, seed + index, agents, rescore_every=rescore_every)
        for index, cell in enumerate(GRID)
    )


def _check_grid(reports: list[G.CellReport], n_games: int, min_win_rate: float = 0.95) -> dict:
    failures = [f"{r.options}: {f}" for r in reports for f in r.failures]
    assert not failures, "\n\n".join(failures[:5])
    assert len(reports) == 96
    assert all(r.games == n_games and r.failed_hands == 0 for r in reports)
    # the checks ran on real play: nearly every hand is won (荒庄 is rare with kings)
    assert all(r.wins >= min_win_rate * n_games for r in reports)
    by_kind = {kind: sum(r.by_kind[kind] for r in reports) for kind in R.WIN_KINDS}
    for r in reports:
        if not r.options["allow_rob_kong"]:
            assert r.by_kind["rob_kong"] == 0
        if not r.options["multi_ron"]:
            assert r.multi_winner_hands == 0
    return {
        "games": sum(r.games for r in reports),
        "wins": sum(r.wins for r in reports),
        "rescored": sum(r.rescored for r in reports),
        "distinct": sum(r.distinct for r in reports),
        "by_kind": by_kind,
        "multi_winner_hands": sum(r.multi_winner_hands for r in reports),
        "cpu_play": sum(r.seconds_play for r in reports),
        "cpu_reference": sum(r.seconds_reference for r in reports),
    }


@pytest.mark.engine
def test_invariant_grid_fast():
    """docs/rules/anhua.md, every cell of the grid (七王/四王 x players x 抓鸟 x 一炮多响 x
    可抢杠胡 x 王代硬, 96 cells), 100 hands each: the checks pass every hand and the reference
    agrees with every win."""
    summary = _check_grid(_run_grid(100, 3_000), 100)
    assert summary["by_kind"]["self_draw"] > 0 and summary["by_kind"]["discard"] > 0
    print(summary)


@pytest.mark.engine
def test_invariant_grid_mixed_agents():
    """docs/rules/anhua.md, the grid again, 40 hands a cell, with random agents in two
    seats (random discards, kings thrown, wins passed: 漏胡) and a self-draw-only agent in a
    third: the same checks hold."""
    summary = _check_grid(_run_grid(40, 7_000, MIXED), 40, min_win_rate=0.5)
    assert summary["by_kind"]["discard"] > 0
    print(summary)


@pytest.mark.slow
def test_invariant_grid_10000_games_per_cell():
    """The full grid (docs/rules/anhua.md: 七王/四王, 四人玩/三人玩, 抓鸟 1/2/4,
    一炮多响, 可抢杠胡, 王代硬): 96 cells x 10,000 hands = 960,000 hands, in sessions of 8
    hands with the dealer carried over (庄家: the winner deals; after 一炮多响 the discarder).

    The ledger checks every hand after every event (module docstring). The slow reference
    (``reference.anhua.score``: every decomposition, every king role, two of its pure helpers
    memoised by exactly what they read: ``reference.engine_wins.memoised_reference``) re-scores
    every win of the rare kinds (instant, 杠上花, 杠上炮, 抢杠胡) and of several winners, and
    every fourth single self-draw or discard win: about 250,000 winners, nearly all distinct
    scoring questions (a run of every win had 960,560 distinct among 960,577). Re-scoring all
    of them took 210 of the test's 440 CPU seconds and added nothing the quarter misses:
    ``test_invariant_grid_fast`` and the property test below re-score every win they see.
    Every won hand is re-settled by ``reference.anhua.settle``. Every win kind occurs (抢杠胡
    only in the cells that allow it: 2,429 in a run), and hands won by several players on one
    tile (一炮多响, 608) only where the option is on."""
    start = time.perf_counter()
    summary = _check_grid(_run_grid(10_000, 100_000, rescore_every=4), 10_000)
    assert summary["games"] == 960_000
    assert summary["wins"] / 4 < summary["rescored"] < summary["wins"] / 2
    assert all(count > 0 for count in summary["by_kind"].values())
    assert summary["multi_winner_hands"] > 0
    summary["wall_seconds"] = round(time.perf_counter() - start, 1)
    print(summary)


# --------------------------------------------------------------------------------------------
# The same checks on random seeds and options


@pytest.mark.engine
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    cell=st.sampled_from(GRID),
    tier_mode=st.sampled_from(("identical_sets", "count")),
    eligibility=st.booleans(),
    window=st.sampled_from(("first_turn", "until_first_claim")),
    reveal=st.sampled_from((2, 3)),
    min_wall_extra=st.integers(0, 3),
    quads=st.booleans(),
    king_claimable=st.booleans(),
    rob_direct=st.booleans(),
    dealer_bonus=st.booleans(),
    bonus_timing=st.sampled_from(("after_birds", "before_birds")),
    multi_tile=st.sampled_from(("best_only", "double")),
    agents=st.sampled_from((EFFICIENT, MIXED, (AGENT_RANDOM,) * 4)),
)
def test_property_random_seeds_and_options(
    seed,
    cell,
    tier_mode,
    eligibility,
    window,
    reveal,
    min_wall_extra,
    quads,
    king_claimable,
    rob_direct,
    dealer_bonus,
    bonus_timing,
    multi_tile,
    agents,
):
    """docs/rules/anhua.md on any seed, any agents and any combination of the options
    (all of §anhua-options but ``first_dealer``): the ledger passes every hand and the reference
    agrees with every win (王代硬, 漏胡, 开杠, 一炮多响 ...). The reference scores a kong bloom
    without the doubling of ``kong_multi_tile_win = double``; the ledger checks that factor."""
    options = {
        **cell,
        "king_tier_mode": tier_mode,
        "king_as_itself_affects_eligibility": eligibility,
        "instant_king_win_window": window,
        "kong_reveal_count": reveal,
        "kong_min_wall": reveal + 1 + min_wall_extra,
        "seven_pairs_allow_quad": quads,
        "discarded_king_claimable_for_win": king_claimable,
        "allow_rob_direct_kong": rob_direct,
        "dealer_bonus": dealer_bonus,
        "dealer_bonus_timing": bonus_timing,
        "kong_multi_tile_win": multi_tile,
    }
    report = G.run_cell(options, 12, seed, agents)
    assert not report.failures, "\n\n".join(report.failures)
    assert report.games == 12 and report.failed_hands == 0


@pytest.mark.engine
def test_ledger_checks_doubled_blooms():
    """开杠 (docs/rules/anhua.md, 杠上炮: 如2张都可以胡,则胡牌倍率翻番), option
    kong_multi_tile_win = double (§anhua-open-kong step 3): the ledger passes 4,000 played hands,
    among them blooms with doubled points and blooms without."""
    played = G.play_checked(AnhuaOptions(kong_multi_tile_win="double"), 4000, 75, EFFICIENT)
    assert (played.errors[:, 0] == C.OK).all()
    blooms = played.records[played.records[:, E.R_WIN_KIND] == A.HOW_KONG_BLOOM]
    base = np.array([A.base_points(int(features)) for features in blooms[:, E.R_FEATURES]])
    doubled = blooms[:, E.R_POINTS] == 2 * base
    assert doubled.any() and (blooms[~doubled, E.R_POINTS] == base[~doubled]).all()
    assert (~doubled).any()


@pytest.mark.engine
@pytest.mark.parametrize("window", ["first_turn", "until_first_claim"])
def test_ledger_checks_instant_wins_on_the_dealt_hand(window):
    """起手四王/七王 (docs/rules/anhua.md: 发完牌后,玩家手牌有四王或七王 ... 即可胡牌), options
    instant_king_win_counts_draw and instant_king_win_window (§anhua-instant-king-win): on the same
    10,000 walls the ledger passes every hand, which checks each instant win against the winner's
    kings (dealt and still held, or, counting draws, held). Counting the draw makes instant wins
    more frequent (162 and 196 here in the first-turn window)."""
    instant = {}
    for counts_draw in (False, True):
        options = AnhuaOptions(
            instant_king_win_counts_draw=counts_draw,
            instant_king_win_window=window,
            king_tier_mode="count",
        )
        played = G.play_checked(options, 10_000, 76, EFFICIENT)
        assert (played.errors[:, 0] == C.OK).all()
        instant[counts_draw] = (played.records[:, E.R_WIN_KIND] == A.HOW_INSTANT).sum()
    assert instant[True] > instant[False] > 0


@pytest.mark.engine
@pytest.mark.parametrize("as_itself", [False, True])
def test_claimed_kings_pass_the_ledger_and_the_reference(as_itself):
    """王 (docs/rules/anhua.md, 王的确定; 注意事项: 手中无王可接炮), option
    discarded_king_claimable_for_win (§anhua-discarded-kings): random agents discard kings; every
    hand passes the ledger (a claimed king does not count as a physical king of the winner),
    and every win, those on a claimed king among them, scores as the slow reference scores it
    with the claimed king a natural tile of its face."""
    options = {"discarded_king_claimable_for_win": True, "king_as_itself_is_hard": as_itself}
    report = G.run_cell(options, 3000, 79, MIXED)
    assert not report.failures, "\n\n".join(report.failures)
    assert report.failed_hands == 0 and report.wins > 2000
    played = G.play_checked(AnhuaOptions(**options), 3000, 79, MIXED)
    records = played.records
    claimed = np.isin(records[:, E.R_WIN_KIND], (A.HOW_DISCARD, A.HOW_KONG_CANNON))
    on_kings = [
        row
        for row in records[claimed]
        if row[E.R_WINNING_TILE] in kings_of(int(row[E.R_INDICATOR]))
    ]
    assert on_kings


@pytest.mark.engine
@pytest.mark.parametrize("as_itself", [False, True])
def test_no_win_that_its_king_class_forbids(as_itself):
    """Who may win how by king class (source:
    手中有单王可抢杠胡、接杠上炮;除了抢杠胡和杠上炮之外其他
    任何情况都不能接炮。手中有三王,四王、六王、七王都不能接炮,不能杠上炮,不能抢杠胡。手中无王可接炮;
    §anhua-who-may-win), from the records and the winners' hands: a discard win is 硬 (feature 硬庄;
    with 王代硬 off not one king in the hand), a rob or a kong cannon has no king tier; each class
    is classified by the reference's tier table, and discard, rob and cannon wins occur."""
    options = AnhuaOptions(king_as_itself_is_hard=as_itself)
    played = G.play_checked(options, 3000, 43)
    records, win_hands = played.records, played.win_hands
    assert (played.errors[:, 0] == C.OK).all()
    tiers = A.FEATURE_THREE_KINGS | A.FEATURE_FOUR_KINGS | A.FEATURE_SIX_KINGS
    tiers |= A.FEATURE_SEVEN_KINGS
    seen = {"discard": 0, "rob_kong": 0, "kong_cannon": 0}
    for index in np.flatnonzero(records[:, E.R_OUTCOME] == E.OUTCOME_WIN):
        how = R.WIN_KINDS[records[index, E.R_WIN_KIND]]
        x_kind, y_kind = kings_of(int(records[index, E.R_INDICATOR]), options.king_mode)
        for w in range(records[index, E.R_N_WINNERS]):
            features = int(records[index, E.R_FEATURES + w])
            held = [int(win_hands[index, w, k]) if k >= 0 else 0 for k in (x_kind, y_kind)]
            physical = R.class_of(R.tier_of(held, "identical_sets"))
            effective = (
                "hard" if features & A.FEATURE_HARD else "heavy" if features & tiers else "loose"
            )
            if how in seen:
                seen[how] += 1
                assert R.eligible(effective, how), (index, how, features)
                if not as_itself:
                    assert physical == effective and R.eligible(physical, how)
    assert all(count > 0 for count in seen.values()), seen


@pytest.mark.engine
def test_mutation_reference_rejects_a_tampered_win():
    """docs/rules/anhua.md 手中有单王 ... 不能接炮, 清一色: the re-scoring catches a win the
    engine got wrong: a discard winner's natural tile swapped for a king (单王 may not win on a
    discard), and a self-draw winner given 清一色."""
    options = AnhuaOptions()
    played = G.play_checked(options, 400, 47)
    records, win_hands, win_melds = played.records, played.win_hands, played.win_melds
    assert G.verify_wins(records, win_hands, win_melds, options)[2] == []
    discard = int(np.flatnonzero(records[:, E.R_WIN_KIND] == A.HOW_DISCARD)[0])
    self_draw = int(np.flatnonzero(records[:, E.R_WIN_KIND] == A.HOW_SELF_DRAW)[0])
    hands = win_hands.copy()
    x_kind, y_kind = kings_of(int(records[discard, E.R_INDICATOR]))
    natural = next(
        k
        for k in np.flatnonzero(hands[discard, 0])
        if k not in (x_kind, y_kind, records[discard, E.R_WINNING_TILE])
    )
    hands[discard, 0, natural] -= 1
    hands[discard, 0, y_kind] += 1
    tampered = records.copy()
    tampered[self_draw, E.R_FEATURES] ^= A.FEATURE_FLUSH
    failures = G.verify_wins(tampered, hands, win_melds, options)[2]
    assert len(failures) == 2
    assert failures[0].startswith(f"game {min(discard, self_draw)} ")


@pytest.mark.engine
def test_memoised_reference_gives_the_same_scores():
    """The two memoised helpers of ``reference.engine_wins.memoised_reference`` change no answer:
    the same wins scored with and without them, and the originals are back afterwards."""
    options = AnhuaOptions(king_as_itself_is_hard=True, king_mode="four_kings")
    opts = dict(options.__dict__)
    played = G.play_checked(options, 300, 53)
    records, win_hands, win_melds = played.records, played.win_hands, played.win_melds
    hands = []
    for index in np.flatnonzero(records[:, E.R_OUTCOME] == E.OUTCOME_WIN):
        how = R.WIN_KINDS[records[index, E.R_WIN_KIND]]
        x_kind, y_kind = kings_of(int(records[index, E.R_INDICATOR]), options.king_mode)
        melds = [(t, f) for t, f in win_melds[index, 0].tolist() if t >= 0]
        tile = int(records[index, E.R_WINNING_TILE])
        hands.append(G.winning_hand(win_hands[index, 0], melds, how, tile, x_kind, y_kind))
    G.V.clear_caches()
    plain = [R.score(hand, opts) for hand in hands]
    placements, slots = G.V._placements, R._slots_of_group
    with G.memoised_reference():
        memoised = [R.score(hand, opts) for hand in hands]
    assert (G.V._placements, R._slots_of_group) == (placements, slots)
    assert memoised == plain and len(hands) > 250


@pytest.mark.engine
def test_a_sampled_rescoring_keeps_every_rare_win():
    """The sampled re-scoring of the 10,000-a-cell grid (``rescore_every``): every win of a rare
    kind (杠上花 here, and several winners) and every fourth single self-draw or discard win,
    counted from the first; a wrong win among those re-scored is still caught."""
    options = AnhuaOptions()
    played = G.play_checked(options, 400, 47)
    records, win_hands, win_melds = played.records, played.win_hands, played.win_melds
    won = records[:, E.R_OUTCOME] == E.OUTCOME_WIN
    common = won & np.isin(records[:, E.R_WIN_KIND], (A.HOW_SELF_DRAW, A.HOW_DISCARD))
    common &= records[:, E.R_N_WINNERS] == 1
    assert (won & ~common).any()
    n_common = int(common.sum())
    rare = int(records[won & ~common, E.R_N_WINNERS].sum())
    rescored, _, failures = G.verify_wins(records, win_hands, win_melds, options, 4)
    assert failures == [] and rescored == rare + -(-n_common // 4)
    first_common = int(np.flatnonzero(common)[0])
    tampered = records.copy()
    tampered[first_common, E.R_FEATURES] ^= A.FEATURE_FLUSH
    assert len(G.verify_wins(tampered, win_hands, win_melds, options, 4)[2]) == 1
    second_common = int(np.flatnonzero(common)[1])
    tampered = records.copy()
    tampered[second_common, E.R_FEATURES] ^= A.FEATURE_FLUSH
    assert G.verify_wins(tampered, win_hands, win_melds, options, 4)[2] == []
