"""What every action of either game shares: its JSON methods.

An action class derives from :class:`JsonAction` and names the hooks that
write and read it (each game registers its own serializer under its own
names), so the values stay free of the layer that writes JSON.
"""

from __future__ import annotations

from typing import Any, ClassVar, TypeVar

from ..errors import InvalidStateError, Message
from . import hooks

__all__ = ["JsonAction"]

_A = TypeVar("_A", bound="JsonAction")


class JsonAction:
    """JSON methods shared by every action: subclasses set the two hook names."""

    __slots__ = ()
    #: The hook that writes an action as a JSON document.
    _TO_JSON: ClassVar[str]
    #: The hook that reads one back.
    _FROM_JSON: ClassVar[str]

    def to_json(self) -> str:
        """The action as a JSON document."""
        return str(hooks.call(self._TO_JSON, self))

    @classmethod
    def from_json(cls: type[_A], text: str | bytes) -> Any:
        """Read an action written by :meth:`to_json` (of this type, unless called
        on another action type's base).

        Raises:
            InvalidStateError: for a malformed document or another action type.
        """
        action = hooks.call(cls._FROM_JSON, text)
        if not isinstance(action, cls):
            raise InvalidStateError(
                Message(
                    "invalid_state.action_expected_found",
                    "action: expected a {expected}, found a {found}",
                    expected=str(cls.__name__),
                    found=str(type(action).__name__),
                )
            )
        return action
