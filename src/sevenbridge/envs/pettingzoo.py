"""A PettingZoo AEC environment: every seat of a deal is an agent.

Needs the ``pettingzoo`` extra. Observations are dictionaries with the
``"observation"`` (:func:`sevenbridge.rl.observation_tensor`, or with
``tensor="information_state"`` :func:`sevenbridge.rl.information_state_tensor`)
and the ``"action_mask"`` (int8, over the ids of
:class:`sevenbridge.rl.ActionSpace`; all zeros for an agent whose decision it
is not). Each :meth:`~raw_env.reset` deals a new deal; the rewards come at its
end and are :func:`sevenbridge.rl.rewards` of the kind chosen by ``reward``
(by default ``"points"``: :func:`sevenbridge.returns`).

``env(game="mahjong", players=N)`` is the same environment for Simple Mahjong
(:mod:`sevenbridge.mahjong`): the agents are the real players' seats, the
observation :func:`sevenbridge.rl.observation_tensor` of a mahjong view, the
ids those of :class:`sevenbridge.rl.MahjongActionSpace`, the rewards
:func:`sevenbridge.mahjong.returns`.

>>> from sevenbridge.envs.pettingzoo import env
>>> table = env(players=3)
>>> table.reset(seed=1)
>>> table.agent_selection, table.observe("player_1")["action_mask"].sum()
('player_1', np.int64(11))

Player 1's lone draw was played without asking (``auto_forced``, the
default), so the first question is a real choice: three ways to lay down
its sevens and eight discards.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from .._kit import checks as _checks
from ..errors import InvalidArgumentError, Message
from ..rl import information_state_tensor_size, observation_tensor_size, rewards
from ..rl._rewards import check_reward
from ..rules import Rules
from ._games import adapter
from ._lone import play_lone

if TYPE_CHECKING:
    from ..mahjong.rules import Rules as MahjongRules

__all__ = ["env", "raw_env"]

_INT8 = np.dtype(np.int8)


def env(**kwargs: Any) -> Any:
    """The environment wrapped in PettingZoo's usual checks (an action out of
    range, steps out of order); the arguments are :class:`raw_env`'s.

    The wrappers are PettingZoo's ``OrderEnforcingWrapper`` and
    ``AssertOutOfBoundsWrapper`` with a shortcut for the calls of a training
    loop (``last`` and ``step`` with an int in range, once reset): the same
    checks, without a chain of attribute look-ups through both wrappers on every
    step (which cost more than the step itself).
    """
    return _OrderEnforcing(_AssertOutOfBounds(raw_env(**kwargs)))


class _AssertOutOfBounds(wrappers.AssertOutOfBoundsWrapper):
    def __init__(self, table: raw_env) -> None:
        super().__init__(table)
        self._raw = table
        self._size = table.space.size

    def step(self, action: Any) -> None:
        if type(action) is int and 0 <= action < self._size:
            self._raw.step(action)  # what the check lets through
        else:
            super().step(action)

    def __str__(self) -> str:
        return str(self.env)


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):
    def __init__(self, inner: _AssertOutOfBounds) -> None:
        super().__init__(inner)
        self._raw = inner._raw
        self._size = inner._size

    def last(self, observe: bool = True) -> Any:
        if not self._has_reset:
            return super().last(observe)  # PettingZoo's error
        return self._raw.last(observe)  # neither wrapper changes observe()

    # What agent_iter() reads at every step, read from the environment itself
    # rather than through both wrappers' __getattr__ (with PettingZoo's error
    # before a reset).
    @property
    def agents(self) -> list[str]:
        if not self._has_reset:
            raise AttributeError("agents cannot be accessed before reset")
        return self._raw.agents

    @property
    def agent_selection(self) -> str:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        agent: str = self._raw.agent_selection
        return agent

    def step(self, action: Any) -> None:
        if self._has_reset and self._raw.agents:
            self._has_updated = True
            if type(action) is int and 0 <= action < self._size:
                self._raw.step(action)  # what both wrappers' checks let through
            else:
                self.env.step(action)
        else:
            super().step(action)

    def __str__(self) -> str:
        return str(self.env)


class raw_env(AECEnv):
    """The unwrapped AEC environment.

    Args:
        rules: The rules (default: the standard preset), or a preset's name.
        players: The table size, 2 to 5; the agents are ``player_0`` and up,
            each the seat of that number.
        render_mode: ``None``, ``"human"`` (print the table after each step) or
            ``"ansi"`` (:meth:`render` returns the text).
        auto_forced: Play a decision that has a lone legal action, a lone
            :class:`~sevenbridge.Pass` or :class:`~sevenbridge.Draw`, without
            asking the agent (the default; ``False`` asks every move).
            Nothing is hidden by this: the move is still in the public
            history, so the others see a pass in the information state's
            "declined to pon" plane and a draw in the stock and hand sizes;
            the agent just isn't asked to press the only button.
        tensor: ``"observation"`` or ``"information_state"`` (the card game only).
        dealer: Who deals each deal.
        game: ``"seven_bridge"`` (the card game) or ``"mahjong"``; ``rules`` are
            that game's (a mahjong table has 2 to 4 players, and with ghosts
            the agents are the real players' seats).
        reward: The kind of reward (:data:`sevenbridge.rl.REWARDS`):
            ``"points"``, ``"normalized"`` or ``"win"`` (see
            :func:`sevenbridge.rl.rewards`).
        encoding: ``"full"`` (:class:`sevenbridge.rl.ActionSpace` and the full
            tensors) or ``"compact"`` (the card game only:
            :class:`sevenbridge.rl.CompactActionSpace` and the tensors'
            compact layout).

    Raises:
        IllegalActionError: from :meth:`step`, for an id the mask does not allow.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"],
        "name": "sevenbridge_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: Rules | MahjongRules | str | None = None,
        players: int = 3,
        render_mode: str | None = None,
        auto_forced: bool = True,
        tensor: str = "observation",
        dealer: int = 0,
        game: str = "seven_bridge",
        reward: str = "points",
        encoding: str = "full",
    ) -> None:
        super().__init__()
        self.game = adapter(game)
        self.rules: Any = self.game.rules(rules)
        n = self.game.players(players)
        seats = self.game.seats(self.rules, n)
        total = self.game.table_size(self.rules, n)
        self.dealer = self.game.real_seat(dealer, self.rules, n, "dealer")
        _checks.render_mode(render_mode)
        if tensor not in ("observation", "information_state") or (
            tensor != "observation" and not self.game.card_encodings(self.rules)
        ):
            raise InvalidArgumentError(
                Message(
                    "invalid_argument.tensor_must_observation_or",
                    "tensor must be 'observation' or 'information_state', not {tensor}",
                    tensor=repr(tensor),
                )
            )
        self.render_mode = render_mode
        self.auto_forced = bool(auto_forced)
        module = self.game.module
        self._deal, self._legal, self._apply = module.deal, module.legal_actions, module.apply
        self.reward = check_reward(reward)
        self._over, self._forced_types = self.game.over, self.game.forced
        compact = self.game.encoding(encoding, self.rules)
        self.encoding = encoding
        self.space = self.game.space(self.rules, n, compact)
        self._size = self.space.size
        # (id, player) -> action: filled as the card game's space decodes, whole for mahjong
        self._decoded: dict[Any, Any] = self.space._by_id_and_seat()
        self._masked = self.space._mask_at
        self._info = tensor == "information_state"
        self._tensor = self.game.tensor_of(self.rules, n, self._info, compact)
        if self._info:
            size = information_state_tensor_size(self.rules, n, compact=compact)
        else:
            size = observation_tensor_size(self.rules, n, compact=compact)
        self._players = n
        self.possible_agents = [f"player_{p}" for p in seats]
        self.agents = self.possible_agents[:]
        self._seats = {a: p for p, a in zip(seats, self.possible_agents, strict=True)}
        # the agent by seat (None at a ghost's seat)
        by_seat: list[str | None] = [None] * total
        for a, p in self._seats.items():
            by_seat[p] = a
        self._agents = tuple(by_seat)
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, (size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (self.space.size,), np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(self.space.size) for a in self.possible_agents}
        self._rng = random.Random()
        self.state: Any = self._deal(self.rules, players=n, dealer=self.dealer, seed=0)

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, Any]:
        p = self._seats[agent]
        state = self.state
        if state.current_player == p:
            mask = self._masked(state, self._legal(state), _INT8)  # cached on the state
        else:
            mask = np.zeros(self._size, _INT8)
        return {"observation": self._tensor(state, p), "action_mask": mask}

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        agent = self.agent_selection
        obs = self.observe(agent) if observe else None
        return (
            obs,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        state = self._deal(
            self.rules,
            players=self._players,
            dealer=self.dealer,
            seed=self._rng.getrandbits(63),
        )
        self._settle(self._forced(state))

    def _forced(self, state: Any) -> Any:
        """``state`` after the lone moves (with ``auto_forced``)."""
        if self.auto_forced:
            return play_lone(state, self._legal, self._apply, self._forced_types, self._over)
        return state

    def _settle(self, state: Any) -> None:
        self.state = state
        if state.is_over:
            results = rewards(state, self.reward)
            for a, p in self._seats.items():
                self.rewards[a] = results[p]
                self.terminations[a] = True
        else:
            self.agent_selection = self._agents[state.current_player]

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        # (No reset of the agent's cumulative reward: every reward stays zero
        # until the deal is over, and then every agent is terminated.)
        state = self.state
        p = state.current_player
        chosen = self._decoded.get((action, p))  # filled by decode: ids seen before
        if chosen is None or type(action) is not int:
            chosen = self.space.decode(int(action), state)
        state = self._apply(state, chosen)
        state = self._forced(state)
        if state.phase is self._over:
            self._settle(state)
            self._accumulate_rewards()  # the rewards are all zero until then
        else:
            self.state = state
            self.agent_selection = self._agents[state.current_player]
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = str(self.state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass
