"""The PostgreSQL store against a real PostgreSQL: one-line refusals (exit 2) for a database
that cannot be reached, is of another layout or is read-only; psycopg stays out of
``import hucklebuck`` and of the SQLite path; and what sharing needs: at most one owner per
table, a stale owner's late writes refused by the database, a dead owner's tables taken at
once, a live owner's handed over on request, and a retry answer (never a second copy) for a
table another process plays."""

from __future__ import annotations

import subprocess
import sys
import time
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("psycopg", reason="psycopg is not installed: pip install 'hucklebuck[postgres]'")

import psycopg
import server_kit as kit
from pg_kit import PgServer, fresh_database

from hucklebuck.games import DeerParkGame
from hucklebuck.server.store import StoredMove, StoredTable, StoreError
from hucklebuck.server.store_postgres import PostgresStore, TableBusy, TableMoved

pytestmark = pytest.mark.single_core


def _row(table_id: str = "abc", seq: int = 0) -> StoredTable:
    return StoredTable(table_id, seq, DeerParkGame(4, seed=1).to_json(), "[]", "{}")


def _rows(url: str, query: str, *params: Any) -> list[tuple[Any, ...]]:
    with psycopg.connect(url, autocommit=True) as con:
        cur = con.execute(query.encode(), params)
        return cur.fetchall() if cur.description else []


def _serve_refused(db: str, *words: str) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "hucklebuck", "serve", "--port", "0", "--db", db],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode == 2, result
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    for w in words:
        assert w in lines[0], lines[0]
    assert "secret" not in lines[0]  # never the password


def test_unusable_postgresql_databases_are_one_clear_line_each(postgres_server: PgServer) -> None:
    server = postgres_server
    with __import__("socket").socket() as s:
        s.bind(("127.0.0.1", 0))
        dead = s.getsockname()[1]  # nothing listens there
    _serve_refused(f"postgresql://hb:secret@127.0.0.1:{dead}/tables", "cannot reach", f"127.0.0.1:{dead}")
    other = fresh_database(server)
    _rows(other, "CREATE TABLE songs (title TEXT)")
    _serve_refused(other, "not a hucklebuck table database")
    newer = fresh_database(server)
    PostgresStore(newer).close()
    _rows(newer, "UPDATE meta SET value = '99' WHERE key = 'version'")
    _serve_refused(newer, "another version of hucklebuck", "99")
    frozen = fresh_database(server)
    PostgresStore(frozen).close()
    name = frozen.rsplit("/", 1)[1]
    server.admin(f"ALTER DATABASE {name} SET default_transaction_read_only = on")
    _serve_refused(frozen, "read-only")


def test_psycopg_is_imported_only_for_a_postgresql_address(tmp_path: Any) -> None:
    code = (
        "import sys, hucklebuck, hucklebuck.server.app as a, hucklebuck.server.storage as s\n"
        f"s.open_store({str(tmp_path / 'x.sqlite')!r}).close()\n"
        "a.create_app(a.ServerConfig(db=':memory:'))\n"
        "print(sorted(m for m in sys.modules if m.startswith('psycopg')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.strip() == "[]", out


def test_a_stale_owner_s_late_writes_are_refused_and_nothing_of_them_is_visible(pg_url: str) -> None:
    a, b = PostgresStore(pg_url), PostgresStore(pg_url)
    try:
        a.commit([_row()], [StoredMove("abc", 1, "1 pass")])
        with pytest.raises(TableBusy):
            b.claim("abc")  # a is alive: b may not take it
        assert _rows(pg_url, "SELECT wanted FROM tables") == [(b.node,)]  # asked for, so a hands it over
        _rows(pg_url, "UPDATE nodes SET expires = now() - interval '1 second' WHERE id = %s", a.node)
        taken = b.claim("abc")  # a's lease ran out (a paused process): b takes the table over
        assert taken is not None and taken.seq == 1 and taken.moves == ("1 pass",)
        with pytest.raises(TableMoved, match="abc"):
            a.commit([], [StoredMove("abc", 2, "2 pass")])  # a, back, writes late: refused whole
        with pytest.raises(TableMoved):
            a.commit([_row("abc", 5)], [])
        b.commit([], [StoredMove("abc", 2, "3 pass")])
        assert _rows(pg_url, "SELECT seq, action, epoch FROM moves ORDER BY seq") == [
            (1, "1 pass", 1),
            (2, "3 pass", 2),
        ]
        assert a.take_lost() == {"abc"} and not a.owns("abc")
        assert b.heartbeat() == ([], [])
    finally:
        a.close()
        b.close()


def test_a_late_write_racing_a_takeover_is_refused_by_the_database(pg_url: str) -> None:
    # a's write is checked against the table's epoch under the row's lock, in its transaction:
    # even with a's own idea of the epoch still current, the database refuses it.
    a, b = PostgresStore(pg_url), PostgresStore(pg_url)
    try:
        a.commit([_row()], [])
        _rows(pg_url, "UPDATE nodes SET expires = now() - interval '1 second' WHERE id = %s", a.node)
        assert b.claim("abc") is not None
        assert a.owns("abc")  # a has not noticed yet
        with pytest.raises(TableMoved):
            a.commit([], [StoredMove("abc", 1, "1 pass")])
        assert _rows(pg_url, "SELECT count(*) FROM moves") == [(0,)]
        assert a.heartbeat() == ([], []) and not a.owns("abc")  # found lost by the commit already
    finally:
        a.close()
        b.close()


def test_a_prepared_batch_is_refused_whole_when_one_table_s_epoch_moved_on(pg_url: str) -> None:
    # Enough batches first that the driver runs the statement prepared (its generic plan), then
    # a batch over two tables of which one changed hands behind the owner's back (same owner
    # name, a newer epoch): nothing of it is stored, neither the moves nor the fields.
    a = PostgresStore(pg_url)
    try:
        a.commit([_row("abc"), _row("def")], [])
        for seq in range(1, 13):
            fields = f'{{"round": {seq}}}' if seq % 4 == 0 else None
            a.commit([], [StoredMove("abc", seq, f"{seq} pass", fields), StoredMove("def", seq, "1 pass")])
        assert _rows(pg_url, "SELECT id, tbl FROM tables ORDER BY id") == [
            ("abc", '{"round": 12}'), ("def", "{}"),
        ]  # fmt: skip
        _rows(pg_url, "UPDATE tables SET epoch = epoch + 1 WHERE id = 'def'")
        with pytest.raises(TableMoved) as refused:
            a.commit([], [StoredMove("abc", 13, "13 pass", '{"round": 13}'), StoredMove("def", 13, "x")])
        assert refused.value.table_ids == ("def",)
        assert _rows(pg_url, "SELECT max(seq), count(*) FROM moves") == [(12, 24)]
        assert _rows(pg_url, "SELECT tbl FROM tables WHERE id = 'abc'") == [('{"round": 12}',)]
        a.commit([], [StoredMove("abc", 13, "13 pass", '{"round": 13}')])  # its own table plays on
        assert _rows(pg_url, "SELECT action, epoch FROM moves WHERE seq = 13") == [("13 pass", 1)]
        assert _rows(pg_url, "SELECT tbl FROM tables WHERE id = 'abc'") == [('{"round": 13}',)]
    finally:
        a.close()


def test_a_dead_owner_s_tables_are_taken_at_once_and_a_live_one_s_on_request(pg_url: str) -> None:
    a, b = PostgresStore(pg_url, lease=600), PostgresStore(pg_url)  # a's lease outlasts the test
    a.commit([_row("one"), _row("two")], [])
    try:
        with pytest.raises(TableBusy):
            b.claim("one")
        assert a.heartbeat() == (["one"], [])  # the owner's heartbeat hears that "one" is wanted
        a.release("one")
        assert b.claim("one") is not None
        holder = a._beat.info.backend_pid
        a._beat.close()  # a dies: its connections drop, and with them its advisory lock
        a._db.close()
        end = time.monotonic() + 60
        while _rows(pg_url, "SELECT count(*) FROM pg_locks WHERE pid = %s", holder) != [(0,)]:
            assert time.monotonic() < end  # the database lets a's lock go as it sees the connection close
            time.sleep(0.02)
        assert b.claim("two") is not None  # taken without waiting for a's lease to run out
        assert sorted(r[0] for r in _rows(pg_url, "SELECT epoch FROM tables")) == [2, 2]
    finally:
        b.close()


def test_a_request_at_a_process_that_does_not_own_the_table_gets_a_retry_answer(pg_url: str) -> None:
    cfg = kit.config(db=pg_url)
    with kit.client(cfg) as a, kit.client(cfg) as b:
        t = kit.new_table(a, "deerpark", kit.humans_and_bots(1, 3), public=True)  # listed: see the end
        assert a.get(f"/api/tables/{t['id']}").status_code == 200
        with a.websocket_connect(kit.ws_url(t, 0)) as ws:
            first = kit.receive_state(ws)
            r = b.get(f"/api/tables/{t['id']}")
            assert r.status_code == 503 and r.json()["error"]["code"] == "moving", r.text
            assert r.headers["Retry-After"] == "1"
            with b.websocket_connect(kit.ws_url(t, 0)) as other:  # a WebSocket: told to try again
                assert kit.receive(other)["code"] == "busy"
            state = first
            with pytest.raises(Exception) as closed:  # a hands the table over at its next heartbeat
                for _ in range(200):
                    state = kit.receive_state(ws)
            assert "1012" in str(closed.value) or getattr(closed.value, "code", None) == 1012, closed.value
        end = time.monotonic() + 60  # catches a hang only: the hand-over is waited for
        while (r := b.get(f"/api/tables/{t['id']}")).status_code != 200 and time.monotonic() < end:
            time.sleep(0.05)
        assert r.status_code == 200 and r.json()["seq"] == state["seq"]  # the same table, played on at b
        assert a.app_ref.state.manager.tables.get(t["id"]) is None  # and a holds no copy of it
        t2 = kit.new_table(b, "hucklebuck", kit.humans_and_bots(1, 3), public=True)
        while True:  # the listing is kept a moment (LISTING_FOR): b's new table shows up after it
            listed = {row["id"] for row in a.get("/api/tables").json()["tables"]}
            if {t["id"], t2["id"]} <= listed or time.monotonic() > end:
                break
            time.sleep(0.05)
        assert {t["id"], t2["id"]} <= listed  # each process lists every process's tables


def test_opening_a_database_with_a_bad_address_is_a_store_error() -> None:
    with pytest.raises(StoreError, match="cannot reach"):
        PostgresStore("postgresql://nobody@127.0.0.1:1/none")


def test_the_heartbeat_reconnects_and_holds_the_process_s_lock_again(pg_url: str) -> None:
    a, b = PostgresStore(pg_url), PostgresStore(pg_url)
    try:
        a.commit([_row()], [])
        a._beat.close()  # the heartbeat's connection drops (the database restarted, say)
        assert a.heartbeat() == ([], [])  # opened again, the lease renewed
        with pytest.raises(TableBusy):
            b.claim("abc")  # a's lock is held again: a live process's table is not taken
    finally:
        a.close()
        b.close()


def test_no_password_is_printed_at_start(postgres_server: PgServer, tmp_path: Any) -> None:
    import cluster_kit as ck

    url = fresh_database(postgres_server).replace("hbtest@", "hbtest:s3cretword@")  # trust: any password
    server = ck.Serve(url, ck.free_port(), tmp_path)
    try:
        end = time.monotonic() + 60
        while "resume" not in server.messages():  # the second start-up line
            assert time.monotonic() < end, server.messages()
            time.sleep(0.05)
    finally:
        server.stop()
    said = server.messages()
    assert "s3cretword" not in said and "postgresql://" not in said, said
    assert "no stored tables to resume in the PostgreSQL database" in said


def test_after_a_database_restart_the_connections_reopen_and_a_clean_stop_hands_tables_back() -> None:
    from hucklebuck.bench.pgtemp import start_postgres

    try:
        pg = start_postgres()
    except FileNotFoundError as exc:
        pytest.skip(str(exc))
    try:
        url = fresh_database(pg)
        store = PostgresStore(url)
        store.commit([_row("abc")], [])
        pg.restart()
        end = time.monotonic() + 60
        while True:  # the heartbeat reaches the database again (it opens its connection anew)
            try:
                store.heartbeat()
                break
            except (psycopg.Error, StoreError):
                assert time.monotonic() < end
                time.sleep(0.05)
        store.close()  # on the main connection, opened again with the heartbeat's
        assert _rows(url, "SELECT owner FROM tables") == [(None,)]
    finally:
        pg.stop()


def test_a_release_the_database_did_not_take_is_kept_to_be_tried_again(pg_url: str) -> None:
    a = PostgresStore(pg_url)
    try:
        a.commit([_row("abc")], [])
        real = a._db

        class Restarting:  # the database is down for the moment
            closed = broken = False

            def execute(self, *_args: Any, **_kw: Any) -> Any:
                raise psycopg.OperationalError("the database system is starting up")

        a._db = Restarting()  # type: ignore[assignment]
        with pytest.raises(StoreError):
            a.release("abc")
        a._db = real
        assert a.owns("abc")  # still held: when it is next wanted, the release is tried again
        a.release("abc")
        assert not a.owns("abc") and _rows(pg_url, "SELECT owner FROM tables") == [(None,)]
    finally:
        a.close()
