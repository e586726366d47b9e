"""Replay one hand as a readable event log: the deal, draws, discards, claims, kongs (a robbed
one declared, then robbed) and the tiles they reveal, passed wins (漏胡), wins, birds and each
payment; then every seat's final tiles and melds.

The engine writes the log itself when the game state has log capacity; bulk runs have none, so a
replay plays the hand again from the same wall. Same wall, same options, same dealer: the same
game, move for move (the engine has no other source of randomness).
"""

from __future__ import annotations

import numpy as np

from .kernels import engine as E
from .kernels import state as S
from .tiles import format_tiles, kind_name
from .variants.anhua import AnhuaOptions, pattern_name, replay_hand
from .variants.anhua.frames import WIN_KINDS

LOG_CAPACITY = 1024

_KONG_TYPES = {
    S.MELD_CONCEALED_KONG: "暗杠 concealed kong",
    S.MELD_ADDED_KONG: "明杠 added kong",
    S.MELD_DISCARD_KONG: "直杠 kong on a discard",
}


def replay_anhua(
    walls: np.ndarray,
    game: int,
    options: AnhuaOptions | None = None,
    hands_per_session: int = 8,
    first_dealer: int = 0,
) -> tuple[np.ndarray, np.ndarray, S.FinalPosition]:
    """Play hand ``game`` of ``walls`` (int8 (n, 108)) again with the log on.

    The hands before it in its session are played first, to find its dealer. Returns the hand's
    record row, its events, int64 (n_events, 4): (event, seat, tile, detail), and every seat's
    final tiles.
    """
    options = options or AnhuaOptions()
    if not 0 <= game < len(walls):
        raise ValueError(f"game must be 0-{len(walls) - 1}, not {game}")
    session_start = game - game % hands_per_session
    return replay_hand(
        options,
        walls[session_start : game + 1],
        np.array([first_dealer], np.int64),
        hands_per_session,
        (0,) * options.player_count,
        0,
        game - session_start,
        LOG_CAPACITY,
    )


def _tiles_of(counts: np.ndarray) -> str:
    return format_tiles([kind for kind in range(34) for _ in range(int(counts[kind]))]) or "-"


def _meld_text(meld_type: int, first: int) -> str:
    if meld_type == S.MELD_CHI:
        return f"chi {format_tiles([first, first + 1, first + 2])}"
    if meld_type == S.MELD_PONG:
        return f"pong {kind_name(first)}"
    return f"{_KONG_TYPES.get(meld_type, 'kong').split()[0]} {kind_name(first)}"


def describe_final(final: S.FinalPosition) -> list[str]:
    """Every seat's concealed tiles (a winner's with the winning tile) and melds."""
    lines = []
    for seat in range(final.hands.shape[0]):
        melds = [
            _meld_text(int(final.melds[seat, m, 0]), int(final.melds[seat, m, 1]))
            for m in range(int(final.n_melds[seat]))
        ]
        shown = f"; melds {', '.join(melds)}" if melds else ""
        lines.append(f"seat {seat} holds {_tiles_of(final.hands[seat])}{shown}")
    return lines


def describe(
    events: np.ndarray,
    record: np.ndarray,
    n_players: int,
    final: S.FinalPosition | None = None,
) -> list[str]:
    """The events as lines of text, then every seat's final tiles (when ``final`` is given),
    the patterns and every seat's score change."""
    lines = []
    pongs = set()  # (seat, kind): a robbed kong of a ponged kind was a 明杠, else a 直杠
    robbed = False
    for event, seat, tile, detail in (tuple(int(x) for x in row) for row in events):
        name = kind_name(tile) if 0 <= tile < 34 else ""
        if event == S.EVENT_DEAL:
            lines.append(f"seat {seat} is dealt {detail} tiles")
        elif event == S.EVENT_INDICATOR:
            lines.append(f"indicator flipped: {name}")
        elif event == S.EVENT_WILD:
            lines.append(f"king 王: {name}")
        elif event == S.EVENT_DRAW:
            lines.append(f"seat {seat} draws {name}")
        elif event == S.EVENT_DISCARD:
            lines.append(f"seat {seat} discards {name}")
        elif event == S.EVENT_CHI:
            sequence = format_tiles([tile, tile + 1, tile + 2])
            lines.append(f"seat {seat} chi {sequence} from seat {detail}")
        elif event == S.EVENT_PONG:
            pongs.add((seat, tile))
            lines.append(f"seat {seat} pong {name} from seat {detail}")
        elif event == S.EVENT_KONG:
            lines.append(f"seat {seat} {_KONG_TYPES.get(detail, 'kong')} of {name}")
        elif event == S.EVENT_REVEAL:
            lines.append(f"  revealed by the kong: {name}")
        elif event == S.EVENT_ROBBED:
            if not robbed:  # the kong was declared, then robbed: it is never made
                kong = S.MELD_ADDED_KONG if (detail, tile) in pongs else S.MELD_DISCARD_KONG
                lines.append(f"seat {detail} declares a {_KONG_TYPES[kong]} of {name}")
                robbed = True
            lines.append(f"seat {seat} robs the kong of {name} from seat {detail}")
        elif event == S.EVENT_PASS_WIN:
            lines.append(
                f"seat {seat} passes a win on {name} (漏胡: it may not win on {name} from "
                "another player until it draws)"
            )
        elif event == S.EVENT_WIN:
            on = f" on {name}" if name else ""
            lines.append(f"seat {seat} wins ({WIN_KINDS[detail]}){on}")
        elif event == S.EVENT_BIRD:
            lines.append(f"bird {name} lands on seat {seat}")
        elif event == S.EVENT_PAY:
            lines.append(f"seat {seat} pays seat {tile}: {detail}")
        elif event == S.EVENT_EXHAUSTED:
            lines.append(f"wall exhausted (荒庄); seat {seat} drew the last tile")
    if final is not None:
        lines += describe_final(final)
    for w in range(int(record[E.R_N_WINNERS])):
        features = int(record[E.R_FEATURES + w])
        seat = int(record[E.R_WINNER + w])
        lines.append(
            f"seat {seat}: {pattern_name(features)}, {int(record[E.R_POINTS + w])} points base"
        )
    deltas = ", ".join(f"seat {s} {int(record[E.R_DELTA + s]):+d}" for s in range(n_players))
    lines.append(f"result: {deltas}")
    return lines


def replay_run(path, game: int) -> tuple[list[str], np.ndarray, np.ndarray]:
    """Replay hand ``game`` of a run directory (``sim.runner``): the chunk's walls, dealers and
    agent seed are made again from the manifest's seed, the hand is played with the log on, and
    its record is checked against the stored row. Returns (lines, record, events)."""
    import pandas as pd

    from .agents import agent_ids
    from .runner import GAMES, chunk_inputs, chunk_of, config_of_run

    config = config_of_run(path)
    chunk = chunk_of(config, game)
    walls, dealers, agent_seed = chunk_inputs(config, chunk)
    variant = config.spec
    record, events, final = variant.replay(
        config.options,
        walls,
        dealers,
        config.hands_per_session,
        agent_ids(config.agents),
        agent_seed,
        game - chunk.first_game,
    )
    stored = pd.read_parquet(f"{path}/{GAMES}", filters=[("game", "==", game)])
    n_players = config.n_players
    replayed = [int(record[E.R_DELTA + seat]) for seat in range(n_players)]
    kept = [int(stored[f"delta_{seat}"].iloc[0]) for seat in range(n_players)]
    if replayed != kept or int(record[E.R_DEALER]) != int(stored["dealer"].iloc[0]):
        raise ValueError(
            f"{path}: the replay of hand {game} differs from the stored row (score changes "
            f"{replayed} against {kept}); was the run made by another version of the engine?"
        )
    header = [
        f"{config.label}, hand {game} (session {game // config.hands_per_session}, hand "
        f"{game % config.hands_per_session} of it), dealer seat {int(record[E.R_DEALER])}, "
        f"agents {', '.join(config.agents)}"
    ]
    return header + variant.describe(events, record, n_players, final), record, events
