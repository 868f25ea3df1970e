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
    for loop in ("random", "random_with_views"):
        assert figures[f"{loop}_steps_per_s"] > figures[f"{loop}_rounds_per_s"] > 0
    assert figures["is_mahjong_hands_per_s"] > 0
    assert figures["rlcard_steps_per_s"] is None and figures["rlcard_rounds_per_s"] is None
    assert "rounds/s" in out and "hands/s" in out and "not measured (--no-rlcard)" in out
