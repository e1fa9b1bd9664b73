"""The commits of a server on PostgreSQL, made on a thread of their own while the event loop
goes on: every state a client receives is already committed; changes made while a commit is
under way wait for it and go as the next batch; and a batch the database refuses takes back
with it the changes that were built on it (nothing of them is stored or shown)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("psycopg", reason="psycopg is not installed: pip install 'hucklebuck[postgres]'")

import psycopg
import server_kit as kit

from hucklebuck.server.catalog import read_table_request
from hucklebuck.server.cluster import MOVED, ClusterManager
from hucklebuck.server.config import ServerConfig
from hucklebuck.server.protocol import ClientMessage
from hucklebuck.server.store import StoreError
from hucklebuck.server.store_postgres import PostgresStore
from hucklebuck.server.tables import ServerTable

pytestmark = pytest.mark.single_core


def _stored_seq(url: str, table_id: str, con: psycopg.Connection[Any] | None = None) -> int:
    """The table's ``seq`` as committed in the database."""
    if con is None:
        with psycopg.connect(url, autocommit=True) as own:
            return _stored_seq(url, table_id, own)
    row = con.execute(
        b"SELECT coalesce((SELECT max(seq) FROM moves WHERE table_id = %s), seq) FROM tables WHERE id = %s",
        (table_id, table_id),
    ).fetchone()
    assert row is not None
    return int(row[0])


class _Client:
    """A connection that checks, at each state it receives, that the database already holds it."""

    def __init__(self, url: str, table: ServerTable, seat: int | None, act: bool = False) -> None:
        self.url, self.table, self.seat, self.act = url, table, seat, act
        self.seqs: list[int] = []
        self.errors: list[str] = []
        self.problems: list[str] = []
        self.closed: list[int] = []
        self.over = asyncio.Event()
        self.con = psycopg.connect(url, autocommit=True)

    def send_text(self, text: str) -> None:
        m = json.loads(text)
        if m["type"] != "state":
            self.errors.append(m["code"])
            return
        stored = _stored_seq(self.url, self.table.id, self.con)
        if stored < m["seq"]:
            self.problems.append(f"state {m['seq']} was shown with {stored} committed")
        self.seqs.append(m["seq"])
        view = m["view"]
        if view["game_over"]:
            self.over.set()
        elif self.act and view["to_act"] == self.seat and view["legal"]:
            msg = ClientMessage("act", m["seq"], view["legal"][0]["id"])
            asyncio.get_running_loop().call_soon(self.table.client_message, self, msg)

    def close(self, code: int, reason: str) -> None:
        self.closed.append(code)


def _manager(url: str) -> ClusterManager:
    config = ServerConfig(db=url, bot_pause=0.0, deal_pause=0.0, grace=60.0)
    return ClusterManager(config, PostgresStore(url))


def _table(manager: ClusterManager) -> ServerTable:
    body = {"game": "deerpark", "players": 4, "seats": kit.humans_and_bots(1, 3)}
    table, _tokens = manager.create(read_table_request(body, 24))
    return table


def test_every_state_a_client_receives_is_committed_already(pg_url: str) -> None:
    async def run() -> tuple[_Client, _Client, int]:
        manager = _manager(pg_url)
        manager.start()
        try:
            table = _table(manager)
            person, watcher = _Client(pg_url, table, 0, act=True), _Client(pg_url, table, None)
            table.join(person)
            table.join(watcher)
            await asyncio.wait_for(watcher.over.wait(), 120)
            return person, watcher, table.seq
        finally:
            manager.close()

    person, watcher, last = asyncio.run(run())
    person.con.close()
    watcher.con.close()
    assert not person.problems and not watcher.problems, person.problems + watcher.problems
    assert watcher.seqs[-1] == last and last > 50  # a whole game, every state of it stored first
    assert not person.errors and not person.closed


def test_changes_made_during_a_commit_go_as_the_next_batch(pg_url: str) -> None:
    async def run() -> tuple[ServerTable, _Client, list[int]]:
        manager = _manager(pg_url)
        manager.start()
        try:
            table = _table(manager)
            watcher = _Client(pg_url, table, None)
            table.join(watcher)
            await asyncio.sleep(0.2)
            seen = len(watcher.seqs)
            with manager.store._write_lock:  # the commit thread waits here, as on a slow disk
                table._safe_change(lambda: table.notice("first"))
                await asyncio.sleep(0.2)
                assert manager.is_pending(table) and not manager._batch  # under way
                table._safe_change(lambda: table.notice("second"))
                await asyncio.sleep(0.2)
                assert len(watcher.seqs) == seen  # nothing shown before it is stored
            for _ in range(3000):  # a minute: catches a hang only (each pass ends at the state it waits for)
                await asyncio.sleep(0.02)
                if not manager.is_pending(table):
                    break
            return table, watcher, watcher.seqs[seen:]
        finally:
            manager.close()

    table, watcher, after = asyncio.run(run())
    watcher.con.close()
    assert not watcher.problems, watcher.problems
    assert after == [table.seq]  # one state for both changes, once both were stored
    assert _stored_seq(pg_url, table.id) == table.seq


def test_a_refused_commit_takes_back_the_changes_built_on_it(pg_url: str) -> None:
    async def run() -> tuple[ServerTable, _Client, int, list[str]]:
        manager = _manager(pg_url)
        reports: list[str] = []
        manager.report = reports.append
        manager.start()
        try:
            table = _table(manager)
            person = _Client(pg_url, table, 0)
            table.join(person)
            await _persons_turn(manager, table)
            before = table.seq
            with manager.store._write_lock:
                table.client_message(person, ClientMessage("act", before, _legal(table)))
                await asyncio.sleep(0.2)
                _next_move(table, person)
                table._safe_change(lambda: table.notice("built on the move"))
                with psycopg.connect(pg_url, autocommit=True) as con:  # another server took it over
                    con.execute(b"UPDATE tables SET epoch = epoch + 1 WHERE id = %s", (table.id,))
            for _ in range(3000):  # a minute: catches a hang only (each pass ends at the state it waits for)
                await asyncio.sleep(0.02)
                if MOVED in person.closed:
                    break
            return table, person, before, reports
        finally:
            manager.close()

    table, person, before, reports = asyncio.run(run())
    person.con.close()
    assert not person.problems, person.problems
    assert max(person.seqs) == before  # neither change was shown
    assert person.errors and set(person.errors) == {"busy"}  # refused: send it again (to the new owner)
    assert MOVED in person.closed and table.id not in table.manager.tables
    assert _stored_seq(pg_url, table.id) == before
    with psycopg.connect(pg_url, autocommit=True) as con:
        row = con.execute(b"SELECT tbl FROM tables WHERE id = %s", (table.id,)).fetchone()
    assert row is not None and "built on the move" not in row[0]
    assert any("taken over by another server" in r for r in reports), reports


def test_a_failed_commit_takes_back_the_changes_built_on_it_and_the_table_plays_on(pg_url: str) -> None:
    async def run() -> tuple[ServerTable, _Client, int, list[str]]:
        manager = _manager(pg_url)
        reports: list[str] = []
        manager.report = reports.append
        store = manager.store
        real = store.commit

        def failing(tables: Any, moves: Any) -> None:  # the database fails this one commit
            store.commit = real  # type: ignore[method-assign]
            with store._write_lock:
                raise StoreError("cannot write the table database: the disk is full")

        manager.start()
        try:
            table = _table(manager)
            person = _Client(pg_url, table, 0)
            table.join(person)
            await _persons_turn(manager, table)
            before = table.seq
            store.commit = failing  # type: ignore[method-assign]
            with store._write_lock:
                table.client_message(person, ClientMessage("act", before, _legal(table)))
                await asyncio.sleep(0.2)
                _next_move(table, person)  # a move built on the person's
                await asyncio.sleep(0.2)
            for _ in range(3000):  # a minute: catches a hang only (each pass ends at the state it waits for)
                await asyncio.sleep(0.02)
                if person.errors:
                    break
            await asyncio.sleep(0.2)
            shown = max(person.seqs)
            assert table.seq == before and shown == before  # both taken back, the stored state shown
            assert _stored_seq(pg_url, table.id) == before  # and neither stored
            person.act = True  # the person sends the move again: it is stored this time
            table.client_message(person, ClientMessage("act", before, _legal(table)))
            for _ in range(3000):  # a minute: catches a hang only (each pass ends at the state it waits for)
                await asyncio.sleep(0.02)
                if max(person.seqs) > before:
                    break
            person.act = False
            return table, person, before, reports
        finally:
            manager.close()

    table, person, before, reports = asyncio.run(run())
    person.con.close()
    assert not person.problems, person.problems
    assert person.errors and set(person.errors) == {"busy"} and not person.closed
    assert _stored_seq(pg_url, table.id) > before
    assert any("the disk is full" in r for r in reports), reports


async def _persons_turn(manager: ClusterManager, table: ServerTable) -> None:
    for _ in range(3000):  # the computers play until it is the person's turn (a minute: a hang)
        await asyncio.sleep(0.02)
        if table.game.to_act == 0 and not manager.is_pending(table):
            return
    raise AssertionError("the person's turn did not come")


def _next_move(table: ServerTable, person: _Client) -> None:
    """The next move of the table (a computer's, the person's or a deal) is made now, as one
    landing while the commit of the one before is under way."""
    seat, before = table.game.to_act, table.seq
    if seat is None:
        table._deal(before)
    elif seat == person.seat:
        table.client_message(person, ClientMessage("act", before, table.view(seat)["legal"][0]["id"]))
    else:
        table.agent_message(seat, ClientMessage("act", before, table.view(seat)["legal"][0]["id"]))
    assert table.seq == before + 1


def _legal(table: ServerTable) -> Any:
    view = table.view(0)
    return view["legal"][0]["id"]


def test_a_commit_cut_off_tells_nobody_it_was_not_stored_and_the_table_is_read_again(pg_url: str) -> None:
    from hucklebuck.server.store_postgres import OutcomeUnknown

    async def run() -> tuple[ServerTable, _Client, int, list[str], ClusterManager]:
        manager = _manager(pg_url)
        reports: list[str] = []
        manager.report = reports.append
        store = manager.store
        real = store.commit

        def stored_then_cut(tables: Any, moves: Any) -> None:  # stored, but the answer never came
            store.commit = real  # type: ignore[method-assign]
            real(tables, moves)
            raise OutcomeUnknown("cannot write the table database: the connection dropped")

        manager.start()
        try:
            table = _table(manager)
            person = _Client(pg_url, table, 0)
            table.join(person)
            await _persons_turn(manager, table)
            before = table.seq
            store.commit = stored_then_cut  # type: ignore[method-assign]
            table.client_message(person, ClientMessage("act", before, _legal(table)))
            for _ in range(3000):  # a minute: catches a hang only
                await asyncio.sleep(0.02)
                if person.closed:
                    break
            return table, person, before, reports, manager
        finally:
            manager.close()

    table, person, before, reports, manager = asyncio.run(run())
    person.con.close()
    assert person.closed == [MOVED]  # reconnect: the next state will say what was stored
    assert "busy" not in person.errors  # never "not stored, send it again" for a move that was
    assert table.id not in manager.tables
    assert _stored_seq(pg_url, table.id) == before + 1  # the database has the move
    assert any("may or may not be stored" in r for r in reports), reports
