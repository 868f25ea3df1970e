"""The ``ladder`` command: every bot that results databases hold, rated from all its games."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TextIO

from .._kit.i18n import LANGUAGES, translator
from ..ladder import RESAMPLES, ladder, plot
from . import arguments


def add_parser(
    sub: argparse._SubParsersAction[argparse.ArgumentParser],
    _: Callable[[str], str] = str,
) -> None:
    """The ``ladder`` command's arguments."""
    cmd = sub.add_parser(
        "ladder",
        help=_("rate every bot that tournament databases hold"),
        description=_(
            "Rate every bot that one or more tournament databases hold, from all its "
            "games: Bradley-Terry ratings on the Elo scale over the pairs of bots in each "
            "deal, with 95% intervals from resampling the decks."
        ),
    )
    cmd.add_argument(
        "databases", nargs="+", metavar="DB", help=_("results databases (tournament --db FILE)")
    )
    cmd.add_argument(
        "--plot",
        metavar="PNG",
        type=arguments.writable_file(_),
        help=_("draw the ratings with their intervals to an image (needs matplotlib)"),
    )
    cmd.add_argument(
        "--resamples",
        type=int,
        default=RESAMPLES,
        metavar="N",
        help=_("resamples of the decks for the intervals (default {n})").format(n=RESAMPLES),
    )
    cmd.add_argument("--lang", choices=LANGUAGES, default="en", help=_("language (en or ja)"))
    cmd.set_defaults(run=run)


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Print the ladder, and draw it with ``--plot``."""
    _ = translator(args.lang)
    board = ladder(args.databases, resamples=args.resamples)
    heading = _("Ladder of {bots} {game}bots").format(
        bots=len(board.ratings), game=arguments.game_label(board.game, args.lang)
    )
    print(heading, file=out)
    print(board.table(lang=args.lang), file=out)
    if args.plot:
        plot(board, args.plot)
        print(_("plot written to {path}").format(path=args.plot), file=out)
    return 0
