"""``mjsim demo`` and ``mjsim hand``: the hand evaluator from the command line."""

from __future__ import annotations

import argparse
import time

from .. import hand as evaluator
from ..core.tiles import Hand, format_tiles, parse_hand

DEMO_HANDS = (
    ("123m 456m 789m 123p 55s", "a standard hand with a 2-5-8 pair (二五八将)"),
    ("123m 456m 789m 123p 11s", "complete with any pair, not with the 2-5-8 rule"),
    ("123m 456m 789m 12p 55s 9s*", "a wild (king 王, face 9s) stands in for 3p"),
    ("11m 22m 33m 44p 55p 66s 7s 7s*", "seven pairs 七对, the wild pairs the 7s"),
    ("147m 258p 39s E S W N RD GD", "十三烂 thirteen unrelated (Anqing)"),
    ("123m 456m 789m 12p 55s", "13 tiles: ready, waiting on 3p"),
    ("1112345678999m", "nine gates: waits on every character"),
    ("1m 4m 7m 2p 5p 8p 3s 6s 9s E S W N", "scattered: far from a standard hand"),
)


def _describe(parsed: Hand, forms: evaluator.Forms, max_decompositions: int) -> list[str]:
    rules = [f"pair {forms.pair}"]
    if forms.seven_pairs:
        rules.append("seven pairs" + (" (quads as two pairs)" if forms.quads else ""))
    if forms.thirteen:
        rules.append("十三烂")
    lines = [
        f"  tiles: {parsed}  ({parsed.n_tiles} tiles, {parsed.wilds} wild)",
        f"  rules: {', '.join(rules)}",
    ]
    size = parsed.n_tiles
    if size > evaluator.MAX_HAND_TILES or size % 3 == 0:
        lines.append(f"  a hand of {size} tiles is neither complete nor ready-able")
        return lines
    shanten = evaluator.shanten(parsed, forms=forms)
    by_form = {
        form: evaluator.shanten(parsed, form=form, forms=forms)
        for form, on in (
            ("standard", forms.standard),
            ("seven_pairs", forms.seven_pairs),
            ("thirteen", forms.thirteen),
        )
        if on
    }
    shown = ", ".join(
        f"{form} {value}" for form, value in by_form.items() if value != evaluator.NOT_APPLICABLE
    )
    lines.append(f"  shanten: {shanten}  ({shown})")
    if size % 3 == 2:
        complete = evaluator.is_complete(parsed, forms=forms)
        lines.append(f"  complete: {'yes' if complete else 'no'}")
        if complete and forms.standard:
            found = evaluator.decompositions(parsed, pair=forms.pair)
            lines.append(f"  standard decompositions: {len(found)}")
            lines.extend(f"    {d}" for d in found[:max_decompositions])
            if len(found) > max_decompositions:
                lines.append(f"    ... and {len(found) - max_decompositions} more")
    elif shanten == 0:
        waits = evaluator.waits(parsed, forms=forms)
        lines.append(f"  waits: {format_tiles(waits) if waits else 'none (only on a fifth copy)'}")
    return lines


def _forms_from(args: argparse.Namespace) -> evaluator.Forms:
    return evaluator.Forms(
        pair=args.pair,
        seven_pairs=not args.no_seven_pairs,
        quads=not args.no_quads,
        thirteen=args.thirteen,
    )


def _command_demo(args: argparse.Namespace) -> int:
    start = time.perf_counter()
    for text, note in DEMO_HANDS:
        print(f"{text}: {note}")
        forms = evaluator.Forms(pair="258" if "2-5-8" in note else "any", thirteen="十三烂" in note)
        print("\n".join(_describe(parse_hand(text), forms, args.max_decompositions)))
    print(f"({time.perf_counter() - start:.2f} s, evaluator tables included)")
    return 0


def _parsed_hand(text: str) -> Hand:
    """``text`` as a hand of at most 14 tiles; a one-line error naming it otherwise."""
    try:
        parsed = parse_hand(text)
    except ValueError as error:
        raise ValueError(f"HAND {text!r}: {error}") from None
    if parsed.n_tiles > evaluator.MAX_HAND_TILES:
        raise ValueError(
            f"HAND {text!r}: {parsed.n_tiles} tiles; a hand has at most {evaluator.MAX_HAND_TILES} "
            f"(13 waiting, 14 complete, 3 fewer per meld)"
        )
    return parsed


def _command_hand(args: argparse.Namespace) -> int:
    forms = _forms_from(args)
    parsed = [_parsed_hand(text) for text in args.hands]  # all errors before any output
    for text, one in zip(args.hands, parsed, strict=True):
        print(text)
        print("\n".join(_describe(one, forms, args.max_decompositions)))
    return 0


def _count(text: str) -> int:
    """An argparse type: a whole number of at least 0 (argparse turns the error into one line
    naming the flag, exit 2)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 0, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 0, got {value}")
    return value


def _add_form_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--pair", choices=("any", "258"), default="any", help="pair rule of the standard form"
    )
    parser.add_argument("--no-seven-pairs", action="store_true", help="seven pairs do not count")
    parser.add_argument(
        "--no-quads", action="store_true", help="in seven pairs four of a kind is not two pairs"
    )
    parser.add_argument("--thirteen", action="store_true", help="十三烂 counts (Anqing)")


def register(commands) -> None:
    """Add the ``demo`` and ``hand`` commands to the ``mjsim`` sub-parser collection."""
    demo = commands.add_parser(
        "demo",
        help="evaluate a few example hands",
        description="Evaluate example hands: completeness, shanten, waits, decompositions.",
        epilog="example: mjsim demo",
    )
    demo.add_argument(
        "--max-decompositions",
        type=_count,
        default=3,
        metavar="N",
        help="decompositions shown per hand (0 or more)",
    )
    demo.set_defaults(run=_command_demo)

    single = commands.add_parser(
        "hand",
        help="evaluate hands given in tile notation",
        description=(
            "Evaluate hands written like '123m 456p 55s E E 5s*' (m/p/s suits, E S W N RD GD WD "
            "or 1z-7z honours, * marks a wild tile with that face)."
        ),
        epilog='example: mjsim hand "123m 456m 789m 12p 55s 9s*" --pair 258',
    )
    single.add_argument("hands", nargs="+", metavar="HAND", help="a hand in tile notation")
    _add_form_flags(single)
    single.add_argument(
        "--max-decompositions",
        type=_count,
        default=5,
        metavar="N",
        help="decompositions shown per hand (0 or more)",
    )
    single.set_defaults(run=_command_hand)
