"""The tournament store: an embedded SQLite database that outlives the run.

Every finished batch of decks (all their seatings) is written in one transaction, in WAL
mode, as it comes back from the workers. The first run writes the
tournament's settings; a later run with the same settings resumes (it plays
only the decks the store lacks), and a run with other settings is refused.
"""

from __future__ import annotations

import csv
import json
import sqlite3
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, TextIO

from .errors import Message, StoreError

#: The store's own layout version.
STORE_VERSION = 1

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
)


class Store:
    """An open results database."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.executescript(_SCHEMA)
        except sqlite3.DatabaseError as error:
            raise StoreError(
                Message(
                    "store.not_usable_results_database",
                    "{path}: not a usable results database ({error})",
                    path=self.path,
                    error=error,
                )
            ) from None

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- settings ------------------------------------------------------------

    def settings(self) -> dict[str, Any]:
        rows = self.db.execute("SELECT key, value FROM settings").fetchall()
        return {key: json.loads(value) for key, value in rows}

    def claim(self, settings: Mapping[str, Any]) -> None:
        """Write ``settings`` into an empty store, or check that they are the store's."""
        held = self.settings()
        if not held:
            with self._transaction():
                self.db.executemany(
                    "INSERT INTO settings (key, value) VALUES (?, ?)",
                    [(k, json.dumps(v, sort_keys=True)) for k, v in settings.items()],
                )
            return
        wanted = json.loads(json.dumps(dict(settings), sort_keys=True))
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

    # -- results -------------------------------------------------------------

    def done_decks(self) -> set[int]:
        return {row[0] for row in self.db.execute("SELECT deck FROM decks")}

    def write_decks(self, decks: Iterable[tuple[int, Iterable[dict[str, Any]], float]]) -> None:
        """Write a batch of decks (number, games, seconds) in one transaction."""
        deck_rows = []
        rows = []
        for deck, games, seconds in decks:
            mine = [
                (
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
                for g in games
            ]
            deck_rows.append((deck, len(mine), seconds))
            rows += mine
        with self._transaction():
            self.db.executemany(
                "INSERT INTO decks (deck, games, seconds) VALUES (?, ?, ?)", deck_rows
            )
            self.db.executemany("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)

    def games(self, decks: int | None = None) -> Iterator[dict[str, Any]]:
        """The stored games in deck and seating order (only decks below ``decks``)."""
        query = "SELECT * FROM games"
        args: tuple[int, ...] = ()
        if decks is not None:
            query += " WHERE deck < ?"
            args = (decks,)
        cursor = self.db.execute(query + " ORDER BY deck, seating", args)
        names = [c[0] for c in cursor.description]
        for row in cursor:
            game = dict(zip(names, row, strict=True))
            for key in ("bots", "scores", "returns"):
                game[key] = json.loads(game[key])
            yield game

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
                ]
            )
            n += 1
        return n

    def _transaction(self) -> _Transaction:
        return _Transaction(self.db)


class _Transaction:
    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, *rest: object) -> None:
        self.db.execute("ROLLBACK" if kind is not None else "COMMIT")


def _brief(value: object) -> str:
    text = json.dumps(value, sort_keys=True)
    return text if len(text) <= 60 else text[:57] + "..."
