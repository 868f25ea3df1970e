"""The mahjong :class:`GameState` value, the :class:`Phase` of a round, and
:func:`returns` for learners and searches."""

from __future__ import annotations

import enum
import functools
from typing import Any

import attrs

from .._kit import checks as _checks
from .._kit import hooks as _hooks
from .._kit.history import History
from .._kit.outcome import Outcome
from .actions import Action
from .hands import Meld, MeldKind, decompositions
from .rules import Rules
from .tiles import Tile

__all__ = ["GameState", "Outcome", "Phase", "State", "outcome", "returns", "seats"]


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


#: Phase.OVER as a module constant (an enum member costs a metaclass lookup
#: at every use on Python 3.11), for :attr:`GameState.is_over`.
_OVER = Phase.OVER


# Not slotted: the engine builds a new state by copying the old one's
# field dictionary in one call and changing a few entries.
@attrs.frozen(repr=False, slots=False)
class GameState:
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
    """Each seat's discards, oldest first. A claimed tile stays in its row,
    marked: its place is in :attr:`taken` (a document older than that field
    has its claimed tiles out of the rows)."""
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
    seed: int = 0
    """The seed the round was dealt from (``deal(..., seed=seed)`` deals it again;
    a round dealt from a stacked wall keeps the seed given with it, or 0)."""
    move_log: History | None = None
    """The actions played so far (part of equality); :attr:`history` gives them
    as a tuple. The ghosts' moves are not in it: they follow from the seed."""
    taken: tuple[tuple[int, int], ...] = ()
    """The claimed discards in the order claimed, each as the discarder's seat
    and the tile's place in that seat's row of :attr:`discards` (the tile
    itself is in the claimer's meld)."""
    last_drawn: Tile | None = None
    """The tile the player in turn has just drawn (from the wall, or as a
    replacement after a kong or a bonus tile) while they decide what to do
    with it; ``None`` otherwise (after a claim, before a draw)."""
    # The engine's caches, not part of the value: the legal actions, and each
    # seat's hand as a count key (see sevenbridge.mahjong._tables), which the
    # engine keeps up to date from one state to the next (mahjong._fields).
    _legal: Any = attrs.field(default=None, eq=False, init=False, repr=False)
    _keys: Any = attrs.field(default=None, eq=False, init=False, repr=False)

    # A cached property (kept in the state's field dictionary): the engine
    # writes it into every state it makes, so that a loop's ``while not
    # state.is_over`` reads a dictionary entry instead of calling a function.
    @functools.cached_property
    def is_over(self) -> bool:
        """Whether the round has ended."""
        return self.phase is _OVER

    @property
    def history(self) -> tuple[Action, ...]:
        """Every action played since the deal, oldest first.

        >>> from sevenbridge.mahjong import deal, apply, Draw
        >>> apply(deal(seed=1), Draw(0)).history
        (Draw(0),)
        """
        return () if self.move_log is None else self.move_log.actions()

    @property
    def is_draw(self) -> bool:
        """Whether the round ended with nobody winning (the wall ran out)."""
        return self.phase is Phase.OVER and self.winner is None

    def hand(self, seat: int) -> tuple[Tile, ...]:
        """The concealed tiles of ``seat``.

        Raises:
            InvalidArgumentError: if ``seat`` is not a seat at the table.
        """
        return self.hands[_checks.seat(seat, self.seats, "seat")]

    def melds_of(self, seat: int) -> tuple[Meld, ...]:
        """The sets ``seat`` has laid face up."""
        seat = _checks.seat(seat, self.seats, "seat")
        return tuple(m for m in self.melds if m.owner == seat)

    def is_ghost(self, seat: int) -> bool:
        """Whether ``seat`` is a ghost's."""
        return _checks.seat(seat, self.seats, "seat") in self.ghosts

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

        >>> from sevenbridge.mahjong import deal, GameState
        >>> GameState.from_json(deal(seed=2).to_json()) == deal(seed=2)
        True
        """
        return str(_hooks.call("mahjong_state_to_json", self, indent=indent))

    @classmethod
    def from_json(cls, text: str | bytes) -> GameState:
        """Read a state written by :meth:`to_json`, checking that it describes a
        real position (the tiles of a full set, each once, the sizes of the hands).

        Raises:
            InvalidStateError: naming what is wrong and where.
        """
        state: GameState = _hooks.call("mahjong_state_from_json", text)
        return state

    def __str__(self) -> str:
        return str(_hooks.call("mahjong_render", self))

    def _repr_svg_(self) -> str:
        """The table drawn as SVG (:func:`sevenbridge.mahjong.svg.table`), for notebooks."""
        return str(_hooks.call("mahjong_repr_svg", self))

    def _repr_html_(self) -> str:
        """The table drawn inline in HTML, its title and description kept, for notebooks."""
        return str(_hooks.call("mahjong_repr_html", self))

    def __repr__(self) -> str:
        if self.phase is Phase.OVER:
            end = "drawn" if self.winner is None else f"won by seat {self.winner}"
            return f"<mahjong GameState over, {end}>"
        return f"<mahjong GameState {self.phase.value}, seat {self.current_player} to act>"


def lying(discards: tuple[tuple[Tile, ...], ...], taken: tuple[tuple[int, int], ...]) -> list[Tile]:
    """The discards still lying in the rows: every row's tiles but the claimed
    ones (those are counted in the melds)."""
    gone = set(taken)
    return [
        t for seat, row in enumerate(discards) for i, t in enumerate(row) if (seat, i) not in gone
    ]


def win_points(state: GameState) -> int:
    """The winner's points (see :attr:`GameState.points`)."""
    if state.winner is None:
        return 0
    return _points(
        state.rules, state.hands[state.winner], state.melds_of(state.winner), state.self_drawn
    )


def _points(rules: Rules, hand: tuple[Tile, ...], own: tuple[Meld, ...], self_drawn: bool) -> int:
    """The points of a winning hand (concealed tiles and own melds)."""
    points = 1
    if rules.dragon_pung_bonus:
        splits = decompositions(hand, own)
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
    if rules.concealed_bonus and self_drawn and all(m.claimed is None for m in own):
        points += 1
    return points


def returns(state: object) -> tuple[float, ...]:
    """Each seat's result of a finished round as one number, higher always better.

    The winner's points measured against the real players' average: the winner
    gets the points less that average, every other real player minus the
    average, so the numbers add up to zero (as the card game's
    :func:`sevenbridge.returns` do). Ghosts' seats get 0, and so does every seat
    during the round and after a drawn one. There is one number per seat.

    Args:
        state: A :class:`GameState` or an :class:`~sevenbridge.mahjong.Observation`
            (a finished round shows every hand).

    Raises:
        TypeError: for anything else.

    >>> from sevenbridge.mahjong import deal, apply, observe, GreedyPlayer
    >>> state, bot = deal(players=3, seed=2), GreedyPlayer(2)
    >>> returns(state)
    (0.0, 0.0, 0.0)
    >>> while not state.is_over:
    ...     state = apply(state, bot(observe(state)))
    >>> state.winner, state.points, returns(state)
    (0, 1, (0.6666666666666667, -0.3333333333333333, -0.3333333333333333))
    """
    position: Any = state
    if isinstance(state, GameState):
        hands: tuple[tuple[Tile, ...], ...] | None = state.hands
    elif hasattr(state, "shown_hands") and hasattr(state, "viewer"):
        hands = position.shown_hands
    else:
        raise TypeError(
            f"returns needs a mahjong GameState or Observation, not {type(state).__name__}"
        )
    seats: int = position.seats
    winner: int | None = position.winner
    if winner is None or hands is None:
        return (0.0,) * seats
    own = tuple(m for m in position.melds if m.owner == winner)
    points = _points(position.rules, hands[winner], own, position.self_drawn)
    ghosts: tuple[int, ...] = position.ghosts
    mean = points / (seats - len(ghosts))
    return tuple(
        0.0 if seat in ghosts else (points if seat == winner else 0) - mean for seat in range(seats)
    )


#: The old name of :class:`GameState`, kept for code written before the games
#: shared one protocol.
State = GameState


def seats(state: GameState) -> tuple[int, ...]:
    """The seats of a round's real players, in order: the ghosts' seats left
    out (the game protocol's question).

    >>> from sevenbridge.mahjong import Rules, deal
    >>> seats(deal(Rules.preset("full"), players=2, seed=1))
    (0, 2)
    """
    if not isinstance(state, GameState):
        raise TypeError(f"seats needs a GameState, not {type(state).__name__}")
    return tuple(s for s in range(state.seats) if s not in state.ghosts)


def outcome(state: GameState) -> Outcome | None:
    """How a finished round ended: each seat's score, the winner (``None``
    for a drawn round) and why, ``"mahjong"`` or ``"drawn"``; ``None`` while
    the round is in play.

    >>> from sevenbridge.mahjong import deal
    >>> outcome(deal(seed=3)) is None
    True
    """
    if not isinstance(state, GameState):
        raise TypeError(f"outcome needs a GameState, not {type(state).__name__}")
    if not state.is_over:
        return None
    reason = "drawn" if state.winner is None else "mahjong"
    return Outcome(scores=tuple(state.scores), winner=state.winner, reason=reason)
