"""Replays: the same wall, options and dealer give the same hand, logged move by move; the JSON
form accounts for every tile and scores the hand again from the log alone."""

from __future__ import annotations

import json
import re
from collections import Counter
from functools import cache

import numpy as np
import pandas as pd
import pytest

from sim.core.tables import load_tables
from sim.core.tiles import kind_name, parse_hand
from sim.core.wall import shuffled_walls
from sim.kernels import engine as E
from sim.kernels import state as S
from sim.running import replay as run_replay
from sim.running import runner
from sim.running.config import load_config
from sim.running.run_checks import add_checksums
from sim.variants.anhua import AnhuaOptions
from sim.variants.anhua import engine as AE
from sim.variants.anhua import replay as anhua_replay
from sim.variants.anhua.hooks import EVENT_REVEAL
from sim.variants.anhua.record_slots import RH_N_BIRDS
from sim.variants.wengan.record_slots import POINT_SOURCES


@pytest.mark.engine
def test_replay_reproduces_the_bulk_records_and_logs_every_move():
    options = AnhuaOptions()
    walls = shuffled_walls(40, 108, 77)
    records = np.zeros((40, E.N_RECORD), np.int64)
    AE.play_hands(
        S.new_state(),
        walls,
        4,
        np.zeros(5, np.int64),
        8,
        options.params(),
        load_tables(),
        records,
    )
    kinds_seen = set()
    for game in range(40):
        record, events, final = anhua_replay.replay_walls(walls, game, options)
        np.testing.assert_array_equal(record, records[game])
        draws = (events[:, 0] == S.EVENT_DRAW).sum()
        reveals = (events[:, 0] == EVENT_REVEAL).sum()
        assert draws + reveals + record[E.R_TILES_LEFT] + 53 + 1 + record[RH_N_BIRDS] == 108
        assert draws == record[E.R_TURNS]
        paid = np.zeros(4, np.int64)
        for _, seat, receiver, amount in events[events[:, 0] == S.EVENT_PAY]:
            paid[seat] -= amount
            paid[receiver] += amount
        np.testing.assert_array_equal(paid, record[E.R_DELTA : E.R_DELTA + 4])
        lines = anhua_replay.describe(events, record, 4, final)
        assert lines[-1].startswith("result:")
        held = [line for line in lines if " holds " in line]
        assert [line.split()[1] for line in held] == ["0", "1", "2", "3"]
        for seat in range(4):  # 13 tiles a seat, a meld counting 3; a winner holds 14
            size = final.hands[seat].sum() + 3 * final.n_melds[seat]
            winner = seat in record[E.R_WINNER : E.R_WINNER + record[E.R_N_WINNERS]]
            assert size == (14 if winner else 13)
        kinds_seen.update(int(e) for e in events[:, 0])
    assert {S.EVENT_DRAW, S.EVENT_DISCARD, S.EVENT_WIN, S.EVENT_PAY} <= kinds_seen


def test_replay_names_the_game_range():
    walls = shuffled_walls(3, 108, 1)
    with pytest.raises(ValueError, match="game must be 0-2"):
        anhua_replay.replay_walls(walls, 3)


@pytest.mark.engine
def test_replay_shows_passed_wins_robbed_kongs_and_final_hands():
    """漏胡 and 抢杠胡 (docs/rules/anhua.md: 可抢杠胡) in the replay text: a passed win is a
    line of its own, a robbed kong shows the kong declared before the rob, and every seat's
    final tiles and melds follow the events. Random agents pass wins; hands of one each."""
    from sim.kernels.agents import AGENT_EFFICIENCY, AGENT_RANDOM
    from sim.variants.anhua import replay_hand

    options = AnhuaOptions()
    agents = (AGENT_RANDOM, AGENT_EFFICIENCY, AGENT_RANDOM, AGENT_EFFICIENCY)
    walls = shuffled_walls(4000, 108, 91)
    seen = {"pass": False, "rob": False}
    for game in range(len(walls)):
        dealer = np.array([game % 4], np.int64)
        record, events, final = replay_hand(
            options, walls[game : game + 1], dealer, 1, agents, game, 0, 1024
        )
        kinds = set(events[:, 0].tolist())
        if not ({S.EVENT_PASS_WIN, S.EVENT_ROBBED} & kinds):
            continue
        lines = anhua_replay.describe(events, record, 4, final)
        assert sum(" holds " in line for line in lines) == 4
        if S.EVENT_PASS_WIN in kinds:
            seat = int(events[events[:, 0] == S.EVENT_PASS_WIN][0, 1])
            assert any(line.startswith(f"seat {seat} passes a win on ") for line in lines)
            seen["pass"] = True
        if S.EVENT_ROBBED in kinds:
            at = next(i for i, line in enumerate(lines) if " robs the kong of " in line)
            assert " declares a " in lines[at - 1] and "kong" in lines[at - 1]
            seen["rob"] = True
        if all(seen.values()):
            break
    assert all(seen.values()), seen


def _seat_status_words(lines: list[str], seat: int) -> list[str]:
    """The status phrases of ``seat``'s final line of a text replay."""
    line = next(line for line in lines if line.startswith(f"seat {seat} holds "))
    return line.partition("; status: ")[2].split(", ") if "; status: " in line else []


def _expected_passed_wins(events: np.ndarray, seat: int) -> list[int]:
    """The kinds ``seat`` passed a win on since its last draw, from the log alone (漏胡)."""
    passed = set()
    for event, who, tile, _ in events.tolist():
        if who == seat and event == S.EVENT_DRAW:
            passed = set()
        elif who == seat and event == S.EVENT_PASS_WIN:
            passed.add(tile)
    return sorted(passed)


def _expected_locked(events: np.ndarray, seat: int) -> bool:
    """An open kong 开杠 that wins nothing locks the konger's hand: the seat konged and play went
    on after it (a draw or the exhaustive draw follows)."""
    kinds = events[:, 0].tolist()
    kongs = [at for at, row in enumerate(events.tolist()) if row[:2] == [S.EVENT_KONG, seat]]
    return bool(kongs) and any(
        kind in (S.EVENT_DRAW, S.EVENT_EXHAUSTED) for kind in kinds[kongs[0] + 1 :]
    )


@pytest.mark.engine
def test_replay_shows_the_final_status_of_every_seat_and_of_the_hand():
    """The declared status columns at the end of a hand, in text (only values that say
    something) and JSON (every shown column): a seat that passed a win since its last draw
    shows the kinds (漏胡), a konger whose open kong won nothing shows its locked hand, and the
    hand row shows the kings X and Y the log's wild events name. Random agents pass wins."""
    from sim.core.tiles import format_tiles
    from sim.kernels.agents import AGENT_EFFICIENCY, AGENT_RANDOM
    from sim.variants.anhua import replay_hand

    options = AnhuaOptions()
    agents = (AGENT_RANDOM, AGENT_EFFICIENCY, AGENT_RANDOM, AGENT_EFFICIENCY)
    walls = shuffled_walls(4000, 108, 93)
    seen = {"passed": False, "locked": False}
    for game in range(len(walls)):
        dealer = np.array([game % 4], np.int64)
        record, events, final = replay_hand(
            options, walls[game : game + 1], dealer, 1, agents, game, 0, 1024
        )
        lines = anhua_replay.describe(events, record, 4, final)
        objects = anhua_replay.describe_json(options, walls[game], record, events, final)
        finals = {obj["seat"]: obj["status"] for obj in objects if obj["event"] == "final_hand"}
        for seat in range(4):
            words = _seat_status_words(lines, seat)
            status = finals[seat]
            assert "own_turn_extra" not in status  # hidden
            passed = format_tiles(_expected_passed_wins(events, seat))
            assert status["passed_wins"] == passed, (game, seat)
            assert (f"passed wins on {passed}" in words) == bool(passed), (game, seat, words)
            locked = _expected_locked(events, seat)
            assert status["locked"] is locked, (game, seat)
            assert ("locked" in words) == locked, (game, seat, words)
            seen["passed"] |= bool(passed)
            seen["locked"] |= locked
        (hand,) = (obj["status"] for obj in objects if obj["event"] == "hand_status")
        kings = {obj["king"]: obj["tile"] for obj in objects if obj["event"] == "wild"}
        assert (hand["king_x"], hand["king_y"]) == (kings.get("X"), kings["Y"])
        assert "steer_forms" not in hand  # hidden: the agents' business
        assert f"king Y is {hand['king_y']}" in "\n".join(lines)
        if all(seen.values()) and game >= 50:
            break
    assert all(seen.values()), seen


# --------------------------------------------------------------------------------------------
# JSON Lines of runs

N_GAMES = 200
JSON_RUNS = {
    "defaults": ("anhua-seven-kings", []),
    "dealer_bonus_four_birds": (
        "anhua-seven-kings",
        ["options.dealer_bonus=true", "options.bird_count=4"],
    ),
    "bonus_before_one_bird_double_bloom": (
        "anhua-four-kings",
        [
            "options.dealer_bonus=true",
            'options.dealer_bonus_timing="before_birds"',
            "options.bird_count=1",
            'options.kong_multi_tile_win="double"',
        ],
    ),
    "three_players": (
        "anhua-three-players",
        [
            "options.dealer_bonus=true",
            "options.bird_count=4",
            'run.agents=["random", "self_draw", "efficiency"]',
        ],
    ),
}
MIXED_AGENTS = 'run.agents=["random", "efficiency", "self_draw", "random"]'


@pytest.fixture(scope="module", params=list(JSON_RUNS))
def json_run(request, tmp_path_factory):
    """A run of N_GAMES hands and every hand of it replayed as JSON Lines (parsed)."""
    config_name, overrides = JSON_RUNS[request.param]
    settings = [f"run.games={N_GAMES}", f"run.chunk_hands={N_GAMES}"]
    if not any(o.startswith("run.agents") for o in overrides):
        settings.append(MIXED_AGENTS)
    config = load_config(f"configs/{config_name}.toml", settings + overrides)
    path = runner.run(config, tmp_path_factory.mktemp("json") / request.param)
    games = pd.read_parquet(path / runner.GAMES).set_index("game")
    stored = runner.config_of_run(path)  # read once: replay_run reads it for each hand
    hands = {}
    for game in range(N_GAMES):
        # the tests compare each replay's settlement with the games table's row, the check
        # replay_run makes (and which its own tests cover)
        hand = run_replay.replay_config(stored, game)
        hands[game] = (hand, [json.loads(line) for line in run_replay.json_lines(hand)])
    return config, games, hands


def _kinds(notation: str) -> Counter:
    """Tile kinds in hand notation, wild faces (``*``) at their face (a new Counter)."""
    return Counter(dict(_parsed_kinds(notation)))


@cache  # the same few notations recur in every hand: parsed once
def _parsed_kinds(notation: str) -> tuple[tuple[int, int], ...]:
    if not notation:
        return ()
    hand = parse_hand(notation)
    counts = hand.counts.astype(np.int64) + hand.wild_faces
    return tuple((kind, int(n)) for kind, n in enumerate(counts) if n)


@cache
def _kind(name: str) -> int:
    return _parsed_kinds(name)[0][0]


@pytest.mark.engine
def test_json_lines_rescore_every_hand_from_the_settlement_items(json_run):
    """Summing each seat's settlement items (payer minus, payee plus) gives the games table's
    delta_N, hand by hand; each payment's items add up to the logged payment."""
    config, games, hands = json_run
    n_players = config.n_players
    kinds_of_item = Counter()
    for game, (_, objects) in hands.items():
        assert objects[0]["event"] == "hand" and objects[0]["game"] == game
        assert objects[0]["options"] == config.resolved()["options"]
        assert all({"event", "seat", "tile"} <= obj.keys() for obj in objects)
        delta = np.zeros(n_players, np.int64)
        by_payment = Counter()
        for item in (obj for obj in objects if obj["event"] == "settlement"):
            delta[item["payer"]] -= item["amount"]
            delta[item["payee"]] += item["amount"]
            by_payment[item["payment"]] += item["amount"]
            kinds_of_item[item["item"]] += 1
        row = games.loc[game]
        np.testing.assert_array_equal(delta, [row[f"delta_{s}"] for s in range(n_players)])
        paid = [obj["amount"] for obj in objects if obj["event"] == "pay"]
        assert [by_payment[k] for k in range(len(paid))] == paid
        assert objects[-1]["event"] == "result"
        assert objects[-1]["score_changes"] == delta.tolist()
        winners = [obj for obj in objects if obj["event"] == "winner"]
        assert [w["seat"] for w in winners] == objects[-1]["winners"]
        assert len(winners) == row["n_winners"]
    options = config.options
    assert kinds_of_item["base"] > 0 and kinds_of_item["bird"] > 0
    assert (kinds_of_item["dealer_bonus"] > 0) == options.dealer_bonus


@pytest.mark.engine
def test_json_lines_account_for_every_tile(json_run):
    """Following the JSON events alone (deal, draws, discards, claims, kongs, reveals, wins)
    gives every seat's final concealed tiles and melds; the tiles taken from the wall, in
    order, are the wall's, and with the tiles left they make the whole wall."""
    config, _, hands = json_run
    for game, (hand, objects) in hands.items():
        taken, concealed, melded = _follow(objects, config.n_players)
        for obj in (obj for obj in objects if obj["event"] == "final_hand"):
            seat = obj["seat"]
            assert concealed[seat] == _kinds(obj["concealed"]), (game, seat)
            in_melds = sum((_kinds(meld["tiles"]) for meld in obj["melds"]), Counter())
            assert melded[seat] == in_melds, (game, seat)
        result = objects[-1]
        assert sum(taken.values()) + result["tiles_left_after_flips"] == len(hand.wall)
        assert objects[0]["wall"] == [kind_name(int(kind)) for kind in hand.wall]
        n_dealt = 13 * config.n_players + 1
        dealt = sum((_kinds(obj["tiles"]) for obj in objects if obj["event"] == "deal"), Counter())
        assert dealt == Counter(int(k) for k in hand.wall[:n_dealt])
        after_deal = [
            _kind(obj["tile"])
            for obj in objects
            if obj["event"] in ("indicator", "draw", "reveal", "bird")
        ]
        assert after_deal == [int(k) for k in hand.wall[n_dealt : n_dealt + len(after_deal)]]


def _follow(objects: list[dict], n_players: int):
    """(tiles taken from the wall, each seat's concealed tiles, each seat's melded tiles) after
    the events, checking that every claimed tile is the last of the seat's pile it is taken
    from. The tile won on by several players on one discard (or robbed from one kong) is in
    each winner's hand."""
    taken = Counter()
    concealed = [Counter() for _ in range(n_players)]
    melded = [Counter() for _ in range(n_players)]
    piles = [[] for _ in range(n_players)]
    payer = objects[-1]["payer"]
    won_from_pile = False

    def from_pile(seat, kind):
        assert piles[seat] and piles[seat][-1] == kind, (piles[seat], kind)
        piles[seat].pop()

    def from_hand(seat, tiles: Counter):
        concealed[seat].subtract(tiles)
        assert min(concealed[seat].values(), default=0) >= 0

    for obj in objects:
        event, seat = obj["event"], obj["seat"]
        kind = _kind(obj["tile"]) if obj["tile"] else -1
        if event == "deal":
            taken += _kinds(obj["tiles"])
            concealed[seat] += _kinds(obj["tiles"])
        elif event in ("indicator", "bird"):
            taken[kind] += 1
        elif event == "draw":
            taken[kind] += 1
            concealed[seat][kind] += 1
        elif event == "reveal":
            taken[kind] += 1
            piles[seat].append(kind)
        elif event == "discard":
            from_hand(seat, Counter({kind: 1}))
            piles[seat].append(kind)
        elif event in ("chi", "pong"):
            from_pile(obj["from_seat"], kind)
            tiles = _kinds(obj["sequence"]) if event == "chi" else Counter({kind: 3})
            from_hand(seat, tiles - Counter({kind: 1}))
            melded[seat] += tiles
        elif event == "kong":
            from_hand_count = {"concealed": 4, "added": 1, "discard": 3}[obj["kong_type"]]
            if obj["kong_type"] == "discard":
                from_pile(obj["from_seat"], kind)
            from_hand(seat, Counter({kind: from_hand_count}))
            melded[seat][kind] += 4 if obj["kong_type"] != "added" else 1
        elif event == "kong_declared":  # robbed: the tile leaves the konger's hand or the pile
            if obj["kong_type"] == "discard":
                from_pile(obj["from_seat"], kind)
            else:
                from_hand(seat, Counter({kind: 1}))
        elif event == "rob_kong":
            concealed[seat][kind] += 1
        elif event == "win" and obj["win_kind"] in ("discard", "kong_cannon", "kong_bloom"):
            source = seat if obj["win_kind"] == "kong_bloom" else payer
            if not won_from_pile:
                pile = piles[source]
                pile.pop(len(pile) - 1 - pile[::-1].index(kind))
                won_from_pile = True
            concealed[seat][kind] += 1
    for counter in concealed + melded:
        counter += Counter()  # drops zero counts
    return taken, concealed, melded


# --------------------------------------------------------------------------------------------
# Weng'an's JSON Lines: the settlement whole, item by item

WENGAN_RUNS = {
    "four_players": ("wengan-4p", []),
    "three_players_declared_que_front_back_flips": (
        "wengan-3p",
        [
            'options.ding_que_mode="declare"',
            'options.dealer_bonus_mode="lian_zhuang"',
            "options.qian_hou_fan_ji=true",
            "options.wu_gu_ji=true",
            'run.agents=["random", "self_draw", "efficiency"]',
        ],
    ),
}


def _item_source(item: str, draw_game: bool) -> str:
    """The point source netting a settlement item (a 荒庄's dealer bonus is part of 查叫)."""
    (name,) = [
        source.name
        for source in POINT_SOURCES
        if item in (source.on_draw if draw_game else source.on_win)
    ]
    return name


@pytest.fixture(scope="module", params=list(WENGAN_RUNS))
def wengan_run(request, tmp_path_factory):
    """A Weng'an run of 150 hands and every hand replayed as JSON Lines (parsed)."""
    config_name, overrides = WENGAN_RUNS[request.param]
    settings = ["run.games=150", "run.chunk_hands=150"]
    if not any(o.startswith("run.agents") for o in overrides):
        settings.append(MIXED_AGENTS)
    config = load_config(f"configs/{config_name}.toml", settings + overrides)
    path = runner.run(config, tmp_path_factory.mktemp("wengan") / request.param)
    games = pd.read_parquet(path / runner.GAMES).set_index("game")
    stored = runner.config_of_run(path)  # as json_run
    hands = {}
    for game in range(150):
        lines = run_replay.json_lines(run_replay.replay_config(stored, game))
        hands[game] = [json.loads(line) for line in lines]
    return config, games, hands


@pytest.mark.engine
def test_a_replay_that_differs_from_the_stored_row_is_refused(tmp_path):
    """``replay_run`` checks the replayed hand's score changes against the run's games table:
    a table another engine wrote (here: one delta changed) gives an error naming the hand."""
    config = load_config("configs/wengan-4p.toml", ["run.games=12", "run.chunk_hands=12"])
    path = runner.run(config, tmp_path / "run")
    assert run_replay.replay_run(path, 5).game == 5  # the untouched table replays
    games = pd.read_parquet(path / runner.GAMES)
    games.loc[games["game"] == 5, "delta_0"] += 1
    games.to_parquet(path / runner.GAMES, index=False)
    with pytest.raises(ValueError, match=r"games\.parquet: .* the file was changed after"):
        run_replay.replay_run(path, 5)  # the run folder's checks see the edit first
    manifest = json.loads((path / runner.MANIFEST).read_text())
    del manifest["tables"]  # the edited table given checksums: a run folder that passes them
    (path / runner.MANIFEST).write_text(json.dumps(manifest))
    assert add_checksums(path)
    with pytest.raises(ValueError, match="replay of hand 5 differs from the stored row"):
        run_replay.replay_run(path, 5)


@pytest.mark.engine
def test_wengan_json_lines_give_every_score_change_from_the_settlement_items(wengan_run):
    """总分 (docs/rules/wengan.md): summing the ``settlement`` items (payer minus, payee
    plus) gives every seat's delta; each chicken is named with its kinds and each kong with its
    dou; the flips follow a win only; the games table's net points of each source
    (``record_slots.POINT_SOURCES``: 牌型分, 连庄, 热炮, 杀听, chickens, ...) are its items'."""
    config, games, hands = wengan_run
    n_players = config.n_players
    seen = Counter()
    for game, objects in hands.items():
        row = games.loc[game]
        delta = np.zeros(n_players, np.int64)
        sources = {source.name: np.zeros(n_players, np.int64) for source in POINT_SOURCES}
        for obj in objects:
            seen[obj["event"]] += 1
            if obj["event"] == "settlement":
                seen[obj["item"]] += 1
                delta[obj["payer"]] -= obj["amount"]
                delta[obj["payee"]] += obj["amount"]
                net = sources[_item_source(obj["item"], row["outcome"] == "draw")]
                net[obj["payer"]] -= obj["amount"]
                net[obj["payee"]] += obj["amount"]
            elif obj["event"] == "chicken":
                assert obj["chicken"] and obj["value"] > 0 and obj["where"]
            elif obj["event"] == "dou":
                assert obj["dou_name"] in ("闷豆", "爬坡豆", "点豆", "憨包豆")
        np.testing.assert_array_equal(delta, [row[f"delta_{s}"] for s in range(n_players)])
        for name, net in sources.items():
            np.testing.assert_array_equal(net, [row[f"{name}_{s}"] for s in range(n_players)])
        assert objects[-1]["score_changes"] == delta.tolist()
        flips = [obj for obj in objects if obj["event"] == "indicator"]
        assert not flips or row["outcome"] == "win"
        winners = [obj for obj in objects if obj["event"] == "winner"]
        assert len(winners) == row["n_winners"]
    assert seen["pattern"] > 0 and seen["chicken"] > 0 and seen["dou"] > 0
    assert seen["pay"] == 0  # the items are the payments
    if config.options.dealer_bonus_mode != "none":
        assert seen["dealer_bonus"] > 0
    if config.options.ding_que_mode == "declare":
        assert seen["declare"] >= 150 * n_players


PAYING_ITEMS = {"chicken": ("chicken", "payee"), "bao_ji": ("chicken", "payer"),
                "dou": ("dou", "payee"), "bao_gang": ("dou", "payer")}  # fmt: skip
"""A settlement item that pays a seat's chickens or dou: (what, the seat's field)."""


@pytest.mark.engine
def test_wengan_text_says_not_paid_where_no_item_pays_the_owner(wengan_run):
    """抢杠烧鸡, 热炮烧鸡, 荒庄烧鸡烧豆, 荒庄不包鸡包豆 (docs/rules/wengan.md): a seat's
    chicken and dou lines end "not paid" exactly when the hand's JSON items pay it none of
    them, no 鸡分 (豆分) to it and no 包鸡 (包杠) from it; both kinds of line occur."""
    config, _, hands = wengan_run
    seen = Counter()
    for game, objects in hands.items():
        paid = set()
        for obj in objects:
            if obj["event"] == "settlement" and obj["item"] in PAYING_ITEMS:
                what, field = PAYING_ITEMS[obj["item"]]
                paid.add((what, obj[field]))
        for line in run_replay.text_lines(run_replay.replay_config(config, game)):
            words = line.split()
            if " owns chicken " in line:
                what, seat = "chicken", int(words[1])
            elif " kong of " in line and " is a " in line:
                what, seat = "dou", int(words[1].removesuffix("'s"))
            else:
                continue
            unpaid = line.endswith(", not paid")
            assert unpaid == ((what, seat) not in paid), (game, line)
            seen[what, unpaid] += 1
    assert seen["chicken", True] and seen["chicken", False] and seen["dou", False]


def test_a_replacement_draw_is_named_as_one():
    """A kong's replacement comes from the tail of the wall (docs/rules/wengan.md 杠牌摸一张牌;
    §wengan-claims): the replay says so, and an ordinary draw says nothing more."""
    from sim.variants.replay import ReplayWords, event_lines

    words = ReplayWords(
        win_kinds={},
        kong_names={},
        event_names={},
        event_text=lambda *_: None,
        event_fields=lambda *_: {},
    )
    events = np.array(
        [[S.EVENT_DRAW, 1, 4, S.DRAW_HEAD], [S.EVENT_DRAW, 2, 5, S.DRAW_REPLACEMENT]], np.int64
    )
    lines = event_lines(events, words)
    assert lines == ["seat 1 draws 5m", "seat 2 draws 6m (a kong's replacement, from the tail)"]


# --------------------------------------------------------------------------------------------
# The words of the text replay

TEXT_CONFIGS = ("anhua-seven-kings", "anhua-four-kings", "wengan-4p", "anqing")
TEXT_HANDS = 24
WINNER_LINE = {
    "anhua": r"seat \d: \S+, base points \d+ \(P\)",
    "wengan": r"seat \d: \S+ \(pattern points \d+\)( \+ \S+)?, points \d+ \(T\)",
    "anqing": r"seat \d: points \d+ \(S\), [^;]+; dealer's 连庄 count \d+ \(k\)",
}
ABBREVIATION = re.compile(r"\b[A-Za-z] = |\b[a-z]+_[a-z_]+\b| x\d|dealt [xy] kings")
"""What the docs alone explain: ``S = 11``, ``k = 1``, identifiers (``self_draw``), ``x3``."""


@cache
def _text_and_json(config_name: str) -> list[tuple[list[str], list[dict]]]:
    """The text and the parsed JSON of the first TEXT_HANDS hands of a config."""
    config = load_config(
        f"configs/{config_name}.toml", [f"run.games={TEXT_HANDS}", "run.chunk_hands=8"]
    )
    hands = []
    for game in range(TEXT_HANDS):
        hand = run_replay.replay_config(config, game)
        objects = [json.loads(line) for line in run_replay.json_lines(hand)]
        hands.append((run_replay.text_lines(hand), objects))
    return hands


@pytest.mark.engine
@pytest.mark.parametrize("config_name", TEXT_CONFIGS)
def test_the_text_replay_lists_each_seats_dealt_tiles_as_the_json_does(config_name):
    for text, objects in _text_and_json(config_name):
        deals = [
            f"seat {obj['seat']} is dealt {obj['count']} tiles: {obj['tiles']}"
            for obj in objects
            if obj["event"] == "deal"
        ]
        assert len(deals) == objects[0]["n_players"]
        assert [line for line in text if " is dealt " in line] == deals


@pytest.mark.engine
@pytest.mark.parametrize("config_name", TEXT_CONFIGS)
def test_the_text_replay_says_in_words_what_the_docs_abbreviate(config_name):
    """No ``S = 11``, ``T = 10``, ``k = 1``, ``x3`` or ``dealt y kings 1``: each winner's points
    named with the letter the rules give them in brackets, the status in words."""
    variant = load_config(f"configs/{config_name}.toml").variant
    winners = 0
    for text, objects in _text_and_json(config_name):
        for line in text[1:]:  # the header names the config's label
            assert not ABBREVIATION.search(line), line
        wins = [line for line in text if re.fullmatch(WINNER_LINE[variant], line)]
        assert len(wins) == sum(obj["event"] == "winner" for obj in objects), text
        winners += len(wins)
    assert winners > 0


def test_every_status_column_a_replay_shows_is_worded():
    """Each variant's shown status columns declare a phrase, and its fields fill in: a count's
    plural, a suit's letter, the melds a bit set names."""
    from sim.variants import VARIANT_NAMES, get_variant
    from sim.variants.replay import status_phrase

    for name in VARIANT_NAMES:
        variant = get_variant(name)
        for column in (*variant.seat_status, *variant.hand_status):
            if column.hidden:
                continue
            assert column.phrase, (name, column.name)
            for value in (1, 2, 5):
                assert "_" not in status_phrase(column, value), (name, column.name)
    anhua, wengan = get_variant("anhua"), get_variant("wengan")
    by_name = {c.name: c for c in (*anhua.seat_status, *wengan.seat_status)}
    assert status_phrase(by_name["dealt_y_kings"], 1) == "dealt 1 king of Y"
    assert status_phrase(by_name["dealt_x_kings"], 3) == "dealt 3 kings of X"
    assert status_phrase(by_name["que_suit"], 2) == "定缺: lacks suit p"
    assert status_phrase(by_name["late_kongs"], 5).endswith("meld 1 and 3")


def test_a_passed_win_is_named_by_each_variants_rule():
    """Anhua's 漏胡 bars a win on the kind until the seat draws (docs/rules/anhua.md, 漏胡);
    Weng'an's 过胡 may lock wins until the hand changes: a draw, pong or kong
    (docs/rules/wengan.md, §wengan-guo-hu)."""
    from sim.variants.replay import event_lines
    from sim.variants.wengan import replay as wengan_replay

    events = np.array([[S.EVENT_PASS_WIN, 1, 4, 0]], np.int64)
    assert event_lines(events, anhua_replay.WORDS) == [
        "seat 1 passes a win on 5m (漏胡: it may not win on 5m from another player until it draws)"
    ]
    assert event_lines(events, wengan_replay.WORDS) == [
        "seat 1 passes a win on 5m (过胡: its wins on others' tiles may be locked until its hand "
        "changes)"
    ]
