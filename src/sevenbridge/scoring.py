"""Hand points and deal scores under every scoring scheme.

>>> from sevenbridge import Rules, hand_points
>>> hand_points("AS 7H KD")            # standard: 1 + 20 + 10
31
>>> hand_points("AS 7H KD", Rules.nintendo())   # (10 + 7 + 10) doubled by the 7
54
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ._kit.i18n import N_
from .cards import JOKER_INDEX, Card, parse_cards
from .errors import InvalidArgumentError, Message
from .errors import Message as M
from .rules import CardValues, Rules, Scoring, require_rules

__all__ = ["explain_hand_points", "hand_points", "returns"]

_DEFAULT_RULES = Rules()

# Value of each rank (index 1-13) under each card-value table, and whether a 7
# doubles the hand.
_TABLES: dict[CardValues, tuple[tuple[int, ...], bool]] = {
    CardValues.STANDARD: ((0, 1, 2, 3, 4, 5, 6, 20, 8, 9, 10, 10, 10, 10), False),
    CardValues.ALTERNATE_ACE_11: ((0, 11, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10), True),
    CardValues.ALTERNATE_ACE_15: ((0, 15, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10), True),
    CardValues.NINTENDO: ((0, 10, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10), True),
}


def points_of_indexes(cards: Iterable[int], rules: Rules) -> int:
    """Hand points of card indexes (the engine's fast path)."""
    values, sevens_double = _TABLES[rules.card_values]
    total = 0
    factor = 1
    for c in cards:
        if c == JOKER_INDEX:
            factor *= rules.joker_multiplier
            continue
        rank = c % 13 + 1
        total += values[rank]
        if rank == 7 and sevens_double:
            factor *= 2
    return total * factor


def hand_points(cards: str | Iterable[Card | str], rules: Rules = _DEFAULT_RULES) -> int:
    """What the cards left in a loser's hand count under the rules' card values.

    - standard values: Ace 1, J/Q/K 10, each 7 20, other cards their face value;
    - alternate values: Ace 11 or 15, each 7 counts 7 and doubles the hand;
    - Nintendo values: A/J/Q/K 10, 2-10 face value, each 7 doubles the hand;
    - the joker counts 0 but multiplies the hand by ``rules.joker_multiplier``.

    Under penalty scoring this is the hand's penalty; under winner-scores the
    winner collects the sum over the losers.

    >>> hand_points("7S 7D", Rules(card_values="alternate_ace_11"))   # (7 + 7) x 2 x 2
    56
    >>> hand_points("5C JK", Rules(jokers=1))
    25
    """
    return points_of_indexes((c.index for c in _hand(cards, rules)), rules)


def _hand(cards: str | Iterable[Card | str], rules: Rules) -> tuple[Card, ...]:
    """The cards of a hand under the rules: each once, and in the rules' deck."""
    require_rules(rules)
    parsed = parse_cards(cards)
    seen: set[Card] = set()
    for card in parsed:
        if card in seen:
            raise InvalidArgumentError(
                Message(
                    "invalid_argument.cards_given_twice_hand",
                    "cards: {card} is given twice; a hand holds each card once",
                    card=str(card),
                )
            )
        if card.index >= rules.deck_size:
            raise InvalidArgumentError(
                Message(
                    "invalid_argument.cards_not_in_deck",
                    "cards: {card} is not in the deck of these rules (jokers=0)",
                    card=str(card),
                )
            )
        seen.add(card)
    return parsed


def explain_hand_points(cards: str | Iterable[Card | str], rules: Rules = _DEFAULT_RULES) -> str:
    """The count of a hand, step by step, naming the rule behind each step.

    The answer is a :class:`~sevenbridge.errors.Message`: ``translate(answer,
    "ja")`` gives it in Japanese, and ``symbols=True`` writes the cards as a
    table shows them.

    >>> print(explain_hand_points("AS 7H JK", Rules.nintendo()))
    AS 7H JK under nintendo card values: AS 10 + 7H 7 = 17; one 7 doubles it: 34; the joker multiplies it by 5: 170
    """
    parsed = _hand(cards, rules)
    values, sevens_double = _TABLES[rules.card_values]
    total = sum(values[c.rank] for c in parsed if not c.is_joker)
    count: str = M("points.zero", "0")
    for k, c in enumerate(c for c in parsed if not c.is_joker):
        part = M("points.card", "{card} {value}", card=c, value=values[c.rank])
        count = part if k == 0 else M("points.plus", "{sum} + {part}", sum=count, part=part)
    if total or any(not c.is_joker for c in parsed):
        count = M("points.total", "{sum} = {total}", sum=count, total=total)
    hand: str | tuple[Card, ...] = parsed or M("points.empty_hand", "an empty hand")
    out: str = M(
        "points.explain",
        "{cards} under {values} card values: {count}",
        cards=hand,
        values=M(f"card_values.{rules.card_values.value}", _VALUES_WORDS[rules.card_values]),
        count=count,
    )
    sevens = sum(1 for c in parsed if c.rank == 7) if sevens_double else 0
    if sevens:
        total *= 2**sevens
        step = (
            M("points.one_seven", "one 7 doubles it: {total}", total=total)
            if sevens == 1
            else M(
                "points.sevens",
                "{n} sevens double it {n} times: {total}",
                n=sevens,
                total=total,
            )
        )
        out = M("points.step", "{before}; {step}", before=out, step=step)
    if any(c.is_joker for c in parsed) and rules.joker_multiplier != 1:
        total *= rules.joker_multiplier
        step = M(
            "points.joker",
            "the joker multiplies it by {factor}: {total}",
            factor=rules.joker_multiplier,
            total=total,
        )
        out = M("points.step", "{before}; {step}", before=out, step=step)
    return out


#: The card-value tables' names, as :func:`explain_hand_points` says them.
_VALUES_WORDS = {
    CardValues.STANDARD: N_("standard"),
    CardValues.ALTERNATE_ACE_11: N_("alternate_ace_11"),
    CardValues.ALTERNATE_ACE_15: N_("alternate_ace_15"),
    CardValues.NINTENDO: N_("nintendo"),
}


def score_deal(
    hands: Sequence[Iterable[int]], winner: int, bonus: bool, rules: Rules
) -> tuple[int, ...]:
    """What each player gets from a deal that ``winner`` went out of.

    Winner-scores: the winner gets the losers' total (doubled with the
    going-out-at-once bonus), the others 0. Penalty: each loser gets their hand
    points, the winner 0 (or -50 with the bonus).
    """
    points = [0 if p == winner else points_of_indexes(h, rules) for p, h in enumerate(hands)]
    if rules.scoring is Scoring.WINNER_SCORES:
        won = sum(points) * (2 if bonus else 1)
        return tuple(won if p == winner else 0 for p in range(len(hands)))
    if bonus:
        points[winner] = -50
    return tuple(points)


def returns(state: object) -> tuple[float, ...]:
    """Each player's result of a finished deal as one number, higher always better.

    A deal's scores mean opposite things under the two scoring schemes (points
    won under ``winner_scores``, a penalty under ``penalty``), so a learner or a
    search should read this instead: each player's score measured against the
    table's average, with the sign turned so that more is better. The numbers
    add up to zero; a void deal gives zeros; so does a deal in progress.

    Args:
        state: A :class:`~sevenbridge.GameState` or an
            :class:`~sevenbridge.Observation` (its deal scores are public).

    >>> from sevenbridge import Rules, deal, apply, observe
    >>> from sevenbridge.bots import GreedyPlayer
    >>> state, bot = deal(Rules.nintendo(), players=3, seed=1), GreedyPlayer(1)
    >>> while not state.is_over:
    ...     state = apply(state, bot(observe(state)))
    >>> state.deal_scores, returns(state)
    ((44, 34, 0), (-18.0, -8.0, 26.0))
    """
    scores = getattr(state, "deal_scores", ())
    rules = getattr(state, "rules", None)
    players = getattr(state, "players", None)
    if not isinstance(rules, Rules) or not isinstance(players, int):
        raise TypeError(f"returns needs a GameState or an Observation, not {type(state).__name__}")
    if not scores:
        return (0.0,) * players
    mean = sum(scores) / players
    sign = -1.0 if rules.scoring is Scoring.PENALTY else 1.0
    return tuple(sign * (s - mean) for s in scores)
