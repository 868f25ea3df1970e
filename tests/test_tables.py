"""The engine's precomputed meld tables agree with the reference meld checker."""

from __future__ import annotations

from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from sevenbridge import Card, Rules
from sevenbridge._tables import JOKER_BIT, SET, SEVEN, bits, melds_in
from sevenbridge.cards import CARDS
from sevenbridge.melds import MeldKind, analyse

_KIND = {MeldKind.SEVEN: SEVEN, MeldKind.SET: SET, MeldKind.RUN: 2}


def brute_force(cards: list[int], rules: Rules) -> set[tuple[int, int, int]]:
    out = set()
    for size in range(1, len(cards) + 1):
        for group in combinations(cards, size):
            readings, _ = analyse(list(group), rules)
            mask = sum(1 << c for c in group)
            for kind, _order, joker in readings:
                out.add((mask, _KIND[kind], joker))
    return out


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.sampled_from(CARDS), min_size=1, max_size=9, unique=True),
    st.booleans(),
    st.booleans(),
)
def test_melds_in_finds_exactly_the_valid_melds(
    hand: list[Card], ace_high: bool, jokers: bool
) -> None:
    rules = Rules(ace_high=ace_high, jokers=int(jokers))
    cards = [c.index for c in hand]
    if not jokers:
        cards = [c for c in cards if c != 52]
    mask = sum(1 << c for c in cards)
    found = melds_in(mask, ace_high, bool(jokers and mask & JOKER_BIT))
    assert len(found) == len(set(found)), "a meld is listed twice"
    assert set(found) == brute_force(cards, rules)


def test_dense_suits_with_the_joker_and_ace_high() -> None:
    rules = Rules(ace_high=True, jokers=1)
    for text in ["QH KH AH JK 2H 3H", "AS 2S 4S 5S JK 7S 8S", "7C 7D 7H 7S JK 6C 8C"]:
        cards = [Card.parse(t).index for t in text.split()]
        mask = sum(1 << c for c in cards)
        assert set(melds_in(mask, True, True)) == brute_force(cards, rules)
        assert all(set(bits(m)) <= set(cards) for m, _, _ in melds_in(mask, True, True))
