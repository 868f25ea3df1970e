"""The OpenSpiel game of Simple Mahjong passes OpenSpiel's random simulation
test, deals through chance, and OpenSpiel's MCTS bot plays it."""

from __future__ import annotations

import pytest

from .helpers import optional_module

np = optional_module("numpy")
pyspiel = optional_module("pyspiel")

from open_spiel.python.algorithms import mcts  # noqa: E402

from sevenbridge import mahjong  # noqa: E402
from sevenbridge.envs.openspiel import MAHJONG_GAME_NAME, MahjongState  # noqa: E402
from sevenbridge.rl import ActionSpace, observation_tensor, returns  # noqa: E402


def _load(preset: str = "standard", players: int = 4) -> object:
    return pyspiel.load_game(MAHJONG_GAME_NAME, {"preset": preset, "players": players})


@pytest.mark.parametrize("preset", ["standard", "full"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_sim_test(preset: str, players: int) -> None:
    game = _load(preset, players)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def _dealt(game: object, seed: int) -> MahjongState:
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()  # type: ignore[attr-defined]
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
        state.apply_action(outcomes[rng.integers(len(outcomes))][0])
    assert isinstance(state, MahjongState)
    return state


def test_parameters_and_game_info() -> None:
    game = _load()
    assert game.get_parameters() == {  # type: ignore[attr-defined]
        "preset": "standard",
        "players": 4,
        "reward": "points",
        "encoding": "full",
    }
    assert game.num_players() == 4  # type: ignore[attr-defined]
    assert game.num_distinct_actions() == 117  # type: ignore[attr-defined]
    assert game.max_chance_outcomes() == 34  # type: ignore[attr-defined]
    assert (game.min_utility(), game.max_utility()) == (-0.25, 0.75)  # type: ignore[attr-defined]
    full = _load("full", 2)
    assert full.num_players() == 2  # type: ignore[attr-defined]
    assert full.max_chance_outcomes() == 42  # type: ignore[attr-defined]
    kinds = full.new_initial_state().chance_outcomes()  # type: ignore[attr-defined]
    assert len(kinds) == 42
    assert dict(kinds)[0] == pytest.approx(4 / 144) and dict(kinds)[41] == pytest.approx(1 / 144)
    game_type = game.get_type()  # type: ignore[attr-defined]
    assert game_type.provides_observation_tensor and game_type.provides_observation_string
    assert not game_type.provides_information_state_tensor


@pytest.mark.parametrize(("preset", "players", "shape"), [
    ("standard", 2, 415), ("standard", 3, 566), ("standard", 4, 717), ("literal", 2, 717),
])  # fmt: skip
def test_observation_tensor_shape(preset: str, players: int, shape: int) -> None:
    game = _load(preset, players)
    assert game.observation_tensor_shape() == [shape]  # type: ignore[attr-defined]
    assert game.observation_tensor_size() == shape  # type: ignore[attr-defined]


@pytest.mark.parametrize(("preset", "players"), [("standard", 3), ("literal", 2)])
def test_the_wall_is_chance_then_the_engine_and_its_tensors(preset: str, players: int) -> None:
    game = _load(preset, players)
    rules = mahjong.Rules.preset(preset)
    space = ActionSpace(rules, players)
    state = _dealt(game, 1)
    inner = state.game_state
    assert inner is not None
    seats = inner.real_seats
    assert len(seats) == players
    assert len(state.history()) <= rules.wall_size  # one chance node a tile at most
    rng = np.random.default_rng(2)
    steps = 0
    while not state.is_terminal():
        inner = state.game_state
        p = state.current_player()
        assert seats[p] == inner.current_player
        assert state.legal_actions() == sorted(space.legal_ids(inner))
        for q in range(players):
            view = mahjong.observe(inner, seats[q])
            got = np.array(state.observation_tensor(q), dtype=np.float32)
            assert (got == observation_tensor(view)).all()
            assert state.observation_string(q) == mahjong.render(view)
        state.apply_action(int(rng.choice(state.legal_actions())))
        steps += 1
    assert state.returns() == [returns(state.game_state)[s] for s in seats]
    assert sum(state.returns()) == pytest.approx(0.0)
    assert steps > 10
    assert len(state.history()) <= game.max_game_length()  # type: ignore[attr-defined]


def test_resample_from_infostate_keeps_the_players_view() -> None:
    game = _load("standard", 3)
    state = _dealt(game, 3)
    rng = np.random.default_rng(3)
    for _ in range(20):
        state.apply_action(int(rng.choice(state.legal_actions())))
    p = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    worlds = [state.resample_from_infostate(p, sampler) for _ in range(4)]
    for world in worlds:
        assert world.observation_tensor(p) == state.observation_tensor(p)
        assert world.legal_actions() == state.legal_actions()
        world.apply_action(world.legal_actions()[0])  # playable
    assert len({w.game_state.wall for w in worlds}) > 1


def test_openspiel_mcts_bot_plays_a_round() -> None:
    game = _load("standard", 2)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bot = mcts.MCTSBot(game, 2.0, 4, evaluator, random_state=np.random.RandomState(1))
    state = _dealt(game, 5)
    rng = np.random.default_rng(6)
    moves = 0
    while not state.is_terminal():
        if state.current_player() == 0:
            action = bot.step(state)
        else:
            action = int(rng.choice(state.legal_actions()))
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    assert moves > 5
    assert sum(state.returns()) == pytest.approx(0.0)


def test_observer_through_openspiels_make_observation() -> None:
    from open_spiel.python.observation import make_observation

    game = _load("literal", 2)
    state = _dealt(game, 8)
    inner = state.game_state
    assert inner is not None
    observer = make_observation(game, pyspiel.IIGObservationType(perfect_recall=False))
    for p, seat in enumerate((0, 2)):
        observer.set_from(state, p)
        assert (observer.tensor == observation_tensor(mahjong.observe(inner, seat))).all()
        assert "(you)" in observer.string_from(state, p)
    dealing = game.new_initial_state()  # type: ignore[attr-defined]
    observer.set_from(dealing, 0)
    assert not observer.tensor.any()
    with pytest.raises(Exception, match="no information state"):
        make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    with pytest.raises(Exception, match="not supported"):
        make_observation(game, pyspiel.IIGObservationType(perfect_recall=False), {"x": 1})


def test_bad_parameters() -> None:
    with pytest.raises(Exception, match="preset"):
        _load("nintendo", 3)
    with pytest.raises(Exception, match="players"):
        _load("standard", 5)
    with pytest.raises(Exception, match="players"):
        _load("standard", 1)
