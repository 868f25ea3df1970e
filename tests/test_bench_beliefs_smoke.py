"""The belief model's log-loss benchmark keeps working (a quick run)."""

from __future__ import annotations

import pytest
from benchmarks import bench_beliefs

from .helpers import optional_module

optional_module("numpy")


def test_bench_beliefs_quick_run(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_beliefs.main(["--quick"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "hidden cards of 6 deals" in lines[0]
    assert lines[-1].startswith("all ")
