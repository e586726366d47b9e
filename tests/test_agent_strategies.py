"""The value and cautious agents: legal play with every agent at every seat, their
decisions on exact hands, and, on duplicate deals, the ordering they must keep.

Rules: docs/rules/anhua.md (安化七王麻将): 清一色 and 小七对 are 大胡 (double a 平胡),
王不能碰杠吃 (kings are never melded), 手中无王可接炮 (who may win on a discard)."""

from __future__ import annotations

import numpy as np
import pytest
from reference import engine_wins as G

from sim import hand
from sim.core.tables import load_tables
from sim.core.tiles import kind_id, parse_tiles
from sim.core.wall import shuffled_walls
from sim.kernels import agents as AG
from sim.kernels import hand as H
from sim.kernels.agent_params import default_row
from sim.running.agents import AGENTS
from sim.variants.anhua import checks as C

pytestmark = pytest.mark.engine  # the agents' questions, the engines' largest compile

FORMS = H.FORM_STANDARD | H.OPTION_PAIR_258 | H.FORM_SEVEN_PAIRS | H.OPTION_QUADS  # as Anhua steers
FIELD = ("value", "cautious", "efficiency", "random")


def _seat(text: str, wild_kinds=()):
    """Counts, natural suit keys, wild count and wild mask of a hand given in tile notation."""
    counts = np.zeros(34, np.uint8)
    for kind in parse_tiles(text):
        counts[kind] += 1
    wild = np.zeros(34, np.bool_)
    for kind in wild_kinds:
        wild[kind] = True
    keys = np.zeros(4, np.int64)
    wilds = 0
    for kind in range(34):
        if wild[kind]:
            wilds += int(counts[kind])
        else:
            keys[H.KIND_SUIT[kind]] += int(counts[kind]) * H.KIND_POWER[kind]
    return counts, keys, np.int64(wilds), wild


def _discard(agent, text, visible=None, wild_kinds=()):
    counts, keys, wilds, wild = _seat(text, wild_kinds)
    visible = np.zeros(34, np.uint8) if visible is None else visible
    allowed = np.ones(34, np.bool_)
    return AG.choose_discard(
        agent,
        counts,
        keys,
        wilds,
        wild,
        visible,
        27,
        FORMS,
        allowed,
        np.int64(0),
        default_row(),
        load_tables(),
        AG.discard_space(),
    )


def test_value_sheds_the_off_suit_tiles_of_a_near_flush():
    """清一色 (a 大胡): with 11 bamboo and three other tiles, the value agent discards outside
    bamboo even where the efficiency agent would break a bamboo shape."""
    text = "1s 2s 3s 4s 5s 6s 7s 8s 8s 9s 2s 1m 9p 5p"
    value = _discard(AG.AGENT_VALUE, text)
    assert H.KIND_SUIT[value] != H.KIND_SUIT[kind_id("1s")]
    # a hand far from a flush is played as the efficiency agent plays it
    mixed = "1m 2m 3m 5p 6p 7p 1s 2s 3s 4s 9s 9s 7m 1p"
    assert _discard(AG.AGENT_VALUE, mixed) == _discard(AG.AGENT_EFFICIENCY, mixed)


def test_value_keeps_pairs_for_seven_pairs():
    """小七对 (a 大胡): with five pairs the value agent plays by the seven-pairs shanten, so it
    keeps every pair; its discard leaves the seven-pairs shanten at its least."""
    text = "1m 1m 4m 4m 7p 7p 2s 2s 9s 9s 3m 5p 8s 6m"
    value = _discard(AG.AGENT_VALUE, text)
    counts, *_ = _seat(text)
    assert counts[value] == 1


def _shanten_after(counts, wild, kind):
    naturals = counts.astype(np.int64).copy()
    naturals[kind] -= 1
    wilds = int(naturals[wild].sum())
    naturals[wild] = 0
    return hand.shanten(naturals, wilds, pair="258", seven_pairs=True)


def test_cautious_takes_a_safe_kind_only_within_its_shanten_cost():
    """On 1,000 random 14-tile hands (two kinds of kings) with 22 kinds seen twice: the
    cautious agent's discard is the value agent's, or, late, a kind with ``safe_seen`` copies
    accounted for that leaves the hand at most its ``shanten_cost`` further from ready; both
    costs (the default 0, and 1, set in the seat's parameter row) change some decisions."""
    rng = np.random.default_rng(16)
    tables = load_tables()
    allowed = np.ones(34, np.bool_)
    wild = np.zeros(34, np.bool_)
    wild[[4, 13]] = True  # kings (5m, 5p), as seven-kings play has them
    defaults = default_row()
    late_visible = int(defaults[AG.P_LATE_VISIBLE])
    safe_seen = int(defaults[AG.P_SAFE_SEEN])
    default_cost = int(defaults[AG.P_SHANTEN_COST])
    differed = {}
    space = AG.discard_space()
    for wall in shuffled_walls(1000, 108, 16):
        counts = np.bincount(wall[:14], minlength=34).astype(np.uint8)
        keys = np.zeros(4, np.int64)
        for kind in range(27):
            if not wild[kind]:
                keys[H.KIND_SUIT[kind]] += int(counts[kind]) * H.KIND_POWER[kind]
        wilds = np.int64(counts[wild].sum())
        visible = np.zeros(34, np.uint8)  # two seen copies of 22 kinds: about 40, late
        seen = rng.choice(27, 22, replace=False)
        visible[seen] = np.minimum(2, 4 - counts[seen])
        late = int(visible.sum()) >= late_visible
        args = (counts, keys, wilds, wild, visible, 27, FORMS, allowed)
        value = AG.choose_discard(AG.AGENT_VALUE, *args, np.int64(0), defaults, tables, space)
        for cost in (default_cost, 1):
            params = defaults.copy()
            params[AG.P_SHANTEN_COST] = cost
            cautious = AG.choose_discard(
                AG.AGENT_CAUTIOUS, *args, np.int64(0), params, tables, space
            )
            if cautious != value:
                assert late
                assert int(visible[cautious]) + int(counts[cautious]) >= safe_seen
                before = _shanten_after(counts, wild, value)
                assert _shanten_after(counts, wild, cautious) <= before + cost
                differed[cost] = differed.get(cost, 0) + 1
    assert differed.get(default_cost, 0) >= 50 and differed.get(1, 0) >= 50, differed


def test_agents_are_registered():
    assert AGENTS["value"] == AG.AGENT_VALUE and AGENTS["cautious"] == AG.AGENT_CAUTIOUS
    assert len(set(AGENTS.values())) == AG.N_AGENTS


def test_every_agent_at_every_seat_plays_legally():
    """docs/rules/anhua.md, Anhua's rule checks (``checks.check_hand``: the ledger,
    王不能碰杠吃, 开杠, 漏胡, 一炮多响, payments) over every option cell, with value, cautious,
    efficiency and random at every seat (four rotations), and every win re-scored by the slow
    reference."""
    ids = tuple(AGENTS[name] for name in FIELD)
    failures = []
    played = 0
    for rotation in range(4):
        seats = tuple(ids[(seat + rotation) % 4] for seat in range(4))
        for index, cell in enumerate(C.INVARIANT_GRID[rotation::8]):
            report = G.run_cell(cell, 15, 50_000 + 97 * rotation + index, seats)
            failures += report.failures
            played += report.games
            assert report.failed_hands == 0, report.failures
    assert not failures, failures[:3]
    assert played >= 4 * 12 * 15
