"""What one move did, as facts a table can animate: the games' ``events``."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import attrs

from ..errors import InvalidArgumentError, Message
from .i18n import N_, translate
from .words import Listing

__all__ = [
    "EVENT_KINDS", "EVENT_SCHEMA", "Event", "Narrator", "narration", "seen_by", "the_move",
]  # fmt: skip

#: Every kind of event, in both games: a move's own (``draw``, ``discard``,
#: ``pass``, the claims and melds), and what followed from it (a claim that
#: waits, stands or is overridden, a claim window that opens, a reshuffle, the
#: end of the deal or round). ``answer`` is a mahjong claim window's answer
#: (a pass or a claim) as the other seats know it: that the seat answered.
EVENT_KINDS = (
    "draw", "discard", "pass", "chi", "pon", "chow", "pung", "kong", "lay_down", "lay_off",
    "mahjong", "answer", "claim_waits", "claim_stands", "claim_overridden", "window",
    "reshuffle", "end",
)  # fmt: skip


@attrs.frozen
class Event:
    """One fact of a move, seen by one viewer (or by everyone who sees every
    card): a frozen value that writes itself as JSON (:meth:`to_dict`).

    A card (or tile) the viewer cannot see is ``None`` in :attr:`cards`; a meld
    is named by its stable id (:attr:`meld`), the place it took on the table
    (the card game) or in its owner's row (mahjong) when it was made.
    """

    kind: str
    """One of :data:`~sevenbridge.move_events.EVENT_KINDS`."""
    seat: int | None = None
    """The seat the event is about (who moved, whose claim, who won), or ``None``."""
    cards: tuple[str | None, ...] = ()
    """The cards (tiles) in notation, ``None`` for one the viewer may not see."""
    meld: int | None = None
    """The meld made or laid off on, by its id, or ``None``."""
    seats: tuple[int, ...] = ()
    """The seats a claim window asks, in order (``window``)."""
    scores: tuple[int, ...] = ()
    """Each seat's score (``end``)."""
    text: str = ""
    """The event in English words (a :class:`~sevenbridge.errors.Message` when
    the library wrote it: :func:`sevenbridge.translate` gives other languages)."""

    def to_dict(self) -> dict[str, Any]:
        """The event as a JSON object (see :data:`~sevenbridge.move_events.EVENT_SCHEMA`)."""
        return {
            "kind": self.kind,
            "seat": self.seat,
            "cards": list(self.cards),
            "meld": self.meld,
            "seats": list(self.seats),
            "scores": list(self.scores),
            "text": str(self.text),
        }


#: The JSON Schema of :meth:`Event.to_dict`'s objects.
EVENT_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "event",
    "type": "object",
    "additionalProperties": False,
    "required": ["kind", "seat", "cards", "meld", "seats", "scores", "text"],
    "properties": {
        "kind": {"enum": list(EVENT_KINDS)},
        "seat": {"type": ["integer", "null"], "minimum": 0},
        "cards": {"type": "array", "items": {"type": ["string", "null"]}},
        "meld": {"type": ["integer", "null"], "minimum": 0},
        "seats": {"type": "array", "items": {"type": "integer", "minimum": 0}},
        "scores": {"type": "array", "items": {"type": "integer"}},
        "text": {"type": "string"},
    },
}


#: The words of a run of other seats' passes (a claim window's answers) told
#: as one line: ``P1, P2 pass``.
_FOLDED = {
    "pass": ("event.passes", N_("{who} pass")),
    "answer": ("event.answers", N_("{who} answer the claim window")),
}


class Narrator:
    """Tells events in words as they come, a line for each event that has
    words (its :attr:`~Event.text`, translated), in order; a run of other
    seats' passes (in Simple Mahjong, their answers to a claim window) is told
    as one line, once the run ends (:meth:`tell` of an event that ends it, or
    :meth:`flush`). The end of a deal (a round) is left out: its result is
    told in full apart. :func:`narration` tells a list of events at once.
    """

    def __init__(self, lang: str | None = None, *, symbols: bool = True) -> None:
        self.lang = lang
        self.symbols = symbols
        self._run: list[Event] = []

    def tell(self, events: Iterable[Event]) -> list[str]:
        """The lines ready to be told after ``events`` (a run of passes waits)."""
        out: list[str] = []
        for event in events:
            if not event.text or event.kind == "end":
                continue
            if _foldable(event):
                if self._run and self._run[-1].kind != event.kind:
                    out += self.flush()
                self._run.append(event)
                continue
            out += self.flush()
            out.append(self._say(event.text))
        return out

    def flush(self) -> list[str]:
        """The run of passes (answers) told so far, as one line (none if there is none)."""
        run, self._run = self._run, []
        if len(run) <= 1:
            return [self._say(e.text) for e in run]
        code, template = _FOLDED[run[0].kind]
        who = Listing(getattr(e.text, "params", {})["who"] for e in run)
        return [self._say(Message(code, template, who=who))]

    def _say(self, text: str) -> str:
        return translate(text, self.lang, symbols=self.symbols)


def _foldable(event: Event) -> bool:
    """Whether ``event`` is another seat's plain pass (answer), told of it by name."""
    text = event.text
    return (
        event.kind in _FOLDED
        and isinstance(text, Message)
        and text.code.endswith("." + event.kind)
        and "who" in text.params
    )


def narration(
    events: Iterable[Event], lang: str | None = None, *, symbols: bool = True
) -> list[str]:
    """Events told in words, as the replay viewer, the terminal game and the
    demo tell a move: a line for each event that has words (its
    :attr:`~Event.text`, translated), in order, other seats' passes in a row
    (a mahjong claim window's answers) as one line. The end of a deal (a
    round) is left out: its result is told in full apart.

    Args:
        events: Events of one or more moves (:func:`sevenbridge.events`,
            :func:`sevenbridge.mahjong.events`), as one viewer knows them.
        lang: ``None`` or ``"en"`` (English), or ``"ja"``.
        symbols: Cards with suit symbols (``7♥``), not letters (``7H``).

    >>> from sevenbridge import deal, Draw, events
    >>> narration(events(deal(seed=1), Draw(1), viewer=1))
    ['You draw 9♠']
    >>> narration(events(deal(seed=1), Draw(1), viewer=0), "ja")
    ['P1が山札から引いた']
    """
    teller = Narrator(lang, symbols=symbols)
    return teller.tell(events) + teller.flush()


def seen_by(
    position: Any, viewer: int, state_type: type, observe: Callable[[Any, int], Any]
) -> Any:
    """``position`` as ``viewer`` sees it: a state observed, a view kept if it is
    the viewer's own (the games' ``events`` start here).

    Raises:
        InvalidArgumentError: for another seat's view.
    """
    if isinstance(position, state_type):
        return observe(position, viewer)
    if position.viewer != viewer:
        raise InvalidArgumentError(
            Message(
                "invalid_argument.events_other_viewer",
                "events: viewer {viewer} differs from the view's own ({own})",
                viewer=str(viewer),
                own=str(position.viewer),
            )
        )
    return position


def the_move(
    before: Any,
    action: Any,
    after: Any,
    viewer: int | None,
    state_type: type,
    view_type: type,
    observe: Callable[[Any, int], Any],
    apply: Callable[[Any, Any], Any],
) -> tuple[Any, Any, int | None]:
    """The two positions of a move as its ``events`` read them, and the viewer:
    ``after`` played when not given (from a state), the viewer a view's own by
    default, and both positions as that viewer sees them (both games' ``events``).

    Raises:
        TypeError: for a view without the position after the move.
        InvalidArgumentError: for another seat's view.
    """
    if after is None:
        if not isinstance(before, state_type):
            raise TypeError("events needs the position after the move with a view")
        after = apply(before, action)
    if viewer is None and isinstance(before, view_type):
        viewer = int(getattr(before, "viewer"))  # noqa: B009 (a type given at run time)
    if viewer is not None:
        before = seen_by(before, viewer, state_type, observe)
        after = seen_by(after, viewer, state_type, observe)
    return before, after, viewer
