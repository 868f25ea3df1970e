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
        for key in ("pettingzoo", "pettingzoo_every_move", "gymnasium", "gymnasium_every_move"):
            if key in versus:  # with that env's package installed
                assert versus[key]["decisions_per_cpu_s"] > 0, key
        assert "against OpenSpiel's gin_rummy" in out
        if "pettingzoo" not in versus:
            assert "skipped (package not installed)" in out
