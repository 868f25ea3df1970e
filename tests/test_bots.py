"""The bots: they decide from a player's view, and the greedy one plays sensibly;
bot specs and the options they take are checked."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import pytest

from sevenbridge import Discard, GameState, Rules, apply, deal, observe, position, returns
from sevenbridge.bots import GreedyPlayer, Player, RandomPlayer, keep_value
from sevenbridge.errors import InvalidArgumentError


def test_bots_are_players_and_decide_from_the_view() -> None:
    players: list[Player] = [GreedyPlayer(), RandomPlayer(), GreedyPlayer(3)]
    twins: list[Player] = [GreedyPlayer(), RandomPlayer(), GreedyPlayer(3)]
    state = deal(Rules.nintendo(), players=3, seed=11)
    while not state.is_over:
        view = observe(state)
        assert view == observe(state, state.current_player)
        action = players[view.viewer](view)
        # Handing the whole state gives the same choice: the bot looks only at the view.
        assert twins[view.viewer](state) == action  # type: ignore[arg-type]
        state = apply(state, action)


@pytest.mark.parametrize("game", ["seven_bridge", "mahjong"])
def test_the_bots_choose_at_a_state_as_from_its_view(game: str) -> None:
    """``_choose_at(state, player)``, what the environments' opponents call,
    makes the choice the bot makes from the player's view, with the same
    draws of its generator, deal after deal."""
    import sevenbridge
    import sevenbridge.bots
    from sevenbridge import mahjong

    g: Any = mahjong if game == "mahjong" else sevenbridge
    bots: Any = mahjong if g is mahjong else sevenbridge.bots
    for seed in range(12):
        for cls in (bots.GreedyPlayer, bots.RandomPlayer):
            viewed, direct = cls(seed), cls(seed)
            state = g.deal(players=2 + seed % (3 if g is mahjong else 4), seed=seed)
            while not state.is_over:
                p = state.current_player
                action = viewed(g.observe(state, p))
                assert direct._choose_at(state, p) == action
                state = g.apply(state, action)


def test_a_bot_refuses_a_view_whose_decision_is_not_its_own() -> None:
    state = deal(seed=2)
    other = (state.current_player or 0) + 1
    with pytest.raises(InvalidArgumentError, match="decision, not player"):
        GreedyPlayer()(observe(state, other))


def test_observe_needs_a_player_once_the_deal_is_over() -> None:
    state = deal(seed=6)
    bot = RandomPlayer(6)
    while not state.is_over:
        state = apply(state, bot(observe(state)))
    with pytest.raises(InvalidArgumentError, match="say whose view"):
        observe(state)
    assert observe(state, 0).viewer == 0


def _discard(state: GameState) -> str:
    action = GreedyPlayer()(observe(state))
    assert isinstance(action, Discard)
    return str(action.card)


def test_greedy_keeps_pairs_and_neighbours_over_bare_points() -> None:
    # Standard values: K and Q are 10 each. The lone queen goes, not a king of the pair.
    table = position(
        """
        P0: KH KS QD 2C 4H
        P1: 5C 6D 8H 9S
        P2: 2D 3S 4S 8C
        turn: P0 play
        """
    )
    assert _discard(table) == "QD"
    # 9H sits next to 10H; the lone 8S goes although it is worth fewer points.
    table = position(
        """
        P0: 9H 10H 8S 2C 2D
        P1: 5C 6D 8H 9S
        P2: 3D 3S 4S 8C
        turn: P0 play
        """
    )
    assert _discard(table) == "8S"


def test_keep_value_counts_partners() -> None:
    hand = sum(1 << c for c in (12, 25, 11))  # KC, KD, QC
    assert keep_value(hand, 12, False) > keep_value(hand, 11, False) > 0
    assert keep_value(1 << 52, 52, False) >= 1000  # the joker is never thrown while cards remain


def test_ismcts_is_reproducible_and_legal() -> None:
    from sevenbridge import legal_actions
    from sevenbridge.bots import ISMCTSPlayer

    def game(seed: int) -> GameState:
        bots: list[Player] = [ISMCTSPlayer(seed, iterations=30), GreedyPlayer(1), GreedyPlayer(2)]
        state = deal(Rules.nintendo(), players=3, seed=seed)
        while not state.is_over:
            view = observe(state)
            action = bots[view.viewer](view)
            assert action in legal_actions(view)
            state = apply(state, action)
        return state

    first = game(4)
    assert game(4).history == first.history


def test_ismcts_budgets_and_arguments() -> None:
    from sevenbridge.bots import MAX_SECONDS, ISMCTSPlayer

    state = deal(seed=9)
    view = observe(state)
    bot = ISMCTSPlayer(iterations=25)
    bot(view)
    # A lone legal action (Draw, here) is taken without searching.
    assert bot.last_iterations in (0, 25)
    timed = ISMCTSPlayer(seconds=0.05)
    while len(__import__("sevenbridge").legal_actions(state)) < 2:
        state = apply(state, GreedyPlayer()(observe(state)))
    timed(observe(state))
    assert timed.last_iterations >= 1
    with pytest.raises(InvalidArgumentError, match="iterations"):
        ISMCTSPlayer(iterations=0)
    with pytest.raises(InvalidArgumentError, match="seconds"):
        ISMCTSPlayer(seconds=0)
    with pytest.raises(InvalidArgumentError, match="rollout"):
        ISMCTSPlayer(rollout="smart")
    with pytest.raises(TypeError, match="seconds must be a number"):
        ISMCTSPlayer(seconds="1")  # type: ignore[arg-type]
    assert ISMCTSPlayer(seconds=MAX_SECONDS).seconds == MAX_SECONDS == 3600
    for wrong in (MAX_SECONDS + 0.5, math.nan, math.inf, -1):
        with pytest.raises(InvalidArgumentError, match="seconds must be above 0 and at most 3600"):
            ISMCTSPlayer(seconds=wrong)


def test_ismcts_beats_random_players() -> None:
    from sevenbridge.bots import ISMCTSPlayer

    wins, points = 0, 0.0
    for seed in range(9):
        bots: list[Player] = [RandomPlayer(seed), RandomPlayer(seed + 1), RandomPlayer(seed + 2)]
        seat = seed % 3
        bots[seat] = ISMCTSPlayer(seed, iterations=100)
        state = deal(players=3, seed=seed)
        while not state.is_over:
            state = apply(state, bots[state.current_player or 0](observe(state)))
        wins += state.winner == seat
        points += returns(state)[seat]
    # A fair share would be 3 of 9 wins; the returns add up to zero at the table.
    assert wins > 3 and points > 0


# --- bots on a finished deal; bot specs and their options ---------------------------------
def test_bots_on_a_finished_deal_and_bad_seeds() -> None:
    state = deal(seed=4)
    bot = GreedyPlayer(4)
    while not state.is_over:
        state = apply(state, bot(state))
    for player in (RandomPlayer(1), GreedyPlayer(1)):
        with pytest.raises(InvalidArgumentError, match="the deal is over"):
            player(state)
        with pytest.raises(TypeError, match="view must be an Observation"):
            player("not a state")  # type: ignore[call-overload]
    with pytest.raises(TypeError, match="seed must be an int, not None"):
        RandomPlayer(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="seed must be an int"):
        GreedyPlayer("1")  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="seed"):
        RandomPlayer(-1)


@pytest.mark.parametrize("value", ["1e3", "1.5", "٣", "1_000", "-5", "9" * 5000, ""])
def test_bot_spec_iterations_must_be_a_whole_number(value: str) -> None:
    from sevenbridge.arena import make_bot

    with pytest.raises(InvalidArgumentError, match="option iterations takes a whole number"):
        make_bot(f"ismcts:iterations={value}", seed=1)


def test_ismcts_iterations_have_an_upper_bound() -> None:
    from sevenbridge.arena import make_bot
    from sevenbridge.bots import MAX_ITERATIONS, ISMCTSPlayer

    assert MAX_ITERATIONS == 10**7
    assert make_bot(f"ismcts:iterations={MAX_ITERATIONS}", seed=1).iterations == MAX_ITERATIONS  # type: ignore[attr-defined]
    builds: list[Callable[[], object]] = [
        lambda: make_bot(f"ismcts:iterations={MAX_ITERATIONS + 1}", seed=1),
        lambda: ISMCTSPlayer(1, iterations=MAX_ITERATIONS + 1),
    ]
    for build in builds:
        with pytest.raises(InvalidArgumentError, match=r"iterations must be from 1 to 10000000"):
            build()


@pytest.mark.parametrize("option", ["exploration", "margin", "win_bonus"])
@pytest.mark.parametrize("value", ["nan", "inf", "-1", "-inf"])
def test_ismcts_constants_must_be_finite_and_not_negative(option: str, value: str) -> None:
    from sevenbridge.arena import make_bot

    with pytest.raises(InvalidArgumentError, match=f"{option} must be a finite number"):
        make_bot(f"ismcts:{option}={value}", seed=1)
    assert getattr(make_bot(f"ismcts:{option}=0.5", seed=1), option) == 0.5


@pytest.mark.parametrize("value", ["x", "", "1,5"])
def test_bot_spec_numbers_that_do_not_parse(value: str) -> None:
    from sevenbridge.arena import make_bot

    with pytest.raises(InvalidArgumentError, match="option seconds takes a number"):
        make_bot(f"ismcts:seconds={value}", seed=1)
