"""The mahjong :class:`State` value and the :class:`Phase` of a round."""

from __future__ import annotations

import enum
from typing import Any

import attrs

from .._kit import hooks as _hooks
from .actions import Action
from .hands import Meld, MeldKind, decompositions
from .rules import Rules
from .tiles import Tile

__all__ = ["Phase", "State"]


class Phase(str, enum.Enum):
    """Which decision the round is waiting for."""

    DRAW = "draw"
    """The player in turn draws from the wall."""
    PLAY = "play"
    """The player in turn discards (or declares a mahjong or a kong)."""
    CLAIM = "claim"
    """A discard is open to claims; the asked player claims it or passes."""
    OVER = "over"
    """The round has ended (somebody won, or the wall ran out)."""


@attrs.frozen(repr=False)
class State:
    """One position of a round of mahjong: everything, hidden tiles included.

    States come from :func:`~sevenbridge.mahjong.deal` and
    :func:`~sevenbridge.mahjong.apply` (or from JSON, which is checked); they are
    frozen and compare by value. Seats are numbered clockwise from 0; with
    ghosts the table has four seats and the ghosts' seats are in ``ghosts``.

    >>> from sevenbridge.mahjong import deal
    >>> state = deal(seed=1)
    >>> len(state.hands[0]), len(state.wall), state.phase.value, state.current_player
    (13, 84, 'draw', 0)
    """

    rules: Rules
    """The rules of the round."""
    players: int
    """Real players, 2 to 4."""
    seats: int
    """Seats at the table, ``players`` or 4 when ghosts fill it."""
    ghosts: tuple[int, ...]
    """The seats of the ghosts (none unless the rules ask for ghosts)."""
    dealer: int
    """The seat of the dealer, who plays first."""
    hands: tuple[tuple[Tile, ...], ...]
    """Each seat's concealed tiles, sorted."""
    wall: tuple[Tile, ...]
    """The tiles still to draw, in order. Turns draw from the front, replacement
    tiles (after a kong or a bonus tile) from the back."""
    discards: tuple[tuple[Tile, ...], ...]
    """Each seat's discards still on the table (a claimed tile leaves), oldest first."""
    melds: tuple[Meld, ...]
    """The sets laid face up, in the order they were made, each with its owner."""
    bonus: tuple[tuple[Tile, ...], ...]
    """Each seat's flowers and seasons, set aside."""
    phase: Phase
    """What the round waits for."""
    turn: int
    """Whose turn it is (during claims, the discarder's)."""
    current_player: int
    """Who must act now (during claims, the player being asked)."""
    last_discard: Tile | None
    """The discard open to claims (during claims), else ``None``."""
    claims: tuple[Action, ...]
    """The claims made so far on the open discard, in the order asked (hidden from
    the other players)."""
    asking: tuple[int, ...]
    """The players still to be asked after the current one, in order."""
    drew: bool
    """Whether the player in turn drew their last tile from the wall (only then
    may they declare a mahjong of their own)."""
    winner: int | None
    """The winner's seat, once someone has won."""
    self_drawn: bool
    """Whether the winner completed the hand from the wall."""
    ghost_key: int
    """The seed of the ghosts' random discards."""
    _legal: Any = attrs.field(default=None, eq=False, init=False, repr=False)

    @property
    def is_over(self) -> bool:
        """Whether the round has ended."""
        return self.phase is Phase.OVER

    @property
    def is_draw(self) -> bool:
        """Whether the round ended with nobody winning (the wall ran out)."""
        return self.phase is Phase.OVER and self.winner is None

    def hand(self, seat: int) -> tuple[Tile, ...]:
        """The concealed tiles of ``seat``."""
        return self.hands[seat]

    def melds_of(self, seat: int) -> tuple[Meld, ...]:
        """The sets ``seat`` has laid face up."""
        return tuple(m for m in self.melds if m.owner == seat)

    def is_ghost(self, seat: int) -> bool:
        """Whether ``seat`` is a ghost's."""
        return seat in self.ghosts

    @property
    def real_seats(self) -> tuple[int, ...]:
        """The seats of the real players, in order."""
        return tuple(s for s in range(self.seats) if s not in self.ghosts)

    @property
    def points(self) -> int:
        """The winner's points (1, plus a point for each pung or kong of dragons
        and for a hand with no claimed discard when the rules add those bonuses),
        or 0 before a win and for a drawn round."""
        return win_points(self)

    @property
    def scores(self) -> tuple[int, ...]:
        """Each seat's score for the round (the winner's points, 0 for the others).

        >>> from sevenbridge.mahjong import deal
        >>> deal(seed=3).scores
        (0, 0, 0, 0)
        """
        out = [0] * self.seats
        if self.winner is not None:
            out[self.winner] = self.points
        return tuple(out)

    def to_json(self, *, indent: int | None = None) -> str:
        """The state as a JSON document (every field, hidden tiles included).

        >>> from sevenbridge.mahjong import deal, State
        >>> State.from_json(deal(seed=2).to_json()) == deal(seed=2)
        True
        """
        return str(_hooks.call("mahjong_state_to_json", self, indent=indent))

    @classmethod
    def from_json(cls, text: str | bytes) -> State:
        """Read a state written by :meth:`to_json`, checking that it describes a
        real position (the tiles of a full set, each once, the sizes of the hands).

        Raises:
            InvalidStateError: naming what is wrong and where.
        """
        state: State = _hooks.call("mahjong_state_from_json", text)
        return state

    def __str__(self) -> str:
        return str(_hooks.call("mahjong_render", self))

    def _repr_svg_(self) -> str:
        """The table drawn as SVG (:func:`sevenbridge.mahjong.svg.table`), for notebooks."""
        return str(_hooks.call("mahjong_repr_svg", self))

    def __repr__(self) -> str:
        if self.phase is Phase.OVER:
            end = "drawn" if self.winner is None else f"won by seat {self.winner}"
            return f"<mahjong State over, {end}>"
        return f"<mahjong State {self.phase.value}, seat {self.current_player} to act>"


def win_points(state: State) -> int:
    """The winner's points (see :attr:`State.points`)."""
    if state.winner is None:
        return 0
    rules = state.rules
    points = 1
    own = state.melds_of(state.winner)
    if rules.dragon_pung_bonus:
        splits = decompositions(state.hands[state.winner], own)
        points += max(
            (
                sum(
                    1
                    for m in s
                    if m.kind in (MeldKind.PUNG, MeldKind.KONG) and m.tiles[0].is_dragon
                )
                for s in splits
            ),
            default=0,
        )
    if rules.concealed_bonus and state.self_drawn and all(m.claimed is None for m in own):
        points += 1
    return points
