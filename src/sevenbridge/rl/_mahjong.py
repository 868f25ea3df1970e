"""Simple Mahjong for learners: a fixed action numbering, masks and a tensor.

:class:`sevenbridge.rl.ActionSpace` and :func:`sevenbridge.rl.observation_tensor`
come here when they are given the mahjong :class:`~sevenbridge.mahjong.Rules`
or a mahjong :class:`~sevenbridge.mahjong.Observation`. The mahjong package is
imported only then (``import sevenbridge.rl`` does not load it).
"""

from __future__ import annotations

import functools
import hashlib
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from .._kit import checks as _checks
from ..errors import InvalidArgumentError, Message
from ._actions import OTHER_GAMES, ActionSpace

if TYPE_CHECKING:
    # The declaration of this module's MahjongActionSpace that ActionSpace's
    # constructor names (see sevenbridge.rl._actions): its base for the checker.
    from ..mahjong.actions import Action as MahjongAction
    from ..mahjong.rules import Rules as MahjongRules
    from ..mahjong.state import GameState as MahjongState
    from ..mahjong.views import Observation as MahjongObservation
    from ._actions import _MahjongActionSpace as _SpaceBase

if not TYPE_CHECKING:
    _SpaceBase = ActionSpace

__all__ = [
    "MAHJONG_ACTION_SPACE_VERSION",
    "MahjongActionSpace",
    "mahjong_observation_tensor",
    "mahjong_tensor_fields",
    "returns",
]


@functools.cache
def _mj() -> Any:
    """The mahjong package, imported on first use (a cached call: the hot
    paths below would otherwise pay for an import statement on every call)."""
    from .. import mahjong

    return mahjong


@functools.cache
def _tensor() -> Any:
    """The module that builds the tensor's and the masks' bytes (in the mahjong
    package, which the compiled build compiles), imported on first use."""
    from ..mahjong import _tensor

    return _tensor


#: The version of the mahjong action numbering (changes only when an id changes).
MAHJONG_ACTION_SPACE_VERSION = 1

#: Kinds of playing tiles (the bonus tiles are never played: they are set aside).
_KINDS = 34
#: The four claim and turn actions without a tile, in id order.
_PLAIN = ("draw", "pass", "pung", "mahjong")
_DISCARD_BASE = len(_PLAIN)
_KONG_BASE = _DISCARD_BASE + _KINDS
_CHOW_BASE = _KONG_BASE + _KINDS


def _chow_pairs() -> list[tuple[int, int]]:
    """Every two tiles a chow takes from the hand (``(a, b)``, ``a < b``, of one
    suit, one or two apart), by suit, then lower tile, then gap."""
    out = []
    for suit in range(3):
        for low in range(9):
            for gap in (1, 2):
                if low + gap < 9:
                    out.append((suit * 9 + low, suit * 9 + low + gap))
    return out


_CHOWS = _chow_pairs()
_CHOW_IDS = {pair: _CHOW_BASE + i for i, pair in enumerate(_CHOWS)}
_SIZE = _CHOW_BASE + len(_CHOWS)


@functools.cache
def _labels() -> tuple[str, ...]:
    from ..mahjong.tiles import TILE_KINDS, format_tiles

    labels = list(_PLAIN)
    labels += [f"discard {t}" for t in TILE_KINDS]
    labels += [f"kong {t}" for t in TILE_KINDS]
    labels += [f"chow {format_tiles((TILE_KINDS[a], TILE_KINDS[b]))}" for a, b in _CHOWS]
    return tuple(labels)


class MahjongActionSpace(_SpaceBase):
    """The fixed numbering of every Simple Mahjong action, with legal-action masks.

    What :class:`ActionSpace` gives for the mahjong
    :class:`~sevenbridge.mahjong.Rules` (``ActionSpace(mahjong.Rules(), 4)``
    builds one of these). The ids: ``0`` Draw, ``1`` Pass, ``2`` Pung, ``3``
    Mahjong; then one Discard per kind of tile (34, by tile index: ``1m`` to
    ``9m``, ``1p`` to ``9p``, ``1s`` to ``9s``, the winds, the dragons); one
    Kong per kind of tile; and one Chow per two tiles a chow can take from the
    hand (45: by suit, lower tile, then a gap of one or two). The bonus tiles
    have no ids: they are set aside, never played. An id means the same action
    for every seat: the seat is the one to act in the position given to
    :meth:`decode`. The numbering is the same for every rule option and table
    size; it is versioned by :data:`MAHJONG_ACTION_SPACE_VERSION` and
    :attr:`digest` pins it.

    >>> from sevenbridge import mahjong
    >>> from sevenbridge.rl import ActionSpace
    >>> space = ActionSpace(mahjong.Rules(), 4)
    >>> type(space).__name__, space.size
    ('MahjongActionSpace', 117)
    >>> space.encode(mahjong.Chow(1, "46m")), space.label(space.encode(mahjong.Chow(1, "46m")))
    (79, 'chow 46m')
    """

    __slots__ = ("_rules",)

    def __init__(self, rules: MahjongRules | None = None, players: int = 4) -> None:
        from ..mahjong.engine import PLAYER_COUNTS
        from ..mahjong.rules import Rules

        if rules is None:
            rules = Rules()
        _checks.instance(rules, Rules, "rules", "a mahjong Rules value")
        self._rules = rules
        self.players = _checks.integer(players, "players", PLAYER_COUNTS[0], PLAYER_COUNTS[-1])

    @property
    def rules(self) -> MahjongRules:  # type: ignore[override]
        """The rules the numbering is for (a :class:`sevenbridge.mahjong.Rules`)."""
        return self._rules

    @property
    def size(self) -> int:
        """The number of ids, 117 (the length of a mask)."""
        return _SIZE

    @property
    def version(self) -> int:
        """The numbering's version, :data:`MAHJONG_ACTION_SPACE_VERSION`."""
        return MAHJONG_ACTION_SPACE_VERSION

    @property
    def digest(self) -> str:
        """A SHA-256 digest of the id table (every :meth:`label` in order)."""
        return _digest()

    @property
    def labels(self) -> tuple[str, ...]:
        """Every id's :meth:`label`, in id order."""
        return _labels()

    def label(self, action_id: int) -> str:
        """The id's action as short text, without the seat (``"discard 5p"``,
        ``"chow 46m"``).

        Raises:
            InvalidArgumentError: for an id out of range.
        """
        return _labels()[self._check_id(action_id)]

    def _check_id(self, action_id: int) -> int:
        if type(action_id) is not int:
            if isinstance(action_id, (int, np.integer)) and not isinstance(action_id, bool):
                action_id = int(action_id)
            else:
                raise TypeError(f"action id must be an int, not {_checks.type_name(action_id)}")
        if not 0 <= action_id < _SIZE:
            raise InvalidArgumentError(
                Message(
                    "invalid_argument.action_id_out_range",
                    "action id {action_id} is out of range (0 to {value})",
                    action_id=str(action_id),
                    value=str(_SIZE - 1),
                )
            )
        return action_id

    def encode(self, action: MahjongAction) -> int:  # type: ignore[override]
        """The id of ``action`` (the same for every seat).

        Raises:
            TypeError: if ``action`` is not a mahjong action.
            InvalidArgumentError: for a bonus tile (they are never played).

        >>> from sevenbridge import mahjong
        >>> ActionSpace(mahjong.Rules()).encode(mahjong.Discard(2, "E"))
        31
        """
        a = _mj()
        kind = type(action)
        if kind is a.Draw:
            return 0
        if kind is a.Pass:
            return 1
        if kind is a.Pung:
            return 2
        if kind is a.Mahjong:
            return 3
        if kind is a.Discard or kind is a.Kong:
            tile = int(action.tile)  # type: ignore[union-attr]
            if tile >= _KINDS:
                raise InvalidArgumentError(
                    Message(
                        "invalid_argument.no_action_id_stands_mahjong",
                        "no action id stands for {action}: bonus tiles are never played",
                        action=repr(action),
                    )
                )
            return (_DISCARD_BASE if kind is a.Discard else _KONG_BASE) + tile
        if kind is a.Chow:
            low, high = action.tiles  # type: ignore[union-attr]
            found = _CHOW_IDS.get((int(low), int(high)))
            if found is None:  # pragma: no cover - a Chow value always makes a run
                raise InvalidArgumentError(
                    Message(
                        "invalid_argument.no_action_id_stands_mahjong",
                        "no action id stands for {action}: bonus tiles are never played",
                        action=repr(action),
                    )
                )
            return found
        raise TypeError(f"action must be a mahjong action, not {_checks.type_name(action)}")

    def decode(  # type: ignore[override]
        self, action_id: int, position: MahjongState | MahjongObservation
    ) -> MahjongAction:
        """The action of ``action_id`` for the seat to act in ``position``
        (not checked for legality: :meth:`mask` says which ids are legal).

        Raises:
            TypeError: if ``position`` is not a mahjong state or observation.
            InvalidArgumentError: for an id out of range, or a finished round.

        >>> from sevenbridge import mahjong
        >>> ActionSpace(mahjong.Rules()).decode(79, mahjong.deal(seed=1))
        Chow(0, '4m 6m')
        """
        player = _seat_of(position)
        if type(action_id) is not int or not 0 <= action_id < _SIZE:
            action_id = self._check_id(action_id)
        return _by_id()[player][action_id]

    def _by_id_and_seat(self) -> dict[tuple[int, int], MahjongAction]:
        """The action of every id and seat: :meth:`decode`'s table, for the
        environments' steps."""
        return _by_id_and_seat()

    def legal_ids(self, position: MahjongState | MahjongObservation) -> list[int]:  # type: ignore[override]
        """The ids of the legal actions, in the engine's order (a view has them
        only when the decision is its viewer's)."""
        _seat_of(position, over_ok=True)
        return [self.encode(action) for action in _mj().legal_actions(position)]

    def _masked(self, legal: tuple[Any, ...], dtype: np.dtype[Any]) -> npt.NDArray[Any]:
        """A new array of ``dtype`` (bool or int8), 1 at the ids of the engine's
        ``legal`` actions (found by their identity, or else encoded)."""
        out = _tensor().mask_bytes(legal, _ids(), _SIZE)
        if out is None:  # an action that is not the engine's own object
            out = bytearray(_SIZE)
            for action in legal:
                out[self.encode(action)] = 1
        return np.frombuffer(out, dtype)

    def mask(self, position: MahjongState | MahjongObservation) -> npt.NDArray[np.bool_]:  # type: ignore[override]
        """A boolean array of length :attr:`size`, true exactly at the legal ids.

        >>> from sevenbridge import mahjong
        >>> m = ActionSpace(mahjong.Rules()).mask(mahjong.deal(seed=1))
        >>> m.shape, m.nonzero()[0].tolist()
        ((117,), [0])
        """
        _seat_of(position, over_ok=True)
        return self._masked(_mj().legal_actions(position), np.dtype(np.bool_))

    def __reduce__(self) -> tuple[Any, ...]:
        return (MahjongActionSpace, (self._rules, self.players))

    def __repr__(self) -> str:
        return (
            f"<MahjongActionSpace of {_SIZE} ids, version {self.version}, {self.players} players>"
        )


@functools.cache
def _by_id() -> tuple[tuple[MahjongAction, ...], ...]:
    """By seat, the action of every id: the engine's own objects, which it
    finds by identity."""
    from ..mahjong._ops import shared_action

    a = _mj()
    kinds = a.TILE_KINDS
    out = []
    for seat in range(4):
        actions: list[MahjongAction] = [a.Draw(seat), a.Pass(seat), a.Pung(seat), a.Mahjong(seat)]
        actions += [a.Discard(seat, t) for t in kinds]
        actions += [a.Kong(seat, t) for t in kinds]
        actions += [a.Chow(seat, (kinds[low], kinds[high])) for low, high in _CHOWS]
        out.append(tuple(shared_action(action) for action in actions))
    return tuple(out)


@functools.cache
def _by_id_and_seat() -> dict[tuple[int, int], MahjongAction]:
    return {(i, seat): action for seat, row in enumerate(_by_id()) for i, action in enumerate(row)}


@functools.cache
def _ids() -> dict[int, int]:
    """The id of each of the engine's own actions, by the action's identity
    (the engine keeps them, so an identity stays theirs)."""
    return {id(action): i for row in _by_id() for i, action in enumerate(row)}


@functools.cache
def _digest() -> str:
    return hashlib.sha256("\n".join(_labels()).encode()).hexdigest()


def is_mahjong(value: object) -> bool:
    """Whether ``value`` is a mahjong ``Rules``, ``GameState`` or ``Observation``
    (it imports the mahjong package: call it only for what the card game does
    not know)."""
    mahjong = _mj()
    return isinstance(value, (mahjong.Rules, mahjong.GameState, mahjong.Observation))


def _space_for(rules: object) -> type[ActionSpace] | None:
    return MahjongActionSpace if is_mahjong(rules) else None


OTHER_GAMES.append(_space_for)


def returns(state: object) -> tuple[float, ...]:
    """Each player's result as one number per seat, zero-sum, higher better:
    :func:`sevenbridge.returns` for the card game, and
    :func:`sevenbridge.mahjong.returns` for a mahjong state or observation.

    Raises:
        TypeError: for anything but either game's state or observation.

    >>> from sevenbridge import deal, mahjong
    >>> returns(deal(seed=1)), returns(mahjong.deal(players=2, seed=1))
    ((0.0, 0.0, 0.0), (0.0, 0.0))
    """
    from ..scoring import returns as card_returns
    from ..state import GameState
    from ..views import Observation

    if type(state) is GameState or type(state) is Observation:
        return card_returns(state)
    if is_mahjong(state):
        from ..mahjong.state import returns as mahjong_returns

        return mahjong_returns(state)
    return card_returns(state)  # its TypeError


def is_mahjong_view(value: object) -> bool:
    """Whether ``value`` is a mahjong ``Observation`` (it imports the mahjong package)."""
    return isinstance(value, _mj().Observation)


def _seat_of(position: Any, *, over_ok: bool = False) -> int:
    mahjong = _mj()
    if not isinstance(position, (mahjong.GameState, mahjong.Observation)):
        raise TypeError(
            "position must be a mahjong GameState or Observation, not "
            + _checks.type_name(position)
        )
    if position.is_over and not over_ok:
        raise InvalidArgumentError(
            Message(
                "invalid_argument.round_over_no_player",
                "the round is over: no player is to act",
            )
        )
    seat: int = position.current_player
    return seat


# ----------------------------------------------------------------------------------
# the observation tensor
# ----------------------------------------------------------------------------------
def _seats_for(rules: Any, players: int) -> int:
    return 4 if rules.ghosts else players


def mahjong_tensor_fields(rules: MahjongRules, players: int) -> tuple[str, ...]:
    """The fields of the mahjong observation tensor in order, as ``"name: width"``
    (a number in brackets is a relative seat, ``0`` the viewer).

    >>> from sevenbridge import mahjong
    >>> mahjong_tensor_fields(mahjong.Rules(), 4)[:2]
    ('hand: 34', 'own_claim: 34')
    """
    from ..mahjong.engine import PLAYER_COUNTS
    from ..mahjong.rules import Rules

    _checks.instance(rules, Rules, "rules", "a mahjong Rules value")
    players = _checks.integer(players, "players", PLAYER_COUNTS[0], PLAYER_COUNTS[-1])
    fields: tuple[str, ...] = _tensor().fields(_seats_for(rules, players))
    return fields


@functools.lru_cache(maxsize=64)
def mahjong_observation_tensor_size(rules: MahjongRules, players: int) -> int:
    """The length of the mahjong observation tensor for these rules and table size."""
    return sum(int(f.rsplit(": ", 1)[1]) for f in mahjong_tensor_fields(rules, players))


def mahjong_observation_tensor(view: MahjongObservation) -> npt.NDArray[np.float32]:
    """A mahjong player's view as a float32 vector (every entry between 0 and 1).

    A function of the view alone. Seats are relative (``0`` the viewer, ``k``
    the seat ``k`` places after it); tile planes have one entry per kind of
    playing tile (34) holding the count / 4, bonus planes one per flower and
    season. In order: own hand; own claim on the open discard (its tiles from
    the hand, and its kind: chow, pung, kong, mahjong); the open discard; by
    seat the discards, the tiles of the melds, the concealed kongs, the bonus
    tiles and (once the round is over) the concealed hand; the phase; by seat
    whose turn, who is to act, the dealer, who is still to be asked, the
    winner and the ghosts; whether the player in turn drew, whether the
    winner drew the winning tile; each hand's size / 14 and the wall's size
    / the full wall. :func:`mahjong_tensor_fields` lists the fields.
    """
    v = view
    tensor = _tensor().tensor_bytes(
        v, v.viewer, v.hand, v.own_claims, v.shown_hands, v.hand_sizes, v.wall_size
    )
    return np.frombuffer(tensor, np.float32)


def mahjong_state_tensor(state: MahjongState, seat: int) -> npt.NDArray[np.float32]:
    """:func:`mahjong_observation_tensor` of ``observe(state, seat)``, without
    building the view (for the environments, which hold the state)."""
    return np.frombuffer(_tensor().state_tensor_bytes(state, seat), np.float32)
