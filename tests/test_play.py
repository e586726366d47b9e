"""sim.play: any registered variant, by name or by a config, played from Python into frames."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sim.play import first_dealers, play, variant_of
from sim.running.config import load_config
from sim.variants import VARIANT_NAMES, get_variant

ROOT = __import__("pathlib").Path(__file__).resolve().parents[1]


@pytest.mark.engine
@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_play_by_name_gives_the_variants_frames(name):
    variant = get_variant(name)
    games, wins = play(name, 24, seed=5, hands_per_session=4)
    assert games["game"].tolist() == list(range(24))
    assert games["hand"].tolist() == [i % 4 for i in range(24)]
    n_players = variant.player_count(variant.options_class())
    deltas = games[[f"delta_{seat}" for seat in range(n_players)]]
    assert (deltas.sum(axis=1) == 0).all()
    assert len(wins) == games["n_winners"].sum()
    again = play(name, 24, seed=5, hands_per_session=4)
    pd.testing.assert_frame_equal(games, again[0])
    pd.testing.assert_frame_equal(wins, again[1])


@pytest.mark.engine
def test_options_as_a_mapping_object_or_config():
    config = load_config(ROOT / "configs" / "anhua-three-players.toml", ["run.games=30"])
    by_config = play(config, seed=1)
    assert len(by_config[0]) == 30 and "delta_2" in by_config[0] and "delta_3" not in by_config[0]
    by_mapping = play(
        config.variant,
        30,
        seed=1,
        options=config.resolved()["options"],
        hands_per_session=config.hands_per_session,
        agents=config.agents,
    )
    by_object = play(config.variant, 30, 1, config.options, config.hands_per_session)
    for frames in (by_mapping, by_object):
        for mine, theirs in zip(frames, by_config, strict=True):
            pd.testing.assert_frame_equal(mine, theirs)


def test_bad_arguments_are_one_line_errors():
    name = VARIANT_NAMES[0]
    with pytest.raises(ValueError, match="variant: unknown variant 'nowhere'"):
        play("nowhere", 4)
    with pytest.raises(ValueError, match="n_hands must be at least 1, not 0"):
        play(name, 0)
    with pytest.raises(ValueError, match="hands_per_session must be at least 1"):
        play(name, 4, hands_per_session=0)
    with pytest.raises(ValueError, match="agents: 1 names for"):
        play(name, 4, agents=("efficiency",))
    with pytest.raises(ValueError, match="options: list are not"):
        play(name, 4, options=[("player_count", 3)])
    with pytest.raises(ValueError, match="no_such_option"):
        play(name, 4, options={"no_such_option": 1})
    with pytest.raises(ValueError, match="no registered variant's options"):
        variant_of(object())


def test_first_dealers_follow_the_variants_rule_for_the_options():
    variant = get_variant(VARIANT_NAMES[0])
    options = variant.options_class()
    dealers = first_dealers(20, 8, options, seed=3)
    assert len(dealers) == 3
    expected = variant.first_dealers(3, options, np.random.SeedSequence(3, spawn_key=(1,)))
    np.testing.assert_array_equal(dealers, expected)
