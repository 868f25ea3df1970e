"""Seven Bridge at the web table (:class:`CardTableGame`: a match of deals, seen
through :class:`~sevenbridge.web._base.TableGame`), and :data:`TABLE_GAMES`,
the games the table offers: a new game is a module like
:mod:`sevenbridge.web._mahjong` and a line there.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from .. import svg
from .._kit.i18n import N_, translate, translator
from .._tables import bits
from ..actions import Action, Chi, Discard, Draw, LayDown, LayOff, Pass, Pon
from ..cards import CARDS, Card
from ..engine import legal_actions
from ..errors import InvalidArgumentError, Message
from ..games import CARD_GAME
from ..match import Match
from ..rules import Rules, Scoring
from ..scoring import explain_hand_points, hand_points
from ..state import GameState, Phase
from ..svg import _preset_name
from ..text import (
    MOVE_KINDS,
    _card_word,
    _cards_words,
    deal_message,
    move_label,
)
from ..views import Observation, observe
from ._base import ProtocolTable, TableGame
from ._mahjong import MahjongTableGame

__all__ = ["TABLE_GAMES", "CardTableGame"]


_DOING = {
    Phase.CLAIM: N_("{player} to pon or pass"),
    Phase.DRAW: N_("{player} to draw or chi"),
    Phase.PLAY: N_("{player} to meld, lay off and discard"),
}
#: The same, for the seat whose turn it is, by the kinds of moves it has: the
#: status names only moves that exist (no "chi" when no chi is possible).
_YOUR_DOING = {
    frozenset({"Pon", "Pass"}): N_("pon or pass"),
    frozenset({"Pass"}): N_("pass (nothing to pon)"),
    frozenset({"Draw", "Chi"}): N_("draw or chi"),
    frozenset({"Draw"}): N_("draw from the stock"),
    frozenset({"LayDown", "LayOff", "Discard"}): N_("meld, lay off and discard"),
    frozenset({"LayDown", "Discard"}): N_("meld and discard"),
    frozenset({"LayOff", "Discard"}): N_("lay off and discard"),
    frozenset({"Discard"}): N_("discard"),
}


def _used(action: Action) -> tuple[Card, ...]:
    """The hand cards a move uses."""
    if isinstance(action, (Chi, Pon, LayDown)):
        return action.cards
    if isinstance(action, (LayOff, Discard)):
        return (action.card,)
    return ()


class CardTableGame(ProtocolTable):
    """Seven Bridge at the web table: a :class:`~sevenbridge.Match` of deals."""

    name: str = CARD_GAME
    title: str = N_("Seven Bridge")
    explain_symbols = True
    match_text: str = N_("a match: the rules decide (one deal per player)")
    deal_word: str = N_("deal")
    deal_over: str = N_("Deal {k} is over")
    hand_word: str = N_("Cards left")
    hand_head: str = N_("Your hand (click to choose)")
    kinds: tuple[tuple[str, str], ...] = MOVE_KINDS
    choosable: tuple[str, ...] = ("LayDown", "Chi", "Pon", "Discard")

    def used(self, action: Action) -> tuple[Card, ...]:
        return _used(action)

    def make_rules(self, preset: str, deals: int | None) -> Rules:
        rules = Rules.preset(preset)
        return rules if deals is None else attrs.evolve(rules, deals=deals)

    def preset_name(self, rules: Rules) -> str:
        return _preset_name(rules)

    def start(self, rules: Rules, players: int, seed: int) -> Match:
        return Match.start(rules, players=players, seed=seed)

    def apply(self, series: Match, action: Action) -> Match:
        return series.apply(action)

    def position(self, series: Match) -> GameState:
        return series.state

    def finished(self, series: Match) -> Sequence[GameState]:
        return [r.final for r in series.results]

    def series_over(self, series: Match) -> bool:
        return series.is_over

    def totals(self, series: Match) -> tuple[int, ...]:
        return series.totals

    def winners(self, series: Match) -> tuple[int, ...]:
        return series.winners

    def status(self, view: Observation, names: Sequence[str], lang: str) -> str:
        _ = translator(lang)
        if view.phase is Phase.OVER:
            return translate(deal_message(view, names=names, you=view.viewer)[0], lang)
        assert view.current_player is not None
        if view.current_player == view.viewer:
            kinds = frozenset(type(a).__name__ for a in legal_actions(view))
            doing = _YOUR_DOING.get(kinds, _DOING[view.phase].removeprefix("{player} to "))
            return _("Your turn: {doing}").format(doing=_(doing))
        return _(_DOING[view.phase]).format(player=names[view.current_player])

    def hand(self, view: Observation, lang: str) -> list[dict[str, str]]:
        return [
            {
                "card": str(c),
                "label": _card_word(c, lang),
                "name": svg.card_name(c, lang),
                "svg": svg.card(c, size=52, lang=lang),
            }
            for c in view.hand
        ]

    def describe(
        self,
        action: Action,
        lang: str,
        view: Observation,
        names: Sequence[str],
    ) -> dict[str, Any]:
        """A move to choose, for the page: its kind, its label and the hand
        cards it uses (a lay-off names its meld by its owner and cards, and
        gives its index on the table as ``target``: the drawing's ``meld-N``)."""
        kind = type(action).__name__
        label = move_label(action, view, names=names, lang=lang)
        cards = _used(action)
        move: dict[str, Any] = {
            "kind": kind,
            "label": label,
            "short": label.removeprefix(translator(lang)(dict(MOVE_KINDS)[kind])).strip(),
            "cards": [str(c) for c in cards],
            "notation": str(action),
        }
        if isinstance(action, LayOff):
            move["target"] = action.target
        return move

    def selection(self, seat: int, kind: str, cards: Sequence[str], target: int | None) -> Action:
        """The move of ``kind`` with the chosen cards (it may be illegal: the
        engine then says why).

        Raises:
            SevenBridgeError: for cards or a kind that make no move at all.
        """
        if kind == "Draw":
            return Draw(seat)
        if kind == "Pass":
            return Pass(seat)
        if kind == "Chi":
            return Chi(seat, " ".join(cards))
        if kind == "Pon":
            return Pon(seat, " ".join(cards))
        if kind == "LayDown":
            return LayDown(seat, " ".join(cards))
        if kind in ("LayOff", "Discard") and len(cards) == 1:
            if kind == "Discard":
                return Discard(seat, cards[0])
            return LayOff(seat, cards[0], 0 if target is None else target)
        raise InvalidArgumentError(
            Message("invalid_argument.web_selection", "choose exactly one card for this move")
        )

    def deal_result(
        self, final: GameState, seat: int, names: Sequence[str], lang: str
    ) -> dict[str, Any]:
        """A finished deal, from ``seat``'s view of its end (every hand is shown
        then): each hand left, what it counts, and the deal's scores."""
        _ = translator(lang)
        view = observe(final, seat)
        rules = view.rules
        scores = view.deal_scores or (0,) * view.players
        shown = view.shown_hands or (0,) * view.players
        rows = []
        for p in range(view.players):
            left = tuple(CARDS[i] for i in bits(shown[p]))
            rows.append(
                {
                    "seat": p,
                    "cards": _cards_words(left, None, lang) or "-",
                    "points": hand_points(left, rules),
                    "why": ""
                    if p == view.winner
                    else translate(explain_hand_points(left, rules), lang, symbols=True),
                    "score": scores[p],
                    "winner": p == view.winner,
                }
            )
        penalty = rules.scoring is Scoring.PENALTY
        end = deal_message(view, names=names, you=seat)
        return {
            "reason": translate(end[0], lang, symbols=True),
            "notes": [
                translate(line, lang)
                for line in end
                if isinstance(line, Message) and line.code.endswith(("meaning", "bonus"))
            ],
            "rows": rows,
            "score_label": _("Penalty points") if penalty else _("Score"),
            "lowest_wins": penalty,
        }


#: The games the web table offers, by name.
TABLE_GAMES: dict[str, TableGame] = {g.name: g for g in (CardTableGame(), MahjongTableGame())}
