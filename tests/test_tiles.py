"""Tile ids, notation parsing/printing and the glossary (sim/core/tiles.py)."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from sim.core.tiles import (
    GLOSSARY,
    HONOUR_NAMES,
    KIND_GLYPHS,
    KIND_NAMES,
    N_KINDS,
    SUITS,
    Hand,
    format_hand,
    format_tiles,
    hand_from_counts,
    is_honour,
    kind_id,
    kind_name,
    parse_hand,
    parse_tiles,
    rank_of,
    suit_of,
)

# ------------------------------------------------------------------------------------------------
# Kind ids
# ------------------------------------------------------------------------------------------------


def test_kind_names_layout() -> None:
    assert N_KINDS == 34 == len(KIND_NAMES) == len(set(KIND_NAMES))
    assert SUITS == "mps"
    assert KIND_NAMES[:9] == tuple(f"{r}m" for r in range(1, 10))
    assert KIND_NAMES[9:18] == tuple(f"{r}p" for r in range(1, 10))
    assert KIND_NAMES[18:27] == tuple(f"{r}s" for r in range(1, 10))
    assert KIND_NAMES[27:] == HONOUR_NAMES == ("E", "S", "W", "N", "RD", "GD", "WD")


@pytest.mark.parametrize("kind", range(N_KINDS))
def test_kind_helpers_agree_with_names(kind: int) -> None:
    name = KIND_NAMES[kind]
    assert kind_id(name) == kind
    assert kind_name(kind) == name
    assert kind_name(np.int8(kind)) == name  # numpy integers are accepted
    if kind < 27:
        assert suit_of(kind) == SUITS.index(name[1])
        assert rank_of(kind) == int(name[0])
        assert not is_honour(kind)
    else:
        assert suit_of(kind) == 3
        assert rank_of(kind) == kind - 26
        assert is_honour(kind)
        assert kind_id(f"{kind - 26}z") == kind


def test_glyphs_are_distinct_mahjong_tiles() -> None:
    assert len(set(KIND_GLYPHS)) == N_KINDS
    assert all(0x1F000 <= ord(g) <= 0x1F021 for g in KIND_GLYPHS)
    # Unicode orders bamboo before dots; spot-check the mapping.
    assert KIND_GLYPHS[kind_id("1m")] == "\U0001f007"
    assert KIND_GLYPHS[kind_id("1p")] == "\U0001f019"
    assert KIND_GLYPHS[kind_id("1s")] == "\U0001f010"
    assert KIND_GLYPHS[kind_id("RD")] == "\U0001f004"


@pytest.mark.parametrize("bad", [-1, 34, 100])
def test_kind_out_of_range(bad: int) -> None:
    for f in (kind_name, suit_of, rank_of, is_honour):
        with pytest.raises(ValueError, match=str(bad)):
            f(bad)


def test_kind_rejects_bool_and_float() -> None:
    with pytest.raises(TypeError):
        kind_name(True)
    with pytest.raises(TypeError):
        suit_of(1.0)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", ["0m", "10m", "8z", "m", "e", "5s*", "", "1M"])
def test_kind_id_unknown(bad: str) -> None:
    with pytest.raises(ValueError, match=re.escape(repr(bad))):
        kind_id(bad)


# ------------------------------------------------------------------------------------------------
# Glossary
# ------------------------------------------------------------------------------------------------


def test_glossary_covers_every_kind() -> None:
    covered: set[int] = set()
    for row in GLOSSARY:
        m = re.fullmatch(r"1([mps])-9\1", row.notation)
        if m:
            covered.update(range(9 * SUITS.index(m.group(1)), 9 * SUITS.index(m.group(1)) + 9))
        elif row.notation in HONOUR_NAMES:
            covered.add(kind_id(row.notation))
    assert covered == set(range(N_KINDS))


def test_glossary_has_key_terms() -> None:
    by_hanzi = {row.hanzi: row for row in GLOSSARY}
    expected = {
        "万": "characters",
        "筒": "dots",
        "条": "bamboo",
        "王": "king",
        "钻": "zuan",
        "将": "pair",
        "顺子": "sequence",
        "刻子": "triplet",
        "杠": "kong",
        "吃": "chi",
        "碰": "pong",
        "胡": "win",
        "自摸": "self_draw",
        "听牌": "ready",
        "向听": "shanten",
    }
    for hanzi, ident in expected.items():
        assert by_hanzi[hanzi].identifier == ident
    for row in GLOSSARY:
        assert row.hanzi and row.pinyin and row.identifier.isidentifier()


# ------------------------------------------------------------------------------------------------
# Parsing and formatting: examples
# ------------------------------------------------------------------------------------------------

CANONICAL = [
    "123m 456p 55s",
    "1m",
    "E",
    "E E RD",
    "19m 19p 19s E S W N RD GD WD",
    "1111m 2222p",
    "123m 55s E 5s*",
    "5s*",
    "99s*",
    "E*",
    "11m* 5s*",
    "123m 456p 789s E E 1m* 9p* 5s* E* RD*",
]


@pytest.mark.parametrize("s", CANONICAL)
def test_canonical_strings_round_trip(s: str) -> None:
    assert format_hand(parse_hand(s)) == s
    assert str(parse_hand(s)) == s


@pytest.mark.parametrize(
    ("given", "canonical"),
    [
        ("55s 456p 321m", "123m 456p 55s"),
        ("1z 1z 5z", "E E RD"),
        ("115z", "E E RD"),
        ("5s* E 55s 11m* 321m RD E", "123m 55s E E RD 11m* 5s*"),
        ("1m 2m\t3m\n", "123m"),
        ("E* 1z*", "E* E*"),
    ],
)
def test_non_canonical_input_normalises(given: str, canonical: str) -> None:
    assert format_hand(parse_hand(given)) == canonical


def test_z_style() -> None:
    h = parse_hand("E E RD 567z 1z* 5s* 11m*")
    assert format_hand(h, honours="z") == "115567z 11m* 5s* 1z*"
    assert format_hand(h) == "E E RD RD GD WD 11m* 5s* E*"
    assert parse_hand(format_hand(h, honours="z")) == h
    with pytest.raises(ValueError, match="honours"):
        format_hand(h, honours="kanji")  # type: ignore[arg-type]


def test_parse_hand_counts() -> None:
    h = parse_hand("123m 99s* E*")
    assert h.counts.dtype == np.uint8 and h.counts.shape == (34,)
    assert h.wild_faces.dtype == np.uint8 and h.wild_faces.shape == (34,)
    assert h.counts.tolist() == [1, 1, 1] + [0] * 31
    assert int(h.wild_faces[kind_id("9s")]) == 2
    assert int(h.wild_faces[kind_id("E")]) == 1
    assert h.wilds == 3
    assert h.n_tiles == 6


def test_parse_tiles_keeps_order() -> None:
    assert parse_tiles("321m E 1z 9p") == [2, 1, 0, 27, 27, 17]
    with pytest.raises(ValueError, match="wild"):
        parse_tiles("123m 5s*")


def test_format_tiles() -> None:
    assert format_tiles([0, 1, 2, 9, 27, 27]) == "123m 1p E E"
    assert format_tiles(np.array([2, 1, 0, 31])) == "321m RD"
    assert format_tiles([31, 32], honours="z") == "56z"
    assert format_tiles([0, 9, 1]) == "1m 1p 2m"
    with pytest.raises(ValueError, match="34"):
        format_tiles([0, 34])


# ------------------------------------------------------------------------------------------------
# Parsing and formatting: properties
# ------------------------------------------------------------------------------------------------


@st.composite
def hands(draw: st.DrawFn) -> Hand:
    """Random valid hands: per kind, naturals + wild faces <= 4, at least one tile."""
    physical = draw(st.lists(st.integers(0, 4), min_size=N_KINDS, max_size=N_KINDS))
    if sum(physical) == 0:
        physical[draw(st.integers(0, N_KINDS - 1))] = 1
    wild = [draw(st.integers(0, p)) for p in physical]
    counts = np.array(physical) - np.array(wild)
    return hand_from_counts(counts, np.array(wild))


@given(hands(), st.sampled_from(["letters", "z"]))
def test_round_trip_hand(h: Hand, honours: str) -> None:
    s = format_hand(h, honours=honours)  # type: ignore[arg-type]
    assert parse_hand(s) == h
    # The printed string is canonical: printing the parsed hand gives it back.
    assert format_hand(parse_hand(s), honours=honours) == s  # type: ignore[arg-type]
    # Counts-array input gives the same string as the Hand.
    assert format_hand(h.counts, h.wild_faces, honours=honours) == s  # type: ignore[arg-type]


@given(hands(), st.randoms())
def test_token_order_does_not_matter(h: Hand, rnd) -> None:
    tokens = format_hand(h).split()
    rnd.shuffle(tokens)
    assert parse_hand(" ".join(tokens)) == h


@given(st.lists(st.integers(0, N_KINDS - 1), min_size=1, max_size=40))
def test_round_trip_tiles(kinds: list[int]) -> None:
    # parse_tiles enforces the 4-copy limit; clip the list to a physically possible one.
    seen: dict[int, int] = {}
    kept = []
    for k in kinds:
        if seen.get(k, 0) < 4:
            seen[k] = seen.get(k, 0) + 1
            kept.append(k)
    for honours in ("letters", "z"):
        assert parse_tiles(format_tiles(kept, honours=honours)) == kept  # type: ignore[arg-type]
    assert format_tiles(sorted(kept)) == format_hand(np.bincount(kept, minlength=N_KINDS))


# ------------------------------------------------------------------------------------------------
# Errors name the bad token
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("s", "token", "what"),
    [
        ("123m 123x", "123x", "unknown suit letter 'x'"),
        ("0m", "0m", "rank 0"),
        ("12m 305p", "305p", "rank 0"),
        ("8z", "8z", "honour digit 8"),
        ("E 19z", "19z", "honour digit 9"),
        ("9z*", "9z*", "honour digit 9"),
        ("123m 456", "456", "no suit letter"),
        ("E Red", "Red", "unknown honour"),
        ("e", "e", "unknown honour"),
        ("m", "m", "no ranks"),
        ("5*s", "5*s", "malformed"),
        ("5s**", "5s**", "malformed"),
        ("*", "*", "no tile"),
        ("12ms", "12ms", "malformed"),
        ("1M", "1M", "unknown suit letter"),
    ],
)
def test_bad_token(s: str, token: str, what: str) -> None:
    with pytest.raises(ValueError) as info:
        parse_hand(s)
    msg = str(info.value)
    assert repr(token) in msg
    assert what in msg
    with pytest.raises(ValueError, match=re.escape(repr(token))):
        parse_tiles(s)


@pytest.mark.parametrize(
    ("s", "kind"),
    [("11111m", "1m"), ("5555s 5s*", "5s"), ("E E E 1z* 1z*", "E"), ("99p* 999p*", "9p")],
)
def test_fifth_copy_names_kind(s: str, kind: str) -> None:
    with pytest.raises(ValueError, match=rf"5 copies of {kind}\b"):
        parse_hand(s)


@pytest.mark.parametrize("s", ["", "   ", "\t\n"])
def test_empty(s: str) -> None:
    with pytest.raises(ValueError, match="empty hand"):
        parse_hand(s)
    with pytest.raises(ValueError, match="empty hand"):
        parse_tiles(s)


def test_parse_rejects_non_str() -> None:
    with pytest.raises(TypeError):
        parse_hand(123)  # type: ignore[arg-type]


# ------------------------------------------------------------------------------------------------
# Hand and hand_from_counts
# ------------------------------------------------------------------------------------------------


def test_hand_from_counts_validation() -> None:
    good = np.zeros(34, dtype=np.int64)
    good[0] = 2
    assert str(hand_from_counts(good)) == "11m"
    assert str(hand_from_counts(good.tolist())) == "11m"
    with pytest.raises(ValueError, match=r"shape \(34,\)"):
        hand_from_counts(np.zeros(27, dtype=np.uint8))
    with pytest.raises(ValueError, match="integer dtype"):
        hand_from_counts(good.astype(float))
    with pytest.raises(ValueError, match="integer dtype"):
        hand_from_counts(good.astype(bool))
    bad = good.copy()
    bad[5] = 5
    with pytest.raises(ValueError, match=r"counts\[5\] \(6m\) = 5"):
        hand_from_counts(bad)
    bad[5] = -1
    with pytest.raises(ValueError, match=r"counts\[5\] \(6m\) = -1"):
        hand_from_counts(bad)
    wild = np.zeros(34, dtype=np.uint8)
    wild[0] = 3
    with pytest.raises(ValueError, match="5 copies of 1m"):
        hand_from_counts(good, wild)
    with pytest.raises(ValueError, match=r"wild_faces must have shape"):
        hand_from_counts(good, np.zeros(3, dtype=np.uint8))
    with pytest.raises(ValueError, match="empty hand"):
        hand_from_counts(np.zeros(34, dtype=np.uint8))


def test_hand_is_immutable_value() -> None:
    counts = np.zeros(34, dtype=np.uint8)
    counts[[0, 1, 2]] = 1
    h = hand_from_counts(counts)
    counts[0] = 4  # the hand holds its own copy
    assert str(h) == "123m"
    assert not h.counts.flags.writeable and not h.wild_faces.flags.writeable
    with pytest.raises(ValueError):
        h.counts[0] = 2
    with pytest.raises(AttributeError):
        h.counts = counts  # type: ignore[misc]
    same = parse_hand("321m")
    assert h == same and hash(h) == hash(same)
    assert h != parse_hand("123m 1m*")
    assert len({h, same, parse_hand("123m 1m*")}) == 2
    assert h != "123m"
    assert repr(h) == "Hand('123m')"


def test_format_hand_argument_checks() -> None:
    h = parse_hand("123m 5s*")
    with pytest.raises(ValueError, match="wilds must be None"):
        format_hand(h, h.wild_faces)
    assert format_hand(h.counts, 0) == "123m"
    with pytest.raises(ValueError, match="wild count"):
        format_hand(h.counts, 2)


def test_repr_html() -> None:
    h = parse_hand("123m E 5s*")
    out = h._repr_html_()
    for name in ("1m", "2m", "3m", "E", "5s"):
        assert KIND_GLYPHS[kind_id(name)] in out
    assert "<code>123m E 5s*</code>" in out
    assert out.count("background:") == 1  # only the wild tile is highlighted
