"""ISMCTSPlayer's own worlds: a belief model in place of ``sample_state``,
checked against the view, in the card game and in Simple Mahjong."""

from __future__ import annotations

import pickle
from importlib.util import find_spec
from typing import Any

import attrs
import pytest

from sevenbridge import (
    GameState,
    InvalidArgumentError,
    Observation,
    Rules,
    legal_actions,
    mahjong,
    observe,
    sample_state,
)
from sevenbridge.bots import ISMCTSPlayer
from sevenbridge.inference.belief import greedy_worlds

from .helpers import greedy_choices


class _Counting:
    """A sampler of worlds itself, counting the worlds it deals and their keys."""

    def __init__(self, sampler: Any) -> None:
        self.sampler = sampler
        self.keys: list[int] = []

    def __call__(self, view: Observation, key: int) -> GameState:
        self.keys.append(key)
        world: GameState = self.sampler(view, key)
        return world


@pytest.mark.parametrize("preset", ["standard", "nintendo"])
@pytest.mark.parametrize(
    ("sampler", "named"),
    [(sample_state, "uniform"), (greedy_worlds, "greedy"), (sample_state, None)],
)
def test_own_worlds_are_dealt_with_the_searchs_keys(
    preset: str, sampler: Any, named: str | None
) -> None:
    """Given ``sample_state`` itself, the search deals one world a key and
    plays exactly the moves of the bot of the same seed with ``worlds="uniform"``
    (the default); given ``greedy_worlds``, those of ``worlds="greedy"``."""
    for _, view in greedy_choices(Rules.preset(preset), 3)[:6]:
        counting = _Counting(sampler)
        mine = ISMCTSPlayer(5, iterations=40, worlds=counting)
        plain = ISMCTSPlayer(5, iterations=40, worlds=named)
        assert mine(view) == plain(view)
        assert mine.last_iterations == plain.last_iterations == 40
        assert counting.keys and len(set(counting.keys)) == len(counting.keys)
        # Each world is weighed for the greedy move and the others still in play.
        assert len(counting.keys) < 40


def test_open_hands_worlds_fit_the_view_and_are_searched() -> None:
    """Worlds that deal the hidden cards as they truly lie (the open-hands
    ceiling of the benchmark): the true state with its stock shuffled. The
    view fits them, and the search runs on them."""
    from sevenbridge._kit.rng import shuffled

    for state, view in greedy_choices(Rules(), 8)[:4]:

        def open_hands(seen: Observation, key: int, truth: GameState = state) -> GameState:
            return attrs.evolve(truth, stock_cards=shuffled(truth.stock_cards, key))

        world = open_hands(view, 1)
        assert observe(world, view.viewer) == view
        assert world.hand_masks == state.hand_masks
        bot = ISMCTSPlayer(2, iterations=30, worlds=open_hands)
        assert bot(view) in legal_actions(view)
        assert bot.last_iterations == 30


def test_a_world_the_view_does_not_fit_is_refused() -> None:
    (_, view), (other, _) = greedy_choices(Rules(), 1)[0], greedy_choices(Rules(), 2)[0]
    for wrong in (lambda v, k: other, lambda v, k: None, lambda v, k: "a world"):
        with pytest.raises(InvalidArgumentError, match="worlds must return a state") as caught:
            ISMCTSPlayer(1, iterations=10, worlds=wrong)(view)
        copy = pickle.loads(pickle.dumps(caught.value))
        assert str(copy) == str(caught.value)


def test_worlds_must_be_a_name_or_callable() -> None:
    with pytest.raises(TypeError, match="worlds must be a name or callable, not int"):
        ISMCTSPlayer(1, worlds=3)  # type: ignore[arg-type]
    with pytest.raises(
        InvalidArgumentError, match="worlds must be one of greedy, learned, uniform"
    ) as caught:
        ISMCTSPlayer(1, worlds="even")
    assert str(pickle.loads(pickle.dumps(caught.value))) == str(caught.value)


def test_the_default_worlds_are_even() -> None:
    """By default (or given ``None``) the worlds are ``sample_state``'s."""
    for _, view in greedy_choices(Rules.nintendo(), 4)[:4]:
        plain = ISMCTSPlayer(3, iterations=30)
        assert plain.worlds == ISMCTSPlayer(3, worlds=None).worlds == "uniform"
        assert plain(view) == ISMCTSPlayer(3, iterations=30, worlds=sample_state)(view)


def test_the_tournament_names_the_worlds() -> None:
    from sevenbridge.arena import make_bot

    bot = make_bot("ismcts:worlds=uniform", 1)
    assert isinstance(bot, ISMCTSPlayer) and bot.worlds == "uniform"
    with pytest.raises(InvalidArgumentError, match="worlds must be one of"):
        make_bot("ismcts:worlds=psychic", 1)


def test_a_mahjong_search_takes_its_own_worlds_too() -> None:
    state, greedy = mahjong.deal(players=4, seed=2), mahjong.GreedyPlayer(2)
    keys: list[int] = []

    def counting(view: Any, key: int) -> Any:
        keys.append(key)
        return mahjong.sample_state(view, key)

    searched = 0
    while not state.is_over and searched < 3:
        view = mahjong.observe(state)
        if len(mahjong.legal_actions(view)) > 1:
            keys.clear()
            mine = ISMCTSPlayer(4, iterations=12, worlds=counting)
            plain = ISMCTSPlayer(4, iterations=12)
            chosen = mine(view)
            assert chosen == plain(view)
            if mine.last_iterations:
                assert len(keys) == mine.last_iterations == 12
                searched += 1
        else:
            chosen = greedy(view)
        state = mahjong.apply(state, chosen)
    assert searched == 3
    uniform = ISMCTSPlayer(4, iterations=12, worlds="uniform")
    assert uniform(view) == ISMCTSPlayer(4, iterations=12)(view)
    with pytest.raises(InvalidArgumentError, match="deals the card game's hands") as caught:
        ISMCTSPlayer(4, iterations=12, worlds="greedy")(view)
    assert str(pickle.loads(pickle.dumps(caught.value))) == str(caught.value)
    # Without numpy the learned worlds are refused as they are asked for, in any game.
    learned = "worlds='learned' deals the card game's" if find_spec("numpy") else "needs numpy"
    with pytest.raises(InvalidArgumentError, match=learned):
        ISMCTSPlayer(4, iterations=12, worlds="learned")(view)
    with pytest.raises(InvalidArgumentError, match="worlds must return a state"):
        wrong = mahjong.deal(players=4, seed=9)
        ISMCTSPlayer(4, iterations=12, worlds=lambda v, k: wrong)(view)
