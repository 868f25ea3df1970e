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
from collections.abc import Sequence
from typing import TextIO

from . import _demo, _play, _tournament_cli, _view
from .errors import SevenBridgeError

__all__ = ["main"]


def _version() -> str:
    from . import __version__

    return f"sevenbridge {__version__}"


def parser(prog: str = "sevenbridge") -> argparse.ArgumentParser:
    """The argument parser of the whole command line."""
    top = argparse.ArgumentParser(
        prog=prog,
        description="Seven Bridge (Seven Rummy, セブンブリッジ) from the command line.",
    )
    top.add_argument("--version", action="version", version=_version())
    sub = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    _demo.add_parser(sub)
    _tournament_cli.add_parser(sub)
    _view.add_parser(sub)
    _play.add_parser(sub)
    return top


def main(argv: Sequence[str] | None = None, *, prog: str = "sevenbridge") -> int:
    """Run one command; the return value is the exit status."""
    out: TextIO = sys.stdout
    top = parser(prog)
    args = top.parse_args(argv)
    try:
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
        top.exit(2, f"{top.prog}: error: {error}\n")
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    return status
