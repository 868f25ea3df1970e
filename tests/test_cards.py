from __future__ import annotations

import pickle

import pytest
from hypothesis import given

from sevenbridge import JOKER, Card, InvalidCardError, Rules, Suit, full_deck, parse_cards
from sevenbridge.cards import CARDS

from .strategies import any_cards


@given(any_cards)
def test_parse_of_format_is_the_card(card: Card) -> None:
    assert Card.parse(str(card)) == card
    assert Card.parse(format(card, "u")) == card
    assert Card.parse(str(card).lower()) == card
    assert eval(repr(card)) == card


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("7H", Card(7, Suit.HEARTS)),
        ("7h", Card(7, Suit.HEARTS)),
        ("7♥", Card(7, Suit.HEARTS)),
        ("10H", Card(10, Suit.HEARTS)),
        ("TH", Card(10, Suit.HEARTS)),
        ("AS", Card(1, Suit.SPADES)),
        ("KC", Card(13, Suit.CLUBS)),
        ("JK", JOKER),
        ("jk", JOKER),
    ],
)
def test_parse_accepts_every_documented_form(text: str, expected: Card) -> None:
    assert Card.parse(text) == expected


@pytest.mark.parametrize("text", ["", " ", "7", "11H", "1H", "7X", "HH", "JKK", "0S", "10"])
def test_bad_card_text_raises_invalid_card_error_quoting_input(text: str) -> None:
    with pytest.raises(InvalidCardError) as info:
        Card.parse(text)
    assert repr(text) in str(info.value)
    assert isinstance(info.value, ValueError)


def test_parse_cards_splits_on_spaces_and_commas() -> None:
    assert parse_cards("6H, 7H 8H,,9H") == tuple(Card.parse(t) for t in ["6H", "7H", "8H", "9H"])


def test_parse_cards_names_the_bad_piece() -> None:
    with pytest.raises(InvalidCardError, match="'7Z'"):
        parse_cards("6H 7Z 8H")


def test_card_constructor_rejects_bad_values() -> None:
    with pytest.raises(InvalidCardError):
        Card(14, Suit.HEARTS)
    with pytest.raises(InvalidCardError):
        Card(0, Suit.HEARTS)
    with pytest.raises(InvalidCardError):
        Card(7, None)


def test_deck_sizes_follow_jokers() -> None:
    assert len(full_deck(Rules())) == 52
    assert len(set(full_deck(Rules(jokers=1)))) == 53
    assert JOKER in full_deck(Rules.nintendo())
    assert JOKER not in full_deck(Rules())


def test_total_order_is_suit_then_rank_joker_last() -> None:
    assert sorted(reversed(CARDS)) == list(CARDS)
    assert Card.parse("KC") < Card.parse("AD") < Card.parse("2D") < JOKER
    assert [c.index for c in CARDS] == list(range(53))


def test_cards_hash_and_pickle_by_value() -> None:
    c = Card(7, Suit.SPADES)
    assert hash(c) == hash(Card.parse("7S"))
    assert pickle.loads(pickle.dumps(c)) == c
    assert c != "7S"
