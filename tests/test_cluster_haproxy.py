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


def test_each_table_s_requests_reach_one_server_and_a_dead_one_is_routed_around(
    postgres_server: PgServer, haproxy_installed: None
) -> None:
    url = fresh_database(postgres_server)
    folder = ck.temp_folder()
    servers = [ck.Serve(url, ck.free_port(), folder, "--bot-pause", "0.5") for _ in range(3)]
    proxy = ck.HAProxy([s.port for s in servers], folder)
    try:
        time.sleep(2.5)  # the first health checks
        seats = [{"kind": "human", "name": "Ann"}] + [{"kind": "computer", "player": "random"}] * 3
        tables = [ck.create_table(proxy.port, "deerpark", seats, public=True) for _ in range(12)]
        assert len(set(_owners(url).values())) >= 2  # created by more than one server
        for t in tables:  # the first request may move a table to the server its id hashes to
            for _ in range(50):
                if ck.http(proxy.port, f"/api/tables/{t['id']}")[0] == 200:
                    break
                time.sleep(0.2)
        settled = _owners(url)
        for _ in range(3):  # then page, API and WebSocket of each table all go to that server
            for t in tables:
                assert ck.http(proxy.port, f"/t/{t['id']}")[0] == 200
                status, answer = ck.http(proxy.port, f"/api/tables/{t['id']}")
                assert status == 200, answer
                token = t["seats"][0]["token"]
                ws_url = f"ws://127.0.0.1:{proxy.port}/ws/tables/{t['id']}"
                offered: Any = ["hucklebuck", f"hucklebuck.token.{token}"]
                with sync_client.connect(ws_url, open_timeout=10, subprotocols=offered) as ws:
                    assert '"type":"state"' in str(ws.recv(timeout=10))
        assert _owners(url) == settled  # no table changed hands
        assert len(set(settled.values())) >= 2  # and the ids spread over the servers

        victim = servers[0]
        victim.kill9()
        start = time.monotonic()
        for t in tables:  # every table answers through the proxy again, at the same state or later
            while True:
                status, answer = ck.http(proxy.port, f"/api/tables/{t['id']}")
                if status == 200:
                    break
                assert status == 503, answer
                assert time.monotonic() - start < 10, "a dead server's table was not taken over"
                time.sleep(0.2)
        status, listing = ck.http(proxy.port, "/api/tables")
        assert status == 200 and {t["id"] for t in tables} <= {row["id"] for row in listing["tables"]}
    finally:
        proxy.stop()
        for s in servers:
            s.stop()
        shutil.rmtree(folder, ignore_errors=True)
