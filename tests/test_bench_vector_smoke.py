"""benchmarks/bench_vector.py keeps working: a short smoke run (no timing is asserted)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .helpers import optional_module

optional_module("numpy")
optional_module("gymnasium")

from benchmarks import bench_vector  # noqa: E402  (after the optional imports)


def test_quick_run_prints_and_writes_every_figure(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_file, docs = tmp_path / "vector.json", tmp_path / "vector.md"
    argv = ["--quick", "--steps", "256", "--no-pgx", "--workers"]
    assert bench_vector.main([*argv, "--json", str(out_file), "--docs", str(docs)]) == 0
    out = capsys.readouterr().out
    figures = json.loads(out_file.read_text())
    scaling = figures["scaling"]
    for game, _ in bench_vector.GAMES:
        for kind in ("greedy", "random"):
            assert scaling[f"{game}/{kind}/1"]["ratio"] == 1.0
            assert scaling[f"{game}/{kind}/256"]["steps_per_cpu_s"] > 0
        assert figures["breakdown"][f"{game}/256"]["moves_per_step"] >= 1
    assert figures["workers"]["ratio"] > 0
    assert "env steps per CPU-second" in out and "workers=2" in out
    text = docs.read_text()
    assert "| 256 |" in text and "`workers=2`" in text and "bench_vector.py" in text


def test_random_ids_are_legal_and_cover_every_legal_id() -> None:
    import numpy as np

    masks = np.zeros((3, 10), np.int8)
    masks[0, [2, 5]] = 1
    masks[1, 9] = 1
    masks[2, [0, 1, 2, 3]] = 1
    rng = np.random.default_rng(0)
    seen: list[set[int]] = [set(), set(), set()]
    for _ in range(200):
        for row, i in enumerate(bench_vector.random_ids(masks, rng)):
            assert masks[row, i] == 1
            seen[row].add(int(i))
    assert seen == [{2, 5}, {9}, {0, 1, 2, 3}]
