"""Where tables are kept: a small interface (:class:`Store`) and its SQLite
implementation (:class:`SQLiteStore`, WAL mode).

A stored table is the engine's own save format (``TrickGame.to_json``) plus
the seat list and the table's own fields, each as JSON text, and its ``seq``;
the moves made since that snapshot follow as rows of their own (the action's
protocol text, or :data:`DEAL` for the deal of the next hand), so a move or a
deal costs one small insert, and the game is written whole only at the other
changes (the end of the game, a takeover, a hand-back, a rematch).  A move that ends a hand also
rewrites the table's own fields (the hand's scoring lines), not the game.
:meth:`Store.commit` writes a batch in one transaction and returns only once
it is committed, so the server stores every accepted action before it tells
anyone about it.  Another database (PostgreSQL, say) is one more class with
these four methods.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Protocol

__all__ = [
    "CHECKPOINT_EVERY",
    "COPY_AFTER",
    "COPY_EVERY",
    "DEAL",
    "ENDED_KEPT",
    "READS",
    "SCHEMA",
    "SCHEMA_VERSION",
    "WAL_LIMIT",
    "SQLiteStore",
    "Store",
    "StoreError",
    "StoredMove",
    "StoredTable",
]

SCHEMA: Final = "hucklebuck-tables"
"""The ``schema`` entry of a table database's ``meta`` table."""
SCHEMA_VERSION: Final = 2
"""The table database layout this version writes (version 2 added :data:`DEAL` rows)."""
READS: Final = (1, 2)
"""The layouts this version reads; a database of an older one is marked as the current one."""
CHECKPOINT_EVERY: Final = 0.5
"""Seconds between two rounds of the checkpoint thread: each round after a write puts the
write-ahead log on the disk (a sync), and copies it into the database (a checkpoint) once
:data:`COPY_AFTER` bytes may have been logged or :data:`COPY_EVERY` seconds have passed."""
COPY_AFTER: Final = 1024 * 1024
"""Bytes of pages a checkpoint round may find logged (as the writer counts them, generously)
before it copies the log into the database rather than only syncing it."""
COPY_EVERY: Final = 10.0
"""Seconds after which a round copies the log into the database however little was logged."""
WAL_LIMIT: Final = 32 * 1024 * 1024
"""Bytes the write-ahead log may grow to: past it, a checkpoint waits for the writer, copies the
whole log into the database and truncates it (``journal_size_limit`` is the same size)."""
ENDED_KEPT: Final = 10_000
"""Tables removed to make room whose ids a store keeps (the newest), so their links can say the
game existed and ended, after a restart too."""
DEAL: Final = "deal"
"""A stored move that is the deal of the next hand (the engine deals the same cards again on
replay: the deal follows from the game's seed and its history)."""


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
    moves: tuple[str, ...] = ()
    """Actions (protocol text) made after the ``game`` snapshot, in order; ``seq`` counts them too."""


@dataclass(frozen=True)
class StoredMove:
    """One accepted action, stored after the table's last snapshot."""

    table_id: str
    seq: int
    """The table's ``seq`` after this move."""
    action: str
    """The action in protocol form (``"2 play TH"``), or :data:`DEAL`."""
    table: str | None = None
    """The table's own fields as JSON when this move changed them (the end of a hand), else ``None``."""


class Store(Protocol):
    """What the table manager needs from storage."""

    def load_all(self) -> list[StoredTable]:
        """Every stored table."""
        ...

    def commit(self, tables: Sequence[StoredTable], moves: Sequence[StoredMove]) -> None:
        """Store whole tables (replacing their earlier snapshot and moves) and single moves
        (with the table's fields where a move carries them), all or nothing; returns once
        durable (safe against the server process being killed).  Raises :class:`StoreError` if it cannot."""
        ...

    def delete(self, table_id: str) -> None:
        """Forget a table, keeping its id among the :meth:`removed` ones."""
        ...

    def removed(self) -> list[str]:
        """The ids of tables :meth:`delete` forgot (the newest :data:`ENDED_KEPT`, oldest first)."""
        ...

    def close(self) -> None:
        """Finish writing and release the database."""
        ...


class SQLiteStore:
    """Tables in one SQLite file, in WAL mode (``:memory:`` for a throw-away store).

    ``synchronous=NORMAL``: a commit is in the write-ahead log before
    :meth:`save` returns, so it survives the server being killed; only a power
    cut can lose the last commits (``durable=True`` syncs every commit).

    A commit never waits for the disk: a thread of the store's own puts the log on
    the disk (a sync) at most every :data:`CHECKPOINT_EVERY` seconds after a write,
    and copies it into the database file (a checkpoint, which syncs that file too)
    only once a good part of a mebibyte may have been logged (:data:`COPY_AFTER`)
    or :data:`COPY_EVERY` seconds have passed: at a quiet server, each copy costs
    far more than the sync, and the commit after it (which starts the log afresh)
    waits for the disk once.  Not whichever commit fills the log, so the event loop
    that commits is not held up by it.  The thread sleeps while nothing is written:
    an idle server's store does no work.
    """

    def __init__(self, path: str, *, durable: bool = False) -> None:
        """Open (creating if needed) the database at ``path``; :class:`StoreError` if that fails."""
        self.path = path
        self.lost: dict[str, str] = {}
        """Tables of a damaged database that could not be read (id: why), see :meth:`_salvage`."""
        self.notes: list[str] = []
        """What the operator should know about opening the database (it was damaged, say)."""
        self.wal_peak = 0
        """The largest size of the write-ahead log the checkpoint thread saw, in bytes."""
        where = "in memory" if path == ":memory:" else path
        if path != ":memory:":
            folder = os.path.dirname(os.path.abspath(path))
            if not os.path.isdir(folder):
                raise StoreError(
                    f"cannot open the table database {where}: the folder {folder} does not exist"
                )
            _private(path)
        try:
            self._db = _connect(path, durable)
            damaged = self._check_kind(where)
            if damaged:
                self._salvage(durable)
            else:
                self._prepare()
        except OSError as exc:
            raise StoreError(f"cannot use the table database {where}: {exc.strerror or exc}") from None
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"cannot use the table database {where}: {_words(exc)}") from None
        self._stop = threading.Event()
        self._open = threading.Lock()
        """Held while the store is open: the checkpoint thread's pause between rounds is a wait for
        it (one call, not an event's Python condition code); :meth:`close` lets it go."""
        self._open.acquire()
        self._wal_fd: int | None = None
        """The log file, opened by the checkpoint thread for its syncs and kept open (SQLite keeps
        that same file, truncated at most, while a connection is open: the store keeps two)."""
        self._written = threading.Event()
        """Set by each write; the checkpoint thread sleeps until it is (set: the opening's own writes)."""
        self._written.set()
        self._checkpointing = threading.Lock()
        self._logged = 0
        """Pages the commits may have added to the log in all (counted generously: see
        :meth:`_log_too_long`); only the writer adds to it."""
        self._sized = 0
        """:attr:`_logged` when the writer last read the log's size, and that size (bytes)."""
        self._size = 0
        self._look = False
        """Set when the next commit is to read the log's size: the checkpoint thread found the log
        over :data:`WAL_LIMIT`, or a table was deleted (any number of pages logged)."""
        self._frame = 4096 + 24
        self._checkpointer: threading.Thread | None = None
        if path != ":memory:":
            self._db.execute("PRAGMA wal_autocheckpoint=0")
            self._frame = int(self._db.execute("PRAGMA page_size").fetchone()[0]) + 24  # a page in the log
            self._size = self.wal_bytes()
            self._checkpointer = threading.Thread(
                target=self._checkpoints, name="hucklebuck-checkpoint", daemon=True
            )
            self._checkpointer.start()

    def _checkpoints(self) -> None:
        """Copy the write-ahead log into the database now and then, on a connection of its own
        (a passive checkpoint: it never blocks a commit)."""
        try:
            db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=10)
        except sqlite3.DatabaseError:
            return
        copied, copied_at = self._logged, time.monotonic()
        try:
            while not self._open.acquire(timeout=CHECKPOINT_EVERY):  # (at most one round per that time)
                self._written.wait()  # nothing written since the last one: no wake-up until something is
                if self._stop.is_set():
                    break
                self._written.clear()
                size = self.wal_bytes()
                self.wal_peak = max(self.wal_peak, size)
                if size > WAL_LIMIT:
                    self._look = True
                    continue  # the writer truncates it at its next commit: not in its way
                logged = self._logged
                little = (logged - copied) * self._frame < COPY_AFTER
                if little and time.monotonic() - copied_at < COPY_EVERY and self._sync_log():
                    continue  # on the disk: copied into the database once more of it is there
                with self._checkpointing:
                    try:
                        db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                        copied, copied_at = logged, time.monotonic()
                    except sqlite3.DatabaseError:
                        self._written.set()  # busy or failing: the next try is half a second away
        finally:
            db.close()
            self._close_wal()

    def _sync_log(self) -> bool:
        """Put the write-ahead log on the disk (as a checkpoint does first); ``False`` if that
        cannot be done here (no such call on this system, or the file cannot be opened)."""
        sync = getattr(os, "fdatasync", None)
        if sync is None:
            return False
        fd = self._wal_fd
        if fd is None:
            try:
                fd = self._wal_fd = os.open(self.path + "-wal", os.O_RDONLY)
            except OSError:
                return False
        try:
            sync(fd)
        except OSError:
            self._close_wal()  # (opened afresh at the next round)
            return False
        return True

    def _close_wal(self) -> None:
        fd, self._wal_fd = self._wal_fd, None
        if fd is not None:
            os.close(fd)

    def wal_bytes(self) -> int:
        """The size of the write-ahead log file now (0 in memory or when there is none)."""
        try:
            return os.path.getsize(self.path + "-wal") if self.path != ":memory:" else 0
        except OSError:
            return 0

    def _check_kind(self, where: str) -> bool:
        """Refuse a database that is not a table database of a version this one reads; returns
        whether it is damaged (SQLite's ``quick_check`` finds fault with it)."""
        db = self._db
        names = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if names and "meta" not in names:
            raise StoreError(f"{where} is not a hucklebuck table database (it holds other tables)")
        damaged = bool(names) and self.path != ":memory:" and not _intact(db)
        if "meta" in names:
            try:
                meta = dict(db.execute("SELECT key, value FROM meta").fetchall())
            except sqlite3.DatabaseError:
                if damaged and "tables" in names:
                    return True  # its tables may still be read
                raise
            if meta.get("schema") != SCHEMA:
                raise StoreError(f"{where} is not a hucklebuck table database")
            version = meta.get("version")
            if version not in {str(v) for v in READS}:
                raise StoreError(
                    f"{where} was written by another version of hucklebuck (table database version "
                    f"{version}; this version reads version {SCHEMA_VERSION})"
                )
        return damaged

    def _prepare(self) -> None:
        """Create the layout if it is not there, and mark the database as this version's."""
        db = self._db
        db.execute("BEGIN IMMEDIATE")  # fails here, not at the first move, when the file is read-only
        try:
            db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
            db.execute(
                "CREATE TABLE IF NOT EXISTS tables (id TEXT PRIMARY KEY, created REAL NOT NULL, "
                "seq INTEGER NOT NULL, game TEXT NOT NULL, seats TEXT NOT NULL, tbl TEXT NOT NULL)"
            )
            db.execute(
                "CREATE TABLE IF NOT EXISTS moves (table_id TEXT NOT NULL, seq INTEGER NOT NULL, "
                "action TEXT NOT NULL, PRIMARY KEY (table_id, seq))"
            )
            db.execute("CREATE TABLE IF NOT EXISTS ended (id TEXT PRIMARY KEY, at REAL NOT NULL)")
            db.execute("INSERT OR REPLACE INTO meta VALUES ('schema', ?)", (SCHEMA,))
            db.execute("INSERT OR REPLACE INTO meta VALUES ('version', ?)", (str(SCHEMA_VERSION),))
            db.execute("INSERT OR REPLACE INTO meta VALUES ('opened', ?)", (str(time.time()),))
            db.execute("COMMIT")
        except BaseException:
            _roll_back(db)  # the cause is what counts, not that there is nothing left to roll back
            raise

    def _salvage(self, durable: bool) -> None:
        """The database is damaged: read every table that can be read, keep the damaged file aside
        (``PATH.damaged-TIME``), and carry on in a fresh database holding what was read.  The
        tables that could not be read are in :attr:`lost`; :attr:`notes` says what happened."""
        rows, moves, lost, unnamed = _readable(self._db)
        self._db.close()
        aside = f"{self.path}.damaged-{time.strftime('%Y%m%d-%H%M%S')}"
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(self.path + suffix):
                os.replace(self.path + suffix, aside + suffix)
        _private(self.path)
        self._db = _connect(self.path, durable)
        self._prepare()
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            db.executemany(
                "INSERT INTO tables (id, created, seq, game, seats, tbl) VALUES (?, ?, ?, ?, ?, ?)", rows
            )
            db.executemany("INSERT INTO moves (table_id, seq, action) VALUES (?, ?, ?)", moves)
            db.execute("COMMIT")
        except BaseException:
            _roll_back(db)
            raise
        self.lost = lost
        more = ", and perhaps more whose ids cannot be read" if unnamed else ""
        self.notes.append(
            f"the table database {self.path} was damaged: {len(rows)} table(s) read, {len(lost)} could not "
            f"be{more}; the damaged file is kept as {aside}"
        )

    def load_all(self) -> list[StoredTable]:
        """Every stored table, oldest first, with the moves since its snapshot."""
        db = self._db
        moves: dict[str, list[tuple[int, str]]] = {}
        try:
            for table_id, seq, action in db.execute("SELECT table_id, seq, action FROM moves"):
                moves.setdefault(table_id, []).append((seq, action))
            rows = db.execute("SELECT id, seq, game, seats, tbl FROM tables ORDER BY created").fetchall()
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"cannot read the table database {self.path}: {_words(exc)}") from None
        out = []
        for table_id, seq, game, seats, tbl in rows:
            later = sorted(moves.get(table_id, ()))
            top = later[-1][0] if later else seq
            out.append(StoredTable(table_id, top, game, seats, tbl, tuple(a for _, a in later)))
        return out

    def commit(self, tables: Sequence[StoredTable], moves: Sequence[StoredMove]) -> None:
        """Write the batch in one transaction (see :meth:`Store.commit`)."""
        db = self._db
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                now = time.time()
                for row in tables:
                    db.execute(
                        "INSERT INTO tables (id, created, seq, game, seats, tbl) VALUES (?, ?, ?, ?, ?, ?) "
                        "ON CONFLICT(id) DO UPDATE SET seq=excluded.seq, game=excluded.game, "
                        "seats=excluded.seats, tbl=excluded.tbl",
                        (row.id, now, row.seq, row.game, row.seats, row.table),
                    )
                    db.execute("DELETE FROM moves WHERE table_id = ?", (row.id,))
                if moves:
                    db.executemany(
                        "INSERT INTO moves (table_id, seq, action) VALUES (?, ?, ?)",
                        [(m.table_id, m.seq, m.action) for m in moves],
                    )
                    fields = {m.table_id: m.table for m in moves if m.table is not None}  # the last wins
                    if fields:
                        db.executemany(
                            "UPDATE tables SET tbl = ? WHERE id = ?", [(t, i) for i, t in fields.items()]
                        )
                db.execute("COMMIT")
            except BaseException:
                _roll_back(db)
                raise
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"cannot write the table database {self.path}: {_words(exc)}") from None
        if not self._written.is_set():
            self._written.set()  # the checkpoint thread's next round syncs it
        if self.path != ":memory:" and self._log_too_long(tables, moves):
            self._truncate_log()

    def _log_too_long(self, tables: Sequence[StoredTable], moves: Sequence[StoredMove]) -> bool:
        """Count the pages a commit may have added to the log, and whether the log is now over
        :data:`WAL_LIMIT`.  Its size is read only after whole tables (their old moves are
        deleted: any number of pages), when the checkpoint thread found it too long, or when what
        may have been logged since the last reading could take it past the limit.  Each move
        counts as 4 pages (its row, its index entry, and a split of either; most share a page
        with others), fields and tables as 4 plus twice their length, so the log is never
        larger than the count allows; and a commit of a few moves needs no look at the file (a
        system call, costly at a quiet server, where each commit finds the process cold)."""
        pages = 2 + 4 * len(moves)
        for m in moves:
            if m.table is not None:
                pages += 4 + 2 * len(m.table) // (self._frame - 24)
        for row in tables:
            pages += 4 + 2 * (len(row.game) + len(row.seats) + len(row.table)) // (self._frame - 24)
        self._logged += pages
        bound = self._size + (self._logged - self._sized) * self._frame  # the most the log can be now
        if not tables and not self._look and bound <= WAL_LIMIT:
            return False
        self._look = False
        self._sized, self._size = self._logged, self.wal_bytes()
        return self._size > WAL_LIMIT

    def _truncate_log(self) -> None:
        """The log is over :data:`WAL_LIMIT`: copy the rest of it into the database and truncate it,
        here, between two commits (a writer that never pauses starves any other connection's try).
        The checkpoint thread has copied most of it already; a failure is tried again next time."""
        self.wal_peak = max(self.wal_peak, self.wal_bytes())
        if not self._checkpointing.acquire(timeout=1.0):
            return  # the thread's checkpoint is stuck: tried again at the next commit
        # (waiting for a passive checkpoint under way, rather than skipping, is what bounds the
        # log: a writer that never pauses would otherwise outrun every checkpoint the thread starts)
        try:
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
        except sqlite3.DatabaseError:
            pass
        finally:
            self._checkpointing.release()
        self._size = self.wal_bytes()

    def save(self, row: StoredTable) -> None:
        """Store one whole table (:meth:`commit` of just that row)."""
        self.commit([row], [])

    def delete(self, table_id: str) -> None:
        """Forget a table, keeping its id among the :meth:`removed` ones (one transaction)."""
        db = self._db
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                db.execute("DELETE FROM tables WHERE id = ?", (table_id,))
                db.execute("DELETE FROM moves WHERE table_id = ?", (table_id,))
                db.execute("INSERT OR REPLACE INTO ended (id, at) VALUES (?, ?)", (table_id, time.time()))
                db.execute(
                    "DELETE FROM ended WHERE id NOT IN (SELECT id FROM ended ORDER BY at DESC LIMIT ?)",
                    (ENDED_KEPT,),
                )
                db.execute("COMMIT")
            except BaseException:
                _roll_back(db)
                raise
            self._written.set()
            self._look = True  # (its moves deleted: the next commit reads the log's size)
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"cannot write the table database {self.path}: {_words(exc)}") from None

    def removed(self) -> list[str]:
        """The ids of the tables removed to make room (see :meth:`Store.removed`)."""
        try:
            rows = self._db.execute("SELECT id FROM ended ORDER BY at").fetchall()
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"cannot read the table database {self.path}: {_words(exc)}") from None
        return [r[0] for r in rows]

    def close(self) -> None:
        """Checkpoint the write-ahead log and close."""
        self._stop.set()
        self._written.set()
        with contextlib.suppress(RuntimeError):  # (closed twice over: already let go)
            self._open.release()
        if self._checkpointer is not None:
            self._checkpointer.join(timeout=10)
        try:
            if self.path != ":memory:":
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.DatabaseError:
            pass
        self._db.close()


def _roll_back(db: sqlite3.Connection) -> None:
    """Roll back the open transaction, if SQLite has not done so already (a full disk, say)."""
    if db.in_transaction:
        try:
            db.execute("ROLLBACK")
        except sqlite3.DatabaseError:
            pass


def _connect(path: str, durable: bool) -> sqlite3.Connection:
    db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    if path != ":memory:":
        db.execute("PRAGMA journal_mode=WAL")
    db.execute(f"PRAGMA synchronous={'FULL' if durable else 'NORMAL'}")
    db.execute(f"PRAGMA journal_size_limit={WAL_LIMIT}")
    return db


def _ids(db: sqlite3.Connection, sql: str) -> tuple[list[str], bool]:
    """The first column of ``sql``'s rows as far as they can be read, and whether all could."""
    out: list[str] = []
    try:
        for (value,) in db.execute(sql):
            out.append(str(value))
    except sqlite3.DatabaseError:
        return out, False
    return out, True


def _readable(
    db: sqlite3.Connection,
) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]], dict[str, str], bool]:
    """What can be read of a damaged database: table rows, their move rows, the tables that cannot
    be read (id: why), and whether some ids could not be read at all.

    Ids are gathered along every way into the file (the table in both directions, its index,
    the moves' index), so one bad page hides as few of them as possible; then each table is read
    on its own, with its moves.  A table whose moves cannot all be read is lost, not rewound."""
    ids: dict[str, None] = {}
    complete = False
    for sql in (
        "SELECT id FROM tables",
        "SELECT id FROM tables ORDER BY rowid DESC",
        "SELECT id FROM tables ORDER BY id",
        "SELECT id FROM tables ORDER BY id DESC",
        "SELECT DISTINCT table_id FROM moves ORDER BY table_id",
        "SELECT DISTINCT table_id FROM moves ORDER BY table_id DESC",
    ):
        found, whole = _ids(db, sql)
        ids.update(dict.fromkeys(found))
        complete = complete or (whole and sql.startswith("SELECT id"))
    rows: list[tuple[object, ...]] = []
    moves: list[tuple[object, ...]] = []
    lost: dict[str, str] = {}
    for table_id in ids:
        try:
            row = db.execute(
                "SELECT id, created, seq, game, seats, tbl FROM tables WHERE id = ?", (table_id,)
            ).fetchone()
            if row is None:
                raise sqlite3.DatabaseError("its row is gone")
            later = db.execute(
                "SELECT table_id, seq, action FROM moves WHERE table_id = ?", (table_id,)
            ).fetchall()
        except sqlite3.DatabaseError:
            lost[table_id] = "its stored data is damaged"
            continue
        rows.append(tuple(row))
        moves.extend(tuple(m) for m in later)
    return rows, moves, lost, not complete


def _intact(db: sqlite3.Connection) -> bool:
    """Whether SQLite finds the database file sound (``PRAGMA quick_check``)."""
    try:
        rows = db.execute("PRAGMA quick_check(1)").fetchall()
    except sqlite3.DatabaseError:
        return False
    return rows == [("ok",)]


def _private(path: str) -> None:
    """Create the database file readable by its owner only (0600), or make an existing one so.

    It holds every live hand.  SQLite creates the ``-wal`` and ``-shm`` files with the
    database file's own permissions; any already there are tightened too.
    """
    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    except FileExistsError:
        pass
    except OSError:
        return  # not creatable: opening it says why
    else:
        os.close(fd)
    for name in (path, path + "-wal", path + "-shm"):
        try:
            if os.path.isfile(name) and os.stat(name).st_mode & 0o077:
                os.chmod(name, 0o600)
        except OSError:
            pass  # another's file, or a device: opening it says what matters


def _words(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    return {"attempt to write a readonly database": "the file is read-only"}.get(text, text)
