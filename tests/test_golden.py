"""Golden playthroughs: whole seeded deals pinned as text, so that any change of
behaviour shows up as a diff. Regenerate with ``SEVENBRIDGE_REGOLD=1 pytest tests/test_golden.py``
after checking that the change is intended."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sevenbridge import GameState, Rules, apply, deal
from sevenbridge.bots import RandomPlayer

GOLDEN = Path(__file__).parent / "golden"
CASES = [
    (preset, players, seed)
    for preset in Rules.presets()
    for players, seed in ((2, 11), (3, 12), (5, 13))
]


def _position(state: GameState) -> str:
    top = state.top_discard
    return (
        f"phase={state.phase.value} next={state.current_player} stock={state.stock_size} "
        f"top={top if top else '-'} melds=[{'; '.join(f'P{m.owner}:{m}' for m in state.melds)}]"
    )


def playthrough(preset: str, players: int, seed: int) -> str:
    rules = Rules.preset(preset)
    state = deal(rules, players=players, seed=seed)
    bot = RandomPlayer(seed)
    lines = [f"# {preset}, {players} players, seed {seed}, RandomPlayer({seed})"]
    lines += [f"hand P{p}: {' '.join(map(str, state.hand(p)))}" for p in range(players)]
    lines.append(_position(state))
    step = 0
    while not state.is_over:
        action = bot(state)
        state = apply(state, action)
        step += 1
        lines.append(f"{step:03d} P{action.player} {action} | {_position(state)}")
    lines += [f"hand P{p}: {' '.join(map(str, state.hand(p)))}" for p in range(players)]
    lines.append(f"end: {state.end_reason}; winner={state.winner} scores={state.deal_scores}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(("preset", "players", "seed"), CASES)
def test_golden_playthrough(preset: str, players: int, seed: int) -> None:
    path = GOLDEN / f"{preset}-{players}p-seed{seed}.txt"
    text = playthrough(preset, players, seed)
    if os.environ.get("SEVENBRIDGE_REGOLD"):
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"missing golden file {path.name}: run with SEVENBRIDGE_REGOLD=1"
    assert text == path.read_text(encoding="utf-8")
