"""Operation keys, the engine's own form of an action, and the one
:class:`~sevenbridge.actions.Action` object of each (compiled in the compiled
build).

A key is a tuple of ints: its operation code, the player, then the cards (as
card indices or masks), a meld index or the joker's stand-in (-1: none). The
engine enumerates and plays keys; an action object is built the first time
its key is met and kept, so that :func:`~sevenbridge.apply` finds an action
among the legal ones by identity.
"""

from __future__ import annotations

from typing import Final

from .._tables import bits
from ..actions import Action, Chi, Discard, Draw, LayDown, LayOff, Pass, Pon
from ..cards import CARDS

__all__ = [
    "OP_CHI", "OP_DISCARD", "OP_DRAW", "OP_LAY", "OP_OFF", "OP_PASS", "OP_PON", "canonical",
    "intern",
]  # fmt: skip

OP_DRAW: Final = 0
OP_PASS: Final = 1
OP_CHI: Final = 2
OP_PON: Final = 3
OP_LAY: Final = 4
OP_OFF: Final = 5
OP_DISCARD: Final = 6


class _Interned(dict[tuple[int, ...], Action]):
    """Action objects by operation key, each built on first use (and kept, so
    that an interned action's ``id`` is never reused)."""

    def __missing__(self, key: tuple[int, ...]) -> Action:
        action = self[key] = _build_action(key)
        _CANONICAL[action] = action
        return action


_ACTIONS: Final = _Interned()
#: The action of an operation key.
intern: Final = _ACTIONS.__getitem__
# Every interned action by itself: an equal action built by the caller finds
# the interned one here.
_CANONICAL: Final[dict[Action, Action]] = {}


def canonical(action: Action) -> Action | None:
    """The interned action equal to ``action``, if one has been built (None
    for anything else, unhashable values included)."""
    try:
        return _CANONICAL.get(action)
    except TypeError:  # unhashable
        return None


def _build_action(key: tuple[int, ...]) -> Action:
    code, p = key[0], key[1]
    if code == OP_DRAW:
        return Draw(p)
    if code == OP_PASS:
        return Pass(p)
    if code == OP_DISCARD:
        return Discard(p, CARDS[key[2]])
    if code == OP_OFF:
        j = key[4]
        return LayOff(p, CARDS[key[2]], key[3], None if j < 0 else CARDS[j])
    cards = tuple(CARDS[c] for c in bits(key[2]))
    joker_as = None if key[3] < 0 else CARDS[key[3]]
    if code == OP_CHI:
        return Chi(p, cards, joker_as)
    if code == OP_PON:
        return Pon(p, cards, joker_as)
    return LayDown(p, cards, joker_as)


def _prebuilt(key: tuple[int, ...]) -> tuple[Action, tuple[int, ...]]:
    return intern(key), key


#: Each player's Draw, Pass and Discard of each card, built once: (action, key).
DRAWS: Final = [_prebuilt((OP_DRAW, p)) for p in range(5)]
PASSES: Final = [_prebuilt((OP_PASS, p)) for p in range(5)]
DISCARD_MOVES: Final = [[_prebuilt((OP_DISCARD, p, c)) for c in range(53)] for p in range(5)]
DISCARD_KEYS: Final = [[key for _, key in row] for row in DISCARD_MOVES]
DISCARD_ACTIONS: Final = [[action for action, _ in row] for row in DISCARD_MOVES]
