"""A move typed without its player: both games' ``parse_move(text, player=...)``."""

from __future__ import annotations

import re
from typing import Any

from ..errors import InvalidArgumentError, Message, quote

__all__ = ["with_player"]

_PREFIX = re.compile(r"\s*[Pp]([0-9]+)\s+")


def with_player(text: Any, player: int | None) -> Any:
    """``text`` with ``P<player>`` before it when it has no player of its own
    (a user interface knows whose move it reads). Text that already names a
    player must name this one. Anything but text is handed back unchanged,
    for the reader to refuse.

    Raises:
        InvalidArgumentError: for a player that is not a seat number, or text
            that names another player.

    >>> with_player("Discard 7H", 2), with_player("p2 Draw", 2)
    ('P2 Discard 7H', 'p2 Draw')
    """
    if player is None or not isinstance(text, str):
        return text
    if type(player) is not int or not 0 <= player <= 9:
        raise InvalidArgumentError(
            Message(
                "invalid_argument.move_player",
                "player must be a seat number, not {player}",
                player=quote(player, 20),
            )
        )
    named = _PREFIX.match(text)
    if named is None:
        return f"P{player} {text.strip()}"
    if int(named[1]) != player:
        raise InvalidArgumentError(
            Message(
                "invalid_argument.move_other_player",
                "{text} is a move of P{named}, not of P{player}",
                text=quote(text, 40),
                named=named[1],
                player=str(player),
            )
        )
    return text
