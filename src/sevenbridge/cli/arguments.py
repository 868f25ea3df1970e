"""Arguments that several commands share, declared once."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from typing import Any

from .._kit.i18n import name_text, translator
from ..errors import InvalidArgumentError, Message, quote
from ..games import CARD_GAME, GAMES, game_module
from ..rules import Rules


def game_choices() -> tuple[str, ...]:
    """The games as the command line names them (each game's ``GAME.command``:
    ``sevenbridge`` is the card game); this imports every game."""
    return tuple(game_module(g).GAME.command for g in GAMES)


def add_game(parser: argparse.ArgumentParser, _: Callable[[str], str] = str) -> None:
    """``--game GAME``: ``sevenbridge`` (the card game, default) or ``mahjong``."""
    parser.add_argument(
        "--game",
        choices=game_choices(),
        default=game_module(CARD_GAME).GAME.command,
        help=_("the game: sevenbridge (default) or mahjong (Simple Mahjong)"),
    )


def game_name(choice: str) -> str:
    """The library's name (:data:`sevenbridge.GAMES`) of a ``--game`` choice."""
    return next((g for g in GAMES if game_module(g).GAME.command == choice), choice)


def game_label(game: str, lang: str | None = None) -> str:
    """A prefix that names a game other than the card game in a heading
    (``"mahjong "``; in Japanese ``"シンプル麻雀の"``): the game's ``GAME.label``."""
    label = game_module(game_name(game)).GAME.label
    return translator(lang)(label) if label else ""


def rules_label(game: str, preset: str, lang: str | None = None) -> str:
    """The rules a heading names: the preset's name, after the game's for a
    game other than the card game (``"mahjong standard"``; in Japanese
    ``"シンプル麻雀の標準"``)."""
    name = name_text(preset, lang)
    label = game_module(game_name(game)).GAME.rules_label
    return translator(lang)(label).format(preset=name)


def add_rules(
    parser: argparse.ArgumentParser, _: Callable[[str], str] = str, *, games: bool = False
) -> None:
    """``--rules PRESET``, one of the presets, default ``standard`` (with
    ``games``: the presets of every game, checked against ``--game`` by
    :func:`rules_of`)."""
    presets = Rules.presets()
    if games:
        others = sorted(
            {
                p
                for g in GAMES
                if game_module(g).Rules is not Rules
                for p in game_module(g).Rules.presets()
            }
        )
        choices = sorted(set(presets) | set(others))
        text = _("rule preset: {presets} (default standard); for mahjong {mahjong_presets}").format(
            presets=", ".join(presets), mahjong_presets=", ".join(others)
        )
    else:
        choices, text = (
            list(presets),
            _("rule preset: {presets} (default standard)").format(presets=", ".join(presets)),
        )
    parser.add_argument("--rules", default="standard", choices=choices, metavar="PRESET", help=text)


def rules_of(args: argparse.Namespace) -> Any:
    """The rules ``--rules`` names for the game ``--game`` names."""
    kind: Any = game_module(game_name(getattr(args, "game", "sevenbridge"))).Rules
    if args.rules not in kind.presets():
        raise InvalidArgumentError(
            Message(
                "invalid_argument.no_preset_for_game",
                "no {game} preset {name}; known: {presets}",
                game=getattr(args, "game", "sevenbridge"),
                name=quote(args.rules),
                presets=", ".join(kind.presets()),
            )
        )
    return kind.preset(args.rules)


def writable_file(_: Callable[[str], str] = str) -> Callable[[str], str]:
    """An argument ``type`` for a file the command writes later (not opened
    now, so nothing is made if nothing is saved): refuses a path that names a
    folder, or lies in a folder that does not exist or cannot be written."""

    def check(path: str) -> str:
        folder = os.path.dirname(os.path.abspath(path))
        if os.path.isdir(path):
            problem = _("{path} is a folder, not a file")
        elif not os.path.isdir(folder):
            problem = _("no folder {folder} to write {path} in")
        elif not os.access(path if os.path.exists(path) else folder, os.W_OK):
            problem = _("{path} cannot be written (no permission)")
        else:
            return path
        raise argparse.ArgumentTypeError(problem.format(path=path, folder=folder))

    return check
