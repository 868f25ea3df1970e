"""The soak script keeps working: a few deals of it (the full run is by hand)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from benchmarks import soak


def test_soak_finds_no_broken_state(capsys: pytest.CaptureFixture[str]) -> None:
    figures = soak.soak(deals=4, seed=3, playout_every=40)
    assert figures.failures == []
    assert figures.deals == 4 and figures.samples > figures.steps > 0 and figures.playouts > 0
    assert soak.main(["--deals", "1", "--seed", "5"]) == 0
    assert "failures                     0" in capsys.readouterr().out


def test_the_mahjong_soak_finds_no_broken_world(capsys: pytest.CaptureFixture[str]) -> None:
    figures = soak.mahjong_worlds(deals=3, seed=4, every=7)
    assert figures.failures == []
    assert figures.deals == 3 and figures.samples == figures.certified > 0
    assert soak.main(["--mahjong", "1", "--every", "9"]) == 0
    assert "failures" in capsys.readouterr().out


def test_the_slow_samples_saved_are_timed_again_from_fresh_keys(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--save-slow`` writes the samples that took longest; ``--retime``
    samples each of those views again from fresh keys (a world that looks the
    same from the seat, every time) and can save the slow ones again."""
    saved = tmp_path / "slow.json"
    assert (
        soak.main(
            ["--latency", "1", "--seed", "2", "--save-slow", str(saved), "--slow-ms", "0.001"]
        )
        == 0
    )
    cases = json.loads(saved.read_text())
    assert cases and all({"state", "viewer", "key", "ms"} <= set(case) for case in cases)
    figures, medians = soak.retime(cases[:5], keys=3, seed=1, slow_ms=0.001)
    assert figures.failures == [] and figures.deals == 5 and figures.samples == 15
    assert len(figures.slow) == 15 and sorted(n for _, n in medians) == list(range(5))
    capsys.readouterr()
    again = tmp_path / "again.json"
    argv = ["--retime", str(saved), "--keys", "2", "--save-slow", str(again), "--slow-ms", "0.001"]
    assert soak.main(argv) == 0
    out = capsys.readouterr().out
    assert f"samples{2 * len(cases):>45,}" in out
    assert len(json.loads(again.read_text())) == 2 * len(cases)


@pytest.mark.parametrize(
    "text",
    [
        "{}",  # not a list
        '[{"state": {}}]',  # no viewer
        "[1, 2]",
        "not json",
        '[{"state": {"players": 3}, "viewer": 0}]',  # no position
        "[" * 100_000,  # nested too deep for the JSON reader
    ],
)
def test_retime_refuses_a_file_that_is_not_saved_samples(tmp_path: Path, text: str) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(text)
    with pytest.raises(SystemExit) as exit_:
        soak.main(["--retime", str(bad)])
    assert exit_.value.code == 2


def test_retime_bounds_its_keys_its_file_and_the_viewer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = tmp_path / "slow.json"
    assert (
        soak.main(
            ["--latency", "1", "--seed", "2", "--save-slow", str(saved), "--slow-ms", "0.001"]
        )
        == 0
    )
    case = json.loads(saved.read_text())[0]
    for keys in ("0", str(soak.RETIME_KEYS_MOST + 1)):
        with pytest.raises(SystemExit):
            soak.main(["--retime", str(saved), "--keys", keys])
    for viewer in (-1, 3, 9, "0", True):
        bad = tmp_path / "viewer.json"
        bad.write_text(json.dumps([{**case, "viewer": viewer}]))
        with pytest.raises(SystemExit):
            soak.main(["--retime", str(bad)])
    monkeypatch.setattr(soak, "RETIME_FILE_MOST", 100)
    with pytest.raises(SystemExit):
        soak.main(["--retime", str(saved)])
    assert "larger than 100 bytes" in capsys.readouterr().err
