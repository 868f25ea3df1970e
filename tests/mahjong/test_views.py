"""observe() hides what a player cannot see; sample_state() fills it in consistently."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings

from sevenbridge import InvalidArgumentError
from sevenbridge.mahjong import (
    Draw,
    GameState,
    State,
    apply,
    deal,
    legal_actions,
    observe,
    returns,
    sample_state,
)
from sevenbridge.mahjong.engine import check_state

from .helpers import JUNK, play, start
from .strategies import reachable_states

SETTINGS = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def test_a_view_shows_only_the_viewers_tiles() -> None:
    state = deal(seed=8)
    view = observe(state, 2)
    assert view.hand == state.hands[2]
    assert view.hand_sizes == (13, 13, 13, 13) and view.wall_size == len(state.wall)
    assert view.legal_actions == ()  # seat 0 acts
    assert observe(state).legal_actions == observe(state, 0).legal_actions
    assert view.shown_hands is None
    assert not hasattr(view, "wall") and not hasattr(view, "hands")
    with pytest.raises(InvalidArgumentError, match="player"):
        observe(state, 4)


def test_other_claims_on_the_open_discard_are_hidden() -> None:
    quiet = "2m 5m 8m 3p 6p 9p 2s 8s 7s 7s 3s 3s Gd"
    hands = [JUNK, "5s5s 258m 369p EESSW", "123m 456m 789m 111p 5s", quiet]
    state = play(start(hands, "5s"), "P0 Draw", "P0 Discard 5s", "P1 Pung")
    assert state.current_player == 2 and state.claims
    assert observe(state, 2).own_claims == ()
    assert observe(state, 1).own_claims == state.claims


@SETTINGS
@given(reachable_states())
def test_sampled_states_agree_with_the_view(played: tuple[GameState, list[GameState]]) -> None:
    state, _ = played
    for viewer in range(state.seats):
        view = observe(state, viewer)
        assert legal_actions(view) == (
            legal_actions(state) if viewer == state.current_player else ()
        )
        sampled = sample_state(view, viewer)
        check_state(sampled)
        assert observe(sampled, viewer) == view
        again = sample_state(view, random.Random(viewer))
        assert observe(again, viewer) == view
        assert returns(view) == returns(state)
        if not state.is_over:
            # The sample plays on like a real position (claim windows included).
            for action in view.legal_actions:
                apply(sampled, action)


def test_sampling_varies_with_the_seed() -> None:
    view = observe(deal(seed=1), 0)
    assert sample_state(view, seed=1) != sample_state(view, seed=2)
    assert sample_state(view, seed=1) == sample_state(view, seed=1)
    with pytest.raises(TypeError, match="Observation"):
        sample_state(deal(seed=1))  # type: ignore[arg-type]


def test_sample_state_takes_a_random_or_a_seed_and_keeps_its_old_keyword() -> None:
    view = observe(apply(deal(seed=3), Draw(0)), 2)
    assert sample_state(view, seed=5) == sample_state(view, 5)
    assert sample_state(view, random.Random(9)) == sample_state(view, random.Random(9))
    assert sample_state(view, 5).history == () and sample_state(view, 5).seed != 3
    with pytest.raises(InvalidArgumentError, match="not both"):
        sample_state(view, 5, seed=5)
    with pytest.raises(InvalidArgumentError, match="seed"):
        sample_state(view, -1)
    with pytest.raises(TypeError, match=r"random\.Random or an int"):
        sample_state(view, "5")  # type: ignore[arg-type]


def test_legal_actions_of_a_view_are_the_viewers_own() -> None:
    state = apply(deal(seed=3), Draw(0))
    assert legal_actions(observe(state, 0)) == legal_actions(state) != ()
    assert all(legal_actions(observe(state, seat)) == () for seat in (1, 2, 3))
    with pytest.raises(TypeError, match="GameState or Observation"):
        legal_actions("P0 Draw")


def test_the_old_name_state_still_works() -> None:
    assert State is GameState and isinstance(deal(seed=1), State)
