"""What one player may know: :func:`observe`, :class:`Observation`, and
:func:`sample_state` for search bots that need full states consistent with a view.

>>> from sevenbridge import deal, observe, legal_actions
>>> state = deal(seed=4)
>>> view = observe(state, 1)
>>> view.hand_sizes, view.stock_size, len(view.hand)
((7, 7, 7), 30, 7)
>>> legal_actions(view) == legal_actions(state)
True
"""

from __future__ import annotations

import random
from typing import Any

import attrs

from . import _hooks
from . import _tables as T
from ._random import Rng, shuffled
from .cards import CARDS, Card
from .rules import Rules
from .state import GameState, History, Phase, TableMeld, TableView

__all__ = ["Observation", "observe", "sample_state"]


@attrs.frozen(repr=False, cache_hash=True)
class Observation(TableView):
    """A player's view of a position: a frozen, hashable value.

    It holds the viewer's own hand, the size of every hand, the table, the
    discard pile, the stock's size, whose decision it is and in which phase,
    the scores, and the public history of the deal (every action, which shows
    who drew from the stock but not what they drew). It never holds another
    player's cards, the order of the stock or the deal's seed.
    """

    rules: Rules
    players: int
    dealer: int
    viewer: int
    """The player whose view this is."""
    phase: Phase
    current_player: int | None
    hand_mask: int
    """The viewer's hand as a bitmask of card indexes."""
    hand_sizes: tuple[int, ...]
    stock_size: int
    discard_cards: tuple[int, ...]
    table: tuple[TableMeld, ...]
    meld_owners: int
    played: int
    normal_turns: int
    turns_done: int
    discarder: int
    claim_queue: tuple[int, ...]
    pending_pon: tuple[int, int, int] | None
    turn_clean: bool
    turn_by_claim: bool
    reshuffles: int
    winner: int | None
    deal_scores: tuple[int, ...] | None
    bonus: bool
    end_reason: str | None
    move_log: History | None
    """The public history (part of equality); ``history`` gives it as a tuple."""
    _legal: Any = attrs.field(default=None, eq=False, init=False, repr=False)

    @property
    def hand(self) -> tuple[Card, ...]:
        """The viewer's cards, in display order."""
        return tuple(CARDS[c] for c in T.bits(self.hand_mask))

    def to_json(self, *, indent: int | None = None) -> str:
        """The observation as a JSON document; :meth:`from_json` reads it back."""
        return str(_hooks.call("observation_to_json", self, indent=indent))

    @classmethod
    def from_json(cls, text: str | bytes) -> Observation:
        """Read an observation written by :meth:`to_json`, checking everything.

        Raises:
            InvalidStateError: saying what is wrong and where.
        """
        view: Observation = _hooks.call("observation_from_json", text)
        return view

    def __repr__(self) -> str:
        who = "over" if self.current_player is None else f"player {self.current_player}"
        return (
            f"<Observation of player {self.viewer}: {self.phase.value}, {who}, "
            f"{len(self.hand_sizes)} players, stock {self.stock_size}, {len(self.table)} melds>"
        )


def observe(state: GameState, player: int) -> Observation:
    """What ``player`` may know of ``state``.

    Raises:
        ValueError: if ``player`` is not a player of the deal.

    >>> from sevenbridge import deal
    >>> view = observe(deal(seed=4), 0)
    >>> view.viewer, view.current_player, view.phase.value
    (0, 1, 'draw')
    """
    if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < state.players:
        raise ValueError(f"player must be 0 to {state.players - 1}, not {player!r}")
    return Observation(
        state.rules,
        state.players,
        state.dealer,
        player,
        state.phase,
        state.current_player,
        state.hand_masks[player],
        tuple(h.bit_count() for h in state.hand_masks),
        len(state.stock_cards),
        state.discard_cards,
        state.table,
        state.meld_owners,
        state.played,
        state.normal_turns,
        state.turns_done,
        state.discarder,
        state.claim_queue,
        state.pending_pon,
        state.turn_clean,
        state.turn_by_claim,
        state.reshuffles,
        state.winner,
        state.deal_scores,
        state.bonus,
        state.end_reason,
        state.move_log,
    )


def sample_state(observation: Observation, rng: random.Random | Rng | int) -> GameState:
    """A full state consistent with ``observation``: the cards the viewer cannot
    see are dealt at random among the hidden hands and the stock.

    ``observe(sample_state(view, rng), view.viewer) == view`` always holds. The
    sampled state gets a fresh seed from ``rng`` for any later reshuffle.

    Args:
        observation: The viewer's observation.
        rng: A :class:`random.Random`, or an integer seed.

    >>> from sevenbridge import deal
    >>> view = observe(deal(seed=4), 2)
    >>> guess = sample_state(view, 99)
    >>> observe(guess, 2) == view, guess.hand(2) == view.hand
    (True, True)
    """
    if isinstance(rng, int):
        rng = Rng(rng)
    if isinstance(rng, Rng):
        key = rng.next64()
        seed = rng.next64() >> 1
    else:
        key = rng.getrandbits(64)
        seed = rng.getrandbits(63)
    seen = observation.hand_mask
    for c in observation.discard_cards:
        seen |= 1 << c
    for tm in observation.table:
        seen |= tm.mask
    unseen = [c for c in range(observation.rules.deck_size) if not seen >> c & 1]
    hidden = sum(size for p, size in enumerate(observation.hand_sizes) if p != observation.viewer)
    if len(unseen) != hidden + observation.stock_size:
        raise ValueError("the observation's card counts do not add up to the deck")
    cards = shuffled(unseen, key)
    hands = []
    i = 0
    for p, size in enumerate(observation.hand_sizes):
        if p == observation.viewer:
            hands.append(observation.hand_mask)
            continue
        mask = 0
        for c in cards[i : i + size]:
            mask |= 1 << c
        hands.append(mask)
        i += size
    o = observation
    return GameState(
        o.rules, o.players, o.dealer, o.phase, o.current_player, tuple(hands), cards[i:],
        o.discard_cards, o.table, o.meld_owners, o.played, o.normal_turns, o.turns_done,
        o.discarder, o.claim_queue, o.pending_pon, o.turn_clean, o.turn_by_claim,
        o.reshuffles, seed, o.winner, o.deal_scores, o.bonus, o.end_reason, o.move_log,
    )  # fmt: skip
