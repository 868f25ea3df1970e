"""benchmarks/bench_rl.py keeps working: a short smoke run (no timing is asserted)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .helpers import optional_module

optional_module("numpy")

from benchmarks import bench_rl  # noqa: E402  (after the optional import)


def test_quick_run_prints_every_figure(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_file = tmp_path / "rl.json"
    assert bench_rl.main(["--quick", "--seconds", "0.01", "--json", str(out_file)]) == 0
    out = capsys.readouterr().out
    figures = json.loads(out_file.read_text())
    for key in (
        "engine_step_per_s",
        "mask_obs_fresh_view_per_s",
        "mask_obs_env_per_s",
        "information_state_tensor_per_s",
        "encode_per_s",
        "decode_per_s",
        "engine_random_play_steps_per_s",
    ):
        assert figures[key] > 0, key
    assert "mask + observation_tensor" in out and "encode /s" in out
    assert "PettingZoo env steps/s" in out and "without observations" in out
    versus = figures["versus_openspiel"]
    if versus:  # with open_spiel installed
        assert versus["openspiel_gin_rummy"]["ratio"] == 1.0
        assert versus["pettingzoo"]["decisions_per_cpu_s"] > 0
        assert "against OpenSpiel's gin_rummy" in out
    scaling = figures["vector_scaling"]
    if scaling:  # with gymnasium installed
        assert scaling["greedy/1"]["ratio"] == 1.0 and scaling["random/256"]["steps_per_cpu_s"] > 0
        blocks = "\n".join(bench_rl.docs_blocks(figures, ["--quick"]))
        assert "| 256 |" in blocks and "gin_rummy" in blocks


def test_random_ids_are_legal_and_cover_every_legal_id() -> None:
    import numpy as np

    masks = np.zeros((3, 10), np.int8)
    masks[0, [2, 5]] = 1
    masks[1, 9] = 1
    masks[2, [0, 1, 2, 3]] = 1
    rng = np.random.default_rng(0)
    seen: list[set[int]] = [set(), set(), set()]
    for _ in range(200):
        for row, i in enumerate(bench_rl.random_ids(masks, rng)):
            assert masks[row, i] == 1
            seen[row].add(int(i))
    assert seen == [{2, 5}, {9}, {0, 1, 2, 3}]
