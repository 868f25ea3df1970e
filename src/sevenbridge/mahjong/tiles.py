"""Mahjong tiles and their text notation.

A suited tile is its number then its suit letter: ``1m``-``9m`` (characters),
``1p``-``9p`` (dots), ``1s``-``9s`` (bamboos). The winds are ``E S W N`` and
the dragons ``Wd Gd Rd`` (white, green, red). The bonus tiles, used only when
the rules ask for them, are the flowers ``1f``-``4f`` and the seasons
``5f``-``8f``. Numbers of one suit may share the letter (``123m`` is
``1m 2m 3m``), and tiles may be written without spaces (``123m55pEE``).

>>> from sevenbridge.mahjong import Tile, parse_tiles
>>> Tile.parse("5p")
Tile('5p')
>>> [str(t) for t in parse_tiles("123m EE Rd")]
['1m', '2m', '3m', 'E', 'E', 'Rd']
>>> format_tiles(parse_tiles("1m 2m 3m 5p 5p E"))
'123m55pE'
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable
from typing import Any

from .._kit import hooks as _hooks
from ..errors import Message
from .errors import InvalidTileError

__all__ = [
    "BONUS_TILES",
    "DRAGONS",
    "HONOURS",
    "TILE_KINDS",
    "WINDS",
    "Tile",
    "TileSuit",
    "format_tiles",
    "full_wall",
    "parse_tiles",
]


class TileSuit(str, enum.Enum):
    """The families of tiles."""

    CHARACTERS = "m"
    """Characters (man), numbered 1 to 9."""
    DOTS = "p"
    """Dots (pin), numbered 1 to 9."""
    BAMBOOS = "s"
    """Bamboos (sou), numbered 1 to 9."""
    WINDS = "wind"
    """The four winds, East, South, West, North."""
    DRAGONS = "dragon"
    """The three dragons, white, green, red."""
    BONUS = "f"
    """Flowers (1-4) and seasons (5-8), set aside when drawn and never part of a hand."""


_NAMES = (
    [f"{n}m" for n in range(1, 10)]
    + [f"{n}p" for n in range(1, 10)]
    + [f"{n}s" for n in range(1, 10)]
    + ["E", "S", "W", "N", "Wd", "Gd", "Rd"]
    + [f"{n}f" for n in range(1, 9)]
)
_LONG = (
    [f"{n} of characters" for n in range(1, 10)]
    + [f"{n} of dots" for n in range(1, 10)]
    + [f"{n} of bamboos" for n in range(1, 10)]
    + ["East wind", "South wind", "West wind", "North wind"]
    + ["White dragon", "Green dragon", "Red dragon"]
    + [f"Flower {n}" for n in range(1, 5)]
    + [f"Season {n}" for n in range(1, 5)]
)
_INDEX = {name: i for i, name in enumerate(_NAMES)}

#: Indexes: 0-8 characters, 9-17 dots, 18-26 bamboos, 27-30 winds, 31-33
#: dragons, 34-37 flowers, 38-41 seasons.
N_KINDS = 34
N_ALL = 42


class Tile(int):
    """One mahjong tile, identified by its kind (the four copies of a kind are
    equal).

    A tile is an immutable ``int`` (its index, 0 to 41), so tiles sort in a fixed
    order (characters, dots, bamboos, winds, dragons, bonus tiles), index the
    count arrays the hand checks use, and cost nothing to compare. Every tile
    of a kind is the same object. (This departs from the library's attrs
    values for speed: the engine moves tiles millions of times.)

    Args:
        index: 0 to 41, or the tile's text (as :meth:`parse` reads it).

    Raises:
        InvalidTileError: for an index out of range.

    >>> Tile(0), Tile(27), Tile(33)
    (Tile('1m'), Tile('E'), Tile('Rd'))
    >>> Tile.parse("9s").number, Tile.parse("9s").suit
    (9, <TileSuit.BAMBOOS: 's'>)
    >>> sorted(parse_tiles("Rd 1s E 1m"))
    [Tile('1m'), Tile('1s'), Tile('E'), Tile('Rd')]
    """

    __slots__ = ()

    def __new__(cls, index: Any) -> Tile:
        if type(index) is int and 0 <= index < N_ALL and _ALL:
            return _ALL[index]
        if isinstance(index, Tile):
            return index
        if isinstance(index, str):
            return cls.parse(index)
        if isinstance(index, bool) or not isinstance(index, int):
            raise TypeError(f"Tile() takes an index 0-41, not {type(index).__name__}")
        if not 0 <= index < N_ALL:
            raise InvalidTileError(
                str(index),
                Message("invalid_tile.tile_indexes_run_from", "tile indexes run from 0 to 41"),
            )
        return super().__new__(cls, index)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Tile, (int(self),))

    def __copy__(self) -> Tile:
        return self

    def __deepcopy__(self, memo: Any) -> Tile:
        return self

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Read one tile such as ``5p``, ``E`` or ``Rd``.

        Raises:
            InvalidTileError: if the text is not exactly one tile.

        >>> Tile.parse(" Gd ")
        Tile('Gd')
        """
        if isinstance(text, Tile):
            return text
        if not isinstance(text, str):
            raise TypeError(f"a tile is written as text, not {type(text).__name__}")
        tiles = parse_tiles(text)
        if len(tiles) != 1:
            raise InvalidTileError(
                text,
                Message(
                    "invalid_tile.that_tiles_not_one",
                    "that is {n_tiles} tiles, not one",
                    n_tiles=len(tiles),
                ),
            )
        return tiles[0]

    @property
    def index(self) -> int:
        """The tile's index, 0 to 41."""
        return int(self)

    @property
    def suit(self) -> TileSuit:
        """The family the tile belongs to."""
        i = int(self)
        if i < 27:
            return _SUITED[i // 9]
        if i < 31:
            return TileSuit.WINDS
        if i < 34:
            return TileSuit.DRAGONS
        return TileSuit.BONUS

    @property
    def number(self) -> int | None:
        """1-9 for suited tiles, 1-8 for bonus tiles, ``None`` for honours."""
        i = int(self)
        if i < 27:
            return i % 9 + 1
        if i >= 34:
            return i - 33
        return None

    @property
    def is_suited(self) -> bool:
        """Whether the tile is a characters, dots or bamboos tile."""
        return int(self) < 27

    @property
    def is_honour(self) -> bool:
        """Whether the tile is a wind or a dragon (honours never form chows)."""
        return 27 <= int(self) < 34

    @property
    def is_dragon(self) -> bool:
        """Whether the tile is a dragon."""
        return 31 <= int(self) < 34

    @property
    def is_bonus(self) -> bool:
        """Whether the tile is a flower or a season."""
        return int(self) >= 34

    @property
    def name(self) -> str:
        """The tile in words, such as ``"5 of dots"`` or ``"Red dragon"``."""
        return _LONG[int(self)]

    def __str__(self) -> str:
        return _NAMES[int(self)]

    def __repr__(self) -> str:
        return f"Tile({_NAMES[int(self)]!r})"

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def _repr_svg_(self) -> str:
        """The tile drawn as SVG (:func:`sevenbridge.mahjong.svg.tile`), for notebooks."""
        return str(_hooks.call("mahjong_repr_svg", self))


_SUITED = (TileSuit.CHARACTERS, TileSuit.DOTS, TileSuit.BAMBOOS)
_ALL: tuple[Tile, ...] = ()
_ALL = tuple(Tile(i) for i in range(N_ALL))

#: The 34 kinds of playing tile, in order.
TILE_KINDS: tuple[Tile, ...] = _ALL[:N_KINDS]
#: The four winds.
WINDS: tuple[Tile, ...] = _ALL[27:31]
#: The three dragons.
DRAGONS: tuple[Tile, ...] = _ALL[31:34]
#: Winds and dragons.
HONOURS: tuple[Tile, ...] = _ALL[27:34]
#: The four flowers then the four seasons.
BONUS_TILES: tuple[Tile, ...] = _ALL[34:42]

_TOKEN = re.compile(r"([0-9]+)([mpsf])|(Wd|Gd|Rd)|([ESWN])")
_SEPARATORS = re.compile(r"[\s,]+")


def _parse_token(token: str, out: list[Tile]) -> None:
    pos = 0
    while pos < len(token):
        match = _TOKEN.match(token, pos)
        if match is None:
            rest = token[pos:]
            if re.match(r"[0-9]+$", rest):
                reason = Message(
                    "invalid_tile.no_suit_letter",
                    "the numbers {rest} have no suit letter (m, p, s or f)",
                    rest=repr(rest),
                )
            elif re.match(r"[0-9]+[MPS]", rest):
                reason = Message("invalid_tile.lower_case", "suit letters are lower case: m, p, s")
            elif re.match(r"(wd|gd|rd|WD|GD|RD)", rest):
                reason = Message("invalid_tile.dragons", "dragons are written Wd, Gd, Rd")
            else:
                reason = Message(
                    "invalid_tile.cannot_read",
                    "cannot read {rest}; tiles are 1m-9m, 1p-9p, 1s-9s, E S W N, Wd Gd Rd, 1f-8f",
                    rest=repr(rest[:10]),
                )
            raise InvalidTileError(token, reason)
        numbers, suit, dragon, wind = match.groups()
        if numbers is not None:
            top = 8 if suit == "f" else 9
            for digit in numbers:
                n = int(digit)
                if not 1 <= n <= top:
                    why = (
                        Message("invalid_tile.bonus_numbers", "bonus tiles are numbered 1 to 8")
                        if suit == "f"
                        else Message(
                            "invalid_tile.suited_numbers", "suited tiles are numbered 1 to 9"
                        )
                    )
                    raise InvalidTileError(token, why)
                out.append(_ALL[_INDEX[f"{n}{suit}"]])
        else:
            out.append(_ALL[_INDEX[dragon or wind]])
        pos = match.end()


def parse_tiles(text: str | Iterable[Tile | str]) -> tuple[Tile, ...]:
    """Read tiles from text (``"123m 55p E"``) or from an iterable of tiles and
    texts, in the order given.

    Raises:
        InvalidTileError: quoting the part that does not parse.
        TypeError: if ``text`` is neither text nor an iterable.

    >>> parse_tiles("19m19p19s ESWN WdGdRd")[:3]
    (Tile('1m'), Tile('9m'), Tile('1p'))
    >>> parse_tiles("10m")
    Traceback (most recent call last):
    ...
    sevenbridge.errors.InvalidTileError: '10m' is not a tile: suited tiles are numbered 1 to 9
    """
    if isinstance(text, str):
        out: list[Tile] = []
        for token in _SEPARATORS.split(text.strip()):
            if token:
                _parse_token(token, out)
        return tuple(out)
    if isinstance(text, (bytes, bytearray)) or not isinstance(text, Iterable):
        raise TypeError(f"tiles must be text or an iterable of tiles, not {type(text).__name__}")
    items: list[Tile] = []
    for item in text:
        if isinstance(item, Tile):
            items.append(item)
        elif isinstance(item, str):
            items.extend(parse_tiles(item))
        else:
            raise TypeError(f"a tile must be a Tile or text, not {type(item).__name__}")
    return tuple(items)


def format_tiles(tiles: Iterable[Tile], *, compact: bool = True) -> str:
    """Tiles as text: compact (``123m55pE``, suits sharing their letter, in the
    order given) or spaced (``1m 2m 3m 5p 5p E``).

    >>> format_tiles(parse_tiles("1m 2m 9p E E"), compact=False)
    '1m 2m 9p E E'
    >>> format_tiles(parse_tiles("3s 1s 2s"))
    '312s'
    """
    items = list(tiles)
    if not compact:
        return " ".join(_NAMES[t] for t in items)
    parts: list[str] = []
    run: list[str] = []
    letter = ""
    for t in items:
        name = _NAMES[t]
        if t < 27 or t >= 34:
            if name[1] != letter and run:
                parts.append("".join(run) + letter)
                run = []
            letter = name[1]
            run.append(name[0])
        else:
            if run:
                parts.append("".join(run) + letter)
                run, letter = [], ""
            parts.append(name)
    if run:
        parts.append("".join(run) + letter)
    return "".join(parts)


def full_wall(*, flowers: bool = False, seasons: bool = False) -> tuple[Tile, ...]:
    """Every tile of a set in order: four of each of the 34 kinds (136 tiles),
    plus one of each flower and season when asked (144 with both).

    >>> len(full_wall()), len(full_wall(flowers=True, seasons=True))
    (136, 144)
    """
    out = [t for t in TILE_KINDS for _ in range(4)]
    if flowers:
        out.extend(BONUS_TILES[:4])
    if seasons:
        out.extend(BONUS_TILES[4:])
    return tuple(out)


def tile_list(value: Any, name: str) -> tuple[Tile, ...]:
    """Tiles from text or an iterable, with a TypeError naming ``name`` for other types."""
    if isinstance(value, tuple) and all(type(t) is Tile for t in value):
        return value
    if not isinstance(value, (str, Iterable)) or isinstance(value, (bytes, bytearray)):
        raise TypeError(f"{name} must be text or an iterable of tiles, not {type(value).__name__}")
    return parse_tiles(value)
