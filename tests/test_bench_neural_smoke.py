"""The NeuralPlayer strength benchmark keeps working (a quick run)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from benchmarks import bench_neural

from .helpers import optional_module

optional_module("numpy")


def test_bench_neural_quick_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        bench_neural.main(["--quick", "--presets", "standard", "--json", str(tmp_path / "f.json")])
        == 0
    )
    out = capsys.readouterr().out
    assert out.splitlines()[2].startswith("| standard | 3 |")
    (figures,) = json.loads((tmp_path / "f.json").read_text())
    assert figures["deals"] == 3 and 0 <= figures["win_share"] <= 1
