"""The ``view`` command: write a record's replay viewer as one HTML file."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO, TextIO

from .._kit.i18n import LANGUAGES, translate, translator
from .._kit.recordframe import record_text
from ..errors import InvalidArgumentError, Message, RecordError
from ..html import MAX_MOVES, record_page

#: The largest record file ``view`` reads: far more than :data:`MAX_MOVES
#: <sevenbridge.html.MAX_MOVES>` moves take, so only a file that is no record
#: the viewer could show is refused, before it fills the memory.
MAX_RECORD_BYTES = 8 << 20


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
    view.add_argument("record", type=argparse.FileType("rb"), help=_("the record (GAME.txt)"))
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
    view.add_argument(
        "--names",
        metavar="NAME,NAME,...",
        help=_(
            "the seats' names, one per seat (default: the record's [Names] tag, or P0, P1, ...)"
        ),
    )
    view.set_defaults(run=run)


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Write the viewer page."""
    _ = translator(args.lang)
    try:
        with args.record:
            text = read_record(args.record)
        names = None if args.names is None else [n.strip() for n in args.names.split(",")]
        page = record_page(text, lang=args.lang, four_color=args.four_color, names=names)
    except (RecordError, InvalidArgumentError) as error:
        print(
            f"sevenbridge view: {args.record.name}: {translate(error, args.lang)}",
            file=sys.stderr,
        )
        return 1
    try:
        write_whole(args.output, page)
    except OSError as error:
        message = _("cannot write {path}: {reason}")
        print(
            "sevenbridge view: " + message.format(path=args.output, reason=error.strerror),
            file=sys.stderr,
        )
        return 1
    print(_("wrote {path}").format(path=args.output), file=out)
    return 0


def read_record(file: BinaryIO) -> str:
    """A record file's text (UTF-8), read whole unless it is longer than
    :data:`MAX_RECORD_BYTES`.

    Raises:
        RecordError: for a file that is not UTF-8 text (naming the line and
            column of the first byte that is not) or is too long.
    """
    data = file.read(MAX_RECORD_BYTES + 1)
    if len(data) > MAX_RECORD_BYTES:
        start = data.rfind(b"\n", 0, MAX_RECORD_BYTES) + 1
        raise RecordError(
            data[start : start + 60].decode("utf-8", "replace"),
            Message(
                "record.file_too_long_for_viewer",
                "the file is longer than {limit} bytes, more than a record of "
                "{moves} moves (the most the replay viewer shows)",
                limit=MAX_RECORD_BYTES,
                moves=MAX_MOVES,
            ),
            data.count(b"\n", 0, MAX_RECORD_BYTES) + 1,
            1,
        )
    return record_text(data)


def write_whole(path: str, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all: into a temporary file beside
    it, renamed over ``path`` once written (a failure leaves no file behind and an
    older file as it was). The file gets the older file's permissions, or those
    of a new file."""
    target = Path(path)
    handle, temporary = tempfile.mkstemp(
        prefix=f".{target.name}.", suffix=".tmp", dir=target.parent
    )
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as f:
            os.chmod(temporary, _mode_for(target))
            f.write(text)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def _mode_for(target: Path) -> int:
    """The permissions of the file at ``target``, or of a new file there (a
    temporary file is private to its owner, which a page should not be)."""
    with contextlib.suppress(FileNotFoundError):
        return target.stat().st_mode & 0o7777
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o666 & ~umask
