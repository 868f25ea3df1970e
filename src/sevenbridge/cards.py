"""Cards, suits, ranks and their text notation.

A card is written as its rank then its suit: ``7H``, ``10S`` (or ``TS``), ``AC``,
``QD``; suits may also be given as symbols (``7♥``) and in lower case (``7h``).
The joker is ``JK``.

>>> from sevenbridge import Card, parse_cards
>>> Card.parse("7♥")
Card.parse('7H')
>>> [str(c) for c in parse_cards("10h, TS JK")]
['10H', '10S', 'JK']
"""

from __future__ import annotations

import enum
import itertools
import re
from collections.abc import Iterable
from typing import Any

import attrs

from ._kit import hooks as _hooks
from ._kit.i18n import register_format, translator
from .errors import InvalidCardError, Message, quote
from .rules import Rules, require_rules

__all__ = [
    "JOKER",
    "Card",
    "Rank",
    "Suit",
    "full_deck",
    "parse_cards",
]


class Suit(enum.IntEnum):
    """The four suits, in the order used for display (clubs lowest)."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        """The one-letter form (``C``, ``D``, ``H`` or ``S``)."""
        return "CDHS"[self]

    @property
    def symbol(self) -> str:
        """The symbol form (``♣``, ``♦``, ``♥`` or ``♠``)."""
        return "♣♦♥♠"[self]


class Rank(enum.IntEnum):
    """Ranks by their number: Ace is 1 (low by default), King is 13."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13


_RANK_TEXT = {1: "A", 10: "10", 11: "J", 12: "Q", 13: "K"}
_RANK_PARSE = {"A": 1, "T": 10, "10": 10, "J": 11, "Q": 12, "K": 13}
_RANK_PARSE.update({str(n): n for n in range(2, 10)})
_SUIT_PARSE = {
    "C": Suit.CLUBS, "D": Suit.DIAMONDS, "H": Suit.HEARTS, "S": Suit.SPADES,
    "♣": Suit.CLUBS, "♦": Suit.DIAMONDS, "♥": Suit.HEARTS, "♠": Suit.SPADES,
    "♧": Suit.CLUBS, "♢": Suit.DIAMONDS, "♡": Suit.HEARTS, "♤": Suit.SPADES,
}  # fmt: skip
_JOKER_TEXT = frozenset({"JK", "JO", "JOKER", "🃏"})
_PIECE = re.compile(r"[^\s,]+")

#: Index of the joker in :attr:`Card.index` numbering.
JOKER_INDEX = 52


def _rank_str(rank: int) -> str:
    return _RANK_TEXT.get(rank, str(rank))


@attrs.frozen(eq=False, order=False, repr=False)
class Card:
    """A playing card, with a rank (1 = Ace … 13 = King) and a suit, or the joker.

    Cards compare equal by value and sort in display order: by suit (clubs,
    diamonds, hearts, spades), then by rank, with the joker last.

    Args:
        rank: 1 to 13 (``Rank`` members work too); 0 for the joker.
        suit: The suit; ``None`` for the joker.

    Raises:
        InvalidCardError: if the rank or suit is out of range.

    >>> Card(7, Suit.HEARTS)
    Card.parse('7H')
    >>> Card(7, Suit.HEARTS) == Card.parse("7h")
    True
    >>> sorted(parse_cards("JK 2S 10C AS"))
    [Card.parse('10C'), Card.parse('AS'), Card.parse('2S'), Card.parse('JK')]
    """

    rank: int
    suit: Suit | None
    index: int = attrs.field(init=False)
    """Position of the card in a deck in display order (0-51, the joker 52)."""

    def __attrs_post_init__(self) -> None:
        rank, suit = self.rank, self.suit
        if suit is None:
            if not isinstance(rank, int) or isinstance(rank, bool) or rank != 0:
                raise InvalidCardError(
                    f"{rank!r} of no suit",
                    Message(
                        "invalid_card.only_joker_rank_has", "only the joker (rank 0) has no suit"
                    ),
                )
            object.__setattr__(self, "index", JOKER_INDEX)
            return
        if not isinstance(rank, int) or isinstance(rank, bool) or not 1 <= rank <= 13:
            raise InvalidCardError(
                f"{rank!r}{suit!r}",
                Message("invalid_card.rank_must_ace_king", "rank must be 1 (Ace) to 13 (King)"),
            )
        if isinstance(suit, bool) or not isinstance(suit, int):
            raise InvalidCardError(
                f"{rank!r}{suit!r}",
                Message(
                    "invalid_card.suit_must_suit_not",
                    "suit must be a Suit, not a {kind}",
                    kind=type(suit).__name__,
                ),
            )
        try:
            suit = Suit(suit)
        except ValueError:
            raise InvalidCardError(
                f"{rank!r}{suit!r}", Message("invalid_card.suit_must_suit", "suit must be a Suit")
            ) from None
        object.__setattr__(self, "rank", int(rank))
        object.__setattr__(self, "suit", suit)
        object.__setattr__(self, "index", suit * 13 + rank - 1)

    @property
    def is_joker(self) -> bool:
        """Whether this card is the joker."""
        return self.suit is None

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read one card from text such as ``7H``, ``7♥``, ``10s``, ``TS`` or ``JK``.

        Raises:
            InvalidCardError: if the text is not exactly one card.

        >>> Card.parse(" qd ")
        Card.parse('QD')
        >>> Card.parse("7X")
        Traceback (most recent call last):
        ...
        sevenbridge.errors.InvalidCardError: '7X' is not a card: suit 'X' is not one of C D H S ♣ ♦ ♥ ♠
        """
        if not isinstance(text, str):
            raise InvalidCardError(
                repr(text),
                Message("invalid_card.expected_string_such_as", "expected a string such as '7H'"),
            )
        raw = text
        t = text.strip().upper()
        if not t:
            raise InvalidCardError(raw, Message("invalid_card.it_empty", "it is empty"))
        if t in _JOKER_TEXT:
            return JOKER
        if len(t) < 2:
            raise InvalidCardError(
                raw,
                Message(
                    "invalid_card.card_rank_then_suit", "a card is a rank then a suit, such as '7H'"
                ),
            )
        rank_text, suit_text = t[:-1], t[-1]
        suit = _SUIT_PARSE.get(suit_text)
        if suit is None:
            raise InvalidCardError(
                raw,
                Message(
                    "invalid_card.suit_not_one_c",
                    "suit {suit_text} is not one of C D H S ♣ ♦ ♥ ♠",
                    suit_text=quote(suit_text),
                ),
            )
        rank = _RANK_PARSE.get(rank_text)
        if rank is None:
            raise InvalidCardError(
                raw,
                Message(
                    "invalid_card.rank_not_one_t",
                    "rank {rank_text} is not one of A 2-10 T J Q K",
                    rank_text=quote(rank_text, 20),
                ),
            )
        return CARDS[suit * 13 + rank - 1]

    @staticmethod
    def from_index(index: int) -> Card:
        """The card with the given :attr:`index` (0-51, or 52 for the joker).

        >>> Card.from_index(6)
        Card.parse('7C')
        """
        if not isinstance(index, int) or not 0 <= index <= JOKER_INDEX:
            raise InvalidCardError(
                repr(index), Message("invalid_card.card_index", "a card index is 0 to 52")
            )
        return CARDS[index]

    def __str__(self) -> str:
        if self.suit is None:
            return "JK"
        return _rank_str(self.rank) + self.suit.letter

    def __format__(self, spec: str) -> str:
        """``format(card, "u")`` gives the symbol form (``7♥``); other specs pad ``str``."""
        if spec == "u":
            return "🃏" if self.suit is None else _rank_str(self.rank) + self.suit.symbol
        return format(str(self), spec)

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Card:
            return NotImplemented
        return self.index == other.index

    def __ne__(self, other: object) -> bool:
        if other.__class__ is not Card:
            return NotImplemented
        return self.index != other.index

    def __hash__(self) -> int:
        return self.index

    def __lt__(self, other: Card) -> bool:
        if other.__class__ is not Card:
            return NotImplemented
        return self.index < other.index

    def __le__(self, other: Card) -> bool:
        if other.__class__ is not Card:
            return NotImplemented
        return self.index <= other.index

    def __gt__(self, other: Card) -> bool:
        if other.__class__ is not Card:
            return NotImplemented
        return self.index > other.index

    def __ge__(self, other: Card) -> bool:
        if other.__class__ is not Card:
            return NotImplemented
        return self.index >= other.index

    def __reduce__(self) -> tuple[Any, ...]:
        return (Card.from_index, (self.index,))

    def _repr_svg_(self) -> str:
        """The card drawn as SVG (:func:`sevenbridge.svg.card`), for notebooks."""
        return str(_hooks.call("repr_svg", self))

    def _repr_html_(self) -> str:
        """The card drawn inline in HTML, its title and description kept, for notebooks."""
        return str(_hooks.call("repr_html", self))


#: Every card by :attr:`Card.index`; the joker is last.
CARDS: tuple[Card, ...] = tuple(
    [Card(rank, suit) for suit in Suit for rank in range(1, 14)] + [Card(0, None)]
)
#: The joker.
JOKER: Card = CARDS[JOKER_INDEX]


def split_cards(text: str) -> list[str]:
    """The pieces of a text of cards, separated by spaces and/or commas (not
    yet parsed). The text is read lazily: one naming more cards than a deck
    holds (53) raises InvalidCardError at once, however long it is."""
    pieces = [m.group() for m in itertools.islice(_PIECE.finditer(text), JOKER_INDEX + 2)]
    if len(pieces) > JOKER_INDEX + 1:
        raise InvalidCardError(
            text,
            Message(
                "invalid_card.more_than_a_deck",
                "it names more cards than a deck holds ({most})",
                most=str(JOKER_INDEX + 1),
            ),
        )
    return pieces


def parse_cards(text: str | Iterable[Card | str]) -> tuple[Card, ...]:
    """Read several cards separated by spaces and/or commas.

    An iterable of cards (or of card strings) is accepted too, so that functions
    taking cards can be called with either form.

    Raises:
        InvalidCardError: naming the first piece that does not parse, or for a
            text naming more cards than a deck holds (53).

    >>> parse_cards("6H 7H,8H")
    (Card.parse('6H'), Card.parse('7H'), Card.parse('8H'))
    >>> parse_cards("")
    ()
    """
    if isinstance(text, str):
        pieces: Iterable[Card | str] = split_cards(text)
    elif isinstance(text, Card):
        pieces = (text,)
    else:
        try:
            pieces = iter(text)
        except TypeError:
            kind = "None" if text is None else type(text).__name__
            raise TypeError(
                f"cards must be a string such as '6H 7H' or an iterable of cards, not {kind}"
            ) from None
    out = []
    for piece in pieces:
        if isinstance(piece, Card):
            out.append(piece)
        elif isinstance(piece, str):
            out.append(Card.parse(piece))
        else:
            raise InvalidCardError(
                repr(piece),
                Message(
                    "invalid_card.expected_card_or_string",
                    "expected a Card or a string such as '7H'",
                ),
            )
    return tuple(out)


def full_deck(rules: Rules | None = None) -> tuple[Card, ...]:
    """Every card the given rules play with, in display order.

    52 cards, or 53 with one joker (the Nintendo rules, or ``jokers=1``).

    >>> from sevenbridge import Rules
    >>> len(full_deck()), len(full_deck(Rules.nintendo()))
    (52, 53)
    """
    jokers = 0 if rules is None else require_rules(rules).jokers
    return CARDS[: JOKER_INDEX + jokers]


def card_text(card: Card, lang: str) -> str:
    """A card as players of the language write it: ``7H`` in English, ``♥7`` in Japanese."""
    if lang == "en":
        return str(card)
    if card.suit is None:
        return translator(lang)("joker")
    return card.suit.symbol + str(card)[:-1]


def card_symbols(card: Card, lang: str) -> str:
    """A card as a table shows it: ``7♥`` in English (``JK`` for the joker),
    ``♥7`` in Japanese."""
    if lang != "en":
        return card_text(card, lang)
    return "JK" if card.suit is None else format(card, "u")


register_format(Card, card_text, symbols=card_symbols)
