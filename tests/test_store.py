"""The results store against what a file can really be: damaged, truncated,
foreign, newer, read-only, locked, or shared by two runs at once.

Every case either works or fails with a :class:`StoreError` that names the
file; through the command line, with one line and exit status 2.
"""

from __future__ import annotations

import ctypes
import io
import os
import pickle
import random
import re
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from sevenbridge import _store
from sevenbridge._kit.i18n import translate
from sevenbridge.arena import (
    GameResult,
    StoreError,
    TournamentResult,
    export_csv,
    report,
    run_tournament,
)
from sevenbridge.cli import main

#: What these tests check does not depend on the engine's build (see pyproject.toml).
pytestmark = pytest.mark.build_independent

BOTS = ["greedy", "random"]
SEED = 3
DEALS = 8  # 4 decks of 2 seatings
FLIPS = 40


def _tournament(
    db: Path, deals: int = DEALS, on_games: Callable[[list[GameResult]], None] | None = None
) -> TournamentResult:
    return run_tournament(BOTS, deals=deals, seed=SEED, db=db, progress=False, on_games=on_games)


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """The bytes of a store written by a small real tournament."""
    db = tmp_path_factory.mktemp("store") / "pristine.sqlite"
    _tournament(db)
    assert not Path(f"{db}-wal").exists()  # all of it is in the file
    return db.read_bytes()


def _copy(tmp_path: Path, data: bytes, name: str = "damaged.sqlite") -> Path:
    db = tmp_path / name
    db.write_bytes(data)
    return db


def _exercise(db: Path) -> dict[str, str]:
    """Report, export and resume the store at ``db``: each works (``"ok"``) or
    raises a StoreError naming the file on one line (its message code); any
    other exception fails the test."""
    actions: dict[str, Callable[[], object]] = {
        "report": lambda: report(db),
        "csv": lambda: export_csv(db, io.StringIO()),
        "resume": lambda: _tournament(db),
    }
    outcomes = {}
    for name, action in actions.items():
        before = db.read_bytes()
        try:
            action()
        except StoreError as error:
            assert db.read_bytes() == before  # a refused file is left as it was
            text = str(error)
            assert text.startswith(str(db)), text
            assert "\n" not in text, text
            assert error.detail is not None
            assert str(pickle.loads(pickle.dumps(error))) == text
            assert translate(error, "ja")  # every message has its Japanese
            outcomes[name] = error.detail.code
        else:
            outcomes[name] = "ok"
    return outcomes


# -- the file is cut short, or its bytes flipped --------------------------------


@pytest.mark.parametrize("cut", [0, 1, 50, 99, 100, 512, 4096, 4097, -8192, -4096, -1])
def test_a_truncated_store(tmp_path: Path, pristine: bytes, cut: int) -> None:
    db = _copy(tmp_path, pristine[:cut] if cut else b"")
    outcomes = _exercise(db)
    if cut == 0:  # an empty file is an empty database: a new store
        assert outcomes == {
            "report": "store.holds_no_tournament",
            "csv": "store.holds_no_tournament",
            "resume": "ok",
        }
    elif 50 <= cut <= len(pristine) - 4096 or cut == -4096:
        assert outcomes["report"] != "ok"  # missing pages are noticed


def test_flipped_bytes_in_the_data_pages(tmp_path: Path, pristine: bytes) -> None:
    rng = random.Random(2024)
    refused = 0
    for case in range(FLIPS):
        data = bytearray(pristine)
        for _ in range(rng.randint(1, 8)):
            data[rng.randrange(4096, len(data))] ^= rng.randint(1, 255)
        outcomes = _exercise(_copy(tmp_path, bytes(data), f"flipped{case}.sqlite"))
        refused += outcomes["report"] != "ok"
    assert refused >= FLIPS // 4  # the damage is real: many copies are refused


# -- whole files that are not a store -------------------------------------------


def _foreign_sqlite(path: Path) -> None:
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE people (name TEXT, born INTEGER)")
    con.execute("INSERT INTO people VALUES ('Ada', 1815)")
    con.commit()
    con.close()


@pytest.mark.parametrize(
    ("kind", "code"),
    [
        ("random bytes", "store.not_a_database"),
        ("text", "store.not_a_database"),
        ("foreign", "store.foreign"),
        ("header only", "store.not_a_database"),
    ],
)
def test_files_that_are_not_a_store(tmp_path: Path, kind: str, code: str) -> None:
    db = tmp_path / "other.sqlite"
    if kind == "random bytes":
        db.write_bytes(random.Random(1).randbytes(8192))
    elif kind == "text":
        db.write_text("deck,seating,bots\n0,0,greedy random\n" * 200)
    elif kind == "foreign":
        _foreign_sqlite(db)
    else:
        db.write_bytes(b"SQLite format 3\x00" + bytes(4080))
    assert _exercise(db) == {"report": code, "csv": code, "resume": code}


# -- cells set to garbage with sqlite3 itself -------------------------------------

_RECREATE = "CREATE TABLE t AS SELECT * FROM {0}; DROP TABLE {0}; ALTER TABLE t RENAME TO {0}; "
_DAMAGES = [
    # bad JSON, wrong types, values out of range
    ("UPDATE games SET bots = '[' WHERE deck = 1", "store.damaged_deck"),
    ("UPDATE games SET scores = 'null'", "store.damaged_deck"),
    ("UPDATE games SET scores = '[1, 2, 3]'", "store.damaged_deck"),
    ("UPDATE games SET scores = '[100000000000000000000000, 0]'", "store.damaged_deck"),
    ("UPDATE games SET scores = '[1" + "0" * 5000 + ", 0]'", "store.damaged_deck"),
    ("UPDATE games SET returns = '[1e999, 0]'", "store.damaged_deck"),
    ("UPDATE games SET returns = '[NaN, 0]'", "store.damaged_deck"),
    ("UPDATE games SET returns = '" + "[" * 100_000 + "'", "store.damaged_deck"),
    ("UPDATE games SET winner = 9223372036854775807", "store.damaged_deck"),
    ("UPDATE games SET winner = 'x'", "store.damaged_deck"),
    ("UPDATE games SET winner = 1.5", "store.damaged_deck"),
    ("UPDATE games SET winner = 5", "store.damaged_deck"),
    ("UPDATE games SET bots = '[\"greedy\", 5]'", "store.damaged_deck"),
    ("UPDATE games SET bots = '[]'", "store.damaged_deck"),
    ("UPDATE games SET bots = X'FF00'", "store.damaged_deck"),
    ('UPDATE games SET bots = \'["random", "greedy"]\' WHERE deck = 0', "store.damaged_deck"),
    ("UPDATE games SET record = X'FFFE'", "store.damaged_deck"),
    ("UPDATE games SET end_reason = CAST(X'FF' AS TEXT)", "store.damaged_deck"),
    ("UPDATE games SET seating = 7 WHERE deck = 0 AND seating = 1", "store.damaged_deck"),
    ("UPDATE games SET deck = 'x' WHERE deck = 0 AND seating = 0", "store.damaged"),
    ("UPDATE games SET deck = 99 WHERE deck = 0 AND seating = 0", "store.damaged_deck"),
    ("UPDATE games SET decisions = -1", "store.damaged_deck"),
    ("UPDATE games SET decisions = 9223372036854775807", "store.damaged_deck"),
    ("UPDATE games SET decisions = 1e308", "store.damaged_deck"),
    ("UPDATE decks SET games = 5", "store.damaged_deck"),
    ("UPDATE decks SET games = 'many'", "store.damaged_deck"),
    ("UPDATE decks SET games = 0", "store.damaged_deck"),
    ("UPDATE decks SET seconds = 'x'", "store.damaged_deck"),
    ("UPDATE settings SET value = '{' WHERE key = 'seed'", "store.damaged"),
    ("UPDATE settings SET value = '1e400' WHERE key = 'seed'", "store.damaged"),
    ("UPDATE settings SET value = 5 WHERE key = 'rules'", "store.damaged"),
    ("UPDATE settings SET value = X'00' WHERE key = 'players'", "store.damaged"),
    ("UPDATE settings SET value = '9' WHERE key = 'players'", "store.damaged"),
    ("UPDATE settings SET value = '\"[1,2]\"' WHERE key = 'bots'", "store.damaged"),
    ("UPDATE settings SET value = '[1]' WHERE key = 'game'", "store.damaged"),
    ("UPDATE settings SET key = 7 WHERE key = 'seed'", "store.damaged"),
    # NULLs where the store never writes one (after a copy without the constraints)
    (_RECREATE.format("games") + "UPDATE games SET record = NULL", "store.damaged_deck"),
    (_RECREATE.format("games") + "UPDATE games SET bots = NULL", "store.damaged_deck"),
    (_RECREATE.format("decks") + "UPDATE decks SET deck = NULL WHERE deck = 0", "store.damaged"),
    (_RECREATE.format("settings") + "UPDATE settings SET value = NULL", "store.damaged"),
    # rows deleted from one table
    ("DELETE FROM settings WHERE key = 'rules'", "store.damaged"),
    ("DELETE FROM settings", "store.holds_no_tournament"),
    ("DELETE FROM decks WHERE deck = 1", "store.damaged_deck"),
    ("DELETE FROM decks", "store.damaged_deck"),
    ("DELETE FROM games WHERE deck = 1 AND seating = 0", "store.damaged_deck"),
    ("DELETE FROM games", "store.damaged_deck"),
    # our layout with tables or columns missing, or another one
    ("DROP TABLE games", "store.damaged"),
    ("DROP TABLE settings", "store.damaged"),
    ("ALTER TABLE games DROP COLUMN record", "store.damaged"),
    ("ALTER TABLE decks RENAME COLUMN seconds TO took", "store.damaged"),
    ("PRAGMA user_version = 99", "store.newer"),
    ("PRAGMA application_id = 12345", "store.foreign"),
    # harmless: a table of the user's, claims left by runs that are gone
    ("CREATE TABLE notes (text TEXT)", "ok"),
    ("INSERT INTO claims VALUES (2, 'gone', 999999999, 'elsewhere', 1e300)", "ok"),
    ("INSERT INTO claims VALUES (2, 'x', 'y', 'z', 'w')", "ok"),
]


@pytest.mark.parametrize(("sql", "code"), _DAMAGES, ids=[sql[:60] for sql, _ in _DAMAGES])
def test_cells_set_to_garbage(tmp_path: Path, pristine: bytes, sql: str, code: str) -> None:
    db = _copy(tmp_path, pristine)
    con = sqlite3.connect(db)
    con.executescript(sql)
    con.commit()
    con.close()
    outcomes = _exercise(db)
    assert outcomes["report"] == code
    if code == "ok":
        assert outcomes == {"report": "ok", "csv": "ok", "resume": "ok"}


def test_a_store_of_the_first_layout_is_upgraded(tmp_path: Path, pristine: bytes) -> None:
    db = _copy(tmp_path, pristine)
    con = sqlite3.connect(db)
    con.executescript("DROP TABLE claims; PRAGMA user_version = 0; PRAGMA application_id = 0")
    con.close()
    assert report(db).games == DEALS  # read as it is
    assert _tournament(db).resumed == DEALS // 2
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA user_version").fetchone()[0] == _store.STORE_VERSION
    assert con.execute("SELECT COUNT(*) FROM claims").fetchone()[0] == 0
    con.close()


# -- through the command line ----------------------------------------------------


def _one_line_error(argv: list[str], capsys: pytest.CaptureFixture[str], path: Path) -> str:
    with pytest.raises(SystemExit) as stop:
        main(argv, prog="sevenbridge")
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("sevenbridge: error: "), err
    assert str(path) in err
    return err


def test_the_command_shows_one_line(
    tmp_path: Path, pristine: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    run = ["tournament", "--bots", ",".join(BOTS), "--deals", str(DEALS), "--seed", str(SEED),
           "--quiet"]  # fmt: skip
    damaged = []
    for i, sql in enumerate(["UPDATE games SET scores = '[1'", "DROP TABLE games"]):
        db = _copy(tmp_path, pristine, f"d{i}.sqlite")
        con = sqlite3.connect(db)
        con.executescript(sql)
        con.close()
        damaged.append(db)
    text = tmp_path / "notes.txt"
    text.write_text("not a database\n" * 100)
    for db in [*damaged, text]:
        _one_line_error(["tournament", "--report", str(db)], capsys, db)
        _one_line_error(["tournament", "--report", str(db), "--csv", str(tmp_path / "o.csv")],
                        capsys, db)  # fmt: skip
        _one_line_error([*run, "--db", str(db)], capsys, db)
    # and as a real process: no traceback, exit status 2
    done = subprocess.run(
        [sys.executable, "-m", "sevenbridge", *run, "--db", str(damaged[0])],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1
    assert "damaged results database" in done.stderr and str(damaged[0]) in done.stderr


def test_csv_without_a_database_is_refused_before_playing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from sevenbridge.cli import tournament

    played = []
    monkeypatch.setattr(tournament, "run_tournament", lambda *a, **k: played.append(a))
    with pytest.raises(SystemExit) as stop:
        main(["tournament", "--bots", "greedy,random", "--csv", str(tmp_path / "o.csv")])
    assert stop.value.code == 2 and not played
    assert "--csv exports a database: give --db FILE" in capsys.readouterr().err
    # A real process with a million deals to play answers at once.
    start = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "sevenbridge", "tournament", "--bots", "greedy,random",
         "--deals", "1000000", "--quiet", "--csv", str(tmp_path / "o.csv")],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 2 and "give --db FILE" in done.stderr
    assert time.monotonic() - start < 30
    assert not (tmp_path / "o.csv").exists()


# -- read-only and locked ----------------------------------------------------------


def _without_root_powers() -> None:
    """In the child, before it runs Python: give up root's power to write any
    file (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH), so permissions count."""
    libc = ctypes.CDLL(None, use_errno=True)
    for capability in (1, 2):
        if libc.prctl(24, capability, 0, 0, 0) != 0:  # PR_CAPBSET_DROP
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


def _as_user(argv: list[str]) -> subprocess.CompletedProcess[str]:
    """Run the command line in a process to which file permissions apply."""
    root = hasattr(os, "geteuid") and os.geteuid() == 0
    if root and not sys.platform.startswith("linux"):
        pytest.skip("root ignores file permissions here")
    return subprocess.run(
        [sys.executable, "-m", "sevenbridge", *argv],
        capture_output=True, text=True, timeout=120,
        preexec_fn=_without_root_powers if root else None,
    )  # fmt: skip


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")
@pytest.mark.parametrize("what", ["file", "folder"])
def test_a_read_only_store(tmp_path: Path, pristine: bytes, what: str) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    db = _copy(folder, pristine, "results.sqlite")
    run = ["tournament", "--bots", ",".join(BOTS), "--deals", str(DEALS * 2), "--seed", str(SEED),
           "--quiet", "--db", str(db)]  # fmt: skip
    locked = db if what == "file" else folder
    locked.chmod(0o444 if what == "file" else 0o555)
    try:
        refused = _as_user(run)
        shown = _as_user(["tournament", "--report", str(db)])
    finally:
        locked.chmod(0o644 if what == "file" else 0o755)
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    assert refused.stderr.count("\n") == 1, refused.stderr
    assert f"{db}: cannot write the database" in refused.stderr
    assert shown.returncode == 0, shown.stderr  # reading needs no writing
    assert "greedy" in shown.stdout and f"{DEALS} deals" in shown.stdout
    assert db.read_bytes() == pristine


def test_a_locked_store(tmp_path: Path, pristine: bytes, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_store, "BUSY_SECONDS", 0.2)
    db = _copy(tmp_path, pristine)
    writer = sqlite3.connect(db, isolation_level=None)
    writer.execute("BEGIN EXCLUSIVE")  # another program writes: the run cannot
    try:
        with pytest.raises(StoreError, match=re.escape(f"{db}: the database is locked")):
            _tournament(db, deals=DEALS * 2)
        assert report(db).games == DEALS  # a reader is not kept out of a WAL file
    finally:
        writer.execute("ROLLBACK")
        writer.close()
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("PRAGMA locking_mode=EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    holder.execute("COMMIT")  # and keeps the file to itself: nobody may even read
    try:
        with pytest.raises(StoreError, match="locked by another program"):
            report(db)
        with pytest.raises(StoreError, match="locked by another program"):
            _tournament(db)
    finally:
        holder.close()
    assert _exercise(db) == {"report": "ok", "csv": "ok", "resume": "ok"}


# -- two runs on one database ------------------------------------------------------


def _resumed(out: str) -> int:
    """How many decks a run reports it did not play itself."""
    found = re.search(r", (\d+) decks resumed from", out.splitlines()[0])
    return int(found.group(1)) if found else 0


def test_two_runs_started_together_share_a_fresh_database(tmp_path: Path) -> None:
    db = tmp_path / "shared.sqlite"
    bots, deals, seed = "greedy,random,random", 300, 7  # 100 decks of 3 seatings
    command = [sys.executable, "-m", "sevenbridge", "tournament", "--bots", bots,
               "--deals", str(deals), "--seed", str(seed), "--quiet", "--db", str(db)]  # fmt: skip
    runs = [
        subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    outs = [run.communicate(timeout=600) for run in runs]
    for run, (_, err) in zip(runs, outs, strict=True):
        assert run.returncode == 0, err
    decks = 100
    # Every deck stored exactly once, nothing played twice, nothing left claimed.
    con = sqlite3.connect(db)
    assert [d for (d,) in con.execute("SELECT deck FROM decks ORDER BY deck")] == list(range(decks))
    assert con.execute("SELECT COUNT(*), COUNT(DISTINCT deck) FROM games").fetchone() == (
        3 * decks,
        decks,
    )
    assert con.execute("SELECT COUNT(*) FROM claims").fetchone()[0] == 0
    con.close()
    resumed = [_resumed(out) for out, _ in outs]
    assert sum(resumed) == decks  # each deck played by one of them
    assert all(0 < r < decks for r in resumed), resumed  # and both played
    # Both print the whole tournament's table, the same as a run alone.
    alone = run_tournament(bots.split(","), deals=deals, seed=seed, progress=False)
    assert report(db).table(times=False) == alone.table(times=False)
    for out, _ in outs:
        assert report(db).table() in out
    assert report(db).results == alone.results


def test_a_run_waits_for_the_decks_another_run_claimed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The other run is alive (its claim is fresh, its process this one): this
    run plays the rest, waits, and takes the other run's decks from the store."""
    monkeypatch.setattr(_store, "POLL_SECONDS", 0.05)
    db = tmp_path / "results.sqlite"
    _tournament(db, deals=2)  # deck 0 stored
    other = _store.Store(db)
    claimed = list(other.take_decks([1, 2], 2))
    assert claimed == [[1, 2]]
    alone = run_tournament(BOTS, deals=DEALS, seed=SEED, progress=False)

    def finish_later() -> None:
        time.sleep(0.5)
        games = [g for g in alone.results if g.deck in (1, 2)]
        with _store.Store(db) as late:
            late.write_decks([(d, [g.to_row() for g in games if g.deck == d], 0.0) for d in (1, 2)])

    played: list[int] = []
    worker = threading.Thread(target=finish_later)
    worker.start()
    start = time.monotonic()
    result = _tournament(db, on_games=lambda games: played.append(games[0].deck))
    worker.join()
    other.close()
    assert time.monotonic() - start >= 0.5
    assert played == [3] and result.resumed == 3
    assert result.results == alone.results


def test_the_claims_of_a_dead_run_are_taken_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_store, "POLL_SECONDS", 0.05)
    monkeypatch.setattr(_store, "LEASE_SECONDS", 1.0)
    db = tmp_path / "results.sqlite"
    _tournament(db, deals=2)
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)  # fmt: skip
    con = sqlite3.connect(db)
    con.executemany(
        "INSERT INTO claims VALUES (?, ?, ?, ?, ?)",
        [
            (1, "dead", int(gone.stdout), _store._HOST, time.time()),  # its process is gone
            (2, "stalled", os.getpid(), _store._HOST, time.time()),  # its heartbeat stops
        ],
    )
    con.commit()
    con.close()
    played: list[int] = []
    start = time.monotonic()
    result = _tournament(db, on_games=lambda games: played.append(games[0].deck))
    assert sorted(played) == [1, 2, 3] and played[-1] == 2
    assert time.monotonic() - start >= 0.9  # the stalled claim lived out its lease
    alone = run_tournament(BOTS, deals=DEALS, seed=SEED, progress=False)
    assert result.results == alone.results


def test_a_live_run_keeps_its_claims_fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_store, "BEAT_SECONDS", 0.05)
    db = tmp_path / "results.sqlite"
    with _store.Store(db) as store:
        store.start_sharing()
        assert list(store.take_decks([0], 1)) == [[0]]
        con = sqlite3.connect(db)
        first = con.execute("SELECT beat FROM claims").fetchone()[0]
        time.sleep(0.3)
        assert con.execute("SELECT beat FROM claims").fetchone()[0] > first
        store.stop_sharing()  # a run that stops gives its claims up
        assert con.execute("SELECT COUNT(*) FROM claims").fetchone()[0] == 0
        con.close()
