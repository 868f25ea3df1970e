"""The command line with ``--lang ja``: help, argparse's errors, the library's errors
and every command's output in Japanese; English stays the default."""

from __future__ import annotations

import argparse
import gettext
import re
from pathlib import Path

import pytest

from sevenbridge.cli import argparse_language, lang_of, main, parser

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
COMMANDS = ("demo", "play", "view", "tournament", "ladder", "serve", "bot-check", "schema")


def _subparsers(top: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in top._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    raise AssertionError("no subcommands")


def test_every_help_text_is_in_japanese() -> None:
    with argparse_language("ja"):
        top = parser("sevenbridge", "ja")
    commands = _subparsers(top)
    assert set(commands) == set(COMMANDS)
    texts = [top.description or ""]
    for command in commands.values():
        texts.append(command.description or "")
        texts += [a.help for a in command._actions if a.help and a.help != argparse.SUPPRESS]
    for action in top._actions:
        if isinstance(action, argparse._SubParsersAction):
            texts += [c.help or "" for c in action._choices_actions]
    assert len(texts) > 40
    untranslated = [t for t in texts if not JAPANESE.search(t)]
    assert not untranslated, untranslated


@pytest.mark.parametrize("command", COMMANDS)
def test_help_in_japanese(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main([command, "--help", "--lang", "ja"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("使い方：")
    assert "このヘルプを表示して終わります" in out and "言語（enかja）" in out
    # argparse is given back its own English afterwards.
    assert argparse._ is gettext.gettext  # type: ignore[attr-defined]
    with pytest.raises(SystemExit):
        main([command, "--help"])
    english = capsys.readouterr().out
    assert english.startswith("usage:") and "show this help message and exit" in english
    assert not JAPANESE.search(english.replace("セブンブリッジ", ""))


def test_top_level_help_in_japanese(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help", "--lang=ja"])
    out = capsys.readouterr().out
    assert "位置引数" in out and "コマンドラインで" in out and "--lang ja" in out


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["demo", "--players", "9"], ["引数--players", "選べない値です：9"]),
        (["demo", "--seed", "x"], ["引数--seed", "intとして正しくない値です：'x'"]),
        (["demo", "--bogus"], ["認識できない引数です：--bogus"]),
        (["view", "-o", "x.html"], ["次の引数が必要です：record"]),
        (["tournament", "--bots", "greedy,nosuch"], ["不明なボット「nosuch」"]),
        (["tournament"], ["--botsでボットを指定してください"]),
        (["tournament", "--bots", "greedy,greedy", "--workers", "0"], ["workersは1から1024"]),
    ],
)
def test_errors_in_japanese(
    argv: list[str], words: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as info:
        main([*argv, "--lang", "ja"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "エラー：" in err and "Traceback" not in err
    for word in words:
        assert word in err, err
    assert "error:" not in err and "usage:" not in err


def test_a_library_error_stays_english_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["tournament", "--bots", "greedy,nosuch"])
    err = capsys.readouterr().err
    assert "error: unknown bot 'nosuch'" in err


def test_tournament_in_japanese(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db, csv = tmp_path / "t.db", tmp_path / "t.csv"
    argv = ["tournament", "--bots", "greedy,random", "--deals", "2", "--quiet", "--db", str(db),
            "--seed", "0"]  # fmt: skip
    assert main([*argv, "--csv", str(csv), "--lang", "ja"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("大会：標準ルール、2人、シード0、")
    assert out[1].split() == ["ボット", "席ゲーム数", "勝ち", "勝率", "[95%]", "平均リターン",
                              "[95%]", "得点/ディール", "ミリ秒/手", "[最大]", "CPUミリ秒/手",
                              "[最大]"]  # fmt: skip
    # Columns line up in a terminal, where a Japanese character is two columns wide.
    from sevenbridge._kit.i18n import width

    assert width(out[1].split("席")[0]) == len(out[2].split()[0]) + 2
    assert "2ディール（1デッキ×2通りの座り方）、2人。公平な勝率は0.500" in out[5]
    assert out[6] == f"2ディールを{csv}に書き出しました"
    assert main(["tournament", "--report", str(db), "--lang", "ja"]) == 0
    report = capsys.readouterr().out
    assert report.startswith(f"{db}の大会：標準ルール、2人、シード0")
    assert main(["tournament", "--report", str(db)]) == 0
    assert capsys.readouterr().out.startswith(f"Tournament in {db}: standard rules")


def test_view_in_japanese(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text('[Players "3"]\n[Seed "1"]\nP0 Draw\n', encoding="utf-8")
    assert main(["view", str(bad), "-o", str(tmp_path / "x.html"), "--lang", "ja"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"sevenbridge view: {bad}: ") and "行" in err and JAPANESE.search(err)
    good = tmp_path / "good.txt"
    assert main(["demo", "--quiet", "--record", str(good)]) == 0
    capsys.readouterr()
    assert main(["view", str(good), "-o", str(tmp_path / "g.html"), "--lang", "ja"]) == 0
    assert capsys.readouterr().out == f"{tmp_path / 'g.html'}を書き出しました\n"


def test_play_refuses_bad_values_in_japanese(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--seat", "7", "--lang", "ja"]) == 2
    assert "--seat" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["play", "--players", "8", "--lang", "ja"])
    assert "選べない値です：8" in capsys.readouterr().err


def test_lang_of() -> None:
    assert lang_of(["demo", "--lang", "ja"]) == "ja"
    assert lang_of(["--lang=ja", "demo"]) == "ja"
    assert lang_of(["demo"]) == "en"
    assert lang_of(["demo", "--lang", "xx"]) == "en"  # argparse then refuses it, in English
    assert lang_of(["demo", "--", "--lang", "ja"]) == "en"
    assert lang_of(["demo", "--lang"]) == "en"


def test_mahjong_demo_in_japanese(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--game", "mahjong", "--players", "3", "--lang", "ja"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("シンプル麻雀：標準ルール、3人、16局、シード72")
    assert "第16局／全16局" in out and "累計：" in out and ("和了" in out or "流局" in out)
    # Left in Latin letters: the suited tiles (22s); the honours are written 東 南 西 北 白 發 中.
    words = re.findall(r"[A-Za-z]{2,}", out)
    assert not [w for w in words if not re.fullmatch(r"[0-9]*[mpsf]", w)], set(words)
    assert main(["demo", "--game", "mahjong", "--rules", "nintendo", "--lang", "ja"]) == 2
    assert "麻雀のプリセット「nintendo」はありません" in capsys.readouterr().err
    assert main(["demo", "--game", "mahjong", "--players", "5", "--lang", "ja"]) == 2
    assert "麻雀は2人から4人で遊びます" in capsys.readouterr().err


def test_tournament_help_gives_the_ismcts_bots_default_budget(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from sevenbridge.arena import ISMCTS_ITERATIONS, ISMCTS_SECONDS

    for lang, words in (
        ("en", "default for ismcts: {} iterations, at most {} s of processor time a decision"),
        ("ja", "ismctsの既定は{}回、一手に処理時間{}秒まで"),
    ):
        with pytest.raises(SystemExit):
            main(["tournament", "--help", "--lang", lang])
        out = "".join(capsys.readouterr().out.split())  # argparse wraps the help
        assert "".join(words.format(ISMCTS_ITERATIONS, ISMCTS_SECONDS).split()) in out
