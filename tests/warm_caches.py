"""Compile a variant's engine, replay and rule checks into numba's disk cache, once, and the
kernels the tests call on their own (the engine's single steps, scorers, batch evaluators).

    python tests/warm_caches.py NAME        NAME: a registered variant, ``tests`` or ``agents``

``conftest.py`` runs this first for ``agents`` (the generic agents' questions every engine
asks), then for every registered variant and for ``tests`` (the generic kernels and the toy
variant), one process each and side by side, before pytest-xdist starts its workers. Without
it, on a cold cache (a clean clone, or after an edit to the kernels) every worker compiles
every engine it meets itself: two workers compiling the same variant at the same moment, each
variant after the other. With it each engine is compiled once, the variants in parallel, and
the workers load the machine code from disk. With a warm cache a run takes the few seconds of
loading it.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

from sim.core.wall import shuffled_walls
from sim.running.agents import agent_ids
from sim.variants import get_variant

HANDS = 8

TESTS = Path(__file__).resolve().parent
COLD_SECONDS = 20
"""A warm-up that took longer compiled (the cache was cold): the step tests below then run."""
STEP_TESTS = {
    "anhua": [
        "variants/test_anhua_kong.py",
        "variants/test_anhua_examples.py",
        "variants/test_anhua_options.py::test_instant_win_window_until_first_claim_allows_later_"
        "declarations",
        "kernels/test_engine.py::test_claim_winners_honours_a_limit_of_none",
        "kernels/test_engine.py::test_missed_win_blocks_that_kind_until_the_next_draw",
        "kernels/test_exact.py::test_anhua_legal_batch_agrees_with_the_scorer",
        "kernels/test_variants.py::test_every_win_the_hook_accepts_passes_the_pre_check",
        "kernels/test_engine.py::test_a_passed_kind_cannot_be_won_on_until_a_draw",
        "kernels/test_claim_shape.py::test_every_listed_claim_is_seen_by_the_precheck",
        "variants/test_anhua_frames.py::test_bird_hits_count_the_birds_the_kernel_lands_on_the_"
        "winner_or_payer",
    ],
    "wengan": [
        "variants/test_wengan_option_outcomes.py::test_wa2_under_the_flip_options",
        "variants/test_wengan_engine.py::test_wa1a_ping_hu_without_passport_may_not_win_a_"
        "discard_and_locks_nothing",
        "variants/test_wengan_engine.py::test_wa1b_men_dou_is_the_passport",
        "variants/test_wengan_engine.py::test_wa6_cha_jiao",
        "variants/test_wengan_engine.py::test_plans_offered_at_the_deal_under_ding_que",
        "variants/test_wengan_scoring.py::test_waits_of_ready_hands",
        "variants/test_wengan_scoring.py::test_heavenly_win_scores_its_best_winning_tile",
        "variants/test_wengan_scoring.py::test_pattern_of_random_complete_hands",
        "variants/test_wengan_scoring.py::test_passport_agrees_with_the_reference",
        "variants/test_wengan_scoring.py::test_flip_hits_agree_with_the_reference",
        "variants/test_wengan_scoring.py::test_chicken_value_agrees_with_the_reference",
        "variants/test_wengan_engine.py::test_wa4_bao_requires_ready",
    ],
    "anqing": [
        "variants/test_anqing_engine.py::test_aq1_pi_hu_with_a_chi_and_a_wind_triplet",
        "variants/test_anqing_engine.py::test_aq2b_and_aq6_a_drawn_zuan_for_another_tile_then_"
        "zhi_jiao",
        "variants/test_anqing_stand_in_chi.py::test_a_chi_holding_a_red_scores_as_the_face_aq1",
        "variants/test_anqing_scoring.py::test_the_kernels_score_every_hand_as_the_reference",
        "variants/test_anqing_scoring.py::test_the_kernels_pay_as_the_reference",
        "variants/test_anqing_engine.py::test_aq9_lian_zhuang_and_its_carry",
        "variants/test_anqing_engine.py::test_no_win_on_a_discard_and_no_claim_of_a_zuan_or_gang_"
        "tile",
    ],
    "tests": [
        "kernels/test_loop_features.py::test_history_lists_every_discard_and_who_claimed_it",
        "test_hand.py::test_batch_functions_equal_single_hand_functions",
        "test_hand.py::test_decompositions_report_what_wilds_stand_for",
        "test_hand.py::test_no_wait_on_a_fifth_copy",
        "kernels/test_state.py",
        "kernels/test_agents.py::test_discard_reaches_the_least_shanten",
        "kernels/test_agents.py::test_shanten_many_equals_the_batch_kernel",
        "kernels/test_claim_shape.py::test_a_chi_shape_is_seen_at_every_rank_and_a_lone_"
        "neighbour_is_not",
        "test_dealt.py::test_docstring_examples",
        "kernels/test_exact.py::test_count_kinds",
        "kernels/test_exact.py::test_draw_prefixes_picks_by_the_uniforms",
        "kernels/test_exact.py::test_convolve_forms_adds_sets_and_places_the_pair_once",
        "kernels/test_exact.py::test_convolve_spread_sizes_takes_every_size_that_fits",
    ],
}
"""Per warm-up process, tests whose kernels the workers would otherwise each compile on their
first call: numba compiles an entry point for the argument types it meets, so a test that makes
the call is the surest way to compile it with the types the tests use. They run here once, with
few hypothesis examples, and again in the workers, where their kernels load from the cache."""


def _table(name: str) -> tuple:
    """Variant ``name``, its default options, ``HANDS`` walls and the first dealer: the hands
    ``warm`` plays and ``warm_checks`` checks."""
    variant = get_variant(name)
    options = variant.options_class()
    walls = shuffled_walls(HANDS, variant.n_tiles, 0)
    return variant, options, walls, variant.first_dealers(1, options, 0)


def warm(name: str) -> None:
    """Play and replay a few hands of variant ``name`` under its default options, with the
    random agent in every seat (so that the random agent's kernels compile too); and with a
    value agent in one seat: the engine compiled with the valued agents
    (``sim.variants.session.plays_plain``), which the rule checks and the tests calling the
    entry points directly play too."""
    variant, options, walls, dealers = _table(name)
    players = variant.player_count(options)
    agents = agent_ids(("random",) * players)
    valued = agent_ids(("value",) + ("random",) * (players - 1))
    for seated in (agents, valued):
        variant.play(options, walls, dealers, HANDS, seated, 0)
        variant.replay(options, walls, dealers, HANDS, seated, 0, 1)


def warm_checks(name: str) -> None:
    """Check a few hands of variant ``name`` as ``warm`` plays them (the rule checks' kernels,
    which may call the engine's kernels with other types: Anhua's checks score int64 counts)."""
    variant, options, walls, dealers = _table(name)
    agents = agent_ids(("random",) * variant.player_count(options))
    checks = importlib.import_module(f"sim.variants.{name}.checks")
    checked = checks.check_games(options, walls, dealers, HANDS, agents, 0)
    assert np.all(checked.errors[:, 0] == 0), f"{name}: a warm-up hand fails its checks"


def warm_step_tests(name: str) -> int:
    """Run ``STEP_TESTS[name]`` in this process (one at a time, output kept for a failure);
    pytest's exit status."""
    import pytest

    os.environ["MJSIM_HYPOTHESIS_PROFILE"] = "quick"
    os.environ["MJSIM_SKIP_WARM_UP"] = "1"
    tests = [str(TESTS / test) for test in STEP_TESTS[name]]
    options = ["-q", "-p", "no:cacheprovider", "-p", "no:xdist", "-o", "addopts="]
    return pytest.main([*options, "--import-mode=importlib", "-m", "not slow", *tests])


def warm_toy() -> None:
    """Compile the toy variant's engine (``tests/toy_variant``) by playing a few hands."""
    sys.path.insert(0, str(TESTS))
    from toy_variant import engine as toy

    from sim.core.tables import load_tables
    from sim.kernels import engine, state
    from sim.kernels.agents import AGENT_RANDOM, seed_agents

    seed_agents(0)
    records = np.zeros((HANDS, engine.N_RECORD), np.int64)
    walls = shuffled_walls(HANDS, 136, 0)
    first_dealers = np.zeros(1, np.int64)
    toy.play_hands(
        state.new_state(agents=(AGENT_RANDOM,) * 4), walls, 4, first_dealers, HANDS,
        np.zeros(1, np.int64), load_tables(), records,
    )  # fmt: skip


def warm_agents() -> None:
    """Compile the generic agents' questions every engine asks (``sim.running.compile_ahead``'s
    ``agent_kernels``: the discard and claim questions, with the same argument types in every
    variant) into the generic cache folder, before the variants' warm-ups start: each variant's
    process would otherwise compile them too, all at the same moment, about a minute of CPU
    each. A helper process (``sim.running.compile_ahead.helping``) compiles the discard search, the
    value agent's discard and the claim question while this one compiles the rest of the
    discard question, so both cores work."""
    from sim.core.tables import load_tables
    from sim.kernels import agents
    from sim.kernels import state as game_state
    from sim.running.compile_ahead import AheadKernel, Samples, agent_kernels, helping

    def samples(plain: bool = False) -> Samples:
        return Samples(
            game_state.new_state(), np.zeros(1), load_tables(), np.zeros(1, np.int64), plain
        )

    helped = (
        # _efficiency_search(hand, keys, wilds, wild, visible, n_kinds, forms, allowed,
        #                    tables, rows, info, vectors)
        AheadKernel(
            agents._efficiency_search,
            lambda s: (
                s.hand, s.keys, s.integer, s.state.wild, s.state.visible, s.integer,
                s.integer, s.kinds_mask, s.tables, *s.discard_space,
            ),
        ),
        # valued_discard(hand, keys, wilds, wild, visible, n_kinds, forms, hints, allowed,
        #                params, tables)
        AheadKernel(
            agents.valued_discard,
            lambda s: (
                s.hand, s.keys, s.integer, s.state.wild, s.state.visible, s.integer,
                s.integer, s.integer, s.kinds_mask, s.agent_params, s.tables,
            ),
        ),
        *agent_kernels()[1:],  # the claim question
    )  # fmt: skip
    discard = agent_kernels()[0]
    with helping(discard.kernel, helped, samples):
        discard.kernel.compile(discard.signature(samples()))
    for ahead in agent_kernels()[1:]:  # compiled by the helper: loaded from the cache here
        ahead.kernel.compile(ahead.signature(samples()))
    # and as a table with no valued agent asks them (sim.variants.session.plays_plain): their
    # searches left out, a shorter compile of the parts above
    for ahead in agent_kernels():
        ahead.kernel.compile(ahead.signature(samples(plain=True)))


REPORTS = "MJSIM_WARM_REPORTS"
"""Environment variable: a folder where a cold warm-up of a variant writes ``NAME.json``, the
kernels this process compiled and those its ``compile_ahead`` lists (``compile_ahead_probe``'s
report): ``test_compile_ahead`` reads it instead of compiling every engine cold again."""


def warm_and_report(name: str) -> bool:
    """``warm(name)``, then ``warm_checks(name)``; True when it compiled (the cache was cold).
    Then, when ``REPORTS`` names a folder and the variant's own kernels were compiled here (its
    engine's cold compile, not a load from the cache), which kernels this process compiled for
    the engines (``warm``) is written there."""
    from compile_ahead_probe import compiled_here, listed_kernels

    started = time.perf_counter()
    compiled = compiled_here(lambda: warm(name))  # the engines' compiles, reported
    warm_checks(name)
    cold = time.perf_counter() - started > COLD_SECONDS
    folder = os.environ.get(REPORTS)
    engine_compiled = f"sim.variants.{name}.engine.play_hands" in compiled
    if engine_compiled and folder:
        report = {"compiled": compiled, "listed": listed_kernels(name)}
        (Path(folder) / f"{name}.json").write_text(json.dumps(report))
    return cold


if __name__ == "__main__":
    if sys.argv[1] == "agents":
        warm_agents()
        sys.exit(0)
    if sys.argv[1] == "tests":
        started = time.perf_counter()
        warm_toy()
        cold = time.perf_counter() - started > COLD_SECONDS
    else:
        cold = warm_and_report(sys.argv[1])
    if cold:
        sys.exit(warm_step_tests(sys.argv[1]))
