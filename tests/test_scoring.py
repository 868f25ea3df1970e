"""Hand points: one test per row of the rules page, section 5 (card values)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sevenbridge import Card, CardValues, Rules, explain_hand_points, hand_points
from sevenbridge.scoring import score_deal

from .strategies import natural_cards

STANDARD = Rules()
ALT11 = Rules(card_values=CardValues.ALTERNATE_ACE_11)
ALT15 = Rules(card_values=CardValues.ALTERNATE_ACE_15)


def test_standard_card_values() -> None:
    assert hand_points("AS") == 1
    assert hand_points("JS") == hand_points("QS") == hand_points("KS") == 10
    assert hand_points("7S") == 20
    for rank in [2, 3, 4, 5, 6, 8, 9, 10]:
        assert hand_points(f"{rank}H") == rank
    assert hand_points("AS 7H KD 5C") == 1 + 20 + 10 + 5
    assert hand_points("") == 0


def test_standard_sevens_do_not_double() -> None:
    assert hand_points("7S 7H 2C") == 42


def test_alternate_values_ace_11_or_15() -> None:
    assert hand_points("AS", ALT11) == 11
    assert hand_points("AS", ALT15) == 15
    assert hand_points("KS 9D", ALT11) == 19


def test_alternate_values_seven_counts_seven_and_doubles_the_hand() -> None:
    assert hand_points("7S", ALT11) == 14
    assert hand_points("7S 3C", ALT11) == 20
    assert hand_points("7S 7D 3C", ALT15) == (7 + 7 + 3) * 4


def test_joker_in_hand_counts_zero_and_multiplies_by_five() -> None:
    r = Rules(jokers=1)
    assert hand_points("JK", r) == 0
    assert hand_points("3C 4D JK", r) == 35
    assert hand_points("3C 4D JK", r.replace(joker_multiplier=1)) == 7


def test_nintendo_penalty_values() -> None:
    n = Rules.nintendo()
    for text in ["AS", "JS", "QS", "KS"]:
        assert hand_points(text, n) == 10
    for rank in [2, 3, 4, 5, 6, 8, 9, 10]:
        assert hand_points(f"{rank}D", n) == rank
    assert hand_points("7D", n) == 14
    assert hand_points("7D 7C 2S", n) == (7 + 7 + 2) * 4
    assert hand_points("7D 2S JK", n) == (7 + 2) * 2 * 5


def test_winner_scores_the_sum_of_losers_points() -> None:
    hands = [[], [Card.parse("KS").index], [Card.parse("7H").index, Card.parse("2C").index]]
    assert score_deal(hands, 0, False, STANDARD) == (32, 0, 0)


def test_going_out_at_once_doubles_the_deal() -> None:
    hands = [[], [Card.parse("KS").index], [Card.parse("2C").index]]
    assert score_deal(hands, 0, True, STANDARD) == (24, 0, 0)


def test_penalty_scoring_gives_losers_their_points_and_bonus_is_minus_50() -> None:
    n = Rules.nintendo()
    hands = [[Card.parse("KS").index], [], [Card.parse("2C").index]]
    assert score_deal(hands, 1, False, n) == (10, 0, 2)
    assert score_deal(hands, 1, True, n) == (10, -50, 2)


def test_explain_names_each_rule() -> None:
    text = explain_hand_points("7S 3C", ALT11)
    assert "alternate_ace_11" in text and "one 7 doubles it: 20" in text


@given(st.lists(natural_cards, unique=True, max_size=10))
def test_points_are_order_independent_and_non_negative(cards: list[Card]) -> None:
    for r in [STANDARD, ALT11, ALT15, Rules.nintendo()]:
        assert hand_points(cards, r) == hand_points(list(reversed(cards)), r) >= 0
        assert str(hand_points(cards, r)) in explain_hand_points(cards, r) or not cards


@pytest.mark.parametrize("rules", [STANDARD, ALT11, Rules.nintendo()])
def test_points_add_up_without_sevens(rules: Rules) -> None:
    assert hand_points("2C 3C 4C", rules) == hand_points("2C", rules) + hand_points("3C 4C", rules)


# --- what hand_points accepts -------------------------------------------------------------
def test_hand_points_refuses_duplicates_and_foreign_jokers() -> None:
    from sevenbridge import Rules, explain_hand_points, hand_points
    from sevenbridge.errors import InvalidArgumentError

    with pytest.raises(InvalidArgumentError, match="7H is given twice"):
        hand_points("7H 7H")
    with pytest.raises(InvalidArgumentError, match="JK is not in the deck"):
        hand_points("JK 5C")
    with pytest.raises(InvalidArgumentError, match="given twice"):
        explain_hand_points("7H 7H")
    assert hand_points("JK 5C", Rules(jokers=1)) == 25
