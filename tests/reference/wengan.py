"""Slow, plainly written reference settlement of one finished Weng'an hand 贵州瓮安麻将.

Follows the rules reference docs/rules/wengan.md (§wengan-rules), readings included, clarity first:
the oracle a fast engine will be checked against. Hand shapes come from the reference evaluator
(``evaluator.decompositions``); tiles are written as ``sim.core.tiles`` writes them (``"123m
55p"``).

Public API

* ``Meld``, ``Seat``, ``Discard``, ``Win``, ``HandEnd``: a plain description of a hand's end
* ``settle(end)`` -> ``Settlement``: every seat's delta and the itemised payments
  (§wengan-pattern-score)
* ``pattern(...)``, ``best_pattern(...)``, ``waits(...)``, ``max_pattern(...)``: §wengan-hand-forms,
  §wengan-pattern-score
* ``discard_win_allowed(...)``: the 通行证 rule and its exceptions (§wengan-how-to-win,
  §wengan-passport)
* ``chicken_value(...)``: the value of one chicken tile (§wengan-chicken-value)
* ``next_deal(end)`` -> (next dealer, his 连庄 streak) (§wengan-next-dealer, §wengan-dealer-bonus)

Seats are numbered in turn order (seat ``s + 1`` plays after seat ``s``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import lru_cache

from sim.core.tiles import parse_tiles as _parse_tiles
from sim.variants.wengan import WenganOptions

from .evaluator import decompositions


@lru_cache(maxsize=1 << 14)
def _parsed(text: str) -> tuple[int, ...]:
    return tuple(_parse_tiles(text))


def parse_tiles(text: str) -> list[int]:
    """``sim.core.tiles.parse_tiles``, remembered: the referee asks the same hands' tiles again and
    again (every candidate wait of a seat), and parsing them was a third of its time."""
    return list(_parsed(text))


KONG_KINDS = ("men_dou", "pa_po_dou", "dian_dou", "han_bao_dou")
"""闷豆 concealed, 爬坡豆 added (scoring), 点豆 on a discard, 憨包豆 late (§wengan-kongs)."""
MELD_KINDS = ("pong", *KONG_KINDS)
WIN_HOWS = ("self_draw", "discard", "rob_kong")
ONE_S, EIGHT_P, ONE_P, ONE_M = 18, 16, 9, 0
PLAIN = "平胡"


# ------------------------------------------------------------------------------ the hand's end


@dataclass(frozen=True)
class Meld:
    """A pong or a kong (豆): ``kind`` one of MELD_KINDS; ``from_seat`` the discarder whose tile
    was claimed (a pong, a 点豆, and the pong an added kong grew from), else None."""

    kind: str
    tile: str
    from_seat: int | None = None

    @property
    def kinds(self) -> list[int]:
        return [parse_tiles(self.tile)[0]] * (3 if self.kind == "pong" else 4)


@dataclass(frozen=True)
class Seat:
    """One seat at the end. ``concealed``: its concealed tiles (a winner's without the winning
    tile); None = not shown (holds no chicken tile; ``ready`` then says its status, default not
    ready). ``ready``: when the tiles are shown, the status they must give (a check of the test's
    data). ``bao_ting``: declared 报听. ``dealt_lacking_a_suit``: 原缺 (§wengan-ding-que).
    ``que_suit``: the suit named under ``ding_que_mode = declare``."""

    concealed: str | None = None
    melds: tuple[Meld, ...] = ()
    ready: bool | None = None
    bao_ting: bool = False
    dealt_lacking_a_suit: bool = False
    que_suit: str | None = None


@dataclass(frozen=True)
class Discard:
    """One discard, in the order of the hand: ``claimed_by`` the seat that ponged or konged it.
    Only discards the rules look at need be listed (chicken tiles); the discard won on is not."""

    seat: int
    tile: str
    claimed_by: int | None = None


@dataclass(frozen=True)
class Win:
    """One winner: ``how`` self_draw, discard or rob_kong; ``from_seat`` the discarder or the
    robbed konger; ``kong_bloom`` 杠开; ``heavenly`` 天胡; ``earthly`` 地胡 (the caller states
    that the window of §wengan-mingtang held)."""

    seat: int
    tile: str
    how: str
    from_seat: int | None = None
    kong_bloom: bool = False
    heavenly: bool = False
    earthly: bool = False

    @property
    def kind(self) -> int:
        return parse_tiles(self.tile)[0]


@dataclass(frozen=True)
class HandEnd:
    """A finished hand. ``wins`` empty = 荒庄. ``streak``: the dealer's 连庄 count n. ``wall``: the
    undrawn tiles, head first (the flips come from its ends, §wengan-chicken-flip). ``hot_cannon``:
    the discard won on was the discarder's first after his kong (热炮)."""

    seats: tuple[Seat, ...]
    wins: tuple[Win, ...] = ()
    dealer: int = 0
    streak: int = 0
    wall: str = ""
    discards: tuple[Discard, ...] = ()
    hot_cannon: bool = False
    options: WenganOptions = field(default_factory=WenganOptions)

    @property
    def players(self) -> int:
        return self.options.player_count

    def others(self, seat: int) -> list[int]:
        return [other for other in range(self.players) if other != seat]

    @property
    def winners(self) -> list[int]:
        return [win.seat for win in self.wins]


@dataclass(frozen=True)
class Item:
    """One payment: ``payer`` gives ``payee`` ``amount`` points (already × 底分)."""

    kind: str
    payer: int
    payee: int
    amount: int


@dataclass(frozen=True)
class Settlement:
    deltas: tuple[int, ...]
    items: tuple[Item, ...]

    def total(self, kind: str) -> int:
        return sum(item.amount for item in self.items if item.kind == kind)


# ------------------------------------------------------------------------------ tiles


def suit(kind: int) -> int:
    return kind // 9


def rank(kind: int) -> int:
    return kind % 9 + 1


def next_rank(kind: int) -> int:
    """Same suit, rank + 1, 9 wrapping to 1 (翻牌鸡, §wengan-chicken-flip)."""
    return suit(kind) * 9 + rank(kind) % 9


def previous_rank(kind: int) -> int:
    """Same suit, rank - 1, 1 wrapping to 9 (摇摆鸡, §wengan-chicken-flip)."""
    return suit(kind) * 9 + (rank(kind) - 2) % 9


def concealed_kinds(seat: Seat) -> list[int]:
    return parse_tiles(seat.concealed) if seat.concealed else []


def meld_kinds(seat: Seat) -> list[int]:
    return [kind for meld in seat.melds for kind in meld.kinds]


def counts34(kinds: Iterable[int]) -> tuple[int, ...]:
    counter = Counter(kinds)
    return tuple(counter[kind] for kind in range(34))


# --------------------------------------------------------------------------- patterns
# (§wengan-hand-forms, §wengan-pattern-score)

PATTERN_POINTS = {
    "平胡": 1,
    "大对子": 5,
    "七对": 5,
    "龙七对": 20,
    "清一色": 10,
    "清大对": 15,
    "清七对": 15,
    "青龙背": 30,
    "单吊": 10,
    "清单吊": 20,
}


def _seven_pairs_names(hand: list[int], melds: tuple[Meld, ...], win: int, options) -> list[str]:
    """七对 / 龙七对 (§wengan-hand-forms): 14 concealed tiles in pairs, a quad two pairs, no melds;
    龙七对 needs a quad, by default made by the winning tile."""
    counts = Counter(hand)
    if melds or len(hand) != 14 or any(n % 2 for n in counts.values()):
        return []
    long = any(n == 4 for n in counts.values())
    if options.long_qi_dui_win_on_quad:
        long = counts[win] == 4
    return ["七对", "龙七对"] if long else ["七对"]


def _standard_names(hand: list[int], melds: tuple[Meld, ...], win: int, options) -> list[str]:
    """平胡 / 大对子 / 单吊 (§wengan-hand-forms): the concealed tiles split into sets and a pair,
    melds the other sets; 单吊 by ``dan_diao_definition``."""
    if len(hand) + 3 * len(melds) != 14:
        return []
    # each set lies in one suit and so does the pair: one suit's count is 2 mod 3, the others'
    # 0 (a quick no before the search of the decompositions)
    by_suit = Counter(suit(kind) for kind in hand)
    if sorted(count % 3 for count in by_suit.values() if count % 3) != [2]:
        return []
    names = []
    for decomposition in decompositions(counts34(hand), 0):
        names.append(PLAIN)
        if all(group[0] in ("tri", "pair") for group in decomposition):
            names.append("大对子")
        pair = next(group[1] for group in decomposition if group[0] == "pair")
        if pair == win and (options.dan_diao_definition == "any_pair_wait" or len(melds) == 4):
            names.append("单吊")
    return names


FLUSH_NAMES = {
    "平胡": "清一色",
    "大对子": "清大对",
    "七对": "清七对",
    "龙七对": "青龙背",
    "单吊": "清单吊",
}


def pattern(hand: list[int], melds: tuple[Meld, ...], win: int, options) -> str | None:
    """The highest §wengan-pattern-score row the complete hand fits (``hand``: concealed tiles with
    the winning tile ``win``), or None when it is not a winning hand."""
    names = _standard_names(hand, melds, win, options) + _seven_pairs_names(
        hand, melds, win, options
    )
    if not names:
        return None
    all_tiles = hand + [kind for meld in melds for kind in meld.kinds]
    if len({suit(kind) for kind in all_tiles}) == 1:
        names = [FLUSH_NAMES[name] for name in names]
    return max(names, key=PATTERN_POINTS.__getitem__)


def que_ok(kinds: Iterable[int], seat: Seat, players: int, options) -> bool:
    """定缺 (§wengan-ding-que): with 2 or 3 players, at most two suits (or none of the named
    suit)."""
    if players == 4 or not options.ding_que:
        return True
    suits = {suit(kind) for kind in kinds}
    if options.ding_que_mode == "declare":
        return "mps".index(seat.que_suit) not in suits
    return len(suits) <= 2


def winning_pattern(seat: Seat, win: int, players: int, options) -> str | None:
    """The pattern of ``seat`` completed by ``win``, None if no win (shape or 定缺)."""
    hand = [*concealed_kinds(seat), win]
    if not que_ok(hand + meld_kinds(seat), seat, players, options):
        return None
    return pattern(hand, seat.melds, win, options)


def best_pattern(seat: Seat, win: Win, players: int, options) -> str | None:
    """The winner's pattern; a 天胡 scores its best choice of winning tile among the 14
    (§wengan-readings #38)."""
    if not win.heavenly:
        return winning_pattern(seat, win.kind, players, options)
    hand = [*concealed_kinds(seat), win.kind]
    found = []
    for choice in set(hand):
        rest = list(hand)
        rest.remove(choice)
        name = winning_pattern(
            replace(seat, concealed=" ".join(_name(k) for k in rest)), choice, players, options
        )
        if name:
            found.append(name)
    return max(found, key=PATTERN_POINTS.__getitem__, default=None)


def _name(kind: int) -> str:
    return f"{rank(kind)}{'mps'[suit(kind)]}"


def waits(seat: Seat, players: int, options) -> dict[int, str]:
    """Kind -> pattern, for every tile that would complete the seat's 13 tiles (a kind of which
    the seat holds all four is no wait: there is no fifth copy)."""
    held = Counter(concealed_kinds(seat) + meld_kinds(seat))
    found = {}
    for kind in range(27):
        if held[kind] < 4:
            name = winning_pattern(seat, kind, players, options)
            if name:
                found[kind] = name
    return found


def max_pattern(seat: Seat, players: int, options) -> int:
    """荒庄查叫's 最大牌型分: the best §wengan-pattern-score points over every wait, no 名堂
    (§wengan-exhaustive-draw, §wengan-reading-cha-jiao-pattern-only)."""
    return max((PATTERN_POINTS[name] for name in waits(seat, players, options).values()), default=0)


def is_ready(seat: Seat, players: int, options) -> bool:
    """叫 / 听牌 at the end (§wengan-chicken-collection, §wengan-exhaustive-draw): the stated status
    when the tiles are not shown."""
    if seat.concealed is None:
        return bool(seat.ready)
    ready = bool(waits(seat, players, options))
    if seat.ready is not None and seat.ready != ready:
        raise ValueError(f"seat {seat}: stated ready={seat.ready}, the tiles say {ready}")
    return ready


# ------------------------------------------------------------------------------ who may win
# (§wengan-how-to-win)


def has_passport(seat: Seat, options) -> bool:
    """通行证 (§wengan-passport, option ``passport_kinds``): a kong of the allowed kinds, or a
    chicken."""
    kinds = options.passport_kinds
    if kinds == "none":
        return True
    allowed = ("men_dou", "pa_po_dou", "dian_dou") if kinds == "scoring_kong" else KONG_KINDS
    if any(meld.kind in allowed for meld in seat.melds):
        return True
    chickens = {ONE_S} | ({EIGHT_P} if options.wu_gu_ji else set())
    held = concealed_kinds(seat) + meld_kinds(seat)  # the winning tile does not count
    return kinds == "kong_or_chicken" and any(kind in chickens for kind in held)


def discard_win_allowed(
    seat: Seat,
    name: str,
    options,
    *,
    earthly: bool = False,
    robbing: bool = False,
    hot_cannon: bool = False,
    discarder_bao_ting: bool = False,
) -> bool:
    """平胡点炮需要通行证 (§wengan-how-to-win): a big hand always; a 平胡 with a 通行证, or in one
    of the five exceptions (地胡, 抢杠, 热炮, 报听, 杀听). A 过胡 lock arises only where this is
    True."""
    exception = earthly or robbing or hot_cannon or seat.bao_ting or discarder_bao_ting
    return (
        name != PLAIN
        or not options.ping_hu_ron_needs_passport
        or exception
        or has_passport(seat, options)
    )


# ---------------------------------------------------------------------- hand payments
# (§wengan-mingtang, §wengan-hand-payments)


def mingtang_value(name: str, options) -> int:
    """One 名堂 (天胡, 地胡, 抢杠, 报听, 杀听): "平胡9分 大胡10分" (§wengan-mingtang,
    §wengan-reading-mingtang-is-a-bonus, §wengan-reading-scorer-details)."""
    if name != PLAIN:
        return 10
    return 9 if options.mingtang_bonus_mode == "bonus_9_10" else 8


def hand_total(end: HandEnd, win: Win, name: str) -> int:
    """T = pattern + 名堂 + 杠开 (§wengan-hand-payments); 杀听 and 热炮 are paid apart."""
    seat = end.seats[win.seat]
    named = [win.heavenly, win.earthly, win.how == "rob_kong", seat.bao_ting]
    return (
        PATTERN_POINTS[name]
        + sum(named) * mingtang_value(name, end.options)
        + (3 if win.kong_bloom else 0)
    )


def dealer_bonus(end: HandEnd, payer: int, payee: int) -> int:
    """连庄 +n / 一口二 +1 on a pattern or 查叫 payment with the dealer (§wengan-dealer-bonus)."""
    if end.dealer not in (payer, payee):
        return 0
    return {"none": 0, "lian_zhuang": end.streak, "yi_kou_er": 1}[end.options.dealer_bonus_mode]


def pattern_items(end: HandEnd, win: Win, name: str) -> list[Item]:
    """Self-draw: every other player pays T; a discard or a robbed kong: the discarder or the robbed
    player pays T (§wengan-hand-payments, §wengan-reading-robbed-player-pays-one-share); plus the
    dealer bonus."""
    payers = end.others(win.seat) if win.how == "self_draw" else [win.from_seat]
    total = hand_total(end, win, name)
    items = []
    for payer in payers:
        items.append(Item("pattern", payer, win.seat, total))
        bonus = dealer_bonus(end, payer, win.seat)
        if bonus:
            items.append(Item("dealer_bonus", payer, win.seat, bonus))
    return items


def sha_ting_payers(end: HandEnd, win: Win) -> list[int]:
    """杀听 (§wengan-mingtang, §wengan-hand-payments): a 报听 discarder, or on a self-draw the 报听
    players (option ``all_payers``: every other player) while one has declared."""
    if win.how == "discard":
        return [win.from_seat] if end.seats[win.from_seat].bao_ting else []
    if win.how != "self_draw":
        return []
    declared = [seat for seat in end.others(win.seat) if end.seats[seat].bao_ting]
    if declared and end.options.sha_ting_payer == "all_payers":
        return end.others(win.seat)
    return declared


def win_items(end: HandEnd, win: Win, name: str) -> list[Item]:
    items = pattern_items(end, win, name)
    if win.how == "discard" and end.hot_cannon:
        items.append(Item("hot_cannon", win.from_seat, win.seat, 1))
    for payer in sha_ting_payers(end, win):
        items.append(Item("sha_ting", payer, win.seat, mingtang_value(name, end.options)))
    return items


# ---------------------------------------------------------------------------- chickens
# (§wengan-chickens)


def flips(end: HandEnd) -> list[int]:
    """翻牌 (§wengan-chicken-flip): after a win, with 翻牌鸡, the first undrawn tile, and with
    前后翻鸡 also the last when two or more remain; none on 荒庄 or with no tile left."""
    wall = parse_tiles(end.wall) if end.wall else []
    if not end.wins or not end.options.fan_pai_ji or not wall:
        return []
    if end.options.qian_hou_fan_ji and len(wall) >= 2:
        return [wall[0], wall[-1]]
    return [wall[0]]


def hits(end: HandEnd) -> Counter:
    """H(t): how many flips designate kind t (rank + 1; 本鸡 the flip; 摇摆鸡 rank - 1)."""
    options = end.options
    counter: Counter = Counter()
    for flip in flips(end):
        designated = {next_rank(flip)}
        if options.ben_ji:
            designated.add(flip)
        if options.yao_bai_ji:
            designated.add(previous_rank(flip))
        counter.update(designated)
    return counter


def is_weekday(kind: int, options) -> bool:
    return options.xing_qi_ji and rank(kind) == options.xing_qi_ji_weekday


def is_fixed(kind: int, options) -> bool:
    """幺鸡, 乌骨鸡 and 星期鸡: chickens wherever they lie (§wengan-chicken-collection)."""
    return kind == ONE_S or (kind == EIGHT_P and options.wu_gu_ji) or is_weekday(kind, options)


def base_value(kind: int, options) -> int:
    if kind == ONE_S:
        return 1
    return 2 if kind == EIGHT_P and options.wu_gu_ji else 0


def is_gold(kind: int, options) -> bool:
    """金鸡 (1s; 8p with 乌骨鸡) and 全清幺 (1p, 1m) (§wengan-chicken-value,
    §wengan-reading-8p-gold-needs-wu-gu-ji)."""
    fixed_gold = options.jin_ji and (kind == ONE_S or (kind == EIGHT_P and options.wu_gu_ji))
    return fixed_gold or (options.quan_qing_yao and kind in (ONE_P, ONE_M))


def chicken_value(
    kind: int, hit: int, options, *, charging: bool = False, ordinal: int | None = None
) -> int:
    """One physical tile's value (§wengan-chicken-value): base + flip bonus (+2 per hit for gold) +
    星期鸡; a plain charging tile doubles base and bonus; an ordinal (4321/3211) replaces the
    base."""
    base = base_value(kind, options) if ordinal is None else ordinal
    gold = is_gold(kind, options)
    if gold and options.gold_model == "multiplicative" and base:
        core = base * (1 + hit)
    else:
        core = base + hit * (2 if gold else 1)
    if charging:
        core *= 2
    return core + (1 if is_weekday(kind, options) else 0)


ORDINALS = {"4321": (4, 3, 2, 1), "3211": (3, 2, 1, 1)}


def charging_discards(end: HandEnd) -> dict[int, dict]:
    """Index in ``end.discards`` -> how that unclaimed discard charges (冲锋鸡,
    §wengan-chicken-value): ``{"charging": True}`` (plain: the first 1s, with 乌骨鸡 the first 8p)
    or ``{"ordinal": k}`` (4321 / 3211: every unclaimed 1s by order of discard)."""
    mode = end.options.chong_feng_mode
    marks: dict[int, dict] = {}
    if mode == "plain":
        for kind in [ONE_S] + ([EIGHT_P] if end.options.wu_gu_ji else []):
            first = first_discard(end, kind)
            if first is not None and end.discards[first].claimed_by is None:
                marks[first] = {"charging": True}
    elif mode in ORDINALS:
        seen = 0
        for index, discard in enumerate(end.discards):
            if parse_tiles(discard.tile)[0] != ONE_S:
                continue
            counts = discard.claimed_by is None or end.options.chongfeng_ordinal_counts_claimed
            if discard.claimed_by is None:
                marks[index] = {"ordinal": ORDINALS[mode][min(seen, 3)]}
            seen += 1 if counts else 0
    return marks


def first_discard(end: HandEnd, kind: int) -> int | None:
    return next((i for i, d in enumerate(end.discards) if parse_tiles(d.tile)[0] == kind), None)


def responsibilities(end: HandEnd) -> list[tuple[int, int, int]]:
    """责任鸡 (§wengan-chicken-collection): (discarder, claimer, 1 or 2) for a charging candidate
    ponged, or konged with ``ze_ren_on_kong``; only the hand's first 1s (and in plain mode first
    8p)."""
    options = end.options
    if options.chong_feng_mode == "none" or not options.ze_ren_ji:
        return []
    kinds = [ONE_S] + ([EIGHT_P] if options.wu_gu_ji and options.chong_feng_mode == "plain" else [])
    found = []
    for kind in kinds:
        first = first_discard(end, kind)
        if first is None or end.discards[first].claimed_by is None:
            continue
        discard = end.discards[first]
        claimer = end.seats[discard.claimed_by]
        konged = any(m.kind == "dian_dou" and m.kinds[0] == kind for m in claimer.melds)
        if konged and not options.ze_ren_on_kong:
            continue
        found.append((discard.seat, discard.claimed_by, base_value(kind, options)))
    return found


@dataclass(frozen=True)
class OwnedChicken:
    kind: int
    where: str  # hand, meld or discard
    value: int


def owned_chickens(end: HandEnd, seat: int, hit: Counter) -> list[OwnedChicken]:
    """The seat's scoring chicken tiles (§wengan-chicken-collection scope): hand (with its winning
    tile), melds, own unclaimed discards; flip chickens that are not fixed only in discards with
    满堂鸡."""
    options = end.options
    hand = concealed_kinds(end.seats[seat])
    hand += [win.kind for win in end.wins if win.seat == seat]
    places = [(kind, "hand", {}) for kind in hand]
    places += [(kind, "meld", {}) for kind in meld_kinds(end.seats[seat])]
    marks = charging_discards(end)
    for index, discard in enumerate(end.discards):
        if discard.seat == seat and discard.claimed_by is None:
            places.append((parse_tiles(discard.tile)[0], "discard", marks.get(index, {})))
    owned = []
    for kind, where, mark in places:
        counts_here = is_fixed(kind, options) or where != "discard" or options.man_tang_ji
        value = chicken_value(kind, hit[kind], options, **mark) if counts_here else 0
        if value:
            owned.append(OwnedChicken(kind, where, value))
    return owned


def in_bao_scope(chicken: OwnedChicken, options) -> bool:
    """包鸡 scope (§wengan-chicken-collection, option ``bao_ji_scope``)."""
    if options.bao_ji_scope == "all":
        return True
    fixed_kind = chicken.kind == ONE_S or (chicken.kind == EIGHT_P and options.wu_gu_ji)
    return fixed_kind and (options.bao_ji_scope == "all_fixed" or chicken.where != "hand")


# ------------------------------------------------------------------------------ settlement


@dataclass(frozen=True)
class Standing:
    """Who collects and who pays back, once the hand's result is known."""

    collecting: frozenset  # winners and ready players
    burned_chickens: frozenset
    burned_dou: frozenset
    collect: bool  # chickens and dou are paid at all (荒庄: §wengan-exhaustive-draw)
    bao: bool  # 包鸡 / 包杠 can arise (荒庄: §wengan-exhaustive-draw)


def standing(end: HandEnd) -> Standing:
    options = end.options
    ready = {s for s in range(end.players) if is_ready(end.seats[s], end.players, options)}
    collecting = frozenset(ready | set(end.winners))
    robbed = {w.from_seat for w in end.wins if w.how == "rob_kong"}
    hot = {w.from_seat for w in end.wins if w.how == "discard" and end.hot_cannon}
    burned_chickens = (robbed if options.qiang_gang_shao_ji else set()) | (
        hot if options.re_pao_shao_ji else set()
    )
    burned_dou = (robbed if options.qiang_gang_shao_dou else set()) | (
        hot if options.re_pao_shao_dou else set()
    )
    if end.wins:
        return Standing(collecting, frozenset(burned_chickens), frozenset(burned_dou), True, True)
    burn_all = options.huang_zhuang_burn and options.huang_zhuang_burn_scope == "all"
    bao = not options.huang_zhuang_burn and not options.huang_zhuang_no_bao
    return Standing(collecting, frozenset(), frozenset(), not burn_all, bao)


def bao_recipients(end: HandEnd, seat: int, state: Standing) -> list[int]:
    """包 goes to every other player, or with ``bao_requires_ready`` to collecting ones."""
    if end.options.bao_requires_ready:
        return [other for other in end.others(seat) if other in state.collecting]
    return end.others(seat)


def chicken_items(end: HandEnd, state: Standing) -> list[Item]:
    """鸡分 (§wengan-chicken-collection): collectors take each chicken's value from every other
    player and their 责任鸡; non-ready players with 包鸡 pay their chickens back and return the
    责任鸡."""
    hit = hits(end)
    items = []
    received = responsibilities(end)
    for seat in range(end.players):
        owned = owned_chickens(end, seat, hit)
        if seat in state.collecting:
            if seat in state.burned_chickens:
                continue
            for chicken in owned:
                items += [Item("chicken", o, seat, chicken.value) for o in end.others(seat)]
            items += [
                Item("responsibility", discarder, seat, amount)
                for discarder, claimer, amount in received
                if claimer == seat
            ]
        elif state.bao and end.options.bao_ji:
            recipients = bao_recipients(end, seat, state)
            for chicken in owned:
                if in_bao_scope(chicken, end.options):
                    items += [Item("bao_ji", seat, o, chicken.value) for o in recipients]
            items += [
                Item("bao_ji", seat, discarder, amount)
                for discarder, claimer, amount in received
                if claimer == seat and discarder in recipients
            ]
    return items


def dou_payments(end: HandEnd, seat: int, meld: Meld) -> list[tuple[int, int]]:
    """(payer, amount) of one kong (§wengan-kongs): 闷豆 2 and 爬坡豆 3 from each, 点豆 1 from the
    discarder, 憨包豆 nothing."""
    if meld.kind == "men_dou":
        return [(other, 2) for other in end.others(seat)]
    if meld.kind == "pa_po_dou":
        return [(other, 3) for other in end.others(seat)]
    if meld.kind == "dian_dou":
        return [(meld.from_seat, 1)]
    return []


def dou_items(end: HandEnd, state: Standing) -> list[Item]:
    """豆分 (§wengan-dou-settlement): collectors take their dou (unless burned); with 包杠 a
    non-ready player pays each amount back to the player it would have come from."""
    items = []

    def recipients(seat: int) -> list[int]:
        return bao_recipients(end, seat, state)

    for seat in range(end.players):
        for meld in end.seats[seat].melds:
            for payer, amount in dou_payments(end, seat, meld):
                if seat in state.collecting:
                    if seat not in state.burned_dou:
                        items.append(Item("dou", payer, seat, amount))
                elif state.bao and end.options.bao_gang and payer in recipients(seat):
                    items.append(Item("bao_gang", seat, payer, amount))
    return items


def cha_jiao_items(end: HandEnd, state: Standing) -> list[Item]:
    """荒庄查叫 (§wengan-exhaustive-draw): each non-ready player pays each ready one his best
    pattern + the dealer bonus; nothing when all or none are ready."""
    ready = sorted(state.collecting)
    if not end.options.huang_zhuang_cha_jiao or len(ready) in (0, end.players):
        return []
    items = []
    for payer in range(end.players):
        if payer in state.collecting:
            continue
        for payee in ready:
            points = max_pattern(end.seats[payee], end.players, end.options)
            items.append(Item("cha_jiao", payer, payee, points))
            bonus = dealer_bonus(end, payer, payee)
            if bonus:
                items.append(Item("dealer_bonus", payer, payee, bonus))
    return items


def yuan_que_items(end: HandEnd) -> list[Item]:
    """原缺 (§wengan-ding-que): 2/3 players with 定缺, a fixed sum from each other player, not ×
    底分."""
    options = end.options
    if end.players == 4 or not options.ding_que or not options.yuan_que_bonus:
        return []
    return [
        Item("yuan_que", other, seat, options.yuan_que_bonus)
        for seat in range(end.players)
        if end.seats[seat].dealt_lacking_a_suit
        for other in end.others(seat)
    ]


def settle(end: HandEnd) -> Settlement:
    """Every payment of the hand (§wengan-settlement-order), × 底分 except 原缺, and each seat's
    delta."""
    check(end)
    state = standing(end)
    items = []
    for win in end.wins:
        name = best_pattern(end.seats[win.seat], win, end.players, end.options)
        items += win_items(end, win, name)
    if not end.wins:
        items += cha_jiao_items(end, state)
    if state.collect:
        items += chicken_items(end, state) + dou_items(end, state)
    stake = end.options.base_stake
    items = [Item(i.kind, i.payer, i.payee, i.amount * stake) for i in items if i.amount]
    items += yuan_que_items(end)
    deltas = [0] * end.players
    for item in items:
        deltas[item.payer] -= item.amount
        deltas[item.payee] += item.amount
    return Settlement(tuple(deltas), tuple(items))


# ------------------------------------------------------------------------------ checks of the input


def check(end: HandEnd) -> None:
    """ValueError when the description is not a legal finished hand."""
    if len(end.seats) != end.players or not 0 <= end.dealer < end.players:
        raise ValueError(f"{len(end.seats)} seats, dealer {end.dealer}, {end.players} players")
    for meld in (m for seat in end.seats for m in seat.melds):
        if meld.kind not in MELD_KINDS:
            raise ValueError(f"meld kind {meld.kind!r}; allowed: {', '.join(MELD_KINDS)}")
    check_copies(end)
    check_sizes(end)
    check_wins(end)


def check_copies(end: HandEnd) -> None:
    seen: Counter = Counter()
    for seat in end.seats:
        seen.update(concealed_kinds(seat) + meld_kinds(seat))
    won_discards = {(w.kind, w.from_seat) for w in end.wins if w.how != "self_draw"}
    seen.update(kind for kind, _ in won_discards)
    seen.update(w.kind for w in end.wins if w.how == "self_draw")
    seen.update(parse_tiles(d.tile)[0] for d in end.discards if d.claimed_by is None)
    seen.update(parse_tiles(end.wall) if end.wall else [])
    over = [kind for kind, n in seen.items() if n > 4]
    if over:
        raise ValueError(f"more than four copies of {[_name(k) for k in over]}")


def check_sizes(end: HandEnd) -> None:
    for index, seat in enumerate(end.seats):
        if seat.concealed is None:
            continue
        size = len(concealed_kinds(seat)) + 3 * len(seat.melds)
        if size != 13:
            raise ValueError(f"seat {index}: {size} tiles (13 without the winning tile)")


def check_wins(end: HandEnd) -> None:
    """Each winner's hand wins, and a discard win is allowed (§wengan-how-to-win); several winners
    share one discard or one robbed kong (一炮多响 needs ``multi_ron``; robbing always allows
    it)."""
    if len(end.wins) > 1:
        sources = {(w.how, w.kind, w.from_seat) for w in end.wins}
        if len(sources) != 1 or end.wins[0].how == "self_draw":
            raise ValueError("several winners must share one discard or one robbed kong")
        if end.wins[0].how == "discard" and not end.options.multi_ron:
            raise ValueError("several winners on one discard need multi_ron")
    for win in end.wins:
        seat = end.seats[win.seat]
        if win.how not in WIN_HOWS or seat.concealed is None:
            raise ValueError(f"win {win}: how in {WIN_HOWS}, and the winner's tiles shown")
        name = best_pattern(seat, win, end.players, end.options)
        if name is None:
            raise ValueError(f"seat {win.seat} does not win with {win.tile}")
        if win.how != "self_draw" and not discard_win_allowed(
            seat,
            name,
            end.options,
            earthly=win.earthly,
            robbing=win.how == "rob_kong",
            hot_cannon=end.hot_cannon,
            discarder_bao_ting=end.seats[win.from_seat].bao_ting,
        ):
            raise ValueError(f"seat {win.seat}: a 平胡 without 通行证 may not win on a discard")
        if win.kong_bloom and not any(m.kind in KONG_KINDS for m in seat.melds):
            raise ValueError(f"seat {win.seat}: 杠开 without a kong")


# ---------------------------------------------------------------------- the next hand
# (§wengan-next-dealer, §wengan-dealer-bonus)


def next_deal(end: HandEnd) -> tuple[int, int]:
    """(next dealer, his 连庄 streak n) after this hand (§wengan-next-dealer,
    §wengan-dealer-bonus)."""
    options = end.options
    if not end.wins:
        return end.dealer, end.streak + (1 if options.lian_zhuang_counts_draws else 0)
    source = end.wins[0].from_seat
    winners = set(end.winners)
    if source is not None and end.players > 2 and winners == set(end.others(source)):
        return source, 0  # 一炮全响: the discarder deals, having lost the hand
    if len(winners) == 1:
        dealer = end.wins[0].seat
    else:  # 一炮双响: the first winner in turn order from the discarder
        dealer = next(
            (source + step) % end.players
            for step in range(1, end.players)
            if (source + step) % end.players in winners
        )
    return dealer, end.streak + 1 if dealer == end.dealer else 0
