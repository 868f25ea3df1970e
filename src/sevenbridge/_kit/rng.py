"""A small, fixed pseudo-random generator (SplitMix64), so that a seed gives the
same shuffles on every machine and every Python version."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TypeVar

MASK = (1 << 64) - 1
#: SplitMix64's increment: a generator's state moves on by it at every number.
GOLDEN = 0x9E3779B97F4A7C15
_T = TypeVar("_T")


def fresh_seed() -> int:
    """A new random seed (63 bits) from the operating system."""
    return int.from_bytes(os.urandom(8), "big") >> 1


def mix(x: int) -> int:
    """The SplitMix64 number drawn at state ``x`` (a 64-bit integer); the state
    then moves on to ``(x + GOLDEN) & MASK``. This is the library's one
    spelling of the generator: every seeded number comes from it."""
    z = (x + GOLDEN) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def derive(seed: int, *path: int) -> int:
    """A 64-bit key derived from ``seed`` and a path of small integers.

    ``derive(s, 1)`` and ``derive(s, 2)`` are unrelated streams of the same seed.
    """
    key = mix(seed & MASK)
    for step in path:
        key = mix((key + step * 0xD1B54A32D192ED03) & MASK)
    return key


def seat_seed(seed: int, seat: int) -> int:
    """The seed of the bot at ``seat`` in a game seeded ``seed`` (the ``demo``
    and ``play`` commands): ``seed * 10 + seat``, wrapped to 64 bits, so that
    every seed gives bots their own seeds in range.

    >>> seat_seed(72, 1), seat_seed(2**64 - 1, 0)
    (721, 18446744073709551606)
    """
    return (seed * 10 + seat) & MASK


def shuffled(items: Sequence[_T], key: int) -> tuple[_T, ...]:
    """A Fisher-Yates shuffle of ``items`` driven by SplitMix64 from ``key``."""
    out = list(items)
    state = key & MASK
    for i in range(len(out) - 1, 0, -1):
        j = (mix(state) * (i + 1)) >> 64
        state = (state + GOLDEN) & MASK
        out[i], out[j] = out[j], out[i]
    return tuple(out)


class Rng:
    """A seeded stream of numbers (SplitMix64); the same seed gives the same
    stream on every machine and Python version."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        #: The generator's state: the next number is ``mix(state)``, after
        #: which the state moves on by ``GOLDEN`` (code that draws many numbers
        #: in a loop, such as the fast playout, may keep it in a local variable
        #: and write it back).
        self.state = mix(seed & MASK)

    def next64(self) -> int:
        """The next 64-bit number."""
        z = mix(self.state)
        self.state = (self.state + GOLDEN) & MASK
        return z

    def below(self, n: int) -> int:
        """A number from 0 to ``n - 1``."""
        return (self.next64() * n) >> 64

    def choice(self, items: Sequence[_T]) -> _T:
        """One of the items."""
        return items[self.below(len(items))]

    def shuffle(self, items: list[_T]) -> None:
        """Put ``items`` in a random order, in place (Fisher and Yates, from
        the end). The numbers of :meth:`below`, with the state kept in a local
        for the loop (the world sampler's past search shuffles at every step)."""
        state = self.state
        for i in range(len(items) - 1, 0, -1):
            j = (mix(state) * (i + 1)) >> 64
            state = (state + GOLDEN) & MASK
            items[i], items[j] = items[j], items[i]
        self.state = state
