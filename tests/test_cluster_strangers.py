"""What strangers' requests can do to several servers sharing PostgreSQL: nothing.

A table id is served only when written as itself (a percent-encoded id, one outside the id
alphabet or with a NUL is unknown, before any database call), a table changes hands only
where the proxy's choice changed, and then not again for a while; the listing is kept a
moment, read off the event loop from summary columns; a process plays no more tables
than its bound; repeated log lines are held back; and a row lock held by a stopped process
neither freezes another's event loop nor outlives the database's timeouts."""

from __future__ import annotations

import threading
import time
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("psycopg", reason="psycopg is not installed: pip install 'hucklebuck[postgres]'")

import psycopg
import server_kit as sk
from pg_kit import PgServer, fresh_database

from hucklebuck.server.app import create_app
from hucklebuck.server.store import StoreError
from hucklebuck.server.store_postgres import PostgresStore, TableBusy

pytestmark = [pytest.mark.single_core, pytest.mark.filterwarnings("ignore::DeprecationWarning")]

SEATS = [{"kind": "human", "name": "Ann"}] + [{"kind": "computer", "player": "random"}] * 3


def _encoded(table_id: str) -> str:
    return f"%{ord(table_id[0]):02X}{table_id[1:]}"


@pytest.fixture
def pg_client(postgres_server: PgServer) -> Iterator[tuple[Any, str, list[str]]]:
    """An in-process server on a fresh PostgreSQL database: its test client, the URL, its log."""
    url = fresh_database(postgres_server)
    said: list[str] = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    app = create_app(sk.config(), store=PostgresStore(url), report=said.append)
    with TestClient(app) as c:
        c.app_ref = app
        yield c, url, said


# ------------------------------------------------------------- the id, as written


def test_a_table_id_is_served_only_when_written_as_itself() -> None:
    with sk.client() as c:
        t = sk.new_table(c, "deerpark", SEATS)
        assert c.get(f"/api/tables/{t['id']}").status_code == 200
        for path in (f"/api/tables/{_encoded(t['id'])}", "/api/tables/%00x", "/api/tables/a%20b"):
            r = c.get(path)
            assert r.status_code == 404 and r.json()["error"]["code"] == "unknown_table", path


def test_the_canonical_check_reads_the_raw_path() -> None:
    from hucklebuck.server.netlimits import canonical_table_id

    assert canonical_table_id({"raw_path": b"/api/tables/AbC-_9"}, "AbC-_9")
    assert not canonical_table_id({"raw_path": b"/api/tables/%41bC"}, "AbC")
    assert not canonical_table_id({"raw_path": b"/api/tables/x%00"}, "x\x00")
    assert not canonical_table_id({}, "a" * 65)
    assert not canonical_table_id({}, "\u00e9t\u00e9")


def test_strange_ids_never_reach_the_database(pg_client: tuple[Any, str, list[str]]) -> None:
    c, _url, said = pg_client
    for path in ("/api/tables/%00x", "/api/tables/x%00y", "/api/tables/%C3%A9"):
        for _ in range(20):
            r = c.get(path)
            assert r.status_code == 404, (path, r.text)  # unknown, not "the database is down, retry"
            assert r.json()["error"]["code"] == "unknown_table"
    assert said == []  # nothing to tell the operator


def test_a_repeated_log_line_is_said_once_a_minute() -> None:
    from hucklebuck.server.netlimits import QuietReport

    said: list[str] = []
    report = QuietReport(said.append, every=60)
    for i in range(500):
        report(f"cannot read the table database (PostgreSQL database x on h:5432): table t{i:011d} failed")
    report("another trouble altogether")
    assert len(said) == 2 and said[1] == "another trouble altogether"


# ----------------------------------------------------------- hand-overs settle


def _table_row(store: PostgresStore, table_id: str) -> None:
    from hucklebuck.server.store import StoredTable

    store.commit([StoredTable(table_id, 0, '{"game": "deerpark"}', "[]", "{}")], [])


def test_a_table_that_just_changed_hands_is_not_asked_away_again(pg_url: str) -> None:
    from hucklebuck.server.store_postgres import MOVE_HOLD

    a, b = PostgresStore(pg_url), PostgresStore(pg_url)
    try:
        _table_row(a, "abc")
        with pytest.raises(TableBusy):
            b.claim("abc")  # the proxy sends abc to b now: a is asked for it (it was never moved)
        assert a.heartbeat() == (["abc"], [])
        a.release("abc")
        assert b.claim("abc") is not None  # b has it: it changed hands just now
        with pytest.raises(TableBusy):
            a.claim("abc")  # a request reaching a at once (a health check flapping, a stranger)
        assert b.heartbeat() == ([], [])  # does not ask b for it: it stays, for MOVE_HOLD seconds
        with psycopg.connect(pg_url, autocommit=True) as con:  # later, the proxy's choice may have changed
            con.execute(b"UPDATE tables SET claimed = claimed - %s WHERE id = 'abc'", (MOVE_HOLD + 1,))
        with pytest.raises(TableBusy):
            a.claim("abc")
        assert b.heartbeat() == (["abc"], [])
    finally:
        a.close()
        b.close()


# --------------------------------------------------------------------- bounds


def test_a_process_makes_no_table_past_its_bound_counted_in_the_database(pg_url: str) -> None:
    from hucklebuck.server.store_postgres import TableFull

    a = PostgresStore(pg_url)
    try:
        a.bound = 2
        _table_row(a, "one")
        _table_row(a, "two")
        with pytest.raises(TableFull):
            _table_row(a, "three")
        with psycopg.connect(pg_url) as con:
            assert con.execute(b"SELECT count(*) FROM tables").fetchone() == (2,)
    finally:
        a.close()


def test_a_full_server_neither_makes_nor_claims_a_table(postgres_server: PgServer) -> None:
    url = fresh_database(postgres_server)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    other = PostgresStore(url)  # another live process, holding a table
    _table_row(other, "theirs")
    try:
        app = create_app(sk.config(max_tables=2), store=PostgresStore(url))
        with TestClient(app) as c:
            sk.new_table(c, "deerpark", SEATS)
            sk.new_table(c, "deerpark", SEATS)
            r = c.post("/api/tables", json={"game": "deerpark", "players": 4, "seats": SEATS})
            assert r.status_code == 503 and r.json()["error"]["code"] == "full"
            r = c.get("/api/tables/theirs")  # asked for another's table: refused, not asked away
            assert r.status_code == 503 and r.json()["error"]["code"] == "full"
            assert other.heartbeat() == ([], [])
    finally:
        other.close()


# ------------------------------------------------------- the database's waits


def test_every_connection_has_timeouts_below_the_lease(pg_url: str) -> None:
    store = PostgresStore(pg_url)
    try:
        for con in (store._db, store._wdb, store._beat):
            shown = {
                name: con.execute(f"SHOW {name}".encode()).fetchone()[0]  # type: ignore[index]
                for name in ("lock_timeout", "statement_timeout", "idle_in_transaction_session_timeout")
            }
            assert shown == {
                "lock_timeout": "1s",
                "statement_timeout": "2500ms",
                "idle_in_transaction_session_timeout": "2s",
            }
    finally:
        store.close()


def test_a_stopped_process_inside_a_transaction_loses_its_locks(pg_url: str) -> None:
    store = PostgresStore(pg_url)
    try:
        _table_row(store, "abc")
        paused = store._connect()  # as a process stopped inside a claim would hold it
        paused.autocommit = False
        paused.execute(b"SELECT 1 FROM tables WHERE id = 'abc' FOR UPDATE")
        with psycopg.connect(pg_url, autocommit=True) as watch:
            end = time.monotonic() + 60
            while True:  # the database ends that transaction by itself, and its row lock with it
                held = watch.execute(
                    b"SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation "
                    b"WHERE c.relname = 'tables' AND l.mode = 'RowShareLock' AND l.pid <> pg_backend_pid()"
                ).fetchone()
                if held == (0,):
                    break
                assert time.monotonic() < end, "the stopped transaction kept its lock"
                time.sleep(0.05)
        paused.close()
    finally:
        store.close()


def test_a_row_lock_held_elsewhere_never_blocks_the_event_loop(
    pg_client: tuple[Any, str, list[str]],
) -> None:
    c, url, _said = pg_client
    other = PostgresStore(url)
    _table_row(other, "locked")
    holder = psycopg.connect(url)  # no timeouts: a process that stopped while holding the row
    holder.execute(b"SELECT 1 FROM tables WHERE id = 'locked' FOR UPDATE")
    answered = threading.Event()
    released = threading.Event()

    def release_at_last() -> None:  # only catches a hang: the test never waits for it otherwise
        if not answered.wait(60):
            holder.rollback()
            released.set()

    threading.Thread(target=release_at_last, daemon=True).start()
    claim = threading.Thread(target=lambda: c.get("/api/tables/locked"), daemon=True)
    try:
        claim.start()
        assert c.get("/api/games").status_code == 200  # while the claim waits for the lock
        assert not released.is_set(), "the event loop waited for the row lock"
        answered.set()
        claim.join(60)
    finally:
        answered.set()
        holder.close()
        other.close()


def test_making_a_table_while_the_database_waits_never_blocks_the_event_loop(
    pg_client: tuple[Any, str, list[str]],
) -> None:
    c, url, _said = pg_client
    holder = psycopg.connect(url)  # someone holds the tables table: an insert has to wait
    holder.execute(b"LOCK TABLE tables IN SHARE MODE")
    answered = threading.Event()
    released = threading.Event()

    def release_at_last() -> None:  # only catches a hang: the test never waits for it otherwise
        if not answered.wait(60):
            holder.rollback()
            released.set()

    threading.Thread(target=release_at_last, daemon=True).start()
    body = {"game": "deerpark", "players": 4, "seats": SEATS}
    made: list[int] = []
    create = threading.Thread(target=lambda: made.append(c.post("/api/tables", json=body).status_code))
    try:
        create.start()
        with psycopg.connect(url, autocommit=True) as watch:
            end = time.monotonic() + 60
            while watch.execute(b"SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                                ).fetchone() == (0,) and create.is_alive():  # fmt: skip
                assert time.monotonic() < end
                time.sleep(0.01)
        assert c.get("/api/games").status_code == 200  # while the new table's row waits for the lock
        assert not released.is_set(), "the event loop waited for the database"
        answered.set()
        create.join(60)
        assert made == [503]  # the insert gave up at the lock timeout: "try again"
    finally:
        answered.set()
        holder.close()


# -------------------------------------------------------------------- listing


def test_the_listing_reads_summary_columns_and_is_kept_a_moment(
    pg_client: tuple[Any, str, list[str]],
) -> None:
    c, url, _said = pg_client
    t = sk.new_table(c, "deerpark", SEATS, public=True)  # open to everyone: listed
    with psycopg.connect(url, autocommit=True) as con:  # a row whose JSON the listing must not parse
        con.execute(b"UPDATE tables SET tbl = 'not json', seats = 'not json' WHERE id = %s", (t["id"],))
    manager = c.app_ref.state.manager
    reads = []
    listing = manager.store.listing

    def counted() -> list[dict[str, Any]]:
        reads.append(1)
        return listing()

    manager.store.listing = counted
    for _ in range(20):
        r = c.get("/api/tables")
        assert r.status_code == 200, r.text
        assert r.json()["tables"] == [{"id": t["id"], "game": "deerpark", "players": 4, "over": False}]
    assert len(reads) == 1  # twenty listings in a moment: one read of the database


def test_a_database_that_fails_is_said_once_not_per_request() -> None:
    from hucklebuck.server.netlimits import QuietReport

    said: list[str] = []
    report = QuietReport(said.append, every=60)
    error = StoreError("cannot read the table database (PostgreSQL database x on h:5432): the server closed")
    for _ in range(100):
        report(str(error))
    assert said == [str(error)]
