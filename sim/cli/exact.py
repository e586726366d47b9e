"""``mjsim exact`` and ``mjsim deal``: exact probabilities of dealt-hand events, and their
Monte Carlo estimates on dealt walls (definitions: docs/exact.md)."""

from __future__ import annotations

import argparse
import time

from ..analysis import dealt, exact
from . import integer, number
from .text import pad

_SETTINGS_HELP = "; ".join(
    f"{variant}: " + ", ".join(f"{key}={'|'.join(values)}" for key, values in keys.items())
    for variant, keys in exact.SETTINGS.items()
)
_SETTING_NOTES = "; ".join(f"{key}: {note}" for key, note in exact.SETTING_NOTES.items())


def _sections(events: list[exact.Event]) -> dict[str, list[exact.Event]]:
    grouped: dict[str, list[exact.Event]] = {}
    for event in events:
        grouped.setdefault(event.section, []).append(event)
    return grouped


def _command_exact(args: argparse.Namespace) -> int:
    start = time.perf_counter()
    settings = exact.parse_settings(args.variant, args.set)
    events = exact.exact_events(args.variant, settings)
    for section, rows in _sections(events).items():
        print(section)
        for event in rows:
            fraction = "" if args.no_fractions else f"  {event.probability}"
            print(f"  {pad(event.name, 66)} {event.value:.6e}{fraction}")
    print(f"({len(events)} events, {time.perf_counter() - start:.2f} s)")
    return 0


def _command_deal(args: argparse.Namespace) -> int:
    start = time.perf_counter()
    settings = exact.parse_settings(args.variant, args.set)
    if args.hands < 1:
        raise ValueError(f"--hands must be at least 1, not {args.hands}")
    if args.seed < 0:
        raise ValueError(f"--seed must be 0 or more, not {args.seed}")
    if not 0 < args.confidence < 1:
        raise ValueError(f"--confidence must lie strictly between 0 and 1, not {args.confidence}")
    events = exact.exact_events(args.variant, settings)
    estimates = dealt.simulate(args.variant, args.hands, args.seed, settings)
    rows = dealt.compare(events, estimates, args.confidence)
    level = f"{args.confidence:.3g}"
    inside = 0
    for section, section_events in _sections(events).items():
        print(section)
        print(
            f"  {'event':<66} {'hits/trials':>16} {'estimate':>10} "
            f"{f'Wilson {level} interval':>23} {'exact':>10} inside"
        )
        keys = {event.key for event in section_events}
        for row in rows:
            if row.event.key not in keys:
                continue
            inside += row.inside
            trials = f"{row.estimate.hits}/{row.estimate.trials}"
            interval = f"[{row.low:.3e}, {row.high:.3e}]"
            print(
                f"  {pad(row.event.name, 66)} {trials:>16} {row.estimate.value:>10.3e} "
                f"{interval:>23} {row.event.value:>10.3e} {'yes' if row.inside else 'NO'}"
            )
    print(
        f"{inside} of {len(rows)} exact values inside their {level} intervals "
        f"({args.hands} deals, seed {args.seed}, {time.perf_counter() - start:.1f} s)"
    )
    return 0


def _add_common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "variant",
        choices=exact.VARIANTS,
        metavar="VARIANT",
        help=(
            "generic (108 and 136 tiles, no wilds), anhua (kings 王), wengan (天胡, 原缺) or "
            "anqing (钻, 十三烂, 七星归位)"
        ),
    )
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help=(
            "an option of the events, repeatable; the first value listed is the default. "
            f"{_SETTINGS_HELP}. {_SETTING_NOTES}. Example: --set kings=4 --set tiers=count"
        ),
    )


def register(commands) -> None:
    """Add the ``exact`` and ``deal`` commands to the ``mjsim`` sub-parser collection."""
    exact_parser = commands.add_parser(
        "exact",
        help="exact probabilities of dealt-hand events",
        description=(
            "Exact probabilities, as reduced fractions and floats, of dealt-hand events: the "
            "dealer's 14 tiles and a non-dealer's 13 from a uniformly shuffled wall. Counted by "
            "dynamic programming over suits, no hand enumerated. Definitions: docs/exact.md."
        ),
        epilog=(
            "examples: mjsim exact anhua --set kings=7; mjsim exact generic --set tiles=136; "
            "mjsim exact wengan --set players=3"
        ),
    )
    _add_common(exact_parser)
    exact_parser.add_argument(
        "--no-fractions",
        action="store_true",
        help="print the floats only (example: mjsim exact anqing --no-fractions)",
    )
    exact_parser.set_defaults(run=_command_exact)

    deal_parser = commands.add_parser(
        "deal",
        help="Monte Carlo of dealt hands beside the exact values",
        description=(
            "Deal N shuffled walls (sim.core.wall), evaluate every dealt-hand event of the variant "
            "with the hand evaluator (no play), and print each estimate with its Wilson interval "
            "beside the exact value."
        ),
        epilog="example: mjsim deal anhua --hands 200000 --seed 7 --set kings=4",
    )
    _add_common(deal_parser)
    deal_parser.add_argument(
        "--hands",
        type=integer,
        required=True,
        metavar="N",
        help="deals to sample per tile set (example: --hands 100000)",
    )
    deal_parser.add_argument(
        "--seed",
        type=integer,
        default=0,
        metavar="S",
        help="root seed of the walls, an int >= 0 (default 0; example: --seed 7)",
    )
    deal_parser.add_argument(
        "--confidence",
        type=number,
        default=0.95,
        metavar="C",
        help="level of the Wilson intervals (default 0.95; example: --confidence 0.999)",
    )
    deal_parser.set_defaults(run=_command_deal)
