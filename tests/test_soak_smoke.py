"""The soak script keeps working: a few deals of it (the full run is by hand)."""

from __future__ import annotations

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
