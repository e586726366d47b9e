"""Run and sweep directories to report on, and a parser of the report page: shared by
``tests/test_report.py`` and ``tests/test_report_browser.py``."""

from __future__ import annotations

import json
from dataclasses import asdict
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pandas as pd
from run_folders import run_config, write_run_folder

from sim.variants.anhua import AnhuaOptions
from sim.variants.anhua.play import play_anhua

SEATS = range(4)


def with_draws(games: pd.DataFrame, count: int) -> pd.DataFrame:
    """``games`` followed by ``count`` exhaustive draws (nobody wins, nobody pays)."""
    extra = games.tail(count).copy()
    first = int(games["game"].max()) + 1
    extra["game"] = np.arange(first, first + count)
    extra["session"], extra["hand"] = extra["game"] // 8, extra["game"] % 8
    extra["outcome"] = pd.Categorical(["draw"] * count, games["outcome"].cat.categories)
    extra["win_kind"] = pd.Categorical(["none"] * count, games["win_kind"].cat.categories)
    extra["n_winners"], extra["payer"] = 0, -1
    for seat in SEATS:
        extra[f"delta_{seat}"] = 0
    return pd.concat([games, extra], ignore_index=True)


def write_run(directory: Path, games, wins, options: AnhuaOptions, seed: int, label: str):
    """``games`` and ``wins`` as a run folder of ``options`` that passes every check of a run
    folder (``tests/run_folders.py``)."""
    config = run_config("anhua", asdict(options), len(games), seed, label, chunk_hands=1000)
    command = f"mjsim run configs/{label}.toml --games {len(games)}"
    write_run_folder(directory, config, games, wins, command)


class Page(HTMLParser):
    """Tables (by id: rows of cell texts, the header first), images, links and the text."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.tables: dict[str, list[list[str]]] = {}
        self.images: list[dict] = []
        self.links: list[str] = []
        self.texts: list[str] = []
        self._table = self._row = self._cell = None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table":
            self._table = self.tables.setdefault(attrs.get("id", f"#{len(self.tables)}"), [])
        elif tag == "tr" and self._table is not None:
            self._row = []
            self._table.append(self._row)
        elif tag in ("td", "th") and self._row is not None:
            self._cell = []
        elif tag == "img":
            self.images.append(attrs)
        elif tag == "a":
            self.links.append(attrs["href"])

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self._row.append("".join(self._cell).strip())
            self._cell = None
        elif tag == "table":
            self._table = self._row = None

    def handle_data(self, data):
        self.texts.append(data)
        if self._cell is not None:
            self._cell.append(data)

    @property
    def text(self) -> str:
        return "".join(self.texts)

    def rows(self, table: str) -> dict[str, dict[str, str]]:
        """First cell -> {column header: cell} (a repeated header keeps its first column)."""
        header, *body = self.tables[table]
        result = {}
        for row in body:
            cells = {}
            for name, value in zip(header, row, strict=True):
                cells.setdefault(name, value)
            cells["_cells"] = row
            result[row[0]] = cells
        return result


def write_sweep(root: Path, hands: int = 400) -> dict[str, tuple[pd.DataFrame, pd.DataFrame]]:
    """Two cells on the same walls (seed 5), 1 bird against 4 birds, as a sweep directory;
    returns each cell's (games, wins)."""
    cells, frames = [], {}
    for birds in (1, 4):
        name = f"birds-{birds}"
        options = AnhuaOptions(bird_count=birds)
        games, wins = play_anhua(hands, seed=5, options=options)
        write_run(root / "cells" / name, games, wins, options, 5, name)
        cells.append({"name": name, "options": {"bird_count": birds}, "dir": f"cells/{name}"})
        frames[name] = games, wins
    spec = {
        "label": "birds <sweep>",
        "base": "configs/anhua-seven-kings.toml",
        "axes": {"bird_count": [1, 4]},
        "cells": cells,
    }
    (root / "sweep.json").write_text(json.dumps(spec))
    return frames
