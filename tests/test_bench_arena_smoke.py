"""The tournament benchmark keeps working (a quick run; the figures are read by hand)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from benchmarks import bench_arena


def test_bench_arena_quick_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_arena.main(["--quick", "--json", str(tmp_path / "f.json")]) == 0
    out = capsys.readouterr().out
    assert "speed-up" in out and "store share" in out and "added" in out
    figures = json.loads((tmp_path / "f.json").read_text())
    assert figures["workers"]["deals"] == 30 and figures["workers"]["speedup"] > 0
    assert figures["workers"]["amdahl_speedup"] > 0 and figures["workers"]["load_before"] >= 0
    assert "main process" in out and "load average" in out
    assert figures["external"]["decisions"] > 0 and figures["external"]["external_us"] > 0
