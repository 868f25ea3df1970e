"""sevenbridge.rl's policy players, self-play and opponent pool."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

from .helpers import optional_module

np = optional_module("numpy")

from sevenbridge import (  # noqa: E402
    InvalidArgumentError,
    Rules,
    apply,
    deal,
    legal_actions,
    mahjong,
    observe,
    returns,
)
from sevenbridge.bots import GreedyPlayer, Player  # noqa: E402
from sevenbridge.rl import (  # noqa: E402
    ActionSpace,
    CompactActionSpace,
    OpponentPool,
    PolicyPlayer,
    Trajectory,
    information_state_tensor_size,
    observation_tensor_size,
    policy_player,
    rewards,
    self_play,
)


class Linear:
    """A deterministic policy: the legal id with the highest score of a fixed
    random linear function of the tensor (a stand-in for a network)."""

    def __init__(self, inputs: int, ids: int, seed: int = 0) -> None:
        rng = np.random.default_rng(seed)
        # a low-rank weight matrix (a full one would be inputs x ids floats)
        self.left = rng.normal(size=(inputs, 4)).astype(np.float32)
        self.right = rng.normal(size=(4, ids)).astype(np.float32)
        self.calls = 0

    def __call__(self, x: Any, mask: Any) -> int:
        self.calls += 1
        scores = (x @ self.left) @ self.right
        return int(np.flatnonzero(mask)[np.argmax(scores[mask])])

    def batch(self, xs: Any, masks: Any) -> list[int]:
        self.calls += 1
        scores = np.where(masks, (xs @ self.left) @ self.right, -np.inf)
        return [int(i) for i in scores.argmax(axis=1)]


def _uniform(seed: int) -> Any:
    rng = np.random.default_rng(seed)
    return lambda x, mask: rng.choice(np.flatnonzero(mask))


@pytest.mark.parametrize("preset", Rules.presets())
@pytest.mark.parametrize("compact", [False, True])
def test_a_policy_player_plays_whole_deals_among_bots(preset: str, compact: bool) -> None:
    rules = Rules.preset(preset)
    space = (CompactActionSpace if compact else ActionSpace)(rules, 3)
    seen: list[tuple[int, int]] = []

    def policy(x: Any, mask: Any) -> int:
        seen.append((x.shape[0], mask.shape[0]))
        assert mask.dtype == np.bool_ and mask.any()
        return int(np.flatnonzero(mask)[-1])

    for tensor in ("observation", "information_state"):
        seen.clear()
        player: Player = policy_player(policy, space, tensor=tensor)
        seats: list[Any] = [player, GreedyPlayer(1), GreedyPlayer(2)]
        state = deal(rules, players=3, seed=5)
        while not state.is_over:
            p = state.current_player
            assert p is not None
            action = seats[p](observe(state))
            assert action in legal_actions(state)
            state = apply(state, action)
        size = (
            observation_tensor_size if tensor == "observation" else information_state_tensor_size
        )(rules, 3, compact=compact)
        assert seen and all(s == (size, space.size) for s in seen)
        fresh = deal(rules, players=3, seed=6)
        assert policy_player(policy, space, tensor=tensor)(fresh) in legal_actions(fresh)


def test_a_policy_player_plays_mahjong() -> None:
    rules = mahjong.Rules()
    space = ActionSpace(rules, 2)
    player = policy_player(_uniform(0), space)
    state = mahjong.deal(rules, players=2, seed=3)
    while not state.is_over:
        state = mahjong.apply(state, player(mahjong.observe(state)))
    assert sum(mahjong.returns(state)) == pytest.approx(0.0)
    with pytest.raises(InvalidArgumentError, match="information state"):
        policy_player(_uniform(0), space, tensor="information_state")


def test_policy_player_errors() -> None:
    space = ActionSpace(Rules(), 3)
    state = deal(seed=1)
    with pytest.raises(InvalidArgumentError, match="not legal here") as info:
        policy_player(lambda x, m: 2, space)(observe(state))  # a discard while drawing
    assert "discard AC" in str(info.value)
    assert pickle.loads(pickle.dumps(info.value)).args == info.value.args
    with pytest.raises(InvalidArgumentError, match="out of range"):
        policy_player(lambda x, m: space.size, space)(state)
    with pytest.raises(TypeError, match="action id must be an int"):
        policy_player(lambda x, m: "draw", space)(state)
    with pytest.raises(TypeError, match="policy must be callable"):
        policy_player("first", space)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="space must be"):
        policy_player(lambda x, m: 0, "space")  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="tensor must be"):
        policy_player(lambda x, m: 0, space, tensor="pixels")
    with pytest.raises(InvalidArgumentError, match="decision"):
        policy_player(lambda x, m: 0, space)(observe(state, 0))  # not player 0's turn
    assert isinstance(policy_player(lambda x, m: 0, space), PolicyPlayer)
    assert policy_player(lambda x, m: np.int64(0), space)(state) == legal_actions(state)[0]


def _check(trajectories: list[list[Trajectory]], space: ActionSpace, kind: str) -> int:
    decisions = 0
    for deal_index, seats in enumerate(trajectories):
        assert sum(t.reward for t in seats) == pytest.approx(0.0, abs=1e-9)
        for t in seats:
            steps = len(t.actions)
            assert t.deal == deal_index
            assert t.observations.shape[0] == t.masks.shape[0] == steps == len(t.dones)
            assert t.masks.shape[1] == space.size and t.observations.dtype == np.float32
            assert t.masks[np.arange(steps), t.actions].all()  # every id played was legal
            assert t.dones.sum() == (1 if steps else 0) and (steps == 0 or t.dones[-1])
            assert t.rewards.sum() == pytest.approx(t.reward if steps else 0.0)
            decisions += steps
    return decisions


@pytest.mark.parametrize("compact", [False, True])
def test_self_play_collects_every_seats_trajectory(compact: bool) -> None:
    rules = Rules.nintendo()
    space = (CompactActionSpace if compact else ActionSpace)(rules, 4)
    size = observation_tensor_size(rules, 4, compact=compact)
    policy = Linear(size, space.size)
    one = self_play(policy, rules, 4, deals=6, seed=10, space=space, reward="normalized")
    assert len(one) == 6 and all(len(seats) == 4 for seats in one)
    assert _check(one, space, "normalized") > 6 * 8
    assert all(t.observations.shape[1] == size for seats in one for t in seats)
    # batched: the same deals, the same choices, far fewer calls
    calls = policy.calls
    policy.calls = 0
    batched = self_play(policy.batch, rules, 4, deals=6, seed=10, space=space, reward="normalized",
                        batched=True)  # fmt: skip
    assert policy.calls < calls / 3
    for a_seats, b_seats in zip(one, batched, strict=True):
        for a, b in zip(a_seats, b_seats, strict=True):
            assert (a.actions == b.actions).all() and a.reward == b.reward
            assert (a.observations == b.observations).all() and (a.masks == b.masks).all()
    # the same deals rewarded by win or loss: the best return is the winner's
    wins = self_play(policy, rules, 4, deals=6, seed=10, space=space, reward="win")
    for a_seats, w_seats in zip(one, wins, strict=True):
        assert all((a.actions == w.actions).all() for a, w in zip(a_seats, w_seats, strict=True))
        got = [w.reward for w in w_seats]
        if any(a.reward for a in a_seats):
            best = max(range(4), key=lambda s: a_seats[s].reward)
            assert got == [1.0 if s == best else -1 / 3 for s in range(4)]
        else:
            assert got == [0.0] * 4


def test_self_play_without_auto_forced_asks_every_decision_and_rewards_are_the_deals() -> None:
    space = ActionSpace(Rules(), 3)
    policy = Linear(observation_tensor_size(Rules(), 3), space.size, seed=2)
    (seats,) = self_play(policy, None, 3, deals=1, seed=3, auto_forced=False)
    # replaying the choices in turn order rebuilds the deal
    state = deal(players=3, seed=3)
    cursor = [0, 0, 0]
    while not state.is_over:
        p = state.current_player
        assert p is not None
        t = seats[p]
        action = space.decode(int(t.actions[cursor[p]]), state)
        cursor[p] += 1
        state = apply(state, action)
    assert cursor == [len(t.actions) for t in seats]
    assert [t.reward for t in seats] == list(returns(state)) == list(rewards(state))


def test_self_play_against_an_opponent_pool() -> None:
    rules = Rules()
    space = ActionSpace(rules, 3)
    size = observation_tensor_size(rules, 3)
    pool = OpponentPool(capacity=3, seed=1)
    for k in range(4):
        pool.add(Linear(size, space.size, seed=k))
    learner = Linear(size, space.size, seed=99)
    out = self_play(learner, rules, 3, deals=6, seed=0, opponents=pool, batched=False)
    _check(out, space, "points")
    for i, seats in enumerate(out):
        assert [t.seat for t in seats if t.learner] == [i % 3]
    with pytest.raises(TypeError, match="opponents must be"):
        self_play(learner, rules, 3, opponents=[learner])  # type: ignore[arg-type]


def test_self_play_mahjong_with_ghosts() -> None:
    rules = mahjong.Rules(ghosts=True)
    space = ActionSpace(rules, 2)
    out = self_play(_uniform(1), rules, 2, deals=3, seed=2, space=space, reward="win")
    for seats in out:
        assert [t.seat for t in seats] == [0, 2]  # the ghosts sit at 1 and 3
    _check(out, space, "win")


def test_self_play_errors() -> None:
    space = ActionSpace(Rules(), 3)
    with pytest.raises(InvalidArgumentError, match="other rules"):
        self_play(_uniform(0), Rules.nintendo(), 3, space=space)
    with pytest.raises(InvalidArgumentError, match="one id per row"):
        self_play(lambda xs, ms: [0], None, 3, deals=2, batched=True)
    with pytest.raises(InvalidArgumentError, match="not legal here"):
        self_play(lambda x, m: 1, None, 3, deals=1)
    with pytest.raises(InvalidArgumentError, match="reward must be"):
        self_play(_uniform(0), None, 3, reward="money")
    with pytest.raises(TypeError, match="rules must be"):
        self_play(_uniform(0), 3.5, 3)
    assert self_play(_uniform(0), None, 3, deals=0) == []


def test_the_opponent_pool() -> None:
    pool = OpponentPool(capacity=2, seed=3)
    with pytest.raises(InvalidArgumentError, match="empty"):
        pool.sample()
    assert pool.latest is None and len(pool) == 0
    weights = [1.0]
    pool.add(weights)
    weights.append(2.0)  # training goes on: the snapshot stays as it was
    assert pool.latest == [1.0]
    pool.add(weights, snapshot=False)
    pool.add([3.0])
    assert list(pool) == [[1.0, 2.0], [3.0]]  # the oldest went
    draws = [pool.sample() for _ in range(40)]
    assert {tuple(d) for d in draws} == {(1.0, 2.0), (3.0,)}
    same = OpponentPool(capacity=2, seed=3)
    for w in ([1.0], [1.0, 2.0], [3.0]):
        same.add(w)
    assert [same.sample() for _ in range(40)] == draws  # seeded
    latest = OpponentPool(capacity=5, latest_share=1.0)
    for k in range(5):
        latest.add(k)
    assert {latest.sample() for _ in range(10)} == {4}
    space = ActionSpace(Rules(), 3)
    policies = OpponentPool(seed=0)
    policies.add(_uniform(0), snapshot=False)
    players = policies.players(space, 2)
    assert len(players) == 2 and all(isinstance(p, PolicyPlayer) for p in players)
    assert "OpponentPool of 1 snapshots" in repr(policies)
    with pytest.raises(InvalidArgumentError, match="capacity"):
        OpponentPool(capacity=0)
    with pytest.raises(InvalidArgumentError, match="latest_share"):
        OpponentPool(latest_share=1.5)
