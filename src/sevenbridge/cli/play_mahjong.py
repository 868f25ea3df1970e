"""Simple Mahjong's part of the ``play`` command (``sevenbridge play --game mahjong``).

The play loop is :class:`sevenbridge.cli.seat.Game`, shared with the card game;
this part says how a mahjong table, its moves and their narration read, what a
hint says, and how typed moves (``Discard 5m``, ``5m``, ``Chow 46m``, ``pung``)
are read. It goes through the game's protocol functions (``legal_actions``,
``apply``, ``observe``, ``render``, ``explain``, ``parse_move``, ``record``),
so that it keeps up with the engine's claim windows however they ask.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .._kit.i18n import N_
from ..errors import SevenBridgeError
from ..mahjong import (
    Action,
    Chow,
    Discard,
    GameState,
    Kong,
    Mahjong,
    Pass,
    Pung,
    apply,
    events,
    explain,
    format_tiles,
    legal_actions,
    observe,
    parse_move,
    parse_tiles,
    record,
    render,
    shanten,
    waits,
)
from ..mahjong.text import TILE_LEGEND, move_label, round_words

if TYPE_CHECKING:
    from .seat import Game

__all__ = ["HELP", "MahjongPart"]

HELP = N_(
    "Type the number of a move, or the move itself ('Discard 5m', or just '5m'; 'Chow 46m',\n"
    "'Pung', 'Kong 5p', 'Mahjong', 'Pass'). Commands: hint, why MOVE, rules, undo (practice\n"
    "mode), help, quit. A lone move (a draw, a lone pass) is played for you.\n"
    "Ctrl-D saves the record and exits."
)

#: The words a person may type for a move, lower case, and the move's verb.
VERBS = {
    "draw": "Draw", "discard": "Discard", "chow": "Chow", "chi": "Chow", "pung": "Pung",
    "pon": "Pung", "kong": "Kong", "kan": "Kong", "mahjong": "Mahjong", "win": "Mahjong",
    "ron": "Mahjong", "tsumo": "Mahjong", "pass": "Pass",
    "ツモ": "Mahjong", "チー": "Chow", "ポン": "Pung", "カン": "Kong", "ロン": "Mahjong",
    "和了": "Mahjong", "パス": "Pass",
}  # fmt: skip

_ANSI = {"m": "\x1b[31m", "p": "\x1b[34m", "s": "\x1b[32m"}
_ANSI_RESET, _ANSI_BOLD = "\x1b[0m", "\x1b[1m"
_TILE_TOKEN = re.compile(r"(?<![0-9A-Za-z])([1-9]+)([mps])(?![0-9A-Za-z])")
#: The honours as Japanese players write them (發 also as 発), and their notation.
_FROM_KANJI = {
    "東": "E",
    "南": "S",
    "西": "W",
    "北": "N",
    "白": "Wd",
    "發": "Gd",
    "発": "Gd",
    "中": "Rd",
}


def _tile_case(word: str) -> str:
    """Tiles as the notation writes them, however they were typed: ``5M`` is
    ``5m``, ``e`` is ``E``, ``gd`` is ``Gd``, ``東`` is ``E``."""
    if word in _FROM_KANJI:
        return _FROM_KANJI[word]
    if re.fullmatch(r"[1-9]+[mpsMPS]", word):
        return word.lower()
    if re.fullmatch(r"[eswnESWN]", word):
        return word.upper()
    if re.fullmatch(r"[rgwRGW][dD]", word):
        return word[0].upper() + "d"
    return word


class MahjongPart:
    """Simple Mahjong's part of the play loop."""

    auto_lone = True
    help = HELP
    legend = TILE_LEGEND
    example = "Discard 5m"
    symbols = True

    def __init__(self, colour: bool = False, *, auto_lone: bool = True) -> None:
        self.colour = colour
        self.auto_lone = auto_lone

    # --- the engine, through the game's protocol --------------------------------
    def legal_actions(self, state: GameState) -> Sequence[Action]:
        return legal_actions(state)

    def apply(self, state: GameState, action: Action) -> GameState:
        return apply(state, action)

    def bot_view(self, state: GameState) -> Any:
        return observe(state)

    def record(self, state: GameState) -> str:
        return record(state)

    def default_record(self, state: GameState) -> str:
        return f"mahjong-{state.seed}.txt"

    # --- how it reads ------------------------------------------------------------
    def tiles(self, text: str) -> str:
        """Suited tiles in their suit's colour (characters red, dots blue,
        bamboo green) where the terminal has colours."""
        if not self.colour:
            return text
        return _TILE_TOKEN.sub(lambda m: f"{_ANSI[m[2]]}{m[0]}{_ANSI_RESET}", text)

    def show_table(self, game: Game) -> None:
        _, state = game._, game.state
        view = observe(state, game.seat)
        lines = render(view, lang=game.lang).splitlines()
        status, seats = lines[-1], lines[1:-1]
        game.say()
        heading = f"== {status.rstrip('.。')} =="
        game.say(f"{_ANSI_BOLD}{heading}{_ANSI_RESET}" if self.colour else heading)
        game.say("  " + lines[0])
        for line in seats:
            mark = ">" if line.startswith(f"P{state.current_player} ") else " "
            game.say(f"{mark} {self.tiles(line)}")
        if not state.is_over:
            game.say(
                "  "
                + _("Your hand: {tiles}").format(
                    tiles=self.tiles(format_tiles(view.hand, compact=False, lang=game.lang))
                )
            )

    def move_text(self, game: Game, action: Action) -> str:
        state, lang = game.state, game.lang
        move = str(action) if lang in (None, "en") else move_label(action, lang=lang)
        tile = state.last_discard
        if isinstance(action, Pung) and tile is not None:
            tiles = [tile] * 3
        elif isinstance(action, Chow) and tile is not None:
            tiles = sorted([*action.tiles, tile])
        elif isinstance(action, Kong) and tile is not None and state.phase.value == "claim":
            tiles = [tile] * 4
        else:
            return self.tiles(move)
        gloss = format_tiles(tiles, compact=False, lang=lang)
        return self.tiles(game._("{move}   ({tiles})").format(move=move, tiles=gloss))

    def events(self, game: Game, before: GameState, action: Action, after: GameState) -> Any:
        return events(before, action, after, viewer=game.seat)

    def styled(self, game: Game, line: str) -> str:
        return self.tiles(line)

    # --- input -------------------------------------------------------------------
    def read_move(self, game: Game, text: str, actions: Sequence[Action]) -> Action | None:
        words = text.split()
        if words and re.fullmatch(r"[Pp][0-3]", words[0]):
            seat, words = int(words[0][1]), words[1:]
        else:
            seat = game.seat
        if not words:
            return None
        verb = VERBS.get(words[0].lower())
        if verb is None:  # a lone tile: discard it
            if len(words) != 1:
                return None
            verb, words = "Discard", ["Discard", words[0]]
        discard = game.state.last_discard
        if verb in ("Pung", "Mahjong") and len(words) == 2 and discard is not None:
            # "Pung 3p": the move's full text names the discard it claims.
            with contextlib.suppress(SevenBridgeError, ValueError):
                named = parse_tiles(_tile_case(words[1]))
                if named and all(tile == discard for tile in named):
                    words = words[:1]
        try:
            return parse_move(" ".join([f"P{seat}", verb, *map(_tile_case, words[1:])]))
        except (SevenBridgeError, ValueError):
            return None

    def explain(self, game: Game, action: Action) -> str:
        return explain(game.state, action, lang=game.lang)

    def hint(self, game: Game) -> str:
        _, state = game._, game.state
        view = observe(state, game.seat)
        action: Action = game.advisor(view)
        own = view.melds_of(game.seat)
        if isinstance(action, Mahjong):
            why = _("it wins the round")
        elif isinstance(action, Discard):
            rest = list(view.hand)
            rest.remove(action.tile)
            away = shanten(rest, len(own))
            if away <= 0:
                why = _("your hand then waits on {tiles}").format(
                    tiles=format_tiles(waits(rest, own), compact=False, lang=game.lang)
                )
            elif away == 1:
                why = _("it keeps your hand one tile from waiting, and fits your other tiles least")
            else:
                why = _(
                    "it keeps your hand {n} tiles from waiting, and fits your other tiles least"
                ).format(n=away)
        elif isinstance(action, (Pung, Chow)):
            why = _("the set brings your hand closer to a win")
        elif isinstance(action, Kong):
            why = _("a kong is a set on the table, and you draw a tile to replace it")
        elif isinstance(action, Pass):
            why = _("no claim brings your hand closer to a win")
        else:
            why = _("a turn begins with a draw from the wall")
        return _("Hint: {move} ({why}).").format(move=self.move_text(game, action), why=why)

    def rules_lines(self, game: Game) -> list[str]:
        _, r = game._, game.state.rules
        lines = [
            _(
                "Goal: the first to hold four sets (pung: three alike; chow: a run of three in "
                "one suit) and a pair wins the round."
            ),
            _(
                "A turn: draw a tile, then discard one. Anyone may PUNG the discard; the next "
                "player may CHOW it; MAHJONG beats both."
            ),
            _("Kongs: four alike make a set; a replacement tile is drawn.")
            if r.kong
            else _("Kongs: not played."),
        ]
        if r.flowers or r.seasons:
            lines.append(_("Bonus tiles: set aside when drawn, and replaced from the wall."))
        return lines

    def end_lines(self, game: Game) -> list[str]:
        state = game.state
        lines = round_words(state, you=game.seat, lang=game.lang)
        return [self.tiles(line) for line in lines] + [game._("End of the round.")]
