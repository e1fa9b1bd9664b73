"""The table server sleeps while nothing happens, and a message to a client that keeps up costs
no task switch: wake-ups and switches counted, not timed (the CPU itself is measured by
``python -m hucklebuck.bench server``)."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("websockets.sync.client")

from server_kit import HANG, settle
from test_server_process import Server, _free_port, _state

from hucklebuck.server import store as store_module
from hucklebuck.server.app import _Socket
from hucklebuck.server.store import SQLiteStore, StoredTable

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

IDLE = 2.0
"""Seconds of an idle server whose wake-ups are counted (uvicorn's own loop alone wakes 20 times
in that time, the old checkpoint thread 4 more)."""


def _wake_ups(pid: int) -> int:
    """How many times the process's threads have gone to sleep and been woken (each thread's
    voluntary context switches, from /proc: a thread switches out only when it waits)."""
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/status", encoding="ascii") as f:
                for line in f:
                    if line.startswith("voluntary_ctxt_switches:"):
                        total += int(line.split()[1])
        except OSError:  # (a thread that ended meanwhile)
            pass
    return total


@pytest.mark.single_core
@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="counts the threads' switches in /proc")
def test_an_idle_server_with_a_watched_table_does_not_wake_up(tmp_path: Path) -> None:
    """``hucklebuck serve`` with a table whose person is connected and nobody moves: no thread of
    the process wakes while it waits (the old server woke about 12 times a second: uvicorn's
    loop looking whether to stop, ten times, and the store's checkpoint thread, twice)."""
    server = Server(tmp_path / "t.sqlite", _free_port())
    try:
        seats = [{"kind": "human", "name": f"P{i}"} for i in range(4)]
        table = server.post("/api/tables", {"game": "deerpark", "players": 4, "seats": seats})
        ws = server.connect(table, 0)
        _state(ws)
        pid = server.proc.pid
        for _ in range(20):  # the writes of the start are checkpointed first (one per half second)
            before = _wake_ups(pid)
            time.sleep(store_module.CHECKPOINT_EVERY * 2)
            if _wake_ups(pid) - before <= 1:
                break
        before = _wake_ups(pid)
        time.sleep(IDLE)  # (the span counted, not a wait for a state)
        woke = _wake_ups(pid) - before
        assert woke <= 3, f"an idle server woke {woke} times in {IDLE:g} s"
        ws.close()
    finally:
        code, output = server.stop()
    assert code == 0 and "Traceback" not in output, output


def test_an_idle_store_makes_no_checkpoints_and_a_write_is_still_checkpointed(tmp_path: Path) -> None:
    """The checkpoint thread looks at the log only after a write: none while nothing is written."""
    store = SQLiteStore(str(tmp_path / "t.sqlite"))
    looks = [0]
    real = store.wal_bytes

    def counted() -> int:
        looks[0] += 1
        return real()

    store.wal_bytes = counted  # type: ignore[method-assign]
    try:

        def write_and_wait_for_a_checkpoint(seq: int) -> None:
            seen = looks[0]
            store.commit([StoredTable("a", seq, "{}", "[]", "{}")], [])
            asyncio.run(settle(lambda: looks[0] > seen, "the checkpoint after a write"))

        write_and_wait_for_a_checkpoint(0)
        time.sleep(store_module.CHECKPOINT_EVERY * 2)  # (a write during that checkpoint has its own next)
        after = looks[0]
        time.sleep(store_module.CHECKPOINT_EVERY * 4)  # (the span counted)
        assert looks[0] == after, f"{looks[0] - after} checkpoints with nothing written"
        write_and_wait_for_a_checkpoint(1)
    finally:
        store.close()


class _Client:
    """A stand-in for Starlette's WebSocket: keeps what is sent; ``hold`` makes sends wait; ``fail``
    makes them raise."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.hold: asyncio.Future[None] | None = None
        self.fail = False
        self.scope: dict[str, Any] = {}

    async def send_text(self, text: str) -> None:
        if self.fail:
            raise RuntimeError("the connection is gone")
        if self.hold is not None:
            await self.hold
        self.sent.append(text)

    async def close(self, code: int = 1000, reason: str = "") -> None:
        self.sent.append(f"closed {code}")


def test_a_message_to_a_client_that_keeps_up_is_written_with_no_task_switch() -> None:
    """Each message is with the client when ``send_text`` returns (before, every one waited for
    the writer's task: a future, a wake-up and a task step per message)."""

    async def main() -> None:
        client = _Client()
        sock = _Socket(client, 0)  # type: ignore[arg-type]
        for i in range(50):
            sock.send_text(f"m{i}")
            assert client.sent == [f"m{j}" for j in range(i + 1)]
        await sock.finish()
        assert client.sent[-1] == "m49"

    asyncio.run(main())


def test_messages_after_a_send_that_waits_follow_it_in_order() -> None:
    """A client that reads slowly: the send that waits is finished by the writer's task, and the
    messages after it go after it, in order; then the next message goes at once again."""

    async def main() -> None:
        loop = asyncio.get_running_loop()
        client = _Client()
        sock = _Socket(client, 0)  # type: ignore[arg-type]
        sock.send_text("a")
        client.hold = loop.create_future()
        sock.send_text("b")  # waits for the client
        sock.send_text("c")
        sock.send_text("d")
        assert client.sent == ["a"]
        client.hold.set_result(None)
        client.hold = None
        await settle(lambda: client.sent == ["a", "b", "c", "d"] and sock.queue.empty() and not sock._sending)
        sock.send_text("e")
        assert client.sent[-1] == "e"
        await sock.finish()

    asyncio.run(main())


def test_a_send_that_fails_ends_the_writer_and_nothing_else() -> None:
    """A send that fails at once stops the connection's writer, as a failure in the writer does;
    the caller (a broadcast to the other connections too) goes on."""

    async def main() -> None:
        client = _Client()
        sock = _Socket(client, 0)  # type: ignore[arg-type]
        client.fail = True
        sock.send_text("x")  # does not raise
        await settle(lambda: sock.writer.done(), "the writer's end")
        sock.send_text("y")  # nothing more is sent, and nothing raises
        assert client.sent == []

    asyncio.run(main())


def test_a_close_after_messages_sent_at_once_comes_after_them() -> None:
    """``replace`` (a newer tab took the seat): what was sent goes first, then the close."""

    async def main() -> None:
        client = _Client()
        sock = _Socket(client, 0)  # type: ignore[arg-type]
        sock.send_text("a")
        sock.replace()
        sock.send_text("late")  # after the close was asked for: queued behind it, never sent
        await asyncio.wait_for(sock.writer, HANG)
        assert client.sent == ["a", "closed 4001"]

    asyncio.run(main())


def test_stopping_with_a_connection_whose_client_is_closing_it_closes_it_quietly() -> None:
    """A server that stops at once (no more waiting for its next look at the stop flag) meets
    connections whose client's close is still under way; uvicorn asked those for one more close
    and failed there, skipping the tables' last store and ending the process with status 1."""
    from unittest import mock

    import uvicorn
    from uvicorn.server import ServerState
    from websockets.protocol import State

    from hucklebuck.server.netlimits import ConnectionLimits, protocols

    async def main() -> Any:
        _http, ws_protocol = protocols(ConnectionLimits(10, 5.0, frame_rate=10, frame_burst=20))

        async def app(_scope: Any, _receive: Any, _send: Any) -> None:
            pass

        config = uvicorn.Config(app, ws="websockets-sansio", lifespan="off")
        config.load()
        proto: Any = ws_protocol(config=config, server_state=ServerState(), app_state={})
        transport = mock.Mock()
        transport.is_closing.return_value = False
        ends = {"peername": ("127.0.0.1", 1), "sockname": ("127.0.0.1", 2)}
        transport.get_extra_info.side_effect = lambda name, default=None: ends.get(name, default)
        proto.connection_made(transport)
        proto.handshake_complete = True
        proto.conn.state = State.CLOSING  # (the client's close frame came, and was answered)
        proto.shutdown()
        return transport

    transport = asyncio.run(main())
    assert transport.close.called


def test_a_program_running_the_quiet_server_stops_it_by_its_flag() -> None:
    """``quiet_server`` sleeps until it is told to stop.  A program that runs it itself stops it
    as it stops uvicorn's own server: by setting ``should_exit`` (here from another thread), which
    must wake it, not leave it asleep for ever."""
    import threading

    import uvicorn

    from hucklebuck.server.netlimits import quiet_server

    async def app(scope: Any, receive: Any, send: Any) -> None:
        assert scope["type"] == "http"
        await send({"type": "http.response.start", "status": 204, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    port = _free_port()
    server = quiet_server(uvicorn.Config(app, host="127.0.0.1", port=port, lifespan="off", log_level="error"))
    runner = threading.Thread(target=server.run, daemon=True)
    runner.start()
    deadline = time.monotonic() + HANG
    while not server.started:  # (the state checked, with a deadline only for a hang)
        assert runner.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.01)
    server.should_exit = True
    runner.join(HANG)
    assert not runner.is_alive(), "the server slept on after should_exit was set"
