"""sim.running.run_checks: a run folder is checked before it is believed. Every damaged folder
(a manifest edited, of the wrong shape or another run's; a table swapped, truncated, missing a
column or rows, or of other types) is refused by every reader, ``load_run``, ``open_run``,
``load_sweep``, ``mjsim report`` and ``mjsim replay``, with one line naming the file (exit 2 in
the CLI), and nothing is written; a folder damaged at random is refused or, where the damage is
harmless, loads the same figures. The tests that play a run are marked ``engine``."""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest
from cli_in_process import mjsim
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim import analysis
from sim.running import run_checks, runner
from sim.running.config import load_config

ROOT = Path(__file__).resolve().parent.parent
FILES = (runner.MANIFEST, runner.GAMES, runner.WINS)


@pytest.fixture(scope="module")
def original(tmp_path_factory) -> Path:
    """300 hands in 4 chunks (96 hands each, the last 12)."""
    config = load_config(
        ROOT / "configs" / "anhua-seven-kings.toml",
        ["run.games=300", "run.seed=5", "run.chunk_hands=96"],
    )
    return runner.run(config, tmp_path_factory.mktemp("original") / "run", progress=False)


@pytest.fixture(scope="module")
def other_variant(tmp_path_factory) -> Path:
    """300 hands of another variant."""
    config = load_config(ROOT / "configs" / "wengan-4p.toml", ["run.games=300", "run.seed=5"])
    return runner.run(config, tmp_path_factory.mktemp("other") / "run", progress=False)


@pytest.fixture(scope="module")
def loaded(original):
    return analysis.load_run(original)


def _copy(source: Path, target: Path) -> Path:
    shutil.copytree(source, target)
    return target


def _manifest(folder: Path) -> dict:
    return json.loads((folder / runner.MANIFEST).read_text(encoding="utf-8"))


def _write_manifest(folder: Path, document) -> None:
    (folder / runner.MANIFEST).write_text(json.dumps(document, indent=2), encoding="utf-8")


def _rewrite(folder: Path, name: str, change) -> None:
    file = folder / name
    pq.write_table(change(pq.read_table(file)), file)


def _edit(**changes):
    def edit(folder: Path, other: Path) -> None:
        manifest = _manifest(folder)
        for path, value in changes.items():
            *parents, key = path.split("__")
            place = manifest
            for parent in parents:
                place = place[parent]
            place[key] = value
        _write_manifest(folder, manifest)

    return edit


def _swap(folder: Path, other: Path) -> None:
    games, wins = folder / runner.GAMES, folder / runner.WINS
    games.rename(folder / "x")
    wins.rename(games)
    (folder / "x").rename(wins)


def _drop_delta(folder: Path, other: Path) -> None:
    _rewrite(folder, runner.GAMES, lambda table: table.drop_columns(["delta_0"]))


def _game_as_text(folder: Path, other: Path) -> None:
    def change(table: pa.Table) -> pa.Table:
        index = table.schema.get_field_index("game")
        return table.set_column(index, "game", pc.cast(table["game"], pa.string()))

    _rewrite(folder, runner.GAMES, change)


def _without_run(folder: Path, other: Path) -> None:
    manifest = _manifest(folder)
    del manifest["run"]
    _write_manifest(folder, manifest)


def _as_list(folder: Path, other: Path) -> None:
    _write_manifest(folder, list(_manifest(folder).items()))


def _another_variants_manifest(folder: Path, other: Path) -> None:
    shutil.copy(other / runner.MANIFEST, folder / runner.MANIFEST)


def _delete_wins(folder: Path, other: Path) -> None:
    _rewrite(folder, runner.WINS, lambda table: table.slice(0, table.num_rows - 45))


def _truncate_games(folder: Path, other: Path) -> None:
    data = (folder / runner.GAMES).read_bytes()
    (folder / runner.GAMES).write_bytes(data[: len(data) // 2])


PROBES = {
    "games and wins swapped": (_swap, runner.GAMES),
    "delta_0 dropped": (_drop_delta, runner.GAMES),
    "game as strings": (_game_as_text, runner.GAMES),
    "manifest without run": (_without_run, runner.MANIFEST),
    "manifest a JSON list": (_as_list, runner.MANIFEST),
    "options edited": (_edit(options__bird_count=4), runner.MANIFEST),
    "seed edited": (_edit(run__seed=6), runner.MANIFEST),
    "another variant named": (_edit(variant="wengan"), runner.MANIFEST),
    "another variant's manifest": (_another_variants_manifest, runner.GAMES),
    "wins rows deleted": (_delete_wins, runner.WINS),
    "more hands counted": (_edit(counts__games=5000), runner.MANIFEST),
    "more hands stated": (_edit(run__games=5000, counts__games=5000), runner.MANIFEST),
    "games truncated": (_truncate_games, runner.GAMES),
    "a timing of the wrong type": (_edit(timings__play_seconds="fast"), runner.MANIFEST),
    "draws miscounted": (_edit(counts__draws=1), runner.GAMES),
}


@pytest.fixture(params=list(PROBES))
def probe(request, original, other_variant, tmp_path):
    """A copy of the run damaged as the probe says, and the file the error must name."""
    damage, named = PROBES[request.param]
    folder = _copy(original, tmp_path / "run")
    damage(folder, other_variant)
    return folder, folder / named


def _one_line_naming(error: BaseException, file: Path) -> None:
    text = str(error)
    assert "\n" not in text and text.startswith(f"{file}:"), text


@pytest.mark.engine
def test_every_probe_is_refused_by_the_readers(probe):
    folder, file = probe
    for read in (analysis.load_run, analysis.open_run, run_checks.check_run):
        with pytest.raises(ValueError) as raised:
            read(folder)
        _one_line_naming(raised.value, file)


@pytest.mark.engine
def test_every_probe_is_one_line_and_exit_2_in_the_cli(probe, capsys):
    folder, file = probe
    before = sorted(path.name for path in folder.iterdir())
    for argv in (["report", str(folder)], ["replay", str(folder), "--game", "3"]):
        result = mjsim(capsys, *argv)
        assert result.returncode == 2 and result.stdout == "", result
        assert result.stderr.startswith(f"mjsim: error: {file}:"), result.stderr
        assert result.stderr.count("\n") == 1, result.stderr
    assert sorted(path.name for path in folder.iterdir()) == before  # nothing written


@pytest.mark.engine
def test_a_damaged_sweep_cell_is_named(original, tmp_path, capsys):
    sweep = tmp_path / "sweep"
    for name in ("a", "b"):
        _copy(original, sweep / "cells" / name)
    cells = [{"name": name, "dir": f"cells/{name}", "options": {}} for name in ("a", "b")]
    (sweep / "sweep.json").write_text(json.dumps({"axes": {}, "cells": cells}))
    assert list(analysis.load_sweep(sweep).runs) == ["a", "b"]
    _delete_wins(sweep / "cells" / "b", original)
    for lazy in (False, True):
        with pytest.raises(ValueError) as raised:
            analysis.load_sweep(sweep, lazy=lazy)
        _one_line_naming(raised.value, sweep / "cells" / "b" / runner.WINS)
    (sweep / "sweep.json").write_text(json.dumps({"cells": [["a"]]}))
    with pytest.raises(ValueError, match=r"sweep\.json: a cell is \[\"a\"\], expected an object"):
        analysis.load_sweep(sweep)


@pytest.mark.engine
def test_a_run_folder_passes_and_its_manifest_has_the_declared_keys(original, loaded):
    checked = run_checks.check_run(original)
    manifest = _manifest(original)
    assert set(manifest) == set(run_checks.MANIFEST_KEYS) | set(run_checks.FINISHED_KEYS)
    assert checked.config.hash() == manifest["config_hash"]
    for name, file in (("games", runner.GAMES), ("wins", runner.WINS)):
        digest = run_checks.file_digest(original / file)
        assert manifest["tables"][name] == {"rows": manifest["counts"][name], **digest}
    assert len(loaded.games) == 300


@pytest.mark.engine
def test_a_run_without_checksums_gets_them_once_its_other_checks_pass(original, tmp_path):
    folder = _copy(original, tmp_path / "run")
    manifest = _manifest(folder)
    del manifest["tables"]
    _write_manifest(folder, manifest)
    with pytest.raises(ValueError, match=r"no 'tables' .* scripts/add_run_checksums\.py"):
        analysis.load_run(folder)
    damaged = _copy(folder, tmp_path / "damaged")
    _delete_wins(damaged, original)
    with pytest.raises(ValueError, match=r"wins\.parquet: 255 rows, the manifest counts 300"):
        run_checks.add_checksums(damaged)
    assert "tables" not in _manifest(damaged)
    assert run_checks.add_checksums(folder) and not run_checks.add_checksums(folder)
    assert _manifest(folder)["tables"] == _manifest(original)["tables"]


@pytest.mark.engine
def test_the_script_adds_checksums_and_refuses_a_damaged_folder(original, tmp_path, capsys):
    import runpy

    script = runpy.run_path(str(ROOT / "scripts" / "add_run_checksums.py"))
    good, bad = _copy(original, tmp_path / "good"), _copy(original, tmp_path / "bad")
    for folder in (good, bad):
        manifest = _manifest(folder)
        del manifest["tables"]
        _write_manifest(folder, manifest)
    _drop_delta(bad, original)
    assert script["main"]([str(good), str(bad)]) == 2
    printed = capsys.readouterr()
    assert printed.out == f"{good}: checksums added\n"
    assert printed.err.count("\n") == 1 and f"{bad / runner.GAMES}:" in printed.err
    run_checks.check_run(good)


@pytest.mark.engine
def test_wins_must_be_each_hands_winners(original, tmp_path):
    """Every wins row has its hand: a row moved to another hand, or a hand's winner repeated,
    is named even where the counts and checksums were made to agree."""
    folder = _copy(original, tmp_path / "run")

    def move_first_win(table: pa.Table) -> pa.Table:
        games = table["game"].to_pylist()
        games[0] += 1  # hand 0's winner said to be hand 1's
        return table.set_column(table.schema.get_field_index("game"), "game", pa.array(games))

    _rewrite(folder, runner.WINS, move_first_win)
    manifest = _manifest(folder)
    manifest["tables"] = run_checks.table_digests(folder)
    _write_manifest(folder, manifest)
    with pytest.raises(ValueError, match=r"wins\.parquet: row 0 is hand 1, expected a winner "):
        analysis.load_run(folder)


# --------------------------------------------------------------------------- damage at random

LEAF = st.integers(0, 10_000)
DAMAGE = st.one_of(
    st.tuples(st.just("truncate"), st.sampled_from(FILES), st.floats(0, 0.999)),
    st.tuples(st.just("drop column"), st.sampled_from(FILES[1:]), LEAF),
    st.tuples(st.just("edit"), LEAF, st.integers(0, 3)),
    st.tuples(st.just("remove key"), LEAF),
    st.tuples(st.just("swap"), st.permutations(FILES)),
    st.tuples(st.just("delete rows"), st.sampled_from(FILES[1:]), LEAF, st.integers(1, 50)),
    st.tuples(st.just("flip a byte"), st.sampled_from(FILES), st.floats(0, 0.999), LEAF),
    st.tuples(st.just("reformat"), st.sampled_from([None, 0, 1, 4, "\t"])),
)


def _leaves(document, path=()):
    """(path, value) of every value of a JSON document, objects and lists too."""
    yield path, document
    if isinstance(document, dict):
        for key, value in document.items():
            yield from _leaves(value, (*path, key))


def _edited(value, how: int):
    if isinstance(value, bool):
        return [not value, None, 1, "true"][how]
    if isinstance(value, int | float):
        return [value + 1, -1, str(value), None][how]
    if isinstance(value, str):
        return [value + "x", "", 5, None][how]
    if value is None:
        return ["x", 0, [], {}][how]
    return [[], {}, None, "x"][how]


def _damage(folder: Path, damage: tuple) -> None:
    kind, *args = damage
    if kind == "truncate":
        file = folder / args[0]
        data = file.read_bytes()
        file.write_bytes(data[: int(len(data) * args[1])])
    elif kind == "drop column":
        table = pq.read_table(folder / args[0])
        _rewrite(folder, args[0], lambda t: t.remove_column(args[1] % t.num_columns))
    elif kind in ("edit", "remove key"):
        manifest = _manifest(folder)
        leaves = list(_leaves(manifest))[1:]
        path, value = leaves[args[0] % len(leaves)]
        place = manifest
        for key in path[:-1]:
            place = place[key]
        if kind == "edit":
            place[path[-1]] = _edited(value, args[1])
        else:
            del place[path[-1]]
        _write_manifest(folder, manifest)
    elif kind == "swap":
        contents = [(folder / name).read_bytes() for name in args[0]]
        for name, data in zip(FILES, contents, strict=True):
            (folder / name).write_bytes(data)
    elif kind == "delete rows":
        table = pq.read_table(folder / args[0])
        start = args[1] % max(table.num_rows, 1)
        kept = pa.concat_tables([table.slice(0, start), table.slice(start + args[2])])
        pq.write_table(kept, folder / args[0])
    elif kind == "flip a byte":
        file = folder / args[0]
        data = bytearray(file.read_bytes())
        data[int(len(data) * args[1])] ^= 1 + args[2] % 255
        file.write_bytes(bytes(data))
    else:
        text = json.dumps(_manifest(folder), indent=args[0], ensure_ascii=args[0] is None)
        (folder / runner.MANIFEST).write_text(text, encoding="utf-8")


CONFIG_FACTS = ("variant", "run", "options", "n_players", "counts", "config_hash")
"""What a harmless damage leaves as it was (the label is a name, not in the config's hash: a
run may be renamed)."""


@pytest.mark.engine
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(damage=DAMAGE)
def test_a_folder_damaged_at_random_is_refused_or_loads_the_same_figures(original, loaded, damage):
    """No traceback and no silent load: a damaged folder raises the one-line error naming a
    file of it, or (a harmless damage: whitespace, a creation time, a command) loads the
    same frames under the same config."""
    with tempfile.TemporaryDirectory() as temporary:
        folder = _copy(original, Path(temporary) / "run")
        _damage(folder, damage)
        try:
            run = analysis.load_run(folder)
        except (ValueError, FileNotFoundError) as error:
            text = str(error)
            assert "\n" not in text and text.startswith(str(folder)), text
            with pytest.raises((ValueError, FileNotFoundError)):
                analysis.open_run(folder)
            return
        pd.testing.assert_frame_equal(run.games, loaded.games)
        pd.testing.assert_frame_equal(run.wins, loaded.wins)
        for key in CONFIG_FACTS:
            assert run.manifest[key] == loaded.manifest[key], key
        stored = analysis.open_run(folder)
        pd.testing.assert_frame_equal(analysis.draw_rate(stored), analysis.draw_rate(loaded))


def test_the_docs_name_every_key_of_the_manifest():
    """docs/analysis.md describes the run folder: every key the checks declare is named."""
    text = (ROOT / "docs" / "analysis.md").read_text(encoding="utf-8")
    section = text[text.index("### The run folder and its checks") :]
    section = section[: section.index("\n## ")]
    declared = [
        run_checks.MANIFEST_KEYS,
        run_checks.FINISHED_KEYS,
        run_checks.UNFINISHED_KEYS,
        run_checks.OPTIONAL_KEYS,
        run_checks.COUNTS_KEYS,
        run_checks.PLATFORM_KEYS,
        run_checks.TIMINGS_KEYS,
        run_checks.DIGEST_KEYS,
    ]
    missing = [key for keys in declared for key in keys if f"`{key}`" not in section]
    assert missing == []
