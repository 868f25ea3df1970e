"""Simple players for demos, tests and baselines.

A player is any callable taking a :class:`~sevenbridge.GameState` and returning one of its
legal actions.

>>> from sevenbridge import deal, apply
>>> from sevenbridge.bots import RandomPlayer
>>> bot = RandomPlayer(seed=1)
>>> state = deal(seed=1)
>>> while not state.is_over:
...     state = apply(state, bot(state))
>>> state.is_over
True
"""

from __future__ import annotations

from typing import Protocol

from . import _checks
from ._random import Rng
from .actions import Action, Chi, Discard, LayDown, LayOff, Pon
from .engine import legal_actions
from .errors import InvalidArgumentError
from .scoring import hand_points
from .state import GameState

__all__ = ["GreedyPlayer", "Player", "RandomPlayer"]


class Player(Protocol):
    """Anything that picks an action for the player to act in a state."""

    def __call__(self, state: GameState) -> Action: ...


def _choices(state: GameState) -> tuple[Action, ...]:
    """The legal actions, or a clear error when there is nothing to choose."""
    _checks.instance(state, GameState, "state", "a GameState")
    actions = legal_actions(state)
    if not actions:
        raise InvalidArgumentError("the deal is over: a player has no action to choose")
    return actions


def _seeded(seed: object) -> Rng:
    checked = _checks.seed(seed)
    if checked is None:
        raise TypeError("seed must be an int, not None")
    return Rng(checked)


class RandomPlayer:
    """Picks uniformly among the legal actions, from a seed (reproducible everywhere)."""

    def __init__(self, seed: int = 0) -> None:
        self._rng = _seeded(seed)

    def __call__(self, state: GameState) -> Action:
        return self._rng.choice(_choices(state))


class GreedyPlayer:
    """Claims and melds whenever it can, lays off, then throws its costliest card.

    Ties are broken by a seeded random choice.
    """

    def __init__(self, seed: int = 0) -> None:
        self._rng = _seeded(seed)

    def __call__(self, state: GameState) -> Action:
        actions = _choices(state)
        for kinds in ((Pon, Chi), (LayDown,), (LayOff,)):
            best = [a for a in actions if isinstance(a, kinds)]
            if best:
                most = max(len(getattr(a, "cards", ())) for a in best)
                return self._rng.choice([a for a in best if len(getattr(a, "cards", ())) == most])
        discards = [a for a in actions if isinstance(a, Discard)]
        if discards:
            worst = max(hand_points([a.card], state.rules) for a in discards)
            return self._rng.choice(
                [a for a in discards if hand_points([a.card], state.rules) == worst]
            )
        return actions[0]  # no claim possible: Draw (start of turn) or Pass (claim window)
