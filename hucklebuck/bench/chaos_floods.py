"""The floods of the ``chaos`` soak (:mod:`hucklebuck.bench.chaos`): WebSocket pings from a
client that never reads, table creation, and hints; they run in alternate windows
(:data:`WINDOW` seconds on, as long off), so that the honest people's figures and the
server's memory can be reported with and without them from the same run.

Each flood comes from an address of its own on the loopback network (``127.0.0.0/8`` is all
this machine), so that the server's per-address quotas meet it as they would a stranger; the
honest tables are created from addresses of their own too (:func:`create_from`).
"""

from __future__ import annotations

import asyncio
import http.client
import json
import socket
import time
from pathlib import Path
from typing import Any, Protocol

__all__ = ["CREATOR", "HINTER", "PINGER", "WINDOW", "create_from", "floods", "honest_address", "rss"]

WINDOW = 10.0
"""Seconds the floods run, then as long they rest, and so on."""
PINGER = "127.0.0.3"
"""The address the ping flood comes from."""
CREATOR = "127.0.0.4"
"""The address the creation flood comes from."""
HINTER = "127.0.0.5"
"""The address the hint flooder's tables were created from."""
PER_ADDRESS = 20
"""Honest tables created from each honest address (within the server's default quotas)."""


class _Figures(Protocol):
    flooding: bool
    refusals: Any
    attacks: Any
    problems: list[str]
    flood_created: int
    flood_unsure: int
    rss: list[tuple[float, int, bool]]


def honest_address(i: int) -> str:
    """The address the ``i``-th honest table is created from."""
    return f"127.0.1.{i // PER_ADDRESS}"


def create_from(source: str, port: int, body: dict[str, Any], timeout: float = 60) -> tuple[int, Any]:
    """``POST /api/tables`` from the loopback address ``source``: (status, answer)."""
    con = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout, source_address=(source, 0))
    try:
        con.request("POST", "/api/tables", json.dumps(body), {"Content-Type": "application/json"})
        r = con.getresponse()
        return r.status, json.loads(r.read() or b"null")
    finally:
        con.close()


def rss(pid: int) -> int:
    """A process's resident memory in bytes (0 once it is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


async def _pause(stop: asyncio.Event, seconds: float) -> bool:
    """Wait ``seconds``; whether the run goes on."""
    try:
        await asyncio.wait_for(stop.wait(), seconds)
    except asyncio.TimeoutError:
        return True
    return False


def _ping_frame() -> bytes:
    mask = b"\x5a\xa5\x3c\xc3"
    data = bytes(range(125))
    return bytes([0x89, 0x80 | 125]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))


PINGS = _ping_frame() * 40_000
"""5 MB of 125-byte pings, sent at once by a client that reads nothing."""


def _ping_once(port: int, table_id: str, fig: _Figures) -> None:
    from websockets.client import ClientProtocol
    from websockets.uri import parse_uri

    ws = ClientProtocol(parse_uri(f"ws://127.0.0.1:{port}/ws/tables/{table_id}"))
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.settimeout(20)
        try:
            sock.bind((PINGER, 0))
            sock.connect(("127.0.0.1", port))
            ws.send_request(ws.connect())
            sock.sendall(b"".join(ws.data_to_send()))
            head = b""
            while b"\r\n\r\n" not in head:
                byte = sock.recv(1)
                if not byte:
                    fig.refusals["ping flood: refused at connect"] += 1
                    return
                head += byte
            fig.attacks["ping floods (5 MB of pings, nothing read)"] += 1
            sock.sendall(PINGS)
            fig.refusals["ping flood: all sent (the server kept reading)"] += 1
        except OSError:
            fig.refusals["ping flood: cut by the server"] += 1


async def _pings(port: int, table_id: str, fig: _Figures, stop: asyncio.Event) -> None:
    while not stop.is_set():
        if fig.flooding:
            await asyncio.to_thread(_ping_once, port, table_id, fig)
        if not await _pause(stop, 0.2):
            return


def _create_burst(port: int, fig: _Figures) -> None:
    long_session = {"game": "buckem", "players": 5, "hands": 1000, "seats": [{"kind": "computer"}] * 5}
    nobody = {"game": "deerpark", "players": 4, "seats": [{"kind": "computer", "player": "heuristic"}] * 4}
    person = {"game": "deerpark", "players": 4}
    kinds = (("1,000-round Buck 'Em, nobody seated", long_session), ("computers only", nobody),
             ("a person and computers", person))  # fmt: skip
    for name, body in kinds * 4:
        try:
            status, answer = create_from(CREATOR, port, body, timeout=20)
        except (OSError, http.client.HTTPException):
            fig.flood_unsure += 1  # the server is being restarted: stored or not
            continue
        fig.attacks["creation flood requests"] += 1
        code = answer.get("error", {}).get("code", "") if isinstance(answer, dict) else ""
        fig.refusals[f"creation flood: HTTP {status} {code} ({name})"] += 1
        if status == 201:
            fig.flood_created += 1


async def _creations(port: int, fig: _Figures, stop: asyncio.Event) -> None:
    while not stop.is_set():
        if fig.flooding:
            await asyncio.to_thread(_create_burst, port, fig)
        if not await _pause(stop, 0.5):
            return


async def _hints(port: int, table: dict[str, Any], fig: _Figures, stop: asyncio.Event) -> None:
    """A seat of the hint flooder's own table: at its turn it asks for hints and never moves."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import WebSocketException

    from ..server.protocol import seat_subprotocols

    url = f"ws://127.0.0.1:{port}/ws/tables/{table['id']}"
    offered: Any = seat_subprotocols(table["seats"][0]["token"])
    while not stop.is_set():
        if not fig.flooding:
            if not await _pause(stop, 0.5):
                return
            continue
        try:
            async with connect(
                url, subprotocols=offered, open_timeout=10, max_size=None, ping_interval=None
            ) as ws:
                seq = None
                while fig.flooding and not stop.is_set():
                    if seq is not None:
                        await ws.send(json.dumps({"type": "hint", "seq": seq}))
                    m = json.loads(await asyncio.wait_for(ws.recv(), 10))
                    if m["type"] == "state":
                        view = m["view"]
                        seq = m["seq"] if view["to_act"] == 0 and view["legal"] else None
                    elif m["type"] == "hint":
                        fig.attacks["hint flood: hints answered"] += 1
                    elif m["type"] == "error":
                        fig.refusals[f"hint flood: {m['code']}"] += 1
                        if m["code"] == "rate_limited":
                            break
                        await asyncio.sleep(0.05)  # (busy: asked again soon, within the message rate)
        except (OSError, WebSocketException, asyncio.TimeoutError):
            await asyncio.sleep(0.2)


async def _windows(fig: _Figures, stop: asyncio.Event) -> None:
    while await _pause(stop, WINDOW):
        fig.flooding = not fig.flooding


async def _memory(pid_of: Any, fig: _Figures, stop: asyncio.Event, began: float) -> None:
    while await _pause(stop, 0.5):
        pid = pid_of()
        if pid:
            fig.rss.append((time.monotonic() - began, rss(pid), fig.flooding))


def floods(
    port: int, pid_of: Any, spectated: dict[str, Any], hinted: list[dict[str, Any]], fig: _Figures,
    stop: asyncio.Event,
) -> list[asyncio.Task[None]]:  # fmt: skip
    """The flood tasks (and the window switch and memory sampling), started on the running loop."""
    began = time.monotonic()
    tasks = [
        asyncio.create_task(_windows(fig, stop)),
        asyncio.create_task(_memory(pid_of, fig, stop, began)),
        asyncio.create_task(_pings(port, spectated["id"], fig, stop)),
        asyncio.create_task(_creations(port, fig, stop)),
    ]
    tasks += [asyncio.create_task(_hints(port, t, fig, stop)) for t in hinted]
    return tasks
