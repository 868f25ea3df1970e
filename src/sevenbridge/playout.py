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

from typing import Any, Literal

from . import _checks
from ._heuristics import card_points, keep_value
from ._random import Rng
from .engine import (
    CURRENT,
    DISCARDER,
    DISCARDS,
    HANDS,
    NORMAL,
    OP_CHI,
    OP_DISCARD,
    OP_LAY,
    OP_OFF,
    OP_PON,
    OWNERS,
    PENDING,
    PHASE,
    PLAYERS,
    RULES,
    TABLE,
    TURNS,
    _get_fields,
    _intern,
    _legal_keys,
    _may_claim,
    _step,
)
from .errors import InvalidArgumentError, Message
from .state import GameState, Phase

__all__ = ["POLICIES", "playout"]

#: The policies :func:`playout` knows.
POLICIES = ("random", "greedy")

_PLAY, _DRAW, _OVER = Phase.PLAY, Phase.DRAW, Phase.OVER


def _keys(v: list[Any]) -> list[tuple[int, ...]]:
    """The legal moves at the field list ``v``, as operation keys."""
    phase = v[PHASE]
    p = v[CURRENT]
    rules = v[RULES]
    discards = v[DISCARDS]
    chi_open = (
        phase is _DRAW
        and bool(discards)
        and (v[DISCARDER] >= 0 or rules.upcard_claimable)
        and _may_claim(rules.chi_timing, p, v[NORMAL], v[TURNS], v[PLAYERS])
    )
    return _legal_keys(
        phase, p, rules, v[HANDS][p], v[OWNERS], v[TABLE], discards, v[PENDING], chi_open
    )


def _greedy(keys: list[tuple[int, ...]], v: list[Any], rng: Rng) -> tuple[int, ...]:
    """GreedyPlayer's choice, made on operation keys (the same rng calls, in the same order)."""
    for codes in ((OP_PON, OP_CHI), (OP_LAY,)):
        best = [k for k in keys if k[0] in codes]
        if best:
            most = max(k[2].bit_count() for k in best)
            return rng.choice([k for k in best if k[2].bit_count() == most])
    offs = [k for k in keys if k[0] == OP_OFF]
    if offs:
        return rng.choice(offs)  # lay-offs carry no cards to count: all tie
    discards = [k for k in keys if k[0] == OP_DISCARD]
    if discards:
        rules = v[RULES]
        points = card_points(rules)
        hand, high = v[HANDS][v[CURRENT]], rules.ace_high
        waste = [points[k[2]] - keep_value(hand, k[2], high) for k in discards]
        worst = max(waste)
        return rng.choice([k for k, w in zip(discards, waste, strict=True) if w == worst])
    return keys[0]


def playout(
    state: GameState,
    policy: Literal["random", "greedy"] = "random",
    *,
    seed: int = 0,
    max_steps: int | None = None,
) -> GameState:
    """Play ``state`` on to the end of the deal (or ``max_steps`` moves) with ``policy``.

    Args:
        state: Any position (a finished one is returned as it is).
        policy: ``"random"`` (uniform over the legal moves) or ``"greedy"``
            (the moves of :class:`~sevenbridge.bots.GreedyPlayer`).
        seed: Seeds the policy's choices; the same seed gives the same game.
        max_steps: Stop after this many moves even if the deal goes on.

    Returns:
        The last position, with the moves in its history.

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
                policy=repr(policy),
            )
        )
    checked = _checks.seed(seed)
    rng = Rng(0 if checked is None else checked)
    limit = -1 if max_steps is None else _checks.integer(max_steps, "max_steps", 0)
    v: list[Any] = list(_get_fields(state))
    greedy = policy == "greedy"
    steps = 0
    while v[PHASE] is not _OVER and steps != limit:
        keys = _keys(v)
        # Like the bots, draw from the stream even for a forced move, so that a
        # playout and the public loop with the same seed stay move for move alike.
        key = _greedy(keys, v, rng) if greedy else keys[rng.below(len(keys))]
        _step(v, key, _intern(key))
        steps += 1
    return GameState(*v)
