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
        RandomPlayer(seed=1)("P0 Draw")  # type: ignore[call-overload]


def test_the_game_of_a_value_and_its_module() -> None:
    from sevenbridge.games import game_module, game_of

    assert game_of(mahjong.deal(seed=1)) == "mahjong"
    assert game_of(sevenbridge.deal(seed=1)) == "seven_bridge"
    assert game_module("mahjong") is mahjong
    assert game_module("seven_bridge") is sevenbridge
    with pytest.raises(InvalidArgumentError, match="no game named"):
        game_module("go")


def _play_views(seed: int) -> list[mahjong.Observation]:
    """Every view a greedy table hands its players in one round."""
    state, views = mahjong.deal(players=4, seed=seed), []
    bots = [mahjong.GreedyPlayer(seed=s) for s in range(4)]
    while not state.is_over:
        view = mahjong.observe(state)
        views.append(view)
        state = mahjong.apply(state, bots[state.current_player](view))
    return views


def test_the_mahjong_shortlist_keeps_wins_and_the_closest_discards() -> None:
    from sevenbridge.mahjong.bots import shortlist

    seen_cut = seen_win = 0
    for seed in range(6):
        for view in _play_views(seed):
            short, legal = shortlist(view), view.legal_actions
            assert short and set(short) <= set(legal)
            wins = [a for a in legal if isinstance(a, mahjong.Mahjong)]
            if wins:
                assert list(short) == wins
                seen_win += 1
            elif view.phase is mahjong.Phase.PLAY:
                melds = len(view.melds_of(view.viewer))
                after = {}
                for a in legal:
                    if isinstance(a, mahjong.Discard):
                        rest = list(view.hand)
                        rest.remove(a.tile)
                        after[a] = mahjong.shanten(rest, melds)
                low = min(after.values())
                assert {a for a in short if isinstance(a, mahjong.Discard)} == {
                    a for a, d in after.items() if d == low
                }
                assert [a for a in short if isinstance(a, mahjong.Kong)] == [
                    a for a in legal if isinstance(a, mahjong.Kong)
                ]
                seen_cut += len(short) < len(legal)
            else:
                assert short == legal
    assert seen_cut > 10 and seen_win > 0


def test_mahjong_ismcts_chooses_from_the_shortlist() -> None:
    from sevenbridge.mahjong.bots import shortlist

    checked = 0
    for view in _play_views(2)[:60]:
        if len(view.legal_actions) > 1:
            assert ISMCTSPlayer(seed=1, iterations=4)(view) in shortlist(view)
            checked += 1
    assert checked > 5
