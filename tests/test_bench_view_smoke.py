"""The replay viewer benchmark keeps working (a quick run; the figures are read by hand)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from benchmarks import bench_view


def test_bench_view_quick_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_view.main(["--quick", "--json", str(tmp_path / "f.json")]) == 0
    assert "Simple Mahjong, one round" in capsys.readouterr().out
    figures = json.loads((tmp_path / "f.json").read_text())
    assert len(figures) == 3
    for f in figures.values():
        assert f["moves"] > 100 and f["page_kb"] > 10 and 0 < f["peak_mb"] < 1000
