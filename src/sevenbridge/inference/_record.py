"""A deal's public record as the sampler (:mod:`._worlds`) reads it: the
record's events and claim windows (:class:`Timeline`, :class:`Window`), what
the windows say of each hand arranged for the search (:class:`Plan`), and a
whole deal that leads to a sampled world (:class:`Certificate`).

These are attrs classes, kept apart from the search so that the compiled
build can compile :mod:`._worlds` (mypyc makes a compiled module's classes
native, and those cannot take attrs fields with defaults): the search reads
them as it reads any Python object.
"""

from __future__ import annotations

from typing import Any, Final

import attrs

from .._tables import bits
from ..engine.turn import HAND_SIZE
from ..rules import Rules

#: Stands for the upcard in a timeline while it is not known which card it was.
UPCARD: Final = -1

#: The kinds of a timeline's events (see :attr:`Timeline.events`).
OUT: Final = 0
DRAW: Final = 1
RESHUFFLE: Final = 2
WINDOW: Final = 3


@attrs.frozen
class Window:
    """A claim window of the record: who discarded what, and what was said."""

    index: int
    """How many actions of the history came before it opened."""
    discarder: int
    """Who discarded (-1 for the upcard)."""
    card: int
    """The discard (:data:`UPCARD` while the upcard is unknown)."""
    order: tuple[int, ...]
    """The players the engine considers, in order."""
    next_player: int
    """Who draws if nobody claims."""
    normal: int
    turns: int
    """The turn counters as the window opened."""
    run: tuple[tuple[int, tuple[int, ...]], ...]
    """The passes and pons said in it, as (player, operation key)."""
    claimer: int | None
    """Who took the discard (the last pon's caller), if the window closed on a claim."""
    is_open: bool
    """Whether the window is still open at the end of the record."""


@attrs.frozen
class Timeline:
    """A deal's public record, replayed on the public cards only."""

    rules: Rules
    players: int
    dealer: int
    events: tuple[tuple[int, ...], ...]
    """Forward order: (OUT, player, cards mask), (DRAW, player, epoch),
    (RESHUFFLE, epoch), (WINDOW, window number)."""
    windows: tuple[Window, ...]
    reshuffled: tuple[int, ...]
    """Each reshuffle's cards as a mask (index 0: none), without the upcard
    while it is unknown."""
    upcard: int | None
    """The upcard (``None`` without one, :data:`UPCARD` if the record no longer
    shows which card it was: it went into the first of several reshuffles)."""
    upcard_reshuffled: bool
    """Whether the upcard went into the first reshuffle."""
    upcard_candidates: int
    """While the upcard is unknown, the cards it may have been (a mask)."""
    open_state: tuple[int | None, tuple[int, ...], tuple[int, int, int] | None] | None
    """The open window's current player, queue and waiting pon, if one is open."""
    plans: dict[int, Plan] = attrs.field(factory=dict, eq=False, repr=False)
    """The sampler's plans, by upcard (filled on first use)."""
    counted: dict[int, tuple[list[list[int]], list[int]]] = attrs.field(
        factory=dict, eq=False, repr=False
    )
    """:meth:`counts` by upcard (filled on first use)."""
    fitting: dict[int, bool] = attrs.field(factory=dict, eq=False, repr=False)
    """:meth:`draws_fit` by upcard (filled on first use)."""
    out_cards: list[list[int]] = attrs.field(factory=list, eq=False, repr=False)
    """By event: the cards put out, as a list (filled on first use)."""
    still_held: dict[int, int] = attrs.field(factory=dict, eq=False, repr=False)
    """:func:`_still_held` by player (filled on first use)."""
    said: list[Any] = attrs.field(factory=list, eq=False, repr=False)
    """:func:`_window_said` (filled on first use)."""
    viewer_pasts: dict[tuple[int, int, int], tuple[bool, dict[int, int] | None, int]] = attrs.field(
        factory=dict, eq=False, repr=False
    )
    """By viewer, their hand and upcard: :func:`_viewer_past` (found once, from
    a key of their own: a pure function of the view)."""

    @property
    def epochs(self) -> int:
        """Stocks the deal has had: the dealt one and one per reshuffle."""
        return len(self.reshuffled)

    def reshuffle_masks(self, upcard: int) -> list[int]:
        """Each reshuffle's cards, the upcard ``upcard`` put into the first if it went there."""
        masks = list(self.reshuffled)
        if self.upcard_reshuffled and upcard >= 0:
            masks[1] |= 1 << upcard
        return masks

    def holdings(self, upcard: int) -> tuple[list[list[int]], list[int]]:
        """:meth:`counts`, kept for the next samples (copy before changing)."""
        found = self.counted.get(upcard)
        if found is None:
            held, cls, fits = self._count(upcard)
            found = self.counted[upcard] = (held, cls)
            self.fitting[upcard] = fits
        return found

    def draws_fit(self, upcard: int) -> bool:
        """Whether every draw can have taken a card of its stock: going back
        from the end, a player holds at each draw at least one card of that
        stock that they drew from it (cards held now, or put out later).
        Wrong guesses of an unknown upcard fail this. (Going back from the
        end, a player holds at each point what the record's counts give them
        going forward: so each draw is checked as :meth:`counts` passes it.)"""
        found = self.fitting.get(upcard)
        if found is None:
            self.holdings(upcard)
            found = self.fitting[upcard]
        return found

    def counts(self, upcard: int) -> tuple[list[list[int]], list[int]]:
        """How many cards of each class each player holds at the end of the record
        (``held[player][epoch]``: epoch 0 for cards held since the deal or drawn
        from the dealt stock, epoch j for cards drawn from the j-th reshuffled
        stock), and each card's class at the end (``-1`` for a card that never
        was in the stock nor a hand)."""
        held, cls, _ = self._count(upcard)
        return held, cls

    def _count(self, upcard: int) -> tuple[list[list[int]], list[int], bool]:
        """:meth:`counts` and :meth:`draws_fit`, in one pass."""
        masks = self.reshuffle_masks(upcard)
        cls = [0] * 53
        if upcard >= 0:
            cls[upcard] = -1  # in the discard pile, not in the dealt stock
        held = [[0] * len(masks) for _ in range(self.players)]
        for p in range(self.players):
            held[p][0] = HAND_SIZE
        fits = True
        if not self.out_cards:
            self.out_cards.extend(bits(e[2]) if e[0] == OUT else [] for e in self.events)
        for event, cards in zip(self.events, self.out_cards, strict=True):
            kind = event[0]
            if kind == OUT:
                p = event[1]
                for c in cards:
                    held[p][max(cls[c], 0)] -= 1
            elif kind == DRAW:
                p, j = event[1], event[2]
                if held[p][j] < 0:
                    fits = False  # no card of that stock left to have drawn
                held[p][j] += 1
            elif kind == RESHUFFLE:
                j = event[1]
                for c in bits(masks[j]):
                    cls[c] = j
        return held, cls, fits


@attrs.frozen
class Certificate:
    """A whole deal that leads through the record to a sampled world."""

    deck: tuple[int, ...]
    """The deck order for :func:`sevenbridge.deal`'s ``deck``."""
    stocks: tuple[tuple[int, ...], ...]
    """The order of each reshuffled stock, top card first."""


@attrs.frozen
class Plan:
    """What the claim windows of a record say of each player's hand, arranged
    for the backward walk."""

    facts: tuple[tuple[tuple[int, int, bool], ...], ...]
    """By window: (player, ABLE or JOKER, value)."""
    depends: tuple[bool, ...]
    """By window: whether its course depends on the hands (else any hands fit)."""
    cards: tuple[int, ...]
    """By window: its discard."""
    epoch_at: tuple[int, ...]
    """By event: the stock it happened in."""
    segments: tuple[tuple[tuple[int, int, int, bool], ...] | None, ...]
    """By event, for a draw: the drawer's outs and facts back to their previous
    draw, latest first, as (event, outs mask or -1, window, fact kind, value)."""
    tails: tuple[tuple[tuple[int, int, int, bool], ...], ...]
    """By player: the same after their last draw (their hand now decides them)."""
    draws: tuple[
        tuple[tuple[int, int, tuple[tuple[int, int, int, bool], ...] | None, int], ...], ...
    ]
    """By player, latest first: (event, stock, the segment back to their
    previous draw if a window says something there, the cards they put out
    in it)."""
    tail_outs: tuple[int, ...]
    """By player: the cards they put out since their last draw."""
    refusals: tuple[tuple[tuple[int, int], ...], ...]
    """By player, in order: (event, cards) for each window that passed them
    over (they could not pon its discard): every card of the discard's rank,
    or every card for the joker (they held no pair)."""
    outs_of: tuple[tuple[tuple[int, int], ...], ...]
    """By player, in order: (event, cards) for each time they put cards out."""
    positives: tuple[tuple[tuple[int, int, int, int, int], ...], ...]
    """By player: (event, window, fact kind, outs after it that may have been
    in the hand then, the classes the hand may have held then as a mask) for
    each window that says they held something, latest first."""
    held: dict[tuple[int, int], int]
    """By (window, player): the cards of a pon the player said there that did
    not take the discard (it lost to another pon, or waits in the open
    window): the record shows them, and they stayed in the hand."""
    fixed: dict[int, Any] = attrs.field(factory=dict, eq=False, repr=False)
    """By player: what :class:`PastSearch` reads of their past and never
    changes (filled on first use)."""
    guessed: tuple[int, ...] = ()
    """The windows on the upcard while the record no longer shows it (their
    discard is the plan's guess)."""
    shared: dict[Any, Any] = attrs.field(factory=dict, eq=False, repr=False)
    """What of that is the same for every guess of an upcard the record no
    longer shows (one dict for the plans of all guesses, see
    :func:`_plan_of_upcard`; filled on first use)."""
