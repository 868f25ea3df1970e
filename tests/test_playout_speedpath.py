"""The fast playout path: the same moves as the public loop, the same results in
distribution, with or without a recorded history."""

from __future__ import annotations

import random
from collections import Counter
from typing import Literal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sevenbridge import GameState, Rules, apply, deal, legal_actions
from sevenbridge.bots import GreedyPlayer, Player, RandomPlayer
from sevenbridge.errors import InvalidArgumentError
from sevenbridge.playout import playout

from .strategies import rule_variants

PRESETS = ("standard", "seven_rummy", "nintendo")


def _bot_loop(state: GameState, bot: Player) -> GameState:
    while not state.is_over:
        state = apply(state, bot(state))  # type: ignore[arg-type]
    return state


def _starts() -> list[GameState]:
    """Fresh deals and positions some way into a deal, over presets and table sizes."""
    out = []
    for seed in range(24):
        rules = Rules.preset(PRESETS[seed % 3])
        state = deal(rules, players=2 + seed % 4, seed=seed)
        rng = random.Random(seed)
        for _ in range(seed * 3):  # up to 69 random moves in
            if state.is_over:
                break
            actions = legal_actions(state)
            state = apply(state, actions[rng.randrange(len(actions))])
        out.append(state)
    return out


@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_playout_plays_the_bots_moves_with_and_without_history(policy: str) -> None:
    bot_type = RandomPlayer if policy == "random" else GreedyPlayer
    for i, start in enumerate(_starts()):
        expected = _bot_loop(start, bot_type(i))
        fast = playout(start, policy, seed=i)  # type: ignore[arg-type]
        assert fast == expected and fast.history == expected.history
        quiet = playout(start, policy, seed=i, history=False)  # type: ignore[arg-type]
        assert quiet == expected
        assert quiet.history == start.history  # no move recorded


def test_playout_stops_after_max_steps_and_returns_a_finished_deal_as_it_is() -> None:
    start = deal(seed=4)
    cut = playout(start, "random", seed=2, max_steps=10)
    assert len(cut.history) == len(start.history) + 10 and not cut.is_over
    # Going on from there is the same as not stopping (the policy's stream aside).
    end = playout(start, "random", seed=2)
    assert end.is_over and playout(end, "greedy", seed=9) == end


def _outcome(state: GameState) -> str:
    return "void" if state.winner is None else f"seat {state.winner}"


def test_random_playouts_have_the_public_loops_distribution_of_results() -> None:
    """Two independent samples (different generators): playouts without history,
    and the public loop picking uniformly with random.Random. A chi-square test
    of homogeneity over the winner's seat (or a void deal) and the deal's length
    in thirds; the seeds are fixed, so the test is deterministic."""
    n = 240
    fast: Counter[str] = Counter()
    public: Counter[str] = Counter()
    fast_lengths: list[int] = []
    public_lengths: list[int] = []
    for i in range(n):
        start = deal(players=3, seed=10_000 + i)
        end = playout(start, "random", seed=i)
        fast[_outcome(end)] += 1
        fast_lengths.append(len(end.history))
        rng = random.Random(i)
        state = deal(players=3, seed=20_000 + i)
        while not state.is_over:
            actions = legal_actions(state)
            state = apply(state, actions[rng.randrange(len(actions))])
        public[_outcome(state)] += 1
        public_lengths.append(len(state.history))
    # Outcome categories: every category seen in either sample.
    stat = _chi_square(fast, public)
    assert stat < _CRITICAL[len(set(fast) | set(public)) - 1], (stat, fast, public)
    # Deal lengths, cut at the pooled sample's terciles.
    pooled = sorted(fast_lengths + public_lengths)
    cuts = pooled[len(pooled) // 3], pooled[2 * len(pooled) // 3]

    def bucket(length: int) -> str:
        return "short" if length <= cuts[0] else "middle" if length <= cuts[1] else "long"

    fast_b = Counter(map(bucket, fast_lengths))
    public_b = Counter(map(bucket, public_lengths))
    stat = _chi_square(fast_b, public_b)
    assert stat < _CRITICAL[2], (stat, fast_b, public_b)
    # And the test has power: a policy that always takes the last action (the
    # highest discard, the last claim) plays visibly different deals.
    first: list[int] = []
    for i in range(n // 4):
        state = deal(players=3, seed=30_000 + i)
        while not state.is_over and len(state.history) < 2000:
            state = apply(state, legal_actions(state)[-1])
        first.append(len(state.history))
    stat = _chi_square(Counter(map(bucket, first)), public_b)
    assert stat > _CRITICAL[2], stat


# The 99.9 % points of the chi-square distribution by degrees of freedom.
_CRITICAL = {1: 10.83, 2: 13.82, 3: 16.27, 4: 18.47, 5: 20.52}


def _chi_square(a: Counter[str], b: Counter[str]) -> float:
    """Pearson's statistic for two samples over the same categories."""
    na, nb = sum(a.values()), sum(b.values())
    total = 0.0
    for key in set(a) | set(b):
        row = a[key] + b[key]
        for count, size in ((a[key], na), (b[key], nb)):
            expected = row * size / (na + nb)
            total += (count - expected) ** 2 / expected
    return total


def test_playout_checks_its_arguments() -> None:
    with pytest.raises(InvalidArgumentError, match="policy"):
        playout(deal(seed=1), "clever")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="state"):
        playout("a state")  # type: ignore[arg-type]
    # The library's own checks, with their messages, in the compiled build too.
    with pytest.raises(TypeError, match="seed must be an int"):
        playout(deal(seed=1), seed="x")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="max_steps must be an int"):
        playout(deal(seed=1), max_steps=1.5)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="max_steps must be 0 or more"):
        playout(deal(seed=1), max_steps=-2)


# The quick path (_playout._quick_turns) plays most turns on local variables
# and hands the rest to the general loop; these check it against the public
# loop under every rule that changes what it does, for both policies.
@given(
    rules=rule_variants,
    players=st.integers(2, 5),
    seed=st.integers(0, 2**32),
    moves=st.integers(0, 120),
    limit=st.one_of(st.none(), st.integers(0, 300)),
    greedy=st.booleans(),
)
def test_playout_plays_the_players_moves_under_any_rules(
    rules: Rules, players: int, seed: int, moves: int, limit: int | None, greedy: bool
) -> None:
    start = deal(rules, players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):  # a position some way into the deal, any phase
        if start.is_over:
            break
        actions = legal_actions(start)
        start = apply(start, actions[rng.randrange(len(actions))])
    bot = GreedyPlayer(seed) if greedy else RandomPlayer(seed)
    policy: Literal["random", "greedy"] = "greedy" if greedy else "random"
    expected = start
    while not expected.is_over and (
        limit is None or len(expected.history) - len(start.history) < limit
    ):
        expected = apply(expected, bot(expected))
    fast = playout(start, policy, seed=seed, max_steps=limit)
    assert fast == expected and fast.history == expected.history
    assert playout(start, policy, seed=seed, max_steps=limit, history=False) == expected
