"""The command line: the demo plays for every preset and player count; the play
loop reads any line and saves its record or says why not (without a terminal:
tests/test_play.py drives one); every command takes every seed; help texts."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sevenbridge import Rules, deal, replay, replay_match
from sevenbridge.cli import main

from .budgets import THOROUGH


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


def test_the_demo_names_each_card_drawn_and_whose_turn_a_pon_skips(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Every hand is shown in the demo, so a draw names its card (the card then
    shows in the drawer's next line of play); a pon that jumps over a seat says so."""
    assert main(["demo", "--ascii"]) == 0
    out = capsys.readouterr().out
    draws = [line.strip() for line in out.splitlines() if " draws " in line]
    assert draws and all(
        line.split(" draws ")[1] not in ("", "from the stock") for line in draws
    ), draws[:3]
    assert "P1 calls pon on 3H with 3C 3S (play goes on from P1: P0 skipped)" in out
    state = deal(seed=72)
    from sevenbridge import Draw, apply
    from sevenbridge.text import move_words

    drawn = apply(state, Draw(1))
    new = (set(drawn.hand(1)) - set(state.hand(1))).pop()
    assert move_words(state, Draw(1), drawn, face_up=True, symbols=False) == f"P1 draws {new}"
    assert move_words(state, Draw(1), drawn, symbols=False) == "P1 draws from the stock"


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


# --- the play loop reads any line, and saves or says why not ------------------------------
def _games() -> list[Any]:
    """A Seven Bridge and a Simple Mahjong play loop, each at the person's decision."""
    import io

    from sevenbridge import mahjong
    from sevenbridge.cli.play import CardPart, _Style
    from sevenbridge.cli.play_mahjong import MahjongPart
    from sevenbridge.cli.seat import Game

    card = deal(seed=72)
    tiles = mahjong.deal(seed=72)
    return [
        Game(card, 1, {}, CardPart(_Style(False, False)), io.StringIO(), io.StringIO()),
        Game(tiles, 0, {}, MahjongPart(), io.StringIO(), io.StringIO()),
    ]


def test_why_takes_a_moves_full_text_in_both_games() -> None:
    """``why`` (and playing) read a move as records write it, with the tiles a
    pung or a win claims: "Pung 3p" is the pung of the open 3p."""
    import io

    from sevenbridge import mahjong
    from sevenbridge.cli.play_mahjong import MahjongPart
    from sevenbridge.cli.seat import Game

    for seed in range(200):
        state = mahjong.deal(seed=seed)
        while not state.is_over and not any(
            isinstance(a, mahjong.Pung) for a in mahjong.legal_actions(state)
        ):
            state = mahjong.apply(state, mahjong.legal_actions(state)[-1])
        if not state.is_over:
            break
    else:
        pytest.fail("no pung in 200 deals")
    seat, tile = state.current_player, state.last_discard
    game = Game(state, seat, {}, MahjongPart(), io.StringIO(), io.StringIO())
    actions = game.part.legal_actions(state)
    for text in (f"Pung {tile}", f"pung {tile}{tile}{tile}", f"P{seat} Pung {tile}", "Pung"):
        assert game.parse(text, actions) == mahjong.Pung(seat), text
    assert isinstance(game.parse("Pung 9z", actions), str)
    other = "1m" if str(tile) != "1m" else "2m"
    assert isinstance(game.parse(f"Pung {other}", actions), str)
    card = _games()[0]
    card_actions = card.part.legal_actions(card.state)
    assert card.parse(f"P1 {card_actions[0]}", card_actions) == card_actions[0]


@pytest.mark.parametrize("text", ["²", "٣", "1²", "9" * 5000, "1" + "0" * 4999])
def test_play_reads_odd_digits_and_long_numbers(text: str) -> None:
    for game in _games():
        actions = game.part.legal_actions(game.state)
        answer = game.parse(text, actions)
        assert isinstance(answer, str)
        assert "There is no move" in answer or "I did not understand" in answer
        assert len(answer) < 200


def test_play_a_long_number_of_a_real_move() -> None:
    for game in _games():
        actions = game.part.legal_actions(game.state)
        assert game.parse("0001", actions) == actions[0]
        assert game.parse("0" * 4999 + "1", actions) == actions[0]


@THOROUGH
@given(st.text(max_size=30))
def test_play_parse_answers_any_line(text: str) -> None:
    for game in _games():
        actions = game.part.legal_actions(game.state)
        answer = game.parse(text, actions)
        assert isinstance(answer, str) or answer in actions


@pytest.mark.parametrize("game", ["sevenbridge", "mahjong"])
@pytest.mark.parametrize("where", ["missing/game.txt", "."])
def test_play_refuses_a_record_file_it_cannot_write(
    tmp_path: Path, game: str, where: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from sevenbridge.cli import main

    with pytest.raises(SystemExit) as stop:
        main(["play", "--game", game, "--record", str(tmp_path / where)])
    assert stop.value.code == 2
    error = capsys.readouterr().err
    assert "argument --record:" in error
    assert ("is a folder" if where == "." else "no folder") in error
    assert "Traceback" not in error


def test_play_says_when_a_record_cannot_be_saved(tmp_path: Path) -> None:
    for game in _games():
        game.save_to = str(tmp_path)  # a folder: open() fails
        assert not game.save()
        assert f"Could not save the record to {tmp_path}" in game.out.getvalue()
        game.save_to = str(tmp_path / "ok.txt")
        assert game.save()
        assert (tmp_path / "ok.txt").read_text(encoding="utf-8").startswith("[Game ")


def test_play_quit_asks_again_after_a_failed_save(tmp_path: Path) -> None:
    import io

    game = _games()[0]
    game.inp = io.StringIO(f"y\n{tmp_path}\n{tmp_path / 'second.txt'}\n")
    game.quit()
    said = game.out.getvalue()
    assert "Could not save the record" in said and "Record saved to" in said
    assert (tmp_path / "second.txt").exists()


@pytest.mark.parametrize("pause", ["-1", "nan", "inf", "61"])
def test_play_refuses_a_pause_it_cannot_wait(
    pause: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from sevenbridge.cli import main

    assert main(["play", "--pause", pause]) == 2
    assert f"--pause must be from 0 to 60 seconds, not {pause}" in capsys.readouterr().err


# --- every command takes every seed; help; outputs checked before a deal ------------------
_SEEDED = [
    ["demo", "--quiet"],
    ["demo", "--game", "mahjong", "--players", "2", "--quiet"],
    ["play"],
    ["play", "--game", "mahjong"],
    ["tournament", "--bots", "random,random", "--deals", "2", "--quiet"],
]


@pytest.mark.parametrize("command", _SEEDED, ids=lambda c: " ".join(c[:3]))
@pytest.mark.parametrize("seed", ["-7", str(2**64)])
def test_commands_quote_a_bad_seed_as_given(
    command: list[str], seed: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from sevenbridge.cli import main

    with pytest.raises(SystemExit) as stop:
        main([*command, "--seed", seed])
    assert stop.value.code == 2
    error = capsys.readouterr().err
    assert f"--seed must be from 0 to {2**64 - 1} (seeds are 64-bit), not {seed}\n" in error


@pytest.mark.parametrize("command", _SEEDED, ids=lambda c: " ".join(c[:3]))
@pytest.mark.parametrize("seed", [1_850_000_000_000_000_000, 2**64 - 1])
def test_commands_take_the_largest_seeds(
    command: list[str],
    seed: int,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    import io
    import sys

    from sevenbridge.cli import main

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\nn\n"))
    assert main([*command, "--seed", str(seed)]) == 0
    said = capsys.readouterr()
    assert "error" not in said.err
    assert str(seed) in said.out or "Goodbye." in said.out


def test_bot_seeds_of_the_commands_stay_as_they_were_and_in_range() -> None:
    from sevenbridge._kit.rng import seat_seed

    assert [seat_seed(72, p) for p in range(3)] == [720, 721, 722]
    assert seat_seed(2**64 - 1, 4) == (10 * (2**64 - 1) + 4) % 2**64
    assert all(0 <= seat_seed(s, p) < 2**64 for s in (0, 2**63, 2**64 - 1) for p in range(5))


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("command", ["demo", "play", "tournament", "view"])
def test_help_texts_show_percent_signs_once(
    lang: str, command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from sevenbridge.cli import main

    with pytest.raises(SystemExit) as stop:
        main([command, "--help", "--lang", lang])
    assert stop.value.code == 0
    text = capsys.readouterr().out
    assert "%%" not in text and "%(" not in text
    if command == "tournament":
        assert "95%" in text


@pytest.mark.parametrize("option", ["--csv", "--plot"])
def test_tournament_refuses_an_output_it_could_not_write_before_any_deal(
    option: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from sevenbridge.cli import main

    db = tmp_path / "t.sqlite"
    for target, said in ((tmp_path / "no" / "out", "no folder"), (tmp_path, "is a folder")):
        args = ["tournament", "--bots", "greedy,random", "--deals", "2", "--db", str(db)]
        with pytest.raises(SystemExit) as stopped:  # argparse's usage error
            main([*args, option, str(target), "--quiet"])
        assert stopped.value.code == 2 and said in capsys.readouterr().err
        assert not db.exists()  # refused before the store was opened or a deal played
