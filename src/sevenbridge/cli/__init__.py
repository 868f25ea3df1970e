"""The command line: ``sevenbridge COMMAND`` (or ``python -m sevenbridge COMMAND``).

Each command lives in its own module and adds its parser here; ``main`` parses
the arguments, runs the command and turns the ways a command line program can
be stopped (a closed pipe, Ctrl-C) into quiet exits.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Iterator, Sequence
from typing import TextIO

from .._kit import checks as _checks
from .._kit.i18n import LANGUAGES, N_, translate, translator
from .._kit.version import version
from ..errors import SevenBridgeError
from . import bot_check, demo, ladder, play, schema, serve, tournament, view

__all__ = ["main"]


def _version() -> str:
    return f"sevenbridge {version()}"


def parser(prog: str = "sevenbridge", lang: str = "en") -> argparse.ArgumentParser:
    """The argument parser of the whole command line, its help in ``lang``.

    Build it inside :func:`argparse_language` so that argparse's own words
    (``usage:``, ``options``, its error messages) are in the language too.
    """
    _ = translator(lang)
    top = argparse.ArgumentParser(
        prog=prog,
        description=_("Seven Bridge (Seven Rummy, セブンブリッジ) from the command line."),
        epilog=_("For Japanese, add --lang ja to a command: sevenbridge demo --lang ja."),
    )
    top.add_argument("--version", action="version", version=_version())
    sub = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    demo.add_parser(sub, _)
    tournament.add_parser(sub, _)
    ladder.add_parser(sub, _)
    view.add_parser(sub, _)
    play.add_parser(sub, _)
    serve.add_parser(sub, _)
    bot_check.add_parser(sub, _)
    schema.add_parser(sub, _)
    return top


#: argparse's own messages that a person reads (usage, help headings, errors), marked
#: for the catalog; argparse looks them up through ``argparse._`` when it shows them.
ARGPARSE_MESSAGES = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("show program's version number and exit"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"),
    N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"),
    N_("expected one argument"),
    N_("expected at least one argument"),
    N_("expected at most one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("can't open '%(filename)s': %(error)s"),
    N_("not allowed with argument %s"),
    N_("one of the arguments %s is required"),
)


def lang_of(argv: Sequence[str]) -> str:
    """The language ``argv`` asks for with ``--lang LANG`` or ``--lang=LANG``
    (English when it names none, or one we do not have: argparse then says so)."""
    lang = "en"
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(argv):
            lang = argv[i + 1]
        elif arg.startswith("--lang="):
            lang = arg.split("=", 1)[1]
    return lang if lang in LANGUAGES else "en"


@contextlib.contextmanager
def argparse_language(lang: str) -> Iterator[None]:
    """Inside the block, argparse shows its own messages in ``lang``.

    argparse looks its texts up with the ``gettext`` functions it imported
    (``argparse._`` and ``argparse.ngettext``); they are pointed at our catalog
    for the block and put back after it. Texts argparse has that the catalog
    lacks stay English.
    """
    if lang == "en":
        yield
        return
    gettext = translator(lang)

    def ngettext(singular: str, plural: str, n: int) -> str:
        return gettext(singular if n == 1 else plural)

    saved = argparse._, argparse.ngettext  # type: ignore[attr-defined]
    argparse._, argparse.ngettext = gettext, ngettext  # type: ignore[attr-defined]
    try:
        yield
    finally:
        argparse._, argparse.ngettext = saved  # type: ignore[attr-defined]


def main(argv: Sequence[str] | None = None, *, prog: str = "sevenbridge") -> int:
    """Run one command; the return value is the exit status."""
    out: TextIO = sys.stdout
    argv = list(sys.argv[1:] if argv is None else argv)
    lang = lang_of(argv)
    with argparse_language(lang):
        top = parser(prog, lang)
        args = top.parse_args(argv)
    try:
        if getattr(args, "seed", None) is not None:  # every command's --seed, checked once
            _checks.seed(args.seed, "--seed")
        status: int = args.run(args, out)
        out.flush()
    except BrokenPipeError:
        # The reader (such as `head`) stopped reading: that is not an error. Point
        # stdout at nothing so that the interpreter's final flush stays quiet.
        devnull = os.open(os.devnull, os.O_WRONLY)
        with contextlib.suppress(OSError, ValueError):  # not a real file: a test's capture
            os.dup2(devnull, out.fileno())
        return 0
    except SevenBridgeError as error:  # a bad value the parser could not see (a bot's name)
        message = translator(lang)("%(prog)s: error: %(message)s\n")
        top.exit(2, message % {"prog": top.prog, "message": translate(error, lang)})
    except KeyboardInterrupt as stop:  # Ctrl-C, or a signal the command turned into one
        print(file=sys.stderr)
        return 128 + getattr(stop, "signum", 2)
    return status
