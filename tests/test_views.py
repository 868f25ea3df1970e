"""Player views: what an observation holds and hides, and determinization."""

from __future__ import annotations

import random

import attrs
from hypothesis import given
from hypothesis import strategies as st

from sevenbridge import (
    GameState,
    Observation,
    Rules,
    apply,
    deal,
    legal_actions,
    observe,
    sample_state,
)

from .helpers import all_cards
from .strategies import reachable_states


def swap_hidden(state: GameState, viewer: int) -> GameState | None:
    """The same position with one card of another hand swapped with the stock's top
    (``None`` once the deal is over: then every hand is shown)."""
    others = [p for p in range(state.players) if p != viewer and state.hand_masks[p]]
    if not others or not state.stock_cards or state.is_over:
        return None
    p = others[0]
    mask = state.hand_masks[p]
    card = (mask & -mask).bit_length() - 1
    top = state.stock_cards[0]
    hands = list(state.hand_masks)
    hands[p] = (mask & ~(1 << card)) | (1 << top)
    return attrs.evolve(state, hand_masks=tuple(hands), stock_cards=(card, *state.stock_cards[1:]))


@given(reachable_states(), st.data())
def test_hidden_cards_do_not_change_a_players_observation(
    state: GameState, data: st.DataObject
) -> None:
    viewer = data.draw(st.integers(0, state.players - 1))
    other = swap_hidden(state, viewer)
    if other is None:
        return
    assert other != state
    assert observe(other, viewer) == observe(state, viewer)
    assert hash(observe(other, viewer)) == hash(observe(state, viewer))
    changed = next(p for p in range(state.players) if other.hand_masks[p] != state.hand_masks[p])
    assert observe(other, changed) != observe(state, changed)


def test_equal_observations_at_the_start_and_after_moves() -> None:
    state = deal(Rules(), players=3, seed=10)
    rng = random.Random(10)
    for _ in range(60):
        other = swap_hidden(state, 0)
        assert other is not None
        assert observe(other, 0) == observe(state, 0)
        actions = legal_actions(state)
        state = apply(state, actions[rng.randrange(len(actions))])


def test_an_observation_holds_no_hidden_field() -> None:
    names = {f.name for f in attrs.fields(Observation)}
    assert not names & {"hand_masks", "stock_cards", "seed"}
    view = observe(deal(seed=3), 0)
    assert view.hand == deal(seed=3).hand(0)
    assert view.hand_sizes == (7, 7, 7)


@given(reachable_states())
def test_legal_actions_from_an_observation(state: GameState) -> None:
    for p in range(state.players):
        view = observe(state, p)
        if p == state.current_player:
            assert legal_actions(view) == legal_actions(state)
        else:
            assert legal_actions(view) == ()


@given(reachable_states(), st.data())
def test_sampled_states_are_consistent_with_the_observation(
    state: GameState, data: st.DataObject
) -> None:
    viewer = data.draw(st.integers(0, state.players - 1))
    view = observe(state, viewer)
    seed = data.draw(st.integers(0, 2**40))
    for rng in (seed, random.Random(seed)):
        sampled = sample_state(view, rng)
        assert observe(sampled, viewer) == view
        assert sorted(all_cards(sampled)) == list(range(state.rules.deck_size))
        for action in legal_actions(sampled):
            apply(sampled, action)
    assert sample_state(view, seed) == sample_state(view, seed)


def test_sampling_really_varies_the_hidden_cards() -> None:
    view = observe(deal(seed=8), 0)
    samples = {sample_state(view, s).hand_masks[1] for s in range(20)}
    assert len(samples) > 10


def test_observe_rejects_a_bad_player() -> None:
    import pytest

    with pytest.raises(ValueError, match="player must be from 0 to 2"):
        observe(deal(), 3)


def test_very_long_histories_compare_and_pickle_without_recursion() -> None:
    import pickle

    from sevenbridge import Draw, Pass
    from sevenbridge.state import History

    actions = [Draw(i % 3) for i in range(20_000)]
    a, b = History.of(actions), History.of(actions)
    assert a is not None and b is not None
    assert a is not b and a == b and hash(a) == hash(b) and len(a) == 20_000
    assert a != History.of(actions[:-1]) and a != History.of([*actions[:-1], Pass(1)])
    assert pickle.loads(pickle.dumps(a)) == a
    state = deal(seed=1)
    view = observe(state, 0)
    long_view = attrs.evolve(view, move_log=a)
    assert long_view == attrs.evolve(view, move_log=b)
    assert pickle.loads(pickle.dumps(long_view)) == long_view


def test_a_history_node_behaves_as_a_history_not_as_its_tuple() -> None:
    import copy
    import operator

    import pytest

    from sevenbridge import Draw, Pass
    from sevenbridge.state import History

    actions = [Draw(i % 3) for i in range(5_000)]
    a = History.of(actions)
    assert a is not None and a.prev is not None
    assert (a.action, a.length, a.prev.length) == (Draw(4_999 % 3), 5_000, 4_999)
    assert list(a) == actions and len(a) == 5_000
    assert Draw(1) in a and Pass(1) not in a
    assert (a != History.of(actions)) is False  # no walk of the nodes (recursion)
    assert copy.deepcopy(a) == a and copy.copy(a) == a
    for compare in (operator.lt, operator.le, operator.gt, operator.ge):
        with pytest.raises(TypeError):
            compare(a, a)


def test_a_finished_deal_shows_every_hand() -> None:
    from sevenbridge import Observation, apply, sample_state
    from sevenbridge.bots import GreedyPlayer

    state, bot = deal(seed=8, players=3), GreedyPlayer(8)
    while not state.is_over:
        assert observe(state, 0).shown_hands is None
        state = apply(state, bot(state))
    view = observe(state, 0)
    assert view.shown_hands == state.hand_masks
    assert Observation.from_json(view.to_json()) == view
    assert "(shown)" in str(view)
    world = sample_state(view, 1)
    assert world.hand_masks == state.hand_masks and world.deal_scores == state.deal_scores
