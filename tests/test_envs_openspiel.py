"""The OpenSpiel game passes OpenSpiel's random simulation test, and its own MCTS bots play it."""

from __future__ import annotations

import pytest

from .helpers import optional_module

np = optional_module("numpy")
pyspiel = optional_module("pyspiel")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from sevenbridge import Rules, observe, returns  # noqa: E402
from sevenbridge.envs.openspiel import GAME_NAME, SevenBridgeState  # noqa: E402
from sevenbridge.rl import (  # noqa: E402
    ActionSpace,
    information_state_tensor,
    observation_tensor,
)


def _load(preset: str = "standard", players: int = 3) -> object:
    return pyspiel.load_game(GAME_NAME, {"preset": preset, "players": players})


@pytest.mark.parametrize("preset", Rules.presets())
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_sim_test(preset: str, players: int) -> None:
    game = _load(preset, players)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def _dealt(game: object, seed: int) -> SevenBridgeState:
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()  # type: ignore[attr-defined]
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
        state.apply_action(outcomes[rng.integers(len(outcomes))][0])
    assert isinstance(state, SevenBridgeState)
    return state


def test_the_deal_is_chance_then_the_engine_and_its_tensors() -> None:
    game = _load("nintendo", 3)
    space = ActionSpace(Rules.nintendo(), 3)
    state = _dealt(game, 1)
    assert game.num_distinct_actions() == space.size  # type: ignore[attr-defined]
    assert game.max_chance_outcomes() == 53  # type: ignore[attr-defined]
    rng = np.random.default_rng(2)
    steps = 0
    while not state.is_terminal():
        inner = state.game_state
        assert inner is not None
        p = state.current_player()
        assert p == inner.current_player
        assert state.legal_actions() == sorted(space.legal_ids(inner))
        assert state.legal_actions_mask() == space.mask(inner).astype(int).tolist()
        for q in range(3):
            view = observe(inner, q)
            got = np.array(state.observation_tensor(q), dtype=np.float32)
            assert (got == observation_tensor(view)).all()
            got = np.array(state.information_state_tensor(q), dtype=np.float32)
            assert (got == information_state_tensor(view)).all()
        state.apply_action(int(rng.choice(state.legal_actions())))
        steps += 1
    assert state.game_state is not None
    assert state.returns() == list(returns(state.game_state))
    assert steps > 10


def test_resample_from_infostate_keeps_what_the_player_knows() -> None:
    game = _load("standard", 4)
    state = _dealt(game, 3)
    rng = np.random.default_rng(3)
    for _ in range(40):
        state.apply_action(int(rng.choice(state.legal_actions())))
    p = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    worlds = [state.resample_from_infostate(p, sampler) for _ in range(5)]
    for world in worlds:
        assert world.information_state_string(p) == state.information_state_string(p)
        assert world.observation_tensor(p) == state.observation_tensor(p)
        assert world.legal_actions() == state.legal_actions()
        world.apply_action(world.legal_actions()[0])  # playable
    others = {w.game_state.hand_masks for w in worlds if w.game_state is not None}
    assert len(others) > 1  # the hidden cards really are dealt again


@pytest.mark.parametrize(("preset", "players"), [("standard", 3), ("nintendo", 2)])
def test_openspiel_mcts_and_ismcts_bots_play_full_deals(preset: str, players: int) -> None:
    game = _load(preset, players)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bots = [
        ismcts.ISMCTSBot(game, evaluator, 2.0, 8, random_state=np.random.RandomState(1)),
        mcts.MCTSBot(game, 2.0, 8, evaluator, random_state=np.random.RandomState(2)),
        ismcts.ISMCTSBot(game, evaluator, 2.0, 8, random_state=np.random.RandomState(3)),
    ][:players]
    state = _dealt(game, 5)
    moves = 0
    while not state.is_terminal():
        action = bots[state.current_player()].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    assert moves > 5
    assert sum(state.returns()) == pytest.approx(0.0)


def test_observers_through_openspiels_make_observation() -> None:
    from open_spiel.python.observation import make_observation

    game = _load("seven_rummy", 3)
    state = _dealt(game, 8)
    for _ in range(12):
        state.apply_action(state.legal_actions()[-1])
    inner = state.game_state
    assert inner is not None
    for perfect, fill in ((True, information_state_tensor), (False, observation_tensor)):
        observer = make_observation(game, pyspiel.IIGObservationType(perfect_recall=perfect))
        for p in range(3):
            observer.set_from(state, p)
            assert (observer.tensor == fill(observe(inner, p))).all()
            text = observer.string_from(state, p)
            assert ("History:" in text) == perfect
    dealing = game.new_initial_state()  # type: ignore[attr-defined]
    observer.set_from(dealing, 0)
    assert not observer.tensor.any()


def test_bad_parameters() -> None:
    with pytest.raises(Exception, match="preset"):
        _load("bridge", 3)
    with pytest.raises(Exception, match="players"):
        _load("standard", 7)


@pytest.mark.parametrize("kind", ["normalized", "win"])
def test_the_reward_parameter(kind: str) -> None:
    from sevenbridge.rl import reward_bounds, rewards

    game = pyspiel.load_game(GAME_NAME, {"preset": "nintendo", "players": 3, "reward": kind})
    assert (game.min_utility(), game.max_utility()) == reward_bounds(Rules.nintendo(), 3, kind)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    state = _dealt(game, 4)
    rng = np.random.default_rng(4)
    while not state.is_terminal():
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert state.game_state is not None
    assert state.returns() == list(rewards(state.game_state, kind))
    with pytest.raises(Exception, match="reward must be"):
        pyspiel.load_game(GAME_NAME, {"reward": "money"})


def test_the_default_utility_bounds_come_from_the_scoring_rules() -> None:
    from sevenbridge.rl import utility_bounds

    for preset in Rules.presets():
        game = _load(preset, 4)
        bounds = (game.min_utility(), game.max_utility())  # type: ignore[attr-defined]
        assert bounds == utility_bounds(Rules.preset(preset), 4)
    assert bounds != (-bounds[1], bounds[1])  # not symmetric: a tight bound each way


def test_the_compact_encoding() -> None:
    from sevenbridge.rl import CompactActionSpace, observation_tensor_size

    game = pyspiel.load_game(GAME_NAME, {"preset": "nintendo", "players": 3, "encoding": "compact"})
    space = CompactActionSpace(Rules.nintendo(), 3)
    assert game.num_distinct_actions() == space.size
    assert game.observation_tensor_shape() == [
        observation_tensor_size(Rules.nintendo(), 3, compact=True)
    ]
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    state = _dealt(game, 6)
    rng = np.random.default_rng(6)
    while not state.is_terminal():
        inner = state.game_state
        assert inner is not None
        assert state.legal_actions() == sorted(space.legal_ids(inner))
        p = state.current_player()
        got = np.array(state.observation_tensor(p), dtype=np.float32)
        assert (got == observation_tensor(observe(inner, p), compact=True)).all()
        state.apply_action(int(rng.choice(state.legal_actions())))
    with pytest.raises(Exception, match="encoding must be"):
        pyspiel.load_game(GAME_NAME, {"encoding": "tiny"})
