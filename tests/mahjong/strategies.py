"""Hypothesis strategies for the mahjong tests."""

from __future__ import annotations

from hypothesis import strategies as st

from sevenbridge.mahjong import TILE_KINDS, Tile, full_wall


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
