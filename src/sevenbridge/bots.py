"""Simple players for demos, tests and baselines.

A player (:class:`Player`) is any callable that takes an
:class:`~sevenbridge.Observation`, what the seat to act may know, and returns
one of its legal actions. Hand it ``observe(state)``: the view of the player
to act. The bots here also accept a whole :class:`~sevenbridge.GameState` for
convenience, and then look only at the view of the player to act.

>>> from sevenbridge import deal, apply, observe
>>> from sevenbridge.bots import GreedyPlayer, Player, RandomPlayer
>>> players: list[Player] = [GreedyPlayer(seed=1), RandomPlayer(seed=2), GreedyPlayer(seed=3)]
>>> state = deal(seed=1)
>>> while not state.is_over:
...     state = apply(state, players[state.current_player](observe(state)))
>>> state.is_over
True
"""

from __future__ import annotations

from typing import Protocol

from . import _checks
from . import _tables as T
from ._random import Rng
from .actions import Action, Chi, Discard, LayDown, LayOff, Pon
from .engine import legal_actions
from .errors import InvalidArgumentError
from .rules import Rules
from .scoring import hand_points
from .state import GameState
from .views import Observation, observe

__all__ = ["GreedyPlayer", "Player", "RandomPlayer"]


class Player(Protocol):
    """Anything that picks a legal action for the seat whose view it is given."""

    def __call__(self, view: Observation, /) -> Action: ...


def view_of(position: Observation | GameState) -> Observation:
    """The view a bot decides from: ``position`` itself, or the view of the
    player to act in a full state."""
    if isinstance(position, Observation):
        return position
    if isinstance(position, GameState):
        if position.is_over:
            raise InvalidArgumentError("the deal is over: a player has no action to choose")
        return observe(position)
    raise TypeError(
        f"view must be an Observation (or a GameState), not {_checks.type_name(position)}"
    )


def choices(view: Observation) -> tuple[Action, ...]:
    """The viewer's legal actions, or a clear error when there is nothing to choose."""
    actions = legal_actions(view)
    if not actions:
        if view.is_over:
            raise InvalidArgumentError("the deal is over: a player has no action to choose")
        raise InvalidArgumentError(
            f"it is player {view.current_player}'s decision, not player {view.viewer}'s"
        )
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

    def __call__(self, view: Observation | GameState, /) -> Action:
        return self._rng.choice(choices(view_of(view)))


_POINTS: dict[Rules, tuple[int, ...]] = {}


def card_points(rules: Rules) -> tuple[int, ...]:
    """The points of each card index (the joker's included) in a hand under ``rules``."""
    table = _POINTS.get(rules)
    if table is None:
        from .cards import CARDS

        values = [hand_points([c], rules.replace(jokers=1)) for c in CARDS]
        table = _POINTS[rules] = tuple(values)
    return table


def keep_value(hand: int, card: int, ace_high: bool) -> int:
    """How much ``card`` helps ``hand`` towards melds: partners of the same rank
    count most, then suit neighbours one and two places away."""
    if card == 52:
        return 1000  # the joker fits anywhere
    suit, rank = divmod(card, 13)
    value = 12 * (hand & T.RANK_MASK[rank] & ~(1 << card)).bit_count()
    suit_bits = hand >> (suit * 13) & T.SUIT_BITS
    if ace_high and suit_bits & 1:
        suit_bits |= 1 << 13  # the Ace also above the King
    for step, weight in ((1, 10), (2, 5)):
        for r in (rank - step, rank + step):
            if 0 <= r <= 13 and suit_bits >> r & 1:
                value += weight
        if ace_high and rank == 0 and suit_bits >> (13 - step) & 1:
            value += weight
    return value


class GreedyPlayer:
    """Claims and melds whenever it can, lays off, then throws the card it needs least.

    The card thrown is the one with the most points left over once its use
    towards melds is counted (:func:`keep_value`: pairs, suit neighbours); ties
    are broken by a seeded random choice. It looks only at its own view.
    """

    def __init__(self, seed: int = 0) -> None:
        self._rng = _seeded(seed)

    def __call__(self, view: Observation | GameState, /) -> Action:
        view = view_of(view)
        actions = choices(view)
        for kinds in ((Pon, Chi), (LayDown,), (LayOff,)):
            best = [a for a in actions if isinstance(a, kinds)]
            if best:
                most = max(len(getattr(a, "cards", ())) for a in best)
                return self._rng.choice([a for a in best if len(getattr(a, "cards", ())) == most])
        discards = [a for a in actions if isinstance(a, Discard)]
        if discards:
            points = card_points(view.rules)
            hand, high = view.hand_mask, view.rules.ace_high

            def waste(action: Discard) -> int:
                c = action.card.index
                return points[c] - keep_value(hand, c, high)

            worst = max(waste(a) for a in discards)
            return self._rng.choice([a for a in discards if waste(a) == worst])
        return actions[0]  # no claim possible: Draw (start of turn) or Pass (claim window)
