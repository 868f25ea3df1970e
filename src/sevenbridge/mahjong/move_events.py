"""What a move did, as facts: :func:`events`, the card game's
:func:`sevenbridge.events` for Simple Mahjong.

A claim window's answers are secret until the window closes: a viewer learns
that another seat answered (``answer``), and when the window closes which
claim stood (``claim_stands``) and whether its own claim gave way
(``claim_overridden``).

>>> from sevenbridge.mahjong import deal, Draw
>>> state = deal(seed=1)
>>> [(e.kind, e.cards) for e in events(state, Draw(0), viewer=1)]
[('draw', (None,))]
"""

from __future__ import annotations

from collections.abc import Sequence

from .._kit.events import Event, the_move
from ..errors import InvalidArgumentError, Message
from .actions import Action, Chow, Discard, Draw, Kong, Mahjong, Pass, Pung
from .engine import apply
from .state import GameState, Phase
from .text import (
    _answer_message,
    _concealed,
    _gave_way_message,
    _stands_message,
    _winner_points,
    move_message,
)
from .views import Observation, observe

__all__ = ["events"]

_CLAIM_KIND = {Chow: "chow", Pung: "pung", Kong: "kong", Mahjong: "mahjong"}


def events(
    before: GameState | Observation,
    action: Action,
    after: GameState | Observation | None = None,
    *,
    viewer: int | None = None,
    names: Sequence[str] | None = None,
) -> tuple[Event, ...]:
    """The facts of one move, in order, as ``viewer`` may know them (see
    :func:`sevenbridge.events`): the move (``draw``, ``discard``, a kong
    from the hand, a self-drawn ``mahjong``; in a claim window, the seat's own
    ``pass`` or claim as ``claim_waits``, another seat's as ``answer``), then
    what followed: the window closing on a claim (``claim_stands``, the meld by
    its place in :attr:`~sevenbridge.mahjong.GameState.melds`), a claim that
    gave way (``claim_overridden``, told to its own seat), a window that opens
    (``window``, the seats it asks in order) and the end of the round
    (``end``, with the winner and the scores).

    Each event's ``text`` is in words, as
    :func:`sevenbridge.mahjong.text.move_words` tells the move to ``viewer``
    (the seats by ``names``, default ``P0``, ``P1``, ...): another seat's
    answer in a claim window says only that it answered; a claim that stands
    or gives way says so. A window that opens and the end of the round have
    no words (the table and the round's result tell them).

    >>> from sevenbridge.mahjong import deal, legal_actions, apply
    >>> state = deal(seed=2)
    >>> state = apply(state, legal_actions(state)[0])
    >>> discard = legal_actions(state)[-1]
    >>> [e.kind for e in events(state, discard)]
    ['discard', 'window']
    """
    before, after, viewer = the_move(
        before, action, after, viewer, GameState, Observation, observe, apply
    )
    p = action.player
    sees = viewer is None or viewer == p
    secret = before.phase is Phase.CLAIM and not sees  # another seat's answer
    text = "" if secret else move_message(before, action, after, names=names, you=viewer)
    found: list[Event] = []
    melds = len(before.melds)
    if isinstance(action, Draw):
        mine, then = _concealed(before, p), _concealed(after, p)
        drawn = list(then or ())
        for tile in mine or ():
            if tile in drawn:
                drawn.remove(tile)
        shown = str(drawn[0]) if mine is not None and then is not None and len(drawn) == 1 else None
        found.append(Event("draw", p, (shown,), text=text))
    elif isinstance(action, Discard):
        found.append(Event("discard", p, (str(action.tile),), text=text))
    elif before.phase is Phase.CLAIM:
        if not sees:
            found.append(Event("answer", p, text=_answer_message(p, names, viewer)))
        elif isinstance(action, Pass):
            found.append(Event("pass", p, text=text))
        else:
            found.append(Event("claim_waits", p, _tiles(action, before), text=text))
    elif isinstance(action, Kong):  # from the hand, on the seat's own turn
        found.append(Event("kong", p, (str(action.tile),), _changed(before, after), text=text))
    elif isinstance(action, Mahjong):
        found.append(Event("mahjong", p, text=text))
    else:  # pragma: no cover - every action kind is above
        raise InvalidArgumentError(Message("invalid_argument.not_an_action", "not an action"))
    if before.phase is Phase.CLAIM and after.phase is not Phase.CLAIM:  # the window closed
        found.extend(_closed(before, after, melds, viewer, names))
    if after.phase is Phase.CLAIM and before.phase is not Phase.CLAIM:
        asked = (after.current_player, *after.asking)
        last = after.last_discard
        found.append(Event("window", after.turn, (str(last) if last else None,), seats=asked))
    if after.is_over and not before.is_over:
        won = _winner_points(after) if after.winner is not None else 0
        scores = tuple(won if s == after.winner else 0 for s in range(after.seats))
        found.append(Event("end", after.winner, scores=scores))
    return tuple(found)


def _closed(
    before: GameState | Observation,
    after: GameState | Observation,
    melds: int,
    viewer: int | None,
    names: Sequence[str] | None,
) -> list[Event]:
    """What a claim window's close showed: the claim that stood, if any, and
    the claims that gave way (the viewer's own, or all with every card seen)."""
    out: list[Event] = []
    stood: int | None = None
    if len(after.melds) > melds:
        made = after.melds[-1]
        stood = made.owner
        kind = made.kind.value if made.kind.value in ("chow", "pung", "kong") else "pung"
        said = _stands_message(before, after, made.owner or 0, kind, made.tiles, names, viewer)
        out.append(Event("claim_stands", stood, tuple(str(t) for t in made.tiles), melds,
                         text=said))  # fmt: skip
    elif after.is_over and after.winner is not None and not after.self_drawn:
        stood = after.winner
        said = _stands_message(before, after, stood, "mahjong", (), names, viewer)
        out.append(Event("claim_stands", stood, (str(before.last_discard),), text=said))
    made_claims = before.claims if isinstance(before, GameState) else before.own_claims
    for claim in made_claims:
        gave_way = not isinstance(claim, Pass) and claim.player != stood
        if gave_way and (viewer is None or claim.player == viewer):
            said = _gave_way_message(claim, names, viewer)
            out.append(Event("claim_overridden", claim.player, _tiles(claim, before), text=said))
    return out


def _changed(before: GameState | Observation, after: GameState | Observation) -> int | None:
    """The place of the meld a move made or grew."""
    if len(after.melds) > len(before.melds):
        return len(after.melds) - 1
    return next(
        (k for k, (a, b) in enumerate(zip(before.melds, after.melds, strict=True)) if a != b), None
    )


def _tiles(claim: Action, before: GameState | Observation) -> tuple[str, ...]:
    """The tiles a claim names: a chow's two from the hand, else the discard claimed."""
    if isinstance(claim, Chow):
        return tuple(str(t) for t in claim.tiles)
    return (str(before.last_discard),) if before.last_discard is not None else ()
