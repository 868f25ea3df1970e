"""The ``schema`` command: the JSON Schemas of the documents and of the bot protocol."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from .._kit.i18n import LANGUAGES, translator
from ..errors import InvalidArgumentError, Message, quote
from ..external import SCHEMA_FOLDER, schema_files
from ..web._protocol import seat_schema_files
from .view import write_whole


def add_parser(
    sub: argparse._SubParsersAction[argparse.ArgumentParser],
    _: Callable[[str], str] = str,
) -> None:
    """The ``schema`` command's arguments."""
    cmd = sub.add_parser(
        "schema",
        help=_("print or write the JSON Schemas of the documents and of the bot protocol"),
        description=_(
            "The JSON Schemas (draft 2020-12) of each game's documents (state, observation, "
            "rules, action; Simple Mahjong's under mahjong/), of a move's events, of the "
            "messages of the external-bot protocol (under protocol/) and of the web table's "
            "seat protocol (under web/, with TypeScript declarations). Without arguments, "
            "list them and the folder of the installed package that holds them."
        ),
    )
    cmd.add_argument("name", nargs="?", metavar="NAME",
                     help=_("one schema to print, such as observation, mahjong/observation "
                            "or protocol/decide"))  # fmt: skip
    cmd.add_argument("--out", metavar="DIR",
                     help=_("write the schemas (or the one named) into this folder, "
                            "with their subfolders"))  # fmt: skip
    cmd.add_argument("--lang", choices=LANGUAGES, default="en", help=_("language (en or ja)"))
    cmd.set_defaults(run=run)


def run(args: argparse.Namespace, out: TextIO) -> int:
    """List, print or write the schemas."""
    _ = translator(args.lang)
    files = {**schema_files(), **seat_schema_files()}
    if args.name is not None:
        name = args.name.strip()
        if name not in files:
            name = name.removesuffix(".json") + ".json"
        if name not in files:
            raise InvalidArgumentError(
                Message(
                    "invalid_argument.no_schema_named",
                    "no schema named {name}; the schemas are {names}",
                    name=quote(args.name, 60),
                    names=", ".join(p.removesuffix(".json") for p in files),
                )
            )
        files = {name: files[name]}
        if args.out is None:
            out.write(files[name])
            return 0
    if args.out is None:
        print(_("The JSON Schemas, in {folder}:").format(folder=SCHEMA_FOLDER), file=out)
        for path in files:
            print(f"  {path}", file=out)
        return 0
    folder = Path(args.out)
    if folder.exists() and not folder.is_dir():
        print("sevenbridge schema: " + _("{path} is not a folder").format(path=folder),
              file=sys.stderr)  # fmt: skip
        return 1
    for path, text in files.items():
        target = folder / path
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            write_whole(str(target), text)
        except OSError as error:
            message = _("cannot write {path}: {reason}")
            print(
                "sevenbridge schema: "
                + message.format(path=target, reason=error.strerror or error),
                file=sys.stderr,
            )
            return 1
    print(_("{count} schemas written to {folder}").format(count=len(files), folder=folder),
          file=out)  # fmt: skip
    return 0
