"""A person's message through ``hucklebuck serve``'s own WebSocket protocol and the table's handler,
driven byte by byte: a message that arrives while none waits is handled in the turn of the event
loop that read it; everything else goes through the usual queue, in order, with the same checks,
answers and close codes."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import pytest

pytest.importorskip("uvicorn")  # (the server extra)
pytest.importorskip("websockets")

import server_kit as kit
from test_server_send_path import _Transport
from uvicorn.config import Config
from uvicorn.server import ServerState
from websockets.client import ClientProtocol
from websockets.frames import Close, Frame, Opcode
from websockets.uri import parse_uri

from hucklebuck.server.app import create_app
from hucklebuck.server.catalog import read_table_request
from hucklebuck.server.netlimits import ConnectionLimits, protocols
from hucklebuck.server.protocol import seat_subprotocols

PEOPLE = {"game": "deerpark", "players": 4, "seats": [{"kind": "human", "name": f"P{i}"} for i in range(4)]}
"""A table of four people: nothing moves on it unless a test says so."""


async def _until(what: Any) -> None:
    """Let the event loop run until ``what()`` holds (a deadline only against a hang)."""
    deadline = time.monotonic() + kit.HANG
    while not what():
        assert time.monotonic() < deadline, "hung"
        await asyncio.sleep(0)


class _Seat:
    """One person's connection, through the protocol, to a table of the real application."""

    def __init__(self, proto: Any, transport: _Transport, client: ClientProtocol) -> None:
        self.proto, self.transport, self.client = proto, transport, client
        self.got: list[dict[str, Any]] = []
        """Every message the person received, in order."""
        self.closed: Close | None = None

    def send(self, *texts: str, frames: list[tuple[Opcode, bytes, bool]] = ()) -> None:  # type: ignore[assignment]
        """Send ``texts`` (and raw ``frames``: opcode, payload, fin) as one read of the server."""
        for text in texts:
            self.client.send_text(text.encode())
        for opcode, data, fin in frames:
            self.client.send_frame(Frame(opcode, data, fin))
        self.proto.data_received(b"".join(self.client.data_to_send()))

    def read(self) -> list[dict[str, Any]]:
        """What the server wrote since the last read (messages in order; a close is kept)."""
        self.client.receive_data(bytes(self.transport.written))
        self.transport.written.clear()
        new = []
        for event in self.client.events_received():
            if isinstance(event, Frame) and event.opcode is Opcode.TEXT:
                new.append(json.loads(bytes(event.data)))
            elif isinstance(event, Frame) and event.opcode is Opcode.CLOSE:
                self.closed = Close.parse(bytes(event.data))
        self.got += new
        return new

    def stale(self) -> list[int]:
        """The seq each ``stale`` refusal received so far answered (in order)."""
        self.read()
        return [int(m["message"].split()[4].rstrip(",")) for m in self.got if m.get("code") == "stale"]


class _Served:
    """The application with a four-person table, served by the protocol over fake transports."""

    def __init__(self, **cfg: Any) -> None:
        self.said: list[str] = []
        config = kit.config(hostnames=("127.0.0.1",), **cfg)
        self.app = create_app(config, report=self.said.append)
        self.manager = self.app.state.manager
        self.table, self.tokens = self.manager.create(read_table_request(PEOPLE, config.max_name))
        _http, self.ws = protocols(ConnectionLimits(100, 10))
        self.config = Config(self.app, ws=self.ws, ws_max_size=1 << 20, ws_per_message_deflate=False,
                             lifespan="off", interface="asgi3")  # fmt: skip
        self.config.load()
        self.seats: list[_Seat] = []
        self.first: int = self.table.game.to_act
        """The seat that acts first."""
        self.other = (self.first + 1) % 4
        """A seat whose moves are refused as stale (its seq named in the refusal), not its turn."""

    async def seat(self, i: int) -> _Seat:
        """Seat ``i``'s connection, once it holds the seat (its first state received)."""
        proto: Any = self.ws(self.config, ServerState(), {}, asyncio.get_running_loop())  # type: ignore[call-arg]
        transport = _Transport()
        proto.connection_made(transport)
        url = f"ws://127.0.0.1:8000/ws/tables/{self.table.id}"
        client = ClientProtocol(parse_uri(url), subprotocols=seat_subprotocols(self.tokens[i]))  # type: ignore[arg-type]
        client.send_request(client.connect())
        proto.data_received(b"".join(client.data_to_send()))
        await _until(lambda: transport.written)
        client.receive_data(bytes(transport.written))
        transport.written.clear()
        assert client.handshake_exc is None, client.handshake_exc
        client.events_received()
        seat = _Seat(proto, transport, client)
        self.seats.append(seat)
        await _until(lambda: any(m["type"] == "state" for m in seat.read()))
        return seat


def _act(seq: int) -> str:
    return json.dumps({"type": "act", "seq": seq, "action": 0})


def _run(body: Any, **cfg: Any) -> None:
    async def main() -> None:
        served = _Served(**cfg)
        async with served.app.router.lifespan_context(served.app):
            await body(served)
            for seat in served.seats:  # the connections end, and their handlers with them
                if not seat.proto.disconnected:
                    seat.proto.connection_lost(None)
            await _until(lambda: served.manager.connections == 0)

    asyncio.run(main())


def test_a_message_is_handled_in_the_loop_turn_it_arrived_in() -> None:
    """A move (text or binary) is checked, played and answered before the read that brought it
    returns: no task wakes for it (before: nothing happened until the handler's task ran)."""

    async def body(served: _Served) -> None:
        seat = await served.seat(served.first)
        seq = served.table.seq
        state = [m for m in seat.got if m["type"] == "state"][-1]
        seat.send(json.dumps({"type": "act", "seq": seq, "action": state["view"]["legal"][0]["id"]}))
        assert served.table.seq == seq + 1, "the move waited for a task"
        await _until(lambda: any(m["type"] == "state" and m["seq"] == seq + 1 for m in seat.read()))
        seat.send(frames=[(Opcode.BINARY, _act(seq).encode(), True)])  # answers a state gone by
        assert seat.stale() == [seq]
        assert seat.closed is None and not seat.transport.closing

    _run(body)


def test_messages_keep_their_order_across_both_paths() -> None:
    """One message per read is handled at once; the others of that read, and any read while some
    wait, queue in order behind them; once the queue is empty the next comes at once again."""

    async def body(served: _Served) -> None:
        seat = await served.seat(served.other)
        seat.send(_act(1000), _act(1001), _act(1002))
        seat.read()
        assert seat.stale() == [1000], "the first message of a read is not handled at once"
        seat.send(_act(1003))  # two wait: this one waits behind them
        seat.read()
        assert seat.stale() == [1000]
        await _until(lambda: seat.read() or len(seat.stale()) == 4)
        assert seat.stale() == [1000, 1001, 1002, 1003]
        seat.send(_act(1004))
        seat.read()
        assert seat.stale() == [1000, 1001, 1002, 1003, 1004]

    _run(body)


def test_an_error_in_the_table_is_answered_and_closes_nothing() -> None:
    """A message the table fails on is refused at once, reported, and the connection goes on."""

    async def body(served: _Served) -> None:
        seat = await served.seat(served.other)
        table: Any = served.table
        real = table.client_message
        calls = []

        def failing(conn: Any, message: Any) -> None:
            calls.append(message.seq)
            if len(calls) == 1:
                raise KeyError("no such thing")
            real(conn, message)

        table.client_message = failing
        seat.send(_act(1000))
        assert [(m["type"], m["code"]) for m in seat.read()] == [("error", "illegal")]
        assert any("could not be handled: KeyError" in line for line in served.said)
        seat.send(_act(1001))
        assert seat.stale() == [1001]
        assert seat.closed is None and not seat.transport.closing

    _run(body)


def test_a_failure_outside_the_table_ends_the_handler_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    """A message whose checks raise (not the table) ends the handler in its task, as it always did:
    the seat is left, the connection closed, nothing is answered to that message or after it."""
    import hucklebuck.server._inbox as inbox

    async def body(served: _Served) -> None:
        seat = await served.seat(served.other)

        def broken(text: Any, size: int) -> Any:
            raise RuntimeError("broken")

        monkeypatch.setattr(inbox, "parse_client_message", broken)
        seat.send(_act(1000))
        assert seat.read() == [] and served.manager.connections == 1
        await _until(lambda: served.manager.connections == 0 and seat.transport.closing)
        assert seat.read() == [] and not served.table.connections

    _run(body)


def test_a_flood_is_refused_and_closed_and_nothing_after_it_is_handled() -> None:
    """Past the connection's burst the message is refused (``rate_limited``) and the connection
    closed with 1008; what the client sends after it is never handled."""

    async def body(served: _Served) -> None:
        seat = await served.seat(served.other)
        for seq in (1000, 1001, 1002):
            seat.send(_act(seq))
        seat.read()
        assert seat.stale() == [1000, 1001, 1002]
        seat.send(_act(1003))  # refused: the handler's task closes the connection
        await _until(lambda: seat.proto.queue.empty())  # it took that message, and is closing
        seat.send(_act(1004))
        await _until(lambda: seat.read() is None or seat.closed is not None)
        assert seat.got[-1]["code"] == "rate_limited"
        assert seat.closed is not None and seat.closed.code == 1008
        assert seat.stale() == [1000, 1001, 1002]

    _run(body, rate=1e-6, burst=3)


def test_a_message_too_large_is_refused_and_closed() -> None:
    """A message past the limit is refused (``too_large``) and the connection closed with 1009;
    a move sent while the close is under way is not played."""

    async def body(served: _Served) -> None:
        seat = await served.seat(served.first)
        seq = served.table.seq
        state = [m for m in seat.got if m["type"] == "state"][-1]
        move = json.dumps({"type": "act", "seq": seq, "action": state["view"]["legal"][0]["id"]})
        seat.send(json.dumps({"type": "hint", "seq": 1, "pad": "x" * 5000}))
        # the move comes right after the handler's task took that message (it is closing)
        asyncio.get_running_loop().call_soon(seat.send, move)
        await _until(lambda: seat.read() is None or seat.closed is not None)
        assert seat.got[-1]["code"] == "too_large"
        assert seat.closed is not None and seat.closed.code == 1009
        assert served.table.seq == seq, "a move was played after the connection was refused"

    _run(body)


def test_bad_utf8_closes_with_1007_and_is_never_handled() -> None:
    """A text message that is not UTF-8 closes the connection (1007) before any check of ours."""

    async def body(served: _Served) -> None:
        seat = await served.seat(served.other)
        seat.send(frames=[(Opcode.TEXT, b'{"type": "act", "seq": 1000, "action": "\xff"}', True)])
        await _until(lambda: seat.read() is None or seat.closed is not None)
        assert seat.closed is not None and seat.closed.code == 1007
        assert seat.stale() == []

    _run(body)


def test_fragments_and_held_writes_go_the_usual_way_in_order() -> None:
    """A message in fragments, and a message read while the client leaves too much unread, wait
    for the handler's task; the answers come in order all the same."""

    async def body(served: _Served) -> None:
        seat = await served.seat(served.other)
        whole = _act(1000).encode()
        seat.send(frames=[(Opcode.TEXT, whole[:10], False), (Opcode.CONT, whole[10:], True)])
        seat.read()
        assert seat.stale() == []
        await _until(lambda: seat.read() or seat.stale())
        assert seat.stale() == [1000]
        seat.proto.pause_writing()
        seat.send(_act(1001))
        assert seat.read() == []
        seat.proto.resume_writing()
        await _until(lambda: seat.read() or len(seat.stale()) == 2)
        seat.send(_act(1002))
        seat.read()
        assert seat.stale() == [1000, 1001, 1002]

    _run(body)
