"""Worlds dealt as greedy players would have left them: a belief model of the
other seats, for :class:`~sevenbridge.bots.ISMCTSPlayer`'s search.

:func:`~sevenbridge.sample_state` deals the cards a player cannot see evenly
among the places the record allows. Players who play as
:class:`~sevenbridge.bots.GreedyPlayer` does (and the search's playouts play
every seat so) leave tracks that the record alone does not enforce:

* at the end of each of their turns they hold no meld they could lay down,
  since the greedy policy lays down every meld it can;
* the card they threw last was the greedy policy's choice from the hand they
  held then (the cards they hold now, and that card).

:func:`greedy_worlds` deals a world from :func:`~sevenbridge.sample_state`,
then, for each other seat that has discarded, deals that seat's hidden cards
again from those cards and the stock until its hand fits both tracks (a few
tries at most; if none fits, the hand that breaks them least). Two passes over
the seats let each seat's hand settle against the others'. This is Gibbs
sampling, one seat at a time from its hand given the others', cut short: the
worlds lean towards the hands greedy players hold, without the cost of exact
odds.

Some cards stay where they are, in a hand or in the stock: the joker (a
claim window may show who held it), the cards of every chi or pon named in the
record, and those of a pon waiting in the claim window (the record shows
them). Where a redeal could break what the record tells of the hidden
cards in other ways (after a reshuffle, whose stock's cards only some hands
may hold, or under ``claim_window='able_only'``, whose windows say who could
pon), and once the deal is over and every hand shown, the world is
:func:`~sevenbridge.sample_state`'s as it is. So
``observe(greedy_worlds(view, key), view.viewer) == view`` always holds, as
for :func:`~sevenbridge.sample_state`.
"""

from __future__ import annotations

from typing import Final

import attrs

from .._kit.rng import Rng, shuffled
from .._tables import bits
from ..actions import Chi, Discard, Pon
from ..cards import JOKER_INDEX
from ..engine._keys import OP_DISCARD
from ..engine._playout import greedy_moves
from ..engine.legal import lay_downs
from ..rules import ClaimWindow, Rules
from ..state import GameState
from ..views import Observation
from . import sample_state

__all__ = ["PASSES", "REDEALS", "greedy_worlds", "misfits"]

#: Redeals of one seat's hidden cards, at most, in one pass.
REDEALS: Final = 8
#: Passes over the seats.
PASSES: Final = 2


def greedy_worlds(view: Observation, key: int) -> GameState:
    """A world that ``view`` fits, its hidden hands leaning towards those that
    greedy players would hold (see the module's text); the same ``view`` and
    ``key`` give the same world.

    >>> from sevenbridge import Rules, apply, deal, observe
    >>> from sevenbridge.bots import GreedyPlayer
    >>> state, bot = deal(Rules.nintendo(), seed=3), GreedyPlayer(0)
    >>> while state.turns_done < 6:
    ...     state = apply(state, bot(observe(state)))
    >>> view = observe(state, 0)
    >>> observe(greedy_worlds(view, 11), 0) == view
    True
    """
    world = sample_state(view, key)
    last = _last_discards(view)
    seats = [p for p in sorted(last) if p != view.viewer]
    if (
        not seats
        or view.shown_hands is not None
        or view.reshuffles
        or view.rules.claim_window is ClaimWindow.ABLE_ONLY
    ):
        return world
    rules = view.rules
    pinned = _pinned(view)
    rng = Rng(key ^ 0x2545F4914F6CDD1D)
    hands = list(world.hand_masks)
    stock = list(world.stock_cards)
    changed = False
    for _ in range(PASSES):
        for p in seats:
            hand, thrown = hands[p], last[p]
            best = misfits(hand, thrown, rules, pinned)
            if not best:
                continue
            kept = hand & pinned
            free = bits(hand & ~pinned)
            loose = [i for i, c in enumerate(stock) if not pinned >> c & 1]
            found, found_stock = hand, stock
            for _ in range(REDEALS):
                pool = shuffled(free + [stock[i] for i in loose], rng.next64())
                redealt = kept
                for c in pool[: len(free)]:
                    redealt |= 1 << c
                bad = misfits(redealt, thrown, rules, pinned)
                if bad < best:
                    best, found = bad, redealt
                    found_stock = list(stock)
                    for i, c in zip(loose, pool[len(free) :], strict=True):
                        found_stock[i] = c
                    if not bad:
                        break
            if found != hand:
                hands[p], stock, changed = found, found_stock, True
    if not changed:
        return world
    return attrs.evolve(world, hand_masks=tuple(hands), stock_cards=tuple(stock))


def misfits(hand: int, thrown: int | None, rules: Rules, pinned: int = 0) -> int:
    """How many cards of ``hand`` (a mask; leaving out those of ``pinned``)
    break a greedy player's tracks: the cards of a meld it could lay down,
    and, if it last threw ``thrown`` holding ``hand`` and that card, the cards
    the greedy policy would have thrown before it. 0 for a hand a greedy
    player can hold at the end of its turn.

    >>> from sevenbridge import Rules, Card
    >>> def mask(text): return sum(1 << Card.parse(c).index for c in text.split())
    >>> rules = Rules.standard()
    >>> misfits(mask("2C 3C 4C 9H"), None, rules)  # a run it would have laid down
    3
    >>> misfits(mask("2C 2D 9H"), Card.parse("KS").index, rules)  # the King, rightly
    0
    >>> misfits(mask("2C 2D KS"), Card.parse("9H").index, rules)  # not the King first
    1
    """
    bad = 0
    melds = lay_downs(hand, rules)
    if melds:
        bad |= melds[0][0]
    if thrown is not None:
        bad |= _thrown_before(hand | 1 << thrown, thrown, rules)
    return (bad & ~pinned).bit_count()


def _thrown_before(hand: int, thrown: int, rules: Rules) -> int:
    """The cards of ``hand`` that the greedy policy would throw before ``thrown``
    (asked, tier by tier, for its choice among the cards still in play)."""
    left: list[tuple[int, ...]] = [(OP_DISCARD, 0, c) for c in bits(hand)]
    before = 0
    while left:
        best = greedy_moves(left, hand, rules)
        if any(k[2] == thrown for k in best):
            break
        for k in best:
            before |= 1 << k[2]
        left = [k for k in left if k not in best]
    return before


def _last_discards(view: Observation) -> dict[int, int]:
    """Each player's latest discard in the record, by player."""
    last: dict[int, int] = {}
    for action in view.history:
        if isinstance(action, Discard):
            last[action.player] = action.card.index
    return last


def _pinned(view: Observation) -> int:
    """The cards a redeal must leave in place: the joker, those of every chi
    or pon in the record, and those of a pon waiting in the claim window."""
    pinned = 1 << JOKER_INDEX
    for action in view.history:
        if isinstance(action, (Chi, Pon)):
            for card in action.cards:
                pinned |= 1 << card.index
    if view.pending_pon is not None:
        pinned |= view.pending_pon[1]
    return pinned
