"""What both games' words for moves and results share: seats named, "you"
for the person reading, and points counted (see :func:`sevenbridge.text.move_words`
and :func:`sevenbridge.mahjong.text.move_words`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..errors import Message as M
from .i18n import register_format, translate, translator

__all__ = ["Listing", "Said", "points_words", "said", "seat_name", "whose"]


class Listing(str):
    """Items listed in a message, and translated with it: ``P0 1, P1 0`` in
    English, ``P0 1、P1 0`` in Japanese.

    >>> translate(M("x", "Totals: {totals}", totals=Listing(["P0 1", "P1 0"])), "ja")
    '累計：P0 1、P1 0'
    """

    items: tuple[str, ...]

    def __new__(cls, items: Iterable[str]) -> Listing:
        listed = tuple(items)
        self = super().__new__(cls, ", ".join(listed))
        self.items = listed
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (Listing, (self.items,))


def _listing_text(listing: Listing, lang: str) -> str:
    return translator(lang)(", ").join(translate(item, lang) for item in listing.items)


register_format(Listing, _listing_text)

#: Each kind of move in words: ``(code, template)`` said of another seat, then
#: said to the person playing (English verbs agree with "you").
Said = Mapping[str, tuple[tuple[str, str], tuple[str, str]]]


def seat_name(player: int, names: Sequence[str] | None = None) -> str:
    """A seat's name: its name in ``names``, else ``P0``, ``P1``, ...

    >>> seat_name(2), seat_name(1, ["Ann", "Bo"])
    ('P2', 'Bo')
    """
    return names[player] if names is not None else f"P{player}"


def whose(player: int, names: Sequence[str] | None, you: int | None) -> str:
    """A seat's, as a possessive: ``your`` for the person reading."""
    if player == you:
        return M("whose.you", "your")
    return M("whose", "{name}'s", name=seat_name(player, names))


def said(
    words: Said, kind: str, player: int, names: Sequence[str] | None, you: int | None,
    **params: Any,
) -> str:  # fmt: skip
    """The move of ``kind`` by ``player``, as a message: told to the person
    reading when ``player`` is ``you``, else of the seat by its name (``who``)."""
    (code, text), (you_code, you_text) = words[kind]
    if player == you:
        return M(you_code, you_text, **params)
    return M(code, text, who=seat_name(player, names), **params)


def points_words(points: int) -> str:
    """``1 point``, ``5 points``."""
    if points in (1, -1):
        return M("count.point", "{n} point", n=points)
    return M("count.points", "{n} points", n=points)
