"""The status columns are declared once (``sim.kernels.status``): the slot constants the
kernels use are the declared slots, every slot is used once and fits, the variant's entry and
replay words name the same declarations, docs/engine.md lists them all, and a bad declaration
fails at once with a one-line error."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sim.kernels import state as S
from sim.kernels.status import (
    FIRST_VARIANT_SLOT,
    N_STATUS,
    SHOWN_AS,
    StatusColumn,
    laid_out,
    status_slots,
)
from sim.variants import VARIANT_NAMES, get_variant
from sim.variants.anhua import hooks as anhua_hooks
from sim.variants.anhua import replay as anhua_replay

ROOT = Path(__file__).resolve().parents[2]


def _constants(module, names: list[str]) -> list[int]:
    return [getattr(module, name) for name in names]


def test_the_engine_constants_are_the_declared_slots():
    seat = ["ST_ACTED", "ST_CLAIMED", "ST_LOCKED", "ST_OWN_TURN_EXTRA"]
    assert [c.name for c in S.ENGINE_SEAT_STATUS] == [
        "acted",
        "claimed",
        "locked",
        "own_turn_extra",
    ]
    assert _constants(S, seat) == [0, 1, 2, 3]
    assert [c.name for c in S.ENGINE_HAND_STATUS] == ["steer_forms", "stand_in", "stand_in_face"]
    assert (S.HAND_STEER_FORMS, S.HAND_STAND_IN, S.HAND_STAND_IN_FACE) == (0, 1, 2)
    assert S.HAND_ROW == S.MAX_SEATS  # the row after the seats'
    assert S.N_STATUS == N_STATUS == S.new_state().status.shape[1]
    assert S.FIRST_VARIANT_SLOT == FIRST_VARIANT_SLOT
    assert all(type(slot) is int for slot in _constants(S, [*seat, "HAND_STEER_FORMS"]))


def test_anhuas_constants_are_its_declared_slots():
    seat = ["ST_DEALT_X", "ST_DEALT_Y", "ST_PASSED_WINS"]
    hand = ["HAND_X_KIND", "HAND_Y_KIND"]
    assert _constants(anhua_hooks, seat) == [4, 5, 6]
    assert _constants(anhua_hooks, hand) == [4, 5]
    assert [c.name for c in anhua_hooks.SEAT_STATUS] == [
        "dealt_x_kings",
        "dealt_y_kings",
        "passed_wins",
    ]
    assert [c.name for c in anhua_hooks.HAND_STATUS] == ["king_x", "king_y"]


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_every_slot_of_a_variant_is_declared_once_and_fits(name):
    variant = get_variant(name)
    for row, engine, own in (
        ("seat", S.ENGINE_SEAT_STATUS, variant.seat_status),
        ("hand", S.ENGINE_HAND_STATUS, variant.hand_status),
    ):
        columns = laid_out(engine, own, row)
        slots = [slot for slot, _ in columns]
        names = [column.name for _, column in columns]
        assert len(set(slots)) == len(slots) and len(set(names)) == len(names)
        assert all(0 <= slot < N_STATUS for slot in slots)
        assert all(slot >= FIRST_VARIANT_SLOT for slot, c in columns if c in own)
        assert all(c.row == row and c.shown_as in SHOWN_AS and c.meaning for _, c in columns)


def test_the_variant_entry_and_its_replay_words_name_the_same_declarations():
    variant = get_variant("anhua")
    assert variant.seat_status is anhua_hooks.SEAT_STATUS is anhua_replay.WORDS.seat_status
    assert variant.hand_status is anhua_hooks.HAND_STATUS is anhua_replay.WORDS.hand_status


def test_the_toy_variant_declares_its_column():
    from toy_variant import hooks as toy_hooks

    assert toy_hooks.ST_EVENTS == FIRST_VARIANT_SLOT
    assert [c.name for c in toy_hooks.SEAT_STATUS] == ["events"]


def _declared_rows() -> dict[tuple[str, str], tuple[str, int, str, str]]:
    """(owner, name) -> (row, slot, shown as, meaning) of every declared status column: the
    engine's and each variant's."""
    owners = [("engine", S.ENGINE_SEAT_STATUS, S.ENGINE_HAND_STATUS, 0)]
    for name in VARIANT_NAMES:
        variant = get_variant(name)
        owners.append((name, variant.seat_status, variant.hand_status, FIRST_VARIANT_SLOT))
    declared = {}
    for owner, seat, hand, first in owners:
        for columns in (seat, hand):
            for slot, column in zip(status_slots(columns, first=first), columns, strict=True):
                declared[(owner, column.name)] = (column.row, slot, column.shown_as, column.meaning)
    return declared


def test_the_docs_list_every_status_column_as_declared():
    text = (ROOT / "docs" / "engine.md").read_text(encoding="utf-8")
    pattern = r"^\| (\w+) \| `(\w+)` \| (seat|hand) \| (\d+) \| (\w+) \| (.+) \|$"
    documented = {
        (owner, name): (row, int(slot), shown, meaning)
        for owner, name, row, slot, shown, meaning in re.findall(pattern, text, re.M)
    }
    assert documented == _declared_rows()


def test_bad_declarations_fail_with_one_line():
    flag = StatusColumn("ready", "1 once declared ready", "flag")
    with pytest.raises(ValueError, match="shown_as 'bits'; allowed"):
        StatusColumn("ready", "1 once declared ready", "bits")
    with pytest.raises(ValueError, match="row 'table'; allowed"):
        StatusColumn("ready", "1 once declared ready", "flag", row="table")
    with pytest.raises(ValueError, match="lower case words"):
        StatusColumn("Ready Flag", "1 once declared ready", "flag")
    too_many = tuple(
        StatusColumn(f"column_{n}", "a count", "count")
        for n in range(N_STATUS - FIRST_VARIANT_SLOT + 1)
    )
    assert len(status_slots(too_many[:-1])) == N_STATUS - FIRST_VARIANT_SLOT  # the most that fit
    with pytest.raises(ValueError, match=f"do not fit below {N_STATUS}; at most 12"):
        status_slots(too_many)
    with pytest.raises(ValueError, match="do not fit below 4"):
        status_slots((*S.ENGINE_SEAT_STATUS, flag), first=0, end=FIRST_VARIANT_SLOT)
    with pytest.raises(ValueError, match=r"declared twice: \['ready'\]"):
        status_slots((flag, flag))
    hand = StatusColumn("dealer_kind", "a tile", "tile", row="hand")
    with pytest.raises(ValueError, match="one row per declaration"):
        status_slots((flag, hand))
    with pytest.raises(ValueError, match="status column dealer_kind: row 'hand', not 'seat'"):
        laid_out(S.ENGINE_SEAT_STATUS, (hand,), "seat")
    with pytest.raises(ValueError) as raised:
        status_slots(too_many)
    assert "\n" not in str(raised.value)


def test_a_variant_entry_with_a_column_in_the_wrong_row_fails():
    import dataclasses

    variant = get_variant("anhua")
    with pytest.raises(ValueError, match="row 'seat', not 'hand'"):
        dataclasses.replace(variant, hand_status=variant.seat_status)
