"""Exceptions raised by sevenbridge.

Every exception derives from :class:`SevenBridgeError` and from the builtin whose
meaning it shares (all of them are :class:`ValueError` subclasses), so callers
can catch either.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "ExternalBotError",
    "IllegalActionError",
    "InvalidArgumentError",
    "InvalidCardError",
    "InvalidMeldError",
    "InvalidStateError",
    "InvalidTileError",
    "Message",
    "NotationError",
    "RecordError",
    "RulesConfigError",
    "SevenBridgeError",
    "StoreError",
]


class Quoted(str):
    """Text a message quotes back (what :func:`quote` gives): ``'7X'``, which
    :func:`sevenbridge.translate` quotes as the language does (``「7X」``)."""

    __slots__ = ()


def quote(text: object, limit: int = 60) -> Quoted:
    """``repr(text)``, cut in the middle when it is long (messages stay readable
    whatever the input; the full text stays in the error's attributes)."""
    shown = repr(text)
    if len(shown) <= limit:
        return Quoted(shown)
    half = (limit - 5) // 2
    return Quoted(f"{shown[:half]} ... {shown[-half:]}")


def _plain(value: object) -> str:
    """A message parameter in English: cards and other values by ``str``,
    sequences joined with spaces."""
    if isinstance(value, (tuple, list)):
        return " ".join(map(str, value))
    return str(value)


def _message(code: str, template: str, params: dict[str, Any]) -> Message:
    return Message(code, template, **params)


class Message(str):
    """A text for people that also says what it means to programs.

    The string itself is the English text; :attr:`code` names the kind of
    message, stably, and :attr:`params` hold its variable parts (cards, players,
    nested messages), so that a program can show it its own way, and
    :func:`sevenbridge.translate` can show it in another language. The reason
    of an :class:`IllegalActionError` and the answer of
    :func:`~sevenbridge.explain` are messages.

    >>> m = Message("not_your_turn", "it is player {p}'s turn, not player {who}'s", p=0, who=2)
    >>> m
    "it is player 0's turn, not player 2's"
    >>> m.code, m.params
    ('not_your_turn', {'p': 0, 'who': 2})
    """

    code: str
    """A stable, machine-readable name of the message."""
    template: str
    """The English text with ``{name}`` fields for the parameters."""
    params: dict[str, Any]
    """The values of the fields."""

    def __new__(cls, code: str, template: str, /, **params: Any) -> Message:
        text = template.format(**{k: _plain(v) for k, v in params.items()})
        self = super().__new__(cls, text)
        self.code = code
        self.template = template
        self.params = params
        return self

    def as_dict(self) -> dict[str, Any]:
        """The structured form: code, parameters (nested messages as dicts) and text."""
        return {
            "code": self.code,
            "params": {
                k: v.as_dict() if isinstance(v, Message) else _plain(v)
                for k, v in self.params.items()
            },
            "text": str(self),
        }

    def __reduce__(self) -> tuple[Any, ...]:
        return (_message, (self.code, self.template, self.params))


def _rebuild(cls: type[SevenBridgeError], args: tuple[Any, ...], state: dict[str, Any]) -> Any:
    """Recreate a pickled error without calling its constructor."""
    error = cls.__new__(cls)
    error.args = args
    error.__dict__.update(state)
    return error


class SevenBridgeError(ValueError):
    """Base class of every error this library raises on purpose.

    Every library error pickles and copies with its attributes, whatever its
    constructor takes, so it crosses process boundaries intact (a process pool
    re-raises it in the parent).
    """

    #: A stable, machine-readable name of the kind of error (for example
    #: ``"illegal_action"``), for programs that translate or classify errors.
    code: str = "error"

    @property
    def detail(self) -> Message | None:
        """The error's message as a :class:`~sevenbridge.errors.Message` (its
        :attr:`~sevenbridge.errors.Message.code` and
        :attr:`~sevenbridge.errors.Message.params` say exactly what went wrong),
        or ``None`` for an error built from plain text.

        >>> from sevenbridge import Card
        >>> try:
        ...     Card.parse("7X")
        ... except SevenBridgeError as error:
        ...     print(error.code, error.detail.code, error.detail.params["reason"].code)
        invalid_card invalid_card invalid_card.suit_not_one_c
        """
        text = str(self)
        for argument in self.args:
            if isinstance(argument, Message) and argument == text:
                return argument
        return None

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (type(self), self.args, dict(self.__dict__)))


class InvalidCardError(SevenBridgeError):
    """A card (or a list of cards) was written in a way that does not parse.

    The message quotes the text that was given.

    >>> from sevenbridge import Card
    >>> Card.parse("11H")
    Traceback (most recent call last):
    ...
    sevenbridge.errors.InvalidCardError: '11H' is not a card: rank '11' is not one of A 2-10 T J Q K
    """

    code = "invalid_card"

    def __init__(self, text: str, reason: str) -> None:
        self.text = text
        self.reason = reason
        super().__init__(
            Message(
                "invalid_card", "{text} is not a card: {reason}", text=quote(text), reason=reason
            )
        )


class RulesConfigError(SevenBridgeError):
    """A :class:`~sevenbridge.Rules` was given options that do not fit together."""

    code = "rules_config"


class IllegalActionError(SevenBridgeError):
    """An action is not legal in the position it was applied to.

    Attributes:
        action: The action that was refused.
        reason: Plain words naming the rule that forbids it.
    """

    code = "illegal_action"

    def __init__(self, action: Any, reason: str) -> None:
        self.action = action
        self.reason = reason
        super().__init__(f"illegal action {action!r}: {reason}")


class InvalidStateError(SevenBridgeError):
    """A deck, a position or a document describes no real game: the message says
    what is wrong and where."""

    code = "invalid_state"


class InvalidArgumentError(SevenBridgeError):
    """An argument has the right type but a value the library cannot use: a
    table size, a seat, a seed or a meld index out of range. The message names
    the argument and the values it may take. (A value of the wrong type raises
    :class:`TypeError` instead.)

    >>> from sevenbridge import deal
    >>> deal(players=7)
    Traceback (most recent call last):
    ...
    sevenbridge.errors.InvalidArgumentError: players must be from 2 to 5 (Seven Bridge is for 2 to 5 players), not 7
    """

    code = "invalid_argument"


class InvalidMeldError(SevenBridgeError):
    """A :class:`Meld` was built from cards that do not form that meld."""

    code = "invalid_meld"


def _where(text: str, reason: str, line: int, column: int) -> Message:
    """The message of a text that failed to parse at ``line``, ``column``."""
    return Message(
        "notation",
        "line {line}, column {column}: {reason} (in {text})",
        line=line,
        column=column,
        reason=reason,
        text=quote(text, 120),
    )


class NotationError(SevenBridgeError):
    """A move does not parse; ``line`` and ``column`` say where (from 1).

    Attributes:
        text: The text given.
        reason: What is wrong with it.
        line: The line of the error, from 1.
        column: The column of the error, from 1.
    """

    code = "notation"

    def __init__(self, text: str, reason: str, line: int = 1, column: int = 1) -> None:
        self.text = text
        self.reason = reason
        self.line = line
        self.column = column
        super().__init__(_where(text, reason, line, column))


class RecordError(SevenBridgeError):
    """A record that does not parse, or holds a move that is not legal where it
    stands; ``line`` and ``column`` say where (from 1), as for
    :class:`~sevenbridge.errors.NotationError`, which a lone move raises.

    Attributes:
        text: The record's text at the error.
        reason: What is wrong.
        line: The line of the error, from 1.
        column: The column of the error, from 1.
    """

    code = "record"

    def __init__(self, text: str, reason: str, line: int = 1, column: int = 1) -> None:
        self.text = text
        self.reason = reason
        self.line = line
        self.column = column
        super().__init__(_where(text, reason, line, column))


class InvalidTileError(SevenBridgeError):
    """A tile (or a list of tiles) was written in a way that does not parse.

    The message quotes the text that was given.

    >>> from sevenbridge.mahjong import Tile
    >>> Tile.parse("0m")
    Traceback (most recent call last):
    ...
    sevenbridge.errors.InvalidTileError: '0m' is not a tile: suited tiles are numbered 1 to 9
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


class StoreError(InvalidArgumentError):
    """The results database cannot be used for this tournament."""

    code = "store"


class ExternalBotError(SevenBridgeError):
    """An external bot crashed, answered nonsense or ran out of time.

    ``kind`` is ``"crashed"``, ``"nonsense"`` or ``"timeout"``; the message
    says what happened, quoting the bot's answer where there was one.
    """

    code = "external_bot"

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(kind, message)
        self.kind = kind
        self.message = message

    def __str__(self) -> str:
        return self.message
