"""observe() hides what a player cannot see; sample_state() fills it in consistently."""

from __future__ import annotations

import random

import attrs
import pytest
from hypothesis import given

from sevenbridge import InvalidArgumentError, InvalidStateError
from sevenbridge.mahjong import (
    ClaimWindow,
    Draw,
    GameState,
    Pass,
    Phase,
    Rules,
    State,
    Tile,
    apply,
    deal,
    legal_actions,
    observe,
    returns,
    sample_state,
    views,
)
from sevenbridge.mahjong._tables import winning
from sevenbridge.mahjong.claims import claim_options
from sevenbridge.mahjong.engine import check_state

from .helpers import JUNK, play, start
from .strategies import reachable_states


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
    assert sample_state(view, 1) != sample_state(view, 2)
    assert sample_state(view, 1) == sample_state(view, 1)
    with pytest.raises(TypeError, match="Observation"):
        sample_state(deal(seed=1), 1)  # type: ignore[arg-type]


def test_sample_state_takes_a_random_or_a_seed() -> None:
    view = observe(apply(deal(seed=3), Draw(0)), 2)
    with pytest.raises(TypeError, match="rng"):
        sample_state(view)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="seed"):
        sample_state(view, seed=5)  # type: ignore[call-arg]
    # One way to pass a seed in both games: an int seeds SplitMix64, as the card game's.
    from sevenbridge._kit.rng import Rng

    assert sample_state(view, 5) == sample_state(view, Rng(5))
    assert sample_state(view, random.Random(9)) == sample_state(view, random.Random(9))
    assert sample_state(view, 5).history == () and sample_state(view, 5).seed != 3
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


def _positions(rules: Rules, games: int) -> list[GameState]:
    """Positions of random rounds (claim windows open in many of them)."""
    out = []
    for seed in range(games):
        pick = random.Random(seed)
        state = deal(rules, players=(2, 3, 4)[seed % 3], seed=seed)
        while not state.is_over:
            actions = legal_actions(state)
            # Claim more often than at random, so that claims and melds happen.
            claims = [a for a in actions if not isinstance(a, Pass)]
            state = apply(state, pick.choice(claims if state.phase is Phase.CLAIM
                                             and claims and pick.random() < 0.5 else actions))  # fmt: skip
            if pick.random() < 0.25:
                out.append(state)
    return out


@pytest.mark.parametrize("window", list(ClaimWindow))
@pytest.mark.parametrize("preset", ["standard", "full"])
def test_samples_are_positions_the_engine_could_reach(window: ClaimWindow, preset: str) -> None:
    rules = Rules.preset(preset).replace(claim_window=window)
    for n, state in enumerate(_positions(rules, 12)):
        for viewer in state.real_seats:
            view = observe(state, viewer)
            sampled = sample_state(view, n)
            assert observe(sampled, viewer) == view
            if state.phase is not Phase.CLAIM or window is ClaimWindow.EVERY_ELIGIBLE:
                continue
            assert state.last_discard is not None
            for seat in (sampled.current_player, *sampled.asking):
                # Under able_only windows a seat asked can claim in the sample too.
                assert legal_actions(sampled) if seat == sampled.current_player else True
                assert any(
                    not isinstance(a, Pass)
                    for a in claim_options(sampled, seat, state.last_discard)
                )


def test_by_default_the_questions_reveal_nothing() -> None:
    for state in _positions(Rules(), 20):
        if state.phase is not Phase.CLAIM:
            continue
        order = [
            (state.turn + k) % state.seats
            for k in range(1, state.seats)
            if (state.turn + k) % state.seats not in state.ghosts
        ]
        asked = [state.current_player, *state.asking]
        # Who is asked depends only on the seats: every later real seat, in order.
        assert asked == order[order.index(state.current_player) :]
        for viewer in state.real_seats:
            view = observe(state, viewer)
            assert (view.current_player, *view.asking) == tuple(asked)


def test_able_only_sampling_finds_the_rare_deals_that_fit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rules = Rules(claim_window="able_only")
    quiet = "2m 5m 8m 3p 6p 9p 2s 8s 7s 7s 3s 3s Gd"
    hands = [JUNK, "5s5s 258m 369p EESSW", "123m 456m 789m 111p 5s", quiet]
    state = play(start(hands, "5s", rules=rules), "P0 Draw", "P0 Discard 5s")
    assert state.current_player == 1 and state.asking == (2,)
    view = observe(state, 3)
    for seed in range(20):  # seats 1 and 2 can claim 5s in every sample
        sampled = sample_state(view, seed)
        assert any(not isinstance(a, Pass) for a in legal_actions(sampled))
        assert any(not isinstance(a, Pass) for a in claim_options(sampled, 2, Tile.parse("5s")))
    # Seen by seat 1, who punged: seat 2, still asked, can only beat that with a
    # win, which the deal builds for it (rejection alone would rarely find one).
    punger = observe(play(state, "P1 Pung"), 1)
    assert punger.current_player == 2
    for seed in range(5):
        assert winning((*sample_state(punger, seed).hands[2], Tile.parse("5s")))
    # Without the uniform deals tried first, the exact search gives the same.
    monkeypatch.setattr(views, "SAMPLE_TRIES", 0)
    for seed in range(5):
        assert winning((*sample_state(punger, seed).hands[2], Tile.parse("5s")))
    # A view no deal fits ends in a clear error (tests/mahjong/test_sample_search.py).
    with pytest.raises(InvalidStateError, match="hidden hands hold"):
        sample_state(attrs.evolve(view, hand_sizes=(13, 130, 13, 13)), 1)


def test_able_only_samples_keep_the_seats_the_window_skips_unable_to_claim() -> None:
    """Seat 1 is asked about 5s (a chow); seats 2 and 3, after it, are not, so
    they could not claim it: no sample may give them a pair of 5s (three are
    unseen), or the window would have asked them. (Seats before the one asked
    may have been asked and passed: the view does not tell.)"""
    rules = Rules(claim_window="able_only")
    quiet = "2m 5m 8m 3p 6p 9p 2s 8s 7s 7s 3s 3s Gd"
    hands = [JUNK, "4s6s 369m 258p NN GdGd 9s", quiet, quiet.replace("Gd", "Rd")]
    state = play(start(hands, "5s", rules=rules), "P0 Draw", "P0 Discard 5s")
    assert state.current_player == 1 and state.asking == ()
    five = Tile.parse("5s")
    for viewer in (1, 2, 3):
        view = observe(state, viewer)
        for seed in range(40):
            sampled = sample_state(view, seed)
            for seat in (2, 3):
                options = claim_options(sampled, seat, five)
                assert all(isinstance(a, Pass) for a in options), (viewer, seed, seat)
