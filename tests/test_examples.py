"""The examples keep working."""

from __future__ import annotations

import json
import runpy
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent.parent / "examples"

#: Examples with a test of their own (a long run by default, an optional extra, or a
#: program that talks over stdin/stdout).
OWN_TESTS = {
    "train_reinforce.py",
    "external_bot.py",
    "train_maskable_ppo.py",
    "flat_monte_carlo.py",
    "train_neural.py",
}
EXAMPLES = sorted(p for p in HERE.glob("*.py") if p.name not in OWN_TESTS)


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_example_runs(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    runpy.run_path(str(path), run_name="__main__")
    assert capsys.readouterr().out.strip()


def test_external_bot_example_shakes_hands_and_quits() -> None:
    hello = {"type": "hello", "protocol": "sevenbridge-bot", "version": 1}
    done = subprocess.run(
        [sys.executable, str(HERE / "external_bot.py")],
        input=json.dumps(hello) + "\n" + '{"type": "quit"}\n',
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    answer = json.loads(done.stdout)
    assert answer["type"] == "ready" and answer["protocol"] == "sevenbridge-bot"
    assert answer["version"] == 1


def test_maskable_ppo_example_trains_and_evaluates(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("sb3_contrib", reason="the example needs sb3-contrib and torch")
    module = runpy.run_path(str(HERE / "train_maskable_ppo.py"), run_name="train_maskable_ppo")
    assert module["main"](["--steps", "128", "--eval", "3"]) == 0
    out = capsys.readouterr().out
    assert "MaskablePPO after 128 steps, 3 deals" in out and "mean return" in out
