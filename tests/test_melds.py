"""Meld validity: one test per row of the rules page, section 2, and properties."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sevenbridge import (
    Card,
    InvalidMeldError,
    Meld,
    MeldKind,
    Rules,
    is_valid_meld,
    meld_interpretations,
    parse_cards,
    why_not_meld,
)

from .strategies import card_groups, rules, runs

JOKER_RULES = Rules(jokers=1)
ACE_HIGH = Rules(ace_high=True)


# --- minimum size: 3 cards unless the meld holds a seven ----------------------------
def test_minimum_size_is_three_without_a_seven() -> None:
    assert is_valid_meld("4C 5C 6C")
    assert is_valid_meld("9C 9D 9H")
    assert not is_valid_meld("4C 5C")
    assert not is_valid_meld("9C 9D")
    assert not is_valid_meld("9C")


# --- sevens ---------------------------------------------------------------------------
def test_a_single_seven_is_a_meld() -> None:
    (meld,) = meld_interpretations("7D")
    assert meld.kind is MeldKind.SEVEN


def test_two_or_more_sevens_are_a_set() -> None:
    for text in ["7C 7D", "7C 7D 7H", "7C 7D 7H 7S"]:
        (meld,) = meld_interpretations(text)
        assert meld.kind is MeldKind.SET


def test_two_card_runs_with_a_seven_are_melds() -> None:
    assert is_valid_meld("6H 7H")
    assert is_valid_meld("7H 8H")


def test_two_card_run_without_a_seven_is_not_a_meld() -> None:
    assert not is_valid_meld("6H 8H")
    assert not is_valid_meld("5H 6H")
    assert why_not_meld("5H 6H") == "5H 6H: a run of two cards is a meld only if it contains a 7"


def test_pair_other_than_sevens_is_not_a_meld() -> None:
    assert not is_valid_meld("4H 4S")
    reason = why_not_meld("4H 4S")
    assert reason is not None and "only if they are 7s" in reason


def test_single_card_other_than_seven_is_not_a_meld() -> None:
    assert why_not_meld("8S") == "8S: a single card is a meld only if it is a 7"


# --- sets -----------------------------------------------------------------------------
def test_sets_are_three_or_four_of_a_kind() -> None:
    assert is_valid_meld("QC QD QH")
    assert is_valid_meld("QC QD QH QS")
    assert not is_valid_meld("QC QD KH")


def test_a_fifth_card_in_a_set_needs_the_joker() -> None:
    assert is_valid_meld("QC QD QH QS JK", JOKER_RULES)
    assert not is_valid_meld("QC QD QH QS QS")


def test_at_most_four_natural_cards_of_a_rank() -> None:
    reason = why_not_meld(["QC", "QD", "QH", "QS", "QC"])
    assert reason is not None and "QC is given twice" in reason


# --- runs -----------------------------------------------------------------------------
def test_runs_are_three_or_more_consecutive_of_one_suit() -> None:
    assert is_valid_meld("10C JC QC KC")
    assert is_valid_meld("AH 2H 3H")
    assert not is_valid_meld("4H 5H 6S")
    assert not is_valid_meld("4H 5H 7H")


def test_ace_is_low_by_default() -> None:
    assert is_valid_meld("AH 2H 3H")
    assert not is_valid_meld("QH KH AH")
    reason = why_not_meld("QH KH AH")
    assert reason is not None and "ace_high=True" in reason


def test_ace_high_option_allows_q_k_a() -> None:
    assert is_valid_meld("QH KH AH", ACE_HIGH)
    assert is_valid_meld("AH 2H 3H", ACE_HIGH)
    assert is_valid_meld("10S JS QS KS AS", ACE_HIGH)


def test_k_a_2_is_never_a_run() -> None:
    for r in [Rules(), ACE_HIGH, Rules(ace_high=True, jokers=1)]:
        assert not is_valid_meld("KH AH 2H", r)
        assert not is_valid_meld("QH KH AH 2H", r)
    assert not is_valid_meld("KH JK 2H", Rules(ace_high=True, jokers=1))
    reason = why_not_meld("KH AH 2H", ACE_HIGH)
    assert reason is not None and "K-A-2" in reason


# --- a card in one meld only ----------------------------------------------------------
def test_a_card_belongs_to_one_meld_only() -> None:
    # 3-4-5-4-4: a run 3-4-5 or a set of fours, not one group holding both.
    assert is_valid_meld("3S 4S 5S")
    assert is_valid_meld("4S 4H 4D")
    assert not is_valid_meld("3S 4S 5S 4H 4D")
    assert not is_valid_meld(["4S", "4S", "4H"])


# --- the joker --------------------------------------------------------------------------
def test_joker_is_wild_in_sets_and_runs_of_three_or_more() -> None:
    assert is_valid_meld("4S 4H JK", JOKER_RULES)
    assert is_valid_meld("4S 5S JK", JOKER_RULES)
    assert is_valid_meld("4S JK 6S", JOKER_RULES)


def test_joker_never_makes_a_two_card_seven_meld() -> None:
    assert not is_valid_meld("6S JK", JOKER_RULES)
    assert not is_valid_meld("7S JK", JOKER_RULES)
    assert not is_valid_meld("JK 8S", JOKER_RULES)
    assert not is_valid_meld("JK", JOKER_RULES)


def test_joker_needs_the_joker_option() -> None:
    assert not is_valid_meld("4S 5S JK")
    assert why_not_meld("4S 5S JK") == "these rules play without a joker (jokers=0)"


def test_joker_reading_is_recorded() -> None:
    readings = meld_interpretations("4S 5S JK", JOKER_RULES)
    assert [str(m.joker_as) for m in readings] == ["3S", "6S"]
    assert [str(m) for m in readings] == ["JK=3S 4S 5S", "4S 5S JK=6S"]
    (inside,) = meld_interpretations("4S JK 6S", JOKER_RULES)
    assert inside.joker_as == Card.parse("5S")
    sets = meld_interpretations("4S 4H JK", JOKER_RULES)
    assert {str(m.joker_as) for m in sets} == {"4C", "4D"}
    assert all(m.kind is MeldKind.SET for m in sets)


def test_joker_may_stand_for_the_high_ace_only_with_ace_high() -> None:
    assert [str(m.joker_as) for m in meld_interpretations("QH KH JK", JOKER_RULES)] == ["JH"]
    both = meld_interpretations("QH KH JK", Rules(jokers=1, ace_high=True))
    assert [str(m.joker_as) for m in both] == ["JH", "AH"]


def test_joker_cannot_bridge_two_gaps() -> None:
    assert not is_valid_meld("4S JK 7S", JOKER_RULES)


# --- the Meld value ---------------------------------------------------------------------
def test_meld_value_orders_cards_and_checks_its_kind() -> None:
    m = Meld(MeldKind.RUN, parse_cards("8H 6H 7H"))
    assert [str(c) for c in m.cards] == ["6H", "7H", "8H"]
    with pytest.raises(InvalidMeldError):
        Meld(MeldKind.SET, parse_cards("6H 7H 8H"))
    with pytest.raises(InvalidMeldError):
        Meld(MeldKind.RUN, parse_cards("4S 5S JK"), Card.parse("9S"))
    assert Meld.parse("4S 5S JK=6S") == Meld(MeldKind.RUN, "JK 4S 5S", Card.parse("6S"))
    with pytest.raises(InvalidMeldError, match="say which card the joker stands for"):
        Meld.parse("4S 5S JK")


# --- properties ---------------------------------------------------------------------------
@given(runs())
def test_every_three_plus_consecutive_same_suit_group_is_a_run(cards: list[Card]) -> None:
    (meld,) = meld_interpretations(cards)
    assert meld.kind is MeldKind.RUN
    assert [c.rank for c in meld.cards] == sorted(c.rank for c in cards)


@given(card_groups(max_size=2), rules)
def test_groups_under_three_without_seven_or_joker_are_not_melds(
    cards: list[Card], r: Rules
) -> None:
    if any(c.rank == 7 or c.is_joker for c in cards):
        return
    assert not is_valid_meld(cards, r)
    assert why_not_meld(cards, r)


@given(card_groups(), rules, st.randoms(use_true_random=False))
def test_validity_does_not_depend_on_order(cards: list[Card], r: Rules, rnd: random.Random) -> None:
    shuffled = list(cards)
    rnd.shuffle(shuffled)
    assert is_valid_meld(cards, r) == is_valid_meld(shuffled, r)
    assert meld_interpretations(cards, r) == meld_interpretations(shuffled, r)


@given(card_groups(), rules)
def test_every_interpretation_is_itself_valid(cards: list[Card], r: Rules) -> None:
    readings = meld_interpretations(cards, r)
    assert bool(readings) == is_valid_meld(cards, r)
    assert (why_not_meld(cards, r) is None) == bool(readings)
    for meld in readings:
        assert is_valid_meld(meld.cards, r)
        assert sorted(meld.cards) == sorted(cards)
        assert (meld.joker_as is not None) == any(c.is_joker for c in cards)
        assert meld in meld_interpretations(meld.cards, r)
        assert Meld.parse(str(meld), r) == meld


# --- the Meld value's fields --------------------------------------------------------------
def test_meld_fields_are_converted_and_checked() -> None:
    from sevenbridge import Card, Meld, MeldKind
    from sevenbridge.errors import InvalidArgumentError
    from sevenbridge.melds import InvalidMeldError

    meld = Meld("run", "6H 7H JK", joker_as="8H")
    assert meld.kind is MeldKind.RUN
    assert meld.joker_as == Card.parse("8H")
    with pytest.raises(InvalidMeldError, match="'rn' is not"):
        Meld("rn", "6H 7H 8H")
    with pytest.raises(InvalidArgumentError, match="owner must be from 0 to 4"):
        Meld(MeldKind.RUN, "6H 7H 8H", owner=7)
    with pytest.raises(TypeError, match="owner must be an int"):
        Meld(MeldKind.RUN, "6H 7H 8H", owner="1")  # type: ignore[arg-type]
