"""The search-cost benchmark keeps working (a quick run; the figures are read by hand)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from benchmarks import bench_search


def test_bench_search_quick_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    docs = tmp_path / "figures.md"
    assert (
        bench_search.main(["--quick", "--json", str(tmp_path / "f.json"), "--docs", str(docs)]) == 0
    )
    assert "processor time per decision" in capsys.readouterr().out
    rows = json.loads((tmp_path / "f.json").read_text())["rows"]
    assert set(rows) == {
        "seven_bridge/nintendo", "seven_bridge/seven_rummy", "seven_bridge/standard",
        "mahjong/standard",
    }  # fmt: skip
    for f in rows.values():
        assert f["decisions"] >= 2 and 0 < f["median_ms"] <= f["max_ms"] < 60_000
        assert 1 <= f["mean_iterations"] <= int(f["iterations"])
    assert "bench_search.py" in docs.read_text(encoding="utf-8")
