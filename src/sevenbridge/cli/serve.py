"""The ``serve`` command: the web table (:mod:`sevenbridge.web`), until Ctrl-C."""

from __future__ import annotations

import argparse
import sys
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
    cmd.add_argument("--claim-seconds", type=float, default=15.0, metavar="SECONDS",
                     help=_("how long each person asked about a claim has to decide, "
                            "whether or not they can claim (default 15)"))  # fmt: skip
    cmd.add_argument("--bot", action="append", default=[], metavar="NAME=SPEC", dest="bots",
                     help=_("offer a bot of your own under NAME: a built-in spec, cmd:COMMAND "
                            "(a program on this machine) or py:MODULE:FACTORY; clients see "
                            "only NAME (repeatable)"))  # fmt: skip
    cmd.add_argument("--max-bot-seconds", type=float, default=1.0, metavar="SECONDS",
                     help=_("the most a built-in search bot thinks about a move (default 1)"))  # fmt: skip
    cmd.add_argument("--max-bot-iterations", type=int, default=2000, metavar="N",
                     help=_("the most iterations a client may give the search (default 2000)"))  # fmt: skip
    cmd.add_argument("--move-seconds", type=float, default=10.0, metavar="SECONDS",
                     help=_("how long a bot of your own (--bot) may take to answer (default 10)"))  # fmt: skip
    cmd.add_argument("--allowed-host", action="append", default=[], metavar="NAME",
                     dest="allowed_hosts",
                     help=_("a host name the server answers to, as people reach it "
                            "(repeatable; default: 127.0.0.1, localhost and [::1] on this "
                            "machine only, any name on 0.0.0.0)"))  # fmt: skip
    cmd.add_argument("--allow-seed", action="store_true",
                     help=_("let a table of several people be opened with a seed of the "
                            "opener's choice (who chooses it can know every card)"))  # fmt: skip
    cmd.add_argument("--tables-per-client", type=int, default=30, metavar="N",
                     help=_("tables one address may open in an hour (default 30)"))  # fmt: skip
    cmd.set_defaults(run=run)


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Serve until interrupted."""
    from ..web import Limits, serve

    _ = translator(args.lang)

    def announce(url: str) -> None:
        print(_("Seven Bridge tables on {url} (Ctrl-C stops the server)").format(url=url), file=out)
        out.flush()

    bots = {}
    for given in args.bots:
        name, sep, spec = given.partition("=")
        if not sep:
            print(
                "sevenbridge serve: "
                + _("--bot takes NAME=SPEC, not {given}").format(given=given[:60]),
                file=sys.stderr,
            )
            return 2
        bots[name.strip()] = spec.strip()
    serve(args.db, host=args.host, port=args.port, lang=args.lang, pause=args.pause,
          claim_seconds=args.claim_seconds, bots=bots, max_bot_seconds=args.max_bot_seconds,
          max_bot_iterations=args.max_bot_iterations, move_seconds=args.move_seconds,
          allowed_hosts=args.allowed_hosts,
          limits=Limits(tables_per_client=args.tables_per_client), allow_seed=args.allow_seed,
          announce=announce)  # fmt: skip
    return 0
