"""Mahjong tiles and their text notation.

A suited tile is its number then its suit letter: ``1m``-``9m`` (characters),
``1p``-``9p`` (dots), ``1s``-``9s`` (bamboos). The winds are ``E S W N`` and
the dragons ``Wd Gd Rd`` (white, green, red). The bonus tiles, used only when
the rules ask for them, are the flowers ``1f``-``4f`` and the seasons
``5f``-``8f``. Numbers of one suit may share the letter (``123m`` is
``1m 2m 3m``), and tiles may be written without spaces (``123m55pEE``).

The honours may also be written in the ``z`` notation of other mahjong
software: ``1z``-``4z`` the winds East, South, West, North and ``5z``-``7z``
the white, green and red dragons. :func:`to_34_array`, :func:`from_34_array`,
:func:`to_136_array` and :func:`from_136_array` convert to and from the tile
arrays of the ``mahjong`` package on PyPI and of RLCard: 34 counts, one a kind
in the order characters, dots, bamboos, winds, dragons (this module's own
order), or 136 tile indexes, the four copies of kind ``k`` being ``4k``-``4k+3``.

>>> parse_tiles("1z 5z7z") == parse_tiles("E Wd Rd")
True
>>> to_136_array(parse_tiles("1m 1m E"))
[0, 1, 108]

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
from .._kit.i18n import check_lang, register_format
from ..errors import Message, quote
from .errors import InvalidArgumentError, InvalidTileError

__all__ = [
    "BONUS_TILES",
    "DRAGONS",
    "HONOURS",
    "TILE_KINDS",
    "WINDS",
    "Tile",
    "TileSuit",
    "format_tiles",
    "from_34_array",
    "from_136_array",
    "full_wall",
    "parse_tiles",
    "to_34_array",
    "to_136_array",
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
#: How Japanese players write the honours and the bonus tiles: the winds 東 南
#: 西 北, the dragons 白 發 中, the flowers 梅 蘭 菊 竹 and the seasons 春 夏 秋 冬
#: (suited tiles keep their notation, ``5m``, as Japanese writing has it too).
_KANJI = "東南西北白發中梅蘭菊竹春夏秋冬"
_JA_NAMES = _NAMES[:27] + list(_KANJI)

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

    def _repr_html_(self) -> str:
        """The tile drawn inline in HTML, its title and description kept, for notebooks."""
        return str(_hooks.call("mahjong_repr_html", self))


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

_TOKEN = re.compile(r"([0-9]+)([mpsfz])|(Wd|Gd|Rd)|([ESWN])")
#: The most tiles a text may name: a whole wall with flowers and seasons.
MAX_TILES = 144
#: The most numbers of each suit letter (``z``: the seven honours).
_TOP = {"m": 9, "p": 9, "s": 9, "f": 8, "z": 7}
_PIECE = re.compile(r"[^\s,]+")


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
                    rest=quote(rest),
                )
            elif re.match(r"[0-9]+[MPS]", rest):
                reason = Message("invalid_tile.lower_case", "suit letters are lower case: m, p, s")
            elif re.match(r"(wd|gd|rd|WD|GD|RD)", rest):
                reason = Message("invalid_tile.dragons", "dragons are written Wd, Gd, Rd")
            else:
                reason = Message(
                    "invalid_tile.cannot_read",
                    "cannot read {rest}; tiles are 1m-9m, 1p-9p, 1s-9s, E S W N, Wd Gd Rd, 1f-8f",
                    rest=quote(rest[:10]),
                )
            raise InvalidTileError(token, reason)
        numbers, suit, dragon, wind = match.groups()
        if numbers is not None:
            top = _TOP[suit]
            for digit in numbers[: MAX_TILES + 1]:  # more are refused below
                n = int(digit)
                if not 1 <= n <= top:
                    if suit == "f":
                        why = Message(
                            "invalid_tile.bonus_numbers", "bonus tiles are numbered 1 to 8"
                        )
                    elif suit == "z":
                        why = Message(
                            "invalid_tile.honour_numbers",
                            "honours are numbered 1 to 7 (1z-4z E S W N, 5z-7z Wd Gd Rd)",
                        )
                    else:
                        why = Message(
                            "invalid_tile.suited_numbers", "suited tiles are numbered 1 to 9"
                        )
                    raise InvalidTileError(token, why)
                out.append(_ALL[27 + n - 1] if suit == "z" else _ALL[_INDEX[f"{n}{suit}"]])
        else:
            out.append(_ALL[_INDEX[dragon or wind]])
        pos = match.end()
        if len(out) > MAX_TILES:  # refused at once, however long the text
            raise InvalidTileError(
                token,
                Message(
                    "invalid_tile.more_than_a_wall",
                    "it names more tiles than a wall holds ({most})",
                    most=str(MAX_TILES),
                ),
            )


def parse_tiles(text: str | Iterable[Tile | str]) -> tuple[Tile, ...]:
    """Read tiles from text (``"123m 55p E"``) or from an iterable of tiles and
    texts, in the order given.

    Raises:
        InvalidTileError: quoting the part that does not parse, or for a text
            naming more tiles than a wall holds (144).
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
        for found in _PIECE.finditer(text):
            _parse_token(found.group(), out)
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


def format_tiles(tiles: Iterable[Tile], *, compact: bool = True, lang: str | None = None) -> str:
    """Tiles as text: compact (``123m55pE``, suits sharing their letter, in the
    order given) or spaced (``1m 2m 3m 5p 5p E``); in Japanese (``lang="ja"``)
    the honours and bonus tiles are written as Japanese players write them
    (``123m55p東``: 東 南 西 北, 白 發 中, 梅 蘭 菊 竹, 春 夏 秋 冬).

    Raises:
        InvalidArgumentError: for a language without a catalog.

    >>> format_tiles(parse_tiles("1m 2m 9p E E"), compact=False)
    '1m 2m 9p E E'
    >>> format_tiles(parse_tiles("3s 1s 2s"))
    '312s'
    >>> format_tiles(parse_tiles("345s EEE Rd 2f"), lang="ja")
    '345s東東東中蘭'
    """
    items = list(tiles)
    names = _NAMES if lang is None or check_lang(lang) == "en" else _JA_NAMES
    if not compact:
        return " ".join(names[t] for t in items)
    parts: list[str] = []
    run: list[str] = []
    letter = ""
    for t in items:
        name = names[t]
        if t < 27 or (t >= 34 and names is _NAMES):
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


#: Kinds of playing tile (no bonus tiles): the length of a 34-kind array.
N_PLAYING = 34


def to_34_array(tiles: str | Iterable[Tile | str]) -> list[int]:
    """How many of each of the 34 kinds the tiles hold: the count array of the
    ``mahjong`` package on PyPI and of RLCard (see the module's notes).

    Raises:
        InvalidArgumentError: for a bonus tile (it has no place in the array)
            or more than four of a kind.

    >>> to_34_array("11m E Rd")[:2], to_34_array("11m E Rd")[27:]
    ([2, 0], [1, 0, 0, 0, 0, 0, 1])
    """
    counts = [0] * N_PLAYING
    for t in tile_list(tiles, "tiles"):
        if t >= N_PLAYING:
            raise InvalidArgumentError(
                Message(
                    "invalid_argument.array_bonus_tile",
                    "tiles: the bonus tile {tile} has no place in a 34 or 136 array",
                    tile=str(t),
                )
            )
        counts[t] += 1
        if counts[t] > 4:
            raise InvalidArgumentError(
                Message(
                    "invalid_argument.array_five_copies",
                    "tiles: more than four of {tile}",
                    tile=str(t),
                )
            )
    return counts


def from_34_array(counts: Iterable[int]) -> tuple[Tile, ...]:
    """The tiles a 34-kind count array holds, in tile order.

    Raises:
        InvalidArgumentError: unless it is 34 whole numbers from 0 to 4.

    >>> format_tiles(from_34_array(to_34_array("123m 55p N Gd")))
    '123m55pNGd'
    """
    values = _numbers(counts, "counts")
    if len(values) != N_PLAYING or any(not 0 <= c <= 4 for c in values):
        raise InvalidArgumentError(
            Message(
                "invalid_argument.counts_34",
                "counts: a 34-kind array has 34 counts from 0 to 4, not {counts}",
                counts=format(repr(values), ".60"),
            )
        )
    return tuple(_ALL[k] for k, c in enumerate(values) for _ in range(c))


def to_136_array(tiles: str | Iterable[Tile | str]) -> list[int]:
    """The tiles as indexes of the 136-tile set of the ``mahjong`` package on
    PyPI and of RLCard, sorted: the copies of kind ``k`` are ``4k`` to
    ``4k+3``, and a kind's tiles take its first free copies.

    Raises:
        InvalidArgumentError: as :func:`to_34_array`.

    >>> to_136_array("1m 1m 2m Rd")
    [0, 1, 4, 132]
    """
    counts = to_34_array(tiles)
    return [4 * k + c for k in range(N_PLAYING) for c in range(counts[k])]


def from_136_array(indexes: Iterable[int]) -> tuple[Tile, ...]:
    """The tiles of a 136-tile index array, in the order given.

    Raises:
        InvalidArgumentError: for an index outside 0-135, or one given twice.

    >>> [str(t) for t in from_136_array([108, 0, 135])]
    ['E', '1m', 'Rd']
    """
    values = _numbers(indexes, "indexes")
    if any(not 0 <= i < 4 * N_PLAYING for i in values) or len(set(values)) != len(values):
        raise InvalidArgumentError(
            Message(
                "invalid_argument.indexes_136",
                "indexes: a 136 array holds different indexes from 0 to 135, not {indexes}",
                indexes=format(repr(values), ".60"),
            )
        )
    return tuple(_ALL[i // 4] for i in values)


def _numbers(values: Iterable[int], name: str) -> list[int]:
    """``values`` as a list of ints (numpy integers too), or a TypeError."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise TypeError(f"{name} must be an iterable of ints, not {type(values).__name__}")
    out = []
    for v in values:
        if isinstance(v, bool) or not hasattr(v, "__index__"):
            raise TypeError(f"{name} must hold ints, not {type(v).__name__}")
        out.append(v.__index__())
    return out


def tile_list(value: Any, name: str) -> tuple[Tile, ...]:
    """Tiles from text or an iterable, with a TypeError naming ``name`` for other types."""
    if isinstance(value, tuple) and all(type(t) is Tile for t in value):
        return value
    if not isinstance(value, (str, Iterable)) or isinstance(value, (bytes, bytearray)):
        raise TypeError(f"{name} must be text or an iterable of tiles, not {type(value).__name__}")
    return parse_tiles(value)


def _tile_text(tile: Tile, lang: str) -> str:
    """A tile in a translated message: an honour or a bonus tile in kanji in Japanese."""
    return _NAMES[tile] if lang == "en" else _JA_NAMES[tile]


register_format(Tile, _tile_text)
