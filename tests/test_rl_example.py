"""examples/train_reinforce.py runs (a very short version) and learns."""

from __future__ import annotations

import runpy
from pathlib import Path
from typing import Any

import pytest

from .helpers import optional_module

np = optional_module("numpy")

SCRIPT = Path(__file__).parent.parent / "examples" / "train_reinforce.py"


def _module() -> dict[str, Any]:
    return runpy.run_path(str(SCRIPT), run_name="train_reinforce")


def test_a_short_run_prints_the_curve_and_a_confidence_interval(
    capsys: pytest.CaptureFixture[str],
) -> None:
    module = _module()
    argv = ["--deals", "40", "--every", "20", "--checkpoint-eval", "6", "--eval", "9"]
    assert module["main"](argv) == 0
    out = capsys.readouterr().out
    assert "deals 20: mean return" in out and "deals 40: mean return" in out
    assert "final, 9 deals: mean return" in out and "(95% CI)" in out


def test_training_moves_the_policy_towards_better_returns() -> None:
    module = _module()
    from sevenbridge import Rules
    from sevenbridge.rl import ActionSpace, observation_tensor_size

    rules = Rules.standard()
    space = ActionSpace(rules, 3)
    policy = module["Policy"](space.size, observation_tensor_size(rules, 3))
    rng = np.random.default_rng(0)
    steps = module["play_training_deal"](policy, space, rules, 1, rng)
    assert steps and sum(g for g, *_ in steps) != 0
    # one update raises the probability of the moves of a seat that gained
    g, x, legal, k, probs = max(steps, key=lambda s: s[0])
    assert g > 0
    module["update"](policy, [(g, x, legal, k, probs)], 0.1)
    assert policy.probabilities(x, legal)[k] > probs[k]
