"""What one player may know: :func:`observe` and :class:`Observation` (the
worlds a view fits are :func:`sevenbridge.sample_state`'s, in the sampler's
package).

>>> from sevenbridge import deal, observe, legal_actions
>>> state = deal(seed=4)
>>> view = observe(state, 1)
>>> view.hand_sizes, view.stock_size, len(view.hand)
((7, 7, 7), 30, 7)
>>> legal_actions(view) == legal_actions(state)
True
"""

from __future__ import annotations

from typing import Any

import attrs

from . import _tables as T
from ._kit import checks as _checks
from ._kit import hooks as _hooks
from .cards import CARDS, Card
from .errors import InvalidArgumentError, Message
from .rules import Rules
from .state import GameState, History, Phase, TableMeld, TableView

__all__ = ["Observation", "observe"]


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


#: The order of :class:`Observation`'s fields, in which :func:`observe` passes them.
_VIEW_FIELDS = (
    "rules", "players", "dealer", "viewer", "phase", "current_player", "hand_mask",
    "hand_sizes", "stock_size", "discard_cards", "table", "meld_owners", "played",
    "normal_turns", "turns_done", "discarder", "claim_queue", "pending_pon", "turn_clean",
    "turn_by_claim", "reshuffles", "reshuffled", "winner", "deal_scores", "bonus",
    "end_reason", "move_log", "shown_hands",
)  # fmt: skip
if tuple(f.name for f in attrs.fields(Observation) if f.init) != _VIEW_FIELDS:
    raise ImportError("Observation's fields moved: update _VIEW_FIELDS and observe()")


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
    hands = state.hand_masks
    # The fields by position, in the order of _VIEW_FIELDS (checked at import):
    # an environment builds a view for every bot's move, and keyword
    # arguments cost a third more than the rest of the call.
    view = Observation(
        state.rules, state.players, state.dealer, player, state.phase,
        state.current_player, hands[player], tuple(map(int.bit_count, hands)),
        len(state.stock_cards), state.discard_cards, state.table, state.meld_owners,
        state.played, state.normal_turns, state.turns_done, state.discarder,
        state.claim_queue, state.pending_pon, state.turn_clean, state.turn_by_claim,
        state.reshuffles, state.reshuffled, state.winner, state.deal_scores, state.bonus,
        state.end_reason, state.move_log, hands if state.phase is Phase.OVER else None,
    )  # fmt: skip
    legal = state._legal
    if legal is not None and player == state.current_player:
        # The state's legal actions, once worked out, are the viewer's: the
        # view keeps them too (a bot asks the view, apply the state).
        object.__setattr__(view, "_legal", legal)
    return view
