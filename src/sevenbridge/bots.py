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

import math
from typing import Protocol

from ._heuristics import card_points, keep_value
from ._kit import checks as _checks
from ._kit.rng import Rng
from .actions import Action
from .engine import apply, legal_actions
from .engine._kernel import legal_keys
from .engine._playout import greedy_key
from .errors import InvalidArgumentError, Message
from .scoring import returns
from .state import GameState
from .views import Observation, observe, sample_state

__all__ = ["GreedyPlayer", "ISMCTSPlayer", "Player", "RandomPlayer", "card_points", "keep_value"]


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
            raise InvalidArgumentError(
                Message(
                    "invalid_argument.deal_over_player_has",
                    "the deal is over: a player has no action to choose",
                )
            )
        return observe(position)
    raise TypeError(
        f"view must be an Observation (or a GameState), not {_checks.type_name(position)}"
    )


def choices(view: Observation) -> tuple[Action, ...]:
    """The viewer's legal actions, or a clear error when there is nothing to choose."""
    actions = legal_actions(view)
    if not actions:
        if view.is_over:
            raise InvalidArgumentError(
                Message(
                    "invalid_argument.deal_over_player_has",
                    "the deal is over: a player has no action to choose",
                )
            )
        raise InvalidArgumentError(
            Message(
                "invalid_argument.it_player_decision_not",
                "it is player {current_player}'s decision, not player {viewer}'s",
                current_player=str(view.current_player),
                viewer=str(view.viewer),
            )
        )
    return actions


class RandomPlayer:
    """Picks uniformly among the legal actions, from a seed (reproducible everywhere)."""

    def __init__(self, seed: int = 0) -> None:
        self._rng = _checks.seeded_rng(seed)

    def __call__(self, view: Observation | GameState, /) -> Action:
        return self._rng.choice(choices(view_of(view)))


class GreedyPlayer:
    """Claims and melds whenever it can, lays off, then throws the card it needs least.

    The card thrown is the one with the most points left over once its use
    towards melds is counted (:func:`keep_value`: pairs, suit neighbours); ties
    are broken by a seeded random choice. It looks only at its own view.
    """

    def __init__(self, seed: int = 0) -> None:
        self._rng = _checks.seeded_rng(seed)

    def __call__(self, view: Observation | GameState, /) -> Action:
        view = view_of(view)
        actions = choices(view)
        keys = legal_keys(view)
        return actions[keys.index(greedy_key(keys, view.hand_mask, view.rules, self._rng))]


class _Node:
    """A node of the search tree: statistics of one action, from its mover's side."""

    __slots__ = ("avail", "children", "mover", "total", "visits")

    def __init__(self, mover: int) -> None:
        self.mover = mover
        self.visits = 0
        self.avail = 1
        self.total = 0.0
        self.children: dict[Action, _Node] = {}


class ISMCTSPlayer:
    """Information-set Monte Carlo tree search (single observer).

    Each iteration deals the cards the player cannot see at random
    (:func:`~sevenbridge.sample_state`), walks down a tree of actions shared by
    all those worlds, choosing among the actions legal in the world at hand by
    UCB with availability counts, adds one node, and plays the rest of the deal
    out with a fast policy (:func:`sevenbridge.playout.playout`). A result is
    worth 1 for going out, plus a small share of :func:`~sevenbridge.returns`,
    from the point of view of whoever moved. The player then takes the most
    visited action. Forced moves (a lone Pass or Draw) take no node.

    Args:
        seed: Seeds the worlds and the playouts. With an ``iterations``
            budget the bot is reproducible: the same seed and the same
            positions give the same moves on every machine.
        iterations: Iterations per decision.
        seconds: Time per decision instead (or as well: whichever ends first);
            then the moves depend on the machine's speed.
        rollout: The playout policy, ``"greedy"`` (default) or ``"random"``.
        exploration: The UCB constant.

    Without a budget it runs 300 iterations per decision.
    """

    def __init__(
        self,
        seed: int = 0,
        *,
        iterations: int | None = None,
        seconds: float | None = None,
        rollout: str = "greedy",
        exploration: float = 0.7,
    ) -> None:
        from .playout import POLICIES

        self._rng = _checks.seeded_rng(seed)
        if iterations is None and seconds is None:
            iterations = 300
        if iterations is not None:
            iterations = _checks.integer(iterations, "iterations", 1)
        if seconds is not None:
            if not isinstance(seconds, (int, float)) or isinstance(seconds, bool):
                raise TypeError(f"seconds must be a number, not {_checks.type_name(seconds)}")
            if not 0 < seconds < 3600:
                raise InvalidArgumentError(
                    Message(
                        "invalid_argument.seconds_must_above_and",
                        "seconds must be above 0 and under 3600, not {seconds}",
                        seconds=str(seconds),
                    )
                )
        if rollout not in POLICIES:
            raise InvalidArgumentError(
                Message(
                    "invalid_argument.rollout_must_one_not",
                    "rollout must be one of {policies}, not {rollout}",
                    policies=", ".join(POLICIES),
                    rollout=repr(rollout),
                )
            )
        self.iterations = iterations
        self.seconds = seconds
        self.rollout = rollout
        self.exploration = float(exploration)
        self.last_iterations = 0
        """How many iterations the last decision ran."""

    def __call__(self, view: Observation | GameState, /) -> Action:
        import time

        view = view_of(view)
        actions = choices(view)
        if len(actions) == 1:
            return actions[0]
        rng = Rng(self._rng.next64())
        root = _Node(view.viewer)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        while self.iterations is None or done < self.iterations:
            if deadline is not None and done and time.perf_counter() >= deadline:
                break
            self._iterate(root, sample_state(view, rng.next64()), rng)
            done += 1
        self.last_iterations = done
        best = max(actions, key=lambda a: _visits(root, a))
        return best

    def _iterate(self, root: _Node, state: GameState, rng: Rng) -> None:
        from .playout import playout

        node = root
        path: list[_Node] = []
        c = self.exploration
        while not state.is_over:
            legal = legal_actions(state)
            if len(legal) == 1:
                state = apply(state, legal[0])
                continue
            children = node.children
            untried = []
            for a in legal:
                child = children.get(a)
                if child is None:
                    untried.append(a)
                else:
                    child.avail += 1
            if untried:
                action = untried[rng.below(len(untried))]
                assert state.current_player is not None
                child = children[action] = _Node(state.current_player)
                path.append(child)
                state = apply(state, action)
                break
            best_value = -1e300
            action = legal[0]
            for a in legal:
                child = children[a]
                value = child.total / child.visits + c * math.sqrt(
                    math.log(child.avail) / child.visits
                )
                if value > best_value:
                    best_value, action = value, a
            node = children[action]
            path.append(node)
            state = apply(state, action)
        if not state.is_over:
            state = playout(state, self.rollout, seed=rng.next64(), history=False)  # type: ignore[arg-type]
        rewards = _rewards(state)
        for n in path:
            n.visits += 1
            n.total += rewards[n.mover]


def _visits(root: _Node, action: Action) -> tuple[int, float]:
    child = root.children.get(action)
    return (0, 0.0) if child is None else (child.visits, child.total)


def _rewards(state: GameState) -> list[float]:
    """1 for going out, plus a small share of the deal's returns."""
    out = [r / 400.0 for r in returns(state)]
    if state.winner is not None:
        out[state.winner] += 1.0
    return out
