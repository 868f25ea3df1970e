"""The benchmark keeps working: a short smoke run (no timing is asserted)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from benchmarks import bench

import sevenbridge


def test_benchmark_quick_run_prints_every_preset_and_player_count(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_file = tmp_path / "figures.json"
    assert bench.main(["--quick", "--seconds", "0.05", "--json", str(out_file)]) == 0
    out = capsys.readouterr().out
    figures = json.loads(out_file.read_text())
    for preset in ("standard", "seven_rummy", "nintendo"):
        for players in (2, 3, 4, 5):
            assert f"{preset}/{players}" in figures["presets"]
            row = figures["presets"][f"{preset}/{players}"]
            assert row["steps"] > 0 and row["observe_per_s"] and row["json_per_s"]
            assert 0 < row["decisions"] < row["steps"] and row["decisions_per_s"] > 0
    assert figures["compiled"] is sevenbridge.COMPILED
    for tag in ("", "_with_deal"):
        assert figures["playout"][f"playout_no_history{tag}_deals_per_s"] > 0
        assert figures["playout"][f"public{tag}_deals_per_s"] > 0
    assert "from dealt positions" in out and "deal included" in out
    assert "import time:" in out and "5 players / 3 players" in out
