"""Random games through every preset and player count, checking the invariants
at every step, and the engine's legality against an independent reference."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from sevenbridge import (
    Action,
    Card,
    Chi,
    Discard,
    Draw,
    GameState,
    IllegalActionError,
    LayDown,
    LayOff,
    MeldKind,
    Pass,
    Phase,
    Pon,
    Rules,
    Suit,
    apply,
    deal,
    legal_actions,
    meld_interpretations,
)
from sevenbridge.cards import CARDS, JOKER
from sevenbridge.rules import ClaimTiming

from .helpers import all_cards

PRESETS = [Rules.preset(name) for name in Rules.presets()]
VARIANTS = [
    *PRESETS,
    Rules(final_discard=False, jokers=1, ace_high=True, joker_lay_off=False),
    Rules(pon_timing="any_time", chi_timing="any_time", claim_window="able_only"),
    Rules(stock_exhaustion="void", card_values="alternate_ace_11"),
]
MAX_STEPS = 3000


def snapshot(state: GameState) -> tuple[object, ...]:
    """Everything a transition could change, including the history."""
    return (*(getattr(state, f.name) for f in state.__attrs_attrs__), state.history)


def check_cards(state: GameState) -> None:
    cards = all_cards(state)
    size = state.rules.deck_size
    assert len(cards) == size, f"{len(cards)} cards in play, {size} expected"
    assert Counter(cards) == Counter(range(size)), "a card is lost or duplicated"


# --- an independent reference for legality ------------------------------------------------
def _may(timing: ClaimTiming, state: GameState, p: int) -> bool:
    if timing is ClaimTiming.AFTER_OWN_TURN:
        return bool(state.normal_turns >> p & 1)
    if timing is ClaimTiming.AFTER_FIRST_ROUND:
        return state.turns_done >= state.players
    return True


def reference_legal(state: GameState, action: Action) -> bool:
    """Legality from the rules page, written without the engine's tables."""
    if state.is_over or action.player != state.current_player:
        return False
    r = state.rules
    p = action.player
    hand = set(state.hand(p))
    if isinstance(action, Draw):
        return state.phase is Phase.DRAW
    if isinstance(action, Pass):
        return state.phase is Phase.CLAIM
    if isinstance(action, Discard):
        return state.phase is Phase.PLAY and action.card in hand
    if isinstance(action, (Chi, Pon)):
        want = MeldKind.RUN if isinstance(action, Chi) else MeldKind.SET
        phase = Phase.DRAW if isinstance(action, Chi) else Phase.CLAIM
        timing = r.chi_timing if isinstance(action, Chi) else r.pon_timing
        if state.phase is not phase or not _may(timing, state, p):
            return False
        if not state.discard_pile or not set(action.cards) <= hand:
            return False
        if isinstance(action, Chi) and state.discarder < 0 and not r.upcard_claimable:
            return False
        if isinstance(action, Pon) and state.pending_pon is not None and JOKER not in hand:
            return False
        if len(action.cards) < r.claim_min_hand_cards:
            return False
        if r.final_discard and len(hand) == len(action.cards):
            return False
        group = (*action.cards, state.discard_pile[-1])
        return any(
            m.kind is want and m.joker_as == action.joker_as for m in meld_interpretations(group, r)
        )
    if state.phase is not Phase.PLAY:
        return False
    if isinstance(action, LayDown):
        if not set(action.cards) <= hand or (r.final_discard and set(action.cards) == hand):
            return False
        return any(m.joker_as == action.joker_as for m in meld_interpretations(action.cards, r))
    assert isinstance(action, LayOff)
    if action.card not in hand or (r.final_discard and len(hand) == 1):
        return False
    if r.lay_off_needs_own_meld and not any(m.owner == p for m in state.melds):
        return False
    if not 0 <= action.target < len(state.melds):
        return False
    meld = state.melds[action.target]
    if action.card.is_joker and not r.joker_lay_off:
        return False
    for new in meld_interpretations((*meld.cards, action.card), r):
        if meld.kind is not MeldKind.SEVEN and new.kind is not meld.kind:
            continue
        if action.card.is_joker:
            if new.joker_as == action.joker_as:
                return True
        elif action.joker_as is None and meld.joker_as is None and new.joker_as is None:
            return True
        elif action.joker_as is None and meld.joker_as is not None:
            expected = meld.joker_as
            if action.card == meld.joker_as:
                if new.kind is not MeldKind.SET:
                    continue  # in a run the joker's place is taken
                # In a set the joker moves to the lowest suit the set lacks.
                suits = {c.suit for c in (*meld.cards, action.card) if not c.is_joker}
                lacking = [s for s in Suit if s not in suits]
                expected = Card(action.card.rank, lacking[0]) if lacking else action.card
            if new.joker_as == expected:
                return True
    return False


def candidates(state: GameState, rng: random.Random) -> list[Action]:
    """Actions near the position, legal or not, for the reference to judge."""
    out: list[Action] = []
    for p in range(state.players):
        out += [Draw(p), Pass(p)]
    p = state.current_player if state.current_player is not None else 0
    hand = state.hand(p)
    for c in rng.sample(CARDS, 6):
        out.append(Discard(p, c))
    out += [Discard(p, c) for c in hand]
    groups = [g for n in (1, 2, 3, 4) for g in combinations(hand, n)]
    for g in rng.sample(groups, min(len(groups), 40)):
        jokers = [None] if JOKER not in g else [None, *rng.sample(CARDS[:52], 3)]
        for j in jokers:
            out += [LayDown(p, g, j), Chi(p, g, j), Pon(p, g, j)]
    for c in hand:
        for t in range(len(state.melds) + 1):
            out.append(LayOff(p, c, t))
            if c.is_joker:
                out += [LayOff(p, c, t, x) for x in rng.sample(CARDS[:52], 4)]
    return out


def play_random_game(rules: Rules, players: int, seed: int, check_reference: bool) -> GameState:
    rng = random.Random(seed)
    state = deal(rules, players=players, seed=seed)
    for _ in range(MAX_STEPS):
        check_cards(state)
        actions = legal_actions(state)
        assert len(set(actions)) == len(actions), "an action is listed twice"
        assert legal_actions(state) == actions, "legal actions are not deterministic"
        if state.is_over:
            assert actions == ()
            assert state.deal_scores is not None and len(state.deal_scores) == players
            return state
        assert actions, "a deal that is not over must offer an action"
        before = snapshot(state)
        copy = GameState(
            **{  # an equal state built separately
                f.name: getattr(state, f.name) for f in state.__attrs_attrs__ if f.init
            }
        )
        for action in actions:
            assert action.player == state.current_player
            nxt = apply(state, action)
            assert nxt is not state
        assert snapshot(state) == before and state == copy, "apply changed its input"
        if check_reference:
            legal = set(actions)
            for action in candidates(state, rng):
                expected = reference_legal(state, action)
                assert (action in legal) == expected, (action, expected, state)
                if action not in legal:
                    try:
                        apply(state, action)
                    except IllegalActionError as error:
                        assert error.reason and error.action == action
                    else:
                        raise AssertionError(f"{action!r} was applied but is not legal")
        state = apply(state, rng.choice(actions))
    raise AssertionError("the deal did not end")


@given(st.sampled_from(VARIANTS), st.integers(2, 5), st.integers(0, 2**40))
def test_random_games_keep_every_invariant(rules: Rules, players: int, seed: int) -> None:
    state = play_random_game(rules, players, seed, check_reference=False)
    assert state.is_over


@settings(max_examples=25)  # half a second an example: every move of a deal, by the reference too
@given(st.sampled_from(VARIANTS), st.integers(2, 5), st.integers(0, 2**40))
def test_engine_legality_matches_the_reference(rules: Rules, players: int, seed: int) -> None:
    play_random_game(rules, players, seed, check_reference=True)


def test_every_preset_and_player_count_plays_to_the_end() -> None:
    for rules in PRESETS:
        for players in range(2, 6):
            for seed in range(3):
                state = play_random_game(rules, players, seed, check_reference=False)
                assert state.is_over
                if state.winner is not None:
                    assert state.hand(state.winner) == ()
