"""What a move did, as facts: :func:`events`, for tables that animate a deal.

A user interface that shows one position after another must otherwise diff
them to learn that a card went from the stock to a hand, that a pon now waits
or that the deal ended. :func:`events` says it, seen by one viewer: a card the
viewer may not see is ``None``, so a server can send each seat its own list.

>>> from sevenbridge import deal, Draw
>>> state = deal(seed=1)
>>> [e.kind for e in events(state, Draw(1), viewer=0)]
['draw']
>>> events(state, Draw(1), viewer=0)[0].cards, events(state, Draw(1), viewer=1)[0].cards
((None,), ('9S',))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ._kit.events import EVENT_KINDS, EVENT_SCHEMA, Event, narration, the_move
from .actions import Action, Chi, Discard, Draw, LayDown, LayOff, Pass, Pon
from .cards import Card
from .engine import apply
from .errors import InvalidArgumentError, Message
from .state import GameState, Phase
from .text import _held, _pon_gave_way, move_message
from .views import Observation, observe

__all__ = ["EVENT_KINDS", "EVENT_SCHEMA", "Event", "events", "narration"]


def events(
    before: GameState | Observation,
    action: Action,
    after: GameState | Observation | None = None,
    *,
    viewer: int | None = None,
    names: Sequence[str] | None = None,
) -> tuple[Event, ...]:
    """The facts of one move, in order: the move itself (``draw``,
    ``discard``, ``pass``, ``chi``, ``pon``, ``lay_down``, ``lay_off``), then
    what followed from it: a claim that waits for the window to close
    (``claim_waits``), a waiting pon that stands when the window closes
    (``claim_stands``) or gives way to another claim (``claim_overridden``), a
    claim window that opens on a discard (``window``, with the seats it asks in
    order), the discards shuffled into a new stock (``reshuffle``) and the end
    of the deal (``end``, with the winner and everyone's score).

    Args:
        before: The position the move was played in (a state, or a view).
        action: The move.
        after: The position after it (default: ``apply(before, action)``, which
            needs a state).
        viewer: The seat whose view the facts keep to: the cards it may not see
            are ``None`` (a view's own viewer by default; with states and no
            viewer, every card is shown).
        names: The seats' names in the words (default ``P0``, ``P1``, ...).

    Each event's ``text`` is the move (or what followed) in words, as
    :func:`sevenbridge.text.move_words` tells it to the viewer ("You ..." for
    the viewer's own moves; a draw names its card to the viewer who drew it,
    and to everyone with no viewer, who sees every card); a pon that gives way
    says so. Events that add nothing to the words before them (a pon that
    stands, told with the pass that closed the window; a window that opens;
    a reshuffle, told with the move) have none.

    >>> from sevenbridge import position, Pon
    >>> table = position('''
    ... P0: 2C 3D 5S
    ... P1: 4H 6H 9S 9H
    ... P2: 9C 4D 4S
    ... discards: 9D
    ... discarder: P0
    ... turn: P1 pon
    ... ''')
    >>> [(e.kind, e.seat, e.cards) for e in events(table, Pon(1, "9S 9H"))]
    [('pon', 1, ('9D', '9H', '9S'))]
    """
    before, after, viewer = the_move(
        before, action, after, viewer, GameState, Observation, observe, apply
    )
    p = action.player
    text = move_message(before, action, after, names=names, you=viewer, face_up=viewer is None)
    found: list[Event] = []
    melds = len(before.melds)
    if isinstance(action, Draw):
        drawn = _drawn(before, after, p)
        found.append(Event("draw", p, drawn, text=text))
    elif isinstance(action, Pass):
        found.append(Event("pass", p, text=text))
        if len(after.melds) > melds:  # the window closed on a waiting pon
            made = after.melds[-1]
            found.append(Event("claim_stands", made.owner, _names(made.cards), melds))
    elif isinstance(action, (Chi, Pon)):
        kind = "chi" if isinstance(action, Chi) else "pon"
        if len(after.melds) == melds:  # it waits for the others to be asked
            top = before.top_discard
            cards = (str(top) if top is not None else None, *_names(action.cards))
            found.append(Event("claim_waits", p, cards, text=text))
        else:
            found.append(Event(kind, p, _names(after.melds[-1].cards), melds, text=text))
    elif isinstance(action, LayDown):
        found.append(Event("lay_down", p, _names(after.melds[-1].cards), melds, text=text))
    elif isinstance(action, LayOff):
        found.append(Event("lay_off", p, _names((action.card,)), action.target, text=text))
    elif isinstance(action, Discard):
        found.append(Event("discard", p, _names((action.card,)), text=text))
    else:  # pragma: no cover - every action kind is above
        raise InvalidArgumentError(Message("invalid_argument.not_an_action", "not an action"))
    waiting = before.pending_pon
    if (
        waiting is not None
        and after.pending_pon != waiting
        and not _stood(after, waiting[0], melds)
    ):
        gave_way = _pon_gave_way(waiting[0], names=names, you=viewer)
        found.append(Event("claim_overridden", waiting[0], text=gave_way))
    if after.phase is Phase.CLAIM and before.phase is not Phase.CLAIM:
        asked = (after.current_player, *after.claim_queue)
        found.append(Event("window", after.discarder, _names(after.discard_pile[-1:]),
                           seats=tuple(s for s in asked if s is not None)))  # fmt: skip
    if after.reshuffles > before.reshuffles:
        found.append(Event("reshuffle", None, (None,) * after.stock_size))
    if after.is_over and not before.is_over:
        found.append(Event("end", after.winner, scores=tuple(after.deal_scores or ()),
                           text=str(after.end_reason or "")))  # fmt: skip
    return tuple(found)


def _drawn(before: Any, after: Any, player: int) -> tuple[str | None]:
    """The card ``player`` drew, if the positions show it."""
    mine, then = _held(before, player), _held(after, player)
    if mine is None or then is None:
        return (None,)
    new = [c for c in then if c not in mine]
    return (str(new[0]),) if len(new) == 1 else (None,)


def _stood(after: Any, player: int, melds: int) -> bool:
    """Whether a new meld of ``player``'s is on the table (their waiting claim stood)."""
    return any(m.owner == player for m in after.melds[melds:])


def _names(cards: tuple[Card, ...]) -> tuple[str, ...]:
    return tuple(str(c) for c in cards)
