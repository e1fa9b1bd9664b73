"""WebSocket control frames against ``hucklebuck serve``: a client that floods pings and never
reads is cut, and the memory one such connection can make the server hold is bounded (the
server stops reading from a client that leaves its answers unread)."""

from __future__ import annotations

import json
import os
import socket
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

import server_kit as kit
import uvicorn
from test_server_network import Served, _free_port, _server_end

from hucklebuck.server.app import create_app
from hucklebuck.server.netlimits import WRITE_HIGH, ConnectionLimits, protocols

pytestmark = [pytest.mark.single_core, pytest.mark.filterwarnings("ignore::DeprecationWarning")]

PAYLOAD = 125
"""The largest payload a ping may carry."""


def _ping_frame() -> bytes:
    """One masked client PING with a 125-byte payload (what a browser or a script sends)."""
    mask = b"\x11\x22\x33\x44"
    data = bytes(i % 251 for i in range(PAYLOAD))
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
    return bytes([0x89, 0x80 | PAYLOAD]) + mask + masked


def _open_spectator(port: int, table_id: str) -> socket.socket:
    """A raw socket through the WebSocket handshake (as a spectator), which then reads nothing."""
    from websockets.client import ClientProtocol
    from websockets.uri import parse_uri

    ws = ClientProtocol(parse_uri(f"ws://127.0.0.1:{port}/ws/tables/{table_id}"))
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", port))
    ws.send_request(ws.connect())
    sock.sendall(b"".join(ws.data_to_send()))
    head = b""
    while b"\r\n\r\n" not in head:
        byte = sock.recv(1)  # the handshake's answer only, byte by byte; then nothing more
        assert byte, "the server closed the connection during the handshake"
        head += byte
    assert head.startswith(b"HTTP/1.1 101"), head
    return sock


def _rss(pid: int) -> int:
    """A process's resident memory in bytes."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


@pytest.mark.skipif(not os.path.exists("/proc/net/tcp"), reason="reads the TCP table of Linux")
def test_a_ping_flood_is_cut_and_leaves_no_memory_behind(tmp_path: Path) -> None:
    """20 MB of pings from a spectator that never reads: past the control-frame limit the
    connection is cut at once (the server's end of it is gone), and the server's memory is
    about what it was (before: each ping's pong queued for a client that never reads, held
    until the client left)."""
    srv = Served(tmp_path)
    try:
        table = srv.post("/api/tables", {"game": "deerpark", "seats": kit.humans_and_bots(1, 3)})
        for _ in range(3):  # warm: the pages and answers a first request builds
            srv.get(f"/api/tables/{table['id']}")
        before = _rss(srv.proc.pid)
        sock = _open_spectator(srv.port, table["id"])
        client_port = sock.getsockname()[1]
        blob = _ping_frame() * 160_000  # 21 MB
        sock.settimeout(30)  # only catches a hang: the cut ends the send at once
        try:
            sock.sendall(blob)
            sent_all = True
        except OSError:
            sent_all = False
        deadline = time.monotonic() + 30
        while _server_end(srv.port, client_port) is not None and time.monotonic() < deadline:
            time.sleep(0.05)
        state = _server_end(srv.port, client_port)
        grown = _rss(srv.proc.pid) - before
        assert state is None, (
            f"the server still holds the ping flooder (TCP state {state}; sent all: {sent_all}; "
            f"the server grew by {grown / 2**20:.1f} MiB)"
        )
        assert grown < 8 * 2**20, f"the server grew by {grown / 2**20:.1f} MiB"
        sock.close()
        assert srv.get("/api/games")["games"]  # and it serves others
    finally:
        log = srv.stop()
    assert "Traceback" not in log, log


@contextmanager
def _served_here(limits: ConnectionLimits) -> Iterator[tuple[Any, int]]:
    """The server's app on uvicorn with ``serve``'s own protocols, in a thread of this process
    (so the test can look at its connections)."""
    port = _free_port()
    app = create_app(kit.config(hostnames=()))
    http, ws = protocols(limits)
    server = uvicorn.Server(
        uvicorn.Config(
            app, host="127.0.0.1", port=port, http=http, ws=ws, log_level="warning", lifespan="on",
            ws_max_size=64 * 1024, ws_per_message_deflate=False,
        )
    )  # fmt: skip
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.01)
    try:
        yield server, port
    finally:
        server.should_exit = True
        thread.join(30)


def test_a_client_that_leaves_its_pongs_unread_is_no_longer_read_and_holds_bounded_memory() -> None:
    """With the control-frame limit out of the way, a client sends pings and reads none of the
    pongs: once the unread answers pass the high-water mark the server stops reading from it,
    so its pings stay in the network's buffers and the server's buffer for it stays bounded
    (before: every ping read and its pong queued, 50 MB of them)."""
    limits = ConnectionLimits(100, 10, frame_rate=1e9, frame_burst=10**9)
    with _served_here(limits) as (server, port):
        req = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/tables",
            data=b'{"game": "deerpark"}',
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(req, timeout=10) as r:
            table_id = json.loads(r.read())["id"]
        sock = _open_spectator(port, table_id)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 256 * 1024)  # no autotuned megabytes here
        sock.setblocking(False)
        blob = memoryview(_ping_frame() * 400_000)  # 52 MB
        sent = 0

        def held() -> Any:
            for conn in list(server.server_state.connections):
                if getattr(conn, "writes_held", False) and not conn.transport.is_reading():
                    return conn
            return None

        deadline = time.monotonic() + 60
        conn = None
        while sent < len(blob) and time.monotonic() < deadline:
            try:
                sent += sock.send(blob[sent : sent + 65536])
            except BlockingIOError:
                conn = held()
                if conn is not None:
                    break
                time.sleep(0.005)  # the server is still reading: let it
        buffered = conn.transport.get_write_buffer_size() if conn is not None else None
        sock.close()
    assert conn is not None, f"the server kept reading a client that reads nothing ({sent >> 20} MB sent)"
    # what was sent sits in the network's buffers (the kernel's, on both ends: ten-odd MB on loopback)
    assert sent < 24 * 2**20, f"{sent / 2**20:.1f} MB of pings were taken from a client that reads nothing"
    assert buffered is not None and buffered <= WRITE_HIGH + 512 * 1024, buffered
