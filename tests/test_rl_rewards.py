"""sevenbridge.rl's rewards and their bounds: worked out from the scoring rules,
never passed, and reached."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from .budgets import THOROUGH
from .helpers import optional_module, play, stacked

optional_module("numpy")

from sevenbridge import (  # noqa: E402
    InvalidArgumentError,
    Rules,
    apply,
    deal,
    legal_actions,
    mahjong,
    observe,
    returns,
)
from sevenbridge.bots import GreedyPlayer  # noqa: E402
from sevenbridge.rl import REWARDS, reward_bounds, rewards, utility_bounds  # noqa: E402
from sevenbridge.rl._rewards import HAND_AT_END  # noqa: E402
from sevenbridge.rules import CardValues, Scoring  # noqa: E402
from sevenbridge.scoring import score_deal  # noqa: E402

#: The bounds of the presets, pinned (the docs' table shows them).
BOUNDS = {
    ("standard", 2): (-110.0, 110.0),
    ("standard", 3): (-120.0, 240.0),
    ("standard", 5): (-123.2, 492.8),
    ("nintendo", 2): (-1945.0, 1945.0),
    ("nintendo", 3): (-2576.0, 4010 / 3),
    ("nintendo", 4): (-2891.5, 1032.5),
}

#: Rules varying everything the scoring reads.
scoring_rules = st.builds(
    Rules,
    jokers=st.sampled_from([0, 1]),
    scoring=st.sampled_from(list(Scoring)),
    card_values=st.sampled_from(list(CardValues)),
    joker_multiplier=st.sampled_from([1, 2, 5, 100]),
    going_out_bonus=st.booleans(),
)


@pytest.mark.parametrize(("preset", "players"), sorted(BOUNDS))
def test_the_bounds_of_the_presets(preset: str, players: int) -> None:
    low, high = utility_bounds(Rules.preset(preset), players)
    want_low, want_high = BOUNDS[preset, players]
    assert low == pytest.approx(want_low) and high == pytest.approx(want_high)


@THOROUGH
@given(rules=scoring_rules, players=st.integers(2, 5), data=st.data())
def test_no_end_of_a_deal_passes_the_bounds(
    rules: Rules, players: int, data: st.DataObject
) -> None:
    """Any way the deal can end (losers holding any disjoint hands of at most
    seven cards, any winner, with or without the bonus) scores inside them."""
    deck = list(range(rules.deck_size))
    # the losers' hands: best cards more often, so the extremes get tried
    data.draw(st.randoms(use_true_random=False)).shuffle(deck)
    if data.draw(st.booleans()):
        deck.sort(key=lambda c: c % 13 != 6 and c != 52)  # sevens and the joker first
    winner = data.draw(st.integers(0, players - 1))
    hands: list[list[int]] = []
    for p in range(players):
        if p == winner:
            hands.append([])
            continue
        k = data.draw(st.integers(1, HAND_AT_END))
        hands.append(deck[:k])
        deck = deck[k:]
    bonus = rules.going_out_bonus and data.draw(st.booleans())
    scores = score_deal(hands, winner, bonus, rules)
    got = returns(SimpleNamespace(deal_scores=scores, rules=rules, players=players))
    low, high = utility_bounds(rules, players)
    assert all(low - 1e-9 <= r <= high + 1e-9 for r in got), (got, low, high)
    for kind in REWARDS:
        lo, hi = reward_bounds(rules, players, kind)
        assert -1.0 <= lo <= 0.0 <= hi or kind == "points"


def _finished(rules: Rules, players: int, seed: int) -> list[object]:
    """A deal played to its end by a mix of greedy and random moves; every position."""
    rng = random.Random(seed)
    greedy = GreedyPlayer(seed)
    state = deal(rules, players=players, seed=seed)
    seen: list[object] = [state]
    while not state.is_over:
        mine = rng.random() < 0.5
        state = apply(state, greedy(observe(state)) if mine else rng.choice(legal_actions(state)))
        seen.append(state)
    return seen


@pytest.mark.parametrize("preset", Rules.presets())
def test_played_deals_stay_inside_and_losers_hold_at_most_seven(preset: str) -> None:
    won = 0
    for seed in range(40):
        players = 2 + seed % 4
        rules = Rules.preset(preset)
        if seed % 3 == 0:  # the scoring options that change the counts most
            rules = rules.replace(jokers=1, card_values="alternate_ace_15", joker_multiplier=100)
        for state in _finished(rules, players, seed):
            assert max(h.bit_count() for h in state.hand_masks) <= HAND_AT_END + 1  # type: ignore[attr-defined]
        end = state
        low, high = utility_bounds(rules, players)
        for kind in REWARDS:
            got = rewards(end, kind)
            lo, hi = reward_bounds(rules, players, kind)
            assert len(got) == players and abs(sum(got)) < 1e-9
            assert all(lo - 1e-9 <= r <= hi + 1e-9 for r in got)
        points = returns(end)
        assert rewards(end) == points and all(low <= r <= high for r in points)
        if end.winner is None:  # type: ignore[attr-defined]
            assert rewards(end, "win") == (0.0,) * players
            continue
        won += 1
        winner = end.winner  # type: ignore[attr-defined]
        losers = [h.bit_count() for p, h in enumerate(end.hand_masks) if p != winner]  # type: ignore[attr-defined]
        assert max(losers) <= HAND_AT_END
        assert rewards(end, "win")[winner] == 1.0
        assert rewards(observe(end, 0), "win") == rewards(end, "win")  # type: ignore[arg-type]
        scale = max(high, -low)
        assert rewards(end, "normalized") == pytest.approx([r / scale for r in points])
    assert won > 20


def test_the_highest_return_is_reached_under_the_standard_rules() -> None:
    # Player 1 goes out at once in the first turn; the others hold the four
    # sevens and the best ten of the 10s, Jacks, Queens and Kings.
    rules = Rules.standard()
    state = stacked(
        rules,
        ["KS QC QD QH QS JC JD", "AC 2C 3C 4C AD AH AS", "7C 7D 7H 7S KC KD KH"],
        upcard="5S",
        stock="2D",
    )
    state = play(state, "1 Draw", "1 LayDown AC 2C 3C 4C", "1 LayDown AD AH AS", "1 Discard 2D")
    assert state.is_over and state.bonus and state.winner == 1
    assert (
        returns(state)
        == (-120.0, 240.0, -120.0)
        == (
            utility_bounds(rules, 3)[0],
            utility_bounds(rules, 3)[1],
            utility_bounds(rules, 3)[0],
        )
    )
    assert rewards(state, "normalized") == (-0.5, 1.0, -0.5)


def test_the_highest_return_is_reached_under_the_nintendo_rules() -> None:
    # The dealer plays first and goes out at once; one loser holds the four
    # sevens, the joker and two Aces: (4 x 7 + 2 x 10) x 2**4 x 5 = 3840.
    rules = Rules.nintendo()
    state = stacked(
        rules,
        ["2C 3C 4C 5C 2D 3D 4D", "7C 7D 7H 7S JK AC AD", "AH AS KC KD KH KS QC"],
        stock="9S",
    )
    state = play(state, "0 Draw", "0 LayDown 2C 3C 4C 5C", "0 LayDown 2D 3D 4D", "0 Discard 9S")
    assert state.is_over and state.bonus and state.deal_scores == (-50, 3840, 70)
    assert returns(state)[0] == pytest.approx(utility_bounds(rules, 3)[1])


def test_mahjong_bounds_and_rewards() -> None:
    rules = mahjong.Rules()
    assert utility_bounds(rules, 4) == (-0.25, 0.75)
    rich = rules.replace(dragon_pung_bonus=True, concealed_bonus=True)
    assert utility_bounds(rich, 2) == (-2.5, 2.5)
    for seed in range(6):
        state = mahjong.deal(rules, players=2 + seed % 3, seed=seed)
        bot = mahjong.GreedyPlayer(seed)
        while not state.is_over:
            state = mahjong.apply(state, bot(mahjong.observe(state)))
        real = state.real_seats
        win = rewards(state, "win")
        if state.winner is None:
            assert win == (0.0,) * state.seats
        else:
            assert win[state.winner] == 1.0
            assert sum(win) == pytest.approx(0.0)
            assert all(win[s] == 0.0 for s in range(state.seats) if s not in real)
        low, high = utility_bounds(rules, len(real))
        assert all(low <= r <= high for r in rewards(state))
        assert rewards(mahjong.observe(state, real[0]), "win") == win


def test_bad_arguments() -> None:
    with pytest.raises(InvalidArgumentError, match="reward must be") as info:
        rewards(deal(seed=1), "score")
    assert "'score'" in str(info.value)
    with pytest.raises(InvalidArgumentError, match="reward must be"):
        reward_bounds(Rules(), 3, None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="rules must be"):
        utility_bounds("standard", 3)
    with pytest.raises(InvalidArgumentError, match="players"):
        utility_bounds(Rules(), 6)
    with pytest.raises(InvalidArgumentError, match="players"):
        utility_bounds(mahjong.Rules(), 5)
    with pytest.raises(TypeError):
        rewards("a deal")
