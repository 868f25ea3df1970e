"""A tournament's settings as one frozen value: what it plays."""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from typing import Any

import attrs

from .._kit import checks as _checks
from ..bots import Player
from ..errors import InvalidArgumentError, Message
from ..games import CARD_GAME, check_game, game_module
from ._entrants import Bot, Entrant, entrants_of


@attrs.frozen(kw_only=True)
class Settings:
    """What a tournament plays: its bots, the game and its rules, the table,
    the deals, the seed, the external bots' time limits, and how the user's
    bots are played (``fair``, ``isolate``). :func:`run_tournament` takes
    one as ``settings=``, in place of the arguments of those names (which
    say what each setting means); a run's other arguments (workers, backend,
    database, progress) say how it is played and are no part of it.

    Make one with :meth:`of`, which checks the values and fills in the
    defaults as :func:`run_tournament` does; ``run_tournament`` checks the
    settings it is given the same way. A Settings pickles when its bots'
    factories do: it goes with each task to the process (or the Ray worker)
    that plays the task's decks.

    >>> settings = Settings.of(["greedy", "random"], deals=8, seed=1)
    >>> settings.players, settings.fair, settings.labels
    (2, False, ('greedy', 'random'))
    """

    bots: tuple[Bot, ...]
    """One bot per seat, a name or a ``(label, factory)`` pair."""
    rules: Any
    """The game's own ``Rules``."""
    game: str = CARD_GAME
    """The game, a name of :data:`sevenbridge.GAMES`."""
    players: int
    """The table size, one seat per bot."""
    deals: int = 300
    """How many deals to play at least (rounded up to whole decks)."""
    seed: int | None = None
    """The tournament's seed; ``None`` until one is drawn (or read from the
    database, to resume)."""
    move_seconds: float = 10.0
    """Time limit per decision for external bots."""
    handshake_seconds: float = 30.0
    """Time limit for an external bot to start and answer the handshake."""
    fair: bool = False
    """Whether each of the user's bots (external or Python) is made afresh
    for every deal."""
    isolate: bool = False
    """Whether each Python bot plays in a process of its own."""

    @classmethod
    def of(
        cls,
        bots: Sequence[Bot],
        rules: Any = None,
        *,
        game: str = CARD_GAME,
        players: int | None = None,
        deals: int = 300,
        seed: int | None = None,
        move_seconds: float = 10.0,
        handshake_seconds: float = 30.0,
        fair: bool | None = None,
        isolate: bool = False,
    ) -> Settings:
        """The settings of a tournament, checked, with the defaults filled in:
        the game's standard rules, one seat per bot, and ``fair`` when any
        bot is external or Python code of the user's. The arguments are
        :func:`run_tournament`'s of the same names.

        Raises:
            InvalidArgumentError: for an unknown game, a bad bot name or
                label, a table size that does not fit the game or the
                bots, or a value out of range.
            TypeError: for a value of the wrong type.
        """
        game = check_game(game)
        labels, entrants = entrants_of(bots)
        rules, players = game_module(game).check_table(
            rules, len(labels) if players is None else players
        )
        if len(labels) != players:
            raise InvalidArgumentError(
                Message(
                    "invalid_argument.bots_for_seats_name",
                    "{n_bots} bots for {players} seats: name one bot per seat",
                    n_bots=len(labels),
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
        return cls(
            bots=tuple(bots),
            rules=rules,
            game=game,
            players=players,
            deals=_checks.integer(deals, "deals", 1, 10**9),
            seed=_checks.seed(seed),
            move_seconds=move_seconds,
            handshake_seconds=handshake_seconds,
            fair=fair,
            isolate=isolate,
        )

    @property
    def labels(self) -> tuple[str, ...]:
        """The label of each seat's bot (its name, or the label given with
        its factory)."""
        return entrants_of(self.bots)[0]


def entrants(settings: Settings) -> dict[str, Entrant]:
    """Each bot of ``settings`` by its label: how it is made."""
    return entrants_of(settings.bots)[1]


def make_entrant(settings: Settings, entrant: Entrant, seed: int) -> Player:
    """The bot ``entrant`` of one deal (or, without ``fair``, of one deck),
    with the time limits and the isolation ``settings`` give."""
    return entrant.make(seed, settings.move_seconds, settings.handshake_seconds, settings.isolate)


def drawn_seed(settings: Settings) -> int:
    """The seed of ``settings``, once drawn (the decks are played with it)."""
    if settings.seed is None:
        raise ValueError("a tournament's seed is drawn before its decks are played")
    return settings.seed


#: The arguments of :meth:`Settings.of`, with their defaults.
_ARGUMENTS = {
    name: parameter.default for name, parameter in inspect.signature(Settings.of).parameters.items()
}


def settings_of(settings: Settings | None, arguments: dict[str, Any]) -> Settings:
    """The checked settings of a run: ``settings`` if given (then the
    ``arguments`` it replaces must be left at their defaults), else those
    made of the ``arguments`` (:meth:`Settings.of`'s, ``bots`` ``None`` when
    not given)."""
    if settings is None:
        if arguments["bots"] is None:
            raise TypeError("name the bots, or give settings")
        return Settings.of(**arguments)
    if not isinstance(settings, Settings):
        raise TypeError(f"settings must be a Settings value, not {_checks.type_name(settings)}")
    given = [
        name
        for name, value in arguments.items()
        if value is not None and (name == "bots" or value != _ARGUMENTS[name])
    ]
    if given:
        raise TypeError(
            f"give {', '.join(given)} in the settings or as arguments, not both "
            "(settings= replaces them)"
        )
    # Made with the class itself, they are checked (and completed) here.
    return Settings.of(**attrs.asdict(settings, recurse=False))
