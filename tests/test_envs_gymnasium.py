"""The Gymnasium environment passes Gymnasium's env checker on every preset and table size."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

from .helpers import optional_module

np = optional_module("numpy")
gymnasium = optional_module("gymnasium")

from gymnasium.spaces import Discrete  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

from sevenbridge import Rules, returns  # noqa: E402
from sevenbridge.bots import GreedyPlayer, RandomPlayer  # noqa: E402
from sevenbridge.envs.gymnasium import ENV_ID, SevenBridgeEnv  # noqa: E402


@pytest.mark.parametrize("preset", Rules.presets())
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_check_env(preset: str, players: int) -> None:
    env = gymnasium.make(ENV_ID, rules=preset, players=players, seat=players - 1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped, skip_render_check=True)


def _episode(env: SevenBridgeEnv, seed: int) -> tuple[list[int], float]:
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    chosen = []
    while True:
        assert env.observation_space.contains(obs)
        legal = np.flatnonzero(info["action_mask"])
        assert legal.tolist() == sorted(env.space.legal_ids(env.state))
        action = int(rng.choice(legal))
        chosen.append(action)
        obs, reward, terminated, truncated, info = env.step(action)
        assert not truncated
        if terminated:
            return chosen, reward
        assert reward == 0.0


@pytest.mark.parametrize("preset", Rules.presets())
def test_full_episodes_reward_the_learners_return(preset: str) -> None:
    for seed in range(4):
        env = SevenBridgeEnv(rules=preset, players=3, seat=seed % 3)
        chosen, reward = _episode(env, seed)
        assert env.state.is_over
        assert reward == returns(env.state)[env.seat]
        again = SevenBridgeEnv(rules=preset, players=3, seat=seed % 3)
        assert _episode(again, seed) == (chosen, reward)  # seeded resets replay
        with pytest.raises(gymnasium.error.ResetNeeded):
            env.step(chosen[0])


def test_opponents_auto_forced_and_illegal_ids() -> None:
    env = SevenBridgeEnv(players=4, opponents=[RandomPlayer, GreedyPlayer(3), RandomPlayer(5)])
    _episode(env, 1)
    forced = SevenBridgeEnv(players=2, auto_forced=True)
    _, info = forced.reset(seed=2)
    for _ in range(30):
        legal = np.flatnonzero(info["action_mask"])
        labels = [forced.space.label(int(i)) for i in legal]
        assert labels not in (["draw"], ["pass"])
        _obs, _, terminated, _, info = forced.step(int(legal[-1]))
        if terminated:
            break
    _, info = env.reset(seed=4)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert terminated and reward == -100.0 and info["illegal_action"]
    with pytest.raises(TypeError, match="opponents"):
        SevenBridgeEnv(players=3, opponents=[GreedyPlayer])
    with pytest.raises(ValueError, match="render_mode"):
        SevenBridgeEnv(render_mode="rgb_array")
    shown = SevenBridgeEnv(players=2, render_mode="ansi")
    shown.reset(seed=0)
    assert "P0" in str(shown.render())


@pytest.mark.parametrize("game", ["seven_bridge", "mahjong"])
def test_action_masks_is_the_info_mask_and_ids_outside_the_space_are_errors(game: str) -> None:
    from sevenbridge.errors import InvalidArgumentError

    env = SevenBridgeEnv(players=3, game=game)
    _obs, info = env.reset(seed=3)
    steps = 0
    while True:
        masks = env.action_masks()
        assert masks.dtype == np.bool_ and masks.shape == (env.space.size,)
        assert (masks == info["action_mask"].astype(bool)).all() and masks.any()
        for bad in (-1, env.space.size, 10**30):
            with pytest.raises(InvalidArgumentError, match="out of range"):
                env.step(bad)
        for bad in (1.5, "3", True, None):
            with pytest.raises(TypeError, match="action id must be an int"):
                env.step(bad)
        choice = np.array(np.flatnonzero(masks)[-1])  # a 0-d array, as trainers pass
        _obs, _reward, terminated, _, info = env.step(choice)
        steps += 1
        if terminated:
            break
    assert steps > 3 and not env.action_masks().any()  # the episode is over


@pytest.mark.parametrize("kind", ["points", "normalized", "win"])
def test_the_reward_option(kind: str) -> None:
    from sevenbridge.rl import reward_bounds, rewards

    for seed in range(3):
        env = SevenBridgeEnv(rules="nintendo", players=3, seat=seed, reward=kind)
        _, reward = _episode(env, seed)
        assert reward == rewards(env.state, kind)[seed]
        low, high = env.reward_bounds
        assert (low, high) == reward_bounds(Rules.nintendo(), 3, kind)
        assert low <= reward <= high
    from sevenbridge.errors import InvalidArgumentError

    with pytest.raises(InvalidArgumentError, match="reward must be"):
        SevenBridgeEnv(reward="score")


@pytest.mark.parametrize("preset", Rules.presets())
def test_the_compact_encoding(preset: str) -> None:
    from sevenbridge.rl import CompactActionSpace, observation_tensor_size

    env = gymnasium.make(ENV_ID, rules=preset, players=3, encoding="compact")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped, skip_render_check=True)
    inner = env.unwrapped
    assert isinstance(inner, SevenBridgeEnv) and type(inner.space) is CompactActionSpace
    size = observation_tensor_size(Rules.preset(preset), 3, compact=True)
    assert inner.observation_space.shape == (size,)
    assert isinstance(inner.action_space, Discrete) and inner.action_space.n == inner.space.size
    for seed in range(3):
        _, reward = _episode(inner, seed)  # the masks are the compact legal ids
        assert reward == returns(inner.state)[0]


def test_bad_encodings() -> None:
    from sevenbridge.errors import InvalidArgumentError

    for game, bad in (("seven_bridge", "small"), ("seven_bridge", None), ("mahjong", "compact")):
        with pytest.raises(InvalidArgumentError, match="encoding must be"):
            SevenBridgeEnv(encoding=bad, game=game)  # type: ignore[arg-type]


_VECTOR_CASES = [
    (4, {"rules": "nintendo", "players": 3, "encoding": "compact", "reward": "normalized"}),
    (5, {"players": 2, "auto_forced": True, "seat": 1}),
    (1, {"rules": "standard", "players": 4}),
    (3, {"game": "mahjong", "players": 4, "reward": "win"}),
    (2, {"game": "mahjong", "players": 2, "auto_forced": True}),
]


@pytest.mark.parametrize("mode", ["SameStep", "NextStep"])
@pytest.mark.parametrize(
    ("num_envs", "kwargs", "workers"),
    [(*case, 1) for case in _VECTOR_CASES] + [(*case, 2) for case in _VECTOR_CASES if case[0] > 2],
)
def test_the_vector_env_steps_as_gymnasiums_sync_vector_env(
    mode: str, num_envs: int, kwargs: dict[str, Any], workers: int
) -> None:
    """The batched vector env gives what B single envs with the same seeds
    give, in one process or shared out among worker processes."""
    from gymnasium.utils.env_checker import data_equivalence
    from gymnasium.vector import AutoresetMode, SyncVectorEnv

    from sevenbridge.envs.gymnasium import SevenBridgeVectorEnv

    ours = SevenBridgeVectorEnv(num_envs, autoreset_mode=mode, workers=workers, **kwargs)
    theirs = SyncVectorEnv(
        [lambda: SevenBridgeEnv(**kwargs) for _ in range(num_envs)],
        autoreset_mode=AutoresetMode(mode),
    )
    assert ours.metadata["autoreset_mode"] is AutoresetMode(mode)
    assert ours.observation_space == theirs.observation_space
    assert ours.action_space == theirs.action_space
    assert ours.single_action_space == theirs.single_action_space
    a, info_a = ours.reset(seed=7)
    b, info_b = theirs.reset(seed=7)
    assert data_equivalence(a, b) and data_equivalence(info_a, info_b)
    rng = np.random.default_rng(7)
    ended = 0
    for step in range(400):
        masks = ours.action_masks()
        assert isinstance(ours.single_action_space, Discrete)
        assert masks.shape == (num_envs, ours.single_action_space.n)
        assert (masks == info_a["action_mask"].astype(bool)).all()
        if mode == "SameStep":
            assert masks.any(axis=1).all()  # every deal has a decision to take
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        if step % 97 == 5:
            k = step % num_envs
            actions[k] = int(np.flatnonzero(~masks[k])[0])  # an illegal id
        out_a = ours.step(actions)
        out_b = theirs.step(actions)
        for x, y in zip(out_a, out_b, strict=True):
            assert data_equivalence(x, y), step
        info_a = out_a[4]
        ended += int(out_a[2].sum())
        assert out_a[0].dtype == np.float32 and out_a[1].dtype == np.float64
    assert ended > 2 * num_envs
    ours.close()
    theirs.close()


def test_the_vector_env_through_make_vec_and_its_errors() -> None:
    from sevenbridge.envs.gymnasium import SevenBridgeVectorEnv
    from sevenbridge.errors import InvalidArgumentError

    envs = gymnasium.make_vec(ENV_ID, num_envs=3, players=2, encoding="compact")
    assert isinstance(envs, SevenBridgeVectorEnv) and envs.num_envs == 3
    obs, _ = envs.reset(seed=[1, 2, None])
    assert obs.shape == (3, *(envs.single_observation_space.shape or ()))
    again, _ = SevenBridgeVectorEnv(3, players=2, encoding="compact").reset(seed=[1, 2, 9])
    assert (again[:2] == obs[:2]).all()
    with pytest.raises(InvalidArgumentError, match="one per deal"):
        envs.reset(seed=[1, 2])
    with pytest.raises(InvalidArgumentError, match="one per deal"):
        envs.step([0, 0])
    with pytest.raises(InvalidArgumentError, match="autoreset_mode"):
        SevenBridgeVectorEnv(2, autoreset_mode="Disabled")
    with pytest.raises(InvalidArgumentError, match="num_envs"):
        SevenBridgeVectorEnv(0)
    mahjong = gymnasium.make_vec("sevenbridge/Mahjong-v0", num_envs=2, players=2)
    obs, _ = mahjong.reset(seed=0)
    assert obs.shape == (2, 415)


class _FailingBot:
    def __init__(self, seed: int = 0) -> None:
        pass

    def __call__(self, view: object) -> object:
        raise RuntimeError("the bot fails")


def test_the_vector_env_with_workers_and_its_errors() -> None:
    """With workers, bad input is refused before any deal moves, as in one
    process; a worker's error reaches the caller; close ends the workers."""
    from sevenbridge.envs.gymnasium import SevenBridgeVectorEnv
    from sevenbridge.errors import InvalidArgumentError

    with pytest.raises(InvalidArgumentError, match="workers must be from 1 to 3"):
        SevenBridgeVectorEnv(3, workers=4)
    with pytest.raises(InvalidArgumentError, match="workers must be"):
        SevenBridgeVectorEnv(3, workers=0)
    with pytest.raises(InvalidArgumentError, match="context must be None or a start method"):
        SevenBridgeVectorEnv(3, workers=2, context="threads")
    with pytest.raises(InvalidArgumentError, match="players"):
        SevenBridgeVectorEnv(3, workers=2, players=9)
    envs = SevenBridgeVectorEnv(4, workers=2, players=2)
    single = SevenBridgeVectorEnv(4, players=2)
    obs, _ = envs.reset(seed=3)
    assert (obs == single.reset(seed=3)[0]).all()
    before = obs.copy()
    actions = envs.action_masks().argmax(axis=1)
    size = envs.action_masks().shape[1]  # the number of ids
    with pytest.raises(InvalidArgumentError, match="action"):
        envs.step([*actions[:3], size])  # out of range: no deal has moved
    with pytest.raises(TypeError):
        envs.step([*actions[:3], "draw"])
    with pytest.raises(InvalidArgumentError, match="one per deal"):
        envs.step(actions[:3])
    assert (envs.reset(seed=3)[0] == before).all()
    out = envs.step(actions)
    assert (out[0] == single.step(actions)[0]).all()
    processes = list(envs._shards._processes)  # type: ignore[union-attr]
    failing = SevenBridgeVectorEnv(2, workers=2, players=2, opponents=_FailingBot, context="fork")
    with pytest.raises(RuntimeError, match="the bot fails"):
        failing.reset(seed=0)  # raised in a worker, handed back
    failing.close()
    assert len(processes) == 2 and all(p.is_alive() for p in processes)
    envs.close()
    assert not any(p.is_alive() for p in processes)
    single.close()
