"""Meld validity: sets, runs and single sevens, with or without the joker.

>>> from sevenbridge import is_valid_meld, why_not_meld, meld_interpretations
>>> is_valid_meld("6H 7H")
True
>>> why_not_meld("6H 8H")
'6H 8H: the cards are not consecutive, so they are not a run'
>>> [str(m) for m in meld_interpretations("4S 5S JK", Rules(jokers=1))]
['JK=3S 4S 5S', '4S 5S JK=6S']
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Sequence

import attrs

from ._kit import checks as _checks
from ._kit import hooks as _hooks
from ._kit.i18n import register_format
from .cards import CARDS, JOKER_INDEX, Card, card_symbols, card_text, parse_cards, split_cards
from .errors import InvalidMeldError, quote
from .errors import Message as M
from .rules import Rules, require_rules

__all__ = [
    "InvalidMeldError",
    "Meld",
    "MeldKind",
    "is_valid_meld",
    "meld_interpretations",
    "why_not_meld",
]

_DEFAULT_RULES = Rules()


class MeldKind(str, enum.Enum):
    """What a meld is."""

    SET = "set"
    """Cards of one rank, three or four (five with the joker), or two or more 7s."""
    RUN = "run"
    """Consecutive cards of one suit, three or more, or two if one is a 7."""
    SEVEN = "seven"
    """A single 7. On the table it becomes a set or a run by the first card added."""


# A reading: (kind, card indexes in meld order, index of the card the joker
# stands for or -1).
Reading = tuple[MeldKind, tuple[int, ...], int]


def _card_at(suit: int, pos: int) -> int:
    """Card index of run position ``pos`` (1-14, 14 being the high Ace) in a suit."""
    return suit * 13 + (pos - 1) % 13


def _names(cards: Sequence[int]) -> str:
    return " ".join(str(CARDS[c]) for c in cards)


def _cards(cards: Sequence[int]) -> tuple[Card, ...]:
    """Cards as a message parameter (written like :func:`_names`)."""
    return tuple(CARDS[c] for c in cards)


def analyse(cards: Sequence[int], rules: Rules) -> tuple[list[Reading], str | None]:
    """Every reading of a group of card indexes, or the reason it is not a meld.

    This is the single place that decides meld validity; the engine's fast
    generators are tested against it.
    """
    n = len(cards)
    if n == 0:
        return [], M("meld.empty", "a meld needs at least one card")
    seen: set[int] = set()
    for c in cards:
        if c in seen:
            return [], M(
                "meld.twice", "{card} is given twice; a card can be in only one meld", card=CARDS[c]
            )
        seen.add(c)
    has_joker = JOKER_INDEX in seen
    if has_joker and rules.jokers == 0:
        return [], M("meld.no_jokers", "these rules play without a joker (jokers=0)")
    naturals = sorted(c for c in cards if c != JOKER_INDEX)
    if has_joker and n < 3:
        return [], M(
            "meld.joker_needs_three",
            "the joker can only stand in a set or run of three or more cards "
            "(6-JK and 7-JK are not melds)",
        )
    ranks = sorted({c % 13 + 1 for c in naturals})
    suits = {c // 13 for c in naturals}
    readings: list[Reading] = []
    if len(ranks) == 1:
        rank = ranks[0]
        if has_joker:
            present = {c // 13 for c in naturals}
            missing = [s for s in range(4) if s not in present] or list(range(4))
            for s in missing:
                readings.append((MeldKind.SET, (*naturals, JOKER_INDEX), s * 13 + rank - 1))
        elif n == 1:
            if rank != 7:
                return [], M(
                    "meld.single_not_seven",
                    "{cards}: a single card is a meld only if it is a 7",
                    cards=_cards(cards),
                )
            readings.append((MeldKind.SEVEN, tuple(naturals), -1))
        elif n >= 3 or rank == 7:
            readings.append((MeldKind.SET, tuple(naturals), -1))
        else:
            return [], M(
                "meld.pair",
                "{cards}: two cards of one rank are a set only if they are 7s; "
                "other sets need three or four cards",
                cards=_cards(cards),
            )
        return readings, None
    if len(suits) != 1:
        return [], M(
            "meld.mixed",
            "{cards}: the cards of a meld must share a rank (a set) or a suit (a run)",
            cards=_cards(cards),
        )
    suit = next(iter(suits))
    top = 14 if rules.ace_high else 13
    mappings = [sorted(ranks)]
    if rules.ace_high and 1 in ranks:
        mappings.append(sorted(14 if r == 1 else r for r in ranks))
    for pos in mappings:
        lo, hi, k = pos[0], pos[-1], len(pos)
        span = hi - lo + 1
        if not has_joker:
            if span == k and (k >= 3 or 7 in ranks):
                readings.append((MeldKind.RUN, tuple(_card_at(suit, p) for p in pos), -1))
            continue
        if span == k:
            fills = [p for p in (lo - 1, hi + 1) if 1 <= p <= top]
        elif span == k + 1:
            fills = [p for p in range(lo, hi + 1) if p not in pos]
        else:
            fills = []
        for f in fills:
            full = sorted([*pos, f])
            if full[0] == 1 and full[-1] == 14:
                continue
            order = tuple(JOKER_INDEX if p == f else _card_at(suit, p) for p in full)
            readings.append((MeldKind.RUN, order, _card_at(suit, f)))
    if readings:
        unique = sorted(
            dict.fromkeys(readings),
            key=lambda r: (r[1].index(JOKER_INDEX) if r[2] >= 0 else 0, r[2]),
        )
        return unique, None
    # Explain the failure.
    names = _cards(cards)
    if not has_joker and len(ranks) == 2 and ranks[1] - ranks[0] == 1 and 7 not in ranks:
        return [], M(
            "meld.two_card_run",
            "{cards}: a run of two cards is a meld only if it contains a 7",
            cards=names,
        )
    if 1 in ranks:
        if 13 in ranks and 2 in ranks:
            return [], M(
                "meld.k_a_2",
                "{cards}: K-A-2 is never a run; the Ace cannot join the King and the 2",
                cards=names,
            )
        if not rules.ace_high and analyse(cards, attrs.evolve(rules, ace_high=True))[0]:
            return [], M(
                "meld.ace_high",
                "{cards}: Q-K-A needs ace_high=True; the Ace is low under these rules",
                cards=names,
            )
    if has_joker:
        return [], M(
            "meld.joker_gaps", "{cards}: one joker cannot close the gaps in this run", cards=names
        )
    return [], M(
        "meld.not_consecutive",
        "{cards}: the cards are not consecutive, so they are not a run",
        cards=names,
    )


def _indexes(cards: str | Iterable[Card | str]) -> list[int]:
    return [c.index for c in parse_cards(cards)]


def _kind(value: MeldKind | str) -> MeldKind:
    if isinstance(value, MeldKind):
        return value
    if isinstance(value, str):
        try:
            return MeldKind(value)
        except ValueError:
            pass
        raise InvalidMeldError(
            M(
                "invalid_meld.kind_not_set_run",
                "kind: {value} is not 'set', 'run' or 'seven'",
                value=quote(value),
            )
        )
    raise TypeError(f"kind must be a MeldKind or 'set', 'run', 'seven', not {type(value).__name__}")


def _optional_card(value: Card | str | None) -> Card | None:
    if value is None or isinstance(value, Card):
        return value
    if isinstance(value, str):
        return Card.parse(value)
    raise TypeError(
        f"joker_as must be a Card, a string such as '7H', or None, not {type(value).__name__}"
    )


def _owner(value: int | None) -> int | None:
    return None if value is None else _checks.seat(value, _checks.MAX_PLAYERS, "owner")


def _joker_name(reading: Reading) -> str:
    return "" if reading[2] < 0 else f"JK={CARDS[reading[2]]}"


@attrs.frozen(repr=False)
class Meld:
    """A valid meld: its kind, its cards in meld order, and the joker's stand-in.

    On the table a meld also has an ``owner``: the player who laid it. A meld
    checks its own shape with the Ace high and the joker allowed; whether it is
    legal under given rules is :func:`is_valid_meld`'s question.

    Args:
        kind: Set, run or single seven.
        cards: The cards, in any order (they are stored in meld order: runs by
            rank, the joker at the place it stands for; sets by suit).
        joker_as: The card the joker stands for, if the meld has the joker.
        owner: The player who laid it, for a meld on the table.

    Raises:
        InvalidMeldError: if the cards do not form that meld.

    >>> Meld(MeldKind.RUN, parse_cards("8H 6H 7H"))
    Meld.parse('6H 7H 8H')
    >>> Meld.parse("7S 7H").kind
    <MeldKind.SET: 'set'>
    """

    kind: MeldKind = attrs.field(converter=_kind)
    cards: tuple[Card, ...] = attrs.field(converter=parse_cards)
    joker_as: Card | None = attrs.field(default=None, converter=_optional_card)
    owner: int | None = attrs.field(default=None, converter=_owner)

    def __attrs_post_init__(self) -> None:
        readings, reason = analyse([c.index for c in self.cards], _PERMISSIVE)
        want = -1 if self.joker_as is None else self.joker_as.index
        given = tuple(c.index for c in self.cards)
        matching = [r for r in readings if r[0] == self.kind and r[2] == want]
        matching.sort(key=lambda r: r[1] != given)  # keep the given order if it is one
        if matching:
            object.__setattr__(self, "cards", tuple(CARDS[c] for c in matching[0][1]))
            return
        if reason is None:
            found = ", ".join(f"{k.value} {_joker_name((k, o, j))}".strip() for k, o, j in readings)
            reason = M(
                "meld.reads_only_as",
                "{cards} reads only as: {found}",
                cards=_names([c.index for c in self.cards]),
                found=found,
            )
        raise InvalidMeldError(reason)

    @classmethod
    def parse(cls, text: str, rules: Rules | None = None) -> Meld:
        """Read a meld such as ``"6H 7H 8H"`` or ``"4S 5S JK=6S"``.

        Without ``JK=``, a meld with the joker must have only one reading.

        Raises:
            InvalidMeldError: if the cards are not a meld or the joker is ambiguous.
            InvalidCardError: if a card does not parse.

        >>> Meld.parse("4S 5S JK=3S")
        Meld.parse('JK=3S 4S 5S')
        """
        if not isinstance(text, str):
            raise TypeError(f"text must be a string such as '6H 7H 8H', not {type(text).__name__}")
        rules = _PERMISSIVE if rules is None else require_rules(rules)
        joker_as: Card | None = None
        pieces = []
        for piece in split_cards(text):
            if piece.upper().startswith("JK="):
                joker_as = Card.parse(piece[3:])
                pieces.append("JK")
            else:
                pieces.append(piece)
        cards = parse_cards(" ".join(pieces))
        readings, reason = analyse([c.index for c in cards], rules)
        if reason is not None:
            raise InvalidMeldError(reason)
        if joker_as is None:
            if len(readings) > 1:
                options = ", ".join(_joker_name(r) for r in readings)
                raise InvalidMeldError(
                    M(
                        "invalid_meld.say_which_card_joker",
                        "{text}: say which card the joker stands for ({options})",
                        text=quote(text),
                        options=str(options),
                    )
                )
            joker_as = None if readings[0][2] < 0 else CARDS[readings[0][2]]
        kinds = {
            r[0]
            for r in readings
            if (r[2] < 0 and joker_as is None) or (joker_as is not None and r[2] == joker_as.index)
        }
        if not kinds:
            raise InvalidMeldError(
                M(
                    "invalid_meld.joker_cannot_stand_for",
                    "{text}: the joker cannot stand for {joker_as} here",
                    text=quote(text),
                    joker_as=str(joker_as),
                )
            )
        return cls(kinds.pop(), cards, joker_as)

    @property
    def has_joker(self) -> bool:
        """Whether the joker is in this meld."""
        return self.joker_as is not None

    def __len__(self) -> int:
        return len(self.cards)

    def _repr_svg_(self) -> str:
        """The meld drawn as SVG (:func:`sevenbridge.svg.meld`), for notebooks."""
        return str(_hooks.call("repr_svg", self))

    def _repr_html_(self) -> str:
        """The meld drawn inline in HTML, its title and description kept, for notebooks."""
        return str(_hooks.call("repr_html", self))

    def __str__(self) -> str:
        return " ".join(f"JK={self.joker_as}" if c.is_joker else str(c) for c in self.cards)

    def __repr__(self) -> str:
        if self.owner is None:
            return f"Meld.parse({str(self)!r})"
        return f"Meld(MeldKind.{self.kind.name}, {str(self)!r}, owner={self.owner})"


_PERMISSIVE = Rules(jokers=1, ace_high=True)


def meld_interpretations(
    cards: str | Iterable[Card | str], rules: Rules = _DEFAULT_RULES
) -> tuple[Meld, ...]:
    """Every way the cards can be read as one meld (empty if none).

    Natural cards have at most one reading; the joker may have several.

    >>> meld_interpretations("7C 7D JK", Rules(jokers=1))
    (Meld.parse('7C 7D JK=7H'), Meld.parse('7C 7D JK=7S'))
    >>> meld_interpretations("6C 8C")
    ()
    """
    readings, _ = analyse(_indexes(cards), require_rules(rules))
    return tuple(
        Meld(kind, tuple(CARDS[c] for c in order), None if j < 0 else CARDS[j])
        for kind, order, j in readings
    )


def is_valid_meld(cards: str | Iterable[Card | str], rules: Rules = _DEFAULT_RULES) -> bool:
    """Whether the cards form a meld under the rules (order does not matter).

    >>> is_valid_meld("7D"), is_valid_meld("7S 7C"), is_valid_meld("4S 4H")
    (True, True, False)
    >>> is_valid_meld("QH KH AH"), is_valid_meld("QH KH AH", Rules(ace_high=True))
    (False, True)
    """
    return why_not_meld(cards, rules) is None


def why_not_meld(cards: str | Iterable[Card | str], rules: Rules = _DEFAULT_RULES) -> str | None:
    """``None`` if the cards form a meld, else the broken rule in plain words.

    >>> why_not_meld("KS AS 2S", Rules(ace_high=True))
    'KS AS 2S: K-A-2 is never a run; the Ace cannot join the King and the 2'
    >>> why_not_meld("7H JK", Rules(jokers=1))
    'the joker can only stand in a set or run of three or more cards (6-JK and 7-JK are not melds)'
    """
    require_rules(rules)
    return analyse(_indexes(cards), rules)[1]


def _meld_text(meld: Meld, lang: str, write: Callable[[Card, str], str] = card_text) -> str:
    """A meld in a translated message: its cards, a joker with what it stands for."""
    return " ".join(
        f"{write(c, lang)}={write(meld.joker_as, lang)}"
        if c.is_joker and meld.joker_as is not None
        else write(c, lang)
        for c in meld.cards
    )


def _meld_symbols(meld: Meld, lang: str) -> str:
    """A meld as a table shows it: ``6♥ 7♥ JK=8♥``."""
    return _meld_text(meld, lang, card_symbols)


register_format(Meld, _meld_text, symbols=_meld_symbols)
