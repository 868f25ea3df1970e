"""The engine's precomputed meld tables agree with the reference meld checker."""

from __future__ import annotations

from itertools import combinations

from hypothesis import given
from hypothesis import strategies as st

from sevenbridge import Card, Rules
from sevenbridge._tables import JOKER_BIT, SET, SEVEN, bits, count_melds, may_hold_meld, melds_in
from sevenbridge.cards import CARDS
from sevenbridge.melds import MeldKind, analyse

from .budgets import THOROUGH

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


@THOROUGH
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


@THOROUGH
@given(cards=st.sets(st.integers(0, 51), max_size=14), ace_high=st.booleans())
def test_the_quick_meld_refusal_never_refuses_a_hand_with_a_meld(
    cards: set[int], ace_high: bool
) -> None:
    hand = sum(1 << c for c in cards)
    if not may_hold_meld(hand, ace_high):
        assert melds_in(hand, ace_high, False) == []


def test_the_quick_meld_refusal_checked_on_every_three_card_hand() -> None:
    """Every meld without a joker contains a meld of at most three cards (a seven,
    three of a rank, three in a row), and the quick test only grows with the
    hand; so checking every hand of up to three cards proves it never refuses a
    hand that holds a meld."""
    for ace_high in (False, True):
        refused = 0
        for size in (1, 2, 3):
            for cards in combinations(range(52), size):
                hand = sum(1 << c for c in cards)
                has = bool(melds_in(hand, ace_high, False))
                if not may_hold_meld(hand, ace_high):
                    refused += 1
                    assert not has, cards
        assert refused > 15_000  # most small hands hold no meld, and are refused


@THOROUGH
@given(st.sets(st.integers(0, 51), max_size=20), st.booleans())
def test_count_melds_counts_what_melds_in_builds(cards: set[int], ace_high: bool) -> None:
    hand = sum(1 << c for c in cards)
    assert count_melds(hand, ace_high) == len(melds_in(hand, ace_high, False))


def test_count_melds_on_every_rank_pattern_and_every_suit_pattern() -> None:
    """The arithmetic for sets (every rank, every subset of its four cards, the
    sevens included) and the run table (every pattern of one suit, in each of
    the four suits) against melds_in, exhaustively."""
    for ace_high in (False, True):
        for rank in range(13):
            for sub in range(16):
                hand = sum(1 << (s * 13 + rank) for s in range(4) if sub >> s & 1)
                assert count_melds(hand, ace_high) == len(melds_in(hand, ace_high, False))
        for pattern in range(1 << 13):
            for suit in range(4):
                hand = pattern << (13 * suit)
                assert count_melds(hand, ace_high) == len(melds_in(hand, ace_high, False))


@given(st.integers(min_value=0, max_value=(1 << 70) - 1))
def test_bits_lists_every_set_bit_lowest_first(mask: int) -> None:
    assert bits(mask) == [i for i in range(mask.bit_length()) if mask >> i & 1]


def test_bits_of_single_bits_and_runs_of_bits() -> None:
    for i in range(60):
        assert bits(1 << i) == [i]
        assert bits((1 << i) - 1) == list(range(i))
    assert bits((1 << 55) | 1) == [0, 55]
