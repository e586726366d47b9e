"""The value and cautious agents of Weng'an and Anqing: the steer word's hints
(``sim.kernels.agents.STEER_*``) and what the agents make of them, each variant's hints
(``sim/variants/<variant>/agent.py``), legal play with every agent at every seat, and (slow) on
duplicate deals the ordering the agents must keep.

Rules: docs/rules/wengan.md (贵州瓮安麻将): 大对子 5 against 平胡 1, 平胡点炮需要通行证,
幺鸡 (1s) and 乌骨鸡 (8p) are chickens, 报听; docs/rules/anqing.md (安庆麻将): 只能自摸胡牌,
碰碰胡, 包 (three 口 from one feeder), 杠牌 must be konged.
"""

from __future__ import annotations

import importlib
import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.analysis.duplicate import (
    SOURCE_ROWS,
    duplicate_comparison,
    load_comparison,
    paired_differences,
)
from sim.core.tables import load_tables
from sim.core.tiles import kind_id, parse_tiles
from sim.core.wall import shuffled_walls
from sim.kernels import agents as AG
from sim.kernels import hand as H
from sim.kernels.agent_params import default_row
from sim.kernels.moves import A_TYPE, A_VALUE, ACT_KONG
from sim.kernels.state import HAND_ROW, HAND_STEER_FORMS, N_STATUS
from sim.running.agents import AGENTS
from sim.running.config import load_config
from sim.studies.compare import compare
from sim.variants import get_variant
from sim.variants.anqing import agent as QA
from sim.variants.anqing import hooks as AH
from sim.variants.wengan import WenganOptions
from sim.variants.wengan import agent as WA
from sim.variants.wengan import hooks as WH

FORMS = H.FORM_STANDARD | H.FORM_SEVEN_PAIRS | H.OPTION_QUADS  # as Weng'an and Anqing steer
WENGAN_HINTS = (WA.TRIPLETS_WORTH << AG.STEER_TRIPLETS_SHIFT) | (
    1 << (AG.STEER_LEAD_SHIFT + kind_id("1s"))
)
FIELD = ("value", "cautious", "efficiency", "random")
DEFAULTS = default_row()
"""Every agent parameter at its default (one seat's row of ``GameState.agent_params``)."""
HOPEFUL = DEFAULTS.copy()
HOPEFUL[AG.P_CHANCE_PER_SHANTEN] = 0.3
"""The defaults with ``chance_per_shanten`` 0.3: 大对子 worth 5 is played one shanten further
than the plain hand (5 x 0.3 >= 1; at the default 0.15 only when it costs none)."""


def _seat(text: str):
    counts = np.zeros(34, np.uint8)
    for kind in parse_tiles(text):
        counts[kind] += 1
    keys = np.zeros(4, np.int64)
    for kind in range(34):
        keys[H.KIND_SUIT[kind]] += int(counts[kind]) * H.KIND_POWER[kind]
    return counts, keys


def _discard(agent, text, steer, visible=None, params=DEFAULTS, n_kinds=27):
    counts, keys = _seat(text)
    visible = np.zeros(34, np.uint8) if visible is None else visible
    return AG.choose_discard(
        agent, counts, keys, np.int64(0), np.zeros(34, np.bool_), visible, n_kinds, steer,
        np.ones(34, np.bool_), np.int64(0), params, load_tables(), AG.discard_space(),
    )  # fmt: skip


def _triplets_reference(counts, wilds):
    """All-triplets shanten by brute force: every choice of N triplet kinds and a pair kind."""
    tiles = int(counts.sum()) + wilds
    sets = tiles // 3
    kinds = [k for k in range(34) if counts[k] > 0]
    kinds += [-1 - i for i in range(sets + 1)]  # empty kinds, when fewer are held
    best = 0
    for triplets in itertools.combinations(kinds, sets):
        filled = sum(min(int(counts[k]), 3) for k in triplets if k >= 0)
        rest = [min(int(counts[k]), 2) for k in kinds if k >= 0 and k not in triplets]
        pair = max(rest, default=0)
        best = max(best, filled + pair)
    return max(3 * sets + 2 - best - wilds, 0) - 1


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 33), min_size=1, max_size=14), st.integers(0, 2))
def test_triplets_shanten_matches_brute_force(tiles, wilds):
    counts = np.bincount(tiles, minlength=34)
    if counts.max() > 4:
        counts = np.minimum(counts, 4)
    wild = np.zeros(34, np.bool_)
    hand = counts.astype(np.uint8)
    if wilds:  # wilds as copies of kind 33 marked wild
        hand[33] = 0
        hand[33] += wilds
        wild[33] = True
        counts[33] = 0
    assert AG.triplets_shanten(hand, wild) == _triplets_reference(counts, wilds)


def test_value_plays_for_all_triplets_when_they_are_worth_their_chance():
    """大对子 (5 against a 平胡's 1): with a triplet and four pairs, the value agent told so
    (and hopeful enough: ``HOPEFUL``) discards a single, one that leaves the least all-triplets
    shanten."""
    text = "1m 1m 1m 3p 3p 6p 6p 2s 2s 9s 9s 4m 7p 5s"
    steer = FORMS | WENGAN_HINTS
    value = _discard(AG.AGENT_VALUE, text, steer, params=HOPEFUL)
    counts, _ = _seat(text)
    assert counts[value] == 1
    no_wild = np.zeros(34, np.bool_)
    after = []
    for kind in np.flatnonzero(counts):
        counts[kind] -= 1
        after.append(AG.triplets_shanten(counts, no_wild))
        counts[kind] += 1
    counts[value] -= 1
    assert AG.triplets_shanten(counts, no_wild) == min(after) == 2
    # no hints: the value agent of docs/strategies.md, the same as before
    assert _discard(AG.AGENT_VALUE, text, FORMS) == AG.value_discard(
        *_value_args(text), DEFAULTS, load_tables()
    )


def _value_args(text):
    counts, keys = _seat(text)
    return (counts, keys, np.int64(0), np.zeros(34, np.bool_), np.zeros(34, np.uint8), 27, FORMS,
            np.ones(34, np.bool_))  # fmt: skip


def test_value_pongs_under_triplets_and_claims_as_efficiency_when_claims_pay():
    tables = load_tables()
    counts, keys = _seat("1m 1m 1m 3p 3p 6p 6p 2s 2s 9s 9s 4m 7p")
    actions = np.zeros((8, 8), np.int64)
    actions[0, A_TYPE] = 3  # ACT_PONG
    from sim.kernels.moves import ACT_PONG

    actions[0, A_TYPE] = ACT_PONG
    actions[0, 1] = kind_id("3p")
    args = (counts, keys, np.int64(0), np.zeros(34, np.bool_), kind_id("3p"), actions, 1)
    hinted = FORMS | WENGAN_HINTS
    assert AG.choose_claim(AG.AGENT_VALUE, *args, hinted, np.int64(0), HOPEFUL, tables) == 0
    assert AG.choose_claim(AG.AGENT_VALUE, *args, FORMS, np.int64(0), DEFAULTS, tables) == -1


def test_a_claim_the_variant_lists_as_worth_it_is_made_as_efficiency_makes_it():
    """A pong listed with a worth (``A_VALUE``) of ``claim_worth_from`` or more is claimed by
    the value agent when the hand is no further from ready after it (the efficiency agent's
    rule); below that worth, only when it brings the hand ``claim_gain`` nearer. Anqing's
    claims carry the 口 (004, §anqing-bao "包") the claimer then holds of the discarder's."""
    from sim.kernels.moves import ACT_PONG

    tables = load_tables()
    counts, keys = _seat("1m 1m 1m 3p 3p 6p 6p 2s 2s 9s 9s 4m 7p")
    actions = np.zeros((8, 8), np.int64)
    actions[0, A_TYPE] = ACT_PONG
    actions[0, 1] = kind_id("3p")
    args = (counts, keys, np.int64(0), np.zeros(34, np.bool_), kind_id("3p"), actions, 1)
    steer = FORMS | AG.STEER_TARGETS
    assert AG.choose_claim(AG.AGENT_EFFICIENCY, *args, steer, np.int64(0), DEFAULTS, tables) == 0
    lenient = DEFAULTS.copy()
    lenient[AG.P_CLAIM_WORTH_FROM] = 2
    cases = ((0, DEFAULTS, False), (2, DEFAULTS, False), (3, DEFAULTS, True), (2, lenient, True))
    for worth, params, taken in cases:
        actions[0, A_VALUE] = worth
        for agent in (AG.AGENT_VALUE, AG.AGENT_CAUTIOUS):
            row = AG.choose_claim(agent, *args, steer, np.int64(0), params, tables)
            assert row == (0 if taken else -1), (worth, agent)


def test_anqing_lists_each_claim_with_the_mouths_it_makes():
    """包 (004, §anqing-bao): three 口 (melds of one player's discards) make their feeder pay. Each
    pong and chi Anqing lists carries in ``A_VALUE`` the 口 of the discarder's the claimer holds
    after it: one more than before."""
    from anqing_steps import Table

    from sim.kernels import moves as M
    from sim.kernels import state as S

    table = Table({1: "1m 2m 7s 7s 9p", 2: "7s 3m 3m 9p 9p"})
    table.state.status[1, AH.ST_MOUTHS_FROM] = 2 << (4 * 0)  # seat 1 took two 口 from seat 0
    claims = table.claims(0, "3m")
    rows = [(int(r[M.A_TYPE]), int(r[M.A_VALUE])) for r in claims[1]]
    assert rows == [(M.ACT_CHI, 3)]  # the chi 1m 2m 3m: his third 口, a 包 on seat 0
    assert [(int(r[M.A_TYPE]), int(r[M.A_VALUE])) for r in claims[2]] == [(M.ACT_PONG, 1)]
    table.tell(S.EVENT_PONG, 2, kind_id("9p"), 0)  # seat 2 pongs a 9p of seat 0's
    claims = table.claims(0, "3m")
    assert [(int(r[M.A_TYPE]), int(r[M.A_VALUE])) for r in claims[2]] == [(M.ACT_PONG, 2)]


def test_value_leads_with_a_charging_chicken_when_it_costs_nothing():
    """冲锋鸡: the hand's first discarded 幺鸡 (1s), unclaimed, counts double for its discarder:
    told to lead with 1s, the value agent discards it while none is seen, if no shanten is lost;
    once a 1s is seen it plays as before."""
    text = "1m 2m 3m 4p 5p 6p 7s 8s 9s 2m 2m 1s 9p 5m"
    lead = 1 << (AG.STEER_LEAD_SHIFT + kind_id("1s"))
    plain = _discard(AG.AGENT_VALUE, text, FORMS)
    assert plain != kind_id("1s")
    assert _discard(AG.AGENT_VALUE, text, FORMS | lead) == kind_id("1s")
    seen = np.zeros(34, np.uint8)
    seen[kind_id("1s")] = 1
    assert _discard(AG.AGENT_VALUE, text, FORMS | lead, seen) == _discard(
        AG.AGENT_VALUE, text, FORMS, seen
    )
    # a lead that would cost a shanten is not taken: 1s inside a run
    text = "1s 2s 3s 4p 5p 6p 7m 8m 9m 2m 2m 5p 9p 5m"
    assert _discard(AG.AGENT_VALUE, text, FORMS | lead) != kind_id("1s")


def test_cautious_plays_safe_when_told_of_danger():
    """An opponent looks ready (报听, or pongs shown: ``STEER_DANGER``): the cautious agent
    discards a kind with three copies accounted for when it costs at most one shanten."""
    text = "1m 2m 3m 4p 5p 6p 7s 8s 2m 2m 5p 9p 3s 9m"
    visible = np.zeros(34, np.uint8)
    visible[kind_id("9p")] = 2  # 9p: its copy held and two seen
    steer = FORMS | WENGAN_HINTS
    calm = _discard(AG.AGENT_CAUTIOUS, text, steer, visible)
    careful = _discard(AG.AGENT_CAUTIOUS, text, steer | AG.STEER_DANGER, visible)
    assert careful == kind_id("9p")
    assert calm == _discard(AG.AGENT_VALUE, text, steer, visible)


def test_wengan_hints_follow_its_chicken_options():
    """冲锋鸡 on 1s, and on 8p too with 乌骨鸡 under the plain mode (4321 / 3211 count 1s only);
    none without 冲锋鸡 (when the module leads at all); 七对 worth 5."""

    def lead(**options):
        params = WenganOptions(**options).params()
        return WA.steer_hints(params) >> AG.STEER_LEAD_SHIFT

    if not WA.LEAD_CHICKENS:  # measured not to pay (docs/strategies.md): no lead at all
        assert lead() == lead(wu_gu_ji=True) == 0
        return

    assert lead() == 1 << kind_id("1s")
    assert lead(wu_gu_ji=True) == (1 << kind_id("1s")) | (1 << kind_id("8p"))
    assert lead(wu_gu_ji=True, chong_feng_mode="4321") == 1 << kind_id("1s")
    assert lead(chong_feng_mode="none") == 0
    hints = WA.steer_hints(WenganOptions().params())
    assert (hints >> AG.STEER_TRIPLETS_SHIFT) & 15 == (WA.TRIPLETS_WORTH if WA.TRIPLETS else 0)
    assert (hints >> AG.STEER_PAIRS_SHIFT) & 15 == WA.PAIRS_WORTH


def test_wengan_marks_danger_for_the_seat_whose_turn_begins():
    status = np.zeros((5, N_STATUS), np.int64)
    status[2, WH.ST_BAO_TING] = 1
    WA.mark_danger(status, 0, WH.ST_BAO_TING, WH.ST_MELDS_MADE)
    assert status[HAND_ROW, HAND_STEER_FORMS] & AG.STEER_DANGER
    WA.mark_danger(status, 2, WH.ST_BAO_TING, WH.ST_MELDS_MADE)  # its own 报听 is no danger
    assert not status[HAND_ROW, HAND_STEER_FORMS] & AG.STEER_DANGER
    status[1, WH.ST_MELDS_MADE] = 4  # pongs and kongs shown: a cue only with DANGER_MELDS > 0
    WA.mark_danger(status, 2, WH.ST_BAO_TING, WH.ST_MELDS_MADE)
    assert bool(status[HAND_ROW, HAND_STEER_FORMS] & AG.STEER_DANGER) == (0 < WA.DANGER_MELDS <= 4)


def test_anqing_marks_danger_and_whether_the_next_seat_holds_it():
    """包 (004, §anqing-bao "包"): a seat whose discards an opponent took twice (two 口) is in
    danger; the danger is the next seat's when he holds them (he may chi as well as pong)."""
    status = np.zeros((5, N_STATUS), np.int64)
    mouths = AH.ST_MOUTHS_FROM
    status[2, mouths] = QA.DANGER_MOUTHS << (4 * 0)  # seat 2 took two 口 from seat 0
    QA.mark_danger(status, 0, mouths)
    word = status[HAND_ROW, HAND_STEER_FORMS]
    assert word & AG.STEER_DANGER and not word & AG.STEER_DANGER_NEXT
    QA.mark_danger(status, 1, mouths)  # seat 1 fed nobody twice
    assert not status[HAND_ROW, HAND_STEER_FORMS] & (AG.STEER_DANGER | AG.STEER_DANGER_NEXT)
    status[1, mouths] = QA.DANGER_MOUTHS << (4 * 0)  # seat 1, next after 0, took two too
    QA.mark_danger(status, 0, mouths)
    word = status[HAND_ROW, HAND_STEER_FORMS]
    assert word & AG.STEER_DANGER and word & AG.STEER_DANGER_NEXT
    status[0, mouths] = QA.DANGER_MOUTHS << (4 * 3)  # seat 0 is the one after seat 3
    QA.mark_danger(status, 3, mouths)
    assert status[HAND_ROW, HAND_STEER_FORMS] & AG.STEER_DANGER_NEXT


def test_cautious_keeps_to_honours_when_the_next_seat_is_in_danger_of_chi():
    """With the next seat holding two 口 of ours (``STEER_DANGER_NEXT``), a numbered kind with
    three copies accounted for may still complete his chi: only an honour is safe."""
    text = "1m 2m 3m 4p 5p 6p 7s 8s 2m 2m 9p 1s E E"
    visible = np.zeros(34, np.uint8)
    visible[kind_id("8s")] = 2  # 8s: three accounted for (2m too: all held), safe from a pong
    visible[kind_id("E")] = 1  # E likewise, and no chi takes it
    steer = FORMS | AG.STEER_CLAIMS_PAY
    danger = steer | AG.STEER_DANGER
    costly = np.array(DEFAULTS)
    costly[AG.P_DANGER_COST] = 1
    value = _discard(AG.AGENT_VALUE, text, danger, visible, costly, 34)
    plain = _discard(AG.AGENT_CAUTIOUS, text, danger, visible, costly, 34)
    chi_danger = danger | AG.STEER_DANGER_NEXT
    assert value not in (kind_id("8s"), kind_id("E"))  # neither is the value agent's choice
    assert plain in (kind_id("2m"), kind_id("8s"))  # a numbered kind safe from a pong

    assert _discard(AG.AGENT_CAUTIOUS, text, chi_danger, visible, costly, 34) == kind_id("E")


def test_a_richer_target_is_played_from_further():
    """A target the variant pays w plain wins is played a step further for each factor
    ``chance_per_shanten`` that keeps w above double (``_reach``): Weng'an's 清一色 (10,
    §wengan-pattern-score) at chance 0.3 from two tiles off suit instead of one, 七对 (5) at 0.5
    from four pairs; at chance 0 the seat's own thresholds, as in Anhua."""
    row = np.array(DEFAULTS)
    hints = (10 << AG.STEER_FLUSH_SHIFT) | (5 << AG.STEER_PAIRS_SHIFT)
    row[AG.P_CHANCE_PER_SHANTEN] = 0.0
    assert AG._hinted_targets(hints, row) == (1, 5)
    row[AG.P_CHANCE_PER_SHANTEN] = 0.3
    assert AG._hinted_targets(hints, row) == (2, 5)
    row[AG.P_CHANCE_PER_SHANTEN] = 0.5
    assert AG._hinted_targets(hints, row) == (3, 4)
    row[AG.P_FLUSH_OFF_SUIT] = -1  # never stays never
    row[AG.P_SEVEN_PAIRS_FROM] = 8
    assert AG._hinted_targets(hints, row) == (-1, 34)
    assert AG._hinted_targets(np.int64(AG.STEER_CLAIMS_PAY), DEFAULTS) == (-1, 34)
    for worth in range(1, 16):  # the reach is the most k with w x chance ** k >= 2
        for chance in (0.0, 0.2, 0.3, 0.5, 0.7, 0.9):
            k = AG._reach(worth, chance)
            assert k == 6 or worth * chance ** (k + 1) < 2
            assert k == 0 or worth * chance**k >= 2


def test_cautious_makes_only_the_kongs_nobody_may_win_on():
    actions = np.zeros((4, 8), np.int64)
    actions[0, A_TYPE] = ACT_KONG
    actions[0, 1] = kind_id("5m")
    assert AG.choose_own_turn(AG.AGENT_CAUTIOUS, actions, 1, np.int64(0)) == -1
    actions[0, A_VALUE] = 1  # the variant says nobody may win on what it reveals
    assert AG.choose_own_turn(AG.AGENT_CAUTIOUS, actions, 1, np.int64(0)) == 0


@pytest.mark.engine
@pytest.mark.parametrize("variant", ["wengan", "anqing"])
def test_every_agent_at_every_seat_plays_legally(variant):
    """The variant's rule checks (``checks.check_games``: the generic ledger and the variant's
    rules: 002 不可以吃, 平胡点炮需要通行证, 报听 ...; 004 只能自摸胡牌, 钻不可以吃碰, 杠牌
    ...) over hands with value, cautious, efficiency and random at every seat (four
    rotations)."""
    entry = get_variant(variant)
    checks = importlib.import_module(f"sim.variants.{variant}.checks")
    options = entry.options_class()
    ids = tuple(AGENTS[name] for name in FIELD)
    for rotation in range(4):
        seats = tuple(ids[(seat + rotation) % 4] for seat in range(4))
        walls = shuffled_walls(300, entry.n_tiles, 700 + rotation)
        dealers = np.random.default_rng(rotation).integers(0, 4, 300 // 8 + 1)
        checked = checks.check_games(options, walls, dealers, 8, seats, 900 + rotation)
        assert int((checked.errors[:, 0] != 0).sum()) == 0, checked.first_failure()


RANKING_WALLS = {"wengan": 3000, "anqing": 10_000}
"""Walls of the slow ranking tests, each played in every order of the four agents, rotated (24
seatings: 72,000 Weng'an hands, 240,000 Anqing hands, a minute or two each on one core). Anqing
plays the walls, seed and seatings of ``results/anqing-agents``, so the test sees the numbers
of docs/strategies.md; its value agent's edge (about +0.6 a hand) needs the 10,000 walls."""


@pytest.fixture(scope="module")
def rankings(tmp_path_factory):
    """The comparison of efficiency, value, cautious and random per variant (computed once)."""
    cache = {}

    def ranking(variant):
        if variant not in cache:
            config_path = {"wengan": "configs/wengan-4p.toml", "anqing": "configs/anqing.toml"}
            config = load_config(config_path[variant], [f"run.games={RANKING_WALLS[variant]}"])
            agents = ("efficiency", "value", "cautious", "random")
            out = tmp_path_factory.mktemp(variant)
            compare(config, agents, out / "cmp", jobs=1, progress=False, orders=True)
            _, hands = load_comparison(out / "cmp")
            pairs = paired_differences(hands, agents).set_index(["first", "second"])
            frame = duplicate_comparison(hands, agents).set_index("agent")
            cache[variant] = pairs, frame
        return cache[variant]

    return ranking


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["wengan", "anqing"])
def test_efficiency_beats_random(rankings, variant):
    """The agents' first required ordering on duplicate deals (docs/rules/wengan.md,
    docs/rules/anqing.md, default options; every order of the agents, rotated): efficiency
    beats random in mean score per hand with a 95% interval (clustered by wall) above zero."""
    pairs, _ = rankings(variant)
    assert pairs.loc[("efficiency", "random"), "lo"] > 0


@pytest.mark.slow
def test_value_beats_efficiency_in_anqing(rankings):
    """A required ordering (docs/rules/anqing.md, default options; every order of the
    agents, rotated, on 10,000 walls): value beats efficiency with an interval excluding zero,
    +0.59 [+0.21, +0.97] (claims as efficiency, 门清 near ready, the 跑风 wait:
    docs/strategies.md)."""
    pairs, _ = rankings("anqing")
    assert pairs.loc[("efficiency", "value"), "hi"] < 0


@pytest.mark.slow
def test_value_is_ahead_of_efficiency_in_wengan(rankings):
    """Weng'an (docs/rules/wengan.md): value's edge is small (about +0.1 a hand: its wait choice,
    大对子 and 七对 worth 5 plain wins, §wengan-pattern-score), so 3,000 walls show it ahead without
    separating the two (+0.05 [-0.04, +0.14]); the interval comes from more walls (the next test,
    and the README table's 20,000 walls x 24 seatings: +0.10 [+0.07, +0.14])."""
    pairs, _ = rankings("wengan")
    assert pairs.loc[("efficiency", "value"), "diff"] < 0


WENGAN_HEAD_TO_HEAD_WALLS = 20_000
"""Walls of the Weng'an head-to-head test (4 rotations: 80,000 hands, about a minute on one
core)."""


@pytest.mark.slow
def test_value_beats_efficiency_in_wengan_head_to_head(tmp_path):
    """A required ordering in Weng'an (docs/rules/wengan.md, default options), on
    duplicate deals with the two agents alone at the table, where the walls' luck cancels
    best: value beats efficiency with an interval clustered by wall above zero (on the config's
    seed here; +0.04 [+0.02, +0.05] on seed 11's 20,000 walls, docs/strategies.md)."""
    config = load_config("configs/wengan-4p.toml", [f"run.games={WENGAN_HEAD_TO_HEAD_WALLS}"])
    agents = ("efficiency", "value")
    compare(config, agents, tmp_path / "cmp", jobs=1, progress=False)
    _, hands = load_comparison(tmp_path / "cmp")
    pairs = paired_differences(hands, agents).set_index(["first", "second"])
    assert pairs.loc[("efficiency", "value"), "hi"] < 0


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["wengan", "anqing"])
def test_cautious_deals_in_less_than_value(rankings, variant):
    """A required ordering where deal-ins exist (docs/strategies.md): cautious deals in less
    often than value (README table: Weng'an 5.2 % against 5.4 %, Anqing 4.1 % against
    6.2 %). Weng'an: a win on its discard (平胡点炮需要通行证; cautious
    gives up at most a shanten for a safe discard once an opponent declared 报听); Anqing:
    paying a 包 (three 口 fed or taken; cautious keeps its hand concealed, claiming only what
    makes it ready, and gives up at most a shanten for a safe discard once an opponent holds
    two 口 of its discards, only an honour when he is the next seat)."""
    _, frame = rankings(variant)
    assert frame.loc["cautious", "deal_in_rate"] < frame.loc["value", "deal_in_rate"]


def test_value_keeps_the_shaped_wait_when_it_is_worth_more():
    """跑风 (004, §anqing-zuan-conditions / §anqing-score-table: a win on the pair, the middle or
    the edge tile scores 跑风 6 on a base of 3): told a shaped win is worth two plain ones
    (``STEER_SHAPED_SHIFT``), the ready value agent keeps the closed wait 5p-7p on 6p (4 unseen,
    worth 2 each) rather than the open 4p-5p on 3p / 6p (2 + 4 unseen, worth 1) that the efficiency
    agent keeps."""
    text = "1m 2m 3m 4m 5m 6m 7s 8s 9s E E 4p 5p 7p"
    visible = np.zeros(34, np.uint8)
    visible[kind_id("3p")] = 2
    steer = FORMS | AG.STEER_TARGETS
    shaped = steer | (QA.SHAPED_WORTH << AG.STEER_SHAPED_SHIFT)
    assert QA.SHAPED_WORTH == 2
    assert _discard(AG.AGENT_EFFICIENCY, text, steer, visible, n_kinds=34) == kind_id("7p")
    assert _discard(AG.AGENT_VALUE, text, steer, visible, n_kinds=34) == kind_id("7p")
    assert _discard(AG.AGENT_VALUE, text, shaped, visible, n_kinds=34) == kind_id("4p")
    visible[kind_id("3p")] = 0  # open wait 8 unseen against 4 x 2: a tie keeps efficiency's
    assert _discard(AG.AGENT_VALUE, text, shaped, visible, n_kinds=34) == kind_id("7p")


def test_shaped_win_reads_the_pair_the_middle_and_the_edges():
    """``_shaped_win``: 跑风's three shapes (004, §anqing-zuan-conditions "跑风" 1-3), each on a
    complete hand."""
    tables = load_tables()
    no_wild = np.zeros(34, np.bool_)

    def shaped(before, drawn):
        counts, _ = _seat(before)
        _, keys = _seat(before + " " + drawn)
        return AG._shaped_win(counts, keys, 0, no_wild, kind_id(drawn), FORMS, tables)

    sets = "1m 2m 3m 4m 5m 6m 7s 8s 9s"
    assert shaped(sets + " E E 5p 7p", "6p")  # the middle
    assert shaped(sets + " E E 1p 2p", "3p")  # the edge 3 of 1-2-3
    assert shaped(sets + " E E 8p 9p", "7p")  # the edge 7 of 7-8-9
    assert shaped(sets + " 4p 5p 6p 9p", "9p")  # the pair
    assert not shaped(sets + " E E 4p 5p", "6p")  # an open wait
    assert not shaped(sets + " E E 4p 5p", "3p")


def test_wengan_value_keeps_the_all_triplets_wait():
    """大对子 5 against 平胡 1 (002, §wengan-pattern-score), and only it may win on a discard
    without a 通行证 (平胡点炮需要通行证): told so (``STEER_BIG_SHIFT``, Weng'an's
    ``BIG_WAIT_WORTH``), the ready value agent keeps the two pairs 2s 2s / 7m 7m (4 unseen, worth
    ``BIG_WAIT_WORTH`` each) rather than the open 6m-7m (8 unseen, worth 1) the efficiency agent
    keeps."""
    text = "1m 1m 1m 5p 5p 5p 9s 9s 9s 2s 2s 6m 7m 7m"
    steer = FORMS | AG.STEER_TARGETS
    big = WA.steer_hints(WenganOptions().params())
    assert (big >> AG.STEER_BIG_SHIFT) & 7 == WA.BIG_WAIT_WORTH > 2
    assert _discard(AG.AGENT_EFFICIENCY, text, steer) == kind_id("7m")
    assert _discard(AG.AGENT_VALUE, text, FORMS | big) == kind_id("6m")


def test_a_concealed_hand_near_ready_claims_only_to_become_ready():
    """门清 (004, §anqing-score-table: 3 of a plain win's 6): where the variant says a concealed
    hand pays (``STEER_CONCEALED``, Anqing), a hand without melds at most ``concealed_within``
    shanten from ready passes a pong that keeps it where it is; further away it claims by its other
    rules (here as the efficiency agent: claims pay)."""
    from sim.kernels.moves import ACT_PONG

    tables = load_tables()
    counts, keys = _seat("1m 1m 1m 3p 3p 6p 6p 2s 2s 9s 9s 4m 7p")  # one from ready (七对)
    actions = np.zeros((8, 8), np.int64)
    actions[0, A_TYPE] = ACT_PONG
    actions[0, 1] = kind_id("3p")
    args = (counts, keys, np.int64(0), np.zeros(34, np.bool_), kind_id("3p"), actions, 1)
    steer = FORMS | AG.STEER_TARGETS | AG.STEER_CLAIMS_PAY | AG.STEER_CONCEALED
    assert AG.choose_claim(AG.AGENT_EFFICIENCY, *args, steer, np.int64(0), DEFAULTS, tables) == 0
    near = DEFAULTS.copy()
    for within, taken in ((0, True), (1, False), (8, False)):
        near[AG.P_CONCEALED_WITHIN] = within
        assert AG.choose_claim(AG.AGENT_VALUE, *args, steer, np.int64(0), near, tables) == (
            0 if taken else -1
        ), within
    near[AG.P_CONCEALED_WITHIN] = 0  # the cautious agent keeps it concealed at any distance
    assert AG.choose_claim(AG.AGENT_CAUTIOUS, *args, steer, np.int64(0), near, tables) == -1
    near[AG.P_KEEP_CONCEALED] = 0
    assert AG.choose_claim(AG.AGENT_CAUTIOUS, *args, steer, np.int64(0), near, tables) == 0
    assert QA.steer_hints(np.zeros(64, np.int64)) & AG.STEER_CONCEALED


def test_a_claim_worth_a_bao_may_cost_what_the_parameter_allows():
    """包 (004, §anqing-bao): a pong listed as the claimer's third 口 of the discarder's (A_VALUE 3)
    is made when it leaves the hand at most ``claim_worth_cost`` shanten further from ready (-1:
    only when it brings it one nearer)."""
    from sim.kernels.moves import ACT_PONG

    tables = load_tables()
    counts, keys = _seat("1m 1m 2m 3m 4m 5m 6m 7s 8s 9s E S N")  # a pong of 1m: no nearer
    actions = np.zeros((8, 8), np.int64)
    actions[0, A_TYPE] = ACT_PONG
    actions[0, 1] = kind_id("1m")
    actions[0, A_VALUE] = 3
    args = (counts, keys, np.int64(0), np.zeros(34, np.bool_), kind_id("1m"), actions, 1)
    steer = FORMS | AG.STEER_TARGETS
    row = DEFAULTS.copy()
    now, after = AG._claim_shanten(counts, keys, 0, np.zeros(34, np.bool_), kind_id("1m"), True,
                                   np.full(3, -1, np.int64), FORMS, tables)  # fmt: skip
    gap = after[0] - now
    for cost in (-1, 0, 1, 2):
        row[AG.P_CLAIM_WORTH_COST] = cost
        taken = AG.choose_claim(AG.AGENT_VALUE, *args, steer, np.int64(0), row, tables) == 0
        assert taken == (gap <= cost), (cost, gap)


@pytest.mark.engine
def test_score_sources_split_each_agents_score(tmp_path):
    """``score_sources``: each agent's mean score split by where it came from adds up to its
    mean score, by outcome (won, dealt in, paid, drawn) and, for Weng'an, whose settlement
    declares every item (source: 鸡分, 豆分, 包鸡, 查叫, 牌型分 ...), by its sources too."""
    from sim.analysis import score_sources

    config = load_config("configs/wengan-4p.toml", ["run.games=40"])
    agents = ("efficiency", "value")
    compare(config, agents, tmp_path / "cmp", jobs=1, progress=False)
    table = score_sources(tmp_path / "cmp")
    _, hands = load_comparison(tmp_path / "cmp")
    frame = duplicate_comparison(hands, agents).set_index("agent")
    assert list(table.columns) == list(agents)
    for agent in agents:
        column = table[agent]
        assert column["total"] == pytest.approx(frame.loc[agent, "mean"])
        parts = column["won"] + column["dealt_in"] + column["paid"] + column["drawn"]
        assert parts == pytest.approx(column["total"])
        assert column["won_fed"] <= column["won"] + 1e-9
        sources = column.drop(list(SOURCE_ROWS)).sum()
        assert sources == pytest.approx(column["total"])
    assert {"chicken", "dou", "pattern"} <= set(table.index)
