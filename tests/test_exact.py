"""sim.analysis.exact: exact dealt-hand probabilities (definitions: docs/exact.md).

Fast tests check the counts exactly: published anchors, closed forms, and every count against an
enumeration of all hands of a small tile set with the hand evaluator. Slow tests check every
figure of every variant against an independent Monte Carlo estimate (sim.analysis.dealt: the
evaluator on sampled hands): the exact value must lie in the 99.9% Wilson interval. Figures too rare
to hit directly are estimated conditionally on an event of known probability that contains them.
"""

from __future__ import annotations

import doctest
import itertools
import time
from fractions import Fraction
from math import comb

import numpy as np
import pytest

from sim.analysis import exact
from sim.analysis.dealt import (
    DealtHands,
    add_hits,
    compare,
    count_kinds,
    event_hits,
    sample_prefixes,
    simulate,
    wilson_interval,
)
from sim.analysis.exact import (
    Forms,
    anhua_availability,
    anqing_readings,
    anqing_zuan_of,
    count_complete,
    count_hands,
    count_seven_stars,
    count_thirteen,
    exact_events,
    lacking_suit_at_table,
    parse_settings,
)
from sim.cli import main
from sim.core.tiles import kind_id
from sim.core.wall import spawn_seeds, tile_set
from sim.hand import is_complete_batch

# ---------------------------------------------------------------------------------------------
# Published anchors and closed forms


def test_published_count_of_standard_hands_in_136_tiles():
    """The number of 14-tile subsets of the 136 tiles that form 4 sets and a pair."""
    assert count_complete([4] * 34, 14, forms=Forms(seven_pairs=False)) == 11_353_128_141_498


def test_published_count_of_seven_distinct_pairs_in_136_tiles():
    assert count_complete([4] * 34, forms=Forms(standard=False, quads=False)) == 1_505_948_184_576


def _seven_pairs_closed_form(kinds: int, quads: bool) -> int:
    """Choose the kinds held four times (two pairs each), then the kinds held twice."""
    most_quads = 3 if quads else 0
    return sum(
        comb(kinds, q) * comb(kinds - q, 7 - 2 * q) * 6 ** (7 - 2 * q)
        for q in range(most_quads + 1)
    )


@pytest.mark.parametrize("n_kinds", [27, 34])
@pytest.mark.parametrize("quads", [True, False])
def test_seven_pairs_match_closed_form(n_kinds, quads):
    forms = Forms(standard=False, quads=quads)
    assert count_complete([4] * n_kinds, forms=forms) == _seven_pairs_closed_form(n_kinds, quads)
    one_suit = count_complete([4] * n_kinds, forms=forms, one_suit=True)
    assert one_suit == 3 * _seven_pairs_closed_form(9, quads)


def test_docstring_examples():
    failures, tried = doctest.testmod(exact, verbose=False)
    assert tried > 0 and failures == 0


def test_count_hands_is_the_binomial():
    assert count_hands([4] * 27, 13) == comb(108, 13)
    assert count_hands([4] * 34, 14, wild_copies=4) == comb(140, 14)


# ---------------------------------------------------------------------------------------------
# Against enumeration of every hand with the evaluator

_COMB = np.array([[comb(a, c) for c in range(5)] for a in range(5)], np.int64)


def _available(spec: dict[str, int]) -> list[int]:
    values = [0] * 34
    for name, copies in spec.items():
        values[kind_id(name)] = copies
    return values


def _one_suit_mask(counts: np.ndarray) -> np.ndarray:
    per_suit = counts[:, :27].reshape(-1, 3, 9).sum(axis=2)
    return ((per_suit > 0).sum(axis=1) == 1) & (counts[:, 27:].sum(axis=1) == 0)


def _enumerate(available: list[int], n_tiles: int, wild_copies: int):
    """Every natural count vector with its weight, per number of wilds: (wilds, counts, ways)."""
    kinds = [k for k in range(34) if available[k]]
    shape = tuple(available[k] + 1 for k in kinds)
    vectors = np.indices(shape, dtype=np.int8).reshape(len(kinds), -1).T
    naturals = vectors.sum(axis=1, dtype=np.int64)
    for wilds in range(min(wild_copies, n_tiles) + 1):
        rows = vectors[naturals == n_tiles - wilds]
        if not rows.size:
            continue
        counts = np.zeros((rows.shape[0], 34), np.uint8)
        counts[:, kinds] = rows
        ways = np.ones(rows.shape[0], np.int64)
        for column, kind in enumerate(kinds):
            ways *= _COMB[available[kind]][rows[:, column]]
        yield wilds, counts, ways * comb(wild_copies, wilds)


def _brute_force(available, n_tiles, wild_copies, forms, one_suit=False, flush_any_pair=False):
    total = 0
    for wilds, counts, ways in _enumerate(available, n_tiles, wild_copies):
        complete = is_complete_batch(counts, wilds, forms=forms)
        if flush_any_pair:  # Anhua 乱将: naturals of one suit may take any pair
            any_pair = is_complete_batch(counts, wilds, forms=Forms(seven_pairs=False))
            complete |= _one_suit_mask(counts) & any_pair
        if one_suit:
            complete &= _one_suit_mask(counts)
        total += int(ways[complete].sum())
    return total


_MIXED = {"1m": 4, "2m": 4, "3m": 4, "5m": 4, "2p": 4, "3p": 4, "E": 4, "RD": 2}
_SUITED = {"2m": 4, "3m": 4, "4m": 4, "5m": 4, "8m": 3, "5p": 4, "6p": 2}


@pytest.mark.parametrize(
    ("spec", "wild_copies", "forms"),
    [
        (_MIXED, 0, Forms()),
        (_MIXED, 3, Forms()),
        (_MIXED, 3, Forms(seven_pairs=False)),
        (_MIXED, 2, Forms(standard=False)),
        (_MIXED, 4, Forms(standard=False, quads=False)),
        (_MIXED, 4, Forms(pair="258", quads=False)),
        (_SUITED, 4, Forms(pair="258")),
        (_SUITED, 7, Forms(pair="258", seven_pairs=False)),
    ],
)
def test_counts_of_14_tiles_match_enumeration(spec, wild_copies, forms):
    available = _available(spec)
    expected = _brute_force(available, 14, wild_copies, forms)
    assert expected > 0
    assert count_complete(available, 14, wild_copies, forms=forms) == expected


@pytest.mark.parametrize("n_tiles", [2, 5, 8, 11])
@pytest.mark.parametrize("pair", ["any", "258"])
def test_standard_counts_of_smaller_hands_match_enumeration(n_tiles, pair):
    available = _available(_MIXED)
    forms = Forms(pair=pair, seven_pairs=False)
    expected = _brute_force(available, n_tiles, 2, forms)
    assert expected > 0
    assert count_complete(available, n_tiles, 2, forms=forms) == expected


@pytest.mark.parametrize("wild_copies", [0, 4])
def test_one_suit_and_flush_any_pair_match_enumeration(wild_copies):
    """Anhua 乱将 (docs/rules/anhua.md, 清一色 可乱将): one-suit hands take any pair."""
    available = _available(_SUITED)
    anhua = Forms(pair="258")
    for options in ({"one_suit": True}, {"flush_any_pair": True}):
        expected = _brute_force(available, 14, wild_copies, anhua, **options)
        assert count_complete(available, 14, wild_copies, forms=anhua, **options) == expected
    flush_only = count_complete(available, 14, wild_copies, forms=anhua, flush_any_pair=True)
    assert flush_only > count_complete(available, 14, wild_copies, forms=anhua)


def test_one_suit_counts_match_enumeration_of_a_whole_suit():
    suit = [4] * 9 + [0] * 25
    for forms in (Forms(seven_pairs=False), Forms(pair="258", seven_pairs=False), Forms()):
        one_suit = count_complete([4] * 34, forms=forms, one_suit=True)
        assert one_suit == 3 * _brute_force(suit, 14, 0, forms)


_THIRTEEN = {
    **{"1m": 2, "4m": 1, "7m": 1, "8m": 1, "2p": 2, "5p": 1, "3s": 1, "9s": 1},
    **{"E": 2, "S": 1, "W": 1, "N": 1, "RD": 1, "GD": 1},
}


@pytest.mark.parametrize("wild_copies", [3, 5, 8])
def test_thirteen_unrelated_matches_enumeration(wild_copies):
    """十三烂 (docs/rules/anqing.md, 胡牌牌型2类): ranks 3 apart, honours distinct."""
    available = _available(_THIRTEEN)
    forms = Forms(standard=False, seven_pairs=False, thirteen=True)
    expected = _brute_force(available, 14, wild_copies, forms)
    assert expected > 0
    assert count_thirteen(available, wild_copies) == expected
    assert count_complete(available, 14, wild_copies, forms=forms) == expected


def _seven_stars_brute_force(available, wild_copies, wild_face):
    """七星归位 by definition: every honour face physically held, and a 十三烂 in which a wild
    of an honour face stands for that face."""
    total = 0
    forms = Forms(standard=False, seven_pairs=False, thirteen=True)
    for wilds, counts, ways in _enumerate(available, 14, wild_copies):
        faces = counts[:, 27:].astype(np.int64)
        placed = counts.copy()
        if wild_face >= 27:
            if wilds == 0:
                continue
            faces[:, wild_face - 27] += wilds
            placed[:, wild_face] = 1
            wilds -= 1
        complete = (faces > 0).all(axis=1) & is_complete_batch(placed, wilds, forms=forms)
        total += int(ways[complete].sum())
    return total


@pytest.mark.parametrize(("wild_face", "wild_copies"), [("E", 3), ("5m", 3), ("RD", 4)])
def test_seven_stars_match_enumeration(wild_face, wild_copies):
    """七星归位 (docs/rules/anqing.md: 东南西北中发白没有顶替其他牌的钻)."""
    spec = {"1m": 2, "4m": 1, "7m": 1, "2p": 1, "8p": 2, "3s": 1, "6s": 1, "9s": 1}
    spec |= {name: 1 for name in ("E", "S", "W", "N", "RD", "GD", "WD")}
    spec["S"] = 2
    face = kind_id(wild_face)
    spec[wild_face] = 0
    available = _available(spec)
    expected = _seven_stars_brute_force(available, wild_copies, face)
    assert expected > 0
    assert count_seven_stars(available, wild_copies, face) == expected


# ---------------------------------------------------------------------------------------------
# Rules: readings of the tiles


def test_anhua_kings_from_the_indicator():
    """docs/rules/anhua.md 七王/四王: a flipped 9s makes the other three 9s and the four
    1s kings (七王), or only the four 1s (四王); the flipped tile itself is out of play."""
    nine_s, one_s = kind_id("9s"), kind_id("1s")
    available, kings = anhua_availability(nine_s, "seven_kings")
    assert (available[nine_s], available[one_s], kings, sum(available)) == (0, 0, 7, 100)
    available, kings = anhua_availability(nine_s, "four_kings")
    assert (available[nine_s], available[one_s], kings, sum(available)) == (3, 0, 4, 103)
    available, kings = anhua_availability(nine_s, "face")
    assert (available[nine_s], available[one_s], kings, sum(available)) == (3, 4, 0, 107)


@pytest.mark.parametrize(
    ("flipped", "zuan"),
    [("2p", "3p"), ("9m", "1m"), ("E", "S"), ("N", "E"), ("RD", "GD"), ("GD", "WD"), ("WD", "RD")],
)
def test_anqing_zuan_is_the_successor_of_the_flip(flipped, zuan):
    """docs/rules/anqing.md 钻牌的出现: 筒2 -> 筒3, 9 -> 1, 北 -> 东, 红中 -> 发财,
    发财 -> 白板, 白板 -> 中."""
    assert anqing_zuan_of(kind_id(flipped)) == kind_id(zuan)


def test_anqing_red_dragon_stands_for_the_zuan_face():
    """docs/rules/anqing.md 红中 代替钻牌本身的那张牌, 发财白板是杠牌: with 7m the 钻
    (flip 6m) the four 红中 are 7m naturals in class 1; in 十三烂 they are 中."""
    zuan, literal, class_one = anqing_readings(kind_id("6m"))
    assert zuan == kind_id("7m")
    assert class_one[kind_id("7m")] == 4 and literal[kind_id("7m")] == 0
    assert class_one[kind_id("6m")] == literal[kind_id("6m")] == 3
    assert [class_one[kind_id(d)] for d in ("RD", "GD", "WD")] == [0, 0, 0]
    assert [literal[kind_id(d)] for d in ("RD", "GD", "WD")] == [4, 4, 4]
    zuan, literal, class_one = anqing_readings(kind_id("RD"))  # 钻 发财: 中 and 白 are 杠牌
    assert zuan == kind_id("GD")
    assert [class_one[kind_id(d)] for d in ("RD", "GD", "WD")] == [0, 0, 0]
    assert [literal[kind_id(d)] for d in ("RD", "GD", "WD")] == [3, 0, 4]


# ---------------------------------------------------------------------------------------------
# Events


def _by_key(events):
    return {event.key: event.probability for event in events}


def test_king_count_distributions_sum_to_one():
    events = _by_key(exact_events("anhua"))
    for mode, most in (("k7", 7), ("k4", 4)):
        for seat in ("dealer", "non_dealer"):
            total = sum(events[f"anhua/{mode}/{seat}/kings={k}"] for k in range(most + 1))
            assert total == 1
    assert events["anhua/k7/dealer/kings=7"] == events["anhua/k7/dealer/seven_kings"]
    assert events["anhua/k4/dealer/kings=4"] == events["anhua/k4/dealer/four_y_kings"]


def test_instant_win_by_tier_mode():
    """docs/rules/anhua.md 四王七王直接胡牌: identical sets = all four Y; count = 4+."""
    identical = _by_key(exact_events("anhua", {"tiers": "identical_sets"}))
    counted = _by_key(exact_events("anhua", {"tiers": "count"}))
    assert identical["anhua/k7/dealer/instant"] == identical["anhua/k7/dealer/four_y_kings"]
    four_or_more = sum(identical[f"anhua/k7/dealer/kings={k}"] for k in range(4, 8))
    assert counted["anhua/k7/dealer/instant"] == four_or_more
    assert counted["anhua/k4/dealer/instant"] == identical["anhua/k4/dealer/instant"]


def test_anhua_ranks_mirror():
    """Reversing the ranks keeps 2-5-8: with seven kings the missing ranks r, r+1 mirror to
    9-r, 10-r; at face value the indicator rank r mirrors to 10-r."""
    events = _by_key(exact_events("anhua", {"kings": "7"}))
    for name in ("standard_258_kings", "complete_kings"):
        for rank in range(1, 9):
            mirrored = events[f"anhua/k7/dealer/{name}/rank={9 - rank}"]
            assert events[f"anhua/k7/dealer/{name}/rank={rank}"] == mirrored
    for rank in range(1, 10):
        mirrored = events[f"anhua/face/dealer/complete/rank={10 - rank}"]
        assert events[f"anhua/face/dealer/complete/rank={rank}"] == mirrored
    averaged = sum(events[f"anhua/face/dealer/complete/rank={r}"] for r in range(1, 10)) / 9
    assert events["anhua/face/dealer/complete"] == averaged


def test_anhua_kings_make_complete_hands_far_more_likely():
    events = _by_key(exact_events("anhua"))
    face = events["anhua/face/dealer/complete"]
    four = events["anhua/k4/dealer/complete_kings"]
    seven = events["anhua/k7/dealer/complete_kings"]
    assert face < four < seven
    assert events["anhua/k7/dealer/standard_258_kings"] < seven


def test_wengan_tian_hu_by_player_count():
    """docs/rules/wengan.md 天胡, 定缺 (二、三人的玩法中, 需要定缺才能叫胡牌)."""
    events = _by_key(exact_events("wengan"))
    generic = _by_key(exact_events("generic", {"tiles": "108"}))
    assert events["wengan/dealer/tian_hu/p4"] == generic["t108/dealer/complete"]
    assert events["wengan/dealer/tian_hu/p2"] == events["wengan/dealer/tian_hu/p3"]
    assert generic["t108/dealer/complete/one_suit"] < events["wengan/dealer/tian_hu/p3"]
    assert events["wengan/dealer/tian_hu/p3"] < events["wengan/dealer/tian_hu/p4"]


def test_yuan_que_at_a_two_player_table_by_enumeration():
    """docs/rules/wengan.md 原缺: enumerate the suit counts of both dealt hands."""
    favourable = 0
    for dealer in itertools.product(range(15), repeat=2):
        dealer = (*dealer, 14 - sum(dealer))
        if dealer[2] < 0:
            continue
        for other in itertools.product(range(14), repeat=2):
            other = (*other, 13 - sum(other))
            if other[2] < 0 or (0 not in dealer and 0 not in other):
                continue
            ways = 1
            for d, o in zip(dealer, other, strict=True):
                ways *= comb(36, d) * comb(36 - d, o)
            favourable += ways
    expected = Fraction(favourable, comb(108, 14) * comb(94, 13))
    assert lacking_suit_at_table(2) == expected
    assert lacking_suit_at_table(2) < lacking_suit_at_table(3) < lacking_suit_at_table(4)


def test_anqing_complete_is_class_one_plus_thirteen():
    events = _by_key(exact_events("anqing"))
    assert events["anqing/dealer/complete"] == (
        events["anqing/dealer/class1"] + events["anqing/dealer/thirteen"]
    )
    assert 0 < events["anqing/dealer/class1_no_zuan"] < events["anqing/dealer/class1"]
    assert 0 < events["anqing/dealer/seven_stars"] < events["anqing/dealer/thirteen"]


def test_settings_are_validated():
    assert parse_settings("wengan", ["players=3"]) == {"players": "3"}
    with pytest.raises(ValueError, match="unknown key 'king' for anhua; allowed: kings"):
        parse_settings("anhua", ["king=7"])
    with pytest.raises(ValueError, match=r"kings must be one of both\|7\|4, not '5'"):
        parse_settings("anhua", ["kings=5"])
    with pytest.raises(ValueError, match="KEY=VALUE"):
        parse_settings("anhua", ["kings"])
    with pytest.raises(ValueError, match="unknown variant"):
        exact_events("riichi")
    assert _by_key(exact_events("wengan", {"players": 3})) == _by_key(
        exact_events("wengan", {"players": "3"})
    )


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="14 tiles"):
        count_complete([4] * 27, 11)
    with pytest.raises(ValueError, match="wild_copies"):
        count_complete([4] * 27, 14, 9)
    with pytest.raises(ValueError, match="27 or 34"):
        count_complete([4] * 30)
    with pytest.raises(ValueError, match="alone"):
        count_complete([4] * 34, forms=Forms(thirteen=True))


# ---------------------------------------------------------------------------------------------
# Command line


def test_exact_command_prints_fractions_and_floats(capsys):
    assert main(["exact", "wengan", "--set", "players=3"]) == 0
    out = capsys.readouterr().out
    expected = _by_key(exact_events("wengan", {"players": "3"}))["wengan/dealer/tian_hu/p3"]
    assert str(expected) in out
    assert f"{float(expected):.6e}" in out
    assert "4 players" not in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["exact", "anhua", "--set", "players=3"], "unknown key 'players' for anhua"),
        (["exact", "wengan", "--set", "players=5"], "players must be one of all|2|3|4"),
        (["exact", "generic", "--set", "tiles"], "KEY=VALUE"),
    ],
)
def test_exact_command_errors_are_one_line(capsys, argv, message):
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert message in captured.err
    assert captured.err.count("\n") == 1


def test_exact_help_names_every_setting(capsys):
    with pytest.raises(SystemExit):
        main(["exact", "--help"])
    out = capsys.readouterr().out
    for keys in exact.SETTINGS.values():
        for key in keys:
            assert f"{key}=" in out
    assert "example" in out


@pytest.mark.slow
def test_exact_command_is_fast_with_warm_caches():
    main(["exact", "anhua", "--no-fractions"])  # warms the tables and the signature caches
    exact._signature_counts.cache_clear()
    exact._signatures.cache_clear()
    start = time.perf_counter()
    main(["exact", "anhua"])
    assert time.perf_counter() - start < 10


# ---------------------------------------------------------------------------------------------
# Against Monte Carlo (slow)

_CONFIDENCE = 0.999


class _Tally:
    """Hits and trials per event key over chunks of sampled hands."""

    def __init__(self) -> None:
        self.counts: dict[str, list[int]] = {}
        self.checked = 0

    def add(self, hits) -> None:
        add_hits(self.counts, hits)

    def check(self, key: str, exact_value, scale=1) -> None:
        hits, trials = self.counts[key]
        low, high = wilson_interval(hits, trials, _CONFIDENCE)
        value = float(Fraction(exact_value) / scale)
        assert low <= value <= high, f"{key}: {value:.4e} not in [{low:.4e}, {high:.4e}]"
        self.checked += 1


def _sampled(tiles, n_hands, seed, drawn=15, chunk=250_000):
    """Hands from uniform draws of ``tiles``: dealer = the first 14, non-dealer = the first 13,
    indicator = the 15th (when drawn)."""
    n_chunks = -(-n_hands // chunk)
    for index, child in enumerate(spawn_seeds(seed, n_chunks)):
        size = min(chunk, n_hands - index * chunk)
        prefixes = sample_prefixes(tiles, drawn, size, child)
        indicator = prefixes[:, 14].astype(np.int64) if drawn > 14 else None
        tile_count = 136 if tiles.size >= 135 else 108
        dealer = count_kinds(prefixes[:, :14])
        yield DealtHands(tile_count, dealer, count_kinds(prefixes[:, :13]), indicator, {})


def _without_one(tiles: np.ndarray, kind: int) -> np.ndarray:
    position = int(np.flatnonzero(tiles == kind)[0])
    return np.delete(tiles, position)


@pytest.mark.slow
@pytest.mark.parametrize(("tile_count", "n_hands"), [(108, 6_000_000), (136, 24_000_000)])
def test_generic_events_match_monte_carlo(tile_count, n_hands):
    events = exact_events("generic", {"tiles": str(tile_count)})
    tally = _Tally()
    for hands in _sampled(tile_set(tile_count), n_hands, seed=tile_count, drawn=14):
        tally.add(event_hits("generic", hands))
    for event in events:
        if not event.key.endswith("one_suit"):
            tally.check(event.key, event.probability)
    assert tally.checked == 5  # standard, 2-5-8, seven pairs twice, either


@pytest.mark.slow
def test_one_suit_events_match_monte_carlo_given_one_suit():
    """Hands drawn from the 36 tiles of one suit; P(all 14 in one given suit) is known."""
    suit = tile_set(108)[:36]
    tally = _Tally()
    for hands in _sampled(suit, 1_000_000, seed=36, drawn=14):
        tally.add(event_hits("generic", hands))
    for tile_count in (108, 136):
        given_suit = Fraction(3 * comb(36, 14), comb(tile_count, 14))
        for event in exact_events("generic", {"tiles": str(tile_count)}):
            if event.key.endswith("one_suit"):
                tally.check(
                    event.key.replace(f"t{tile_count}", "t108"), event.probability, given_suit
                )
    assert tally.checked == 10


def _anhua_by_rank(n_per_rank, only, seed):
    """Hands with the indicator fixed at each rank (tiles: 108 less that copy); the pooled
    count of the equal strata estimates the average over ranks conservatively."""
    tally = _Tally()
    for rank in range(9):
        tiles = _without_one(tile_set(108), rank)
        for hands in _sampled(tiles, n_per_rank, seed=100 * seed + rank, drawn=14):
            indicator = np.full(hands.dealer.shape[0], rank, np.int64)
            hands = DealtHands(108, hands.dealer, hands.non_dealer, indicator, {})
            tally.add(event_hits("anhua", hands, only=only))
    return tally


@pytest.mark.slow
def test_anhua_complete_with_kings_matches_monte_carlo():
    only = tuple(f"anhua/{m}/dealer/{e}" for m in ("k7", "k4") for e in ("standard", "complete"))
    tally = _anhua_by_rank(600_000, only, seed=7)
    for event in exact_events("anhua"):
        if event.key.startswith(only):
            tally.check(event.key, event.probability)
    assert tally.checked == 2 * 2 * 10  # two king modes, two events, 9 ranks and the average


@pytest.mark.slow
def test_anhua_complete_at_face_value_matches_monte_carlo():
    tally = _anhua_by_rank(3_000_000, ("anhua/face",), seed=8)
    for event in exact_events("anhua"):
        if event.key.startswith("anhua/face"):
            tally.check(event.key, event.probability)
    assert tally.checked == 10


@pytest.mark.slow
def test_anhua_kings_held_match_monte_carlo():
    """Kings 王 held at the deal (docs/rules/anhua.md 七王/四王, 起手四王/七王)."""
    seats = ("dealer", "non_dealer")
    only = tuple(
        f"anhua/{m}/{seat}/{held}"
        for m in ("k7", "k4")
        for seat in seats
        for held in ("kings=", "four_y", "seven")
    )
    only += ("anhua/k7/dealer/instant", "anhua/k4/dealer/instant")
    for tiers in ("identical_sets", "count"):
        tally = _Tally()
        for hands in _sampled(tile_set(108), 4_000_000, seed=9):
            tally.add(event_hits("anhua", hands, {"tiers": tiers}, only=only))
        for event in exact_events("anhua", {"tiers": tiers}):
            # all seven kings: estimated given the four Y kings (the next test)
            rare = event.key.endswith(("seven_kings", "kings=7"))
            if event.key.startswith(only) and not rare:
                tally.check(event.key, event.probability)
        # k7: kings 0-6, four Y, per seat; k4: kings 0-4 and four Y; two instants
        assert tally.checked == 2 * (7 + 1) + 2 * (5 + 1) + 2


@pytest.mark.slow
@pytest.mark.parametrize(("seat", "others"), [("dealer", 10), ("non_dealer", 9)])
def test_anhua_seven_kings_match_monte_carlo_given_the_four_y(seat, others):
    """七王 (docs/rules/anhua.md): given the four Y kings in the hand (Y = 2m for a
    flipped 1m), the other tiles come from the remaining 103, three of them the X kings."""
    events = _by_key(exact_events("anhua", {"kings": "7"}))
    rest = _without_one(tile_set(108), kind_id("1m"))
    rest = rest[rest != kind_id("2m")]
    prefixes = sample_prefixes(rest, others, 1_000_000, seed=others)
    three_x = (prefixes == kind_id("1m")).sum(axis=1) == 3
    tally = _Tally()
    tally.add({"seven_given_four": (three_x, None)})
    given = events[f"anhua/k7/{seat}/four_y_kings"]
    tally.check("seven_given_four", events[f"anhua/k7/{seat}/seven_kings"], given)
    tally.check("seven_given_four", events[f"anhua/k7/{seat}/kings=7"], given)


@pytest.mark.slow
def test_anqing_complete_at_the_deal_matches_monte_carlo():
    """docs/rules/anqing.md 胡牌牌型1类, 十三烂, 七星归位 at the deal, stratified by the
    flipped kind (equal hands per kind; pooled they estimate the average over the flip)."""
    only = ("anqing/dealer/class1", "anqing/dealer/thirteen", "anqing/dealer/seven_stars")
    only += ("anqing/dealer/complete",)
    tally = _Tally()
    for flipped in range(34):
        tiles = _without_one(tile_set(136), flipped)
        for hands in _sampled(tiles, 800_000, seed=1100 + flipped, drawn=14):
            indicator = np.full(hands.dealer.shape[0], flipped, np.int64)
            hands = DealtHands(136, hands.dealer, hands.non_dealer, indicator, {})
            tally.add(event_hits("anqing", hands, only=only))
    for event in exact_events("anqing"):
        if event.key.startswith(only):
            tally.check(event.key, event.probability)
    assert tally.checked == 5


@pytest.mark.slow
def test_anqing_zuan_held_match_monte_carlo():
    tally = _Tally()
    only = ("anqing/dealer/zuan", "anqing/non_dealer/zuan")
    for hands in _sampled(tile_set(136), 4_000_000, seed=12):
        tally.add(event_hits("anqing", hands, only=only))
    for event in exact_events("anqing"):
        if event.key.startswith(only):
            tally.check(event.key, event.probability)
    assert tally.checked == 10


@pytest.mark.slow
def test_wengan_tian_hu_matches_monte_carlo():
    """docs/rules/wengan.md 天胡, with 定缺 for 2 and 3 players."""
    tally = _Tally()
    for hands in _sampled(tile_set(108), 8_000_000, seed=13, drawn=14):
        tally.add(event_hits("wengan", hands, only=("wengan/dealer/tian_hu",)))
    for event in exact_events("wengan"):
        if event.key.startswith("wengan/dealer/tian_hu"):
            tally.check(event.key, event.probability)
    assert tally.checked == 3


@pytest.mark.slow
@pytest.mark.parametrize(
    ("variant", "settings"),
    [
        ("generic", {}),
        ("anhua", {}),
        ("anhua", {"kings": "4", "tiers": "count", "quads": "no"}),
        ("wengan", {}),
        ("anqing", {}),
        ("anqing", {"quads": "no"}),
    ],
)
def test_every_event_matches_dealt_walls(variant, settings):
    """The real dealer (sim.core.wall) through sim.analysis.dealt.simulate: every exact value
    inside."""
    events = exact_events(variant, settings)
    estimates = simulate(variant, 400_000, seed=14, settings=settings)
    outside = [row.event.key for row in compare(events, estimates, _CONFIDENCE) if not row.inside]
    assert outside == []
    assert len(events) > 5
