"""The bots a web table offers: a client chooses among them by name, and never
names code.

A server offers the built-in bots (``random``, ``greedy``, ``ismcts``), the
search within the budget the server sets (at most ``max_seconds`` of thinking
and ``max_iterations`` iterations a decision, whatever the client asks), and
the bots its operator names on its command line (``--bot NAME=SPEC``), by
NAME only: a ``cmd:`` or ``py:`` spec is the operator's, run as the operator
wrote it, and never shown to a client. A client's choice is a name, with
options only for the search (``ismcts:iterations=500``); anything else is
refused before it is stored, and a stored table is checked again against the
running server's list when it is loaded.
"""

from __future__ import annotations

import re
import time
from collections.abc import Mapping

import attrs

from .._kit.i18n import translate
from ..arena import make_bot
from ..bots import ISMCTSPlayer, Player
from ..errors import InvalidArgumentError, Message, SevenBridgeError, quote

__all__ = ["BUILT_IN", "LOBBY_BOTS", "BotMenu"]

#: The built-in bots a table offers.
BUILT_IN = ("random", "greedy", "ismcts")
#: The lobby's choices of bot: (what the lobby shows, the choice it sends).
LOBBY_BOTS = (("random", "random"), ("greedy", "greedy"), ("ismcts", "ismcts:iterations=200"))
#: The built-in bots that decide in a moment, and the moment a claim window
#: gives them (they take well under a millisecond).
QUICK = ("random", "greedy")
QUICK_SECONDS = 0.05
#: The share of the thinking budget the built-in search takes at a table,
#: on the wall clock: the rest is its margin to answer within the budget.
SEARCH_SHARE = 0.8
#: The search's options a client may set (the rest are the server's).
CLIENT_OPTIONS = ("iterations", "seconds")
#: What an operator's bot may be called: a short word that is not a built-in name.
_NAME = re.compile(r"[a-z][a-z0-9_-]{0,23}")
#: The longest choice a client may send (a name and two options fit with room).
MAX_CHOICE = 64


def _refused(choice: object, reason: Message) -> InvalidArgumentError:
    return InvalidArgumentError(
        Message(
            "invalid_argument.web_bot_not_offered",
            "{choice} is not a bot this server offers: {reason}",
            choice=quote(choice, 40),
            reason=reason,
        )
    )


@attrs.frozen(eq=False)
class BotMenu:
    """The bots one server offers (see the module's docstring).

    Args:
        operator: The operator's bots: NAME to spec (a built-in spec, ``cmd:``
            COMMAND or ``py:`` MODULE:FACTORY), as ``--bot NAME=SPEC`` gives them.
        max_seconds: The most processor seconds a built-in search bot thinks
            about one decision (and the time an operator's external bot is given).
        max_iterations: The most iterations of the search a client may ask for.
        move_seconds: How long an operator's external (or isolated Python)
            bot may take to answer one decision.

    Raises:
        InvalidArgumentError: for an operator's bot with a bad name or spec,
            or limits out of range.
    """

    operator: Mapping[str, str] = attrs.field(factory=dict)
    max_seconds: float = 1.0
    max_iterations: int = 2000
    move_seconds: float = 10.0

    def __attrs_post_init__(self) -> None:
        seconds = self.max_seconds
        if (
            isinstance(seconds, bool)
            or not isinstance(seconds, (int, float))
            or not (0 < seconds <= 60)
        ):
            raise InvalidArgumentError(
                Message(
                    "invalid_argument.web_max_bot_seconds",
                    "the bots' budget must be more than 0 and at most 60 seconds, not {value}",
                    value=quote(seconds, 20),
                )
            )
        iterations = self.max_iterations
        if (
            isinstance(iterations, bool)
            or not isinstance(iterations, int)
            or not (1 <= iterations <= 1_000_000)
        ):
            raise InvalidArgumentError(
                Message(
                    "invalid_argument.web_max_bot_iterations",
                    "the search's iteration cap must be 1 to 1000000, not {value}",
                    value=quote(iterations, 20),
                )
            )
        for name, spec in self.operator.items():
            if not isinstance(name, str) or not _NAME.fullmatch(name) or name in BUILT_IN:
                raise InvalidArgumentError(
                    Message(
                        "invalid_argument.web_bot_name",
                        "a server's bot is named by a short lower-case word (a-z, 0-9, - and _, "
                        "at most 24) that is not {builtins}, not {name}",
                        builtins=", ".join(BUILT_IN),
                        name=quote(name, 30),
                    )
                )
            if not isinstance(spec, str) or not spec.strip():
                raise InvalidArgumentError(
                    Message(
                        "invalid_argument.web_bot_spec",
                        "the server's bot {name} needs a spec after the =",
                        name=name,
                    )
                )
            if not spec.strip().startswith(("cmd:", "py:")):
                make_bot(spec, 0)  # a built-in spec: checked now, not at the first move

    @property
    def names(self) -> tuple[str, ...]:
        """The names a client may choose, the built-in ones first."""
        return (*BUILT_IN, *self.operator)

    def check(self, choice: object) -> str:
        """A client's choice of bot, checked against what the server offers.

        Returns:
            The choice as it is kept (without surrounding spaces).

        Raises:
            InvalidArgumentError: naming why the server does not offer it.
        """
        if not isinstance(choice, str) or len(choice) > MAX_CHOICE:
            raise _refused(
                choice, Message("web_bot.too_long", "a choice is a name of at most 64 characters")
            )
        choice = choice.strip()
        name, *options = choice.split(":")
        if name in self.operator:
            if options:
                raise _refused(
                    choice, Message("web_bot.no_options", "the server's own bots take no options")
                )
            return choice
        if name not in BUILT_IN:
            raise _refused(
                choice,
                Message("web_bot.names", "the bots are {names}", names=", ".join(self.names)),
            )
        seen = set()
        for option in options:
            key, _sep, value = option.partition("=")
            if name != "ismcts" or key not in CLIENT_OPTIONS or key in seen:
                raise _refused(
                    choice,
                    Message(
                        "web_bot.options",
                        "only the search takes options, iterations= and seconds=, once each",
                    ),
                )
            seen.add(key)
            self._option(choice, key, value)
        return choice

    def _option(self, choice: str, key: str, value: str) -> float:
        """An option's value, within the server's limits."""
        if key == "iterations":
            if re.fullmatch(r"[0-9]{1,7}", value) and 1 <= int(value) <= self.max_iterations:
                return int(value)
            reason = Message(
                "web_bot.iterations",
                "iterations must be a whole number from 1 to {most}",
                most=self.max_iterations,
            )
        else:
            if re.fullmatch(r"[0-9]{1,3}(\.[0-9]{1,3})?", value) and (
                0 < float(value) <= self.max_seconds
            ):
                return float(value)
            reason = Message(
                "web_bot.seconds",
                "seconds must be more than 0 and at most {most}",
                most=self.max_seconds,
            )
        raise _refused(choice, reason)

    def spec(self, choice: str) -> str:
        """What runs for a checked choice: the operator's spec, or the built-in
        bot with the server's budget (the search never thinks longer than
        ``max_seconds``, whatever the choice asked).

        Raises:
            InvalidArgumentError: if the server does not offer the choice.
        """
        choice = self.check(choice)
        name, *options = choice.split(":")
        if name in self.operator:
            return self.operator[name].strip()
        if name != "ismcts":
            return name
        given = dict(option.partition("=")[::2] for option in options)
        iterations = int(given.get("iterations", min(200, self.max_iterations)))
        seconds = float(given.get("seconds", self.max_seconds))
        return f"ismcts:iterations={iterations}:seconds={seconds:g}"

    def answer_seconds(self, choice: str) -> float:
        """How long after its pause a bot asked about a claim answers, whatever
        it holds: long enough for any decision it may take (the built-in
        quick bots decide in far less than :data:`QUICK_SECONDS`; the search
        and the operator's bots in ``max_seconds``), so that the answer's
        moment tells nothing of its cards."""
        return QUICK_SECONDS if choice.split(":", 1)[0] in QUICK else self.max_seconds

    def make(self, choice: str, seed: int) -> Player:
        """The bot of a choice, made with ``seed``. An operator's Python bot
        plays in a process of its own, so that a bot that never answers cannot
        hold the server; every external bot gets ``move_seconds`` a decision.

        Raises:
            InvalidArgumentError: if the server does not offer the choice.
        """
        spec = self.spec(choice)
        bot = make_bot(
            spec,
            seed,
            move_seconds=self.move_seconds,
            handshake_seconds=30.0,
            isolate=spec.startswith("py:"),
        )
        if isinstance(bot, ISMCTSPlayer) and bot.seconds is not None:
            # Counted on the wall clock, and ending a margin before the claim
            # window does: however busy the machine, the answer is in by then.
            bot.clock = time.monotonic
            bot.seconds = min(bot.seconds, SEARCH_SHARE * self.max_seconds)
        return bot

    def refusal(self, choice: object, lang: str) -> str | None:
        """Why the server does not offer a choice, in ``lang`` (``None``: it does)."""
        try:
            self.check(choice)
        except SevenBridgeError as error:
            return translate(error, lang)
        return None
