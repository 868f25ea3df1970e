"""Hypothesis strategies shared by the test suite."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from sevenbridge import Card, GameState, Rules, Suit
from sevenbridge.cards import CARDS
from sevenbridge.rules import ClaimTiming, ClaimWindow, StockExhaustion

natural_cards = st.sampled_from(CARDS[:52])
any_cards = st.sampled_from(CARDS)
suits = st.sampled_from(list(Suit))
ranks = st.integers(min_value=1, max_value=13)
presets = st.sampled_from(Rules.presets()).map(Rules.preset)
_MELD_OPTIONS: dict[str, st.SearchStrategy[Any]] = {
    "jokers": st.sampled_from([0, 1]),
    "ace_high": st.booleans(),
    "final_discard": st.booleans(),
    "lay_off_needs_own_meld": st.booleans(),
    "claim_min_hand_cards": st.sampled_from([1, 2]),
}
#: Rules varying what can be melded, laid off and claimed.
rules = st.builds(Rules, **_MELD_OPTIONS)
#: Those and the options of the turn's flow: the upcard, when and who may claim,
#: what happens when the stock runs out.
rule_variants = st.builds(
    Rules,
    **_MELD_OPTIONS,
    upcard=st.booleans(),
    upcard_claimable=st.booleans(),
    pon_timing=st.sampled_from(list(ClaimTiming)),
    chi_timing=st.sampled_from(list(ClaimTiming)),
    claim_window=st.sampled_from(list(ClaimWindow)),
    stock_exhaustion=st.sampled_from(list(StockExhaustion)),
    reshuffle_limit=st.integers(0, 3),
)


@st.composite
def card_groups(draw: st.DrawFn, min_size: int = 1, max_size: int = 6) -> list[Card]:
    """Distinct cards (the joker included), in any order."""
    return draw(st.lists(any_cards, min_size=min_size, max_size=max_size, unique=True))


@st.composite
def runs(draw: st.DrawFn, min_len: int = 3) -> list[Card]:
    """Consecutive natural cards of one suit, Ace low, in shuffled order."""
    suit = draw(suits)
    length = draw(st.integers(min_value=min_len, max_value=13))
    start = draw(st.integers(min_value=1, max_value=14 - length))
    cards = [CARDS[suit * 13 + r - 1] for r in range(start, start + length)]
    return draw(st.permutations(cards))


@st.composite
def reachable_states(draw: st.DrawFn, rule_choices: list[Rules] | None = None) -> GameState:
    """A state reached by random legal play from a seeded deal of any preset."""
    from sevenbridge import apply, deal, legal_actions

    rules_value = draw(st.sampled_from(rule_choices or [Rules.preset(n) for n in Rules.presets()]))
    players = draw(st.integers(2, 5))
    seed = draw(st.integers(0, 2**32))
    steps = draw(st.integers(0, 400))
    state = deal(rules_value, players=players, seed=seed)
    choices = draw(st.randoms(use_true_random=False))
    stop_at = draw(st.sampled_from(["steps", "waiting_pon", "reshuffle"]))
    for _ in range(steps):
        if state.is_over:
            break
        if stop_at == "waiting_pon" and state.pending_pon is not None:
            break
        if (
            stop_at == "reshuffle"
            and state.reshuffles
            and state.stock_size >= len(state.discard_pile)
        ):
            break
        actions = legal_actions(state)
        state = apply(state, actions[choices.randrange(len(actions))])
    return state


@st.composite
def varied_states(draw: st.DrawFn, claim_windows: bool = False) -> GameState:
    """A state reached by a mix of greedy, random and quiet play (quiet play
    only draws, passes and discards, so it runs the stock out and reshuffles).
    Greedy play under the Nintendo rules makes pons wait in the claim window.
    With ``claim_windows``, each preset is also played with either claim window.

    Play stops after a drawn number of steps, or earlier at the first moment of
    a drawn kind (a waiting pon, the step after a reshuffle), which are too
    brief to be hit often by stopping at random."""
    from sevenbridge import Discard, Draw, Pass, apply, deal, legal_actions
    from sevenbridge.bots import GreedyPlayer

    base = Rules.preset(draw(st.sampled_from(Rules.presets())))
    rules_value = base.replace(reshuffle_limit=draw(st.sampled_from([base.reshuffle_limit, 8])))
    if claim_windows:
        rules_value = rules_value.replace(claim_window=draw(st.sampled_from(list(ClaimWindow))))
    players = draw(st.integers(2, 5))
    seed = draw(st.integers(0, 2**32))
    steps = draw(st.integers(0, 600))
    mix = draw(st.sampled_from(["greedy", "random", "quiet", "mixed"]))
    choices = draw(st.randoms(use_true_random=False))
    stop_at = draw(st.sampled_from(["steps", "waiting_pon", "reshuffle"]))
    greedy = GreedyPlayer(seed)
    state = deal(rules_value, players=players, seed=seed)
    for _ in range(steps):
        if state.is_over:
            break
        if stop_at == "waiting_pon" and state.pending_pon is not None:
            break
        if (
            stop_at == "reshuffle"
            and state.reshuffles
            and state.stock_size >= len(state.discard_pile)
        ):
            break
        style = mix if mix != "mixed" else choices.choice(["greedy", "random", "quiet"])
        actions = legal_actions(state)
        if style == "greedy":
            action = greedy(state)
        elif style == "quiet":
            quiet = [a for a in actions if isinstance(a, (Draw, Pass, Discard))]
            action = quiet[choices.randrange(len(quiet))] if quiet else actions[0]
        else:
            action = actions[choices.randrange(len(actions))]
        state = apply(state, action)
    return state


@st.composite
def game_positions(draw: st.DrawFn, max_moves: int = 400) -> tuple[str, Any, list[Any]]:
    """Any game of :data:`sevenbridge.GAMES`, reached through the game protocol
    alone: a preset, a table size and a seed, then legal actions picked by index
    (at most ``max_moves``). Gives the game's name, its rules and every position."""
    import sevenbridge

    name = draw(st.sampled_from(sevenbridge.GAMES))
    game = sevenbridge.game(name)
    rules = game.Rules.preset(draw(st.sampled_from(game.Rules.presets())))
    players = draw(st.sampled_from(game.PLAYER_COUNTS))
    state = game.deal(rules, players=players, seed=draw(st.integers(0, 2**64 - 1)))
    positions = [state]
    for pick in draw(st.lists(st.integers(0, 10**6), max_size=max_moves)):
        actions = game.legal_actions(state)
        if not actions:
            break
        state = game.apply(state, actions[pick % len(actions)])
        positions.append(state)
    return name, rules, positions
