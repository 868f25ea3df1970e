"""Any player in a tournament: (label, factory) pairs, py:module:factory bots,
fresh bots per deal (fair) and bots in processes of their own (isolate)."""

from __future__ import annotations

import json
import sqlite3
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from sevenbridge import Rules
from sevenbridge.arena import import_factory, make_bot, report, run_tournament
from sevenbridge.bots import GreedyPlayer, Player
from sevenbridge.cli import main
from sevenbridge.errors import InvalidArgumentError, StoreError

from . import seat_bots

#: What these tests check does not depend on the engine's build (see pyproject.toml).
pytestmark = pytest.mark.build_independent


def _games(result: Any) -> list[tuple[Any, ...]]:
    """What was played: each deal's seating, winner, scores and record."""
    return [(g.seating, g.winner, g.scores, g.record) for g in result.results]


def test_a_factory_plays_the_games_of_the_bot_it_makes() -> None:
    mine = run_tournament([("mine", seat_bots.greedy), "random", "random"], Rules.nintendo(),
                          deals=9, seed=4, progress=False)  # fmt: skip
    built_in = run_tournament(["greedy", "random", "random"], Rules.nintendo(), deals=9, seed=4,
                              progress=False)  # fmt: skip
    assert _games(mine) == _games(built_in)
    assert sorted(mine.bots) == ["mine", "random"]
    assert {g.bots.count("mine") for g in mine.results} == {1}
    assert mine.specs == {"mine": "py:tests.seat_bots:greedy"}
    assert mine.fair is True and built_in.fair is False  # a Python bot: fair by default
    assert "mine: py:tests.seat_bots:greedy" in mine.table()
    assert mine.bots["mine"].wins == built_in.bots["greedy"].wins


def test_a_class_is_a_factory_and_a_label_may_fill_two_seats() -> None:
    result = run_tournament([("g", GreedyPlayer), ("g", GreedyPlayer), "random"], deals=6,
                            seed=2, progress=False)  # fmt: skip
    assert result.bots["g"].seats == 2 and result.specs == {"g": "py:sevenbridge.bots:GreedyPlayer"}
    again = run_tournament(["greedy", "greedy", "random"], deals=6, seed=2, progress=False)
    assert _games(result) == _games(again)


def test_a_py_bot_is_imported_by_its_module_path() -> None:
    result = run_tournament(["py:tests.seat_bots:greedy", "random"], deals=4, seed=1,
                            progress=False)  # fmt: skip
    assert _games(result) == _games(
        run_tournament(["greedy", "random"], deals=4, seed=1, progress=False)
    )
    assert sorted(result.bots) == ["py:tests.seat_bots:greedy", "random"] and result.fair
    found: object = import_factory("py:tests.seat_bots:Counted.__call__")
    assert found is seat_bots.Counted.__call__
    assert isinstance(make_bot("py:sevenbridge.bots:GreedyPlayer", 3), GreedyPlayer)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("py:", "name a Python bot as py:package.module:factory"),
        ("py:tests.seat_bots", "name a Python bot as py:package.module:factory"),
        ("py:tests/seat_bots.py:greedy", "name a Python bot as py:package.module:factory"),
        ("py:tests.no_such_module:greedy", "no module 'tests.no_such_module' on the Python path"),
        ("py:no_such_package.bots:make", "no module 'no_such_package.bots' on the Python path"),
        ("py:tests.seat_bots:nobody", "module 'tests.seat_bots' has no 'nobody'"),
        ("py:tests.seat_bots:NOT_CALLABLE", "'NOT_CALLABLE' is int, not a factory"),
    ],
)
def test_a_py_bot_that_cannot_be_found_is_refused_at_once(spec: str, message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        run_tournament([spec, "greedy"], deals=2, seed=1, progress=False)
    with pytest.raises(InvalidArgumentError, match=message):
        make_bot(spec, 1)


def test_a_module_that_lacks_what_it_imports_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "needs_more.py").write_text("import no_such_dependency\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(InvalidArgumentError, match=r"importing 'needs_more' failed: No module"):
        import_factory("py:needs_more:make")


def test_a_factory_that_makes_no_player_is_refused() -> None:
    with pytest.raises(InvalidArgumentError, match="bot 'odd': its factory returned int, not a "
                       "Player"):  # fmt: skip
        odd: list[Any] = [("odd", seat_bots.not_a_player), "greedy"]
        run_tournament(odd, deals=2, seed=1, progress=False)
    with pytest.raises(InvalidArgumentError, match="its factory returned int"):
        make_bot("py:tests.seat_bots:not_a_player", 1)


def test_labels_are_checked() -> None:
    def other(seed: int) -> Player:
        return GreedyPlayer(seed)

    with pytest.raises(InvalidArgumentError, match="two different bots are labelled 'me'"):
        run_tournament([("me", GreedyPlayer), ("me", other)], progress=False)
    for label in ("greedy", "ismcts:iterations=5", "cmd:x", "py:a:b", "", " me", "a,b", "a\nb"):
        with pytest.raises(InvalidArgumentError, match="bot label"):
            run_tournament([(label, GreedyPlayer), "random"], progress=False)
    with pytest.raises(TypeError, match="a factory is callable"):
        run_tournament([("me", 3), "random"], progress=False)  # type: ignore[list-item]
    with pytest.raises(TypeError, match=r"a name \(a string\) or a \(label, factory\) pair"):
        run_tournament([("me", GreedyPlayer, 1), "random"], progress=False)  # type: ignore[list-item]


def test_workers_play_a_module_level_factory_and_refuse_a_local_one() -> None:
    bots: list[Any] = [("mine", seat_bots.greedy), "random"]
    one = run_tournament(bots, deals=8, seed=6, progress=False)
    two = run_tournament(bots, deals=8, seed=6, workers=2, progress=False)
    assert _games(one) == _games(two)

    def local(seed: int) -> Player:
        return GreedyPlayer(seed)

    # One process needs no pickling: a local function, even a lambda, will do.
    assert run_tournament([("local", local), "random"], deals=4, seed=6,
                          progress=False).games == 4  # fmt: skip
    for factory in (local, lambda seed: GreedyPlayer(seed)):
        with pytest.raises(InvalidArgumentError, match=r"bot 'local': its factory cannot be sent "
                           r"to worker processes .*define it at a module's top level"):  # fmt: skip
            run_tournament([("local", factory), "random"], deals=4, workers=2, progress=False)


def test_the_store_keeps_the_label_and_the_factory_behind_it(tmp_path: Path) -> None:
    db = tmp_path / "labels.sqlite"
    first = run_tournament([("mine", seat_bots.greedy), "random"], deals=4, seed=5, db=db,
                           progress=False)  # fmt: skip
    settings = dict(sqlite3.connect(db).execute("SELECT key, value FROM settings"))
    assert json.loads(settings["bots"]) == ["mine", "random"]
    assert json.loads(settings["specs"]) == {"mine": "py:tests.seat_bots:greedy"}
    again = run_tournament([("mine", seat_bots.greedy), "random"], deals=8, seed=5, db=db,
                           progress=False)  # fmt: skip
    assert again.resumed == 2 and _games(again)[:4] == _games(first)
    shown = report(db)
    assert shown.specs == {"mine": "py:tests.seat_bots:greedy"}
    assert shown.table() == again.table()
    # Another factory behind the same label is another tournament: refused.
    with pytest.raises(StoreError, match=r"specs: the database has .*seat_bots:greedy.*this run "
                       r".*sevenbridge.bots:GreedyPlayer"):  # fmt: skip
        run_tournament([("mine", GreedyPlayer), "random"], deals=8, seed=5, db=db,
                       progress=False)  # fmt: skip
    # A store without factory bots has no such setting, as before.
    plain = tmp_path / "plain.sqlite"
    run_tournament(["greedy", "random"], deals=2, seed=5, db=plain, progress=False)
    assert "specs" not in dict(sqlite3.connect(plain).execute("SELECT key, value FROM settings"))


def test_a_damaged_specs_setting_is_reported(tmp_path: Path) -> None:
    db = tmp_path / "specs.sqlite"
    run_tournament([("mine", seat_bots.greedy), "random"], deals=2, seed=5, db=db,
                   progress=False)  # fmt: skip
    con = sqlite3.connect(db)
    con.execute("UPDATE settings SET value = ? WHERE key = 'specs'", (json.dumps({"x": 1}),))
    con.commit()
    con.close()
    with pytest.raises(StoreError, match=r"specs.*the import path of each factory bot"):
        report(db)


def test_mahjong_seats_factories_too() -> None:
    mine = run_tournament([("mine", seat_bots.greedy), "random"], game="mahjong", deals=2,
                          seed=3, progress=False)  # fmt: skip
    built_in = run_tournament(["greedy", "random"], game="mahjong", deals=2, seed=3,
                              progress=False)  # fmt: skip
    assert _games(mine) == _games(built_in) and mine.game == "mahjong"
    isolated = run_tournament([("mine", seat_bots.greedy), "random"], game="mahjong", deals=2,
                              seed=3, isolate=True, progress=False)  # fmt: skip
    assert _games(isolated) == _games(built_in)


# -- fair: a fresh Python bot for every deal ----------------------------------------


def test_fair_makes_a_python_bot_afresh_for_every_deal() -> None:
    bots: list[Any] = [("counted", seat_bots.counted), "greedy"]
    seat_bots.MADE.clear()
    run_tournament(bots, deals=6, seed=2, progress=False)  # fair by default
    assert [bot.deals for bot in seat_bots.MADE] == [1] * 6
    seat_bots.MADE.clear()
    run_tournament(bots, deals=6, seed=2, fair=False, progress=False)
    assert [bot.deals for bot in seat_bots.MADE] == [2] * 3  # one bot per deck


# -- isolate: a process of its own ------------------------------------------------


def _processes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, **options: Any) -> list[int]:
    """How many deals each process that made the logged bot played (one bot a deal)."""
    log = tmp_path / "pids.log"
    log.write_text("")
    monkeypatch.setenv("SEAT_BOTS_LOG", str(log))
    bots: list[Any] = [("logged", seat_bots.logged), "random"]
    result = run_tournament(bots, deals=4, seed=3, progress=False, **options)
    assert [g.failure for g in result.results] == [None] * 4
    assert _games(result) == _games(
        run_tournament(["greedy", "random"], deals=4, seed=3, progress=False)
    )
    return sorted(Counter(log.read_text().split()).values())


def test_an_isolated_bot_plays_each_deal_in_a_process_of_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _processes(tmp_path, monkeypatch) == [4]  # in the tournament's process
    assert _processes(tmp_path, monkeypatch, isolate=True) == [1, 1, 1, 1]
    # Without fair, one process for each deck (which makes a bot for each deal).
    assert _processes(tmp_path, monkeypatch, isolate=True, fair=False) == [2, 2]


def test_an_isolated_py_bot_is_imported_only_in_its_own_process(tmp_path: Path) -> None:
    (tmp_path / "loud_bot.py").write_text(
        "import os\n"
        "from sevenbridge.bots import GreedyPlayer\n"
        f"open({str(tmp_path / 'imported')!r}, 'a').write(str(os.getpid()) + '\\n')\n"
        "def make(seed):\n"
        "    return GreedyPlayer(seed)\n"
    )
    sys.path.insert(0, str(tmp_path))
    try:
        result = run_tournament(["py:loud_bot:make", "random"], deals=2, seed=1, isolate=True,
                                progress=False)  # fmt: skip
    finally:
        sys.path.remove(str(tmp_path))
    assert "loud_bot" not in sys.modules
    pids = (tmp_path / "imported").read_text().split()
    assert len(pids) == 3 and str(__import__("os").getpid()) not in pids  # the check, 2 deals
    assert [g.failure for g in result.results] == [None, None]


def test_an_isolated_bot_that_fails_is_reported(tmp_path: Path) -> None:
    # A module that is not there: the bot's own process says so, and the run stops.
    from sevenbridge.errors import ExternalBotError

    with pytest.raises(ExternalBotError, match=r"external bot 'py:tests\.nowhere:make' exited "
                       r"with status 2; .*no module 'tests\.nowhere' on the Python path"):  # fmt: skip
        run_tournament(["py:tests.nowhere:make", "random"], deals=2, seed=1, isolate=True,
                       progress=False)  # fmt: skip
    # A factory that makes no Player: each of its deals is forfeited, with the reason.
    odd: list[Any] = [("odd", seat_bots.not_a_player), "random"]
    result = run_tournament(odd, deals=2, seed=1, isolate=True, progress=False)
    failures = [g.failure or "" for g in result.results]
    assert all("its factory returned int, not a Player" in f for f in failures), failures


def test_an_isolated_factory_must_be_importable_by_another_process(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def local(seed: int) -> Player:
        return GreedyPlayer(seed)

    with pytest.raises(InvalidArgumentError, match="cannot be sent to a process of its own"):
        run_tournament([("local", local), "random"], isolate=True, progress=False)
    # A function of the script being run pickles (by name), but no other process has it.
    local.__module__ = "__main__"
    local.__qualname__ = "local"
    monkeypatch.setattr(sys.modules["__main__"], "local", local, raising=False)
    with pytest.raises(InvalidArgumentError, match="defined in the script being run"):
        run_tournament([("local", local), "random"], isolate=True, progress=False)


# -- the command line ---------------------------------------------------------------


def test_py_bots_on_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "my_bot.py").write_text(
        "from sevenbridge.bots import GreedyPlayer\n\ndef make(seed):\n    return GreedyPlayer(seed)\n"
    )
    monkeypatch.chdir(tmp_path)  # a bot's module beside you, as python -m finds it
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    args = ["tournament", "--bots", "py:my_bot:make,random", "--deals", "4", "--seed", "2",
            "--quiet"]  # fmt: skip
    assert main([*args, "--db", "t.sqlite"]) == 0
    out = capsys.readouterr().out
    assert "py:my_bot:make  4" in out
    assert main([*args, "--isolate"]) == 0
    isolated = capsys.readouterr().out
    assert "py:my_bot:make  4" in isolated
    assert [line.split()[:3] for line in isolated.splitlines()[3:5]] == [
        line.split()[:3] for line in out.splitlines()[3:5]
    ]
    assert report(tmp_path / "t.sqlite").fair is True
    with pytest.raises(SystemExit):
        main(["tournament", "--bots", "py:my_bot:nothing,random", "--deals", "2"])
    assert "bot 'py:my_bot:nothing': module 'my_bot' has no 'nothing'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["tournament", "--bots", "py:my_bot:nothing,random", "--deals", "2", "--lang", "ja"])
    err = capsys.readouterr().err
    assert "my_bot" in err and "has no" not in err
