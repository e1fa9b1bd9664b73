"""Helpers for the table server tests: an in-process app, table creation, a scripted client."""

from __future__ import annotations

import asyncio
import json
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import resources
from typing import Any

from hucklebuck.server.app import create_app
from hucklebuck.server.config import ServerConfig
from hucklebuck.server.protocol import seat_subprotocols

HANG = 120.0
"""Seconds after which a wait for a state gives up: only a hang takes that long, even on a busy machine."""

FAST = {"bot_pause": 0.0, "deal_pause": 0.0, "grace": HANG, "rate": 10_000.0, "burst": 10_000,
        "hostnames": ("testserver",),  # the name Starlette's test client sends
        "create_rate": 10_000.0, "create_burst": 10_000, "tables_per_address": 10_000,  # test_server_quotas
        "max_computer_tables": 10_000,
        "presence_pause": 0.0}  # fmt: skip  # presence at once, in order (coalescing: test_server_safety)


def config(**changes: Any) -> ServerConfig:
    """A config for tests: an in-memory store, no pauses, a grace period no test outlasts (a seat is
    taken over only in a test of that, with its own short grace: a busy machine is slow to connect)."""
    return ServerConfig(**({"db": ":memory:"} | FAST | changes))


@contextmanager
def client(cfg: ServerConfig | None = None, **kw: Any) -> Iterator[Any]:
    """A Starlette test client around a fresh app."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Starlette's note about httpx versions
        from starlette.testclient import TestClient

    class Client(TestClient):
        """The test client; a seat's token (:class:`SeatPath`) goes in the subprotocol header."""

        def websocket_connect(self, url: str, subprotocols: Any = None, **more: Any) -> Any:
            if subprotocols is None:
                subprotocols = seat_subprotocols(getattr(url, "token", None))
            return super().websocket_connect(str(url), subprotocols=subprotocols, **more)

    app = create_app(cfg or config(), **kw)
    with Client(app) as c:
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


class SeatPath(str):
    """A table's WebSocket path with the seat token to offer beside it (never in the path itself)."""

    token: str | None = None


def seat_path(table_id: str, token: str | None) -> SeatPath:
    """The WebSocket path of ``table_id``, opened with ``token`` (``None``: to watch)."""
    path = SeatPath(f"/ws/tables/{table_id}")
    path.token = token
    return path


def ws_url(table: dict[str, Any], seat: int | None = None) -> str:
    """The WebSocket path for a seat (``None``: spectator); the test client offers the token."""
    return seat_path(table["id"], None if seat is None else table["seats"][seat]["token"])


_VALIDATORS: dict[str, Any] = {}


def check_schema(message: dict[str, Any]) -> None:
    """Validate a server message against its shipped JSON Schema."""
    from jsonschema import Draft202012Validator

    kind = message.get("type")
    validator = _VALIDATORS.get(kind)
    if validator is None:
        path = resources.files("hucklebuck.server") / "schemas" / f"{kind}.schema.json"
        schema = json.loads(path.read_text(encoding="utf-8"))
        Draft202012Validator.check_schema(schema)
        validator = _VALIDATORS[kind] = Draft202012Validator(schema)
    validator.validate(message)


SEEN: list[dict[str, Any]] = []
"""Every message the test clients received (each validated on arrival)."""


def receive(ws: Any) -> dict[str, Any]:
    """The next message, checked against its schema."""
    m: dict[str, Any] = json.loads(ws.receive_text())
    check_schema(m)
    SEEN.append(m)
    return m


def receive_state(ws: Any, log: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The next ``state`` message (other messages are appended to ``log`` if given)."""
    while True:
        m = receive(ws)
        if log is not None:
            log.append(m)
        if m["type"] == "state":
            return m


def receive_type(ws: Any, kind: str) -> dict[str, Any]:
    """The next message of type ``kind`` (states before it are skipped)."""
    while True:
        m = receive(ws)
        if m["type"] == kind:
            return m
        assert m["type"] == "state", m


def play_out(wss: dict[int, Any], *, rng: Any, by_text: float = 0.3, stop: Any = None) -> dict[str, Any]:
    """Scripted people at the seats of ``wss`` play until the game is over (or ``stop(state)``).

    Every connection sees every state in order; at a person's turn the table
    waits for them, so acting on the state just read is never stale.
    """
    leader = min(wss)
    seen = {s: -1 for s in wss}
    m = receive_state(wss[leader])
    seen[leader] = m["seq"]
    acted = -1
    while True:
        view = m["view"]
        if view["game_over"] or (stop is not None and stop(m)):
            return m
        t = view["to_act"]
        if t in wss and m["seq"] > acted:
            acted = m["seq"]
            mt = m
            if t != leader:
                while seen[t] < m["seq"]:
                    mt = receive_state(wss[t])
                    seen[t] = mt["seq"]
            legal = mt["view"]["legal"]
            assert legal, mt
            move = rng.choice(legal)
            action = move["text"] if rng.random() < by_text else move["id"]
            wss[t].send_json({"type": "act", "action": action, "seq": mt["seq"]})
        m = receive_state(wss[leader])
        seen[leader] = m["seq"]


class Recorder:
    """A stand-in connection for tables driven in-process: keeps every text the table sends it,
    and a line for a close (``closed CODE REASON``)."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.texts: list[str] = []

    def send_text(self, text: str) -> None:
        self.texts.append(text)

    def close(self, code: int, reason: str) -> None:
        self.texts.append(f"closed {code} {reason}")


async def settle(test: Any, what: str = "the state") -> None:
    """Wait on the running loop until ``test()`` holds (the loop runs meanwhile); fails only on a hang."""
    deadline = time.monotonic() + HANG
    while not test():
        assert time.monotonic() < deadline, f"{what} never came"
        await asyncio.sleep(0.001)
