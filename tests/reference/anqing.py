"""Slow, plainly written reference of Anqing 安庆麻将: win legality, score items and payments.

Follows the rules reference docs/rules/anqing.md (§anqing-rules), readings included, clarity
first: the oracle a fast engine will be checked against. Standard shapes come from the reference
evaluator (``evaluator.decompositions``); tiles are written as ``sim.core.tiles`` writes them, a 钻
with a star (``"123m 456s 789m 234p 5p* 8s"`` when the 钻 is ``5p``).

Public API

* ``zuan_of(indicator)``, ``gang_tiles(zuan)``: the 钻 kind and the kong-only 杠牌 (§anqing-zuan,
  §anqing-red-dragon)
* ``Meld``, ``AnqingWin``: a winner's melds and final hand, with the events scoring needs
* ``readings(win, options)``: every reading of the hand (form, groups with the identity each tile
  stands for, where the winning tile sits), class 1 (§anqing-class-one) and class 2 十三烂
  (§anqing-shisanlan)
* ``legal(reading, win, options)``: the 钻 conditions of §anqing-zuan-conditions for that reading
* ``items(reading, win, options)``: the score items of §anqing-score-table (Chinese name, points)
* ``score(win, options)`` -> ``Score`` of the best legal reading, or None (no legal win)
* ``payments(total, winner, dealer, streak, feeds, options)``: §anqing-payments, payer -> amount
* ``HandEnd`` / ``settle(end, options)``: one hand's score, payments and deltas
* ``HandResult`` / ``session(results, first_dealer, options)``: a run of hands, the dealer's
  streak and the 累加 carry of ``lian_zhuang_cumulative`` (§anqing-lian-zhuang)

How ``score`` works: every reading is listed (each standard decomposition with every identity of its
钻-only group, every pairing into seven pairs, every 十三烂 target), and for each the winning tile
is placed on every tile of its kind (a drawn 钻 on any 钻: §anqing-reading-scorer-details). A
reading's flags (跑风, 见字胡, the hard 碰碰胡 of 跑风 case 4) are its own; the legal readings
compete and the highest total wins (§anqing-score-table, "the one that satisfies
§anqing-zuan-conditions and gives the highest S")."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from sim.core.tiles import parse_hand
from sim.variants.anqing import AnqingOptions

from .evaluator import decompositions, is_seven_pairs, is_standard

N_KINDS = 34
HONOURS = tuple(range(27, 34))
WINDS = (27, 28, 29, 30)  # E S W N
RED, GREEN, WHITE = 31, 32, 33  # 红中 发财 白板
MELD_KINDS = ("chi", "pong", "ming_gang", "jia_gang", "an_gang", "single")
"""吃, 碰, 明杠 on a discard, 加杠 (counted as 明杠, §anqing-kongs), 暗杠, single-tile 杠牌/钻
kong."""
SET_MELDS = ("chi", "pong", "ming_gang", "jia_gang", "an_gang")
FED_MELDS = ("chi", "pong", "ming_gang", "jia_gang")
"""Melds made from another player's discard: one 口 each (a pong turned kong stays one,
§anqing-bao)."""
OPEN_MELDS = FED_MELDS  # they break 门清 (§anqing-score-table item 2)


# ------------------------------------------------------------------------------ tiles
# (§anqing-setup)


def suited(kind: int) -> bool:
    return kind < 27


def rank(kind: int) -> int:
    return kind % 9 + 1


def zuan_of(indicator: int) -> int:
    """钻牌的出现 (§anqing-zuan): the successor of the flipped tile: rank + 1 in its suit (9 -> 1),
    E -> S -> W -> N -> E, RD -> GD -> WD -> RD."""
    if suited(indicator):
        return indicator - indicator % 9 + (indicator % 9 + 1) % 9
    if indicator in WINDS:
        return 27 + (indicator - 27 + 1) % 4
    return RED + (indicator - RED + 1) % 3


def gang_tiles(zuan: int) -> frozenset[int]:
    """杠牌 (§anqing-red-dragon): 发财 and 白板, or with a dragon 钻 the two other dragons."""
    if zuan < RED:
        return frozenset({GREEN, WHITE})
    return frozenset({RED, GREEN, WHITE} - {zuan})


def class_one_kind(kind: int, zuan: int) -> int:
    """The identity a natural tile has in a class-1 hand: 红中 stands for the 钻's face when the
    钻 is not a dragon ("红中就代替钻牌本来的牌", §anqing-red-dragon)."""
    return zuan if kind == RED and zuan < RED else kind


def class_one_identities(zuan: int) -> tuple[int, ...]:
    """What a 钻 may stand for in a class-1 hand: any kind but a 杠牌, and not 中 when 红中 is
    the 钻's face (there is no 中 then, §anqing-red-dragon)."""
    barred = gang_tiles(zuan) | ({RED} if zuan < RED else set())
    return tuple(kind for kind in range(N_KINDS) if kind not in barred)


def one_tile(token: str) -> tuple[int, bool]:
    """(kind, is a 钻) of one written tile, ``"8s"`` or ``"5p*"``."""
    hand = parse_hand(token)
    if hand.n_tiles != 1:
        raise ValueError(f"{token!r}: expected one tile")
    if hand.wilds:
        return int(hand.wild_faces.argmax()), True
    return int(hand.counts.argmax()), False


# ------------------------------------------------------------------------------ the hand


@dataclass(frozen=True)
class Meld:
    """One meld of a player. ``kind`` one of MELD_KINDS; ``tile`` the tile written as in the
    hand (a chi by its lowest tile, ``"3s"`` for 345s; a single kong by its tile, ``"GD"`` or
    ``"5p*"``); ``from_seat`` the discarder of a chi, pong or 明杠, the discarder of the pong an
    added kong grew from."""

    kind: str
    tile: str
    from_seat: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in MELD_KINDS:
            raise ValueError(f"meld kind {self.kind!r}; allowed: {', '.join(MELD_KINDS)}")
        if (self.kind in FED_MELDS) != (self.from_seat is not None):
            raise ValueError(f"{self.kind} {self.tile}: from_seat is needed exactly when fed")

    @property
    def physical(self) -> tuple[int, bool]:
        return one_tile(self.tile)

    def identity(self, zuan: int) -> int:
        """The kind the meld is made of (its lowest kind for a chi)."""
        return class_one_kind(self.physical[0], zuan)

    def physical_kinds(self) -> list[int]:
        kind, _ = self.physical
        if self.kind == "chi":
            return [kind, kind + 1, kind + 2]
        return [kind] * {"pong": 3, "single": 1}.get(self.kind, 4)


@dataclass(frozen=True)
class AnqingWin:
    """A winner's final hand. ``concealed``: the concealed tiles at the win, the winning tile
    included, 钻 written with a star; ``winning_tile``: the tile drawn last (``W``,
    §anqing-self-draw-only); ``indicator``: the flipped tile (the 钻 is its successor);
    ``discarded_zuan``: D, the winner discarded a 钻 earlier in the hand; ``kong_chain``: kongs made
    in a row this turn before ``W`` was drawn as their replacement (0: not 杠开); ``heavenly``: 天胡
    or 地胡, the caller stating that the window of §anqing-score-table item 7 held."""

    concealed: str
    winning_tile: str
    melds: tuple[Meld, ...] = ()
    indicator: str = "4p"
    discarded_zuan: bool = False
    kong_chain: int = 0
    heavenly: bool = False

    @property
    def zuan(self) -> int:
        return zuan_of(one_tile(self.indicator)[0])

    @property
    def tiles(self) -> list[tuple[int, bool]]:
        """The concealed tiles as (physical kind, is a 钻), in a fixed order."""
        hand = parse_hand(self.concealed)
        out = [(kind, False) for kind in range(N_KINDS) for _ in range(int(hand.counts[kind]))]
        return out + [(self.zuan, True)] * hand.wilds

    @property
    def win(self) -> tuple[int, bool]:
        return one_tile(self.winning_tile)

    def n_zuan(self) -> int:
        return sum(is_zuan for _, is_zuan in self.tiles)

    def konged_zuan(self) -> int:
        return sum(meld.kind == "single" and meld.physical[1] for meld in self.melds)

    def check(self) -> None:
        """Raise ValueError when the description is not a possible final hand."""
        zuan, tiles = self.zuan, self.tiles
        hand = parse_hand(self.concealed)
        if hand.wilds and int(hand.wild_faces[zuan]) != hand.wilds:
            raise ValueError(f"{self.concealed}: a starred tile that is not the 钻 {zuan}")
        if hand.counts[zuan]:
            raise ValueError(f"{self.concealed}: every tile of the 钻 kind is a 钻; star it")
        if self.win not in tiles:
            raise ValueError(f"winning tile {self.winning_tile} not in {self.concealed}")
        physical = Counter(kind for kind, _ in tiles)
        physical[one_tile(self.indicator)[0]] += 1  # the flipped indicator stays out of play
        for meld in self.melds:
            kind, is_zuan = meld.physical
            if is_zuan != (kind == zuan) or (is_zuan and meld.kind != "single"):
                raise ValueError(
                    f"{meld}: a 钻 is konged singly and never melded "
                    "(§anqing-zuan-kong-needs-zhi-jiao)"
                )
            if meld.kind == "single" and not is_zuan and kind not in gang_tiles(zuan):
                raise ValueError(
                    f"{meld}: only a 杠牌 or a 钻 is konged singly (§anqing-gang-tile-kong)"
                )
            if meld.kind != "single" and kind in gang_tiles(zuan):
                raise ValueError(f"{meld}: a 杠牌 is only konged singly (§anqing-gang-tile-kong)")
            physical.update(meld.physical_kinds())
        if max(physical.values()) > 4:
            raise ValueError(f"{self}: more than four copies of a kind")
        sets = sum(meld.kind in SET_MELDS for meld in self.melds)
        if len(tiles) != 14 - 3 * sets or sets > 4:
            raise ValueError(f"{self.concealed}: {len(tiles)} tiles with {sets} melds")


# ------------------------------------------------------------------------------ readings


@dataclass(frozen=True)
class Tile:
    """One concealed tile as read: the kind it stands for, whether it is a 钻, and its
    physical kind (a 红中 may stand for the 钻's face)."""

    kind: int
    zuan: bool
    physical: int


@dataclass(frozen=True)
class Group:
    """``seq``, ``tri`` or ``pair`` (class 1), ``single`` (a slot of a 十三烂)."""

    shape: str
    tiles: tuple[Tile, ...]


@dataclass(frozen=True)
class Reading:
    """``form``: ``standard``, ``seven_pairs`` or ``shisanlan``; ``win``: (group, tile) of W."""

    form: str
    groups: tuple[Group, ...]
    win: tuple[int, int]

    @property
    def win_tile(self) -> Tile:
        group, index = self.win
        return self.groups[group].tiles[index]

    @property
    def win_group(self) -> Group:
        return self.groups[self.win[0]]

    def zuan_tiles(self) -> list[Tile]:
        return [tile for group in self.groups for tile in group.tiles if tile.zuan]


def _group(shape: str, kinds: Sequence[int], naturals: Sequence[Tile], zuan: int) -> Group:
    """A group of identities ``kinds``: the naturals fill their kinds, 钻 the rest."""
    left = list(naturals)
    tiles = []
    for kind in kinds:
        natural = next((tile for tile in left if tile.kind == kind), None)
        if natural is not None:
            left.remove(natural)
            tiles.append(natural)
        else:
            tiles.append(Tile(kind, True, zuan))
    assert not left
    return Group(shape, tuple(tiles))


def _free_groups(shape: str, zuan: int) -> list[Group]:
    """Every identity of a group made of 钻 only (§anqing-class-one: any kind but a 杠牌)."""
    out = []
    for kind in class_one_identities(zuan):
        if shape == "free_pair":
            out.append(_group("pair", (kind, kind), (), zuan))
        else:
            out.append(_group("tri", (kind,) * 3, (), zuan))
            if suited(kind) and rank(kind) <= 7:
                out.append(_group("seq", (kind, kind + 1, kind + 2), (), zuan))
    return out


def _standard_groups(naturals: list[Tile], n_zuan: int, zuan: int) -> Iterator[tuple[Group, ...]]:
    """Every standard reading of the concealed tiles (牌型1/4), 钻 given concrete identities."""
    counts = Counter(tile.kind for tile in naturals)
    by_kind = {kind: [tile for tile in naturals if tile.kind == kind] for kind in counts}
    for decomposition in decompositions([counts[k] for k in range(N_KINDS)], n_zuan):
        choices = []
        for shape, first, kinds in decomposition:
            if shape.startswith("free"):
                choices.append(_free_groups(shape, zuan))
                continue
            used = Counter(kinds)
            tiles = [tile for kind, n in used.items() for tile in by_kind[kind][:n]]
            identity = {
                "seq": (first, first + 1, first + 2),
                "tri": (first,) * 3,
                "pair": (first,) * 2,
            }[shape]
            choices.append([_group(shape, identity, tiles, zuan)])
        yield from itertools.product(*choices)


def _seven_pairs_groups(
    naturals: list[Tile], n_zuan: int, zuan: int, options: AnqingOptions
) -> Iterator[tuple[Group, ...]]:
    """Every pairing of 14 concealed tiles into seven pairs (牌型3): two naturals, a natural and
    a 钻 standing for it, or two 钻 of any kind; four of a kind (at most) count as two pairs
    with ``seven_pairs_allow_quad``."""
    kinds = sorted({tile.kind for tile in naturals})
    splits = []  # per kind: (natural pairs, naturals paired with a 钻)
    for kind in kinds:
        count = sum(tile.kind == kind for tile in naturals)
        splits.append([(j, count - 2 * j) for j in range(count // 2 + 1)])
    for split in itertools.product(*splits):
        singles = sum(alone for _, alone in split)
        if singles > n_zuan or (n_zuan - singles) % 2:
            continue
        base = []
        for kind, (pairs, _alone) in zip(kinds, split, strict=True):
            own = [tile for tile in naturals if tile.kind == kind]
            for p in range(pairs):
                base.append(Group("pair", (own[2 * p], own[2 * p + 1])))
            for tile in own[2 * pairs :]:
                base.append(Group("pair", (tile, Tile(kind, True, zuan))))
        free = (n_zuan - singles) // 2
        for identities in itertools.combinations_with_replacement(class_one_identities(zuan), free):
            groups = base + [_group("pair", (kind, kind), (), zuan) for kind in identities]
            per_kind = Counter(group.tiles[0].kind for group in groups)
            if max(per_kind.values()) <= (2 if options.seven_pairs_allow_quad else 1):
                yield tuple(groups)


def _unrelated_rank_sets() -> list[frozenset[int]]:
    """Ranks 1-9 pairwise at least 3 apart ("序数牌间隔大于等于3"): 0 to 3 of them."""
    return [
        frozenset(ranks)
        for size in range(4)
        for ranks in itertools.combinations(range(1, 10), size)
        if all(b - a >= 3 for a, b in itertools.pairwise(ranks))
    ]


def _shisanlan_groups(win: AnqingWin, options: AnqingOptions) -> Iterator[tuple[Group, ...]]:
    """Every 十三烂 target the 14 concealed tiles fit (§anqing-shisanlan): per suit ranks 3 apart,
    distinct honours; the 钻 fill the target's empty slots. With ``shisanlan_honours_literal`` every
    natural is at its face (红中 = 中, 杠牌 as honours) and a 钻 may be any kind; without it the
    tiles read as in class 1 and a 杠牌 held rules the form out."""
    zuan = win.zuan
    if any(meld.kind != "single" for meld in win.melds):
        return
    naturals = []
    for kind, is_zuan in win.tiles:
        if is_zuan:
            continue
        if not options.shisanlan_honours_literal and kind in gang_tiles(zuan):
            return
        identity = kind if options.shisanlan_honours_literal else class_one_kind(kind, zuan)
        naturals.append(Tile(identity, False, kind))
    held = Counter(tile.kind for tile in naturals)
    if held and max(held.values()) > 1:
        return
    allowed = (
        set(range(N_KINDS))
        if options.shisanlan_honours_literal
        else set(class_one_identities(zuan))
    )
    per_suit = []
    for suit in range(3):
        ranks = {rank(kind) for kind in held if suited(kind) and kind // 9 == suit}
        per_suit.append(
            [
                [9 * suit + r - 1 for r in sorted(rank_set)]
                for rank_set in _unrelated_rank_sets()
                if ranks <= rank_set and all(9 * suit + r - 1 in allowed for r in rank_set)
            ]
        )
    held_honours = [kind for kind in held if not suited(kind)]
    free_honours = [kind for kind in HONOURS if kind in allowed and kind not in held]
    for suits in itertools.product(*per_suit):
        suited_target = [kind for part in suits for kind in part]
        extra = 14 - len(suited_target) - len(held_honours)
        if not 0 <= extra <= len(free_honours):
            continue
        for honours in itertools.combinations(free_honours, extra):
            target = sorted(suited_target + held_honours + list(honours))
            empty = [kind for kind in target if kind not in held]
            if len(empty) != win.n_zuan():
                continue
            slots = [Group("single", (tile,)) for tile in naturals]
            slots += [Group("single", (Tile(kind, True, zuan),)) for kind in empty]
            yield tuple(slots)


def _placed(form: str, groups: tuple[Group, ...], win: AnqingWin) -> Iterator[Reading]:
    """The readings of ``groups`` with the winning tile on each tile that can be it: a natural
    of its physical kind, or any 钻 when a 钻 was drawn (§anqing-reading-scorer-details)."""
    kind, is_zuan = win.win
    for g, group in enumerate(groups):
        seen = set()
        for i, tile in enumerate(group.tiles):
            matches = tile.zuan if is_zuan else (not tile.zuan and tile.physical == kind)
            if matches and tile not in seen:
                seen.add(tile)
                yield Reading(form, groups, (g, i))


def readings(win: AnqingWin, options: AnqingOptions) -> Iterator[Reading]:
    """Every reading of the final hand: class 1 (no 杠牌 held, §anqing-gang-tile-kong) and 十三烂
    (§anqing-shisanlan)."""
    win.check()
    zuan = win.zuan
    tiles = win.tiles
    if not any(kind in gang_tiles(zuan) and not is_zuan for kind, is_zuan in tiles):
        naturals = [
            Tile(class_one_kind(kind, zuan), False, kind) for kind, is_zuan in tiles if not is_zuan
        ]
        n_zuan = win.n_zuan()
        for groups in _standard_groups(naturals, n_zuan, zuan):
            yield from _placed("standard", groups, win)
        if len(tiles) == 14:
            for groups in _seven_pairs_groups(naturals, n_zuan, zuan, options):
                yield from _placed("seven_pairs", groups, win)
    if len(tiles) == 14:
        for groups in _shisanlan_groups(win, options):
            yield from _placed("shisanlan", groups, win)


# ------------------------------------------------------------------------------
# §anqing-zuan-conditions conditions


def at_own_face(tile: Tile, zuan: int) -> bool:
    """本身: a natural (a 红中 for the 钻 face included), or a 钻 standing for its own face."""
    return not tile.zuan or tile.kind == zuan


def _pair_middle_or_edge(reading: Reading) -> bool:
    """跑风 cases 1-3: W is a tile of the pair, the middle of a sequence, or the 3 of 123 / 7
    of 789."""
    group, w = reading.win_group, reading.win_tile
    if group.shape == "pair":
        return True
    if group.shape != "seq":
        return False
    first = min(tile.kind for tile in group.tiles)
    return (
        w.kind == first + 1
        or (rank(first) == 1 and w.kind == first + 2)
        or (rank(first) == 7 and w.kind == first)
    )


def hard_pong_pong(reading: Reading, win: AnqingWin) -> bool:
    """跑风 case 4 (硬对对胡): the reading is a 碰碰胡 in which every 钻 but the drawn one stands
    for its own face (so the 13 tiles before the draw were one short of a hard 碰碰胡)."""
    if not pong_pong(reading, win):
        return False
    kept = [
        tile
        for g, group in enumerate(reading.groups)
        for i, tile in enumerate(group.tiles)
        if tile.zuan and (g, i) != reading.win
    ]
    return all(tile.kind == win.zuan for tile in kept)


def pong_pong(reading: Reading, win: AnqingWin) -> bool:
    """碰碰胡: every set a triplet or kong, concealed or melded (no sequence, no chi)."""
    return (
        reading.form == "standard"
        and all(group.shape != "seq" for group in reading.groups)
        and all(meld.kind != "chi" for meld in win.melds)
    )


def waits_before(win: AnqingWin, options: AnqingOptions) -> list[int]:
    """Kinds that complete the 13 tiles before W as a class-1 shape (for a hand without 钻;
    ``unique_wait``): not a kind the player already holds four of (§anqing-vocabulary)."""
    zuan = win.zuan
    kinds = [class_one_kind(kind, zuan) for kind, _ in win.tiles]
    kinds.remove(class_one_kind(win.win[0], zuan))
    held = Counter(kinds)
    for meld in win.melds:
        if meld.kind in SET_MELDS:
            held.update(class_one_kind(kind, zuan) for kind in meld.physical_kinds())
    out = []
    for kind in class_one_identities(zuan):
        if held[kind] >= 4:
            continue
        counts = Counter(kinds)
        counts[kind] += 1
        vector = [counts[k] for k in range(N_KINDS)]
        seven = len(kinds) == 13 and is_seven_pairs(vector, 0, quads=options.seven_pairs_allow_quad)
        if is_standard(vector, 0) or seven:
            out.append(kind)
    return out


def pao_feng(reading: Reading, win: AnqingWin, options: AnqingOptions) -> bool:
    """跑风 (§anqing-zuan-conditions) of this reading: case 4, or W at its own face as pair, middle
    or edge; with ``unique_wait`` a hand holding no 钻 also needs a single winning kind before W."""
    if reading.form == "shisanlan":
        return False
    if reading.form == "standard" and hard_pong_pong(reading, win):
        return True
    if not (at_own_face(reading.win_tile, win.zuan) and _pair_middle_or_edge(reading)):
        return False
    if options.pao_feng_definition == "unique_wait" and win.n_zuan() == 0:
        return len(waits_before(win, options)) == 1
    return True


def jian_zi_hu(reading: Reading, win: AnqingWin, options: AnqingOptions) -> bool:
    """见字胡 ("只能胡万，筒，条", §anqing-zuan-conditions): W at its own face and suited (a 红中
    for a suited face only with ``jian_zi_hu_red_counts``); with ``zuan_diao`` W also pairs a 钻
    standing for its face."""
    w = reading.win_tile
    if not (at_own_face(w, win.zuan) and suited(w.kind)):
        return False
    if not w.zuan and w.physical == RED and not options.jian_zi_hu_red_counts:
        return False
    if options.jian_zi_hu_definition == "zuan_diao":
        group = reading.win_group
        others = list(group.tiles)
        others.remove(w)
        return group.shape == "pair" and others[0].zuan and others[0].kind == w.kind
    return True


def legal(reading: Reading, win: AnqingWin, options: AnqingOptions) -> bool:
    """The table of §anqing-zuan-conditions for class-1 readings (十三烂 is free of it:
    "13烂不受以下限制")."""
    if reading.form == "shisanlan":
        return True
    if reading.form == "standard" and hard_pong_pong(reading, win):
        return True  # a 硬对对胡 meets every row
    has_zuan, discarded, bloom = win.n_zuan() > 0, win.discarded_zuan, win.kong_chain > 0
    if bloom or not (has_zuan or discarded):
        return True
    run = pao_feng(reading, win, options)
    if not has_zuan:
        return run
    seen = jian_zi_hu(reading, win, options)
    return seen if not discarded else run and seen


# ------------------------------------------------------------------------------ §anqing-score-table
# items


def kong_points(win: AnqingWin, options: AnqingOptions) -> int:
    """杠牌 (item 20): 明杠/加杠 +1, 暗杠 +2, a wind kong a further +1 / +2 (by the kind it
    stands for), a single-tile kong ``single_kong_points``."""
    total = 0
    for meld in win.melds:
        wind = meld.identity(win.zuan) in WINDS
        if meld.kind in ("ming_gang", "jia_gang"):
            total += 1 + wind
        elif meld.kind == "an_gang":
            total += 2 + 2 * wind
        elif meld.kind == "single":
            total += options.single_kong_points
    return total


def wind_sets(reading: Reading, win: AnqingWin) -> int:
    """风 (item 21): triplets and kongs of E S W N, melded or concealed (a 钻 may make one)."""
    concealed = sum(
        group.shape == "tri" and group.tiles[0].kind in WINDS for group in reading.groups
    )
    melded = sum(
        meld.kind in SET_MELDS and meld.kind != "chi" and meld.identity(win.zuan) in WINDS
        for meld in win.melds
    )
    return concealed + melded


def gang_kai_points(win: AnqingWin, options: AnqingOptions) -> int:
    """杠开 (item 14): k kongs give 3 + 6 + ... + 3k, or 3k without ``gang_kai_cumulative``;
    k is this turn's chain, or every kong of the winner with ``gang_kai_count_mode = total``."""
    if win.kong_chain == 0:
        return 0
    if options.gang_kai_count_mode == "chain":
        k = win.kong_chain
    else:
        k = sum(meld.kind in ("ming_gang", "jia_gang", "an_gang", "single") for meld in win.melds)
    return 3 * k * (k + 1) // 2 if options.gang_kai_cumulative else 3 * k


def items(reading: Reading, win: AnqingWin, options: AnqingOptions) -> list[tuple[str, int]]:
    """Every item of §anqing-score-table that applies to this reading: (Chinese name, points)."""
    zuan = win.zuan
    zuan_tiles = reading.zuan_tiles()
    all_zuan = len(zuan_tiles) + win.konged_zuan() == 4
    out = [("基本胡", 3)]
    breaks = OPEN_MELDS + (("single",) if options.single_kong_breaks_menqing else ())
    menqing = not any(meld.kind in breaks for meld in win.melds)
    hard = menqing and not zuan_tiles and win.konged_zuan() == 0
    if menqing and (options.menqing_ying_additive or not hard):
        out.append(("门清", 3))
    if hard:
        out.append(("门清（硬）", 3))
    own = all(tile.kind == zuan for tile in zuan_tiles)
    shuang = reading.form == "seven_pairs" and len(zuan_tiles) == 4 and own
    if pao_feng(reading, win, options) and reading.form != "seven_pairs":
        out.append(("跑风", 6))
    if all_zuan and not shuang:
        out.append(("四个钻牌", 30))
    if win.heavenly:
        out.append(("天胡/地胡", 30))
    if shuang:
        out.append(("双天胡", options.shuang_tian_hu_points))
    elif reading.form == "seven_pairs":
        out.append(("七对天胡", 30) if own else ("七对有钻", 9))
    if pong_pong(reading, win):
        out.append(("碰碰胡", 3))
    if reading.form == "standard" and len(win.tiles) == 2:
        with_zuan = any(tile.zuan for tile in reading.win_group.tiles)
        out.append(("大吊车(有钻)", 3) if with_zuan else ("大吊车(无钻)", 30))
    if gang_kai_points(win, options):
        out.append(("杠开", gang_kai_points(win, options)))
    if reading.form == "shisanlan":
        out.extend(_shisanlan_items(reading, zuan))
    if kong_points(win, options):
        out.append(("杠牌", kong_points(win, options)))
    if wind_sets(reading, win):
        out.append(("风", wind_sets(reading, win)))
    if all(name in ("基本胡", "杠牌", "风") for name, _ in out):
        out.append(("屁胡", 0))  # item 19: only the base (with kong and wind points)
    return out


def _shisanlan_items(reading: Reading, zuan: int) -> list[tuple[str, int]]:
    """七星归位 (all seven honours, none a 钻 for another tile) and 铁烂 / 硬烂 / 软烂."""
    tiles = [group.tiles[0] for group in reading.groups]
    out = []
    honours = [tile for tile in tiles if not suited(tile.kind)]
    if len(honours) == 7 and all(at_own_face(tile, zuan) for tile in honours):
        out.append(("七星归位", 3))
    zuan_tiles = [tile for tile in tiles if tile.zuan]
    if not zuan_tiles:
        out.append(("铁烂", 9))
    elif all(tile.kind == zuan for tile in zuan_tiles):
        out.append(("硬烂", 6))
    else:
        out.append(("软烂", 3))
    return out


@dataclass(frozen=True)
class Score:
    """The best legal reading, its items and their sum S."""

    items: tuple[tuple[str, int], ...]
    reading: Reading

    @property
    def total(self) -> int:
        return sum(points for _, points in self.items)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.items)


def score(win: AnqingWin, options: AnqingOptions | None = None) -> Score | None:
    """The highest-scoring legal reading (§anqing-score-table), or None when the hand is no legal
    win."""
    options = options or AnqingOptions()
    best = None
    for reading in readings(win, options):
        if legal(reading, win, options):
            candidate = Score(tuple(items(reading, win, options)), reading)
            if best is None or candidate.total > best.total:
                best = candidate
    return best


# ------------------------------------------------------------------------------ payments


def bao_factor_one_way(kinds: Sequence[str], options: AnqingOptions) -> int:
    """f(A -> B) of §anqing-bao for the 口 B took from A: 0 below three; 3, x2 for four, x2 when all
    are pongs or kongs (four all-pong: ``bao_all_pong_4_factor``)."""
    if len(kinds) < 3:
        return 0
    all_pong = "chi" not in kinds
    if len(kinds) == 4 and all_pong:
        return options.bao_all_pong_4_factor
    return 3 * (2 if len(kinds) == 4 else 1) * (2 if all_pong else 1)


def feeds_of(melds_by_seat: Mapping[int, Sequence[Meld]]) -> dict[tuple[int, int], list[str]]:
    """(feeder, receiver) -> the kinds of the 口 the receiver made from the feeder's discards."""
    feeds: dict[tuple[int, int], list[str]] = {}
    for seat, melds in melds_by_seat.items():
        for meld in melds:
            if meld.kind in FED_MELDS:
                feeds.setdefault((meld.from_seat, seat), []).append(meld.kind)
    return feeds


def bao_factor(
    payer: int, winner: int, feeds: Mapping[tuple[int, int], Sequence[str]], options
) -> int:
    """顺包 (the payer fed the winner: f), 反包 (the winner fed the payer: 2f), both: their sum
    or the larger (``mutual_bao_mode``); 1 when neither."""
    shun = bao_factor_one_way(feeds.get((payer, winner), ()), options)
    fan = 2 * bao_factor_one_way(feeds.get((winner, payer), ()), options)
    if not (shun or fan):
        return 1
    return shun + fan if options.mutual_bao_mode == "sum" else max(shun, fan)


def payments(
    total: int,
    winner: int,
    dealer: int,
    streak: int,
    feeds: Mapping[tuple[int, int], Sequence[str]],
    options: AnqingOptions,
) -> dict[int, int]:
    """§anqing-payments: every other seat pays (S + dealer extra + 连庄) x 包 factor."""
    out = {}
    for payer in range(4):
        if payer == winner:
            continue
        with_dealer = dealer in (winner, payer)
        extra = (
            options.dealer_extra
            if winner == dealer or (payer == dealer and options.dealer_extra_symmetric)
            else 0
        )
        streak_points = options.lian_zhuang_points(streak) if with_dealer else 0
        out[payer] = (total + extra + streak_points) * bao_factor(payer, winner, feeds, options)
    return out


@dataclass(frozen=True)
class HandEnd:
    """A hand won by ``winner`` with ``win``; ``other_melds``: the other seats' melds (for 反包)."""

    winner: int
    win: AnqingWin
    dealer: int = 0
    streak: int = 0
    other_melds: Mapping[int, tuple[Meld, ...]] | None = None


@dataclass(frozen=True)
class Settlement:
    score: Score
    paid: dict[int, int]
    deltas: tuple[int, ...]


def settle(end: HandEnd, options: AnqingOptions | None = None) -> Settlement | None:
    """Score the win and settle it (§anqing-score-table); None when the hand is no legal win."""
    options = options or AnqingOptions()
    result = score(end.win, options)
    if result is None:
        return None
    melds = dict(end.other_melds or {})
    melds[end.winner] = end.win.melds
    paid = payments(result.total, end.winner, end.dealer, end.streak, feeds_of(melds), options)
    return Settlement(result, paid, deltas(end.winner, paid))


def deltas(winner: int, paid: Mapping[int, int]) -> tuple[int, ...]:
    return tuple(sum(paid.values()) if seat == winner else -paid.get(seat, 0) for seat in range(4))


# ------------------------------------------------------------------------------ a session
# (§anqing-lian-zhuang)


@dataclass(frozen=True)
class HandResult:
    """One hand of a session: ``winner`` None for 荒庄; ``total`` the winner's S; ``feeds``
    (feeder, receiver) -> kinds of 口, for 包."""

    winner: int | None
    total: int = 0
    feeds: Mapping[tuple[int, int], Sequence[str]] | None = None


@dataclass(frozen=True)
class SessionHand:
    dealer: int
    streak: int
    paid: dict[int, int]
    deltas: tuple[int, ...]


def session(
    results: Sequence[HandResult], first_dealer: int, options: AnqingOptions | None = None
) -> list[SessionHand]:
    """Play ``results`` in order: the dealer keeps the deal on his win or 荒庄 ("黄庄也算连庄",
    k + 1), else it passes (``next_dealer_rule``) with k = 0. With ``lian_zhuang_cumulative`` a
    dealer's win also collects, from each payer, what he paid in the dealer's earlier wins of
    the same spell (§anqing-lian-zhuang, without their own carries)."""
    options = options or AnqingOptions()
    dealer, streak, spell = first_dealer, 0, []
    out = []
    for result in results:
        if result.winner is None:
            out.append(SessionHand(dealer, streak, {}, (0, 0, 0, 0)))
            dealer, streak = dealer, streak + 1
            continue
        paid = payments(result.total, result.winner, dealer, streak, result.feeds or {}, options)
        charged = dict(paid)
        if result.winner == dealer and options.lian_zhuang_cumulative:
            for earlier in spell:
                for payer, amount in earlier.items():
                    charged[payer] += amount
        out.append(SessionHand(dealer, streak, charged, deltas(result.winner, charged)))
        if result.winner == dealer:
            spell.append(paid)
            streak += 1
        else:
            dealer = (dealer + 1) % 4 if options.next_dealer_rule == "rotate" else result.winner
            streak, spell = 0, []
    return out
