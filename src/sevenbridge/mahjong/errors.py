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
    InvalidTileError,
    RulesConfigError,
    SevenBridgeError,
)

__all__ = [
    "IllegalActionError",
    "InvalidArgumentError",
    "InvalidStateError",
    "InvalidTileError",
    "RulesConfigError",
    "SevenBridgeError",
]
