"""The belief model's log-loss benchmark keeps working (a quick run)."""

from __future__ import annotations

import pytest

from .helpers import optional_module

optional_module("numpy")


def test_bench_beliefs_quick_run(capsys: pytest.CaptureFixture[str]) -> None:
    from benchmarks import bench_beliefs  # it needs numpy: imported once that is known

    assert bench_beliefs.main(["--quick"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "hidden cards of 6 deals" in lines[0]
    assert lines[-1].startswith("all ")
