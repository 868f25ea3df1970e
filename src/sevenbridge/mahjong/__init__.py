"""Simple Mahjong: the tile game whose claims Seven Bridge borrows.

Tiles and their notation, winning hands, every rule option as a
:class:`~sevenbridge.mahjong.Rules` value, and a pure engine with the same shape
as the card game's: ``deal``, ``legal_actions`` and ``apply`` over frozen
states.

>>> from sevenbridge import mahjong as mj
>>> mj.is_mahjong("123m 456m 789m 555p EE")
True
"""

from __future__ import annotations

from .errors import InvalidTileError
from .hands import Meld, MeldKind, decompositions, is_mahjong, waits
from .tiles import (
    BONUS_TILES,
    DRAGONS,
    HONOURS,
    TILE_KINDS,
    WINDS,
    Tile,
    TileSuit,
    format_tiles,
    full_wall,
    parse_tiles,
)

__all__ = [
    "BONUS_TILES",
    "DRAGONS",
    "HONOURS",
    "TILE_KINDS",
    "WINDS",
    "InvalidTileError",
    "Meld",
    "MeldKind",
    "Tile",
    "TileSuit",
    "decompositions",
    "format_tiles",
    "full_wall",
    "is_mahjong",
    "parse_tiles",
    "waits",
]
