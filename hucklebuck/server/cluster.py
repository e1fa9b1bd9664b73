"""Several server processes sharing one PostgreSQL database: each table is played by
at most one of them at a time.

:class:`ClusterManager` is the table manager of such a process.  It holds no
table at start; the first request for a table claims it from the database
(:meth:`~hucklebuck.server.store_postgres.PostgresStore.claim`: free tables,
and tables of a dead process, are taken at once and play on at the same
``seq``).  A table that another live process plays is asked for and refused
with a retry answer (HTTP 503 with ``Retry-After``, a WebSocket closed with
1013): the owner hands it over at its next heartbeat, closing its own
connections with 1012 so that they reconnect through the proxy, and the retry
claims it.  A heartbeat thread renews the process's lease every second and
finds the tables it lost (it was paused and others took them over): those are
given up, their connections closed, and their late writes were refused by the
database anyway (every commit is checked against the table's epoch).

Commits run on a thread of their own, one at a time, so that the event loop goes on
with other tables while PostgreSQL writes a batch to disk: the changes made meanwhile
wait for that commit to end and then go as the next batch (the longer a commit takes,
the more changes the next one carries).  Nothing changes for the clients: a table tells
them its state only once the batch that changed it is committed, its newer changes wait
for their own commit, and a batch refused takes back the changes built on it.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, Final, cast

from .manager import TableManager, _Entry
from .store import Store, StoreError
from .tables import ServerTable, TableRefused

if TYPE_CHECKING:
    from ..games.engine import TrickGame
    from .config import ServerConfig
    from .store_postgres import PostgresStore

__all__ = ["MOVED", "RETRY_AFTER", "ClusterManager", "is_shared", "table_listing"]

MOVED: Final = 1012
"""WebSocket close code for the connections of a table handed to another process (reconnect)."""
RETRY_AFTER: Final = 1
"""Seconds a client waits before asking again for a table that is moving between processes."""


def is_shared(store: object) -> bool:
    """Whether ``store`` is shared by several processes (then the server claims tables from it)."""
    return bool(getattr(store, "shared", False))


class ClusterManager(TableManager):
    """The table manager of one of several processes sharing a database (see the module docstring)."""

    store: PostgresStore

    def __init__(
        self,
        config: ServerConfig,
        store: Store,
        *,
        report: Callable[[str], None] = lambda _m: None,
        hinter: Callable[[TrickGame[Any, Any], int], dict[str, Any]] | None = None,
    ) -> None:
        """Tables claimed from the shared ``store`` (a
        :class:`~hucklebuck.server.store_postgres.PostgresStore`)."""
        super().__init__(config, store, report=report, hinter=hinter)
        self.store = cast("PostgresStore", store)
        self._stop = threading.Event()
        self._beats: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._writer: ThreadPoolExecutor | None = None
        self._writing: _Writing | None = None

    # ------------------------------------------------------------- claiming
    def restore(self) -> None:
        """Nothing to load at start: each table is claimed by its first request."""

    def start(self) -> None:
        """Start the heartbeat (on the event loop)."""
        super().start()
        self._loop = asyncio.get_running_loop()
        from .store_postgres import HEARTBEAT

        def beats() -> None:
            failing = False
            while not self._stop.wait(HEARTBEAT):
                try:
                    wanted, lost = self.store.heartbeat()
                except Exception as exc:
                    if not failing:  # said once per outage
                        self._soon(self.report, f"the heartbeat cannot reach the table database: {exc}")
                    failing = True
                    continue
                if failing:
                    self._soon(self.report, "the heartbeat reaches the table database again")
                    failing = False
                if wanted or lost:
                    self._soon(self._after_beat, wanted, lost)

        self._beats = threading.Thread(target=beats, name="hucklebuck-heartbeat", daemon=True)
        self._beats.start()
        self._writer = ThreadPoolExecutor(1, thread_name_prefix="hucklebuck-commit")

    def _soon(self, fn: Callable[..., None], *args: Any) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(fn, *args)
            except RuntimeError:
                pass  # the loop is closing

    def get(self, table_id: str) -> ServerTable:
        """The table ``table_id``, claimed from the database if this process does not hold it;
        :class:`TableRefused` ``moving`` if another live process plays it now (ask again)."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        if table_id in self.broken:
            return super().get(table_id)
        from .store_postgres import TableBusy

        try:
            row = self.store.claim(table_id)
        except TableBusy:
            raise TableRefused(
                "moving", "this table is moving to another server; try again in a moment"
            ) from None
        except StoreError as exc:
            self.report(str(exc))
            raise TableRefused(
                "busy", "the table database cannot be reached; try again in a moment"
            ) from None
        if row is None:
            raise TableRefused("unknown_table", "there is no such table")
        try:
            table = self._restore(row)
        except Exception as exc:
            reason = " ".join(str(exc).split()) or type(exc).__name__
            self.broken[table_id] = reason
            self.report(f"table {table_id} cannot be restored: {reason}")
            self._quietly(self.store.release, table_id)
            return super().get(table_id)
        self.tables[table_id] = table
        for i, seat in enumerate(table.seats):
            if seat.kind == "human" and not seat.away:
                table.start_grace(i)  # its people reconnect from the process that lost it
        table.drive()
        return table

    def _quietly(self, fn: Callable[[str], None], table_id: str) -> None:
        try:
            fn(table_id)
        except StoreError as exc:
            self.report(str(exc))

    # -------------------------------------------------------- giving tables up
    def _give_up(self, table_id: str, reason: str) -> None:
        """Forget ``table_id`` here: stop it and close its connections (they reconnect elsewhere)."""
        table = self.tables.pop(table_id, None)
        if table is None:
            return
        self._undo.pop(table_id, None)
        self._batch = [entry for entry in self._batch if entry[0] is not table]
        table.stop()
        for conn in list(table.connections):
            conn.close(MOVED, reason)

    def _after_beat(self, wanted: list[str], lost: list[str]) -> None:
        for table_id in lost:
            if table_id in self.tables:
                self.report(f"table {table_id} was taken over by another server: given up here")
                self._give_up(table_id, "this table moved to another server; reconnect")
        for table_id in wanted:
            table = self.tables.get(table_id)
            if table is None or self.is_pending(table):
                continue  # asked again at the next heartbeat
            try:
                self.store.release(table_id)
            except StoreError as exc:
                self.report(str(exc))
                continue
            self._give_up(table_id, "this table moved to another server; reconnect")

    def begin(self, table: ServerTable) -> None:
        """As :meth:`TableManager.begin`, for a table this process still plays (else nothing)."""
        if self.tables.get(table.id) is table:
            super().begin(table)

    def queue(self, table: ServerTable, move: str | None, failed: Callable[[], None] | None) -> None:
        """As :meth:`TableManager.queue`; a change of a table given up meanwhile is dropped."""
        if self.tables.get(table.id) is table:
            super().queue(table, move, failed)

    def is_pending(self, table: ServerTable) -> bool:
        """Whether ``table`` has changes not yet committed: queued, or in the commit under way."""
        writing = self._writing
        return super().is_pending(table) or (writing is not None and table.id in writing.undo)

    def flush(self) -> None:
        """Commit the round's changes (see :meth:`TableManager.flush`) on the commit thread; while
        a commit is under way they wait for it.  Before :meth:`start` and after :meth:`close`, the
        commit is made here and now."""
        if self._writer is None:
            super().flush()
            self._give_up_lost()
            return
        if self._writing is not None or not self._batch:
            return  # sent as soon as the commit under way ends
        batch, undo = self._batch, self._undo
        self._batch, self._undo = [], {}
        tables, rows, moves = self._rows(batch)
        for table in tables:
            table.fields_changed = False  # their fields as of now go with this batch
        done = self._writer.submit(self.store.commit, rows, moves)
        writing = self._writing = _Writing(batch, undo, tables, done)
        done.add_done_callback(lambda _f: self._soon(self._written, writing))

    def _written(self, writing: _Writing) -> None:
        """The commit ``writing`` ended (on the event loop): tell the tables' clients, or put
        the tables back; then send the changes that waited."""
        if self._writing is not writing:
            return  # already dealt with (by :meth:`close`)
        self._writing = None
        exc = writing.done.exception()
        if exc is None:
            waiting = {entry[0].id for entry in self._batch}
            for table in writing.tables:
                if table.id not in waiting:  # else its newer state goes out with its own commit
                    table.broadcast()
                    table.drive()
        else:
            for table in writing.tables:
                table.fields_changed = True
            # changes made meanwhile on these tables were built on what was refused: they go too
            gone = [entry for entry in self._batch if entry[0].id in writing.undo]
            self._batch = [entry for entry in self._batch if entry[0].id not in writing.undo]
            for table_id in writing.undo:
                self._undo.pop(table_id, None)
            self._refused(exc, writing.batch + gone, writing.undo, writing.tables)
        self._give_up_lost()
        self.flush()

    def _give_up_lost(self) -> None:
        """Give up the tables the database said were taken over by another process (nothing of
        their refused batch was stored or told)."""
        for table_id in self.store.take_lost():
            if table_id in self.tables:
                self.report(f"table {table_id} was taken over by another server: its change was refused")
                self._give_up(table_id, "this table moved to another server; reconnect")

    def close(self) -> None:
        """Stop the heartbeat, let the commit under way end, then as :meth:`TableManager.close`
        (which stores what waits and hands every table back)."""
        self._stop.set()
        if self._beats is not None:
            self._beats.join(timeout=5)
        writer, self._writer = self._writer, None
        if writer is not None:
            writer.shutdown(wait=True)
        if self._writing is not None:
            self._written(self._writing)  # the commits left are made here and now
        super().close()


class _Writing:
    """A commit under way on the commit thread: its batch, the tables' undo points, the tables."""

    def __init__(
        self,
        batch: list[_Entry],
        undo: dict[str, tuple[ServerTable, tuple[Any, ...]]],
        tables: list[ServerTable],
        done: Future[None],
    ) -> None:
        """The commit of ``batch`` (ending with ``done``)."""
        self.batch, self.undo, self.tables, self.done = batch, undo, tables, done


def table_listing(manager: TableManager) -> list[dict[str, Any]]:
    """``GET /api/tables``: every table open to everyone (of every process, when the database is
    shared); a private table is never listed."""
    listing = getattr(manager.store, "listing", None)
    if listing is not None:
        rows: list[dict[str, Any]] = listing()
        return rows
    return [
        {"id": t.id, "game": t.game.kind.value, "players": t.game.players, "over": t.over}
        for t in reversed(list(manager.tables.values()))
        if t.fields.get("public") is True
    ]
