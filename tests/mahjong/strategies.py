"""Hypothesis strategies for the mahjong tests."""

from __future__ import annotations

from hypothesis import strategies as st

from sevenbridge.mahjong import (
    TILE_KINDS,
    ClaimWindow,
    GameState,
    Rules,
    SelfDrawWin,
    Tile,
    apply,
    deal,
    full_wall,
    legal_actions,
)


@st.composite
def random_hands(draw: st.DrawFn, size: int = 14) -> tuple[Tile, ...]:
    """``size`` tiles drawn from a full set (so never more than four copies)."""
    wall = full_wall()
    picks = draw(st.lists(st.integers(0, 135), min_size=size, max_size=size, unique=True))
    return tuple(sorted(wall[i] for i in picks))


@st.composite
def built_hands(draw: st.DrawFn) -> tuple[Tile, ...]:
    """Four random sets and a pair (a winning hand when no kind runs past four
    copies), perhaps with one tile swapped for another."""
    counts = [0] * 34
    tiles: list[Tile] = []
    for _ in range(4):
        if draw(st.booleans()):
            start = draw(st.sampled_from([s * 9 + n for s in range(3) for n in range(7)]))
            group = [start, start + 1, start + 2]
        else:
            kind = draw(st.integers(0, 33))
            group = [kind] * 3
        if all(counts[t] + group.count(t) <= 4 for t in group):
            for t in group:
                counts[t] += 1
                tiles.append(TILE_KINDS[t])
    pair = draw(st.integers(0, 33))
    for _ in range(2):
        if counts[pair] < 4:
            counts[pair] += 1
            tiles.append(TILE_KINDS[pair])
    while len(tiles) < 14:
        kind = draw(st.integers(0, 33))
        if counts[kind] < 4:
            counts[kind] += 1
            tiles.append(TILE_KINDS[kind])
    if draw(st.booleans()):
        i = draw(st.integers(0, 13))
        kind = draw(st.integers(0, 33))
        if counts[kind] < 4:
            counts[tiles[i]] -= 1
            counts[kind] += 1
            tiles[i] = TILE_KINDS[kind]
    return tuple(sorted(tiles))


@st.composite
def mahjong_rules(draw: st.DrawFn) -> Rules:
    """A preset, perhaps with some options changed."""
    rules = Rules.preset(draw(st.sampled_from(Rules.presets())))
    return rules.replace(
        kong=draw(st.booleans()),
        flowers=draw(st.booleans()),
        may_decline_win=draw(st.booleans()),
        self_draw_win=draw(st.sampled_from(list(SelfDrawWin))),
        ghosts=draw(st.booleans()),
        ghost_discards_claimable=draw(st.booleans()),
        reserve=draw(st.sampled_from([0, 0, 14])),
        claim_window=draw(st.sampled_from(list(ClaimWindow))),
    )


@st.composite
def reachable_states(draw: st.DrawFn, max_steps: int = 300) -> tuple[GameState, list[GameState]]:
    """A round played from a seeded deal by legal actions chosen by index; the
    final state and every state on the way."""
    rules = draw(mahjong_rules())
    players = draw(st.integers(2, 4))
    seed = draw(st.integers(0, 2**64 - 1))
    state = deal(rules, players=players, seed=seed, dealer=0)
    path = [state]
    picks = draw(st.lists(st.integers(0, 1000), max_size=max_steps))
    for pick in picks:
        actions = legal_actions(state)
        if not actions:
            break
        state = apply(state, actions[pick % len(actions)])
        path.append(state)
    return state, path
