"""The PettingZoo environment passes PettingZoo's own checks on every preset and table size."""

from __future__ import annotations

import warnings

import pytest

from .helpers import optional_module

np = optional_module("numpy")
optional_module("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from sevenbridge import (  # noqa: E402
    Draw,
    IllegalActionError,
    InvalidArgumentError,
    Pass,
    Rules,
    legal_actions,
    observe,
    returns,
)
from sevenbridge.envs.pettingzoo import env, raw_env  # noqa: E402
from sevenbridge.rl import (  # noqa: E402
    ActionSpace,
    information_state_tensor,
    information_state_tensor_size,
    observation_tensor,
)

CASES = [(preset, n) for preset in Rules.presets() for n in (2, 3, 4, 5)]


@pytest.mark.parametrize(("preset", "players"), CASES)
@pytest.mark.parametrize("auto_forced", [False, True])
def test_pettingzoo_api_and_seed_tests(preset: str, players: int, auto_forced: bool) -> None:
    with warnings.catch_warnings():
        # PettingZoo warns about every dict observation (its own card games too)
        warnings.filterwarnings("ignore", "Observation", UserWarning)
        api_test(env(rules=preset, players=players, auto_forced=auto_forced), num_cycles=200)
        seed_test(lambda: env(rules=preset, players=players, auto_forced=auto_forced), 200)


def _play(table: raw_env, seed: int) -> list[tuple[str, int]]:
    """Play a seeded deal with random legal ids; return who was asked and how many ids they had."""
    rng = np.random.default_rng(seed)
    table.reset(seed=seed)
    asked = []
    for agent in table.agent_iter():
        obs, _, terminated, truncated, _ = table.last()
        if terminated or truncated:
            table.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        asked.append((agent, len(legal)))
        table.step(int(rng.choice(legal)))
    return asked


@pytest.mark.parametrize("preset", Rules.presets())
def test_auto_forced_asks_only_real_decisions_and_rewards_are_returns(preset: str) -> None:
    lone = 0
    for seed in range(6):
        table = raw_env(rules=preset, players=4, auto_forced=True)
        table.reset(seed=seed)
        for agent in table.agent_iter():
            obs, reward, terminated, _, _ = table.last()
            if terminated:
                assert reward == returns(table.state)[int(agent[-1])]
                table.step(None)
                continue
            actions = legal_actions(table.state)
            assert not (len(actions) == 1 and isinstance(actions[0], (Pass, Draw)))
            table.step(int(np.random.default_rng(seed).choice(np.flatnonzero(obs["action_mask"]))))
        plain = _play(raw_env(rules=preset, players=4), seed)
        lone += sum(1 for _, k in plain if k == 1)
    assert lone > 0  # without the option, lone passes and draws are asked


@pytest.mark.parametrize("tensor", ["observation", "information_state"])
def test_what_last_and_observe_hand_out_is_the_librarys_tensor_and_mask(tensor: str) -> None:
    # Every observation of a played deal, through env() (last) and observe, is
    # the tensor of the seat's view to the bit, and the mask the legal ids.
    of_view = observation_tensor if tensor == "observation" else information_state_tensor
    space = ActionSpace(Rules(), 3)
    table = env(players=3, tensor=tensor)
    rng = np.random.default_rng(5)
    for seed in (1, 2):
        table.reset(seed=seed)
        for agent in table.agent_iter():
            obs, _, terminated, truncated, _ = table.last()
            state = table.unwrapped.state
            p = int(agent[-1])
            expected = of_view(observe(state, p))
            for seen in (obs, table.observe(agent)):
                assert seen["observation"].dtype == np.float32
                assert seen["observation"].tobytes() == expected.tobytes()
                assert seen["action_mask"].dtype == np.int8
            if terminated or truncated:
                assert not obs["action_mask"].any()
                table.step(None)
                continue
            assert obs["action_mask"].tolist() == space.mask(state).astype(int).tolist()
            other = table.observe(f"player_{(p + 1) % 3}")
            assert not other["action_mask"].any()
            table.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def test_the_same_seed_gives_the_same_deal_and_the_mask_is_the_current_players() -> None:
    a, b = raw_env(players=3), raw_env(players=3)
    assert _play(a, 7) == _play(b, 7)
    table = raw_env(players=3, tensor="information_state")
    table.reset(seed=3)
    space = ActionSpace(Rules(), 3)
    current = table.agent_selection
    for agent in table.agents:
        obs = table.observe(agent)
        assert obs["observation"].shape == (information_state_tensor_size(Rules(), 3),)
        if agent == current:
            assert obs["action_mask"].tolist() == space.mask(table.state).astype(int).tolist()
        else:
            assert not obs["action_mask"].any()


def test_render_illegal_ids_and_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    table = raw_env(players=2, render_mode="ansi")
    table.reset(seed=1)
    text = table.render()
    assert isinstance(text, str) and "P1" in text
    shown = raw_env(players=2, render_mode="human", auto_forced=False)
    shown.reset(seed=1)
    shown.step(0)  # Draw
    assert "P1" in capsys.readouterr().out
    illegal = int(np.flatnonzero(table.observe(table.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        table.step(illegal)
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(render_mode="rgb_array")
    with pytest.raises(ValueError, match="tensor"):
        raw_env(tensor="pixels")
    with pytest.raises(TypeError):
        raw_env(rules=3)  # type: ignore[arg-type]


def test_the_wrapped_env_keeps_pettingzoos_checks() -> None:
    from pettingzoo.utils.wrappers import AssertOutOfBoundsWrapper, OrderEnforcingWrapper

    table = env(players=3)
    assert isinstance(table, OrderEnforcingWrapper)
    assert isinstance(table.env, AssertOutOfBoundsWrapper)
    assert str(table) == "sevenbridge_v0"
    with pytest.raises(AttributeError, match="before reset"):
        table.last()
    with pytest.raises(AssertionError, match="reset"):
        table.step(0)
    table.reset(seed=2)
    size = table.action_space(table.agent_selection).n
    for bad in (size, -1, np.int64(size)):
        with pytest.raises(AssertionError, match="action space"):
            table.step(bad)
    # the shortcut and PettingZoo's own path give the same play
    plain = OrderEnforcingWrapper(AssertOutOfBoundsWrapper(raw_env(players=3)))
    plain.reset(seed=2)
    rng = np.random.default_rng(2)
    for _ in range(300):
        a, b = table.last(), plain.last()
        assert (a[0]["observation"] == b[0]["observation"]).all()
        assert (a[0]["action_mask"] == b[0]["action_mask"]).all()
        assert a[1:] == b[1:]
        if a[2] or a[3]:
            table.step(None)
            plain.step(None)
            if not table.agents:
                break
            continue
        choice = rng.choice(np.flatnonzero(a[0]["action_mask"]))
        table.step(int(choice) if rng.random() < 0.5 else choice)
        plain.step(int(choice))
    assert table.unwrapped.state == plain.unwrapped.state


def test_deals_played_in_the_env_leave_nothing_behind() -> None:
    """Deals played to their end through the environment (information state
    tensors, whose summaries of the history are cached) leave no history node
    alive once the environment is dropped."""
    import gc

    from sevenbridge.rl import clear_caches
    from sevenbridge.state import History

    def history_nodes() -> int:
        gc.collect()
        return sum(1 for o in gc.get_objects() if type(o) is History)

    clear_caches()
    before = history_nodes()
    table = raw_env(rules="nintendo", players=3, tensor="information_state")
    for seed in range(3):
        assert len(_play(table, seed)) > 20
        assert table.state.is_over and history_nodes() > before  # the env holds its last deal
    del table
    assert history_nodes() == before


@pytest.mark.parametrize("kind", ["normalized", "win"])
def test_the_reward_option(kind: str) -> None:
    from sevenbridge.rl import rewards

    for seed in range(3):
        table = raw_env(rules="standard", players=3, reward=kind, auto_forced=True)
        table.reset(seed=seed)
        rng = np.random.default_rng(seed)
        got = {}
        for agent in table.agent_iter():
            obs, reward, terminated, _, _ = table.last()
            if terminated:
                got[agent] = reward
                table.step(None)
            else:
                table.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        want = rewards(table.state, kind)
        assert [got[f"player_{p}"] for p in range(3)] == list(want)
    with pytest.raises(InvalidArgumentError, match="reward must be"):
        raw_env(reward="points ")


@pytest.mark.parametrize(
    ("preset", "tensor"), [("standard", "observation"), ("nintendo", "information_state")]
)
def test_the_compact_encoding(preset: str, tensor: str) -> None:
    from sevenbridge.rl import CompactActionSpace, information_state_tensor_size

    def make() -> object:
        return env(rules=preset, players=3, encoding="compact", tensor=tensor)

    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "Observation", UserWarning)
        api_test(make(), num_cycles=200)
        seed_test(make, 200)
    table = raw_env(rules=preset, players=4, encoding="compact", tensor=tensor)
    assert type(table.space) is CompactActionSpace
    if tensor == "information_state":
        size = information_state_tensor_size(Rules.preset(preset), 4, compact=True)
        assert table.observation_space("player_0")["observation"].shape == (size,)
    for seed in range(3):
        asked = _play(table, seed)
        assert asked and table.state.is_over
    with pytest.raises(InvalidArgumentError, match="encoding must be"):
        raw_env(game="mahjong", encoding="compact")
