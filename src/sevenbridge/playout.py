"""Fast playouts for search: play a deal to its end inside the engine.

A search bot spends most of its time playing positions on to the end with a
cheap policy. :func:`playout` does that without the public loop's costs: no
:class:`~sevenbridge.GameState` is built between moves, legal moves stay in the
engine's own form, and nothing is checked twice. The moves are exactly those of
the public loop: ``playout(state, "random", seed=s)`` plays what
:class:`~sevenbridge.bots.RandomPlayer` ``(s)`` would play from ``state`` for
every seat, and ``"greedy"`` what one :class:`~sevenbridge.bots.GreedyPlayer`
``(s)`` would (a test checks both move for move).

>>> from sevenbridge import deal
>>> from sevenbridge.playout import playout
>>> end = playout(deal(seed=3), "greedy", seed=1)
>>> end.is_over, end.winner is not None or end.end_reason.startswith("void")
(True, True)
"""

from __future__ import annotations

from typing import Final, Literal

from ._kit import checks as _checks
from ._kit.rng import Rng
from .engine._playout import play
from .errors import InvalidArgumentError, Message, quote
from .state import GameState

__all__ = ["POLICIES", "playout"]

#: The policies :func:`playout` knows.
POLICIES: Final = ("random", "greedy")


def playout(
    state: GameState,
    policy: Literal["random", "greedy"] = "random",
    *,
    seed: int = 0,
    max_steps: int | None = None,
    history: bool = True,
) -> GameState:
    """Play ``state`` on to the end of the deal (or ``max_steps`` moves) with ``policy``.

    Args:
        state: Any position (a finished one is returned as it is).
        policy: ``"random"`` (uniform over the legal moves) or ``"greedy"``
            (the moves of :class:`~sevenbridge.bots.GreedyPlayer`).
        seed: Seeds the policy's choices; the same seed gives the same game.
        max_steps: Stop after this many moves even if the deal goes on.
        history: Record the moves in the returned state's history. With
            ``False`` (faster still, for search) no action object is touched
            during the playout and the history stays that of ``state``; the
            position reached is the same.

    Returns:
        The last position.

    Raises:
        TypeError: for a ``state`` that is not a GameState.
        InvalidArgumentError: for an unknown policy, a bad seed or ``max_steps``.
    """
    _checks.instance(state, GameState, "state", "a GameState")
    if policy not in POLICIES:
        raise InvalidArgumentError(
            Message(
                "invalid_argument.policy_must_one_not",
                "policy must be one of {policies}, not {policy}",
                policies=", ".join(POLICIES),
                policy=quote(policy),
            )
        )
    checked = _checks.seed(seed)
    rng = Rng(0 if checked is None else checked)
    limit = -1 if max_steps is None else _checks.integer(max_steps, "max_steps", 0)
    return play(state, policy == "greedy", rng, limit, bool(history))
