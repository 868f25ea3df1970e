"""Tournaments between bots: duplicate deals, seats rotated, honest statistics.

:func:`run_tournament` deals a series of decks and plays each deck once for
every way of seating the bots (the *duplicate* format), so a good or bad deal
falls to every bot alike and the luck of the cards mostly cancels. Every deck,
every seat's bot and every bot's choices are seeded from the tournament seed,
so the same seed gives the same games and the same numbers whatever the number
of workers or the backend (local processes or Ray). A bot's seed is drawn
one-way from a secret that only the tournament seed gives (:func:`bot_seed`),
so nothing a bot is handed leads back to the cards: not even its own seed.

The statistics treat the deck as the unit: the games of one deck share their
cards and are not independent, so each bot's figures are averaged per deck
first, and the 95% interval is the normal one over those deck means
(mean ± 1.96 standard errors). With fewer than 30 decks the interval is rough;
the report says so.

The same tournaments play every game of :data:`sevenbridge.GAMES`:
``run_tournament(..., game="mahjong")`` plays rounds of Simple Mahjong with
the same bots (:mod:`sevenbridge.bots` play both games), seatings and
statistics (a mahjong "deal" is a round).

Results can go to an SQLite database (``db=``) as the decks finish; a run
that is stopped and started again with the same settings plays only what is
missing and ends with the same numbers, and two runs started at once on one
database share the decks between them.

>>> from sevenbridge.arena import run_tournament
>>> result = run_tournament(["greedy", "random"], players=2, deals=8, seed=1, progress=False)
>>> result.games, sorted(result.bots)
(8, ['greedy', 'random'])
>>> result.bots["greedy"].win_share.mean > result.bots["random"].win_share.mean
True
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import importlib
import itertools
import json
import math
import os
import pickle
import re
import signal
import socket
import statistics
import sys
import threading
import time
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

import attrs

from ._kit import checks as _checks
from ._kit.rng import derive, fresh_seed
from ._kit.version import version
from ._store import Store, _one_line
from .bots import (
    DEFAULT_ITERATIONS,
    DEFAULT_SECONDS,
    GreedyPlayer,
    ISMCTSPlayer,
    NeuralPlayer,
    Player,
    RandomPlayer,
)
from .errors import InvalidArgumentError, Message, SevenBridgeError, StoreError, quote
from .external import ExternalBotError, ExternalPlayer, exit_closing_all, serve
from .games import CARD_GAME, GAMES, check_game, game_module, outcome

__all__ = [
    "ARENA_VERSION",
    "BACKENDS",
    "BOT_NAMES",
    "FORFEIT_POINTS",
    "ISMCTS_ITERATIONS",
    "ISMCTS_SECONDS",
    "MIN_DECKS",
    "RAY_CONNECT_SECONDS",
    "Bot",
    "BotStats",
    "Comparison",
    "Estimate",
    "GameResult",
    "StoreError",
    "Timing",
    "TournamentResult",
    "bot_seed",
    "compare",
    "export_csv",
    "import_factory",
    "make_bot",
    "plot",
    "report",
    "run_tournament",
    "seatings",
]

#: The bots a tournament knows by name; ``cmd:COMMAND`` names an external bot,
#: ``py:package.module:factory`` a Python one.
BOT_NAMES = ("random", "greedy", "ismcts", "neural")
#: One seat of a tournament, a bot's name (:func:`make_bot`) or a pair of a
#: label and a factory that makes the bot of a deal from its seed.
Bot = str | tuple[str, Callable[[int], Player]]
#: Where the deals are played.
BACKENDS = ("local", "ray")
#: Version of the way decks, seats and bots are seeded; part of a store's settings
#: (2: bots' seeds drawn one-way, :func:`bot_seed`).
ARENA_VERSION = 2
#: The cost of a forfeit. The seat whose bot failed gets ``-FORFEIT_POINTS`` as
#: its return and the others share ``+FORFEIT_POINTS`` equally.
FORFEIT_POINTS = 100.0

#: How long a run may take to connect to a Ray cluster given by its address.
RAY_CONNECT_SECONDS = 30.0

#: The iterations per decision of an ``ismcts`` bot named without a budget: those
#: of :class:`~sevenbridge.bots.ISMCTSPlayer` given none
#: (:data:`sevenbridge.bots.DEFAULT_ITERATIONS`; it stops sooner at
#: :data:`ISMCTS_SECONDS` of processor time).
ISMCTS_ITERATIONS = DEFAULT_ITERATIONS
#: The processor time per decision of an ``ismcts`` bot named without a budget,
#: at most (:data:`sevenbridge.bots.DEFAULT_SECONDS`).
ISMCTS_SECONDS = DEFAULT_SECONDS

#: Below this many decks, no interval is given (the mean alone).
MIN_DECKS = 5

_Z95 = statistics.NormalDist().inv_cdf(0.975)
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
class _Entrant:
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


def _entrants(bots: Sequence[Bot]) -> tuple[tuple[str, ...], dict[str, _Entrant]]:
    """The label of each seat, and each bot by its label."""
    if isinstance(bots, str) or not isinstance(bots, Sequence):
        raise TypeError(
            "bots must be a list of bot names or (label, factory) pairs, one per seat, not "
            + _checks.type_name(bots)
        )
    labels: list[str] = []
    entrants: dict[str, _Entrant] = {}
    for bot in bots:
        if isinstance(bot, str):
            entrant = _Entrant(bot.strip(), bot.strip())
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
            entrant = _Entrant(label, _spec_of(factory), factory)
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


def _sendable(entrant: _Entrant, where: Message) -> None:
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
    "from sevenbridge.arena import _serve_factory; "
    "raise SystemExit(_serve_factory(sys.argv[2], sys.argv[3]))"
)


def _isolated(what: str, label: str, move_seconds: float, handshake_seconds: float) -> Player:
    """A Python bot (``py:`` name or pickled factory) in a process of its own."""
    # The label last: an external bot is called by its last word until it gives its name.
    command = [sys.executable, "-c", _SERVED, json.dumps(sys.path), what, label]
    return ExternalPlayer(command, move_seconds=move_seconds, handshake_seconds=handshake_seconds)


def _serve_factory(what: str, label: str) -> int:
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


@attrs.frozen
class Timing:
    """The time one seat's bot took over its decisions in one deal (moves with
    two or more legal actions; a lone move costs nothing)."""

    decisions: int
    wall: float
    """Seconds by the clock on the wall, all its decisions together. For an
    external bot, a decision lasts from the request's first byte to the
    answer's newline."""
    wall_max: float
    """The longest decision, in seconds by the wall clock."""
    cpu: float | None
    """Seconds of processor time it used for them. For a bot in this process
    they are its thread's, for an external bot its process's (``None`` where
    the system does not tell, for external bots off Linux)."""
    cpu_max: float | None
    """The most processor time one decision took."""


@attrs.frozen
class GameResult:
    """One deal of a tournament."""

    deck: int
    """Which dealt deck (from 0)."""
    seating: int
    """Which seating of the bots (an index into :func:`seatings`)."""
    bots: tuple[str, ...]
    """The bot in each seat."""
    winner: int | None
    """The seat that went out (``None``: a void deal or a forfeit)."""
    scores: tuple[int, ...]
    """The deal's scores as the rules count them (zeros after a forfeit)."""
    returns: tuple[float, ...]
    """:func:`~sevenbridge.returns`: one zero-sum number per seat, higher is better."""
    end_reason: str
    decisions: int
    """Moves with two or more legal actions."""
    failure: str | None
    """Why the deal was forfeited (an external bot crashed, answered nonsense
    or ran out of time), else ``None``."""
    record: str = attrs.field(repr=False)
    """The deal's record, which :func:`~sevenbridge.replay` reads back (up to the
    failure, for a forfeit)."""
    timing: tuple[Timing, ...] = attrs.field(default=(), eq=False, repr=False)
    """Each seat's time (empty in a store written before times were kept).
    Not part of equality: the same seed plays the same games, never in quite
    the same time."""

    def to_row(self) -> dict[str, Any]:
        """The result as the store keeps it."""
        return {
            "seating": self.seating,
            "bots": list(self.bots),
            "winner": self.winner,
            "scores": list(self.scores),
            "returns": list(self.returns),
            "end_reason": self.end_reason,
            "decisions": self.decisions,
            "failure": self.failure,
            "record": self.record,
            "timing": [attrs.astuple(t) for t in self.timing],
        }

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> GameResult:
        """A result read back from the store."""
        return cls(
            row["deck"],
            row["seating"],
            tuple(row["bots"]),
            row["winner"],
            tuple(row["scores"]),
            tuple(float(r) for r in row["returns"]),
            row["end_reason"],
            row["decisions"],
            row["failure"],
            row["record"],
            tuple(Timing(*t) for t in row.get("timing", ())),
        )


@attrs.frozen
class Estimate:
    """A mean with its 95% interval, over decks."""

    mean: float
    low: float | None
    """The interval's low end; ``None`` where there is no interval: fewer
    than :data:`MIN_DECKS` decks, or a bot that fills every seat (its
    figures are then fixed by the game, not by its play)."""
    high: float | None

    def __str__(self) -> str:
        if self.low is None or self.high is None:
            return f"{self.mean:.3f}"
        return f"{self.mean:.3f} [{self.low:.3f}, {self.high:.3f}]"


@attrs.frozen
class Comparison:
    """Two bots compared deck by deck (:func:`compare`): the first's figures
    less the second's, averaged per deck, with 95% intervals over decks."""

    first: str
    """The first bot, by the name the table shows."""
    second: str
    """The second bot, likewise."""
    decks: int
    """The decks both played."""
    win_share: Estimate
    """The difference of win shares, from -1 to 1 (0 when as strong)."""
    mean_return: Estimate
    """Difference of mean returns."""


@attrs.frozen
class BotStats:
    """One bot's figures over a tournament (per seat it held)."""

    name: str
    games: int
    """Seat-games played (a bot seated twice in a deal counts twice)."""
    wins: int
    win_share: Estimate
    """Share of its seat-games won; the fair share is ``1 / players``."""
    mean_return: Estimate
    """Mean :func:`~sevenbridge.returns` per seat-game (higher is better)."""
    mean_score: Estimate
    """Mean deal score per seat-game, as the rules count it."""
    forfeits: int = 0
    """Seat-games it lost by failing (external bots only)."""
    seats: int = 1
    """Seats it fills in each deal. The figures are per seat, averaged over
    its seats within each deck, and the intervals are over decks; a bot in
    every seat gets no interval."""
    decisions: int = 0
    """Decisions it was timed over (moves with two or more legal actions)."""
    wall_mean: float | None = None
    """Mean seconds per decision by the wall clock (``None``: not timed, as
    in a store written before times were kept)."""
    wall_max: float | None = None
    """The longest decision, in seconds by the wall clock."""
    cpu_mean: float | None = None
    """Mean processor seconds per decision (``None`` where not known; see
    :attr:`Timing.cpu`)."""
    cpu_max: float | None = None
    """The most processor seconds one decision took."""


@attrs.frozen
class TournamentResult:
    """What :func:`run_tournament` and :func:`report` return."""

    rules: Any
    """The rules (the game's own ``Rules``)."""
    players: int
    seed: int
    decks: int
    games: int
    bots: dict[str, BotStats]
    results: tuple[GameResult, ...] = attrs.field(repr=False)
    seconds: float
    """Time this run took (a resumed run counts only its own part)."""
    resumed: int = 0
    """How many decks this run did not play itself (it found them in the store,
    or another run sharing the store played them meanwhile)."""
    game: str = CARD_GAME
    """The game played (a name of :data:`sevenbridge.GAMES`)."""
    fair: bool = False
    """Whether each external bot was started afresh for every deal."""
    names: dict[str, str] = attrs.Factory(dict)
    """The name shown for each bot. An external bot's is its own name, from
    its handshake (made unique, and marked when it could be taken for a
    built-in bot's); a built-in bot's is its name in the tournament. A bot
    missing here is shown by its name in the tournament."""

    held: int = 0
    """The decks the database holds, 0 without one. It is more than
    :attr:`decks` when a run asked for fewer deals than an earlier one played."""
    specs: dict[str, str] = attrs.Factory(dict)
    """The import path (``py:package.module:name``) behind the label of each
    bot given as a factory."""

    @property
    def rules_name(self) -> str:
        """The rules' preset name, or ``"custom"``."""
        kind = type(self.rules)
        return next((p for p in kind.presets() if kind.preset(p) == self.rules), "custom")

    def label(self, bot: str) -> str:
        """The name shown for ``bot`` (its name in the tournament)."""
        return self.names.get(bot, bot)

    def table(self, lang: str | None = None, *, times: bool = True) -> str:
        """The results as a text table, its headings and note in ``lang``
        (``None`` or ``"en"``: English; ``"ja"``: Japanese); with ``times``,
        each bot's time per decision (the mean and the longest, by the wall
        clock and in processor time), which differs from run to run."""
        from ._kit.i18n import name_text, translator, width

        _ = translator(lang)
        head = (
            _("bot"), _("seat-games"), _("wins"), _("win share [95%]"),
            _("mean return [95%]"), _("score/deal"), _("ms/move [max]"), _("CPU ms/move [max]"),
        )[: 8 if times else 6]  # fmt: skip
        rows: list[tuple[str, ...]] = [head]
        for stats in sorted(self.bots.values(), key=lambda s: (-s.win_share.mean, s.name)):
            why = _("every seat") if stats.seats == self.players else _("too few decks")
            shown = [
                str(e)
                if e.low is not None
                else _("{value} ({why})").format(value=f"{e.mean:.3f}", why=why)
                for e in (stats.win_share, stats.mean_return)
            ]
            rows.append(
                (name_text(self.label(stats.name), lang), str(stats.games), str(stats.wins), *shown,
                 f"{stats.mean_score.mean:.2f}", _milliseconds(stats.wall_mean, stats.wall_max),
                 _milliseconds(stats.cpu_mean, stats.cpu_max))[: len(head)]
            )  # fmt: skip
        widths = [max(width(r[i]) for r in rows) for i in range(len(head))]
        lines = [
            "  ".join(c + " " * (w - width(c)) for c, w in zip(row, widths, strict=True))
            for row in rows
        ]
        lines = [line.rstrip() for line in lines]
        lines.insert(1, "  ".join("-" * w for w in widths))
        per_deck = self.games // max(self.decks, 1)
        note = _("{deals} ({decks} x {seatings}), {players} players; fair share {share}").format(
            deals=(_("1 deal") if self.games == 1 else _("{n} deals")).format(n=self.games),
            decks=(_("1 deck") if self.decks == 1 else _("{n} decks")).format(n=self.decks),
            seatings=(_("1 seating") if per_deck == 1 else _("{n} seatings")).format(n=per_deck),
            players=self.players, share=f"{1 / self.players:.3f}",
        )  # fmt: skip
        if self.decks < MIN_DECKS:
            note += _("; too few decks for intervals (fewer than {n})").format(n=MIN_DECKS)
        elif self.decks < 30:
            note += _("; fewer than 30 decks: the intervals are rough")
        forfeits = sum(s.forfeits for s in self.bots.values())
        if forfeits:
            note += _("; {n} forfeits").format(n=forfeits)
        if self.held > self.decks:
            note += _(
                "; the database holds {held} decks: this table shows the first {decks} "
                "(--report shows them all)"
            ).format(held=self.held, decks=self.decks)
        commands = [
            f"{self.label(bot)}: {bot}" for bot in sorted(self.bots) if self.label(bot) != bot
        ] + [f"{bot}: {self.specs[bot]}" for bot in sorted(self.bots) if bot in self.specs]
        return "\n".join([*lines, note, *commands])


def _milliseconds(mean: float | None, most: float | None) -> str:
    """A time per decision and the longest, in milliseconds (``-``: unknown)."""
    if mean is None or most is None:
        return "-"
    return f"{mean * 1000:.2f} [{most * 1000:.1f}]"


def seatings(bots: Sequence[str]) -> list[tuple[str, ...]]:
    """Every distinct way of seating ``bots`` (one per seat), in a fixed order.

    >>> seatings(["ismcts", "greedy", "greedy"])
    [('greedy', 'greedy', 'ismcts'), ('greedy', 'ismcts', 'greedy'), ('ismcts', 'greedy', 'greedy')]
    """
    return sorted(set(itertools.permutations(bots)))


def _secret(seed: int) -> bytes:
    """The tournament's secret: a key that only its seed gives."""
    return hashlib.blake2b(
        seed.to_bytes(8, "big"), digest_size=32, person=b"7bridge-arena"
    ).digest()


def bot_seed(seed: int, deck: int, place: int) -> int:
    """The seed of the bot at ``place`` (in the seating, from 0) of ``deck``, in
    a tournament seeded ``seed``.

    It is BLAKE2b of the deck and the place, keyed with a secret drawn from
    the tournament seed: one-way, so that a bot that knows its seed (an
    external bot is sent it) learns nothing of the deck's seed or of any
    other seed, and cannot deal the cards again. The deck itself is seeded
    from the tournament seed, so whoever knows that seed can replay every
    game: keep it secret (``run_tournament`` draws one when none is given).

    >>> bot_seed(7, 0, 1) == bot_seed(7, 0, 1) != bot_seed(7, 0, 2)
    True
    """
    data = deck.to_bytes(8, "big") + place.to_bytes(2, "big")
    digest = hashlib.blake2b(data, key=_secret(seed), digest_size=8, person=b"7bridge-bot")
    return int.from_bytes(digest.digest(), "big")


def _forfeit(players: int, seat: int) -> tuple[float, ...]:
    share = FORFEIT_POINTS / (players - 1)
    return tuple(-FORFEIT_POINTS if s == seat else share for s in range(players))


def play_deck(
    rules: Any,
    players: int,
    seed: int,
    deck: int,
    bots: Sequence[str],
    move_seconds: float = 10.0,
    game: str = CARD_GAME,
    handshake_seconds: float = 30.0,
    fair: bool = True,
    entrants: Mapping[str, _Entrant] | None = None,
    isolate: bool = False,
) -> list[GameResult]:
    """Play one deck under every seating (what one worker task does).

    ``bots`` are the seats' labels; ``entrants`` say how each is made (by
    default, each label is a bot's name). With ``fair``, each bot of the
    user's (an external bot's process, a Python bot) plays one deal: a new
    one is made for the next, so that nothing carries from one seating of
    the deck to the next; otherwise one bot plays every deal of the deck it
    is seated in (an external bot gets a new ``deal`` message for each) and
    is closed when the deck is done. Either way an external bot is closed
    when the play stops for any reason (its process group is killed).
    With ``isolate``, a Python bot plays in a process of its own, as an
    external bot.
    """
    deck_seed = derive(seed, deck + 1)
    seeds = [bot_seed(seed, deck, place) for place in range(players)]
    made = {b: _Entrant(b, b) for b in bots} | dict(entrants or {})
    out = []
    idle: dict[str, list[Player]] = {}
    try:
        for index, seating in enumerate(seatings(bots)):
            out.append(_play_seating(rules, players, deck, deck_seed, seeds, index, seating,
                                     move_seconds, idle, game, handshake_seconds,
                                     fair, made, isolate))  # fmt: skip
    finally:
        for waiting in idle.values():
            for bot in waiting:
                if isinstance(bot, ExternalPlayer):
                    bot.close()
    return out


def _play_seating(
    rules: Any,
    players: int,
    deck: int,
    deck_seed: int,
    seeds: Sequence[int],
    index: int,
    seating: tuple[str, ...],
    move_seconds: float,
    idle: dict[str, list[Player]],
    game: str,
    handshake_seconds: float,
    fair: bool,
    entrants: Mapping[str, _Entrant],
    isolate: bool,
) -> GameResult:
    module = game_module(game)
    # The seat of each bot: a table with ghosts (mahjong for 2 or 3) seats the
    # bots at the real players' seats, in order.
    seats = module.seats(module.deal(rules, players=players, seed=deck_seed))
    seated: dict[int, Player] = {}
    for place, name in enumerate(seating):
        pool = idle.get(name)
        bot = (
            pool.pop()
            if pool
            else entrants[name].make(seeds[place], move_seconds, handshake_seconds, isolate)
        )
        if isinstance(bot, ExternalPlayer):
            bot.new_deal(seat=seats[place], players=players, seed=seeds[place], rules=rules)
        seated[seats[place]] = bot
    state = module.deal(rules, players=players, dealer=seats[deck % players], seed=deck_seed)
    observe, legal_actions, apply = module.observe, module.legal_actions, module.apply
    decisions = 0
    failure: str | None = None
    clocks = [_Clock() for _ in seats]
    try:
        while not state.is_over:
            view = observe(state)
            choice = len(legal_actions(view)) > 1
            decisions += choice
            bot = seated[view.viewer]
            try:
                clock = clocks[seats.index(view.viewer)]
                action = clock.time(bot, view) if choice else bot(view)
            except ExternalBotError as error:
                name = seating[seats.index(view.viewer)]
                failure = f"seat {view.viewer} ({name}) {error.kind}: {error}"
                break
            state = apply(state, action)
    finally:
        for seat, bot in seated.items():
            name = seating[seats.index(seat)]
            if isinstance(bot, ExternalPlayer):
                if state.is_over and failure is None:
                    with contextlib.suppress(ExternalBotError):  # too late to lose it
                        bot.end_deal(state)
                if fair:
                    bot.close()
                elif bot.running:
                    idle.setdefault(name, []).append(bot)
            elif not fair and entrants[name].python:
                idle.setdefault(name, []).append(bot)
    if failure is None:
        scores, reason = outcome(state)
        returns = module.returns(state)
        return GameResult(
            deck, index, seating,
            None if state.winner is None else seats.index(state.winner),
            tuple(scores[s] for s in seats), tuple(returns[s] for s in seats),
            reason, decisions, None, module.record(state),
            tuple(c.timing() for c in clocks),
        )  # fmt: skip
    seat = state.current_player if state.current_player is not None else seats[0]
    return GameResult(
        deck, index, seating, None, (0,) * players, _forfeit(players, seats.index(seat)),
        "forfeit", decisions, failure, module.record(state), tuple(c.timing() for c in clocks),
    )  # fmt: skip


class _Clock:
    """One seat's time over a deal's decisions."""

    def __init__(self) -> None:
        self.decisions = 0
        self.wall = self.wall_max = 0.0
        self.cpu: float | None = 0.0
        self.cpu_max: float | None = 0.0

    def time(self, bot: Player, view: Any) -> Any:
        """``bot``'s action for ``view``, timed."""
        if isinstance(bot, ExternalPlayer):
            bot.start()  # its start and handshake are no part of a decision
            cpu = bot.cpu_seconds
        else:
            cpu = time.thread_time
        cpu_start, start = cpu(), time.perf_counter()
        action = bot(view)
        wall, cpu_end = time.perf_counter() - start, cpu()
        self.decisions += 1
        self.wall += wall
        self.wall_max = max(self.wall_max, wall)
        if cpu_start is None or cpu_end is None or self.cpu is None or self.cpu_max is None:
            self.cpu = self.cpu_max = None
        else:
            used = max(0.0, cpu_end - cpu_start)
            self.cpu, self.cpu_max = self.cpu + used, max(self.cpu_max, used)
        return action

    def timing(self) -> Timing:
        return Timing(self.decisions, self.wall, self.wall_max, self.cpu, self.cpu_max)


def _estimate(
    values: Sequence[float], lo: float = -math.inf, hi: float = math.inf, *, interval: bool = True
) -> Estimate:
    """The mean of deck figures and its normal 95% interval, kept within ``lo``
    and ``hi`` (a share cannot be below 0 or above 1); no interval below
    :data:`MIN_DECKS` decks, or without ``interval``."""
    mean = statistics.fmean(values)
    if len(values) < MIN_DECKS or not interval:
        return Estimate(mean, None, None)
    half = _Z95 * statistics.stdev(values) / math.sqrt(len(values))
    return Estimate(mean, max(lo, mean - half), min(hi, mean + half))


_Row = tuple[float, float, float]


def _per_deck(results: Iterable[GameResult]) -> dict[str, dict[int, list[_Row]]]:
    """Each bot's seat-games (won, return, score) by deck."""
    out: dict[str, dict[int, list[_Row]]] = {}
    for game in results:
        for seat, name in enumerate(game.bots):
            row = (float(game.winner == seat), game.returns[seat], float(game.scores[seat]))
            out.setdefault(name, {}).setdefault(game.deck, []).append(row)
    return out


def _deck_means(decks: dict[int, list[_Row]]) -> dict[int, list[float]]:
    return {
        deck: [statistics.fmean(col) for col in zip(*rows, strict=True)]
        for deck, rows in decks.items()
    }


def summarize(results: Iterable[GameResult]) -> dict[str, BotStats]:
    """Per-bot figures, with intervals over deck means."""
    results = list(results)
    forfeits: dict[str, int] = {}
    seats: dict[str, int] = {}
    for game in results:
        failed = None
        if game.failure is not None:
            failed = min(range(len(game.returns)), key=game.returns.__getitem__)
        for seat, name in enumerate(game.bots):
            forfeits[name] = forfeits.get(name, 0) + (seat == failed)
            seats[name] = game.bots.count(name)
    out = {}
    per_deck = _per_deck(results)
    # A bot in every seat plays itself: its figures say nothing of its play.
    alone = len(per_deck) == 1
    timed: dict[str, list[Timing]] = {}
    untimed = {name for game in results if not game.timing for name in game.bots}
    for game in results:
        for name, timing in zip(game.bots, game.timing, strict=False):
            timed.setdefault(name, []).append(timing)
    for name, decks in sorted(per_deck.items()):
        rows = [r for deck in decks.values() for r in deck]
        means = list(_deck_means(decks).values())
        out[name] = BotStats(
            name,
            len(rows),
            int(sum(r[0] for r in rows)),
            _estimate([m[0] for m in means], lo=0.0, hi=1.0, interval=not alone),
            _estimate([m[1] for m in means], interval=not alone),
            _estimate([m[2] for m in means], interval=not alone),
            forfeits[name],
            seats[name],
            *_times([] if name in untimed else timed.get(name, [])),
        )
    return out


_Times = tuple[int, float | None, float | None, float | None, float | None]


def _times(timings: list[Timing]) -> _Times:
    """Decisions, mean and most wall seconds, mean and most processor seconds
    per decision, over ``timings`` (``None`` where unknown)."""
    decisions = sum(t.decisions for t in timings)
    if not decisions:
        return (0, None, None, None, None)
    wall = sum(t.wall for t in timings) / decisions
    wall_max = max(t.wall_max for t in timings)
    cpus = [t for t in timings if t.decisions]
    if any(t.cpu is None or t.cpu_max is None for t in cpus):
        return (decisions, wall, wall_max, None, None)
    cpu = sum(t.cpu or 0.0 for t in cpus) / decisions
    return (decisions, wall, wall_max, cpu, max(t.cpu_max or 0.0 for t in cpus))


def _cannot_compare(name: str, bots: Iterable[str]) -> InvalidArgumentError:
    """The error for comparing a bot that is not one of ``bots``."""
    return InvalidArgumentError(
        Message(
            "invalid_argument.compare_unknown_bot",
            "cannot compare {name}: the bots are {bots}",
            name=quote(name),
            bots=", ".join(sorted(set(bots))),
        )
    )


def compare(result: TournamentResult, first: str, second: str) -> Comparison:
    """Compare two bots of a tournament deck by deck: in each deck, the first's
    win share and mean return less the second's (both played the same cards
    from the same seats), with 95% intervals over those differences.

    A paired comparison: the luck of each deck falls on both bots and
    cancels, so its interval is narrower than the two bots' intervals side
    by side suggest. An interval wholly above 0 says the first is the stronger.

    Args:
        result: The tournament (:func:`run_tournament`, :func:`report`).
        first, second: Two bots, each by its name in the tournament or the
            name the table shows.

    Raises:
        InvalidArgumentError: for a bot the tournament did not have, or the
            same bot twice.
    """
    by_label = {result.label(bot): bot for bot in result.bots}
    chosen = []
    for name in (first, second):
        bot = name if name in result.bots else by_label.get(name)
        if bot is None:
            raise _cannot_compare(name, by_label)
        chosen.append(bot)
    if chosen[0] == chosen[1]:
        raise InvalidArgumentError(
            Message(
                "invalid_argument.compare_same_bot",
                "compare two different bots, not {name} with itself",
                name=quote(first),
            )
        )
    per_deck = _per_deck(result.results)
    a, b = (_deck_means(per_deck[bot]) for bot in chosen)
    decks = sorted(set(a) & set(b))
    wins = [a[d][0] - b[d][0] for d in decks]
    returns = [a[d][1] - b[d][1] for d in decks]
    return Comparison(
        result.label(chosen[0]), result.label(chosen[1]), len(decks),
        _estimate(wins, lo=-1.0, hi=1.0), _estimate(returns),
    )  # fmt: skip


class _Progress:
    """A progress bar: tqdm when it is installed, else a plain status line."""

    def __init__(self, total: int, done: int, enabled: bool, out: TextIO) -> None:
        self.total, self.done, self.out = total, done, out
        self.start = self.shown = time.perf_counter()
        self.first = done
        self.bar: Any = None
        self.enabled = enabled
        if enabled:
            try:
                from tqdm import tqdm
            except ImportError:
                pass
            else:
                self.bar = tqdm(
                    total=total, initial=done, unit="deal", file=out, dynamic_ncols=True
                )

    def update(self, n: int) -> None:
        self.done += n
        if not self.enabled:
            return
        if self.bar is not None:
            self.bar.update(n)
            return
        now = time.perf_counter()
        if now - self.shown < 0.5 and self.done < self.total:
            return
        self.shown = now
        elapsed = now - self.start
        rate = (self.done - self.first) / elapsed if elapsed > 0 else 0.0
        left = (self.total - self.done) / rate if rate else 0.0
        print(
            f"\r{self.done}/{self.total} deals, {rate:.1f}/s, {left:.0f} s left ",
            end="",
            file=self.out,
            flush=True,
        )

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
        elif self.enabled:
            print(file=self.out)


_Task = tuple[
    Any, int, int, tuple[int, ...], tuple[str, ...], float, str, float, bool,
    dict[str, _Entrant], bool,
]  # fmt: skip
_Done = list[tuple[int, list[GameResult], float]]


def _timed_decks(
    rules: Any,
    players: int,
    seed: int,
    decks: tuple[int, ...],
    bots: tuple[str, ...],
    move_seconds: float,
    game: str = CARD_GAME,
    handshake_seconds: float = 30.0,
    fair: bool = True,
    entrants: dict[str, _Entrant] | None = None,
    isolate: bool = False,
) -> _Done:
    """Play a batch of decks (one worker task); each deck with its time."""
    out = []
    for deck in decks:
        start = time.perf_counter()
        games = play_deck(rules, players, seed, deck, bots, move_seconds, game,
                          handshake_seconds, fair, entrants, isolate)  # fmt: skip
        out.append((deck, games, time.perf_counter() - start))
    return out


def _batch_size(decks: int, workers: int) -> int:
    """Decks per task: enough tasks to keep every worker busy to the end, few
    enough that handing them out and storing them costs little."""
    return max(1, min(64, decks // (16 * workers)))


def _batches(decks: list[int], workers: int) -> list[tuple[int, ...]]:
    """Decks grouped into tasks of :func:`_batch_size`."""
    size = _batch_size(len(decks), workers)
    return [tuple(decks[i : i + size]) for i in range(0, len(decks), size)]


def _local(tasks: Iterable[_Task], workers: int) -> Generator[_Done, None, None]:
    if workers == 1:
        for task in tasks:
            yield _timed_decks(*task)
        return
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    pool = ProcessPoolExecutor(workers, initializer=_worker_start, initargs=(os.getpid(),))
    try:
        # A bounded number of tasks in flight: results stream back (and into
        # the store) as they finish, and a stop loses little.
        todo = iter(tasks)
        pending = {pool.submit(_timed_decks, *t) for t in itertools.islice(todo, 3 * workers)}
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                yield future.result()
                for task in itertools.islice(todo, 1):
                    pending.add(pool.submit(_timed_decks, *task))
    except BaseException:  # Ctrl-C, SIGTERM, an error: stop the workers and their bots now
        workers_now = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for process in workers_now:
            with contextlib.suppress(OSError):
                process.terminate()  # SIGTERM: _worker_stop
        raise
    finally:
        pool.shutdown(wait=True)


def _worker_start(parent: int) -> None:
    """Set up a worker process of the local backend: Ctrl-C is for the main
    process (which stops the workers), SIGTERM ends the worker's external
    bots, their process groups included, before the worker exits, and the
    worker ends with its ``parent``, however that ends (``kill -9``
    included): on Linux the kernel sends it SIGTERM then, and everywhere a
    thread watches for the parent's end."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _worker_stop)
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            import ctypes

            ctypes.CDLL(None).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
    threading.Thread(
        target=_watch_parent, args=(parent,), name="sevenbridge-parent-watch", daemon=True
    ).start()


#: prctl's option that has the kernel signal a process when its parent ends (Linux).
_PR_SET_PDEATHSIG = 1
#: How often a worker looks whether its parent still lives.
_PARENT_POLL_SECONDS = 1.0


def _watch_parent(parent: int) -> None:
    """End this worker, and its bots, once ``parent`` is gone (it is then
    another process's child)."""
    while os.getppid() == parent:
        time.sleep(_PARENT_POLL_SECONDS)
    _worker_stop(signal.SIGTERM, None)


def _worker_stop(signum: int, frame: object) -> None:
    exit_closing_all(128 + signum)


def _ray(tasks: Iterable[_Task], address: str | None, workers: int) -> Generator[_Done, None, None]:
    try:
        import ray
    except ImportError:
        raise InvalidArgumentError(
            Message(
                "invalid_argument.backend_ray_needs_ray",
                'backend "ray" needs Ray: pip install "sevenbridge[ray]"',
            )
        ) from None
    owned = not ray.is_initialized()
    if owned:
        if address is None:
            ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
        else:
            _ray_connect(ray, address, RAY_CONNECT_SECONDS)
    try:
        remote = ray.remote(_timed_decks)
        todo = iter(tasks)
        in_flight = max(2 * workers, 2) if address is None else 64
        pending = [remote.remote(*t) for t in itertools.islice(todo, in_flight)]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            yield ray.get(done[0])
            pending += [remote.remote(*t) for t in itertools.islice(todo, 1)]
    finally:
        if owned:
            ray.shutdown()


def _ray_connect(ray: Any, address: str, seconds: float) -> None:
    """Connect to the Ray cluster at ``address`` within ``seconds``, or say
    why not: Ray itself would try again and again, for minutes, printing its
    retries."""

    def fail(why: object) -> InvalidArgumentError:
        return InvalidArgumentError(
            Message(
                "invalid_argument.ray_cannot_connect",
                "cannot connect to the Ray cluster at {address} within {seconds} s ({why}); "
                "check --address (the head node's host:port, ray://host:port, or auto on a "
                "node of the cluster)",
                address=quote(address),
                seconds=format(seconds, "g"),
                why=why,
            )
        )

    target = address.removeprefix("ray://")
    host, sep, port = target.rpartition(":")
    if address != "auto" and sep and port.isdigit():
        try:  # an address nobody listens at fails at once
            socket.create_connection((host.strip("[]"), int(port)), timeout=seconds).close()
        except OSError as error:
            raise fail(error.strerror or error) from None
    done: list[BaseException | None] = []

    def connect() -> None:
        try:
            ray.init(address=address, log_to_driver=False)
        except BaseException as error:  # handed to the run's thread
            done.append(error)
        else:
            done.append(None)

    thread = threading.Thread(target=connect, name="sevenbridge-ray-connect", daemon=True)
    thread.start()
    thread.join(seconds)
    if not done:
        raise fail(Message("why.ray_no_answer", "no answer"))
    if done[0] is not None:
        raise fail(_one_line(done[0]) or type(done[0]).__name__)


def _settings(
    entrants: Iterable[_Entrant],
    bots: Sequence[str],
    rules: Any,
    players: int,
    seed: int,
    move_seconds: float,
    game: str,
    fair: bool,
) -> dict[str, Any]:
    settings = {
        "game": game,
        "arena_version": ARENA_VERSION,
        "sevenbridge": version(),
        "bots": sorted(bots),  # the same bots in any order play the same games
        "rules": rules.to_json(),
        "players": players,
        "seed": seed,
        "move_seconds": move_seconds,
        "fair": fair,
    }
    # What stands behind the label of a bot given as a factory: its import
    # path (a store without factory bots has no such setting).
    specs = {e.label: e.spec for e in entrants if e.factory is not None}
    if specs:
        settings["specs"] = specs
    return settings


def _check_bots(
    entrants: Mapping[str, _Entrant],
    move_seconds: float,
    handshake_seconds: float,
    keep_going: bool,
    isolate: bool,
    backend: str,
    workers: int,
) -> dict[str, str]:
    """Refuse a bot that cannot play before any work: an unknown name, a
    ``py:`` bot that does not import, a factory the workers cannot be sent,
    an external bot that does not start (unless ``keep_going``). Returns the
    names the external (``cmd:``) bots give."""
    announced: dict[str, str] = {}
    if isolate:
        where: Message | None = Message("where.own_process", "a process of its own (isolate)")
    elif backend == "ray":
        where = Message("where.ray", "Ray's workers")
    elif workers > 1:
        where = Message("where.workers", "worker processes")
    else:
        where = None
    for entrant in entrants.values():
        if entrant.factory is not None:
            if where is not None:
                _sendable(entrant, where)
            if not isolate:
                continue
        elif entrant.spec.startswith("py:") and not isolate:
            import_factory(entrant.spec)  # imported here: what it lacks is said at once
            continue
        bot = entrant.make(0, move_seconds, handshake_seconds, isolate)
        if isinstance(bot, ExternalPlayer):
            with contextlib.suppress(ExternalBotError) if keep_going else contextlib.nullcontext():
                name = _try_start(bot)
                if not entrant.python:
                    announced[entrant.label] = name
    return announced


def run_tournament(
    bots: Sequence[Bot],
    rules: Any = None,
    *,
    game: str = CARD_GAME,
    players: int | None = None,
    deals: int = 300,
    seed: int | None = None,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
    db: str | Path | None = None,
    move_seconds: float = 10.0,
    handshake_seconds: float = 30.0,
    keep_going: bool = False,
    fair: bool | None = None,
    isolate: bool = False,
    progress: bool = True,
    progress_file: TextIO | None = None,
    on_games: Callable[[list[GameResult]], None] | None = None,
) -> TournamentResult:
    """Play a duplicate tournament and return its results.

    Args:
        bots: One bot per seat: a name (see :func:`make_bot`: a built-in
            bot, ``cmd:COMMAND``, ``py:package.module:factory``), or a pair
            ``(label, factory)``, where ``factory(seed)`` makes a
            :class:`~sevenbridge.bots.Player` (a class such as
            :class:`~sevenbridge.bots.GreedyPlayer` will do). Names and labels
            may repeat (``["ismcts", "greedy", "greedy"]``); figures are per
            name or label. A label is the bot's name in the results and the
            store, which also keeps its factory's import path; with workers,
            Ray or ``isolate``, the factory must pickle (defined at a
            module's top level).
        rules: The rules, the game's own ``Rules`` (default: the game's standard).
        game: The game, a name of :data:`sevenbridge.GAMES`: ``"seven_bridge"``
            (the card game, default) or ``"mahjong"`` (rounds of Simple Mahjong).
        players: The table size; by default one seat per bot. Must equal
            ``len(bots)`` and be one of the game's ``PLAYER_COUNTS``.
        deals: How many deals to play at least; rounded up to whole decks
            (each deck is played once per distinct seating).
        seed: Fixes every deck, seat and choice: the same seed plays the
            same games. ``None`` (the default) draws a secret one from the
            operating system, so that no bot can know the deals beforehand;
            with ``db`` holding a tournament already, its seed (the run
            resumes). The result's ``seed`` tells it, to replay the games.
        workers: Processes to play in (1: in this process), or for
            ``backend="ray"`` without an address, the CPUs of the local Ray
            instance started for the run.
        backend: ``"local"`` (processes on this machine) or ``"ray"`` (Ray
            tasks; needs the ``ray`` extra).
        address: With ``backend="ray"``, the address of an existing Ray
            cluster (``"auto"``, ``"ray://host:10001"``); sevenbridge must be
            installed on its nodes.
        db: An SQLite file for the results. Each batch of decks is written
            as it finishes; a run with the same settings resumes from what the file
            holds, and a file made with other settings is refused
            (:class:`StoreError`). The number of deals may differ between
            runs: the decks are the same. Runs with the same settings may
            use one file at the same time: each claims the decks it plays,
            and each returns the whole tournament.
        move_seconds: Time limit per decision for external bots.
        handshake_seconds: Time limit for an external bot to start and answer
            the handshake (not part of a store's settings).
        keep_going: Play on when an external bot fails to start: its deals
            are forfeits. By default each external bot is started once, and
            must answer the handshake, before any deal is played (and before
            the store is opened); one that fails stops the run with
            :class:`~sevenbridge.external.ExternalBotError`.
        fair: Start each external bot afresh for every deal, so that it
            carries nothing from one seating of a deck to the next (it would
            otherwise know the hands it saw). ``None`` (the default): fair
            when any bot is external (``cmd:``) or Python code of the user's
            (``py:``, a factory). A Python bot is then made afresh for every
            deal too; without, one bot object plays every seating of a deck.
            Part of a store's settings.
        isolate: Play each Python bot (``py:``, a factory) in a process of
            its own, over the external bots' protocol, so that it sees only
            what the protocol sends: not the tournament's process, where the
            whole position lies. With ``fair``, a new process for every deal.
            A ``py:`` bot's module is then imported only in those processes.
            Not part of a store's settings: an honest bot plays the same
            games either way.
        progress: Show a progress bar (tqdm if installed) on standard error.
        progress_file: Where the progress bar goes instead of standard error.
        on_games: Called in the main process with each deck's games as they
            finish (in the order they finish).

    Raises:
        InvalidArgumentError: for a bad bot name, label, table size or option,
            a ``py:`` bot that does not import, a factory that cannot be sent
            where it must go or that makes something that is not a Player.
        StoreError: for a database made with other settings (or another game,
            or other factories behind the same labels),
            or one that cannot be used: not SQLite, another program's,
            damaged, newer, read-only or locked. The message names the file
            and what to do.
        ExternalBotError: for an external bot that fails to start (unless
            ``keep_going``).
    """
    game = check_game(game)
    bots, entrants = _entrants(bots)
    rules, players = game_module(game).check_table(rules, len(bots) if players is None else players)
    if len(bots) != players:
        raise InvalidArgumentError(
            Message(
                "invalid_argument.bots_for_seats_name",
                "{n_bots} bots for {players} seats: name one bot per seat",
                n_bots=len(bots),
                players=players,
            )
        )
    move_seconds = _checks.seconds(move_seconds, "move_seconds")
    handshake_seconds = _checks.seconds(handshake_seconds, "handshake_seconds")
    if fair is None:
        fair = any(e.python or e.spec.startswith("cmd:") for e in entrants.values())
    elif not isinstance(fair, bool):
        raise TypeError(f"fair must be True, False or None, not {_checks.type_name(fair)}")
    if not isinstance(isolate, bool):
        raise TypeError(f"isolate must be True or False, not {_checks.type_name(isolate)}")
    deals = _checks.integer(deals, "deals", 1, 10**9)
    seed = _checks.seed(seed)
    workers = _checks.integer(workers, "workers", 1, 1024)
    if backend not in BACKENDS:
        raise InvalidArgumentError(
            Message(
                "invalid_argument.backend_must_one_not",
                "backend must be one of {backends}, not {backend}",
                backends=", ".join(BACKENDS),
                backend=quote(backend),
            )
        )
    if address is not None and backend != "ray":
        raise InvalidArgumentError(
            Message("invalid_argument.address_for_backend_ray", 'address is for backend="ray"')
        )
    announced = _check_bots(entrants, move_seconds, handshake_seconds, keep_going, isolate,
                            backend, workers)  # fmt: skip
    per_deck = len(seatings(bots))
    decks = -(-deals // per_deck)
    results: dict[int, list[GameResult]] = {}
    held = 0  # decks the store holds
    store = Store(db) if db is not None else None
    try:
        if seed is None:
            seed = _secret_seed(store)
        if store is not None:
            _claim(store, _settings(entrants.values(), bots, rules, players, seed, move_seconds,
                                    game, fair))  # fmt: skip
            if announced:
                store.write_names(announced)
            announced = {**store.names(), **announced}
            results = _stored(store, bots, decks)
        played: set[int] = set()  # by this run
        missing = [deck for deck in range(decks) if deck not in results]
        bar = _Progress(decks * per_deck, len(results) * per_deck, progress,
                        progress_file or sys.stderr)  # fmt: skip
        start = time.perf_counter()

        def play(batches: Iterable[Sequence[int]]) -> None:
            tasks = (
                (
                    rules,
                    players,
                    seed,
                    tuple(b),
                    bots,
                    move_seconds,
                    game,
                    handshake_seconds,
                    fair,
                    entrants,
                    isolate,
                )
                for b in batches
            )
            stream = _ray(tasks, address, workers) if backend == "ray" else _local(tasks, workers)
            try:
                for batch in stream:
                    if store is not None:  # one transaction per batch of decks
                        store.write_decks([(d, [g.to_row() for g in gs], t) for d, gs, t in batch])
                    for deck, games, _ in batch:
                        results[deck] = games
                        played.add(deck)
                        if on_games is not None:
                            on_games(games)
                        bar.update(len(games))
            finally:
                stream.close()  # a stop ends the workers and their bots now

        def seen(stored: int) -> None:
            bar.update(max(0, stored * per_deck - bar.done))

        try:
            if store is None:
                play(_batches(missing, workers))
            else:
                # Runs sharing the store each claim the decks they play; when
                # nothing is left to claim, wait for the others' decks (or take
                # over those of a run that died).
                size = _batch_size(len(missing), workers)
                while missing:
                    play(_sharing(store, store.take_decks(missing, size), backend, workers))
                    missing = store.wait_for_others(decks, seen)
                store.stop_sharing()
                others = [deck for deck in range(decks) if deck not in results]
                results.update(_stored(store, bots, decks, others))
                held = store.deck_count()
        finally:
            bar.close()
    finally:
        if store is not None:
            store.close()
    ordered = tuple(g for deck in sorted(results) for g in results[deck])
    return TournamentResult(
        rules, players, seed, decks, len(ordered), summarize(ordered), ordered,
        time.perf_counter() - start, len(results) - len(played), game, fair,
        _labels(bots, announced), held,
        {e.label: e.spec for e in entrants.values() if e.factory is not None},
    )  # fmt: skip


def _labels(bots: Iterable[str], announced: dict[str, str]) -> dict[str, str]:
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


def _secret_seed(store: Store | None) -> int:
    """The seed of a run given none: the seed of the tournament the store holds
    (to resume it), else a new one from the operating system's secure source."""
    held = store.settings() if store is not None else {}
    seed = held.get("seed")
    if type(seed) is int and 0 <= seed <= _checks.MAX_SEED:
        return seed
    return fresh_seed()


def _try_start(bot: ExternalPlayer) -> str:
    """Start an external bot and shake hands, then close it; raise if it fails.
    Returns the name the bot gave."""
    try:
        bot.start()
        return bot.name
    except ExternalBotError as error:
        raise ExternalBotError(
            error.kind,
            Message(
                "external_bot.failed_to_start_no_deal",
                "{error}; no deal was played (keep_going=True, or --keep-going, "
                "plays on and the bot forfeits its deals)",
                error=error.message,
            ),
        ) from None
    finally:
        bot.close()


def _claim(store: Store, settings: dict[str, Any]) -> None:
    """Claim the store for this run's settings; a store of another game is refused
    first, with a message that says so (a store written before the game was
    recorded holds the card game)."""
    held = store.settings()
    if held:
        held_game = held.get("game", CARD_GAME)
        if held_game != settings["game"]:
            raise StoreError(
                Message(
                    "store.holds_other_game",
                    "{path} holds a tournament of {held}, not {game}; use another database file",
                    path=store.path,
                    held=held_game,
                    game=settings["game"],
                )
            )
        if "game" not in held:
            settings = {k: v for k, v in settings.items() if k != "game"}
    store.claim(settings)


def _sharing(
    store: Store, batches: Iterable[list[int]], backend: str, workers: int
) -> Iterator[list[int]]:
    """The claimed ``batches``, with the heartbeat that keeps the claims alive
    started in time: at once, or for a pool of local processes, once the first
    batch is handed out, by when the pool has forked its workers (a process
    that runs a thread should not fork)."""
    if backend == "ray" or workers == 1:
        store.start_sharing()
    for batch in batches:
        yield batch
        store.start_sharing()


def _stored(
    store: Store, bots: tuple[str, ...], below: int | None, among: Iterable[int] | None = None
) -> dict[int, list[GameResult]]:
    """The games a store holds (decks below ``below``, of ``among`` if given), by
    deck; each deck must hold one game per seating of ``bots``."""
    expected = list(enumerate(seatings(bots)))
    out: dict[int, list[GameResult]] = {}
    for row in store.games(below, None if among is None else set(among)):
        out.setdefault(row["deck"], []).append(GameResult.from_row(row))
    for deck, games in out.items():
        if [(g.seating, g.bots) for g in games] != expected:
            raise store.damaged_deck(
                deck,
                Message(
                    "store.problem.seatings",
                    "its games are not one per seating of the bots {bots}",
                    bots=" ".join(bots),
                ),
            )
    return out


def _open(db: str | Path) -> Store:
    """A tournament database opened for reading."""
    path = Path(db)
    if not path.is_file():
        raise StoreError(
            Message("store.no_such_results_database", "{path}: no such results database", path=path)
        )
    return Store(path, readonly=True)


def report(db: str | Path) -> TournamentResult:
    """The results held in a tournament database, as :func:`run_tournament` gave them.

    Raises:
        StoreError: if the file is not a tournament database, or a damaged one.
    """
    with _open(db) as store:
        settings = store.settings()
        if not settings:
            raise store.no_tournament()
        game = settings.get("game", CARD_GAME)
        if not isinstance(game, str) or game not in GAMES:
            raise store.bad_setting("game", game, Message("store.expect.game", "a game's name"))
        module = game_module(game)
        text = store.setting(settings, "rules")
        try:
            rules = module.Rules.from_json(text)
        except SevenBridgeError as error:
            raise store.bad_setting(
                "rules", text, Message("store.expect.rules", "rules ({error})", error=error)
            ) from None
        players = store.setting(settings, "players")
        if type(players) is not int or players not in module.PLAYER_COUNTS:
            raise store.bad_setting(
                "players", players,
                Message("store.expect.players", "one of {counts}", counts=module.PLAYER_COUNTS),
            )  # fmt: skip
        seed = store.setting(settings, "seed")
        if type(seed) is not int or not 0 <= seed <= _checks.MAX_SEED:
            raise store.bad_setting("seed", seed, Message("store.expect.seed", "a seed"))
        bots = store.setting(settings, "bots")
        if not (
            isinstance(bots, list)
            and len(bots) == players
            and all(isinstance(b, str) for b in bots)
        ):
            raise store.bad_setting(
                "bots", bots,
                Message("store.expect.bot_names", "a list of {n} bot names", n=players),
            )  # fmt: skip
        fair = settings.get("fair", False)  # written since arena version 2
        if type(fair) is not bool:
            raise store.bad_setting("fair", fair, Message("store.expect.fair", "true or false"))
        specs = settings.get("specs", {})  # only with bots given as factories
        if not (
            isinstance(specs, dict)
            and all(k in bots and isinstance(v, str) for k, v in specs.items())
        ):
            raise store.bad_setting(
                "specs", specs,
                Message("store.expect.specs", "the import path of each factory bot, by label"),
            )  # fmt: skip
        stored = _stored(store, tuple(bots), None)
        announced = store.names()
    games = tuple(g for deck in sorted(stored) for g in stored[deck])
    return TournamentResult(
        rules, players, seed, len(stored), len(games), summarize(games), games,
        0.0, len(stored), game, fair, _labels(bots, announced), len(stored), specs,
    )  # fmt: skip


def export_csv(db: str | Path, out: TextIO) -> int:
    """Write a tournament database's deals as CSV (one row per deal); returns the row count.

    The columns are ``deck, seating, bots, winner, winner_bot, scores,
    returns, end_reason, decisions, failure, ms_per_move, max_ms,
    cpu_ms_per_move, cpu_max_ms`` (lists space-separated, one entry per seat;
    the times are each seat's mean and longest decision in milliseconds, by
    the wall clock and in processor time, ``-`` where not known).
    """
    with _open(db) as store:
        return store.export_csv(out)


def _plot_title(result: TournamentResult) -> str:
    """The title of a tournament's plot: its bots, deals, seed, game, rules and
    table size.

    >>> print(_plot_title(run_tournament(["greedy", "random"], deals=4, seed=3, progress=False)))
    greedy, random: 4 deals (2 decks), seed 3
    standard rules, 2 players
    """
    bots = ", ".join(
        result.label(s.name) + (f" x{s.seats}" if s.seats > 1 else "")
        for s in sorted(result.bots.values(), key=lambda s: s.name)
    )
    game = f"{result.game}, " if game_module(result.game).GAME.label else ""  # a game named
    deals = f"{result.games} deal{'s' * (result.games != 1)}"
    decks = f"{result.decks} deck{'s' * (result.decks != 1)}"
    return (
        f"{bots}: {deals} ({decks}), seed {result.seed}\n"
        f"{game}{result.rules_name} rules, {result.players} players"
    )


def _pyplot() -> Any:
    """matplotlib's pyplot, drawing to files (a library error without matplotlib)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise InvalidArgumentError(
            Message(
                "invalid_argument.plotting_needs_matplotlib_pip",
                'plotting needs matplotlib: pip install "sevenbridge[plot]"',
            )
        ) from None
    return plt


def _save(figure: Any, path: str | Path, title: str) -> None:
    """Title a figure, write it to ``path`` with the title in the file's
    metadata, and close it."""
    figure.axes[0].set_title(title, fontsize="medium")
    figure.savefig(path, dpi=120, metadata={"Title": title.replace("\n", "; ")})
    _pyplot().close(figure)


def plot(result: TournamentResult, path: str | Path) -> None:
    """Draw each bot's win share with its 95% interval, and the fair share, to an image file.

    Needs matplotlib (``pip install "sevenbridge[plot]"``).
    """
    plt = _pyplot()
    stats = sorted(result.bots.values(), key=lambda s: -s.win_share.mean)
    names = [result.label(s.name) for s in stats]
    means = [s.win_share.mean for s in stats]
    errors = [
        [
            m - (m if s.win_share.low is None else s.win_share.low)
            for m, s in zip(means, stats, strict=True)
        ],
        [
            (m if s.win_share.high is None else s.win_share.high) - m
            for m, s in zip(means, stats, strict=True)
        ],
    ]
    fig, ax = plt.subplots(figsize=(6.4, 0.6 + 0.6 * len(stats)), layout="constrained")
    ax.barh(names, means, xerr=errors, color="#4477aa", capsize=4)
    ax.axvline(1 / result.players, color="#cc6677", linestyle="--", label="fair share")
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("share of deals won (95% interval over decks)")
    ax.legend(loc="lower right")
    _save(fig, path, _plot_title(result))
