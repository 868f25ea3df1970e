"""The state's fields as the mahjong engine's transitions hold them: the one
module that knows how a :class:`~sevenbridge.mahjong.GameState` keeps its
fields (compiled in the compiled build).

A transition works on a copy of the state's field dictionary, changed in
place and then made the dictionary of a new state: one C-level copy instead
of passing every field to ``__init__``. The keys below are taken from the
class's attrs fields by name, so that a renamed field fails here, at import.
Besides its fields a state holds its legal actions once worked out, each
seat's hand as a count key (see :mod:`sevenbridge.mahjong._tables`) and its
cached ``is_over``.
"""

from __future__ import annotations

from typing import Any, Final

import attrs

from ._tables import key_of
from .state import GameState, Phase
from .tiles import Tile

__all__ = ["hand_keys", "set_hand"]

# Enum members as module constants: ``Phase.PLAY`` and the like cost a
# metaclass lookup at every use (Python 3.11), a module constant does not.
DRAW: Final = Phase.DRAW
PLAY: Final = Phase.PLAY
CLAIM: Final = Phase.CLAIM
OVER: Final = Phase.OVER

_F: Final = attrs.fields(GameState)
RULES: Final[str] = _F.rules.name
SEATS: Final[str] = _F.seats.name
GHOSTS: Final[str] = _F.ghosts.name
HANDS: Final[str] = _F.hands.name
WALL: Final[str] = _F.wall.name
DISCARDS: Final[str] = _F.discards.name
MELDS: Final[str] = _F.melds.name
BONUS: Final[str] = _F.bonus.name
PHASE: Final[str] = _F.phase.name
TURN: Final[str] = _F.turn.name
CURRENT: Final[str] = _F.current_player.name
LAST_DISCARD: Final[str] = _F.last_discard.name
CLAIMS: Final[str] = _F.claims.name
ASKING: Final[str] = _F.asking.name
DREW: Final[str] = _F.drew.name
WINNER: Final[str] = _F.winner.name
SELF_DRAWN: Final[str] = _F.self_drawn.name
GHOST_KEY: Final[str] = _F.ghost_key.name
LOG: Final[str] = _F.move_log.name
TAKEN: Final[str] = _F.taken.name
LAST_DRAWN: Final[str] = _F.last_drawn.name
#: What a state holds besides its fields: the legal-action cache, and each
#: seat's hand as a count key (see :mod:`sevenbridge.mahjong._tables`): the
#: winning-hand test reads the key, and a transition that changes a hand
#: changes its key by the tiles' weights, instead of counting the hand again.
LEGAL_KEY: Final[str] = _F._legal.name
KEYS: Final[str] = _F._keys.name
#: Where a state keeps its cached ``is_over`` (written into every new state).
IS_OVER: Final[str] = vars(GameState)["is_over"].attrname
# What apply (mahjong.step), the one place a state is made from another's
# fields, builds a new state with: a copy of the fields with the move logged,
# changed in place, then made the new state's dictionary without a call to
# GameState's __init__.
_new: Final = object.__new__
# Sets a new state's dictionary (the descriptor itself: no attribute lookup).
_set_dict: Final = vars(GameState)["__dict__"].__set__
# A history node is a tuple (prev, action, length) (see History), built here by
# tuple.__new__ itself: History's own __new__ would add a Python call per step.
_new_node: Final = tuple.__new__


def hand_keys(v: dict[str, Any]) -> tuple[int, ...]:
    """Each seat's count key, from the fields ``v`` (counted and kept there
    the first time: a state made by ``GameState(...)`` has none yet)."""
    keys: tuple[int, ...] | None = v[KEYS]
    if keys is None:
        keys = v[KEYS] = tuple([key_of(hand) for hand in v[HANDS]])
    return keys


def set_hand(v: dict[str, Any], seat: int, hand: tuple[Tile, ...], change: int) -> None:
    """Give ``seat`` the ``hand`` whose count key is the old one plus ``change``."""
    hands = list(v[HANDS])
    hands[seat] = hand
    v[HANDS] = tuple(hands)
    keys: tuple[int, ...] | None = v[KEYS]
    if keys is not None:
        changed = list(keys)
        changed[seat] += change
        v[KEYS] = tuple(changed)
