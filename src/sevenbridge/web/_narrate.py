"""The list of recent moves, told from the games' events.

Each line of a seat's log is built from what :func:`sevenbridge.events`
(or :func:`sevenbridge.mahjong.events`) says that seat may know of a move,
in the seat's language: a seat's own draw names the card drawn ("You draw
7♥"), another seat's says only that a card was drawn, and a claim window's
answers stay unsaid until the window closes.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from .._kit.events import Event
from .._kit.i18n import N_, translate, translator
from ..errors import Message

__all__ = ["narrate"]

#: Kinds of events that make no line of their own: a pass, another seat's
#: answer in a claim window (it tells nothing until the window closes), the
#: window opening, and the end (the result box tells it).
_SILENT = frozenset({"pass", "answer", "window", "end"})

#: The words of events that come without the library's own text, by kind:
#: (about another seat, about the reader).
_WORDS = {
    "draw": (N_("{who} draws a card"), N_("You draw a card")),
    "draw_tile": (N_("{who} draws a tile"), N_("You draw a tile")),
    "discard": (N_("{who} discards {cards}"), N_("You discard {cards}")),
    "kong": (N_("{who} declares a kong of {cards}"), N_("You declare a kong of {cards}")),
    "mahjong": (N_("{who} declares mahjong"), N_("You declare mahjong")),
    "claim_stands": (N_("{who}'s {claim} stands: {cards}"), N_("Your {claim} stands: {cards}")),
    "claim_overridden": (N_("{who}'s claim gives way"), N_("Your claim gives way")),
    "reshuffle": (N_("The discards are shuffled into a new stock"),) * 2,
}

#: The claim a window closed on (a mahjong ``claim_stands`` names its kind;
#: the card game's is always a pon).
_CLAIMS = {"": N_("pon"), "pung": N_("pung"), "chow": N_("chow"), "kong": N_("kong"),
           "mahjong": N_("Mahjong")}  # fmt: skip

_SEAT = re.compile(r"P(\d{1,2})")


def _named(value: Any, names: Sequence[str]) -> Any:
    """A message's parameters with each seat (``P1``) by its table name."""
    if isinstance(value, Message):
        return Message(value.code, value.template,
                       **{k: _named(v, names) for k, v in value.params.items()})  # fmt: skip
    if isinstance(value, str) and (found := _SEAT.fullmatch(value)):
        k = int(found.group(1))
        return names[k] if k < len(names) else value
    if isinstance(value, tuple):
        return tuple(_named(v, names) for v in value)
    return value


def narrate(
    found: Sequence[Event],
    *,
    names: Sequence[str],
    you: int,
    lang: str,
    card: Callable[[str, str], str],
    symbols: bool = False,
    tiles: bool = False,
) -> str:
    """One move's events as one line of the log, in ``lang`` (empty: nothing
    to tell). ``card`` writes a card (or tile) in notation for the language;
    ``tiles``: the game's draws take tiles."""
    _ = translator(lang)
    told = []
    for event in found:
        if event.kind in _SILENT:
            continue
        if isinstance(event.text, Message):
            told.append(translate(_named(event.text, names), lang, symbols=symbols))
            continue
        kind = "draw_tile" if event.kind == "draw" and tiles else event.kind
        if kind not in _WORDS:
            continue
        mine = event.seat is not None and event.seat == you
        template = _WORDS[kind][1 if mine else 0]
        who = names[event.seat] if event.seat is not None and event.seat < len(names) else ""
        cards = " ".join(card(c, lang) for c in event.cards if c is not None)
        claim = _(_CLAIMS.get(str(event.text), str(event.text)))
        told.append(_(template).format(who=who, cards=cards, claim=claim))
    return _("; ").join(told)
