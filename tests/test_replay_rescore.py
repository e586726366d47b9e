"""Every logged hand settled again from its JSON Lines alone by the project's slow reference
settlements (``tests/reference/``), through the converters of ``reference/from_json.py``: no
games table and no kernel. The reference's score changes equal the engine's ``score_changes``
hand by hand (300 hands of each shipped config, mixed agents; Weng'an also under 连庄 and with
its dealer bonus and flips varied), and what the JSON states beside the tiles (the winners'
名堂, Anqing's window, chain and D) agrees with what the converters follow from the events.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
from collections import Counter

import numpy as np
import pytest
from reference import anhua as HA
from reference import anqing as QA
from reference import wengan as W
from reference.from_json import anhua_hand, anqing_hand, wengan_hand_end
from replay_runs import SHIPPED, logged_run

WENGAN_RUNS = [(name, ()) for name in SHIPPED if name.startswith("wengan")] + [
    (
        "wengan-4p",
        (
            'options.dealer_bonus_mode="lian_zhuang"',
            "options.lian_zhuang_counts_draws=true",
            "options.qian_hou_fan_ji=true",
            "options.wu_gu_ji=true",
            "options.bao_requires_ready=true",
        ),
    ),
    ("wengan-3p", ('options.ding_que_mode="declare"', 'options.dealer_bonus_mode="yi_kou_er"')),
]
ANQING_RUNS = [("anqing", ()), ("anqing", ("options.lian_zhuang_cumulative=true",))]
ANHUA_RUNS = [(name, ()) for name in SHIPPED if name.startswith("anhua")] + [
    (
        "anhua-four-kings",
        (
            "options.dealer_bonus=true",
            'options.dealer_bonus_timing="before_birds"',
            'options.kong_multi_tile_win="double"',
            "options.discarded_king_claimable_for_win=true",
        ),
    ),
]


def _ids(runs):
    return [name + ("+" + "+".join(o.split("=")[0][8:] for o in over) if over else "")
            for name, over in runs]  # fmt: skip


@pytest.mark.engine
@pytest.mark.parametrize(("name", "overrides"), WENGAN_RUNS, ids=_ids(WENGAN_RUNS))
def test_wengan_hands_resettle_from_the_json_alone(name, overrides):
    """Weng'an's reference ``settle`` of the ``HandEnd`` read from each hand's JSON gives the
    engine's score changes and the same settlement items (kind, payer, payee, amount); the
    winners' 天胡 / 地胡 / 热炮 agree with the JSON's 名堂."""
    _, _, hands = logged_run(name, overrides)
    seen = Counter()
    for game, objects in enumerate(hands):
        end = wengan_hand_end(objects)
        settled = W.settle(end)
        result = objects[-1]
        assert list(settled.deltas) == result["score_changes"], (name, game)
        logged = Counter(
            (o["item"], o["payer"], o["payee"], o["amount"])
            for o in objects
            if o["event"] == "settlement"
        )
        assert Counter((i.kind, i.payer, i.payee, i.amount) for i in settled.items) == logged
        winners = [o for o in objects if o["event"] == "winner"]
        for win, obj in zip(end.wins, winners, strict=True):
            named = set(obj["mingtang"])
            assert win.heavenly == ("天胡" in named), (game, win)
            assert win.earthly == ("地胡" in named), (game, win)
            assert win.kong_bloom == ("杠开" in named), (game, win)
            assert (end.hot_cannon and win.how == "discard") == ("热炮" in named), (game, win)
        seen["win" if end.wins else "draw"] += 1
        seen["chicken"] += any(i.kind == "chicken" for i in settled.items)
    assert seen["win"] and seen["chicken"]


@pytest.mark.engine
@pytest.mark.parametrize(("name", "overrides"), ANQING_RUNS, ids=_ids(ANQING_RUNS))
def test_anqing_hands_resettle_from_the_json_alone(name, overrides):
    """Anqing's reference ``settle`` of the ``HandEnd`` read from each hand's JSON (with the
    logged 连庄累加 carries) gives the engine's score changes, S and items; the winner's
    window, kong chain and D agree with the JSON's."""
    _, _, hands = logged_run(name, overrides)
    seen = Counter()
    for game, objects in enumerate(hands):
        hand = anqing_hand(objects)
        result = objects[-1]
        if hand.end is None:
            assert result["score_changes"] == [0, 0, 0, 0]
            continue
        settled = QA.settle(hand.end, hand.options)
        assert settled is not None, game
        deltas = list(settled.deltas)
        for payer, payee, amount in hand.carries:
            deltas[payer] -= amount
            deltas[payee] += amount
        assert deltas == result["score_changes"], (name, game)
        (winner,) = [o for o in objects if o["event"] == "winner"]
        assert settled.score.total == winner["points"], game
        assert dict(settled.score.items) == {k: v for k, v in winner["items"].items()}, game
        assert hand.heavenly == winner["heavenly_window"], game
        assert hand.kong_chain == winner["kong_chain"], game
        assert hand.discarded_zuan == winner["discarded_zuan"], game
        seen[winner["win_kind"]] += 1
        seen["on_dealt_tiles"] += winner["on_dealt_tiles"]
    assert seen["self_draw"] and seen["kong_bloom"]


def _winning_reveals(won: HA.AnhuaHand, hand) -> int:
    """How many of a 杠上花's revealed tiles each make the konger's hand a win (the winning
    tile taken out, each revealed tile tried in its place): with ``kong_multi_tile_win =
    double`` two or more double the points."""
    count = 0
    for tile in hand.revealed:
        naturals, kings = list(won.naturals), list(won.kings)
        (kings if kings[won.winning_tile] else naturals)[won.winning_tile] -= 1
        (kings if tile in hand.kings else naturals)[tile] += 1
        trial = HA.AnhuaHand(tuple(naturals), tuple(kings), won.melds, "kong_bloom", tile)
        count += HA.score(trial, hand.options) is not None
    return count


@pytest.mark.engine
@pytest.mark.parametrize(("name", "overrides"), ANHUA_RUNS, ids=_ids(ANHUA_RUNS))
def test_anhua_hands_resettle_from_the_json_alone(name, overrides):
    """Anhua's reference ``score`` of each winner's hand read from the JSON gives the pattern
    points, and its ``settle`` with the logged birds the engine's score changes."""
    _, _, hands = logged_run(name, overrides)
    seen = Counter()
    for game, objects in enumerate(hands):
        hand = anhua_hand(objects)
        result = objects[-1]
        if not hand.hands:
            assert result["score_changes"] == [0] * hand.n_players
            continue
        winners = {o["seat"]: o for o in objects if o["event"] == "winner"}
        paid = []
        for seat, won in hand.hands:
            scored = HA.score(won, hand.options)
            assert scored is not None, (game, seat)
            assert scored.points == winners[seat]["pattern_points"], (game, seat)
            double = hand.options["kong_multi_tile_win"] == "double"
            several = hand.win_kind == "kong_bloom" and _winning_reveals(won, hand) >= 2
            factor = 2 if double and several else 1
            assert factor == winners[seat]["factor"], (game, seat)
            seen["double"] += factor == 2
            paid.append((seat, scored.points * factor))
        deltas = HA.settle(
            hand.n_players, hand.dealer, paid, hand.win_kind, hand.payer, hand.birds, hand.options
        )
        assert deltas == result["score_changes"], (name, game)
        seen[hand.win_kind] += 1
    assert seen["self_draw"] and seen["discard"]


# --------------------------------------------------------------------------------------------
# 天胡: the dealer wins on his dealt 14, no tile drawn


def _dealt_win(name: str, overrides: list[str], dealer_tiles: str, later: str, streak: int):
    """The JSON of one hand of ``configs/<name>`` played by the engine (default agents, dealer
    seat 0, the 连庄 count ``streak``) on a wall whose first 13 and 53rd tiles are
    ``dealer_tiles`` (the dealer's 14) and whose tiles after the deal begin with ``later``."""
    from sim.core.tables import load_tables
    from sim.core.tiles import parse_tiles
    from sim.kernels import state as S
    from sim.running.config import load_config
    from sim.running.replay import ReplayedHand, json_lines

    config = load_config(f"configs/{name}.toml", overrides)
    module = importlib.import_module(f"sim.variants.{config.variant}")
    n_players, size = config.n_players, 136 if config.variant == "anqing" else 108
    dealt, after = parse_tiles(dealer_tiles), parse_tiles(later)
    left = Counter({kind: 4 for kind in range(34 if size == 136 else 27)})
    left.subtract(dealt + after)
    rest = list(left.elements())
    others = rest[: 13 * (n_players - 1)]
    tail = rest[13 * (n_players - 1) :]
    wall = np.array(dealt[:13] + others + dealt[13:] + after + tail, np.int8)
    assert len(wall) == size
    state = S.new_state(4096)
    width = module.N_ANQING_RECORD if config.variant == "anqing" else module.N_WENGAN_RECORD
    record = np.zeros(width, np.int64)
    params = config.options.params()
    module.engine.play_hand(state, wall, n_players, 0, streak, params, load_tables(), record)
    events = state.log[: int(state.scalars[S.LOG_COUNT])].copy()
    hand = ReplayedHand(config, 0, wall, record, events, S.final_position(state))
    return [json.loads(line) for line in json_lines(hand)]


@pytest.mark.engine
def test_a_wengan_heavenly_win_is_counted_on_the_lowest_dealt_kind():
    """天胡 (§wengan-mingtang): the dealer's dealt 14 win at once, no tile drawn: the ``win`` has no
    tile, the ``winner`` and ``result`` the lowest kind of the 14 (the engine's count), the 名堂
    天胡; under 连庄 the header's count (2) is paid on each hand payment, and the reference settles
    the JSON to the engine's score changes."""
    objects = _dealt_win(
        "wengan-4p", ['options.dealer_bonus_mode="lian_zhuang"'], "234m 456m 789m 234p 55p",
        "1s 9s", 2,
    )  # fmt: skip
    (winner,) = [o for o in objects if o["event"] == "winner"]
    win = next(o for o in objects if o["event"] == "win")
    assert win["tile"] is None and winner["on_dealt_tiles"]
    assert winner["tile"] == objects[-1]["winning_tile"] == "2m"
    assert "天胡" in winner["mingtang"] and objects[0]["streak"] == 2
    assert objects[-1]["next_streak"] == 3
    bonus = [o for o in objects if o["event"] == "settlement" and o["item"] == "dealer_bonus"]
    assert [o["amount"] for o in bonus] == [2, 2, 2]
    assert list(W.settle(wengan_hand_end(objects)).deltas) == objects[-1]["score_changes"]


@pytest.mark.engine
def test_an_anqing_heavenly_win_is_counted_on_the_dealers_last_dealt_tile():
    """天胡 (§anqing-score-table item 7): W is the dealer's last tile dealt (the 53rd of the wall),
    as the engine counts it, and the reading depends on it: counted on the 5p of the pair the win
    runs (跑风); counted on the 1m of 123m, no 跑风. The JSON's counted tile settles to the engine's
    score changes, with the dealer's 连庄 count k = 1."""
    objects = _dealt_win("anqing", [], "123m 456m 789m 234p 5p 5p", "9s 2s", 1)
    assert next(o for o in objects if o["event"] == "wild")["tile"] == "1s"
    (winner,) = [o for o in objects if o["event"] == "winner"]
    assert winner["on_dealt_tiles"] and winner["heavenly_window"]
    assert winner["tile"] == objects[-1]["winning_tile"] == "5p"
    assert {"天胡/地胡", "跑风"} <= set(winner["items"])
    hand = anqing_hand(objects)
    settled = QA.settle(hand.end, hand.options)
    assert list(settled.deltas) == objects[-1]["score_changes"]
    assert objects[0]["streak"] == 1 and objects[-1]["next_streak"] == 2
    elsewhere = dataclasses.replace(hand.end.win, winning_tile="1m")
    other = QA.score(elsewhere, hand.options)
    assert other is not None and "跑风" not in other.names
