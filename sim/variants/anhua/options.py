"""Anhua Seven Kings 安化七王麻将: every option of §anhua-options, declared once.

The options class, its checks, the kernels' ``params`` array and its ``P_*`` indices, the
``[options]`` comments of ``configs/anhua-*.toml`` and the options table of
`docs/rules/anhua.md` all come from :data:`ANHUA_OPTIONS` (see :mod:`sim.variants.options`). Pure
Python: the kernels import the indices from here. Defaults are the spec's (§anhua-options).
"""

from __future__ import annotations

from ..options import Options, by_name, choice, flag, integer, param_count, param_slots

N_TILES = 108
"""The tile set: 万, 筒 and 条, four of each (no honours)."""

ANHUA_OPTIONS = (
    choice(
        "player_count",
        (3, 4),
        4,
        "人数",
        "players: 4 (四人玩) or 3 (三人玩)",
        "§anhua-setup, §anhua-players, §anhua-reading-player-count",
    ),
    choice(
        "king_mode",
        ("seven_kings", "four_kings"),
        "seven_kings",
        "七王 / 四王",
        "seven kings (flipped kind X and next rank Y) or four (Y only)",
        "§anhua-kings, §anhua-king-mode",
    ),
    flag(
        "king_as_itself_is_hard",
        False,
        "王代硬",
        "a king standing for its own face may count as hard",
        "§anhua-king-as-itself",
    ),
    flag(
        "allow_rob_kong",
        True,
        "可抢杠胡",
        "a 明杠 can be robbed",
        "§anhua-open-kong, §anhua-robbing-a-kong",
    ),
    flag(
        "multi_ron",
        True,
        "一炮多响",
        "several players may win on one discard",
        "§anhua-claims, §anhua-multi-ron",
    ),
    flag(
        "dealer_bonus",
        False,
        "庄闲分",
        "one extra point on every payment with the dealer",
        "§anhua-payments, §anhua-dealer-bonus",
    ),
    choice(
        "bird_count",
        (1, 2, 4),
        2,
        "抓鸟",
        "birds flipped after a win: 1, 2 or 4",
        "§anhua-payments, §anhua-birds",
    ),
    choice(
        "king_tier_mode",
        ("identical_sets", "count"),
        "identical_sets",
        "单王/三王/四王/六王/七王",
        "tiers by identical sets, or by king count",
        "§anhua-king-tiers, §anhua-reading-king-tiers",
    ),
    flag(
        "king_as_itself_affects_eligibility",
        True,
        "王代硬",
        "also decides who may win on discards",
        "§anhua-king-as-itself, §anhua-reading-king-as-itself-scope",
    ),
    choice(
        "instant_king_win_window",
        ("first_turn", "until_first_claim"),
        "first_turn",
        "起手四王/七王",
        "window of the instant win",
        "§anhua-instant-king-win, §anhua-reading-instant-win-dealt-hand",
    ),
    choice(
        "kong_reveal_count",
        (2, 3),
        3,
        "开杠",
        "tiles revealed by an open kong: 3 or 2",
        "§anhua-open-kong, §anhua-kong-reveal, §anhua-reading-three-revealed-tiles",
    ),
    choice(
        "kong_multi_tile_win",
        ("best_only", "double"),
        "best_only",
        "开杠",
        "several revealed tiles win: best only, or double points",
        "§anhua-open-kong, §anhua-kong-bloom, §anhua-reading-kong-cannon-defined-twice",
    ),
    # 余牌数: the bounds depend on kong_reveal_count and player_count (AnhuaOptions.check_together)
    integer(
        "kong_min_wall",
        4,
        "开杠",
        "tiles that must be left in the wall to kong (at least reveal + 1)",
        "§anhua-kongs, §anhua-kong-min-wall",
        minimum=1,
        maximum=N_TILES - 13 * 3 - 1,  # the wall after a three-player deal, the largest
        allowed_text=(
            "an integer from kong_reveal_count + 1 to the wall after the deal "
            "(55 with 4 players, 68 with 3)"
        ),
    ),
    flag(
        "seven_pairs_allow_quad",
        True,
        "小七对",
        "four identical tiles count as two pairs",
        "§anhua-hand-forms, §anhua-seven-pairs, §anhua-reading-seven-pairs",
    ),
    choice(
        "dealer_bonus_timing",
        ("after_birds", "before_birds"),
        "after_birds",
        "庄闲分",
        "added after or before the birds double",
        "§anhua-payments, §anhua-dealer-bonus, §anhua-reading-dealer-bonus",
    ),
    choice(
        "first_dealer",
        ("seat0", "random"),
        "seat0",
        "开房玩家坐庄",
        "first dealer of a session: seat 0 or random",
        "§anhua-dealer, §anhua-first-dealer, §anhua-reading-first-dealer",
    ),
    flag(
        "discarded_king_claimable_for_win",
        False,
        "",
        "a discarded or revealed king can be won on",
        "§anhua-kings, §anhua-discarded-kings, §anhua-reading-kings-and-claims",
    ),
    flag(
        "allow_rob_direct_kong",
        True,
        "抢杠",
        "a 直杠 (kong on a discard) can also be robbed",
        "§anhua-open-kong, §anhua-robbing-a-kong, §anhua-reading-robbing-a-direct-kong",
    ),
    flag(
        "instant_king_win_counts_draw",
        False,
        "起手四王/七王",
        "the first drawn tile counts (off: the dealt hand only)",
        "§anhua-instant-king-win",
    ),
)
"""Every option of §anhua-options, in ``params`` order."""

OPTION = by_name(ANHUA_OPTIONS)
OPTION_NAMES = tuple(OPTION)
OPTION_TITLES = {name: option.title for name, option in OPTION.items()}
"""Option -> its Chinese rule name and meaning (configs, reports, ``--help``)."""

# Indices into ``params`` for the kernels (``scoring.P_*``): the slots come from the declarations
_SLOT = param_slots(ANHUA_OPTIONS)
P_PLAYERS = _SLOT["player_count"]
P_KING_MODE = _SLOT["king_mode"]
P_KING_AS_ITSELF_IS_HARD = _SLOT["king_as_itself_is_hard"]
P_ALLOW_ROB_KONG = _SLOT["allow_rob_kong"]
P_MULTI_RON = _SLOT["multi_ron"]
P_DEALER_BONUS = _SLOT["dealer_bonus"]
P_BIRD_COUNT = _SLOT["bird_count"]
P_KING_TIER_MODE = _SLOT["king_tier_mode"]
P_KING_AS_ITSELF_AFFECTS_ELIGIBILITY = _SLOT["king_as_itself_affects_eligibility"]
P_INSTANT_WIN_WINDOW = _SLOT["instant_king_win_window"]
P_KONG_REVEAL_COUNT = _SLOT["kong_reveal_count"]
P_KONG_MULTI_TILE_WIN = _SLOT["kong_multi_tile_win"]
P_KONG_MIN_WALL = _SLOT["kong_min_wall"]
P_SEVEN_PAIRS_ALLOW_QUAD = _SLOT["seven_pairs_allow_quad"]
P_DEALER_BONUS_TIMING = _SLOT["dealer_bonus_timing"]
P_FIRST_DEALER = _SLOT["first_dealer"]
P_DISCARDED_KING_CLAIMABLE = _SLOT["discarded_king_claimable_for_win"]
P_ALLOW_ROB_DIRECT_KONG = _SLOT["allow_rob_direct_kong"]
P_INSTANT_COUNTS_DRAW = _SLOT["instant_king_win_counts_draw"]
N_PARAMS = param_count(ANHUA_OPTIONS)

# How the kernels compare choice values
KING_MODE_SEVEN = OPTION["king_mode"].code("seven_kings")
KING_MODE_FOUR = OPTION["king_mode"].code("four_kings")
TIER_MODE_IDENTICAL_SETS = OPTION["king_tier_mode"].code("identical_sets")
TIER_MODE_COUNT = OPTION["king_tier_mode"].code("count")


class AnhuaOptions(Options, declarations=ANHUA_OPTIONS):
    """Every option of §anhua-options, with its default (:data:`ANHUA_OPTIONS`)."""

    def check_together(self) -> None:
        """余牌数 for 开杠 (§anhua-kong-min-wall): room for the revealed tiles, and a wall that can
        hold that many when a kong is first possible."""
        if self.kong_min_wall < self.kong_reveal_count + 1:
            raise ValueError(
                f"kong_min_wall: {self.kong_min_wall} is below kong_reveal_count + 1 = "
                f"{self.kong_reveal_count + 1} (§anhua-kong-min-wall)"
            )
        if self.kong_min_wall > self.wall_after_deal:
            raise ValueError(
                f"kong_min_wall: {self.kong_min_wall} is above the {self.wall_after_deal} tiles "
                f"left after a {self.player_count}-player deal, so no kong could ever be made; "
                f"allowed: {self.kong_reveal_count + 1}-{self.wall_after_deal}"
            )

    @property
    def wall_after_deal(self) -> int:
        """Tiles left in the wall once 13 are dealt to each seat and the dealer draws its 14th:
        the most there can be when a kong is declared (bounds ``kong_min_wall``)."""
        return N_TILES - 13 * self.player_count - 1
