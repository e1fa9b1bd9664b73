"""The floor under ``bench server``'s CPU per change: the least any server in Python pays for a
change on this machine, at the pace a run's tables kept.

A table change costs the server at least this: the event loop wakes when the change falls due,
stores it (one SQLite commit, shared with the other changes due at that moment) and writes one
message of the state's size to one client's socket.  The floor is a bare :mod:`asyncio` server
that does exactly that and nothing else -- no game, no view, no WebSocket framing, no computer
player, no reading of moves -- for as many connections as the run had tables, each changing as
often as they did, its timers on the same beat as the table server's.  Measured in its own process
right after the table server's run, with the same clock (the process's CPU time, its threads
included).

On a quiet two-core virtual machine the cost of a change follows the gap before it more than
the work in it: at 10 tables (a change every 80 ms) each wake-up finds the process cold, and the
floor alone is near the 0.3 ms target; at 1,000 tables the loop never sleeps and the floor is a
small part of a change.  ``bench server`` passes the floor to the target as the machine's own
figure, so a miss the floor misses too is marked as the host's.

Run as ``python -m hucklebuck.bench.server_floor PORT CONNECTIONS PERIOD BEAT SIZE DB`` (the
server side; :func:`measure` starts it and plays the clients).
"""

from __future__ import annotations

import asyncio
import math
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass

__all__ = ["Floor", "measure", "serve"]


@dataclass(frozen=True)
class Floor:
    """One measurement of the floor."""

    connections: int
    rate: float
    """Changes a second asked for (the table server's run's)."""
    changes: int
    """Messages the clients received in the timed part."""
    cpu_ms: float
    """The floor server's CPU milliseconds per change."""
    load: tuple[float, float]
    """The machine's load average (1 minute) as the timed part began and ended."""


def _on_beat(when: float, beat: float) -> float:
    return max(when, math.ceil(when / beat) * beat) if beat > 0 else when


def serve(port: int, connections: int, period: float, beat: float, size: int, db_path: str) -> None:
    """The floor's server: accept ``connections`` clients on loopback ``port``, then give each a
    change every ``period`` seconds (spread over the period, due on multiples of ``beat``): the
    changes due together are stored in one commit, then each is written as ``size`` bytes."""
    db = sqlite3.connect(db_path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    db.execute("CREATE TABLE changes (id INTEGER PRIMARY KEY, conn INTEGER, seq INTEGER)")
    body = b"x" * size
    transports: list[asyncio.Transport] = []
    pending: list[int] = []

    async def main() -> None:
        loop = asyncio.get_running_loop()
        seqs = [0] * connections

        def flush() -> None:
            due = pending[:]
            pending.clear()
            db.execute("BEGIN")
            db.executemany("INSERT INTO changes (conn, seq) VALUES (?, ?)", [(i, seqs[i]) for i in due])
            db.execute("COMMIT")
            for i in due:
                if not transports[i].is_closing():
                    transports[i].write(body)

        def change(i: int) -> None:
            seqs[i] += 1
            if not pending:
                loop.call_soon(flush)
            pending.append(i)
            loop.call_at(_on_beat(loop.time() + period, beat), change, i)

        class _Conn(asyncio.Protocol):
            def connection_made(self, transport: asyncio.BaseTransport) -> None:
                assert isinstance(transport, asyncio.Transport)
                transports.append(transport)
                if len(transports) == connections:  # every client is in: the changes begin
                    now = loop.time()
                    for i in range(connections):
                        loop.call_at(_on_beat(now + period * (i + 1) / connections, beat), change, i)

        server = await loop.create_server(_Conn, "127.0.0.1", port, backlog=max(100, connections))
        print("ready", flush=True)
        async with server:
            await server.serve_forever()

    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass


class _Client(asyncio.Protocol):
    def __init__(self, counts: list[int]) -> None:
        self.counts = counts

    def data_received(self, data: bytes) -> None:
        self.counts[0] += len(data)


def measure(connections: int, rate: float, seconds: float, *, size: int = 1500, beat: float = 0.05) -> Floor:
    """The floor for ``connections`` tables making ``rate`` changes a second in all, with
    messages of ``size`` bytes: its own server process, measured for ``seconds`` once every
    client has had a change."""
    from .server import _free_port

    period = connections / rate
    with tempfile.TemporaryDirectory() as tmp:
        port = _free_port()
        args = [
            str(port),
            str(connections),
            repr(period),
            repr(beat),
            str(size),
            os.path.join(tmp, "floor.sqlite"),
        ]
        cmd = [sys.executable, "-m", "hucklebuck.bench.server_floor", *args]
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
        try:
            assert proc.stdout is not None
            if proc.stdout.readline().strip() != "ready":
                raise RuntimeError("the floor's server did not start")
            return asyncio.run(_clients(port, proc.pid, connections, rate, seconds, size))
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


async def _clients(port: int, pid: int, connections: int, rate: float, seconds: float, size: int) -> Floor:
    from .server import _cpu_seconds

    loop = asyncio.get_running_loop()
    received = [0]
    for _ in range(connections):
        await loop.create_connection(lambda: _Client(received), "127.0.0.1", port)
    deadline = time.monotonic() + 60 + connections / rate  # (only a hang: each client's first change)
    while received[0] < connections * size and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    before = (received[0], _cpu_seconds(pid), os.getloadavg()[0])
    await asyncio.sleep(seconds)
    while received[0] < before[0] + size and time.monotonic() < deadline + seconds:  # (a starved machine)
        await asyncio.sleep(0.05)
    after = (received[0], _cpu_seconds(pid), os.getloadavg()[0])
    changes = (after[0] - before[0]) // size
    cpu_ms = (after[1] - before[1]) / max(1, changes) * 1e3
    return Floor(connections, rate, changes, cpu_ms, (before[2], after[2]))


if __name__ == "__main__":
    p, n, per, b, s, path = sys.argv[1:7]
    serve(int(p), int(n), float(per), float(b), int(s), path)
