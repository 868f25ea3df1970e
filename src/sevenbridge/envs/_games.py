"""What the environments need of each game, behind one small adapter.

The PettingZoo and Gymnasium environments (and the mahjong OpenSpiel game)
are written once against :class:`GameAdapter`, which is the game protocol
(:class:`sevenbridge.GameModule`) and what learners add to it: the rules from
a value or a preset's name, the table's seats, the
:class:`~sevenbridge.rl.ActionSpace` (or the compact one) and the observation
tensor of a seat (from :mod:`sevenbridge.rl`). :func:`adapter` gives the
adapter of a game by its name (one of :data:`sevenbridge.GAMES`); a game's
package is imported only for its adapter.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from .._kit import checks as _checks
from ..errors import InvalidArgumentError, Message
from ..games import check_game, game_module, game_part

__all__ = ["GameAdapter", "adapter"]


class GameAdapter:
    """One game as the environments see it, built on its module.

    Attributes:
        name: The game's name in :data:`sevenbridge.GAMES`.
        module: The game module (:class:`sevenbridge.GameModule`).
        over: The phase value of a finished game (``state.phase is over``).
        forced: The action types an environment's ``auto_forced`` plays alone
            (the game's ``Pass`` and ``Draw``).
        default_bot: The bot class that plays the opponents by default (the
            game's ``GreedyPlayer``).
        state_bots: The game's own bot classes whose ``_choose_at(state,
            player)`` makes the choice they make on ``observe(state, player)``
            (the environments ask them without building the view).
    """

    def __init__(self, name: str) -> None:
        self.name = check_game(name)
        self.module = module = game_module(name)
        self.over = module.Phase.OVER
        self.forced: tuple[type, ...] = (module.Pass, module.Draw)
        bots = game_part(name, "bots")
        self.default_bot = bots.GreedyPlayer
        self.state_bots: tuple[type, ...] = (bots.GreedyPlayer, bots.RandomPlayer)

    def rules(self, value: Any) -> Any:
        """The rules of ``value``: a Rules value, a preset's name, or ``None`` (the default)."""
        rules_type = self.module.Rules
        if isinstance(value, str):
            value = rules_type.preset(value)
        rules = rules_type() if value is None else value
        _checks.instance(rules, rules_type, "rules", "a Rules value or a preset's name")
        return rules

    def players(self, value: Any) -> int:
        """The table size, checked as the game's ``deal`` checks it (real
        players: ghosts are not counted)."""
        self.module.deal(players=value, seed=0)
        return int(value)

    def seats(self, rules: Any, players: int) -> tuple[int, ...]:
        """The seats of the real players (the agents), in order."""
        return self._table(rules, players)[0]

    def table_size(self, rules: Any, players: int) -> int:
        """The number of seats at the table (the players and any ghosts)."""
        return self._table(rules, players)[1]

    @functools.lru_cache(maxsize=64)  # noqa: B019 (one adapter a game, for the process)
    def _table(self, rules: Any, players: int) -> tuple[tuple[int, ...], int]:
        """The real seats and the number of seats at such a table, from a deal."""
        first = self.module.deal(rules, players=players, seed=0)
        return tuple(self.module.seats(first)), len(self.module.returns(first))

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
        from ..rl._tensors import state_tensor_of

        tensor: Callable[[Any, int], npt.NDArray[np.float32]]
        tensor = state_tensor_of(rules, players, info, compact)
        return tensor

    def space(self, rules: Any, players: int, compact: bool = False) -> Any:
        """The :class:`~sevenbridge.rl.ActionSpace` of these rules and table
        size (the :class:`~sevenbridge.rl.CompactActionSpace` with ``compact``)."""
        from ..rl import ActionSpace, CompactActionSpace

        return (CompactActionSpace if compact else ActionSpace)(rules, players)

    def card_encodings(self, rules: Any) -> bool:
        """Whether these rules' game has the compact encoding and the
        information-state tensor (the card game has them; mahjong has one of each)."""
        from ..rl._tensors import card_encodings

        return card_encodings(rules)

    def encoding(self, value: Any, rules: Any) -> bool:
        """Whether the ``encoding`` option asks for the compact encoding.

        Raises:
            InvalidArgumentError: for anything but ``"full"`` or ``"compact"``,
                and for ``"compact"`` with a game that has one encoding only.
        """
        if value == "full" and isinstance(value, str):
            return False
        if value == "compact" and isinstance(value, str) and self.card_encodings(rules):
            return True
        raise InvalidArgumentError(
            Message(
                "invalid_argument.encoding_must_be",
                "encoding must be 'full' or 'compact' (the card game only), not {encoding}",
                encoding=repr(value),
            )
        )


@functools.cache
def adapter(name: str) -> GameAdapter:
    """The adapter of the game ``name`` (see :data:`sevenbridge.GAMES`).

    Raises:
        InvalidArgumentError: for an unknown game.
    """
    return GameAdapter(name)
