"""The examples keep working."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

#: Examples with a test of their own (a long run by default, or an optional extra).
OWN_TESTS = {"train_reinforce.py"}
EXAMPLES = sorted(
    p for p in (Path(__file__).parent.parent / "examples").glob("*.py") if p.name not in OWN_TESTS
)


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_example_runs(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    runpy.run_path(str(path), run_name="__main__")
    assert capsys.readouterr().out.strip()
