"""Simple Mahjong at the web table (see :class:`~sevenbridge.web._base.TableGame`).

A table plays a match of rounds as :func:`sevenbridge.mahjong.play_match`
does (the same seeds and dealers), one move at a time. Mahjong's actions
hide nothing (a draw does not say which tile), so the list of recent moves is
the round's moves themselves.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from .. import mahjong as mj
from .._kit.i18n import N_, translator
from ..errors import InvalidArgumentError, Message
from ..mahjong import svg as mj_svg
from ..mahjong.actions import Action, Chow, Discard, Draw, Kong, Mahjong, Pass, Pung, _used
from ..mahjong.match import _round_seed, next_dealer
from ..mahjong.svg import _status
from ..mahjong.text import MOVE_KINDS, move_label, round_words
from ..mahjong.tiles import Tile, format_tiles
from ._base import ProtocolTable

__all__ = ["MahjongSeries", "MahjongTableGame"]


#: What the seat whose turn it is does, in each phase.
_YOUR_DOING = {
    mj.Phase.DRAW: N_("draw a tile"),
    mj.Phase.PLAY: N_("discard a tile"),
    mj.Phase.CLAIM: N_("claim the discard, or pass"),
}


@attrs.frozen
class MahjongSeries:
    """A match of Simple Mahjong in progress: the round in play and the finished ones."""

    rules: mj.Rules
    players: int
    seed: int
    state: mj.GameState
    finals: tuple[mj.GameState, ...] = ()
    totals: tuple[int, ...] = ()
    over: bool = False


class MahjongTableGame(ProtocolTable):
    """Simple Mahjong at the web table: a match of ``rules.rounds`` rounds."""

    name: str = mj.GAME.name
    title: str = N_("Simple Mahjong")
    match_text: str = N_("a match: the rules decide (16 rounds unless they say otherwise)")
    deal_word: str = N_("round")
    deal_over: str = N_("Round {k} is over")
    hand_word: str = N_("Tiles in hand")
    hand_head: str = N_("Your tiles (click to choose)")
    kinds: tuple[tuple[str, str], ...] = MOVE_KINDS
    choosable: tuple[str, ...] = ("Chow", "Kong", "Discard")

    def used(self, action: Action) -> tuple[Tile, ...]:
        return _used(action)

    def make_rules(self, preset: str, deals: int | None) -> mj.Rules:
        rules = mj.Rules.preset(preset)
        return rules if deals is None else attrs.evolve(rules, rounds=deals)

    def preset_name(self, rules: mj.Rules) -> str:
        for name in mj.Rules.presets():
            if attrs.evolve(mj.Rules.preset(name), rounds=rules.rounds) == rules:
                return name
        return "custom"

    def start(self, rules: mj.Rules, players: int, seed: int) -> MahjongSeries:
        state = mj.deal(rules, players=players, dealer=0, seed=_round_seed(seed, 0))
        return MahjongSeries(rules, players, seed, state, (), (0,) * state.seats)

    def apply(self, series: MahjongSeries, action: Action) -> MahjongSeries:
        state = mj.apply(series.state, action)
        if not state.is_over:
            return attrs.evolve(series, state=state)
        finals = (*series.finals, state)
        totals = tuple(t + s for t, s in zip(series.totals, state.scores, strict=True))
        if len(finals) >= series.rules.rounds:
            return attrs.evolve(series, state=state, finals=finals, totals=totals, over=True)
        following = mj.deal(
            series.rules,
            players=series.players,
            dealer=next_dealer(series.rules, state),
            seed=_round_seed(series.seed, len(finals)),
        )
        return attrs.evolve(series, state=following, finals=finals, totals=totals)

    def position(self, series: MahjongSeries) -> mj.GameState:
        return series.state

    def finished(self, series: MahjongSeries) -> Sequence[mj.GameState]:
        return series.finals

    def series_over(self, series: MahjongSeries) -> bool:
        return series.over

    def totals(self, series: MahjongSeries) -> tuple[int, ...]:
        return series.totals

    def winners(self, series: MahjongSeries) -> tuple[int, ...]:
        real = series.state.real_seats
        top = max(series.totals[s] for s in real)
        return tuple(s for s in real if series.totals[s] == top)

    def status(self, view: mj.Observation, names: Sequence[str], lang: str) -> str:
        _ = translator(lang)
        if view.current_player == view.viewer and view.phase in _YOUR_DOING:
            return _("Your turn: {doing}").format(doing=_(_YOUR_DOING[view.phase]))
        return _status(view, names, _)

    def hand(self, view: mj.Observation, lang: str) -> list[dict[str, str]]:
        return [
            {
                "card": str(t),
                "label": format_tiles((t,), lang=lang),
                "name": mj_svg.tile_name(t, lang),
                "svg": mj_svg.tile(t, size=44, lang=lang),
            }
            for t in view.hand
        ]

    def describe(
        self,
        action: Action,
        lang: str,
        view: mj.Observation,
        names: Sequence[str],
    ) -> dict[str, Any]:
        """A move for the page: its kind, its label and the tiles of the hand it names."""
        tiles = _used(action)
        return {
            "kind": type(action).__name__,
            "label": move_label(action, lang=lang),
            "short": format_tiles(tiles, lang=lang),
            "cards": [str(t) for t in tiles],
            "notation": str(action),
        }

    def selection(self, seat: int, kind: str, cards: Sequence[str], target: int | None) -> Action:
        """The move of ``kind`` with the chosen tiles (it may be illegal: the
        engine then says why).

        Raises:
            SevenBridgeError: for tiles or a kind that make no move at all.
        """
        if kind == "Draw":
            return Draw(seat)
        if kind == "Pass":
            return Pass(seat)
        if kind == "Pung":
            return Pung(seat)
        if kind == "Mahjong":
            return Mahjong(seat)
        if kind == "Chow" and len(cards) == 2:
            return Chow(seat, " ".join(cards))
        if kind == "Kong" and len(cards) == 1:
            return Kong(seat, cards[0])
        if kind == "Discard" and len(cards) == 1:
            return Discard(seat, cards[0])
        raise InvalidArgumentError(
            Message(
                "invalid_argument.web_tiles",
                "choose the tiles of this move: two for a chow, one to discard or for a kong",
            )
        )

    def deal_result(
        self, final: mj.GameState, seat: int, names: Sequence[str], lang: str
    ) -> dict[str, Any]:
        """A finished round, from ``seat``'s view of its end: every hand (shown
        then) and the points it won."""
        _ = translator(lang)
        view = mj.observe(final, seat)
        shown = view.shown_hands or ()
        scores = final.scores
        rows = [
            {
                "seat": p,
                "cards": format_tiles(shown[p], compact=False, lang=lang)
                if p < len(shown) and shown[p]
                else "-",
                "points": scores[p],
                "score": scores[p],
                "winner": p == final.winner,
            }
            for p in final.real_seats
        ]
        end = round_words(view, names=names, you=seat, lang=lang)
        return {
            "reason": end[0],
            "notes": [line for line in end[1:] if line.startswith("(")],
            "rows": rows,
            "score_label": _("Score"),
            "lowest_wins": False,
        }
