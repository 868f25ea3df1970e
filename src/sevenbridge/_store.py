"""The tournament store: an embedded SQLite database that outlives the run.

Every finished batch of decks (all their seatings) is written in one transaction, in WAL
mode, as it comes back from the workers. The first run writes the
tournament's settings; a later run with the same settings resumes (it plays
only the decks the store lacks), and a run with other settings is refused.

Runs with the same settings may share one database at the same time: each
takes the decks it plays in a transaction (a row of ``claims``, kept fresh by
a heartbeat while the run lives), the others skip them, and every deck is
stored once. A claim whose run died (its process is gone, or its heartbeat
stopped for :data:`LEASE_SECONDS`) is taken over by the next run that looks.

Whatever the file holds, every failure reaches the caller as a
:class:`~sevenbridge.errors.StoreError` that names the file and says what to
do: a file that is not SQLite, a database of another program, a damaged or
truncated one, rows that do not hold what the store writes, a newer layout, a
read-only or locked file.
"""

from __future__ import annotations

import contextlib
import csv
import json
import math
import os
import socket
import sqlite3
import sys
import threading
import time
import uuid
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

from .errors import Message, StoreError, quote

#: The store's own layout version, kept in the file's ``user_version``
#: (1: settings, decks and games; 2: the claims of runs sharing the file;
#: 3: the names the bots gave, the time each seat's bot took).
STORE_VERSION = 3
#: The file's ``application_id``: "7BRG", this library's stores.
APPLICATION_ID = 0x37425247
#: How long a run waits for another one's write before it gives up.
BUSY_SECONDS = 30.0
#: A claim is dead when its run's heartbeat is older than this.
LEASE_SECONDS = 30.0
#: How often a run refreshes its claims.
BEAT_SECONDS = 5.0
#: How often a run that has nothing left to play looks at what the others did.
POLL_SECONDS = 0.5

#: The tables of a store and their columns.
TABLES: dict[str, tuple[str, ...]] = {
    "settings": ("key", "value"),
    "decks": ("deck", "games", "seconds"),
    "games": ("deck", "seating", "bots", "winner", "scores", "returns", "end_reason",
              "decisions", "failure", "record"),
    "claims": ("deck", "run", "pid", "host", "beat"),
    "bots": ("bot", "name"),
    "timings": ("deck", "seating", "seat", "decisions", "wall", "wall_max", "cpu", "cpu_max"),
}  # fmt: skip
#: The tables every store has had (``claims`` came with version 2, ``bots`` and
#: ``timings`` with 3).
_CORE = ("settings", "decks", "games")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS settings (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS decks (
    deck    INTEGER PRIMARY KEY,
    games   INTEGER NOT NULL,
    seconds REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    deck       INTEGER NOT NULL REFERENCES decks (deck),
    seating    INTEGER NOT NULL,
    bots       TEXT NOT NULL,
    winner     INTEGER,
    scores     TEXT NOT NULL,
    returns    TEXT NOT NULL,
    end_reason TEXT NOT NULL,
    decisions  INTEGER NOT NULL,
    failure    TEXT,
    record     TEXT NOT NULL,
    PRIMARY KEY (deck, seating)
);
CREATE TABLE IF NOT EXISTS claims (
    deck INTEGER PRIMARY KEY,
    run  TEXT NOT NULL,
    pid  INTEGER NOT NULL,
    host TEXT NOT NULL,
    beat REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS bots (
    bot  TEXT PRIMARY KEY,
    name TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS timings (
    deck      INTEGER NOT NULL,
    seating   INTEGER NOT NULL,
    seat      INTEGER NOT NULL,
    decisions INTEGER NOT NULL,
    wall      REAL NOT NULL,
    wall_max  REAL NOT NULL,
    cpu       REAL,
    cpu_max   REAL,
    PRIMARY KEY (deck, seating, seat)
);
"""

#: The columns of a CSV export, one row per deal.
CSV_COLUMNS = (
    "deck",
    "seating",
    "bots",
    "winner",
    "winner_bot",
    "scores",
    "returns",
    "end_reason",
    "decisions",
    "failure",
    "ms_per_move",
    "max_ms",
    "cpu_ms_per_move",
    "cpu_max_ms",
)

#: The largest magnitude of a stored count, score or return: far above any real
#: one, far below what arithmetic on it could overflow.
LIMIT = 10**12
#: At most this many values in one ``IN (...)`` (SQLite allows 999 at least).
_CHUNK = 500
_HOST = socket.gethostname()


class Store:
    """An open results database.

    Args:
        path: The SQLite file (created if missing, unless ``readonly``).
        readonly: Only read it (a report or an export): nothing is written,
            and a file in a read-only folder can still be read.

    Raises:
        StoreError: for any file that cannot serve as a results database.
    """

    def __init__(self, path: str | Path, *, readonly: bool = False) -> None:
        self.path = Path(path)
        self.readonly = readonly
        self.run = uuid.uuid4().hex
        self._beat: _Heartbeat | None = None
        with self._guard():
            self.db = self._connect()
        self.db.text_factory = _text
        try:
            with self._guard():
                self._open()
        except BaseException:
            self.db.close()
            raise

    def _connect(self) -> sqlite3.Connection:
        if not self.readonly:
            return sqlite3.connect(self.path, timeout=BUSY_SECONDS, isolation_level=None)
        uri = self.path.absolute().as_uri()
        db = sqlite3.connect(uri + "?mode=ro", uri=True, timeout=BUSY_SECONDS)
        try:
            db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
        except sqlite3.OperationalError as error:
            if _kind(error) not in ("read_only", "cannot_open"):
                db.close()
                raise
            # A WAL file in a folder we may not write: nobody can be writing
            # it, so it may be read as it stands.
            db.close()
            db = sqlite3.connect(uri + "?immutable=1", uri=True, timeout=BUSY_SECONDS)
        return db

    def _open(self) -> None:
        fresh = self._layout()
        if not fresh:  # a damaged file is refused before anything is written to it
            problems = [row[0] for row in self.db.execute("PRAGMA quick_check(5)")]
            if problems != ["ok"]:
                raise self._damaged(
                    Message(
                        "store.problem.check",
                        "SQLite's check finds {problems}",
                        problems=_one_line("; ".join(map(str, problems))),
                    )
                )
        if self.readonly:
            if fresh:
                raise self.no_tournament()
            self.db.execute("PRAGMA query_only=1")
            return
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        with self._transaction():
            fresh = self._layout()  # another run may have made it meanwhile
            if fresh or set(TABLES) - set(self._tables()):
                for statement in _SCHEMA.split(";")[:-1]:  # not executescript: it commits
                    self.db.execute(statement)
            if self._pragma("user_version") != STORE_VERSION:
                self.db.execute(f"PRAGMA user_version={STORE_VERSION}")
            if self._pragma("application_id") != APPLICATION_ID:
                self.db.execute(f"PRAGMA application_id={APPLICATION_ID}")

    def _pragma(self, name: str) -> Any:
        return self.db.execute(f"PRAGMA {name}").fetchone()[0]

    def _tables(self) -> dict[str, set[str]]:
        names = [
            name
            for (name,) in self.db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        ]
        return {
            name: {row[1] for row in self.db.execute("SELECT * FROM pragma_table_info(?)", (name,))}
            for name in names
        }

    def _layout(self) -> bool:
        """Check that the file is a store this library can use; ``True`` for an
        empty database (a new store)."""
        application = self._pragma("application_id")
        version = self._pragma("user_version")
        tables = self._tables()
        if application == APPLICATION_ID and version > STORE_VERSION:
            raise self._newer(version)
        if application not in (0, APPLICATION_ID) or (tables and not set(_CORE) & set(tables)):
            raise StoreError(
                Message(
                    "store.foreign",
                    "{path}: an SQLite database of another program (tables: {tables}); give the "
                    "tournament's own database, or a new file name to start one",
                    path=self.path,
                    tables=", ".join(sorted(map(str, tables))) or "none",
                )
            )
        if not tables:
            return True
        if version > STORE_VERSION:
            raise self._newer(version)
        for name, columns in TABLES.items():
            if name not in tables:
                if name in _CORE:
                    raise self._damaged(
                        Message("store.problem.no_table", "it has no table {table}", table=name)
                    )
                continue
            lacking = [c for c in columns if c not in tables[name]]
            if lacking:
                raise self._damaged(
                    Message(
                        "store.problem.no_columns",
                        "table {table} lacks the columns {columns}",
                        table=name,
                        columns=", ".join(lacking),
                    )
                )
        return False

    def close(self) -> None:
        self.stop_sharing()
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- errors --------------------------------------------------------------

    @contextlib.contextmanager
    def _guard(self) -> Iterator[None]:
        """Turn what SQLite raises into a :class:`StoreError` naming the file."""
        try:
            yield
        except sqlite3.Error as error:
            raise _sqlite_error(self.path, error) from error

    def no_tournament(self) -> StoreError:
        """The error for a store that was never written."""
        return StoreError(
            Message("store.holds_no_tournament", "{path}: holds no tournament", path=self.path)
        )

    def _damaged(self, problem: Message | str) -> StoreError:
        return _damaged(self.path, problem)

    def setting(self, held: Mapping[str, Any], key: str) -> Any:
        """The setting ``key`` of the ``held`` settings (a :class:`StoreError`
        if they lack it)."""
        if key not in held:
            raise self._damaged(
                Message("store.problem.no_setting", "the settings lack {key}", key=key)
            )
        return held[key]

    def bad_setting(self, key: str, value: object, expected: Message) -> StoreError:
        """The error for a setting that does not hold what the tournament wrote."""
        return self._damaged(_bad("settings", value, key, expected))

    def damaged_deck(self, deck: int, problem: Message) -> StoreError:
        """The error for a deck whose stored rows are not what the store writes."""
        return StoreError(
            Message(
                "store.damaged_deck",
                "{path}: damaged results database: deck {deck}: {problem}; delete that deck's "
                "rows from the tables decks and games to have it played again, or use another "
                "database file",
                path=self.path,
                deck=deck,
                problem=problem,
            )
        )

    def _newer(self, version: object) -> StoreError:
        return StoreError(
            Message(
                "store.newer",
                "{path}: written by a newer sevenbridge (store version {version}; this one reads "
                "up to {ours}); upgrade sevenbridge, or use another database file",
                path=self.path,
                version=version,
                ours=STORE_VERSION,
            )
        )

    # -- settings ------------------------------------------------------------

    def settings(self) -> dict[str, Any]:
        """The settings the store holds (empty for a new store)."""
        with self._guard():
            return self._settings()

    def _settings(self) -> dict[str, Any]:
        held = {}
        for key, value in self.db.execute("SELECT key, value FROM settings"):
            if not isinstance(key, str):
                raise self._damaged(_bad("settings", key, "key", _TEXT))
            try:
                held[key] = self._json(value, f"settings.{key}", lambda v: True, _JSON)
            except _Bad as bad:
                raise self._damaged(bad.message()) from None
        return held

    def _json(self, text: object, column: str, ok: Callable[[Any], bool], expected: Message) -> Any:
        """``text`` read as JSON, if it holds what ``ok`` accepts."""
        value: Any = None
        fine = isinstance(text, str)
        if fine:
            try:
                value = json.loads(text)  # type: ignore[arg-type]
            except (ValueError, RecursionError):
                fine = False
        if fine and ok(value):
            return value
        raise _Bad(column, text, expected)

    def claim(self, settings: Mapping[str, Any]) -> None:
        """Write ``settings`` into an empty store, or check that they are the store's."""
        wanted = json.loads(json.dumps(dict(settings), sort_keys=True))
        with self._guard(), self._transaction():
            held = self._settings()
            if not held:
                self.db.executemany(
                    "INSERT INTO settings (key, value) VALUES (?, ?)",
                    [(k, json.dumps(v, sort_keys=True)) for k, v in settings.items()],
                )
                return
        differ = sorted(k for k in set(held) | set(wanted) if held.get(k) != wanted.get(k))
        if differ:
            detail = "; ".join(
                f"{k}: the database has {_brief(held.get(k))}, this run {_brief(wanted.get(k))}"
                for k in differ
            )
            raise StoreError(
                Message(
                    "store.holds_tournament_with_other",
                    "{path} holds a tournament with other settings ({detail}); use another database file, or the same settings to resume",
                    path=self.path,
                    detail=str(detail),
                )
            )

    # -- the bots' names ----------------------------------------------------

    def write_names(self, names: Mapping[str, str]) -> None:
        """Keep the name each bot gave (by its name in the tournament), the
        latest over what an earlier run kept."""
        with self._guard(), self._transaction():
            self.db.executemany(
                "INSERT OR REPLACE INTO bots (bot, name) VALUES (?, ?)", sorted(names.items())
            )

    def names(self) -> dict[str, str]:
        """The names the bots gave, by their names in the tournament (none in
        a store written before they were kept)."""
        with self._guard():
            if "bots" not in self._tables():
                return {}
            out = {}
            for bot, name in self.db.execute("SELECT bot, name FROM bots"):
                if not (isinstance(bot, str) and isinstance(name, str)):
                    raise self._damaged(_bad("bots", name, "name", _TEXT))
                out[bot] = name
            return out

    # -- results -------------------------------------------------------------

    def deck_count(self) -> int:
        """How many decks the store holds."""
        with self._guard():
            return int(self.db.execute("SELECT COUNT(*) FROM decks").fetchone()[0])

    def _stored(self, below: int) -> set[int]:
        return {
            deck for (deck,) in self.db.execute("SELECT deck FROM decks WHERE deck < ?", (below,))
        }

    def write_decks(self, decks: Iterable[tuple[int, Iterable[dict[str, Any]], float]]) -> None:
        """Write a batch of decks (number, games, seconds) in one transaction.

        A deck another run stored meanwhile is left as it is (the same
        settings play the same games), and the claims of the batch are dropped.
        """
        batch = [(deck, list(games), seconds) for deck, games, seconds in decks]
        numbers = [deck for deck, _, _ in batch]
        with self._guard(), self._transaction():
            have = self._among("SELECT deck FROM decks WHERE deck IN ({})", numbers)
            fresh = [(deck, games, seconds) for deck, games, seconds in batch if deck not in have]
            self.db.executemany(
                "INSERT INTO decks (deck, games, seconds) VALUES (?, ?, ?)",
                [(deck, len(games), seconds) for deck, games, seconds in fresh],
            )
            self.db.executemany(
                f"INSERT INTO games ({', '.join(TABLES['games'])}) VALUES ({', '.join('?' * 10)})",
                [_game_row(deck, g) for deck, games, _ in fresh for g in games],
            )
            self.db.executemany(
                f"INSERT INTO timings ({', '.join(TABLES['timings'])}) VALUES ({', '.join('?' * 8)})",
                [
                    (deck, g["seating"], seat, *timing)
                    for deck, games, _ in fresh
                    for g in games
                    for seat, timing in enumerate(g.get("timing", ()))
                ],
            )
            self._among("DELETE FROM claims WHERE deck IN ({})", numbers)

    def _among(self, query: str, numbers: Sequence[int]) -> set[int]:
        """Run ``query``, whose ``{}`` is a list of deck numbers, for ``numbers``;
        the first column of the rows it returns."""
        out: set[int] = set()
        for i in range(0, len(numbers), _CHUNK):
            chunk = numbers[i : i + _CHUNK]
            rows = self.db.execute(query.format(", ".join("?" * len(chunk))), chunk)
            out.update(row[0] for row in rows)
        return out

    def games(
        self, below: int | None = None, among: Collection[int] | None = None
    ) -> list[dict[str, Any]]:
        """The stored games in deck and seating order: only decks below
        ``below``, and only those of ``among`` when it is given; each checked
        for what the store writes (a :class:`StoreError` for a damaged one)."""
        with self._guard():
            decks: dict[int, int] = {}
            for deck, games, seconds in self.db.execute("SELECT deck, games, seconds FROM decks"):
                if not _integer(deck, 0, LIMIT):
                    raise self._damaged(_bad("decks", deck, "deck", _DECK))
                if (below is not None and deck >= below) or (
                    among is not None and deck not in among
                ):
                    continue
                if not _integer(games, 1, LIMIT):
                    raise self.damaged_deck(deck, _bad("decks", games, "games", _COUNT))
                if not (isinstance(seconds, (int, float)) and 0 <= seconds <= LIMIT):
                    raise self.damaged_deck(deck, _bad("decks", seconds, "seconds", _SECONDS))
                decks[deck] = games
            columns = ", ".join(TABLES["games"])
            order = " ORDER BY deck, seating"
            if among is None:
                query = f"SELECT {columns} FROM games"
                rows: list[tuple[Any, ...]] = self.db.execute(
                    query + order if below is None else query + " WHERE deck < ?" + order,
                    () if below is None else (below,),
                ).fetchall()
            else:
                wanted = sorted(among)
                rows = []
                for i in range(0, len(wanted), _CHUNK):
                    chunk = wanted[i : i + _CHUNK]
                    query = (
                        f"SELECT {columns} FROM games WHERE deck IN ({', '.join('?' * len(chunk))})"
                    )
                    rows += self.db.execute(query + order, chunk).fetchall()
            timings = self._timings(below, among)
        out = []
        counts: dict[int, int] = {}
        for row in rows:
            game = dict(zip(TABLES["games"], row, strict=True))
            deck = game["deck"]
            if not _integer(deck, 0, LIMIT):
                raise self._damaged(_bad("games", deck, "deck", _DECK))
            try:
                _check_game(game, self._json)
                game["timing"] = _check_timing(
                    timings.get((deck, game["seating"]), {}), len(game["bots"])
                )
            except _Bad as bad:
                raise self.damaged_deck(deck, bad.message(game["seating"])) from None
            counts[deck] = counts.get(deck, 0) + 1
            out.append(game)
        for deck in sorted(set(decks) | set(counts)):
            if deck not in decks:
                raise self.damaged_deck(
                    deck,
                    Message(
                        "store.problem.no_deck",
                        "the table games holds {held} games of it, the table decks has no row",
                        held=counts[deck],
                    ),
                )
            if counts.get(deck, 0) != decks[deck]:
                raise self.damaged_deck(
                    deck,
                    Message(
                        "store.problem.count",
                        "the table decks says {said} games, the table games holds {held}",
                        said=decks[deck],
                        held=counts.get(deck, 0),
                    ),
                )
        return out

    def _timings(
        self, below: int | None, among: Collection[int] | None
    ) -> dict[tuple[object, object], dict[object, tuple[Any, ...]]]:
        """The timings rows by (deck, seating), then seat (none in a store
        written before they were kept)."""
        if "timings" not in self._tables():
            return {}
        out: dict[tuple[object, object], dict[object, tuple[Any, ...]]] = {}
        query = f"SELECT {', '.join(TABLES['timings'])} FROM timings"
        for deck, seating, seat, *rest in self.db.execute(query):
            if (below is None or (isinstance(deck, int) and deck < below)) and (
                among is None or deck in among
            ):
                out.setdefault((deck, seating), {})[seat] = tuple(rest)
        return out

    def export_csv(self, out: TextIO) -> int:
        """Write one CSV row per stored deal; returns the number of rows."""
        writer = csv.writer(out)
        writer.writerow(CSV_COLUMNS)
        n = 0
        for g in self.games():
            winner = g["winner"]
            writer.writerow(
                [
                    g["deck"],
                    g["seating"],
                    " ".join(g["bots"]),
                    "" if winner is None else winner,
                    "" if winner is None else g["bots"][winner],
                    " ".join(map(str, g["scores"])),
                    " ".join(f"{r:g}" for r in g["returns"]),
                    g["end_reason"],
                    g["decisions"],
                    g["failure"] or "",
                    *_csv_times(g["timing"]),
                ]
            )
            n += 1
        return n

    # -- runs sharing the store ----------------------------------------------

    def start_sharing(self) -> None:
        """Start the heartbeat that keeps this run's claims alive."""
        if self._beat is None:
            self._beat = _Heartbeat(self.path, self.run)
            self._beat.start()

    def stop_sharing(self) -> None:
        """Stop the heartbeat and give up the claims of decks this run did not store."""
        beat, self._beat = self._beat, None
        if beat is not None:
            beat.stop()
        if not self.readonly:
            with contextlib.suppress(sqlite3.Error):  # then they die with the run
                self.db.execute("DELETE FROM claims WHERE run = ?", (self.run,))

    def take_decks(self, todo: Sequence[int], size: int) -> Iterator[list[int]]:
        """Claim the decks of ``todo`` that are neither stored nor claimed by a
        live run, in order, ``size`` at a time (each batch as it is asked for)."""
        i = 0
        while i < len(todo):
            batch: list[int] = []
            with self._guard(), self._transaction():
                self._drop_dead_claims()
                while i < len(todo) and len(batch) < size:
                    window = todo[i : i + size - len(batch)]
                    i += len(window)
                    taken = self._among("SELECT deck FROM decks WHERE deck IN ({})", window)
                    taken |= self._among("SELECT deck FROM claims WHERE deck IN ({})", window)
                    batch += [deck for deck in window if deck not in taken]
                now = time.time()
                self.db.executemany(
                    "INSERT INTO claims (deck, run, pid, host, beat) VALUES (?, ?, ?, ?, ?)",
                    [(deck, self.run, os.getpid(), _HOST, now) for deck in batch],
                )
            if batch:
                yield batch

    def _drop_dead_claims(self) -> None:
        now = time.time()
        dead = [
            (deck,)
            for deck, run, pid, host, beat in self.db.execute(
                "SELECT deck, run, pid, host, beat FROM claims"
            )
            if run != self.run and not _alive(run, pid, host, beat, now)
        ]
        self.db.executemany("DELETE FROM claims WHERE deck = ?", dead)

    def wait_for_others(self, below: int, seen: Callable[[int], None]) -> list[int]:
        """Wait while every deck below ``below`` that is not stored is claimed by
        another live run; then return the decks neither stored nor claimed
        (empty once every deck is stored). ``seen`` is told how many are stored."""
        while True:
            with self._guard():
                stored = self._stored(below)
                seen(len(stored))
                if len(stored) == below:
                    return []
                now = time.time()
                live = {
                    deck
                    for deck, run, pid, host, beat in self.db.execute(
                        "SELECT deck, run, pid, host, beat FROM claims WHERE deck < ?", (below,)
                    )
                    if run != self.run and _alive(run, pid, host, beat, now)
                }
            free = [deck for deck in range(below) if deck not in stored and deck not in live]
            if free:
                return free
            time.sleep(POLL_SECONDS)

    def _transaction(self) -> _Transaction:
        return _Transaction(self.db)


class _Transaction:
    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, *rest: object) -> None:
        if kind is None:
            self.db.execute("COMMIT")
        else:
            with contextlib.suppress(sqlite3.Error):  # the first error is the one to show
                self.db.execute("ROLLBACK")


class _Heartbeat(threading.Thread):
    """Refreshes a run's claims every :data:`BEAT_SECONDS`, on its own connection."""

    def __init__(self, path: Path, run: str) -> None:
        super().__init__(name="sevenbridge-store-heartbeat", daemon=True)
        self.path = path
        self.run_id = run
        self.done = threading.Event()

    def run(self) -> None:
        try:
            db = sqlite3.connect(self.path, timeout=BUSY_SECONDS, isolation_level=None)
        except sqlite3.Error:
            return  # the claims then live as long as the lease
        try:
            while not self.done.wait(BEAT_SECONDS):
                with contextlib.suppress(sqlite3.Error):
                    db.execute(
                        "UPDATE claims SET beat = ? WHERE run = ?", (time.time(), self.run_id)
                    )
        finally:
            db.close()

    def stop(self) -> None:
        self.done.set()
        self.join(1.0)


def _alive(run: object, pid: object, host: object, beat: object, now: float) -> bool:
    """Whether a claim's run still lives: its heartbeat is recent and, on this
    machine, its process is still there."""
    if not isinstance(beat, (int, float)) or not now - LEASE_SECONDS <= beat <= now + LEASE_SECONDS:
        return False
    if host == _HOST and sys.platform != "win32":
        if not isinstance(pid, int) or pid <= 0:
            return False
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except (OverflowError, ValueError):
            return False
        except OSError:  # alive, but another user's
            return True
    return True


def _kind(error: sqlite3.Error) -> str:
    """The kind of an SQLite failure, from its error name (Python 3.11 and
    later) or else from its message."""
    name = str(getattr(error, "sqlite_errorname", ""))
    text = str(error).lower()
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "locked" in text:
        return "locked"
    if name.startswith("SQLITE_READONLY") or "readonly" in text or "read-only" in text:
        return "read_only"
    if (
        name.startswith(("SQLITE_CANTOPEN", "SQLITE_PERM", "SQLITE_AUTH"))
        or "unable to open" in text
    ):
        return "cannot_open"
    if name.startswith("SQLITE_NOTADB") or "not a database" in text:
        return "not_database"
    if name.startswith("SQLITE_CORRUPT") or "malformed" in text or "decode" in text:
        return "damaged"
    return "other"


def _sqlite_error(path: Path, error: sqlite3.Error) -> StoreError:
    kind = _kind(error)
    if kind == "locked":
        message = Message(
            "store.locked",
            "{path}: the database is locked by another program; let it finish (or close it), "
            "then run again",
            path=path,
        )
    elif kind == "read_only":
        message = Message(
            "store.read_only",
            "{path}: cannot write the database (the file or its folder is read-only); make "
            "both writable, or use another database file",
            path=path,
        )
    elif kind == "cannot_open":
        message = Message(
            "store.cannot_open",
            "{path}: cannot open the database ({error}); check that its folder exists and "
            "that you may write there",
            path=path,
            error=_one_line(error),
        )
    elif kind == "not_database":
        message = Message(
            "store.not_a_database",
            "{path}: not an SQLite database; give the tournament's own database, or a new "
            "file name to start one",
            path=path,
        )
    elif kind == "damaged":
        return _damaged(path, _one_line(error))
    else:
        message = Message(
            "store.not_usable_results_database",
            "{path}: not a usable results database ({error}); use another database file",
            path=path,
            error=_one_line(error),
        )
    return StoreError(message)


class _NotText(bytes):
    """A value SQLite holds as text that is not UTF-8 (Python's own reading of
    it would fail with the whole value in the message)."""

    def __repr__(self) -> str:
        return "text that is not UTF-8"


def _text(data: bytes) -> str | bytes:
    try:
        return data.decode()
    except UnicodeDecodeError:
        return _NotText(data)


def _one_line(text: object, limit: int = 100) -> str:
    """An error's text on one line, cut in the middle when it is long (SQLite
    quotes whole values, records included, in some of its messages)."""
    text = " ".join(str(text).split())
    if len(text) <= limit:
        return text
    half = (limit - 5) // 2
    return f"{text[:half]} ... {text[-half:]}"


def _damaged(path: Path, problem: Message | str) -> StoreError:
    return StoreError(
        Message(
            "store.damaged",
            "{path}: damaged results database: {problem}; use another database file, or "
            "restore this one from a backup",
            path=path,
            problem=problem,
        )
    )


# -- what a games row holds ----------------------------------------------------

_DECK = Message("store.expect.deck", "a deck number")
_COUNT = Message("store.expect.count", "a whole number from 1")
_SECONDS = Message("store.expect.seconds", "a number of seconds")
_TEXT = Message("store.expect.text", "text")
_JSON = Message("store.expect.json", "JSON text")


class _Bad(Exception):
    """A value of a row that is not what the store writes (turned into a
    :class:`StoreError` by the caller, who knows the deck)."""

    def __init__(self, column: str, value: object, expected: Message) -> None:
        super().__init__(column)
        self.column = column
        self.value = value
        self.expected = expected

    def message(self, seating: object = None) -> Message:
        if seating is None or not _integer(seating, 0, LIMIT):
            return _bad("", self.value, self.column, self.expected)
        return Message(
            "store.problem.seating",
            "seating {seating}: {problem}",
            seating=seating,
            problem=_bad("", self.value, self.column, self.expected),
        )


def _bad(table: str, value: object, column: str, expected: Message) -> Message:
    """What is wrong with a value: ``column`` of ``table`` holds ``value``."""
    column = f"{table}.{column}" if table else column
    if isinstance(value, _NotText):
        return Message(
            "store.problem.not_utf8", "{column} holds text that is not UTF-8", column=column
        )
    return Message(
        "store.problem.value",
        "{column} holds {value}, not {expected}",
        column=column,
        value=quote(value),
        expected=expected,
    )


def _integer(value: object, low: int, high: int) -> bool:
    return type(value) is int and low <= value <= high


def _number(value: object) -> bool:
    return (
        isinstance(value, (int, float))
        and not isinstance(value, bool)
        and math.isfinite(value)
        and -LIMIT <= value <= LIMIT
    )


def _check_game(game: dict[str, Any], read_json: Callable[..., Any]) -> None:
    """Check (and decode, in place) one games row; :class:`_Bad` if it does not
    hold what the store writes."""
    if not _integer(game["seating"], 0, LIMIT):
        raise _Bad("seating", game["seating"], Message("store.expect.seating", "a seating number"))
    bots = read_json(
        game["bots"], "bots",
        lambda v: isinstance(v, list) and len(v) > 0 and all(isinstance(b, str) for b in v),
        Message("store.expect.bots", "a JSON list of bot names"),
    )  # fmt: skip
    n = len(bots)
    game["bots"] = bots
    game["scores"] = read_json(
        game["scores"], "scores",
        lambda v: isinstance(v, list) and len(v) == n and all(_integer(s, -LIMIT, LIMIT) for s in v),
        Message("store.expect.scores", "a JSON list of {n} whole numbers", n=n),
    )  # fmt: skip
    game["returns"] = [
        float(r)
        for r in read_json(
            game["returns"], "returns",
            lambda v: isinstance(v, list) and len(v) == n and all(map(_number, v)),
            Message("store.expect.returns", "a JSON list of {n} numbers", n=n),
        )
    ]  # fmt: skip
    if game["winner"] is not None and not _integer(game["winner"], 0, n - 1):
        raise _Bad(
            "winner", game["winner"],
            Message("store.expect.winner", "nothing or a seat from 0 to {high}", high=n - 1),
        )  # fmt: skip
    if not _integer(game["decisions"], 0, LIMIT):
        raise _Bad("decisions", game["decisions"], Message("store.expect.decisions", "a count"))
    for column in ("end_reason", "record"):
        if not isinstance(game[column], str):
            raise _Bad(column, game[column], _TEXT)
    if game["failure"] is not None and not isinstance(game["failure"], str):
        raise _Bad("failure", game["failure"], Message("store.expect.failure", "nothing or text"))


def _csv_times(timing: Sequence[Sequence[Any]]) -> list[str]:
    """A deal's times for the CSV: per seat, the mean and the longest decision
    by the wall clock and in processor time, in milliseconds (``-``: not
    known; empty columns: not kept)."""
    columns: list[list[str]] = [[], [], [], []]
    for decisions, wall, wall_max, cpu, cpu_max in timing:
        for column, value in zip(
            columns,
            (wall / decisions if decisions else None, wall_max if decisions else None,
             cpu / decisions if decisions and cpu is not None else None,
             cpu_max if decisions else None),
            strict=True,
        ):  # fmt: skip
            column.append("-" if value is None else f"{value * 1000:.3f}")
    return [" ".join(column) for column in columns]


def _check_timing(rows: dict[object, tuple[Any, ...]], seats: int) -> list[tuple[Any, ...]]:
    """A game's timings, one per seat, checked (:class:`_Bad` if they are not
    what the store writes); empty when the store kept none."""
    if not rows:
        return []
    expected = Message("store.expect.timing", "one row per seat of counts and seconds")
    if sorted(rows, key=str) != list(range(seats)):
        raise _Bad("timings", sorted(rows, key=str), expected)
    out = []
    for seat in range(seats):
        decisions, *seconds = rows[seat]
        fine = _integer(decisions, 0, LIMIT) and all(
            (v is None and i >= 2) or (_number(v) and v >= 0) for i, v in enumerate(seconds)
        )
        if not fine:
            raise _Bad("timings", rows[seat], expected)
        out.append((decisions, *seconds))
    return out


def _game_row(deck: int, g: dict[str, Any]) -> tuple[Any, ...]:
    """A game as a row of the table games."""
    return (
        deck,
        g["seating"],
        json.dumps(g["bots"]),
        g["winner"],
        json.dumps(g["scores"]),
        json.dumps(g["returns"]),
        g["end_reason"],
        g["decisions"],
        g["failure"],
        g["record"],
    )


def _brief(value: object) -> str:
    text = json.dumps(value, sort_keys=True)
    return text if len(text) <= 60 else text[:57] + "..."
