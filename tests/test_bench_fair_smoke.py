"""The fair-play benchmark keeps working (a quick run; the figures go in the docs)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from benchmarks import bench_fair


def test_bench_fair_quick_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    docs = tmp_path / "figures.md"
    assert (
        bench_fair.main(["--quick", "--json", str(tmp_path / "f.json"), "--docs", str(docs)]) == 0
    )
    assert "without --fair" in capsys.readouterr().out
    figures = json.loads((tmp_path / "f.json").read_text())
    assert figures["with --fair"]["difference"] == 0.0  # a fresh bot each deal remembers nothing
    assert figures["without --fair"]["decks"] == 20
    assert "| with --fair | " in docs.read_text()
