"""The lone moves an environment plays without asking its agent (``auto_forced``).

Compiled in the compiled build (``hatch_build.py``'s ``HOT_MODULES``): there
are about two and a half lone moves (a pass in a claim window, a draw) to every
decision in 3-player play, so this loop runs more often than anything else an
environment does. It is written against the game protocol
(:class:`sevenbridge.GameModule`): the game's ``legal_actions`` and ``apply``,
and which moves are played alone, come from the environment's game adapter.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["play_lone"]


def play_lone(
    state: Any,
    legal: Callable[[Any], tuple[Any, ...]],
    apply: Callable[[Any, Any], Any],
    forced: tuple[type, ...],
    over: object,
) -> Any:
    """The position after ``state`` once every lone move of the ``forced``
    types (the game's ``Pass`` and ``Draw``) has been played: the first one
    with a real choice, or the end of the deal (``state.phase is over``)."""
    while state.phase is not over:
        actions = legal(state)
        if len(actions) != 1 or type(actions[0]) not in forced:
            break
        state = apply(state, actions[0])
    return state
