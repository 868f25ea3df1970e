"""Arguments that several commands share, declared once."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from ..rules import Rules


def add_rules(parser: argparse.ArgumentParser, _: Callable[[str], str] = str) -> None:
    """``--rules PRESET``, one of the presets, default ``standard``."""
    parser.add_argument(
        "--rules",
        default="standard",
        choices=Rules.presets(),
        metavar="PRESET",
        help=_("rule preset: {presets} (default standard)").format(
            presets=", ".join(Rules.presets())
        ),
    )
