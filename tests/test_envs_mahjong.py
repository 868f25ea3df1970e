"""The learning environments for Simple Mahjong: PettingZoo and Gymnasium."""

from __future__ import annotations

import warnings

import pytest

from .helpers import optional_module

np = optional_module("numpy")
optional_module("pettingzoo")
gymnasium = optional_module("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

import sevenbridge.envs.gymnasium  # noqa: E402, F401 (registers the ids)
from sevenbridge import InvalidArgumentError  # noqa: E402
from sevenbridge import mahjong as mj  # noqa: E402
from sevenbridge.envs.pettingzoo import env, raw_env  # noqa: E402

CASES = [(rules, n) for rules in ("standard", "full") for n in mj.PLAYER_COUNTS]


@pytest.mark.parametrize(("preset", "players"), CASES)
def test_pettingzoo_api_test(preset: str, players: int) -> None:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "Observation", UserWarning)
        api_test(env(game="mahjong", rules=preset, players=players), num_cycles=300)
        seed_test(lambda: env(game="mahjong", rules=preset, players=players), 100)


def test_pettingzoo_with_ghosts_has_the_real_players_as_agents() -> None:
    table = raw_env(game="mahjong", rules=mj.Rules(ghosts=True), players=2, auto_forced=True)
    assert table.possible_agents == ["player_0", "player_2"]
    rng = np.random.default_rng(1)
    for seed in range(3):
        table.reset(seed=seed)
        got = {}
        for agent in table.agent_iter():
            obs, reward, terminated, truncated, _ = table.last()
            if terminated or truncated:
                got[agent] = reward
                table.step(None)
                continue
            seat = table._seats[agent]
            assert table.state.current_player == seat
            legal = np.flatnonzero(obs["action_mask"])
            assert legal.tolist() == sorted(table.space.legal_ids(table.state))
            table.step(int(rng.choice(legal)))
        results = mj.returns(table.state)
        assert got == {"player_0": results[0], "player_2": results[2]}
    with pytest.raises(InvalidArgumentError, match="ghost"):
        raw_env(game="mahjong", rules=mj.Rules(ghosts=True), players=2, dealer=1)
    with pytest.raises(InvalidArgumentError):
        raw_env(game="mahjong", players=5)
    with pytest.raises(InvalidArgumentError):
        raw_env(game="mahjong", tensor="information_state")
    with pytest.raises(InvalidArgumentError, match="no game"):
        raw_env(game="go")


@pytest.mark.parametrize("players", mj.PLAYER_COUNTS)
@pytest.mark.parametrize("rules", [None, "full", mj.Rules(ghosts=True)])
def test_gymnasium_check_env_and_episodes(players: int, rules: object) -> None:
    made = gymnasium.make("sevenbridge/Mahjong-v0", players=players, rules=rules)
    check_env(made.unwrapped, skip_render_check=True)
    inner = made.unwrapped
    rng = np.random.default_rng(players)
    for seed in range(2):
        obs, info = made.reset(seed=seed)
        assert obs.shape == inner.observation_space.shape
        done, reward = False, 0.0
        while not done:
            legal = np.flatnonzero(info["action_mask"])
            assert legal.tolist() == sorted(inner.space.legal_ids(inner.state))
            obs, reward, done, _, info = made.step(int(rng.choice(legal)))
        assert inner.state.is_over
        assert reward == mj.returns(inner.state)[inner.seat]


def test_gymnasium_seats_and_illegal_ids() -> None:
    made = gymnasium.make("sevenbridge/Mahjong-v0", players=3, rules=mj.Rules(ghosts=True))
    with pytest.raises(InvalidArgumentError, match="ghost"):
        gymnasium.make("sevenbridge/Mahjong-v0", players=3, rules=mj.Rules(ghosts=True), seat=3)
    _, info = made.reset(seed=4)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, done, _, info = made.step(illegal)
    assert done and reward == -100.0 and info["illegal_action"]
