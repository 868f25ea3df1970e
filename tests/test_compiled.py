"""The compiled build (``SEVENBRIDGE_COMPILE=1``) plays exactly like the pure one.

CI runs the whole suite against both builds; these tests add a differential
check (the same seeded random games and playouts, step by step, in the running
build and in the pure-Python sources of the same package) and check that the
build asked for is the one running.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import sevenbridge
from sevenbridge import _tables
from sevenbridge.engine import _fields, _keys, _playout, claims, legal, step, turn
from sevenbridge.envs import _lone
from sevenbridge.inference import _past, _worlds
from sevenbridge.mahjong import _fields as _mahjong_fields
from sevenbridge.mahjong import _ops as _mahjong_ops
from sevenbridge.mahjong import _tables as _mahjong_tables
from sevenbridge.mahjong import _tensor as _mahjong_tensor
from sevenbridge.mahjong import claims as _mahjong_claims
from sevenbridge.mahjong import legal as _mahjong_legal
from sevenbridge.mahjong import step as _mahjong_step
from sevenbridge.mahjong import turn as _mahjong_turn

HOT_MODULES: tuple[Any, ...] = (
    _tables, _fields, _keys, claims, legal, turn, step, _playout,
    _mahjong_tables, _mahjong_fields, _mahjong_ops, _mahjong_claims, _mahjong_legal,
    _mahjong_turn, _mahjong_step, _mahjong_tensor, _past, _worlds, _lone,
)  # fmt: skip
with contextlib.suppress(ImportError):  # the learners' tensors (sevenbridge.rl needs numpy)
    HOT_MODULES += (importlib.import_module("sevenbridge.rl._tensors"),)

# Plays seeded uniform random games over every preset and table size, and
# playouts of both policies, and prints what it saw as JSON: every step's
# number of legal actions and choice, every tenth position and the last one.
# Then the same for rounds of Simple Mahjong, with the bytes of the learners'
# tensor of every tenth position (sevenbridge.rl, which reads them, needs numpy).
# With numpy, the card game's positions carry the bytes of their tensors too
# (observation, information state, compact; and a batch's rows).
SCRIPT = r"""
import json, random, sys
import sevenbridge as sb
from sevenbridge import mahjong as mj
from sevenbridge.mahjong._tensor import state_tensor_bytes
from sevenbridge.playout import playout
try:
    import numpy as np
    from sevenbridge.rl._tensors import _of_state, row_writer
except ImportError:
    np = None

def card_position(s):
    out = [s.to_json()]
    if np is not None:
        seat = 0 if s.current_player is None else s.current_player
        for info, compact in ((False, False), (True, False), (False, True)):
            out.append(_of_state(s, seat, info, compact).tobytes().hex())
        writer = row_writer(s.rules, s.players, True)
        rows = np.zeros((2, writer.width), np.float32)
        writer.write([s, s], seat, rows)
        out.append(rows.tobytes().hex())
    return out

def play(game, state, seed, position):
    rng = random.Random(seed)
    steps, positions = [], []
    while not state.is_over:
        actions = game.legal_actions(state)
        action = actions[rng.randrange(len(actions))]
        steps.append([len(actions), repr(action)])
        state = game.apply(state, action)
        if len(steps) % 10 == 0:
            positions.append(position(state))
    return {"steps": steps, "positions": positions, "end": state.to_json()}

games = []
for seed in range(int(sys.argv[1])):
    rules = sb.Rules.preset(sb.Rules.presets()[seed % len(sb.Rules.presets())])
    game = play(sb, sb.deal(rules, players=2 + seed % 4, seed=seed), seed, card_position)
    start = sb.deal(rules, players=2 + seed % 4, seed=seed + 1)
    game["random"] = playout(start, "random", seed=seed).to_json()
    game["greedy"] = playout(start, "greedy", seed=seed, history=False).to_json()
    games.append(game)
for seed in range(int(sys.argv[1])):
    rules = mj.Rules.preset(mj.Rules.presets()[seed % 3]).replace(kong=seed % 2 == 0)
    state = mj.deal(rules, players=2 + seed % 3, seed=seed)
    tensor = lambda s: [s.to_json(), state_tensor_bytes(s, s.current_player).hex()]
    games.append(play(mj, state, seed, tensor))
# The sampler's search for a world, on the golden views it needs it for.
worlds = []
for name in ("hard-views.json", "joker-holder-views.json", "mixed-upcard-guesses.json"):
    with open(f"{sys.argv[2]}/{name}") as file:
        for case in json.load(file):
            state = sb.GameState.from_json(json.dumps(case["state"]))
            view = sb.observe(state, case["viewer"])
            worlds += [sb.sample_state(view, key).to_json() for key in range(3)]
print(json.dumps({"compiled": sb.COMPILED, "games": games, "worlds": worlds}))
"""


def _play(pythonpath: Path | None, games: int) -> dict[str, Any]:
    env = dict(os.environ)
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(games), str(Path(__file__).parent / "golden")],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    out: dict[str, Any] = json.loads(result.stdout)
    return out


def _is_compiled(module: Any) -> bool:
    return not str(module.__file__).endswith(".py")


def test_compiled_flag_says_which_build_runs() -> None:
    """All the hot modules are compiled, or none is; COMPILED says which."""
    assert isinstance(sevenbridge.COMPILED, bool)
    assert [_is_compiled(m) for m in HOT_MODULES] == [sevenbridge.COMPILED] * len(HOT_MODULES)
    # CI says which build it installed, so that a build that silently fell
    # back to pure Python is caught.
    expected = os.environ.get("SEVENBRIDGE_EXPECT_COMPILED")
    if expected is not None:
        assert sevenbridge.COMPILED is (expected == "1")


def test_compiled_and_pure_builds_play_the_same_games(tmp_path: Path) -> None:
    """Both builds play the same games (every step of both games' random
    deals, the playouts) and sample the same worlds (the golden views that
    need the sampler's search) from the same seeds."""
    if not sevenbridge.COMPILED:
        pytest.skip("the pure-Python build is running: no compiled build to compare")
    # The pure build: the same installed package without its extension modules.
    package = Path(sevenbridge.__file__).parent
    shutil.copytree(
        package,
        tmp_path / "sevenbridge",
        ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"),
    )
    games = 40
    compiled = _play(None, games)
    pure = _play(tmp_path, games)
    assert compiled["compiled"] is True and pure["compiled"] is False
    assert len(compiled["games"]) == 2 * games
    for i, (a, b) in enumerate(zip(compiled["games"], pure["games"], strict=True)):
        assert a == b, f"game {i} differs between the compiled and the pure build"
    assert len(compiled["worlds"]) == 30
    for i, (a, b) in enumerate(zip(compiled["worlds"], pure["worlds"], strict=True)):
        assert a == b, f"world {i} differs between the compiled and the pure build"
