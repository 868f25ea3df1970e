from __future__ import annotations

import pickle

import pytest
from hypothesis import given

from sevenbridge import JOKER, Card, InvalidCardError, Rules, Suit, deal, full_deck, parse_cards
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


# --- what a card and a list of cards accept -----------------------------------------------
def test_other_wrong_types() -> None:
    from sevenbridge import Meld, parse_cards

    with pytest.raises(TypeError, match="cards must be a string"):
        parse_cards(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="text must be a string"):
        Meld.parse(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="rules must be a Rules value"):
        deal("standard")  # type: ignore[arg-type]


def test_card_refuses_a_bool_suit() -> None:
    from sevenbridge import Card, InvalidCardError

    with pytest.raises(InvalidCardError, match="not a bool"):
        Card(7, True)  # type: ignore[arg-type]
    with pytest.raises(InvalidCardError):
        Card(False, None)


@pytest.mark.parametrize(
    ("rank", "suit"), [(7, 2.0), (7, "2"), (7.0, 2), (0.0, None), (False, None)]
)
def test_card_refuses_ranks_and_suits_that_are_no_int(rank: object, suit: object) -> None:
    from sevenbridge import Card
    from sevenbridge.errors import InvalidCardError

    with pytest.raises(InvalidCardError):
        Card(rank, suit)  # type: ignore[arg-type]


def test_card_takes_int_ranks_and_suits() -> None:
    from sevenbridge import Card, Rank, Suit

    assert str(Card(7, 2)) == str(Card(Rank(7), Suit.HEARTS)) == "7H"  # type: ignore[arg-type]
    assert Card(0, None).is_joker


def test_card_and_tile_lists_longer_than_a_deck_or_wall_are_refused_at_once() -> None:
    import time

    from sevenbridge import Meld, full_deck, mahjong, parse_cards
    from sevenbridge.errors import InvalidCardError, InvalidMeldError, InvalidTileError

    deck = " ".join(map(str, full_deck(Rules(jokers=1))))
    assert len(parse_cards(deck)) == 53
    wall = mahjong.format_tiles(mahjong.full_wall(flowers=True, seasons=True))
    assert len(mahjong.parse_tiles(wall)) == 144
    cards = " ".join(["7H"] * 3_000_000)
    tiles = ("5m" * 3_000_000, "5" * 3_000_000 + "m", " ".join(["E"] * 3_000_000))
    start = time.perf_counter()
    with pytest.raises(InvalidCardError, match=r"it names more cards than a deck holds \(53\)"):
        parse_cards(deck + " 2C")
    with pytest.raises(InvalidCardError, match="more cards than a deck holds"):
        parse_cards(cards)
    with pytest.raises((InvalidCardError, InvalidMeldError), match="more cards than a deck holds"):
        Meld.parse(cards)
    with pytest.raises(InvalidTileError, match=r"it names more tiles than a wall holds \(144\)"):
        mahjong.parse_tiles(wall + " 5m")
    for text in tiles:
        with pytest.raises(InvalidTileError, match="more tiles than a wall holds"):
            mahjong.parse_tiles(text)
    assert time.perf_counter() - start < 2.0
