"""What the environments need of each game, behind one small adapter.

The PettingZoo and Gymnasium environments (and the mahjong OpenSpiel game)
are written once against :class:`GameAdapter`: the rules from a value or a
preset's name, the table's seats, ``deal``, ``legal_actions``, ``apply``,
``observe``, ``returns``, the :class:`~sevenbridge.rl.ActionSpace` (or the
compact one) and the observation tensor of a seat. :func:`adapter` gives the adapter of a game by
its name (``"seven_bridge"``, ``"mahjong"``); the mahjong package is imported
only for the mahjong adapter.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from .._kit import checks as _checks
from ..errors import InvalidArgumentError, Message
from ..games import CARD_GAME, check_game

__all__ = ["GameAdapter", "adapter"]


class GameAdapter:
    """One game as the environments see it.

    Attributes:
        name: The game's name in :data:`sevenbridge.GAMES`.
        module: The game module (:class:`sevenbridge.GameModule`).
        over: The phase value of a finished game (``state.phase is over``).
        forced: The action types an environment's ``auto_forced`` plays alone.
        default_bot: The bot class that plays the opponents by default.
    """

    def __init__(
        self,
        name: str,
        module: Any,
        over: object,
        forced: tuple[type, ...],
        default_bot: Any,
        tensor: Callable[..., npt.NDArray[np.float32]],
        ghosts: Callable[[Any, int], tuple[int, ...]],
        players: Callable[[Any], int],
        layout: Callable[..., Any],
    ) -> None:
        self.name = name
        self.module = module
        self.over = over
        self.forced = forced
        self.default_bot = default_bot
        self._tensor = tensor
        self._ghosts = ghosts
        self._players = players
        self._layout = layout

    def rules(self, value: Any) -> Any:
        """The rules of ``value``: a Rules value, a preset's name, or ``None`` (the default)."""
        rules_type = self.module.Rules
        if isinstance(value, str):
            value = rules_type.preset(value)
        rules = rules_type() if value is None else value
        _checks.instance(rules, rules_type, "rules", "a Rules value or a preset's name")
        return rules

    def players(self, value: Any) -> int:
        """The table size, checked (real players: ghosts are not counted)."""
        return self._players(value)

    def seats(self, rules: Any, players: int) -> tuple[int, ...]:
        """The seats of the real players (the agents), in order."""
        ghosts = self._ghosts(rules, players)
        total = players + len(ghosts)
        return tuple(s for s in range(total) if s not in ghosts)

    def table_size(self, rules: Any, players: int) -> int:
        """The number of seats at the table (the players and any ghosts)."""
        return players + len(self._ghosts(rules, players))

    def real_seat(self, value: Any, rules: Any, players: int, name: str) -> int:
        """``value`` checked as a real player's seat (not a ghost's).

        Raises:
            InvalidArgumentError: for a seat out of range or a ghost's.
        """
        seat = _checks.seat(value, self.table_size(rules, players), name)
        seats = self.seats(rules, players)
        if seat not in seats:
            raise InvalidArgumentError(
                Message(
                    "invalid_argument.seat_is_ghosts",
                    "{name} {seat} is a ghost's seat; the real players sit at {seats}",
                    name=name,
                    seat=str(seat),
                    seats=", ".join(map(str, seats)),
                )
            )
        return seat

    def tensor_of(
        self, rules: Any, players: int, info: bool = False, compact: bool = False
    ) -> Callable[..., Any]:
        """A function ``(state, seat) -> float32 tensor`` of the seat's view
        (in the compact layout with ``compact``)."""
        layout = self._layout(rules, players, info, compact)
        if layout is None:  # a game without one (mahjong): the function itself
            return self._tensor
        return functools.partial(self._tensor, layout=layout)

    def space(self, rules: Any, players: int, compact: bool = False) -> Any:
        """The :class:`~sevenbridge.rl.ActionSpace` of these rules and table
        size (the :class:`~sevenbridge.rl.CompactActionSpace` with ``compact``)."""
        from ..rl import ActionSpace, CompactActionSpace

        return (CompactActionSpace if compact else ActionSpace)(rules, players)

    def encoding(self, value: Any) -> bool:
        """Whether the ``encoding`` option asks for the compact encoding.

        Raises:
            InvalidArgumentError: for anything but ``"full"`` or ``"compact"``,
                and for ``"compact"`` with a game that has one encoding only.
        """
        if value == "full" and isinstance(value, str):
            return False
        if value == "compact" and isinstance(value, str) and self.name == CARD_GAME:
            return True
        raise InvalidArgumentError(
            Message(
                "invalid_argument.encoding_must_be",
                "encoding must be 'full' or 'compact' (the card game only), not {encoding}",
                encoding=repr(value),
            )
        )


def _card_tensor(state: Any, player: int, layout: Any) -> npt.NDArray[np.float32]:
    from ..rl._tensors import _state_tensor

    return _state_tensor(state, player, layout)


def _card_layout(rules: Any, players: int, info: bool = False, compact: bool = False) -> Any:
    from ..rl._tensors import _layout

    return _layout(rules.deck_size, players, info, compact)


def _no_layout(rules: Any, players: int, info: bool = False, compact: bool = False) -> None:
    return None


@functools.cache
def adapter(name: str) -> GameAdapter:
    """The adapter of the game ``name`` (see :data:`sevenbridge.GAMES`).

    Raises:
        InvalidArgumentError: for an unknown game.
    """
    check_game(name)
    if name == CARD_GAME:
        from .. import bots, state
        from .. import engine as card
        from ..actions import Draw, Pass
        from ..rules import Rules
        from ..scoring import returns
        from ..views import Observation, observe, sample_state

        module = _CardModule(
            card, Rules, observe, returns, Observation, sample_state, state.GameState
        )
        return GameAdapter(
            name, module, state.Phase.OVER, (Pass, Draw), bots.GreedyPlayer,
            _card_tensor, lambda rules, n: (), _checks.players, _card_layout,
        )  # fmt: skip
    if name == "mahjong":
        from .. import mahjong
        from ..rl._mahjong import mahjong_state_tensor

        def mahjong_players(value: Any) -> int:
            counts = mahjong.PLAYER_COUNTS
            why = Message("why.mahjong_players", " (mahjong is for 2 to 4 players)")
            return _checks.integer(value, "players", counts[0], counts[-1], why)

        return GameAdapter(
            name, mahjong, mahjong.Phase.OVER, (mahjong.Pass, mahjong.Draw),
            mahjong.GreedyPlayer, mahjong_state_tensor,
            lambda rules, n: mahjong.ghost_seats(n, rules.ghosts), mahjong_players,
            _no_layout,
        )  # fmt: skip
    raise AssertionError(f"no adapter for the game {name!r}")  # a game of GAMES left out here


class _CardModule:
    """The card game's names the environments use (the package itself would
    be an import from the applications' own layer, and a circle)."""

    def __init__(
        self,
        engine: Any,
        rules: Any,
        observe: Any,
        returns: Any,
        view: Any,
        sample_state: Any,
        game_state: Any,
    ) -> None:
        self.Rules = rules
        self.Observation = view
        self.GameState = game_state
        self.deal = engine.deal
        self.legal_actions = engine.legal_actions
        self.apply = engine.apply
        self.observe = observe
        self.returns = returns
        self.sample_state = sample_state
