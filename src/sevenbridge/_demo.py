"""The ``demo`` command: a seeded deal (or match) between computer players,
printed move by move."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import TextIO

from .actions import Action, Chi, Discard, Draw, LayDown, LayOff, Pass, Pon
from .bots import GreedyPlayer, Player, RandomPlayer
from .cards import Card
from .engine import apply, deal
from .match import Match
from .record import record, record_match
from .rules import Rules, Scoring
from .scoring import hand_points
from .state import GameState, Phase
from .text import kind_name
from .views import observe

Say = Callable[[str], None]

#: A seed whose default game (standard rules, 3 greedy players) shows a chi, a pon
#: and lay-offs; a test keeps it so.
DEFAULT_SEED = 72

PRIMER = (
    "Goal: be the first to empty your hand into melds: sets (one rank), runs (one suit).",
    "Sevens: a lone 7, two 7s or a 7 in a two-card run is a meld; a 7 left in hand costs a lot.",
    "Claims: anyone may PON the last discard for a set; the next player may CHI it for a run.",
)

_SCORE_LINE = {
    Scoring.WINNER_SCORES: "(The winner scores the points left in the other hands.)",
    Scoring.PENALTY: "(Each loser takes the points left in their hand as a penalty; "
    "the lowest total wins.)",
}


def _points(n: int) -> str:
    return f"{n:>4} point" + ("" if n == 1 else "s")


class _Text:
    """Card and meld formatting, with suit symbols when the terminal can show them."""

    def __init__(self, symbols: bool) -> None:
        self.symbols = symbols

    def card(self, card: Card) -> str:
        return format(card, "u") if self.symbols else str(card)

    def cards(self, cards: Sequence[Card]) -> str:
        return " ".join(self.card(c) for c in cards) or "-"

    def meld(self, state: GameState, index: int) -> str:
        meld = state.melds[index]
        joker = f" (joker as {self.card(meld.joker_as)})" if meld.joker_as else ""
        return f"{self.cards(meld.cards)}{joker}"


def _narrate(before: GameState, action: Action, after: GameState, t: _Text) -> str | None:
    p = f"P{action.player}"
    if isinstance(action, Draw):
        drawn = set(after.hand(action.player)) - set(before.hand(action.player))
        return f"{p} draws {t.cards(sorted(drawn))}"
    if isinstance(action, Pass):
        if len(after.melds) > len(before.melds):  # the window closed on a waiting pon
            meld = len(after.melds) - 1
            return (
                f"nobody overtakes: P{after.melds[meld].owner}'s PON stands: {t.meld(after, meld)}"
            )
        return None
    if isinstance(action, (Chi, Pon)):
        call = "chi" if isinstance(action, Chi) else "pon"
        top = before.top_discard
        assert top is not None
        if len(after.melds) == len(before.melds):
            return (
                f"{p} calls {call.upper()} on {t.card(top)} with {t.cards(action.cards)}; "
                "it waits, since the joker's holder may still overtake"
            )
        return f"{p} calls {call.upper()} on {t.card(top)}: {t.meld(after, len(after.melds) - 1)}"
    if isinstance(action, LayDown):
        kind = kind_name(after.melds[-1].kind)
        return f"{p} lays down {t.meld(after, len(after.melds) - 1)}  ({kind})"
    if isinstance(action, LayOff):
        owner = before.melds[action.target].owner
        return (
            f"{p} lays off {t.card(action.card)} on P{owner}'s "
            f"{t.meld(before, action.target)}  ->  {t.meld(after, action.target)}"
        )
    assert isinstance(action, Discard)
    return f"{p} discards {t.card(action.card)}"


def _show_table(state: GameState, t: _Text, say: Say) -> None:
    say(
        f"  stock {state.stock_size} cards, discard pile top {t.card(state.top_discard) if state.top_discard else '-'}"
    )
    for p in range(state.players):
        say(f"  P{p}  {t.cards(state.hand(p))}")


def _play_deal(
    state: GameState, players: Sequence[Player], t: _Text, say: Say,
    on_action: Callable[[Action], object] | None = None,
) -> GameState:  # fmt: skip
    rules = state.rules
    first = state.current_player
    say(f"Dealer: P{state.dealer}. First to play: P{first}.")
    if state.top_discard is not None:
        say(f"Upcard: {t.card(state.top_discard)}.")
    say("Hands dealt:")
    _show_table(state, t, say)
    say("")
    turn = 0
    while not state.is_over:
        assert state.current_player is not None
        action = players[state.current_player](observe(state))
        after = apply(state, action)
        if on_action is not None:
            on_action(action)
        if state.phase is not Phase.PLAY and after.phase is Phase.PLAY:
            turn += 1
            say(f"Turn {turn}")
        line = _narrate(state, action, after, t)
        if line:
            say("  " + line)
        if after.reshuffles > state.reshuffles:
            say(
                f"  (the stock ran out: the discards were shuffled into a new stock of {after.stock_size})"
            )
        state = after
    say("")
    say(f"End of the deal: {state.end_reason}.")
    if state.melds:
        say("Table:")
        for i, meld in enumerate(state.melds):
            say(f"  [{i}] P{meld.owner}  {t.meld(state, i)}")
    say("Cards left in hand:")
    for p in range(state.players):
        hand = state.hand(p)
        if p == state.winner:
            say(f"  P{p}  (went out)")
        else:
            say(f"  P{p}  {t.cards(hand):<28} {_points(hand_points(hand, rules))}")
    assert state.deal_scores is not None
    label = "penalty points" if rules.scoring is Scoring.PENALTY else "score"
    say(f"Deal {label}: " + ", ".join(f"P{p} {s}" for p, s in enumerate(state.deal_scores)))
    say(_SCORE_LINE[rules.scoring])
    return state


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The ``demo`` command's arguments."""
    demo = sub.add_parser(
        "demo",
        help="play a seeded deal between computer players and print it",
        description="Play a seeded deal (or match) between computer players and print it "
        "move by move.",
    )
    demo.add_argument(
        "--game",
        choices=("sevenbridge", "mahjong"),
        default="sevenbridge",
        help="the game: sevenbridge (default) or mahjong (a whole match of Simple Mahjong)",
    )
    demo.add_argument(
        "--players",
        type=int,
        default=None,
        choices=range(2, 6),
        metavar="N",
        help="number of players, 2 to 5 (default 3; mahjong 2 to 4, default 4)",
    )
    mahjong_presets = _mahjong_presets()
    demo.add_argument(
        "--rules",
        default="standard",
        choices=sorted(set(Rules.presets()) | set(mahjong_presets)),
        metavar="PRESET",
        help=f"rule preset: {', '.join(Rules.presets())} (default standard); for mahjong "
        f"{', '.join(mahjong_presets)}",
    )
    demo.add_argument(
        "--seed",
        type=int,
        default=DEFAULT_SEED,
        help=f"seed of the deal (default {DEFAULT_SEED}, a deal with a chi and a pon)",
    )
    demo.add_argument("--match", action="store_true", help="play a whole match, not one deal")
    demo.add_argument(
        "--bot",
        choices=("greedy", "random"),
        default="greedy",
        help="how the players choose: greedy (meld and claim whenever possible) "
        "or random (any legal action); default greedy",
    )
    demo.add_argument(
        "--ascii", action="store_true", help="write suits as letters (7H), not symbols"
    )
    demo.add_argument(
        "--record",
        metavar="FILE",
        type=argparse.FileType("w", encoding="utf-8"),
        help="also write the game as a record to FILE (opened before play starts)",
    )
    demo.add_argument("--quiet", action="store_true", help="leave out the three-line primer")
    demo.set_defaults(run=run)  # fmt: skip


def _write(out: TextIO, text: str, say: Say) -> None:
    with out:
        out.write(text)
    say(f"(record written to {out.name})")


def _mahjong_presets() -> tuple[str, ...]:
    from .mahjong.rules import Rules as MahjongRules

    return MahjongRules.presets()


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Play the demo game the arguments describe."""
    if args.game == "mahjong":
        from .mahjong._demo import run as run_mahjong

        return run_mahjong(args, out)
    if args.players is None:
        args.players = 3
    if args.rules not in Rules.presets():
        print(f"sevenbridge demo: no Seven Bridge preset {args.rules!r}", file=sys.stderr)
        return 2
    rules = Rules.preset(args.rules)
    t = _Text(symbols=not args.ascii and _can_encode("♣♦♥♠🃏", out))

    def say(line: str) -> None:
        print(line, file=out)

    kind = GreedyPlayer if args.bot == "greedy" else RandomPlayer
    bots: list[Player] = [kind(seed=args.seed * 10 + p) for p in range(args.players)]
    say(f"Seven Bridge: {args.rules} rules, {args.players} players, seed {args.seed}, "
        f"{args.bot} players")  # fmt: skip
    if not args.quiet:
        for line in PRIMER:
            say("  " + line)
    if not args.match:
        say("")
        final = _play_deal(deal(rules, players=args.players, seed=args.seed), bots, t, say)
        if args.record:
            _write(args.record, record(final), say)
        return 0
    match = Match.start(rules, players=args.players, seed=args.seed)
    if match.cut:
        say(f"Cut for the first dealer: {match.describe_cut()}.")
    while not match.is_over:
        say("")
        say(f"=== Deal {match.deal_number} ===")
        current = match

        def advance(action: Action) -> None:
            nonlocal current
            current = current.apply(action)

        _play_deal(match.state, bots, t, say, on_action=advance)
        match = current
        say("Totals: " + ", ".join(f"P{p} {s}" for p, s in enumerate(match.totals)))
    say("")
    if args.record:
        _write(args.record, record_match(match), say)
    winners = match.winners
    if match.winner is not None:
        say(f"P{match.winner} wins the match.")
    else:
        say("The match ends level between " + " and ".join(f"P{p}" for p in winners) + ".")
    return 0


def _can_encode(text: str, out: TextIO) -> bool:
    try:
        text.encode(getattr(out, "encoding", None) or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True
