"""Command line: ``python -m sevenbridge demo``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from .melds import meld_interpretations, why_not_meld
from .rules import Rules
from .scoring import explain_hand_points

_QUESTIONS = ["7H", "7H 7S", "6H 7H", "6H 8H", "4H 4S", "QH KH AH", "4S 5S JK"]


def _demo(rules: Rules, out: list[str]) -> None:
    out.append("Is it a meld?")
    for text in _QUESTIONS:
        reason = why_not_meld(text, rules)
        if reason is None:
            kinds = ", ".join(f"{m.kind.value} {m}" for m in meld_interpretations(text, rules))
            out.append(f"  {text:<10} yes: {kinds}")
        else:
            out.append(f"  {text:<10} no: {reason}")
    out.append("What does a hand count?")
    out.append("  " + explain_hand_points("AS 7H KD JK", rules))


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``python -m sevenbridge``."""
    parser = argparse.ArgumentParser(prog="python -m sevenbridge", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    demo = sub.add_parser("demo", help="answer a few rule questions")
    demo.add_argument("--rules", default="standard", choices=Rules.presets())
    args = parser.parse_args(argv)
    out: list[str] = []
    _demo(
        Rules.preset(args.rules).replace(jokers=1)
        if args.rules != "nintendo"
        else Rules.nintendo(),
        out,
    )
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
