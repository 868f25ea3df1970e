"""A small, fixed pseudo-random generator (SplitMix64), so that a seed gives the
same shuffles on every machine and every Python version."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

_MASK = (1 << 64) - 1
_T = TypeVar("_T")


def mix(x: int) -> int:
    """One SplitMix64 output for the state ``x`` (a 64-bit integer)."""
    z = (x + 0x9E3779B97F4A7C15) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def derive(seed: int, *path: int) -> int:
    """A 64-bit key derived from ``seed`` and a path of small integers.

    ``derive(s, 1)`` and ``derive(s, 2)`` are unrelated streams of the same seed.
    """
    key = mix(seed & _MASK)
    for step in path:
        key = mix((key + step * 0xD1B54A32D192ED03) & _MASK)
    return key


def shuffled(items: Sequence[_T], key: int) -> tuple[_T, ...]:
    """A Fisher-Yates shuffle of ``items`` driven by SplitMix64 from ``key``."""
    out = list(items)
    state = key & _MASK
    for i in range(len(out) - 1, 0, -1):
        state = (state + 0x9E3779B97F4A7C15) & _MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        z ^= z >> 31
        j = (z * (i + 1)) >> 64
        out[i], out[j] = out[j], out[i]
    return tuple(out)
