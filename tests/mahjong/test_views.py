"""observe() hides what a player cannot see; sample_state() fills it in consistently."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from sevenbridge import InvalidArgumentError
from sevenbridge.mahjong import State, apply, deal, observe, sample_state
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
def test_sampled_states_agree_with_the_view(played: tuple[State, list[State]]) -> None:
    state, _ = played
    for viewer in range(state.seats):
        view = observe(state, viewer)
        sampled = sample_state(view, seed=viewer)
        check_state(sampled)
        assert observe(sampled, viewer) == view
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
