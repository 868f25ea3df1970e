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

from typing import Any, Final, Literal

from . import _checks
from ._heuristics import card_points, keep_value
from ._random import Rng, mix
from ._tables import RANK_MASK
from .cards import JOKER_INDEX
from .engine import (
    _CLAIM,
    _DRAW,
    _DRAWS,
    _JOKER,
    _NEAR,
    _OVER,
    _PASSES,
    _PON_LEAST,
    CURRENT,
    DISCARDER,
    DISCARDS,
    HANDS,
    LOG,
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
    QUEUE,
    RULES,
    TABLE,
    TURNS,
    _fields_of,
    _history_add,
    _intern,
    _legal_keys,
    _may_claim,
    _state,
    _step,
)
from .errors import InvalidArgumentError
from .rules import Rules
from .state import GameState

__all__ = ["POLICIES", "playout"]

#: The policies :func:`playout` knows.
POLICIES: Final = ("random", "greedy")

_GOLDEN: Final = 0x9E3779B97F4A7C15
_MASK: Final = (1 << 64) - 1
_PASS_KEYS: Final = [key for _, key in _PASSES]
_DRAW_KEYS: Final = [key for _, key in _DRAWS]


def _keys(v: dict[str, Any]) -> list[tuple[int, ...]]:
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


def _greedy(keys: list[tuple[int, ...]], v: dict[str, Any], rng: Rng) -> tuple[int, ...]:
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
        raise InvalidArgumentError(f"policy must be one of {', '.join(POLICIES)}, not {policy!r}")
    checked = _checks.seed(seed)
    rng = Rng(0 if checked is None else checked)
    limit = -1 if max_steps is None else _checks.integer(max_steps, "max_steps", 0)
    v = _fields_of(state)
    greedy = policy == "greedy"
    # The random policy's stream, kept here as Rng keeps it (one number per
    # move, forced or not, like RandomPlayer): rng.below(n) is
    # mix(x) * n >> 64, and each number moves x on by _GOLDEN.
    x: int = rng._state
    rules: Rules = v[RULES]
    near = _NEAR[rules.ace_high]
    steps = 0
    while v[PHASE] is not _OVER and steps != limit:
        phase = v[PHASE]
        p: int = v[CURRENT]
        hand: int = v[HANDS][p]
        # A lone Pass or Draw, found by the quick refusals of
        # engine._compute_legal (the same checks, on the field dictionary).
        key: tuple[int, ...] | None = None
        if phase is _CLAIM:
            if not hand & _JOKER:
                if v[PENDING] is not None:
                    key = _PASS_KEYS[p]
                else:
                    card = v[DISCARDS][-1]
                    if card != JOKER_INDEX:
                        r = card % 13
                        if (hand & RANK_MASK[r]).bit_count() < _PON_LEAST[r]:
                            key = _PASS_KEYS[p]
            if key is not None and v[QUEUE]:  # the next player in the window is asked
                if not greedy:
                    x = (x + _GOLDEN) & _MASK
                if history:
                    v[LOG] = _history_add(v[LOG], _intern(key))
                queue = v[QUEUE]
                v[CURRENT] = queue[0]
                v[QUEUE] = queue[1:]
                steps += 1
                continue
        elif phase is _DRAW:
            discards = v[DISCARDS]
            if not discards:
                key = _DRAW_KEYS[p]
            else:
                card = discards[-1]
                if card != JOKER_INDEX and not hand & (_JOKER | near[card]):
                    key = _DRAW_KEYS[p]
        if key is None:
            keys = _keys(v)
            if greedy:
                key = _greedy(keys, v, rng)
            else:
                key = keys[(mix(x) * len(keys)) >> 64]
                x = (x + _GOLDEN) & _MASK
        elif not greedy:
            x = (x + _GOLDEN) & _MASK
        _step(v, key, _intern(key) if history else None)
        steps += 1
    return _state(v)
