"""The bots of :mod:`sevenbridge.bots` play every game through the game protocol."""

from __future__ import annotations

import pytest

import sevenbridge
from sevenbridge import mahjong
from sevenbridge.bots import GreedyPlayer, ISMCTSPlayer, RandomPlayer
from sevenbridge.errors import InvalidArgumentError


def _play(bots: list[object], seed: int, players: int = 4) -> mahjong.GameState:
    state = mahjong.deal(players=players, seed=seed)
    while not state.is_over:
        state = mahjong.apply(state, bots[state.current_player](mahjong.observe(state)))  # type: ignore[operator]
    return state


def test_the_same_bots_play_a_mahjong_round_to_its_end() -> None:
    bots: list[object] = [
        ISMCTSPlayer(seed=1, iterations=8),
        GreedyPlayer(seed=2),
        RandomPlayer(seed=3),
        ISMCTSPlayer(seed=4, iterations=8, rollout="random"),
    ]
    final = _play(bots, seed=5)
    assert final.is_over
    assert mahjong.replay(mahjong.record(final))[-1] == final


def test_greedy_on_mahjong_is_the_mahjong_heuristic_with_the_same_seed() -> None:
    ours = _play([GreedyPlayer(seed=s) for s in range(4)], seed=7)
    theirs = _play([mahjong.GreedyPlayer(seed=s) for s in range(4)], seed=7)
    assert ours.history == theirs.history


def test_mahjong_ismcts_is_reproducible_from_its_seed() -> None:
    state = mahjong.deal(players=2, seed=3)
    view = mahjong.observe(state)
    first = ISMCTSPlayer(seed=9, iterations=12)(view)
    assert ISMCTSPlayer(seed=9, iterations=12)(view) == first
    assert first in mahjong.legal_actions(view)


def test_bots_take_a_full_mahjong_state_and_refuse_a_finished_one() -> None:
    state = mahjong.deal(players=2, seed=3)
    assert RandomPlayer(seed=1)(state) in mahjong.legal_actions(state)
    final = _play([GreedyPlayer(0), GreedyPlayer(1)], seed=3, players=2)
    for bot in (RandomPlayer(0), GreedyPlayer(0), ISMCTSPlayer(0, iterations=2)):
        with pytest.raises(InvalidArgumentError):
            bot(final)


def test_a_bot_asked_out_of_turn_says_whose_decision_it_is() -> None:
    state = mahjong.deal(players=2, seed=3)
    other = 1 - state.current_player
    with pytest.raises(InvalidArgumentError, match="decision"):
        RandomPlayer(seed=1)(mahjong.observe(state, other))


def test_anything_else_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        RandomPlayer(seed=1)("P0 Draw")  # type: ignore[arg-type]


def test_the_game_of_a_value_and_its_module() -> None:
    from sevenbridge.games import game_module, game_of

    assert game_of(mahjong.deal(seed=1)) == "mahjong"
    assert game_of(sevenbridge.deal(seed=1)) == "seven_bridge"
    assert game_module("mahjong") is mahjong
    assert game_module("seven_bridge") is sevenbridge
    with pytest.raises(InvalidArgumentError, match="no game named"):
        game_module("go")
