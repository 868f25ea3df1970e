"""Move notation: one action per line, ``P<player> <Verb> <arguments>``.

========================  ==================================================
``P1 Draw``               draw from the stock
``P2 Pass``               decline to pon
``P2 Chi 5H 6H``          chi with the hand cards 5H 6H
``P0 Pon 9D 9H``          pon with the hand cards 9D 9H
``P0 Pon 9S JK=9C``       the joker among them, standing for 9C
``P0 Pon 6H 6S (JK=6C)``  the claimed discard is the joker, standing for 6C
``P1 LayDown 7H 7S``      a new meld from the hand
``P1 LayOff 8H>2``        8H onto the table meld with index 2
``P1 LayOff JK=9H>2``     the joker onto meld 2, standing for 9H
``P1 Discard KS``         discard
========================  ==================================================

>>> from sevenbridge.notation import parse_move, format_move
>>> parse_move("P1 LayOff JK=9H>2")
LayOff(1, 'JK', 2, '9H')
>>> format_move(parse_move("p0 pon 9h 9d"))
'P0 Pon 9D 9H'
"""

from __future__ import annotations

import itertools
import re
from functools import lru_cache

from ._kit.movetext import with_player
from .actions import (
    ACTION_TYPES,
    MAX_TARGET,
    Action,
    Chi,
    Discard,
    Draw,
    LayDown,
    LayOff,
    Pass,
    Pon,
)
from .cards import Card
from .errors import InvalidCardError, Message, NotationError, quote

__all__ = ["NotationError", "format_move", "parse_move"]


_VERBS = {
    "draw": Draw, "pass": Pass, "chi": Chi, "pon": Pon,
    "laydown": LayDown, "layoff": LayOff, "discard": Discard,
}  # fmt: skip
_PLAYER = re.compile(r"[Pp]([0-9])$")
_TARGET = re.compile(r"[0-9]{1,2}")
_TOKEN = re.compile(r"\S+")
#: A move names at most a deck's cards (52 and the joker): a longer line is
#: refused after that many, however long it is.
MAX_MOVE_CARDS = 53


def format_move(action: Action) -> str:
    """``P<player> <notation>`` for an action.

    Raises:
        TypeError: for anything but an action.
    """
    if not isinstance(action, ACTION_TYPES):
        kind = "None" if action is None else type(action).__name__
        raise TypeError(f"action must be an action, not {kind}")
    return f"P{action.player} {action}"


def _card(token: str, text: str, line: int, col: int) -> Card:
    try:
        return Card.parse(token)
    except InvalidCardError as error:
        raise NotationError(
            text,
            Message("notation.card", "{reason} ({token})", reason=error.reason, token=quote(token)),
            line,
            col,
        ) from None


def parse_move(text: str, *, line: int = 1, offset: int = 0, player: int | None = None) -> Action:
    """Read one move written as :func:`format_move` writes it (case does not matter).

    With ``player``, the text may leave its player out (``Discard 7H``, as a
    person types it at a seat); text that names a player must name that one.

    Raises:
        NotationError: naming the line and column of the first problem.
        InvalidArgumentError: for text that names another player than ``player``.

    >>> parse_move("P1 Discard 7H") == parse_move("discard 7h", player=1)
    True
    """
    text = with_player(text, player)
    if line == 1 and offset == 0 and isinstance(text, str):
        return _parse_cached(text)  # moves repeat a lot in histories
    return _parse(text, line, offset)


@lru_cache(maxsize=16384)
def _parse_cached(text: str) -> Action:
    return _parse(text, 1, 0)


def _parse(text: str, line: int, offset: int) -> Action:
    if not isinstance(text, str):
        raise NotationError(repr(text), Message("notation.move_text", "a move is text"), line, 1)
    found = _TOKEN.finditer(text)  # read lazily: a long line is refused early
    tokens = [
        (m.group(), m.start() + 1 + offset) for m in itertools.islice(found, MAX_MOVE_CARDS + 3)
    ]
    if len(tokens) > MAX_MOVE_CARDS + 2:
        raise NotationError(
            text,
            Message(
                "notation.too_many_cards",
                "a move names at most {most} cards",
                most=str(MAX_MOVE_CARDS),
            ),
            line,
            tokens[-1][1],
        )
    if len(tokens) < 2:
        raise NotationError(text, Message('notation.move_player_then_action', "a move is a player then an action, such as 'P1 Draw'"), line,
                            1 + offset)  # fmt: skip
    (who, who_col), (verb, verb_col), *args = tokens
    m = _PLAYER.match(who)
    if not m:
        raise NotationError(
            text,
            Message("notation.not_player_p_p", "{who} is not a player (P0 to P4)", who=quote(who)),
            line,
            who_col,
        )
    player = int(m.group(1))
    if player > 4:
        raise NotationError(
            text,
            Message("notation.not_player_p_p", "{who} is not a player (P0 to P4)", who=quote(who)),
            line,
            who_col,
        )
    kind = _VERBS.get(verb.lower())
    if kind is None:
        raise NotationError(
            text, Message('notation.not_action_draw_pass', '{verb} is not an action (Draw, Pass, Chi, Pon, LayDown, LayOff, Discard)', verb=quote(verb)),
            line, verb_col,
        )  # fmt: skip
    if kind in (Draw, Pass):
        if args:
            raise NotationError(
                text,
                Message("notation.takes_no_cards", "{verb} takes no cards", verb=verb),
                line,
                args[0][1],
            )
        return kind(player)
    if not args:
        raise NotationError(
            text,
            Message("notation.needs_cards", "{verb} needs cards", verb=verb),
            line,
            verb_col + len(verb),
        )
    if kind is Discard:
        if len(args) != 1:
            raise NotationError(
                text,
                Message("notation.discard_takes_exactly_one", "Discard takes exactly one card"),
                line,
                args[-1][1],
            )
        return Discard(player, _card(args[0][0], text, line, args[0][1]))
    if kind is LayOff:
        if len(args) != 1 or ">" not in args[0][0]:
            raise NotationError(
                text,
                Message(
                    "notation.layoff_written_card_meld", "LayOff is written CARD>MELD, such as 8H>2"
                ),
                line,
                args[0][1],
            )
        token, col = args[0]
        card_text, _, target_text = token.partition(">")
        if not _TARGET.fullmatch(target_text) or int(target_text) > MAX_TARGET:
            raise NotationError(text, Message('notation.not_meld_number', '{target_text} is not a meld number (0 to {last})', target_text=quote(target_text, 20), last=str(MAX_TARGET)),
                                line, col + len(card_text) + 1)  # fmt: skip
        joker_as = None
        if card_text.upper().startswith("JK="):
            joker_as = _card(card_text[3:], text, line, col + 3)
            card_text = "JK"
        return LayOff(player, _card(card_text, text, line, col), int(target_text), joker_as)
    cards: list[Card] = []
    joker: Card | None = None
    for token, col in args:
        count = len(cards)
        if token.upper().startswith("(JK=") and token.endswith(")") and kind in (Chi, Pon):
            if joker is not None:
                raise NotationError(
                    text, Message("notation.only_one_joker", "only one joker"), line, col
                )
            joker = _card(token[4:-1], text, line, col + 4)  # the claimed card is the joker
        elif token.upper().startswith("JK="):
            if joker is not None:
                raise NotationError(
                    text, Message("notation.only_one_joker", "only one joker"), line, col
                )
            joker = _card(token[3:], text, line, col + 3)
            cards.append(_card("JK", text, line, col))
        else:
            cards.append(_card(token, text, line, col))
        if len(cards) > count and cards[-1] in cards[:-1]:  # at the second, however long the line
            raise NotationError(
                text,
                Message(
                    "notation.card_named_twice_at", "a card is named twice ({card})", card=cards[-1]
                ),
                line,
                col,
            )
    group: type[Chi] | type[Pon] | type[LayDown] = kind
    return group(player, tuple(cards), joker)
