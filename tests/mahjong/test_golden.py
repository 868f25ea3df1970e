"""Golden playthroughs: whole seeded mahjong rounds pinned as text, so that any
change of behaviour shows up as a diff. Regenerate with
``SEVENBRIDGE_REGOLD=1 pytest tests/mahjong/test_golden.py`` after checking
that the change is intended."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sevenbridge.mahjong import GameState, GreedyPlayer, Rules, apply, deal, format_tiles

GOLDEN = Path(__file__).parent / "golden"
CASES = [
    (preset, players, seed)
    for preset in Rules.presets()
    for players, seed in ((2, 21), (3, 22), (4, 23))
]


def _position(state: GameState) -> str:
    melds = "; ".join(f"P{m.owner}:{m}" for m in state.melds)
    return (
        f"phase={state.phase.value} next=P{state.current_player} wall={len(state.wall)} "
        f"melds=[{melds}]"
    )


def playthrough(preset: str, players: int, seed: int) -> str:
    """A round between greedy players, every action and position written out."""
    rules = Rules.preset(preset)
    state = deal(rules, players=players, seed=seed)
    bots = {s: GreedyPlayer(seed * 10 + s) for s in state.real_seats}
    lines = [f"# mahjong {preset}, {players} players, seed {seed}, GreedyPlayer(seed*10+seat)"]
    lines += [f"hand P{s}: {format_tiles(state.hands[s])}" for s in range(state.seats)]
    lines.append(_position(state))
    while not state.is_over:
        action = bots[state.current_player](state)
        state = apply(state, action)
        lines.append(f"P{action.player} {action} | {_position(state)}")
    lines.append(f"result: winner={state.winner} scores={state.scores}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(("preset", "players", "seed"), CASES)
def test_playthrough_matches_golden(preset: str, players: int, seed: int) -> None:
    path = GOLDEN / f"{preset}-{players}p-seed{seed}.txt"
    text = playthrough(preset, players, seed)
    if os.environ.get("SEVENBRIDGE_REGOLD"):
        path.write_text(text, encoding="utf-8")
    assert path.read_text(encoding="utf-8") == text
