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

from .._kit.events import narration
from .._kit.i18n import N_, translate
from ..games import game_module, game_part

__all__ = ["ProtocolTable", "SharedMoves", "TableGame"]


#: Events that make no line of a seat's log (see ProtocolTable.log_line).
_QUIET = frozenset({"pass", "answer", "window", "end"})


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
    def draw(self, view: Any, *, names: Sequence[str], lang: str, layout: str = ...) -> str: ...
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

    def events(self, before: Any, action: Any, after: Any, seat: int) -> list[dict[str, Any]]:
        """The facts of a move as ``seat`` may know them, as JSON (the game's ``events``)."""
        ...

    def log_line(
        self, before: Any, action: Any, after: Any, names: Sequence[str], you: int, lang: str
    ) -> str:
        """A move as a line of ``you``'s log, told from the move's events as
        ``you`` may know them (empty: nothing to tell, such as a pass)."""
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


class ProtocolTable(SharedMoves):
    """The part of a :class:`TableGame` that the game protocol
    (:class:`sevenbridge.GameModule`) answers, for each game's table to build
    on: the game's name, table sizes and presets, its rules as JSON, who sits
    where, the engine, views, notation, drawings, moves in words and
    explanations. A game's table adds its series of deals and its page's words."""

    #: The game's name in :data:`sevenbridge.GAMES` (each game's table sets it).
    name: str
    #: Whether the explanations write cards with suit symbols.
    explain_symbols: bool = False

    def __init__(self) -> None:
        self.module: Any = game_module(self.name)
        self.player_counts: tuple[int, ...] = self.module.PLAYER_COUNTS
        self.default_players: int = self.module.GAME.players
        self._svg = game_part(self.name, "svg")
        self._text = game_part(self.name, "text")

    def presets(self) -> tuple[str, ...]:
        presets: tuple[str, ...] = self.module.Rules.presets()
        return presets

    def rules_json(self, rules: Any) -> str:
        return str(rules.to_json())

    def read_rules(self, text: str) -> Any:
        return self.module.Rules.from_json(text)

    def real_seats(self, rules: Any, players: int) -> tuple[int, ...]:
        return tuple(self.module.seats(self.module.deal(rules, players=players, seed=0)))

    def seat_total(self, rules: Any, players: int) -> int:
        return len(self.module.returns(self.module.deal(rules, players=players, seed=0)))

    def legal_actions(self, state: Any) -> Sequence[Any]:
        legal: Sequence[Any] = self.module.legal_actions(state)
        return legal

    def observe(self, state: Any, seat: int) -> Any:
        return self.module.observe(state, seat)

    def bot_view(self, state: Any) -> Any:
        return self.module.observe(state)

    def parse_move(self, text: str) -> Any:
        return self.module.parse_move(text)

    def format_move(self, action: Any) -> str:
        return str(self.module.format_move(action))

    def draw(self, view: Any, *, names: Sequence[str], lang: str, layout: str = "wide") -> str:
        return str(self._svg.table(view, names=names, lang=lang, layout=layout))

    def explain(self, state: Any, action: Any, lang: str) -> str:
        return translate(self.module.explain(state, action), lang, symbols=self.explain_symbols)

    def words(
        self, before: Any, action: Any, after: Any, names: Sequence[str], you: int, lang: str
    ) -> str:
        """A move played, in words, as ``you`` may know it (the game's ``move_words``)."""
        return str(self._text.move_words(before, action, after, names=names, you=you, lang=lang))

    def events(self, before: Any, action: Any, after: Any, seat: int) -> list[dict[str, Any]]:
        """The facts of a move as ``seat`` may know them, as JSON (the game's ``events``)."""
        return [e.to_dict() for e in self.module.events(before, action, after, viewer=seat)]

    def log_line(
        self, before: Any, action: Any, after: Any, names: Sequence[str], you: int, lang: str
    ) -> str:
        """A move as a line of ``you``'s log, in the words of the move's
        events as ``you`` may know them (:func:`sevenbridge.narration`, the
        words the viewer and the terminal tell too); empty when there is
        nothing to tell: a pass, an answer to a claim window (told when the
        window closes), the window's opening, the end (the result box tells
        it)."""
        found = self.module.events(before, action, after, viewer=you, names=names)
        told = narration([e for e in found if e.kind not in _QUIET], lang,
                         symbols=self.explain_symbols)  # fmt: skip
        return translate(N_("; "), lang).join(told)
