"""The mahjong benchmark keeps working: a short smoke run (no timing is asserted)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from benchmarks import bench_mahjong


def test_benchmark_quick_run_prints_every_figure(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_file = tmp_path / "figures.json"
    argv = ["--quick", "--seconds", "0.05", "--no-rlcard", "--json", str(out_file)]
    assert bench_mahjong.main(argv) == 0
    out = capsys.readouterr().out
    figures = json.loads(out_file.read_text())
    assert figures["random_steps_per_s"] > 0 and figures["is_mahjong_hands_per_s"] > 0
    assert figures["random_steps_with_views_per_s"] > 0 and figures["rlcard_steps_per_s"] is None
    assert "steps/s" in out and "hands/s" in out and "not measured" in out
