"""The settlement of an Anqing hand re-derived from its JSON replay log alone (the JSON event log
of ``mjsim replay`` carries every scoring item and 包 factor): S is the sum of the ``item`` events;
each payer's 包 factor follows from the ``final_hand`` melds and whose discards they took
(§anqing-bao: 口); each payment is (S + 庄家额外 + 连庄 L(k)) x that factor (§anqing-payments), k
from the ``winner`` object, the dealer and the options from the ``hand`` object. Checked on every
golden Anqing replay with a win (plain Python over the files: no kernel runs).

Rules: docs/rules/anqing.md (安庆麻将), 胡牌和算分 items 1-22 (§anqing-score-table), 庄家额外, 连庄
(#22), 碰牌和吃牌 (包: 顺包, 反包, 互为顺包).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "anqing"
REPLAYS = sorted(GOLDEN.glob("*.jsonl"))


def _objects(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _mouths(melds: list[dict], feeder: int) -> tuple[int, bool]:
    """(口 taken from ``feeder``, all of them pongs or kongs): chis, pongs and kongs made from
    his discards (an added kong keeps its pong's; concealed kongs never count)."""
    taken = [m for m in melds if m["from_seat"] == feeder and m.get("kong_type") != "concealed"]
    return len(taken), all(m["meld"] != "chi" for m in taken)


def _one_way(mouths: int, all_pongs: bool, options: dict) -> int:
    """f(A -> B) of §anqing-bao: 0 below three 口; 3, x2 for four, x2 all pongs; four all pongs
    ``bao_all_pong_4_factor``."""
    if mouths < 3:
        return 0
    if mouths >= 4 and all_pongs:
        return options["bao_all_pong_4_factor"]
    return 3 * (2 if mouths >= 4 else 1) * (2 if all_pongs else 1)


def _factor(payer: int, winner: int, melds: dict[int, list], options: dict) -> int:
    shun = _one_way(*_mouths(melds[winner], payer), options)
    fan = 2 * _one_way(*_mouths(melds[payer], winner), options)
    if not shun and not fan:
        return 1
    return shun + fan if options["mutual_bao_mode"] == "sum" else max(shun, fan)


def _amount(points: int, payer: int, winner: int, dealer: int, streak: int, options: dict):
    extra = 0
    if winner == dealer or (payer == dealer and options["dealer_extra_symmetric"]):
        extra = options["dealer_extra"]
    lian = 0
    if streak > 0 and dealer in (winner, payer):
        lian = options["lian_zhuang_table"][min(streak, 4) - 1]
    return points + extra + lian


@pytest.mark.parametrize("path", REPLAYS, ids=lambda path: path.stem)
def test_the_settlement_follows_from_the_json_log(path):
    objects = _objects(path)
    result = next(o for o in objects if o["event"] == "result")
    if result["outcome"] != "win":
        assert all(o["event"] != "pay" for o in objects)  # 荒庄: nobody pays
        assert result["score_changes"] == [0, 0, 0, 0]
        return
    hand = objects[0]
    options, dealer = hand["options"], hand["dealer"]
    (winner_object,) = [o for o in objects if o["event"] == "winner"]
    winner = winner_object["seat"]
    points = sum(o["points"] for o in objects if o["event"] == "item")
    assert points == winner_object["points"]
    melds = {o["seat"]: o["melds"] for o in objects if o["event"] == "final_hand"}
    factors = {o["payer"]: o["factor"] for o in objects if o["event"] == "bao"}
    paid = {o["payer"]: o["amount"] for o in objects if o["event"] == "pay"}
    deltas = [0, 0, 0, 0]
    for payer in range(4):
        if payer == winner:
            continue
        factor = _factor(payer, winner, melds, options)
        assert factors[payer] == factor, payer
        plain = _amount(points, payer, winner, dealer, winner_object["lian_zhuang"], options)
        assert paid[payer] == plain * factor, payer
        deltas[payer] -= paid[payer]
        deltas[winner] += paid[payer]
    assert result["score_changes"] == deltas


def test_some_golden_replay_has_a_bao_factor():
    """The check above is not vacuous for 包: one golden hand pays a factor above 1."""
    factors = [o["factor"] for p in REPLAYS for o in _objects(p) if o["event"] == "bao"]
    assert max(factors) >= 3
