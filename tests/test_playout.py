"""playout(): the public loop's moves, faster; returns(): higher is better, zero-sum."""

from __future__ import annotations

import pytest

from sevenbridge import GameState, Rules, apply, deal, observe, returns
from sevenbridge.bots import GreedyPlayer, RandomPlayer
from sevenbridge.errors import InvalidArgumentError
from sevenbridge.playout import playout


def _public(state: GameState, policy: str, seed: int) -> GameState:
    bot = RandomPlayer(seed) if policy == "random" else GreedyPlayer(seed)
    while not state.is_over:
        state = apply(state, bot(observe(state)))
    return state


@pytest.mark.parametrize("policy", ["random", "greedy"])
@pytest.mark.parametrize("preset", Rules.presets())
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_playout_plays_the_public_loops_moves(policy: str, preset: str, players: int) -> None:
    for seed in range(6):
        start = deal(Rules.preset(preset), players=players, seed=seed)
        mid = playout(start, policy, seed=seed + 100, max_steps=seed * 7)  # type: ignore[arg-type]
        end = playout(mid, policy, seed=seed)  # type: ignore[arg-type]
        expected = _public(mid, policy, seed)
        assert end == expected and end.history == expected.history
        assert GameState.from_json(end.to_json(), verify=True) == end


def test_playout_arguments() -> None:
    state = deal(seed=1)
    assert playout(state, max_steps=0) == state
    assert len(playout(state, max_steps=5).history) == 5
    end = playout(state)
    assert playout(end, "greedy") is not end and playout(end, "greedy") == end
    with pytest.raises(InvalidArgumentError, match="policy must be one of"):
        playout(state, "smart")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="state must be a GameState"):
        playout(observe(state, 0))  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="max_steps"):
        playout(state, max_steps=-1)


@pytest.mark.parametrize("preset", Rules.presets())
def test_returns_are_zero_sum_and_higher_is_better(preset: str) -> None:
    rules = Rules.preset(preset)
    for seed in range(30):
        end = playout(deal(rules, players=3 + seed % 3, seed=seed), "greedy", seed=seed)
        values = returns(end)
        assert abs(sum(values)) < 1e-9
        assert returns(observe(end, 0)) == values
        if end.winner is None:
            assert values == (0.0,) * end.players
        else:  # going out is always the best result of the deal
            assert values[end.winner] == max(values) > 0
    assert returns(deal(rules, seed=1)) == (0.0, 0.0, 0.0)
    with pytest.raises(TypeError, match="returns needs a GameState"):
        returns("state")
