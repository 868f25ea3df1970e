"""The command line: the demo plays for every preset and player count."""

from __future__ import annotations

from pathlib import Path

import pytest

from sevenbridge import Rules, replay, replay_match
from sevenbridge.__main__ import main


@pytest.mark.parametrize("preset", Rules.presets())
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_demo_plays_a_deal_for_every_preset_and_player_count(
    preset: str, players: int, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["demo", "--rules", preset, "--players", str(players), "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert f"{preset} rules, {players} players, seed 3" in out
    assert "End of the deal:" in out and "Deal " in out
    assert main(["demo", "--rules", preset, "--players", str(players), "--bot", "random",
                 "--ascii"]) == 0  # fmt: skip
    assert "♥" not in capsys.readouterr().out


def test_demo_match(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--match", "--players", "3", "--seed", "8"]) == 0
    out = capsys.readouterr().out
    assert "=== Deal 3 ===" in out and ("wins the match" in out or "ends level" in out)


def test_demo_is_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    main(["demo", "--seed", "5"])
    first = capsys.readouterr().out
    main(["demo", "--seed", "5"])
    assert capsys.readouterr().out == first


@pytest.mark.parametrize(
    "argv",
    [["demo", "--players", "6"], ["demo", "--seed", "x"], ["demo", "--rules", "foo"], []],
)
def test_bad_arguments_get_a_usage_message(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "usage:" in err and "Traceback" not in err


def test_demo_writes_a_record_that_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.txt"
    assert main(["demo", "--seed", "4", "--rules", "nintendo", "--record", str(path)]) == 0
    assert "record written" in capsys.readouterr().out
    states = replay(path.read_text(encoding="utf-8"))
    assert states[-1].is_over
    match_path = tmp_path / "match.txt"
    assert main(["demo", "--match", "--players", "2", "--record", str(match_path)]) == 0
    finals = [s for s in replay_match(match_path.read_text(encoding="utf-8")) if s.is_over]
    assert len(finals) >= 2


def test_demo_reports_an_unwritable_record(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="cannot write the record"):
        main(["demo", "--record", str(tmp_path / "missing" / "x.txt")])
