"""Python bots for the tournament tests, at module level, so that worker
processes, Ray and an isolated bot's own process can import them by name."""

from __future__ import annotations

import os
from typing import Any

from sevenbridge.bots import GreedyPlayer

#: Not a factory: ``py:tests.seat_bots:NOT_CALLABLE`` names it.
NOT_CALLABLE = 3

#: Every bot :func:`counted` made in this process.
MADE: list[Counted] = []


def greedy(seed: int) -> GreedyPlayer:
    """A factory a user might write: the greedy bot."""
    return GreedyPlayer(seed)


def not_a_player(seed: int) -> int:
    """A factory that makes something that is not a Player."""
    return seed % 7


class Counted:
    """The greedy bot, counting the deals it plays (a deal starts with a
    view whose history is shorter than the last one seen)."""

    def __init__(self, seed: int) -> None:
        self.inner = GreedyPlayer(seed)
        self.deals = 0
        self.last = 10**9

    def __call__(self, view: Any, /) -> Any:
        if len(view.history) < self.last:
            self.deals += 1
        self.last = len(view.history)
        return self.inner(view)


def counted(seed: int) -> Counted:
    """A :class:`Counted` bot, kept in :data:`MADE`."""
    MADE.append(Counted(seed))
    return MADE[-1]


def logged(seed: int) -> GreedyPlayer:
    """The greedy bot, writing the process it is made in to the file that the
    environment variable ``SEAT_BOTS_LOG`` names."""
    with open(os.environ["SEAT_BOTS_LOG"], "a", encoding="utf-8") as out:
        print(os.getpid(), file=out)
    return GreedyPlayer(seed)
