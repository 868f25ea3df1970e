"""The OpenSpiel game ``python_sevenbridge``.

Needs the ``openspiel`` extra. Importing this module registers the game, so
``pyspiel.load_game("python_sevenbridge", {"preset": "nintendo", "players": 4})``
works; the parameters are a preset's name (default ``"standard"``) and the
table size (default 3). It is an imperfect-information, zero-sum game with
explicit chance: the deal is a sequence of chance nodes, one per card of the
deck in order, each outcome a card index (uniform over the cards not yet
placed). The deck order then fixes everything random in the deal, reshuffles
included (they are seeded from it, as :func:`sevenbridge.deal` with a ``deck``
does). Player actions are the ids of :class:`sevenbridge.rl.ActionSpace`;
:meth:`SevenBridgeState.returns` gives :func:`sevenbridge.returns`.

The observers give :func:`sevenbridge.rl.observation_tensor` (or, with
``perfect_recall``, :func:`sevenbridge.rl.information_state_tensor`), and
:meth:`SevenBridgeState.resample_from_infostate` deals the hidden cards with
:func:`sevenbridge.sample_state`, which is what OpenSpiel's ``ISMCTSBot`` needs.

>>> import pyspiel
>>> import sevenbridge.envs.openspiel
>>> game = pyspiel.load_game("python_sevenbridge", {"players": 2})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 52)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]

from .._kit import checks as _checks
from ..cards import CARDS
from ..engine import apply, deal
from ..errors import InvalidArgumentError, Message
from ..rl import ActionSpace, information_state_tensor_size, observation_tensor_size
from ..rl._tensors import _of_state
from ..rules import Rules
from ..scoring import hand_points, returns
from ..serialize._schema import max_history
from ..state import GameState, History
from ..views import observe, sample_state

__all__ = ["GAME_NAME", "SevenBridgeGame", "SevenBridgeObserver", "SevenBridgeState"]

#: The name the game is registered under.
GAME_NAME = "python_sevenbridge"

_DEFAULTS = {"preset": "standard", "players": 3}

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Python Seven Bridge",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=5,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


def _max_utility(rules: Rules, players: int) -> float:
    """A bound on any player's :func:`~sevenbridge.returns`: a loser holds at most
    eight cards, each worth at most the most a single card counts, doubled by
    up to four sevens and multiplied by the joker; the winner gets at most
    twice the losers' total, and a return is at most twice the largest score."""
    single = max(hand_points([card], rules) for card in CARDS[:52])
    loser = 8 * single * 16 * (rules.joker_multiplier if rules.jokers else 1)
    return float(2 * (2 * (players - 1) * loser + 50))


class _Frozen:
    """Holds an immutable value that ``copy.deepcopy`` shares instead of copying
    (OpenSpiel clones Python states with deepcopy)."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __deepcopy__(self, memo: dict[int, Any]) -> _Frozen:
        return self


class SevenBridgeGame(pyspiel.Game):
    """The game, for a preset and a table size (the parameters ``preset`` and ``players``)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_DEFAULTS, **(params or {})}
        rules = Rules.preset(str(params["preset"]))
        players = _checks.players(int(params["players"]))
        space = ActionSpace(rules, players)
        info = pyspiel.GameInfo(
            num_distinct_actions=space.size,
            max_chance_outcomes=rules.deck_size,
            num_players=players,
            min_utility=-_max_utility(rules, players),
            max_utility=_max_utility(rules, players),
            utility_sum=0.0,
            max_game_length=rules.deck_size + max_history(rules, players),
        )
        super().__init__(_GAME_TYPE, info, params)
        self.rules = rules
        self.players = players
        self.space = space

    def new_initial_state(self) -> SevenBridgeState:
        """The start of a deal: the first chance node."""
        return SevenBridgeState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> SevenBridgeObserver:
        """An observer: the information-state tensor with ``perfect_recall``, else
        the observation tensor."""
        perfect = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return SevenBridgeObserver(self.rules, self.players, perfect, params)


class SevenBridgeState(pyspiel.State):
    """A position: the deck being dealt by chance, then a :class:`~sevenbridge.GameState`."""

    def __init__(self, game: SevenBridgeGame) -> None:
        super().__init__(game)
        self._rules = game.rules
        self._players = game.players
        self._space = _Frozen(game.space)
        self._deck: tuple[int, ...] = ()
        self._state = _Frozen(None)

    @property
    def game_state(self) -> GameState | None:
        """The engine's state once the deal is dealt (``None`` while dealing)."""
        state: GameState | None = self._state.value
        return state

    def current_player(self) -> int:
        """The player to act, or OpenSpiel's chance or terminal id."""
        state = self.game_state
        if state is None:
            return int(pyspiel.PlayerId.CHANCE)
        if state.current_player is None:
            return int(pyspiel.PlayerId.TERMINAL)
        return state.current_player

    def _legal_actions(self, player: int) -> list[int]:
        state = self.game_state
        if state is None or state.current_player != player:
            return []
        return sorted(self._space.value.legal_ids(state))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards not yet placed in the deck order, each equally likely."""
        placed = set(self._deck)
        left = [c for c in range(self._rules.deck_size) if c not in placed]
        return [(c, 1.0 / len(left)) for c in left]

    def _apply_action(self, action: int) -> None:
        state = self.game_state
        if state is None:
            self._deck = (*self._deck, int(action))
            size = self._rules.deck_size
            if len(self._deck) == size - 1:
                last = next(c for c in range(size) if c not in set(self._deck))
                self._deck = (*self._deck, last)
                cards = [CARDS[c] for c in self._deck]
                self._state = _Frozen(deal(self._rules, players=self._players, deck=cards))
            return
        space: ActionSpace = self._space.value
        self._state = _Frozen(apply(state, space.decode(int(action), state)))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"Deal {CARDS[action]}"
        label: str = self._space.value.label(int(action))
        return f"P{player} {label}"

    def is_terminal(self) -> bool:
        """Whether the deal is over."""
        state = self.game_state
        return state is not None and state.is_over

    def returns(self) -> list[float]:
        """:func:`sevenbridge.returns` (zeros until the deal ends)."""
        state = self.game_state
        if state is None:
            return [0.0] * self._players
        return list(returns(state))

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> SevenBridgeState:
        """A state the player cannot tell from this one: the hidden hands and the
        stock dealt at random (:func:`sevenbridge.sample_state`), seeded from
        ``probability_sampler`` (a callable giving floats in [0, 1)). The sample
        starts a fresh OpenSpiel history: search plays on from it, as ISMCTS
        does, but its ``history()`` is empty."""
        state = self.game_state
        if state is None:
            raise pyspiel.SpielError(
                Message(
                    "error.resample_from_infostate_deal",
                    "resample_from_infostate: the deal is still being dealt",
                )
            )
        seed = int(probability_sampler() * 2**31) << 31 | int(probability_sampler() * 2**31)
        world = sample_state(observe(state, player_id), seed)
        out = self.get_game().new_initial_state()
        out._deck = self._deck
        out._state = _Frozen(world)
        return out  # type: ignore[no-any-return]

    def __str__(self) -> str:
        state = self.game_state
        if state is None:
            return f"dealing: {len(self._deck)} cards placed"
        return str(state)


class SevenBridgeObserver:
    """OpenSpiel's observer interface over the tensors of :mod:`sevenbridge.rl`."""

    def __init__(
        self, rules: Rules, players: int, perfect_recall: bool, params: dict[str, Any] | None
    ) -> None:
        if params:
            raise InvalidArgumentError(
                Message(
                    "invalid_argument.observation_parameters_are_not",
                    "observation parameters are not supported: {params}",
                    params=repr(params),
                )
            )
        self.perfect_recall = perfect_recall
        if perfect_recall:
            size = information_state_tensor_size(rules, players)
        else:
            size = observation_tensor_size(rules, players)
        #: The view as numbers (float32), filled in place by :meth:`set_from`.
        self.tensor = np.zeros(size, np.float32)
        #: The same array by name, as OpenSpiel's observers offer it.
        self.dict = {"observation": self.tensor}

    def set_from(self, state: SevenBridgeState, player: int) -> None:
        """Fill :attr:`tensor` with ``player``'s view of ``state`` (zeros while dealing)."""
        game_state = state.game_state
        if game_state is None:
            self.tensor.fill(0.0)
            return
        self.tensor[:] = _of_state(game_state, player, self.perfect_recall)

    def string_from(self, state: SevenBridgeState, player: int) -> str:
        """``player``'s view as text; with ``perfect_recall`` the public history follows."""
        game_state = state.game_state
        if game_state is None:
            return f"P{player} dealing: {len(state._deck)} cards placed"
        text = str(observe(game_state, player))
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


pyspiel.register_game(_GAME_TYPE, SevenBridgeGame)
