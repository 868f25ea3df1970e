"""The ``demo`` command: a seeded deal (or match) between computer players,
printed move by move."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import TextIO

from .._kit.events import Narrator
from .._kit.i18n import LANGUAGES, N_, name_text, translator
from .._kit.rng import seat_seed
from ..actions import Action, Pass, Pon
from ..bots import GreedyPlayer, Player, RandomPlayer
from ..cards import Card
from ..engine import apply, deal
from ..games import CARD_GAME, game_module, game_part
from ..match import Match
from ..move_events import events
from ..records import record, record_match
from ..rules import Rules
from ..state import GameState, Phase
from ..text import deal_words
from ..views import observe
from . import arguments

Say = Callable[[str], None]

#: A seed whose default game (standard rules, 3 greedy players) shows a chi, a pon
#: and lay-offs; a test keeps it so.
DEFAULT_SEED = 72

PRIMER = (
    N_("Goal: be the first to empty your hand into melds: sets (one rank), runs (one suit)."),
    N_(
        "Sevens: a lone 7, two 7s or a 7 in a two-card run is a meld; a 7 left in hand costs a lot."
    ),
    N_("Claims: anyone may PON the last discard for a set; the next player may CHI it for a run."),
)


class _Text:
    """Card and meld formatting, with suit symbols when the terminal can show them."""

    def __init__(self, symbols: bool, lang: str | None = None) -> None:
        self.symbols = symbols
        self.lang = lang or "en"
        self._ = translator(lang)

    def card(self, card: Card) -> str:
        if self.symbols and self.lang == "ja" and card.suit is not None:
            return card.suit.symbol + str(card)[:-1]  # as Japanese players write it: ♥7
        return format(card, "u") if self.symbols else str(card)

    def cards(self, cards: Sequence[Card]) -> str:
        return " ".join(self.card(c) for c in cards) or "-"

    def meld(self, state: GameState, index: int) -> str:
        meld = state.melds[index]
        joker = (
            self._(" (joker as {card})").format(card=self.card(meld.joker_as))
            if meld.joker_as
            else ""
        )
        return f"{self.cards(meld.cards)}{joker}"


def _narrate(
    before: GameState, action: Action, after: GameState, t: _Text, teller: Narrator
) -> list[str]:
    """The move in the words of its events as one who sees every card knows
    them (the demo shows every hand, so a draw names its card: it appears from
    somewhere); passes in a row wait to be told as one line."""
    lines = teller.tell(events(before, action, after))
    skipped = _skipped(before, action, after)
    if skipped and lines:
        lines[-1] += " " + t._("(play goes on from {who}: {skipped} skipped)").format(
            who=f"P{after.current_player}", skipped=t._(", ").join(f"P{p}" for p in skipped)
        )
    return lines


def _skipped(before: GameState, action: Action, after: GameState) -> list[int]:
    """The seats a claim that stood jumps over: those between the discarder
    and the claimer, whose turns the claim takes."""
    if len(after.melds) == len(before.melds) or not isinstance(action, (Pon, Pass)):
        return []
    claimer = after.melds[-1].owner
    n = before.players
    if claimer is None:
        return []
    between = [(before.discarder + k) % n for k in range(1, n)]
    return between[: between.index(claimer)] if claimer in between else []


def _show_table(state: GameState, t: _Text, say: Say) -> None:
    top = t.card(state.top_discard) if state.top_discard else "-"
    say("  " + t._("stock {n} cards, discard pile top {card}").format(n=state.stock_size, card=top))
    for p in range(state.players):
        say(f"  P{p}  {t.cards(state.hand(p))}")


def _play_deal(
    state: GameState, players: Sequence[Player], t: _Text, say: Say,
    on_action: Callable[[Action], object] | None = None,
) -> GameState:  # fmt: skip
    first = state.current_player
    _ = t._
    say(_("Dealer: P{dealer}. First to play: P{first}.").format(dealer=state.dealer, first=first))
    if state.top_discard is not None:
        say(_("Upcard: {card}.").format(card=t.card(state.top_discard)))
    say(_("Hands dealt:"))
    _show_table(state, t, say)
    say("")
    turn = 0
    teller = Narrator(t.lang, symbols=t.symbols)
    while not state.is_over:
        assert state.current_player is not None
        action = players[state.current_player](observe(state))
        after = apply(state, action)
        if on_action is not None:
            on_action(action)
        if state.phase is not Phase.PLAY and after.phase is Phase.PLAY:
            for line in teller.flush():
                say("  " + line)
            turn += 1
            say(_("Turn {turn}").format(turn=turn))
        for line in _narrate(state, action, after, t, teller):
            say("  " + line)
        state = after
    for line in teller.flush():
        say("  " + line)
    say("")
    words = deal_words(state, lang=t.lang, symbols=t.symbols)
    say(_("End of the deal: {reason}").format(reason=words[0]))
    if state.melds:
        say(_("Table:"))
        for i, meld in enumerate(state.melds):
            say(f"  [{i}] P{meld.owner}  {t.meld(state, i)}")
    say(_("Cards left in hand:"))
    for line in words[1:]:
        say(line)
    return state


def add_parser(
    sub: argparse._SubParsersAction[argparse.ArgumentParser],
    _: Callable[[str], str] = str,
) -> None:
    """The ``demo`` command's arguments."""
    demo = sub.add_parser(
        "demo",
        help=_("play a seeded deal between computer players and print it"),
        description=_(
            "Play a seeded deal (or match) between computer players and print it move by move."
        ),
    )
    demo.add_argument(
        "--game",
        choices=arguments.game_choices(),
        default=game_module(CARD_GAME).GAME.command,
        help=_("the game: sevenbridge (default) or mahjong (a whole match of Simple Mahjong)"),
    )
    demo.add_argument(
        "--players",
        type=int,
        default=None,
        choices=range(2, 6),
        metavar="N",
        help=_("number of players, 2 to 5 (default 3; mahjong 2 to 4, default 4)"),
    )
    mahjong_presets = _mahjong_presets()
    demo.add_argument(
        "--rules",
        default="standard",
        choices=sorted(set(Rules.presets()) | set(mahjong_presets)),
        metavar="PRESET",
        help=_("rule preset: {presets} (default standard); for mahjong {mahjong_presets}").format(
            presets=", ".join(Rules.presets()), mahjong_presets=", ".join(mahjong_presets)
        ),
    )
    demo.add_argument(
        "--seed",
        type=int,
        default=DEFAULT_SEED,
        help=_("seed of the deal (default {DEFAULT_SEED}, a deal with a chi and a pon)").format(
            DEFAULT_SEED=str(DEFAULT_SEED)
        ),
    )
    demo.add_argument(
        "--match",
        action="store_true",
        help=_("play a whole match, not one deal (the mahjong demo always plays a match)"),
    )
    demo.add_argument(
        "--bot",
        choices=("greedy", "random"),
        default="greedy",
        help=_(
            "how the players choose: greedy (meld and claim whenever possible) "
            "or random (any legal action); default greedy"
        ),
    )
    demo.add_argument(
        "--ascii", action="store_true", help=_("write suits as letters (7H), not symbols")
    )
    demo.add_argument(
        "--record",
        metavar="FILE",
        type=argparse.FileType("w", encoding="utf-8"),
        help=_("also write the game as a record to FILE (opened before play starts)"),
    )
    demo.add_argument("--quiet", action="store_true", help=_("leave out the three-line primer"))
    demo.add_argument("--lang", choices=LANGUAGES, default="en", help=_("language (en or ja)"))
    demo.set_defaults(run=run)  # fmt: skip


def _write(out: TextIO, text: str, say: Say, _: Callable[[str], str] = str) -> None:
    with out:
        out.write(text)
    say(_("(record written to {name})").format(name=out.name))


def _mahjong_presets() -> tuple[str, ...]:
    from ..mahjong.rules import Rules as MahjongRules

    return MahjongRules.presets()


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Play the demo game the arguments describe."""
    game = arguments.game_name(args.game)
    if game_module(game).Rules is not Rules:  # another game's demo, in its package
        return int(game_part(game, "_demo").run(args, out))
    if args.players is None:
        args.players = 3
    if args.rules not in Rules.presets():
        print(f"sevenbridge demo: no Seven Bridge preset {args.rules!r}", file=sys.stderr)
        return 2
    rules = Rules.preset(args.rules)
    lang = getattr(args, "lang", "en")
    t = _Text(symbols=not args.ascii and _can_encode("♣♦♥♠🃏", out), lang=lang)
    _ = t._

    def say(line: str) -> None:
        print(line, file=out)

    kind = GreedyPlayer if args.bot == "greedy" else RandomPlayer
    bots: list[Player] = [kind(seed=seat_seed(args.seed, p)) for p in range(args.players)]
    say(_("Seven Bridge: {rules} rules, {players} players, seed {seed}, {bot} players").format(
        rules=name_text(args.rules, lang), players=args.players, seed=args.seed,
        bot=name_text(args.bot, lang),
    ))  # fmt: skip
    if not args.quiet:
        for line in PRIMER:
            say("  " + _(line))
    if not args.match:
        say("")
        final = _play_deal(deal(rules, players=args.players, seed=args.seed), bots, t, say)
        if args.record:
            _write(args.record, record(final), say, _)
        return 0
    match = Match.start(rules, players=args.players, seed=args.seed)
    if match.cut:
        say(_("Cut for the first dealer: {cut}.").format(cut=match.describe_cut()))
    while not match.is_over:
        say("")
        say(_("=== Deal {k} ===").format(k=match.deal_number))
        current = match

        def advance(action: Action) -> None:
            nonlocal current
            current = current.apply(action)

        _play_deal(match.state, bots, t, say, on_action=advance)
        match = current
        say(_("Totals: ") + _(", ").join(f"P{p} {s}" for p, s in enumerate(match.totals)))
    say("")
    if args.record:
        _write(args.record, record_match(match), say, _)
    winners = match.winners
    if match.winner is not None:
        say(_("P{p} wins the match.").format(p=match.winner))
    else:
        say(_("The match ends level between {players}.").format(
            players=_(" and ").join(f"P{p}" for p in winners)
        ))  # fmt: skip
    return 0


def _can_encode(text: str, out: TextIO) -> bool:
    try:
        text.encode(getattr(out, "encoding", None) or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True
