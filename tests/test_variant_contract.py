"""The contract every registered variant (``sim.variants.VARIANT_NAMES``) keeps, whatever its rules:

(a) its rule checks (``sim/variants/<name>/checks.py``: the generic tile ledger and the variant's
    own checks, ``check_games``) pass every hand played over a grid of its options: each declared
    option at each of its values (the others at their defaults), and (slow) the variant's own
    ``INVARIANT_GRID`` at 1,000 hands a cell (the variant's own grid test plays 10,000);
(b) a run gives byte-identical games and wins tables with one worker or two;
(c) ``mjsim replay RUN --game N`` plays a stored hand again to the stored row (the replay checks
    its record against the row itself), as text and as JSON;
(d) every declared option (``sim.variants.options``, the ``options_class`` of its registry entry)
    rejects a value of the wrong type and one out of its range, through ``--set``: a one-line error
    naming the option, exit status 2, nothing written.

Docs: docs/engine.md ("Ledger", "Adding a variant").
"""

from __future__ import annotations

import importlib
import json
import multiprocessing

import pandas as pd
import pytest

from sim.cli import main
from sim.core.wall import shuffled_walls
from sim.kernels.record import R_N_WINNERS
from sim.running import runner
from sim.running.agents import agent_ids
from sim.running.config import build_config
from sim.variants import VARIANT_NAMES, get_variant

MIXED = ("random", "efficiency", "self_draw", "random")  # passes, kings thrown, self-draws
HANDS_PER_CELL = 300
HANDS_PER_SESSION = 8


def _checks(name: str):
    return importlib.import_module(f"sim.variants.{name}.checks")


def _agents(n_players: int, names=MIXED) -> tuple[str, ...]:
    return tuple(names[:n_players])


# --------------------------------------------------------------------------------------------
# (a) the rule checks over a grid of options


def _candidate_values(option) -> list:
    """Each value an option may take: a flag's two, a choice's literals, an integer's bounds and
    its default's neighbours, a list's default."""
    if option.kind == "flag":
        return [False, True]
    if option.kind == "choice":
        return list(option.allowed)
    if option.kind == "integer":
        values = [option.default - 1, option.default + 1, option.minimum, option.maximum]
        return [value for value in values if value is not None]
    return [option.default]


def _option_cells(name: str) -> list[dict]:
    """One cell per value of each declared option that the options class accepts, the others at
    their defaults (each value once: the defaults' cell is the first)."""
    options_class = get_variant(name).options_class
    cells = [{}]
    for option in options_class.DECLARATIONS:
        for value in _candidate_values(option):
            if value == option.default and type(value) is type(option.default):
                continue
            try:
                options_class(**{option.name: value})
            except ValueError:
                continue  # outside what the declaration or a rule between options allows
            if {option.name: value} not in cells:
                cells.append({option.name: value})
    return cells


def _cell_id(cell: dict) -> str:
    return "-".join(f"{key}={value}" for key, value in cell.items()) or "defaults"


def _check_cell(name: str, overrides: dict, n_games: int, seed: int, agent_names=MIXED):
    """Play ``n_games`` hands of the variant with ``overrides`` through its checks: (hands that
    failed, hands won, the first failure in words)."""
    variant = get_variant(name)
    options = variant.options_class(**overrides)
    n_players = variant.player_count(options)
    walls = shuffled_walls(n_games, variant.n_tiles, seed)
    n_sessions = -(-n_games // HANDS_PER_SESSION)
    first_dealers = variant.first_dealers(n_sessions, options, seed)
    agents = agent_ids(_agents(n_players, agent_names))
    checked = _checks(name).check_games(
        options, walls, first_dealers, HANDS_PER_SESSION, agents, seed
    )
    failed = int((checked.errors[:, 0] != 0).sum())
    won = int((checked.records[:, R_N_WINNERS] > 0).sum())
    return failed, won, checked.first_failure()


CELLS = [
    pytest.param(name, cell, 900 + index, id=f"{name}-{_cell_id(cell)}")
    for name in VARIANT_NAMES
    for index, cell in enumerate(_option_cells(name))
]


@pytest.mark.engine
@pytest.mark.parametrize(("name", "overrides", "seed"), CELLS)
def test_checks_pass_every_hand_of_each_option_value(name, overrides, seed):
    """(a) Each value of each declared option: the checks pass every hand (random agents in
    two seats pass wins and throw anything), and the hands were played (many are won)."""
    failed, won, first = _check_cell(name, overrides, HANDS_PER_CELL, seed)
    assert failed == 0, first
    # a fifth: two players, one of them random, win about a quarter of Weng'an's hands (its
    # 平胡 needs a 通行证 on a discard)
    assert won > HANDS_PER_CELL // 5


def test_every_declared_option_is_in_the_grid():
    """The grid above covers every option a variant declares with a value besides its default
    (an option that could not change would need no declaration)."""
    for name in VARIANT_NAMES:
        varied = {key for cell in _option_cells(name) for key in cell}
        declared = {option.name for option in get_variant(name).options_class.DECLARATIONS}
        declarations = get_variant(name).options_class.DECLARATIONS
        lists = {option.name for option in declarations if option.kind == "int_list"}
        # an integer allowing one value (Anqing's four players) is declared for the generic
        # layer, which reads it, and cannot vary
        fixed = {
            option.name
            for option in declarations
            if option.kind == "integer" and option.minimum == option.maximum is not None
        }
        assert varied == declared - lists - fixed, name


@pytest.mark.slow
@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_checks_pass_1000_hands_a_cell_of_the_invariant_grid(name):
    """(a), slow: the variant's own ``INVARIANT_GRID`` (Anhua: 96 cells), 1,000 hands
    a cell with the default agents, every hand passing the checks, on other seeds than the
    variant's own grid test, which plays 10,000 hands a cell (``tests/variants/test_*_grid.py``;
    Anhua's also re-scores every win). So this one stays a contract check at a tenth of the
    size, and the full suite within 15 minutes on 2 cores."""
    grid = _checks(name).INVARIANT_GRID
    n_games = 1_000
    jobs = [
        (name, cell, n_games, 500_000 + index, ("efficiency",) * 4)
        for index, cell in enumerate(grid)
    ]
    # forked workers inherit this module: a pool that imports it by name would need the
    # repository root on its path
    with multiprocessing.get_context("fork").Pool(2) as pool:
        results = pool.starmap(_check_cell, jobs)
    failures = [
        f"{cell}: {first}" for cell, (failed, _, first) in zip(grid, results, strict=True) if failed
    ]
    assert not failures, "\n".join(failures[:5])
    assert all(won > n_games // 2 for _, won, _ in results)


# --------------------------------------------------------------------------------------------
# (b) determinism for any number of jobs, (c) replays of the stored rows


def _config(name: str):
    variant = get_variant(name)
    n_players = variant.player_count(variant.options_class())
    return build_config(
        {
            "variant": name,
            "label": f"contract-{name}",
            "run": {
                "games": 120,
                "seed": 13,
                "chunk_hands": 40,
                "hands_per_session": 4,
                "agents": list(_agents(n_players)),
            },
        }
    )


@pytest.fixture(scope="module", params=VARIANT_NAMES)
def runs(request, tmp_path_factory):
    """The same run with one worker and with two."""
    config = _config(request.param)
    base = tmp_path_factory.mktemp(f"contract-{request.param}")
    return config, {jobs: runner.run(config, base / f"jobs{jobs}", jobs=jobs) for jobs in (1, 2)}


@pytest.mark.engine
def test_tables_are_byte_identical_for_one_or_two_jobs(runs):
    """(b) Same seed, same results: three chunks played by one worker or shared by two."""
    _, paths = runs
    for table in (runner.GAMES, runner.WINS):
        assert (paths[1] / table).read_bytes() == (paths[2] / table).read_bytes(), table


@pytest.mark.engine
@pytest.mark.parametrize("game", [0, 57, 119])
def test_replay_reproduces_the_stored_row(runs, game, capsys):
    """(c) ``mjsim replay`` plays hand ``game`` again (hands of each chunk, random agents
    included): as text its last line is the stored score changes; as JSON its result is the
    stored row (outcome, win kind, payer, turns, tiles left, next dealer, score changes) and its
    winners are the wins table's."""
    config, paths = runs
    run_dir = str(paths[2])
    row = pd.read_parquet(paths[2] / runner.GAMES).iloc[game]
    winners = pd.read_parquet(paths[2] / runner.WINS).query("game == @game")["seat"].tolist()
    n_players = config.n_players
    deltas = [int(row[f"delta_{seat}"]) for seat in range(n_players)]

    assert main(["replay", run_dir, "--game", str(game)]) == 0
    text = capsys.readouterr().out.splitlines()
    assert text[-1] == "result: " + ", ".join(f"seat {s} {d:+d}" for s, d in enumerate(deltas))

    assert main(["replay", run_dir, "--game", str(game), "--format", "json"]) == 0
    objects = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    header, result = objects[0], objects[-1]
    assert header["event"] == "hand" and header["game"] == game
    assert header["dealer"] == row["dealer"]
    assert result["event"] == "result" and result["outcome"] == row["outcome"]
    if row["outcome"] == "win":
        assert result["win_kind"] == row["win_kind"]
    assert (result["payer"] if result["payer"] is not None else -1) == row["payer"]
    for key in ("turns", "next_dealer"):
        assert result[key] == row[key], key
    # the games table counts the wall after the flips that follow a win (birds, chicken flips)
    assert result["tiles_left_after_flips"] == row["tiles_left"]
    assert result["tiles_left_at_end_of_play"] >= result["tiles_left_after_flips"]
    assert result["winners"] == winners and len(winners) == row["n_winners"]
    assert result["score_changes"] == deltas


# --------------------------------------------------------------------------------------------
# (d) option validation through --set


def _bad_values(option) -> dict[str, object]:
    """A value of the wrong type and one out of range for ``option`` (TOML text for ``--set``);
    a flag has no range, so a word stands for it."""
    if option.kind == "flag":
        return {"wrong type": "1", "out of range": '"maybe"'}
    if option.kind == "choice":
        if isinstance(option.allowed[0], str):
            return {"wrong type": "7", "out of range": '"no_such_value"'}
        return {"wrong type": '"x"', "out of range": str(max(option.allowed) + 1)}
    if option.kind == "integer":
        bad = {"wrong type": '"x"'}
        if option.minimum is not None:
            bad["out of range"] = str(option.minimum - 1)
        elif option.maximum is not None:
            bad["out of range"] = str(option.maximum + 1)
        return bad
    low = option.minimum - 1 if option.minimum is not None else None
    high = option.maximum + 1 if option.maximum is not None else None
    item = low if low is not None else high
    values = [item] * option.length if item is not None else [0] * (option.length + 1)
    return {"wrong type": "5", "out of range": json.dumps(values)}


BAD_VALUES = [
    (name, option.name, case, text)
    for name in VARIANT_NAMES
    for option in get_variant(name).options_class.DECLARATIONS
    for case, text in _bad_values(option).items()
]


@pytest.mark.parametrize(
    ("name", "key", "case", "text"),
    BAD_VALUES,
    ids=[f"{n}-{k}-{c.replace(' ', '_')}" for n, k, c, _ in BAD_VALUES],
)
def test_a_bad_option_value_is_a_one_line_error(name, key, case, text, tmp_path, capsys):
    """(d) ``mjsim run CONFIG --set KEY=VALUE`` with a value of the wrong type or out of range:
    exit status 2, one line on standard error naming the option, nothing on standard output and
    no run directory."""
    config = tmp_path / "config.toml"
    config.write_text(f'variant = "{name}"\nlabel = "contract"\n', encoding="utf-8")
    out = tmp_path / "out"
    argv = ["run", str(config), "--set", f"{key}={text}", "--out", str(out), "--quiet"]
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and key in captured.err, captured.err
    assert not out.exists()


def test_every_option_has_both_bad_values():
    """Each declared option is tried with both kinds of bad value (an integer option declares a
    bound, or its range could not be tested)."""
    tried = {(name, key, case) for name, key, case, _ in BAD_VALUES}
    for name in VARIANT_NAMES:
        for option in get_variant(name).options_class.DECLARATIONS:
            for case in ("wrong type", "out of range"):
                assert (name, option.name, case) in tried
