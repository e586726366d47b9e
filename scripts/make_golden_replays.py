"""Regenerate the golden replays in ``tests/golden/<variant>/`` (text and JSON Lines).

    python scripts/make_golden_replays.py          # replay the listed hands, rewrite the files
    python scripts/make_golden_replays.py --scan   # find the hands again, rewrite the list too

Each golden is one hand of a config, chosen because it shows a special move of the variant; the
list ``tests/golden/<variant>/hands.json`` names, for each, the config, its overrides (a small
``run.chunk_hands`` keeps a replay short), the seed and the hand's number. Without ``--scan``
the listed hands are replayed and their ``<name>.txt`` (``mjsim replay``) and ``<name>.jsonl``
(``--format json``) written again; ``tests/test_golden_replays.py`` compares them exactly, so a
change of the engine's behaviour shows as a diff of these files in review. When a change is
intended, run this script and review ``git diff tests/golden``. ``--scan`` plays the hands of
each setup in turn until it has a hand for every move (needed when a listed hand no longer shows
its move).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sim.running.config import load_config  # noqa: E402
from sim.running.replay import json_lines, replay_config, text_lines  # noqa: E402

GOLDEN = ROOT / "tests" / "golden"
SCAN_GAMES = 4000  # hands of a setup the scan plays at most
SMALL_CHUNKS = "run.chunk_hands=64"  # a replay plays at most 63 hands before its own


@dataclass(frozen=True)
class Setup:
    config: str
    overrides: tuple[str, ...]
    seed: int


def _result(objects: list[dict]) -> dict:
    return objects[-1]


def _events(objects: list[dict], name: str) -> list[dict]:
    return [obj for obj in objects if obj["event"] == name]


def _kong_then_play(objects: list[dict]) -> bool:
    """A kong whose revealed tiles win nothing: the konger's hand is locked, play goes on."""
    names = [obj["event"] for obj in objects]
    for at, name in enumerate(names):
        if name == "kong" and "draw" in names[at + 1 :]:
            return _result(objects)["outcome"] == "win"
    return False


def _won(kind: str) -> Callable[[list[dict]], bool]:
    return lambda objects: _result(objects)["win_kind"] == kind


@dataclass(frozen=True)
class Wanted:
    name: str
    covers: str
    shows: Callable[[list[dict]], bool]  # on the hand's parsed JSON objects
    setup: Setup


SEVEN_KINGS_MIXED = Setup(
    "configs/anhua-seven-kings.toml",
    ('run.agents=["random", "efficiency", "self_draw", "efficiency"]',),
    11,
)
FOUR_KINGS_BONUS = Setup(
    "configs/anhua-four-kings.toml",
    (
        "options.dealer_bonus=true",
        "options.bird_count=4",
        'options.kong_multi_tile_win="double"',
    ),
    12,
)
THREE_PLAYERS_COUNT = Setup(
    "configs/anhua-three-players.toml",
    (
        'options.king_tier_mode="count"',
        "options.dealer_bonus=true",
        'options.dealer_bonus_timing="before_birds"',
        "options.bird_count=1",
    ),
    13,
)

WENGAN_FOUR = Setup("configs/wengan-4p.toml", (), 21)
WENGAN_TWO = Setup("configs/wengan-2p.toml", (), 22)


ANQING = Setup("configs/anqing.toml", (), 31)


def _kongs(objects: list[dict], zhi_jiao: bool) -> bool:
    """A single-tile kong (单张杠): of the 钻 under 直叫, or of a 杠牌."""
    return any(
        obj.get("kong_name") == "单张杠" and bool(obj.get("zhi_jiao")) == zhi_jiao
        for obj in _events(objects, "kong")
    )


def _scored(item: str) -> Callable[[list[dict]], bool]:
    return lambda objects: any(item in obj["items"] for obj in _events(objects, "winner"))


def _dou(kind: str) -> Callable[[list[dict]], bool]:
    return lambda objects: any(obj["dou"] == kind for obj in _events(objects, "dou"))


WANTED = {
    "anhua": (
        Wanted(
            "kong_reveal",
            "开杠: a kong reveals tiles that win nothing; the konger's hand is locked, play goes on"
            " (seven kings, mixed agents)",
            _kong_then_play,
            SEVEN_KINGS_MIXED,
        ),
        Wanted(
            "rob_kong", "抢杠胡: a kong declared, then robbed", _won("rob_kong"), SEVEN_KINGS_MIXED
        ),
        Wanted(
            "multi_ron",
            "一炮多响: two players win on one discard (four kings: more hands may win on discards)",
            lambda objects: len(_result(objects)["winners"]) >= 2,
            FOUR_KINGS_BONUS,
        ),
        Wanted(
            "pass_win",
            "漏胡: a random or self_draw agent passes a win on a discard",
            lambda objects: bool(_events(objects, "pass_win")),
            SEVEN_KINGS_MIXED,
        ),
        Wanted(
            "kong_bloom",
            "杠上花 with four kings, the dealer bonus and four birds",
            _won("kong_bloom"),
            FOUR_KINGS_BONUS,
        ),
        Wanted(
            "kong_cannon",
            "杠上炮: a tile the kong revealed wins for another player, the konger pays",
            _won("kong_cannon"),
            FOUR_KINGS_BONUS,
        ),
        Wanted(
            "instant",
            "起手胡: the instant win on dealt kings (three players, tiers by king count)",
            _won("instant"),
            THREE_PLAYERS_COUNT,
        ),
        Wanted(
            "exhaustive_draw",
            "荒庄: the wall runs out, nobody pays (seven kings, mixed agents)",
            lambda objects: _result(objects)["outcome"] == "draw",
            SEVEN_KINGS_MIXED,
        ),
    ),
    "wengan": (
        Wanted(
            "bao_ting",
            "报听: a ready hand declared on the first discard, then frozen",
            lambda objects: bool(_events(objects, "declare")),
            WENGAN_FOUR,
        ),
        Wanted("men_dou", "闷豆: a concealed kong and its dou", _dou("men_dou"), WENGAN_FOUR),
        Wanted(
            "dian_dou",
            "点豆: a kong on a discard, the discarder pays",
            _dou("dian_dou"),
            WENGAN_FOUR,
        ),
        Wanted(
            "rob_pa_po_dou",
            "抢杠: a 爬坡豆 (an added kong of a fresh tile) robbed",
            _won("rob_kong"),
            WENGAN_FOUR,
        ),
        Wanted(
            "multi_ron",
            "一炮多响: two players win on one discard",
            lambda objects: len(_result(objects)["winners"]) >= 2,
            WENGAN_FOUR,
        ),
        Wanted(
            "cha_jiao",
            "荒庄查叫: the wall runs out, unready hands pay the ready ones",
            lambda objects: (
                _result(objects)["outcome"] == "draw" and bool(_events(objects, "settlement"))
            ),
            WENGAN_FOUR,
        ),
        Wanted(
            "two_players_ding_que",
            "定缺 with two players: a win without the suit the seat plays without",
            lambda objects: _result(objects)["outcome"] == "win",
            WENGAN_TWO,
        ),
    ),
    "anqing": (
        Wanted(
            "gang_pai_kong",
            "杠牌: a kong-only dragon konged alone, a replacement from the tail",
            lambda objects: _kongs(objects, zhi_jiao=False),
            ANQING,
        ),
        Wanted(
            "zhi_jiao",
            "直叫: a ready hand kongs a 钻 alone",
            lambda objects: _kongs(objects, zhi_jiao=True),
            ANQING,
        ),
        Wanted("pao_feng", "跑风: a win scoring 跑风 (钻 conditions met)", _scored("跑风"), ANQING),
        Wanted(
            "bao",
            "包: one seat fed three melds of the winner, a 包 factor",
            lambda objects: any(obj["factor"] > 1 for obj in _events(objects, "bao")),
            ANQING,
        ),
        Wanted(
            "exhaustive_draw",
            "荒庄: the wall runs out, nobody pays",
            lambda objects: _result(objects)["outcome"] == "draw",
            ANQING,
        ),
    ),
}


def config_of(entry: dict):
    """The run config of a listed hand."""
    overrides = [*entry["overrides"], f"run.seed={entry['seed']}"]
    return load_config(ROOT / entry["config"], overrides)


def golden_outputs(entry: dict) -> dict[str, str]:
    """File name -> text of a listed hand's two replays."""
    hand = replay_config(config_of(entry), entry["game"])
    return {
        f"{entry['name']}.txt": "\n".join(text_lines(hand)) + "\n",
        f"{entry['name']}.jsonl": "\n".join(json_lines(hand)) + "\n",
    }


def hands_list(variant: str) -> list[dict]:
    return json.loads((GOLDEN / variant / "hands.json").read_text(encoding="utf-8"))


def scan(variant: str) -> list[dict]:
    """The first hand of its setup that shows each wanted move."""
    found: dict[str, dict] = {}
    wanted = WANTED[variant]
    for setup in dict.fromkeys(w.setup for w in wanted):
        looking = [w for w in wanted if w.setup == setup]
        overrides = [*setup.overrides, f"run.games={SCAN_GAMES}", SMALL_CHUNKS]
        entry = {"config": setup.config, "overrides": overrides, "seed": setup.seed}
        config = config_of(entry)
        for game in range(SCAN_GAMES):
            if all(w.name in found for w in looking):
                break
            hand = replay_config(config, game)
            objects = [json.loads(line) for line in json_lines(hand)]
            for w in looking:
                if w.name not in found and w.shows(objects):
                    found[w.name] = {"name": w.name, "covers": w.covers, **entry, "game": game}
                    print(f"{w.name}: hand {game} of {setup.config} (seed {setup.seed})")
        missing = [w.name for w in looking if w.name not in found]
        if missing:
            raise SystemExit(f"no hand shows {', '.join(missing)} in {SCAN_GAMES} hands")
    return [found[w.name] for w in wanted]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scan", action="store_true", help="find the hands again")
    args = parser.parse_args(argv)
    for variant in WANTED:
        folder = GOLDEN / variant
        folder.mkdir(parents=True, exist_ok=True)
        if args.scan:
            listed = json.dumps(scan(variant), indent=2, ensure_ascii=False) + "\n"
            (folder / "hands.json").write_text(listed, encoding="utf-8")
        for entry in hands_list(variant):
            for name, text in golden_outputs(entry).items():
                (folder / name).write_text(text, encoding="utf-8")
                print(f"wrote {(folder / name).relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
