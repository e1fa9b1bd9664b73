"""``hucklebuck serve``'s WebSocket protocol on its own, driven byte by byte: reading is held only
when a client's messages pile up, and the application may write a message at once."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

pytest.importorskip("uvicorn")  # (the server extra)
pytest.importorskip("websockets")

from uvicorn.config import Config
from uvicorn.server import ServerState
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.uri import parse_uri

from hucklebuck.server.netlimits import READ_AHEAD, SEND_NOW, ConnectionLimits, protocols


class _Transport(asyncio.Transport):
    """A transport that keeps what is written and counts the pauses and resumptions of reading."""

    def __init__(self) -> None:
        super().__init__()
        self.written = bytearray()
        self.paused = 0
        self.resumed = 0
        self.closing = False

    def write(self, data: Any) -> None:
        self.written += data

    def pause_reading(self) -> None:
        self.paused += 1

    def resume_reading(self) -> None:
        self.resumed += 1

    def is_closing(self) -> bool:
        return self.closing

    def close(self) -> None:
        self.closing = True

    def abort(self) -> None:
        self.closing = True

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("127.0.0.1", 5000), "sockname": ("127.0.0.1", 8000)}.get(name, default)

    def set_write_buffer_limits(self, high: int | None = None, low: int | None = None) -> None:
        pass


class _Served:
    """One connection to the protocol: the client's side (websockets' sans-I/O client), the
    application's scope, and the messages it was handed."""

    def __init__(self) -> None:
        self.scope: dict[str, Any] = {}
        self.opened = asyncio.Event()
        self.take = asyncio.Event()
        self.received: list[str] = []

    async def app(self, scope: Any, receive: Any, send: Any) -> None:
        self.scope = scope
        assert (await receive())["type"] == "websocket.connect"
        await send({"type": "websocket.accept"})
        self.opened.set()
        await self.take.wait()  # the application takes nothing until the test says so
        while True:
            message = await receive()
            if message["type"] != "websocket.receive":
                return
            self.received.append(message["text"])


async def _connect() -> tuple[Any, _Transport, ClientProtocol, _Served]:
    served = _Served()
    _http, ws = protocols(ConnectionLimits(100, 10))
    config = Config(
        served.app,
        ws=ws,
        ws_max_size=64 * 1024,
        ws_per_message_deflate=False,
        lifespan="off",
        interface="asgi3",
    )
    config.load()
    proto: Any = ws(config, ServerState(), {}, asyncio.get_running_loop())  # type: ignore[call-arg]
    transport = _Transport()
    proto.connection_made(transport)
    client = ClientProtocol(parse_uri("ws://127.0.0.1:8000/ws/tables/x"))
    client.send_request(client.connect())
    proto.data_received(b"".join(client.data_to_send()))
    await asyncio.wait_for(served.opened.wait(), 10)  # (a deadline only against a hang)
    client.receive_data(bytes(transport.written))
    transport.written.clear()
    assert client.handshake_exc is None
    return proto, transport, client, served


def _frames(client: ClientProtocol, transport: _Transport) -> list[str]:
    client.receive_data(bytes(transport.written))
    transport.written.clear()
    events = client.events_received()
    return [bytes(e.data).decode() for e in events if isinstance(e, Frame) and e.opcode is Opcode.TEXT]


def test_reading_is_held_only_once_messages_pile_up() -> None:
    """uvicorn stops reading after every message until the application takes it (two system calls
    per message a person sends); here reading goes on until READ_AHEAD messages wait, then stops
    until the application has taken them all."""

    async def body() -> None:
        proto, transport, client, served = await _connect()
        for i in range(READ_AHEAD - 1):
            client.send_text(f"m{i}".encode())
            proto.data_received(b"".join(client.data_to_send()))
        assert transport.paused == 0, "reading was held with fewer than READ_AHEAD messages waiting"
        client.send_text(b"last")
        proto.data_received(b"".join(client.data_to_send()))
        assert transport.paused == 1, "reading went on with READ_AHEAD messages waiting"
        served.take.set()
        while len(served.received) < READ_AHEAD:
            await asyncio.sleep(0)
        assert served.received == [*(f"m{i}" for i in range(READ_AHEAD - 1)), "last"]
        assert transport.resumed == 1, "reading did not start again once the messages were taken"
        client.send_text(b"one more")
        proto.data_received(b"".join(client.data_to_send()))
        while len(served.received) < READ_AHEAD + 1:
            await asyncio.sleep(0)
        assert (transport.paused, transport.resumed) == (1, 1)  # a message taken at once holds nothing

    asyncio.run(body())


def test_the_application_may_write_a_message_at_once_while_the_client_reads() -> None:
    """The scope offers an immediate write: the client reads the same text frame an ASGI send
    would have written; while the client leaves too much unread, or once the connection is
    closing, nothing is written and the application is told to send the usual way."""

    async def body() -> None:
        proto, transport, client, served = await _connect()
        send_now = served.scope["extensions"][SEND_NOW]["send"]
        assert send_now('{"type":"state","text":"\\u2660 spades"}') is True
        assert _frames(client, transport) == ['{"type":"state","text":"\\u2660 spades"}']
        proto.pause_writing()  # the client leaves too much unread
        assert send_now("held") is False
        assert _frames(client, transport) == []
        proto.resume_writing()
        assert send_now("again") is True
        assert _frames(client, transport) == ["again"]
        transport.closing = True
        assert send_now("too late") is False
        assert transport.written == b""
        served.take.set()
        proto.connection_lost(None)
        await asyncio.sleep(0)

    asyncio.run(body())


def test_a_table_s_socket_writes_at_once_where_it_can_and_keeps_the_order_where_it_must_wait() -> None:
    """A connection's messages go through the protocol's direct write while it takes them; one it
    refuses goes the usual way, and while such a send waits (the client reads slowly) the
    messages after it wait behind it, in order, even where a direct write would take them."""
    from starlette.websockets import WebSocketState

    from hucklebuck.server.app import _Socket

    async def body() -> None:
        sent: list[tuple[str, str]] = []
        takes = [True]
        held = asyncio.Event()
        held.set()

        def direct(text: str) -> bool:
            if takes[0]:
                sent.append(("direct", text))
            return takes[0]

        class _WS:
            def __init__(self) -> None:
                self.application_state = WebSocketState.CONNECTED
                self.scope = {"extensions": {SEND_NOW: {"send": direct}}}

            async def send_text(self, text: str) -> None:
                await held.wait()
                sent.append(("usual", text))

        conn = _Socket(_WS(), 0)  # type: ignore[arg-type]
        conn.send_text("a")
        takes[0] = False
        conn.send_text("b")
        held.clear()  # the client reads slowly: the next usual send waits
        conn.send_text("c")
        takes[0] = True
        conn.send_text("d")  # a direct write would take it: it waits behind "c" all the same
        assert sent == [("direct", "a"), ("usual", "b")]
        held.set()
        while len(sent) < 4:
            await asyncio.sleep(0)
        assert sent == [("direct", "a"), ("usual", "b"), ("usual", "c"), ("usual", "d")]
        conn.send_text("e")  # the queue is empty again: written at once
        assert sent[-1] == ("direct", "e")
        conn.writer.cancel()

    asyncio.run(body())
