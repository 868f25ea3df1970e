"""The mahjong actions, as small frozen values.

Every action names the ``player`` (seat) who takes it. ``str()`` gives the move
without the player (``Chow 46m``); ``repr()`` evaluates back to the action;
:func:`format_move` writes an action with its player (``P1 Chow 46m``) and
:func:`parse_move` (or its older name :func:`parse_action`) reads it back.

>>> from sevenbridge.mahjong import Chow, Discard, parse_action
>>> str(Chow(1, "6m 4m"))
'Chow 46m'
>>> parse_action("P2 Discard Rd")
Discard(2, 'Rd')
"""

from __future__ import annotations

import re
from typing import Any

import attrs

from .._kit import checks as _checks
from .._kit.actionbase import JsonAction
from .._kit.i18n import N_, register_format, translator
from .._kit.movetext import with_player
from ..errors import InvalidStateError, Message, quote
from .errors import InvalidTileError
from .tiles import Tile, format_tiles, parse_tiles

__all__ = [
    "Action",
    "Chow",
    "Discard",
    "Draw",
    "Kong",
    "Mahjong",
    "Pass",
    "Pung",
    "format_move",
    "parse_action",
    "parse_move",
]

#: Seats at a mahjong table: 0 to 3.
MAX_SEATS = 4


def _player(value: Any) -> int:
    if type(value) is not int or not 0 <= value < MAX_SEATS:
        return _checks.integer(
            value,
            "player",
            0,
            MAX_SEATS - 1,
            Message("why.mahjong_seats", " (a mahjong table has 4 seats)"),
        )
    return int(value)


def _tile(value: Any) -> Tile:
    if type(value) is Tile:
        return value
    if isinstance(value, str):
        return Tile.parse(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return Tile(value)
    raise TypeError(f"tile must be a Tile or text, not {_checks.type_name(value)}")


def _pair(value: Any) -> tuple[Tile, Tile]:
    if isinstance(value, tuple) and len(value) == 2 and all(type(t) is Tile for t in value):
        a, b = value
    else:
        if not isinstance(value, (str, tuple, list)):
            raise TypeError(f"tiles must be text or two tiles, not {_checks.type_name(value)}")
        tiles = parse_tiles(value)
        if len(tiles) != 2:
            raise InvalidTileError(
                format_tiles(tiles),
                Message(
                    "invalid_tile.chow_takes_two_tiles",
                    "a chow takes two tiles from the hand, not {n_tiles}",
                    n_tiles=len(tiles),
                ),
            )
        a, b = tiles
    return (a, b) if a <= b else (b, a)


class _Base(JsonAction):
    """What every action shares: the player, and JSON.

    >>> from sevenbridge.mahjong import Kong
    >>> Kong.from_json(Kong(2, "5p").to_json())
    Kong(2, '5p')
    """

    __slots__ = ()
    _TO_JSON = "mahjong_action_to_json"
    _FROM_JSON = "mahjong_action_from_json"
    player: int


@attrs.frozen(cache_hash=True, repr=False)
class Draw(_Base):
    """Draw the next tile from the wall (the start of an ordinary turn)."""

    player: int = attrs.field(converter=_player)

    def __str__(self) -> str:
        return "Draw"

    def __repr__(self) -> str:
        return f"Draw({self.player})"


@attrs.frozen(cache_hash=True, repr=False)
class Discard(_Base):
    """Discard a tile face up, ending the turn."""

    player: int = attrs.field(converter=_player)
    tile: Tile = attrs.field(converter=_tile)

    def __str__(self) -> str:
        return f"Discard {self.tile}"

    def __repr__(self) -> str:
        return f"Discard({self.player}, {str(self.tile)!r})"


@attrs.frozen(cache_hash=True, repr=False)
class Chow(_Base):
    """Claim the discard for a chow with two tiles from the hand (only the
    player after the discarder)."""

    player: int = attrs.field(converter=_player)
    tiles: tuple[Tile, Tile] = attrs.field(converter=_pair)

    def __str__(self) -> str:
        return f"Chow {format_tiles(self.tiles)}"

    def __repr__(self) -> str:
        return f"Chow({self.player}, {format_tiles(self.tiles, compact=False)!r})"


@attrs.frozen(cache_hash=True, repr=False)
class Pung(_Base):
    """Claim the discard for a pung with two matching tiles from the hand."""

    player: int = attrs.field(converter=_player)

    def __str__(self) -> str:
        return "Pung"

    def __repr__(self) -> str:
        return f"Pung({self.player})"


@attrs.frozen(cache_hash=True, repr=False)
class Kong(_Base):
    """Make a kong of ``tile``: by claiming the discard with three in hand, or
    on one's own turn from four in hand or by adding the fourth to one's pung.
    A replacement tile is drawn from the back of the wall."""

    player: int = attrs.field(converter=_player)
    tile: Tile = attrs.field(converter=_tile)

    def __str__(self) -> str:
        return f"Kong {self.tile}"

    def __repr__(self) -> str:
        return f"Kong({self.player}, {str(self.tile)!r})"


@attrs.frozen(cache_hash=True, repr=False)
class Mahjong(_Base):
    """Declare a win: on one's own draw, or by claiming the discard."""

    player: int = attrs.field(converter=_player)

    def __str__(self) -> str:
        return "Mahjong"

    def __repr__(self) -> str:
        return f"Mahjong({self.player})"


@attrs.frozen(cache_hash=True, repr=False)
class Pass(_Base):
    """Decline to claim the discard."""

    player: int = attrs.field(converter=_player)

    def __str__(self) -> str:
        return "Pass"

    def __repr__(self) -> str:
        return f"Pass({self.player})"


#: Any mahjong action.
Action = Draw | Discard | Chow | Pung | Kong | Mahjong | Pass

#: Each kind of move as a list of moves names it (see :data:`sevenbridge.mahjong.text.MOVE_KINDS`).
KIND_WORDS = {
    "Mahjong": N_("Mahjong"),
    "Draw": N_("Draw"),
    "Chow": N_("Chow"),
    "Pung": N_("Pung"),
    "Kong": N_("Kong"),
    "Pass": N_("Pass"),
    "Discard": N_("Discard"),
}


def _used(action: _Base) -> tuple[Tile, ...]:
    """The tiles of the hand a move names (a claim's tile is the discard)."""
    if isinstance(action, Chow):
        return action.tiles
    if isinstance(action, (Discard, Kong)):
        return (action.tile,)
    return ()


def _words(action: _Base, lang: str | None) -> str:
    """The kind of move, then the tiles of the hand it names (``Chow 46m``)."""
    word = translator(lang)(KIND_WORDS[type(action).__name__])
    tiles = _used(action)
    return f"{word} {format_tiles(tiles, lang=lang)}" if tiles else word


def _action_text(action: _Base, lang: str) -> str:
    """A move in a translated message (a refused one): ``Discard(0, '5m')`` in
    English, as ``repr`` writes it; in other languages the seat, then the move
    in words (``P0 捨てる 中``)."""
    return repr(action) if lang == "en" else f"P{action.player} {_words(action, lang)}"


register_format(_Base, _action_text)

_MOVE = re.compile(r"\s*P([0-3])\s+(\w+)\s*(.*?)\s*$")


def parse_action(text: str) -> Action:
    """Read an action written as ``P<seat> <str(action)>``, such as ``P0 Draw``,
    ``P3 Kong 5p`` or ``P1 Chow 46m``.

    Raises:
        InvalidStateError: for text that names no action.
        InvalidTileError: for a tile that does not parse.

    >>> parse_action("P1 Chow 4m 6m")
    Chow(1, '4m 6m')
    >>> parse_action("P1 Chew 46m")
    Traceback (most recent call last):
    ...
    sevenbridge.errors.InvalidStateError: 'P1 Chew 46m' is not an action: unknown verb 'Chew'
    """
    if not isinstance(text, str):
        raise TypeError(f"an action is written as text, not {_checks.type_name(text)}")
    match = _MOVE.match(text)
    if match is None:
        raise InvalidStateError(
            Message(
                "invalid_state.not_action_expected_p",
                "{text} is not an action: expected 'P<seat> <move>'",
                text=format(repr(text), ".60"),
            )
        )
    seat, verb, rest = int(match[1]), match[2], match[3]
    plain: dict[str, type[Draw | Pung | Mahjong | Pass]] = {
        "Draw": Draw, "Pung": Pung, "Mahjong": Mahjong, "Pass": Pass,
    }  # fmt: skip
    if verb in plain:
        if rest:
            raise InvalidStateError(
                Message(
                    "invalid_state.not_action_takes_no",
                    "{text} is not an action: {verb} takes no tiles",
                    text=format(repr(text), ".60"),
                    verb=verb,
                )
            )
        return plain[verb](seat)
    if verb == "Discard":
        return Discard(seat, Tile.parse(rest))
    if verb == "Kong":
        return Kong(seat, Tile.parse(rest))
    if verb == "Chow":
        return Chow(seat, rest)
    raise InvalidStateError(
        Message(
            "invalid_state.not_action_unknown_verb",
            "{text} is not an action: unknown verb {verb}",
            text=format(repr(text), ".60"),
            verb=quote(verb),
        )
    )


def parse_move(text: str, *, player: int | None = None) -> Action:
    """Read one move written as :func:`format_move` writes it (``P1 Chow 46m``);
    the card game's :func:`sevenbridge.notation.parse_move` reads its own moves alike.
    :func:`parse_action` is the older name of this function. With ``player``,
    the text may leave its player out (``Chow 46m``); text that names a player
    must name that one.

    Raises:
        InvalidStateError: for text that names no action.
        InvalidTileError: for a tile that does not parse.
        InvalidArgumentError: for text that names another player than ``player``.

    >>> parse_move("P3 Kong 5p")
    Kong(3, '5p')
    >>> parse_move(format_move(Chow(1, "46m"))) == Chow(1, "46m") == parse_move("Chow 46m", player=1)
    True
    """
    return parse_action(with_player(text, player))


def format_move(action: Action) -> str:
    """``P<seat> <move>`` for an action, as records write it.

    Raises:
        TypeError: for anything but a mahjong action.

    >>> format_move(Chow(1, "6m 4m"))
    'P1 Chow 46m'
    """
    if not isinstance(action, _Base):
        raise TypeError(f"action must be a mahjong action, not {_checks.type_name(action)}")
    return f"P{action.player} {action}"
