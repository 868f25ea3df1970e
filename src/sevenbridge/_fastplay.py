"""The inner loop of :func:`sevenbridge.playout.playout` (compiled in the
compiled build; the public function, which checks its arguments, is not)."""

from __future__ import annotations

from typing import Any, Final

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
from .rules import Rules
from .state import GameState

__all__ = ["play"]

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


def play(state: GameState, greedy: bool, rng: Rng, limit: int, history: bool) -> GameState:
    """Play on from ``state`` for at most ``limit`` moves (-1: to the end)."""
    v = _fields_of(state)
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
                        same = hand & RANK_MASK[r]  # fewer than 2 of the rank (1 for a seven)
                        if not same or (r != 6 and not same & (same - 1)):
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
