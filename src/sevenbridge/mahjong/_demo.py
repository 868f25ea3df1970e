"""``sevenbridge demo --game mahjong``: a whole match of Simple Mahjong between
computer players, printed round by round."""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from .actions import Action, Chow, Kong, Pung
from .bots import GreedyPlayer, RandomPlayer
from .hands import decompositions
from .match import play_match
from .record import record
from .rules import Rules
from .state import State

PRIMER = (
    "Goal: the first to hold four sets (pung: three alike; chow: a run of three in one suit) "
    "and a pair wins the round.",
    "A turn: draw a tile, then discard one. Anyone may PUNG the discard; the next player may "
    "CHOW it; MAHJONG beats both.",
    "A win scores 1 point; the deal passes on after every round.",
)


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Play and print a match as the arguments describe."""
    players = 4 if args.players is None else args.players
    if not 2 <= players <= 4:
        print("sevenbridge demo: mahjong is for 2 to 4 players", file=sys.stderr)
        return 2
    try:
        rules = Rules.preset(args.rules)
    except ValueError:
        print(
            f"sevenbridge demo: no mahjong preset {args.rules!r}; "
            f"known: {', '.join(Rules.presets())}",
            file=sys.stderr,
        )
        return 2

    def say(line: str) -> None:
        print(line, file=out)

    kind = GreedyPlayer if args.bot == "greedy" else RandomPlayer
    bots = [kind(seed=args.seed * 10 + p) for p in range(players)]
    say(
        f"Simple Mahjong: {args.rules} rules, {players} players, {rules.rounds} rounds, "
        f"seed {args.seed}, {args.bot} players"
    )
    if not args.quiet:
        for line in PRIMER:
            say("  " + line)

    lines: list[tuple[int, str]] = []  # (move number in the match, text)
    moves_so_far = 0

    def narrate(before: State, action: Action, after: State) -> None:
        nonlocal moves_so_far
        moves_so_far += 1
        if isinstance(action, (Pung, Chow, Kong)) and after.melds != before.melds:
            if len(after.melds) > len(before.melds):
                meld = after.melds[-1]
            else:  # a pung became a kong
                meld = next(m for m, old in zip(after.melds, before.melds, strict=True) if m != old)
            source = f"P{before.turn}'s discard" if before.phase.value == "claim" else "the hand"
            lines.append(
                (moves_so_far, f"  P{action.player} {type(action).__name__.upper()} {meld} "
                 f"from {source}")
            )  # fmt: skip

    result = play_match(bots, rules=rules, seed=args.seed, on_action=narrate)
    totals = [0] * len(result.totals)
    records = []
    done = 0
    for r in result.rounds:
        state = r.final
        say("")
        say(f"Round {r.number + 1} of {rules.rounds} (dealer P{r.dealer}, {len(r.moves)} moves)")
        for number, text in lines:
            if done < number <= done + len(r.moves):
                say(text)
        done += len(r.moves)
        if r.winner is None:
            say("  The wall ran out; nobody scores.")
        else:
            totals[r.winner] += r.points
            how = "drawing the last tile" if r.self_drawn else "claiming a discard"
            split = decompositions(state.hands[r.winner], state.melds_of(r.winner))[0]
            plural = "" if r.points == 1 else "s"
            say(f"  P{r.winner} wins by {how}, {r.points} point{plural}: "
                + " ".join(str(m) for m in split))  # fmt: skip
        say("  Totals: " + ", ".join(
            f"P{s} {t}" for s, t in enumerate(totals) if s not in result.ghosts
        ))  # fmt: skip
        if args.record:
            records.append(
                record(r.moves, rules=rules, players=players, dealer=r.dealer, seed=r.seed)
            )
    say("")
    winners = result.winners
    if len(winners) == 1:
        say(f"P{winners[0]} wins the match with {result.totals[winners[0]]} points.")
    else:
        say("The match ends level between " + " and ".join(f"P{p}" for p in winners) + ".")
    if args.record:
        with args.record as fh:
            fh.write("\n".join(records))
        say(f"(records of the {len(records)} rounds written to {args.record.name})")
    return 0
