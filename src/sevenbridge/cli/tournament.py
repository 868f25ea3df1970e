"""The ``tournament`` command: bots against each other, duplicate deals, a results table."""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from typing import TextIO

from .._kit.i18n import LANGUAGES, translator
from ..arena import (
    BACKENDS,
    BOT_NAMES,
    ISMCTS_ITERATIONS,
    ISMCTS_SECONDS,
    Estimate,
    TournamentResult,
    compare,
    export_csv,
    plot,
    report,
    run_tournament,
)
from ..arena._statistics import cannot_compare
from ..errors import InvalidArgumentError, Message
from . import arguments


def add_parser(
    sub: argparse._SubParsersAction[argparse.ArgumentParser],
    _: Callable[[str], str] = str,
) -> None:
    """The ``tournament`` command's arguments."""
    cmd = sub.add_parser(
        "tournament",
        help=_("play bots against each other and report who is stronger"),
        description=_(
            "Play a duplicate tournament: each dealt deck is played once for every "
            "seating of the bots, and each bot's results come with 95% intervals. "
            "With --report, print the results a database holds instead."
        ),
    )
    cmd.add_argument(
        "--bots",
        metavar="LIST",
        help=_(
            "one bot per seat, comma-separated, from {BOT_NAMES}, cmd:COMMAND for an external bot, or py:MODULE:FACTORY for a Python bot (FACTORY(seed) makes it; the module is imported from the current directory or the Python path); options after colons, e.g. ismcts:iterations=200 (default for ismcts: {ITERATIONS} iterations, at most {SECONDS} s of processor time a decision)"
        ).format(
            BOT_NAMES=", ".join(BOT_NAMES), ITERATIONS=ISMCTS_ITERATIONS, SECONDS=ISMCTS_SECONDS
        ),
    )
    arguments.add_game(cmd, _)
    arguments.add_rules(cmd, _, games=True)
    cmd.add_argument(
        "--players",
        type=int,
        choices=range(2, 6),
        metavar="N",
        help=_("table size (default: one seat per bot; mahjong 2 to 4)"),
    )
    cmd.add_argument(
        "--deals",
        type=int,
        default=300,
        metavar="N",
        help=_("deals to play, rounded up to whole decks (default 300)"),
    )
    cmd.add_argument(
        "--seed",
        type=int,
        help=_(
            "tournament seed, to replay a tournament (default: a secret one drawn at random, "
            "kept in --db and shown once the run is over)"
        ),
    )
    cmd.add_argument(
        "--workers", type=int, default=1, metavar="N", help=_("worker processes (default 1)")
    )
    cmd.add_argument(
        "--backend",
        choices=BACKENDS,
        default="local",
        help=_("local processes (default) or Ray tasks (needs the ray extra)"),
    )
    cmd.add_argument(
        "--address", metavar="ADDR", help=_("with --backend ray: an existing Ray cluster's address")
    )
    cmd.add_argument(
        "--db",
        metavar="FILE",
        help=_(
            "SQLite file for the results; the same command again resumes a stopped run, "
            "and two at once share the work"
        ),
    )
    cmd.add_argument(
        "--report", metavar="FILE", help=_("print the results held in a database and stop")
    )
    cmd.add_argument(
        "--csv",
        metavar="FILE",
        type=arguments.writable_file(_),
        help=_("also export every deal to a CSV file"),
    )
    cmd.add_argument(
        "--compare",
        nargs=2,
        metavar=("A", "B"),
        help=_(
            "compare two bots deck by deck: A's win share and mean return less B's, "
            "with 95%% intervals"
        ),
    )
    cmd.add_argument(
        "--plot",
        metavar="PNG",
        type=arguments.writable_file(_),
        help=_("draw the win shares to an image (needs matplotlib)"),
    )
    cmd.add_argument(
        "--move-seconds",
        type=float,
        default=10.0,
        metavar="S",
        help=_("time limit per decision for external bots (default 10)"),
    )
    cmd.add_argument(
        "--handshake-seconds",
        type=float,
        default=30.0,
        metavar="S",
        help=_("time limit for an external bot to start and answer the handshake (default 30)"),
    )
    cmd.add_argument(
        "--keep-going",
        action="store_true",
        help=_(
            "play on when an external bot fails to start, its deals forfeited "
            "(default: stop before the first deal)"
        ),
    )
    cmd.add_argument(
        "--fair",
        action=argparse.BooleanOptionalAction,
        help=_(
            "start each external or Python bot afresh for every deal, so that it carries "
            "nothing from one seating of a deck to the next (default: on when a cmd: or py: "
            "bot plays)"
        ),
    )
    cmd.add_argument(
        "--isolate",
        action="store_true",
        help=_(
            "play each py: bot in a process of its own, over the external bots' protocol, "
            "so that it sees only what the protocol sends (its module is imported there only)"
        ),
    )
    cmd.add_argument("--quiet", action="store_true", help=_("no progress bar"))
    cmd.add_argument("--lang", choices=LANGUAGES, default="en", help=_("language (en or ja)"))
    cmd.set_defaults(run=run)  # fmt: skip


class Stopped(KeyboardInterrupt):
    """A signal (SIGTERM, SIGHUP) stopped the run; it unwinds as Ctrl-C does."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


@contextlib.contextmanager
def stop_on_signals() -> Iterator[None]:
    """Inside the block, SIGTERM and SIGHUP stop the run the way Ctrl-C does
    (:class:`Stopped`, a ``KeyboardInterrupt``), so that every external bot
    and worker is ended on the way out; once is enough (a second signal
    during that cleanup is ignored). A signal that is ignored (``nohup``)
    stays ignored; outside the main thread nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    stopping = False

    def stop(signum: int, frame: object) -> None:
        nonlocal stopping
        if not stopping:
            stopping = True
            raise Stopped(signum)

    saved = {}
    for name in ("SIGTERM", "SIGHUP"):
        number = getattr(signal, name, None)
        if number is not None and signal.getsignal(number) is not signal.SIG_IGN:
            saved[number] = signal.signal(number, stop)
    try:
        yield
    finally:
        for number, handler in saved.items():
            signal.signal(number, handler)


def _signed(estimate: Estimate, digits: int) -> str:
    text = f"{estimate.mean:+.{digits}f}"
    if estimate.low is not None and estimate.high is not None:
        text += f" [{estimate.low:+.{digits}f}, {estimate.high:+.{digits}f}]"
    return text


def print_comparison(
    result: TournamentResult, names: list[str], _: Callable[[str], str], out: TextIO
) -> None:
    """Print two bots' paired comparison and what it says."""
    c = compare(result, names[0], names[1])
    print(
        _("{first} less {second}, deck by deck over {decks} decks: win share {wins}, "
          "mean return {returns}").format(
            first=c.first, second=c.second, decks=c.decks,
            wins=_signed(c.win_share, 3), returns=_signed(c.mean_return, 2),
        ),
        file=out,
    )  # fmt: skip
    low, high = c.win_share.low, c.win_share.high
    if low is None or high is None:
        verdict = _("too few decks to tell")
    elif low > 0:
        verdict = _("{name} wins more: the interval lies above 0").format(name=c.first)
    elif high < 0:
        verdict = _("{name} wins more: the interval lies below 0").format(name=c.second)
    else:
        verdict = _("no clear difference: the interval holds 0")
    print(verdict, file=out)


@contextlib.contextmanager
def _resume_hint(args: argparse.Namespace, _: Callable[[str], str]) -> Iterator[None]:
    """A run stopped inside the block (Ctrl-C, SIGTERM, SIGHUP) says how to go on."""
    try:
        yield
    except KeyboardInterrupt:
        if args.db is not None:
            hint = _(
                "stopped: the decks finished so far are in {db}; the same command resumes "
                "the tournament"
            ).format(db=args.db)
        else:
            hint = _(
                "stopped: nothing was kept; with --db FILE the decks are kept as they finish "
                "and the same command resumes"
            )
        print(f"\n{hint}", file=sys.stderr, flush=True)
        raise


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Run the tournament the arguments describe and print its table."""
    result: TournamentResult
    _ = translator(args.lang)
    source_db = args.report if args.report is not None else args.db
    if args.csv and source_db is None:  # before any deal is played
        raise InvalidArgumentError(
            Message(
                "invalid_argument.csv_exports_database_give",
                "--csv exports a database: give --db FILE",
            )
        )
    if args.report is not None:
        result = report(args.report)
        source = args.report
        print(
            _("Tournament in {source}: {name} rules, {players} players, seed {seed}").format(
                source=source,
                name=arguments.rules_label(result.game, result.rules_name, args.lang),
                players=result.players,
                seed=result.seed,
            ),
            file=out,
        )
    else:
        if not args.bots:
            raise InvalidArgumentError(
                Message(
                    "invalid_argument.name_bots_with_bots",
                    "name the bots with --bots (or read a database with --report)",
                )
            )
        bots = [b.strip() for b in args.bots.split(",") if b.strip()]
        if any(b.startswith("py:") for b in bots) and os.getcwd() not in sys.path:
            sys.path.insert(0, os.getcwd())  # as python -m does: a bot's module beside you
        if args.compare and not any(b.startswith("cmd:") for b in bots):
            for name in args.compare:  # before any deal is played
                if name not in bots:
                    raise cannot_compare(name, bots)
        with stop_on_signals(), _resume_hint(args, _):
            result = run_tournament(
                bots,
                arguments.rules_of(args),
                game=arguments.game_name(args.game),
                players=args.players,
                deals=args.deals,
                seed=args.seed,
                workers=args.workers,
                backend=args.backend,
                address=args.address,
                db=args.db,
                move_seconds=args.move_seconds,
                handshake_seconds=args.handshake_seconds,
                keep_going=args.keep_going,
                fair=args.fair,
                isolate=args.isolate,
                progress=not args.quiet,
                progress_file=sys.stderr,
            )
        resumed = (
            _(", {n} decks resumed from {db}").format(n=result.resumed, db=args.db)
            if result.resumed
            else ""
        )
        print(
            _("Tournament: {rules} rules, {players} players, seed {seed}, {seconds} s{resumed}")
            .format(rules=arguments.rules_label(args.game, args.rules, args.lang), players=result.players, seed=result.seed,
                    seconds=f"{result.seconds:.1f}", resumed=resumed),
            file=out,
        )  # fmt: skip
    print(result.table(lang=args.lang), file=out)
    if args.compare:
        print_comparison(result, args.compare, _, out)
    if source_db is not None and args.csv:
        with open(args.csv, "w", newline="", encoding="utf-8") as f:
            rows = export_csv(source_db, f)
        print(_("{rows} deals written to {path}").format(rows=rows, path=args.csv), file=out)
    if args.plot:
        plot(result, args.plot)
        print(_("plot written to {path}").format(path=args.plot), file=out)
    return 0
