"""Determinization: worlds dealt from what one seat can see, and the deals
that lead a record to a position.

:func:`sample_state` (also :func:`sevenbridge.sample_state`) deals the cards
a view hides in one of the ways they could lie, replaying the view's
record through the engine's own rules (:mod:`sevenbridge.engine`) to learn
what each claim window and each draw says of the hidden hands.
:meth:`GameState.from_json(verify=True) <sevenbridge.GameState.from_json>`
asks the same replay whether a position's own record can reach it. This
package is loaded on first use, by either of them: ``import sevenbridge``
does not load it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .._kit.checks import sample_keys
from .._kit.rng import Rng
from ..errors import InvalidArgumentError, Message
from ..state import GameState
from ..views import Observation
from ._places import place_prior
from ._worlds import SAMPLE_TRIES, WEIGHT_FLOOR, certify, conflict, sample

__all__ = ["SAMPLE_TRIES", "WEIGHT_FLOOR", "certify", "conflict", "place_prior", "sample_state"]


def sample_state(
    observation: Observation,
    rng: random.Random | Rng | int,
    *,
    weights: Sequence[Sequence[float]] | None = None,
) -> GameState:
    """A full state consistent with ``observation``: the cards the viewer cannot
    see are dealt at random among the hidden hands and the stock, in a way the
    engine could have reached through the view's history.

    The sample keeps everything the observation shows: the viewer's hand, the
    table, the discard pile, every count, the cards of a pon that waits in the
    claim window (they are in the caller's hand), and after a reshuffle the
    stock's cards. It also keeps what the history tells of the hidden cards:

    * where each hidden card can be: a card leaves the stock only when drawn,
      and a hand only by a play everyone sees, so each player holds exactly as
      many cards from each reshuffled stock as they drew from it and have not
      shown since;
    * what the claim windows showed. With ``claim_window='able_only'``
      (:class:`~sevenbridge.rules.ClaimWindow`) a player asked whether to pon
      could pon, and a player the rules allowed but who was not asked could
      not, each with the hand they held when that window opened. With
      ``pon_tie_break='joker_holder'`` (and the joker) a pon that waited shows
      that its caller held no joker, and a pon taken at once while others were
      still to be asked shows that its caller held it.

    Every window of the history counts, the old ones too: the sample comes
    with a whole deal (the deck, then every draw) that leads through the
    view's history to it, each window asking the same players and each pon
    waiting or not as it did. Beyond what the rules make the engine reveal,
    the sample does not guess from how the others played (for example, that a
    player who passed a pon probably lacked the pair). The hidden cards are
    first dealt uniformly at random, up to ``SAMPLE_TRIES`` (8) times, and a
    deal is kept when every hand's past fits (searched exhaustively): then the
    sample is drawn evenly from all the placements that fit. When those tries
    miss, a search that misses none finds one (in a random order, not evenly
    weighted). ``observe(sample_state(view, rng), view.viewer) == view``
    always holds, and the sample is a position the engine accepts and plays
    on. The sampled state gets a fresh seed from ``rng`` for any later
    reshuffle.

    With ``weights``, a belief about where the hidden cards lie (such as
    :class:`sevenbridge.rl.BeliefModel`'s), the quick tries deal each hidden
    card, in a random order, to one of the places that still need a card of
    its class with a chance proportional to its weight there; the counts come
    out as the record says and the same exact checks follow, so the world fits
    the view just as well, but leans where the weights lean (as the sequential
    deal does: not exactly the weights' odds). A weight of 0 where the record
    allows a card counts as a small share of the card's greatest weight
    (:data:`WEIGHT_FLOOR`). The search that the quick tries fall back on, and
    the views below with every hand shown or no history, deal as without
    weights.

    An observation without a history (a position set up by hand, read from a
    document with an empty history) tells nothing of the past: its unseen
    cards are dealt anywhere they fit.

    While the search runs, the interpreter's cycle collector (:mod:`gc`) is
    paused, for the whole process, and set back as it was when the search
    ends (a caller's ``gc.disable()`` stays in force): what the search learns
    is kept in many small containers that the collector would otherwise go
    over again and again. Another thread that makes much cyclic garbage
    meanwhile has it collected after the search.

    Args:
        observation: The viewer's observation.
        rng: A :class:`random.Random`, or an integer seed.
        weights: By card (``rules.deck_size`` rows), a weight for each seat's
            hand (by seat number) and then one for the stock: a row of
            ``players + 1`` numbers, 0 or more (the viewer's and those of the
            cards the view shows are not read). ``None`` deals evenly.

    Raises:
        TypeError: if ``observation`` is not an :class:`Observation`, or
            ``rng`` neither a :class:`random.Random` nor an integer.
        InvalidArgumentError: for an integer seed out of range (0 to 2**64 - 1),
            or ``weights`` without a row of ``players + 1`` numbers for
            every card.
        InvalidStateError: if the observation's history does not lead to it,
            or no deal fits it (an observation no real deal gives): the
            message names what stands in the way.

    >>> from sevenbridge import deal, observe
    >>> view = observe(deal(seed=4), 2)
    >>> guess = sample_state(view, 99)
    >>> observe(guess, 2) == view, guess.hand(2) == view.hand
    (True, True)
    """
    if not isinstance(observation, Observation):
        hint = " (a GameState already knows every card; observe(state, player) first)"
        kind = type(observation).__name__
        raise TypeError(
            f"observation must be an Observation, not {kind}"
            + (hint if isinstance(observation, GameState) else "")
        )
    key, seed = sample_keys(rng)
    if weights is not None:
        weights = _checked_weights(weights, observation)
    return sample(observation, key, seed, weights=weights)[0]


def _checked_weights(
    weights: Sequence[Sequence[float]], view: Observation
) -> Sequence[Sequence[float]]:
    """``weights`` as rows of floats, or an error saying what is wrong with them."""
    width = view.players + 1
    try:
        rows = [[float(x) for x in row] for row in weights]
    except (TypeError, ValueError):
        rows = []
    if len(rows) != view.rules.deck_size or any(
        len(r) != width or not all(0.0 <= x < float("inf") for x in r) for r in rows
    ):
        raise InvalidArgumentError(
            Message(
                "invalid_argument.weights_by_card",
                "weights must give each of the {cards} cards {width} numbers, 0 or more "
                "(each seat's and the stock's)",
                cards=view.rules.deck_size,
                width=width,
            )
        )
    return rows
