"""A game's history of actions as an immutable linked list: :class:`History`.

Both games keep the actions played in their states with it (the card game's
:class:`~sevenbridge.GameState` and Simple Mahjong's
:class:`~sevenbridge.mahjong.GameState`); :mod:`sevenbridge.state` re-exports it.

>>> history = History.of(["a", "b"])
>>> History(history, "c").actions(), len(history)
(('a', 'b', 'c'), 2)
"""

from __future__ import annotations

from typing import Any

import attrs

__all__ = ["History"]

_set = object.__setattr__


class History:
    """The actions of a deal as an immutable linked list: each node holds the
    previous node, one action and the length so far.

    Appending shares everything before (so a transition costs the same early and
    late in a deal); equality and hashing walk the list without recursion, so a
    history of any length compares safely. Iterating gives the actions oldest first.
    """

    __slots__ = ("action", "length", "prev")
    prev: History | None
    action: Any
    length: int

    def __init__(self, prev: History | None, action: Any) -> None:
        _set(self, "prev", prev)
        _set(self, "action", action)
        _set(self, "length", 1 if prev is None else prev.length + 1)

    def __setattr__(self, name: str, value: Any) -> None:
        raise attrs.exceptions.FrozenInstanceError()

    def __delattr__(self, name: str) -> None:
        raise attrs.exceptions.FrozenInstanceError()

    @classmethod
    def of(cls, actions: Any) -> History | None:
        """The history of the given actions (``None`` when there are none)."""
        node: History | None = None
        for action in actions:
            node = cls(node, action)
        return node

    def actions(self) -> tuple[Any, ...]:
        """The actions, oldest first."""
        out = []
        node: History | None = self
        while node is not None:
            out.append(node.action)
            node = node.prev
        return tuple(reversed(out))

    def __len__(self) -> int:
        return self.length

    def __iter__(self) -> Any:
        return iter(self.actions())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, History):
            return NotImplemented
        a: History | None = self
        b: History | None = other
        while a is not b:
            if a is None or b is None or a.length != b.length or a.action != b.action:
                return False
            a, b = a.prev, b.prev
        return True

    def __hash__(self) -> int:
        return hash((self.length, self.action))

    def __reduce__(self) -> tuple[Any, ...]:
        return (History.of, (self.actions(),))

    def __repr__(self) -> str:
        return f"<History of {self.length} actions>"
