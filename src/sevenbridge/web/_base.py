"""What the web table needs of a game (:class:`TableGame`), and what both games share.

The server, the pages and the store know a game only through
:class:`TableGame`: how a series of deals starts and moves on, what a seat
may see, how a move reads and which cards (or tiles) it uses, how a finished
deal is counted. Each game provides it in a module of its own
(:mod:`sevenbridge.web._games` for Seven Bridge, :mod:`sevenbridge.web._mahjong`
for Simple Mahjong).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

__all__ = ["SharedMoves", "TableGame"]


class TableGame(Protocol):
    """One game as the web table plays it. ``Any`` stands for the game's own
    rules, series of deals (a match), positions, views and actions."""

    name: str
    """The game's name in :data:`sevenbridge.GAMES`."""
    title: str
    """Its name for people (an ``N_`` message)."""
    player_counts: tuple[int, ...]
    default_players: int
    #: The lobby's words for a match as long as the rules say (an ``N_`` message).
    match_text: str
    #: What one deal is called (``deal``; a mahjong ``round``), and the heading
    #: of its end (``Deal {k} is over``), as ``N_`` messages.
    deal_word: str
    deal_over: str
    #: The heading of the column of what each hand held at the end.
    hand_word: str
    #: The heading of the seat's own hand, to choose from (an ``N_`` message).
    hand_head: str
    #: The kinds of moves, in the order the page groups them: (kind, label).
    kinds: tuple[tuple[str, str], ...]
    #: The kinds of moves a person can try with the cards (or tiles) they chose.
    choosable: tuple[str, ...]
    #: The kinds of moves the list of recent moves leaves out (the passes).
    quiet: frozenset[str]

    def presets(self) -> tuple[str, ...]: ...
    def make_rules(self, preset: str, deals: int | None) -> Any: ...
    def rules_json(self, rules: Any) -> str: ...
    def read_rules(self, text: str) -> Any: ...
    def preset_name(self, rules: Any) -> str: ...
    def real_seats(self, rules: Any, players: int) -> tuple[int, ...]: ...
    def seat_total(self, rules: Any, players: int) -> int: ...
    def start(self, rules: Any, players: int, seed: int) -> Any: ...
    def apply(self, series: Any, action: Any) -> Any: ...
    def position(self, series: Any) -> Any: ...
    def finished(self, series: Any) -> Sequence[Any]: ...
    def series_over(self, series: Any) -> bool: ...
    def totals(self, series: Any) -> tuple[int, ...]: ...
    def winners(self, series: Any) -> tuple[int, ...]: ...
    def legal_actions(self, state: Any) -> Sequence[Any]: ...
    def automatic(self, legal: Sequence[Any]) -> Any: ...
    def passing(self, legal: Sequence[Any]) -> Any: ...
    def observe(self, state: Any, seat: int) -> Any: ...
    def bot_view(self, state: Any) -> Any: ...
    def parse_move(self, text: str) -> Any: ...
    def format_move(self, action: Any) -> str: ...
    def player(self, action: Any) -> int: ...
    def draw(self, view: Any, *, names: Sequence[str], lang: str) -> str: ...
    def status(self, view: Any, names: Sequence[str], lang: str) -> str: ...
    def hand(self, view: Any, lang: str) -> list[dict[str, str]]: ...
    def describe(
        self, action: Any, lang: str, view: Any, names: Sequence[str]
    ) -> dict[str, Any]: ...
    def words(
        self, before: Any, action: Any, after: Any, names: Sequence[str], you: int, lang: str
    ) -> str:
        """A move played, in words, as ``you`` may know it (the game's ``move_words``)."""
        ...

    def selection(self, seat: int, kind: str, cards: Sequence[str], target: int | None) -> Any: ...
    def same_cards(self, one: Any, other: Any) -> bool: ...
    def explain(self, state: Any, action: Any, lang: str) -> str: ...
    def deal_result(
        self, final: Any, seat: int, names: Sequence[str], lang: str
    ) -> dict[str, Any]: ...


class SharedMoves:
    """What both games' moves have in common: each names its ``player``, a
    claim window offers a ``Pass`` (:meth:`passing`), and :meth:`used` says
    which of the hand's cards or tiles a move takes."""

    def used(self, action: Any) -> tuple[Any, ...]:
        """The hand's cards (or tiles) a move names."""
        raise NotImplementedError

    def player(self, action: Any) -> int:
        return int(action.player)

    def passing(self, legal: Sequence[Any]) -> Any:
        """The pass among ``legal``, or ``None``: a decision with one is a claim
        window, and the pass is what the claim clock plays when it runs out."""
        return next((a for a in legal if type(a).__name__ == "Pass"), None)

    def automatic(self, legal: Sequence[Any]) -> Any:
        """A lone pass, or ``None``: a move that was no choice (an undo goes back
        past it to the person's last real choice)."""
        return legal[0] if len(legal) == 1 and self.passing(legal) is not None else None

    def same_cards(self, one: Any, other: Any) -> bool:
        """Whether two moves are of one kind, by one player, with the same cards
        (they may differ in what a joker stands for, or a lay-off's meld)."""
        return (
            type(one) is type(other)
            and self.player(one) == self.player(other)
            and self.used(one) == self.used(other)
        )
