"""The command line: the demo plays for every preset and player count."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from sevenbridge import Rules, replay, replay_match
from sevenbridge.cli import main


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


def test_an_unwritable_record_is_refused_before_play(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as info:
        main(["demo", "--record", str(tmp_path / "missing" / "x.txt")])
    assert info.value.code == 2
    captured = capsys.readouterr()
    assert "can't open" in captured.err and "x.txt" in captured.err
    assert captured.out == ""  # not a single move was played


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    import sevenbridge

    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0
    assert capsys.readouterr().out.strip() == f"sevenbridge {sevenbridge.__version__}"


def test_the_default_demo_shows_the_signature_moves(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo"]) == 0
    out = capsys.readouterr().out
    assert "calls chi on" in out and "calls pon on" in out and "lays off" in out
    lines = out.splitlines()
    assert lines[1].strip().startswith("Goal:") and "Sevens" in lines[2] and "Claims" in lines[3]
    assert "(The winner scores the points left in the other hands.)" in out
    assert main(["demo", "--quiet", "--rules", "nintendo"]) == 0
    out = capsys.readouterr().out
    assert "Goal:" not in out and "as a penalty" in out


def test_one_point_is_singular(capsys: pytest.CaptureFixture[str]) -> None:
    from sevenbridge._kit.words import points_words

    assert points_words(1) == "1 point" and points_words(0) == "0 points"
    for seed in range(40):
        main(["demo", "--seed", str(seed), "--players", "5", "--quiet"])
        assert " 1 points" not in capsys.readouterr().out


def _script() -> list[str]:
    script = Path(sys.executable).parent / "sevenbridge"
    if not script.exists():
        pytest.skip("the sevenbridge script is not installed next to this Python")
    return [str(script)]


def test_installed_script_names_itself(capsys: pytest.CaptureFixture[str]) -> None:
    result = subprocess.run([*_script(), "demo", "--players", "9"], capture_output=True, text=True)
    assert result.returncode == 2
    assert result.stderr.startswith("usage: sevenbridge demo")
    result = subprocess.run(
        [sys.executable, "-m", "sevenbridge", "--help"], capture_output=True, text=True
    )
    assert result.stdout.startswith("usage: python -m sevenbridge")


@pytest.mark.parametrize("how", ["script", "module"])
def test_a_closed_pipe_is_not_an_error(how: str) -> None:
    argv = _script() if how == "script" else [sys.executable, "-m", "sevenbridge"]
    proc = subprocess.Popen(
        [*argv, "demo", "--match", "--players", "4"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # like `| head`: the reader goes away before the output comes
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 0
    assert err == ""


def test_the_cli_page_shows_real_output(capsys: pytest.CaptureFixture[str]) -> None:
    page = (Path(__file__).resolve().parent.parent / "docs" / "howto" / "cli.md").read_text("utf-8")
    assert main(["demo"]) == 0
    out = capsys.readouterr().out.splitlines()
    blocks = page.split("```text")[2:]  # the first block is the synopsis
    shown = [line for block in blocks for line in block.split("```")[0].splitlines()]
    shown = [line for line in shown if line.strip() and not line.startswith("$") and line != "..."]
    assert len(shown) > 10
    for line in shown:
        assert line in out, line
