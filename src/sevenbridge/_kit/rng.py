"""A small, fixed pseudo-random generator (SplitMix64), so that a seed gives the
same shuffles on every machine and every Python version."""

from __future__ import annotations

import os
import struct
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
    spelling of the generator: every seeded number comes from it (or from
    :func:`mixes`, the same steps for many numbers at once)."""
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


#: Each number of :func:`mixes` has a lane of this many bits in one integer:
#: room for a 64-bit number times a 64-bit constant.
_LANE = 128
# By count: (a 1 in each lane, GOLDEN times 1, 2, ... in the lanes, MASK in
# each lane, the struct reading the lanes' 64-bit halves).
_LANES: dict[int, tuple[int, int, int, struct.Struct]] = {}


def _lanes(count: int) -> tuple[int, int, int, struct.Struct]:
    found = _LANES.get(count)
    if found is None:
        ones = sum(1 << (_LANE * k) for k in range(count))
        found = _LANES[count] = (
            ones,
            sum(((k + 1) * GOLDEN) << (_LANE * k) for k in range(count)),
            ones * MASK,
            struct.Struct(f"<{2 * count}Q"),
        )
    return found


def mixes(state: int, count: int) -> tuple[int, ...]:
    """The ``count`` numbers that :func:`mix` draws from ``state`` on:
    ``mix(state)``, ``mix(state + GOLDEN)``, ... (each state wrapped to 64 bits).

    A speed trick, measured: the numbers are worked out together, each in its
    own lane of one large integer, so that every step of :func:`mix` is one
    operation for all of them (a deal's shuffle takes about 40% of the time of
    calling :func:`mix` for each card). The steps are :func:`mix`'s; the tests
    check that both give the same numbers.
    """
    if count <= 0:
        return ()
    ones, steps, lanes, read = _lanes(count)
    z = ((state & MASK) * ones + steps) & lanes
    z = ((z ^ (z >> 30)) & lanes) * 0xBF58476D1CE4E5B9 & lanes
    z = ((z ^ (z >> 27)) & lanes) * 0x94D049BB133111EB & lanes
    z ^= z >> 31  # the lanes' upper halves take bits of the next lane: not read
    numbers: tuple[int, ...] = read.unpack(z.to_bytes(16 * count, "little"))[::2]
    return numbers


def shuffled(items: Sequence[_T], key: int) -> tuple[_T, ...]:
    """A Fisher-Yates shuffle of ``items`` driven by SplitMix64 from ``key``
    (from the end, the numbers of :func:`mixes`)."""
    out = list(items)
    last = len(out) - 1
    for i, number in zip(range(last, 0, -1), mixes(key, last), strict=True):
        j = (number * (i + 1)) >> 64
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
