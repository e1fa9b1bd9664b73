"""Where tables are kept: a small interface (:class:`Store`) and its SQLite
implementation (:class:`SQLiteStore`, WAL mode).

A stored table is the engine's own save format (``TrickGame.to_json``) plus
the seat list and the table's own fields, each as JSON text, and its ``seq``.
:meth:`Store.save` returns only once the row is committed, so the server
stores every accepted action before it tells anyone about it.  Another
database (PostgreSQL, say) is one more class with these four methods.
"""

from __future__ import annotations

import os
import sqlite3
import time
from dataclasses import dataclass
from typing import Final, Protocol

__all__ = ["SCHEMA", "SCHEMA_VERSION", "SQLiteStore", "Store", "StoreError", "StoredTable"]

SCHEMA: Final = "hucklebuck-tables"
"""The ``schema`` entry of a table database's ``meta`` table."""
SCHEMA_VERSION: Final = 1
"""The table database layout this version reads and writes."""


class StoreError(Exception):
    """The database cannot be opened or written; the message says why, in plain words."""


@dataclass(frozen=True)
class StoredTable:
    """One table as stored."""

    id: str
    seq: int
    game: str
    """The game in the engine's save format (``to_json``)."""
    seats: str
    """The seat list as JSON (names, kinds, computer players, token digests)."""
    table: str
    """The table's own fields as JSON (settings, notices, the last hand's lines, the end of the game)."""


class Store(Protocol):
    """What the table manager needs from storage."""

    def load_all(self) -> list[StoredTable]:
        """Every stored table."""
        ...

    def save(self, row: StoredTable) -> None:
        """Insert or replace ``row``; returns once it is durable (committed)."""
        ...

    def delete(self, table_id: str) -> None:
        """Forget a table."""
        ...

    def close(self) -> None:
        """Finish writing and release the database."""
        ...


class SQLiteStore:
    """Tables in one SQLite file, in WAL mode (``:memory:`` for a throw-away store).

    ``synchronous=NORMAL``: a commit is in the write-ahead log before
    :meth:`save` returns, so it survives the server being killed; only a power
    cut can lose the last commits (``durable=True`` syncs every commit).
    """

    def __init__(self, path: str, *, durable: bool = False) -> None:
        """Open (creating if needed) the database at ``path``; :class:`StoreError` if that fails."""
        self.path = path
        where = "in memory" if path == ":memory:" else path
        if path != ":memory:":
            folder = os.path.dirname(os.path.abspath(path))
            if not os.path.isdir(folder):
                raise StoreError(
                    f"cannot open the table database {where}: the folder {folder} does not exist"
                )
        try:
            self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            if path != ":memory:":
                self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(f"PRAGMA synchronous={'FULL' if durable else 'NORMAL'}")
            self._check_schema(where)
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"cannot use the table database {where}: {_words(exc)}") from None

    def _check_schema(self, where: str) -> None:
        db = self._db
        names = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if names and "meta" not in names:
            raise StoreError(f"{where} is not a hucklebuck table database (it holds other tables)")
        if "meta" in names:
            meta = dict(db.execute("SELECT key, value FROM meta").fetchall())
            if meta.get("schema") != SCHEMA:
                raise StoreError(f"{where} is not a hucklebuck table database")
            version = meta.get("version")
            if version != str(SCHEMA_VERSION):
                raise StoreError(
                    f"{where} was written by another version of hucklebuck (table database version "
                    f"{version}; this version reads version {SCHEMA_VERSION})"
                )
        db.execute("BEGIN IMMEDIATE")  # fails here, not at the first move, when the file is read-only
        try:
            db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
            db.execute(
                "CREATE TABLE IF NOT EXISTS tables (id TEXT PRIMARY KEY, created REAL NOT NULL, "
                "seq INTEGER NOT NULL, game TEXT NOT NULL, seats TEXT NOT NULL, tbl TEXT NOT NULL)"
            )
            db.execute("INSERT OR REPLACE INTO meta VALUES ('schema', ?)", (SCHEMA,))
            db.execute("INSERT OR REPLACE INTO meta VALUES ('version', ?)", (str(SCHEMA_VERSION),))
            db.execute("INSERT OR REPLACE INTO meta VALUES ('opened', ?)", (str(time.time()),))
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    def load_all(self) -> list[StoredTable]:
        """Every stored table, oldest first."""
        rows = self._db.execute("SELECT id, seq, game, seats, tbl FROM tables ORDER BY created").fetchall()
        return [StoredTable(*r) for r in rows]

    def save(self, row: StoredTable) -> None:
        """Insert or replace ``row`` and commit; :class:`StoreError` if the write fails."""
        try:
            self._db.execute(
                "INSERT INTO tables (id, created, seq, game, seats, tbl) VALUES (?, ?, ?, ?, ?, ?) "
                "ON CONFLICT(id) DO UPDATE SET seq=excluded.seq, game=excluded.game, "
                "seats=excluded.seats, tbl=excluded.tbl",
                (row.id, time.time(), row.seq, row.game, row.seats, row.table),
            )
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"cannot write the table database {self.path}: {_words(exc)}") from None

    def delete(self, table_id: str) -> None:
        """Forget a table."""
        self._db.execute("DELETE FROM tables WHERE id = ?", (table_id,))

    def close(self) -> None:
        """Checkpoint the write-ahead log and close."""
        try:
            if self.path != ":memory:":
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.DatabaseError:
            pass
        self._db.close()


def _words(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    return {"attempt to write a readonly database": "the file is read-only"}.get(text, text)
