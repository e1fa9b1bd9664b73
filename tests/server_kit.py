"""Helpers for the table server tests: an in-process app, table creation, a scripted client."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from hucklebuck.server.app import create_app
from hucklebuck.server.config import ServerConfig

FAST = {"bot_pause": 0.0, "deal_pause": 0.0, "grace": 0.1, "rate": 10_000.0, "burst": 10_000}


def config(**changes: Any) -> ServerConfig:
    """A config for tests: an in-memory store, no pauses, a short grace period."""
    return ServerConfig(**({"db": ":memory:"} | FAST | changes))


@contextmanager
def client(cfg: ServerConfig | None = None, **kw: Any) -> Iterator[Any]:
    """A Starlette test client around a fresh app."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Starlette's note about httpx versions
        from starlette.testclient import TestClient

    app = create_app(cfg or config(), **kw)
    with TestClient(app) as c:
        c.app_ref = app
        yield c


def new_table(c: Any, game: str, seats: list[dict[str, Any]], **body: Any) -> dict[str, Any]:
    """POST /api/tables; asserts 201 and returns the answer."""
    r = c.post("/api/tables", json={"game": game, "players": len(seats), "seats": seats} | body)
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def humans_and_bots(humans: int, bots: int, player: str = "random") -> list[dict[str, Any]]:
    """Seat list: ``humans`` people first, then ``bots`` computer seats."""
    people = [{"kind": "human", "name": f"H{i}"} for i in range(humans)]
    return people + [{"kind": "computer", "player": player}] * bots


def ws_url(table: dict[str, Any], seat: int | None = None) -> str:
    """The WebSocket path for a seat (``None``: spectator)."""
    url = f"/ws/tables/{table['id']}"
    if seat is not None:
        url += f"?token={table['seats'][seat]['token']}"
    return url


def receive_state(ws: Any, log: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The next ``state`` message (other messages are appended to ``log`` if given)."""
    while True:
        m: dict[str, Any] = json.loads(ws.receive_text())
        if log is not None:
            log.append(m)
        if m["type"] == "state":
            return m
