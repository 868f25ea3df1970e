"""The ``view`` command: write a record's replay viewer as one HTML file."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
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
            "or match (of Seven Bridge or Simple Mahjong), move by move."
        ),
    )
    view.add_argument(
        "record", type=argparse.FileType("r", encoding="utf-8"), help=_("the record (GAME.txt)")
    )
    view.add_argument(
        "-o",
        "--output",
        required=True,
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
    write_whole(args.output, page)
    _ = translator(args.lang)
    print(_("wrote {path}").format(path=args.output), file=out)
    return 0


def write_whole(path: str, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all: into a temporary file beside
    it, renamed over ``path`` once written (a failure leaves no file behind and an
    older file as it was)."""
    target = Path(path)
    handle, temporary = tempfile.mkstemp(
        prefix=f".{target.name}.", suffix=".tmp", dir=target.parent
    )
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
