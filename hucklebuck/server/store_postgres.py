"""Tables in PostgreSQL, shared by several server processes (needs ``hucklebuck[postgres]``).

The layout is the SQLite store's (:mod:`hucklebuck.server.store`: a ``meta``
table with the same schema name and version, ``tables`` and ``moves``) plus
what sharing needs:

* ``tables.owner`` and ``tables.epoch``: the process that plays the table now,
  and a number raised each time the table changes hands.  A process writes a
  table only inside a transaction that first locks the table's row and finds
  its own name and epoch there; a process that lost the table (it was paused,
  cut off or too slow, and another took the table over) finds another epoch,
  and its whole batch is refused by the database and rolled back.  Moves carry
  the epoch that wrote them.
* ``tables.wanted``: another process was asked for the table (the proxy sends
  its requests there now); the owner hands it over at its next heartbeat.
* ``nodes``: one row per running process with the end of its lease, renewed
  every :data:`HEARTBEAT` seconds.  Each process also holds a PostgreSQL
  advisory lock named after itself on its heartbeat connection, which the
  database drops the moment the process dies: a killed process's tables are
  taken over at once, a paused one's when its lease runs out (:data:`LEASE`).
* ``tables.claimed``: when the table last changed hands.  A live owner is asked for a table
  only once :data:`MOVE_HOLD` seconds have passed since then, so that the tables settle
  where the proxy sends them and no pattern of requests makes one bounce between processes.
* ``tables.kind``, ``players``, ``over``, ``listed`` (open to everyone): a summary of each
  table written with it, which the listing reads (no row's JSON is parsed to list the tables).

Every connection runs with :data:`TIMEOUTS` (each below the lease) and TCP keepalives: a
process paused inside a transaction loses it (and its row locks) within seconds, and no
statement waits on a lock or a dead peer for longer than that, so one stopped process
never freezes the others.

Nothing here is imported by ``import hucklebuck`` or by the SQLite path.
"""

from __future__ import annotations

import contextlib
import json
import secrets
import threading
import time
from collections.abc import Sequence
from typing import Any, Final

import psycopg
from psycopg import errors as pg_errors

from ._pg_layout import (
    _ENDED,
    _LAYOUT,
    _MOVES_ONLY,
    _NODE_KEY,
    _SETUP_LOCK,
    _SUMMARY,
    OutcomeUnknown,
    TableBusy,
    TableFull,
    TableMoved,
    _first_line,
    describe_url,
)
from .store import ENDED_KEPT, READS, SCHEMA, SCHEMA_VERSION, StoredMove, StoredTable, StoreError

__all__ = [
    "HEARTBEAT",
    "LEASE",
    "MOVE_HOLD",
    "TIMEOUTS",
    "OutcomeUnknown",
    "PostgresStore",
    "TableBusy",
    "TableFull",
    "TableMoved",
    "describe_url",
]

LEASE: Final = 3.0
"""Seconds a process's claim on its tables lasts without a heartbeat."""
HEARTBEAT: Final = 1.0
"""Seconds between two heartbeats (a third of the lease or less)."""
CONNECT_TIMEOUT: Final = 5
"""Seconds to wait for the database when connecting."""
MOVE_HOLD: Final = 10.0
"""Seconds a table stays with the process that took it over before a live owner is asked for
it again (a proxy whose health checks flap cannot make a table bounce faster than this)."""
TIMEOUTS: Final = {
    "lock_timeout": 1000,
    "statement_timeout": 2500,
    "idle_in_transaction_session_timeout": 2000,
}
"""Milliseconds, set on every connection: the longest wait for a row lock, the longest
statement, and the longest a transaction may sit idle (a process paused inside one loses it,
and its locks, well within the :data:`LEASE`)."""
KEEPALIVES: Final[dict[str, Any]] = {
    "keepalives": 1,
    "keepalives_idle": 5,
    "keepalives_interval": 2,
    "keepalives_count": 3,
    "tcp_user_timeout": 8000,
}
"""TCP keepalives on every connection: a database that vanished without a reset is noticed."""



class PostgresStore:
    """Tables in a PostgreSQL database that several server processes share.

    Each instance is one process (``node``, a fresh random name) and owns the
    tables it created or claimed (:meth:`claim`); :meth:`commit` writes only
    tables it still owns, in one transaction, and raises :class:`TableMoved`
    (writing nothing) otherwise.  Commits are synchronous: they return once
    PostgreSQL has committed.
    """

    shared: Final = True
    """Several processes may use the database at once (the server plays each table in one of them)."""

    def __init__(self, url: str, *, lease: float = LEASE) -> None:
        """Connect to ``url`` (``postgresql://USER@HOST/DB``), check or set up the layout and
        register this process; :class:`StoreError` (one line) if the database cannot be used."""
        self.url = url
        self.where = describe_url(url)
        self.lease = lease
        self.node = secrets.token_hex(8)
        self._epochs: dict[str, int] = {}
        self.bound: int | None = None
        """The most tables this process may own (checked in the transaction that makes one)."""
        self._lock = threading.Lock()
        self.taken_from_us: set[str] = set()
        """Tables found taken over by another process, not yet given up by the server."""
        self._db = self._connect()
        self._write_lock = threading.Lock()
        self._db_lock = threading.Lock()  # the main connection: one call at a time
        try:
            self._check_layout()
            self._wdb = self._connect()  # commits: they may run on a thread of their own
            self._beat = self._connect()
            self._beat.execute(
                ("SELECT pg_advisory_lock(" + _NODE_KEY + ")").encode(), (self.node,)
            )  # dropped by the database the moment this process dies
            self._db.execute(
                b"INSERT INTO nodes (id, started, expires) VALUES (%s, %s, now() + %s * interval '1 second')",
                (self.node, time.time(), self.lease),
            )
        except psycopg.Error as exc:
            self._db.close()
            raise StoreError(self._refusal(exc)) from None

    # ----------------------------------------------------------- connecting
    def _connect(self) -> psycopg.Connection[Any]:
        try:
            return psycopg.connect(
                self.url,
                autocommit=True,
                connect_timeout=CONNECT_TIMEOUT,
                application_name="hucklebuck-serve",
                options=" ".join(f"-c {k}={v}" for k, v in TIMEOUTS.items()),
                **KEEPALIVES,
            )
        except psycopg.Error as exc:
            raise StoreError(f"cannot reach the table database ({self.where}): {_first_line(exc)}") from None

    def _refusal(self, exc: BaseException) -> str:
        if isinstance(exc, pg_errors.ReadOnlySqlTransaction):
            return f"the table database ({self.where}) is read-only: the server needs to write to it"
        if isinstance(exc, pg_errors.InsufficientPrivilege):
            return f"the table database ({self.where}) may not be written by this user: {_first_line(exc)}"
        return f"cannot use the table database ({self.where}): {_first_line(exc)}"

    def _check_layout(self) -> None:
        db = self._db
        with db.transaction():
            db.execute(b"SELECT pg_advisory_xact_lock(%s)", (_SETUP_LOCK,))
            names = {
                r[0]
                for r in db.execute(
                    b"SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
                )
            }
            if names and "meta" not in names:
                raise StoreError(f"{self.where} is not a hucklebuck table database (it holds other tables)")
            if "meta" in names:
                meta = dict(db.execute(b"SELECT key, value FROM meta").fetchall())
                if meta.get("schema") != SCHEMA:
                    raise StoreError(f"{self.where} is not a hucklebuck table database")
                version = meta.get("version")
                if version not in {str(v) for v in READS}:
                    raise StoreError(
                        f"{self.where} was written by another version of hucklebuck (table database "
                        f"version {version}; this version reads version {SCHEMA_VERSION})"
                    )
            db.execute(b"SET LOCAL statement_timeout = 0")  # a first set-up may fill the summary columns
            db.execute(b"SET LOCAL lock_timeout = '30s'")
            if not {"meta", "tables", "moves", "nodes"} <= names:  # (each statement: if not there)
                for statement in _LAYOUT:
                    db.execute(statement.encode())
            if "ended" not in names:  # (added after the first layout: the tables removed to make room)
                db.execute(_ENDED.encode())
            has = db.execute(
                b"SELECT count(*) FROM information_schema.columns WHERE table_schema = current_schema() "
                b"AND table_name = 'tables' AND column_name = 'listed'"
            ).fetchone()
            if not (has and has[0]):
                for statement in _SUMMARY:
                    db.execute(statement.encode())
            meta_rows = (("schema", SCHEMA), ("version", str(SCHEMA_VERSION)), ("opened", str(time.time())))
            for key, value in meta_rows:
                db.execute(
                    b"INSERT INTO meta VALUES (%s, %s) "
                    b"ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                    (key, value),
                )
            db.execute(b"DELETE FROM nodes WHERE expires < now() - interval '1 hour'")

    def _run(self, what: str, work: Any, connection: str = "_db") -> Any:
        """Run ``work()`` (database calls on the connection named ``connection``: the main one, or
        the commits' own); a database failure becomes a :class:`StoreError` and a lost connection
        is opened again for the next call."""
        try:
            if connection == "_db":
                with self._db_lock:
                    return work()
            return work()
        except StoreError:
            raise
        except psycopg.Error as exc:
            con = getattr(self, connection)
            lost = con.closed or con.broken
            if lost:
                try:
                    setattr(self, connection, self._connect())
                except StoreError:
                    pass
            if isinstance(exc, pg_errors.ReadOnlySqlTransaction):
                raise StoreError(self._refusal(exc)) from None
            message = f"cannot {what} the table database ({self.where}): {_first_line(exc)}"
            if lost and connection == "_wdb":  # a commit cut off: stored or not, nobody can tell here
                raise OutcomeUnknown(message + " (the commit may have been stored)") from None
            raise StoreError(message) from None

    # ------------------------------------------------------------- ownership
    def owns(self, table_id: str) -> bool:
        """Whether this process owns ``table_id`` as far as it knows."""
        return table_id in self._epochs

    def epoch(self, table_id: str) -> int | None:
        """The epoch this process holds ``table_id`` at (``None``: not its table)."""
        return self._epochs.get(table_id)

    def claim(self, table_id: str) -> StoredTable | None:
        """Take ``table_id`` over and read it (``None``: there is no such table).

        The table is taken if it has no owner or its owner is gone (its
        advisory lock is free, or its lease ran out); its epoch goes up by
        one, so the earlier owner can no longer write it.  A table owned by a
        live process is marked as wanted here (unless it changed hands less than
        :data:`MOVE_HOLD` seconds ago) and :class:`TableBusy` raised: ask again in a moment."""

        def work() -> StoredTable | type[_Busy] | None:
            db = self._db
            with db.transaction():
                row = db.execute(
                    b"SELECT t.owner, t.epoch, t.seq, t.game, t.seats, t.tbl, "
                    b"(SELECT n.expires > now() FROM nodes n WHERE n.id = t.owner), "
                    b"coalesce(t.claimed, 0) "
                    b"FROM tables t WHERE t.id = %s FOR UPDATE OF t",
                    (table_id,),
                ).fetchone()
                if row is None:
                    return None
                owner, epoch, seq, game, seats, tbl, live, claimed = row
                if owner is not None and owner != self.node and live:
                    free = db.execute(
                        ("SELECT pg_try_advisory_xact_lock(" + _NODE_KEY + ")").encode(), (owner,)
                    ).fetchone()
                    if not (free and free[0]):  # the owner is alive: it hands the table over when asked
                        if time.time() - claimed >= MOVE_HOLD:  # else it has only just moved there
                            db.execute(b"UPDATE tables SET wanted = %s WHERE id = %s", (self.node, table_id))
                        return _Busy  # the mark is committed
                moved = owner != self.node  # changed hands (from a live, gone or released owner)
                epoch += 1
                db.execute(
                    b"UPDATE tables SET owner = %s, epoch = %s, wanted = NULL, "
                    b"claimed = CASE WHEN %s THEN %s ELSE claimed END WHERE id = %s",
                    (self.node, epoch, moved, time.time(), table_id),
                )
                moves = db.execute(
                    b"SELECT seq, action FROM moves WHERE table_id = %s ORDER BY seq", (table_id,)
                ).fetchall()
            with self._lock:
                self._epochs[table_id] = epoch
                self.taken_from_us.discard(table_id)
            top = moves[-1][0] if moves else seq
            return StoredTable(table_id, int(top), game, seats, tbl, tuple(a for _, a in moves))

        result: StoredTable | type[_Busy] | None = self._run("read", work)
        if result is _Busy:
            raise TableBusy(f"table {table_id} is being moved to this server; try again in a moment")
        assert not isinstance(result, type)
        return result

    def release(self, table_id: str, epoch: int | None = None) -> None:
        """Give ``table_id`` up (it has no owner until another process claims it); with ``epoch``,
        only the hold at that epoch (a later claim by this process stays)."""
        with self._lock:
            if epoch is None:
                epoch = self._epochs.get(table_id)
        if epoch is None:
            return
        self._run(
            "write",
            lambda: self._db.execute(
                b"UPDATE tables SET owner = NULL, wanted = NULL WHERE id = %s AND owner = %s AND epoch = %s",
                (table_id, self.node, epoch),
            ),
        )
        with self._lock:  # only once the database let it go: a failed release is tried again when
            if self._epochs.get(table_id) == epoch:  # the table is next asked for
                del self._epochs[table_id]

    def heartbeat(self) -> tuple[list[str], list[str]]:
        """Renew this process's lease; the tables others asked for, and the tables found lost.

        Runs on a connection of its own (a thread of the server calls it), opened again if it
        dropped; raises ``psycopg.Error`` or :class:`StoreError` if the database cannot be reached."""
        if self._beat.closed or self._beat.broken:  # the database restarted, or the link dropped
            self._beat = self._connect()
            self._beat.execute(("SELECT pg_advisory_lock(" + _NODE_KEY + ")").encode(), (self.node,))
            self.reopen()
        beat = self._beat
        mine = dict(self._epochs)
        beat.execute(
            b"INSERT INTO nodes (id, started, expires) VALUES (%s, %s, now() + %s * interval '1 second') "
            b"ON CONFLICT (id) DO UPDATE SET expires = excluded.expires",
            (self.node, time.time(), self.lease),
        )
        rows = beat.execute(b"SELECT id, epoch, wanted FROM tables WHERE owner = %s", (self.node,)).fetchall()
        held = {r[0]: r[1] for r in rows}
        wanted = [r[0] for r in rows if r[2] is not None and r[2] != self.node and mine.get(r[0]) == r[1]]
        lost = [t for t, e in mine.items() if held.get(t) != e and self._epochs.get(t) == e]
        if lost:
            with self._lock:
                for t in lost:
                    if self._epochs.get(t) == mine[t]:
                        del self._epochs[t]
                        self.taken_from_us.add(t)
        return wanted, lost

    def reopen(self) -> None:
        """Open the main and the commits' connections again if they are broken: called when the
        heartbeat found the database restarted, so that the next claim, listing or clean stop
        does not fail first.  A connection in use (a call under way) is left to that call."""
        for name, lock in (("_db", self._db_lock), ("_wdb", self._write_lock)):
            if not lock.acquire(blocking=False):
                continue
            try:
                con = getattr(self, name)
                alive = False
                if not (con.closed or con.broken):
                    try:
                        con.execute(b"SELECT 1")
                        alive = True
                    except psycopg.Error:
                        pass
                if not alive:
                    with contextlib.suppress(StoreError):
                        setattr(self, name, self._connect())
            finally:
                lock.release()

    def take_lost(self) -> set[str]:
        """The tables found lost since the last call (each reported once)."""
        with self._lock:
            lost, self.taken_from_us = self.taken_from_us, set()
        return lost

    # ----------------------------------------------------------- the Store
    def load_all(self) -> list[StoredTable]:
        """Every table this process can take now (no owner, or a gone one), claimed."""
        ids = self._run(
            "read", lambda: [r[0] for r in self._db.execute(b"SELECT id FROM tables ORDER BY created")]
        )
        out = []
        for table_id in ids:
            try:
                row = self.claim(table_id)
            except TableBusy:
                continue
            if row is not None:
                out.append(row)
        return out

    def commit(self, tables: Sequence[StoredTable], moves: Sequence[StoredMove]) -> None:
        """Write the batch in one transaction, only if this process still owns every table in it
        (checked under the tables' row locks); :class:`TableMoved` (nothing written) if not.

        Commits have a connection of their own and are made one at a time: a thread may commit
        while the event loop claims tables or reads the listing on the main connection."""
        if not tables and not moves:
            return
        new = [row for row in tables if row.id not in self._epochs]
        fresh = {row.id for row in new}
        mine = sorted(({row.id for row in tables} | {m.table_id for m in moves}) - fresh)
        epochs = {t: self._epochs.get(t) for t in mine} | dict.fromkeys(fresh, 1)

        def work() -> None:
            db = self._wdb
            if not tables and all(epochs[t] is not None for t in mine):
                self._moves_only(db, moves, epochs)  # the common batch: one statement, one round trip
                return
            with db.transaction():
                if mine:
                    found = dict(
                        db.execute(
                            b"SELECT id, epoch FROM tables WHERE id = ANY(%s) AND owner = %s "
                            b"ORDER BY id FOR UPDATE",
                            (mine, self.node),
                        ).fetchall()
                    )
                    gone = [t for t in mine if epochs[t] is None or found.get(t) != epochs[t]]
                    if gone:
                        raise TableMoved(gone)
                now = time.time()
                if new and self.bound is not None:  # counted here, where the new rows go in (this
                    # process's commits run one at a time, and its claims are bounded before they start)
                    held = db.execute(
                        b"SELECT count(*) FROM tables WHERE owner = %s", (self.node,)
                    ).fetchone()
                    if held is not None and int(held[0]) + len(new) > self.bound:
                        raise TableFull(f"this server holds {self.bound} tables already; try later")
                for row in new:
                    done = db.execute(
                        b"INSERT INTO tables (id, created, seq, game, seats, tbl, owner, epoch, kind, "
                        b"players, over, listed) VALUES (%s, %s, %s, %s, %s, %s, %s, 1, "
                        b"%s::jsonb ->> 'game', jsonb_array_length(%s::jsonb), "
                        b"coalesce(jsonb_typeof(%s::jsonb -> 'game_over'), 'null') <> 'null', "
                        b"coalesce(%s::jsonb -> 'public' = 'true'::jsonb, false)) "
                        b"ON CONFLICT (id) DO NOTHING",
                        (row.id, now, row.seq, row.game, row.seats, row.table, self.node, row.game, row.seats,
                         row.table, row.table),
                    )  # fmt: skip
                    if done.rowcount != 1:  # it exists, and is not this process's (any more)
                        raise TableMoved([row.id])
                for row in tables:
                    if row.id not in fresh:
                        db.execute(
                            b"UPDATE tables SET seq = %s, game = %s, seats = %s, tbl = %s, "
                            b"over = coalesce(jsonb_typeof(%s::jsonb -> 'game_over'), 'null') <> 'null' "
                            b"WHERE id = %s",
                            (row.seq, row.game, row.seats, row.table, row.table, row.id),
                        )
                        db.execute(b"DELETE FROM moves WHERE table_id = %s", (row.id,))
                if moves:
                    with db.cursor() as cur:
                        cur.executemany(
                            b"INSERT INTO moves (table_id, seq, action, epoch) VALUES (%s, %s, %s, %s)",
                            [(m.table_id, m.seq, m.action, epochs[m.table_id]) for m in moves],
                        )
                    fields = {m.table_id: m.table for m in moves if m.table is not None}  # the last wins
                    for table_id, text in fields.items():
                        db.execute(
                            b"UPDATE tables SET tbl = %s, "
                            b"over = coalesce(jsonb_typeof(%s::jsonb -> 'game_over'), 'null') <> 'null' "
                            b"WHERE id = %s",
                            (text, text, table_id),
                        )

        try:
            with self._write_lock:
                self._run("write", work, "_wdb")
        except TableMoved as exc:
            with self._lock:
                for t in exc.table_ids:
                    if t in self._epochs:
                        del self._epochs[t]
                    self.taken_from_us.add(t)
            raise
        with self._lock:
            for row in new:
                self._epochs[row.id] = 1

    def _moves_only(
        self, db: psycopg.Connection[Any], moves: Sequence[StoredMove], epochs: dict[str, int | None]
    ) -> None:
        """A batch of single moves in one statement (its own transaction): the rows are written
        only if every table's row, locked, still names this process and its epoch."""
        batch = {
            "e": epochs,
            "m": [{"t": m.table_id, "s": m.seq, "a": m.action} for m in moves],
            "f": {m.table_id: m.table for m in moves if m.table is not None},  # the last wins
        }
        row = db.execute(_MOVES_ONLY, {"batch": json.dumps(batch), "node": self.node}).fetchone()
        if row is None or row[0] != len(epochs):
            ids = sorted(epochs)
            found = dict(
                db.execute(
                    b"SELECT id, epoch FROM tables WHERE id = ANY(%s) AND owner = %s", (ids, self.node)
                ).fetchall()
            )
            raise TableMoved([t for t in ids if found.get(t) != epochs[t]] or ids)

    def save(self, row: StoredTable) -> None:
        """Store one whole table (:meth:`commit` of just that row)."""
        self.commit([row], [])

    def delete(self, table_id: str) -> None:
        """Forget a table this process owns."""
        epoch = self._epochs.get(table_id)
        if epoch is None:
            return

        def work() -> None:
            with self._db.transaction():
                done = self._db.execute(
                    b"DELETE FROM tables WHERE id = %s AND owner = %s AND epoch = %s",
                    (table_id, self.node, epoch),
                )
                if done.rowcount == 1:
                    self._db.execute(b"DELETE FROM moves WHERE table_id = %s", (table_id,))
                    self._db.execute(
                        b"INSERT INTO ended (id, at) VALUES (%s, %s) "
                        b"ON CONFLICT (id) DO UPDATE SET at = excluded.at",
                        (table_id, time.time()),
                    )
                    self._db.execute(
                        b"DELETE FROM ended WHERE id NOT IN (SELECT id FROM ended ORDER BY at DESC LIMIT %s)",
                        (ENDED_KEPT,),
                    )

        self._run("write", work)
        with self._lock:
            self._epochs.pop(table_id, None)

    def removed(self) -> list[str]:
        """The ids of the tables removed to make room, by any process (oldest first)."""
        rows = self._run("read", lambda: self._db.execute(b"SELECT id FROM ended ORDER BY at").fetchall())
        return [r[0] for r in rows]

    def was_removed(self, table_id: str) -> bool:
        """Whether ``table_id`` was removed to make room (by any process)."""
        row = self._run(
            "read", lambda: self._db.execute(b"SELECT 1 FROM ended WHERE id = %s", (table_id,)).fetchone()
        )
        return row is not None

    def listing(self) -> list[dict[str, Any]]:
        """Every table open to everyone of every process (a private one is never listed), newest
        first: id, game, players, whether it is over.

        Read from the summary columns through the ``tables_listed`` index (no row's JSON is
        parsed); the server calls it off its event loop and keeps the answer a moment
        (:class:`~hucklebuck.server.cluster.ClusterManager`)."""
        rows = self._run(
            "read",
            lambda: self._db.execute(
                b"SELECT id, kind, players, over FROM tables WHERE listed ORDER BY created DESC LIMIT 1000"
            ).fetchall(),
        )
        return [{"id": r[0], "game": r[1], "players": r[2], "over": r[3]} for r in rows]

    def close(self) -> None:
        """Give every table up, end the lease and disconnect."""
        try:
            with self._db.transaction():
                self._db.execute(
                    b"UPDATE tables SET owner = NULL, wanted = NULL WHERE owner = %s", (self.node,)
                )
                self._db.execute(b"DELETE FROM nodes WHERE id = %s", (self.node,))
        except psycopg.Error:
            pass  # the leases run out by themselves
        self._epochs.clear()
        for con in (self._db, getattr(self, "_wdb", None), getattr(self, "_beat", None)):
            if con is not None:
                con.close()


class _Busy:
    """Inside :meth:`PostgresStore.claim`: the owner is alive (the ``wanted`` mark is committed,
    then :class:`TableBusy` raised)."""
