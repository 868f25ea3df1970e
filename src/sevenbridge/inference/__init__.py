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

from .._kit.checks import sample_keys
from .._kit.rng import Rng
from ..state import GameState
from ..views import Observation
from ._worlds import SAMPLE_TRIES, certify, conflict, sample

__all__ = ["SAMPLE_TRIES", "certify", "conflict", "sample_state"]


def sample_state(observation: Observation, rng: random.Random | Rng | int) -> GameState:
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

    An observation without a history (a position set up by hand, read from a
    document with an empty history) tells nothing of the past: its unseen
    cards are dealt anywhere they fit.

    Args:
        observation: The viewer's observation.
        rng: A :class:`random.Random`, or an integer seed.

    Raises:
        TypeError: if ``observation`` is not an :class:`Observation`, or
            ``rng`` neither a :class:`random.Random` nor an integer.
        InvalidArgumentError: for an integer seed out of range (0 to 2**64 - 1).
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
    return sample(observation, key, seed)[0]
