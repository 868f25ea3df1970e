"""``sevenbridge demo --game mahjong``: a whole match of Simple Mahjong between
computer players, printed round by round."""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from .._kit.events import narration
from .._kit.i18n import N_, name_text, quoted, translator
from .._kit.rng import seat_seed
from .actions import Action
from .bots import GreedyPlayer, RandomPlayer
from .hands import decompositions
from .match import play_match
from .move_events import events
from .records import record_match
from .rules import Rules
from .state import GameState
from .text import TILE_LEGEND
from .tiles import format_tiles

PRIMER = (
    N_(
        "Goal: the first to hold four sets (pung: three alike; chow: a run of three in one suit) "
        "and a pair wins the round."
    ),
    N_(
        "A turn: draw a tile, then discard one. Anyone may PUNG the discard; the next player may "
        "CHOW it; MAHJONG beats both."
    ),
    N_("A win scores 1 point; the deal passes on after every round."),
    TILE_LEGEND,
)
#: The events the demo tells of a round: the claims that stand (or give way)
#: and the kongs made from the hand.
_TOLD = ("claim_stands", "claim_overridden", "kong")


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Play and print a match as the arguments describe."""
    lang = getattr(args, "lang", "en")
    _ = translator(lang)
    players = 4 if args.players is None else args.players
    if not 2 <= players <= 4:
        print("sevenbridge demo: " + _("mahjong is for 2 to 4 players"), file=sys.stderr)
        return 2
    try:
        rules = Rules.preset(args.rules)
    except ValueError:
        print(
            "sevenbridge demo: "
            + _("no mahjong preset {name}; known: {presets}").format(
                name=quoted(args.rules, lang), presets=", ".join(Rules.presets())
            ),
            file=sys.stderr,
        )
        return 2

    def say(line: str) -> None:
        print(line, file=out)

    kind = GreedyPlayer if args.bot == "greedy" else RandomPlayer
    bots = [kind(seed=seat_seed(args.seed, p)) for p in range(players)]
    say(
        _(
            "Simple Mahjong: {rules} rules, {players} players, {rounds} rounds, "
            "seed {seed}, {bot} players"
        ).format(
            rules=name_text(args.rules, lang),
            players=players,
            rounds=rules.rounds,
            seed=args.seed,
            bot=name_text(args.bot, lang),
        )
    )
    if not args.quiet:
        for line in PRIMER:
            say("  " + _(line))

    lines: list[tuple[int, str]] = []  # (move number in the match, text)
    moves_so_far = 0

    def narrate(before: GameState, action: Action, after: GameState) -> None:
        """The claims and kongs that reach the table, in their events' words."""
        nonlocal moves_so_far
        moves_so_far += 1
        told = [e for e in events(before, action, after) if e.kind in _TOLD]
        for line in narration(told, lang):
            lines.append((moves_so_far, "  " + line))

    result = play_match(bots, rules=rules, seed=args.seed, on_action=narrate)
    totals = [0] * len(result.totals)
    done = 0
    for r in result.rounds:
        state = r.final
        say("")
        say(
            _("Round {n} of {rounds} (dealer P{dealer}, {moves} moves)").format(
                n=r.number + 1, rounds=rules.rounds, dealer=r.dealer, moves=len(r.moves)
            )
        )
        for number, text in lines:
            if done < number <= done + len(r.moves):
                say(text)
        done += len(r.moves)
        if r.winner is None:
            say("  " + _("The wall ran out; nobody scores."))
        else:
            totals[r.winner] += r.points
            how = _("drawing the last tile") if r.self_drawn else _("claiming a discard")
            split = decompositions(state.hands[r.winner], state.melds_of(r.winner))[0]
            wins = (
                _("P{p} wins by {how}, 1 point: {hand}")
                if r.points == 1
                else _("P{p} wins by {how}, {points} points: {hand}")
            )
            hand = " ".join(format_tiles(m.tiles, lang=lang) for m in split)
            say("  " + wins.format(p=r.winner, how=how, points=r.points, hand=hand))
        say("  " + _("Totals: {totals}").format(totals=_(", ").join(
            f"P{s} {t}" for s, t in enumerate(totals) if s not in result.ghosts
        )))  # fmt: skip
    say("")
    winners = result.winners
    if len(winners) == 1:
        say(
            _("P{p} wins the match with {points} points.").format(
                p=winners[0], points=result.totals[winners[0]]
            )
        )
    else:
        say(
            _("The match ends level between {players}.").format(
                players=_(" and ").join(f"P{p}" for p in winners)
            )
        )
    if args.record:
        with args.record as fh:
            fh.write(record_match(result))
        say(_("(record written to {name})").format(name=args.record.name))
    return 0
