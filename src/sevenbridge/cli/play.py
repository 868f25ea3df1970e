"""The ``play`` command: a person plays one seat of a deal against bots, in the terminal.

Every move is told as it is played, in the words of its events as the
person's seat knows them (:func:`~sevenbridge.events`, :func:`~sevenbridge.narration`:
another player's draw says only that they drew, the person's own names the
card; a claim window's passes and claims, a pon that gives way); before
each of the person's decisions the table is drawn and the legal moves are
numbered, and a move can also be typed in move notation (``Discard 7H``, ``Pon 9C 9D``, ``LayOff 8H>2``). Other
commands: ``hint`` (what the greedy bot would do, and why), ``why MOVE`` (the
rule-by-rule answer of :func:`~sevenbridge.explain`), ``rules``, ``undo``
(practice mode only), ``help`` and ``quit`` (which offers to save the record).
End of input (Ctrl-D) saves the record and exits.

One loop, :class:`~sevenbridge.cli.seat.Game`, plays every game; what differs between games (how the
table, the moves and the narration read, what a hint says, how typed moves are
read) lives in a small per-game part, a :class:`~sevenbridge.cli.seat.GamePart`: :class:`CardPart`
here for Seven Bridge, :class:`~sevenbridge.cli.play_mahjong.MahjongPart` for
Simple Mahjong (``--game mahjong``).
"""

from __future__ import annotations

import argparse
import os
import re
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from .._heuristics import card_points, keep_value
from .._kit.i18n import LANGUAGES, N_, name_text, quoted, translate, translator
from .._kit.rng import seat_seed
from ..actions import Action, Chi, Discard, Draw, LayDown, LayOff, Pon
from ..bots import GreedyPlayer, ISMCTSPlayer, Player, RandomPlayer
from ..cards import Card, Suit, card_symbols
from ..engine import apply, legal_actions
from ..errors import SevenBridgeError
from ..games import game_module
from ..move_events import events
from ..notation import NotationError, parse_move
from ..records import record
from ..rules import Scoring
from ..state import GameState, Phase
from ..text import deal_message, explain, move_label, waiting_pon_message
from ..views import observe
from . import arguments
from .seat import Game, GamePart

#: The bots a seat can be given, by name.
BOTS: dict[str, Callable[[int], Player]] = {
    "greedy": lambda seed: GreedyPlayer(seed),
    "random": lambda seed: RandomPlayer(seed),
    "ismcts": lambda seed: ISMCTSPlayer(seed, iterations=200),
}

DEFAULT_SEED = 72
#: The longest ``--pause`` after a bot's move, in seconds.
MAX_PAUSE = 60

_HELP = N_(
    "Type the number of a move, or the move itself ('Discard 7H', 'Pon 9C 9D',\n"
    "'LayOff 8H>2'). Commands: hint, why MOVE, rules, undo (practice mode), help, quit.\n"
    "Ctrl-D saves the record and exits."
)

_DOING = {
    Phase.CLAIM: N_("{player} to pon or pass"),
    Phase.DRAW: N_("{player} to draw or chi"),
    Phase.PLAY: N_("{player} to meld, lay off and discard"),
}

_CARD_TOKEN = re.compile(r"(?<![\w=])(10|[2-9AJQK])([CDHS])\b")
#: A red card in a sentence: ``7♥`` (English) or ``♥7`` (Japanese).
_RED_CARD = re.compile(r"(?:10|[2-9AJQK])[♥♦]|[♥♦](?:10|[2-9AJQK])")
_ANSI_RED, _ANSI_RESET, _ANSI_BOLD = "\x1b[31m", "\x1b[0m", "\x1b[1m"


class _Style:
    """Cards as symbols (``7♥``, in Japanese ``♥7``) or letters (``7H``), in
    colour where the terminal has it."""

    def __init__(self, symbols: bool, colour: bool, lang: str = "en") -> None:
        self.symbols = symbols
        self.colour = colour
        self.lang = lang

    def card(self, card: Card) -> str:
        text = card_symbols(card, self.lang) if self.symbols else str(card)
        if card.is_joker and self.symbols:
            text = "JK"
        if self.colour and card.suit in (Suit.HEARTS, Suit.DIAMONDS):
            return f"{_ANSI_RED}{text}{_ANSI_RESET}"
        return text

    def cards(self, cards: Sequence[Card]) -> str:
        return " ".join(self.card(c) for c in cards) or "-"

    def move(self, action: Action) -> str:
        """The move in notation (without the player), with the cards styled."""
        return _CARD_TOKEN.sub(lambda m: self.card(Card.parse(m.group(0))), str(action))

    def text(self, text: str) -> str:
        """A sentence with cards in it (``7♥``, or ``♥7`` in Japanese), the red ones in red."""
        if not self.colour:
            return text
        return _RED_CARD.sub(lambda m: f"{_ANSI_RED}{m.group(0)}{_ANSI_RESET}", text)

    def bold(self, text: str) -> str:
        return f"{_ANSI_BOLD}{text}{_ANSI_RESET}" if self.colour else text


class CardPart:
    """Seven Bridge's part of the play loop."""

    auto_lone = True
    help = _HELP
    legend = ""
    example = "Discard 7H"

    def __init__(self, style: _Style, *, auto_lone: bool = True) -> None:
        self.style = style
        self.auto_lone = auto_lone
        self.symbols = style.symbols

    def legal_actions(self, state: GameState) -> Sequence[Action]:
        return legal_actions(state)

    def apply(self, state: GameState, action: Action) -> GameState:
        return apply(state, action)

    def bot_view(self, state: GameState) -> Any:
        return observe(state)

    def move_text(self, game: Game, action: Action) -> str:
        if game.lang in (None, "en"):
            return self.style.move(action)
        view = observe(game.state, game.seat)
        return self.style.text(move_label(action, view, lang=game.lang))

    def record(self, state: GameState) -> str:
        return record(state)

    def default_record(self, state: GameState) -> str:
        return f"sevenbridge-{state.seed}.txt"

    def words(self, game: Game, message: str) -> str:
        """A message in the game's language, with the cards styled."""
        return self.style.text(translate(message, game.lang, symbols=self.style.symbols))

    def show_table(self, game: Game) -> None:
        _, s, state = game._, self.style, game.state
        view = observe(state, game.seat)
        if state.is_over:
            status = self.words(game, deal_message(state, you=game.seat)[0])
        else:
            player = _("you") if state.current_player == game.seat else f"P{state.current_player}"
            status = _(_DOING[state.phase]).format(player=player)
        game.say()
        game.say(s.bold(f"== {status} =="))
        for p in range(state.players):
            mark = ">" if p == state.current_player else " "
            if p == game.seat:
                hand = f"{s.cards(view.hand)}  {_('(you)')}"
            elif view.shown_hands is not None:
                hand = s.cards([c for c in state.hand(p)])
            else:
                n = view.hand_sizes[p]
                hand = _("{n} card").format(n=n) if n == 1 else _("{n} cards").format(n=n)
            game.say(f"{mark} P{p}  {hand}")
        for i, meld in enumerate(state.melds):
            joker = ""
            if meld.joker_as is not None:
                joker = "  " + _("(joker as {card})").format(card=s.card(meld.joker_as))
            game.say(f"    [{i}] P{meld.owner}{_(': ')}{s.cards(meld.cards)}{joker}")
        top = state.top_discard
        game.say(
            "  "
            + _("discard pile: {n}, top {card}").format(
                n=len(state.discard_cards), card=s.card(top) if top else "-"
            )
            + "   "
            + _("stock: {n}").format(n=state.stock_size)
        )
        waiting = waiting_pon_message(view, you=game.seat)
        if waiting is not None:
            game.say("  " + self.words(game, waiting))

    def events(self, game: Game, before: GameState, action: Action, after: GameState) -> Any:
        return events(before, action, after, viewer=game.seat)

    def styled(self, game: Game, line: str) -> str:
        return self.style.text(line)

    def read_move(self, game: Game, text: str, actions: Sequence[Action]) -> Action | None:
        notation = text if re.match(r"[Pp][0-9]\s", text) else f"P{game.seat} {text}"
        try:
            return parse_move(notation)
        except NotationError:
            return None

    def explain(self, game: Game, action: Action) -> str:
        return self.words(game, explain(game.state, action))

    def hint(self, game: Game) -> str:
        _, state = game._, game.state
        view = observe(state, game.seat)
        action = game.advisor(view)
        if isinstance(action, (Pon, Chi)):
            why = _("a claim puts a meld on the table at once and empties your hand faster")
        elif isinstance(action, LayDown):
            why = _("these cards form a meld: laid down, they no longer count against you")
        elif isinstance(action, LayOff):
            why = _("the card fits a meld on the table, so it leaves your hand")
        elif isinstance(action, Discard):
            points = card_points(state.rules)[action.card.index]
            helps = keep_value(view.hand_mask, action.card.index, state.rules.ace_high)
            why = (
                _("it is worth {points} points in your hand and helps no meld").format(
                    points=points
                )
                if helps <= 0
                else _(
                    "it is worth {points} points in your hand and helps your melds least"
                ).format(points=points)
            )
        elif isinstance(action, Draw):
            why = _("no claim makes a meld for you, so take a card from the stock")
        else:
            why = _("no pon would make a meld for you")
        return _("Hint: {move} ({why}).").format(move=self.move_text(game, action), why=why)

    def rules_lines(self, game: Game) -> list[str]:
        _, r = game._, game.state.rules
        return [
            _("Melds: a set (3 or 4 of one rank) or a run (3 or more in a row, one suit)."),
            _("Sevens: a single 7, two 7s, or a two-card run with a 7 is a meld too."),
            _("Aces: low or high.") if r.ace_high else _("Aces: low only (A-2-3, not Q-K-A)."),
            _("Jokers: {n}.").format(n=r.jokers),
            _(
                "Claims: anyone may pon the last discard for a set; the next player may chi it "
                "for a run; a claim uses at least {n} hand cards."
            ).format(n=r.claim_min_hand_cards),
            _("Lay-offs: only once you have a meld of your own on the table.")
            if r.lay_off_needs_own_meld
            else _("Lay-offs: at any time in your turn."),
            _("Going out: the turn still ends with a discard.")
            if r.final_discard
            else _("Going out: no final discard is needed."),
            _("Score: penalty points for the cards left in hand; the lowest total wins.")
            if r.scoring is Scoring.PENALTY
            else _("Score: the winner scores the cards left in the other hands."),
        ]

    def end_lines(self, game: Game) -> list[str]:
        state = game.state
        lines = deal_message(state, you=game.seat)[1:]  # the first is the table's heading
        return [self.words(game, line) for line in lines] + [game._("End of the deal.")]


def _colour_ok(out: TextIO) -> bool:
    if os.environ.get("NO_COLOR") or os.environ.get("TERM", "dumb") == "dumb":
        return False
    return bool(getattr(out, "isatty", lambda: False)())


def _symbols_ok(out: TextIO) -> bool:
    try:
        "♣♦♥♠".encode(getattr(out, "encoding", None) or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def add_parser(
    sub: argparse._SubParsersAction[argparse.ArgumentParser],
    _: Callable[[str], str] = str,
) -> None:
    """The ``play`` command's arguments."""
    play = sub.add_parser(
        "play",
        help=_("play a deal yourself against bots"),
        description=_("Play one seat of a deal against computer players in the terminal."),
    )
    arguments.add_game(play, _)
    arguments.add_rules(play, _, games=True)
    play.add_argument("--players", type=int, default=None, choices=range(2, 6), metavar="N",
                      help=_("number of players, 2 to 5 (default 3; mahjong 2 to 4, default 4)"))  # fmt: skip
    play.add_argument("--seat", type=int, default=0, metavar="S",
                      help=_("your seat, 0 to N-1 (default 0)"))  # fmt: skip
    play.add_argument("--bots", default="greedy", metavar="NAME[,NAME...]",
                      help=_("the bots for the other seats, in seat order: greedy, random or "
                      "ismcts; one name for all (default greedy)"))  # fmt: skip
    play.add_argument("--seed", type=int, default=DEFAULT_SEED,
                      help=_('seed of the deal (default {DEFAULT_SEED})').format(DEFAULT_SEED=str(DEFAULT_SEED)))  # fmt: skip
    play.add_argument("--practice", action="store_true", help=_("practice mode: undo allowed"))
    play.add_argument("--no-auto", action="store_true",
                      help=_("ask even when you have only one move (a forced draw or pass); "
                      "by default it is played for you"))  # fmt: skip
    play.add_argument("--pause", type=float, default=0.0, metavar="SECONDS",
                      help=_("wait this long after each bot move, 0 to 60 (default 0)"))  # fmt: skip
    play.add_argument("--record", metavar="FILE", type=arguments.writable_file(_),
                      help=_("where the record is saved (at the end, on quit or Ctrl-D)"))  # fmt: skip
    play.add_argument("--ascii", action="store_true", help=_("suits as letters (7H)"))
    play.add_argument("--no-color", action="store_true", help=_("no colours"))
    play.add_argument("--lang", choices=LANGUAGES, default="en", help=_("language (en or ja)"))
    play.set_defaults(run=run)


def _fail(text: str) -> int:
    import sys

    print(f"sevenbridge play: {text}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Play the game the arguments describe, reading moves from standard input."""
    import sys

    _ = translator(args.lang)
    game = arguments.game_name(getattr(args, "game", "sevenbridge"))
    module = game_module(game)
    if args.players is None:
        args.players = module.GAME.players
    if args.players not in module.PLAYER_COUNTS:
        return _fail(_("mahjong is for 2 to 4 players"))
    if not 0 <= args.pause <= MAX_PAUSE:  # NaN fails this too
        return _fail(
            _("--pause must be from 0 to {most} seconds, not {pause}").format(
                most=MAX_PAUSE, pause=args.pause
            )
        )
    rules = arguments.rules_of(args)
    try:
        state = module.deal(rules, players=args.players, seed=args.seed)
    except SevenBridgeError as error:
        return _fail(translate(error.args[0], args.lang))
    # The seats people and bots take (a mahjong table's ghosts play themselves).
    seats = list(getattr(state, "real_seats", range(args.players)))
    if args.seat not in seats:
        return _fail(
            _("--seat must be 0 to {last}").format(last=args.players - 1)
            if seats == list(range(args.players))
            else _("--seat must be one of {seats} (the others are ghosts)").format(
                seats=", ".join(map(str, seats))
            )
        )
    names = [n.strip().lower() for n in args.bots.split(",")]
    others = [p for p in seats if p != args.seat]
    if len(names) == 1:
        names *= len(others)
    unknown = [n for n in names if n not in BOTS]
    if unknown or len(names) != len(others):
        return _fail(
            _("--bots takes one name or {n} names from {names}, not {given}").format(
                n=len(others), names=", ".join(BOTS), given=quoted(args.bots, args.lang)
            )
        )
    bots = {p: BOTS[n](seat_seed(args.seed, p)) for p, n in zip(others, names, strict=True)}
    symbols = not args.ascii and _symbols_ok(out)
    colour = not args.no_color and _colour_ok(out)
    part: GamePart
    if isinstance(state, GameState):  # the card game's deal
        style = _Style(symbols=symbols, colour=colour, lang=args.lang)
        part = CardPart(style, auto_lone=not args.no_auto)
        welcome = _(
            "Seven Bridge: {rules} rules, {players} players; you are P{seat}. Type help for help."
        )
    else:
        from .play_mahjong import MahjongPart

        part = MahjongPart(colour=colour, auto_lone=not args.no_auto)
        welcome = _(
            "Simple Mahjong: {rules} rules, {players} players; you are P{seat}. Type help for help."
        )
    play = Game(state, args.seat, bots, part, sys.stdin, out, practice=args.practice,
                pause=args.pause, lang=args.lang, save_to=args.record)  # fmt: skip
    rules_name = name_text(args.rules, args.lang)
    play.say(welcome.format(rules=rules_name, players=args.players, seat=args.seat))
    if part.legend:
        play.say(_(part.legend))
    return play.play()
