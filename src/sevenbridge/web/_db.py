"""Where the web tables live: one SQLite file (the standard library's ``sqlite3``).

A table is kept as what made it, never as a position: its game, rules, seats
(who plays each: a person, with the secret of the seat's link, or a bot), the
seed and the list of moves in the game's notation. The server rebuilds the
position by replaying the moves, so a restarted server finds every table as
it stood. Nothing here needs the web extra.
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import attrs

from ..errors import Message, StoreError

#: The layout of the tables' database; a file of another layout is refused.
LAYOUT_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS layout (version INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS tables (
    id       TEXT PRIMARY KEY,
    game     TEXT NOT NULL,
    rules    TEXT NOT NULL,
    players  INTEGER NOT NULL,
    seed     INTEGER NOT NULL,
    practice INTEGER NOT NULL,
    created  REAL NOT NULL,
    seen     INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL REFERENCES tables (id),
    seat     INTEGER NOT NULL,
    player   TEXT NOT NULL,
    token    TEXT,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS moves (
    table_id TEXT NOT NULL REFERENCES tables (id),
    ply      INTEGER NOT NULL,
    move     TEXT NOT NULL,
    PRIMARY KEY (table_id, ply)
);
CREATE TABLE IF NOT EXISTS settings (
    table_id TEXT NOT NULL REFERENCES tables (id),
    name     TEXT NOT NULL,
    value    TEXT NOT NULL,
    PRIMARY KEY (table_id, name)
);
"""

#: A seat's player when a person plays it.
HUMAN = "human"
#: A seat's player at a mahjong table of two or three with ghosts: the engine plays it.
GHOST = "ghost"


@attrs.frozen
class Seat:
    """Who plays one seat: a person (``player == "human"``, with the secret
    ``token`` of the seat's link) or a bot (its spec, such as ``"greedy"``)."""

    player: str
    token: str | None = attrs.field(default=None, repr=False)

    @property
    def human(self) -> bool:
        """Whether a person plays the seat."""
        return self.player == HUMAN


@attrs.frozen
class TableRecord:
    """What a table is made of (its moves are kept apart, one row each)."""

    id: str
    game: str
    rules: str
    """The rules as JSON (the game's ``Rules.to_json``)."""
    players: int
    seed: int
    practice: bool
    seats: tuple[Seat, ...]
    created: float = 0.0
    seen: int = 0
    """How many finished deals the players have moved on from (the table waits
    on a finished deal's result until somebody asks for the next deal)."""
    pause: float | None = None
    """Seconds a bot waits before it moves, as chosen in the lobby (``None``:
    the server's pace)."""
    langs: tuple[tuple[int, str], ...] = ()
    """The language each seat chose on its page, as (seat, language) pairs."""


class TableStore:
    """The open database of the tables.

    Every change is written at once, in its own transaction: a server that
    stops at any moment loses at most the move being written.

    Raises:
        StoreError: if the file is not a usable tables database.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.executescript(_SCHEMA)
            row = self.db.execute("SELECT version FROM layout").fetchone()
            if row is None:
                self.db.execute("INSERT INTO layout VALUES (?)", (LAYOUT_VERSION,))
            elif row[0] != LAYOUT_VERSION:
                self.db.close()
                raise StoreError(
                    Message(
                        "store.tables_layout",
                        "{path}: a tables database of layout {found}; this version reads {want}",
                        path=self.path,
                        found=row[0],
                        want=LAYOUT_VERSION,
                    )
                )
        except sqlite3.DatabaseError as error:
            raise StoreError(
                Message(
                    "store.not_usable_tables_database",
                    "{path}: not a usable tables database ({error})",
                    path=self.path,
                    error=error,
                )
            ) from None

    def close(self) -> None:
        """Close the database."""
        self.db.close()

    def create(self, table: TableRecord) -> None:
        """Keep a new table."""
        with self.db:
            self.db.execute("BEGIN")
            self.db.execute(
                "INSERT INTO tables VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (table.id, table.game, table.rules, table.players, table.seed,
                 int(table.practice), table.created or time.time(), table.seen),
            )  # fmt: skip
            self.db.executemany(
                "INSERT INTO seats VALUES (?, ?, ?, ?)",
                [(table.id, k, s.player, s.token) for k, s in enumerate(table.seats)],
            )
            if table.pause is not None:
                self.db.execute(
                    "INSERT INTO settings VALUES (?, 'pause', ?)", (table.id, repr(table.pause))
                )

    def table_ids(self) -> list[str]:
        """Every table's id, oldest first."""
        return [r[0] for r in self.db.execute("SELECT id FROM tables ORDER BY created, id")]

    def load(self, table_id: str) -> tuple[TableRecord, list[str]] | None:
        """A table and its moves (``None``: no such table)."""
        row = self.db.execute(
            "SELECT id, game, rules, players, seed, practice, created, seen FROM tables "
            "WHERE id = ?",
            (table_id,),
        ).fetchone()
        if row is None:
            return None
        seats = tuple(
            Seat(player, token)
            for player, token in self.db.execute(
                "SELECT player, token FROM seats WHERE table_id = ? ORDER BY seat", (table_id,)
            )
        )
        moves = [
            m
            for (m,) in self.db.execute(
                "SELECT move FROM moves WHERE table_id = ? ORDER BY ply", (table_id,)
            )
        ]
        settings = dict(
            self.db.execute("SELECT name, value FROM settings WHERE table_id = ?", (table_id,))
        )
        pause = float(settings["pause"]) if "pause" in settings else None
        langs = tuple(sorted((int(k[4:]), v) for k, v in settings.items() if k.startswith("lang")))
        table = TableRecord(
            row[0], row[1], row[2], row[3], row[4], bool(row[5]), seats, row[6], row[7],
            pause, langs,
        )  # fmt: skip
        return table, moves

    def add_move(self, table_id: str, ply: int, move: str) -> None:
        """Keep move number ``ply`` (from 0) of a table."""
        self.db.execute("INSERT INTO moves VALUES (?, ?, ?)", (table_id, ply, move))

    def truncate(self, table_id: str, plies: int) -> None:
        """Forget the moves from number ``plies`` on (an undo)."""
        self.db.execute("DELETE FROM moves WHERE table_id = ? AND ply >= ?", (table_id, plies))

    def set_seen(self, table_id: str, seen: int) -> None:
        """Record how many finished deals the players have moved on from."""
        self.db.execute("UPDATE tables SET seen = ? WHERE id = ?", (seen, table_id))

    def set_lang(self, table_id: str, seat: int, lang: str) -> None:
        """Record the language a seat chose."""
        self.db.execute(
            "INSERT OR REPLACE INTO settings VALUES (?, ?, ?)", (table_id, f"lang{seat}", lang)
        )
