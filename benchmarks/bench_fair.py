"""What remembering the seatings of a deck is worth, without and with --fair.

A duplicate tournament plays each deck once for every seating of the bots.
A bot that lived through the first seating of a deck knows, in the second,
the hand its opponent now holds (it held it itself) and how the deal went.
``Remembering`` is such a bot, and a cheap one: the greedy bot with fixed
choices (``Steady``), which, when it remembers that the cards it now holds
lost the deal last time, stops discarding cards its opponent's remembered
hand could claim. It plays two-player duplicate tournaments against
``Steady``, its honest twin: once as one object for every seating of a deck
(``fair=False``), once made afresh for every deal (``fair=True``, the
default for Python bots), and the paired comparison
(:func:`sevenbridge.arena.compare`) says what it gained.

``python benchmarks/bench_fair.py [--decks N] [--docs FILE]``
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sevenbridge import legal_actions
from sevenbridge._heuristics import card_points, keep_value
from sevenbridge.actions import Action, Discard
from sevenbridge.arena import Comparison, TournamentResult, compare, run_tournament
from sevenbridge.bots import GreedyPlayer
from sevenbridge.views import Observation

try:
    from benchmarks import _docs
except ImportError:  # run as a script: benchmarks/ is on the path
    import _docs  # type: ignore[import-not-found, no-redef]


def deck_key(view: Observation) -> tuple[int, int, int]:
    """What tells a deck from another at the start of a deal: the table size,
    the dealer and the upcard (the bottom of the discard pile)."""
    return (view.players, view.dealer, view.discard_cards[0] if view.discard_cards else -1)


def public_cards(view: Observation) -> int:
    """Every card that lies face up: the discard pile and the melds."""
    mask = 0
    for card in view.discard_cards:
        mask |= 1 << card
    for meld in view.table:
        mask |= meld.mask
    return mask


def claimable(card: int, cards: int) -> bool:
    """Whether a player holding ``cards`` (a mask) could claim ``card``: two
    of its rank (a pon), or two cards of its suit that make a run with it
    (a chi), or the seven next to it."""
    suit, rank = divmod(card, 13)

    def has(r: int) -> bool:
        return 0 <= r < 13 and bool(cards >> (suit * 13 + r) & 1)

    same = sum(cards >> (s * 13 + rank) & 1 for s in range(4))
    return (
        same >= 2
        or (has(rank - 2) and has(rank - 1))
        or (has(rank - 1) and has(rank + 1))
        or (has(rank + 1) and has(rank + 2))
        or (rank in (5, 7) and has(6))
    )


class Steady:
    """The greedy bot with the same choices in every deal (a new
    ``GreedyPlayer(0)`` for each), so that two of them replay a deck's deal
    exactly whichever seat each holds. It notes each deal's start, its hand
    then, and whether it went out."""

    def __init__(self, seed: int = 0) -> None:
        self.last = 10**9  # the history's length at the last decision
        self.greedy = GreedyPlayer(0)
        self.deck: tuple[int, int, int] | None = None
        self.dealt = 0
        self.went_out = False

    def __call__(self, view: Observation, /) -> Action:
        if len(view.history) < self.last:
            self.new_deal(view)
        self.last = len(view.history)
        action = self.choose(view)
        if isinstance(action, Discard) and view.hand_sizes[view.viewer] == 1:
            self.went_out = True
        return action

    def new_deal(self, view: Observation) -> None:
        """A new deal begins: forget the last one."""
        self.greedy = GreedyPlayer(0)
        self.deck, self.dealt, self.went_out = deck_key(view), view.hand_mask, False

    def choose(self, view: Observation) -> Action:
        action: Action = self.greedy(view)
        return action


class Remembering(Steady):
    """A :class:`Steady` bot that remembers each deck's earlier seatings.

    In a two-player deck's second seating it holds the hand its opponent
    held in the first, and its opponent holds the hand it held. When it went
    out last time, the cards it holds now lost, and its twin would play the
    deal as before: so it spoils, discarding no card that the cards it
    remembers (those not yet face up) could claim.
    """

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.memory: dict[tuple[int, int, int], tuple[int, bool]] = {}
        self.known = 0  # the opponent's cards it remembers, 0 when it has no use for them

    def remember(self) -> dict[tuple[int, int, int], tuple[int, bool]]:
        """Where the decks are remembered (here: in the bot object)."""
        return self.memory

    def new_deal(self, view: Observation) -> None:
        super().new_deal(view)
        held = self.remember().get(deck_key(view)) if view.players == 2 else None
        self.known = held[0] if held is not None and held[1] else 0

    def __call__(self, view: Observation, /) -> Action:
        action = super().__call__(view)
        if self.deck is not None:  # what it knows of this deal so far
            self.remember()[self.deck] = (self.dealt, self.went_out)
        return action

    def choose(self, view: Observation) -> Action:
        action = super().choose(view)
        opponent = self.known & ~public_cards(view) & ~view.hand_mask
        if not (opponent and isinstance(action, Discard)):
            return action
        if not claimable(action.card.index, opponent):
            return action
        points = card_points(view.rules)
        safe = [
            a
            for a in legal_actions(view)
            if isinstance(a, Discard) and not claimable(a.card.index, opponent)
        ]
        if not safe:
            return action
        return max(
            safe,
            key=lambda a: (
                points[a.card.index] - keep_value(view.hand_mask, a.card.index, view.rules.ace_high)
            ),
        )


def steady(seed: int) -> Steady:
    """The honest twin."""
    return Steady(seed)


def remembering(seed: int) -> Remembering:
    """The bot that remembers."""
    return Remembering(seed)


def measure(decks: int, fair: bool, seed: int = 1) -> tuple[TournamentResult, Comparison]:
    """``Remembering`` against ``Steady`` over ``decks`` two-player decks."""
    bots: list[Any] = [("remembering", remembering), ("steady", steady)]
    result = run_tournament(bots, deals=2 * decks, seed=seed, fair=fair, progress=False)
    return result, compare(result, "remembering", "steady")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--decks", type=int, default=500, help="decks per run (default 500)")
    parser.add_argument("--quick", action="store_true", help="a smoke run of 20 decks")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    parser.add_argument("--docs", metavar="FILE", help="also write the figures as Markdown")
    args = parser.parse_args(argv)
    decks = 20 if args.quick else args.decks
    runs = {"without --fair": measure(decks, False), "with --fair": measure(decks, True)}
    print(f"Remembering against Steady, {decks} two-player decks ({2 * decks} deals), seed 1")
    for name, (result, c) in runs.items():
        mine, twin = result.bots["remembering"].win_share, result.bots["steady"].win_share
        print(f"  {name:15} win share {mine.mean:.3f} against {twin.mean:.3f}; "
              f"the difference {c.win_share}")  # fmt: skip
    if args.json:
        figures = {
            name: {"decks": c.decks, "remembering": result.bots["remembering"].win_share.mean,
                   "steady": result.bots["steady"].win_share.mean,
                   "difference": c.win_share.mean, "low": c.win_share.low,
                   "high": c.win_share.high}
            for name, (result, c) in runs.items()
        }  # fmt: skip
        Path(args.json).write_text(json.dumps(figures, indent=2))
    if args.docs:
        rows = [
            (name, f"{result.bots['remembering'].win_share.mean:.3f}",
             f"{result.bots['steady'].win_share.mean:.3f}", str(c.win_share))
            for name, (result, c) in runs.items()
        ]  # fmt: skip
        _docs.write(
            args.docs,
            [
                _docs.provenance("bench_fair.py", argv),
                _docs.table(
                    (
                        f"{decks} decks, {2 * decks} deals",
                        "Remembering's win share",
                        "Steady's",
                        "the difference [95%]",
                    ),
                    rows,
                ),
            ],
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
