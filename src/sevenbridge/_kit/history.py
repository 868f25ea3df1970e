"""A game's history of actions as an immutable linked list: :class:`History`.

Both games keep the actions played in their states with it (the card game's
:class:`~sevenbridge.GameState` and Simple Mahjong's
:class:`~sevenbridge.mahjong.GameState`); :mod:`sevenbridge.state` re-exports it.

>>> history = History.of(["a", "b"])
>>> History(history, "c").actions(), len(history)
(('a', 'b', 'c'), 2)
"""

from __future__ import annotations

from collections.abc import Iterator
from operator import itemgetter
from typing import TYPE_CHECKING, Any

import attrs

__all__ = ["History"]

_new_tuple = tuple.__new__


class History(tuple[Any, ...]):
    """The actions of a deal as an immutable linked list: each node holds the
    previous node, one action and the length so far.

    Appending shares everything before (so a transition costs the same early and
    late in a deal); equality and hashing walk the list without recursion, so a
    history of any length compares safely. Iterating gives the actions oldest
    first, and ``len`` is the number of actions.

    A node is a tuple ``(prev, action, length)`` underneath: a tuple is the
    object CPython builds fastest (one call, no attribute stores), and the
    engine adds a node at every step. Read it by the names; the tuple's own
    comparisons and containment are replaced by the history's.
    """

    __slots__ = ()
    if TYPE_CHECKING:
        prev: History | None
        action: Any
        length: int
    else:
        prev = property(itemgetter(0), doc="The node before (``None`` for the first action).")
        action = property(itemgetter(1), doc="The last action.")
        length = property(itemgetter(2), doc="The number of actions.")

    def __new__(cls, prev: History | None, action: Any) -> History:
        return _new_tuple(cls, (prev, action, 1 if prev is None else prev[2] + 1))

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
        return self[2]  # type: ignore[no-any-return]

    def __iter__(self) -> Iterator[Any]:
        return iter(self.actions())

    def __contains__(self, action: object) -> bool:
        return action in self.actions()

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

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    # A history has no order (the tuple's would compare the nodes).
    def __lt__(self, other: object) -> bool:
        return NotImplemented

    __le__ = __gt__ = __ge__ = __lt__

    def __hash__(self) -> int:
        return hash((self.length, self.action))

    def __reduce__(self) -> tuple[Any, ...]:
        return (History.of, (self.actions(),))

    def __repr__(self) -> str:
        return f"<History of {self.length} actions>"
