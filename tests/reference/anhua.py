"""Slow, plainly written reference of Anhua Seven Kings scoring and settlement.

Follows the rules reference of 安化七王麻将, docs/rules/anhua.md (§anhua-rules), literally,
clarity first. Nothing is imported from ``sim``: this is the independent oracle for the
fast code. Hand decompositions come from the reference evaluator (``evaluator.decompositions``).

Tile ids: 0-8 ``1m-9m``, 9-17 ``1p-9p``, 18-26 ``1s-9s`` (Anhua has no honours).

Public API

* ``kings_of(indicator, king_mode)`` -> (X kind or None, Y kind)               (§anhua-kings)
* ``AnhuaHand``: a winning hand (naturals, kings by face, melds, win kind, winning tile)
* ``score(hand, options)`` -> ``Score`` or None (§anhua-winning, §anhua-features)
* ``bird_seat(tile, winner, n_players)`` -> seat hit by a bird tile             (§anhua-payments)
* ``settle(n_players, dealer, winners, win_kind, payer, birds, options)`` -> deltas
  (§anhua-payments)
* ``DEFAULT_OPTIONS`` (§anhua-options), ``tiles("234m 55p")`` (a 34-count from text, for tests)

How ``score`` works (§anhua-king-as-itself "tries every legal decomposition and every role of every
king"):

1. every *completion* of the concealed hand is listed: a standard decomposition (F1) or seven
   pairs (F2) together with what the kings stand for. Free groups made only of kings get every
   possible identity. A completion is kept only in the projection that matters for scoring: the
   suits of the stood-for tiles, which of them are king faces (for 王代硬), whether the pair is a
   2/5/8;
2. for each completion, every way to hand the physical kings to the stood-for tiles is tried
   (王代硬: a king handed its own face counts as a natural tile);
3. each (completion, king assignment) gives the features, B and the king class; the ones that are
   legal (2-5-8 pair unless flush) and eligible for the win kind (§anhua-who-may-win) compete, the
   highest B wins."""

from __future__ import annotations

import itertools
import operator
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from .evaluator import decompositions

__all__ = [
    "DEFAULT_OPTIONS",
    "FEATURES",
    "FEATURE_NAMES_ZH",
    "NAMED_PATTERNS",
    "WIN_KINDS",
    "AnhuaHand",
    "Score",
    "bird_seat",
    "candidates",
    "class_of",
    "eligible",
    "kings_of",
    "pattern_name",
    "points_of",
    "resolve_options",
    "score",
    "settle",
    "tier_of",
    "tiles",
]

N_KINDS = 34
N_SUITED = 27

# --------------------------------------------------------------------------------------------
# Options (§anhua-options)
# --------------------------------------------------------------------------------------------

DEFAULT_OPTIONS: dict[str, object] = {
    "player_count": 4,  # 1  人数
    "king_mode": "seven_kings",  # 2  七王 / 四王
    "king_as_itself_is_hard": False,  # 3  王代硬
    "allow_rob_kong": True,  # 4  可抢杠胡
    "multi_ron": True,  # 5  一炮多响
    "dealer_bonus": False,  # 6  庄闲分
    "bird_count": 2,  # 7  抓鸟
    "king_tier_mode": "identical_sets",  # 8
    "king_as_itself_affects_eligibility": True,  # 9
    "instant_king_win_window": "first_turn",  # 10
    "kong_reveal_count": 3,  # 11
    "kong_multi_tile_win": "best_only",  # 12
    "kong_min_wall": 4,  # 13
    "seven_pairs_allow_quad": True,  # 14
    "dealer_bonus_timing": "after_birds",  # 15
    "first_dealer": "seat0",  # 16
    "discarded_king_claimable_for_win": False,  # 17
    "allow_rob_direct_kong": True,  # 18
    "instant_king_win_counts_draw": False,  # 19
}

_ALLOWED_VALUES: dict[str, tuple] = {
    "player_count": (4, 3),
    "king_mode": ("seven_kings", "four_kings"),
    "king_as_itself_is_hard": (False, True),
    "allow_rob_kong": (False, True),
    "multi_ron": (False, True),
    "dealer_bonus": (False, True),
    "bird_count": (1, 2, 4),
    "king_tier_mode": ("identical_sets", "count"),
    "king_as_itself_affects_eligibility": (False, True),
    "instant_king_win_window": ("first_turn", "until_first_claim"),
    "kong_reveal_count": (3, 2),
    "kong_multi_tile_win": ("best_only", "double"),
    "seven_pairs_allow_quad": (False, True),
    "dealer_bonus_timing": ("after_birds", "before_birds"),
    "first_dealer": ("seat0", "random"),
    "discarded_king_claimable_for_win": (False, True),
    "allow_rob_direct_kong": (False, True),
    "instant_king_win_counts_draw": (False, True),
}


def resolve_options(options: Mapping[str, object] | None = None) -> dict[str, object]:
    """``DEFAULT_OPTIONS`` updated with ``options``; unknown keys or values raise ValueError."""
    out = dict(DEFAULT_OPTIONS)
    for key, value in (options or {}).items():
        if key not in DEFAULT_OPTIONS:
            raise ValueError(f"unknown Anhua option {key!r}")
        out[key] = value
    for key, allowed in _ALLOWED_VALUES.items():
        if out[key] not in allowed:
            raise ValueError(f"option {key} must be one of {allowed}, got {out[key]!r}")
    minimum = (
        int(out["kong_reveal_count"]) + 1
    )  # §anhua-kong-min-wall: kong_min_wall >= kong_reveal_count + 1
    if not isinstance(out["kong_min_wall"], int) or out["kong_min_wall"] < minimum:
        raise ValueError(f"option kong_min_wall must be an int >= {minimum}")
    return out


# --------------------------------------------------------------------------------------------
# Tiles
# --------------------------------------------------------------------------------------------


def suit_of(tile: int) -> int:
    """0 = m, 1 = p, 2 = s."""
    return tile // 9


def rank_of(tile: int) -> int:
    """Rank 1..9."""
    return tile % 9 + 1


def is_258(tile: int) -> bool:
    return rank_of(tile) in (2, 5, 8)


def tile_name(tile: int) -> str:
    return f"{rank_of(tile)}{'mps'[suit_of(tile)]}"


def tiles(text: str) -> tuple[int, ...]:
    """34-count from text such as ``"234m 55p 1s"`` (only m, p, s)."""
    counts = [0] * N_KINDS
    digits: list[int] = []
    for ch in text:
        if ch.isdigit():
            digits.append(int(ch))
        elif ch in "mps":
            for d in digits:
                if not 1 <= d <= 9:
                    raise ValueError(f"bad tile {d}{ch} in {text!r}")
                counts[9 * "mps".index(ch) + d - 1] += 1
            digits = []
        elif not ch.isspace():
            raise ValueError(f"bad character {ch!r} in {text!r}")
    if digits:
        raise ValueError(f"digits without suit in {text!r}")
    return tuple(counts)


def next_in_suit(tile: int) -> int:
    """Rank r+1 of the same suit, 9 wrapping to 1 (§anhua-king-flip)."""
    return 9 * suit_of(tile) + rank_of(tile) % 9


def kings_of(indicator: int, king_mode: str) -> tuple[int | None, int]:
    """(X, Y) for an indicator tile (§anhua-king-flip).

    X = the indicator's own kind (its 3 other copies are kings in ``seven_kings`` mode; ``None``
    in ``four_kings`` mode, where X tiles are ordinary), Y = the next rank of the same suit, 9
    wrapping to 1 (all 4 copies are kings in both modes).
    """
    if not 0 <= operator.index(indicator) < N_SUITED:
        raise ValueError(f"indicator must be a suited tile 0..26, got {indicator!r}")
    if king_mode not in ("seven_kings", "four_kings"):
        raise ValueError(f"king_mode must be seven_kings or four_kings, got {king_mode!r}")
    y = next_in_suit(indicator)
    return (indicator if king_mode == "seven_kings" else None), y


# --------------------------------------------------------------------------------------------
# The winning hand
# --------------------------------------------------------------------------------------------

WIN_KINDS = ("self_draw", "discard", "rob_kong", "kong_bloom", "kong_cannon", "instant")
SELF_DRAWN = ("self_draw", "kong_bloom", "instant")  # every other player pays (§anhua-payments)
CLAIMED = ("discard", "rob_kong", "kong_cannon")  # one payer: discarder / konger (§anhua-payments)
MELD_KINDS = ("chi", "pong", "kong")


def meld_tiles(kind: str, tile: int) -> tuple[int, ...]:
    """Tiles of a meld; a kong is listed with its 4 tiles (it counts as 3 for the 14-tile sum)."""
    if kind == "chi":
        return (tile, tile + 1, tile + 2)
    if kind == "pong":
        return (tile, tile, tile)
    return (tile, tile, tile, tile)


def _as_counts(values: Sequence[int], name: str) -> tuple[int, ...]:
    out = tuple(operator.index(v) for v in values)
    if len(out) != N_KINDS:
        raise ValueError(f"{name} must have {N_KINDS} entries, got {len(out)}")
    if any(not 0 <= c <= 4 for c in out):
        raise ValueError(f"{name} entries must be 0..4")
    if any(out[N_SUITED:]):
        raise ValueError(f"{name}: Anhua has no honours")
    return out


@dataclass(frozen=True)
class AnhuaHand:
    """A winning hand (§anhua-winning).

    * ``naturals``: 34-count of the non-king tiles of the concealed hand, winning tile included;
    * ``kings``: 34-count of the king tiles by face (concealed; the winning tile included if it
      is a king);
    * ``melds``: ``(kind, tile)`` with kind ``"chi"`` (tile = first of the sequence), ``"pong"``
      or ``"kong"``; melds never contain kings (§anhua-king-power);
    * ``win_kind``: one of ``WIN_KINDS``;
    * ``winning_tile``: its kind, or None for ``"instant"`` (§anhua-instant-king-win);
    * ``claimed_king``: the winning tile is a king claimed from another player (a discard, or a tile
      revealed by another's kong; only with ``discarded_king_claimable_for_win``). It is a natural
      tile of its face for the claimer (§anhua-discarded-kings): pass that copy in ``naturals``.

    A ``"kong_bloom"`` hand must hold a kong meld (the open kong it was won from), so 杠上花 never
    combines with seven pairs and B stays <= 5 (§anhua-features).

    The concealed part holds ``14 - 3 * len(melds)`` tiles.
    """

    naturals: tuple[int, ...]
    kings: tuple[int, ...]
    melds: tuple[tuple[str, int], ...] = ()
    win_kind: str = "self_draw"
    winning_tile: int | None = None
    claimed_king: bool = False

    def __post_init__(self) -> None:
        naturals = _as_counts(self.naturals, "naturals")
        kings = _as_counts(self.kings, "kings")
        melds = tuple((str(k), operator.index(t)) for k, t in self.melds)
        object.__setattr__(self, "naturals", naturals)
        object.__setattr__(self, "kings", kings)
        object.__setattr__(self, "melds", melds)
        self._check_melds()
        self._check_kings()
        self._check_sizes()
        self._check_win()

    def _check_melds(self) -> None:
        if len(self.melds) > 4:
            raise ValueError("at most 4 melds")
        for kind, tile in self.melds:
            if kind not in MELD_KINDS:
                raise ValueError(f"meld kind must be one of {MELD_KINDS}, got {kind!r}")
            if not 0 <= tile < N_SUITED or (kind == "chi" and rank_of(tile) > 7):
                raise ValueError(f"bad meld {kind} {tile}")
            if any(self.kings[t] for t in meld_tiles(kind, tile)):
                raise ValueError("melds never contain kings (§anhua-king-power)")

    def _check_kings(self) -> None:
        faces = self.king_faces()
        if self.claimed_king:
            t = self.winning_tile
            if self.win_kind not in CLAIMED or t is None or self.naturals[t] != 1:
                raise ValueError("a claimed king is one natural winning tile won from another")
        # the claimed king is the one natural tile a king face may have
        if any(self.naturals[f] - (self.claimed_king and f == self.winning_tile) for f in faces):
            raise ValueError("a king face cannot also be a natural tile")
        if len(faces) > 2:
            raise ValueError("at most two king faces (X and Y)")
        if len(faces) == 2:
            a, b = faces
            x = a if next_in_suit(a) == b else b if next_in_suit(b) == a else None
            if x is None:
                raise ValueError("two king faces must be X and Y = X + 1 (§anhua-king-flip)")
            if self.kings[x] > 3:
                raise ValueError("only 3 X kings exist (§anhua-king-mode)")

    def _check_sizes(self) -> None:
        total = Counter()
        for kind, tile in self.melds:
            total.update(meld_tiles(kind, tile))
        for t in range(N_KINDS):
            total[t] += self.naturals[t] + self.kings[t]
        if any(c > 4 for c in total.values()):
            raise ValueError("more than 4 copies of a kind")
        concealed = sum(self.naturals) + sum(self.kings)
        if concealed != 14 - 3 * len(self.melds):
            raise ValueError(f"concealed part must hold {14 - 3 * len(self.melds)} tiles")

    def _check_win(self) -> None:
        if self.win_kind not in WIN_KINDS:
            raise ValueError(f"win_kind must be one of {WIN_KINDS}, got {self.win_kind!r}")
        if self.win_kind == "instant":
            if self.winning_tile is not None:
                raise ValueError("the instant win has no winning tile")
            return
        if self.win_kind == "kong_bloom" and not any(k == "kong" for k, _t in self.melds):
            raise ValueError("杠上花 needs the winner's kong among the melds (§anhua-open-kong)")
        if self.winning_tile is None:
            raise ValueError("winning_tile is needed (except for the instant win)")
        t = self.winning_tile
        if not 0 <= t < N_SUITED or self.naturals[t] + self.kings[t] == 0:
            raise ValueError("the winning tile must be in the concealed hand")

    def king_faces(self) -> tuple[int, ...]:
        """The faces of the king tiles held."""
        return tuple(t for t in range(N_KINDS) if self.kings[t])

    def king_list(self) -> tuple[int, ...]:
        """One entry (its face) per physical king, sorted."""
        return tuple(t for t in range(N_KINDS) for _ in range(self.kings[t]))

    def winning_tile_is_king(self) -> bool:
        """A face held as a king is never natural (but for a claimed king), so the winning tile
        is a king iff it is the claimed king or its face is a king face."""
        if self.claimed_king:
            return True
        return self.winning_tile is not None and self.kings[self.winning_tile] > 0


# --------------------------------------------------------------------------------------------
# King tiers and classes (§anhua-who-may-win, §anhua-king-tiers)
# --------------------------------------------------------------------------------------------

TIERS = ("hard", "loose", "three_kings", "four_kings", "six_kings", "seven_kings")
TIER_WEIGHT = {
    "hard": 0,
    "loose": 0,
    "three_kings": 1,
    "four_kings": 2,
    "six_kings": 2,
    "seven_kings": 3,
}


def tier_of(kings_by_face: Iterable[int], mode: str) -> str:
    """King tier (§anhua-king-tiers) from the number of (effective) kings of each face held.

    ``identical_sets``: 三王 = three identical kings (x = 3 or y = 3), 四王 = y = 4 (and x < 3),
    六王 = x = 3 and y = 3, 七王 = x = 3 and y = 4, 单王 otherwise. Only X has 3 copies at most
    and only Y has 4, so a face held 4 times is Y: the tier is a function of the counts alone
    and does not need to know which face is X. ``count``: k = 0 hard, 1-2 单王, 3 三王, 4-5 四王,
    6 六王, 7 七王.
    """
    counts = [c for c in kings_by_face if c]
    k = sum(counts)
    if k == 0:
        return "hard"
    if mode == "count":
        by_count = {3: "three_kings", 4: "four_kings", 5: "four_kings", 6: "six_kings"}
        return "seven_kings" if k >= 7 else by_count.get(k, "loose")
    if mode != "identical_sets":
        raise ValueError(f"king_tier_mode must be identical_sets or count, got {mode!r}")
    fours = counts.count(4)
    threes = counts.count(3)
    if fours and threes:
        return "seven_kings"
    if threes >= 2:
        return "six_kings"
    if fours:
        return "four_kings"
    if threes:
        return "three_kings"
    return "loose"


def class_of(tier: str) -> str:
    """§anhua-who-may-win: ``hard`` (no kings), ``loose`` (单王: kings, no tier), ``heavy``
    (三/四/六/七王)."""
    if tier == "hard":
        return "hard"
    return "heavy" if TIER_WEIGHT[tier] >= 1 else "loose"


# §anhua-who-may-win table: which king classes may win each way
_ELIGIBLE = {
    "self_draw": ("hard", "loose", "heavy"),
    "kong_bloom": ("hard", "loose", "heavy"),
    "instant": ("hard", "loose", "heavy"),
    "discard": ("hard",),
    "rob_kong": ("hard", "loose"),
    "kong_cannon": ("hard", "loose"),
}


def eligible(king_class: str, win_kind: str) -> bool:
    """May a hand of this king class win this way? (§anhua-who-may-win table,
    ``§anhua-who-may-win``)."""
    return king_class in _ELIGIBLE[win_kind]


# --------------------------------------------------------------------------------------------
# Features, points and pattern names (§anhua-features)
# --------------------------------------------------------------------------------------------

FEATURES = (
    "hard",
    "three_kings",
    "four_kings",
    "six_kings",
    "seven_kings",
    "flush",
    "seven_pairs",
    "kong_bloom",
    "rob_kong",
    "kong_cannon",
)
FEATURE_NAMES_ZH = {
    "hard": "硬庄",
    "three_kings": "三王",
    "four_kings": "四王",
    "six_kings": "六王",
    "seven_kings": "七王",
    "flush": "清一色",
    "seven_pairs": "小七对",
    "kong_bloom": "杠上花",
    "rob_kong": "抢杠胡",
    "kong_cannon": "杠上炮",
}
FEATURE_BIGS = {
    "hard": 1,
    "three_kings": 1,
    "four_kings": 2,
    "six_kings": 2,
    "seven_kings": 3,
    "flush": 1,
    "seven_pairs": 1,
    "kong_bloom": 1,
    "rob_kong": 1,
    "kong_cannon": 1,
}
_WIN_KIND_FEATURE = {
    "kong_bloom": "kong_bloom",
    "rob_kong": "rob_kong",
    "kong_cannon": "kong_cannon",
}


def _named(*rows: tuple[str, tuple[str, ...]]) -> dict[frozenset[str], str]:
    return {frozenset(features): name for name, features in rows}


# Every row of the §anhua-named-patterns table (the instant win is named separately), keyed by
# feature set.
NAMED_PATTERNS: dict[frozenset[str], str] = _named(
    # 小胡 (2)
    ("平胡", ()),
    # 大胡 (4)
    ("清一色", ("flush",)),
    ("硬庄", ("hard",)),
    ("三王", ("three_kings",)),
    ("小七对", ("seven_pairs",)),
    ("杠上花", ("kong_bloom",)),
    ("抢杠胡", ("rob_kong",)),
    ("杠上炮", ("kong_cannon",)),
    # 双大胡 (8)
    ("三王清一色", ("three_kings", "flush")),
    ("三王小七对", ("three_kings", "seven_pairs")),
    ("三王杠上花", ("three_kings", "kong_bloom")),
    ("四王平胡", ("four_kings",)),
    ("六王平胡", ("six_kings",)),
    ("硬庄小七对", ("hard", "seven_pairs")),
    ("硬庄清一色", ("hard", "flush")),
    ("硬庄杠上花", ("hard", "kong_bloom")),
    ("硬庄抢杠胡", ("hard", "rob_kong")),
    ("硬庄杠上炮", ("hard", "kong_cannon")),
    ("小七对杠上炮", ("seven_pairs", "kong_cannon")),
    ("清一色抢杠胡", ("flush", "rob_kong")),
    ("清一色杠上炮", ("flush", "kong_cannon")),
    ("清一色杠上花", ("flush", "kong_bloom")),
    # 豪华胡 (16)
    ("四王清一色", ("four_kings", "flush")),
    ("四王杠上花", ("four_kings", "kong_bloom")),
    ("四王小七对", ("four_kings", "seven_pairs")),
    ("三王清一色小七对", ("three_kings", "flush", "seven_pairs")),
    ("三王清一色杠上花", ("three_kings", "flush", "kong_bloom")),
    ("六王清一色", ("six_kings", "flush")),
    ("六王小七对", ("six_kings", "seven_pairs")),
    ("硬庄清一色小七对", ("hard", "flush", "seven_pairs")),
    ("硬庄清一色杠上花", ("hard", "flush", "kong_bloom")),
    ("硬庄清一色杠上炮", ("hard", "flush", "kong_cannon")),
    ("硬庄清一色抢杠胡", ("hard", "flush", "rob_kong")),
    # 大豪华胡 (32)
    ("七王清一色", ("seven_kings", "flush")),
    ("七王小七对", ("seven_kings", "seven_pairs")),
    ("硬庄清一色杠上炮小七对", ("hard", "flush", "seven_pairs", "kong_cannon")),
    ("四王清一色小七对", ("four_kings", "flush", "seven_pairs")),
    ("四王清一色杠上花", ("four_kings", "flush", "kong_bloom")),
    ("六王清一色小七对", ("six_kings", "flush", "seven_pairs")),
    # 双大豪华胡 (64)
    ("七王清一色小七对", ("seven_kings", "flush", "seven_pairs")),
)

_TIER_FEATURES = ("three_kings", "four_kings", "six_kings", "seven_kings")


def pattern_name(features: Iterable[str]) -> str:
    """The §anhua-named-patterns name of a feature set; unnamed sets (§anhua-named-patterns "scored
    by the same formula") are named by joining the Chinese feature names in ``FEATURES`` order, with
    平胡 appended when the only feature is a king tier (as the text does for 四王平胡 / 六王平胡:
    e.g. 七王平胡)."""
    key = frozenset(features)
    if key in NAMED_PATTERNS:
        return NAMED_PATTERNS[key]
    ordered = [f for f in FEATURES if f in key]
    name = "".join(FEATURE_NAMES_ZH[f] for f in ordered)
    if len(ordered) == 1 and ordered[0] in _TIER_FEATURES:
        name += "平胡"
    return name


def points_of(bigs: int) -> int:
    """§anhua-base-points: P = 2^(B+1) (小胡 2, 大胡 4, 双大胡 8, 豪华胡 16, 大豪华胡 32, 双大豪华胡
    64)."""
    return 2 ** (bigs + 1)


@dataclass(frozen=True)
class Score:
    """The scored win: B (bigs), P = 2^(B+1), features (``FEATURES`` order), the pattern name, and
    the king class (§anhua-who-may-win) used for the eligibility check."""

    bigs: int
    points: int
    features: tuple[str, ...]
    pattern: str
    king_class: str


def _make_score(features: Iterable[str], king_class: str) -> Score:
    ordered = tuple(f for f in FEATURES if f in set(features))
    bigs = sum(FEATURE_BIGS[f] for f in ordered)
    return Score(bigs, points_of(bigs), ordered, pattern_name(ordered), king_class)


# --------------------------------------------------------------------------------------------
# Completions: a hand form plus what the kings stand for (§anhua-hand-forms, §anhua-pair-rule)
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Completion:
    """One way the concealed hand is complete, projected onto what scoring needs.

    * ``form``: ``"standard"`` (F1) or ``"seven_pairs"`` (F2);
    * ``slot_suits``: sorted suits of the tiles the kings stand for (one per king);
    * ``slot_faces``: sorted stood-for tiles that are king faces (for 王代硬);
    * ``pair_258``: F1 only: the pair is a 2, 5 or 8.
    """

    form: str
    slot_suits: tuple[int, ...]
    slot_faces: tuple[int, ...]
    pair_258: bool


def _group_tiles(kind: str, first: int) -> tuple[int, ...]:
    if kind == "seq":
        return (first, first + 1, first + 2)
    if kind == "tri":
        return (first, first, first)
    return (first, first)  # pair


def _slots_of_group(kind: str, first: int, naturals: tuple[int, ...]) -> list[int]:
    """The tiles of a concrete group that its kings stand for (group tiles minus its naturals)."""
    missing = Counter(_group_tiles(kind, first))
    missing.subtract(naturals)
    assert all(c >= 0 for c in missing.values())
    return sorted(missing.elements())


def _all_sets() -> list[tuple[int, ...]]:
    """All 48 suited sets: 27 triplets and 21 sequences."""
    triplets = [(t, t, t) for t in range(N_SUITED)]
    sequences = [(t, t + 1, t + 2) for t in range(N_SUITED) if rank_of(t) <= 7]
    return triplets + sequences


def _project(stood_for: Iterable[int], faces: tuple[int, ...]) -> tuple[tuple, tuple]:
    """(sorted suits, sorted king-face tiles) of some stood-for tiles."""
    stood_for = list(stood_for)
    return tuple(sorted(suit_of(t) for t in stood_for)), tuple(
        sorted(t for t in stood_for if t in faces)
    )


@lru_cache(maxsize=64)
def _free_set_choices(faces: tuple[int, ...]) -> tuple[tuple, ...]:
    """Distinct projections of a free set (3 kings standing for any suited set)."""
    return tuple(sorted({_project(s, faces) for s in _all_sets()}))


@lru_cache(maxsize=64)
def _free_pair_choices(faces: tuple[int, ...]) -> tuple[tuple, ...]:
    """Distinct (projection, is 2/5/8) of a free pair (2 kings standing for any suited pair)."""
    return tuple(sorted({(_project((t, t), faces), is_258(t)) for t in range(N_SUITED)}))


def _merge(*parts: tuple[tuple, tuple]) -> tuple[tuple, tuple]:
    suits = tuple(sorted(s for part in parts for s in part[0]))
    faces = tuple(sorted(f for part in parts for f in part[1]))
    return suits, faces


def standard_completions(hand: AnhuaHand) -> set[Completion]:
    """Every F1 completion (§anhua-hand-forms): each standard decomposition of the concealed
    naturals with the kings as wilds (``evaluator.decompositions``, any pair), each identity of its
    free groups."""
    faces = hand.king_faces()
    n_kings = sum(hand.kings)
    # 1. skeletons: concrete stood-for tiles, pair info, number of free sets / free pair
    skeletons = set()
    for dec in decompositions(hand.naturals, n_kings, "any"):
        slots: list[int] = []
        free_sets = 0
        pair_258: bool | None = None  # None = the pair is free
        for kind, first, naturals in dec:
            if kind == "free_set":
                free_sets += 1
            elif kind != "free_pair":
                slots += _slots_of_group(kind, first, naturals)
                if kind == "pair":
                    pair_258 = is_258(first)
        skeletons.add((_project(slots, faces), free_sets, pair_258))
    # 2. every identity of the free groups
    out = set()
    for concrete, free_sets, pair_258 in skeletons:
        set_choices = itertools.combinations_with_replacement(_free_set_choices(faces), free_sets)
        pair_choices = _free_pair_choices(faces) if pair_258 is None else [(((), ()), pair_258)]
        for sets, (pair_part, is_pair_258) in itertools.product(list(set_choices), pair_choices):
            suits, face_tiles = _merge(concrete, pair_part, *sets)
            out.add(Completion("standard", suits, face_tiles, is_pair_258))
    return out


def seven_pairs_completions(hand: AnhuaHand, allow_quad: bool) -> set[Completion]:
    """Every F2 completion (§anhua-hand-forms): no melds, 14 tiles in 7 pairs. A natural kind held
    an odd number of times takes one king as partner; the other kings pair each other, as any kind.
    A kind counts as at most two pairs (four tiles) with ``allow_quad``, else as one pair."""
    if hand.melds:
        return set()
    faces = hand.king_faces()
    per_kind_max = 4 if allow_quad else 2
    partners: list[int] = []
    for kind in range(N_SUITED):
        c = hand.naturals[kind]
        if c > per_kind_max:
            return set()
        if c % 2 == 1:
            partners.append(kind)
    free_kings = sum(hand.kings) - len(partners)
    if free_kings < 0 or free_kings % 2:
        return set()
    out = set()
    for kinds in itertools.combinations_with_replacement(range(N_SUITED), free_kings // 2):
        total = Counter({k: c for k, c in enumerate(hand.naturals) if c})
        total.update(partners)
        for k in kinds:
            total[k] += 2
        if any(c > per_kind_max for c in total.values()):
            continue
        stood_for = partners + [k for k in kinds for _ in range(2)]
        suits, face_tiles = _project(stood_for, faces)
        out.add(Completion("seven_pairs", suits, face_tiles, False))
    return out


# --------------------------------------------------------------------------------------------
# Effective kings (王代硬, §anhua-king-as-itself)
# --------------------------------------------------------------------------------------------


@lru_cache(maxsize=4096)
def _own_face_assignments(kings: tuple[int, ...], slots: tuple[int, ...]) -> frozenset:
    """Every distinct way to give each physical king (its face in ``kings``) one slot: the result
    is the set of sorted tuples of the kings that got their own face. ``slots`` lists, per king
    slot, the stood-for tile if it is a king face, else -1."""
    if not kings:
        return frozenset({()})
    first, rest = kings[0], kings[1:]
    out = set()
    for slot in set(slots):
        remaining = list(slots)
        remaining.remove(slot)
        for own in _own_face_assignments(rest, tuple(sorted(remaining))):
            out.add(tuple(sorted((*own, first))) if slot == first else own)
    return frozenset(out)


def effective_king_counts(
    hand: AnhuaHand, completion: Completion, as_itself_is_hard: bool
) -> set[tuple[int, ...]]:
    """Possible effective-king counts per face (a 34-tuple) for this completion.

    王代硬 off: every king is effective. On: a king handed its own face *may* count as a natural
    tile (§anhua-king-as-itself read as the player's choice, docs/rules/anhua.md: the option never
    lowers a score); every assignment of the physical kings to the stood-for tiles, and every choice
    of which own-face kings count as natural, is tried."""
    if not as_itself_is_hard:
        return {hand.kings}
    n_other = len(completion.slot_suits) - len(completion.slot_faces)
    slots = tuple(sorted((*completion.slot_faces, *([-1] * n_other))))
    out = set()
    for own in _own_face_assignments(hand.king_list(), slots):
        faces = sorted(set(own))
        for counted in itertools.product(*(range(own.count(face) + 1) for face in faces)):
            effective = list(hand.kings)
            for face, natural in zip(faces, counted, strict=True):
                effective[face] -= natural
            out.add(tuple(effective))
    return out


# --------------------------------------------------------------------------------------------
# Scoring (§anhua-win-checks, §anhua-features)
# --------------------------------------------------------------------------------------------


def _suits_of_fixed_tiles(hand: AnhuaHand) -> set[int]:
    """Suits of the natural concealed tiles and of the melds."""
    suits = {suit_of(t) for t in range(N_SUITED) if hand.naturals[t]}
    suits |= {suit_of(tile) for _kind, tile in hand.melds}
    return suits


def _class_for_eligibility(hand: AnhuaHand, effective: tuple[int, ...], opts: Mapping) -> str:
    """§anhua-who-may-win class from effective kings, or from the physical kings when
    ``king_as_itself_affects_eligibility`` is off (§anhua-king-as-itself)."""
    counts = effective if opts["king_as_itself_affects_eligibility"] else hand.kings
    return class_of(tier_of(counts, opts["king_tier_mode"]))


def _candidate(
    hand: AnhuaHand, completion: Completion, effective: tuple[int, ...], opts: Mapping
) -> Score | None:
    """The score of one (completion, king assignment), or None if its pair is not allowed."""
    suits = _suits_of_fixed_tiles(hand) | set(completion.slot_suits)
    flush = len(suits) == 1
    if completion.form == "standard" and not (completion.pair_258 or flush):
        return None  # §anhua-pair-rule 二五八将: 乱将 only for a flush or seven pairs
    features = []
    tier = tier_of(effective, opts["king_tier_mode"])
    if tier != "loose":
        features.append(tier)  # "hard" (硬庄) or a king tier
    if flush:
        features.append("flush")
    if completion.form == "seven_pairs":
        features.append("seven_pairs")
    if hand.win_kind in _WIN_KIND_FEATURE:
        features.append(_WIN_KIND_FEATURE[hand.win_kind])
    return _make_score(features, _class_for_eligibility(hand, effective, opts))


_CLASS_PREFERENCE = {"hard": 2, "loose": 1, "heavy": 0}


def _effective_class(features: tuple[str, ...]) -> str:
    """The king class of a reading by its *effective* kings, read off its features."""
    if "hard" in features:
        return "hard"
    return "heavy" if any(f in _TIER_FEATURES for f in features) else "loose"


def _best(candidates: Iterable[Score]) -> Score | None:
    """Highest B (§anhua-king-as-itself, §anhua-features). Ties (same points, so the same payments)
    go to the reading whose effective kings give the weakest king class (硬 before 单王 before
    heavy: kings counted as their own face first), then to a text-named pattern, then by features.
    The effective class, not ``king_class`` (the physical one when 王代硬 does not affect
    eligibility), so the choice is the same in both eligibility modes (docs/rules/anhua.md)."""

    def key(s: Score):
        named = frozenset(s.features) in NAMED_PATTERNS
        return (s.bigs, _CLASS_PREFERENCE[_effective_class(s.features)], named, s.features)

    return max(candidates, key=key, default=None)


def _instant_score(hand: AnhuaHand, opts: Mapping) -> Score | None:
    """§anhua-instant-king-win 起手四王/七王: no melds, the concealed hand holds 四王 or 七王
    (§anhua-king-tiers; ``count``: any 4+ kings, 7 = 七王); no hand-form check; always 小胡 B = 0, P
    = 2."""
    if hand.melds:
        return None
    k = sum(hand.kings)
    if opts["king_tier_mode"] == "count":
        name = "起手七王" if k == 7 else "起手四王" if k >= 4 else None
    else:
        tier = tier_of(hand.kings, "identical_sets")
        name = {"seven_kings": "起手七王", "four_kings": "起手四王"}.get(tier)
    if name is None:
        return None
    king_class = class_of(tier_of(hand.kings, opts["king_tier_mode"]))
    return Score(0, points_of(0), (), name, king_class)


def _claim_allowed(hand: AnhuaHand, opts: Mapping) -> bool:
    """Option gates outside the hand: rob-kong allowed (§anhua-robbing-a-kong); a discarded or
    revealed king cannot be won on (§anhua-discarded-kings)."""
    if hand.win_kind == "rob_kong" and not opts["allow_rob_kong"]:
        return False
    return not (
        hand.win_kind in CLAIMED
        and hand.winning_tile_is_king()
        and not opts["discarded_king_claimable_for_win"]
    )


def candidates(hand: AnhuaHand, options: Mapping[str, object] | None = None) -> list[Score]:
    """Every legal (form, decomposition, king assignment) score of a non-instant hand, before the
    eligibility filter; duplicates removed. For inspection and tests."""
    opts = resolve_options(options)
    completions = standard_completions(hand) | seven_pairs_completions(
        hand, bool(opts["seven_pairs_allow_quad"])
    )
    out = set()
    for completion in completions:
        for effective in effective_king_counts(
            hand, completion, bool(opts["king_as_itself_is_hard"])
        ):
            cand = _candidate(hand, completion, effective, opts)
            if cand is not None:
                out.add(cand)
    return sorted(out, key=lambda s: (s.bigs, s.features, s.king_class))


def score(hand: AnhuaHand, options: Mapping[str, object] | None = None) -> Score | None:
    """Score a winning hand (§anhua-win-checks, §anhua-features), or None if it is not a legal win
    this way.

    Legal: F1 with a 2/5/8 pair or a flush, or F2 (§anhua-hand-forms, §anhua-pair-rule); king class
    eligible for the win kind (§anhua-who-may-win); the option gates of ``_claim_allowed``. Among
    all legal, eligible assignments the highest B is taken. The instant win
    (§anhua-instant-king-win) is scored without a hand-form check. 漏胡 (§anhua-missed-win), kong
    conditions and ``kong_multi_tile_win = double`` are the engine's business."""
    opts = resolve_options(options)
    if hand.win_kind == "instant":
        return _instant_score(hand, opts)
    if not _claim_allowed(hand, opts):
        return None
    return _best(c for c in candidates(hand, opts) if eligible(c.king_class, hand.win_kind))


# --------------------------------------------------------------------------------------------
# Settlement (§anhua-payments)
# --------------------------------------------------------------------------------------------


def bird_seat(tile: int, winner: int, n_players: int) -> int:
    """Seat hit by a bird tile: offset (rank - 1) mod N counter-clockwise (in turn order) from the
    winner (§anhua-payments, ``§anhua-birds``; a king counts by its face rank). 4 players: 1/5/9
    winner, 2/6 下家, 3/7 对家, 4/8 上家; 3 players: 1/4/7 winner, 2/5/8 下家, 3/6/9 上家."""
    if n_players not in (3, 4):
        raise ValueError(f"Anhua is played by 3 or 4 players, got {n_players}")
    if not 0 <= tile < N_SUITED:
        raise ValueError(f"bird tile must be 0..26, got {tile}")
    return (winner + rank_of(tile) - 1) % n_players


def _amount(points: int, hits: int, with_dealer: bool, opts: Mapping) -> int:
    """One payment: P x 2^h, plus 1 (庄闲分) if the dealer pays or receives, after the doubling
    (default) or before it (``dealer_bonus_timing = before_birds``)."""
    bonus = 1 if (opts["dealer_bonus"] and with_dealer) else 0
    if opts["dealer_bonus_timing"] == "before_birds":
        return (points + bonus) * 2**hits
    return points * 2**hits + bonus


def _check_settle_args(n_players, dealer, winners, win_kind, payer, opts) -> None:
    if n_players not in (3, 4):
        raise ValueError(f"Anhua is played by 3 or 4 players, got {n_players}")
    if not 0 <= dealer < n_players:
        raise ValueError("bad dealer seat")
    if win_kind not in WIN_KINDS:
        raise ValueError(f"win_kind must be one of {WIN_KINDS}")
    seats = [w for w, _p in winners]
    if not seats or len(set(seats)) != len(seats) or any(not 0 <= w < n_players for w in seats):
        raise ValueError("winners must be distinct seats")
    if any(not isinstance(p, int) or p <= 0 for _w, p in winners):
        raise ValueError("points must be positive integers")
    if win_kind in SELF_DRAWN:
        if payer is not None or len(winners) != 1:
            raise ValueError("a self-drawn win has one winner and no single payer")
        return
    if payer is None or not 0 <= payer < n_players or payer in seats:
        raise ValueError("a claimed win needs a payer seat other than the winners")
    single = win_kind == "kong_cannon" or not opts["multi_ron"]
    if single and len(winners) != 1:
        raise ValueError("only one winner here (杠上炮, or 一炮多响 off)")


def settle(
    n_players: int,
    dealer: int,
    winners: Sequence[tuple[int, int]],
    win_kind: str,
    payer: int | None,
    birds: Sequence[int],
    options: Mapping[str, object] | None = None,
) -> list[int]:
    """Score change per seat (zero-sum) for one finished hand (§anhua-payments).

    ``winners``: (seat, P) per winner; ``payer``: the discarder (discard) or the konger (抢杠胡,
    杠上炮), None for a self-drawn win (self_draw, kong_bloom, instant); ``birds``: the bird tile
    kinds actually flipped (empty for 海底). The same birds count for each winner separately,
    from that winner's seat.

    * self-drawn: each other player q pays P x 2^(h_winner + h_q);
    * claimed: the payer pays each winner P x 2^(h_winner + h_payer);
    * 庄闲分 (``dealer_bonus``): +1 per payment involving the dealer.
    ``n_players`` is authoritative (the ``player_count`` option is not consulted).
    """
    opts = resolve_options(options)
    _check_settle_args(n_players, dealer, winners, win_kind, payer, opts)
    deltas = [0] * n_players
    for winner, points in winners:
        hits = Counter(bird_seat(b, winner, n_players) for b in birds)
        others = [q for q in range(n_players) if q != winner]
        payers = others if win_kind in SELF_DRAWN else [payer]
        for q in payers:
            amount = _amount(points, hits[winner] + hits[q], dealer in (q, winner), opts)
            deltas[q] -= amount
            deltas[winner] += amount
    return deltas
