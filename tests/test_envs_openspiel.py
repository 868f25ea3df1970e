"""The OpenSpiel game passes OpenSpiel's random simulation test, and its own MCTS bots play it."""

from __future__ import annotations

from typing import Any

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


@pytest.mark.parametrize(("preset", "encoding"), [("standard", "full"), ("nintendo", "compact")])
def test_openspiels_evaluate_bots_seats_the_librarys_players(preset: str, encoding: str) -> None:
    from open_spiel.python.algorithms.evaluate_bots import evaluate_bots
    from open_spiel.python.bots.uniform_random import UniformRandomBot

    from sevenbridge.bots import GreedyPlayer, RandomPlayer
    from sevenbridge.envs.openspiel import PlayerBot
    from sevenbridge.rl import ActionSpace, CompactActionSpace, policy_player, utility_bounds

    game = pyspiel.load_game(GAME_NAME, {"preset": preset, "players": 3, "encoding": encoding})
    rules = Rules.preset(preset)
    space = (CompactActionSpace if encoding == "compact" else ActionSpace)(rules, 3)
    rng = np.random.RandomState(0)
    first = policy_player(lambda x, mask: int(np.flatnonzero(mask)[0]), space)
    low, high = utility_bounds(rules, 3)
    for k in range(3):
        bots = [
            PlayerBot(game, 0, GreedyPlayer(k)),
            UniformRandomBot(1, rng),
            PlayerBot(game, 2, first if k % 2 else RandomPlayer(k)),
        ]
        results = evaluate_bots(game.new_initial_state(), bots, rng)
        assert sum(results) == pytest.approx(0.0) and all(low <= r <= high for r in results)
    assert bots[0].player_id() == 0 and not bots[0].provides_policy()


def test_the_librarys_loop_seats_openspiels_bots() -> None:
    from open_spiel.python.bots.uniform_random import UniformRandomBot

    from sevenbridge import InvalidArgumentError, apply, deal, legal_actions
    from sevenbridge.bots import GreedyPlayer
    from sevenbridge.envs.openspiel import BotPlayer

    game = _load("standard", 3)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    searcher = ismcts.ISMCTSBot(game, evaluator, 2.0, 6, random_state=np.random.RandomState(1))
    seats: list[Any] = [
        BotPlayer(UniformRandomBot(0, np.random.RandomState(2)), game, seed=1),
        GreedyPlayer(5),
        BotPlayer(searcher, game, seed=2),
    ]
    for seed in range(2):
        state = deal(players=3, seed=seed)
        moves = 0
        while not state.is_over:
            p = state.current_player
            assert p is not None
            action = seats[p](observe(state))
            assert action in legal_actions(state)
            state = apply(state, action)
            moves += 1
        assert moves > 10
    # a whole state is handed to the bot as it is; a bot of another seat has no move
    state = deal(players=3, seed=7, dealer=2)  # player 0 plays first
    assert seats[0](state) in legal_actions(state)
    with pytest.raises(InvalidArgumentError, match="bot of seat 1"):
        seats[0](deal(players=3, seed=7))


def test_the_bridges_in_mahjong_and_their_errors() -> None:
    from open_spiel.python.algorithms.evaluate_bots import evaluate_bots
    from open_spiel.python.bots.uniform_random import UniformRandomBot

    from sevenbridge import InvalidArgumentError, apply, deal, mahjong
    from sevenbridge.envs.openspiel import MAHJONG_GAME_NAME, BotPlayer, PlayerBot

    game = pyspiel.load_game(MAHJONG_GAME_NAME, {"players": 2})
    rng = np.random.RandomState(4)
    bots = [PlayerBot(game, 0, mahjong.GreedyPlayer(1)), UniformRandomBot(1, rng)]
    assert sum(evaluate_bots(game.new_initial_state(), bots, rng)) == pytest.approx(0.0)
    seats: list[Any] = [mahjong.GreedyPlayer(2), BotPlayer(UniformRandomBot(1, rng), game)]
    state = mahjong.deal(players=2, seed=5)
    while not state.is_over:
        state = mahjong.apply(state, seats[state.current_player](mahjong.observe(state)))
    # errors
    card = _load("standard", 3)
    dealt = _dealt(card, 1)
    assert dealt.current_player() == 1  # left of the dealer
    with pytest.raises(InvalidArgumentError, match="not player 0's decision"):
        PlayerBot(card, 0, mahjong.GreedyPlayer(1)).step(dealt)
    with pytest.raises(InvalidArgumentError, match="not one of this game's"):
        BotPlayer(UniformRandomBot(0, rng), card)(observe(deal(players=2, seed=1)))
    with pytest.raises(InvalidArgumentError, match="over"):
        over = deal(players=3, seed=1)
        while not over.is_over:
            over = apply(over, legal_actions_first(over))
        BotPlayer(UniformRandomBot(0, rng), card)(over)
    with pytest.raises(TypeError, match="game must be"):
        BotPlayer(UniformRandomBot(0, rng), "python_sevenbridge")
    with pytest.raises(TypeError, match="player must be callable"):
        PlayerBot(card, 0, "greedy")
    with pytest.raises(InvalidArgumentError, match="player_id"):
        PlayerBot(card, 3, mahjong.GreedyPlayer(1))


def legal_actions_first(state: Any) -> Any:
    from sevenbridge import legal_actions

    return legal_actions(state)[0]
