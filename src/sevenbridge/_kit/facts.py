"""What the services need to know of a game besides its rules: its names, its
usual table size and the words its deals go by."""

from __future__ import annotations

import attrs

__all__ = ["GameFacts"]


@attrs.frozen
class GameFacts:
    """A game's identity, the protocol's ``GAME``: what a tournament, a record
    viewer, a web table or the command line says of the game, so that none of
    them has to recognise a game by its name.

    >>> import sevenbridge
    >>> sevenbridge.GAME.name, sevenbridge.game("mahjong").GAME.players
    ('seven_bridge', 4)
    """

    name: str
    """The game's name in :data:`sevenbridge.GAMES`."""
    title: str
    """Its title in English, as records name it in their ``Game`` tag
    (``"Seven Bridge"``); a match record's tag adds ``" match"``."""
    command: str
    """What the command line's ``--game`` calls it (``"sevenbridge"``)."""
    players: int
    """The table size the services deal by default."""
    deal_word: str
    """The heading of the k-th deal in a list of moves, with ``{k}`` for its
    number (``"Deal {k}"``; a mahjong ``"Round {k}"``): English, translated where it is shown."""
    replay_heading: str
    """The heading of a record's replay page, with ``{players}`` for the number
    of players: English, translated where it is shown."""
    label: str
    """What a heading puts before a command's title to name the game (``""``
    for the card game, ``"mahjong "``): English, translated where it is shown."""
    rules_label: str
    """How a heading names a preset of the game, with ``{preset}`` for the
    preset's name (``"{preset}"``; ``"mahjong {preset}"``)."""
