"""Arguments that several commands share, declared once."""

from __future__ import annotations

import argparse

from .rules import Rules


def add_rules(parser: argparse.ArgumentParser) -> None:
    """``--rules PRESET``, one of the presets, default ``standard``."""
    parser.add_argument(
        "--rules",
        default="standard",
        choices=Rules.presets(),
        metavar="PRESET",
        help=f"rule preset: {', '.join(Rules.presets())} (default standard)",
    )
