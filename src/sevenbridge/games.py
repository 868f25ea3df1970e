"""One protocol for every game of the library: :class:`GameModule`.

The card game (``sevenbridge``) and Simple Mahjong (:mod:`sevenbridge.mahjong`)
offer the same names with the same shapes: a ``Rules`` value with presets, frozen
states and player views that write and read JSON, a pure engine (``deal``,
``legal_actions``, ``apply``), views and sampling for search (``observe``,
``sample_state``), ``returns`` for learners, text for people (``explain``,
``render``), records (``record``, ``replay``, ``record_match``,
``replay_match``) and move notation (``parse_move``, ``format_move``). Code
written against :class:`GameModule` plays either game;
:func:`sevenbridge.game` finds a game by its name in :data:`GAMES`.

>>> import sevenbridge
>>> sevenbridge.GAMES
('seven_bridge', 'mahjong')
>>> mahjong = sevenbridge.game("mahjong")
>>> state = mahjong.deal(players=2, seed=1)
>>> state = mahjong.apply(state, mahjong.legal_actions(state)[0])
>>> mahjong.replay(mahjong.record(state))[-1] == state
True
"""

from __future__ import annotations

import importlib
import random
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from ._kit.events import Event
from ._kit.facts import GameFacts
from ._kit.outcome import Outcome
from .errors import InvalidArgumentError, Message, quote

if TYPE_CHECKING:
    from typing_extensions import Self

__all__ = [
    "CARD_GAME",
    "GAMES",
    "GameFacts",
    "GameModule",
    "check_game",
    "game_module",
    "game_of",
    "game_part",
    "outcome",
]

#: The names of the games, for :func:`sevenbridge.game`: ``"seven_bridge"`` is
#: the card game (the :mod:`sevenbridge` package itself), any other name the
#: subpackage of that name (``"mahjong"``: :mod:`sevenbridge.mahjong`).
GAMES: tuple[str, ...] = ("seven_bridge", "mahjong")
#: The card game's name in :data:`GAMES`.
CARD_GAME = "seven_bridge"


def check_game(name: object) -> str:
    """``name`` if it names a game of :data:`GAMES`, else
    :class:`~sevenbridge.InvalidArgumentError` listing the known ones."""
    if not isinstance(name, str) or name not in GAMES:
        raise InvalidArgumentError(
            Message(
                "invalid_argument.unknown_game",
                "no game named {name}; known: {games}",
                name=quote(name, 40),
                games=", ".join(GAMES),
            )
        )
    return name


def game_module(name: str) -> Any:
    """The module of the game called ``name``, imported on first use: the services
    (bots, tournaments, records) reach a game through its name, never by importing
    it, so that the card game's layers stay free of the other games."""
    check_game(name)
    package = __name__.rpartition(".")[0]
    if name == CARD_GAME:
        return sys.modules.get(package) or importlib.import_module(package)
    return importlib.import_module(f"{package}.{name}")


def game_part(name: str, part: str) -> Any:
    """A module of the game called ``name``, such as its drawings (``"svg"``:
    :mod:`sevenbridge.svg` or :mod:`sevenbridge.mahjong.svg`), imported on first use."""
    return importlib.import_module(f"{game_module(name).__name__}.{part}")


def game_of(value: object) -> str:
    """The name of the game a state, view or action belongs to (by the module
    of its class: a value from ``sevenbridge.mahjong`` is ``"mahjong"``, any
    other the card game's)."""
    package = __name__.rpartition(".")[0] + "."
    where = type(value).__module__
    if where.startswith(package):
        first = where[len(package) :].partition(".")[0]
        if first != CARD_GAME and first in GAMES:
            return first
    return CARD_GAME


def outcome(state: Any) -> tuple[tuple[int, ...], str]:
    """A finished game's scores per seat and why it ended, in any game, through
    the game's own ``outcome`` (the protocol's): the card game's deal scores and
    end reason, or a mahjong round's scores and ``"mahjong"`` or ``"drawn"``."""
    found = game_module(game_of(state)).outcome(state)
    if found is None:
        return (), ""
    return found.scores, found.reason


class RulesLike(Protocol):
    """What :class:`GameModule` needs of a game's ``Rules``: named presets."""

    @classmethod
    def presets(cls) -> tuple[str, ...]:
        """The preset names, sorted."""
        ...

    @classmethod
    def preset(cls, name: str) -> Self:
        """The preset of that name."""
        ...


class DocumentLike(Protocol):
    """A value that writes itself as a JSON document and reads it back."""

    def to_json(self, *, indent: int | None = None) -> str:
        """The value as a JSON document."""
        ...

    @classmethod
    def from_json(cls, text: str | bytes) -> Self:
        """Read a document written by :meth:`to_json`, checking it."""
        ...


class StateLike(DocumentLike, Protocol):
    """What :class:`GameModule` needs of a game's ``GameState``."""

    @property
    def is_over(self) -> bool:
        """Whether the game (the deal, the round) has ended."""
        ...

    @property
    def current_player(self) -> int | None:
        """The seat whose decision the position waits for (``None`` or any seat
        once the game is over: a finished game waits for nobody)."""
        ...


#: The type of a game's rules, in :class:`GameModule`'s signatures.
RulesT = TypeVar("RulesT", bound=RulesLike)
#: The type of a game's states.
StateT = TypeVar("StateT", bound=StateLike)
#: The type of a game's observations (one player's views).
ObservationT = TypeVar("ObservationT", bound=DocumentLike)
#: The type of a game's actions.
ActionT = TypeVar("ActionT")
#: The type of a game's matches (what ``record_match`` writes).
MatchT = TypeVar("MatchT", contravariant=True)


class GameModule(Protocol[RulesT, StateT, ObservationT, ActionT, MatchT]):
    """What a game module offers; ``sevenbridge`` (the card game) and
    :mod:`sevenbridge.mahjong` both provide it, with these names and shapes.

    The type parameters are the game's rules, state, observation, action and
    match types. Modules satisfy a protocol structurally, so ``mypy`` checks a
    game against it with an assignment:
    ``_: GameModule[Rules, GameState, Observation, Action, Match] = sevenbridge``.

    Every game promises:

    * ``legal_actions`` of a view is the state's for the player to act, and empty
      for everybody else; a finished game has none;
    * ``apply`` returns a new state and never changes the one given; an action
      that is not among the legal ones raises
      :class:`~sevenbridge.IllegalActionError`;
    * ``observe(sample_state(view, rng), view.viewer) == view``;
    * states and views read back from their JSON equal to themselves;
    * ``replay(record(state))`` gives every position of the game, in order, the
      last one equal to ``state``;
    * ``parse_move(format_move(action)) == action``;
    * ``returns`` has one float per seat: zeros while the game goes on, and at
      the end each seat's result against the table's average (they add up to
      zero; higher is better).
    """

    @property
    def Rules(self) -> type[RulesT]:
        """The class of the game's rules, a frozen value; ``presets()`` names the usual tables."""
        ...

    @property
    def GameState(self) -> type[StateT]:
        """The class of a position, with everything (hidden cards or tiles too); frozen, hashable."""
        ...

    @property
    def Observation(self) -> type[ObservationT]:
        """The class of one player's view of a position."""
        ...

    @property
    def Action(self) -> object:
        """The type (or union of types) of the game's actions."""
        ...

    @property
    def GAME(self) -> GameFacts:
        """What the services say of the game (its name in :data:`GAMES`, title,
        command-line name, usual table size, the word for a deal)."""
        ...

    @property
    def PLAYER_COUNTS(self) -> tuple[int, ...]:
        """The table sizes ``deal`` accepts, smallest first."""
        ...

    def check_table(self, rules: RulesT | None, players: int) -> tuple[RulesT, int]:
        """The rules (``None``: the default rules) and the table size, checked as
        ``deal`` checks them, before anything is dealt."""
        ...

    def deal(
        self, rules: RulesT | None = None, *, players: int = ..., seed: int | None = None
    ) -> StateT:
        """The first position of a game (``rules=None``: the default rules)."""
        ...

    def legal_actions(self, state: StateT | ObservationT) -> tuple[ActionT, ...]:
        """The actions of the player to act, in a fixed order; from a view, the
        viewer's when the decision is theirs (else none)."""
        ...

    def apply(self, state: StateT, action: ActionT) -> StateT:
        """The position after ``action``."""
        ...

    def observe(self, state: StateT, player: int | None = None) -> ObservationT:
        """What ``player`` (by default the player to act) may know of ``state``."""
        ...

    def sample_state(self, observation: ObservationT, rng: random.Random | int) -> StateT:
        """A full state consistent with ``observation``, drawn with ``rng`` (a
        :class:`random.Random` or an integer seed)."""
        ...

    def events(
        self,
        before: StateT | ObservationT,
        action: ActionT,
        after: StateT | ObservationT | None = None,
        *,
        viewer: int | None = None,
        names: Sequence[str] | None = None,
    ) -> tuple[Event, ...]:
        """The facts of one move as ``viewer`` may know them (a card it may
        not see is ``None``): the move, then what followed from it, each in
        words (the seats by ``names``) that :func:`~sevenbridge.narration` tells."""
        ...

    def seats(self, state: StateT) -> tuple[int, ...]:
        """The seats of the real players, in order (a mahjong table's ghosts left out)."""
        ...

    def outcome(self, state: StateT) -> Outcome | None:
        """How a finished deal (round) ended: scores, winner (or ``None``) and
        reason; ``None`` while it is in play."""
        ...

    def match_end(self, positions: Sequence[StateT]) -> tuple[int, ...] | None:
        """The winners of a match from its positions in order (``replay_match``'s):
        the seats with the best total once it is over, ``None`` while it goes on."""
        ...

    def returns(self, state: StateT) -> tuple[float, ...]:
        """One float per seat: zeros until the end, then each seat's result."""
        ...

    def explain(self, state: StateT, action: ActionT, *, lang: str | None = None) -> str:
        """What a legal action does, or which rule forbids an illegal one."""
        ...

    def render(self, state: StateT | ObservationT, *, lang: str | None = None) -> str:
        """The position as text (a view shows only what its viewer may see)."""
        ...

    def record(self, state: StateT) -> str:
        """The record of the game that led to ``state``."""
        ...

    def replay(self, text: str) -> list[StateT]:
        """Every position of a recorded game, the deal first."""
        ...

    def record_match(self, match: MatchT) -> str:
        """The record of a match."""
        ...

    def replay_match(self, text: str) -> list[StateT]:
        """Every position of every game of a recorded match, in order."""
        ...

    def parse_move(self, text: str) -> ActionT:
        """Read one move written by :meth:`format_move`."""
        ...

    def format_move(self, action: ActionT) -> str:
        """An action as text with its player, such as ``P1 Draw``."""
        ...
