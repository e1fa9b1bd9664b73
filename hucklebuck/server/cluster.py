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

No database call runs on the event loop: claims, hand-overs and the table listing go to
one thread of their own (:meth:`ClusterManager.fetch`, each with a deadline; the listing
is kept for :data:`LISTING_FOR` seconds), and every connection has the store's timeouts,
so that a paused process holding a row lock, or a database that stopped answering, slows
only the requests for the tables concerned, never the others.  A process claims no more
tables than its ``--max-tables`` (the database counts them when one is made).

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
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, Final, cast

from .learned import OfferedPolicy
from .manager import ENDED_MESSAGE, TableManager, _Entry
from .store import Store, StoredTable, StoreError
from .stored import note_commit
from .tables import ServerTable, TableRefused

if TYPE_CHECKING:
    from ..games.engine import TrickGame
    from .catalog import TableRequest
    from .config import ServerConfig
    from .store_postgres import PostgresStore

__all__ = [
    "DB_DEADLINE",
    "LISTING_FOR",
    "MOVED",
    "RETRY_AFTER",
    "ClusterManager",
    "is_shared",
    "table_listing",
]

MOVED: Final = 1012
"""WebSocket close code for the connections of a table handed to another process (reconnect)."""
RETRY_AFTER: Final = 1
"""Seconds a client waits before asking again for a table that is moving between processes."""
LISTING_FOR: Final = 1.5
"""Seconds the table listing is kept before the database is read again."""
DB_DEADLINE: Final = 10.0
"""Seconds a request waits for its database call (a claim, the listing) before it is answered
"try again" (each statement is bounded by the store's timeouts well before that)."""


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
        offers: Mapping[str, OfferedPolicy] | None = None,
    ) -> None:
        """Tables claimed from the shared ``store`` (a
        :class:`~hucklebuck.server.store_postgres.PostgresStore`)."""
        super().__init__(config, store, report=report, hinter=hinter, offers=offers)
        self.store = cast("PostgresStore", store)
        self._stop = threading.Event()
        self._beats: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._writer: ThreadPoolExecutor | None = None
        self._writing: _Writing | None = None
        self._reader: ThreadPoolExecutor | None = None
        self._claims: dict[str, asyncio.Future[ServerTable]] = {}
        self._listed: tuple[float, list[dict[str, Any]]] | None = None
        self._listing: asyncio.Future[list[dict[str, Any]]] | None = None
        self.store.bound = config.max_tables

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
        self._reader = ThreadPoolExecutor(1, thread_name_prefix="hucklebuck-db")

    def _soon(self, fn: Callable[..., None], *args: Any) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(fn, *args)
            except RuntimeError:
                pass  # the loop is closing

    def get(self, table_id: str) -> ServerTable:
        """The table ``table_id``, claimed from the database if this process does not hold it;
        :class:`TableRefused` ``moving`` if another live process plays it now (ask again).

        This calls the database where it runs: the server uses :meth:`fetch` instead."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        if table_id in self.broken:
            return super().get(table_id)
        self._check_bound()
        return self._claimed(table_id, self._claim(table_id))

    async def fetch(self, table_id: str) -> ServerTable:
        """:meth:`get` with the claim made off the event loop (one claim per table at a time, the
        others waiting for it), within :data:`DB_DEADLINE`."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        if table_id in self.broken or self._reader is None:
            return self.get(table_id)
        running = self._claims.get(table_id)
        if running is None:
            self._check_bound()
            running = self._claims[table_id] = asyncio.ensure_future(self._fetch(table_id))
            running.add_done_callback(lambda _f: self._claims.pop(table_id, None))
        return await asyncio.shield(running)

    async def _fetch(self, table_id: str) -> ServerTable:
        assert self._reader is not None
        loop = asyncio.get_running_loop()
        work = loop.run_in_executor(self._reader, self._claim, table_id)
        try:
            row = await asyncio.wait_for(asyncio.shield(work), DB_DEADLINE)
        except asyncio.TimeoutError:
            work.add_done_callback(lambda f: self._late_claim(table_id, f))
            slow = "the table database is slow to answer; try again in a moment"
            raise TableRefused("busy", slow) from None
        table = self.tables.get(table_id)
        if table is not None:  # claimed meanwhile by another way in
            return table
        return self._claimed(table_id, row)

    def _late_claim(self, table_id: str, done: Any) -> None:
        """A claim that ended after its request gave up: hand the table back (nobody waits for it)."""
        if done.cancelled() or done.exception() is not None or done.result() is None:
            return
        if table_id not in self.tables and self._reader is not None:
            epoch = self.store.epoch(table_id)
            self._reader.submit(self._quietly_release, table_id, epoch)

    def _check_bound(self) -> None:
        if len(self.tables) >= self.config.max_tables:
            raise TableRefused(
                "full", f"this server plays {self.config.max_tables} tables already; try again later"
            )

    def _claim(self, table_id: str) -> StoredTable | None:
        """The claim itself (on the database thread, or here): the stored table, ``None`` if there
        is none; :class:`TableRefused` ``moving`` or ``busy``."""
        from .store_postgres import TableBusy

        try:
            row = self.store.claim(table_id)
            if row is None and self.store.was_removed(table_id):  # by this process or another
                raise TableRefused("unknown_table", ENDED_MESSAGE)
            return row
        except TableBusy:
            raise TableRefused(
                "moving", "this table is moving to another server; try again in a moment"
            ) from None
        except StoreError as exc:
            self.report(str(exc))
            raise TableRefused(
                "busy", "the table database cannot be reached; try again in a moment"
            ) from None

    def _claimed(self, table_id: str, row: StoredTable | None) -> ServerTable:
        """Set the claimed ``row`` going here (on the event loop)."""
        if row is None:
            raise TableRefused("unknown_table", "there is no such table")
        try:
            table = self._restore(row)
        except Exception as exc:
            reason = " ".join(str(exc).split()) or type(exc).__name__
            self.broken[table_id] = reason
            self.report(f"table {table_id} cannot be restored: {reason}")
            self._release_later(table_id)
            return super().get(table_id)
        self.tables[table_id] = table
        for i, seat in enumerate(table.seats):
            if seat.kind == "human" and not seat.away:
                table.start_grace(i)  # its people reconnect from the process that lost it
        table.drive()
        return table

    def create(self, request: TableRequest) -> tuple[ServerTable, list[str | None]]:
        """As :meth:`TableManager.create`; the database refuses a table past this process's bound
        (counted where the table is made, so a restart or the claims cannot get past it)."""
        from .store_postgres import TableFull

        self._room_for_one()
        try:
            return super().create(request)
        except TableFull as exc:
            raise TableRefused("full", str(exc)) from None

    def _room_for_one(self) -> None:
        if len(self.tables) >= self.config.max_tables:
            self._make_room()  # a finished table nobody watches goes
        self._check_bound()
        self._listed = None  # this process's new table is listed at once

    async def create_async(self, request: TableRequest) -> tuple[ServerTable, list[str | None]]:
        """As :meth:`create`, with the new table's row stored on the commit thread while the event
        loop goes on: that thread takes one job at a time, in order, so the row is stored before
        any change of the table; the answer waits for it (within :data:`DB_DEADLINE`)."""
        writer = self._writer
        if writer is None:
            return self.create(request)
        from .store_postgres import TableFull

        self._room_for_one()
        real = self.store
        capture = _NewRow(real)
        self.store = cast("PostgresStore", capture)
        try:
            table, tokens = TableManager.create(self, request)  # its row is kept aside, not stored
        finally:
            self.store = real
        stored = asyncio.wrap_future(writer.submit(real.commit, capture.rows, []))
        try:
            await asyncio.wait_for(asyncio.shield(stored), DB_DEADLINE)
        except (StoreError, asyncio.TimeoutError) as exc:
            self._give_up(table.id, "this table could not be stored")
            if isinstance(exc, TableFull):
                raise TableRefused("full", str(exc)) from None
            if isinstance(exc, StoreError):
                raise
            raise StoreError("the table database did not store the new table in time") from None
        return table, tokens

    def _release_later(self, table_id: str) -> None:
        """Hand ``table_id`` back to the database off the event loop (at the hold's epoch now)."""
        epoch = self.store.epoch(table_id)
        if self._reader is None:
            self._quietly_release(table_id, epoch)
        else:
            self._reader.submit(self._quietly_release, table_id, epoch)

    def _quietly_release(self, table_id: str, epoch: int | None) -> None:
        try:
            self.store.release(table_id, epoch)
        except StoreError as exc:
            self._soon(self.report, str(exc))

    async def listing(self) -> list[dict[str, Any]]:
        """Every table of every process (``GET /api/tables``): read off the event loop, and kept
        for :data:`LISTING_FOR` seconds (one read at a time, however many ask meanwhile)."""
        listed = self._listed
        if listed is not None and time.monotonic() - listed[0] < LISTING_FOR:
            return listed[1]
        if self._reader is None:
            return self.store.listing()
        if self._listing is None:
            loop = asyncio.get_running_loop()
            self._listing = asyncio.ensure_future(self._read_listing(loop))
        return await asyncio.shield(self._listing)

    async def _read_listing(self, loop: asyncio.AbstractEventLoop) -> list[dict[str, Any]]:
        assert self._reader is not None
        try:
            work = loop.run_in_executor(self._reader, self.store.listing)
            try:
                rows = await asyncio.wait_for(work, DB_DEADLINE)
            except asyncio.TimeoutError:
                raise StoreError("the table database did not answer the listing in time") from None
            self._listed = (time.monotonic(), rows)
            return rows
        finally:
            self._listing = None

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
            if table is None and table_id not in self._claims:  # held in the database only (given
                self._release_later(table_id)  # up after a commit of unknown outcome): let it go
                continue
            if table is None or self.is_pending(table):
                continue  # asked again at the next heartbeat
            epoch = self.store.epoch(table_id)
            self._give_up(table_id, "this table moved to another server; reconnect")
            if self._reader is None:
                self._quietly_release(table_id, epoch)
            else:  # off the event loop; a claim of it asked later runs after this
                self._reader.submit(self._quietly_release, table_id, epoch)

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
        writing.rows = rows
        done.add_done_callback(lambda _f: self._soon(self._written, writing))

    def _written(self, writing: _Writing) -> None:
        """The commit ``writing`` ended (on the event loop): tell the tables' clients, or put
        the tables back; then send the changes that waited."""
        if self._writing is not writing:
            return  # already dealt with (by :meth:`close`)
        self._writing = None
        exc = writing.done.exception()
        if exc is None:
            note_commit(writing.batch, writing.rows)
            waiting = {entry[0].id for entry in self._batch}
            for table in writing.tables:
                if table.id not in waiting:  # else its newer state goes out with its own commit
                    table.broadcast()
                    table.drive()
        elif _unknown(exc):
            self._reload(writing, exc)
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

    def _reload(self, writing: _Writing, exc: BaseException) -> None:
        """A commit whose outcome is unknown (the connection dropped during it): its tables are
        given up here, their connections closed with 1012 and nobody told "not stored"; whoever
        asks next reads them from the database, which alone knows what was stored."""
        self.report(f"{len(writing.batch)} change(s) may or may not be stored: {exc}; read again")
        ids = {table.id for table in writing.tables}
        for table_id in ids:
            self._give_up(table_id, "the server lost the database for a moment; reconnect")
            self._release_later(table_id)

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
        reader, self._reader = self._reader, None
        if reader is not None:
            reader.shutdown(wait=True)
        if self._writing is not None:
            self._written(self._writing)  # the commits left are made here and now
        super().close()


def _unknown(exc: BaseException) -> bool:
    from .store_postgres import OutcomeUnknown

    return isinstance(exc, OutcomeUnknown)


class _NewRow:
    """The store as :meth:`ClusterManager.create_async` shows it to the table manager's ``create``:
    the new table's row is kept (stored afterwards on the commit thread); the rest is the store's."""

    def __init__(self, store: PostgresStore) -> None:
        self._store = store
        self.rows: list[StoredTable] = []

    def commit(self, tables: list[StoredTable], moves: list[Any]) -> None:
        """Keep the new table's row (``create`` stores nothing else)."""
        if moves or len(tables) != 1:
            raise RuntimeError("only a new table's row is kept aside")
        self.rows.extend(tables)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)


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
        self.rows: list[StoredTable] = []
        """The whole tables the batch writes."""


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
