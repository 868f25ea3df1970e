"""The ``serve`` command: the web table (:mod:`sevenbridge.web`), until Ctrl-C."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TextIO

from .._kit.i18n import LANGUAGES, translator


def add_parser(
    sub: argparse._SubParsersAction[argparse.ArgumentParser],
    _: Callable[[str], str] = str,
) -> None:
    """The ``serve`` command's arguments."""
    cmd = sub.add_parser(
        "serve",
        help=_("serve a web table: play in the browser, with friends or bots"),
        description=_(
            "Serve the web table: a lobby opens tables, and each person plays from a "
            "link of their own. The tables are kept in an SQLite file, so a server "
            "started again on the same file goes on where it stopped. Needs the web "
            'extra: pip install "sevenbridge[web]".'
        ),
    )
    cmd.add_argument("--host", default="127.0.0.1",
                     help=_("address to listen on (default 127.0.0.1, this machine only; "
                            "0.0.0.0 for every network)"))  # fmt: skip
    cmd.add_argument("--port", type=int, default=8000,
                     help=_("port (default 8000; 0 for any free port)"))  # fmt: skip
    cmd.add_argument("--db", default="sevenbridge-tables.db", metavar="FILE",
                     help=_("the SQLite file of the tables (default sevenbridge-tables.db)"))  # fmt: skip
    cmd.add_argument("--lang", choices=LANGUAGES, default="en", help=_("language (en or ja)"))
    cmd.add_argument("--pause", type=float, default=0.8, metavar="SECONDS",
                     help=_("how long each bot waits before it moves (default 0.8)"))  # fmt: skip
    cmd.add_argument("--move-seconds", type=float, default=10.0, metavar="SECONDS",
                     help=_("how long an external bot may think about a move (default 10)"))  # fmt: skip
    cmd.add_argument("--allow-commands", action="store_true",
                     help=_("let the lobby seat external bots (cmd:COMMAND), which run "
                            "commands on this machine: only where you trust everyone "
                            "who can reach the server"))  # fmt: skip
    cmd.set_defaults(run=run)


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Serve until interrupted."""
    from ..web import serve

    _ = translator(args.lang)

    def announce(url: str) -> None:
        print(_("Seven Bridge tables on {url} (Ctrl-C stops the server)").format(url=url), file=out)
        out.flush()

    serve(args.db, host=args.host, port=args.port, lang=args.lang, pause=args.pause,
          move_seconds=args.move_seconds, allow_commands=args.allow_commands,
          announce=announce)  # fmt: skip
    return 0
