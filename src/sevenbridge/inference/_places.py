"""Where each card a view hides can be, and the even odds of each place:
:func:`place_prior`, the prior a belief model starts from (and is measured
against), and the places :func:`~sevenbridge.sample_state` deals to.
"""

from __future__ import annotations

from .._tables import bits
from ..views import Observation
from ._record import UPCARD
from ._worlds import _shared_timeline, _split, _Unfit, _unseen

__all__ = ["place_prior"]


def place_prior(view: Observation) -> tuple[tuple[float, ...], ...]:
    """The chance, by card (``rules.deck_size`` rows), that the card is in
    each seat's hand (by seat number) or in the stock (the last column), if
    the cards the view hides were dealt evenly among the places the record
    allows them: a hidden card of a class (the deal, or one reshuffle's stock)
    is in a place with the share of that class's hidden cards the place holds,
    by the counts the record fixes. A card the view shows (in the viewer's
    hand, the discards, the table) has a row of zeros; a card the record
    shows in a hand (a pon that waits, or lost, and was not played since) has
    a 1 there. Each row of a hidden card adds up to 1, with 0 wherever the
    card cannot be. Where the record no longer tells which card was the
    upcard, the rows are averaged over the upcards that fit. This is the even
    prior that :func:`~sevenbridge.sample_state` draws from before its
    checks of the claim windows (those can rule out more).

    >>> from sevenbridge import deal, observe
    >>> view = observe(deal(seed=4), 2)
    >>> prior = place_prior(view)
    >>> [round(x, 3) for x in prior[view.hand_mask.bit_length() - 1]]  # a card of its own
    [0.0, 0.0, 0.0, 0.0]
    >>> hidden = [row for row in prior if any(row)]
    >>> len(hidden), [round(x, 3) for x in hidden[0]]
    (44, [0.159, 0.159, 0.0, 0.682])

    Raises:
        TypeError: if ``view`` is not an :class:`~sevenbridge.Observation`.
        InvalidStateError: if the view's history does not lead to it.
    """
    if not isinstance(view, Observation):
        raise TypeError(f"view must be an Observation, not {type(view).__name__}")
    n, size = view.players, view.rules.deck_size
    rows = [[0.0] * (n + 1) for _ in range(size)]
    try:
        tl = _shared_timeline(view)
    except _Unfit:
        if view.history:
            from ._worlds import _unfit_view

            raise _unfit_view() from None
        tl = None
    if tl is None or view.shown_hands is not None:
        _even(view, rows)
        return tuple(tuple(r) for r in rows)
    upcards = (
        [u for u in bits(tl.upcard_candidates) if _split(view, tl, u) is not None]
        if tl.upcard == UPCARD
        else [-1 if tl.upcard is None else tl.upcard]
    )
    splits = [s for s in (_split(view, tl, u) for u in upcards) if s is not None]
    if not splits:
        _even(view, rows)
        return tuple(tuple(r) for r in rows)
    share = 1.0 / len(splits)
    last = tl.epochs - 1
    for split in splits:
        for p, hand in enumerate(split.hands):
            if p != view.viewer:
                for c in bits(hand):
                    rows[c][p] += share
        for j, pool in enumerate(split.pools):
            if not pool:
                continue
            counts = [split.need[p][j] for p in range(n)]
            counts.append(view.stock_size if j == last else 0)
            total = sum(counts)
            if not total:
                continue
            for c in pool:
                for q, k in enumerate(counts):
                    if k:
                        rows[c][q] += share * k / total
    return tuple(tuple(r) for r in rows)


def _even(view: Observation, rows: list[list[float]]) -> None:
    """The unseen cards spread by the hidden hands' sizes and the stock's,
    for a view whose record says nothing more (none, or every hand shown)."""
    n = view.players
    if view.shown_hands is not None:
        for p, hand in enumerate(view.shown_hands):
            if p != view.viewer:
                for c in bits(hand):
                    rows[c][p] = 1.0
        rest = _unseen(view) & ~sum(view.shown_hands)
        for c in bits(rest):
            rows[c][n] = 1.0
        return
    counts = [0 if p == view.viewer else s for p, s in enumerate(view.hand_sizes)]
    counts.append(view.stock_size)
    total = sum(counts)
    for c in bits(_unseen(view)):
        for q, k in enumerate(counts):
            if k and total:
                rows[c][q] = k / total
