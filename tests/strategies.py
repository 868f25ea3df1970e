"""Hypothesis strategies shared by the test suite."""

from __future__ import annotations

from hypothesis import strategies as st

from sevenbridge import Card, Rules, Suit
from sevenbridge.cards import CARDS

natural_cards = st.sampled_from(CARDS[:52])
any_cards = st.sampled_from(CARDS)
suits = st.sampled_from(list(Suit))
ranks = st.integers(min_value=1, max_value=13)
presets = st.sampled_from(Rules.presets()).map(Rules.preset)
rules = st.builds(
    Rules,
    jokers=st.sampled_from([0, 1]),
    ace_high=st.booleans(),
    final_discard=st.booleans(),
    lay_off_needs_own_meld=st.booleans(),
    claim_min_hand_cards=st.sampled_from([1, 2]),
)


@st.composite
def card_groups(draw: st.DrawFn, min_size: int = 1, max_size: int = 6) -> list[Card]:
    """Distinct cards (the joker included), in any order."""
    return draw(st.lists(any_cards, min_size=min_size, max_size=max_size, unique=True))


@st.composite
def runs(draw: st.DrawFn, min_len: int = 3) -> list[Card]:
    """Consecutive natural cards of one suit, Ace low, in shuffled order."""
    suit = draw(suits)
    length = draw(st.integers(min_value=min_len, max_value=13))
    start = draw(st.integers(min_value=1, max_value=14 - length))
    cards = [CARDS[suit * 13 + r - 1] for r in range(start, start + length)]
    return draw(st.permutations(cards))
