"""Argument checks shared by the public entry points.

A value of the wrong type raises :class:`TypeError` naming the argument and
what was expected; a value of the right type out of range raises
:class:`~sevenbridge.errors.InvalidArgumentError`.
"""

from __future__ import annotations

import math
from typing import Any

from ..errors import InvalidArgumentError, Message, quote
from .rng import Rng

#: Seven Bridge is for 2 to 5 players.
MIN_PLAYERS = 2
MAX_PLAYERS = 5
#: Seeds are 64-bit: 0 to 2**64 - 1.
MAX_SEED = 2**64 - 1


def type_name(value: Any) -> str:
    """A short description of a value's type for messages."""
    return "None" if value is None else type(value).__name__


def integer(value: Any, name: str, lo: int, hi: int | None = None, why: str = "") -> int:
    """``value`` if it is an ``int`` (not a ``bool``) from ``lo`` to ``hi``.

    ``why``, the reason for the bounds shown after them, is a
    :class:`~sevenbridge.errors.Message` (or ``""``) so that it translates."""
    if type(value) is not int:
        if isinstance(value, int) and not isinstance(value, bool):
            value = int(value)  # an int subclass such as numpy's is fine
        else:
            raise TypeError(f"{name} must be an int, not {type_name(value)} ({value!r:.40})")
    if value < lo or (hi is not None and value > hi):
        bound = (
            Message("bound.range", "from {lo} to {hi}", lo=lo, hi=hi)
            if hi is not None
            else Message("bound.min", "{lo} or more", lo=lo)
        )
        raise InvalidArgumentError(
            Message(
                "invalid_argument.must_not",
                "{name} must be {bound}{why}, not {value}",
                name=name,
                bound=bound,
                why=why,
                value=str(value),
            )
        )
    return int(value)


def fraction(value: Any, name: str) -> float:
    """``value`` if it is a number from 0 to 1 (an ``int`` or a ``float``, not
    a ``bool``), as a float."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
        raise InvalidArgumentError(
            Message(
                "invalid_argument.fraction_range",
                "{name} must be a number from 0 to 1, not {value}",
                name=name,
                value=repr(value),
            )
        )
    return float(value)


def seconds(value: Any, name: str, hi: float = 86400.0) -> float:
    """A time limit: a number of seconds above 0 and at most ``hi`` (NaN and
    infinity are refused)."""
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        raise TypeError(f"{name} must be a number, not {type_name(value)}")
    if not 0 < value <= hi:
        raise InvalidArgumentError(
            Message(
                "invalid_argument.must_above_and_at",
                "{name} must be above 0 and at most {hi}, not {value}",
                name=name,
                hi=f"{hi:g}",
                value=str(value),
            )
        )
    return float(value)


def finite(value: Any, name: str) -> float:
    """A constant of a computation: a finite number, 0 or more (NaN refused)."""
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        raise TypeError(f"{name} must be a number, not {type_name(value)}")
    if not 0 <= value < math.inf:  # NaN fails this too
        raise InvalidArgumentError(
            Message(
                "invalid_argument.search_constant_finite",
                "{name} must be a finite number, 0 or more, not {value}",
                name=name,
                value=str(value),
            )
        )
    return float(value)


# The reasons shown after a table size's and a seed's bounds, built once: a
# deal checks both (a Message formats its text when built).
_WHY_PLAYERS = Message("why.players", " (Seven Bridge is for 2 to 5 players)")
_WHY_SEED = Message("why.seed", " (seeds are 64-bit)")


def players(value: Any, name: str = "players") -> int:
    """A table size: 2 to 5."""
    return integer(
        value,
        name,
        MIN_PLAYERS,
        MAX_PLAYERS,
        _WHY_PLAYERS,
    )


def seat(value: Any, players: int, name: str = "player") -> int:
    """A seat at a table of ``players``."""
    return integer(value, name, 0, players - 1)


def seed(value: Any, name: str = "seed") -> int | None:
    """A seed: ``None`` or 0 to 2**64 - 1."""
    if value is None:
        return None
    return integer(value, name, 0, MAX_SEED, _WHY_SEED)


def sample_keys(rng: object) -> tuple[int, int]:
    """The two numbers a sampler takes from what its caller passed as ``rng``
    (both games' ``sample_state`` take it this one way): a 64-bit key that
    deals the world and a 63-bit seed the world keeps for later shuffles. An
    integer is a seed (checked as :func:`seed` checks it) of :class:`Rng`
    (SplitMix64); a :class:`Rng` or a :class:`random.Random` is drawn from, and
    moves on.

    Raises:
        TypeError: for anything else (a bool too).
        InvalidArgumentError: for an integer out of a seed's range.
    """
    import random

    if isinstance(rng, int) and not isinstance(rng, bool):
        rng = Rng(integer(rng, "rng", 0, MAX_SEED, _WHY_SEED))
    if isinstance(rng, Rng):
        return rng.next64(), rng.next64() >> 1
    if isinstance(rng, random.Random):
        return rng.getrandbits(64), rng.getrandbits(63)
    raise TypeError(f"rng must be a random.Random or an int seed, not {type(rng).__name__}")


def instance(value: Any, kind: type, name: str, what: str) -> Any:
    """``value`` if it is a ``kind``, else a TypeError saying ``what`` was expected."""
    if not isinstance(value, kind):
        raise TypeError(f"{name} must be {what}, not {type_name(value)}")
    return value


def seeded_rng(value: Any) -> Rng:
    """A bot's random generator from its seed: an int from 0 to 2**64 - 1 (not ``None``)."""
    checked = seed(value)
    if checked is None:
        raise TypeError("seed must be an int, not None")
    return Rng(checked)


#: The render modes the learning environments know.
RENDER_MODES = (None, "human", "ansi")


def render_mode(value: Any) -> str | None:
    """An environment's ``render_mode``: ``None``, ``"human"`` or ``"ansi"``."""
    if value not in RENDER_MODES:
        raise InvalidArgumentError(
            Message(
                "invalid_argument.render_mode_must_none",
                "render_mode must be None, 'human' or 'ansi', not {render_mode}",
                render_mode=quote(value),
            )
        )
    return None if value is None else str(value)
