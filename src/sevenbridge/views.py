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

from . import _tables as T
from ._kit import checks as _checks
from ._kit import hooks as _hooks
from ._kit.rng import Rng, shuffled
from .cards import CARDS, Card
from .errors import InvalidArgumentError, InvalidStateError, Message
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
    reshuffled: int
    """The cards the last reshuffle put in the stock (0 before any), so the stock
    holds only such cards, less those seen since."""
    winner: int | None
    deal_scores: tuple[int, ...] | None
    bonus: bool
    end_reason: str | None
    move_log: History | None
    """The public history (part of equality); ``history`` gives it as a tuple."""
    shown_hands: tuple[int, ...] | None = None
    """Every hand as a bitmask once the deal is over (hands are shown for the
    count); ``None`` while the deal goes on."""
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


def observe(state: GameState, player: int | None = None) -> Observation:
    """What ``player`` may know of ``state``.

    Args:
        state: The full position.
        player: Whose view; by default the player to act
            (:attr:`GameState.current_player`), which is what a bot is handed.

    Raises:
        TypeError: if ``state`` is not a GameState or ``player`` not an int.
        InvalidArgumentError: if ``player`` is not a player of the deal, or is
            left out once the deal is over (nobody is to act then).

    >>> from sevenbridge import deal
    >>> view = observe(deal(seed=4), 0)
    >>> view.viewer, view.current_player, view.phase.value
    (0, 1, 'draw')
    """
    if not isinstance(state, GameState):
        raise TypeError(f"state must be a GameState, not {type(state).__name__}")
    if player is None:
        if state.current_player is None:
            raise InvalidArgumentError(
                Message(
                    "invalid_argument.deal_over_and_nobody",
                    "the deal is over and nobody is to act: say whose view you want",
                )
            )
        player = state.current_player
    player = _checks.seat(player, state.players)
    return Observation(
        rules=state.rules,
        players=state.players,
        dealer=state.dealer,
        viewer=player,
        phase=state.phase,
        current_player=state.current_player,
        hand_mask=state.hand_masks[player],
        hand_sizes=tuple(h.bit_count() for h in state.hand_masks),
        stock_size=len(state.stock_cards),
        discard_cards=state.discard_cards,
        table=state.table,
        meld_owners=state.meld_owners,
        played=state.played,
        normal_turns=state.normal_turns,
        turns_done=state.turns_done,
        discarder=state.discarder,
        claim_queue=state.claim_queue,
        pending_pon=state.pending_pon,
        turn_clean=state.turn_clean,
        turn_by_claim=state.turn_by_claim,
        reshuffles=state.reshuffles,
        reshuffled=state.reshuffled,
        winner=state.winner,
        deal_scores=state.deal_scores,
        bonus=state.bonus,
        end_reason=state.end_reason,
        move_log=state.move_log,
        shown_hands=state.hand_masks if state.phase is Phase.OVER else None,
    )


def sample_state(observation: Observation, rng: random.Random | Rng | int) -> GameState:
    """A full state consistent with ``observation``: the cards the viewer cannot
    see are dealt at random among the hidden hands and the stock.

    The sample keeps everything the observation tells: the viewer's hand, the
    table, the discard pile, every count, the cards of a pon that waits in the
    claim window (they are in the caller's hand), and after a reshuffle the
    stock's cards (the stock holds only cards the last reshuffle put there;
    those the viewer has seen since are not in it). Among the placements that
    fit, each is equally likely: the sample does not guess from how the others
    played (for example, that a player who passed a pon probably lacked the
    pair). ``observe(sample_state(view, rng), view.viewer) == view`` always
    holds, and the sample is a position the engine accepts and plays on. The
    sampled state gets a fresh seed from ``rng`` for any later reshuffle.

    Args:
        observation: The viewer's observation.
        rng: A :class:`random.Random`, or an integer seed.

    Raises:
        TypeError: if ``observation`` is not an :class:`Observation`.

    >>> from sevenbridge import deal
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
    if isinstance(rng, int) and not isinstance(rng, bool):
        rng = Rng(rng)
    if isinstance(rng, Rng):
        key, stock_key = rng.next64(), rng.next64()
        seed = rng.next64() >> 1
    elif isinstance(rng, random.Random):
        key, stock_key = rng.getrandbits(64), rng.getrandbits(64)
        seed = rng.getrandbits(63)
    else:
        raise TypeError(f"rng must be a random.Random or an int seed, not {type(rng).__name__}")
    o = observation
    seen = o.hand_mask
    for c in o.discard_cards:
        seen |= 1 << c
    for tm in o.table:
        seen |= tm.mask
    unseen = [c for c in range(o.rules.deck_size) if not seen >> c & 1]
    hidden = sum(size for p, size in enumerate(o.hand_sizes) if p != o.viewer)
    if len(unseen) != hidden + o.stock_size:
        raise InvalidStateError(
            Message(
                "invalid_state.observation_card_counts_do",
                "observation: the card counts do not add up to the deck",
            )
        )
    # Cards known to be in a hidden hand: every card once the deal is over
    # (hands are shown), else those of a pon waiting in the window.
    known = {p: 0 if o.shown_hands is None else o.shown_hands[p] for p in range(o.players)}
    if o.pending_pon is not None and o.pending_pon[0] != o.viewer:
        known[o.pending_pon[0]] = o.pending_pon[1]
    forced = 0
    for mask in known.values():
        forced |= mask
    free = [c for c in unseen if not forced >> c & 1]
    # The stock: after a reshuffle, only reshuffled cards; before, any free card.
    candidates = [c for c in free if o.reshuffled >> c & 1] if o.reshuffled else free
    if len(candidates) < o.stock_size:
        raise InvalidStateError(
            Message(
                "invalid_state.observation_too_few_unseen",
                "observation: too few unseen cards can be in the stock",
            )
        )
    stock = shuffled(candidates, stock_key)[: o.stock_size]
    in_stock = sum(1 << c for c in stock)
    rest = shuffled([c for c in free if not in_stock >> c & 1], key)
    hands = []
    i = 0
    for p, size in enumerate(o.hand_sizes):
        if p == o.viewer:
            hands.append(o.hand_mask)
            continue
        mask = known[p]
        take = size - mask.bit_count()
        for c in rest[i : i + take]:
            mask |= 1 << c
        hands.append(mask)
        i += take
    return GameState(
        rules=o.rules, players=o.players, dealer=o.dealer, phase=o.phase,
        current_player=o.current_player, hand_masks=tuple(hands), stock_cards=tuple(stock),
        discard_cards=o.discard_cards, table=o.table, meld_owners=o.meld_owners,
        played=o.played, normal_turns=o.normal_turns, turns_done=o.turns_done,
        discarder=o.discarder, claim_queue=o.claim_queue, pending_pon=o.pending_pon,
        turn_clean=o.turn_clean, turn_by_claim=o.turn_by_claim, reshuffles=o.reshuffles,
        reshuffled=o.reshuffled, seed=seed, winner=o.winner, deal_scores=o.deal_scores,
        bonus=o.bonus, end_reason=o.end_reason, move_log=o.move_log,
    )  # fmt: skip
