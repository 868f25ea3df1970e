"""The ``view`` command: write a record's replay viewer as one HTML file."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TextIO

from .._kit.i18n import LANGUAGES, translate, translator
from ..html import record_page
from ..records import RecordError


def add_parser(
    sub: argparse._SubParsersAction[argparse.ArgumentParser],
    _: Callable[[str], str] = str,
) -> None:
    """The ``view`` command's arguments."""
    view = sub.add_parser(
        "view",
        help=_("write a replay viewer (one HTML file) for a game record"),
        description=_(
            "Write a self-contained HTML page that steps through a recorded deal "
            "or match, move by move."
        ),
    )
    view.add_argument(
        "record", type=argparse.FileType("r", encoding="utf-8"), help=_("the record (GAME.txt)")
    )
    view.add_argument(
        "-o",
        "--output",
        required=True,
        type=argparse.FileType("w", encoding="utf-8"),
        metavar="FILE",
        help=_("the HTML file to write"),
    )
    view.add_argument("--lang", choices=LANGUAGES, default="en", help=_("language (en or ja)"))
    view.add_argument(
        "--four-color", action="store_true", help=_("draw each suit in its own colour")
    )
    view.set_defaults(run=run)


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Write the viewer page."""
    with args.record:
        text = args.record.read()
    try:
        page = record_page(text, lang=args.lang, four_color=args.four_color)
    except RecordError as error:
        print(
            f"sevenbridge view: {args.record.name}: {translate(error, args.lang)}",
            file=sys.stderr,
        )
        return 1
    with args.output:
        args.output.write(page)
    _ = translator(args.lang)
    print(_("wrote {path}").format(path=args.output.name), file=out)
    return 0
