"""The bots of a tournament, from their names: built-in bots with options,
external bots (``cmd:``), Python bots (``py:``, factories), and the labels
they are shown by."""

from __future__ import annotations

import base64
import importlib
import json
import pickle
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import attrs

from .._kit import checks as _checks
from .._store import _one_line
from ..bots import (
    DEFAULT_ITERATIONS,
    DEFAULT_SECONDS,
    GreedyPlayer,
    ISMCTSPlayer,
    NeuralPlayer,
    Player,
    RandomPlayer,
)
from ..errors import InvalidArgumentError, Message, SevenBridgeError, quote
from ..external import ExternalPlayer, serve

#: The bots known by name (:data:`sevenbridge.arena.BOT_NAMES`).
BOT_NAMES = ("random", "greedy", "ismcts", "neural")
#: One seat's bot (:data:`sevenbridge.arena.Bot`).
Bot = str | tuple[str, Callable[[int], Player]]

#: An ``ismcts`` bot's budget when named without one
#: (:data:`sevenbridge.arena.ISMCTS_ITERATIONS`, :data:`sevenbridge.arena.ISMCTS_SECONDS`).
ISMCTS_ITERATIONS = DEFAULT_ITERATIONS
ISMCTS_SECONDS = DEFAULT_SECONDS

_ISMCTS_OPTIONS = (
    "iterations", "seconds", "rollout", "exploration", "margin", "win_bonus", "worlds",
)  # fmt: skip
#: The options each bot name takes.
_OPTIONS = {"ismcts": _ISMCTS_OPTIONS, "neural": ("margin",)}


def _option(spec: str, key: str, text: str) -> int | float | str:
    """A bot option's value: the rollout's and the worlds' names as given,
    iterations and draws as whole numbers written in ASCII digits, the others
    as numbers (the bot checks the ranges)."""
    if key in ("rollout", "worlds"):
        return text
    if key in ("iterations", "draws"):
        if re.fullmatch(r"[0-9]{1,12}", text):
            return int(text)
        kind = Message("kind.whole_number", "a whole number")
    else:
        try:
            return float(text)
        except ValueError:
            kind = Message("kind.number", "a number")
    raise InvalidArgumentError(
        Message(
            "invalid_argument.bot_option_takes",
            "bot {spec}: option {key} takes {kind}, not {text}",
            spec=quote(spec),
            key=key,
            kind=kind,
            text=quote(text),
        )
    )


def make_bot(
    spec: str,
    seed: int,
    *,
    move_seconds: float = 10.0,
    handshake_seconds: float = 30.0,
    isolate: bool = False,
) -> Player:
    """A bot from its name in a tournament.

    ``random``, ``greedy``, ``ismcts`` or ``neural``, optionally with options
    after colons (``ismcts:iterations=500:rollout=random``,
    ``ismcts:seconds=0.5``, ``neural:margin=0.05``);
    ``cmd:`` followed by the command line of an external bot
    (:mod:`sevenbridge.external`), which gets ``move_seconds`` per decision
    and ``handshake_seconds`` to start; or ``py:package.module:factory``, a
    Python bot: the module is imported and ``factory(seed)`` makes the bot
    (with ``isolate``, in a process of its own, where the module is imported,
    played over the external bots' protocol).

    >>> make_bot("ismcts:iterations=50", seed=1).iterations
    50
    >>> type(make_bot("py:sevenbridge.bots:GreedyPlayer", seed=1)).__name__
    'GreedyPlayer'

    Raises:
        InvalidArgumentError: for an unknown name or option; for a ``py:``
            bot, a module that is not there, a name it lacks, something that
            is not callable, or a factory that makes something that is not
            a Player.
    """
    if not isinstance(spec, str):
        raise TypeError(f"a bot is named by a string, not {_checks.type_name(spec)}")
    spec = spec.strip()
    if spec.startswith("py:"):
        if isolate:
            return _isolated(spec, spec, move_seconds, handshake_seconds)
        return _checked_bot(spec, import_factory(spec)(seed))
    if spec.startswith("cmd:"):
        command = spec[4:].strip()
        if not command:
            raise InvalidArgumentError(
                Message(
                    "invalid_argument.bot_cmd_needs_command",
                    "bot {spec}: cmd: needs a command after the colon",
                    spec=quote(spec),
                )
            )
        return ExternalPlayer(
            command, move_seconds=move_seconds, handshake_seconds=handshake_seconds
        )
    name, *options = spec.split(":")
    if name not in BOT_NAMES:
        raise InvalidArgumentError(
            Message(
                "invalid_argument.unknown_bot_bots_are_py",
                "unknown bot {name}: the bots are {bots}, cmd:COMMAND or py:MODULE:FACTORY",
                name=quote(name),
                bots=", ".join(BOT_NAMES),
            )
        )
    kwargs: dict[str, Any] = {}
    for option in options:
        key, sep, value = option.partition("=")
        if not sep or key not in _OPTIONS.get(name, ()):
            raise InvalidArgumentError(
                Message(
                    "invalid_argument.bot_unknown_option",
                    "bot {spec}: unknown option {option}",
                    spec=quote(spec),
                    option=quote(option),
                )
            )
        kwargs[key] = _option(spec, key, value)
    if name == "random":
        return RandomPlayer(seed)
    if name == "greedy":
        return GreedyPlayer(seed)
    if name == "neural":
        return NeuralPlayer(seed, **kwargs)
    return ISMCTSPlayer(seed, **kwargs)


# -- Python bots -------------------------------------------------------------


def import_factory(spec: str) -> Callable[[int], Player]:
    """The factory that ``py:package.module:factory`` names: the module is
    imported by its name (from the Python path: ``sys.path``), and the
    attribute (a dotted path within the module, such as ``Class.method``) is
    looked up in it.

    >>> import_factory("py:sevenbridge.bots:GreedyPlayer").__name__
    'GreedyPlayer'

    Raises:
        InvalidArgumentError: for a name not of that form, a module that is
            not there (or that fails to import for want of another), an
            attribute it lacks, or one that is not callable.
    """
    path = spec.strip().removeprefix("py:").strip()
    module_name, _, attribute = path.partition(":")
    if not (_dotted(module_name) and _dotted(attribute)):
        raise InvalidArgumentError(
            Message(
                "invalid_argument.bot_py_form",
                "bot {spec}: name a Python bot as py:package.module:factory",
                spec=quote(spec),
            )
        )
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        missing = getattr(error, "name", None)
        if (
            isinstance(error, ModuleNotFoundError)
            and missing is not None
            and (module_name == missing or module_name.startswith(missing + "."))
        ):
            raise InvalidArgumentError(
                Message(
                    "invalid_argument.bot_py_no_module",
                    "bot {spec}: no module {module} on the Python path (the current "
                    "directory for the command line, and PYTHONPATH)",
                    spec=quote(spec),
                    module=quote(module_name),
                )
            ) from None
        raise InvalidArgumentError(
            Message(
                "invalid_argument.bot_py_import_failed",
                "bot {spec}: importing {module} failed: {error}",
                spec=quote(spec),
                module=quote(module_name),
                error=_one_line(error),
            )
        ) from error
    found: Any = module
    for part in attribute.split("."):
        try:
            found = getattr(found, part)
        except AttributeError:
            raise InvalidArgumentError(
                Message(
                    "invalid_argument.bot_py_no_attribute",
                    "bot {spec}: module {module} has no {attribute}",
                    spec=quote(spec),
                    module=quote(module_name),
                    attribute=quote(attribute),
                )
            ) from None
    if not callable(found):
        raise InvalidArgumentError(
            Message(
                "invalid_argument.bot_py_not_callable",
                "bot {spec}: {attribute} is {kind}, not a factory (a callable that takes "
                "a seed and returns a Player)",
                spec=quote(spec),
                attribute=quote(attribute),
                kind=_checks.type_name(found),
            )
        )
    factory: Callable[[int], Player] = found
    return factory


def _dotted(text: str) -> bool:
    """Whether ``text`` is a dotted path of Python names (``package.module``)."""
    return bool(text) and all(part.isidentifier() for part in text.split("."))


def _checked_bot(label: str, bot: object) -> Player:
    """``bot``, which the factory of ``label`` made, if it is a Player."""
    if not callable(bot):
        raise InvalidArgumentError(
            Message(
                "invalid_argument.bot_factory_not_player",
                "bot {label}: its factory returned {kind}, not a Player (a callable that "
                "takes an observation and returns an action)",
                label=quote(label),
                kind=_checks.type_name(bot),
            )
        )
    player: Player = bot  # callable: the game checks its actions
    return player


@attrs.frozen
class Entrant:
    """One bot of a tournament: the label its figures go under, what the store
    keeps of it (its name, or its factory's import path), and the factory of
    a bot given as a Python object. Picklable when its factory is: a task
    carries it to the worker that plays the deck."""

    label: str
    spec: str
    factory: Callable[[int], Player] | None = attrs.field(default=None, eq=False)

    @property
    def python(self) -> bool:
        """Whether the bot is Python code of the user's (a factory, ``py:``)."""
        return self.factory is not None or self.spec.startswith("py:")

    def make(
        self, seed: int, move_seconds: float, handshake_seconds: float, isolate: bool
    ) -> Player:
        """The bot of one deal (or, without ``fair``, of one deck)."""
        if self.factory is None:
            return make_bot(self.spec, seed, move_seconds=move_seconds,
                            handshake_seconds=handshake_seconds, isolate=isolate)  # fmt: skip
        if isolate:
            return _isolated(_pickled(self.factory), self.label, move_seconds, handshake_seconds)
        return _checked_bot(self.label, self.factory(seed))


def _spec_of(factory: Callable[..., Any]) -> str:
    """What the store keeps of a factory: its import path
    (``py:package.module:name``; ``name()`` for a callable object, by its class)."""
    module, name = getattr(factory, "__module__", None), getattr(factory, "__qualname__", None)
    if isinstance(module, str) and isinstance(name, str):
        return f"py:{module}:{name}"
    kind = type(factory)
    return f"py:{kind.__module__}:{kind.__qualname__}()"


def _label_problem(label: str) -> Message | None:
    """Why ``label`` cannot name a bot given as a factory, or ``None``."""
    if not label or label != label.strip() or not label.isprintable() or "," in label:
        return Message(
            "why.label_form", "a label is a non-empty line of text, without commas or "
            "spaces at its ends",
        )  # fmt: skip
    if label.split(":")[0] in BOT_NAMES or label.startswith(("cmd:", "py:")):
        return Message(
            "why.label_is_bot_name",
            "it reads as a bot's name (built-in, cmd: or py:): choose another",
        )
    return None


def entrants_of(bots: Sequence[Bot]) -> tuple[tuple[str, ...], dict[str, Entrant]]:
    """The label of each seat, and each bot by its label."""
    if isinstance(bots, str) or not isinstance(bots, Sequence):
        raise TypeError(
            "bots must be a list of bot names or (label, factory) pairs, one per seat, not "
            + _checks.type_name(bots)
        )
    labels: list[str] = []
    entrants: dict[str, Entrant] = {}
    for bot in bots:
        if isinstance(bot, str):
            entrant = Entrant(bot.strip(), bot.strip())
        elif isinstance(bot, tuple) and len(bot) == 2 and isinstance(bot[0], str):
            label, factory = bot
            if not callable(factory):
                raise TypeError(
                    f"bot {quote(label)}: a factory is callable (it takes a seed and returns "
                    f"a Player), not {_checks.type_name(factory)}"
                )
            problem = _label_problem(label)
            if problem is not None:
                raise InvalidArgumentError(
                    Message(
                        "invalid_argument.bot_label",
                        "bot label {label}: {problem}",
                        label=quote(label),
                        problem=problem,
                    )
                )
            entrant = Entrant(label, _spec_of(factory), factory)
        else:
            raise TypeError(
                "each bot is a name (a string) or a (label, factory) pair, not "
                + _checks.type_name(bot)
            )
        held = entrants.setdefault(entrant.label, entrant)
        if held != entrant or held.factory is not entrant.factory:
            raise InvalidArgumentError(
                Message(
                    "invalid_argument.bot_label_twice",
                    "two different bots are labelled {label}: give each its own label",
                    label=quote(entrant.label),
                )
            )
        labels.append(entrant.label)
    return tuple(labels), entrants


def _pickled(factory: Callable[..., Any]) -> str:
    """A factory as a line of text, for the process that serves it."""
    return "pickle:" + base64.b64encode(pickle.dumps(factory)).decode("ascii")


def sendable(entrant: Entrant, where: Message) -> None:
    """Refuse, with a message that says why, a factory that cannot be sent
    ``where`` (to worker processes, to Ray, or to a process of its own)."""
    factory = entrant.factory
    if factory is None:
        return
    why: object = None
    try:
        pickle.loads(pickle.dumps(factory))
    except Exception as error:  # pickle raises what the object's own code raises
        why = _one_line(error) or type(error).__name__
    if (
        why is None
        and where.code == "where.own_process"
        and (getattr(factory, "__module__", None) == "__main__")
    ):
        why = Message(
            "why.factory_in_main",
            "it is defined in the script being run, which another process cannot import",
        )
    if why is not None:
        raise InvalidArgumentError(
            Message(
                "invalid_argument.bot_factory_not_sendable",
                "bot {label}: its factory cannot be sent to {where} ({why}); define it at a "
                "module's top level (a function or a class) and import it from there, or "
                "name it py:package.module:factory",
                label=quote(entrant.label),
                where=where,
                why=why,
            )
        )


#: The program of a Python bot's own process (``isolate``): it imports the
#: library from the host's Python path and serves the factory over the
#: protocol (:func:`sevenbridge.external.serve`).
_SERVED = (
    "import json, sys; sys.path[:0] = json.loads(sys.argv[1]); "
    "from sevenbridge.arena._entrants import serve_factory; "
    "raise SystemExit(serve_factory(sys.argv[2], sys.argv[3]))"
)


def _isolated(what: str, label: str, move_seconds: float, handshake_seconds: float) -> Player:
    """A Python bot (``py:`` name or pickled factory) in a process of its own."""
    # The label last: an external bot is called by its last word until it gives its name.
    command = [sys.executable, "-c", _SERVED, json.dumps(sys.path), what, label]
    return ExternalPlayer(command, move_seconds=move_seconds, handshake_seconds=handshake_seconds)


def serve_factory(what: str, label: str) -> int:
    """Serve the factory ``what`` names (``py:`` or pickled) as the bot
    ``label``: the program of an isolated bot's process."""
    try:
        if what.startswith("pickle:"):
            factory = pickle.loads(base64.b64decode(what.removeprefix("pickle:")))
        else:
            factory = import_factory(what)
    except SevenBridgeError as error:
        print(f"sevenbridge: error: {error}", file=sys.stderr, flush=True)
        return 2
    return serve(lambda seed: _checked_bot(label, factory(seed)), name=label)


def shown_names(bots: Iterable[str], announced: dict[str, str]) -> dict[str, str]:
    """The name each bot is shown by: an external bot's own (``announced``),
    made unique and marked "(cmd)" when it could be taken for a built-in
    bot's or is taken; a built-in bot's name in the tournament."""
    specs = sorted(set(bots))
    taken = {b for b in specs if not b.startswith("cmd:")}
    out = {b: b for b in taken}
    for spec in specs:
        if spec in out:
            continue
        base = announced.get(spec)
        if not base:  # it never said: its command
            out[spec] = spec
            continue
        label = base
        if label in taken or label.split(":")[0] in BOT_NAMES or label.startswith("cmd:"):
            label = f"{base} (cmd)"
        n = 2
        while label in taken:
            label, n = f"{base} (cmd {n})", n + 1
        taken.add(label)
        out[spec] = label
    return out
