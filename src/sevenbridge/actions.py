"""The actions a player can take, as small frozen values.

Every action names the ``player`` who takes it. ``str()`` gives the move's
notation without the player (``Pon 9D 9H``); ``repr()`` evaluates back to the
action.

>>> from sevenbridge import Pon, LayOff
>>> Pon(1, "9H 9D")
Pon(1, '9D 9H')
>>> str(LayOff(0, "8H", 2))
'LayOff 8H>2'
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from ._kit import checks as _checks
from ._kit.actionbase import JsonAction
from ._kit.i18n import N_, register_format, translator
from .cards import Card, Suit, card_text, parse_cards
from .errors import Message

__all__ = [
    "Action",
    "Chi",
    "Discard",
    "Draw",
    "LayDown",
    "LayOff",
    "Pass",
    "Pon",
]


class _JsonAction(JsonAction):
    """JSON methods shared by every action.

    >>> from sevenbridge import Pon
    >>> Pon.from_json(Pon(2, "9C 9D").to_json())
    Pon(2, '9C 9D')
    """

    __slots__ = ()
    _TO_JSON = "action_to_json"
    _FROM_JSON = "action_from_json"


def _player(value: int) -> int:
    if type(value) is not int or not 0 <= value < _checks.MAX_PLAYERS:
        return _checks.integer(value, "player", 0, _checks.MAX_PLAYERS - 1)
    return value


def _target(value: int) -> int:
    if type(value) is not int or not 0 <= value <= MAX_TARGET:
        return _checks.integer(
            value,
            "target",
            0,
            MAX_TARGET,
            Message("why.target", " (an index into the table's melds)"),
        )
    return value


#: The highest meld index a lay-off can name: every meld holds a card of its
#: own, so a table of a 53-card deck has at most 53 melds.
MAX_TARGET = 52


def _cards(value: str | Iterable[Card | str]) -> tuple[Card, ...]:
    return tuple(sorted(parse_cards(value)))


def _card(value: Card | str) -> Card:
    return value if isinstance(value, Card) else Card.parse(value)


def _optional_card(value: Card | str | None) -> Card | None:
    return None if value is None else _card(value)


def _display_key(card: Card, high_aces: set[Suit | None]) -> int:
    """Display order: by suit and rank, but an Ace after the King of its suit
    when both are there (a Q-K-A run reads in order)."""
    return card.index + 13 if card.rank == 1 and card.suit in high_aces else card.index


def _joker_text(cards: tuple[Card, ...], joker_as: Card | None) -> str:
    high_aces = {c.suit for c in cards if c.rank == 13} & {c.suit for c in cards if c.rank == 1}
    if joker_as is not None and joker_as.rank == 1:
        high_aces |= {c.suit for c in cards if c.rank == 13 and c.suit == joker_as.suit}
    shown = sorted(cards, key=lambda c: _display_key(c, high_aces))
    text = " ".join(
        f"JK={joker_as}" if c.is_joker and joker_as is not None else str(c) for c in shown
    )
    if joker_as is not None and not any(c.is_joker for c in cards):
        text += f" (JK={joker_as})"  # the claimed discard is the joker
    return text


def _joker_repr(joker_as: Card | None) -> str:
    return "" if joker_as is None else f", {str(joker_as)!r}"


@attrs.frozen(cache_hash=True, repr=False)
class Draw(_JsonAction):
    """Take the top card of the stock (the ordinary start of a turn)."""

    player: int = attrs.field(converter=_player)

    def __str__(self) -> str:
        return "Draw"

    def __repr__(self) -> str:
        return f"Draw({self.player})"


@attrs.frozen(cache_hash=True, repr=False)
class Pass(_JsonAction):
    """Decline to pon the discard when asked in the claim window."""

    player: int = attrs.field(converter=_player)

    def __str__(self) -> str:
        return "Pass"

    def __repr__(self) -> str:
        return f"Pass({self.player})"


@attrs.frozen(cache_hash=True, repr=False)
class Chi(_JsonAction):
    """Claim the discard to make a new run with ``cards`` from the hand.

    Only the next player, instead of drawing. The run goes on the table at once.
    """

    player: int = attrs.field(converter=_player)
    cards: tuple[Card, ...] = attrs.field(converter=_cards)
    joker_as: Card | None = attrs.field(default=None, converter=_optional_card)
    """The card the joker stands for, when ``cards`` holds the joker (or the claimed card is it)."""

    def __str__(self) -> str:
        return f"Chi {_joker_text(self.cards, self.joker_as)}"

    def __repr__(self) -> str:
        return f"Chi({self.player}, {' '.join(map(str, self.cards))!r}{_joker_repr(self.joker_as)})"


@attrs.frozen(cache_hash=True, repr=False)
class Pon(_JsonAction):
    """Claim the discard to make a new set with ``cards`` from the hand.

    Any player but the discarder, before the next player draws. The set goes on
    the table at once and play continues from the claimer's left.
    """

    player: int = attrs.field(converter=_player)
    cards: tuple[Card, ...] = attrs.field(converter=_cards)
    joker_as: Card | None = attrs.field(default=None, converter=_optional_card)
    """The card the joker stands for, when the set holds the joker."""

    def __str__(self) -> str:
        return f"Pon {_joker_text(self.cards, self.joker_as)}"

    def __repr__(self) -> str:
        return f"Pon({self.player}, {' '.join(map(str, self.cards))!r}{_joker_repr(self.joker_as)})"


@attrs.frozen(cache_hash=True, repr=False)
class LayDown(_JsonAction):
    """Put a new meld from the hand on the table.

    Several sevens laid together are one set; laid one by one they are single
    sevens, each its own meld.
    """

    player: int = attrs.field(converter=_player)
    cards: tuple[Card, ...] = attrs.field(converter=_cards)
    joker_as: Card | None = attrs.field(default=None, converter=_optional_card)
    """The card the joker stands for, when ``cards`` holds the joker."""

    def __str__(self) -> str:
        return f"LayDown {_joker_text(self.cards, self.joker_as)}"

    def __repr__(self) -> str:
        return (
            f"LayDown({self.player}, {' '.join(map(str, self.cards))!r}"
            f"{_joker_repr(self.joker_as)})"
        )


@attrs.frozen(cache_hash=True, repr=False)
class LayOff(_JsonAction):
    """Add one card from the hand to the table meld at index ``target``."""

    player: int = attrs.field(converter=_player)
    card: Card = attrs.field(converter=_card)
    target: int = attrs.field(converter=_target)
    """Index of the meld in ``GameState.melds`` (melds keep their index)."""
    joker_as: Card | None = attrs.field(default=None, converter=_optional_card)
    """The card the joker stands for, when ``card`` is the joker."""

    def __str__(self) -> str:
        card = f"JK={self.joker_as}" if self.joker_as is not None else str(self.card)
        return f"LayOff {card}>{self.target}"

    def __repr__(self) -> str:
        return (
            f"LayOff({self.player}, {str(self.card)!r}, {self.target}{_joker_repr(self.joker_as)})"
        )


@attrs.frozen(cache_hash=True, repr=False)
class Discard(_JsonAction):
    """Throw a card face up on the discard pile, ending the turn."""

    player: int = attrs.field(converter=_player)
    card: Card = attrs.field(converter=_card)

    def __str__(self) -> str:
        return f"Discard {self.card}"

    def __repr__(self) -> str:
        return f"Discard({self.player}, {str(self.card)!r})"


#: Any action.
Action = Draw | Pass | Chi | Pon | LayDown | LayOff | Discard
ACTION_TYPES = (Draw, Pass, Chi, Pon, LayDown, LayOff, Discard)

#: Each kind of move as a list of moves names it (see :data:`sevenbridge.text.MOVE_KINDS`).
KIND_WORDS = {
    "Draw": N_("Draw"),
    "Chi": N_("Chi"),
    "Pon": N_("Pon"),
    "Pass": N_("Pass"),
    "LayDown": N_("Lay down"),
    "LayOff": N_("Lay off"),
    "Discard": N_("Discard"),
}


def _cards_text(cards: Iterable[Card], joker_as: Card | None, lang: str) -> str:
    return " ".join(
        card_text(c, lang) + ("=" + card_text(joker_as, lang) if c.is_joker and joker_as else "")
        for c in cards
    )


def _action_text(action: Action, lang: str) -> str:
    """A move in a translated message (a refused one): ``Discard(1, '7H')`` in
    English, as ``repr`` writes it; in other languages the player, the kind of
    move and its cards, as players write them (``P1 捨てる ♥7``)."""
    if lang == "en":
        return repr(action)
    out = f"P{action.player} " + translator(lang)(KIND_WORDS[type(action).__name__])
    if isinstance(action, (Chi, Pon, LayDown)):
        out += " " + _cards_text(action.cards, action.joker_as, lang)
    elif isinstance(action, LayOff):
        out += f" {_cards_text((action.card,), action.joker_as, lang)}→[{action.target}]"
    elif isinstance(action, Discard):
        out += " " + card_text(action.card, lang)
    return out


register_format(_JsonAction, _action_text)
