"""Properties of the mahjong engine on every preset and random option mixes."""

from __future__ import annotations

import pickle
import random

from hypothesis import given
from hypothesis import strategies as st

from sevenbridge import IllegalActionError
from sevenbridge.mahjong import (
    TILE_KINDS,
    Action,
    Chow,
    Discard,
    Draw,
    GameState,
    Kong,
    Mahjong,
    MeldKind,
    Pass,
    Phase,
    Pung,
    Rules,
    apply,
    deal,
    legal_actions,
)
from sevenbridge.mahjong.engine import check_state

from .strategies import mahjong_rules, reachable_states


def _held(state: GameState, seat: int) -> int:
    """Tiles a seat holds, counting each meld as three (a kong's fourth tile is extra)."""
    return len(state.hands[seat]) + 3 * len(state.melds_of(seat))


@given(reachable_states())
def test_tiles_are_conserved_and_hands_have_their_size(
    played: tuple[GameState, list[GameState]],
) -> None:
    _, path = played
    for state in path:
        check_state(state)
        for seat in range(state.seats):
            size = _held(state, seat)
            acting = seat == state.turn and state.phase is Phase.PLAY
            winner = state.winner == seat
            assert size == (14 if acting or winner else 13), (seat, state.phase)
            assert all(not t.is_bonus for t in state.hands[seat])
        if state.phase is Phase.CLAIM:
            assert state.last_discard == state.discards[state.turn][-1]
            assert state.current_player not in state.ghosts


@given(reachable_states())
def test_apply_is_pure_and_deterministic(played: tuple[GameState, list[GameState]]) -> None:
    state, _ = played
    before = pickle.loads(pickle.dumps(state))
    for action in legal_actions(state):
        after = apply(state, action)
        assert apply(state, action) == after
        assert state == before


def _candidates(state: GameState) -> list[Action]:
    out: list[Action] = []
    for p in range(state.seats):
        out += [Draw(p), Pass(p), Pung(p), Mahjong(p)]
        out += [Discard(p, t) for t in TILE_KINDS[::3]]
        out += [Kong(p, t) for t in TILE_KINDS[::5]]
        out += [Chow(p, (TILE_KINDS[a], TILE_KINDS[a + 2])) for a in (0, 3, 10, 20)]
    return out


@given(reachable_states())
def test_illegal_actions_are_refused_with_a_reason(
    played: tuple[GameState, list[GameState]],
) -> None:
    state, _ = played
    legal = set(legal_actions(state))
    for action in _candidates(state):
        if action in legal:
            continue
        try:
            apply(state, action)
        except IllegalActionError as error:
            assert error.action == action and error.reason
        else:
            raise AssertionError(f"{action!r} was accepted but is not legal")


@given(reachable_states())
def test_only_the_player_to_act_has_actions(played: tuple[GameState, list[GameState]]) -> None:
    state, _ = played
    actions = legal_actions(state)
    assert bool(actions) == (not state.is_over)
    assert all(a.player == state.current_player for a in actions)
    assert len(set(actions)) == len(actions)
    if state.is_over and state.winner is not None:
        assert state.winner not in state.ghosts
        assert state.scores[state.winner] >= 1 and sum(state.scores) == state.points


@given(mahjong_rules(), st.integers(0, 2**32))
def test_every_round_ends(rules: Rules, seed: int) -> None:
    rng = random.Random(seed)
    for players in (2, 3, 4):
        state = deal(rules, players=players, seed=seed)
        steps = 0
        while not state.is_over:
            state = apply(state, rng.choice(legal_actions(state)))
            steps += 1
            assert steps < 5 * rules.wall_size  # every turn uses up a tile of the wall
        if state.winner is None:
            # The round ended drawn only because no tile could be drawn.
            assert _cannot_draw(state, back=False) or _cannot_draw(state, back=True)


def _cannot_draw(state: GameState, *, back: bool) -> bool:
    """Whether a draw (from the front, or a replacement from the back) would
    meet only bonus tiles before reaching the reserve."""
    wall = list(state.wall)
    while len(wall) > state.rules.reserve:
        tile = wall.pop() if back else wall.pop(0)
        if not tile.is_bonus:
            return False
        back = True
    return True


def test_the_same_seed_replays_the_same_round() -> None:
    def run(seed: int) -> list[GameState]:
        rng = random.Random(seed)
        state = deal(Rules.full(), players=3, seed=seed)
        out = [state]
        while not state.is_over:
            state = apply(state, rng.choice(legal_actions(state)))
            out.append(state)
        return out

    assert run(5) == run(5)
    assert run(5) != run(6)


def test_random_play_reaches_every_kind_of_claim() -> None:
    seen: set[str] = set()
    for seed in range(60):
        rng = random.Random(seed)
        state = deal(Rules(kong=True), seed=seed)
        while not state.is_over:
            actions = legal_actions(state)
            claims = [a for a in actions if isinstance(a, (Pung, Chow, Kong, Mahjong))]
            action = rng.choice(claims) if claims and rng.random() < 0.7 else rng.choice(actions)
            state = apply(state, action)
        seen |= {m.kind.value for m in state.melds}
        if state.winner is not None:
            seen.add("win")
    assert {MeldKind.CHOW.value, MeldKind.PUNG.value, MeldKind.KONG.value, "win"} <= seen
