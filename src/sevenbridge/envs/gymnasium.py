"""A Gymnasium environment: one learning seat against bots.

Needs the ``gymnasium`` extra. Importing this module registers the id
``sevenbridge/SevenBridge-v0`` for :func:`gymnasium.make`. The observation is
:func:`sevenbridge.rl.observation_tensor` of the learner's view; actions are the
ids of :class:`sevenbridge.rl.ActionSpace`; ``info["action_mask"]`` (int8) marks
the legal ones. The other seats are played by bots between the learner's
decisions; the reward is the learner's :func:`sevenbridge.rl.rewards` of the
kind chosen by ``reward`` (by default ``"points"``, :func:`sevenbridge.returns`)
when the deal ends, and 0 before.

>>> import gymnasium
>>> import sevenbridge.envs.gymnasium
>>> env = gymnasium.make("sevenbridge/SevenBridge-v0", players=3)
>>> obs, info = env.reset(seed=1)
>>> obs.shape, int(info["action_mask"].sum()) >= 1
((1592,), True)

The id ``sevenbridge/Mahjong-v0`` is the same environment for Simple Mahjong
(``game="mahjong"``, 4 players by default): the observation is the mahjong
:func:`sevenbridge.rl.observation_tensor`, the ids those of
:class:`sevenbridge.rl.MahjongActionSpace`, the opponents
:class:`sevenbridge.mahjong.GreedyPlayer` bots and the reward
:func:`sevenbridge.mahjong.returns`.

>>> env = gymnasium.make("sevenbridge/Mahjong-v0", players=2)
>>> obs, info = env.reset(seed=1)
>>> obs.shape, info["action_mask"].shape
((415,), (117,))

:class:`SevenBridgeVectorEnv` plays a batch of such deals in one process
(:func:`gymnasium.make_vec` of either id gives it).
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from .._kit import checks as _checks
from ..errors import InvalidArgumentError, Message
from ..rl import observation_tensor_size, reward_bounds, rewards
from ..rl._rewards import check_reward
from ..rules import Rules
from ._games import adapter

if TYPE_CHECKING:
    from ..mahjong.rules import Rules as MahjongRules

__all__ = ["ENV_ID", "MAHJONG_ENV_ID", "SevenBridgeEnv", "SevenBridgeVectorEnv"]

#: The id registered with Gymnasium.
ENV_ID = "sevenbridge/SevenBridge-v0"
#: The id of the mahjong environment (:class:`SevenBridgeEnv` with ``game="mahjong"``).
MAHJONG_ENV_ID = "sevenbridge/Mahjong-v0"

Bot = Callable[[Any], Any]
_DEFAULT = object()
_INT8 = np.dtype(np.int8)
_BOOL = np.dtype(np.bool_)


class SevenBridgeEnv(gymnasium.Env[npt.NDArray[np.float32], np.int64]):
    """One seat of a deal for a learner; bots play the others.

    Args:
        rules: The rules (default: the standard preset), or a preset's name.
        players: The table size, 2 to 5.
        seat: The learner's seat.
        opponents: The bots, one for every other seat in seat order, or one
            for all of them. A bot class such as
            :class:`~sevenbridge.bots.GreedyPlayer` (the default) is instantiated with
            a fresh seed on every reset, so seeded resets replay exactly; a bot
            instance is used as it is.
        auto_forced: Play the learner's lone Pass or Draw without asking
            (the default; ``False`` asks every move of the learner's).
        illegal_reward: What an illegal id earns: the deal is abandoned and
            the episode ends with this reward (``info["illegal_action"]`` is
            true). With the mask (:meth:`action_masks`), a learner never
            meets it. An id outside the action space is an error instead
            (:class:`~sevenbridge.errors.InvalidArgumentError`; a
            :class:`TypeError` for anything but an integer), as in the
            PettingZoo environment and :meth:`sevenbridge.rl.ActionSpace.decode`.
        render_mode: ``None``, ``"human"`` or ``"ansi"``.
        game: ``"seven_bridge"`` (the card game) or ``"mahjong"`` (2 to 4
            players; ``rules`` and ``opponents`` are then mahjong's, and
            ghosts' seats are played by the engine).
        reward: The kind of reward (:data:`sevenbridge.rl.REWARDS`):
            ``"points"`` (:func:`sevenbridge.returns`), ``"normalized"`` (the
            same divided by the bound :func:`sevenbridge.rl.utility_bounds`
            works out from the rules, so within [-1, 1]) or ``"win"`` (1 for
            going out, ``-1 / (players - 1)`` otherwise).
        encoding: ``"full"``: the ids of :class:`sevenbridge.rl.ActionSpace`
            and the full observation tensor; ``"compact"`` (the card game
            only): the ids of :class:`sevenbridge.rl.CompactActionSpace` and
            the compact tensor (``observation_tensor(view, compact=True)``).

    Attributes:
        reward_bounds: The least and the most reward an episode can end with
            (:func:`sevenbridge.rl.reward_bounds`; ``illegal_reward`` aside).

    A deal that ends before the learner's first decision is dealt again.
    """

    metadata = {"render_modes": ["human", "ansi"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        rules: Rules | MahjongRules | str | None = None,
        players: int = 3,
        seat: int = 0,
        opponents: Any = _DEFAULT,
        auto_forced: bool = True,
        illegal_reward: float = -100.0,
        render_mode: str | None = None,
        game: str = "seven_bridge",
        reward: str = "points",
        encoding: str = "full",
    ) -> None:
        self.game = adapter(game)
        module = self.game.module
        self._deal, self._legal, self._apply = module.deal, module.legal_actions, module.apply
        self._observe = module.observe
        self.rules: Any = self.game.rules(rules)
        self.players = self.game.players(players)
        self.reward = check_reward(reward)
        self.reward_bounds = reward_bounds(self.rules, self.players, self.reward)
        self._real = self.game.seats(self.rules, self.players)
        self.seat = self.game.real_seat(seat, self.rules, self.players, "seat")
        if opponents is _DEFAULT:
            opponents = self.game.default_bot
        others = self.players - 1
        if callable(opponents):
            opponents = [opponents] * others
        opponents = list(opponents)
        if len(opponents) != others or not all(callable(b) for b in opponents):
            raise TypeError(
                f"opponents must be a bot (or bot class) or {others} of them, not {opponents!r}"
            )
        self._makers: list[Any] = opponents
        # the index in self.bots of each other real seat's bot
        self._bot_index = {p: k for k, p in enumerate(s for s in self._real if s != self.seat)}
        self.bots: list[Bot] = []
        # each bot's move at a state: the game's own bots choose from the
        # state (``_choose_at``, the same choice as from the view); others
        # are handed the view
        self._moves: list[Callable[[Any, int], Any]] = []
        self._state_bots = self.game.state_bots
        _checks.render_mode(render_mode)
        self.render_mode = render_mode
        self.auto_forced = bool(auto_forced)
        self.illegal_reward = float(illegal_reward)
        compact = self.game.encoding(encoding, self.rules)
        self.encoding = encoding
        self.space = self.game.space(self.rules, self.players, compact)
        self._ids_of = _ids_function(self.space, self.game.card_encodings(self.rules))
        # (id, player) -> action: filled as the card game's space decodes, whole for mahjong
        self._decoded: dict[Any, Any] = self.space._by_id_and_seat()
        self._forced = self.game.forced
        self._tensor = self.game.tensor_of(self.rules, self.players, compact=compact)
        size = observation_tensor_size(self.rules, self.players, compact=compact)
        self.observation_space = spaces.Box(0.0, 1.0, (size,), np.float32)
        self.action_space = spaces.Discrete(self.space.size)
        self.state: Any = self._deal(self.rules, players=self.players, seed=0)
        self._done = True

    def _bot_for(self, p: int) -> Bot:
        return self.bots[self._bot_index[p]]

    def _advance(self, state: Any) -> Any:
        """Let the bots (and, with auto_forced, the learner's lone moves) play on."""
        while not state.is_over:
            p = state.current_player
            if p == self.seat:
                if not self.auto_forced:
                    break
                actions = self._legal(state)
                if len(actions) != 1 or type(actions[0]) not in self._forced:
                    break
                state = self._apply(state, actions[0])
                continue
            assert p is not None
            self._legal(state)  # worked out once, for the bot's view and for apply
            state = self._apply(state, self._moves[self._bot_index[p]](state, p))
        return state

    def _move_of(self, bot: Bot) -> Callable[[Any, int], Any]:
        """``bot``'s move at a state: ``bot(observe(state, player))``, asked
        without the view of the game's own bots (see :attr:`_moves`)."""
        if type(bot) in self._state_bots:
            move: Callable[[Any, int], Any] = bot._choose_at  # type: ignore[attr-defined]
            return move
        observe = self._observe
        return lambda state, player: bot(observe(state, player))

    def _obs(self) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        if self.state.current_player == self.seat and not self._done:
            mask = self.space._mask_at(self.state, self._legal(self.state), _INT8)
        else:
            mask = np.zeros(self.space.size, dtype=np.int8)
        return self._tensor(self.state, self.seat), {"action_mask": mask}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        self._new_deal(seed)
        if self.render_mode == "human":
            self.render()
        return self._obs()

    def _new_deal(self, seed: int | None) -> None:
        """:meth:`reset` without the observation (what the vector env calls)."""
        super().reset(seed=seed)
        while True:
            seeds = [int(s) for s in self.np_random.integers(0, 2**63, size=self.players)]
            self.bots = [
                make(s) if isinstance(make, type) else make
                for make, s in zip(self._makers, seeds[1:], strict=False)
            ]
            self._moves = [self._move_of(bot) for bot in self.bots]
            state = self._advance(self._deal(self.rules, players=self.players, seed=seeds[0]))
            if not state.is_over:
                break
        self.state = state
        self._done = False

    def step(
        self, action: Any
    ) -> tuple[npt.NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        if self._done:
            raise gymnasium.error.ResetNeeded("the episode is over: call reset()")
        if isinstance(action, np.ndarray) and action.shape == ():
            action = action[()]  # a 0-d array, as some trainers pass
        action = self.space._check_id(action)  # an int in range, or an error
        state = self.state
        if action not in self._ids_of(state, self._legal(state)):
            self._done = True
            obs, info = self._obs()
            info["illegal_action"] = True
            return obs, self.illegal_reward, True, False, info
        chosen = self._decoded.get((action, state.current_player))  # ids seen before
        if chosen is None:
            chosen = self.space.decode(action, state)
        self.state = self._advance(self._apply(state, chosen))
        obs, info = self._obs()
        if self.render_mode == "human":
            self.render()
        if self.state.is_over:
            self._done = True
            return obs, float(rewards(self.state, self.reward)[self.seat]), True, False, info
        return obs, 0.0, False, False, info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal ids of the learner's decision now, as booleans over the
        action space (all false once the episode is over): what sb3-contrib's
        ``MaskablePPO`` asks the environment for; ``info["action_mask"]`` holds
        the same ids as int8.

        >>> import gymnasium
        >>> env = gymnasium.make("sevenbridge/SevenBridge-v0", players=3)
        >>> obs, info = env.reset(seed=1)
        >>> bool((env.unwrapped.action_masks() == info["action_mask"].astype(bool)).all())
        True
        """
        if self._done:
            return np.zeros(self.space.size, dtype=np.bool_)
        mask: npt.NDArray[np.bool_] = self.space._mask_at(
            self.state, self._legal(self.state), _BOOL
        )
        return mask

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = str(self.state)
        if self.render_mode == "human":
            print(text)
            return None
        return text


class SevenBridgeVectorEnv(
    gymnasium.vector.VectorEnv[npt.NDArray[np.float32], npt.NDArray[np.int64], npt.NDArray[Any]]
):
    """``num_envs`` deals of :class:`SevenBridgeEnv` stepped together, with
    batched observations, rewards and masks.

    What :func:`gymnasium.make_vec` gives for the ids of this module (their
    vector entry point), and the same as Gymnasium's own
    :class:`~gymnasium.vector.SyncVectorEnv` over :class:`SevenBridgeEnv`
    instances (the test suite checks that step by step), with the masks at
    hand: :meth:`action_masks` is the batch of every deal's
    :meth:`SevenBridgeEnv.action_masks`, and ``info["action_mask"]`` the same
    as int8. The observations and masks are numpy arrays of ``num_envs`` rows
    that each step writes in place, every deal's tensor by one numpy call for
    the batch; what a step returns are copies, which a learner may keep.

    A finished deal is dealt again at once, in the same step (Gymnasium's
    ``AutoresetMode.SAME_STEP``): every observation returned is a decision of
    the learner's, with a mask that is not empty, which is what a masked
    policy needs; the last observation and info of the finished deal are in
    ``info["final_obs"]`` and ``info["final_info"]`` (``info["_final_obs"]``
    says which deals ended). ``autoreset_mode="NextStep"`` gives Gymnasium's
    default instead: the step after the end only deals again, whatever the
    action, and the mask of that ended deal is all false.

    Most of a step's time is the deals' own moves (the engine's, and the
    opponents' choices), which cost the same for every deal, so a bigger
    batch saves little per deal in one process; ``workers`` shares the deals
    out among that many processes (each plays a contiguous share of the
    batch and writes its rows of the same shared arrays), which pays on a
    machine with free cores and a batch of some size (see the performance
    page). The results are the same as with one process.

    Args:
        num_envs: How many deals are played at once.
        autoreset_mode: ``"SameStep"`` (the default) or ``"NextStep"``, or a
            :class:`gymnasium.vector.AutoresetMode`.
        workers: How many processes play the deals: 1 (the default) plays
            them in this process; more start that many worker processes (at
            most ``num_envs``), ended by ``close()``.
        context: With ``workers``, the :mod:`multiprocessing` start method
            (``"fork"``, ``"spawn"``, ``"forkserver"``; ``None``, the
            default, is the platform's). With ``"spawn"`` and
            ``"forkserver"`` the arguments must pickle (bot classes do).
        **kwargs: The arguments of :class:`SevenBridgeEnv` (``rules``,
            ``players``, ``seat``, ``opponents``, ``reward``, ``encoding``...),
            the same for every deal.

    >>> import gymnasium, numpy as np
    >>> import sevenbridge.envs.gymnasium
    >>> envs = gymnasium.make_vec("sevenbridge/SevenBridge-v0", num_envs=4, players=3)
    >>> obs, info = envs.reset(seed=1)
    >>> obs.shape, envs.action_masks().shape
    ((4, 1592), (4, 2971))
    >>> actions = [int(np.flatnonzero(m)[0]) for m in envs.action_masks()]
    >>> obs, rewards, terminated, truncated, info = envs.step(actions)
    >>> rewards.shape, info["action_mask"].shape
    ((4,), (4, 2971))
    """

    def __init__(
        self,
        num_envs: int = 8,
        *,
        autoreset_mode: Any = "SameStep",
        workers: int = 1,
        context: str | None = None,
        **kwargs: Any,
    ) -> None:
        from gymnasium.vector import AutoresetMode
        from gymnasium.vector.utils import batch_space

        from ..rl._tensors import row_writer

        self.num_envs = _checks.integer(num_envs, "num_envs", 1)
        workers = _checks.integer(workers, "workers", 1, self.num_envs)
        mode = (
            autoreset_mode
            if isinstance(autoreset_mode, AutoresetMode)
            else _autoreset_mode(autoreset_mode)
        )
        if mode is AutoresetMode.DISABLED:
            _autoreset_mode("Disabled", known=False)
        self.autoreset_mode = mode
        self._same_step = mode is AutoresetMode.SAME_STEP
        self.metadata = {"autoreset_mode": mode}
        first = SevenBridgeEnv(**kwargs)
        #: The deals' environments, one per deal, which hold each deal's state,
        #: bots and random generator (the vector env steps them itself); empty
        #: with ``workers``, whose processes hold the deals.
        self.envs: list[SevenBridgeEnv] = []
        if workers == 1:
            self.envs = [first] + [SevenBridgeEnv(**kwargs) for _ in range(self.num_envs - 1)]
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = batch_space(first.observation_space, self.num_envs)
        self.action_space = batch_space(first.action_space, self.num_envs)
        self._space = space = first.space
        self._legal, self._apply = first._legal, first._apply
        self._seat = first.seat
        self._reward_kind = first.reward
        self._illegal_reward = first.illegal_reward
        compact = first.encoding == "compact"
        self._writer = row_writer(first.rules, first.players, compact)
        self._single_tensor = first._tensor
        self._ids_of = first._ids_of
        b, width, ids = self.num_envs, self._writer.width, space.size
        # The batch's arrays, written in place at every step: the observations
        # (each row padded to whole bytes of the tensor's bit planes; the
        # observation is the view of its first ``size`` entries), the masks
        # (int8 over the action ids), the rewards and the ends. With workers,
        # the observations and masks are shared with the worker processes.
        self._shards: _Shards | None = None
        if workers == 1:
            self._bind(np.zeros((b, width), np.float32), np.zeros((b, ids), np.int8))
        else:
            self._shards = _Shards(self, workers, context, kwargs)
        self._rewards = np.zeros(b, np.float64)
        self._terminations = np.zeros(b, np.bool_)
        self._truncations = np.zeros(b, np.bool_)
        self._ended = np.zeros(b, np.bool_)
        # each deal's legal ids now (those of its mask), and the action of an
        # id at a seat (filled as the card game's space decodes)
        self._legal_ids: list[Sequence[int]] = [()] * b
        self._decoded = first._decoded

    def _bind(self, wide: npt.NDArray[np.float32], masks: npt.NDArray[np.int8]) -> None:
        """Write the observations into ``wide`` and the masks into ``masks``
        (C-contiguous arrays of ``num_envs`` rows; a worker's rows of the
        shared arrays)."""
        self._wide = wide
        self._observations = wide[:, : self._writer.size]
        self._masks = masks
        self._flat_masks = masks.reshape(-1)

    def _write(self) -> None:
        """The observations and masks of every deal, written into the batch's
        arrays: the tensors by one :class:`~sevenbridge.rl._tensors.RowWriter`
        call, the masks by one ``numpy.put`` of every deal's legal ids (a
        deal whose episode is over, ``NextStep`` mode, has an empty mask)."""
        envs = self.envs
        self._writer.write([env.state for env in envs], self._seat, self._wide)
        size = self._space.size
        ids_of, legal = self._ids_of, self._legal
        legal_ids = self._legal_ids
        flat: list[int] = []
        for i, env in enumerate(envs):
            if env._done:
                legal_ids[i] = ()
            else:
                state = env.state
                ids = legal_ids[i] = ids_of(state, legal(state))
                base = i * size
                flat.extend([base + k for k in ids])
        self._masks.fill(0)
        np.put(self._flat_masks, flat, 1)

    def _infos(self) -> dict[str, Any]:
        """The batch's info: every deal's ``action_mask``, as Gymnasium's
        ``SyncVectorEnv`` gathers the single envs' infos."""
        return {
            "action_mask": self._masks.copy(),
            "_action_mask": np.ones(self.num_envs, np.bool_),
        }

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """Deal every deal again: ``seed`` is ``None``, one int (deal ``i``
        gets ``seed + i``) or one seed per deal."""
        if seed is None:
            seeds: list[int | None] = [None] * self.num_envs
        elif isinstance(seed, int):
            seeds = [seed + i for i in range(self.num_envs)]
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise InvalidArgumentError(
                    Message(
                        "invalid_argument.seeds_one_per_deal",
                        "seed must be one int or {count} seeds, one per deal, not {given}",
                        count=str(self.num_envs),
                        given=str(len(seeds)),
                    )
                )
        if self._shards is None:
            self._deal_again(seeds)
        else:
            self._shards.reset(seeds)
        self._ended[:] = False
        return self._observations.copy(), self._infos()

    def _deal_again(self, seeds: list[int | None]) -> None:
        """:meth:`reset` of this process's deals with one seed each."""
        for env, s in zip(self.envs, seeds, strict=True):
            env._new_deal(s)
        self._ended[:] = False
        self._write()

    def step(
        self, actions: Any
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.float64],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]:
        """Play one id in every deal (``actions`` holds ``num_envs`` ids)."""
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,):
            raise InvalidArgumentError(
                Message(
                    "invalid_argument.actions_one_per_deal",
                    "actions must hold {count} ids, one per deal, not an array of shape {shape}",
                    count=str(self.num_envs),
                    shape=str(actions.shape),
                )
            )
        chosen = actions.tolist()
        if self._shards is None:
            finished, illegal, final_obs = self._play(chosen)
        else:
            finished, illegal, final_obs = self._shards.step(chosen)
        infos: dict[str, Any] = {}
        if finished and self._same_step:
            infos = self._final_infos(finished, illegal, final_obs)
        infos.update(self._infos())
        if illegal and not self._same_step:
            infos.update(_flags("illegal_action", illegal, self.num_envs))
        return (
            self._observations.copy(),
            self._rewards.copy(),
            self._terminations.copy(),
            self._truncations.copy(),
            infos,
        )

    def _play(
        self, actions: list[Any]
    ) -> tuple[list[int], list[int], dict[int, npt.NDArray[np.float32]]]:
        """:meth:`step` of this process's deals, without its infos: play
        ``actions`` (one per deal), fill the rewards and ends, deal the
        finished deals again (``SameStep``) and write the observations and
        masks. Returns the deals whose episode ended, those of them abandoned
        for an illegal id, and (``SameStep``) each ended deal's last
        observation."""
        space, apply, legal_ids, decoded = self._space, self._apply, self._legal_ids, self._decoded
        rewards_out, terminated_out = self._rewards, self._terminations
        ended = self._ended
        rewards_out.fill(0.0)
        terminated_out.fill(False)
        self._truncations.fill(False)
        illegal: list[int] = []  # the deals abandoned for an illegal id
        finished: list[int] = []  # the deals whose episode ends at this step
        for i, (env, action) in enumerate(zip(self.envs, actions, strict=True)):
            if ended[i]:  # NextStep: the step after the end deals again
                env._new_deal(None)
                continue
            action = space._check_id(action)  # an int in range, or an error
            if action not in legal_ids[i]:
                env._done = True
                illegal.append(i)
                rewards_out[i] = self._illegal_reward
                terminated_out[i] = True
                finished.append(i)
                continue
            state = env.state
            chosen = decoded.get((action, state.current_player))  # ids seen before
            if chosen is None:
                chosen = space.decode(action, state)
            state = env.state = env._advance(apply(state, chosen))
            if state.is_over:
                env._done = True
                rewards_out[i] = rewards(state, self._reward_kind)[self._seat]
                terminated_out[i] = True
                finished.append(i)
        final_obs: dict[int, npt.NDArray[np.float32]] = {}
        if finished and self._same_step:
            # The last observation of each finished deal, then a new deal.
            for i in finished:
                final_obs[i] = self._single_tensor(self.envs[i].state, self._seat)
                self.envs[i]._new_deal(None)
        self._write()
        if not self._same_step:
            self._ended = terminated_out | self._truncations
        return finished, illegal, final_obs

    def _final_infos(
        self, finished: list[int], illegal: list[int], obs: dict[int, npt.NDArray[np.float32]]
    ) -> dict[str, Any]:
        """The infos of the deals that ended at a ``SameStep`` step: their
        last observations (``obs``) and infos."""
        final_obs = np.full(self.num_envs, None, dtype=object)
        ends = np.zeros(self.num_envs, np.bool_)
        for i in finished:
            final_obs[i] = obs[i]
            ends[i] = True
        final_info: dict[str, Any] = {
            "action_mask": np.zeros(self._masks.shape, np.int8),
            "_action_mask": ends.copy(),
        }
        if illegal:
            final_info.update(_flags("illegal_action", illegal, self.num_envs))
        return {
            "final_obs": final_obs,
            "_final_obs": ends,
            "final_info": final_info,
            "_final_info": ends.copy(),
        }

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal ids of every deal's decision now, one row per deal (the
        batch that a masked learner's policy takes)."""
        return self._masks.astype(np.bool_)

    def close_extras(self, **kwargs: Any) -> None:
        for env in self.envs:
            env.close()
        if self._shards is not None:
            self._shards.close()


class _Shards:
    """The worker processes of a :class:`SevenBridgeVectorEnv` with
    ``workers``: each plays a contiguous share of the deals in a vector env
    of its own, whose observations and masks are its rows of the parent's
    arrays (shared memory), and answers over a pipe with its rewards, ends
    and final observations."""

    def __init__(
        self, parent: SevenBridgeVectorEnv, workers: int, context: str | None, kwargs: Any
    ) -> None:
        import multiprocessing

        methods = multiprocessing.get_all_start_methods()
        if context is not None and context not in methods:
            raise InvalidArgumentError(
                Message(
                    "invalid_argument.context_start_method",
                    "context must be None or a start method of this platform ({methods}), "
                    "not {context}",
                    methods=", ".join(methods),
                    context=repr(context),
                )
            )
        ctx: Any = multiprocessing.get_context(context)
        b, width, ids = parent.num_envs, parent._writer.width, parent._space.size
        wide = ctx.RawArray("b", b * width * 4)
        masks = ctx.RawArray("b", b * ids)
        parent._bind(
            np.frombuffer(wide, np.float32).reshape(b, width),
            np.frombuffer(masks, np.int8).reshape(b, ids),
        )
        self._parent = parent
        cuts = [b * k // workers for k in range(workers + 1)]
        self.ranges = list(itertools.pairwise(cuts))
        self._pipes: list[Any] = []
        self._processes: list[Any] = []
        mode = parent.autoreset_mode.value
        try:
            for start, stop in self.ranges:
                mine, theirs = ctx.Pipe()
                process = ctx.Process(
                    target=_shard_worker,
                    args=(theirs, kwargs, mode, wide, masks, (b, width, ids), (start, stop)),
                    name=f"sevenbridge-vector-env-{start}-{stop}",
                    daemon=True,
                )
                process.start()
                theirs.close()
                self._pipes.append(mine)
                self._processes.append(process)
            for pipe in self._pipes:
                self._answer(pipe)  # each worker's env is built
        except BaseException:
            self.close()
            raise

    def _answer(self, pipe: Any) -> Any:
        """A worker's answer to its last request; its error raised here."""
        try:
            kind, value = pipe.recv()
        except EOFError:
            raise RuntimeError("a worker process of the vector env ended unexpectedly") from None
        if kind == "error":
            raise value
        return value

    def _ask(self, requests: list[tuple[str, Any]]) -> list[Any]:
        """Send each worker its request, then wait for every answer (the
        first error is raised once all have answered)."""
        for pipe, request in zip(self._pipes, requests, strict=True):
            pipe.send(request)
        answers: list[Any] = []
        error: BaseException | None = None
        for pipe in self._pipes:
            try:
                answers.append(self._answer(pipe))
            except Exception as e:  # raised once every worker has answered
                error = error or e
        if error is not None:
            raise error
        return answers

    def reset(self, seeds: list[int | None]) -> None:
        self._ask([("reset", seeds[start:stop]) for start, stop in self.ranges])

    def step(
        self, actions: list[Any]
    ) -> tuple[list[int], list[int], dict[int, npt.NDArray[np.float32]]]:
        parent = self._parent
        space = parent._space
        ended = parent._ended
        # the ids are checked here, so that a bad one stops the step before any deal moves
        for i, action in enumerate(actions):
            if not ended[i]:
                space._check_id(action)
        answers = self._ask([("step", actions[start:stop]) for start, stop in self.ranges])
        finished: list[int] = []
        illegal: list[int] = []
        final_obs: dict[int, npt.NDArray[np.float32]] = {}
        for (start, stop), answer in zip(self.ranges, answers, strict=True):
            rewards_part, terminated, truncated, done, bad, last = answer
            parent._rewards[start:stop] = rewards_part
            parent._terminations[start:stop] = terminated
            parent._truncations[start:stop] = truncated
            finished.extend(start + i for i in done)
            illegal.extend(start + i for i in bad)
            final_obs.update((start + i, obs) for i, obs in last.items())
        if not parent._same_step:
            parent._ended = parent._terminations | parent._truncations
        return finished, illegal, final_obs

    def close(self) -> None:
        for pipe in self._pipes:
            with contextlib.suppress(OSError):  # the worker may have ended already
                pipe.send(("close", None))
        for process in self._processes:
            process.join(5)
            if process.is_alive():
                process.terminate()
                process.join()
        for pipe in self._pipes:
            pipe.close()
        self._pipes, self._processes = [], []


def _shard_worker(
    pipe: Any,
    kwargs: Any,
    mode: str,
    wide: Any,
    masks: Any,
    shape: tuple[int, int, int],
    rows: tuple[int, int],
) -> None:
    """A worker process of :class:`_Shards`: a vector env of the deals
    ``rows`` (start, stop) of the batch, written into those rows of the
    shared arrays ``wide`` and ``masks`` (of ``shape``: deals, row width,
    action ids), answering the parent's requests until it asks to close."""
    start, stop = rows
    b, width, ids = shape
    try:
        env = SevenBridgeVectorEnv(stop - start, autoreset_mode=mode, **kwargs)
        env._bind(
            np.frombuffer(wide, np.float32).reshape(b, width)[start:stop],
            np.frombuffer(masks, np.int8).reshape(b, ids)[start:stop],
        )
    except Exception as e:  # handed to the parent
        pipe.send(("error", e))
        return
    pipe.send(("ok", None))
    while True:
        try:
            request, value = pipe.recv()
        except (EOFError, KeyboardInterrupt):
            return
        if request == "close":
            return
        try:
            if request == "reset":
                env._deal_again(value)
                answer: Any = None
            else:
                finished, illegal, final_obs = env._play(value)
                answer = (
                    env._rewards,
                    env._terminations,
                    env._truncations,
                    finished,
                    illegal,
                    final_obs,
                )
            pipe.send(("ok", answer))
        except KeyboardInterrupt:  # the parent's Ctrl-C reaches its workers too
            return
        except Exception as e:  # handed to the parent
            pipe.send(("error", e))


def _flags(key: str, deals: list[int], count: int) -> dict[str, Any]:
    """An info flag that is true for ``deals``, in Gymnasium's batched form
    (the values, and under ``"_" + key`` which deals have the key)."""
    values = np.zeros(count, np.bool_)
    values[deals] = True
    return {key: values, f"_{key}": values.copy()}


def _ids_function(space: Any, card: bool) -> Callable[[Any, tuple[Any, ...]], list[int]]:
    """A function ``(state, legal) -> ids`` of the engine's ``legal`` actions
    in the space ``space`` (the card game's spaces, with ``card``, know them
    by identity; the mahjong space encodes them)."""
    if card:
        return space._ids_at  # type: ignore[no-any-return]
    encode = space.encode
    return lambda state, legal: [encode(action) for action in legal]


def _autoreset_mode(value: Any, known: bool = True) -> Any:
    """The :class:`gymnasium.vector.AutoresetMode` of ``value`` (its value's text).

    Raises:
        InvalidArgumentError: for anything but ``"SameStep"`` or ``"NextStep"``.
    """
    from gymnasium.vector import AutoresetMode

    if known and value in ("SameStep", "NextStep"):
        return AutoresetMode(value)
    raise InvalidArgumentError(
        Message(
            "invalid_argument.autoreset_mode_must_be",
            "autoreset_mode must be 'SameStep' or 'NextStep', not {mode}",
            mode=repr(value),
        )
    )


def _register() -> None:
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(
            id=ENV_ID,
            entry_point=f"{__name__}:SevenBridgeEnv",
            vector_entry_point=f"{__name__}:SevenBridgeVectorEnv",
        )
    if MAHJONG_ENV_ID not in gymnasium.registry:
        gymnasium.register(
            id=MAHJONG_ENV_ID,
            entry_point=f"{__name__}:SevenBridgeEnv",
            vector_entry_point=f"{__name__}:SevenBridgeVectorEnv",
            kwargs={"game": "mahjong", "players": 4},
        )


_register()
