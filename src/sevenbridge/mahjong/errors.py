"""The errors of :mod:`sevenbridge.mahjong`.

Mahjong reuses the library's errors where their meaning carries over
(:class:`~sevenbridge.IllegalActionError`, :class:`~sevenbridge.InvalidStateError`,
:class:`~sevenbridge.errors.RulesConfigError`,
:class:`~sevenbridge.InvalidArgumentError`) and adds one of its own for tile
notation. Like every library error it derives from
:class:`~sevenbridge.SevenBridgeError` and pickles with its attributes.
"""

from __future__ import annotations

from ..errors import (
    IllegalActionError,
    InvalidArgumentError,
    InvalidStateError,
    Message,
    RulesConfigError,
    SevenBridgeError,
    quote,
)

__all__ = [
    "IllegalActionError",
    "InvalidArgumentError",
    "InvalidStateError",
    "InvalidTileError",
    "RulesConfigError",
    "SevenBridgeError",
]


class InvalidTileError(SevenBridgeError):
    """A tile (or a list of tiles) was written in a way that does not parse.

    The message quotes the text that was given.

    >>> from sevenbridge.mahjong import Tile
    >>> Tile.parse("0m")
    Traceback (most recent call last):
    ...
    sevenbridge.mahjong.errors.InvalidTileError: '0m' is not a tile: suited tiles are numbered 1 to 9
    """

    code = "invalid_tile"

    def __init__(self, text: str, reason: str) -> None:
        self.text = text
        self.reason = reason
        super().__init__(
            Message(
                "invalid_tile", "{text} is not a tile: {reason}", text=quote(text), reason=reason
            )
        )
