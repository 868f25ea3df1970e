"""The OpenSpiel games ``python_sevenbridge`` and ``python_sevenbridge_mahjong``.

Needs the ``openspiel`` extra. Importing this module registers both games, so
``pyspiel.load_game("python_sevenbridge", {"preset": "nintendo", "players": 4})``
works; the parameters are a preset's name (default ``"standard"``), the
table size (default 3), the kind of reward (default ``"points"``; see
:data:`sevenbridge.rl.REWARDS`) and the encoding (``"full"``, the default, or
``"compact"``: :class:`sevenbridge.rl.CompactActionSpace` and the tensors'
compact layout). It is an imperfect-information, zero-sum game with
explicit chance: the deal is a sequence of chance nodes, one per card of the
deck in order, each outcome a card index (uniform over the cards not yet
placed). The deck order then fixes everything random in the deal, reshuffles
included (they are seeded from it, as :func:`sevenbridge.deal` with a ``deck``
does). Player actions are the ids of :class:`sevenbridge.rl.ActionSpace`;
:meth:`SevenBridgeState.returns` gives :func:`sevenbridge.rl.rewards` of that
kind (:func:`sevenbridge.returns` by default), and the game's utility bounds
are :func:`sevenbridge.rl.reward_bounds`, worked out from the scoring rules.

The observers give :func:`sevenbridge.rl.observation_tensor` (or, with
``perfect_recall``, :func:`sevenbridge.rl.information_state_tensor`), and
:meth:`SevenBridgeState.resample_from_infostate` deals the hidden cards with
:func:`sevenbridge.sample_state`, which is what OpenSpiel's ``ISMCTSBot`` needs.

``python_sevenbridge_mahjong`` (:data:`MAHJONG_GAME_NAME`) is Simple Mahjong
(:mod:`sevenbridge.mahjong`) with the same parameters: a mahjong preset
(default ``"standard"``) and the real players, 2 to 4 (default 4). The wall is
dealt by chance, one node per tile, each outcome a kind of tile (its index,
0 to 41) weighted by the copies not yet placed; once one kind is left the
rest of the wall follows, and the round is :func:`sevenbridge.mahjong.deal`
with that ``wall``. The OpenSpiel players are the real players in seat order:
with ghosts (:attr:`sevenbridge.mahjong.Rules.ghosts`) a table of two has its
players at seats 0 and 2, and the ghosts play inside the engine. The actions
are the 117 ids of :class:`sevenbridge.rl.MahjongActionSpace`, the returns
:func:`sevenbridge.mahjong.returns` of the real seats, the observation tensor
:func:`sevenbridge.rl.observation_tensor` of the player's view and the
observation string its text; there is no information state (string or
tensor), so search it with ``MCTSBot`` rather than ``ISMCTSBot``.

>>> import pyspiel
>>> import sevenbridge.envs.openspiel
>>> game = pyspiel.load_game("python_sevenbridge", {"players": 2})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 52)
>>> game = pyspiel.load_game("python_sevenbridge_mahjong", {"players": 2})
>>> game.num_players(), game.num_distinct_actions(), len(game.new_initial_state().chance_outcomes())
(2, 117, 34)
"""

from __future__ import annotations

import functools
from collections import Counter
from typing import Any, ClassVar

import numpy as np
import pyspiel  # type: ignore[import-not-found]

from .._kit import checks as _checks
from ..cards import CARDS
from ..errors import InvalidArgumentError, Message
from ..rl import information_state_tensor_size, observation_tensor_size, reward_bounds, rewards
from ..rl._rewards import check_reward
from ..rl._tensors import _of_state
from ..rules import Rules
from ..serialize._schema import max_history
from ..state import GameState, History
from ._games import GameAdapter, adapter

__all__ = [
    "GAME_NAME",
    "MAHJONG_GAME_NAME",
    "BotPlayer",
    "MahjongGame",
    "MahjongObserver",
    "MahjongState",
    "PlayerBot",
    "SevenBridgeGame",
    "SevenBridgeObserver",
    "SevenBridgeState",
]

#: The name the card game is registered under.
GAME_NAME = "python_sevenbridge"
#: The name Simple Mahjong is registered under.
MAHJONG_GAME_NAME = "python_sevenbridge_mahjong"

_DEFAULTS = {"preset": "standard", "players": 3, "reward": "points", "encoding": "full"}
_MAHJONG_DEFAULTS = {"preset": "standard", "players": 4, "reward": "points", "encoding": "full"}


def _game_type(
    name: str, long_name: str, players: tuple[int, int], info: bool, defaults: dict[str, Any]
) -> Any:
    return pyspiel.GameType(
        short_name=name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players[1],
        min_num_players=players[0],
        provides_information_state_string=info,
        provides_information_state_tensor=info,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=defaults,
    )


_GAME_TYPE = _game_type(GAME_NAME, "Python Seven Bridge", (2, 5), True, _DEFAULTS)
_MAHJONG_GAME_TYPE = _game_type(
    MAHJONG_GAME_NAME, "Python Seven Bridge Simple Mahjong", (2, 4), False, _MAHJONG_DEFAULTS
)


class _Frozen:
    """Holds an immutable value that ``copy.deepcopy`` shares instead of copying
    (OpenSpiel clones Python states with deepcopy)."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __deepcopy__(self, memo: dict[int, Any]) -> _Frozen:
        return self


class _Table:
    """What every state of one game shares: the rules, the engine, the action
    numbering, and the seats of the OpenSpiel players (the real players).
    OpenSpiel pickles a state's attributes to clone it: a table pickles as
    its game's name, rules and size, and unpickles to the same table."""

    __slots__ = (
        "compact", "game", "module", "player_of", "players", "reward", "rules", "seats", "space",
    )  # fmt: skip

    def __init__(
        self, game: GameAdapter, rules: Any, players: int, reward: str, compact: bool
    ) -> None:
        self.game = game.name
        self.module = game.module
        self.rules = rules
        self.players = players
        #: The kind of reward (:data:`sevenbridge.rl.REWARDS`) the returns are.
        self.reward = reward
        #: Whether the ids and tensors are the compact encoding's.
        self.compact = compact
        self.space = game.space(rules, players, compact)
        #: The seat of each OpenSpiel player.
        self.seats: tuple[int, ...] = game.seats(rules, players)
        #: The OpenSpiel player at each seat (-1 at a ghost's).
        by_seat = [-1] * game.table_size(rules, players)
        for p, seat in enumerate(self.seats):
            by_seat[seat] = p
        self.player_of: tuple[int, ...] = tuple(by_seat)

    def __reduce__(self) -> tuple[Any, ...]:
        return _table, (self.game, self.rules, self.players, self.reward, self.compact)

    def utilities(self) -> tuple[float, float]:
        """The least and the most return of a player (:func:`sevenbridge.rl.reward_bounds`)."""
        return reward_bounds(self.rules, self.players, self.reward)


@functools.lru_cache(maxsize=64)
def _table(
    game: str, rules: Any, players: int, reward: str = "points", compact: bool = False
) -> _Table:
    """The table of a game, rules, size, kind of reward and encoding (one
    object for equal ones)."""
    return _Table(adapter(game), rules, players, reward, compact)


class _EngineGame(pyspiel.Game):
    """What both games share: the parameters ``preset``, ``players``,
    ``reward`` and ``encoding`` read through the game's adapter
    (:mod:`sevenbridge.envs._games`)."""

    _adapter_name: ClassVar[str]
    _game_type: ClassVar[Any]
    _defaults: ClassVar[dict[str, Any]]

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**self._defaults, **(params or {})}
        game = adapter(self._adapter_name)
        rules = game.rules(str(params["preset"]))
        players = game.players(int(params["players"]))
        reward = check_reward(params["reward"])
        compact = game.encoding(params["encoding"], rules)
        table = _table(game.name, rules, players, reward, compact)
        super().__init__(self._game_type, self._game_info(table), params)
        self.rules = rules
        self.players = players
        #: The kind of reward the returns are (:data:`sevenbridge.rl.REWARDS`).
        self.reward = reward
        self.space = table.space
        #: The seat of each OpenSpiel player (all the seats but the ghosts').
        self.seats = table.seats
        self._table = table

    def _game_info(self, table: _Table) -> Any:  # pragma: no cover - overridden
        raise NotImplementedError


class _EngineState(pyspiel.State):
    """What both games' states share: chance places the shuffle's items one by
    one (:meth:`_placed_deal` turns them into the engine's state), then the
    engine plays on, OpenSpiel player ``p`` at seat ``game.seats[p]``."""

    def __init__(self, game: Any) -> None:
        """A new deal of ``game`` (one of this module's games), at its first chance node."""
        super().__init__(game)
        self._table = _Frozen(game._table)
        self._placed: tuple[int, ...] = ()
        self._state = _Frozen(None)

    @property
    def game_state(self) -> Any:
        """The engine's state once the deal is dealt (``None`` while dealing)."""
        return self._state.value

    def _placed_deal(self, placed: tuple[int, ...]) -> tuple[tuple[int, ...], Any]:
        """The items placed (completed when the rest is forced) and the dealt
        state, or ``None`` while chance has more to place."""
        raise NotImplementedError  # pragma: no cover - overridden

    def _outcome_name(self, action: int) -> str:
        raise NotImplementedError  # pragma: no cover - overridden

    def current_player(self) -> int:
        """The player to act, or OpenSpiel's chance or terminal id."""
        state = self._state.value
        if state is None:
            return int(pyspiel.PlayerId.CHANCE)
        if state.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        player: int = self._table.value.player_of[state.current_player]
        return player

    def _legal_actions(self, player: int) -> list[int]:
        state = self._state.value
        table: _Table = self._table.value
        if state is None or state.is_over or state.current_player != table.seats[player]:
            return []
        return sorted(table.space.legal_ids(state))

    def _apply_action(self, action: int) -> None:
        state = self._state.value
        if state is None:
            self._placed, dealt = self._placed_deal((*self._placed, int(action)))
            if dealt is not None:
                self._state = _Frozen(dealt)
            return
        table: _Table = self._table.value
        self._state = _Frozen(table.module.apply(state, table.space.decode(int(action), state)))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return self._outcome_name(int(action))
        label: str = self._table.value.space.label(int(action))
        return f"P{player} {label}"

    def is_terminal(self) -> bool:
        """Whether the deal is over."""
        state = self._state.value
        return state is not None and bool(state.is_over)

    def returns(self) -> list[float]:
        """The players' rewards of the game's kind (:func:`sevenbridge.rl.rewards`;
        by default the engine's returns), zeros until the deal ends."""
        state = self._state.value
        table: _Table = self._table.value
        if state is None:
            return [0.0] * table.players
        results = rewards(state, table.reward)
        return [float(results[seat]) for seat in table.seats]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> Any:
        """A state the player cannot tell from this one: the hidden hands and the
        rest dealt at random (the game's ``sample_state``), seeded from
        ``probability_sampler`` (a callable giving floats in [0, 1)). The sample
        starts a fresh OpenSpiel history: search plays on from it, as ISMCTS
        does, but its ``history()`` is empty."""
        state = self._state.value
        if state is None:
            raise pyspiel.SpielError(
                Message(
                    "error.resample_from_infostate_deal",
                    "resample_from_infostate: the deal is still being dealt",
                )
            )
        table: _Table = self._table.value
        seed = int(probability_sampler() * 2**31) << 31 | int(probability_sampler() * 2**31)
        seat = table.seats[player_id]
        world = table.module.sample_state(table.module.observe(state, seat), seed)
        out = self.get_game().new_initial_state()
        out._placed = self._placed
        out._state = _Frozen(world)
        return out

    def __str__(self) -> str:
        state = self._state.value
        if state is None:
            return f"dealing: {len(self._placed)} placed"
        return str(state)


class _Observer:
    """OpenSpiel's observer interface: a float32 :attr:`tensor` filled in place."""

    def __init__(self, size: int, params: dict[str, Any] | None) -> None:
        if params:
            raise InvalidArgumentError(
                Message(
                    "invalid_argument.observation_parameters_are_not",
                    "observation parameters are not supported: {params}",
                    params=repr(params),
                )
            )
        #: The view as numbers (float32), filled in place by :meth:`set_from`.
        self.tensor = np.zeros(size, np.float32)
        #: The same array by name, as OpenSpiel's observers offer it.
        self.dict = {"observation": self.tensor}

    def _fill(self, game_state: Any, seat: int) -> Any:
        raise NotImplementedError  # pragma: no cover - overridden

    def set_from(self, state: Any, player: int) -> None:
        """Fill :attr:`tensor` with ``player``'s view of ``state`` (zeros while dealing)."""
        game_state = state.game_state
        if game_state is None:
            self.tensor.fill(0.0)
            return
        self.tensor[:] = self._fill(game_state, state._table.value.seats[player])


# ----------------------------------------------------------------------------------
# Seven Bridge
# ----------------------------------------------------------------------------------


class SevenBridgeGame(_EngineGame):
    """The game, for a preset and a table size (the parameters ``preset`` and ``players``)."""

    _adapter_name = "seven_bridge"
    _game_type = _GAME_TYPE
    _defaults = _DEFAULTS

    def _game_info(self, table: _Table) -> Any:
        rules, players = table.rules, table.players
        low, high = table.utilities()
        return pyspiel.GameInfo(
            num_distinct_actions=table.space.size,
            max_chance_outcomes=rules.deck_size,
            num_players=players,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0,
            max_game_length=rules.deck_size + max_history(rules, players),
        )

    def new_initial_state(self) -> SevenBridgeState:
        """The start of a deal: the first chance node."""
        return SevenBridgeState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> SevenBridgeObserver:
        """An observer: the information-state tensor with ``perfect_recall``, else
        the observation tensor."""
        perfect = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return SevenBridgeObserver(
            self.rules, self.players, perfect, params, compact=self._table.compact
        )


class SevenBridgeState(_EngineState):
    """A position: the deck being dealt by chance, then a :class:`~sevenbridge.GameState`."""

    @property
    def game_state(self) -> GameState | None:
        """The engine's state once the deal is dealt (``None`` while dealing)."""
        state: GameState | None = self._state.value
        return state

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards not yet placed in the deck order, each equally likely."""
        placed = set(self._placed)
        left = [c for c in range(self._table.value.rules.deck_size) if c not in placed]
        return [(c, 1.0 / len(left)) for c in left]

    def _placed_deal(self, placed: tuple[int, ...]) -> tuple[tuple[int, ...], Any]:
        table: _Table = self._table.value
        size = table.rules.deck_size
        if len(placed) < size - 1:
            return placed, None
        last = next(c for c in range(size) if c not in set(placed))
        placed = (*placed, last)
        cards = [CARDS[c] for c in placed]
        return placed, table.module.deal(table.rules, players=table.players, deck=cards)

    def _outcome_name(self, action: int) -> str:
        return f"Deal {CARDS[action]}"


class SevenBridgeObserver(_Observer):
    """OpenSpiel's observer interface over the tensors of :mod:`sevenbridge.rl`."""

    def __init__(
        self,
        rules: Rules,
        players: int,
        perfect_recall: bool,
        params: dict[str, Any] | None,
        compact: bool = False,
    ) -> None:
        self.perfect_recall = perfect_recall
        self.compact = compact
        if perfect_recall:
            size = information_state_tensor_size(rules, players, compact=compact)
        else:
            size = observation_tensor_size(rules, players, compact=compact)
        super().__init__(size, params)

    def _fill(self, game_state: Any, seat: int) -> Any:
        return _of_state(game_state, seat, self.perfect_recall, self.compact)

    def string_from(self, state: SevenBridgeState, player: int) -> str:
        """``player``'s view as text; with ``perfect_recall`` the public history follows."""
        game_state = state.game_state
        if game_state is None:
            return f"P{player} dealing: {len(state._placed)} cards placed"
        text = str(state._table.value.module.observe(game_state, player))
        if self.perfect_recall:
            text += "\nHistory: " + _history_text(game_state.move_log)
        return text


_HISTORY_TEXT: dict[int, tuple[History, str]] = {}


def _history_text(log: History | None) -> str:
    """The public history as one line (cached along the shared history list)."""
    pending: list[History] = []
    text = ""
    node = log
    while node is not None:
        hit = _HISTORY_TEXT.get(id(node))
        if hit is not None and hit[0] is node:
            text = hit[1]
            break
        pending.append(node)
        node = node.prev
    if len(_HISTORY_TEXT) > 100_000:
        _HISTORY_TEXT.clear()
    for node in reversed(pending):
        move = f"P{node.action.player} {node.action}"
        text = f"{text}; {move}" if text else move
        _HISTORY_TEXT[id(node)] = (node, text)
    return text


# ----------------------------------------------------------------------------------
# Simple Mahjong
# ----------------------------------------------------------------------------------


class MahjongGame(_EngineGame):
    """Simple Mahjong, for a mahjong preset and the real players (the
    parameters ``preset`` and ``players``)."""

    _adapter_name = "mahjong"
    _game_type = _MAHJONG_GAME_TYPE
    _defaults = _MAHJONG_DEFAULTS

    def _game_info(self, table: _Table) -> Any:
        from ..mahjong.tiles import full_wall

        rules, players = table.rules, table.players
        wall = full_wall(flowers=rules.flowers, seasons=rules.seasons)
        seats = len(table.player_of)
        low, high = table.utilities()
        # Every tile is placed by chance, drawn at most once (with at most one
        # declined win after the draw) and discarded at most once, and each
        # discard asks at most every other seat; kongs add a few decisions more.
        length = len(wall) * (seats + 3) + 8 * seats + 8
        return pyspiel.GameInfo(
            num_distinct_actions=table.space.size,
            max_chance_outcomes=int(max(wall)) + 1,
            num_players=players,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0,
            max_game_length=length,
        )

    def new_initial_state(self) -> MahjongState:
        """The start of a round: the first chance node."""
        return MahjongState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> MahjongObserver:
        """An observer of the observation tensor (there is no information state).

        Raises:
            InvalidArgumentError: for ``perfect_recall``, or any parameters.
        """
        if iig_obs_type is not None and iig_obs_type.perfect_recall:
            raise InvalidArgumentError(
                Message(
                    "invalid_argument.mahjong_no_information_state",
                    "{game} has no information state: ask for perfect_recall=False",
                    game=MAHJONG_GAME_NAME,
                )
            )
        return MahjongObserver(self.rules, self.players, params)


class MahjongState(_EngineState):
    """A position: the wall being stacked by chance, then a
    :class:`sevenbridge.mahjong.GameState`."""

    def _left(self, placed: tuple[int, ...]) -> Counter[int]:
        """The copies of each kind not yet placed."""
        from ..mahjong.tiles import full_wall

        rules = self._table.value.rules
        left = Counter(int(t) for t in full_wall(flowers=rules.flowers, seasons=rules.seasons))
        left.subtract(placed)
        return left

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The kinds of tile not all placed yet in the wall, each weighted by
        the copies left."""
        left = self._left(self._placed)
        total = sum(left.values())
        return [(k, n / total) for k, n in sorted(left.items()) if n > 0]

    def _placed_deal(self, placed: tuple[int, ...]) -> tuple[tuple[int, ...], Any]:
        from ..mahjong.tiles import Tile

        left = self._left(placed)
        kinds = [k for k, n in left.items() if n > 0]
        if len(kinds) > 1:
            return placed, None
        placed = (*placed, *(k for k in kinds for _ in range(left[k])))
        table: _Table = self._table.value
        wall = [Tile(k) for k in placed]
        return placed, table.module.deal(table.rules, players=table.players, wall=wall)

    def _outcome_name(self, action: int) -> str:
        from ..mahjong.tiles import Tile

        return f"Wall {Tile(action)}"


class MahjongObserver(_Observer):
    """The observer of :func:`sevenbridge.rl.observation_tensor` of a mahjong
    view (the observation string is the view's text)."""

    def __init__(self, rules: Any, players: int, params: dict[str, Any] | None) -> None:
        game = adapter("mahjong")
        self._tensor = game.tensor_of(rules, players)
        self._observe = game.module.observe
        self._render = game.module.render
        super().__init__(observation_tensor_size(rules, players), params)

    def _fill(self, game_state: Any, seat: int) -> Any:
        return self._tensor(game_state, seat)

    def string_from(self, state: MahjongState, player: int) -> str:
        """``player``'s view as text."""
        game_state = state.game_state
        if game_state is None:
            return f"P{player} dealing: {len(state._placed)} tiles placed"
        seat = state._table.value.seats[player]
        return str(self._render(self._observe(game_state, seat)))


# ----------------------------------------------------------------------------------
# Bridges between the library's players and OpenSpiel's bots
# ----------------------------------------------------------------------------------


def _id_of(table: _Table, action: Any, state: Any) -> int:
    """The id of ``action`` in ``state`` (a compact lay-off's id depends on it)."""
    if table.compact:
        return int(table.space.encode(action, state))
    return int(table.space.encode(action))


def _engine_game(game: Any) -> _EngineGame:
    if not isinstance(game, _EngineGame):
        raise TypeError(
            f"game must be one of this module's games ({GAME_NAME} or {MAHJONG_GAME_NAME}), "
            f"not {type(game).__name__}"
        )
    return game


class PlayerBot(pyspiel.Bot):
    """One of the library's players (a :class:`~sevenbridge.bots.Player`:
    view in, action out, such as :class:`~sevenbridge.bots.GreedyPlayer` or a
    :func:`sevenbridge.rl.policy_player`) as an OpenSpiel bot, for
    ``evaluate_bots`` and the rest of OpenSpiel's tools.

    At each :meth:`step` the player sees the view of its seat (what
    :func:`sevenbridge.observe` shows it) and its action goes back as an id
    of the game's numbering.

    Args:
        game: One of this module's games.
        player_id: The OpenSpiel player the bot plays.
        player: The player.

    >>> import numpy as np, pyspiel
    >>> from open_spiel.python.algorithms.evaluate_bots import evaluate_bots
    >>> from open_spiel.python.bots.uniform_random import UniformRandomBot
    >>> from sevenbridge.bots import GreedyPlayer
    >>> game = pyspiel.load_game(GAME_NAME, {"players": 2})
    >>> bots = [PlayerBot(game, 0, GreedyPlayer(1)), UniformRandomBot(1, np.random.RandomState(2))]
    >>> returns = evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(3))
    >>> len(returns), sum(returns)
    (2, 0.0)
    """

    def __init__(self, game: Any, player_id: int, player: Any) -> None:
        pyspiel.Bot.__init__(self)
        table: _Table = _engine_game(game)._table
        self._table = table
        self._player_id = _checks.seat(player_id, table.players, "player_id")
        if not callable(player):
            raise TypeError(f"player must be callable, not {_checks.type_name(player)}")
        self._player = player

    def player_id(self) -> int:
        """The OpenSpiel player the bot plays."""
        return self._player_id

    def step(self, state: Any) -> int:
        """The id of the player's action in ``state``.

        Raises:
            InvalidArgumentError: if it is not this bot's player's decision.
        """
        table = self._table
        inner = getattr(state, "game_state", None)
        if inner is None or state.current_player() != self._player_id:
            raise InvalidArgumentError(
                Message(
                    "invalid_argument.bot_not_its_turn",
                    "it is not player {player}'s decision in this state",
                    player=str(self._player_id),
                )
            )
        seat = table.seats[self._player_id]
        action = self._player(table.module.observe(inner, seat))
        return _id_of(table, action, inner)

    def restart_at(self, state: Any) -> None:
        """Nothing to do: the player decides from the view alone."""

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        """Nothing to do: the player decides from the view alone."""

    def provides_policy(self) -> bool:
        """No: the player gives an action, not a distribution."""
        return False


class BotPlayer:
    """An OpenSpiel bot (``pyspiel.Bot``: OpenSpiel's uniform random bot,
    ``MCTSBot``, ``ISMCTSBot``...) as one of the library's players: a view in,
    an action out, to seat at a table with the library's bots.

    A view does not show the hidden cards, and OpenSpiel's bots take a whole
    state: the player hands the bot a state of the game dealt from the view by
    the game's ``sample_state`` (seeded from ``seed`` and a count of the
    calls), which the bot sees as the position. A bot that reads only what
    its player may know (the uniform random bot, ``ISMCTSBot``, which samples
    again with :meth:`SevenBridgeState.resample_from_infostate`) plays as it
    would in OpenSpiel; a bot that searches the state itself (``MCTSBot``)
    searches that one sampled world. Given a full state instead of a view,
    the player hands the bot that state. The bot is asked for its
    ``step`` only (each position stands alone: nothing is restarted or
    informed of the moves in between).

    Args:
        bot: The OpenSpiel bot, made for ``game`` and for the OpenSpiel
            player of the seat it will sit at.
        game: One of this module's games: the rules and table size of the
            deals it plays.
        seed: The seed of the sampled states.

    Raises:
        TypeError: for a game not of this module.

    >>> import numpy as np, pyspiel
    >>> from open_spiel.python.bots.uniform_random import UniformRandomBot
    >>> from sevenbridge import apply, deal, observe
    >>> from sevenbridge.bots import GreedyPlayer
    >>> game = pyspiel.load_game(GAME_NAME, {"players": 2})
    >>> seats = [GreedyPlayer(1), BotPlayer(UniformRandomBot(1, np.random.RandomState(2)), game)]
    >>> state = deal(players=2, seed=4)
    >>> while not state.is_over:
    ...     state = apply(state, seats[state.current_player](observe(state)))
    >>> state.is_over
    True
    """

    def __init__(self, bot: Any, game: Any, *, seed: int = 0) -> None:
        self.bot = bot
        self.game = _engine_game(game)
        self._seed = _checks.seed(seed) or 0
        self._calls = 0

    def __call__(self, view: Any, /) -> Any:
        from ..bots import choices_view

        table: _Table = self.game._table
        module = table.module
        world = None if isinstance(view, module.Observation) else view
        view = choices_view(view)  # a clear error when there is no decision to take
        if view.rules != table.rules or len(module.returns(view)) != len(table.player_of):
            raise InvalidArgumentError(
                Message(
                    "invalid_argument.view_other_game",
                    "the position is not one of this game's: other rules or another table size",
                )
            )
        if world is None:
            self._calls += 1
            world = module.sample_state(view, (self._seed + self._calls) % 2**63)
        state = self.game.new_initial_state()
        state._placed = ()
        state._state = _Frozen(world)
        action_id = int(self.bot.step(state))
        if action_id not in state.legal_actions():
            raise InvalidArgumentError(
                Message(
                    "invalid_argument.bot_chose_illegal_id",
                    "the OpenSpiel bot chose {action_id}, not a legal id here (is it the bot of seat {seat}?)",
                    action_id=str(action_id),
                    seat=str(view.viewer),
                )
            )
        return table.space.decode(action_id, view)

    def __repr__(self) -> str:
        return f"<BotPlayer of {self.bot!r}>"


pyspiel.register_game(_GAME_TYPE, SevenBridgeGame)
pyspiel.register_game(_MAHJONG_GAME_TYPE, MahjongGame)
