"""The strange table ids and the plain HTTP probes of section ``chaos-cluster``
(:mod:`hucklebuck.bench.chaos_cluster`)."""

from __future__ import annotations

import asyncio
import urllib.error
import urllib.request

__all__: list[str] = []


def _get(port: int, path: str) -> int:
    """The status of ``GET path`` on loopback ``port`` (0: no answer)."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=20) as r:
            r.read()
            return int(r.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)
    except OSError:
        return 0


def _encoded(table_id: str) -> str:
    """``table_id`` with its first character percent-encoded (the same id once decoded)."""
    return f"%{ord(table_id[0]):02X}{table_id[1:]}"


def _strange_paths(table_id: str) -> list[str]:
    return [
        f"/api/tables/{_encoded(table_id)}",
        f"/t/{_encoded(table_id)}",
        "/api/tables/%00x",
        f"/api/tables/{table_id[:6]}%00{table_id[6:]}",
        "/api/tables/%2e%2e",
        "/api/tables/" + "x" * 300,
        "/api/tables/a%2Fb",
    ]


async def _answers(port: int, path: str) -> int:
    """The status of ``GET path`` through loopback ``port`` (0: no answer), without a thread."""
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), 10)
    except (OSError, asyncio.TimeoutError):
        return 0
    try:
        writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
        line = await asyncio.wait_for(reader.readline(), 20)
        parts = line.split()
        return int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0
    except (OSError, asyncio.TimeoutError):
        return 0
    finally:
        writer.close()
