"""Card-level judgements shared by the greedy bot and the greedy playout policy."""

from __future__ import annotations

from . import _tables as T
from .cards import CARDS
from .rules import Rules
from .scoring import hand_points

__all__ = ["card_points", "keep_value"]

_POINTS: dict[Rules, tuple[int, ...]] = {}


def card_points(rules: Rules) -> tuple[int, ...]:
    """The points of each card index (the joker's included) in a hand under ``rules``."""
    table = _POINTS.get(rules)
    if table is None:
        values = [hand_points([c], rules.replace(jokers=1)) for c in CARDS]
        table = _POINTS[rules] = tuple(values)
    return table


def keep_value(hand: int, card: int, ace_high: bool) -> int:
    """How much ``card`` helps ``hand`` towards melds: partners of the same rank
    count most, then suit neighbours one and two places away."""
    if card == 52:
        return 1000  # the joker fits anywhere
    suit, rank = divmod(card, 13)
    value = 12 * (hand & T.RANK_MASK[rank] & ~(1 << card)).bit_count()
    suit_bits = hand >> (suit * 13) & T.SUIT_BITS
    if ace_high and suit_bits & 1:
        suit_bits |= 1 << 13  # the Ace also above the King
    for step, weight in ((1, 10), (2, 5)):
        for r in (rank - step, rank + step):
            if 0 <= r <= 13 and suit_bits >> r & 1:
                value += weight
        if ace_high and rank == 0 and suit_bits >> (13 - step) & 1:
            value += weight
    return value
