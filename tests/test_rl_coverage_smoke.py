"""benchmarks/rl_coverage.py keeps working: a short run, and its counts make sense."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .helpers import optional_module

optional_module("numpy")

from benchmarks import rl_coverage  # noqa: E402  (after the optional import)


def test_quick_run_counts_ids_and_entries(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_file, docs = tmp_path / "coverage.json", tmp_path / "coverage.md"
    assert rl_coverage.main(["--deals", "4", "--json", str(out_file), "--docs", str(docs)]) == 0
    assert "ids ever legal" in capsys.readouterr().out
    for r in json.loads(out_file.read_text()):
        assert 0 < r["compact_ever_legal"] <= r["compact_size"] < r["full_size"]
        assert r["full_nonzero_share"] < r["compact_nonzero_share"] < 1
    assert "compact ids ever legal" in docs.read_text()
