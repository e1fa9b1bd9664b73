"""The shipped HAProxy configuration (``deploy/haproxy.cfg``) with Debian's ``haproxy`` in
front of three servers: it is valid; new tables go to any server; every request of one table
(page, API, WebSocket) reaches the same server, so tables never move while all are up; and a
server that dies is taken out by the health checks, its tables served by the others."""

from __future__ import annotations

import shutil
import subprocess
import time
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("websockets.sync.client")
pytest.importorskip("psycopg", reason="psycopg is not installed: pip install 'hucklebuck[postgres]'")

import cluster_kit as ck
import psycopg
from pg_kit import PgServer, fresh_database
from websockets.sync import client as sync_client

pytestmark = [pytest.mark.single_core, pytest.mark.filterwarnings("ignore::DeprecationWarning")]


@pytest.fixture
def haproxy_installed() -> None:
    if ck.haproxy_binary() is None:
        pytest.skip("haproxy is not installed (apt-get install haproxy; .ci/run installs it)")


def _owners(url: str) -> dict[str, str | None]:
    with psycopg.connect(url) as con:
        return dict(con.execute(b"SELECT id, owner FROM tables").fetchall())


def test_the_shipped_file_is_valid(haproxy_installed: None) -> None:
    done = subprocess.run([ck.haproxy_binary() or "haproxy", "-c", "-f", str(ck.HAPROXY_CFG)],
                          capture_output=True, text=True, timeout=30)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr


def _answer(proxy: ck.HAProxy, table_id: str, seconds: float = 60) -> None:
    """Wait until the table answers through the proxy (it may be moving to the server its id
    hashes to, or being taken over): 200, after 503s only."""
    end = time.monotonic() + seconds
    while True:
        status, answer = ck.http(proxy.port, f"/api/tables/{table_id}")
        if status == 200:
            return
        assert status == 503, answer
        assert time.monotonic() < end, f"table {table_id} never answered: {answer}"
        time.sleep(0.05)


def test_each_table_s_requests_reach_one_server_and_a_dead_one_is_routed_around(
    postgres_server: PgServer, haproxy_installed: None
) -> None:
    url = fresh_database(postgres_server)
    folder = ck.temp_folder()
    servers = [ck.Serve(url, ck.free_port(), folder, "--bot-pause", "0.5") for _ in range(3)]
    proxy = ck.HAProxy([s.port for s in servers], folder)
    try:
        proxy.wait_up()  # the proxy's health checks see all three (on a busy machine this takes a while)
        seats = [{"kind": "human", "name": "Ann"}] + [{"kind": "computer", "player": "random"}] * 3
        tables = [ck.create_table(proxy.port, "deerpark", seats, public=True) for _ in range(12)]
        assert len(set(_owners(url).values())) >= 2  # created by more than one server
        for _attempt in range(5):
            flaps = proxy.health_changes()
            for t in tables:  # the first request may move a table to the server its id hashes to
                _answer(proxy, t["id"])
            settled = _owners(url)
            moved: list[str] = []
            for _ in range(3):  # then page, API and WebSocket of each table all go to that server
                for t in tables:
                    assert ck.http(proxy.port, f"/t/{t['id']}")[0] == 200
                    status, answer = ck.http(proxy.port, f"/api/tables/{t['id']}")
                    if status != 200:
                        moved.append(f"{status} {answer}")
                        continue
                    token = t["seats"][0]["token"]
                    ws_url = f"ws://127.0.0.1:{proxy.port}/ws/tables/{t['id']}"
                    offered: Any = ["hucklebuck", f"hucklebuck.token.{token}"]
                    with sync_client.connect(ws_url, open_timeout=30, subprotocols=offered) as ws:
                        assert '"type":"state"' in str(ws.recv(timeout=30))
            if proxy.health_changes() != flaps:  # the proxy's choice changed (a loaded machine's
                proxy.wait_up()  # health check timed out): tables may move, legitimately; again
                continue
            assert not moved, moved  # with the proxy's choice unchanged, no request was turned away
            assert _owners(url) == settled  # and no table changed hands
            break
        else:
            raise AssertionError("the proxy's health checks kept changing their minds")
        assert len(set(settled.values())) >= 2  # and the ids spread over the servers

        victim = servers[0]
        victim.kill9()
        for t in tables:  # every table answers through the proxy again, at the same state or later
            _answer(proxy, t["id"])
        status, listing = ck.http(proxy.port, "/api/tables")
        assert status == 200 and {t["id"] for t in tables} <= {row["id"] for row in listing["tables"]}
    finally:
        proxy.stop()
        for s in servers:
            s.stop()
        shutil.rmtree(folder, ignore_errors=True)


def _epochs(url: str) -> dict[str, tuple[str | None, int]]:
    with psycopg.connect(url) as con:
        return {r[0]: (r[1], r[2]) for r in con.execute(b"SELECT id, owner, epoch FROM tables").fetchall()}


def test_an_id_written_otherwise_never_moves_a_table(
    postgres_server: PgServer, haproxy_installed: None
) -> None:
    url = fresh_database(postgres_server)
    folder = ck.temp_folder()
    servers = [ck.Serve(url, ck.free_port(), folder) for _ in range(2)]
    proxy = ck.HAProxy([s.port for s in servers], folder)
    try:
        proxy.wait_up()
        seats = [{"kind": "human", "name": "Ann"}] + [{"kind": "computer", "player": "random"}] * 3
        tables = [ck.create_table(proxy.port, "deerpark", seats) for _ in range(8)]
        for _attempt in range(5):
            flaps = proxy.health_changes()
            for t in tables:
                _answer(proxy, t["id"])  # each table settles where its id hashes to
            before = _epochs(url)
            for t in tables:  # the same ids percent-encoded, once decoded the same: 404, at the proxy
                tid = t["id"]
                encoded = f"%{ord(tid[0]):02X}{tid[1:]}"
                strange = (f"/api/tables/{encoded}", f"/ws/tables/{encoded}", f"/t/{tid}%2F",
                           "/api/tables/%00x")  # fmt: skip
                for path in strange:
                    status, answer = ck.http(proxy.port, path)
                    assert status == 404, (path, answer)
                for s in servers:  # and straight at each server, the same
                    assert ck.http(s.port, f"/api/tables/{encoded}")[0] == 404
            for t in tables:
                assert ck.http(proxy.port, f"/api/tables/{t['id']}")[0] == 200
            if proxy.health_changes() == flaps:
                assert _epochs(url) == before  # no table changed hands
                return
            proxy.wait_up()  # a loaded machine's health check timed out: the tables may move; again
        raise AssertionError("the proxy's health checks kept changing their minds")
    finally:
        proxy.stop()
        for s in servers:
            s.stop()
        shutil.rmtree(folder, ignore_errors=True)


def test_the_proxy_sets_the_forwarded_address_itself(haproxy_installed: None) -> None:
    folder = ck.temp_folder()
    # the burst (60) and next to no refill (0.01 a second): the count below is the same on a busy
    # machine, where the 150 connections take longer, as on a quiet one
    server = ck.Serve(str(folder / "tables.sqlite"), ck.free_port(), folder, "--connect-rate", "0.01")
    proxy = ck.HAProxy([server.port], folder)
    try:
        proxy.wait_up()
        seats = [{"kind": "human", "name": "Ann"}] + [{"kind": "computer", "player": "random"}] * 3
        table = ck.create_table(proxy.port, "deerpark", seats)
        url = f"ws://127.0.0.1:{proxy.port}/ws/tables/{table['id']}"
        refused = 0
        for i in range(150):  # each claims another address: all of them are this one
            fake = f"10.{i // 250}.{i % 250}.7"
            headers = {"X-Forwarded-For": fake}
            with sync_client.connect(url, open_timeout=30, additional_headers=headers) as ws:
                first = str(ws.recv(timeout=30))
                refused += '"rate_limited"' in first
        assert refused >= 150 - 60 - 2  # past the burst (60) all are one address's: refused
    finally:
        proxy.stop()
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)
