"""Policies as players, self-play, and a pool of past policies to play against.

A *policy* here is a function from a tensor and a mask (the legal ids, as
booleans) to an action id: what a learner's network computes.
:func:`policy_player` seats one at a table as a :class:`~sevenbridge.bots.Player`;
:func:`self_play` plays whole deals with one policy in every seat (or against
opponents drawn from an :class:`OpponentPool`) and hands back each seat's
trajectory. Re-exported by :mod:`sevenbridge.rl`.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from .._kit import checks as _checks
from ..errors import InvalidArgumentError, Message
from ..games import game_module, game_of
from ..rules import Rules
from ._actions import ActionSpace
from ._compact import CompactActionSpace
from ._rewards import check_reward, rewards

__all__ = ["OpponentPool", "PolicyPlayer", "Trajectory", "policy_player", "self_play"]

#: A policy: (tensor, boolean mask of the legal ids) -> an action id.
Policy = Callable[[npt.NDArray[np.float32], npt.NDArray[np.bool_]], Any]
_TENSORS = ("observation", "information_state")


def _check_tensor(value: Any) -> str:
    if value not in _TENSORS or not isinstance(value, str):
        raise InvalidArgumentError(
            Message(
                "invalid_argument.tensor_must_observation_or",
                "tensor must be 'observation' or 'information_state', not {tensor}",
                tensor=repr(value),
            )
        )
    return value


def _tensor_function(space: ActionSpace, tensor: str) -> Callable[[Any], npt.NDArray[np.float32]]:
    """The tensor a policy over ``space`` reads: the compact layout for a
    :class:`CompactActionSpace`, the full one otherwise."""
    from ._tensors import information_state_tensor, observation_tensor

    compact = isinstance(space, CompactActionSpace)
    if _check_tensor(tensor) == "information_state":
        if type(space.rules) is not Rules:
            raise InvalidArgumentError(
                Message(
                    "invalid_argument.mahjong_no_information_state_tensor",
                    "mahjong has no information state tensor: ask for tensor='observation'",
                )
            )
        return lambda view: information_state_tensor(view, compact=compact)
    if compact:
        return lambda view: observation_tensor(view, compact=True)
    return observation_tensor


def _chosen_id(value: Any, mask: npt.NDArray[np.bool_], space: ActionSpace) -> int:
    """The id a policy returned, checked: an integer, and legal by ``mask``.

    Raises:
        TypeError: for anything but an integer.
        InvalidArgumentError: for an id out of range or not legal.
    """
    if isinstance(value, np.ndarray) and value.shape == ():
        value = value[()]
    action_id = space._check_id(value)
    if not mask[action_id]:
        raise InvalidArgumentError(
            Message(
                "invalid_argument.policy_chose_illegal_id",
                "the policy chose id {action_id} ({label}), which is not legal here",
                action_id=str(action_id),
                label=space.label(action_id),
            )
        )
    return action_id


class PolicyPlayer:
    """A :class:`~sevenbridge.bots.Player` that asks a policy: the view's
    tensor and the mask of its legal ids in, an id out (see :func:`policy_player`).

    Attributes:
        policy: The policy function.
        space: The numbering its ids are in.
        tensor: ``"observation"`` or ``"information_state"``.
    """

    def __init__(self, policy: Policy, space: ActionSpace, tensor: str = "observation") -> None:
        if not callable(policy):
            raise TypeError(f"policy must be callable, not {_checks.type_name(policy)}")
        _checks.instance(space, ActionSpace, "space", "an ActionSpace")
        self.policy = policy
        self.space = space
        self.tensor = tensor
        self._tensor = _tensor_function(space, tensor)

    def __call__(self, view: Any, /) -> Any:
        from ..bots import choices_view

        view = choices_view(view)  # a state's view of the player to act; a clear error if none
        mask = self.space.mask(view)
        action_id = _chosen_id(self.policy(self._tensor(view), mask), mask, self.space)
        return self.space.decode(action_id, view)

    def __repr__(self) -> str:
        return f"<PolicyPlayer of {self.policy!r} over {self.space!r}>"


def policy_player(
    policy: Policy, space: ActionSpace, *, tensor: str = "observation"
) -> PolicyPlayer:
    """A :class:`~sevenbridge.bots.Player` that plays by ``policy``, a function
    from (tensor, mask) to an action id of ``space``.

    The player hands the policy the tensor of its view (the
    :func:`~sevenbridge.rl.observation_tensor`, or with
    ``tensor="information_state"`` the information state tensor; in the
    compact layout when ``space`` is a :class:`CompactActionSpace`) and the
    boolean mask of the legal ids (:meth:`ActionSpace.mask`), and plays the
    action of the id it returns. It plays either game: give it a
    :class:`~sevenbridge.rl.MahjongActionSpace` for mahjong. A state may be
    given instead of a view, as to the library's bots (the view of the player
    to act is used).

    Raises:
        TypeError: if ``policy`` is not callable or ``space`` not an
            ActionSpace; from the player, if the policy returns no integer.
        InvalidArgumentError: from the player, if the policy's id is not legal
            (or out of range).

    >>> import numpy as np
    >>> from sevenbridge import Rules, apply, deal, observe
    >>> from sevenbridge.rl import ActionSpace
    >>> first_legal = lambda x, mask: int(np.flatnonzero(mask)[0])
    >>> player = policy_player(first_legal, ActionSpace(Rules(), 3))
    >>> state = deal(seed=1)
    >>> player(observe(state))
    Draw(1)
    """
    return PolicyPlayer(policy, space, tensor)


class Trajectory(NamedTuple):
    """One seat's decisions in one deal, in order (one row per decision).

    ``rewards`` is zero at every step but the seat's last, which holds the
    seat's reward for the deal; ``dones`` is true at that last step only.
    ``reward`` is that reward again, also when the seat had no decision to
    take.
    """

    deal: int
    """The deal's number in the run, from 0."""
    seat: int
    """The seat."""
    learner: bool
    """Whether the seat was played by the policy being trained (not an opponent)."""
    observations: npt.NDArray[np.float32]
    """The tensors the policy saw, shape ``(steps, tensor size)``."""
    masks: npt.NDArray[np.bool_]
    """The legal ids, shape ``(steps, space size)``."""
    actions: npt.NDArray[np.int64]
    """The ids played, shape ``(steps,)``."""
    rewards: npt.NDArray[np.float32]
    """Zero but at the last step, shape ``(steps,)``."""
    dones: npt.NDArray[np.bool_]
    """True at the last step only, shape ``(steps,)``."""
    reward: float
    """The seat's reward for the deal."""


class OpponentPool:
    """Snapshots of past policies, to play against: keeps the latest
    ``capacity`` and samples among them with its own seeded generator.

    Args:
        capacity: How many snapshots are kept (the oldest goes first).
        seed: The seed of the sampling.
        latest_share: How often :meth:`sample` gives the latest snapshot
            rather than one drawn uniformly from all (0 to 1).

    >>> pool = OpponentPool(capacity=2, seed=1)
    >>> for weights in ([0.0], [1.0], [2.0]):
    ...     pool.add(weights)           # a copy of each is kept
    >>> len(pool), pool.latest, sorted(pool.sample() for _ in range(20))[0]
    (2, [2.0], [1.0])
    """

    def __init__(self, capacity: int = 16, *, seed: int = 0, latest_share: float = 0.0) -> None:
        self.capacity = _checks.integer(capacity, "capacity", 1)
        self.latest_share = _checks.fraction(latest_share, "latest_share")
        self._rng = random.Random(_checks.seed(seed))
        self._kept: list[Any] = []

    def add(self, policy: Any, *, snapshot: bool = True) -> None:
        """Keep ``policy`` (a deep copy of it with ``snapshot``, so that later
        training of the original does not change it), dropping the oldest
        snapshot when the pool is full."""
        self._kept.append(copy.deepcopy(policy) if snapshot else policy)
        del self._kept[: -self.capacity]

    def sample(self) -> Any:
        """A snapshot: the latest one with probability ``latest_share``, else
        one drawn uniformly.

        Raises:
            InvalidArgumentError: if the pool is empty.
        """
        if not self._kept:
            raise InvalidArgumentError(
                Message(
                    "invalid_argument.pool_is_empty",
                    "the opponent pool is empty: add a policy first",
                )
            )
        if self.latest_share and self._rng.random() < self.latest_share:
            return self._kept[-1]
        return self._kept[self._rng.randrange(len(self._kept))]

    @property
    def latest(self) -> Any:
        """The snapshot added last (``None`` while the pool is empty)."""
        return self._kept[-1] if self._kept else None

    def players(self, space: ActionSpace, count: int, *, tensor: str = "observation") -> list[Any]:
        """``count`` sampled snapshots, each seated as a :func:`policy_player`."""
        return [policy_player(self.sample(), space, tensor=tensor) for _ in range(count)]

    def __len__(self) -> int:
        return len(self._kept)

    def __iter__(self) -> Iterator[Any]:
        return iter(list(self._kept))

    def __repr__(self) -> str:
        return f"<OpponentPool of {len(self._kept)} snapshots, at most {self.capacity}>"


def self_play(
    policy: Any,
    rules: Any = None,
    players: int = 3,
    deals: int = 1,
    *,
    seed: int = 0,
    space: ActionSpace | None = None,
    tensor: str = "observation",
    reward: str = "points",
    auto_forced: bool = True,
    opponents: OpponentPool | None = None,
    batched: bool = False,
) -> list[list[Trajectory]]:
    """Play ``deals`` deals with ``policy`` in every seat and return, for
    each deal, each seat's :class:`Trajectory`.

    Every decision asks the policy (the tensor of the player's view and the
    mask of its legal ids, as :func:`policy_player` does); with
    ``auto_forced`` a lone :class:`~sevenbridge.Pass` or
    :class:`~sevenbridge.Draw` is played without asking and left out of the
    trajectories. The deals are played side by side: with ``batched``, the
    policy is called once per round with every deal's pending decision
    stacked, ``(n, tensor size)`` and ``(n, space size)``, and returns ``n``
    ids, which suits a network on a batch; otherwise it is called with one
    tensor and one mask at a time.

    Args:
        policy: The policy being trained.
        rules: Either game's rules (a preset's name is read as the card
            game's), ``None`` for the card game's defaults.
        players: The table size (the real players, for mahjong).
        deals: How many deals.
        seed: The seed of the deals (deal ``i`` is dealt from ``seed + i``;
            the pool samples with its own seed).
        space: The numbering (default :class:`ActionSpace` of the rules and
            table; a :class:`CompactActionSpace` makes the tensors compact).
        tensor: ``"observation"`` or ``"information_state"``.
        reward: The kind of reward (:data:`sevenbridge.rl.REWARDS`).
        auto_forced: Play lone passes and draws without asking.
        opponents: With a pool, in deal ``i`` only seat ``i % players`` is
            the policy's; the others play snapshots drawn from the pool (their
            trajectories have ``learner`` false).
        batched: Call the policy on batches (see above).

    Raises:
        InvalidArgumentError: for bad arguments, or an illegal id from a policy.

    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> uniform = lambda x, mask: rng.choice(np.flatnonzero(mask))
    >>> (deal,) = self_play(uniform, "standard", players=3, deals=1, seed=4)
    >>> [len(t.actions) > 0 for t in deal], sum(t.reward for t in deal)
    ([True, True, True], 0.0)
    >>> t = deal[0]
    >>> t.observations.shape[1], t.masks.shape[1], bool(t.dones[-1]), bool(t.rewards[-1] == t.reward)
    (1592, 2971, True, True)
    """
    if isinstance(rules, str):
        rules = Rules.preset(rules)
    if rules is None:
        rules = Rules()
    game = game_of(rules)
    if not isinstance(rules, game_module(game).Rules):
        raise TypeError(
            f"rules must be a Rules value or a preset's name, not {_checks.type_name(rules)}"
        )
    if opponents is not None:
        _checks.instance(opponents, OpponentPool, "opponents", "an OpponentPool")
    module = game_module(game)
    if space is None:
        space = ActionSpace(rules, players)
    _checks.instance(space, ActionSpace, "space", "an ActionSpace")
    if space.rules != rules or space.players != players:
        raise InvalidArgumentError(
            Message(
                "invalid_argument.space_other_table",
                "space is for other rules or another table size than the deals",
            )
        )
    count = _checks.integer(deals, "deals", 0)
    kind = check_reward(reward)
    read = _tensor_function(space, tensor)
    first_seed = _checks.seed(seed) or 0
    forced = (module.Pass, module.Draw)
    # Each deal: its state, each seat's policy and whether it is the learner.
    states = [module.deal(rules, players=players, seed=first_seed + i) for i in range(count)]
    table: list[list[tuple[Any, bool]]] = []
    for i, state in enumerate(states):
        real = _real_seats(state)
        if opponents is None:
            table.append([(policy, True)] * len(module.returns(state)))
        else:
            mine = real[i % players]
            table.append(
                [
                    (policy, True) if s == mine else (opponents.sample(), False)
                    for s in range(len(module.returns(state)))
                ]
            )
    steps: list[dict[int, list[tuple[Any, Any, int]]]] = [{} for _ in range(count)]
    live = list(range(count))
    while live:
        pending: list[tuple[int, Any, Any, Any]] = []  # deal, view, tensor, mask
        for i in live:
            state = states[i]
            while not state.is_over and auto_forced:
                legal = module.legal_actions(state)
                if len(legal) != 1 or type(legal[0]) not in forced:
                    break
                state = module.apply(state, legal[0])
            states[i] = state
            if not state.is_over:
                view = module.observe(state, state.current_player)
                pending.append((i, view, read(view), space.mask(view)))
        live = [i for i in live if not states[i].is_over]
        groups: dict[int, list[int]] = {}
        for k, (i, view, _, _) in enumerate(pending):
            groups.setdefault(id(table[i][view.viewer][0]), []).append(k)
        for ks in groups.values():
            first = pending[ks[0]]
            chooser = table[first[0]][first[1].viewer][0]
            if batched:
                xs = np.stack([pending[k][2] for k in ks])
                ms = np.stack([pending[k][3] for k in ks])
                chosen = list(chooser(xs, ms))
                if len(chosen) != len(ks):
                    raise InvalidArgumentError(
                        Message(
                            "invalid_argument.policy_batch_size",
                            "a batched policy must return one id per row: {count} rows, {given} ids",
                            count=str(len(ks)),
                            given=str(len(chosen)),
                        )
                    )
            else:
                chosen = [chooser(pending[k][2], pending[k][3]) for k in ks]
            for k, value in zip(ks, chosen, strict=True):
                i, view, x, mask = pending[k]
                action_id = _chosen_id(value, mask, space)
                steps[i].setdefault(view.viewer, []).append((x, mask, action_id))
                states[i] = module.apply(states[i], space.decode(action_id, view))
        live = [i for i in live if not states[i].is_over]
    out: list[list[Trajectory]] = []
    for i, state in enumerate(states):
        got = rewards(state, kind)
        out.append(
            [
                _trajectory(i, s, table[i][s][1], steps[i].get(s, []), got[s], space, read, state)
                for s in _real_seats(state)
            ]
        )
    return out


def _real_seats(state: Any) -> tuple[int, ...]:
    """The seats of the real players (every seat but a mahjong ghost's)."""
    real: tuple[int, ...] = getattr(state, "real_seats", None) or tuple(range(state.players))
    return real


def _trajectory(
    deal: int,
    seat: int,
    learner: bool,
    rows: Sequence[tuple[Any, Any, int]],
    reward: float,
    space: ActionSpace,
    read: Callable[[Any], Any],
    state: Any,
) -> Trajectory:
    t = len(rows)
    if rows:
        observations = np.stack([r[0] for r in rows]).astype(np.float32, copy=False)
        masks = np.stack([r[1] for r in rows]).astype(np.bool_, copy=False)
    else:
        width = len(read(_any_view(state, seat)))
        observations = np.zeros((0, width), np.float32)
        masks = np.zeros((0, space.size), np.bool_)
    rewards_ = np.zeros(t, np.float32)
    dones = np.zeros(t, np.bool_)
    if t:
        rewards_[-1] = reward
        dones[-1] = True
    actions = np.array([r[2] for r in rows], np.int64)
    return Trajectory(
        deal, seat, learner, observations, masks, actions, rewards_, dones, float(reward)
    )


def _any_view(state: Any, seat: int) -> Any:
    return game_module(game_of(state)).observe(state, seat)
