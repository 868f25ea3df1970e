"""Tournaments of every game: ``run_tournament(..., game="mahjong")``, its store and CLI."""

from __future__ import annotations

import io
import json
import sqlite3
import sys
from pathlib import Path

import pytest

from sevenbridge import mahjong
from sevenbridge.arena import report, run_tournament
from sevenbridge.cli import main
from sevenbridge.errors import InvalidArgumentError, StoreError

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "external_bot.py"


def test_a_mahjong_tournament_plays_rounds_and_records_them(tmp_path: Path) -> None:
    db = tmp_path / "mj.sqlite"
    result = run_tournament(
        ["greedy", "random"], game="mahjong", deals=4, seed=3, progress=False, db=db
    )
    assert result.game == "mahjong" and result.games == 4
    assert isinstance(result.rules, mahjong.Rules)
    for game in result.results:
        assert len(game.returns) == 2 and abs(sum(game.returns)) < 1e-9
        assert game.end_reason in {"mahjong", "drawn"}
        assert mahjong.replay(game.record)[-1].is_over
    with sqlite3.connect(db) as con:
        held = dict(con.execute("SELECT key, value FROM settings").fetchall())
    assert json.loads(held["game"]) == "mahjong"
    again = run_tournament(
        ["greedy", "random"], game="mahjong", deals=6, seed=3, progress=False, db=db
    )
    assert again.resumed == 2 and again.results[:4] == result.results
    stored = report(db)
    assert stored.game == "mahjong" and stored.rules == result.rules


def test_a_store_of_one_game_refuses_a_run_of_the_other(tmp_path: Path) -> None:
    db = tmp_path / "cards.sqlite"
    run_tournament(["greedy", "random"], deals=2, seed=1, progress=False, db=db)
    with pytest.raises(StoreError, match="holds a tournament of seven_bridge, not mahjong"):
        run_tournament(["greedy", "random"], game="mahjong", deals=2, progress=False, db=db)
    db2 = tmp_path / "mj.sqlite"
    run_tournament(["greedy", "random"], game="mahjong", deals=2, seed=1, progress=False, db=db2)
    with pytest.raises(StoreError, match="holds a tournament of mahjong, not seven_bridge"):
        run_tournament(["greedy", "random"], deals=2, seed=1, progress=False, db=db2)


def test_a_card_store_from_before_games_were_recorded_still_resumes(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite"
    first = run_tournament(["greedy", "random"], deals=2, seed=1, progress=False, db=db)
    with sqlite3.connect(db) as con:
        con.execute("DELETE FROM settings WHERE key = 'game'")
    again = run_tournament(["greedy", "random"], deals=4, seed=1, progress=False, db=db)
    assert again.resumed == 1 and again.results[:2] == first.results


def test_a_mahjong_table_with_ghosts_seats_the_bots_at_real_seats() -> None:
    rules = mahjong.Rules(ghosts=True)
    result = run_tournament(
        ["greedy", "random", "greedy"], rules, game="mahjong", deals=3, seed=2, progress=False
    )
    assert all(len(g.returns) == 3 for g in result.results)


def test_bad_game_and_table_sizes_are_refused() -> None:
    with pytest.raises(InvalidArgumentError, match="no game named"):
        run_tournament(["greedy", "random"], game="go", progress=False)
    with pytest.raises(InvalidArgumentError):
        run_tournament(["greedy"] * 5, game="mahjong", progress=False)
    with pytest.raises(TypeError, match="mahjong Rules"):
        from sevenbridge import Rules

        run_tournament(["greedy", "random"], Rules(), game="mahjong", progress=False)


def test_an_external_bot_is_told_the_game(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    bot = tmp_path / "bot.py"
    bot.write_text(
        "import json, sys\n"
        f"log = open({str(log)!r}, 'a')\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    log.write(line); log.flush()\n"
        "    if m['type'] == 'hello':\n"
        "        print(json.dumps({'type': 'ready', 'name': 't', 'protocol': m['protocol'],"
        " 'version': m['version']}), flush=True)\n"
        "    elif m['type'] == 'decide':\n"
        "        print(json.dumps({'type': 'action', 'action': m['legal'][-1]}), flush=True)\n"
        "    elif m['type'] == 'quit':\n"
        "        break\n",
        encoding="utf-8",
    )
    result = run_tournament(
        [f"cmd:{sys.executable} {bot}", "greedy"], game="mahjong", deals=2, progress=False
    )
    assert all(g.failure is None for g in result.results)
    messages = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    deals = [m for m in messages if m["type"] == "deal"]
    assert deals and all(m["game"] == "mahjong" for m in deals)
    assert any(m["type"] == "end" and m["reason"] in {"mahjong", "drawn"} for m in messages)


def test_the_tournament_command_plays_mahjong_into_a_store(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite"
    argv = [
        "tournament", "--game", "mahjong", "--bots", "ismcts:iterations=4,greedy,greedy,random",
        "--players", "4", "--deals", "12", "--db", str(db), "--quiet",
    ]  # fmt: skip
    out = io.StringIO()
    sys_out, sys.stdout = sys.stdout, out
    try:
        assert main(argv) == 0
        assert main(["tournament", "--report", str(db)]) == 0
    finally:
        sys.stdout = sys_out
    text = out.getvalue()
    assert "Tournament: mahjong standard rules, 4 players" in text
    assert "ismcts:iterations=4" in text
    assert "Tournament in" in text and "mahjong" in text
